//! Bad input never panics anywhere past the reader: mutated records go through replay,
//! the human and JSON reports, repairs, rules inference, statistics, conversion and
//! diagrams. (The reader alone is fuzzed in `tests/pmn_fuzz.rs` and `fuzz/`.)

use std::path::Path;

use sow::convert::{convert_game, read_relative, to_json, to_long, to_pmn, to_relative};
use sow::corpus::{Filter, Input};
use sow::pmn;
use sow::repair::{infer_rules, search, RepairOptions};
use sow::replay::{replay, ReplayOptions};
use sow::rng::Rng;
use sow::stats::Per;

/// Pieces a transcriber's slip might bring in.
const PIECES: &[&str] = &[
    "a1",
    "b12",
    "c36",
    "d99",
    "a0",
    "x",
    "-",
    "#2",
    ":3",
    ",",
    ">",
    "{",
    "}",
    "(",
    ")",
    "[%stones 1 2]",
    "[%foul]",
    "1-0",
    "*",
    " ",
    "\n",
    "[Rules \"bonus=9\"]\n",
    "[SetUp \"1\"]\n",
    "é",
    "\u{0}",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        if chars.is_empty() {
            break;
        }
        let at = rng.below(chars.len());
        match rng.below(3) {
            0 => {
                chars.remove(at);
            }
            1 => {
                let piece = PIECES[rng.below(PIECES.len())];
                for (k, c) in piece.chars().enumerate() {
                    chars.insert(at + k, c);
                }
            }
            _ => {
                let j = rng.below(chars.len());
                chars.swap(at, j);
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_records_never_panic_anywhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("records");
    let mut seeds: Vec<String> = Vec::new();
    for dir in ["examples", "flawed"] {
        let (inputs, _) = sow::corpus::expand(&[root.join(dir)]);
        for input in inputs {
            if let Input::File(p) = input {
                seeds.push(std::fs::read_to_string(p).unwrap());
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(99);
    let full = ReplayOptions::full();
    let lean = ReplayOptions::validate();
    let bounds = RepairOptions {
        plies: 20_000,
        ..RepairOptions::default()
    };
    let (mut games, mut plies) = (0usize, 0usize);
    for round in 0..1000 {
        let text = mutate(&seeds[round % seeds.len()], &mut rng);
        for (i, game) in pmn::parse_str(&text).iter().enumerate() {
            let trace = replay(game, &full);
            let _ = replay(game, &lean);
            games += 1;
            plies += trace.plies.len();
            if !trace.is_valid() {
                let _ = search(game, &lean, &bounds);
            }
            let _ = infer_rules(game, &lean, 20_000);
            let c = convert_game("m.pmn", i + 1, game, &full);
            let _ = (to_pmn(&c), to_json(&c, false), to_long(&c));
            // And back from relative numbering, whatever the relative text holds.
            let _ = read_relative(to_relative(&c).as_bytes(), &full);
            if let Some(rules) = &trace.rules {
                for n in 0..=trace.plies.len() {
                    if let Some(pos) = trace.position_after(n) {
                        let last = n.checked_sub(1).and_then(|k| trace.plies.get(k));
                        let end = trace.outcome.as_ref().filter(|_| n == trace.plies.len());
                        let _ = sow::diagram::svg_board(rules, pos, last, end);
                        let _ = sow::diagram::text_board(rules, pos, "", end);
                    }
                }
            }
        }
        // The mutated text read as relative numbering (a stray `}` must not hang it).
        let _ = read_relative(text.as_bytes(), &full);
        let path = dir.path().join(format!("m{round}.pmn"));
        std::fs::write(&path, &text).unwrap();
        let input = [Input::File(path)];
        for per in [Per::Ply, Per::Game] {
            let _ = sow::stats::run(&input, &Filter::default(), &full, per);
        }
        let settings = sow::validate::Settings {
            replay: lean.clone(),
            suggest: round % 10 == 0,
            infer_rules: round % 10 == 5,
            ..Default::default()
        };
        for format in [
            sow::validate::Format::Human { color: true },
            sow::validate::Format::Json,
        ] {
            let mut out = Vec::new();
            let summary =
                sow::validate::run(&input, &[], &settings, format, &mut out, &mut |_| {}).unwrap();
            if format == sow::validate::Format::Json {
                // One game object per game read, at least.
                let objects = out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
                assert!(
                    objects >= summary.games,
                    "{}",
                    String::from_utf8_lossy(&out)
                );
            }
        }
    }
    // The mutations must leave most records readable, or this test tests little.
    assert!(
        games >= 900 && plies >= 2000,
        "{games} games, {plies} plies"
    );
}
