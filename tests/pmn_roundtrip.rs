//! Round trips: records → PMN export form → records, and the JSON form.
//!
//! Property: for any record the writer can express, read(write(r)) == r (ignoring spans
//! and the move numbers the writer adds), write → read → write gives the same bytes, and
//! the text read back has no problems.

use proptest::prelude::*;
use sow::pmn::json::{from_json, to_json};
use sow::pmn::*;

const GAMES: [&str; 4] = ["Tsoro", "Nsolo", "Kiothi", "BaoLaKimasai"];

/// The record with spans cleared and move numbers dropped (the writer writes its own).
fn content(record: &Record) -> Record {
    fn strip(elements: &mut Vec<Element>) {
        elements.retain(|e| !matches!(e, Element::MoveNumber(_)));
        for e in elements {
            if let Element::Variation(v) = e {
                strip(&mut v.elements);
            }
        }
    }
    let mut r = record.clone();
    r.clear_spans();
    strip(&mut r.moves);
    r
}

fn pit() -> impl Strategy<Value = Pit> {
    (0u8..4, 1u8..=99).prop_map(|(row, col)| Pit { row, col })
}

fn count() -> impl Strategy<Value = u16> {
    prop_oneof![0u16..20, any::<u16>()]
}

fn sowing() -> impl Strategy<Value = PlySyntax> {
    (
        pit(),
        proptest::option::of(count()),
        proptest::option::of((pit(), proptest::option::of(count()))),
        proptest::option::of(proptest::collection::vec(
            (pit(), proptest::option::of(count())).prop_map(|(pit, count)| PitCount { pit, count }),
            0..4,
        )),
    )
        .prop_map(|(from, lift, end, capture)| {
            PlySyntax::Sowing(Sowing {
                from,
                lift,
                end: end.map(|e| e.0),
                arrival: end.and_then(|e| e.1),
                capture: capture.map(BonusPits::from),
            })
        })
}

fn redistribution() -> impl Strategy<Value = PlySyntax> {
    (
        proptest::collection::vec(pit(), 1..3),
        proptest::collection::vec(
            (pit(), count()).prop_map(|(pit, stones)| PitStones { pit, stones }),
            1..4,
        ),
    )
        .prop_map(|(emptied, filled)| PlySyntax::Redistribution(Redistribution { emptied, filled }))
}

fn suffix() -> impl Strategy<Value = Option<Suffix>> {
    proptest::option::of(proptest::sample::select(vec![
        Suffix::Good,
        Suffix::Mistake,
        Suffix::Brilliant,
        Suffix::Blunder,
        Suffix::Interesting,
        Suffix::Dubious,
    ]))
}

fn ply() -> impl Strategy<Value = Element> {
    (prop_oneof![4 => sowing(), 1 => redistribution()], suffix()).prop_map(|(syntax, suffix)| {
        Element::Ply(Ply {
            syntax,
            suffix,
            span: Span::default(),
        })
    })
}

/// A brace comment built from plain pieces and commands, with its commands listed.
fn brace_comment() -> impl Strategy<Value = Element> {
    let piece = prop_oneof![
        "[ a-zA-Z0-9.,:;!?é\n-]{0,12}".prop_map(|s| (s, None)),
        (
            "[a-z]{1,6}",
            proptest::collection::vec("[0-9a-z]{1,3}", 0..3)
        )
            .prop_map(|(name, args)| {
                let mut text = format!("[%{name}");
                for a in &args {
                    text.push(' ');
                    text.push_str(a);
                }
                text.push(']');
                (
                    text,
                    Some(Command {
                        name: name.into(),
                        args: Args::from_words(&args).expect("words"),
                        span: Span::default(),
                    }),
                )
            }),
    ];
    proptest::collection::vec(piece, 0..4).prop_map(|pieces| {
        let mut text = String::new();
        let mut commands = Vec::new();
        for (t, c) in pieces {
            text.push_str(&t);
            commands.extend(c);
        }
        Element::Comment(Comment {
            kind: CommentKind::Brace,
            text: text.into(),
            commands,
            span: Span::default(),
        })
    })
}

fn line_comment() -> impl Strategy<Value = Element> {
    "[ a-zA-Z0-9.,:!?(){}é-]{0,20}".prop_map(|text| {
        Element::Comment(Comment {
            kind: CommentKind::Line,
            text: text.into(),
            commands: Vec::new(),
            span: Span::default(),
        })
    })
}

fn element() -> impl Strategy<Value = Element> {
    let leaf = prop_oneof![
        8 => ply(),
        2 => brace_comment(),
        1 => line_comment(),
        1 => any::<u16>().prop_map(|code| Element::Nag(Nag { code, span: Span::default() })),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            6 => inner.clone(),
            1 => proptest::collection::vec(inner, 0..6).prop_map(|elements| {
                Element::Variation(Variation { elements, span: Span::default() })
            }),
        ]
    })
}

fn result() -> impl Strategy<Value = GameResult> {
    proptest::sample::select(vec![
        GameResult::SouthWins,
        GameResult::NorthWins,
        GameResult::Draw,
        GameResult::Unknown,
    ])
}

fn tag(name: &str, value: &str) -> Tag {
    Tag::new(name.to_string(), value)
}

fn record() -> impl Strategy<Value = Record> {
    (
        proptest::sample::select(GAMES.to_vec()),
        proptest::collection::btree_map(
            prop_oneof![
                // The names PMN.md lists (shared by the reader) but those the record
                // gets otherwise: `Game` and `Result` below, and no set-up position.
                proptest::sample::select(
                    Tag::KNOWN_NAMES
                        .into_iter()
                        .filter(|n| !["Game", "Result", "SetUp", "Position"].contains(n))
                        .collect::<Vec<_>>()
                )
                .prop_map(String::from),
                "[A-Z][a-zA-Z0-9_]{0,10}",
            ],
            "[ a-zA-Z0-9\"\\\\é.,:?{}();\\[\\]-]{0,16}",
            0..6,
        ),
        proptest::option::of(any::<bool>()),
        proptest::collection::vec(element(), 0..40),
        result(),
        any::<bool>(),
    )
        .prop_map(|(game, extra, setup, moves, result, result_tag)| {
            let mut tags = vec![tag("Game", game)];
            for (name, value) in extra {
                if !["Game", "Result", "SetUp", "Position"].contains(&name.as_str()) {
                    tags.push(tag(&name, &value));
                }
            }
            if let Some(north) = setup {
                tags.push(tag("SetUp", "1"));
                let side = if north { "N" } else { "S" };
                tags.push(tag("Position", &format!("2,2/0,0/0,0/2,2 {side}")));
            }
            if result_tag {
                tags.push(tag("Result", result.as_str()));
            }
            Record {
                tags,
                moves,
                result: Some(ResultToken {
                    result,
                    span: Span::default(),
                }),
            }
        })
}

/// The record in the tag order the writer uses, so that it compares with what is read.
fn export_order(mut r: Record) -> Record {
    let text = write_game(&r);
    let read = parse_str(&text);
    let order: Vec<String> = read[0]
        .record
        .tags
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    r.tags.sort_by_key(|t| {
        order
            .iter()
            .position(|n| *n == t.name)
            .unwrap_or(usize::MAX)
    });
    r
}

proptest! {
    #[test]
    fn write_read_write_is_stable(r in record()) {
        let written = write_game(&r);
        let games = parse_str(&written);
        prop_assert_eq!(games.len(), 1, "one game expected from:\n{}", written);
        let game = &games[0];
        prop_assert!(game.problems.is_empty(), "problems {:?} in:\n{}", game.problems, written);
        prop_assert_eq!(content(&game.record), export_order(r.clone()), "text:\n{}", written);
        prop_assert_eq!(write_game(&game.record), written.clone());
        for line in written.lines() {
            if !line.starts_with('[') && !line.contains('{') && !line.contains('}') {
                prop_assert!(line.chars().count() <= 80, "line too long: {}", line);
            }
        }
    }

    #[test]
    fn several_games_read_back_as_written(rs in proptest::collection::vec(record(), 1..4)) {
        let written = write_games(&rs);
        let games = parse_str(&written);
        prop_assert_eq!(games.len(), rs.len(), "text:\n{}", written);
        for (game, r) in games.iter().zip(&rs) {
            prop_assert!(game.problems.is_empty(), "{:?}", game.problems);
            prop_assert_eq!(content(&game.record), export_order(r.clone()));
        }
    }

    #[test]
    fn json_to_pmn_to_json_is_the_identity(r in record()) {
        let r = export_order(r);
        let json = to_json(&r);
        let back = from_json(&json).expect("our own JSON reads back");
        prop_assert_eq!(&back, &r);
        let pmn = write_game(&back);
        let read = content(&parse_str(&pmn)[0].record);
        prop_assert_eq!(to_json(&read), json);
    }
}

#[test]
fn export_form_of_the_sample_reads_and_writes_to_the_same_bytes() {
    let input = std::fs::read("tests/data/pmn/sample.pmn").unwrap();
    let games = parse_bytes(&input);
    let first = write_games(games.iter().map(|g| &g.record));
    let again = parse_str(&first);
    assert!(again.iter().all(|g| g.problems.is_empty()), "{again:?}");
    let second = write_games(again.iter().map(|g| &g.record));
    assert_eq!(first, second);
    // Import form to export form loses nothing but whitespace and move numbers.
    // (The writer puts the tags in export order, so compare them as sets.)
    for (a, b) in games.iter().zip(&again) {
        let (mut a, mut b) = (content(&a.record), content(&b.record));
        a.tags.sort_by(|x, y| x.name.cmp(&y.name));
        b.tags.sort_by(|x, y| x.name.cmp(&y.name));
        assert_eq!(a, b);
    }
}

#[test]
fn json_of_a_read_record_keeps_its_move_numbers() {
    let text =
        "[Game \"Nsolo\"]\n[Result \"*\"]\n\n1. a3 {[%stones 3 4]} 1... d5xb4:2,a3 2. b1 *\n";
    let record = &parse_str(text)[0].record;
    let json = to_json(record);
    assert!(json.contains("\"type\": \"move-number\""), "{json}");
    assert!(json.contains("\"pit\": \"b4\""), "{json}");
    let back = from_json(&json).unwrap();
    assert_eq!(write_game(&back), text);
    let mut cleared = record.clone();
    cleared.clear_spans();
    assert_eq!(back, cleared);
}

#[test]
fn main_line_plies_carry_the_comments_after_them() {
    let text = "[Game \"Tsoro\"]\n[Result \"*\"]\n\n1. a3 {[%stones 40 35]} $2 (1. a4 {x}) d10 {[%foul] ok} *\n";
    let record = &parse_str(text)[0].record;
    let plies: Vec<_> = record.main_line().collect();
    assert_eq!(plies.len(), 2);
    assert_eq!(plies[0].ply.to_string(), "a3");
    let commands: Vec<_> = plies[0]
        .commands()
        .map(|c| (c.name.as_ref(), c.args.iter().collect::<Vec<_>>()))
        .collect();
    assert_eq!(commands, vec![("stones", vec!["40", "35"])]);
    assert_eq!(plies[0].nags().collect::<Vec<_>>(), vec![2]);
    assert_eq!(plies[1].ply.span.line, 4);
    assert_eq!(plies[1].ply.span.column, 40);
    assert_eq!(plies[1].commands().next().unwrap().name, "foul");
    assert_eq!(record.tag("Game"), Some("Tsoro"));
    assert_eq!(record.tag("Nope"), None);
}

#[test]
fn writer_numbers_north_first_records_from_1_dots() {
    let text = "[Game \"Tsoro\"]\n[SetUp \"1\"]\n[Position \"2,2/0,0/0,0/2,2 N\"]\n\nd1 a1 d2 *\n";
    let written = write_game(&parse_str(text)[0].record);
    assert!(written.ends_with("\n\n1... d1 2. a1 d2 *\n"), "{written}");
}

#[test]
fn writer_breaks_lines_at_80_characters() {
    let moves = "a10 d10 ".repeat(40);
    let text = format!("[Game \"Tsoro\"]\n\n{moves}*\n");
    let written = write_game(&parse_str(&text)[0].record);
    let lines: Vec<&str> = written.lines().skip(2).collect();
    assert!(lines.len() > 3);
    assert!(lines.iter().all(|l| l.len() <= 80), "{written}");
    assert!(
        lines[..lines.len() - 1].iter().all(|l| l.len() > 70),
        "{written}"
    );
}

/// A line comment ending in several `\r` loses none of them in a round trip.
#[test]
fn line_comment_ending_in_carriage_returns_round_trips() {
    let text = "[Game \"Tsoro\"]\n\n1. a3 ;note\r\r\r\n d10 *\n";
    let first = &parse_str(text)[0];
    let Element::Comment(c) = &first.record.moves[2] else {
        panic!("a comment expected: {:?}", first.record.moves)
    };
    assert_eq!(c.text, "note");
    let written = write_game(&first.record);
    assert_eq!(write_game(&parse_str(&written)[0].record), written);
}

/// `\r\r\n` inside a brace comment is one line break, so that it does not read back
/// as `\r\n`, then `\n`.
#[test]
fn brace_comment_with_carriage_returns_before_a_break_round_trips() {
    let text = "[Game \"Tsoro\"]\n\n1. a3 {one\r\r\ntwo\rthree} d10 *\n";
    let first = &parse_str(text)[0];
    let Element::Comment(c) = &first.record.moves[2] else {
        panic!("a comment expected: {:?}", first.record.moves)
    };
    assert_eq!(c.text, "one\ntwo\rthree");
    let written = write_game(&first.record);
    assert_eq!(write_game(&parse_str(&written)[0].record), written);
}

#[test]
fn a_game_parsed_cut_holds_its_main_line_to_the_cut_and_all_else_as_a_full_parse() {
    let text = "[Game \"Tsoro\"]\n[Round \"1\"]\n\n1. a3 {a [%stones 40 40]} d10 $1 ( d9 ( d8 ) c1 ) 2. a4! \
                d11 {after} 3. a5 ( a6 ) d12 4. z99 a7 {x} ( a8 ) 5. a9 d1 *\n";
    let full = Reader::new(text.as_bytes()).next().unwrap();
    let game = || Reader::new(text.as_bytes()).next_text().unwrap();
    let plies = |r: &Record| {
        (r.moves.iter())
            .filter(|e| matches!(e, Element::Ply(_)))
            .count()
    };
    for n in 0..12 {
        let cut = game().parse_cut(n);
        assert_eq!(cut.record.tags, full.record.tags, "{n}");
        assert_eq!(cut.record.result, full.record.result, "{n}");
        assert_eq!(cut.problems, full.problems, "{n}");
        assert_eq!(
            (&cut.text, cut.offset, cut.line),
            (&full.text, full.offset, full.line)
        );
        // The elements held are the full parse's first, up to the `n`-th main-line ply
        // and what follows it before the next.
        let held = &cut.record.moves;
        assert_eq!(held[..], full.record.moves[..held.len()], "{n}");
        assert_eq!(plies(&cut.record), n.min(plies(&full.record)), "{n}");
        let next = full.record.moves.get(held.len());
        assert!(
            next.is_none_or(|e| matches!(e, Element::Ply(_))),
            "{n}: {next:?}"
        );
    }
}

/// The export form of each game of `text` written as the reader's events arrive.
fn streamed(text: &str) -> Vec<String> {
    let mut reader = Reader::new(text.as_bytes());
    let mut out = Vec::new();
    while let Some(game) = reader.next_text() {
        let mut result = None;
        let tags = game.read(&mut ResultOf(&mut result)).unwrap_or_default();
        let record = Record {
            tags,
            moves: Vec::new(),
            result: None,
        };
        let mut written = String::new();
        let mut writer = ExportWriter::new(&record.tags, record.first_side(), &mut written);
        game.read(&mut writer);
        writer.finish(result);
        out.push(written);
    }
    out
}

/// The result token of a game.
struct ResultOf<'r>(&'r mut Option<GameResult>);

impl Visitor for ResultOf<'_> {
    fn ply(&mut self, _ply: Ply) -> std::ops::ControlFlow<()> {
        std::ops::ControlFlow::Continue(())
    }

    fn result(&mut self, result: ResultToken) -> std::ops::ControlFlow<()> {
        *self.0 = Some(result.result);
        std::ops::ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: Problem) {}
}

proptest! {
    #[test]
    fn the_export_form_written_from_events_is_the_records(rs in proptest::collection::vec(record(), 1..4)) {
        let text = write_games(&rs);
        let records: Vec<String> = parse_str(&text).iter().map(|g| write_game(&g.record)).collect();
        prop_assert_eq!(streamed(&text), records);
    }
}

#[test]
fn the_export_form_written_from_events_is_the_records_for_every_record_shipped() {
    let mut files = 0;
    for dir in ["records/examples", "records/flawed", "tests/data/pmn"] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "pmn") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let records: Vec<String> = (parse_str(&text).iter())
                .map(|g| write_game(&g.record))
                .collect();
            assert_eq!(streamed(&text), records, "{}", path.display());
            files += 1;
        }
    }
    assert!(files > 20, "{files}");
}

#[test]
fn the_numbered_form_written_from_events_is_the_records_for_every_record_shipped() {
    use sow::convert::numbering::{Numbering, PitNumbers};
    let mut games = 0;
    for dir in ["records/examples", "records/flawed", "tests/data/pmn"] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "pmn") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let mut reader = Reader::new(text.as_bytes());
            while let Some(game) = reader.next_text() {
                let parsed = game.clone().parse();
                let trace = sow::replay::replay(&parsed, &Default::default());
                let Some(rules) = &trace.rules else {
                    continue;
                };
                for numbering in [Numbering::Relative, Numbering::Ludii] {
                    let numbers = PitNumbers::new(rules, numbering);
                    let mut written = String::new();
                    let tags = &parsed.record.tags;
                    let first = parsed.record.first_side();
                    let mut writer =
                        ExportWriter::numbered(tags, first, Some(&numbers), &mut written);
                    game.read(&mut writer);
                    writer.finish(parsed.record.result.map(|r| r.result));
                    let whole = write_numbered_game(&parsed.record, &numbers);
                    assert_eq!(written, whole, "{}", path.display());
                    games += 1;
                }
            }
        }
    }
    assert!(games > 40, "{games}");
}
