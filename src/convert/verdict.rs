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
    let mut at = parsed.offset;
    for tag in &record.tags {
        let gap = text_at(parsed, at, tag.span.start);
        if !is_blank(gap) {
            gaps.tags.extend(tag_lines(parsed, at, gap));
        }
        at = at.max(tag.span.end);
    }
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

/// The rest of a game read whole (see [`crate::convert::exported`]) whose replay stopped
/// before its last ply, as [`gaps`] and the conversion tell it from its record, told
/// from its text: from the first ply not replayed, or the move numbers written just
/// before it, to the result. `placed` places the game (its text is not needed); `None`
/// when every ply was replayed.
pub(super) fn rest_of_text(text: &GameText, placed: &ParsedGame, trace: &Trace) -> Option<Rest> {
    if trace.played >= trace.plies_written {
        return None;
    }
    let mut first = FirstNotReplayed {
        played: trace.played,
        plies: 0,
        depth: 0,
        numbers: None,
        start: None,
        result: None,
    };
    text.read(&mut first);
    let start = first.start?;
    let game = text.text();
    let end = first
        .result
        .map_or(game.len() + text.offset(), |r| r.span.start);
    let rest = game.get(start.checked_sub(text.offset())?..end.checked_sub(text.offset())?)?;
    Some(Rest {
        ply: trace.played + 1,
        cause: replay_cause(placed, trace),
        text: rest.trim_matches(is_space).to_string(),
    })
}

/// The visitor of [`rest_of_text`]: where the main line's ply `played` (from 0) begins,
/// with the move numbers written just before it, and the result.
struct FirstNotReplayed {
    played: usize,
    plies: usize,
    /// Variations open.
    depth: usize,
    /// Where the move numbers just before the element read begin.
    numbers: Option<usize>,
    start: Option<usize>,
    result: Option<ResultToken>,
}

impl FirstNotReplayed {
    /// Any main-line element but a move number or a ply: the numbers before it are not
    /// just before a ply.
    fn other(&mut self) -> ControlFlow<()> {
        if self.depth == 0 {
            self.numbers = None;
        }
        ControlFlow::Continue(())
    }
}

impl pmn::Visitor for FirstNotReplayed {
    fn move_number(&mut self, number: pmn::MoveNumber) -> ControlFlow<()> {
        if self.depth == 0 {
            self.numbers.get_or_insert(number.span.start);
        }
        ControlFlow::Continue(())
    }

    fn ply(&mut self, ply: pmn::Ply) -> ControlFlow<()> {
        if self.depth > 0 || self.start.is_some() {
            return ControlFlow::Continue(());
        }
        if self.plies == self.played {
            self.start = Some(self.numbers.unwrap_or(ply.span.start));
        }
        self.plies += 1;
        self.numbers = None;
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _comment: pmn::Comment) -> ControlFlow<()> {
        self.other()
    }

    fn nag(&mut self, _nag: pmn::Nag) -> ControlFlow<()> {
        self.other()
    }

    fn begin_variation(&mut self, _open: Span) -> pmn::Skip {
        let _ = self.other();
        self.depth += 1;
        pmn::Skip::No
    }

    fn end_variation(&mut self, _span: Span) -> ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        ControlFlow::Continue(())
    }

    fn result(&mut self, result: ResultToken) -> ControlFlow<()> {
        self.result = Some(result);
        ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: pmn::Problem) {}
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
