//! Snapshot tests of the reader on malformed (and a few well-formed) inputs: the record
//! read and every problem with its line and column.

use std::fmt::Write as _;

use sow::pmn::{parse_bytes, write_game, Element, ParsedGame};

mod expect;

/// A compact, readable rendering of what the reader gave back.
fn render(games: &[ParsedGame]) -> String {
    let mut out = String::new();
    for (i, game) in games.iter().enumerate() {
        let _ = writeln!(
            out,
            "game {} (line {}, offset {}, {} bytes of text)",
            i + 1,
            game.line,
            game.offset,
            game.text.len()
        );
        for tag in &game.record.tags {
            let _ = writeln!(
                out,
                "  tag {}:{} {} = {:?}",
                tag.span.line, tag.span.column, tag.name, tag.value
            );
        }
        let mut moves = String::new();
        render_elements(&game.record.moves, &mut moves);
        let _ = writeln!(out, "  moves: {}", moves.trim_end());
        match &game.record.result {
            Some(r) => {
                let _ = writeln!(
                    out,
                    "  result {}:{} {}",
                    r.span.line,
                    r.span.column,
                    r.result.as_str()
                );
            }
            None => out.push_str("  result: none\n"),
        }
        for p in &game.problems {
            let _ = writeln!(out, "  {p}");
        }
    }
    out
}

fn render_elements(elements: &[Element], out: &mut String) {
    for e in elements {
        match e {
            Element::MoveNumber(m) => {
                let dots = if m.dots == sow::pmn::Dots::One {
                    "."
                } else {
                    "..."
                };
                let _ = write!(out, "{}{} ", m.number, dots);
            }
            Element::Ply(p) => {
                let _ = write!(out, "{p}@{}:{} ", p.span.line, p.span.column);
            }
            Element::Comment(c) => {
                let cmds: Vec<String> = c
                    .commands
                    .iter()
                    .map(|c| format!("%{}{:?}@{}:{}", c.name, c.args, c.span.line, c.span.column))
                    .collect();
                let _ = write!(out, "{{{:?} {:?} {}}} ", c.kind, c.text, cmds.join(","));
            }
            Element::Nag(n) => {
                let _ = write!(out, "${} ", n.code);
            }
            Element::Variation(v) => {
                out.push('(');
                render_elements(&v.elements, out);
                let t = out.trim_end().len();
                out.truncate(t);
                out.push_str(") ");
            }
        }
    }
}

fn check(name: &str, input: &[u8]) {
    let games = parse_bytes(input);
    expect::snapshots();
    insta::assert_snapshot!(name, render(&games));
}

fn tsoro(moves: &str) -> String {
    format!("[Game \"Tsoro\"]\n[Result \"1-0\"]\n\n{moves}\n")
}

#[test]
fn well_formed_sample_file() {
    let input = std::fs::read("tests/data/pmn/sample.pmn").unwrap();
    let games = parse_bytes(&input);
    expect::snapshots();
    insta::assert_snapshot!("sample", render(&games));
    let exported: Vec<String> = games.iter().map(|g| write_game(&g.record)).collect();
    insta::assert_snapshot!("sample_export", exported.join("\n"));
}

#[test]
fn unterminated_comment_is_reported_at_its_brace() {
    check(
        "unterminated_comment",
        tsoro("1. a3 {never closed d10 2. a4 1-0").as_bytes(),
    );
}

#[test]
fn unterminated_tag_is_reported_at_its_bracket() {
    check(
        "unterminated_tag",
        b"[Game \"Tsoro\"]\n[Event \"Open\n[Site \"Harare\"\n[Round \"1\"]\n\n1. a3 *\n",
    );
}

#[test]
fn bad_escape_in_tag_value() {
    check(
        "bad_escape",
        b"[Game \"Tsoro\"]\n[Event \"a \\n b\"]\n[Site \"say \\\"hi\\\" \\\\o/\"]\n\n1. a3 *\n",
    );
}

#[test]
fn unknown_game_name_is_kept_for_the_replay_layer() {
    check(
        "unknown_game_name",
        b"[Game \"Chess\"]\n[Result \"*\"]\n\n1. a3 *\n",
    );
}

#[test]
fn row_z_does_not_exist() {
    check("pit_z9", tsoro("1. a3 z9 2. a4 1-0").as_bytes());
}

#[test]
fn column_0_does_not_exist() {
    check("pit_a0", tsoro("1. a3 d10 2. a0 1-0").as_bytes());
}

#[test]
fn column_with_leading_zero() {
    check("pit_a03", tsoro("1. a03 1-0").as_bytes());
}

#[test]
fn missing_result() {
    check("missing_result", b"[Game \"Tsoro\"]\n\n1. a3 d10 2. a4\n");
}

#[test]
fn result_token_disagrees_with_result_tag() {
    check("result_mismatch", tsoro("1. a3 d10 0-1").as_bytes());
}

#[test]
fn duplicate_tags() {
    check(
        "duplicate_tags",
        b"[Game \"Tsoro\"]\n[Site \"A\"]\n[Site \"B\"]\n[Result \"*\"]\n\n1. a3 *\n",
    );
}

#[test]
fn garbage_between_games() {
    check(
        "garbage_between_games",
        b"[Game \"Tsoro\"]\n\n1. a3 *\nthis is not a game\n\n[Game \"Nsolo\"]\n\n1. a1 *\n",
    );
}

#[test]
fn crlf_line_endings() {
    check(
        "crlf",
        b"[Game \"Tsoro\"]\r\n[Result \"*\"]\r\n\r\n1. a3 ; note\r\nd10 {two\r\nlines} 2. a4 *\r\n",
    );
}

#[test]
fn utf8_byte_order_mark() {
    check(
        "bom",
        "\u{feff}[Game \"Tsoro\"]\n[South \"Tendai Mūsa\"]\n\n1. a3 z1 *\n".as_bytes(),
    );
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = if big_endian {
        vec![0xFE, 0xFF]
    } else {
        vec![0xFF, 0xFE]
    };
    for unit in text.encode_utf16() {
        out.extend(if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        });
    }
    out
}

#[test]
fn utf16_little_endian() {
    check(
        "utf16le",
        &utf16(
            "[Game \"Tsoro\"]\n[Site \"Mutare 🎲\"]\n\n1. a3 d10 a0 *\n",
            false,
        ),
    );
}

#[test]
fn utf16_big_endian() {
    check("utf16be", &utf16("[Game \"Nsolo\"]\n\n1. a3 d10 *\n", true));
}

#[test]
fn latin1_bytes_are_read_with_a_warning() {
    check(
        "latin1",
        b"[Game \"Tsoro\"]\n[Site \"Cura\xe7ao\"]\n[South \"Jos\xe9\"]\n\n1. a3 {caf\xe9} z3 *\n",
    ); // A line that mixes UTF-8 and Latin-1 is read as Latin-1 as a whole (bytes kept).
    check(
        "latin1_mixed_line",
        b"[Game \"Tsoro\"]\n[Site \"Zo\xc3\xab Cura\xe7ao\"]\n\n1. a3 *\n",
    );
}

#[test]
fn nul_bytes_are_reported_and_read_as_spaces() {
    check("nul", b"[Game \"Tsoro\"]\n\n1. a3\0d10 2. a4 *\n");
}

#[test]
fn huge_numbers() {
    check("huge_column", tsoro("1. a99999999999 1-0").as_bytes());
    check("huge_count", tsoro("1. a8:70000 1-0").as_bytes());
    check(
        "huge_arrival",
        tsoro("1. a9-a12#99999999999999999999999 1-0").as_bytes(),
    );
    check("huge_nag", tsoro("1. a3 $65536 1-0").as_bytes());
    check("huge_move_number", tsoro("99999999999. a3 1-0").as_bytes());
    check("column_100", tsoro("1. b100 1-0").as_bytes());
}

#[test]
fn deep_nesting_is_cut_at_the_limit() {
    let mut input = tsoro("1. a3 ").into_bytes();
    input.truncate(input.len() - 1);
    input.extend(std::iter::repeat_n(b'(', 100_000));
    input.extend(b" 1-0\n\n[Game \"Nsolo\"]\n\n1. a1 *\n");
    check("deep_nesting", &input);
}

#[test]
fn unterminated_comment_at_the_start_of_a_big_input() {
    let mut input = b"[Game \"Tsoro\"]\n\n{ the comment that never ends\n".to_vec();
    for _ in 0..50_000 {
        input.extend_from_slice(b"1. a3 d10 2. a9-a12 d7 3. b4xd3 c2 4. a1 d3xa11,b10 (4... d2)\n");
    }
    input.extend_from_slice(b"1-0\n\n[Game \"Nsolo\"]\n\n1. a1 *\n");
    check("unterminated_comment_big", &input);
}

#[test]
fn empty_file() {
    check("empty_file", b"");
    check("blank_file", b"\n\n  \r\n");
}

#[test]
fn file_with_only_tags() {
    check("only_tags", b"[Game \"Tsoro\"]\n[Result \"*\"]\n");
}

#[test]
fn wrong_move_numbers_are_warnings() {
    check(
        "wrong_move_numbers",
        tsoro("1. a3 1. d10 3. a4 2... d9 (2... d8 3. a5) 3... d7 1-0").as_bytes(),
    );
}

#[test]
fn broken_game_then_good_game() {
    check(
        "broken_then_good",
        b"[Game \"Tsoro\"]\n[Result \"*\"]\n\n1. a3 d10 2. q1 d9 *\n\n[Game \"Nsolo\"]\n[Result \"0-1\"]\n\n1. a3 d10 2. b4xd3 {ok} 0-1\n",
    );
}

#[test]
fn overlong_line() {
    let line = "a3 d10 ".repeat(1500);
    check("long_line", tsoro(&format!("{line}1-0")).as_bytes());
}

#[test]
fn unterminated_variation_is_reported_at_its_paren() {
    check(
        "unterminated_variation",
        tsoro("1. a3 (1. a4 d9 (1... d8) 2. a5 d10 1-0").as_bytes(),
    );
}

#[test]
fn stray_closing_paren() {
    check("stray_paren", tsoro("1. a3 d10 ) 2. a4 1-0").as_bytes());
}

#[test]
fn bad_suffix_annotation() {
    check("bad_suffix", tsoro("1. a3!!! d10 1-0").as_bytes());
}

#[test]
fn ply_forms_that_are_not_ply_syntax() {
    check("ply_trailing_junk", tsoro("1. a3-a4-a5 1-0").as_bytes());
    check(
        "ply_redistribution_without_count",
        tsoro("1. a7,a9>a5 1-0").as_bytes(),
    );
    check(
        "ply_bonus_list_dangling_comma",
        tsoro("1. d3xa11, 1-0").as_bytes(),
    );
    check("ply_uppercase_row", tsoro("1. A3 1-0").as_bytes());
}

#[test]
fn tag_line_inside_move_text_starts_no_game_when_it_is_a_command() {
    check(
        "command_line_in_move_text",
        b"[Game \"Tsoro\"]\n\n1. a3 {\n[%stones 40 35]\n[%foul]} d10 *\n",
    );
}

#[test]
fn north_first_record_from_a_position() {
    check(
        "north_first",
        b"[Game \"Tsoro\"]\n[SetUp \"1\"]\n[Position \"2,2/0,0/0,0/2,2 N\"]\n\n1... d1 2. a1 d2 *\n",
    );
}

#[test]
fn tags_without_blank_line_and_moves_on_tag_line() {
    check("tag_then_text_on_same_line", b"[Game \"Tsoro\"] 1. a3 *\n");
    check("no_tag_name", b"[ \"Tsoro\"]\n\n1. a3 *\n");
}

#[test]
fn columns_count_characters_after_non_ascii_comments() {
    // Columns after a comment with non-ASCII text (and a line break in it) count
    // characters, not bytes.
    check(
        "unicode_comment_columns",
        "[Game \"Tsoro\"]\n[South \"Zoë\"] \n\n1. a3 {é\nüß} d10 {ñ} 2. a4 ; ø\n d9 z1 *\n"
            .as_bytes(),
    );
}

/// A reader that hands out one byte at a time, to cross every buffer boundary.
struct OneByte<'a>(&'a [u8]);

impl std::io::Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn reading_byte_by_byte_gives_the_same_games() {
    let sample = std::fs::read("tests/data/pmn/sample.pmn").unwrap();
    let inputs = [
        sample.clone(),
        utf16(&String::from_utf8(sample.clone()).unwrap(), false),
        utf16("[Game \"Tsoro\"]\n\n1. a3 {🎲} *\n", true),
        b"\xef\xbb\xbf[Game \"Nsolo\"]\r\n\r\n1. a1 *\r\n".to_vec(),
    ];
    for input in inputs {
        let whole = parse_bytes(&input);
        let streamed: Vec<ParsedGame> = sow::pmn::Reader::new(OneByte(&input)).collect();
        assert_eq!(render(&whole), render(&streamed));
        assert_eq!(whole, streamed);
    }
}
