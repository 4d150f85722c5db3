//! Figures as a reader sees them in print. Every kind of plot, and the board diagrams of
//! the four games, is rendered through usvg with the shipped font at single-column
//! (84 mm), double-column (174 mm) and slide (254 mm) widths, on the records of
//! `records/` and on generated corpora of 1, 2, 7 and 300 games; then:
//! - no two texts overlap (their layout boxes: ascent to descent, advance to advance);
//! - no text leaves the canvas;
//! - no legend overlaps a drawn data element (the groups `legend` and `data*`);
//! - every text is at least 7 pt at print size.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use sow::plot::{GameData, PlotKind};
use usvg::{Node, Rect, Tree};

/// Print widths, in mm, with their names.
const WIDTHS: [(&str, f64); 3] = [("single", 84.0), ("double", 174.0), ("slide", 254.0)];

/// The smallest text allowed at print size, in points.
const MIN_PT: f32 = 7.0;

const PT_PER_MM: f64 = 72.0 / 25.4;

fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut options = usvg::Options::default();
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(sow::figure::FONT_REGULAR.to_vec());
        fonts.load_font_data(sow::figure::FONT_BOLD.to_vec());
        options.fontdb = Arc::new(fonts);
        options
    })
}

/// A text as laid out: what it says, its box on the canvas, its size at print size.
#[derive(Debug)]
struct Text {
    said: String,
    area: Rect,
    pt: f32,
}

/// What the layout check reads of a figure.
#[derive(Default, Debug)]
struct Laid {
    texts: Vec<Text>,
    legends: Vec<Rect>,
    /// Data elements: the leaves of groups whose id starts with `data`.
    data: Vec<Rect>,
}

/// The scale of a transform: how much it enlarges a length.
fn scale(ts: usvg::Transform) -> f32 {
    (ts.sx * ts.sy - ts.kx * ts.ky).abs().sqrt()
}

fn walk(group: &usvg::Group, in_data: bool, to_pt: f32, laid: &mut Laid) {
    for node in group.children() {
        match node {
            Node::Group(g) => {
                let data = in_data || g.id().starts_with("data");
                if g.id().starts_with("legend") {
                    laid.legends.push(g.abs_bounding_box());
                }
                walk(g, data, to_pt, laid);
            }
            Node::Text(t) => {
                let said: String = t.chunks().iter().map(|c| c.text()).collect();
                let size = (t.chunks().iter())
                    .flat_map(|c| c.spans())
                    .map(|s| s.font_size().get())
                    .fold(f32::INFINITY, f32::min);
                let area = t.abs_bounding_box();
                laid.texts.push(Text {
                    said,
                    area,
                    pt: size * scale(t.abs_transform()) * to_pt,
                });
                if in_data {
                    laid.data.push(area);
                }
            }
            Node::Path(p) if in_data => laid.data.push(p.abs_stroke_bounding_box()),
            Node::Image(i) if in_data => laid.data.push(i.abs_bounding_box()),
            _ => {}
        }
    }
}

/// The overlap of two boxes, if both sides exceed a hundredth of a point.
fn overlap(a: &Rect, b: &Rect, slack: f32) -> bool {
    let w = a.right().min(b.right()) - a.left().max(b.left());
    let h = a.bottom().min(b.bottom()) - a.top().max(b.top());
    w > slack && h > slack
}

/// The problems of a figure printed `mm` wide, each in words.
fn problems(svg: &str, mm: f64) -> Vec<String> {
    let tree = match Tree::from_str(svg, options()) {
        Ok(tree) => tree,
        Err(e) => return vec![format!("usvg cannot read the figure: {e}")],
    };
    let size = tree.size();
    let to_pt = (mm * PT_PER_MM) as f32 / size.width();
    let mut laid = Laid::default();
    walk(tree.root(), false, to_pt, &mut laid);
    let slack = 0.01 / to_pt;
    let mut out = Vec::new();
    if laid.texts.is_empty() {
        out.push("no text laid out (the font not found?)".into());
    }
    for (i, a) in laid.texts.iter().enumerate() {
        if a.pt < MIN_PT - 0.01 {
            out.push(format!("{:?} is {:.1} pt", a.said, a.pt));
        }
        let r = &a.area;
        if r.left() < -slack
            || r.top() < -slack
            || r.right() > size.width() + slack
            || r.bottom() > size.height() + slack
        {
            out.push(format!(
                "{:?} leaves the canvas ({r:?} on {}x{})",
                a.said,
                size.width(),
                size.height()
            ));
        }
        for b in &laid.texts[i + 1..] {
            if overlap(&a.area, &b.area, slack) {
                out.push(format!("{:?} overlaps {:?}", a.said, b.said));
            }
        }
    }
    for legend in &laid.legends {
        for d in &laid.data {
            if overlap(legend, d, slack) {
                out.push(format!("the legend {legend:?} overlaps data at {d:?}"));
                break;
            }
        }
    }
    out
}

/// A figure printed at a width: the SVG to check.
fn plot(kind: PlotKind, games: &[GameData], every: bool, mm: f64) -> String {
    let style = sow::plot::Style {
        width_mm: mm,
        every,
        ..sow::plot::Style::default()
    };
    sow::plot::render(kind, games, &style).expect("a figure")
}

/// The diagrams of a game: its start, the position after each ply that captures (the
/// first three), and its final position with the last ply and, if it ended, its outcome.
fn diagrams(text: &str, mm: f64) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for game in sow::pmn::parse_str(text).iter().take(1) {
        let trace = sow::replay::replay(game, &sow::replay::ReplayOptions::full());
        let Some(rules) = trace.rules.clone() else {
            continue;
        };
        let replayed = trace.plies.len();
        let capturing = (1..=replayed)
            .filter(|&n| trace.plies[n - 1].effect.is_capture())
            .take(3);
        for ply in [0].into_iter().chain(capturing).chain([replayed]) {
            let Some(pos) = trace.position_after(ply) else {
                continue;
            };
            let last = ply.checked_sub(1).and_then(|i| trace.plies.get(i));
            let outcome = trace.outcome.as_ref().filter(|_| ply == replayed);
            let svg = sow::diagram::svg_board_at(&rules, pos, last, outcome, Some(mm));
            out.push((format!("after ply {ply}"), svg));
        }
    }
    out
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every game of the records under `records/` that replays, with its figure data.
fn records() -> Vec<GameData> {
    let mut out = Vec::new();
    for dir in ["examples", "generated", "sources"] {
        let mut files: Vec<_> = std::fs::read_dir(root().join("records").join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pmn"))
            .collect();
        files.sort();
        for file in files {
            out.extend(data(&std::fs::read_to_string(file).unwrap()));
        }
    }
    out
}

fn data(text: &str) -> Vec<GameData> {
    let mut options = sow::replay::ReplayOptions::full();
    options.keep_positions = true;
    sow::pmn::parse_str(text)
        .iter()
        .filter_map(|g| {
            let trace = sow::replay::replay(g, &options);
            GameData::from_trace(&g.record, &trace)
        })
        .collect()
}

/// `games` random games: `sow generate` in-process, seeded, of the four games in turn
/// on their smallest boards (Bao la Kimasai on its own), at most 120 plies each.
fn generated(games: usize, seed: u64) -> String {
    let sets = [
        ("Tsoro", Some("4x6")),
        ("Kiothi", None),
        ("Nsolo", Some("4x8")),
        ("BaoLaKimasai", None),
    ];
    let mut text = String::new();
    for (i, (game, board)) in sets.iter().enumerate() {
        let n = games / sets.len() + usize::from(i < games % sets.len());
        if n == 0 {
            continue;
        }
        let options = sow::generate::GenerateOptions {
            game: game.to_string(),
            board: board.map(str::to_string),
            rules: String::new(),
            games: n,
            seed: seed + i as u64,
            player: sow::generate::Player::Random,
            max_plies: 120,
        };
        text.push_str(&sow::generate::run(&options).expect("games generated"));
    }
    text
}

const KINDS: [PlotKind; 4] = [
    PlotKind::Material,
    PlotKind::Length,
    PlotKind::Laps,
    PlotKind::Captures,
];

/// Checks every figure kind of a corpus at every width; the problems in words.
fn check_plots(corpus: &str, games: &[GameData]) -> Vec<String> {
    let mut out = Vec::new();
    for kind in KINDS {
        for every in [false, true] {
            if every && kind != PlotKind::Material {
                continue;
            }
            for (width, mm) in WIDTHS {
                let svg = plot(kind, games, every, mm);
                for p in problems(&svg, mm) {
                    out.push(format!("{corpus}, {kind:?} (every: {every}), {width}: {p}"));
                }
            }
        }
    }
    out
}

/// Fails with the number of problems of each kind and the first few in words.
fn report(problems: Vec<String>) {
    let n = problems.len();
    let kinds = [" pt", "overlaps", "leaves the canvas", "the legend"]
        .map(|k| (k, problems.iter().filter(|p| p.contains(k)).count()));
    let shown: Vec<String> = problems.into_iter().take(40).collect();
    assert!(
        n == 0,
        "{n} layout problems ({kinds:?}):\n{}",
        shown.join("\n")
    );
}

#[test]
fn plots_of_the_records_lay_out_at_print_sizes() {
    report(check_plots("records/", &records()));
}

#[test]
fn plots_of_generated_corpora_lay_out_at_print_sizes() {
    let mut out = Vec::new();
    for (games, seed) in [(1, 11), (2, 12), (7, 13), (300, 14)] {
        let text = generated(games, seed);
        let data = data(&text);
        assert_eq!(data.len(), games, "every generated game replays");
        out.extend(check_plots(&format!("{games} games"), &data));
    }
    report(out);
}

#[test]
fn board_diagrams_of_the_four_games_lay_out_at_print_sizes() {
    let mut out = Vec::new();
    for name in ["tsoro", "nsolo", "kiothi", "bao-la-kimasai"] {
        let file = root().join(format!("records/examples/{name}.pmn"));
        let text = std::fs::read_to_string(file).unwrap();
        for (width, mm) in WIDTHS {
            let drawn = diagrams(&text, mm);
            assert!(drawn.len() >= 2, "{name}: diagrams drawn");
            for (at, svg) in drawn {
                for p in problems(&svg, mm) {
                    out.push(format!("{name} {at}, {width}: {p}"));
                }
            }
        }
    }
    report(out);
}

/// The check finds what it looks for: overlapping texts, a text off the canvas, a
/// legend on the data and small print are each reported.
#[test]
fn the_check_finds_each_kind_of_problem() {
    let svg = |body: &str| {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="84mm" height="50mm" viewBox="0 0 238.1 141.7" font-family="DejaVu Sans">{body}</svg>"#
        )
    };
    let clean = svg(
        r#"<text x="10" y="20" font-size="8">a</text><text x="10" y="40" font-size="8">b</text>"#,
    );
    assert_eq!(problems(&clean, 84.0), Vec::<String>::new());
    let overlapping = svg(
        r#"<text x="10" y="20" font-size="8">abc</text><text x="12" y="22" font-size="8">d</text>"#,
    );
    assert!(problems(&overlapping, 84.0)[0].contains("overlaps"));
    let off = svg(r#"<text x="230" y="20" font-size="8">far out</text>"#);
    assert!(problems(&off, 84.0)[0].contains("leaves the canvas"));
    let small = svg(r#"<text x="10" y="20" font-size="6">small</text>"#);
    assert!(problems(&small, 84.0)[0].contains("6.0 pt"));
    let legend = svg(
        r#"<g id="data"><path d="M0,0 L100,100" stroke="black"/></g><g id="legend"><rect x="40" y="40" width="20" height="20"/></g><text x="150" y="20" font-size="8">x</text>"#,
    );
    assert!(problems(&legend, 84.0)[0].contains("legend"));
}
