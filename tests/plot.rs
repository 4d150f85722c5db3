//! `sow plot`: the SVG is well-formed XML, has the expected series and points, and its
//! axes span the data (points mapped back through the tick labels give the data).

use std::collections::HashMap;
use std::path::Path;

use assert_cmd::Command;
use quick_xml::events::Event;
use sow::plot::{capture_means, material_quantiles, render, Figure, GameData, PlotKind, Style};
use sow::Side;

mod expect;

const BLUE: &str = "#0072B2";
const VERMILLION: &str = "#D55E00";

/// One SVG element: its name, attributes and (for text) content.
#[derive(Debug, Clone)]
struct El {
    name: String,
    attrs: HashMap<String, String>,
    text: String,
}

impl El {
    fn attr(&self, k: &str) -> &str {
        self.attrs.get(k).map(String::as_str).unwrap_or("")
    }
    fn num(&self, k: &str) -> f64 {
        self.attr(k).parse().unwrap()
    }
    fn points(&self) -> Vec<(f64, f64)> {
        self.attr("points")
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    }
}

/// Parses the SVG strictly (well-formed XML, end names checked) into its elements.
fn parse(svg: &str) -> Vec<El> {
    let mut reader = quick_xml::Reader::from_str(svg);
    reader.config_mut().check_end_names = true;
    let mut out: Vec<El> = Vec::new();
    let mut depth = 0i32;
    let mut open_text: Option<usize> = None;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                let attrs = e
                    .attributes()
                    .map(|a| {
                        let a = a.expect("well-formed attribute");
                        (
                            String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                            a.unescape_value().unwrap().into_owned(),
                        )
                    })
                    .collect();
                if name == "text" {
                    open_text = Some(out.len());
                }
                out.push(El {
                    name,
                    attrs,
                    text: String::new(),
                });
                depth += 1;
            }
            Event::End(_) => {
                depth -= 1;
                open_text = None;
            }
            Event::Text(t) => {
                if let Some(i) = open_text {
                    out[i].text.push_str(t.unescape().unwrap().trim());
                }
            }
            _ => {}
        }
    }
    // Empty elements were counted as opened; only the root must close: balanced.
    assert!(depth >= 0);
    assert_eq!(out.first().map(|e| e.name.as_str()), Some("svg"));
    out
}

/// The texts of a figure in order, joined by spaces: a wrapped title reads whole.
fn said(els: &[El]) -> String {
    let texts: Vec<&str> = (els.iter())
        .filter(|e| e.name == "text")
        .map(|e| e.text.as_str())
        .collect();
    texts.join(" ")
}

/// The linear map from data to pixels of one axis, read from its numeric tick labels:
/// (pixels per unit, pixel of 0) and the labels' values.
fn axis(els: &[El], anchor: &str) -> (f64, f64, Vec<f64>) {
    let ticks: Vec<(f64, f64)> = els
        .iter()
        .filter(|e| {
            e.name == "text" && e.attr("text-anchor") == anchor && e.attr("transform").is_empty()
        })
        .filter_map(|e| {
            let v: f64 = e.text.parse().ok()?;
            let px = if anchor == "end" {
                e.num("y")
            } else {
                e.num("x")
            };
            Some((v, px))
        })
        .collect();
    assert!(
        ticks.len() >= 2,
        "at least two {anchor} tick labels: {ticks:?}"
    );
    let (a, b) = (ticks[0], ticks[ticks.len() - 1]);
    let scale = (b.1 - a.1) / (b.0 - a.0);
    (
        scale,
        a.1 - a.0 * scale,
        ticks.iter().map(|t| t.0).collect(),
    )
}

/// The plotting area: (left, top, right, bottom) pixels, from the axis lines.
fn plot_area(els: &[El], x: (f64, f64), y: (f64, f64), data_x: (f64, f64)) -> [f64; 4] {
    let _ = (x, y, data_x);
    let lines: Vec<Vec<(f64, f64)>> = els
        .iter()
        .filter(|e| {
            e.name == "polyline" && e.attr("stroke") == "#000000" && e.attr("opacity") == "1"
        })
        .map(El::points)
        .filter(|p| p.len() == 2)
        .collect();
    // The longest vertical and horizontal black lines are the axes.
    let vertical = lines
        .iter()
        .filter(|p| p[0].0 == p[1].0)
        .max_by(|a, b| (a[1].1 - a[0].1).abs().total_cmp(&(b[1].1 - b[0].1).abs()))
        .expect("a y axis");
    let horizontal = lines
        .iter()
        .filter(|p| p[0].1 == p[1].1)
        .max_by(|a, b| (a[1].0 - a[0].0).abs().total_cmp(&(b[1].0 - b[0].0).abs()))
        .expect("an x axis");
    [
        horizontal[0].0.min(horizontal[1].0),
        vertical[0].1.min(vertical[1].1),
        horizontal[0].0.max(horizontal[1].0),
        vertical[0].1.max(vertical[1].1),
    ]
}

fn series<'a>(els: &'a [El], stroke: &str, min_points: usize) -> Vec<&'a El> {
    els.iter()
        .filter(|e| {
            e.name == "polyline" && e.attr("stroke") == stroke && e.points().len() >= min_points
        })
        .collect()
}

/// Checks that a polyline, mapped back through the tick labels, is `data`, and lies in
/// the plotting area.
fn check_line(els: &[El], line: &El, data: &[(f64, f64)]) {
    let (sx, x0, _) = axis(els, "middle");
    let (sy, y0, _) = axis(els, "end");
    let area = plot_area(els, (sx, x0), (sy, y0), (0.0, 0.0));
    let pts = line.points();
    assert_eq!(pts.len(), data.len(), "points of the series");
    for (&(px, py), &(x, y)) in pts.iter().zip(data) {
        let (dx, dy) = ((px - x0) / sx, (py - y0) / sy);
        assert!((dx - x).abs() <= 1.5 / sx.abs(), "x {dx} for {x}");
        assert!((dy - y).abs() <= 1.5 / sy.abs(), "y {dy} for {y}");
        assert!(
            px >= area[0] - 0.5 && px <= area[2] + 0.5,
            "x pixel {px} inside {area:?}"
        );
        assert!(
            py >= area[1] - 0.5 && py <= area[3] + 0.5,
            "y pixel {py} inside {area:?}"
        );
    }
}

fn game(kind: &str, material: Vec<[u32; 2]>, captures: Vec<u32>) -> GameData {
    let plies = material.len() - 1;
    GameData {
        kind: kind.into(),
        stopped: false,
        name: "Tendai - Farai, Field".into(),
        prisons: false,
        plies,
        laps: (0..plies as u64).map(|i| 1 + i % 4).collect(),
        captures: (0..plies)
            .map(|i| {
                let side = if i % 2 == 0 { Side::South } else { Side::North };
                (side, captures.get(i).copied().unwrap_or(0))
            })
            .collect(),
        material,
    }
}

fn one_game() -> GameData {
    game(
        "Tsoro 4x12",
        vec![
            [25, 25],
            [25, 25],
            [25, 18],
            [20, 18],
            [20, 18],
            [20, 11],
            [20, 11],
        ],
        vec![0, 7, 5, 0, 7, 0],
    )
}

#[test]
fn material_of_one_game_two_lines_through_every_ply() {
    let g = one_game();
    let svg = render(
        PlotKind::Material,
        std::slice::from_ref(&g),
        &Style::default(),
    )
    .unwrap();
    let els = parse(&svg);
    assert_eq!(els[0].attr("width"), "84mm");
    for (i, color) in [BLUE, VERMILLION].into_iter().enumerate() {
        let lines = series(&els, color, 3);
        assert_eq!(lines.len(), 1, "one {color} line");
        let data: Vec<(f64, f64)> = g
            .material
            .iter()
            .enumerate()
            .map(|(n, m)| (n as f64, m[i] as f64))
            .collect();
        check_line(&els, lines[0], &data);
    }
    // Markers differ per side: circles for South, triangles (polygons) for North.
    assert!(els
        .iter()
        .any(|e| e.name == "circle" && e.attr("fill") == BLUE));
    assert!(els.iter().any(|e| e.name == "polygon"
        || (e.name == "polyline" && e.attr("stroke") == VERMILLION && e.points().len() == 4)));
    // Title from the record, axis titles with units, legend.
    let texts: Vec<&str> = els
        .iter()
        .filter(|e| e.name == "text")
        .map(|e| e.text.as_str())
        .collect();
    assert!(
        said(&els).contains("Material: Tendai - Farai, Field (Tsoro 4x12)"),
        "{texts:?}"
    );
    assert!(texts.contains(&"stones on own rows"));
    assert!(texts.contains(&"ply"));
    assert!(texts.contains(&"South") && texts.contains(&"North"));
}

#[test]
fn material_of_a_corpus_medians_bands_and_every_game() {
    let games: Vec<GameData> = (0..10)
        .map(|k| {
            let n = 4 + k % 3;
            game(
                "Tsoro 4x12",
                (0..=n)
                    .map(|i| [25 - i as u32 * (k as u32 % 3), 25 - i as u32])
                    .collect(),
                vec![],
            )
        })
        .collect();
    let quantiles = material_quantiles(&games);
    // Every game reaches ply 4, 2 of 10 reach... all have at least 5 points.
    assert!(quantiles[0].len() >= 5);
    // Ply 0: every game starts at 25-25.
    assert_eq!(quantiles[1][0].1, [25.0, 25.0, 25.0]);
    let style = Style {
        title: Some("Ten games".into()),
        ..Style::default()
    };
    let svg = render(PlotKind::Material, &games, &style).unwrap();
    let els = parse(&svg);
    for (i, color) in [BLUE, VERMILLION].into_iter().enumerate() {
        let lines = series(&els, color, 3);
        assert_eq!(lines.len(), 1, "one median line per side");
        let median: Vec<(f64, f64)> = quantiles[i].iter().map(|(x, q)| (*x, q[1])).collect();
        check_line(&els, lines[0], &median);
    }
    let bands = els
        .iter()
        .filter(|e| e.name == "polygon" && e.attr("opacity") == "0.2")
        .count();
    assert_eq!(bands, 2, "one 25-75% band per side");
    assert!(els
        .iter()
        .any(|e| e.name == "text" && e.text == "Ten games"));

    let every = Style {
        every: true,
        ..Style::default()
    };
    let els = parse(&render(PlotKind::Material, &games, &every).unwrap());
    let faint = els
        .iter()
        .filter(|e| {
            let opacity = e.attr("opacity").parse().unwrap_or(1.0);
            e.name == "polyline" && opacity > 0.0 && opacity <= 0.25
        })
        .count();
    assert_eq!(faint, 2 * games.len(), "every game faintly, both sides");
}

/// Bars of a colour (legend swatch left out), as (left, right, height in data units).
fn bars(els: &[El], fill: &str) -> Vec<(f64, f64, f64)> {
    let (sx, x0, _) = axis(els, "middle");
    let (sy, _, _) = axis(els, "end");
    let mut rects: Vec<&El> = els
        .iter()
        .filter(|e| e.name == "rect" && e.attr("fill") == fill)
        .collect();
    rects.pop(); // the legend's swatch comes last
    rects
        .iter()
        .map(|r| {
            let (x, w, h) = (r.num("x"), r.num("width"), r.num("height"));
            ((x - x0) / sx, (x + w - x0) / sx, h / -sy)
        })
        .collect()
}

#[test]
fn length_histogram_counts_every_game_per_kind() {
    let mut games: Vec<GameData> = (0..7)
        .map(|k| game("Tsoro 4x12", vec![[1, 1]; 3 + k], vec![]))
        .collect();
    games.extend((0..4).map(|k| game("Nsolo 4x8", vec![[1, 1]; 10 + 2 * k], vec![])));
    let els = parse(&render(PlotKind::Length, &games, &Style::default()).unwrap());
    for (fill, n, lengths) in [(BLUE, 7.0, 2..=8usize), (VERMILLION, 4.0, 9..=15)] {
        let b = bars(&els, fill);
        let total: f64 = b.iter().map(|b| b.2).sum();
        assert!(
            (total - n).abs() < 0.3,
            "{fill}: {total} games in the bars, {n} played"
        );
        // Each bar's bin holds the lengths it counts: bars lie within the data's range.
        for (lo, hi, _) in &b {
            assert!(
                *lo >= *lengths.start() as f64 - 1.0 && *hi <= *lengths.end() as f64 + 1.5,
                "bar {lo}..{hi}"
            );
        }
    }
    let texts: Vec<&str> = els
        .iter()
        .filter(|e| e.name == "text")
        .map(|e| e.text.as_str())
        .collect();
    // Each set's series says how many games it holds.
    assert!(
        texts.contains(&"Tsoro 4x12: 7 games") && texts.contains(&"Nsolo 4x8: 4 games"),
        "legend: {texts:?}"
    );
    assert!(texts.contains(&"games"));
}

#[test]
fn laps_shares_add_up_to_one_hundred_percent() {
    let games = vec![one_game(), one_game()];
    let els = parse(&render(PlotKind::Laps, &games, &Style::default()).unwrap());
    let b = bars(&els, BLUE);
    // Laps 1, 2, 3, 4, 1, 2: four bins.
    assert_eq!(b.len(), 4);
    let total: f64 = b.iter().map(|b| b.2).sum();
    assert!((total - 100.0).abs() < 2.0, "{total}%");
    assert!(els
        .iter()
        .any(|e| e.name == "text" && e.text == "share of plies (%)"));
}

#[test]
fn captures_of_one_game_and_of_a_corpus() {
    let g = one_game();
    let els = parse(
        &render(
            PlotKind::Captures,
            std::slice::from_ref(&g),
            &Style::default(),
        )
        .unwrap(),
    );
    // South captured 5 at ply 3 and 7 at ply 5; North 7 at ply 2 (outlined bars).
    let south = bars(&els, BLUE);
    assert_eq!(south.len(), 2);
    for ((lo, hi, h), (ply, taken)) in south.iter().zip([(3.0, 5.0), (5.0, 7.0)]) {
        assert!(
            (h - taken).abs() < 0.2 && *lo < ply && *hi > ply,
            "{lo}..{hi}: {h}"
        );
    }
    let north: Vec<&El> = els
        .iter()
        .filter(|e| e.name == "rect" && e.attr("stroke") == VERMILLION)
        .collect();
    assert_eq!(north.len(), 1 + 1, "one bar and the legend swatch");

    let other = game("Tsoro 4x12", vec![[1, 1]; 4], vec![0, 3, 1]);
    let games = vec![g, other];
    let means = capture_means(&games);
    assert_eq!(means[1][0], (2.0, 5.0), "North at ply 2: (7 + 3) / 2");
    let els = parse(&render(PlotKind::Captures, &games, &Style::default()).unwrap());
    for (i, color) in [BLUE, VERMILLION].into_iter().enumerate() {
        let lines = series(&els, color, 3);
        assert_eq!(lines.len(), 1);
        check_line(&els, lines[0], &means[i]);
    }
}

#[test]
fn sizes_follow_the_options_and_bad_sizes_are_refused() {
    let style = Style {
        width_mm: 174.0,
        height_mm: Some(100.0),
        ..Style::default()
    };
    let els = parse(&render(PlotKind::Material, &[one_game()], &style).unwrap());
    assert_eq!(
        (els[0].attr("width"), els[0].attr("height")),
        ("174mm", "100mm")
    );
    // The view box is in points: 174 mm is 493.23 pt.
    assert_eq!(els[0].attr("viewBox"), "0 0 493.23 283.46");
    let tiny = Style {
        width_mm: 10.0,
        ..Style::default()
    };
    assert!(render(PlotKind::Material, &[one_game()], &tiny).is_err());
    let flat = Style {
        height_mm: Some(15.0),
        ..Style::default()
    };
    assert!(render(PlotKind::Material, &[one_game()], &flat).is_err());
    assert!(render(PlotKind::Length, &[], &Style::default()).is_err());
}

#[test]
fn the_command_writes_an_svg_and_refuses_an_empty_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.svg");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/analysers/kiothi.pmn");
    Command::cargo_bin("sow")
        .unwrap()
        .args(["plot", "--kind", "length"])
        .arg(&data)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let els = parse(&std::fs::read_to_string(&out).unwrap());
    assert!(els
        .iter()
        .any(|e| e.name == "text" && e.text.contains("3 games of Kiothi 2x10")));
    // Not overwritten without --force.
    Command::cargo_bin("sow")
        .unwrap()
        .args(["plot", "--kind", "length"])
        .arg(&data)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2);
    Command::cargo_bin("sow")
        .unwrap()
        .args(["plot", "--game", "Nsolo"])
        .arg(&data)
        .arg("-o")
        .arg(dir.path().join("none.svg"))
        .assert()
        .code(2);
}

#[test]
fn games_that_cannot_be_replayed_are_said_not_drawn() {
    // Such games are left out of the figure and said so, and with no other game the
    // message does not blame the filters or the input.
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bad = root.join("records/flawed/bad-board.pmn");
    let good = root.join("tests/data/analysers/kiothi.pmn");
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["plot", "--kind", "length"])
        .arg(&good)
        .arg(&bad)
        .arg("-o")
        .arg(dir.path().join("l.svg"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("sow: 1 game could not be replayed"),
        "{stderr}"
    );
    let out = Command::cargo_bin("sow")
        .unwrap()
        .arg("plot")
        .arg(&bad)
        .arg("-o")
        .arg(dir.path().join("b.svg"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("not replayed"), "{stderr}");
    assert!(!dir.path().join("b.svg").exists());
}

/// Random games written as PMN text (the moves of `GameState::play_random`).
fn generated(game: sow::Game, options: &str, games: usize, seed: u64, max_plies: u32) -> String {
    let rules = sow::Rules::new(game, None, options).unwrap();
    let mut rng = sow::rng::Rng::new(seed);
    let mut text = String::new();
    for g in 0..games {
        let mut state = sow::GameState::start(rules.clone());
        let mut effect = sow::Effect::default();
        let mut moves = String::new();
        while state.plies() < max_plies {
            let n = state.plies();
            let Some(mv) = state.play_random(&mut rng, &mut effect) else {
                break;
            };
            if n.is_multiple_of(2) {
                moves.push_str(&format!("{}. ", n / 2 + 1));
            }
            let mut ply = mv.to_string();
            if effect.is_capture() && !ply.contains('x') {
                ply.push('x');
            }
            moves.push_str(&ply);
            moves.push(' ');
        }
        let result = state.outcome().map_or("*", |o| o.result_token());
        text.push_str(&format!(
            "[Game \"{}\"]\n[Rules \"{}\"]\n[Event \"Random playouts\"]\n[Round \"{}\"]\n[Source \"generated by tests/plot.rs\"]\n[Result \"{result}\"]\n\n{moves}{result}\n\n",
            game.tag_name(),
            rules.options_tag(),
            g + 1
        ));
    }
    text
}

/// The example figures of docs/ are those of random playouts, 200 games of each game
/// with its default board and options (`UPDATE_EXPECT=1` renders them again).
#[test]
fn docs_examples_are_rendered_from_random_playouts() {
    let data = |text: &str| -> Vec<GameData> {
        sow::pmn::parse_str(text)
            .iter()
            .map(|g| {
                let trace = sow::replay::replay(g, &sow::replay::ReplayOptions::full());
                assert!(trace.is_valid(), "{:?}", trace.diagnostics.first());
                GameData::from_trace(&g.record, &trace).unwrap()
            })
            .collect()
    };
    let tsoro = data(&generated(sow::Game::Tsoro, "", 200, 7, 400));
    let nsolo = data(&generated(sow::Game::Nsolo, "", 200, 8, 400));
    let kiothi = data(&generated(sow::Game::Kiothi, "", 200, 9, 400));
    let bao = data(&generated(sow::Game::BaoLaKimasai, "", 200, 10, 400));
    let mut all = tsoro.clone();
    all.extend(nsolo.iter().cloned());
    all.extend(kiothi.iter().cloned());
    all.extend(bao);
    // A double column's width, as the README shows them.
    let style = Style {
        width_mm: 174.0,
        ..Style::default()
    };
    let write = |name: &str, svg: String| {
        parse(&svg);
        expect::check_file(&format!("docs/{name}"), &svg);
    };
    let material = Style {
        every: true,
        title: Some("Tsoro 4x21: stones on each side, 200 random games".into()),
        ..style.clone()
    };
    write(
        "plot-material.svg",
        render(PlotKind::Material, &tsoro, &material).unwrap(),
    );
    let titled = |t: &str| Style {
        title: Some(t.into()),
        ..style.clone()
    };
    write(
        "plot-length.svg",
        render(
            PlotKind::Length,
            &all,
            &titled("Game lengths, 200 random games each"),
        )
        .unwrap(),
    );
    write(
        "plot-laps.svg",
        render(
            PlotKind::Laps,
            &all,
            &titled("Laps per ply, 200 random games each"),
        )
        .unwrap(),
    );
    write(
        "plot-captures.svg",
        render(PlotKind::Captures, &kiothi, &style).unwrap(),
    );
}

/// `sow plot` keeps only the series its figure draws (`GameData::from_trace_for`), and
/// replays with positions only for material: each figure must come out byte for byte as
/// from every series, for one game and for many, under the options `collect` uses.
#[test]
fn each_figure_needs_only_the_series_it_keeps() {
    let mut text = generated(sow::Game::Tsoro, "", 12, 3, 120);
    text.push_str(&generated(sow::Game::Kiothi, "", 12, 4, 120));
    // A start not understood: no figure shows the game.
    text.push_str("[Game \"Tsoro\"]\n[SetUp \"1\"]\n[Position \"x\"]\n\n1. a3 *\n");
    let games = sow::pmn::parse_str(&text);
    assert_eq!(games.len(), 25);
    let full_options = {
        let mut o = sow::replay::ReplayOptions::full();
        o.keep_positions = true;
        o
    };
    let full: Vec<GameData> = games
        .iter()
        .filter_map(|g| {
            let trace = sow::replay::replay(g, &full_options);
            GameData::from_trace(&g.record, &trace)
        })
        .collect();
    assert_eq!(full.len(), 24);
    for kind in [
        PlotKind::Material,
        PlotKind::Length,
        PlotKind::Laps,
        PlotKind::Captures,
    ] {
        let mut options = sow::replay::ReplayOptions::full();
        options.keep_positions = kind == PlotKind::Material;
        let kept: Vec<GameData> = games
            .iter()
            .filter_map(|g| {
                let trace = sow::replay::replay(g, &options);
                GameData::from_trace_for(Some(kind), &g.record, &trace)
            })
            .collect();
        assert_eq!(kept.len(), full.len(), "{kind:?}");
        if kind != PlotKind::Material {
            assert!(kept.iter().all(|g| g.material.is_empty()), "{kind:?}");
        }
        for style in [
            Style::default(),
            Style {
                every: true,
                ..Style::default()
            },
        ] {
            // Material is drawn of one kind of material: the Tsoro games.
            let n = if kind == PlotKind::Material {
                12
            } else {
                full.len()
            };
            for (all, some) in [(&full[..n], &kept[..n]), (&full[..1], &kept[..1])] {
                assert_eq!(
                    render(kind, some, &style).unwrap(),
                    render(kind, all, &style).unwrap(),
                    "{kind:?}, {} games, every: {}",
                    all.len(),
                    style.every
                );
            }
        }
    }
}

#[test]
fn control_characters_of_a_tag_do_not_reach_the_svg() {
    // An Event tag with a bell and an escape would make the SVG ill-formed (XML 1.0
    // allows no control characters but tab, line feed and carriage return).
    let mut g = one_game();
    // Nor U+FFFE or U+FFFF.
    g.name = "bell\u{7} esc\u{1b}[31m \u{fffe}\u{ffff}".into();
    let svg = render(PlotKind::Material, &[g], &Style::default()).unwrap();
    let bad: Vec<char> = svg
        .chars()
        .filter(|&c| {
            c.is_control() && !matches!(c, '\t' | '\n' | '\r')
                || matches!(c, '\u{fffe}' | '\u{ffff}')
        })
        .collect();
    assert!(bad.is_empty(), "{bad:?}");
    assert!(svg.contains("bell\u{fffd} esc\u{fffd}[31m \u{fffd}\u{fffd}"));
    parse(&svg);
}

#[test]
fn material_of_kiothi_and_another_game_is_drawn_a_panel_each() {
    // Prisons and stones on the board are never merged into one median: each set has
    // its panel, with its own axis.
    let mut kiothi = one_game();
    kiothi.kind = "Kiothi 2x10".into();
    kiothi.prisons = true;
    let svg = render(
        PlotKind::Material,
        &[one_game(), kiothi.clone()],
        &Style::default(),
    )
    .unwrap();
    let all = said(&parse(&svg));
    for text in [
        "Material: 2 games in 2 sets",
        "Tsoro 4x12 (1 game)",
        "Kiothi 2x10 (1 game)",
        "stones in prison",
        "stones on own rows",
    ] {
        assert!(all.contains(text), "{text}: {all}");
    }
    assert!(render(PlotKind::Length, &[one_game(), kiothi], &Style::default()).is_ok());
}

#[test]
fn no_figures_series_mixes_two_sets() {
    // Tsoro on three boards and under other rules, Kiothi, Nsolo: sets of (game, board,
    // rules) whose material and captures differ.
    let sets = [
        "Tsoro 4x8",
        "Tsoro 4x12",
        "Tsoro 4x21",
        "Tsoro 4x21 head-bonus=yes",
        "Kiothi 2x10",
        "Nsolo 4x8",
    ];
    let mut games = Vec::new();
    for (k, set) in sets.iter().enumerate() {
        for i in 0..(3 + k) {
            let start = 8 * (k as u32 + 1);
            let plies = 4 + 2 * k + i;
            let material = (0..=plies as u32)
                .map(|n| [start.saturating_sub(n / 2), start.saturating_sub(n / 3)])
                .collect();
            let captures = (0..plies).map(|n| (k + n) as u32 % 3).collect();
            let mut g = game(set, material, captures);
            g.prisons = set.starts_with("Kiothi");
            g.stopped = i == 0 && k % 2 == 0;
            games.push(g);
        }
    }
    for kind in [PlotKind::Material, PlotKind::Captures] {
        let mut figure = Figure::new(kind, false);
        for g in &games {
            figure.add(g.clone());
        }
        let counted = figure.sets();
        assert_eq!(counted.len(), sets.len());
        for (k, (set, n, stopped)) in counted.into_iter().enumerate() {
            let alone: Vec<GameData> = games.iter().filter(|g| g.kind == set).cloned().collect();
            assert_eq!((n, stopped), (alone.len(), usize::from(k % 2 == 0)));
            let panel = figure.panel(k).unwrap();
            // The panel's series are those of its set's games alone.
            assert_eq!(
                panel.material_quantiles(),
                material_quantiles(&alone),
                "{set}"
            );
            assert_eq!(panel.capture_means(), capture_means(&alone), "{set}");
        }
        // Wide enough for each panel's title to say its games in full.
        let wide = Style {
            width_mm: 254.0,
            ..Style::default()
        };
        let all = said(&parse(&render(kind, &games, &wide).unwrap()));
        for (k, set) in sets.iter().enumerate() {
            let n = 3 + k;
            let title = if k % 2 == 0 {
                format!("{set} ({n} games, 1 stops at an error)")
            } else {
                format!("{set} ({n} games)")
            };
            assert!(all.contains(&title), "{kind:?}: {title} in {all}");
        }
        assert!(all.contains("A game that stops at an error is drawn up to it."));
    }
    // Lengths and laps: a labelled series per set.
    for kind in [PlotKind::Length, PlotKind::Laps] {
        let all = said(&parse(&render(kind, &games, &Style::default()).unwrap()));
        for set in sets {
            assert!(all.contains(&format!("{set}: ")), "{kind:?}: {set}");
        }
    }
}

#[test]
fn the_readme_material_example_draws_one_panel_per_board() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("material.svg");
    let run = Command::cargo_bin("sow")
        .unwrap()
        .args([
            "plot",
            "records/generated",
            "--game",
            "Tsoro",
            "--kind",
            "material",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let svg = std::fs::read_to_string(&out).unwrap();
    let els = parse(&svg);
    let panels: Vec<&str> = (els.iter())
        .filter(|e| e.name == "text" && e.attr("class") == "panel")
        .map(|e| e.text.as_str())
        .filter(|l| l.starts_with("Tsoro 4x"))
        .collect();
    assert!(panels.len() >= 3, "{panels:?}");
    for board in ["4x8", "4x12", "4x21"] {
        assert!(
            panels
                .iter()
                .any(|p| p.starts_with(&format!("Tsoro {board}"))),
            "{board}: {panels:?}"
        );
    }
}
