//! What of a game's text its record does not hold (tag lines not read, text after the
//! result, the rest after a stop), why, and the comments that keep it verbatim.

use std::ops::ControlFlow;

use crate::diagnostic::Diagnostic;
use crate::pmn::{
    self, Code, Comment, CommentKind, Element, GameText, ParsedGame, Problem, Record, ResultToken,
    Span, Variation,
};
use crate::replay::Trace;

use super::REST_NOTE;
use super::{Cause, Rest, Unread};

/// What of a game's text its record does not hold.
#[derive(Default)]
pub(super) struct Gaps {
    /// Tag lines the reader could not read, each with the lines it skipped after it.
    pub(super) tags: Vec<Unread>,
    /// Where the record stops holding the move text as written: the index of the first
    /// element of the main line that does not (the main line's length when all do), and
    /// the offset from which the text is not held.
    pub(super) stop: Option<(usize, usize)>,
    /// Text after the result token.
    pub(super) after_result: Option<Unread>,
}

/// The characters the reader takes for spaces between tokens.
pub(crate) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\0' | '\x0c')
}

fn is_blank(text: &str) -> bool {
    text.chars().all(is_space)
}

/// The game's text between two offsets of the file (empty outside the text).
fn text_at(parsed: &ParsedGame, start: usize, end: usize) -> &str {
    start
        .checked_sub(parsed.offset)
        .zip(end.checked_sub(parsed.offset))
        .and_then(|(a, b)| parsed.text.get(a..b))
        .unwrap_or("")
}

/// Lays the record's spans (`record` is the game's, as read) over the game's text. The reader reads in order, so text
/// outside the spans of what it read is text it skipped: an unreadable tag line and
/// the lines after it up to the next tag line, the move text from where it stopped
/// (to the end of the game's text: it resumes only at the next game's tags), text
/// after the result. A variation it closed itself (at a stop, at the result or at the
/// end of the text) is not held as written either: writing it would add a `)`.
pub(super) fn gaps(parsed: &ParsedGame, record: &Record) -> Gaps {
    let mut gaps = Gaps::default();
    // A record built by hand has no text to compare with.
    if parsed.text.is_empty() {
        return gaps;
    }
    let end = parsed.offset + parsed.text.len();
    let (tags, mut at) = tag_gaps(parsed, &record.tags);
    gaps.tags = tags;
    for (i, element) in record.moves.iter().enumerate() {
        let span = element.span();
        if !is_blank(text_at(parsed, at, span.start)) {
            gaps.stop = Some((i, at));
            break;
        }
        if let Element::Variation(v) = element {
            if !closed_by_its_paren(parsed, v) {
                gaps.stop = Some((i, span.start));
                break;
            }
        }
        at = at.max(span.end);
    }
    let moves_end = record.result.map_or(end, |r| r.span.start);
    if gaps.stop.is_none() && !is_blank(text_at(parsed, at, moves_end)) {
        gaps.stop = Some((record.moves.len(), at));
    }
    gaps.after_result = record.result.and_then(|r| after_result(parsed, r));
    gaps
}

/// The tag lines of a game the reader could not read, found between the tags it read
/// (`tags`), and the end of the last tag (the game's start when it has none).
fn tag_gaps(parsed: &ParsedGame, tags: &[pmn::Tag]) -> (Vec<Unread>, usize) {
    let mut unread = Vec::new();
    let mut at = parsed.offset;
    for tag in tags {
        let gap = text_at(parsed, at, tag.span.start);
        if !is_blank(gap) {
            unread.extend(tag_lines(parsed, at, gap));
        }
        at = at.max(tag.span.end);
    }
    (unread, at)
}

/// The text after a game's result token (`result`), when it is more than spaces.
pub(super) fn after_result(parsed: &ParsedGame, result: ResultToken) -> Option<Unread> {
    let end = parsed.offset + parsed.text.len();
    let after = text_at(parsed, result.span.end, end);
    if is_blank(after) {
        return None;
    }
    let mut unread = unread(parsed, result.span.end, after);
    unread.cause.message =
        "a game ends at its result; the next game's tags were expected here".into();
    Some(unread)
}

/// The pieces of text between two tags the reader read: each line that begins with `[`
/// (a tag line it could not read), with the lines after it that it skipped.
fn tag_lines(parsed: &ParsedGame, start: usize, gap: &str) -> Vec<Unread> {
    let mut pieces: Vec<(usize, usize)> = Vec::new();
    let mut offset = 0;
    for line in gap.split_inclusive('\n') {
        let is_tag = line.trim_start_matches(is_space).starts_with('[');
        match pieces.last_mut() {
            Some(piece) if !is_tag => piece.1 = offset + line.len(),
            _ => pieces.push((offset, offset + line.len())),
        }
        offset += line.len();
    }
    pieces
        .into_iter()
        .filter(|&(a, b)| !is_blank(&gap[a..b]))
        .map(|(a, b)| unread(parsed, start + a, &gap[a..b]))
        .collect()
}

/// Whether a variation ends with its own `)`. One the reader closed itself ends where
/// the text stopped being read: not after a `)`, or after the `)` of the last
/// variation inside it.
fn closed_by_its_paren(parsed: &ParsedGame, v: &Variation) -> bool {
    let end = v.span.end;
    end > 0
        && text_at(parsed, end - 1, end) == ")"
        && v.elements.last().is_none_or(|e| e.span().end < end)
}

/// Problems about the game as a whole, which say nothing of a piece of its text.
fn about_the_whole_game(code: Code) -> bool {
    matches!(
        code,
        Code::MissingGameTag
            | Code::MissingResult
            | Code::DuplicateTag
            | Code::ResultMismatch
            | Code::EmptyFile
            | Code::Io
    )
}

/// A piece of text the reader skipped, with the problem it reported in it.
fn unread(parsed: &ParsedGame, start: usize, text: &str) -> Unread {
    let end = start + text.len();
    let cause = parsed
        .problems
        .iter()
        .find(|p| (start..end).contains(&p.span.start) && !about_the_whole_game(p.code))
        .map(Cause::of_problem)
        .unwrap_or_else(|| {
            let first = start + (text.len() - text.trim_start_matches(is_space).len());
            Cause::at(parsed, first, "the reader skipped this text")
        });
    Unread {
        cause,
        text: text.trim_matches(is_space).to_string(),
    }
}

/// Why the reader stopped reading the move text at `at`: its first error from there.
pub(super) fn reader_cause(parsed: &ParsedGame, at: usize) -> Cause {
    parsed
        .problems
        .iter()
        .find(|p| p.is_error() && p.span.start >= at && !about_the_whole_game(p.code))
        .map(Cause::of_problem)
        .unwrap_or_else(|| {
            let text = text_at(parsed, at, parsed.offset + parsed.text.len());
            let first = at + (text.len() - text.trim_start_matches(is_space).len());
            Cause::at(parsed, first, "the reader stopped here")
        })
}

/// Why the replay stopped: the error at the earliest ply ([`Trace::first_error`]).
pub(super) fn replay_cause(parsed: &ParsedGame, trace: &Trace) -> Cause {
    trace
        .first_error()
        .map(|d| Cause::of_diagnostic(parsed, d))
        .unwrap_or_else(|| Cause {
            code: "replay",
            message: "the replay stopped".into(),
            line: parsed.line,
            column: 1,
        })
}

impl Cause {
    fn of_problem(p: &Problem) -> Cause {
        Cause {
            code: p.code.as_str(),
            message: p.message.clone(),
            line: p.span.line,
            column: p.span.column,
        }
    }

    fn of_diagnostic(parsed: &ParsedGame, d: &Diagnostic) -> Cause {
        // A diagnostic with no place in the text (a record without tags or moves) is
        // placed at the game's start.
        let (line, column) = match d.span.line {
            0 => (parsed.line, 1),
            line => (line, d.span.column.max(1)),
        };
        Cause {
            code: d.code.as_str(),
            message: d.message.clone(),
            line,
            column,
        }
    }

    /// A cause of the reader's with no problem to quote, at an offset of the file.
    pub(super) fn at(parsed: &ParsedGame, offset: usize, message: &str) -> Cause {
        let before = text_at(parsed, parsed.offset, offset);
        Cause {
            code: "unread",
            message: message.into(),
            line: parsed.line + before.matches('\n').count() as u32,
            column: 1 + before.rsplit('\n').next().unwrap_or("").chars().count() as u32,
        }
    }
}

/// The text of the game from `start` (an offset of the file) to its result token, or
/// to its end when the reader did not reach one (`result`), as written. `tail` holds the elements
/// cut off, written instead for a record built by hand (it has no text).
pub(super) fn rest_text(
    parsed: &ParsedGame,
    result: Option<ResultToken>,
    start: usize,
    tail: &[Element],
) -> String {
    let end = result.map_or(parsed.offset + parsed.text.len(), |r| r.span.start);
    let spans = tail.first().is_none_or(|e| e.span() != Span::default());
    let text = text_at(parsed, start, end).trim_matches(is_space);
    if spans && !text.is_empty() {
        return text.to_string();
    }
    pmn::write_game(&Record {
        tags: vec![],
        moves: tail.to_vec(),
        result: None,
    })
    .trim_end()
    .to_string()
}

/// What of a game's text its record would not hold, told as the reader reads the text,
/// with no record built: [`gaps`] and the rest that [`super::converted`] cuts off.
pub(super) struct TextGaps {
    /// The game placed, with its problems and its text, without its record.
    pub(super) parsed: ParsedGame,
    pub(super) tags: Vec<Unread>,
    pub(super) rest: Option<Rest>,
    pub(super) after_result: Option<Unread>,
}

/// [`TextGaps`] of a game replayed as `trace` says. The rest runs from the first ply not
/// replayed or the place the reader stopped, whichever comes first (with the move
/// numbers written just before it), to the result, or to the end of the game's text
/// when the reader read none.
pub(super) fn text_gaps(text: &GameText, trace: &Trace) -> TextGaps {
    let mut cut = Cut {
        text: text.text(),
        offset: text.offset(),
        played: (trace.played < trace.plies_written).then_some(trace.played),
        plies: 0,
        depth: 0,
        at: text.offset(),
        numbers: None,
        numbers_before_variation: None,
        inner_end: None,
        cut: None,
        result: None,
        problems: Vec::new(),
    };
    let tags = text.read(&mut cut).unwrap_or_default();
    let mut problems = text.problems().to_vec();
    problems.append(&mut cut.problems);
    problems.sort_by_key(|p| p.span.start);
    let parsed = ParsedGame {
        record: Record::default(),
        problems,
        text: text.text().to_string(),
        offset: text.offset(),
        line: text.line(),
    };
    let (unread_tags, _) = tag_gaps(&parsed, &tags);
    let moves_end = (cut.result).map_or(parsed.offset + parsed.text.len(), |r| r.span.start);
    if cut.cut.is_none() && !is_blank(text_at(&parsed, cut.at, moves_end)) {
        cut.cut = Some((cut.numbers.unwrap_or(cut.at), cut.plies, Some(cut.at)));
    }
    let rest = cut.cut.map(|(start, plies, stop)| Rest {
        ply: plies + 1,
        cause: match stop {
            Some(at) => reader_cause(&parsed, at),
            None => replay_cause(&parsed, trace),
        },
        text: rest_text(&parsed, cut.result, start, &[]),
    });
    let after_result = cut.result.and_then(|r| after_result(&parsed, r));
    TextGaps {
        tags: unread_tags,
        rest,
        after_result,
        parsed,
    }
}

/// The visitor of [`text_gaps`]: where the record would stop holding the move text, as
/// [`gaps`] finds it in a record (text other than spaces between two main-line
/// elements, a variation the reader closed itself), or the first ply not replayed.
struct Cut<'t> {
    text: &'t str,
    offset: usize,
    /// The main-line ply (from 0) not replayed, if one is.
    played: Option<usize>,
    /// Main-line plies read.
    plies: usize,
    /// Variations open.
    depth: usize,
    /// The end of the last tag or main-line element read.
    at: usize,
    /// Where the move numbers just before the main-line element read begin.
    numbers: Option<usize>,
    /// The same, before the main-line variation open.
    numbers_before_variation: Option<usize>,
    /// The end of the last element read in the main-line variation open.
    inner_end: Option<usize>,
    /// Where the rest begins, the main-line plies before it, and where the reader
    /// stopped (none: the replay stopped first).
    cut: Option<(usize, usize, Option<usize>)>,
    result: Option<ResultToken>,
    problems: Vec<Problem>,
}

impl Cut<'_> {
    /// A main-line element begins at `start`: the record stops holding the text when
    /// text other than spaces comes before it.
    fn begins(&mut self, start: usize) {
        let gap = (self.at.checked_sub(self.offset))
            .zip(start.checked_sub(self.offset))
            .and_then(|(a, b)| self.text.get(a..b))
            .unwrap_or("");
        if self.cut.is_none() && !is_blank(gap) {
            self.cut = Some((self.numbers.unwrap_or(self.at), self.plies, Some(self.at)));
        }
    }

    /// A main-line element (or one in the main-line variation open) of `span`, read.
    fn element(&mut self, span: Span) {
        match self.depth {
            0 => {
                self.begins(span.start);
                self.at = self.at.max(span.end);
            }
            1 => self.inner_end = Some(span.end),
            _ => {}
        }
    }

    /// Any element but a move number or a ply: the numbers before it are not just
    /// before a ply.
    fn other(&mut self, span: Span) -> ControlFlow<()> {
        self.element(span);
        if self.depth == 0 {
            self.numbers = None;
        }
        ControlFlow::Continue(())
    }
}

impl pmn::Visitor for Cut<'_> {
    fn tags(&mut self, record: &Record) -> ControlFlow<()> {
        self.at = (record.tags.iter()).fold(self.at, |at, tag| at.max(tag.span.end));
        ControlFlow::Continue(())
    }

    fn move_number(&mut self, number: pmn::MoveNumber) -> ControlFlow<()> {
        self.element(number.span);
        if self.depth == 0 {
            self.numbers.get_or_insert(number.span.start);
        }
        ControlFlow::Continue(())
    }

    fn ply(&mut self, ply: pmn::Ply) -> ControlFlow<()> {
        self.element(ply.span);
        if self.depth > 0 {
            return ControlFlow::Continue(());
        }
        if self.cut.is_none() && self.played == Some(self.plies) {
            let start = self.numbers.unwrap_or(ply.span.start);
            self.cut = Some((start, self.plies, None));
        }
        self.plies += 1;
        self.numbers = None;
        ControlFlow::Continue(())
    }

    fn comment(&mut self, comment: pmn::Comment) -> ControlFlow<()> {
        self.other(comment.span)
    }

    fn nag(&mut self, nag: pmn::Nag) -> ControlFlow<()> {
        self.other(nag.span)
    }

    fn begin_variation(&mut self, open: Span) -> pmn::Skip {
        if self.depth == 0 {
            self.begins(open.start);
            self.numbers_before_variation = self.numbers.take();
            self.inner_end = None;
        }
        self.depth += 1;
        pmn::Skip::No
    }

    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        match self.depth {
            0 => {
                // As `closed_by_its_paren` tells of a variation in a record.
                let end = span.end;
                let paren = (end.checked_sub(self.offset + 1))
                    .and_then(|at| self.text.get(at..at + 1))
                    == Some(")");
                let closed = end > 0 && paren && self.inner_end.is_none_or(|e| e < end);
                if self.cut.is_none() && !closed {
                    let start = self.numbers_before_variation.unwrap_or(span.start);
                    self.cut = Some((start, self.plies, Some(span.start)));
                }
                self.at = self.at.max(end);
            }
            1 => self.inner_end = Some(span.end),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn result(&mut self, result: ResultToken) -> ControlFlow<()> {
        self.result = Some(result);
        ControlFlow::Continue(())
    }

    fn problem(&mut self, problem: Problem) {
        self.problems.push(problem);
    }
}

/// The note and the verbatim lines of the rest, as comments.
pub(super) fn rest_comments(rest: &Rest) -> Vec<Element> {
    let note = format!(
        "{REST_NOTE} {}: {}; the rest of the move text follows verbatim",
        rest.ply, rest.cause.message
    );
    comments(note, &rest.text)
}

/// The note and the verbatim lines of a piece of text not read, as comments.
pub(super) fn verbatim_comments(note: &str, unread: &Unread) -> Vec<Element> {
    let note = format!("{note}: {}; it follows verbatim", unread.cause.message);
    comments(note, &unread.text)
}

/// A `{note}` and one `;` comment per line of `text`. Neither may end its comment or
/// hold a command: a brace quoted in the note is named in words, any other becomes a
/// parenthesis, and `[%` is written `[ %`.
pub(super) fn comments(note: String, text: &str) -> Vec<Element> {
    let note: String = note
        .replace("`{`", "an opening brace")
        .replace("`}`", "a closing brace")
        .chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect();
    let mut out = vec![Element::Comment(Comment {
        kind: CommentKind::Brace,
        text: note.replace("[%", "[ %").into(),
        commands: vec![],
        span: Span::default(),
    })];
    for line in text.lines() {
        out.push(Element::Comment(Comment {
            kind: CommentKind::Line,
            text: line.trim_end_matches('\r').replace("[%", "[ %").into(),
            commands: vec![],
            span: Span::default(),
        }));
    }
    out
}
