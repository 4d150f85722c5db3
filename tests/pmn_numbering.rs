//! Records in seat-relative numbering read like the same records in absolute pits:
//! NAGs, comments, suffixes and variations around the plies change nothing.

use sow::convert::{convert_game, read_relative, to_pmn, to_relative};
use sow::pmn::parse_str;
use sow::replay::{replay, ReplayOptions};

/// The export form of `text` (absolute pits), read back in relative numbering from its
/// relative form: the records and their replays must agree.
fn relative_reads_as_absolute(text: &str) {
    let options = ReplayOptions::full();
    let absolute = &parse_str(text)[0];
    assert!(absolute.problems.is_empty(), "{:?}", absolute.problems);
    let trace = replay(absolute, &options);
    assert!(trace.diagnostics.is_empty(), "{:?}", trace.diagnostics);
    let conversion = convert_game("test.pmn", 1, absolute, &options);
    let relative = to_relative(&conversion);
    assert!(relative.contains("[Numbering \"relative\"]"), "{relative}");
    let read = read_relative(relative.as_bytes(), &options);
    assert_eq!(read.len(), 1);
    assert!(
        read[0].problems.is_empty(),
        "{relative}: {:?}",
        read[0].problems
    );
    let back = replay(&read[0], &options);
    assert!(
        back.diagnostics.is_empty(),
        "{relative}: {:?}",
        back.diagnostics
    );
    assert_eq!(back.played, trace.played, "{relative}");
    assert_eq!(
        to_pmn(&convert_game("test.pmn", 1, &read[0], &options)),
        to_pmn(&conversion),
        "{relative}"
    );
}

#[test]
fn a_nag_glued_to_a_relative_ply_is_a_nag() {
    // `1. a3$1 d10 *` read, and the same game numbered relatively did not.
    let absolute = "[Game \"Tsoro\"]\n[Board \"4x12\"]\n\n1. a3$1 d10 *\n";
    relative_reads_as_absolute(absolute);
    let relative = "[Game \"Tsoro\"]\n[Board \"4x12\"]\n[Numbering \"relative\"]\n\n1. 3$1 3 *\n";
    let read = read_relative(relative.as_bytes(), &ReplayOptions::full());
    assert!(read[0].problems.is_empty(), "{:?}", read[0].problems);
    let plies: Vec<String> = (read[0].record.main_line())
        .map(|p| p.ply.syntax.to_string())
        .collect();
    assert_eq!(plies, ["a3", "d10"]);
    let trace = replay(&read[0], &ReplayOptions::validate());
    assert!(trace.diagnostics.is_empty(), "{:?}", trace.diagnostics);
}

#[test]
fn relative_records_with_nags_comments_and_variations_read_as_absolute_ones() {
    let cases = [
        "[Game \"Tsoro\"]\n[Board \"4x12\"]\n\n1. a3 $1 d10$2 {a comment} 2. a4!? (2. a5 $3 {in a variation} d9) d9 ; to the end of the line\n *\n",
        "[Game \"Tsoro\"]\n[Board \"4x12\"]\n\n1. a3 {[%stones 24 24]} d10 (1... d9 (1... d8) 2. a4) 2. a4$14 *\n",
        "[Game \"Nsolo\"]\n\n1. a8$1 (1. a5 {or this}) d1?! $2 2. a2 *\n",
    ];
    for text in cases {
        relative_reads_as_absolute(text);
    }
}
