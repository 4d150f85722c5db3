//! `sow convert`: records in other forms, read from replay traces.
//!
//! Every game is replayed once ([`crate::replay::replay`]); each output form is a
//! reader of the trace and of the record. Nothing here moves a stone.
//!
//! - `pmn`: the export form, with the `Board` tag dropped when it is the game's default
//!   and the `Rules` tag rewritten as [`Rules::options_tag`] (dropped when empty), when
//!   the rules could be built; otherwise the tags stay as written.
//! - `json` / `jsonl`: the JSON form of the record (the serde form of
//!   [`crate::pmn::Record`], so `pmn::json::from_json` reads it back) with two more
//!   keys: `source` (file and game number) and `replay` (the rules and, per ply, its
//!   effect and the position after it). `json` is one array; `jsonl` one game a line.
//! - `csv`: one row per ply: `file, game, ply, player, from, lift, end, arrival,
//!   capture, bonus, text` (pits with stones as `b6:1 a6:4`).
//! - `long`: every ply with its whole effect spelled out, as readable text.
//! - `relative`: the moves in seat-relative numbers (docs/relative.md), read back with
//!   `--from relative`.
//! - `--from json` reads the `json`/`jsonl` output back (its records; the rest ignored).
//! - `ludii`: a Ludii-style move list (docs/ludii.md), read back with `--from ludii`.
//!
//! A folder is walked for the files of the `--from` form ([`ConvertFrom::extensions`]):
//! `*.pmn` (PMN and relative numbering), `*.json` and `*.jsonl`, `*.ludii`.
//!
//! # Every verdict is kept
//!
//! `validate` of the output gives the verdict of `validate` of the input: valid or not,
//! first error at the same ply, with the same code. A game with errors is left out of
//! the output and named in the notes, unless it is kept broken ([`Forms::keep_broken`]):
//! then every ply written stays a ply (its text verbatim in PMN, when the reader stopped
//! in it), so that it fails where the input fails; a form that cannot hold it so leaves
//! it out (Ludii's list holds only the plies replayed). Long text and CSV, not read back,
//! hold a game kept broken as far as it replays, and the rest as below.
//!
//! # Nothing is lost
//!
//! A game converted is converted as far as it replays and as far as the reader read
//! it. Every piece of its text that the record does not hold is kept verbatim in
//! comments, each after a note saying where it was and why it was not converted:
//!
//! - the move text from the first ply not replayed or from where the reader stopped
//!   (a syntax error, an unterminated comment, a last tag line it could not read and
//!   the moves it skipped after it), whichever is earlier, up to the result token, or
//!   to the end of the game's text when the reader never reached one ([`Rest`], after
//!   a [`REST_NOTE`]);
//! - a tag line the reader could not read, among tags it could: at the start of the
//!   move text, after a [`TAG_NOTE`]; the moves convert as usual;
//! - text written after the result token: just before the result, after an
//!   [`AFTER_RESULT_NOTE`].
//!
//! The pieces are found by laying the record's spans over the game's text: the reader
//! reads in order, so whatever lies outside the spans of what it read, other than
//! spaces, is text it skipped. The only change made to that text: `[%` is written
//! `[ %`, so that the commands in it are not read as checks of the last ply replayed.
//! The output reads back to itself: converting it again changes nothing. Every form
//! carries the kept text: `pmn`, `relative` and the records of `json`/`jsonl` as these
//! comments (`json` also lists the notes in `replay`), `csv` as rows whose `text` is the
//! piece, `long` and `ludii` as lines.
//!
//! # What the command reports
//!
//! Each game that did not convert whole is named on standard error, one line per game
//! ([`Conversion::kept_summary`]): file, line and column of the first piece kept
//! verbatim and what the reader or the replay said there; each game with errors at its
//! first error, and whether it was kept or left out. [`run`] returns how many games were
//! left out, and the command then exits with status 1. An input that cannot be opened
//! or read, or parsed in the `--from` form, fails the command: every such input is
//! reported, nothing is written, and the exit status is 2. A file that holds no game is
//! skipped with a warning.

pub mod numbering;

use std::fmt::Write as _;
use std::io::{self, Read, Write as _};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::corpus::{self, Batches, Filter, Input, WholeInputs, Work};
use crate::diagnostic::Diagnostic;
use crate::error::CommandError;
use crate::geometry::Pit;
use crate::moves::Move;
use crate::pmn::{
    self, decode, reader, Comment, CommentKind, Element, GameText, ParsedGame, Problem,
    ProblemCode, Record, Span, Tag, Variation,
};
use crate::replay::{replay, rules_of, ReplayOptions, Trace};
use crate::rules::{Game, Rules};

use numbering::Numbering;

/// The start of the comment that says where a game's conversion stopped; the rest of
/// its move text follows verbatim.
pub const REST_NOTE: &str = "sow convert: not replayed from ply";

/// The start of the comment before a tag line the reader could not read, kept verbatim.
pub const TAG_NOTE: &str = "sow convert: tag line not read";

/// The start of the comment before text written after the result token, kept verbatim.
pub const AFTER_RESULT_NOTE: &str = "sow convert: text after the result not read";

/// The tag a relative record carries, with the value [`RELATIVE`].
pub const NUMBERING_TAG: &str = "Numbering";

/// The value of the [`NUMBERING_TAG`] that marks a record in relative numbering.
pub const RELATIVE: &str = "relative";

/// Whether a tag is the mark of relative numbering, `[Numbering "relative"]` (in any
/// case, spaces around it aside). A `Numbering` tag of any other value is the
/// transcriber's (how a source numbered its holes, say) and is kept like any free tag.
pub fn is_relative_mark(tag: &Tag) -> bool {
    tag.name == NUMBERING_TAG && tag.value.trim().eq_ignore_ascii_case(RELATIVE)
}

/// Why text of a game is kept verbatim: what the reader or the replay reported, and
/// where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    /// The code of the reader's problem or of the replay's diagnostic, e.g. `syntax`.
    pub code: &'static str,
    /// Its message.
    pub message: String,
    /// Line in the file, from 1.
    pub line: u32,
    /// Column in the file, from 1.
    pub column: u32,
}

/// The part of a game's move text that was not converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rest {
    /// The first ply not converted (from 1).
    pub ply: usize,
    /// Why the replay or the reader stopped.
    pub cause: Cause,
    /// The move text from that ply to the result token (to the end of the game's text
    /// when the reader did not reach one), as written.
    pub text: String,
}

/// Text of a game outside its move text that the reader did not read: a tag line, or
/// text after the result token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unread {
    /// What the reader said there.
    pub cause: Cause,
    /// The text, as written.
    pub text: String,
}

/// One game, replayed and ready to be written in any form.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The input's name.
    pub file: String,
    /// The game's number in its file, from 1.
    pub game: usize,
    /// The replay.
    pub trace: Trace,
    /// The record as converted: tags normalised, move text cut after the last ply
    /// converted, every piece of text not converted in comments.
    pub record: Record,
    /// What of the move text was not converted.
    pub rest: Option<Rest>,
    /// Tag lines the reader could not read, in order.
    pub unread_tags: Vec<Unread>,
    /// Text after the result token.
    pub after_result: Option<Unread>,
}

impl Conversion {
    /// Whether every piece of the game's text was converted.
    pub fn is_whole(&self) -> bool {
        self.rest.is_none() && self.unread_tags.is_empty() && self.after_result.is_none()
    }

    /// For a game that did not convert whole, one line naming the first piece kept
    /// verbatim (`FILE:LINE:COL: game K: ...`); `None` for a game converted whole.
    pub fn kept_summary(&self) -> Option<String> {
        let mut pieces: Vec<(&Cause, String, &str)> = Vec::new();
        for u in &self.unread_tags {
            pieces.push((&u.cause, "tag line not read".into(), "it is"));
        }
        if let Some(r) = &self.rest {
            let what = format!("not converted from ply {}", r.ply);
            pieces.push((&r.cause, what, "the rest is"));
        }
        if let Some(u) = &self.after_result {
            pieces.push((&u.cause, "text after the result not read".into(), "it is"));
        }
        pieces.sort_by_key(|(cause, _, _)| (cause.line, cause.column));
        let (cause, what, kept) = pieces.first()?;
        let mut line = format!(
            "{}:{}:{}: game {}: {what} ({}: {}); {kept} kept verbatim in a comment",
            self.file, cause.line, cause.column, self.game, cause.code, cause.message
        );
        match pieces.len() - 1 {
            0 => {}
            1 => line.push_str(", and 1 more piece of its text"),
            n => {
                let _ = write!(line, ", and {n} more pieces of its text");
            }
        }
        Some(line)
    }
}

/// Replays one game and prepares its conversion.
pub fn convert_game(
    file: &str,
    game: usize,
    parsed: &ParsedGame,
    options: &ReplayOptions,
) -> Conversion {
    conversion(file, game, parsed, options, false)
}

/// Replays one game with errors and prepares its conversion kept broken: every ply
/// written stays a ply, so the output fails where the input does. Text the reader did
/// not read is still kept in comments: `None` when the reader stopped at an error, as
/// such a game cannot be kept failing at the same place in a record.
pub fn convert_broken_game(
    file: &str,
    game: usize,
    parsed: &ParsedGame,
    options: &ReplayOptions,
) -> Option<Conversion> {
    if parsed.has_errors() {
        return None;
    }
    Some(conversion(file, game, parsed, options, true))
}

fn conversion(
    file: &str,
    game: usize,
    parsed: &ParsedGame,
    options: &ReplayOptions,
    keep_plies: bool,
) -> Conversion {
    let trace = replay(parsed, options);
    let mut record = parsed.record.clone();
    if let Some(rules) = &trace.rules {
        normalise_tags(&mut record, rules);
    }
    let gaps = gaps(parsed);
    let replayed = trace.plies.len();
    // The first ply not replayed, and where the reader stopped: whichever is earlier.
    let unreplayed = (!keep_plies && replayed < trace.plies_written).then(|| {
        let index = record
            .moves
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, Element::Ply(_)))
            .nth(replayed)
            .map_or(record.moves.len(), |(i, _)| i);
        let start = record.moves.get(index).map_or(0, |e| e.span().start);
        (index, start)
    });
    let cut = match (unreplayed, gaps.stop) {
        (Some((i, _)), Some((j, at))) if j <= i => Some((j, at, reader_cause(parsed, at))),
        (Some((i, start)), _) => Some((i, start, replay_cause(parsed, &trace))),
        (None, Some((j, at))) => Some((j, at, reader_cause(parsed, at))),
        (None, None) => None,
    };
    let mut rest = None;
    if let Some((index, start, cause)) = cut {
        // A move number written before the cut goes with the plies after it (the writer
        // writes move numbers afresh, and would drop it).
        let mut cut = index;
        while cut > 0 && matches!(record.moves[cut - 1], Element::MoveNumber(_)) {
            cut -= 1;
        }
        let start = if cut < index {
            record.moves[cut].span().start
        } else {
            start
        };
        let tail: Vec<Element> = record.moves.split_off(cut);
        let r = Rest {
            ply: 1 + record
                .moves
                .iter()
                .filter(|e| matches!(e, Element::Ply(_)))
                .count(),
            cause,
            text: rest_text(parsed, start, &tail),
        };
        record.moves.extend(rest_comments(&r));
        rest = Some(r);
    }
    if let Some(u) = &gaps.after_result {
        record.moves.extend(verbatim_comments(AFTER_RESULT_NOTE, u));
    }
    let tag_comments: Vec<Element> = gaps
        .tags
        .iter()
        .flat_map(|u| verbatim_comments(TAG_NOTE, u))
        .collect();
    record.moves.splice(0..0, tag_comments);
    Conversion {
        file: file.to_string(),
        game,
        trace,
        record,
        rest,
        unread_tags: gaps.tags,
        after_result: gaps.after_result,
    }
}

/// `Board` dropped when it is the default, `Rules` as the rule set's export form. Only
/// the first tag of each name is the one the rules were read from: a second, which the
/// reader reported as a duplicate, is kept as written (and the first then too, though
/// it says the default, or the second would be read in its place).
fn normalise_tags(record: &mut Record, rules: &Rules) {
    let board = rules.board();
    let options = rules.options_tag();
    for (name, value, dropped) in [
        (
            "Board",
            board.to_string(),
            board == rules.game().default_board(),
        ),
        ("Rules", options.clone(), options.is_empty()),
    ] {
        let Some(first) = record.tags.iter().position(|t| t.name == name) else {
            continue;
        };
        let more = record.tags.iter().filter(|t| t.name == name).count() > 1;
        if dropped && !more {
            record.tags.remove(first);
        } else {
            record.tags[first].value = value.into();
        }
    }
    if !options.is_empty() && record.tag("Rules").is_none() {
        record.tags.push(Tag::new("Rules", options));
    }
    if board != rules.game().default_board() && record.tag("Board").is_none() {
        record.tags.push(Tag::new("Board", board.to_string()));
    }
}

/// What of a game's text its record does not hold.
#[derive(Default)]
struct Gaps {
    /// Tag lines the reader could not read, each with the lines it skipped after it.
    tags: Vec<Unread>,
    /// Where the record stops holding the move text as written: the index of the first
    /// element of the main line that does not (the main line's length when all do), and
    /// the offset from which the text is not held.
    stop: Option<(usize, usize)>,
    /// Text after the result token.
    after_result: Option<Unread>,
}

/// The characters the reader takes for spaces between tokens.
fn is_space(c: char) -> bool {
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

/// Lays the record's spans over the game's text. The reader reads in order, so text
/// outside the spans of what it read is text it skipped: an unreadable tag line and
/// the lines after it up to the next tag line, the move text from where it stopped
/// (to the end of the game's text: it resumes only at the next game's tags), text
/// after the result. A variation it closed itself (at a stop, at the result or at the
/// end of the text) is not held as written either: writing it would add a `)`.
fn gaps(parsed: &ParsedGame) -> Gaps {
    let mut gaps = Gaps::default();
    // A record built by hand has no text to compare with.
    if parsed.text.is_empty() {
        return gaps;
    }
    let record = &parsed.record;
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
    if let Some(result) = record.result {
        let after = text_at(parsed, result.span.end, end);
        if !is_blank(after) {
            let mut unread = unread(parsed, result.span.end, after);
            unread.cause.message =
                "a game ends at its result; the next game's tags were expected here".into();
            gaps.after_result = Some(unread);
        }
    }
    gaps
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
fn about_the_whole_game(code: ProblemCode) -> bool {
    matches!(
        code,
        ProblemCode::MissingGameTag
            | ProblemCode::MissingResult
            | ProblemCode::DuplicateTag
            | ProblemCode::ResultMismatch
            | ProblemCode::EmptyFile
            | ProblemCode::Io
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
fn reader_cause(parsed: &ParsedGame, at: usize) -> Cause {
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
fn replay_cause(parsed: &ParsedGame, trace: &Trace) -> Cause {
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
            code: d.code,
            message: d.message.clone(),
            line,
            column,
        }
    }

    /// A cause of the reader's with no problem to quote, at an offset of the file.
    fn at(parsed: &ParsedGame, offset: usize, message: &str) -> Cause {
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
/// to its end when the reader did not reach one, as written. `tail` holds the elements
/// cut off, written instead for a record built by hand (it has no text).
fn rest_text(parsed: &ParsedGame, start: usize, tail: &[Element]) -> String {
    let end = parsed
        .record
        .result
        .map_or(parsed.offset + parsed.text.len(), |r| r.span.start);
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

/// The note and the verbatim lines of the rest, as comments.
fn rest_comments(rest: &Rest) -> Vec<Element> {
    let note = format!(
        "{REST_NOTE} {}: {}; the rest of the move text follows verbatim",
        rest.ply, rest.cause.message
    );
    comments(note, &rest.text)
}

/// The note and the verbatim lines of a piece of text not read, as comments.
fn verbatim_comments(note: &str, unread: &Unread) -> Vec<Element> {
    let note = format!("{note}: {}; it follows verbatim", unread.cause.message);
    comments(note, &unread.text)
}

/// A `{note}` and one `;` comment per line of `text`. Neither may end its comment or
/// hold a command: a brace quoted in the note is named in words, any other becomes a
/// parenthesis, and `[%` is written `[ %`.
fn comments(note: String, text: &str) -> Vec<Element> {
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

/// The form `sow convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertTo {
    /// PMN's export form.
    Pmn,
    /// A JSON array of records.
    Json,
    /// A JSON record a line.
    Jsonl,
    /// A CSV row a ply.
    Csv,
    /// Long text: every ply told in words.
    Long,
    /// PMN with seat-relative numbers.
    Relative,
    /// A Ludii move list.
    Ludii,
}

/// The form `sow convert` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertFrom {
    /// PMN.
    Pmn,
    /// PMN with seat-relative numbers.
    Relative,
    /// A Ludii move list.
    Ludii,
    /// The `json` or `jsonl` output of `sow convert` (or bare records in PMN's JSON form).
    Json,
}

impl ConvertFrom {
    /// The form's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ConvertFrom::Pmn => "pmn",
            ConvertFrom::Relative => "relative",
            ConvertFrom::Ludii => "ludii",
            ConvertFrom::Json => "json",
        }
    }

    /// The form a file's extension says: `None` for one that says nothing (`.txt`,
    /// standard input).
    pub fn of_name(input: &Input) -> Option<ConvertFrom> {
        let Input::File(path) = input else {
            return None;
        };
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        [ConvertFrom::Pmn, ConvertFrom::Json, ConvertFrom::Ludii]
            .into_iter()
            .find(|f| f.extensions().contains(&ext.as_str()))
    }

    /// The form a text is in, by its content: JSON starts with `{` or `[` (an array, not
    /// a tag), a Ludii move list has its `//` lines (its heading, tags or `end`), PMN a
    /// `[Name "..."]` tag line (relative numbering, its `Numbering` tag too). `None` when
    /// the content says none of them.
    pub fn of_text(text: &str) -> Option<ConvertFrom> {
        if looks_like_json(text) {
            Some(ConvertFrom::Json)
        } else if ludii_marker(text) {
            Some(ConvertFrom::Ludii)
        } else if relative_mark_line(text).is_some() {
            Some(ConvertFrom::Relative)
        } else if pmn_tag_line(text).is_some() {
            Some(ConvertFrom::Pmn)
        } else {
            None
        }
    }

    /// Why a text is not in this form, when its content says it is in another: JSON or
    /// Ludii's list read as PMN, PMN read as Ludii's list, relative numbering read as
    /// PMN. (JSON's reader refuses any text that is not JSON on its own.)
    fn refuses(self, text: &str) -> Option<InputError> {
        let not = |what: &str, is: ConvertFrom, at: Option<(usize, usize)>| InputError {
            at,
            message: format!(
                "not {what}: the input reads as {} (give --from {})",
                is.describe(),
                is.name()
            ),
        };
        let what = self.describe();
        match self {
            ConvertFrom::Pmn | ConvertFrom::Relative => {
                if looks_like_json(text) {
                    return Some(not(what, ConvertFrom::Json, None));
                }
                if ludii_marker(text) && pmn_tag_line(text).is_none() {
                    return Some(not(what, ConvertFrom::Ludii, None));
                }
                let line = relative_mark_line(text).filter(|_| self == ConvertFrom::Pmn)?;
                Some(not(what, ConvertFrom::Relative, Some((line, 1))))
            }
            ConvertFrom::Ludii => {
                if looks_like_json(text) {
                    return Some(not(what, ConvertFrom::Json, None));
                }
                let line = pmn_tag_line(text)?;
                let is = match relative_mark_line(text) {
                    Some(_) => ConvertFrom::Relative,
                    None => ConvertFrom::Pmn,
                };
                Some(not(what, is, Some((line, 1))))
            }
            ConvertFrom::Json => None,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            ConvertFrom::Pmn => "PMN",
            ConvertFrom::Relative => "PMN in relative numbering",
            ConvertFrom::Ludii => "a Ludii move list",
            ConvertFrom::Json => "JSON",
        }
    }

    /// The extensions (without the dot) of the files a folder is walked for: those
    /// `sow convert --to` writes the form as (`ludii` has no extension of Ludii's own:
    /// Ludii's `.lud` files are rule files, not move lists, so it is named after the
    /// form).
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            ConvertFrom::Pmn | ConvertFrom::Relative => crate::corpus::PMN_EXTENSIONS,
            ConvertFrom::Json => &["json", "jsonl"],
            ConvertFrom::Ludii => &["ludii"],
        }
    }
}

/// Whether a text starts as JSON does: `{`, or `[` followed by what begins a JSON value
/// (a PMN tag line starts `[` and a name).
fn looks_like_json(text: &str) -> bool {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    match text.strip_prefix('[') {
        Some(rest) => rest
            .trim_start()
            .chars()
            .next()
            .is_none_or(|c| matches!(c, '{' | '[' | ']' | '"') || c.is_ascii_digit()),
        None => text.starts_with('{'),
    }
}

/// The line (from 1) of the first PMN tag line, `[Name "`, outside a Ludii comment.
fn pmn_tag_line(text: &str) -> Option<usize> {
    text.lines().position(is_tag_line).map(|i| i + 1)
}

fn is_tag_line(line: &str) -> bool {
    let Some(rest) = line.trim().strip_prefix('[') else {
        return false;
    };
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    name_len > 0 && rest[name_len..].trim_start().starts_with('"')
}

/// The line (from 1) of a `[Numbering "relative"]` tag line, the mark of relative
/// numbering.
fn relative_mark_line(text: &str) -> Option<usize> {
    let mark = |line: &str| {
        let line = line.trim();
        let Some(value) = (line.strip_prefix('['))
            .and_then(|l| l.strip_suffix(']'))
            .and_then(|l| l.trim().strip_prefix(NUMBERING_TAG))
        else {
            return false;
        };
        let value = value.trim().trim_matches('"');
        value.trim().eq_ignore_ascii_case(RELATIVE)
    };
    text.lines().position(mark).map(|i| i + 1)
}

/// Whether a text has a line only a Ludii move list has: its heading, a `//[` tag or a
/// `// end` result.
fn ludii_marker(text: &str) -> bool {
    text.lines().any(|line| {
        let Some(comment) = line.strip_prefix("//") else {
            return false;
        };
        let comment = comment.trim_start();
        comment.starts_with("Ludii move list")
            || (comment.starts_with('[') && is_tag_line(comment))
            || comment
                .strip_prefix("end")
                .is_some_and(|r| r.starts_with(' '))
    })
}

/// The extensions of every form read, for a folder walked without `--from`.
pub const EXTENSIONS: &[&str] = &["pmn", "json", "jsonl", "ludii"];

/// The form a conversion reads and the form it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forms {
    /// The form read; `None`: each input's own, told by its extension, else by its
    /// content ([`ConvertFrom::of_name`], [`ConvertFrom::of_text`]).
    pub from: Option<ConvertFrom>,
    pub to: ConvertTo,
    /// Keep a game with errors, in a form that fails where the input fails, instead of
    /// leaving it out.
    pub keep_broken: bool,
}

impl ConvertTo {
    /// The form's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ConvertTo::Pmn => "pmn",
            ConvertTo::Json => "json",
            ConvertTo::Jsonl => "jsonl",
            ConvertTo::Csv => "csv",
            ConvertTo::Long => "long",
            ConvertTo::Relative => "relative",
            ConvertTo::Ludii => "ludii",
        }
    }
}

/// Runs `sow convert`: walks the inputs with the corpus driver ([`corpus::drive`]),
/// converts every game the filter accepts in parallel, and writes the output to `out` in
/// input order as it goes: PMN and relative numbering in batches of games (memory holds
/// a few batches, their conversions and what is said of them), Ludii's and the JSON
/// form an input a piece, read whole. Each game that did not convert whole is named to
/// `notes` as its batch is written, in input order. An input
/// that cannot be opened, read or parsed in the `from` form is reported to `notes`, the
/// other inputs are still read (to report every one that fails), and the run fails: the
/// caller then discards what was written (see [`crate::output::stream_whole_output`]),
/// so that nothing is written. `out_name` names the output in messages. Returns how many
/// games with errors were left out of the output (each named to `notes`).
pub fn run(
    inputs: &[Input],
    filter: &Filter,
    replay: &ReplayOptions,
    forms: Forms,
    out: &mut dyn io::Write,
    out_name: &Path,
    notes: &mut dyn FnMut(String),
) -> Result<usize, CommandError> {
    let Forms { from, to, .. } = forms;
    // Each input's form, when its name says it (or `--from` does).
    let named: Vec<Option<ConvertFrom>> = (inputs.iter())
        .map(|i| from.or_else(|| ConvertFrom::of_name(i)))
        .collect();
    // PMN of one form throughout is read a game at a time; other inputs whole.
    let streamed = match named.first() {
        Some(&Some(f)) if named.iter().all(|n| *n == Some(f)) => {
            matches!(f, ConvertFrom::Pmn | ConvertFrom::Relative).then_some(f)
        }
        None => Some(ConvertFrom::Pmn),
        _ => None,
    };
    let mut writer = OutputWriter::new(to, out, out_name)?;
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    // Once an input has failed, nothing will be written: the games left are only read,
    // for the failures of their inputs, and not converted.
    let stopped = AtomicBool::new(false);
    // Positions and laps are kept only for the forms that write them: a long game's
    // trace is then a few words a ply.
    let writes_positions = matches!(to, ConvertTo::Json | ConvertTo::Jsonl | ConvertTo::Long);
    let output_replay = &ReplayOptions {
        keep_positions: replay.keep_positions && writes_positions,
        keep_laps: replay.keep_laps && writes_positions,
        ..replay.clone()
    };
    let convert = |input: usize, index: usize, parsed: ParsedGame, from| -> Converted {
        if stopped.load(Ordering::Relaxed) {
            return Converted::default();
        }
        let forms = Forms {
            from: Some(from),
            ..forms
        };
        convert_one(&names[input], index, parsed, filter, output_replay, forms)
    };
    let mut failed = 0;
    let mut left_out = 0;
    // What is said of each game goes out as its batch is written: memory holds no
    // more notes than a batch gives. Once the run has failed, only the failures of the
    // inputs left are said.
    let mut sink = |input: usize, piece: Piece| -> Result<(), CommandError> {
        match piece {
            Piece::Failed(e) => {
                notes(e.describe(&names[input]));
                failed += 1;
                stopped.store(true, Ordering::Relaxed);
            }
            Piece::Games(games) if failed == 0 => {
                for game in games {
                    game.notes.into_iter().for_each(&mut *notes);
                    left_out += game.left_out;
                    if let Some(output) = game.output {
                        writer.write(output)?;
                    }
                }
            }
            Piece::Games(_) => {}
        }
        Ok(())
    };
    if let Some(from) = streamed {
        // A game at a time: memory holds a batch of games and their conversions.
        let game = |work: Work| -> Piece {
            let (input, index, text) = match work {
                Work::Unreadable { error, .. } => return Piece::Failed(InputError::from(error)),
                Work::Game { input, index, game } => (input, index, game),
            };
            // The reader ends with a game holding an `io` problem when reading failed.
            if let Some(p) = text.io_error() {
                return Piece::Failed(InputError {
                    at: Some((p.span.line as usize, p.span.column as usize)),
                    message: p.message.clone(),
                });
            }
            // Once the run has failed, the games are not even parsed.
            if stopped.load(Ordering::Relaxed) {
                return Piece::Games(Vec::new());
            }
            let parsed = match from {
                ConvertFrom::Relative => from_relative(text, replay),
                _ => text.parse(),
            };
            // Text of another form, read as PMN: told at the input's first game.
            let refused = (index == 1).then(|| from.refuses(&parsed.text)).flatten();
            if let Some(e) = refused {
                return Piece::Failed(e);
            }
            Piece::Games(vec![convert(input, index, parsed, from)])
        };
        corpus::drive(
            Batches::new(inputs, replay.max_game_bytes),
            game,
            &mut sink,
            |_| {},
        )?;
    } else {
        // An input at a time: its text is read whole.
        let whole = |input: usize| -> Piece {
            let mut read_notes = Vec::new();
            let mut games = Vec::new();
            let read = read_input(
                &inputs[input],
                named[input],
                replay,
                &mut read_notes,
                &mut |i, parsed, form| {
                    games.push(convert(input, i + 1, parsed, form));
                    Ok(())
                },
            );
            match read {
                Err(e) => Piece::Failed(e),
                Ok(()) => {
                    // What the reading said goes first, as before the games.
                    let read = Converted {
                        notes: read_notes,
                        ..Converted::default()
                    };
                    games.insert(0, read);
                    Piece::Games(games)
                }
            }
        };
        corpus::drive(WholeInputs::new(inputs), whole, &mut sink, |_| {})?;
    }
    if failed > 0 {
        return Err(CommandError::Unreadable(failed));
    }
    writer.finish()?;
    Ok(left_out)
}

/// What the work on a piece of the inputs gives: games converted (a game of PMN, or an
/// input's games in Ludii's or the JSON form), or why their input could not be read.
enum Piece {
    Games(Vec<Converted>),
    Failed(InputError),
}

/// A game in the output's form (`None` for a game not written: a file with no game, or
/// a game the filter leaves out), and what to say of it.
#[derive(Default)]
struct Converted {
    notes: Vec<String>,
    output: Option<Rendered>,
    /// 1 for a game with errors left out of the output, else 0.
    left_out: usize,
}

/// A game written in the output's form.
enum Rendered {
    Text(String),
    Rows(Vec<[String; 11]>),
}

/// Converts a game read, `index` of its input `name`, if the filter accepts it, into the
/// form `to`. A game with errors is left out and said to be, unless it is kept broken
/// ([`Forms::keep_broken`]) in a form that can hold it so.
fn convert_one(
    name: &str,
    index: usize,
    parsed: ParsedGame,
    filter: &Filter,
    replay: &ReplayOptions,
    forms: Forms,
) -> Converted {
    // A file with no game (its `empty-file` warning). Text that reads as nothing
    // because it broke at once is a game, kept verbatim.
    if parsed.is_no_game() {
        return Converted {
            notes: parsed
                .problems
                .iter()
                .map(|p| format!("{name}:{p}"))
                .collect(),
            ..Converted::default()
        };
    }
    if !filter.accepts(&parsed.record) {
        return Converted::default();
    }
    // What the reading changed of the text (bytes read as Latin-1 or replaced, NUL
    // bytes read as spaces) is said, as PMN.md asks, since the output holds it so.
    let altered = |p: &&Problem| matches!(p.code, ProblemCode::Encoding | ProblemCode::NulByte);
    let mut notes: Vec<String> = (parsed.problems.iter())
        .filter(altered)
        .map(|p| format!("{name}:{p}"))
        .collect();
    let conversion = convert_game(name, index, &parsed, replay);
    if conversion.trace.is_valid() {
        notes.extend(conversion.kept_summary());
        return Converted {
            notes,
            output: Some(render(forms.to, &conversion)),
            ..Converted::default()
        };
    }
    let error = broken_summary(&parsed, &conversion);
    let kept = forms
        .keep_broken
        .then(|| keep_broken(name, index, &parsed, replay, forms));
    match kept.flatten() {
        Some(output) => {
            notes.push(format!("{error}; kept (--keep-broken)"));
            Converted {
                notes,
                output: Some(output),
                left_out: 0,
            }
        }
        None => {
            let why = if forms.keep_broken {
                format!(
                    "left out: {} cannot hold it failing at the same place",
                    forms.to.name()
                )
            } else {
                "left out (--keep-broken keeps it)".to_string()
            };
            notes.push(format!("{error}; {why}"));
            Converted {
                notes,
                output: None,
                left_out: 1,
            }
        }
    }
}

/// `FILE:LINE:COL: game K: error[CODE]: message` for a game with errors, at its first
/// error.
fn broken_summary(parsed: &ParsedGame, c: &Conversion) -> String {
    let cause = replay_cause(parsed, &c.trace);
    format!(
        "{}:{}:{}: game {}: error[{}]: {}",
        c.file, cause.line, cause.column, c.game, cause.code, cause.message
    )
}

/// A game with errors, read in the form `from`, in the form `to`, failing where it fails
/// as read: every ply
/// written stays a ply when the reader read the whole game; PMN read from PMN or JSON
/// that the reader stopped in is written as the game's text, verbatim. Long text and CSV,
/// which are not read back, hold the game as far as it replays and the rest as text.
/// `None` when the form cannot hold the game failing (Ludii's list holds the plies
/// replayed only).
fn keep_broken(
    name: &str,
    index: usize,
    parsed: &ParsedGame,
    replay: &ReplayOptions,
    Forms { from, to, .. }: Forms,
) -> Option<Rendered> {
    match to {
        ConvertTo::Pmn | ConvertTo::Relative | ConvertTo::Json | ConvertTo::Jsonl => {
            if let Some(c) = convert_broken_game(name, index, parsed, replay) {
                let rendered = render(to, &c);
                // A ply that names no pit of its seat (another seat's pit, a pit off the
                // board) has no seat-relative number: such a game cannot fail alike.
                if to == ConvertTo::Relative && !relative_fails_alike(&rendered, &c.trace, replay) {
                    return None;
                }
                return Some(rendered);
            }
            let pmn_text = matches!(from, Some(ConvertFrom::Pmn | ConvertFrom::Json));
            if to == ConvertTo::Pmn && pmn_text {
                let mut text = parsed.text.trim_matches(is_space).to_string();
                text.push('\n');
                return Some(Rendered::Text(text));
            }
            None
        }
        ConvertTo::Long | ConvertTo::Csv => {
            Some(render(to, &convert_game(name, index, parsed, replay)))
        }
        ConvertTo::Ludii => None,
    }
}

/// Whether the relative text of a broken game, read back, fails where `trace` does: at
/// the same ply with the same code.
fn relative_fails_alike(rendered: &Rendered, trace: &Trace, options: &ReplayOptions) -> bool {
    let Rendered::Text(text) = rendered else {
        return false;
    };
    let Some(game) = crate::pmn::Reader::new(text.as_bytes()).next_text() else {
        return false;
    };
    let back = replay(&from_relative(game, options), options);
    let first = |t: &Trace| t.first_error().map(|d| (d.ply, d.code));
    first(&back) == first(trace)
}

/// Why an input could not be read: where in it (line and column, for a parse error),
/// and what.
#[derive(Debug)]
pub struct InputError {
    at: Option<(usize, usize)>,
    message: String,
}

impl InputError {
    fn describe(&self, name: &str) -> String {
        match self.at {
            Some((line, column)) => format!("{name}:{line}:{column}: {}", self.message),
            None => format!("{name}: {}", self.message),
        }
    }
}

impl From<io::Error> for InputError {
    fn from(e: io::Error) -> InputError {
        InputError {
            at: None,
            message: format!("the input could not be read: {e}"),
        }
    }
}

/// The games of an input in Ludii's or the JSON form, turned into PMN games and given
/// to `game` one at a time with their index (from 0; a JSON record's own, empty records
/// counted), with what to say of the input in `notes`. The text is read whole (its
/// decoding, and JSON's check of its bytes, need all of it), not its games.
fn read_input(
    input: &Input,
    from: Option<ConvertFrom>,
    options: &ReplayOptions,
    notes: &mut Vec<String>,
    game: &mut dyn FnMut(usize, ParsedGame, ConvertFrom) -> Result<(), InputError>,
) -> Result<(), InputError> {
    // Read whole, the input is one game's text as far as the limit goes: binary data
    // and an endless input are refused in bounded memory.
    let limit = options.max_game_bytes.unwrap_or(reader::MAX_GAME_BYTES);
    let mut bytes = Vec::new();
    let mut opened = input.open().map_err(InputError::from)?;
    (&mut opened)
        .take(reader::SNIFF_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(InputError::from)?;
    if let Some(why) = reader::not_text(&bytes) {
        return Err(InputError::from(io::Error::new(
            io::ErrorKind::InvalidData,
            why,
        )));
    }
    opened
        .take((limit as u64 + 1).saturating_sub(bytes.len() as u64))
        .read_to_end(&mut bytes)
        .map_err(InputError::from)?;
    if bytes.len() > limit {
        return Err(InputError {
            at: None,
            message: format!(
                "the input, read whole in this form, is longer than {} of text, the limit of one game; it is not read (--max-game-size raises the limit)",
                reader::size_in_words(limit)
            ),
        });
    }
    // JSON is told by its bytes (UTF-8 only); the other forms by their decoded text.
    let text = || decode::decode(&bytes).0;
    let from = match from {
        Some(from) => from,
        None => ConvertFrom::of_text(&text()).ok_or_else(|| InputError {
            at: None,
            message: "the input's form could not be told from its name or its content (no JSON, no Ludii move list, no PMN tag line): give --from".into(),
        })?,
    };
    if from != ConvertFrom::Json {
        if let Some(e) = from.refuses(&text()) {
            return Err(e);
        }
    }
    match from {
        ConvertFrom::Ludii => {
            // Decoded as PMN files are (a byte-order mark, UTF-16, Latin-1 for lines that
            // are not UTF-8): tags and comments are kept verbatim, so no byte may be
            // replaced.
            let (text, encoding, latin1) = decode::decode(&bytes);
            if latin1 {
                let body = &bytes[encoding.bom_len()..];
                let bad = std::str::from_utf8(body)
                    .err()
                    .map_or(body.len(), |e| e.valid_up_to());
                let before = &body[..bad];
                let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
                let line_start = before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                // The whole line is read as Latin-1, a character a byte (as the reader
                // counts such a line's columns).
                let column = 1 + bad - line_start;
                notes.push(format!(
                    "{}:{line}:{column}: warning: byte {:#04x} is not UTF-8; lines that are not UTF-8 are read as Latin-1",
                    input.name(),
                    body.get(bad).copied().unwrap_or_default()
                ));
            }
            let mut index = 0;
            each_ludii_game(&text, options, &mut |parsed| {
                index += 1;
                game(index - 1, parsed, from)
            })?;
            if index == 0 {
                notes.push(no_game(input));
            }
            Ok(())
        }
        ConvertFrom::Json => {
            // JSON is UTF-8; other bytes would be replaced, and the records altered.
            let text = String::from_utf8(bytes).map_err(|e| {
                let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let valid = std::str::from_utf8(valid).unwrap_or_default();
                InputError {
                    at: Some((
                        1 + valid.matches('\n').count(),
                        1 + valid.rsplit('\n').next().unwrap_or("").chars().count(),
                    )),
                    message: "not JSON: a byte that is not UTF-8".into(),
                }
            })?;
            // A byte-order mark, which JSON does not have, but editors write.
            let json = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let mut games = 0;
            each_json_game(json, &mut |index, parsed| {
                games += 1;
                game(index, parsed, from)
            })?;
            if games == 0 {
                notes.push(no_game(input));
            }
            Ok(())
        }
        // An input whose form was told by its content: read whole.
        ConvertFrom::Pmn | ConvertFrom::Relative => {
            let games = match from {
                ConvertFrom::Relative => read_relative(&bytes, options),
                _ => pmn::parse_bytes(&bytes),
            };
            for (index, parsed) in games.into_iter().enumerate() {
                game(index, parsed, from)?;
            }
            Ok(())
        }
    }
}

/// What is said of an input of Ludii's or the JSON form that holds no game, as of a PMN
/// file.
fn no_game(input: &Input) -> String {
    format!(
        "{}: warning[empty-file]: the file holds no game",
        input.name()
    )
}

/// serde_json's message without the place it appends (given apart here).
fn json_error_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&place) {
        Some(message) => message.to_string(),
        None => text,
    }
}

/// Reads records in JSON form as PMN games: a JSON array of records (`--to json`), one
/// record a line (`--to jsonl`), or one record. Extra keys (`source`, `replay`) are
/// ignored: the record alone is read, written as PMN and read again. A record with no
/// tag, move or result holds nothing and is no game. What is reported of a game is
/// placed where its record begins in the text.
pub fn read_json(text: &str) -> Result<Vec<ParsedGame>, InputError> {
    let mut games = Vec::new();
    each_json_game(text, &mut |_, game| {
        games.push(game);
        Ok::<_, InputError>(())
    })?;
    Ok(games)
}

/// [`read_json`], giving each game to `game` as soon as its record is read, with the
/// record's index (from 0): memory holds the text and one record, not all of them.
fn each_json_game<E: From<InputError>>(
    text: &str,
    game: &mut dyn FnMut(usize, ParsedGame) -> Result<(), E>,
) -> Result<(), E> {
    let mut index = 0;
    each_json_record(text, &mut |record, (line, column)| {
        index += 1;
        if record.tags.is_empty() && record.moves.is_empty() && record.result.is_none() {
            return Ok(());
        }
        // A record PMN cannot express (a line break in a tag value, a `}` in a brace
        // comment) would be read back as something else: refused, not cut short. What
        // PMN can express writes the same once read back.
        let text = pmn::write_game(&record);
        let Some(mut parsed) = pmn::parse_str(&text).into_iter().next() else {
            return Ok(());
        };
        if pmn::write_game(&parsed.record) != text {
            let why = parsed.problems.iter().find(|p| p.is_error()).map_or_else(
                || "it reads back as another record".to_string(),
                |p| p.message.clone(),
            );
            return Err(E::from(InputError {
                at: Some((line, column)),
                message: format!(
                    "record {index} cannot be written as PMN without loss (a line break in a tag value, or a closing brace in a brace comment?): {why}"
                ),
            }));
        }
        // The PMN text is the program's, not the file's: what is said of the game is
        // said at its record.
        let (line, column) = (line as u32, column as u32);
        let place = |span: &mut Span| {
            span.line = line;
            span.column = column;
        };
        parsed.record.for_each_span_mut(place);
        parsed.problems.iter_mut().for_each(|p| place(&mut p.span));
        parsed.line = line;
        game(index - 1, parsed)
    })
}

/// Calls `record` with each record of a JSON text, in order, and the line and column
/// where it begins: the elements of an array, or records one after another.
fn each_json_record<E: From<InputError>>(
    text: &str,
    record: &mut dyn FnMut(Record, (usize, usize)) -> Result<(), E>,
) -> Result<(), E> {
    let mut at = JsonPlace {
        text,
        at: 0,
        line: 1,
        column: 1,
    };
    if let Some(too_deep) = deepest(text, MAX_JSON_NESTING) {
        at.advance_to(too_deep);
        return Err(at
            .error(&format!(
                "nested more than {MAX_JSON_NESTING} deep (PMN's variations nest {} deep at most)",
                crate::pmn::parse::MAX_NESTING
            ))
            .into());
    }
    at.skip_whitespace();
    let array = text[at.at..].starts_with('[');
    if array {
        at.advance_to(at.at + 1);
        at.skip_whitespace();
        if text[at.at..].starts_with(']') {
            at.advance_to(at.at + 1);
        } else if at.at == text.len() {
            return Err(at.end_error("EOF while parsing a list").into());
        } else {
            loop {
                at.skip_whitespace();
                if text[at.at..].starts_with(']') {
                    return Err(at.error("trailing comma").into());
                }
                at.record(record)?;
                at.skip_whitespace();
                match text[at.at..].chars().next() {
                    Some(',') => at.advance_to(at.at + 1),
                    Some(']') => {
                        at.advance_to(at.at + 1);
                        break;
                    }
                    Some(_) => return Err(at.error("expected `,` or `]`").into()),
                    None => return Err(at.end_error("EOF while parsing a list").into()),
                }
            }
        }
        at.skip_whitespace();
        if at.at < text.len() {
            return Err(at.error("trailing characters").into());
        }
        return Ok(());
    }
    while at.at < text.len() {
        at.record(record)?;
        at.skip_whitespace();
    }
    Ok(())
}

/// How deep a JSON text of records may nest: a record's own levels and two for each
/// variation, 256 deep, with room to spare. Deeper text is refused before it is read,
/// so that reading it cannot run out of stack.
const MAX_JSON_NESTING: usize = 2 * crate::pmn::parse::MAX_NESTING + 64;

/// The offset of the first `[` or `{` of `text` (outside strings) that is more than
/// `most` deep, if any.
fn deepest(text: &str, most: usize) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > most {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// A place in a JSON text being walked, with its line and column (counted as the walk
/// goes).
struct JsonPlace<'t> {
    text: &'t str,
    at: usize,
    line: usize,
    /// The column of `at`, in characters from 1.
    column: usize,
}

impl JsonPlace<'_> {
    fn advance_to(&mut self, to: usize) {
        let passed = &self.text.as_bytes()[self.at..to];
        // Characters are counted as passed, not from the line's start at each record,
        // which would be quadratic in the records of an array written on one line.
        let chars = |bytes: &[u8]| bytes.iter().filter(|&&b| (b as i8) >= -0x40).count();
        if let Some(last) = memchr::memrchr(b'\n', passed) {
            self.line += memchr::memchr_iter(b'\n', passed).count();
            self.column = 1 + chars(&passed[last + 1..]);
        } else {
            self.column += chars(passed);
        }
        self.at = to;
    }

    /// Passes JSON's whitespace.
    fn skip_whitespace(&mut self) {
        let rest = &self.text[self.at..];
        let left = rest.trim_start_matches([' ', '\t', '\n', '\r']).len();
        self.advance_to(self.at + rest.len() - left);
    }

    /// Reads the record that begins here, gives it to `record`, and moves past it.
    fn record<E: From<InputError>>(
        &mut self,
        record: &mut dyn FnMut(Record, (usize, usize)) -> Result<(), E>,
    ) -> Result<(), E> {
        // serde_json's own bound on nesting (128) is below what PMN's variations reach
        // (two levels a variation, 256 variations deep): `sow`'s own JSON of a record
        // nested 62 deep could not be read back with it. The text's nesting is bounded
        // before any record is read (`deepest`).
        let mut de = serde_json::Deserializer::from_str(&self.text[self.at..]);
        de.disable_recursion_limit();
        let mut one = de.into_iter();
        match one.next() {
            Some(Ok(read)) => {
                let end = self.at + one.byte_offset();
                record(read, (self.line, self.column))?;
                self.advance_to(end);
                Ok(())
            }
            Some(Err(e)) => Err(self.serde_error(&e).into()),
            None => Err(self.end_error("EOF while parsing a value").into()),
        }
    }

    /// `message` about the text here.
    fn error(&self, message: &str) -> InputError {
        InputError {
            at: Some((self.line, self.column)),
            message: format!("not JSON records: {message}"),
        }
    }

    /// `message` about the end of the text, here: placed as serde places it, at the
    /// last character (column 0 of the line after a last line break).
    fn end_error(&self, message: &str) -> InputError {
        let mut error = self.error(message);
        error.at = Some((self.line, self.column - 1));
        error
    }

    /// serde's error in the text from here, placed in the whole text.
    fn serde_error(&self, e: &serde_json::Error) -> InputError {
        // serde counts the column in bytes; a column here is in characters, as the
        // reader counts them.
        let rest = &self.text[self.at..];
        let (line_start, column) = match e.line() {
            0 | 1 => (0, self.column),
            n => {
                let breaks = memchr::memchr_iter(b'\n', rest.as_bytes()).nth(n - 2);
                (breaks.map_or(rest.len(), |i| i + 1), 1)
            }
        };
        let end = floor_char_boundary(rest, line_start + e.column().saturating_sub(1));
        let chars = rest.get(line_start..end).map_or(0, |t| t.chars().count());
        let at = (e.line() > 0).then_some((self.line + e.line().max(1) - 1, column + chars));
        InputError {
            at,
            message: format!("not JSON records: {}", json_error_message(e)),
        }
    }
}

/// Reads records in relative numbering (docs/relative.md) as PMN games.
pub fn read_relative(bytes: &[u8], options: &ReplayOptions) -> Vec<ParsedGame> {
    let mut reader = pmn::Reader::new(bytes);
    std::iter::from_fn(|| reader.next_text())
        .map(|text| from_relative(text, options))
        .collect()
}

/// One game of [`read_relative`]: its plies' numbers read as the pits they name.
fn from_relative(text: GameText, options: &ReplayOptions) -> ParsedGame {
    let decoding = text.problems().to_vec();
    let parsed = text.parse();
    let Ok(rules) = rules_of(&parsed.record, &options.overrides) else {
        return parsed;
    };
    let mut game = read_numbered(parsed, decoding, &rules, Numbering::Relative);
    // The mark no longer says how the record is numbered: it goes, from the text too
    // (blanked, so that spans stay in place), or the text would hold a tag the record
    // does not. A Numbering tag of another value is the transcriber's, and stays.
    for tag in game.record.tags.iter().filter(|t| is_relative_mark(t)) {
        let at = tag.span.start.checked_sub(game.offset);
        let len = tag.span.end.saturating_sub(tag.span.start);
        if let Some(at) = at.filter(|&a| game.text.get(a..a + len).is_some()) {
            game.text.replace_range(at..at + len, &" ".repeat(len));
        }
    }
    // The mark is not a tag of the record: neither it nor the transcriber's Numbering
    // tag after it is a duplicate.
    let mut not_duplicates: Vec<usize> = (game.record.tags.iter())
        .filter(|t| is_relative_mark(t))
        .map(|t| t.span.start)
        .collect();
    game.record.tags.retain(|t| !is_relative_mark(t));
    if !not_duplicates.is_empty() {
        let first_own = (game.record.tags.iter()).find(|t| t.name == NUMBERING_TAG);
        not_duplicates.extend(first_own.map(|t| t.span.start));
        let duplicate = |p: &Problem| p.code == ProblemCode::DuplicateTag;
        (game.problems).retain(|p| !(duplicate(p) && not_duplicates.contains(&p.span.start)));
    }
    game
}

/// A game whose plies name pits by numbers `from` (relative or Ludii), `parsed` as
/// PMN (for its tags, which gave `rules`), read again with its plies' numbers read as
/// the pits they name under `rules`.
///
/// The game holds the text as written, and its spans point there: what is reported of
/// it is at the numbers written, and what its record does not hold is kept as
/// written, numbers and all. `decoding` are the problems of the text's decoding.
fn read_numbered(
    parsed: ParsedGame,
    decoding: Vec<Problem>,
    rules: &Rules,
    from: Numbering,
) -> ParsedGame {
    let numbers = numbering::PitNumbers::new(rules, from);
    let (record, mut problems) =
        pmn::parse::parse_numbered_game(&parsed.text, parsed.offset, parsed.line, Some(&numbers));
    problems.extend(decoding);
    problems.sort_by_key(|p| p.span.start);
    ParsedGame {
        record,
        problems,
        text: parsed.text,
        offset: parsed.offset,
        line: parsed.line,
    }
}

/// The last character boundary of `text` at or before `at`.
fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// 0 when South plays the first ply, 1 when North does.
fn first_index(record: &Record) -> u64 {
    match record.first_side() {
        pmn::Side::South => 0,
        pmn::Side::North => 1,
    }
}

/// A piece of a line of a Ludii move list: its text, and where it starts in the file.
#[derive(Clone, Debug)]
struct LudiiText {
    text: String,
    line: u32,
    column: u32,
}

impl LudiiText {
    /// `part`, a slice of the `line`-th line of the file, `text`.
    fn of(part: &str, text: &str, line: u32) -> LudiiText {
        let at = (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
        let before = text.get(..at).unwrap_or_default();
        LudiiText {
            text: part.to_string(),
            line,
            column: 1 + before.chars().count() as u32,
        }
    }
}

/// A game of a Ludii move list being read.
#[derive(Default)]
struct LudiiGame {
    tags: Vec<LudiiText>,
    plies: Vec<LudiiText>,
    comments: Vec<(usize, LudiiText)>,
    end: Option<LudiiText>,
    /// The last line of the file that is the game's, and its length in characters: a
    /// result the list does not write is put at its end.
    last: (u32, u32),
}

/// Where a line of the PMN text made of a Ludii game was in the file.
struct LudiiOrigin {
    /// Byte offset of the line in the PMN text.
    start: usize,
    /// The line's text as the file has it, and where it starts there.
    read: LudiiText,
}

impl LudiiGame {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.plies.is_empty() && self.comments.is_empty()
    }

    fn has_moves(&self) -> bool {
        !self.plies.is_empty() || !self.comments.is_empty() || self.end.is_some()
    }

    /// The game as PMN text whose plies name pits by Ludii's sites, with where each of
    /// its lines was in the file.
    fn to_pmn(&self) -> (String, Vec<LudiiOrigin>) {
        let mut text = String::new();
        let mut origins = Vec::new();
        for tag in &self.tags {
            origins.push(LudiiOrigin {
                start: text.len(),
                read: tag.clone(),
            });
            text.push_str(&tag.text);
            text.push('\n');
        }
        // The blank line after the tags holds nothing to place.
        text.push('\n');
        let mut push = |line: &str, read: &LudiiText| {
            origins.push(LudiiOrigin {
                start: text.len(),
                read: read.clone(),
            });
            text.push_str(line);
            text.push('\n');
        };
        let mut comments = self.comments.iter().peekable();
        for (i, ply) in self.plies.iter().enumerate() {
            while let Some((_, c)) = comments.next_if(|(at, _)| *at <= i) {
                push(&c.text, c);
            }
            push(&ply.text, ply);
        }
        for (_, c) in comments {
            push(&c.text, c);
        }
        let end = self.end.clone().unwrap_or_else(|| LudiiText {
            text: "*".into(),
            line: self.last.0,
            column: 1 + self.last.1,
        });
        push(&end.text, &end);
        (text, origins)
    }

    /// The game, read as PMN, its spans placed in the file: their lines and columns
    /// are those of the list as written (their byte offsets, the PMN text's).
    ///
    /// Its PMN text is one game, unless a line of the list begins with `[` (a tag line
    /// written without `//`): the PMN reader begins a game there, and each game it reads
    /// is given, so that nothing of the list is passed over unsaid.
    fn read(&self, options: &ReplayOptions) -> Vec<ParsedGame> {
        let (text, origins) = self.to_pmn();
        let place = |span: &mut Span| {
            let Some(o) = (origins.partition_point(|o| o.start <= span.start))
                .checked_sub(1)
                .map(|i| &origins[i])
            else {
                return;
            };
            let within = span.start - o.start;
            let read = &o.read;
            let before = read.text.get(..within.min(read.text.len()));
            span.line = read.line;
            span.column = read.column + before.map_or(0, |b| b.chars().count() as u32);
        };
        // The sites are read by the rules of the list's own header, in every game of
        // the PMN text.
        let tags: String = self.tags.iter().map(|t| format!("{}\n", t.text)).collect();
        let head = pmn::parse_str(&format!("{tags}\n*\n"));
        let record = head.first().map(|g| g.record.clone()).unwrap_or_default();
        let rules = rules_of(&record, &options.overrides).ok();
        let mut reader = pmn::Reader::new(text.as_bytes());
        let mut games: Vec<ParsedGame> = std::iter::from_fn(|| reader.next_text())
            .map(|game| {
                let decoding = game.problems().to_vec();
                let parsed = game.parse();
                match &rules {
                    Some(rules) => read_numbered(parsed, decoding, rules, Numbering::Ludii),
                    None => parsed,
                }
            })
            .collect();
        for game in &mut games {
            game.record.for_each_span_mut(place);
            game.problems.iter_mut().for_each(|p| place(&mut p.span));
            let mut first = Span {
                start: game.offset,
                ..Span::default()
            };
            place(&mut first);
            game.line = first.line;
        }
        games
    }
}

/// Reads a Ludii move list (docs/ludii.md) as PMN games. What is reported of a game
/// points at the list: its lines, and in them the columns, of the sites written.
pub fn read_ludii(text: &str, options: &ReplayOptions) -> Vec<ParsedGame> {
    let mut games = Vec::new();
    let read = each_ludii_game(text, options, &mut |game| {
        games.push(game);
        Ok::<_, InputError>(())
    });
    debug_assert!(read.is_ok(), "the games are only gathered");
    games
}

/// [`read_ludii`], giving each game to `game` as soon as it is read.
fn each_ludii_game<E>(
    text: &str,
    options: &ReplayOptions,
    game: &mut dyn FnMut(ParsedGame) -> Result<(), E>,
) -> Result<(), E> {
    let mut current = LudiiGame::default();
    let mut flush = |g: &mut LudiiGame| {
        let read = if g.is_empty() {
            Vec::new()
        } else {
            g.read(options)
        };
        *g = LudiiGame::default();
        read.into_iter().try_for_each(&mut *game)
    };
    for (number, line) in text.lines().enumerate() {
        let number = number as u32 + 1;
        let line = line.trim_end_matches('\r');
        let piece = |part: &str| LudiiText::of(part, line, number);
        if let Some(comment) = line.strip_prefix("//") {
            if comment.trim_start().starts_with('[') {
                if current.has_moves() {
                    flush(&mut current)?;
                }
                current.tags.push(piece(comment.trim_start()));
            } else if comment.starts_with('{') || comment.starts_with(';') {
                current.comments.push((current.plies.len(), piece(comment)));
            } else if let Some(result) = (comment.trim().strip_prefix("end"))
                .filter(|rest| rest.starts_with(char::is_whitespace))
            {
                // The result ends the game: what follows is another's.
                current.end = Some(piece(result.trim()));
                flush(&mut current)?;
            } else {
                continue;
            }
            current.last = (number, line.chars().count() as u32);
            continue;
        }
        let ply = line.trim();
        if !ply.is_empty() {
            current.plies.push(piece(ply));
            current.last = (number, line.chars().count() as u32);
        } else if current.has_moves() {
            // Games are separated by a blank line (docs/ludii.md).
            flush(&mut current)?;
        }
    }
    flush(&mut current)
}

/// Writes the output of one run, a game at a time.
struct OutputWriter<'a> {
    sink: Sink<'a>,
    games: usize,
    /// What the output is called in messages (a file, or `<stdout>`).
    name: &'a Path,
}

/// Where a run's output goes, in which form.
enum Sink<'a> {
    /// Games one after the other, a blank line between two: PMN, relative, Ludii, long.
    Games(&'a mut dyn io::Write),
    /// A JSON array of records.
    JsonArray(&'a mut dyn io::Write),
    /// A JSON record a line.
    JsonLines(&'a mut dyn io::Write),
    // Boxed: the writer keeps its buffer's state inline, some 370 bytes.
    Csv(Box<csv::Writer<&'a mut dyn io::Write>>),
}

/// A game in the form `to`: made where the game is converted, written in input order.
fn render(to: ConvertTo, c: &Conversion) -> Rendered {
    Rendered::Text(match to {
        ConvertTo::Pmn => to_pmn(c),
        ConvertTo::Relative => to_relative(c),
        ConvertTo::Ludii => to_ludii(c),
        ConvertTo::Long => to_long(c),
        ConvertTo::Json => to_json(c, true),
        ConvertTo::Jsonl => to_json(c, false),
        ConvertTo::Csv => return Rendered::Rows(csv_rows(c)),
    })
}

impl<'a> OutputWriter<'a> {
    fn new(
        to: ConvertTo,
        out: &'a mut dyn io::Write,
        name: &'a Path,
    ) -> Result<OutputWriter<'a>, CommandError> {
        let sink = match to {
            ConvertTo::Pmn | ConvertTo::Relative | ConvertTo::Ludii | ConvertTo::Long => {
                Sink::Games(out)
            }
            ConvertTo::Json => Sink::JsonArray(out),
            ConvertTo::Jsonl => Sink::JsonLines(out),
            ConvertTo::Csv => {
                let mut w = csv::Writer::from_writer(out);
                w.write_record(CSV_HEADER).map_err(|e| csv_error(e, name))?;
                Sink::Csv(Box::new(w))
            }
        };
        Ok(OutputWriter {
            sink,
            games: 0,
            name,
        })
    }

    /// Writes a game [`render`]ed in the writer's form.
    fn write(&mut self, game: Rendered) -> Result<(), CommandError> {
        let first = self.games == 0;
        self.games += 1;
        let name = self.name;
        let (out, before, text, after) = match (&mut self.sink, game) {
            (Sink::Csv(w), Rendered::Rows(rows)) => {
                for row in rows {
                    w.write_record(&row).map_err(|e| csv_error(e, name))?;
                }
                return Ok(());
            }
            (Sink::Games(out), Rendered::Text(text)) => {
                (out, if first { "" } else { "\n" }, text, "")
            }
            (Sink::JsonArray(out), Rendered::Text(text)) => {
                (out, if first { "[\n" } else { ",\n" }, text, "")
            }
            (Sink::JsonLines(out), Rendered::Text(text)) => (out, "", text, "\n"),
            _ => unreachable!("a game is rendered in the writer's own form"),
        };
        (|| {
            out.write_all(before.as_bytes())?;
            out.write_all(text.as_bytes())?;
            out.write_all(after.as_bytes())
        })()
        .map_err(|e| CommandError::io(name, e))
    }

    fn finish(self) -> Result<(), CommandError> {
        let name = self.name;
        match self.sink {
            Sink::JsonArray(out) => {
                let end = if self.games == 0 { "[]\n" } else { "\n]\n" };
                out.write_all(end.as_bytes())
                    .map_err(|e| CommandError::io(name, e))
            }
            Sink::Games(_) | Sink::JsonLines(_) => Ok(()),
            Sink::Csv(mut w) => w.flush().map_err(|e| CommandError::io(name, e)),
        }
    }
}

/// A CSV writer's failure: writing, as a failure of the output file.
fn csv_error(e: csv::Error, name: &Path) -> CommandError {
    let message = e.to_string();
    match e.into_kind() {
        csv::ErrorKind::Io(e) => CommandError::io(name, e),
        _ => CommandError::Output(message),
    }
}

/// The game in the PMN export form.
pub fn to_pmn(c: &Conversion) -> String {
    pmn::write_game(&c.record)
}

/// The game in relative numbering (docs/relative.md): the export form with a
/// `[Numbering "relative"]` tag (before any Numbering tag of the record's own, which is
/// kept) and every pit of every ply, variations included, written as a number from the
/// seat of the player who plays it.
pub fn to_relative(c: &Conversion) -> String {
    // Without rules there are no seats to number from: the game is written in PMN as it
    // is, without a Numbering tag, so that reading it back changes nothing.
    let Some(rules) = &c.trace.rules else {
        return pmn::write_game(&c.record);
    };
    let mut record = c.record.clone();
    record.tags.retain(|t| !is_relative_mark(t));
    // The export form sorts tags of one name in the order they are held: the mark is
    // written first of them, then the record's own.
    let at = (record.tags.iter())
        .position(|t| t.name == NUMBERING_TAG)
        .unwrap_or(record.tags.len());
    record.tags.insert(at, Tag::new(NUMBERING_TAG, RELATIVE));
    let text = pmn::write_game(&record);
    numbering::rewrite_game_text(
        rules,
        first_index(&record),
        &text,
        Numbering::Absolute,
        Numbering::Relative,
    )
}

/// The game as a Ludii-style move list (docs/ludii.md). Games Ludii does not have here
/// (Kiothi, Bao la Kimasai) and games whose rules could not be built are written as a
/// comment saying so.
pub fn to_ludii(c: &Conversion) -> String {
    let mut out = String::new();
    let rules = match &c.trace.rules {
        Some(r) if matches!(r.game(), Game::Tsoro | Game::Nsolo) => r,
        Some(r) => {
            let _ = writeln!(
                out,
                "// {}, game {}: {} has no Ludii numbering here (only Tsoro and Nsolo); not converted",
                c.file,
                c.game,
                r.game()
            );
            return out;
        }
        None => {
            let _ = writeln!(
                out,
                "// {}, game {}: the rules could not be built; not converted",
                c.file, c.game
            );
            return out;
        }
    };
    let board = rules.board();
    let _ = writeln!(
        out,
        "// Ludii move list: {} on {board}, Ludii's (mancalaBoard {} {}) with sites 0..{} row by row from South's outer-row left",
        rules.game(),
        board.rows(),
        board.cols(),
        board.len() - 1
    );
    let tags = pmn::write_game(&Record {
        tags: c.record.tags.clone(),
        moves: vec![],
        result: None,
    });
    for line in tags.lines() {
        let _ = writeln!(out, "// {line}");
    }
    let tag_comments: Vec<Element> = c
        .unread_tags
        .iter()
        .flat_map(|u| verbatim_comments(TAG_NOTE, u))
        .collect();
    ludii_comments(&mut out, &tag_comments);
    for ply in &c.trace.plies {
        let line = numbering::rewrite_ply(
            rules,
            ply.side,
            &ply.text,
            Numbering::Absolute,
            Numbering::Ludii,
        )
        .unwrap_or_else(|| ply.text.clone());
        let _ = writeln!(out, "{line}");
        // A foul accepted is part of the play, not commentary: without it the ply
        // would not replay when the list is read back.
        if ply.foul {
            let _ = writeln!(out, "//{{[%foul]}}");
        }
    }
    if let Some(rest) = &c.rest {
        ludii_comments(&mut out, &rest_comments(rest));
    }
    if let Some(u) = &c.after_result {
        ludii_comments(&mut out, &verbatim_comments(AFTER_RESULT_NOTE, u));
    }
    if let Some(result) = c.record.result {
        let _ = writeln!(out, "// end {}", result.result.as_str());
    }
    out
}

/// PMN comments as the `//{...}` and `//;...` lines of a Ludii move list.
fn ludii_comments(out: &mut String, comments: &[Element]) {
    for e in comments {
        if let Element::Comment(cm) = e {
            match cm.kind {
                CommentKind::Brace => {
                    let _ = writeln!(out, "//{{{}}}", cm.text);
                }
                CommentKind::Line => {
                    let _ = writeln!(out, "//;{}", cm.text);
                }
            }
        }
    }
}

#[derive(Serialize)]
struct GameJson<'a> {
    #[serde(flatten)]
    record: &'a Record,
    source: SourceJson<'a>,
    replay: ReplayJson,
}

#[derive(Serialize)]
struct SourceJson<'a> {
    file: &'a str,
    game: usize,
}

#[derive(Serialize)]
struct ReplayJson {
    /// `Game board options`, when the rules could be built.
    rules: Option<String>,
    start: Option<String>,
    complete: bool,
    plies: Vec<PlyJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    not_replayed_from: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_because: Option<String>,
    /// Text outside the move text that the reader did not read (kept verbatim in the
    /// record's comments): unreadable tag lines, text after the result.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    not_read: Vec<NotReadJson>,
}

#[derive(Serialize)]
struct NotReadJson {
    line: u32,
    column: u32,
    code: &'static str,
    because: String,
}

#[derive(Serialize)]
struct PlyJson {
    ply: u32,
    player: &'static str,
    text: String,
    laps: Vec<LapJson>,
    lap_count: u64,
    stones_sown: u64,
    end: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stopped_at_head: bool,
    captured: Vec<PitStonesJson>,
    bonus: Vec<PitStonesJson>,
    #[serde(skip_serializing_if = "is_zero")]
    prison_gain: u16,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    foul: bool,
    after: Option<String>,
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

#[derive(Serialize)]
struct LapJson {
    start: String,
    end: String,
    stones: u32,
}

#[derive(Serialize)]
struct PitStonesJson {
    pit: String,
    stones: u16,
}

fn pit_stones(list: &[(Pit, u16)]) -> Vec<PitStonesJson> {
    list.iter()
        .map(|&(pit, stones)| PitStonesJson {
            pit: pit.to_string(),
            stones,
        })
        .collect()
}

fn rules_caption(rules: &Rules) -> String {
    let options = rules.options_tag();
    if options.is_empty() {
        format!("{} {}", rules.game(), rules.board())
    } else {
        format!("{} {} {options}", rules.game(), rules.board())
    }
}

/// The game as JSON: the record's JSON form plus `source` and `replay`.
pub fn to_json(c: &Conversion, pretty: bool) -> String {
    let plies = c
        .trace
        .plies
        .iter()
        .map(|p| PlyJson {
            ply: p.number,
            player: p.side.name(),
            text: p.text.clone(),
            laps: p
                .effect
                .laps
                .iter()
                .map(|l| LapJson {
                    start: l.start.to_string(),
                    end: l.end.to_string(),
                    stones: l.stones,
                })
                .collect(),
            lap_count: p.effect.lap_count,
            stones_sown: p.effect.stones_sown,
            end: p.effect.end.map(|e| e.to_string()),
            stopped_at_head: p.effect.stopped_at_head,
            captured: pit_stones(&p.effect.captured),
            bonus: pit_stones(&p.effect.bonus),
            prison_gain: p.effect.prison_gain,
            foul: p.foul,
            after: p.after.as_ref().map(ToString::to_string),
        })
        .collect();
    let game = GameJson {
        record: &c.record,
        source: SourceJson {
            file: &c.file,
            game: c.game,
        },
        replay: ReplayJson {
            rules: c.trace.rules.as_ref().map(rules_caption),
            start: c.trace.start.as_ref().map(ToString::to_string),
            complete: c.trace.complete,
            plies,
            not_replayed_from: c.rest.as_ref().map(|r| r.ply),
            stopped_because: c.rest.as_ref().map(|r| r.cause.message.clone()),
            not_read: c
                .unread_tags
                .iter()
                .chain(&c.after_result)
                .map(|u| NotReadJson {
                    line: u.cause.line,
                    column: u.cause.column,
                    code: u.cause.code,
                    because: u.cause.message.clone(),
                })
                .collect(),
        },
    };
    let json = if pretty {
        serde_json::to_string_pretty(&game)
    } else {
        serde_json::to_string(&game)
    };
    json.expect("a conversion always serialises")
}

/// The columns of `--to csv`.
pub const CSV_HEADER: [&str; 11] = [
    "file", "game", "ply", "player", "from", "lift", "end", "arrival", "capture", "bonus", "text",
];

fn pits_text(list: &[(Pit, u16)]) -> String {
    list.iter()
        .map(|(p, n)| format!("{p}:{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One row per ply replayed; a game that did not replay to its end has one more row,
/// with the number of the first ply not replayed, empty parts and the rest of the move
/// text verbatim in `text`. Each tag line not read (first) and text after the result
/// (last) has a row of its own, with an empty `ply` and the text verbatim in `text`.
fn csv_rows(c: &Conversion) -> Vec<[String; 11]> {
    let mut rows: Vec<[String; 11]> = c
        .unread_tags
        .iter()
        .map(|u| kept_row(c, String::new(), &u.text))
        .collect();
    for p in &c.trace.plies {
        let (from, lift, arrival) = match &p.mv {
            Move::Sow(s) => (
                s.from.map(|f| f.to_string()).unwrap_or_default(),
                s.lift.map(|n| n.to_string()).unwrap_or_default(),
                s.stop.map(|h| h.arrival.to_string()).unwrap_or_default(),
            ),
            Move::Redistribute(r) => (
                format!("{},{}", r.emptied[0], r.emptied[1]),
                String::new(),
                String::new(),
            ),
        };
        rows.push([
            c.file.clone(),
            c.game.to_string(),
            p.number.to_string(),
            p.side.name().to_string(),
            from,
            lift,
            p.effect.end.map(|e| e.to_string()).unwrap_or_default(),
            arrival,
            pits_text(&p.effect.captured),
            pits_text(&p.effect.bonus),
            p.text.clone(),
        ]);
    }
    if let Some(rest) = &c.rest {
        rows.push(kept_row(c, rest.ply.to_string(), &rest.text));
    }
    if let Some(u) = &c.after_result {
        rows.push(kept_row(c, String::new(), &u.text));
    }
    rows
}

/// A row of text kept verbatim: `ply` and `text` only.
fn kept_row(c: &Conversion, ply: String, text: &str) -> [String; 11] {
    let mut row: [String; 11] = Default::default();
    row[0] = c.file.clone();
    row[1] = c.game.to_string();
    row[2] = ply;
    row[10] = text.to_string();
    row
}

fn pits_words(list: &[(Pit, u16)]) -> String {
    if list.is_empty() {
        return "none".into();
    }
    list.iter()
        .map(|(p, n)| format!("{p} ({n})"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn stones(n: u64) -> String {
    if n == 1 {
        "1 stone".into()
    } else {
        format!("{n} stones")
    }
}

/// The game with every ply's effect spelled out.
pub fn to_long(c: &Conversion) -> String {
    let mut out = String::new();
    let _ = write!(out, "{}, game {}", c.file, c.game);
    match &c.trace.rules {
        Some(rules) => {
            let _ = writeln!(out, ": {}", rules_caption(rules));
        }
        None => {
            let _ = writeln!(out, ": the rules could not be built");
        }
    }
    if let Some(start) = &c.trace.start {
        let _ = writeln!(out, "start: {start}");
    }
    for u in &c.unread_tags {
        let _ = writeln!(
            out,
            "tag line not read (line {}): {}",
            u.cause.line, u.cause.message
        );
        long_lines(&mut out, &u.text);
    }
    for p in &c.trace.plies {
        let _ = writeln!(out, "ply {}, {}: {}", p.number, p.side, p.text);
        let e = &p.effect;
        if let Move::Redistribute(r) = &p.mv {
            let placed: Vec<String> = r.placed.iter().map(|(q, n)| format!("{q} ({n})")).collect();
            let _ = writeln!(
                out,
                "  opening redistribution: emptied {} and {}; placed {}",
                r.emptied[0],
                r.emptied[1],
                placed.join(", ")
            );
        } else {
            let _ = writeln!(
                out,
                "  laps: {} ({} sown)",
                e.lap_count,
                stones(e.stones_sown)
            );
            for (i, lap) in e.laps.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "    {}. {} to {}, {}",
                    i + 1,
                    lap.start,
                    lap.end,
                    stones(lap.stones as u64)
                );
            }
            if (e.laps.len() as u64) < e.lap_count {
                let _ = writeln!(
                    out,
                    "    ... {} more laps not kept",
                    e.lap_count - e.laps.len() as u64
                );
            }
        }
        if let Some(end) = e.end {
            let how = if e.stopped_at_head {
                " (stopped at the head)"
            } else {
                ""
            };
            let _ = writeln!(out, "  ended in {end}{how}");
        }
        let _ = writeln!(out, "  captured: {}", pits_words(&e.captured));
        let _ = writeln!(out, "  bonus: {}", pits_words(&e.bonus));
        if e.prison_gain > 0 {
            let _ = writeln!(out, "  to {}'s prison: {}", p.side, e.prison_gain);
        }
        if !e.nki_cleared.is_empty() {
            let cleared: Vec<String> = e.nki_cleared.iter().map(Pit::to_string).collect();
            let _ = writeln!(out, "  nki cleared: {}", cleared.join(", "));
        }
        if e.nki_marked {
            let _ = writeln!(out, "  every occupied pit marked nki");
        }
        if p.foul {
            let _ = writeln!(out, "  played under [%foul]");
        }
        if let Some(after) = &p.after {
            let _ = writeln!(out, "  after: {after}");
        }
    }
    if let Some(rest) = &c.rest {
        let _ = writeln!(
            out,
            "not replayed from ply {}: {}",
            rest.ply, rest.cause.message
        );
        long_lines(&mut out, &rest.text);
    }
    if let Some(u) = &c.after_result {
        let _ = writeln!(
            out,
            "text after the result not read (line {}): {}",
            u.cause.line, u.cause.message
        );
        long_lines(&mut out, &u.text);
    }
    if let Some(outcome) = &c.trace.outcome {
        let _ = writeln!(out, "game over: {}", outcome.result_token());
    }
    if let Some(declared) = c.trace.declared {
        let _ = writeln!(out, "result: {}", declared.as_str());
    }
    // Read by people: the file's name and the text kept verbatim show their controls.
    crate::escape::escaped_owned(out)
}

/// Text kept verbatim, each line after `  | `.
fn long_lines(out: &mut String, text: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "  | {line}");
    }
}
