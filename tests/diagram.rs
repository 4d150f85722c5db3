//! SVG board diagrams: well-formed XML with every pit, its count and the marks the
//! position and the last ply call for; one snapshot per game, on positions and plies of
//! docs/EXAMPLES.md (effects written out by hand, so no replay is needed).

use quick_xml::events::Event;
use sow::diagram::svg_board;
use sow::moves::{Effect, Lap, Move, Redistribution, Sowing};
use sow::pmn::Span;
use sow::replay::PlyTrace;
use sow::{Board, Game, Pit, Position, Rules, Side};

mod expect;

fn pit(s: &str) -> Pit {
    s.parse().unwrap()
}

fn pits(list: &[(&str, u16)]) -> Vec<(Pit, u16)> {
    list.iter().map(|&(p, n)| (pit(p), n)).collect()
}

fn laps(list: &[(&str, &str, u32)]) -> Vec<Lap> {
    list.iter()
        .map(|&(s, e, n)| Lap {
            start: pit(s),
            end: pit(e),
            stones: n,
        })
        .collect()
}

struct Case {
    rules: Rules,
    pos: Position,
    last: Option<PlyTrace>,
}

#[allow(clippy::too_many_arguments)]
fn sowing_trace(
    number: u32,
    side: Side,
    text: &str,
    from: &str,
    lap_list: Vec<Lap>,
    end: &str,
    captured: &[(&str, u16)],
    bonus: &[(&str, u16)],
) -> PlyTrace {
    let mut effect = Effect::default();
    for lap in lap_list {
        effect.push_lap(lap);
    }
    effect.end = Some(pit(end));
    effect.captured = pits(captured);
    effect.bonus = pits(bonus);
    PlyTrace {
        number,
        side,
        span: Span::default(),
        text: text.into(),
        mv: Move::Sow(Sowing::from(pit(from))),
        effect,
        after: None,
        foul: false,
    }
}

/// Tsoro 4x12 heads=1 after `d3xa11,b10` (EXAMPLES.md, ply 10).
fn tsoro() -> Case {
    let rules = Rules::new(Game::Tsoro, Board::new(4, 12), "heads=1 head-bonus=yes").unwrap();
    let pos = Position::parse(&rules, "2,5,0,1,0,1,1,3,0,2,2,2/2,0,2,0,1,1,0,0,0,0,0,0/0,0,0,0,1,0,1,4,0,0,4,0/2,2,0,0,1,0,0,1,0,0,0,2 S").unwrap();
    let last = sowing_trace(
        10,
        Side::North,
        "d3xa11,b10",
        "d3",
        laps(&[("d3", "c2", 4), ("c2", "c4", 2), ("c4", "c6", 2)]),
        "c6",
        &[("b6", 1), ("a6", 4)],
        &[("a11", 1), ("b10", 1)],
    );
    Case {
        rules,
        pos,
        last: Some(last),
    }
}

/// Nsolo 4x8 after `b1xd7` (EXAMPLES.md, ply 3; laps not drawn: only the end).
fn nsolo() -> Case {
    let rules = Rules::new(Game::Nsolo, None, "").unwrap();
    let pos = Position::parse(
        &rules,
        "3,0,3,3,0,3,0,0/1,1,4,4,1,0,1,0/1,2,0,1,0,2,3,1/1,0,1,1,4,0,2,5 N",
    )
    .unwrap();
    let last = sowing_trace(
        3,
        Side::South,
        "b1xd7",
        "b1",
        vec![],
        "b8",
        &[("c8", 3)],
        &[("d7", 3)],
    );
    Case {
        rules,
        pos,
        last: Some(last),
    }
}

/// Kiothi after `a8:4-a1x` (EXAMPLES.md, ply 9): prisons and nki pits.
fn kiothi() -> Case {
    let rules = Rules::new(Game::Kiothi, None, "").unwrap();
    let pos = Position::parse(
        &rules,
        "0,0,5,0,3,5*,0,6,2,4/0,4,1,5,1,3,0,1,10*,1 N S:9 N:0",
    )
    .unwrap();
    let mut last = sowing_trace(
        9,
        Side::South,
        "a8:4-a1x",
        "a8",
        laps(&[("a8", "b9", 4), ("b9", "a3", 9)]),
        "a1",
        &[("b1", 8), ("a1", 1)],
        &[],
    );
    last.effect.lap_count = 13;
    Case {
        rules,
        pos,
        last: Some(last),
    }
}

/// Kiothi after an opening redistribution: no laps, `>` in the ply text.
fn kiothi_opening() -> Case {
    let rules = Rules::new(Game::Kiothi, None, "").unwrap();
    let pos = Position::parse(
        &rules,
        "5,5,5,5,5,5,0,0,0,0/0,0,0,0,15,5,0,5,0,5 N S:0 N:0 opening",
    )
    .unwrap();
    let last = PlyTrace {
        number: 1,
        side: Side::South,
        span: Span::default(),
        text: "a7,a9>a5:10".into(),
        mv: Move::Redistribute(Redistribution {
            emptied: [pit("a7"), pit("a9")],
            placed: vec![(pit("a5"), 10)],
        }),
        effect: Effect::default(),
        after: None,
        foul: false,
    };
    Case {
        rules,
        pos,
        last: Some(last),
    }
}

/// Bao la Kimasai, the start position (no last ply).
fn bao() -> Case {
    let rules = Rules::new(Game::BaoLaKimasai, None, "").unwrap();
    let pos = Position::initial(&rules);
    Case {
        rules,
        pos,
        last: None,
    }
}

/// Every element with its `class` and, for `<g>` pits, its `id`; panics on XML that is
/// not well formed.
fn elements(svg: &str) -> Vec<(String, String, String)> {
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut out = Vec::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) | Event::Empty(e) => {
                let attr = |name: &str| {
                    e.try_get_attribute(name)
                        .unwrap()
                        .map(|a| String::from_utf8(a.value.to_vec()).unwrap())
                        .unwrap_or_default()
                };
                out.push((
                    String::from_utf8(e.name().as_ref().to_vec()).unwrap(),
                    attr("class"),
                    attr("id"),
                ));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    out
}

fn check(case: &Case) -> String {
    expect::snapshots();
    let svg = svg_board(&case.rules, &case.pos, case.last.as_ref(), None);
    let els = elements(&svg);
    assert_eq!(els[0].0, "svg");
    let pit_groups: Vec<_> = els
        .iter()
        .filter(|(n, c, _)| n == "g" && c.split(' ').any(|w| w == "pit"))
        .collect();
    assert_eq!(
        pit_groups.len(),
        case.rules.board().len(),
        "one group per pit"
    );
    let heads = pit_groups
        .iter()
        .filter(|(_, c, _)| c.contains("head"))
        .count();
    let expected_heads = case
        .rules
        .board()
        .pits()
        .filter(|&p| case.rules.is_head(p))
        .count();
    assert_eq!(heads, expected_heads);
    let nki = pit_groups
        .iter()
        .filter(|(_, c, _)| c.contains("nki"))
        .count();
    let expected_nki = case
        .rules
        .board()
        .pits()
        .filter(|&p| case.rules.board().rows() == 2 && case.pos.is_nki(p))
        .count();
    assert_eq!(nki, expected_nki);
    assert!(svg.contains(&format!("<desc>{}</desc>", case.pos)));
    let count = |class: &str| els.iter().filter(|(_, c, _)| c == class).count();
    match &case.last {
        Some(last) => {
            assert_eq!(count("captured"), last.effect.captured.len());
            assert_eq!(count("bonus"), last.effect.bonus.len());
            assert_eq!(count("lap"), last.effect.laps.len());
            assert_eq!(count("end"), usize::from(last.effect.end.is_some()));
        }
        None => {
            assert_eq!(count("lap") + count("captured") + count("end"), 0);
        }
    }
    let prisons = els.iter().filter(|(_, c, _)| c == "prison").count();
    assert_eq!(prisons, if case.rules.board().rows() == 2 { 2 } else { 0 });
    svg
}

#[test]
fn tsoro_heads_captures_and_bonus() {
    let case = tsoro();
    let svg = check(&case);
    // The head a12 holds 2 stones and is drawn with a second ring.
    assert!(svg.contains(r#"<g class="pit head" id="a12">"#), "{svg}");
    insta::assert_snapshot!("tsoro", svg);
    expect::check_file("docs/diagram-tsoro.svg", &svg);
}

#[test]
fn nsolo_capture_and_bonus() {
    let svg = check(&nsolo());
    insta::assert_snapshot!("nsolo", svg);
    expect::check_file("docs/diagram-nsolo.svg", &svg);
}

#[test]
fn kiothi_prisons_and_nki() {
    let svg = check(&kiothi());
    assert!(
        svg.contains(">9</text></g>"),
        "South's prison holds 9: {svg}"
    );
    insta::assert_snapshot!("kiothi", svg);
    expect::check_file("docs/diagram-kiothi.svg", &svg);
}

#[test]
fn kiothi_opening_text_is_escaped() {
    let svg = check(&kiothi_opening());
    assert!(svg.contains("a7,a9&gt;a5:10"));
    assert!(svg.contains("opening redistribution to come"));
}

#[test]
fn bao_start_position() {
    let svg = check(&bao());
    insta::assert_snapshot!("bao", svg);
    expect::check_file("docs/diagram-bao.svg", &svg);
}

#[test]
fn wide_boards_keep_readable_fonts() {
    // Sized to the board: 36 pits of 26 pt; at a column's width, type of 7 pt or more.
    let rules = Rules::new(Game::Nsolo, Board::new(4, 36), "").unwrap();
    let pos = Position::initial(&rules);
    for width in [None, Some(84.0)] {
        let svg = sow::diagram::svg_board_at(&rules, &pos, None, None, width);
        elements(&svg);
        for size in svg.split("font-size=\"").skip(1) {
            let n: f64 = size[..size.find('"').unwrap()].parse().unwrap();
            assert!(n >= 7.0, "font size {n}");
        }
        let view_box: Vec<f64> = (svg.split("viewBox=\"").nth(1).unwrap())
            .split('"')
            .next()
            .unwrap()
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        match width {
            None => assert!(view_box[2] >= 36.0 * 26.0, "{view_box:?}"),
            Some(mm) => assert!((view_box[2] - mm * 72.0 / 25.4).abs() < 0.5, "{view_box:?}"),
        }
    }
}
