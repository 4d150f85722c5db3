//! Inputs whose first reports misled: line ends of a carriage return alone, UTF-16
//! without its byte-order mark, a column past any number, `show` at the start position,
//! a ply of half a megabyte. Each is read, or said for what it is, in a short message.

use assert_cmd::Command;
use sow::pmn::{parse_bytes, Code};
use sow::replay::{replay, ReplayOptions};
use sow::show::{show, ShowFormat};

const GAME: &str = "[Game \"Tsoro\"]\n[Result \"*\"]\n\n1. a1 a2 *\n";

/// The game read from `bytes`: one game with its tags, and the plies' lines as in `GAME`.
fn reads_as_the_game(bytes: &[u8]) -> Vec<String> {
    let games = parse_bytes(bytes);
    assert_eq!(games.len(), 1, "{games:?}");
    let game = &games[0];
    assert_eq!(game.record.tag("Game"), Some("Tsoro"));
    assert_eq!(game.record.tag("Result"), Some("*"));
    let trace = replay(game, &ReplayOptions::validate());
    // Ply 2 is North's `a2`, illegal, on line 4 column 7 whatever the line ends.
    let d = trace.first_error().unwrap();
    assert_eq!((d.code.as_str(), d.ply), ("illegal-move", Some(2)), "{d:?}");
    assert_eq!((d.span.line, d.span.column), (4, 7));
    assert!(!game.problems.iter().any(|p| p.is_error()), "{game:?}");
    assert!(!game.problems.iter().any(|p| p.code == Code::NulByte));
    game.problems
        .iter()
        .filter(|p| p.code == Code::Encoding)
        .map(|p| p.message.clone())
        .collect()
}

#[test]
fn lines_ending_in_a_carriage_return_alone_are_read_and_said() {
    let cr = GAME.replace('\n', "\r");
    let said = reads_as_the_game(cr.as_bytes());
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("carriage return alone"), "{said:?}");
    // CRLF and LF are PMN's own line ends: read with nothing to say.
    assert!(reads_as_the_game(GAME.replace('\n', "\r\n").as_bytes()).is_empty());
    assert!(reads_as_the_game(GAME.as_bytes()).is_empty());
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|u| {
            if big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        })
        .collect()
}

#[test]
fn utf16_without_its_mark_is_read_and_said() {
    for (big_endian, name) in [(false, "little-endian"), (true, "big-endian")] {
        let said = reads_as_the_game(&utf16(GAME, big_endian));
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("no byte-order mark"), "{said:?}");
        assert!(said[0].contains(name), "{said:?}");
        // With its mark, it is PMN's own: nothing to say.
        let mut marked = utf16("\u{feff}", big_endian);
        marked.extend(utf16(GAME, big_endian));
        assert!(reads_as_the_game(&marked).is_empty());
    }
    // Both at once: UTF-16 without a mark whose lines end in CR alone.
    let said = reads_as_the_game(&utf16(&GAME.replace('\n', "\r"), false));
    assert_eq!(said.len(), 2, "{said:?}");
}

#[test]
fn a_column_past_any_number_has_the_wording_of_column_100() {
    for column in ["100", "99999", &"9".repeat(30)] {
        let text = format!("[Game \"Tsoro\"]\n[Result \"*\"]\n\n1. a{column} *\n");
        let games = parse_bytes(text.as_bytes());
        let p = &games[0].problems[0];
        assert_eq!(p.code, Code::NumberTooLarge, "{p:?}");
        assert!(
            p.message.ends_with("is too large; columns go up to 99"),
            "{p:?}"
        );
        assert!(p.message.len() < 120, "{p:?}");
    }
}

fn show_text(text: &str, ply: Option<usize>) -> Result<sow::show::Shown, String> {
    let games = parse_bytes(text.as_bytes());
    let options = ReplayOptions::full();
    show("g.pmn", 1, &games[0], ply, ShowFormat::Pmn, &options).map_err(|e| e.to_string())
}

#[test]
fn show_calls_the_start_position_the_start_and_shows_it() {
    // The first ply is illegal: the last position replayed is the start.
    let shown = show_text("[Game \"Tsoro\"]\n[Result \"*\"]\n\n1. b1 *\n", None).unwrap();
    let note = shown.note.unwrap();
    assert!(note.ends_with("this is the start position"), "{note}");
    assert!(shown.text.ends_with(" S\n"), "{}", shown.text);
    // A position that cannot be set up: no position to show, said once, as such.
    let bad =
        "[Game \"Tsoro\"]\n[SetUp \"1\"]\n[Position \"0,0/0 S\"]\n[Result \"*\"]\n\n1. a1 *\n";
    for ply in [None, Some(0)] {
        let e = show_text(bad, ply).unwrap_err();
        assert!(
            e.contains("game 1 cannot be replayed: the position has 2 rows"),
            "{e}"
        );
        assert!(!e.contains("after ply 0"), "{e}");
    }
}

/// A ply of 360,000 characters (a bonus naming b1 120,000 times) is quoted in a few
/// dozen characters, with an ellipsis, by the replay and `validate`; one of 30,000 by
/// `repair`.
#[test]
fn a_long_ply_is_quoted_cut_in_every_message() {
    let ply = format!("a1x{}", vec!["b1"; 120_000].join(","));
    let text = format!("[Game \"Tsoro\"]\n[Result \"*\"]\n\n1. {ply} *\n");
    let games = parse_bytes(text.as_bytes());
    let trace = replay(&games[0], &ReplayOptions::validate());
    let d = trace.first_error().unwrap();
    assert!(
        d.message.contains("a1xb1,b1,") && d.message.contains('…'),
        "{d:?}"
    );
    assert!(d.message.len() < 300, "{} bytes", d.message.len());
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("long.pmn");
    std::fs::write(&input, &text).unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .arg("validate")
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.len() < 4000, "{} bytes", out.stdout.len());
    // The repair search formats each candidate ply: a shorter long ply keeps the debug
    // build quick.
    let short = text.replace(&ply, &format!("a1x{}", vec!["b1"; 10_000].join(",")));
    std::fs::write(&input, short).unwrap();
    let fixed = dir.path().join("fixed.pmn");
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["repair", "--suggest-plies", "2000"])
        .arg(&input)
        .arg("-o")
        .arg(&fixed)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains('…') && said.len() < 1000,
        "{} bytes",
        said.len()
    );
}
