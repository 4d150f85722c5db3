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
//!   effect and the position after it). `json` is one array; `jsonl` one game a line,
//!   by default with the move text as PMN text, `movetext` (as the `pmn` form writes
//!   it after the tags), in place of the tree `moves`, and no ply's effect (their count,
//!   `replay.plies_replayed`, and the position after the last ply, `replay.last`): a
//!   small multiple of the game's text. [`Forms::plies`] asks for the tree and each
//!   ply's effect without its position and laps (the position after the last ply once),
//!   [`Forms::positions`] for every ply's position and laps too, as `json` has them.
//! - `csv`: one row per ply: `file, game, ply, player, from, lift, end, arrival,
//!   capture, bonus, text` (pits with stones as `b6:1 a6:4`).
//! - `long`: every ply with its whole effect spelled out, as readable text.
//! - `relative`: the moves in seat-relative numbers (docs/relative.md), read back with
//!   `--from relative`.
//! - `--from json` reads the `json`/`jsonl` output back (its records, `moves` or
//!   `movetext`; the rest ignored).
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

use crate::pmn::{Element, GameText, ParsedGame, Record, Tag};
use crate::replay::{replay, ReplayOptions, Trace};
use crate::rules::Rules;

mod forms;
mod input;
mod ludii;
mod run;
mod verdict;
mod writers;

pub use forms::{ConvertFrom, ConvertTo, Forms, EXTENSIONS};
pub use input::{read_json, read_relative, InputError};
pub use ludii::read_ludii;
pub use run::run;
use verdict::{gaps, reader_cause, replay_cause, rest_comments, rest_text, verbatim_comments};
pub use writers::{
    to_compact_json, to_compact_json_with, to_json, to_lean_json, to_long, to_ludii, to_pmn,
    to_relative, CSV_HEADER,
};

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

/// The export form of a game whose conversion holds every ply written: a valid game
/// (what [`to_pmn`] writes of [`convert_game`]) or a game with errors kept failing where
/// it fails (of [`convert_broken_game`]), written from its text as the reader reads it,
/// so that its record is never held: for a game whose text the reader read whole, with
/// no error and nothing it skipped but text after the result (kept verbatim in comments
/// before the result, as the record's conversion keeps it). `None` for any other game,
/// which is converted from its record, and for a valid game whose replay stopped before
/// its last ply. `trace` is the game's replay.
pub fn export_text(text: &GameText, trace: &Trace) -> Option<String> {
    let game = exported(text, trace)?;
    Some(game.write(text, true, None))
}

/// A game [`export_text`] writes: its record without moves (its tags as the conversion
/// writes them, and its result), the text after its result, and its problems (of its
/// bytes and of its reading, in the order of the text, as a parse gives them).
pub(crate) struct Exported {
    pub(crate) record: Record,
    pub(crate) after_result: Option<Unread>,
    pub(crate) problems: Vec<crate::pmn::Problem>,
}

impl Exported {
    /// The export form of the game ([`export_text`]), or with `tags` false its move text
    /// as the export form writes it after the tags' blank line, without the line break
    /// that ends it ([`crate::pmn::write_move_text`]): so the JSON forms that hold the
    /// move text as text ([`to_compact_json_with`]) are written without the record. With
    /// `numbers` the plies' pits are written as it says.
    pub(crate) fn write(
        &self,
        text: &GameText,
        tags: bool,
        numbers: Option<&dyn crate::pmn::PitNumbers>,
    ) -> String {
        use crate::pmn::Visitor as _;
        let record = &self.record;
        let mut out = String::with_capacity(text.text().len() + 64);
        let written = if tags { &record.tags[..] } else { &[] };
        let first = record.first_side();
        let mut writer = crate::pmn::ExportWriter::numbered(written, first, numbers, &mut out);
        text.read(&mut writer);
        if let Some(u) = &self.after_result {
            for element in verbatim_comments(AFTER_RESULT_NOTE, u) {
                if let Element::Comment(c) = element {
                    let _ = writer.comment(c);
                }
            }
        }
        writer.finish(record.result.map(|r| r.result));
        if !tags && out.ends_with('\n') {
            out.pop();
        }
        out
    }
}

/// Whether a game's text reads without an error (not [`ParsedGame::has_errors`] of
/// the game parsed), read without a record.
pub(crate) fn reads_without_error(text: &GameText) -> bool {
    struct Errors(bool);
    impl crate::pmn::Visitor for Errors {
        fn ply(&mut self, _ply: crate::pmn::Ply) -> std::ops::ControlFlow<()> {
            std::ops::ControlFlow::Continue(())
        }
        fn problem(&mut self, problem: crate::pmn::Problem) {
            self.0 |= problem.is_error();
        }
    }
    let mut errors = Errors(text.problems().iter().any(crate::pmn::Problem::is_error));
    text.read(&mut errors);
    !errors.0
}

/// The export form of a game with errors whose reading has errors (see
/// [`reads_without_error`]): no record of it fails where it fails, so it is kept as it
/// is written.
pub(crate) fn as_written(text: &str) -> String {
    let mut text = text.trim().to_string();
    text.push('\n');
    text
}

/// The game [`export_text`] writes, when it can be written from its text.
pub(crate) fn exported(text: &GameText, trace: &Trace) -> Option<Exported> {
    let cut = trace.is_valid() && trace.played < trace.plies_written;
    let error = text.problems().iter().any(crate::pmn::Problem::is_error);
    if cut || !text.is_game() || error {
        return None;
    }
    let game = text.text();
    let offset = text.offset();
    let blank = |start: usize, end: usize| {
        start
            .checked_sub(offset)
            .zip(end.checked_sub(offset))
            .and_then(|(a, b)| game.get(a..b))
            .unwrap_or("")
            .chars()
            .all(verdict::is_space)
    };
    let mut read = Whole {
        blank: &blank,
        at: offset,
        depth: 0,
        whole: true,
        result: None,
        problems: Vec::new(),
    };
    let tags = text.read(&mut read)?;
    // Nothing but spaces before each tag.
    let mut at = offset;
    for tag in &tags {
        if !blank(at, tag.span.start) {
            return None;
        }
        at = at.max(tag.span.end);
    }
    let end = offset + game.len();
    let moves_end = read.result.map_or(end, |r| r.span.start);
    if !read.whole || !blank(read.at, moves_end) {
        return None;
    }
    let mut problems = text.problems().to_vec();
    problems.append(&mut read.problems);
    problems.sort_by_key(|p| p.span.start);
    let after_result = match read.result {
        Some(r) if !blank(r.span.end, end) => {
            let parsed = ParsedGame {
                record: Record::default(),
                problems,
                text: game.to_string(),
                offset,
                line: text.line(),
            };
            let unread = verdict::after_result(&parsed, r);
            problems = parsed.problems;
            unread
        }
        _ => None,
    };
    let mut record = Record {
        tags,
        moves: Vec::new(),
        result: read.result,
    };
    if let Some(rules) = &trace.rules {
        normalise_tags(&mut record, rules);
    }
    Some(Exported {
        record,
        after_result,
        problems,
    })
}

/// Whether the reader read a game's move text whole, as [`gaps`] tells it from a
/// record: nothing but spaces between the main line's elements, no error.
struct Whole<'b> {
    blank: &'b dyn Fn(usize, usize) -> bool,
    /// The end of the last tag or main-line element read.
    at: usize,
    /// Variations open.
    depth: usize,
    whole: bool,
    result: Option<crate::pmn::ResultToken>,
    /// The problems read.
    problems: Vec<crate::pmn::Problem>,
}

impl Whole<'_> {
    fn element(&mut self, span: crate::pmn::Span) -> std::ops::ControlFlow<()> {
        if self.depth == 0 {
            if !(self.blank)(self.at, span.start) {
                self.whole = false;
                return std::ops::ControlFlow::Break(());
            }
            self.at = self.at.max(span.end);
        }
        std::ops::ControlFlow::Continue(())
    }
}

impl crate::pmn::Visitor for Whole<'_> {
    fn tags(&mut self, record: &Record) -> std::ops::ControlFlow<()> {
        // The move text starts after the last tag.
        for tag in &record.tags {
            self.at = self.at.max(tag.span.end);
        }
        std::ops::ControlFlow::Continue(())
    }

    fn move_number(&mut self, number: crate::pmn::MoveNumber) -> std::ops::ControlFlow<()> {
        self.element(number.span)
    }

    fn ply(&mut self, ply: crate::pmn::Ply) -> std::ops::ControlFlow<()> {
        self.element(ply.span)
    }

    fn comment(&mut self, comment: crate::pmn::Comment) -> std::ops::ControlFlow<()> {
        self.element(comment.span)
    }

    fn nag(&mut self, nag: crate::pmn::Nag) -> std::ops::ControlFlow<()> {
        self.element(nag.span)
    }

    fn begin_variation(&mut self, open: crate::pmn::Span) -> crate::pmn::Skip {
        if self.depth == 0 && !(self.blank)(self.at, open.start) {
            self.whole = false;
        }
        self.depth += 1;
        crate::pmn::Skip::No
    }

    fn end_variation(&mut self, span: crate::pmn::Span) -> std::ops::ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        if self.depth == 0 {
            self.at = self.at.max(span.end);
        }
        std::ops::ControlFlow::Continue(())
    }

    fn result(&mut self, result: crate::pmn::ResultToken) -> std::ops::ControlFlow<()> {
        self.result = Some(result);
        std::ops::ControlFlow::Continue(())
    }

    fn problem(&mut self, problem: crate::pmn::Problem) {
        // A warning leaves the text read (text after the result is told apart above).
        if problem.is_error() {
            self.whole = false;
        }
        self.problems.push(problem);
    }
}

fn conversion(
    file: &str,
    game: usize,
    parsed: &ParsedGame,
    options: &ReplayOptions,
    keep_plies: bool,
) -> Conversion {
    let trace = replay(parsed, options);
    converted(file, game, parsed, parsed.record.clone(), trace, keep_plies)
}

/// The conversion of a game replayed into `trace`, its record `record` (`parsed`'s,
/// which may have been taken out of it). The record may hold the main line only up to
/// the first ply not replayed ([`crate::pmn::GameText::parse_cut`]): the rest is taken
/// from the text.
pub(crate) fn converted(
    file: &str,
    game: usize,
    parsed: &ParsedGame,
    mut record: Record,
    trace: Trace,
    keep_plies: bool,
) -> Conversion {
    let gaps = gaps(parsed, &record);
    let result = record.result;
    if let Some(rules) = &trace.rules {
        normalise_tags(&mut record, rules);
    }
    let replayed = trace.played;
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
            text: rest_text(parsed, result, start, &tail),
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
