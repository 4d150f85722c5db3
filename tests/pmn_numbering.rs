//! Records in seat-relative numbering read like the same records in absolute pits:
//! NAGs, comments, suffixes and variations around the plies change nothing.

use sow::convert::{convert_game, read_ludii, read_relative, to_pmn, to_relative};
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
    let again = convert_game("test.pmn", 1, &read[0], &options);
    assert_eq!(to_pmn(&again), to_pmn(&conversion), "{relative}");
    // And back again: the relative form of the record read from the relative form.
    assert_eq!(to_relative(&again), relative);
}

#[test]
fn a_nag_glued_to_a_relative_ply_is_a_nag() {
    // `1. a3$1 d10 *` reads, and so must the same game numbered relatively.
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
        "[Game \"Kiothi\"]\n[Rules \"start=6x5 leftmost=chain\"]\n\n1. a10,a9>a1:1,a3:2,a6:1,a8:1,a9:2,a10:1,b4:1,b6:1,b7:1,b10:1 $1 {opening} (1. a10,a9>a1:2,a3:2 {or}) b3,b10>a2:3,a6:1,a8:1,b7:1,b9:1 2. a8:8x!? b4:10x *\n",
        "[Game \"BaoLaKimasai\"]\n\n1. b2x $1 {first} (1. a4 (1. a5) {or}) c11x 2. b3x!? c10x *\n",
    ];
    for text in cases {
        relative_reads_as_absolute(text);
    }
}

#[test]
fn a_broken_relative_ply_is_reported_as_written_not_as_the_pits_it_names() {
    // The syntax error of `3:` quoted `a3:`, a ply the file does not hold.
    let relative =
        "[Game \"Tsoro\"]\n[Board \"4x8\"]\n[Numbering \"relative\"]\n\n1. 3 3 2. 3: *\n";
    let read = read_relative(relative.as_bytes(), &ReplayOptions::full());
    let problems: Vec<(u32, u32, &str)> = (read[0].problems.iter())
        .map(|p| (p.span.line, p.span.column, p.message.as_str()))
        .collect();
    assert_eq!(
        problems,
        [(
            5,
            13,
            "in ply `3:`: expected a number of stones lifted (digits)"
        )]
    );
}

#[test]
fn a_ludii_game_keeps_its_unread_plies_in_sites_as_written() {
    let list = "// [Game \"Tsoro\"]\n// [Board \"4x8\"]\n2\n3:\n// end *\n";
    let read = read_ludii(list, &ReplayOptions::full());
    let problems: Vec<(u32, u32, &str)> = (read[0].problems.iter())
        .map(|p| (p.span.line, p.span.column, p.message.as_str()))
        .collect();
    assert_eq!(
        problems,
        [(
            4,
            3,
            "in ply `3:`: expected a number of stones lifted (digits)"
        )]
    );
    let conversion = convert_game("test.ludii", 1, &read[0], &ReplayOptions::full());
    let pmn = to_pmn(&conversion);
    assert!(pmn.contains("\n;3:\n"), "{pmn}");
}

/// A relative record that breaks fails where its absolute twin fails, with the same
/// diagnostic, and keeps its NAGs, comments and variations around the failing ply.
#[test]
fn a_relative_record_fails_where_its_absolute_twin_fails() {
    let options = ReplayOptions::full();
    let absolute =
        "[Game \"Tsoro\"]\n[Board \"4x12\"]\n\n1. a3 $1 {c} d10 (1... d9) 2. a3 $2 d9 *\n";
    let relative = "[Game \"Tsoro\"]\n[Board \"4x12\"]\n[Numbering \"relative\"]\n\n1. 3 $1 {c} 3 (1... 4) 2. 3 $2 4 *\n";
    let absolute = &parse_str(absolute)[0];
    let read = &read_relative(relative.as_bytes(), &options)[0];
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let codes = |trace: &sow::replay::Trace| -> Vec<(Option<u32>, String)> {
        (trace.diagnostics.iter())
            .map(|d| (d.ply, d.code.to_string()))
            .collect()
    };
    let (a, r) = (replay(absolute, &options), replay(read, &options));
    assert!(!a.diagnostics.is_empty());
    assert_eq!(codes(&r), codes(&a));
    assert_eq!(r.plies.len(), a.plies.len());
}
