//! The parser of one game's text (tags, move text, result) into a [`Record`].
//!
//! It works on a game chunk cut by the reader and never fails: it gives back the record
//! as far as it could be read and the problems found. It must not know any game's
//! rules, and it must not recurse on nested variations (it keeps an explicit stack).
//!
//! # What is nom and what is not
//!
//! The grammars of the pieces are nom 8 parsers:
//!
//! - a ply, `FROM[:n][-END[#k]][x[P[:n],...]]` or `P,P>Q:n,...` (`ply` and the parsers
//!   it is built from, over the bytes of one token, with a small `Copy` error type
//!   turned into our messages only when a problem is reported);
//! - a tag line `[Name "value"]` with its `\"` and `\\` escapes (`tag_line`).
//!
//! Two small readers are by hand, for speed: a command `[%name args]` inside a comment
//! (`command`, a split at whitespace), and the usual plies, which the scanner's fast
//! lane reads (below).
//!
//! The scanner that walks the move text (`Scanner::read_moves`: tokens, comments,
//! NAGs, move numbers, results, variations, and the tag section's resumption at the
//! next `[` line) stays hand-written, on purpose:
//!
//! - Variations nest, and a nom grammar for them would recurse once per `(`; a file
//!   with thousands of `(` would overflow the stack. The scanner keeps an explicit
//!   stack of lines and stops at [`MAX_NESTING`] with a problem.
//! - It never fails: after a problem it resumes (at the next tag line, or by stopping
//!   the move text with what was read kept), which is control flow around the grammar,
//!   not grammar.
//! - It is the hot loop of the reader: it dispatches on one byte and follows lines and
//!   columns incrementally as it goes (spans cost no rescan). Its fast lane
//!   (`read_usual_tokens`) reads the usual tokens, spaces, move numbers and plies of
//!   plain pits, straight into their slots; every other token, and every token with a
//!   problem, goes to the general loop, which hands plies to the nom parsers. With
//!   combinators (`alt` over every token kind) every token would build and drop an
//!   error per kind tried, in the reader's hottest loop.

use std::ops::ControlFlow;

use super::ast::*;
use super::problem::{Code, Problem};
use super::visit::{RecordBuilder, Visitor};

mod command;
mod fast;
mod moves;
mod numbers;
mod ply;
mod tags;

pub(super) use moves::count_bytes;
pub use numbers::move_number_for;

/// Variations may nest this deep; one more `(` is a `nesting-too-deep` problem.
pub const MAX_NESTING: usize = 256;

/// Parses the text of one game. `offset` and `line` say where the text starts in the
/// file (it must start at the beginning of a line), so that spans are absolute.
pub fn parse_game(text: &str, offset: usize, line: u32) -> (Record, Vec<Problem>) {
    parse_numbered_game(text, offset, line, None)
}

/// [`parse_game`], the plies' pits written as `numbers` says (PMN's `a3` when `None`).
pub fn parse_numbered_game(
    text: &str,
    offset: usize,
    line: u32,
    numbers: Option<&dyn PitNumbers>,
) -> (Record, Vec<Problem>) {
    let mut builder = RecordBuilder::new(text.len());
    let tags = read_numbered_game(text, offset, line, numbers, &mut builder);
    builder.finish(tags)
}

/// Reads the text of one game, handing its events to `visitor` (see [`Visitor`]);
/// returns its tags. `offset` and `line` are as for [`parse_game`].
pub fn read_game<V: Visitor>(text: &str, offset: usize, line: u32, visitor: &mut V) -> Vec<Tag> {
    read_numbered_game(text, offset, line, None, visitor)
}

/// [`read_game`], the plies' pits written as `numbers` says (PMN's `a3` when `None`).
pub fn read_numbered_game<V: Visitor>(
    text: &str,
    offset: usize,
    line: u32,
    numbers: Option<&dyn PitNumbers>,
    visitor: &mut V,
) -> Vec<Tag> {
    let mut p = Scanner::new(text, offset, line, visitor);
    p.numbers = numbers;
    p.run();
    p.record.tags
}

/// Pits written as numbers rather than PMN's `a3`: seat-relative numbers or Ludii's
/// sites, which a caller who knows the board maps to pits and back (this layer knows
/// no board). The reader reads plies through it, the writer writes them.
///
/// In such move text a ply's every pit is a number, and a number right after `:` or
/// `#` is a count, as in PMN; a number followed by a dot is a move number, any other
/// token of digits a ply.
pub trait PitNumbers {
    /// The pit that `number` names in a ply that `side` plays, if any.
    fn pit(&self, side: Side, number: u32) -> Option<Pit>;

    /// The number that names `pit` in a ply that `side` plays, if any: the inverse of
    /// [`PitNumbers::pit`].
    fn number(&self, side: Side, pit: Pit) -> Option<u32>;

    /// Why `written`, read where a pit belongs (a run of letters and digits up to an
    /// `x`), names no pit.
    fn no_pit(&self, written: &str) -> String;
}

/// The widest number read as a pit: a longer one names none.
const PIT_NUMBER_DIGITS: usize = 4;

/// Where the token at `from` ends: at a delimiter or the end of the text.
fn token_end(bytes: &[u8], from: usize) -> usize {
    (bytes[from..].iter())
        .position(|&b| is_delimiter(b))
        .map_or(bytes.len(), |i| from + i)
}

/// The result token at the start of `rest`, followed by a delimiter or the end of the
/// text: the result and the token's length.
fn result_token_at(rest: &[u8]) -> Option<(GameResult, usize)> {
    let token = ["1/2-1/2", "1-0", "0-1"].into_iter().find(|t| {
        rest.starts_with(t.as_bytes()) && rest.get(t.len()).is_none_or(|&c| is_delimiter(c))
    })?;
    Some((GameResult::from_text(token)?, token.len()))
}

/// The bit of a name of `Tag::KNOWN_NAMES` in `Scanner::known_tags`.
const fn known_bit(name: &str) -> u32 {
    let mut i = 0;
    while i < Tag::KNOWN_NAMES.len() {
        let known = Tag::KNOWN_NAMES[i].as_bytes();
        if known.len() == name.len() {
            let mut j = 0;
            while j < known.len() && known[j] == name.as_bytes()[j] {
                j += 1;
            }
            if j == known.len() {
                return 1 << i;
            }
        }
        i += 1;
    }
    panic!("not a known tag name")
}

const GAME_TAG: u32 = known_bit("Game");
const SET_UP_TAG: u32 = known_bit("SetUp");
const RESULT_TAG: u32 = known_bit("Result");

/// The `Result` tag, when it disagrees with the result token `result`.
fn result_tag_against(record: &Record, result: GameResult) -> Option<&Tag> {
    (record.tags.iter())
        .find(|t| same_name(&t.name, "Result"))
        .filter(|t| t.value != result.as_str())
}

struct Scanner<'a, 'v, V: Visitor> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    base_offset: usize,
    base_line: u32,
    loc_pos: usize,
    loc_line: u32,
    loc_col: u32,
    /// The line of `pos` and where it starts, kept up to date as text is consumed, so
    /// that the span of a token costs no rescan.
    line: u32,
    line_start: usize,
    /// Whether the current line may hold non-ASCII text before `pos` (columns must
    /// then count characters).
    line_wide: bool,
    /// Whether the text holds a carriage return (a comment's CRLF breaks become LF).
    has_cr: bool,
    /// Who the events go to.
    visitor: &'v mut V,
    /// The depth of the variation the visitor skips (its events are not sent), or 0.
    skipping: usize,
    /// Whether the visitor stopped the reading.
    halted: bool,
    /// How the plies' pits are written: numbers mapped by the caller, or PMN's pits.
    numbers: Option<&'v dyn PitNumbers>,
    /// Whether the move text has held an element (a variation is one of its line).
    any_element: bool,
    /// The tags (the rest of the record is the visitor's).
    record: Record,
    /// The known tag names read so far (bit `i` for `Tag::KNOWN_NAMES[i]`), and whether
    /// a name came twice or two names are not known: only then can a tag be repeated.
    known_tags: u32,
    maybe_repeated: bool,
    unknown_tags: bool,
}

/// Byte classes of move text, looked up in [`CLASS`] (one load per byte in the scanner's
/// loops rather than a chain of comparisons).
const SPACE: u8 = 1;
const DELIMITER: u8 = 2;
/// A byte of a tag name: an ASCII letter or digit, or `_`.
const NAME: u8 = 4;

/// The class bits of every byte: spaces (which also delimit), the other delimiters, and
/// the bytes of tag names.
static CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let spaces = [b' ', b'\t', b'\r', b'\n', 0, 0x0c];
    let mut i = 0;
    while i < spaces.len() {
        class[spaces[i] as usize] = SPACE | DELIMITER;
        i += 1;
    }
    let others = [b'{', b'}', b'(', b')', b';', b'$'];
    let mut i = 0;
    while i < others.len() {
        class[others[i] as usize] = DELIMITER;
        i += 1;
    }
    let mut b = 0;
    while b < 256 {
        if (b as u8).is_ascii_alphanumeric() || b == b'_' as usize {
            class[b] |= NAME;
        }
        b += 1;
    }
    class
};

/// Whether a byte ends a token in move text: a space or one of `{ } ( ) ; $`.
#[inline(always)]
fn is_delimiter(b: u8) -> bool {
    CLASS[b as usize] & DELIMITER != 0
}

/// Whether a byte is a space of move text: space, tab, CR, LF, NUL (read as a space) or
/// form feed.
#[inline(always)]
fn is_space(b: u8) -> bool {
    CLASS[b as usize] & SPACE != 0
}

/// A short quotation of `s` for a message.
fn quote(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

impl<'a, 'v, V: Visitor> Scanner<'a, 'v, V> {
    fn new(text: &'a str, offset: usize, line: u32, visitor: &'v mut V) -> Scanner<'a, 'v, V> {
        Scanner {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            base_offset: offset,
            base_line: line,
            loc_pos: 0,
            loc_line: line,
            loc_col: 1,
            line,
            line_start: 0,
            line_wide: false,
            // One search per game, not one per comment (most texts have no CR at all).
            has_cr: memchr::memchr(b'\r', text.as_bytes()).is_some(),
            visitor,
            skipping: 0,
            halted: false,
            numbers: None,
            any_element: false,
            record: Record::default(),
            known_tags: 0,
            maybe_repeated: false,
            unknown_tags: false,
        }
    }

    /// Line and column of a position in the text. Positions are asked for mostly in
    /// increasing order, so each byte is counted about once.
    fn locate(&mut self, pos: usize) -> (u32, u32) {
        if pos < self.loc_pos {
            self.loc_pos = 0;
            self.loc_line = self.base_line;
            self.loc_col = 1;
        }
        let (mut line, mut col) = (self.loc_line, self.loc_col);
        for &b in &self.bytes[self.loc_pos..pos] {
            if b == b'\n' {
                line += 1;
                col = 1;
            } else if (b & 0xC0) != 0x80 {
                col += 1;
            }
        }
        (self.loc_line, self.loc_col, self.loc_pos) = (line, col, pos);
        (line, col)
    }

    /// The span of a token at `start` on the current line (fast: no rescan). The text
    /// from `line_start` to `start` must have been consumed through `skip_space`,
    /// `track` or ASCII tokens.
    fn span(&self, start: usize, end: usize) -> Span {
        debug_assert!(start >= self.line_start);
        let before = &self.bytes[self.line_start..start];
        let column = if self.line_wide {
            1 + before.iter().filter(|&&b| (b & 0xC0) != 0x80).count() as u32
        } else {
            1 + before.len() as u32
        };
        Span {
            start: self.base_offset + start,
            end: self.base_offset + end,
            line: self.line,
            column,
        }
    }

    /// Follows lines over text consumed other than by `skip_space` or ASCII tokens.
    fn track(&mut self, from: usize, to: usize) {
        let seg = &self.bytes[from..to];
        match memchr::memrchr(b'\n', seg) {
            Some(last) => {
                self.line += count_bytes(seg, |b| b == b'\n') as u32;
                self.line_start = from + last + 1;
                self.line_wide = !self.bytes[self.line_start..to].is_ascii();
            }
            None => self.line_wide |= !seg.is_ascii(),
        }
    }

    /// The span of any position (slower: it scans forward from the last one asked).
    fn span_slow(&mut self, start: usize, end: usize) -> Span {
        let (line, column) = self.locate(start);
        Span {
            start: self.base_offset + start,
            end: self.base_offset + end,
            line,
            column,
        }
    }

    fn error(&mut self, code: Code, start: usize, end: usize, message: String) {
        let span = self.span_slow(start, end);
        self.visitor.problem(Problem::error(code, span, message));
    }

    /// Hands an element's event to the visitor, unless in a skipped variation; false
    /// when the visitor stops the reading.
    #[inline(always)]
    fn emit(&mut self, event: impl FnOnce(&mut V) -> ControlFlow<()>) -> bool {
        self.any_element = true;
        if self.skipping != 0 {
            return true;
        }
        if event(self.visitor).is_break() {
            self.halted = true;
            return false;
        }
        true
    }

    /// Ends the variation that was at `depth` of the stack, its span `span`.
    fn end_variation(&mut self, depth: usize, span: Span) -> bool {
        if self.skipping == depth {
            self.skipping = 0;
            return true;
        }
        self.emit(|v| v.end_variation(span))
    }

    fn skip_space(&mut self) {
        while self.pos < self.bytes.len() && is_space(self.bytes[self.pos]) {
            if self.bytes[self.pos] == b'\n' {
                self.line += 1;
                self.line_start = self.pos + 1;
                self.line_wide = false;
            }
            self.pos += 1;
        }
    }

    /// Position of the next line (after `from`) that begins with a tag `[`.
    fn next_tag_line(&self, from: usize) -> Option<usize> {
        let mut at = from;
        while let Some(i) = self.bytes[at..].iter().position(|&b| b == b'\n') {
            let start = at + i + 1;
            if self.bytes.get(start) == Some(&b'[') && self.bytes.get(start + 1) != Some(&b'%') {
                return Some(start);
            }
            at = start;
        }
        None
    }

    fn char_at(&self, pos: usize) -> String {
        if self.text.is_char_boundary(pos) {
            self.text[pos..]
                .chars()
                .next()
                .map(String::from)
                .unwrap_or_default()
        } else {
            format!("byte {:#04x}", self.bytes[pos])
        }
    }

    fn run(&mut self) {
        let stopped = self.read_tags();
        self.check_tags();
        if self.visitor.tags(&self.record).is_break() {
            return;
        }
        if !stopped {
            self.read_moves();
        }
    }
}
#[cfg(test)]
mod tests {
    use super::fast::{counted_move_number, usual_move_number};
    use super::moves::lf_breaks;
    use super::ply::{matched_pit, usual_pit};
    use super::tags::{tag_line, usual_tag_line};
    use super::*;

    /// The plies, move numbers and problems of a move text, without places.
    fn unplaced(text: &str) -> (Vec<String>, Vec<String>) {
        let (record, problems) = parse_game(text, 0, 1);
        let elements = record
            .moves
            .iter()
            .map(|e| match e {
                Element::Ply(p) => format!("{:?} {:?}", p.syntax, p.suffix),
                Element::MoveNumber(n) => format!("{} {:?}", n.number, n.dots),
                Element::Comment(c) => format!("comment {}", c.text),
                Element::Nag(n) => format!("${}", n.code),
                Element::Variation(v) => format!("variation of {}", v.elements.len()),
            })
            .collect();
        let problems = problems
            .iter()
            .map(|p| format!("{:?} {}", p.code, p.message))
            .collect();
        (elements, problems)
    }

    #[test]
    fn the_usual_tag_line_reads_as_the_grammar_does() {
        let lines = [
            "[Game \"Tsoro\"]",
            "[Date \"2002.02.??\"]\r",
            "[Site \"Muto\u{e9}ko\"] \t",
            "[Event \"\"]",
            "[Set_Up2 \"1\"]",
            "[Site \"a\\\\b\"]",
            "[Site \"a\\\"b\"]",
            "[ Round \"1\"]",
            "[Round  \"1\"]",
            "[Round\t\"1\"]",
            "[Round \"1\" ]",
            "[Round \"1\"] x",
            "[Round \"1\"",
            "[Round \"1]",
            "[ \"1\"]",
            "[\"1\"]",
            "[Round]",
            // The fast lane reads the text to the end of the tag's line only.
            "[Game \"Nsolo\"]\n[Board \"4x8\"]",
            "[Game \"Nsolo\"] \r\n1. a1",
            "[Game \"Ns\nolo\"]",
        ];
        let mut usual = 0;
        for text in lines {
            let line = text.split('\n').next().unwrap_or_default();
            let grammar = tag_line(line.as_bytes()).ok().map(|(_, found)| found);
            if let Some(tag) = usual_tag_line(text.as_bytes()) {
                usual += 1;
                let found = (&line.as_bytes()[tag.name], &line.as_bytes()[tag.value]);
                assert_eq!(Some(found), grammar, "{text}");
                assert_eq!(tag.line_len, line.len(), "{text}");
                assert_eq!(tag.close, line.rfind(']').map_or(0, |i| i + 1), "{text}");
            }
        }
        assert_eq!(usual, 7, "the usual lines are read in one pass");
    }

    #[test]
    fn the_fast_lane_reads_tokens_as_the_general_loop_does() {
        // A non-ASCII comment before the tokens on their line turns the fast lane off
        // (columns would count characters), so the same tokens go through the general
        // loop; both must give the same elements and the same problems.
        let tokens = [
            "a3",
            "c17",
            "a3x",
            "a3xc4",
            "a3xc4,d5",
            "a3xc4:2,d5:0,b7,a1",
            "a9-b4",
            "a9-b4#2",
            "a9-b4#2xc1",
            "b2:5",
            "b2:5-a4#1x",
            "a3xc4,",
            "a3x,",
            "a3:",
            "a3:05",
            "a3:65536",
            "a3-",
            "a3-e4",
            "a3#2",
            "a100",
            "a0",
            "a3!",
            "a3xc4?!",
            "a3,b4>c5:10",
            "e3",
            "12.",
            "12...",
            "12..",
            "1234567890.",
            "1-0",
            "1/2-1/2",
            "3.a4",
            "a3x$1",
            "a3xc4{x}",
        ];
        for token in tokens {
            let fast = unplaced(&format!("[Game \"Tsoro\"]\n\n1. {token} *\n"));
            let general = unplaced(&format!("[Game \"Tsoro\"]\n\n{{é}} 1. {token} *\n"));
            let (mut elements, problems) = general;
            assert_eq!(elements.remove(0), "comment é", "{token}");
            assert_eq!(fast, (elements, problems), "{token}");
        }
    }

    /// Every string of up to `len` bytes from `alphabet`.
    fn strings(alphabet: &[u8], len: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..len {
            last = (last.iter())
                .flat_map(|s| {
                    alphabet.iter().map(move |&b| {
                        let mut longer = s.clone();
                        longer.push(b);
                        longer
                    })
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn the_short_move_number_reads_as_the_counted_one() {
        for text in strings(b"0129.-/ a", 6) {
            if text.first().is_some_and(u8::is_ascii_digit) {
                let shown = String::from_utf8_lossy(&text);
                let counted = counted_move_number(&text, 0);
                assert_eq!(usual_move_number(&text, 0), counted, "{shown}");
            }
        }
    }

    #[test]
    fn the_four_byte_pit_reads_as_the_matched_one() {
        for text in strings(b"abde01239-: ", 5) {
            let shown = String::from_utf8_lossy(&text);
            assert_eq!(usual_pit(&text), matched_pit(&text), "{shown}");
        }
    }

    #[test]
    fn count_bytes_counts_across_blocks() {
        let text: Vec<u8> = (0..2000u32)
            .map(|i| match i % 7 {
                0 => b' ',
                3 => b'\n',
                5 => b'\r',
                _ => b'a',
            })
            .collect();
        for len in [0, 1, 254, 255, 256, 510, 511, 2000] {
            let naive = text[..len]
                .iter()
                .filter(|&&b| b == b' ' || b == b'\n')
                .count();
            let counted = count_bytes(&text[..len], |b| b == b' ' || b == b'\n');
            assert_eq!(counted, naive, "first {len} bytes");
        }
        // A block of 255 hits must not overflow its byte-wide count.
        assert_eq!(count_bytes(&[b' '; 1000], |b| b == b' '), 1000);
    }

    #[test]
    fn a_comment_over_crlf_lines_reads_as_over_lf_lines() {
        let comment = |text: &str| {
            let (record, problems) = parse_game(text, 0, 1);
            assert!(problems.is_empty(), "{problems:?}");
            match record.moves.get(2) {
                Some(Element::Comment(c)) => (c.text.clone(), c.commands.len()),
                other => panic!("no comment: {other:?}"),
            }
        };
        let lf = comment("[Game \"Tsoro\"]\n\n1. a3 {two\nlines [%stones 1 2]} *\n");
        let crlf = comment("[Game \"Tsoro\"]\r\n\r\n1. a3 {two\r\nlines [%stones 1 2]} *\r\n");
        assert_eq!(crlf, lf);
        assert_eq!(lf.0, "two\nlines [%stones 1 2]");
        // Every CR before a line feed goes (`\r\r\n` too, which would otherwise read
        // back as `\n`); a CR elsewhere stays.
        assert_eq!(lf_breaks("a\r\r\nb\rc\r"), "a\nb\rc\r");
    }

    fn commands_of(comment: &str) -> Vec<(String, Vec<String>, usize, u32)> {
        let text = format!("[Game \"Tsoro\"]\n\n1. a3 {{{comment}}} *\n");
        let (record, _) = parse_game(&text, 0, 1);
        let Some(Element::Comment(c)) = record.moves.get(2) else {
            panic!("no comment in {:?}", record.moves)
        };
        c.commands
            .iter()
            .map(|cmd| {
                (
                    cmd.name.to_string(),
                    cmd.args.iter().map(String::from).collect(),
                    cmd.span.start,
                    cmd.span.column,
                )
            })
            .collect()
    }

    #[test]
    fn commands_are_found_after_any_bracket() {
        let words = |s: &[&str]| s.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        // `{` is at byte 22, column 7 of line 3.
        assert_eq!(
            commands_of("[%stones 40 35]"),
            vec![("stones".into(), words(&["40", "35"]), 23, 8)]
        );
        assert_eq!(
            commands_of("x [ [[%foul] [% stones\t1  2 ]"),
            vec![
                ("foul".into(), vec![], 28, 13),
                ("stones".into(), words(&["1", "2"]), 36, 21)
            ]
        );
        // `[%]` names nothing; an unclosed command ends the search.
        assert_eq!(
            commands_of("[%] [%foul]"),
            vec![("foul".into(), vec![], 27, 12)]
        );
        assert_eq!(commands_of("[%foul [%stones 1 2"), vec![]);
        // A word runs to a space or `]`, so a `[%` inside a command is one of its words.
        assert_eq!(
            commands_of("[%stones 1 [%foul]"),
            vec![("stones".into(), words(&["1", "[%foul"]), 23, 8)]
        );
        assert_eq!(commands_of("no commands [ here %"), vec![]);
    }
}
