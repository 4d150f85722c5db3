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

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::{ControlFlow, Range};

use nom::branch::alt;
use nom::bytes::complete::{take_till1, take_while, take_while1};
use nom::character::complete::{char, digit1, one_of, space0};
use nom::combinator::{cut, eof, map, map_res, opt, peek, recognize};
use nom::error::{context, ContextError, ErrorKind, FromExternalError, ParseError};
use nom::multi::{fold_many0, many0_count, separated_list1};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Offset, Parser};

use compact_str::CompactString;

use super::ast::*;
use super::problem::{Problem, ProblemCode};
use super::visit::{push_element, RecordBuilder, Skip, Visitor};

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
/// sites, which a caller who knows the board maps to pits (this layer knows no board).
///
/// In such move text a ply's every pit is a number, and a number right after `:` or
/// `#` is a count, as in PMN; a number followed by a dot is a move number, any other
/// token of digits a ply.
pub trait PitNumbers {
    /// The pit that `number` names in a ply that `side` plays, if any.
    fn pit(&self, side: Side, number: u32) -> Option<PitRef>;

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

/// The reader's state of one line of play (the main line or a variation).
struct Frame {
    /// Where the `(` is (unused for the main line).
    open: Span,
    /// Absolute ply index (0 = South's first ply) of the next ply in this line.
    next_ply: u64,
    /// Absolute ply index of the last ply in this line.
    last_ply: Option<u64>,
    /// The move number before the next ply, when it is not the one that ply needs (or
    /// a move number off by one ply waits to be told, see `off_by_one`).
    wrong_number: Option<MoveNumber>,
    /// A move number one ply off the count, held until the line's next move number
    /// tells a missing or extra ply (that number fits the count moved by one ply) from
    /// a slip of the pen (it fits the count as it was).
    off_by_one: Option<OffByOne>,
    /// The place of the next ply in the line (its first ply's index, plus the plies
    /// read since), and of the last one: who plays a ply of numbered pits (see
    /// [`PitNumbers`]) follows from its place alone, whatever the move numbers say.
    /// Kept only for numbered pits.
    place: u64,
    last_place: Option<u64>,
}

/// A move number written one ply off the count (see `Frame::off_by_one`).
struct OffByOne {
    number: MoveNumber,
    /// The index of the ply after it, as counted.
    index: u64,
    /// +1 when the number is one ply ahead of the count (a ply seems missing), -1 when
    /// behind (a ply seems extra).
    shift: i64,
}

impl Frame {
    /// Notes a move number just read, for the ply after it. It is told right or wrong here, where the next ply's index is already known
    /// (only a ply moves it, and the ply takes the note); it is reported when its ply
    /// comes. Then most plies find no note: a branch that nearly never goes the other
    /// way.
    #[inline(always)]
    fn note_number(&mut self, number: u32, dots: Dots, span: impl FnOnce() -> Span) {
        let right = (u64::from(number), dots) == move_number_for(self.next_ply);
        if right && self.off_by_one.is_none() {
            self.wrong_number = None;
        } else {
            self.note_wrong_number(MoveNumber {
                number,
                dots,
                span: span(),
            });
        }
    }

    #[cold]
    #[inline(never)]
    fn note_wrong_number(&mut self, number: MoveNumber) {
        self.wrong_number = Some(number);
    }

    /// Counts a ply of this line, and reports the move number before it if it is wrong.
    #[inline(always)]
    fn count_ply(&mut self, visitor: &mut impl Visitor) {
        let mut index = self.next_ply;
        if let Some(number) = self.wrong_number.take() {
            index = self.check_number(visitor, number, index);
        }
        self.last_ply = Some(index);
        self.next_ply = index + 1;
    }

    /// Checks the move number before the ply of index `index`, and tells the number
    /// held off by one (if any): returns the index the ply takes, moved by one ply when
    /// the numbers show a ply missing or extra before it. The first number of such a
    /// shift is reported once; the numbers after it, which fit the shift, are not.
    #[cold]
    #[inline(never)]
    fn check_number(&mut self, visitor: &mut impl Visitor, number: MoveNumber, index: u64) -> u64 {
        let written = written_index(number);
        let counted = index as i64;
        if let Some(held) = self.off_by_one.take() {
            if written == counted + held.shift {
                visitor.problem(move_number_problem(
                    held.number,
                    held.index,
                    Some(held.shift),
                ));
                return written as u64;
            }
            visitor.problem(move_number_problem(held.number, held.index, None));
        }
        if written == counted {
            return index;
        }
        if (written - counted).abs() == 1 {
            self.off_by_one = Some(OffByOne {
                number,
                index,
                shift: written - counted,
            });
        } else {
            visitor.problem(move_number_problem(number, index, None));
        }
        index
    }

    /// Ends the line: a move number held off by one, that no later number told, is
    /// reported as it is.
    fn close(&mut self, visitor: &mut impl Visitor) {
        if let Some(held) = self.off_by_one.take() {
            visitor.problem(move_number_problem(held.number, held.index, None));
        }
    }

    fn new(next_ply: u64, place: u64, open: Span) -> Frame {
        Frame {
            open,
            next_ply,
            last_ply: None,
            wrong_number: None,
            off_by_one: None,
            place,
            last_place: None,
        }
    }

    /// The side that plays the next ply of numbered pits, and its place taken.
    fn take_place(&mut self) -> Side {
        let side = if self.place.is_multiple_of(2) {
            Side::South
        } else {
            Side::North
        };
        self.last_place = Some(self.place);
        self.place += 1;
        side
    }
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

    fn error(&mut self, code: ProblemCode, start: usize, end: usize, message: String) {
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

    /// Reads the tag section. Returns true when the text ended while resuming after a
    /// problem (nothing is left to read).
    fn read_tags(&mut self) -> bool {
        // Room for the seven-tag roster and a few more, instead of growing tag by tag.
        self.record.tags.reserve(12);
        loop {
            self.skip_space();
            if self.bytes.get(self.pos) != Some(&b'[')
                || self.bytes.get(self.pos + 1) == Some(&b'%')
            {
                return false;
            }
            if let Err(()) = self.read_tag() {
                match self.next_tag_line(self.pos) {
                    Some(next) => {
                        self.track(self.pos, next);
                        self.pos = next;
                    }
                    None => {
                        self.pos = self.bytes.len();
                        return true;
                    }
                }
            }
        }
    }

    fn line_end(&self, from: usize) -> usize {
        memchr::memchr(b'\n', &self.bytes[from..]).map_or(self.bytes.len(), |i| from + i)
    }

    fn read_tag(&mut self) -> Result<(), ()> {
        let open = self.pos;
        // The usual tag line is read in one pass over its bytes; the grammar reads the
        // rest and reports every problem.
        let (name, raw, value, close, end_of_line) = match usual_tag_line(&self.bytes[open..]) {
            Some(tag) => {
                let text = &self.text[open..];
                let raw = &text[tag.value];
                // No escape: the value is as written.
                let value = CompactString::from(raw);
                let (close, end) = (open + tag.close, open + tag.line_len);
                (&text[tag.name], raw, value, close, end)
            }
            None => {
                let (name, raw, close, end) = self.tag_by_grammar(open)?;
                (name, raw, unescape(raw), close, end)
            }
        };
        let value_start = self.text.offset(raw);
        let value_end = value_start + raw.len();
        let span = self.span(open, close);
        let value_span = self.span(value_start, value_end);
        // The known names met so far, for `check_tags` and the searches for tags.
        let name = match Tag::known_index(name) {
            Some(i) => {
                self.maybe_repeated |= self.known_tags & 1 << i != 0;
                self.known_tags |= 1 << i;
                Cow::Borrowed(Tag::KNOWN_NAMES[i])
            }
            None => {
                self.maybe_repeated |= self.unknown_tags;
                self.unknown_tags = true;
                Cow::Owned(name.to_string())
            }
        };
        // Built in its slot, as elements are (see `push_element`): its spans are
        // written field by field, and a copy of them would stall.
        push_element(&mut self.record.tags, || Tag {
            name,
            value,
            span,
            value_span,
        });
        self.pos = end_of_line;
        self.line_wide = true;
        Ok(())
    }

    /// A tag line the fast lane does not read, by the grammar: its name, its value as
    /// written, where it closes (past its `]`) and where its line ends. A problem is
    /// reported, and is `Err`.
    fn tag_by_grammar(&mut self, open: usize) -> Result<(&'a str, &'a str, usize, usize), ()> {
        let end_of_line = self.line_end(open);
        let line = &self.text[open..end_of_line];
        let parsed = tag_line(line.as_bytes()).map_err(|e| match e {
            nom::Err::Failure(e) | nom::Err::Error(e) => e,
            // Complete parsers never ask for more; were one to, it is a problem.
            nom::Err::Incomplete(_) => TagError {
                rest: line.as_bytes(),
                kind: TagErrorKind::Nom,
            },
        });
        let (name, raw) = match parsed {
            Ok((_, (name, value))) => {
                let at = |part: &[u8]| open + line.as_bytes().offset(part);
                let (name, value) = ((at(name), name.len()), (at(value), value.len()));
                (
                    &self.text[name.0..name.0 + name.1],
                    &self.text[value.0..value.0 + value.1],
                )
            }
            Err(e) => {
                let at = end_of_line - e.rest.len();
                let rest = &self.text[at..end_of_line];
                let found = || rest.chars().next().unwrap_or_default();
                match e.kind {
                    TagErrorKind::Unterminated(what) => {
                        let shown = quote(line.trim_end());
                        self.error(
                            ProblemCode::UnterminatedTag,
                            open,
                            end_of_line,
                            format!("tag `{shown}` is not closed: {what}"),
                        );
                    }
                    TagErrorKind::Expected(expected) => self.error(
                        ProblemCode::Syntax,
                        at,
                        at + 1,
                        format!("expected {expected}, found `{}`", found()),
                    ),
                    TagErrorKind::BadEscape => {
                        // `at` is the character after the backslash, if any.
                        let escaped = match rest.chars().next() {
                            Some(c) if c != '\r' => format!("`\\{c}`"),
                            _ => "`\\` at the end of the line".to_string(),
                        };
                        self.error(
                            ProblemCode::BadEscape,
                            at - 1,
                            at + 1,
                            format!(
                                "{escaped} is not an escape; in a tag value only `\\\"` and `\\\\` are"
                            ),
                        );
                    }
                    TagErrorKind::Trailing => {
                        let shown = quote(rest.trim_end());
                        self.error(
                            ProblemCode::Syntax,
                            at,
                            end_of_line,
                            format!(
                                "expected the end of the line after a tag, found `{shown}` (one tag per line)"
                            ),
                        );
                    }
                    // Not reached (`read_tag` starts at a `[`, and nom's complete
                    // parsers never ask for more), but never a panic.
                    TagErrorKind::Nom => self.error(
                        ProblemCode::Syntax,
                        at,
                        at,
                        "expected a tag `[Name \"value\"]`".into(),
                    ),
                }
                return Err(());
            }
        };
        let close = memchr::memrchr(b']', line.as_bytes()).map_or(end_of_line, |i| open + i + 1);
        Ok((name, raw, close, end_of_line))
    }

    fn check_tags(&mut self) {
        // Known names, each once, and at most one other: no tag is repeated.
        if !self.maybe_repeated {
            return;
        }
        let tags = &self.record.tags;
        // Few tags are the rule: a linear search beats hashing until there are many.
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for (i, tag) in tags.iter().enumerate() {
            let first = if tags.len() <= 32 {
                tags[..i]
                    .iter()
                    .find(|t| same_name(&t.name, &tag.name))
                    .map(|t| t.span)
            } else {
                seen.get(tag.name.as_ref()).copied()
            };
            if let Some(first) = first {
                self.visitor.problem(Problem::error(
                    ProblemCode::DuplicateTag,
                    tag.span,
                    format!(
                        "tag {} appears again (first at line {}); the first value is used",
                        tag.name, first.line
                    ),
                ));
            } else if tags.len() > 32 {
                seen.insert(&tag.name, tag.span);
            }
        }
    }

    fn read_moves(&mut self) {
        // Without a `SetUp` tag South moves first; no search of the tags for it.
        let set_up = self.known_tags & SET_UP_TAG != 0;
        let first = match set_up.then(|| self.record.first_side()) {
            Some(Side::North) => 1,
            _ => 0,
        };
        let main = Frame::new(first, first, Span::default());
        // Room for a few open variations at once, so the first `(` of a game does not
        // allocate.
        let mut stack: Vec<Frame> = Vec::with_capacity(4);
        stack.push(main);
        let mut stopped = false;
        let mut content_end = self.pos;
        // The fast lane reads PMN's pits only.
        let usual = self.numbers.is_none();
        while self.pos < self.bytes.len() {
            if usual && !self.line_wide {
                self.read_usual_tokens(&mut stack, &mut content_end);
                if self.halted {
                    return;
                }
                if self.pos == self.bytes.len() {
                    break;
                }
            }
            let start = self.pos;
            let b = self.bytes[start];
            if is_space(b) {
                self.skip_space();
                continue;
            }
            content_end = start;
            let ok = match b {
                b'{' => self.read_brace_comment(),
                b';' => self.read_line_comment(),
                b'(' => self.open_variation(&mut stack),
                b')' => self.close_variation(&mut stack),
                b'$' => self.read_nag(),
                b'*' => {
                    self.finish_with_result(&mut stack, GameResult::Unknown, 1);
                    return;
                }
                b'0'..=b'9' => {
                    let rest = &self.bytes[start..];
                    // Only `1-`, `0-` and `1/` can begin a result: skip the search otherwise.
                    let maybe_result = matches!(rest.get(1), Some(b'-' | b'/'));
                    if let Some((result, len)) =
                        maybe_result.then(|| result_token_at(rest)).flatten()
                    {
                        self.finish_with_result(&mut stack, result, len);
                        return;
                    }
                    if self.numbers.is_some()
                        && self.bytes.get(self.digits_end(start)) != Some(&b'.')
                    {
                        self.read_ply(&mut stack)
                    } else {
                        self.read_move_number(&mut stack)
                    }
                }
                b if b.is_ascii_alphabetic() => self.read_ply(&mut stack),
                _ => {
                    let found = self.char_at(start);
                    let end = start + found.len().max(1);
                    let expected = if b == b'[' {
                        "a tag here; tags come before the move text"
                    } else {
                        "a ply, move number, comment, NAG, variation or result"
                    };
                    self.error(
                        ProblemCode::Syntax,
                        start,
                        end,
                        format!("unexpected `{found}` in the move text; expected {expected}"),
                    );
                    false
                }
            };
            if !ok {
                if self.halted {
                    return;
                }
                stopped = true;
                break;
            }
        }
        self.close_open_variations(&mut stack, stopped);
        let mut main = stack.pop().expect("the main line");
        main.close(self.visitor);
        if !stopped && (!self.record.tags.is_empty() || self.any_element) {
            let at = self.bytes[..self.bytes.len()]
                .iter()
                .rposition(|&b| !is_space(b))
                .map_or(content_end, |i| i + 1);
            self.error(
                ProblemCode::MissingResult,
                at,
                at,
                "the game has no result; expected `1-0`, `0-1`, `1/2-1/2` or `*` at the end of the move text".into(),
            );
        }
        self.check_game_tag();
    }

    fn check_game_tag(&mut self) {
        // Set exactly when a tag is named `Game` (`Record::tag` compares names whole).
        if self.known_tags & GAME_TAG == 0 {
            let span = match self.record.tags.first() {
                Some(t) => t.span,
                None => self.span_slow(0, 0),
            };
            self.visitor.problem(Problem::error(
                ProblemCode::MissingGameTag,
                span,
                "the game has no Game tag; expected e.g. [Game \"Tsoro\"] (Tsoro, Nsolo, Kiothi or BaoLaKimasai)",
            ));
        }
    }

    /// Closes variations left open at the end of the text (or at a stop), keeping what
    /// was read in them. Each open `(` is a problem unless reading stopped at a problem.
    fn close_open_variations(&mut self, stack: &mut Vec<Frame>, stopped: bool) {
        while stack.len() > 1 {
            let depth = stack.len();
            let mut frame = stack.pop().expect("an open variation");
            frame.close(self.visitor);
            if !stopped {
                self.visitor.problem(Problem::error(
                    ProblemCode::UnterminatedVariation,
                    frame.open,
                    "this variation is not closed: expected `)` before the end of the game",
                ));
            }
            let span = Span {
                end: self.base_offset + self.pos,
                ..frame.open
            };
            self.end_variation(depth, span);
        }
    }

    fn finish_with_result(&mut self, stack: &mut Vec<Frame>, result: GameResult, len: usize) {
        let start = self.pos;
        self.pos += len;
        let span = self.span(start, self.pos);
        self.close_open_variations(stack, false);
        let mut main = stack.pop().expect("the main line");
        main.close(self.visitor);
        if self.visitor.result(ResultToken { result, span }).is_break() {
            return;
        }
        let has_result_tag = self.known_tags & RESULT_TAG != 0;
        if let Some(tag) = has_result_tag
            .then(|| result_tag_against(&self.record, result))
            .flatten()
        {
            let message = format!(
                "the result `{}` does not agree with the Result tag \"{}\" (line {})",
                result.as_str(),
                tag.value,
                tag.span.line
            );
            (self.visitor).problem(Problem::error(ProblemCode::ResultMismatch, span, message));
        }
        self.skip_space();
        if self.pos < self.bytes.len() {
            let start = self.pos;
            let end = self.line_end(start);
            let shown = quote(self.text[start..end].trim_end());
            let span = self.span_slow(start, self.bytes.len());
            self.visitor.problem(Problem::warning(
                ProblemCode::GarbageBetweenGames,
                span,
                format!(
                    "text after the result: `{shown}`; expected the tags of the next game (it is skipped)"
                ),
            ));
        }
        self.check_game_tag();
    }

    fn read_brace_comment(&mut self) -> bool {
        let open = self.pos;
        let Some(close) = self.bytes[open + 1..].iter().position(|&b| b == b'}') else {
            self.error(
                ProblemCode::UnterminatedComment,
                open,
                open + 1,
                "this comment is not closed: expected `}` before the end of the game".into(),
            );
            self.pos = self.bytes.len();
            return false;
        };
        let close = open + 1 + close;
        let span = self.span(open, close + 1);
        let comment = self.comment(CommentKind::Brace, open + 1, close, span);
        self.track(open, close + 1);
        self.pos = close + 1;
        self.emit(|v| v.comment(comment))
    }

    fn read_line_comment(&mut self) -> bool {
        let open = self.pos;
        let mut end = self.line_end(open);
        let span_end = end;
        // Every `\r` before the line break belongs to the line ending: keeping one would
        // not survive writing.
        while end > open + 1 && self.bytes[end - 1] == b'\r' {
            end -= 1;
        }
        let span = self.span(open, span_end);
        let comment = self.comment(CommentKind::Line, open + 1, end, span);
        self.track(open, span_end);
        self.pos = span_end;
        self.emit(|v| v.comment(comment))
    }

    fn comment(&mut self, kind: CommentKind, start: usize, end: usize, span: Span) -> Comment {
        let text = &self.text[start..end];
        let mut commands = Vec::new();
        let mut from = 0;
        // `[` found by memchr and `%` checked after it: a substring search would set up
        // its searcher at every call, dearer than the rest of the comment.
        while let Some(i) = find_byte(b'[', &text.as_bytes()[from..]) {
            let at = from + i;
            if text.as_bytes().get(at + 1) != Some(&b'%') {
                from = at + 1;
                continue;
            }
            let Some((len, words)) = command(&text[at..]) else {
                break;
            };
            if let Some((name, args)) = words {
                // Placed from the comment's own span: no rescan of the text before it.
                let inside = &text[..at];
                let newline = match at {
                    0 => None,
                    _ => memchr::memrchr(b'\n', inside.as_bytes()),
                };
                let (line, column) = match newline {
                    Some(nl) => (
                        span.line + count_bytes(inside.as_bytes(), |b| b == b'\n') as u32,
                        1 + chars(&inside[nl + 1..]),
                    ),
                    None => (span.line, span.column + 1 + chars(inside)),
                };
                let span = Span {
                    start: self.base_offset + start + at,
                    end: self.base_offset + start + at + len,
                    line,
                    column,
                };
                if commands.capacity() == 0 {
                    // Most comments with a command hold one.
                    commands.reserve_exact(1);
                }
                commands.push(Command {
                    name: Command::name_of(name),
                    args,
                    span,
                });
            }
            from = at + len;
        }
        // A comment over several lines of a CRLF file keeps LF line breaks, as the
        // export form writes them: the same comment reads the same from either file.
        let text = if self.has_cr && text.contains("\r\n") {
            lf_breaks(text)
        } else {
            CompactString::from(text)
        };
        Comment {
            kind,
            text,
            commands,
            span,
        }
    }

    fn open_variation(&mut self, stack: &mut Vec<Frame>) -> bool {
        let open = self.pos;
        if stack.len() > MAX_NESTING {
            self.error(
                ProblemCode::NestingTooDeep,
                open,
                open + 1,
                format!("variations are nested more than {MAX_NESTING} deep here; the rest of the game is skipped"),
            );
            return false;
        }
        let span = self.span(open, open + 1);
        let parent = stack.last().expect("a line");
        // A variation replaces the ply before it, so it starts on that ply's side.
        let next_ply = parent.last_ply.unwrap_or(parent.next_ply);
        let place = parent.last_place.unwrap_or(parent.place);
        stack.push(Frame::new(next_ply, place, span));
        self.pos += 1;
        self.any_element = true;
        if self.skipping == 0 && self.visitor.begin_variation(span) == Skip::Yes {
            self.skipping = stack.len();
        }
        true
    }

    fn close_variation(&mut self, stack: &mut Vec<Frame>) -> bool {
        let close = self.pos;
        if stack.len() == 1 {
            self.error(
                ProblemCode::UnmatchedParen,
                close,
                close + 1,
                "`)` without a `(` before it".into(),
            );
            return false;
        }
        self.pos += 1;
        let depth = stack.len();
        let mut frame = stack.pop().expect("an open variation");
        frame.close(self.visitor);
        let span = Span {
            end: self.base_offset + self.pos,
            ..frame.open
        };
        self.end_variation(depth, span)
    }

    fn digits_end(&self, from: usize) -> usize {
        self.bytes[from..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(self.bytes.len(), |i| from + i)
    }

    fn read_nag(&mut self) -> bool {
        let start = self.pos;
        let end = self.digits_end(start + 1);
        if end == start + 1 {
            self.error(
                ProblemCode::Syntax,
                start,
                start + 1,
                "expected a number after `$` (a NAG such as `$1`)".into(),
            );
            return false;
        }
        let digits = &self.text[start + 1..end];
        let Ok(code) = digits.parse::<u16>() else {
            self.error(
                ProblemCode::NumberTooLarge,
                start,
                end,
                format!(
                    "NAG `${}` is too large; the largest is $65535",
                    quote(digits)
                ),
            );
            return false;
        };
        if end < self.bytes.len() && !is_delimiter(self.bytes[end]) {
            let found = self.char_at(end);
            self.error(
                ProblemCode::Syntax,
                end,
                end + found.len().max(1),
                format!("unexpected `{found}` after NAG `${digits}`"),
            );
            return false;
        }
        let span = self.span(start, end);
        self.pos = end;
        self.emit(|v| v.nag(Nag { code, span }))
    }

    fn read_move_number(&mut self, stack: &mut [Frame]) -> bool {
        let start = self.pos;
        let digits_end = self.digits_end(start);
        let mut end = digits_end;
        while end < self.bytes.len() && self.bytes[end] == b'.' {
            end += 1;
        }
        let digits = &self.text[start..digits_end];
        let dots = match end - digits_end {
            1 => Dots::One,
            3 => Dots::Three,
            _ => {
                let token_end = self.token_end(start);
                let shown = quote(&self.text[start..token_end]);
                self.error(
                    ProblemCode::Syntax,
                    start,
                    token_end,
                    format!(
                        "expected a move number like `12.` or `12...` or a result, found `{shown}`"
                    ),
                );
                return false;
            }
        };
        // At most 9 digits always fit; longer ones are checked.
        let value = if digits.len() <= 9 {
            Some(
                digits
                    .bytes()
                    .fold(0u32, |v, d| v * 10 + u32::from(d - b'0')),
            )
        } else {
            digits.parse::<u32>().ok()
        };
        let Some(number) = value else {
            self.error(
                ProblemCode::NumberTooLarge,
                start,
                end,
                format!("move number {} is too large", quote(digits)),
            );
            return false;
        };
        let span = self.span(start, end);
        stack
            .last_mut()
            .expect("a line")
            .note_number(number, dots, || span);
        self.pos = end;
        self.emit(|v| v.move_number_with(|| MoveNumber { number, dots, span }))
    }

    fn token_end(&self, from: usize) -> usize {
        token_end(self.bytes, from)
    }

    /// Counts a ply just read in its line (its move number checked), and hands it on.
    #[inline(always)]
    fn ply_read(&mut self, stack: &mut [Frame], ply: impl FnOnce() -> Ply) -> bool {
        stack.last_mut().expect("a line").count_ply(self.visitor);
        self.emit(|v| v.ply_with(ply))
    }

    /// Reads the tokens of most move text, spaces, move numbers and plies made of pits
    /// (`a3`, `c17xa4,b12:2`, `b9-a7#2xd5`), in one loop that keeps the scanner's place in
    /// locals; returns before the first other token (a comment, a result, a suffix, or
    /// anything malformed), which the general loop reads. The elements and problems are
    /// those the general loop would make, token for token. The line must be ASCII so far
    /// (`line_wide` false): a column is then a byte count.
    // Not inlined: in a function of its own its loop keeps its values in registers, and
    // a change to the general loop does not move its code.
    #[inline(never)]
    fn read_usual_tokens(&mut self, stack: &mut [Frame], content_end: &mut usize) {
        let bytes = self.bytes;
        let base = self.base_offset;
        let (mut pos, mut line, mut line_start) = (self.pos, self.line, self.line_start);
        let frame = stack.last_mut().expect("a line");
        let live = self.skipping == 0;
        let visitor = &mut *self.visitor;
        let mut read_any = false;
        let mut go = ControlFlow::Continue(());
        while let Some(&b) = bytes.get(pos) {
            // The space between tokens, nearly always one ` `, is told without a look-up.
            if b == b' ' {
                pos += 1;
                continue;
            }
            if is_space(b) {
                if b == b'\n' {
                    line += 1;
                    line_start = pos + 1;
                }
                pos += 1;
                continue;
            }
            let span = Span {
                start: base + pos,
                end: base + pos,
                line,
                column: 1 + (pos - line_start) as u32,
            };
            let end = if b.is_ascii_digit() {
                let Some((number, dots, end)) = usual_move_number(bytes, pos) else {
                    break;
                };
                let span = Span {
                    end: base + end,
                    ..span
                };
                frame.note_number(number, dots, || span);
                if live {
                    go = visitor.move_number_with(|| MoveNumber { number, dots, span });
                }
                end
            } else {
                let Some((from, len)) = usual_pit(&bytes[pos..]) else {
                    break;
                };
                // A pit alone (the most usual ply), or the rest of a longer ply read
                // into it. The ply is built whole where it is handed on, after the
                // count, so that it is not copied with wide loads over its narrow stores.
                let after = pos + len;
                if bytes.get(after).is_none_or(|&b| is_delimiter(b)) {
                    frame.count_ply(visitor);
                    if live {
                        go = visitor.ply_with(|| Ply {
                            syntax: lone_pit_ply(from),
                            suffix: None,
                            span: Span {
                                end: base + after,
                                ..span
                            },
                        });
                    }
                    after
                } else {
                    let mut syntax = lone_pit_ply(from);
                    let PlySyntax::Sowing(sowing) = &mut syntax else {
                        break;
                    };
                    let Some(end) = usual_sowing(bytes, after, sowing) else {
                        break;
                    };
                    frame.count_ply(visitor);
                    if live {
                        go = visitor.ply_with(|| Ply {
                            syntax,
                            suffix: None,
                            span: Span {
                                end: base + end,
                                ..span
                            },
                        });
                    }
                    end
                }
            };
            read_any = true;
            *content_end = pos;
            pos = end;
            if go.is_break() {
                break;
            }
        }
        self.any_element |= read_any;
        self.halted |= go.is_break();
        (self.pos, self.line, self.line_start) = (pos, line, line_start);
    }

    fn read_ply(&mut self, stack: &mut [Frame]) -> bool {
        let start = self.pos;
        // The usual ply, a pit alone (`a3`, `c17`) before a delimiter, is told by its
        // first bytes, without scanning the token, and built right in its slot (see
        // `push_element`).
        if let Some((from, end)) = lone_pit_at(self.bytes, start).filter(|_| self.numbers.is_none())
        {
            let span = self.span(start, end);
            self.pos = end;
            let ply = || Ply {
                syntax: lone_pit_ply(from),
                suffix: None,
                span,
            };
            return self.ply_read(stack, ply);
        }
        let end = self.token_end(start);
        let token = &self.bytes[start..end];
        let marks = token
            .iter()
            .rev()
            .take_while(|&&b| b == b'!' || b == b'?')
            .count();
        let core_end = end - marks;
        let suffix = if marks == 0 {
            None
        } else {
            let text = &self.text[core_end..end];
            match Suffix::from_text(text) {
                Some(s) => Some(s),
                None => {
                    self.error(
                        ProblemCode::Syntax,
                        core_end,
                        end,
                        format!(
                            "`{}` is not an annotation; expected ! ? !! ?? !? or ?!",
                            quote(text)
                        ),
                    );
                    return false;
                }
            }
        };
        let core = &self.bytes[start..core_end];
        let parsed = match self.numbers {
            None => parse_ply(core, pit),
            Some(numbers) => {
                let side = stack.last_mut().expect("a line").take_place();
                parse_ply(core, move |at| numbered_pit(at, numbers, side))
            }
        };
        let syntax = match parsed {
            Ok(s) => s,
            Err(PlyError {
                rest_len,
                kind: PlyErrorKind::NoPit,
            }) => {
                // Said of the whole ply, as written.
                let at = start + core.len() - rest_len;
                let name = &self.text[at..at + pit_name_len(&self.bytes[at..core_end])];
                let why = self.numbers.map(|n| n.no_pit(name)).unwrap_or_default();
                let token = &self.text[start..end];
                self.error(
                    ProblemCode::Syntax,
                    start,
                    end,
                    format!("in ply `{token}`: {why}"),
                );
                return false;
            }
            Err(e) => {
                let problem = ply_problem(core, e, &self.text[start..end]);
                let at = start + problem.at;
                let at_end = (at + 1).min(end).max(at);
                self.error(problem.code, at, at_end, problem.message);
                return false;
            }
        };
        let span = self.span(start, end);
        self.pos = end;
        let ply = || Ply {
            syntax,
            suffix,
            span,
        };
        self.ply_read(stack, ply)
    }
}

/// Text with LF line breaks: every carriage return before a line feed belongs to the
/// line break and goes (all of them, as for a line comment's end: `\r\r\n` becoming
/// `\r\n` would not read back the same).
fn lf_breaks(text: &str) -> CompactString {
    let mut out = CompactString::with_capacity(text.len());
    let mut crs = 0;
    for c in text.chars() {
        match c {
            '\r' => crs += 1,
            '\n' => {
                crs = 0;
                out.push('\n');
            }
            c => {
                out.extend(std::iter::repeat_n('\r', crs));
                crs = 0;
                out.push(c);
            }
        }
    }
    out.extend(std::iter::repeat_n('\r', crs));
    out
}

/// How many characters `text` has (its length when it is ASCII, as it usually is).
fn chars(text: &str) -> u32 {
    if text.is_ascii() {
        text.len() as u32
    } else {
        text.chars().count() as u32
    }
}

/// How many bytes of `bytes` are `hit`. Counted in blocks of at most 255 bytes into
/// byte-wide lanes, which the compiler vectorises 16 or 32 bytes at a time (a count
/// straight into a `usize` widens every byte to a word first). The blocks are 240
/// bytes, a multiple of the vector width: with 255, each block ended in 15 bytes
/// counted one at a time.
#[inline(always)]
pub(super) fn count_bytes(bytes: &[u8], hit: impl Fn(u8) -> bool) -> usize {
    bytes
        .chunks(240)
        .map(|block| {
            let in_block = block.iter().fold(0u8, |n, &b| n + u8::from(hit(b)));
            usize::from(in_block)
        })
        .sum()
}

/// The move number that belongs before the ply with this absolute index (0 = South's
/// first ply): `(number, dots)`.
#[inline]
pub fn move_number_for(index: u64) -> (u64, Dots) {
    let dots = if index.is_multiple_of(2) {
        Dots::One
    } else {
        Dots::Three
    };
    (index / 2 + 1, dots)
}

/// The absolute ply index a move number stands for (negative for move 0).
fn written_index(number: MoveNumber) -> i64 {
    2 * (i64::from(number.number) - 1) + i64::from(number.dots == Dots::Three)
}

/// The warning for a move number that does not fit the ply of index `index` after it;
/// `shift` says when the numbers after it show a ply missing (+1) or extra (-1) before it.
#[cold]
fn move_number_problem(number: MoveNumber, index: u64, shift: Option<i64>) -> Problem {
    let (expected, dots) = move_number_for(index);
    let write = |n: u64, d: Dots| match d {
        Dots::One => format!("{n}."),
        Dots::Three => format!("{n}..."),
    };
    let side = if dots == Dots::One { "South" } else { "North" };
    let why = match shift {
        Some(1) => {
            "; a ply seems to be missing before it (the move numbers after it count one ply more)"
        }
        Some(_) => {
            "; a ply seems to be extra before it (the move numbers after it count one ply fewer)"
        }
        None => "",
    };
    Problem::warning(
        ProblemCode::MoveNumber,
        number.span,
        format!(
            "move number `{}` does not fit: the ply after it is {side}'s ply of move {expected}, numbered `{}`{why}",
            write(number.number as u64, number.dots),
            write(expected, dots)
        ),
    )
}

// ---------------------------------------------------------------------------------
// The tag line, in nom combinators over its bytes, and the commands in comments.

/// What went wrong in a tag line, and where (`rest` is the line from there).
#[derive(Clone, Copy)]
struct TagError<'a> {
    rest: &'a [u8],
    kind: TagErrorKind,
}

#[derive(Clone, Copy)]
enum TagErrorKind {
    /// A nom parser failed (never reported: `need` gives every failure a kind).
    Nom,
    /// The line ended (or reached its `\r`) first: the tag is not closed.
    Unterminated(&'static str),
    /// Expected this, found the character at `rest`.
    Expected(&'static str),
    /// A backslash, before `rest`, that escapes neither `"` nor `\`.
    BadEscape,
    /// Text after the tag's `]`.
    Trailing,
}

impl<'a> ParseError<&'a [u8]> for TagError<'a> {
    fn from_error_kind(rest: &'a [u8], _: ErrorKind) -> Self {
        TagError {
            rest,
            kind: TagErrorKind::Nom,
        }
    }

    fn append(_: &'a [u8], _: ErrorKind, other: Self) -> Self {
        other
    }
}

type TagResult<'a, O> = IResult<&'a [u8], O, TagError<'a>>;

/// `parser`, whose failure is final: the tag is unterminated when the line ends there,
/// else the text there is not what was `expected`.
fn need<'a, O>(
    mut parser: impl Parser<&'a [u8], Output = O, Error = TagError<'a>>,
    unterminated: &'static str,
    expected: &'static str,
) -> impl Parser<&'a [u8], Output = O, Error = TagError<'a>> {
    move |rest: &'a [u8]| -> TagResult<'a, O> {
        parser.parse(rest).map_err(|_| {
            let kind = if rest.is_empty() || rest[0] == b'\r' {
                TagErrorKind::Unterminated(unterminated)
            } else {
                TagErrorKind::Expected(expected)
            };
            nom::Err::Failure(TagError { rest, kind })
        })
    }
}

/// A tag value as written, with its escapes resolved: `\"` and `\\` (the grammar allows
/// no other escape) stand for the character after the backslash. The runs between
/// escapes are copied whole.
fn unescape(raw: &str) -> CompactString {
    let Some(first) = memchr::memchr(b'\\', raw.as_bytes()) else {
        return CompactString::from(raw);
    };
    let mut value = CompactString::with_capacity(raw.len());
    let mut rest = raw;
    let mut at = Some(first);
    while let Some(i) = at {
        value.push_str(&rest[..i]);
        let escaped = rest.get(i + 1..i + 2).unwrap_or_default();
        value.push_str(escaped);
        rest = rest.get(i + 2..).unwrap_or_default();
        at = memchr::memchr(b'\\', rest.as_bytes());
    }
    value.push_str(rest);
    value
}

/// The character after a backslash in a tag value: `"` or `\`.
fn escaped(rest: &[u8]) -> TagResult<'_, char> {
    one_of("\"\\").parse(rest).map_err(|_: nom::Err<TagError>| {
        nom::Err::Failure(TagError {
            rest,
            kind: TagErrorKind::BadEscape,
        })
    })
}

/// A tag line `[Name "value"]` (without its line break): the name and the value as
/// written, escapes unresolved. It reads bytes: every byte it stops at is ASCII.
fn tag_line(line: &[u8]) -> TagResult<'_, (&[u8], &[u8])> {
    let name = take_while1(|b: u8| b.is_ascii_alphanumeric() || b == b'_');
    let value = recognize(many0_count(alt((
        take_till1(|b| b == b'"' || b == b'\\'),
        recognize(preceded(char('\\'), escaped)),
    ))));
    let (rest, found) = (
        preceded(
            (char('['), space0),
            need(
                name,
                "expected a tag name and a quoted value, then `]`",
                "a tag name after `[`",
            ),
        ),
        preceded(
            (
                space0,
                need(
                    char('"'),
                    "expected a quoted value after the tag name, then `]`",
                    "`\"` and the tag value after the tag name",
                ),
            ),
            value,
        ),
        need(
            char('"'),
            "the value has no closing `\"` on its line",
            "`\"`",
        ),
        space0,
        need(
            char(']'),
            "expected `]` after the value",
            "`]` after the tag value",
        ),
        take_while(is_space),
    )
        .map(|(name, value, ..)| (name, value))
        .parse(line)?;
    if !rest.is_empty() {
        return Err(nom::Err::Failure(TagError {
            rest,
            kind: TagErrorKind::Trailing,
        }));
    }
    Ok((rest, found))
}

/// Where the parts of a usual tag line are, counted from its `[`.
struct UsualTag {
    name: Range<usize>,
    value: Range<usize>,
    /// Just past the `]`.
    close: usize,
    /// The line's length, up to its line feed or the end of the text.
    line_len: usize,
}

/// The usual tag line at the start of `text`, `[Name "value"]` with one space, no escape
/// and nothing after the `]` but spaces: where its name and value are, as [`tag_line`]
/// reads them, found in one pass over its bytes: the name and what follows the value
/// byte by byte, the value by one search for its closing quote (a search for each part
/// costs more on lines this short). `None` for anything else, which
/// [`tag_line`] reads or reports.
#[inline]
fn usual_tag_line(text: &[u8]) -> Option<UsualTag> {
    let b = |i: usize| text.get(i).copied();
    if b(0) != Some(b'[') {
        return None;
    }
    let mut p = 1;
    while b(p).is_some_and(|c| CLASS[c as usize] & NAME != 0) {
        p += 1;
    }
    let name = 1..p;
    if name.is_empty() || b(p) != Some(b' ') || b(p + 1) != Some(b'"') {
        return None;
    }
    p += 2;
    let start = p;
    // The one search of the line: values run long (a `Source` tag).
    p += memchr::memchr3(b'"', b'\\', b'\n', text.get(start..)?)?;
    if b(p) != Some(b'"') {
        return None;
    }
    let value = start..p;
    if b(p + 1) != Some(b']') {
        return None;
    }
    let close = p + 2;
    p = close;
    while let Some(c) = b(p) {
        if c == b'\n' {
            break;
        }
        if !is_space(c) {
            return None;
        }
        p += 1;
    }
    Some(UsualTag {
        name,
        value,
        close,
        line_len: p,
    })
}

/// A command's name and arguments.
type CommandWords<'a> = (&'a str, Args);

/// A command `[%name arg arg ...]` at the start of `text`: its name and its arguments
/// (nothing for `[%]`), and its length; `None` when `]` does not close it. Words are
/// split at any whitespace, as `str::split_whitespace` does. A word runs to whitespace
/// or `]`, so the first `]` closes the command. (By hand rather than in combinators:
/// most comments hold one, and this runs once a comment.)
fn command(text: &str) -> Option<(usize, Option<CommandWords<'_>>)> {
    let rest = text.strip_prefix("[%")?;
    let close = find_byte(b']', rest.as_bytes())?;
    let inside = &rest[..close];
    let len = 2 + close + 1;
    // Trimmed by characters only when it may begin with whitespace (rarely).
    let inside = match inside.as_bytes().first() {
        Some(&b) if b > b' ' && b.is_ascii() => inside,
        _ => inside.trim_start(),
    };
    let words = (!inside.is_empty()).then(|| {
        // The name ends at the first whitespace (`char::is_whitespace`, which in ASCII
        // is tab to carriage return and space): told byte by byte while the text is
        // ASCII, as a command's name and arguments usually are, by characters after.
        let ascii_end = (inside.bytes())
            .position(|b| matches!(b, b'\t'..=b'\r' | b' ') || !b.is_ascii())
            .unwrap_or(inside.len());
        let name_end = match inside.as_bytes().get(ascii_end) {
            Some(b) if !b.is_ascii() => inside[ascii_end..]
                .find(char::is_whitespace)
                .map_or(inside.len(), |i| ascii_end + i),
            _ => ascii_end,
        };
        (&inside[..name_end], Args::split(&inside[name_end..]))
    });
    Some((len, words))
}

/// The first `byte` in `hay`: by a plain loop in the short texts of comments and
/// commands, where setting up memchr's vector search costs more than the search.
#[inline]
fn find_byte(byte: u8, hay: &[u8]) -> Option<usize> {
    if hay.len() < 32 {
        hay.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, hay)
    }
}

// ---------------------------------------------------------------------------------
// The ply grammar, in nom combinators over the bytes of one ply token.
//
// Every problem of a ply is final (`nom::Err::Failure`): a ply token has one reading, so
// there is nothing to backtrack to. Only the optional parts (`:n`, `-END`, `#k`, `x`)
// and the choice between a sowing and a redistribution backtrack, on their first byte.
// The error is a small `Copy` value, so that backtracking costs no allocation; its
// message is written only when it is reported.

/// What went wrong in a ply, and where (`at` is the rest of the ply from there).
#[derive(Clone, Copy)]
struct PlyError {
    rest_len: usize,
    kind: PlyErrorKind,
}

#[derive(Clone, Copy)]
enum PlyErrorKind {
    /// A nom parser failed where the grammar did not name what it expected (not
    /// reported: every such failure is backtracked over or given a context).
    Nom,
    /// Expected this, found the character at `at` (or the end of the ply).
    Unexpected(&'static str),
    /// No digits where this number belongs.
    NoDigits(Number),
    /// The number starts with 0.
    LeadingZero(Number),
    /// The number is larger than its largest value.
    TooLarge(Number),
    /// A row letter other than `a`-`d`.
    NoSuchRow(u8),
    ColumnZero,
    ColumnTooLarge,
    /// A number that names no pit (see [`PitNumbers`]).
    NoPit,
}

/// The numbers of a ply, for messages.
#[derive(Clone, Copy)]
enum Number {
    Column,
    Lifted,
    Arrival,
    Stones,
    Taken,
}

impl Number {
    fn name(self) -> &'static str {
        match self {
            Number::Column => "column",
            Number::Lifted => "number of stones lifted",
            Number::Arrival => "arrival number",
            Number::Stones => "number of stones",
            Number::Taken => "number of stones taken",
        }
    }

    fn max(self) -> u64 {
        match self {
            Number::Column => u64::MAX,
            _ => u16::MAX as u64,
        }
    }
}

impl PlyErrorKind {
    fn code(self) -> ProblemCode {
        match self {
            PlyErrorKind::TooLarge(_) | PlyErrorKind::ColumnTooLarge => ProblemCode::NumberTooLarge,
            _ => ProblemCode::Syntax,
        }
    }
}

impl ParseError<&[u8]> for PlyError {
    fn from_error_kind(at: &[u8], _: ErrorKind) -> Self {
        PlyError {
            rest_len: at.len(),
            kind: PlyErrorKind::Nom,
        }
    }

    fn append(_: &[u8], _: ErrorKind, other: Self) -> Self {
        other
    }
}

/// `context("what was expected", parser)` names what a bare nom parser expected.
impl ContextError<&[u8]> for PlyError {
    fn add_context(at: &[u8], expected: &'static str, other: Self) -> Self {
        match other.kind {
            PlyErrorKind::Nom => PlyError {
                rest_len: at.len(),
                kind: PlyErrorKind::Unexpected(expected),
            },
            _ => other,
        }
    }
}

/// A number that reads but does not fit (from `map_res`) is reported at its digits.
impl FromExternalError<&[u8], PlyErrorKind> for PlyError {
    fn from_external_error(at: &[u8], _: ErrorKind, kind: PlyErrorKind) -> Self {
        PlyError {
            rest_len: at.len(),
            kind,
        }
    }
}

type PlyResult<'a, O> = IResult<&'a [u8], O, PlyError>;

fn fail<O>(at: &[u8], kind: PlyErrorKind) -> PlyResult<'_, O> {
    Err(nom::Err::Failure(PlyError {
        rest_len: at.len(),
        kind,
    }))
}

/// The value of `digits`, if it fits in the number's largest value and has no leading
/// zero.
fn number_value(digits: &[u8], number: Number) -> Result<u64, PlyErrorKind> {
    if digits.len() > 1 && digits[0] == b'0' {
        return Err(PlyErrorKind::LeadingZero(number));
    }
    digits
        .iter()
        .try_fold(0u64, |v, &d| {
            v.checked_mul(10)?.checked_add((d - b'0') as u64)
        })
        .filter(|&v| v <= number.max())
        .ok_or(PlyErrorKind::TooLarge(number))
}

/// A count of stones or an arrival number: digits, no larger than 65535.
fn count<'a>(number: Number) -> impl Parser<&'a [u8], Output = u16, Error = PlyError> {
    let digits = move |at: &'a [u8]| {
        digit1(at).or_else(|_: nom::Err<PlyError>| fail(at, PlyErrorKind::NoDigits(number)))
    };
    cut(map_res(digits, move |d: &[u8]| {
        number_value(d, number).map(|n| n as u16)
    }))
}

/// A row letter `a`-`d`.
fn row(at: &[u8]) -> PlyResult<'_, u8> {
    match at.first() {
        Some(&r @ b'a'..=b'd') => Ok((&at[1..], r - b'a')),
        Some(&r) if r.is_ascii_alphabetic() => fail(at, PlyErrorKind::NoSuchRow(r)),
        _ => fail(
            at,
            PlyErrorKind::Unexpected("a pit such as `a3` (a row a-d and a column)"),
        ),
    }
}

/// The column of a pit, `1..=99` without leading zeros.
fn column(at: &[u8]) -> PlyResult<'_, u8> {
    // A column too large for any number is as much a column past the last as `100` is:
    // one message for both.
    let value = |d: &[u8]| match number_value(d, Number::Column) {
        Ok(0) => Err(PlyErrorKind::ColumnZero),
        Ok(col) if col <= PitRef::MAX_COL as u64 => Ok(col as u8),
        Ok(_) | Err(PlyErrorKind::TooLarge(_)) => Err(PlyErrorKind::ColumnTooLarge),
        Err(e) => Err(e),
    };
    cut(context(
        "a column number after the row letter",
        map_res(digit1, value),
    ))
    .parse(at)
}

/// A pit such as `a3` or `c17`.
///
/// Inlined: the usual `a3` / `c17` (most of the text) is read here, and its result stays
/// in registers (returned through memory, a `PitRef` written as two bytes and read back
/// as one `u16` would stall the reader's hot loop); anything else goes to `pit_slow`.
#[inline(always)]
fn pit(at: &[u8]) -> PlyResult<'_, PitRef> {
    match usual_pit(at) {
        Some((pit, len)) => Ok((&at[len..], pit)),
        None => pit_slow(at),
    }
}

/// The usual pit at the start of `at`, a row `a`-`d` and a column of one or two digits
/// not starting with 0 (and no third digit): the pit and its length. `None` for anything
/// else, well-formed or not, which [`pit_slow`] reads or reports.
#[inline(always)]
fn usual_pit(at: &[u8]) -> Option<(PitRef, usize)> {
    // Four bytes at hand (nearly always: a result follows the last ply): read as
    // bytes, without the pattern's length checks at each of them.
    if let [r, d1, d2, after, ..] = *at {
        let (row, d1) = (r.wrapping_sub(b'a'), d1.wrapping_sub(b'1'));
        if row > 3 || d1 > 8 {
            return None;
        }
        let d2 = d2.wrapping_sub(b'0');
        let two = d2 <= 9;
        if two && after.is_ascii_digit() {
            return None;
        }
        let col = if two { (d1 + 1) * 10 + d2 } else { d1 + 1 };
        return Some((PitRef { row, col }, 2 + usize::from(two)));
    }
    matched_pit(at)
}

/// [`usual_pit`] by its pattern: any usual pit, however few bytes follow it.
fn matched_pit(at: &[u8]) -> Option<(PitRef, usize)> {
    let [r @ b'a'..=b'd', d1 @ b'1'..=b'9', rest @ ..] = at else {
        return None;
    };
    let (row, d1) = (r - b'a', d1 - b'0');
    match rest {
        [] => Some((PitRef { row, col: d1 }, 2)),
        [next, ..] if !next.is_ascii_digit() => Some((PitRef { row, col: d1 }, 2)),
        [d2, tail @ ..] if tail.first().is_none_or(|b| !b.is_ascii_digit()) => Some((
            PitRef {
                row,
                col: d1 * 10 + (d2 - b'0'),
            },
            3,
        )),
        _ => None,
    }
}

/// A pit written as a number (see [`PitNumbers`]), for a ply that `side` plays: the
/// name is the run of letters and digits up to the next `x` (which always begins a
/// capture), and names a pit only when it is a number the caller maps to one.
fn numbered_pit<'a>(at: &'a [u8], numbers: &dyn PitNumbers, side: Side) -> PlyResult<'a, PitRef> {
    let len = pit_name_len(at);
    if len == 0 {
        return fail(at, PlyErrorKind::Unexpected("a pit number"));
    }
    let name = &at[..len];
    let number = (len <= PIT_NUMBER_DIGITS && name.iter().all(u8::is_ascii_digit))
        .then(|| name.iter().fold(0u32, |v, d| v * 10 + u32::from(d - b'0')));
    match number.and_then(|n| numbers.pit(side, n)) {
        Some(pit) => Ok((&at[len..], pit)),
        None => fail(at, PlyErrorKind::NoPit),
    }
}

/// The length of the pit name at the start of `at` in numbered plies (see
/// [`numbered_pit`]).
fn pit_name_len(at: &[u8]) -> usize {
    (at.iter())
        .take_while(|&&b| b.is_ascii_alphanumeric() && b != b'x')
        .count()
}

/// A pit the fast path of [`pit`] does not read (or a malformed one), in combinators.
#[inline(never)]
fn pit_slow(at: &[u8]) -> PlyResult<'_, PitRef> {
    (row, column)
        .map(|(row, col)| PitRef { row, col })
        .parse(at)
}

/// `:n` after a pit.
fn stones<'a>(number: Number) -> impl Parser<&'a [u8], Output = u16, Error = PlyError> {
    preceded(char(':'), count(number))
}

/// Kiothi's redistribution after its first pit: `,P,...>Q:n,Q:n,...`.
fn redistribution<'a>(
    from: PitRef,
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, PitRef> + Copy,
) -> impl Parser<&'a [u8], Output = PlySyntax, Error = PlyError> {
    let emptied = fold_many0(
        preceded(char(','), pit),
        move || vec![from],
        |mut pits, pit| {
            pits.push(pit);
            pits
        },
    );
    let arrow = cut(context(
        "`,` and another pit, or `>` and the pits filled",
        char('>'),
    ));
    let colon = cut(context("`:` and the stones put in the pit", char(':')));
    let filled = separated_list1(
        char(','),
        (pit, preceded(colon, count(Number::Stones)))
            .map(|(pit, stones)| PitStones { pit, stones }),
    );
    // A `,` or `>` after the first pit can only begin a redistribution.
    preceded(peek(one_of(",>")), (terminated(emptied, arrow), filled))
        .map(|(emptied, filled)| PlySyntax::Redistribution(Redistribution { emptied, filled }))
}

/// The sowing after its first pit: `[:n][-END[#k]][x[P[:n],P[:n],...]]`.
fn sowing<'a>(
    from: PitRef,
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, PitRef> + Copy,
) -> impl Parser<&'a [u8], Output = PlySyntax, Error = PlyError> {
    let lift = opt(stones(Number::Lifted));
    let end = opt(preceded(
        char('-'),
        (pit, opt(preceded(char('#'), count(Number::Arrival)))),
    ));
    let capture = opt(preceded(
        char('x'),
        alt((map(eof, |_| BonusPits::new()), move |at| {
            bonus_list(at, pit)
        })),
    ));
    (lift, end, capture).map(move |(lift, end, capture)| {
        PlySyntax::Sowing(Sowing {
            from,
            lift,
            end: end.map(|(pit, _)| pit),
            arrival: end.and_then(|(_, arrival)| arrival),
            capture,
        })
    })
}

/// A bonus pit `P[:n]`.
fn bonus_pit<'a>(
    at: &'a [u8],
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, PitRef> + Copy,
) -> PlyResult<'a, PitCount> {
    (pit, opt(stones(Number::Taken)))
        .map(|(pit, count)| PitCount { pit, count })
        .parse(at)
}

/// Bonus pits `P[:n],P[:n],...`, read as `separated_list1` reads a list, into a
/// [`BonusPits`] (no allocation for one or two).
fn bonus_list<'a>(
    at: &'a [u8],
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, PitRef> + Copy,
) -> PlyResult<'a, BonusPits> {
    let (rest, first) = bonus_pit(at, pit)?;
    let more = preceded(char(','), move |at| bonus_pit(at, pit));
    let start = move || BonusPits::from_iter([first]);
    fold_many0(more, start, |mut pits, pit| {
        pits.push(pit);
        pits
    })
    .parse(rest)
}

/// What may follow a ply read so far, for the message when something else does.
fn expected_after(ply: &PlySyntax) -> &'static str {
    match ply {
        PlySyntax::Redistribution(_) => "`,` and another pit, or the end of the ply",
        PlySyntax::Sowing(s) => match (s.lift, s.end, s.arrival, &s.capture) {
            (_, _, _, Some(_)) => "`,` and another bonus pit, or the end of the ply",
            (_, Some(_), None, None) => "`#k`, `x` or the end of the ply",
            (_, Some(_), Some(_), None) => "`x` or the end of the ply",
            (None, None, _, None) => "`:n`, `-END`, `x` or the end of the ply",
            (Some(_), None, _, None) => "`-END`, `x` or the end of the ply",
        },
    }
}

/// A ply that is a pit alone, as [`ply`] reads it.
#[inline(always)]
fn lone_pit_ply(from: PitRef) -> PlySyntax {
    PlySyntax::Sowing(Sowing {
        from,
        lift: None,
        end: None,
        arrival: None,
        capture: None,
    })
}

/// A move number of at most nine digits and one or three dots at `at` (not a result):
/// its number, dots and end. `None` for anything else, which the general loop reads.
#[inline(always)]
fn usual_move_number(bytes: &[u8], at: usize) -> Option<(u32, Dots, usize)> {
    // A number of one to three digits, told from the bytes at hand without a loop (the
    // move numbers of nearly every game); any other is counted below.
    if let Some(&[d0, b1, b2, b3, ..]) = bytes.get(at..) {
        let digit = |b: u8| b.wrapping_sub(b'0');
        let (number, after) = if b1 == b'.' {
            (u32::from(digit(d0)), 1)
        } else if digit(b1) <= 9 && b2 == b'.' {
            (u32::from(digit(d0)) * 10 + u32::from(digit(b1)), 2)
        } else if digit(b1) <= 9 && digit(b2) <= 9 && b3 == b'.' {
            let n = u32::from(digit(d0)) * 100 + u32::from(digit(b1)) * 10;
            (n + u32::from(digit(b2)), 3)
        } else {
            (0, 0)
        };
        // The first dot is at `at + after`; what follows it tells one dot from three.
        let dots = bytes.get(at + after + 1..at + after + 4);
        match (after, dots) {
            (0, _) => {}
            (_, Some(&[next, ..])) if next != b'.' => {
                return Some((number, Dots::One, at + after + 1));
            }
            (_, Some(&[b'.', b'.', next])) if next != b'.' => {
                return Some((number, Dots::Three, at + after + 3));
            }
            _ => {}
        }
    }
    counted_move_number(bytes, at)
}

/// [`usual_move_number`] by counting digits and dots: any move number it reads.
fn counted_move_number(bytes: &[u8], at: usize) -> Option<(u32, Dots, usize)> {
    if matches!(bytes.get(at + 1), Some(b'-' | b'/')) {
        return None;
    }
    let digits = bytes[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits > 9 {
        return None;
    }
    let number = bytes[at..at + digits]
        .iter()
        .fold(0u32, |v, d| v * 10 + u32::from(d - b'0'));
    let after = at + digits;
    let count = bytes[after..].iter().take_while(|&&b| b == b'.').count();
    let dots = match count {
        1 => Dots::One,
        3 => Dots::Three,
        _ => return None,
    };
    Some((number, dots, after + count))
}

/// A count (`:n`, `#k`) at `at`: digits without a leading zero, at most 65535. `None`
/// for anything else.
#[inline(always)]
fn usual_count(bytes: &[u8], at: usize) -> Option<(u16, usize)> {
    let digits = bytes[at.min(bytes.len())..]
        .iter()
        .take(6)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 5 || (digits > 1 && bytes[at] == b'0') {
        return None;
    }
    let value = bytes[at..at + digits]
        .iter()
        .fold(0u32, |v, d| v * 10 + u32::from(d - b'0'));
    let value = u16::try_from(value).ok()?;
    Some((value, at + digits))
}

/// The rest of a sowing of usual pits with no suffix, from `at` after its first pit,
/// `[:n][-P[#k]][x[P[:n],...]]` up to a delimiter or the end of the text, read into
/// `sowing` (a pit alone so far) as [`ply`] reads it: where the ply ends. `None` for
/// anything else, which [`Scanner::read_ply`] reads or reports.
#[inline(always)]
fn usual_sowing(bytes: &[u8], at: usize, sowing: &mut Sowing) -> Option<usize> {
    let delimited = |p: usize| bytes.get(p).is_none_or(|&b| is_delimiter(b));
    let mut p = at;
    if delimited(p) {
        return Some(p);
    }
    if bytes[p] == b':' {
        let (lift, end) = usual_count(bytes, p + 1)?;
        sowing.lift = Some(lift);
        p = end;
    }
    if bytes.get(p) == Some(&b'-') {
        let (pit, len) = usual_pit(&bytes[p + 1..])?;
        sowing.end = Some(pit);
        p += 1 + len;
        if bytes.get(p) == Some(&b'#') {
            let (arrival, end) = usual_count(bytes, p + 1)?;
            sowing.arrival = Some(arrival);
            p = end;
        }
    }
    if bytes.get(p) == Some(&b'x') {
        p += 1;
        let pits = sowing.capture.insert(BonusPits::new());
        if !delimited(p) {
            loop {
                let (pit, len) = usual_pit(&bytes[p..])?;
                p += len;
                let mut count = None;
                if bytes.get(p) == Some(&b':') {
                    let (n, end) = usual_count(bytes, p + 1)?;
                    count = Some(n);
                    p = end;
                }
                pits.push(PitCount { pit, count });
                if bytes.get(p) != Some(&b',') {
                    break;
                }
                p += 1;
            }
        }
    }
    delimited(p).then_some(p)
}

/// A pit alone at `at` in `bytes` (`a3`, `c17`), followed by a delimiter or the end of
/// the text: the pit and where the token ends. `None` for anything else.
#[inline(always)]
fn lone_pit_at(bytes: &[u8], at: usize) -> Option<(PitRef, usize)> {
    let (pit, len) = usual_pit(&bytes[at..])?;
    let end = at + len;
    bytes
        .get(end)
        .is_none_or(|&b| is_delimiter(b))
        .then_some((pit, end))
}

/// Reads a whole ply (without its suffix annotation), its pits read by `pit`.
fn ply<'a>(
    at: &'a [u8],
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, PitRef> + Copy,
) -> PlyResult<'a, PlySyntax> {
    let (rest, from) = pit(at)?;
    if rest.is_empty() {
        // A pit alone: what `sowing` would give, without its work.
        return Ok((rest, lone_pit_ply(from)));
    }
    let (rest, ply) = alt((redistribution(from, pit), sowing(from, pit))).parse(rest)?;
    if !rest.is_empty() {
        return fail(rest, PlyErrorKind::Unexpected(expected_after(&ply)));
    }
    Ok((rest, ply))
}

/// A problem of a ply: where (from the start of the ply), its code and its message.
struct PlyProblem {
    at: usize,
    code: ProblemCode,
    message: String,
}

/// Parses the text of a ply (without its suffix annotation), its pits read by `pit`.
fn parse_ply<'a>(
    b: &'a [u8],
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, PitRef> + Copy,
) -> Result<PlySyntax, PlyError> {
    match ply(b, pit) {
        Ok((_, syntax)) => Ok(syntax),
        Err(nom::Err::Failure(e) | nom::Err::Error(e)) => Err(e),
        // Complete parsers never ask for more; were one to, it is no ply, not a panic.
        Err(nom::Err::Incomplete(_)) => Err(PlyError {
            rest_len: b.len(),
            kind: PlyErrorKind::Nom,
        }),
    }
}

/// The problem of the ply `b` (without its suffix) for its error `e`; `token` is the
/// whole token, suffix included, for the message.
fn ply_problem(b: &[u8], e: PlyError, token: &str) -> PlyProblem {
    let at = b.len() - e.rest_len;
    let rest = &b[at..];
    let digits = || {
        let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        String::from_utf8_lossy(&rest[..n]).into_owned()
    };
    let message = match e.kind {
        PlyErrorKind::Nom => "expected a ply".to_string(),
        PlyErrorKind::Unexpected(expected) => {
            // The grammar steps over ASCII only: `at` is on a character boundary.
            let found = match String::from_utf8_lossy(rest).chars().next() {
                Some(c) => format!("`{c}`"),
                None => "the end of the ply".to_string(),
            };
            format!("expected {expected}, found {found}")
        }
        PlyErrorKind::NoDigits(number) => format!("expected a {} (digits)", number.name()),
        PlyErrorKind::LeadingZero(number) => format!(
            "{} `{}` starts with 0; write it without leading zeros",
            number.name(),
            digits()
        ),
        PlyErrorKind::TooLarge(number) => format!(
            "{} {} is too large; the largest is {}",
            number.name(),
            quote(&digits()),
            number.max()
        ),
        PlyErrorKind::NoSuchRow(r) => {
            format!("row `{}` does not exist; rows are a, b, c and d", r as char)
        }
        PlyErrorKind::ColumnZero => "column 0 does not exist; columns start at 1".to_string(),
        PlyErrorKind::ColumnTooLarge => format!(
            "column {} is too large; columns go up to {}",
            quote(&digits()),
            PitRef::MAX_COL
        ),
        // Told by the scanner, which knows the numbering.
        PlyErrorKind::NoPit => format!(
            "`{}` names no pit",
            String::from_utf8_lossy(&rest[..pit_name_len(rest)])
        ),
    };
    PlyProblem {
        at,
        code: e.kind.code(),
        message: format!("in ply `{}`: {message}", quote(token)),
    }
}

#[cfg(test)]
mod tests {
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
