//! The tag section: tag lines (a nom grammar, with a fast lane for the usual line),
//! the checks on the tags as a whole, and the resumption at the next tag line.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use compact_str::CompactString;
use nom::branch::alt;
use nom::bytes::complete::{take_till1, take_while, take_while1};
use nom::character::complete::{char, one_of, space0};
use nom::combinator::recognize;
use nom::error::{ErrorKind, ParseError};
use nom::multi::many0_count;
use nom::sequence::preceded;
use nom::{IResult, Offset, Parser};

use crate::pmn::ast::*;
use crate::pmn::problem::{Code, Problem};
use crate::pmn::visit::{push_element, Visitor};

use super::{is_space, quote, Scanner, CLASS, GAME_TAG, NAME};

impl<'a, 'v, V: Visitor> Scanner<'a, 'v, V> {
    /// Reads the tag section. Returns true when the text ended while resuming after a
    /// problem (nothing is left to read).
    pub(super) fn read_tags(&mut self) -> bool {
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

    pub(super) fn line_end(&self, from: usize) -> usize {
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
                            Code::UnterminatedTag,
                            open,
                            end_of_line,
                            format!("tag `{shown}` is not closed: {what}"),
                        );
                    }
                    TagErrorKind::Expected(expected) => self.error(
                        Code::Syntax,
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
                            Code::BadEscape,
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
                            Code::Syntax,
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
                        Code::Syntax,
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

    pub(super) fn check_tags(&mut self) {
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
                    Code::DuplicateTag,
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
}

impl<'a, 'v, V: Visitor> Scanner<'a, 'v, V> {
    pub(super) fn check_game_tag(&mut self) {
        // Set exactly when a tag is named `Game` (`Record::tag` compares names whole).
        if self.known_tags & GAME_TAG == 0 {
            let span = match self.record.tags.first() {
                Some(t) => t.span,
                None => self.span_slow(0, 0),
            };
            self.visitor.problem(Problem::error(
                Code::MissingGameTag,
                span,
                "the game has no Game tag; expected e.g. [Game \"Tsoro\"] (Tsoro, Nsolo, Kiothi or BaoLaKimasai)",
            ));
        }
    }
}

// ---------------------------------------------------------------------------------
// The tag line, in nom combinators over its bytes, and the commands in comments.

/// What went wrong in a tag line, and where (`rest` is the line from there).
#[derive(Clone, Copy)]
pub(super) struct TagError<'a> {
    pub(super) rest: &'a [u8],
    pub(super) kind: TagErrorKind,
}

#[derive(Clone, Copy)]
pub(super) enum TagErrorKind {
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

pub(super) type TagResult<'a, O> = IResult<&'a [u8], O, TagError<'a>>;

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
pub(super) fn tag_line(line: &[u8]) -> TagResult<'_, (&[u8], &[u8])> {
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
pub(super) struct UsualTag {
    pub(super) name: Range<usize>,
    pub(super) value: Range<usize>,
    /// Just past the `]`.
    pub(super) close: usize,
    /// The line's length, up to its line feed or the end of the text.
    pub(super) line_len: usize,
}

/// The usual tag line at the start of `text`, `[Name "value"]` with one space, no escape
/// and nothing after the `]` but spaces: where its name and value are, as [`tag_line`]
/// reads them, found in one pass over its bytes: the name and what follows the value
/// byte by byte, the value by one search for its closing quote (a search for each part
/// costs more on lines this short). `None` for anything else, which
/// [`tag_line`] reads or reports.
#[inline]
pub(super) fn usual_tag_line(text: &[u8]) -> Option<UsualTag> {
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
