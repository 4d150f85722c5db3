//! The messages and columns of bad plies, tags and commands are part of the interface:
//! they must stay as they are whichever parser reads the plies.

use sow::pmn::{parse_str, Element};

/// The first problem of a Tsoro game whose move text is `moves`, as `line:column:
/// code: message`.
fn first_problem(moves: &str) -> String {
    let text = format!("[Game \"Tsoro\"]\n\n1. {moves} *\n");
    let games = parse_str(&text);
    let p = &games[0].problems[0];
    format!(
        "{}:{}: {}: {}",
        p.span.line, p.span.column, p.code, p.message
    )
}

#[test]
fn ply_messages_are_kept() {
    let cases = [
        ("a3-b4#07", "3:10: syntax: in ply `a3-b4#07`: arrival number `07` starts with 0; write it without leading zeros"),
        ("a1,b2c", "3:9: syntax: in ply `a1,b2c`: expected `,` and another pit, or `>` and the pits filled, found `c`"),
        ("a1>b2", "3:9: syntax: in ply `a1>b2`: expected `:` and the stones put in the pit, found the end of the ply"),
        ("a1>b2:70000", "3:10: number-too-large: in ply `a1>b2:70000`: number of stones 70000 is too large; the largest is 65535"),
        ("a3xb4:99999", "3:10: number-too-large: in ply `a3xb4:99999`: number of stones taken 99999 is too large; the largest is 65535"),
        ("a3:", "3:7: syntax: in ply `a3:`: expected a number of stones lifted (digits)"),
        ("a3-b4#", "3:10: syntax: in ply `a3-b4#`: expected a arrival number (digits)"),
        ("a3:2:", "3:8: syntax: in ply `a3:2:`: expected `-END`, `x` or the end of the ply, found `:`"),
        ("a3x:", "3:7: syntax: in ply `a3x:`: expected a pit such as `a3` (a row a-d and a column), found `:`"),
        ("a3-b4x1", "3:10: syntax: in ply `a3-b4x1`: expected a pit such as `a3` (a row a-d and a column), found `1`"),
        ("a3-b4#2-", "3:11: syntax: in ply `a3-b4#2-`: expected `x` or the end of the ply, found `-`"),
        ("a3-b4-", "3:9: syntax: in ply `a3-b4-`: expected `#k`, `x` or the end of the ply, found `-`"),
        ("a3é", "3:6: syntax: in ply `a3é`: expected `:n`, `-END`, `x` or the end of the ply, found `é`"),
        ("a00", "3:5: syntax: in ply `a00`: column `00` starts with 0; write it without leading zeros"),
        ("a3!!?", "3:6: syntax: `!!?` is not an annotation; expected ! ? !! ?? !? or ?!"),
    ];
    for (ply, expected) in cases {
        assert_eq!(first_problem(ply), expected, "ply `{ply}`");
    }
}

#[test]
fn tag_and_command_problems_are_kept() {
    let text = "[Game \"Ts\\oro\"]\n[Event \"a\\\\\" ]x\n[Site \"x\\\r\n\n1. a3 {[%clk  1:00  x] [%] [%a} *\n";
    let games = parse_str(text);
    let shown: Vec<String> = games[0]
        .problems
        .iter()
        .map(|p| {
            format!(
                "{}:{}: {}: {}",
                p.span.line, p.span.column, p.code, p.message
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            "1:10: bad-escape: `\\o` is not an escape; in a tag value only `\\\"` and `\\\\` are",
            "2:15: syntax: expected the end of the line after a tag, found `x` (one tag per line)",
            "3:9: bad-escape: `\\` at the end of the line is not an escape; in a tag value only `\\\"` and `\\\\` are",
        ]
    );
}

/// Arguments split at any whitespace (here a no-break space); `[%]` has no name and
/// `[%a` no `]`, so neither is a command.
#[test]
fn commands_are_kept() {
    let games = parse_str("[Game \"Tsoro\"]\n\n1. a3 {é [%clk  1:00\u{a0}x] [%] [%a} *\n");
    let Element::Comment(c) = &games[0].record.moves[2] else {
        panic!("{:?}", games[0].record.moves);
    };
    let shown: Vec<String> = c
        .commands
        .iter()
        .map(|c| {
            format!(
                "{}:{} {} {:?} {}..{}",
                c.span.line, c.span.column, c.name, c.args, c.span.start, c.span.end
            )
        })
        .collect();
    assert_eq!(shown, ["3:10 clk [\"1:00\", \"x\"] 26..41"]);
}
