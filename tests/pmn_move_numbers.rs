//! Move numbers that do not fit: a slip of the pen is reported where it stands; a ply
//! missing or extra is reported once, where the numbers first show it, and the numbers
//! after it, which fit the shifted count, are not reported one by one.

use sow::pmn::{parse_str, Code};
use sow::replay::{replay, ReplayOptions};

/// A Kiothi game of 34 moves (South's and North's plies after each number).
const KIOTHI: &str = "[Game \"Kiothi\"]
[Result \"0-1\"]

1. a6,a8>a2:1,a3:2,a4:1,a5:1,a8:1,b5:1,b7:1,b8:1,b10:1
b7,b6>a1:1,a3:1,a6:1,b6:1,b7:1,b10:1 2. a9:3 b1:3 3. a10:5 b5:7 4. a4:3 b1:4 5.
a9:1x b4:1x 6. a5:5 b5:2 7. a10:1 b8:3x 8. a9:3 b2:4 9. a10:1 b6:8x 10. a2:4
b4:4 11. a10:1 b3:5 12. a2:1x b4:1 13. a1:2x b4:1 14. a2:1x b2:3x 15. a10:3 b1:2
16. a6:5 b7:1 17. a10:1 b1:1x 18. a4:1 b6:1x 19. a3:2 b4:4x 20. a4:1 b1:1 21.
a9:4 b6:1x 22. a10:2x b2:2 23. a9:2x b8:4 24. a5:1x b5:3x 25. a3:1x b3:3 26.
a9:1x b1:2 27. a3:1 b5:1x 28. a1:2 b7:1 29. a3:1 b2:1 30. a2:1 b1:1 31. a9:1
b6:1 32. a10:1 b5:1x 33. a8:1 b10:1x 34. a7:1 0-1
";

/// The move-number warnings of a game's text: line, column and message.
fn move_number_warnings(text: &str) -> Vec<(u32, u32, String)> {
    let games = parse_str(text);
    assert_eq!(games.len(), 1);
    (games[0].problems.iter())
        .filter(|p| p.code == Code::MoveNumber)
        .map(|p| (p.span.line, p.span.column, p.message.clone()))
        .collect()
}

#[test]
fn the_game_as_written_has_no_move_number_warning() {
    assert!(move_number_warnings(KIOTHI).is_empty());
    let trace = replay(&parse_str(KIOTHI)[0], &ReplayOptions::validate());
    assert!(trace.diagnostics.is_empty(), "{:?}", trace.diagnostics);
}

#[test]
fn one_dropped_ply_gives_one_move_number_warning() {
    // North's `b1:3` of move 2 dropped: every later number is one ply ahead.
    let text = KIOTHI.replacen(" b1:3 ", " ", 1);
    assert_eq!(
        move_number_warnings(&text),
        [(
            5,
            46,
            "move number `3.` does not fit: the ply after it is North's ply of move 2, numbered `2...`; a ply seems to be missing before it (the move numbers after it count one ply more)".to_string()
        )]
    );
    // The replay stops at the first ply it cannot play, and says so once.
    let trace = replay(&parse_str(&text)[0], &ReplayOptions::validate());
    let warnings: Vec<_> = (trace.diagnostics.iter())
        .filter(|d| d.code == "move-number")
        .collect();
    assert_eq!(warnings.len(), 1, "{:?}", trace.diagnostics);
    assert_eq!(trace.errors(), 1, "{:?}", trace.diagnostics);
}

#[test]
fn one_extra_ply_gives_one_move_number_warning() {
    // North's `b1:3` of move 2 written twice: every later number is one ply behind.
    let text = KIOTHI.replacen(" b1:3 ", " b1:3 b1:3 ", 1);
    assert_eq!(
        move_number_warnings(&text),
        [(
            5,
            56,
            "move number `3.` does not fit: the ply after it is North's ply of move 3, numbered `3...`; a ply seems to be extra before it (the move numbers after it count one ply fewer)".to_string()
        )]
    );
}

#[test]
fn a_slip_of_one_number_is_reported_as_it_stands() {
    // `2...` for `2.`: the numbers after it fit the count as it was.
    let text = KIOTHI.replacen(" 2. a9:3", " 2... a9:3", 1);
    assert_eq!(
        move_number_warnings(&text),
        [(
            5,
            38,
            "move number `2...` does not fit: the ply after it is South's ply of move 2, numbered `2.`".to_string()
        )]
    );
}

#[test]
fn a_number_off_by_one_at_the_end_is_reported_as_it_stands() {
    // Nothing after it tells a missing ply from a slip.
    let text = KIOTHI.replacen("34. a7:1", "34... a7:1", 1);
    let warnings = move_number_warnings(&text);
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].2.ends_with("numbered `34.`"),
        "{}",
        warnings[0].2
    );
}

#[test]
fn a_ply_missing_in_a_variation_is_told_in_the_variation() {
    let text = "[Game \"Tsoro\"]\n\n1. a3 d10 2. a4 (2. a5 3. a6 d8 4. a7) d9 3. a5 *\n";
    assert_eq!(
        move_number_warnings(text),
        [(
            3,
            24,
            "move number `3.` does not fit: the ply after it is North's ply of move 2, numbered `2...`; a ply seems to be missing before it (the move numbers after it count one ply more)".to_string()
        )]
    );
}
