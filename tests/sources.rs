//! The records of `records/sources/`, transcribed from published sources: each replays
//! without error, and its positions are those worked out by hand from the source's text
//! and RULES.md.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use sow::pmn::parse_str;
use sow::replay::{replay, ReplayOptions, Trace};
use sow::{Pit, Side};

fn source(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("records/sources")
        .join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The full trace of the only game of a source file.
fn trace_of(name: &str) -> Trace {
    let games = parse_str(&source(name));
    assert_eq!(games.len(), 1, "{name}: one game");
    replay(&games[0], &ReplayOptions::full())
}

fn pit(s: &str) -> Pit {
    s.parse().unwrap_or_else(|_| panic!("{s} is a pit"))
}

fn pits(list: &[(Pit, u16)]) -> Vec<String> {
    list.iter().map(|(p, n)| format!("{p}:{n}")).collect()
}

/// Matthews 1964, Diagram B, and the opening the text describes: the set-up's 54 stones
/// are more than Tsoro 4x8 starts with (32), a warning and no error; A (North) `c6` ends
/// in the empty c8 and takes b8 and a8 ("four stones"), B (South) `b3` mirrors it.
#[test]
fn matthews_diagram_b_replays_with_a_set_up_total_warning() {
    let trace = trace_of("matthews-1964.pmn");
    let found: Vec<_> = (trace.diagnostics.iter())
        .map(|d| (d.code.as_str(), d.is_error(), d.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [(
            "setup-total",
            false,
            "the set-up holds 54 stones; Tsoro under these rules starts with only 32, \
             and stones only ever leave the board"
        )]
    );
    assert!(trace.complete);
    assert_eq!(trace.outcome, None, "the game goes on");

    // Worked out by hand (rows d, c, b, a as in the Position tag).
    let start = "2,2,2,2,2,2,2,0/2,2,2,2,2,2,1,0/0,1,2,2,2,2,2,2/0,2,2,2,2,2,2,2 N";
    let after = [
        // c6 sows c7, c8; takes b8 and a8 (2 + 2), then a2..a6 (the transcriber's bonus).
        "2,2,2,2,2,2,2,0/2,2,2,2,2,0,2,1/0,1,2,2,2,2,2,0/0,0,0,0,0,0,2,0 S",
        // b3 sows b2, b1; takes c1 and d1 (2 + 2), then d3..d7 (the mirror bonus).
        "0,2,0,0,0,0,0,0/0,2,2,2,2,0,2,1/1,2,0,2,2,2,2,0/0,0,0,0,0,0,2,0 N",
    ];
    assert_eq!(trace.start.as_ref().unwrap().to_string(), start);
    let positions: Vec<String> = (trace.plies.iter())
        .map(|p| p.after.as_ref().unwrap().to_string())
        .collect();
    assert_eq!(positions, after);

    let [a, b] = &trace.plies[..] else {
        panic!("two plies")
    };
    assert_eq!(
        (a.side, a.text.as_str()),
        (Side::North, "c6-c8xa2,a3,a4,a5,a6")
    );
    assert_eq!(a.effect.end, Some(pit("c8")));
    assert_eq!(pits(&a.effect.captured), ["b8:2", "a8:2"]);
    assert_eq!(a.effect.bonus.len(), 5, "A's first capture: 5 bonus pits");
    assert_eq!(
        (b.side, b.text.as_str()),
        (Side::South, "b3-b1xd3,d4,d5,d6,d7")
    );
    assert_eq!(b.effect.end, Some(pit("b1")));
    assert_eq!(pits(&b.effect.captured), ["c1:2", "d1:2"]);
    assert_eq!(
        b.effect.bonus.len(),
        5,
        "B's first capture: 5 bonus pits too"
    );
}

/// `sow show --ply N` prints the same positions as the trace.
#[test]
fn show_prints_the_hand_checked_positions_of_matthews_diagram_b() {
    let expected = [
        "2,2,2,2,2,2,2,0/2,2,2,2,2,2,1,0/0,1,2,2,2,2,2,2/0,2,2,2,2,2,2,2 N\n",
        "2,2,2,2,2,2,2,0/2,2,2,2,2,0,2,1/0,1,2,2,2,2,2,0/0,0,0,0,0,0,2,0 S\n",
        "0,2,0,0,0,0,0,0/0,2,2,2,2,0,2,1/1,2,0,2,2,2,2,0/0,0,0,0,0,0,2,0 N\n",
    ];
    for (ply, position) in expected.iter().enumerate() {
        let out = Command::cargo_bin("sow")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "show",
                "records/sources/matthews-1964.pmn",
                "--format",
                "pmn",
            ])
            .args(["--ply", &ply.to_string()])
            .output()
            .unwrap();
        assert!(out.status.success(), "ply {ply}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            *position,
            "ply {ply}"
        );
    }
}

/// The source record validates: a warning, no error, exit status 0.
#[test]
fn matthews_diagram_b_validates() {
    let out = Command::cargo_bin("sow")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["validate", "records/sources"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("warning[setup-total]"), "{text}");
    assert!(!text.contains("error["), "{text}");
}

/// A Kiothi set-up whose total differs from the start's 60 replays, with the warning.
#[test]
fn kiothi_set_up_with_another_total_replays_with_a_warning() {
    let text = "[Game \"Kiothi\"]\n[SetUp \"1\"]\n\
        [Position \"0,3*,0,0,0,0,0,0,0,0/1,1,0,1,0,0,0,0,0,0 N S:18 N:29\"]\n\n1... b2 *\n";
    let games = parse_str(text);
    let trace = replay(&games[0], &ReplayOptions::full());
    let codes: Vec<_> = trace
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.is_error()))
        .collect();
    assert_eq!(codes, [("setup-total", false)]);
    assert!(trace.diagnostics[0].message.contains("53 stones"));
    assert!(trace.diagnostics[0].message.contains("starts with 60"));
    assert_eq!(trace.played, 1);
}
