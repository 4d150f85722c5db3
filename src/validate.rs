//! `sow validate`: replay every game of every input and report every problem.
//!
//! The inputs are walked by the corpus driver ([`corpus::drive`]): games read in order in
//! batches (bounded in count and in bytes), replayed and rendered in parallel while the
//! next batch is read, and each batch's reports written, in input order, as soon as it
//! is done. Rendering
//! (human or JSON) happens in the worker that replayed the game, from the game's own
//! text. So memory holds two batches of games and one of reports, whatever the size of
//! the corpus or of any one file, and reports start at once.

use std::io::{self, Write};
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::{Files, SimpleFile};
use codespan_reporting::term::{self, termcolor::Buffer, Chars, Config};
use serde::Serialize;

use crate::corpus::{self, Batches, Filter, Input, Skipped, Work};
use crate::diagnostic::{Code, Diagnostic};
use crate::escape::{escaped, shown};
use crate::pmn::{GameText, ParsedGame, Severity};
use crate::replay::{ReplayOptions, Replayer, Trace};

/// Output format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Human { color: bool },
    Json,
}

/// What validation does besides replaying.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub replay: ReplayOptions,
    pub filter: Filter,
    /// `--suggest`: search repairs for each game with an error.
    pub suggest: bool,
    /// The bounds of that search (`--suggest-window`, `--suggest-plies`, `--suggest-budget`).
    pub repair: crate::repair::RepairOptions,
    /// `--infer-rules`: report which option combinations replay each game.
    pub infer_rules: bool,
}

/// The totals of a validation run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub files: usize,
    pub games: usize,
    pub valid: usize,
    pub with_errors: usize,
    pub warnings: usize,
    /// Inputs that could not be read.
    pub io_errors: usize,
}

impl Summary {
    /// The totals of one game replayed.
    fn of_game(trace: &Trace) -> Summary {
        Summary {
            games: 1,
            valid: trace.is_valid() as usize,
            with_errors: (!trace.is_valid()) as usize,
            warnings: trace.warnings(),
            ..Summary::default()
        }
    }

    fn add(&mut self, other: &Summary) {
        self.files += other.files;
        self.games += other.games;
        self.valid += other.valid;
        self.with_errors += other.with_errors;
        self.warnings += other.warnings;
        self.io_errors += other.io_errors;
    }

    /// The human summary line ("1 game", "1 warning" in the singular).
    pub fn line(&self) -> String {
        let s = |n: usize| if n == 1 { "" } else { "s" };
        format!(
            "{} game{}, {} valid, {} with errors, {} warning{}",
            self.games,
            s(self.games),
            self.valid,
            self.with_errors,
            self.warnings,
            s(self.warnings)
        )
    }
}

/// A game's JSON object.
#[derive(Serialize)]
struct GameObject<'a> {
    kind: &'static str,
    file: &'a str,
    game: usize,
    plies: usize,
    valid: bool,
    result: Option<&'static str>,
    outcome: Option<&'static str>,
    errors: usize,
    warnings: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_error_ply: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<Vec<crate::repair::RulesVerdict>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules_stopped: Option<String>,
}

impl<'a> GameObject<'a> {
    fn of(
        file: &'a str,
        index: usize,
        trace: &Trace,
        inference: Option<crate::repair::Inference>,
    ) -> GameObject<'a> {
        let (rules, rules_stopped) = match inference {
            Some(i) => (Some(i.verdicts), i.stopped),
            None => (None, None),
        };
        GameObject {
            kind: "game",
            file,
            game: index,
            plies: trace.plies_written,
            valid: trace.is_valid(),
            result: trace.declared.map(|r| r.as_str()),
            outcome: trace.outcome.map(|o| o.result_token()),
            errors: trace.errors(),
            warnings: trace.warnings(),
            first_error_ply: trace.first_error_ply(),
            rules,
            rules_stopped,
        }
    }
}

/// A diagnostic's JSON object.
#[derive(Serialize)]
struct DiagnosticObject<'a> {
    kind: &'static str,
    file: &'a str,
    game: Option<usize>,
    ply: Option<u32>,
    line: u32,
    column: u32,
    severity: Severity,
    code: &'a str,
    message: &'a str,
    legal: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    suggestions: &'a [crate::diagnostic::Suggestion],
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestions_stopped: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestions_none: Option<&'a str>,
}

/// Validates inputs, writing reports to `out` in input order; returns the totals.
/// `progress` is told how many inputs are done as batches complete.
pub fn run(
    inputs: &[Input],
    skipped: &[Skipped],
    settings: &Settings,
    format: Format,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize),
) -> io::Result<Summary> {
    let mut total = Summary::default();
    // Skipped paths are reported in the order of the paths: each before the input it
    // was found before.
    let mut pending_skips = skipped.iter().peekable();
    let mut report_skips = |upto: usize, total: &mut Summary, out: &mut dyn Write| {
        while let Some(s) = pending_skips.next_if(|s| s.before <= upto) {
            let d = Diagnostic {
                severity: if s.error {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                code: if s.error { Code::Io } else { Code::Skipped },
                ply: None,
                span: Default::default(),
                message: s.reason.clone(),
                legal: Vec::new(),
                position: None,
                suggestions: Vec::new(),
                suggestions_stopped: None,
                suggestions_none: None,
            };
            let mut buf = Vec::new();
            write_diagnostic(&mut buf, format, &s.path, None, &d, None)?;
            out.write_all(&buf)?;
            if s.error {
                total.io_errors += 1;
            } else {
                total.warnings += 1;
            }
        }
        io::Result::Ok(())
    };
    total.files += inputs.len();
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    // Every JSON line names its file: each name is escaped once, not once a line.
    let json_names: Vec<String> = match format {
        Format::Json => names.iter().map(|n| json_string(n)).collect(),
        Format::Human { .. } => Vec::new(),
    };
    // Each game is parsed on the thread that replays it, and its syntax tree dropped
    // there at once, while it is still in that core's cache.
    // Each worker replays with a context of its own (rules and buffers reused).
    let one = |replayer: &mut Replayer, work: Work| -> (Vec<u8>, Summary) {
        let input = work.input();
        match work {
            Work::Game { index, game, .. } => {
                let file = FileName {
                    text: &names[input],
                    json: json_names.get(input).map_or("", String::as_str),
                };
                if let Some(done) = validate_text(replayer, file, index, &game, settings, format) {
                    return done;
                }
                let game = game.parse();
                if !settings.filter.keeps(&game) {
                    return (Vec::new(), Summary::default());
                }
                validate_game(replayer, file, index, &game, settings, format)
            }
            Work::Unreadable { error, .. } => unreadable(&names[input], &error.to_string(), format),
        }
    };
    corpus::drive_with(
        Batches::new(inputs, settings.replay.max_game_bytes),
        Replayer::new,
        one,
        |input, (text, summary)| {
            report_skips(input, &mut total, out)?;
            out.write_all(&text)?;
            total.add(&summary);
            io::Result::Ok(())
        },
        progress,
    )?;
    report_skips(usize::MAX, &mut total, out)?;
    Ok(total)
}

/// The report of an input that could not be opened.
fn unreadable(name: &str, error: &str, format: Format) -> (Vec<u8>, Summary) {
    let mut text = Vec::new();
    let d = Diagnostic::error(
        Code::Io,
        None,
        Default::default(),
        format!("cannot read: {error}"),
    );
    let _ = write_diagnostic(&mut text, format, name, None, &d, None);
    let summary = Summary {
        io_errors: 1,
        ..Summary::default()
    };
    (text, summary)
}

/// A game's text and its byte offset in the file: what a report's snippet is cut from.
#[derive(Clone, Copy)]
struct Text<'a> {
    text: &'a str,
    offset: usize,
}

impl<'a> Text<'a> {
    fn of(game: &'a ParsedGame) -> Text<'a> {
        Text {
            text: &game.text,
            offset: game.offset,
        }
    }
}

/// A file's name, and the same as a JSON string (quoted and escaped) when the
/// report is JSON.
#[derive(Clone, Copy)]
struct FileName<'a> {
    text: &'a str,
    json: &'a str,
}

/// `text` as a JSON string, quoted and escaped.
fn json_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string always serializes")
}

/// A game validated straight from its text, as the reader reads it, without a syntax
/// tree ([`Replayer::replay_text`]), its diagnostics' snippets cut from its text, and
/// with `--suggest` a window of it parsed for the search for its repairs. `None` for
/// rules inferred and text that may stand for no game: the game is then parsed and
/// validated whole.
fn validate_text(
    replayer: &mut Replayer,
    name: FileName<'_>,
    index: usize,
    game: &GameText,
    settings: &Settings,
    format: Format,
) -> Option<(Vec<u8>, Summary)> {
    // Rules inference reads the parsed record.
    if settings.infer_rules {
        return None;
    }
    let keep = |record: &crate::pmn::Record| settings.filter.accepts(record);
    let Some((record, mut trace)) = replayer.replay_text(game, &settings.replay, &keep) else {
        // Turned down by the filter, or no game: the full path tells which.
        return (game.is_game()).then(|| (Vec::new(), Summary::default()));
    };
    if trace.diagnostics.is_empty() {
        let mut out = Vec::with_capacity(192);
        let _ = write_game(&mut out, format, name, index, &trace, None);
        return Some((out, Summary::of_game(&trace)));
    }
    // Text of no tag, result or ply may stand for no game, which a parse tells (it
    // holds no ply, so its tree is small).
    let no_game = record.tags.is_empty() && record.result.is_none() && trace.plies_written == 0;
    if no_game {
        return None;
    }
    // Suggestions read the window of the record their search reads.
    if settings.suggest && !trace.is_valid() {
        crate::repair::attach_suggestions_from_text(
            game,
            &mut trace,
            &settings.replay,
            &settings.repair,
        );
    }
    // The diagnostics are the parsed game's, and their snippets need only its text: no
    // syntax tree is built, however long the game.
    let text = Text {
        text: game.text(),
        offset: game.offset(),
    };
    let mut out = Vec::with_capacity(192);
    for d in in_text_order(&trace.diagnostics) {
        let _ = write_diagnostic(&mut out, format, name.text, Some(index), d, Some(text));
    }
    let _ = write_game(&mut out, format, name, index, &trace, None);
    Some((out, Summary::of_game(&trace)))
}

fn validate_game(
    replayer: &mut Replayer,
    name: FileName<'_>,
    index: usize,
    game: &ParsedGame,
    settings: &Settings,
    format: Format,
) -> (Vec<u8>, Summary) {
    let file = name.text;
    // Room for a valid game's one JSON line, so that it is not grown byte by byte.
    let mut out = Vec::with_capacity(192);
    // A file with no game at all: its reader problems (an empty-file warning) belong to
    // the file, and there is no game to count. Text that reads as nothing because it
    // broke at once (prose, binary junk) is a game with errors, counted as one.
    // An input that failed while being read is an I/O failure, not a game.
    if game.is_no_game() {
        let io_failure = game.io_error().is_some();
        let mut summary = Summary::default();
        for p in &game.problems {
            let d = Diagnostic::from_problem(p);
            let _ = write_diagnostic(&mut out, format, file, None, &d, Some(Text::of(game)));
            summary.warnings += !d.is_error() as usize;
        }
        summary.io_errors += io_failure as usize;
        return (out, summary);
    }
    let mut trace = replayer.replay(game, &settings.replay);
    if settings.suggest && !trace.is_valid() {
        crate::repair::attach_suggestions(game, &mut trace, &settings.replay, &settings.repair);
    }
    let verdicts = settings
        .infer_rules
        .then(|| crate::repair::infer_rules(game, &settings.replay, settings.repair.plies));
    for d in in_text_order(&trace.diagnostics) {
        let _ = write_diagnostic(&mut out, format, file, Some(index), d, Some(Text::of(game)));
    }
    let summary = Summary::of_game(&trace);
    let _ = write_game(&mut out, format, name, index, &trace, verdicts);
    (out, summary)
}

/// A game's diagnostics in the order of its text (the replay lists the reader's before
/// its own, so a problem of ply 3 would come before the illegal ply 1 that stopped the
/// replay), those of the result last, as PMN.md asks.
fn in_text_order(diagnostics: &[Diagnostic]) -> Vec<&Diagnostic> {
    let mut sorted: Vec<&Diagnostic> = diagnostics.iter().collect();
    let of_result = |d: &Diagnostic| matches!(d.code, Code::ResultMismatch | Code::ResultNotOver);
    // A stable sort: what is at one place keeps its order.
    sorted.sort_by_key(|d| (of_result(d), d.span.start));
    sorted
}

fn write_game(
    out: &mut Vec<u8>,
    format: Format,
    name: FileName<'_>,
    index: usize,
    trace: &Trace,
    verdicts: Option<crate::repair::Inference>,
) -> io::Result<()> {
    let file = name.text;
    match format {
        Format::Json if verdicts.is_none() => write_game_line(out, name.json, index, trace),
        Format::Json => {
            let obj = GameObject::of(file, index, trace, verdicts);
            serde_json::to_writer(&mut *out, &obj)?;
            out.push(b'\n');
        }
        Format::Human { .. } => {
            if let Some(verdicts) = verdicts {
                writeln!(
                    out,
                    "{file}: game {index}: {}",
                    crate::repair::describe_inference(&verdicts)
                )?;
            }
        }
    }
    Ok(())
}

/// A game's JSON line without rules verdicts, written as serde_json writes a
/// `GameObject` (field by field, in its order), from the file's name already escaped:
/// serde_json would escape it anew, byte by byte, for every game.
fn write_game_line(out: &mut Vec<u8>, file_json: &str, index: usize, trace: &Trace) {
    // The tokens are all plain ASCII (`1-0`, `0-1`, `1/2-1/2`, `*`): nothing to escape.
    fn token(out: &mut Vec<u8>, token: Option<&str>) {
        match token {
            Some(t) => {
                out.push(b'"');
                out.extend_from_slice(t.as_bytes());
                out.push(b'"');
            }
            None => out.extend_from_slice(b"null"),
        }
    }
    out.extend_from_slice(b"{\"kind\":\"game\",\"file\":");
    out.extend_from_slice(file_json.as_bytes());
    out.extend_from_slice(b",\"game\":");
    push_decimal(out, index as u64);
    out.extend_from_slice(b",\"plies\":");
    push_decimal(out, trace.plies_written as u64);
    out.extend_from_slice(if trace.is_valid() {
        b",\"valid\":true,\"result\":"
    } else {
        b",\"valid\":false,\"result\":"
    });
    token(out, trace.declared.map(|r| r.as_str()));
    out.extend_from_slice(b",\"outcome\":");
    token(out, trace.outcome.map(|o| o.result_token()));
    out.extend_from_slice(b",\"errors\":");
    push_decimal(out, trace.errors() as u64);
    out.extend_from_slice(b",\"warnings\":");
    push_decimal(out, trace.warnings() as u64);
    if let Some(ply) = trace.first_error_ply() {
        out.extend_from_slice(b",\"first_error_ply\":");
        push_decimal(out, ply.into());
    }
    out.extend_from_slice(b"}\n");
}

/// `n` in decimal, as serde_json and the csv crate write an integer (through `itoa`, as
/// they do). Most numbers of a table are one digit or two, pushed as bytes of known
/// length.
#[inline]
pub(crate) fn push_decimal(out: &mut Vec<u8>, n: u64) {
    if n < 10 {
        out.push(b'0' + n as u8);
    } else if n < 100 {
        out.extend_from_slice(&[b'0' + (n / 10) as u8, b'0' + (n % 10) as u8]);
    } else {
        out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    }
}

/// A report's snippet of a game's text: the line its span starts on, the span cut to
/// that line. A line is shown whole when each side of the span has at most [`WHOLE`]
/// characters of it; a longer side is cut to its [`AROUND`] characters nearest the span,
/// and `...` marks the cut, so that a game written on one long line is not copied
/// whole into every report of it.
struct Snippet {
    /// The text shown, one line (control characters replaced, see [`shown`]).
    text: String,
    /// The span in `text`.
    label: Range<usize>,
    /// The line and column in the file of the span's start.
    line: usize,
    column: usize,
}

/// The characters a side of a span may have and still be shown whole.
const WHOLE: usize = 200;
/// The characters shown of a longer side.
const AROUND: usize = 60;

impl Snippet {
    /// The snippet of the span `start..end` of `text` (a game's), which is in the file
    /// at `line` and `column`.
    fn of(text: &str, (start, end): (usize, usize), (line, column): (usize, usize)) -> Snippet {
        // A span of the reader's may end inside a character (a byte of a word it could
        // not read): widened to whole characters.
        let (mut start, mut end) = (start.min(text.len()), end.min(text.len()));
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let end = end.max(start);
        let is_break = |c: char| c == '\n';
        // The span, to the end of its line (and at most WHOLE characters).
        let span_end = (text[start..end].char_indices())
            .take(WHOLE)
            .find(|&(_, c)| is_break(c))
            .map_or_else(
                || (text[start..end].char_indices().nth(WHOLE)).map_or(end, |(i, _)| start + i),
                |(i, _)| start + i,
            );
        let span_end =
            if text[start..span_end].ends_with('\r') && text[span_end..].starts_with('\n') {
                span_end - 1
            } else {
                span_end
            };
        // Each side: to the line's edge, if near; else its AROUND characters nearest.
        let left: Vec<usize> = (text[..start].char_indices().rev())
            .take_while(|&(_, c)| !is_break(c))
            .take(WHOLE + 1)
            .map(|(i, _)| i)
            .collect();
        let (from, cut_left) = match left.len() {
            0 => (start, false),
            n if n <= WHOLE => (left[n - 1], false),
            _ => (left[AROUND - 1], true),
        };
        let right: Vec<usize> = (text[span_end..].char_indices())
            .take_while(|&(_, c)| !is_break(c))
            .take(WHOLE + 1)
            .map(|(i, c)| span_end + i + c.len_utf8())
            .collect();
        let (mut to, cut_right) = match right.len() {
            0 => (span_end, false),
            n if n <= WHOLE => (right[n - 1], false),
            _ => (right[AROUND - 1], true),
        };
        // A CRLF line's CR is its ending, not text to show.
        if to > span_end && text[..to].ends_with('\r') && text[to..].starts_with('\n') {
            to -= 1;
        }
        let mut shown_text = String::with_capacity(to - from + 6);
        if cut_left {
            shown_text.push_str("...");
        }
        let at = shown_text.len();
        shown_text.push_str(&shown(&text[from..to]));
        if cut_right {
            shown_text.push_str("...");
        }
        Snippet {
            text: shown_text,
            label: at + (start - from)..at + (span_end - from),
            line,
            column,
        }
    }
}

/// A snippet as a codespan file of one line, whose line and columns are the file's.
struct SnippetFile<'a> {
    name: &'a str,
    snippet: &'a Snippet,
}

impl<'a> Files<'a> for SnippetFile<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, _: ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, _: ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.snippet.text)
    }

    fn line_index(&'a self, _: (), _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(0)
    }

    fn line_number(&'a self, _: (), _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.snippet.line)
    }

    fn column_number(
        &'a self,
        _: (),
        _: usize,
        byte: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let s = self.snippet;
        let at = s.label.start;
        let chars = |r: Range<usize>| s.text.get(r).map_or(0, |t| t.chars().count());
        Ok(if byte >= at {
            s.column + chars(at..byte)
        } else {
            s.column.saturating_sub(chars(byte..at))
        })
    }

    fn line_range(
        &'a self,
        _: (),
        _: usize,
    ) -> Result<Range<usize>, codespan_reporting::files::Error> {
        Ok(0..self.snippet.text.len())
    }
}

fn write_diagnostic(
    out: &mut Vec<u8>,
    format: Format,
    file: &str,
    game_index: Option<usize>,
    d: &Diagnostic,
    game: Option<Text<'_>>,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let obj = DiagnosticObject {
                kind: "diagnostic",
                file,
                game: game_index,
                ply: d.ply,
                line: d.span.line,
                column: d.span.column,
                severity: d.severity,
                code: d.code.as_str(),
                message: &d.message,
                legal: &d.legal,
                position: d.position.as_deref(),
                suggestions: &d.suggestions,
                suggestions_stopped: d.suggestions_stopped.as_deref(),
                suggestions_none: d.suggestions_none.as_deref(),
            };
            serde_json::to_writer(&mut *out, &obj)?;
            out.push(b'\n');
            Ok(())
        }
        Format::Human { color } => render_human(out, color, file, game_index, d, game),
    }
}

fn render_human(
    out: &mut Vec<u8>,
    color: bool,
    file: &str,
    game_index: Option<usize>,
    d: &Diagnostic,
    game: Option<Text<'_>>,
) -> io::Result<()> {
    let where_ = match (game_index, d.ply) {
        (Some(g), Some(p)) => format!("game {g}, ply {p}"),
        (Some(g), None) => format!("game {g}"),
        _ => String::new(),
    };
    // Text from the record or the disk reaches a terminal: no control characters.
    let file = &*escaped(file);
    let mut report = match d.severity {
        Severity::Error => Report::error(),
        Severity::Warning => Report::warning(),
    }
    .with_code(d.code.as_str())
    .with_message(escaped(&d.message));
    let mut notes = Vec::new();
    if let Some(p) = &d.position {
        notes.push(format!("position: {p}"));
    }
    if !d.legal.is_empty() {
        notes.push(format!("legal plies: {}", d.legal.join(" ")));
    }
    for s in &d.suggestions {
        let how = if s.complete {
            "replays completely".to_string()
        } else {
            match s.replays {
                1 => "replays 1 ply".to_string(),
                n => format!("replays {n} plies"),
            }
        };
        notes.push(format!("suggestion: {} ({how}): {}", s.edit, s.text));
    }
    if let Some(stopped) = &d.suggestions_stopped {
        notes.push(format!("suggestions: {stopped}"));
    }
    if let Some(none) = &d.suggestions_none {
        notes.push(format!("suggestions: {none}"));
    }
    let mut notes: Vec<String> = notes.iter().map(|n| escaped(n).into_owned()).collect();
    // The span lies in the game's text when it was found in it.
    let in_text = game.filter(|g| {
        d.span.line > 0 && d.span.start >= g.offset && d.span.end <= g.offset + g.text.len()
    });
    let mut buffer = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    match in_text {
        Some(g) => {
            let start = d.span.start - g.offset;
            let end = (d.span.end - g.offset).max(start);
            let at = (d.span.line as usize, d.span.column as usize);
            let snippet = Snippet::of(g.text, (start, end), at);
            let files = SnippetFile {
                name: file,
                snippet: &snippet,
            };
            report = report
                .with_labels(vec![
                    Label::primary((), snippet.label.clone()).with_message(where_)
                ])
                .with_notes(notes);
            term::emit(&mut buffer, &config, &files, &report)
                .map_err(|e| io::Error::other(e.to_string()))?;
        }
        None => {
            let location = if d.span.line > 0 {
                format!("{file}:{}:{}", d.span.line, d.span.column)
            } else {
                file.to_string()
            };
            let location = if where_.is_empty() {
                location
            } else {
                format!("{location} ({where_})")
            };
            notes.insert(0, format!("in {location}"));
            report = report.with_notes(notes);
            let files = SimpleFile::new(file, "");
            term::emit(&mut buffer, &config, &files, &report)
                .map_err(|e| io::Error::other(e.to_string()))?;
        }
    }
    out.extend_from_slice(buffer.as_slice());
    Ok(())
}

/// The exit status of a validation: 0 when no game has an error, 1 when one has,
/// 2 when an input could not be read.
pub fn exit_status(summary: &Summary) -> i32 {
    if summary.io_errors > 0 {
        2
    } else if summary.with_errors > 0 {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snippet_is_the_line_of_its_span_cut_when_long() {
        let shown = |text: &str, span: (usize, usize)| {
            let s = Snippet::of(text, span, (1, 1));
            (s.text.clone(), s.text[s.label].to_string())
        };
        // A short line whole, its CRLF ending left out; the span cut at the line's end.
        let text = "[Game \"Tsoro\"]\r\n\r\n1. a3 \u{e9}t\u{e9} d2 *\r\n[Game";
        let at = text.find("d2").unwrap();
        assert_eq!(
            shown(text, (at, at + 2)),
            ("1. a3 \u{e9}t\u{e9} d2 *".into(), "d2".into())
        );
        assert_eq!(
            shown(text, (at, text.len())),
            ("1. a3 \u{e9}t\u{e9} d2 *".into(), "d2 *".into())
        );
        assert_eq!(
            shown(text, (0, 0)),
            ("[Game \"Tsoro\"]".into(), String::new())
        );
        // A long side cut to its 60 characters nearest the span, in characters.
        let long = format!("{}d2{}", "\u{e9}".repeat(300), "x".repeat(201));
        let at = long.find("d2").unwrap();
        let (line, span) = shown(&long, (at, at + 2));
        assert_eq!(
            line,
            format!("...{}d2{}...", "\u{e9}".repeat(60), "x".repeat(60))
        );
        assert_eq!(span, "d2");
        // A span that ends (or starts) inside a character is widened to it.
        let text = "[Ga\u{e9}me \"x\"]";
        assert_eq!(shown(text, (3, 4)), (text.into(), "\u{e9}".into()));
        assert_eq!(shown(text, (4, 5)), (text.into(), "\u{e9}".into()));
    }

    /// The hand-written game line is the one serde_json writes for a `GameObject`:
    /// valid games, games with errors, declared results and none, odd file names.
    #[test]
    fn game_line_is_serde_jsons() {
        let mut text = String::new();
        for dir in ["records/examples", "records/flawed"] {
            let mut paths: Vec<_> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "pmn"))
                .collect();
            paths.sort();
            for p in paths {
                text.push_str(&std::fs::read_to_string(p).unwrap());
                text.push('\n');
            }
        }
        let games = crate::pmn::parse_str(&text);
        assert!(games.len() > 10);
        let options = ReplayOptions::default();
        for file in ["a.pmn", "dir/\"quoted\"\\ é\u{1}.pmn"] {
            let json = json_string(file);
            for (index, game) in games.iter().enumerate() {
                let trace = crate::replay::replay(game, &options);
                let mut ours = Vec::new();
                write_game_line(&mut ours, &json, index, &trace);
                let obj = GameObject::of(file, index, &trace, None);
                let mut theirs = serde_json::to_vec(&obj).unwrap();
                theirs.push(b'\n');
                assert_eq!(String::from_utf8(ours), String::from_utf8(theirs));
            }
        }
    }

    #[test]
    fn decimals_as_serde_json_writes_them() {
        for n in [0, 1, 9, 10, 42, 99, 100, 12345, u32::MAX as u64, u64::MAX] {
            let mut ours = Vec::new();
            push_decimal(&mut ours, n);
            assert_eq!(ours, serde_json::to_vec(&n).unwrap());
        }
    }
}
