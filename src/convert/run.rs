//! The command: inputs converted in parallel batches, games kept or left out, and the
//! output written in input order.

use std::io::{self, Write as _};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::corpus::{self, Batches, Filter, Input, WholeInputs, Work};
use crate::error::CommandError;
use crate::pmn::{Code, GameText, ParsedGame, Problem};
use crate::replay::{replay, PlyTrace, ReplayOptions, Replayer, Trace};
use crate::spool::Spool;

use super::forms::{ConvertFrom, ConvertTo, Forms};
use super::input::{from_relative, read_input, InputError};
use super::numbering::{self, Numbering};
use super::verdict::{is_space, replay_cause, text_gaps};
use super::writers::{
    csv_head_rows, csv_ply_row, csv_rows, csv_tail_rows, long_head, long_ply, long_tail,
    relative_tags, to_compact_json, to_compact_json_with, to_json, to_lean_json, to_long, to_ludii,
    to_pmn, to_relative, write_json_of_text, CSV_HEADER,
};
use super::{convert_broken_game, convert_game, converted, reads_without_error, Conversion};

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
    let output_replay = &output_replay(replay, forms);
    let convert = |input: usize, index: usize, parsed: ParsedGame, from| -> Converted {
        if stopped.load(Ordering::Relaxed) {
            return Converted::default();
        }
        let forms = Forms {
            from: Some(from),
            ..forms
        };
        convert_one(
            &names[input],
            index,
            parsed,
            None,
            filter,
            output_replay,
            forms,
        )
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
            // Text of another form, read as PMN: told at the input's first game.
            let refused = (index == 1).then(|| from.refuses(text.text())).flatten();
            if let Some(e) = refused {
                return Piece::Failed(e);
            }
            let converted = match from {
                ConvertFrom::Relative => convert(input, index, from_relative(text, replay), from),
                _ => {
                    let forms = Forms {
                        from: Some(from),
                        ..forms
                    };
                    convert_text(&names[input], index, text, filter, output_replay, forms)
                }
            };
            Piece::Games(vec![converted])
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

/// The replay's options for the output's form: positions and laps kept only for the
/// forms that write them (a long game's trace is then a few words a ply), no ply kept
/// for PMN, relative numbering and JSON lines of move text, which are written from the
/// game's text or its record.
fn output_replay(replay: &ReplayOptions, forms: Forms) -> ReplayOptions {
    let writes_positions = forms.writes_positions();
    ReplayOptions {
        keep_positions: replay.keep_positions && writes_positions,
        keep_laps: replay.keep_laps && writes_positions,
        diagnostics_only: replay.diagnostics_only || !forms.writes_plies(),
        ..replay.clone()
    }
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
    pub(super) notes: Vec<String>,
    output: Option<Rendered>,
    /// 1 for a game with errors left out of the output, else 0.
    left_out: usize,
}

/// A game written in the output's form.
pub(super) enum Rendered {
    Text(String),
    Rows(Vec<[String; 11]>),
    /// Long text, CSV or JSON with plies, written as the replay played: `head` and
    /// `tail` around the bytes written then, or why they could not be written.
    Spooled {
        head: Vec<u8>,
        plies: io::Result<Spool>,
        tail: Vec<u8>,
    },
}

/// [`convert_one`] of a game's text read as PMN: replayed from its text as it is read,
/// then parsed only as far as its conversion holds the record (to the first ply not
/// replayed, unless it is kept broken), so that a long game that stops early costs no
/// more than its text.
fn convert_text(
    name: &str,
    index: usize,
    text: GameText,
    filter: &Filter,
    replay: &ReplayOptions,
    forms: Forms,
) -> Converted {
    if !text.is_game() {
        return convert_one(name, index, text.parse(), None, filter, replay, forms);
    }
    let keep = |r: &crate::pmn::Record| filter.accepts(r);
    let mut replayer = Replayer::new();
    // Each ply of a valid game written as the replay plays it, in the forms that write
    // plies (JSON lines of move text are written from the text below).
    let trace = match forms.to {
        ConvertTo::Long | ConvertTo::Csv | ConvertTo::Json | ConvertTo::Jsonl
            if forms.writes_plies() =>
        {
            match spooled(name, index, &text, &mut replayer, replay, &keep, forms) {
                Spooled::Written(converted) => return converted,
                Spooled::LeftOut(trace) => trace.map(|t| *t),
                Spooled::Again => replayer.replay_text(&text, replay, &keep).map(|(_, t)| t),
            }
        }
        _ => replayer.replay_text(&text, replay, &keep).map(|(_, t)| t),
    };
    let Some(trace) = trace else {
        return Converted::default();
    };
    // A game in PMN, in relative numbering, or in JSON lines of move text, valid or with
    // errors kept broken, read whole, is written from its text (in relative numbering,
    // one kept broken only if its text read back fails alike).
    let valid = trace.is_valid();
    let compact = forms.to == ConvertTo::Jsonl && !forms.writes_plies();
    let relative = forms.to == ConvertTo::Relative;
    let from_text =
        (forms.to == ConvertTo::Pmn || relative || compact) && (valid || forms.keep_broken);
    if let Some(mut game) = from_text.then(|| super::exported(&text, &trace)).flatten() {
        let numbers = (trace.rules.as_ref())
            .filter(|_| relative)
            .map(|rules| numbering::PitNumbers::new(rules, Numbering::Relative));
        if numbers.is_some() {
            game.record.tags = relative_tags(&game.record.tags);
        }
        let numbers = numbers.as_ref().map(|n| n as &dyn crate::pmn::PitNumbers);
        let written = game.write(&text, !compact, numbers);
        if relative
            && !valid
            && !relative_text_fails_alike(&mut replayer, &written, numbers, &trace, replay)
        {
            let notes = altered(name, &game.problems);
            return broken(name, index, &placed(&text), &trace, notes, None, forms);
        }
        let (conversion, notes) = of_text(name, index, &text, game, trace);
        let output = match compact {
            true => to_compact_json_with(&conversion, written),
            false => written,
        };
        return Converted {
            notes,
            output: Some(Rendered::Text(output)),
            left_out: 0,
        };
    }
    // A game with errors left out, or kept as it is written (the reader stopped in it),
    // is not parsed: no record of it is written. Long text and CSV, and the other forms
    // of a game the reader read without an error, are written from its record.
    let from_record = |to| match to {
        ConvertTo::Long | ConvertTo::Csv => true,
        ConvertTo::Ludii => false,
        ConvertTo::Pmn | ConvertTo::Relative | ConvertTo::Json | ConvertTo::Jsonl => {
            reads_without_error(&text)
        }
    };
    let needs_record = valid || (forms.keep_broken && from_record(forms.to));
    if !needs_record {
        let mut problems = text.problems().to_vec();
        problems.sort_by_key(|p| p.span.start);
        let notes = altered(name, &problems);
        let kept = (forms.keep_broken)
            .then(|| kept_as_written(text.text(), forms))
            .flatten();
        return broken(name, index, &placed(&text), &trace, notes, kept, forms);
    }
    let parsed = match trace.played < trace.plies_written && !forms.keep_broken {
        true => text.parse_cut(trace.played + 1),
        false => text.parse(),
    };
    convert_one(name, index, parsed, Some(trace), filter, replay, forms)
}

/// The conversion of a game written from its text (`game`, see [`super::exported`]),
/// valid or kept broken, and what is said of it: what the reading changed of its text,
/// then what was kept verbatim (a valid game) or where it fails (one kept broken).
fn of_text(
    name: &str,
    index: usize,
    text: &GameText,
    game: super::Exported,
    trace: Trace,
) -> (Conversion, Vec<String>) {
    let mut notes = altered(name, &game.problems);
    let conversion = Conversion {
        file: name.to_string(),
        game: index,
        trace,
        record: game.record,
        rest: None,
        unread_tags: Vec::new(),
        after_result: game.after_result,
    };
    match conversion.trace.is_valid() {
        true => notes.extend(conversion.kept_summary()),
        false => {
            let error = broken_summary(name, index, &placed(text), &conversion.trace);
            notes.push(format!("{error}; kept (--keep-broken)"));
        }
    }
    (conversion, notes)
}

/// What [`spooled`] made of a game.
enum Spooled {
    /// The game, written.
    Written(Converted),
    /// A game with errors not kept, or `None`: a game the filter turns down.
    LeftOut(Option<Box<Trace>>),
    /// A game written from its record: to be replayed again, keeping its plies.
    Again,
}

/// Long text, CSV or JSON with plies of a valid game whose text the reader reads whole,
/// each ply written as the replay plays it (see [`Spool`]): memory holds the game's
/// text, not its plies or its tree.
fn spooled(
    name: &str,
    index: usize,
    text: &GameText,
    replayer: &mut Replayer,
    replay: &ReplayOptions,
    keep: &dyn Fn(&crate::pmn::Record) -> bool,
    forms: Forms,
) -> Spooled {
    // The plies are replayed again as they are written: this replay, which tells
    // whether the game is written, keeps none.
    let lean = ReplayOptions {
        diagnostics_only: true,
        keep_positions: false,
        keep_laps: false,
        ..replay.clone()
    };
    let replayed = replayer.replay_text(text, &lean, keep);
    let Some((_, trace)) = replayed else {
        return Spooled::LeftOut(None);
    };
    let valid = trace.is_valid();
    match (valid, forms.keep_broken, forms.to) {
        (true, ..) => {}
        (false, false, _) => return Spooled::LeftOut(Some(Box::new(trace))),
        (false, true, ConvertTo::Long | ConvertTo::Csv) => {
            let kept = broken_spooled(name, index, text, replayer, replay, trace, forms);
            return Spooled::Written(kept);
        }
        // Kept broken in JSON, every ply written stays a ply: a game read whole is
        // written from its text as a valid one is.
        (false, true, _) => {}
    }
    let Some(game) = super::exported(text, &trace) else {
        return Spooled::Again;
    };
    let (conversion, notes) = of_text(name, index, text, game, trace);
    let output = match forms.to {
        ConvertTo::Json | ConvertTo::Jsonl => json_spooled(&conversion, forms, text, replay),
        to => plies_spooled(&conversion, to, text, replayer, replay),
    };
    Spooled::Written(Converted {
        notes,
        output: Some(output),
        left_out: 0,
    })
}

/// Long text or CSV of a game with errors kept broken: its plies up to the error
/// written as they are replayed again, and what was not replayed or not read told from
/// its text (see [`text_gaps`]): no record of it is built.
fn broken_spooled(
    name: &str,
    index: usize,
    text: &GameText,
    replayer: &mut Replayer,
    replay: &ReplayOptions,
    trace: Trace,
    forms: Forms,
) -> Converted {
    let gaps = text_gaps(text, &trace);
    let notes = altered(name, &gaps.parsed.problems);
    let conversion = Conversion {
        file: name.to_string(),
        game: index,
        trace,
        // Long text and CSV write the trace and what the record would not hold.
        record: crate::pmn::Record::default(),
        rest: gaps.rest,
        unread_tags: gaps.tags,
        after_result: gaps.after_result,
    };
    let output = plies_spooled(&conversion, forms.to, text, replayer, replay);
    let trace = &conversion.trace;
    broken(name, index, &gaps.parsed, trace, notes, Some(output), forms)
}

/// Long text or CSV (`to`) of a game converted from `text`, its plies replayed again
/// under `replay` and written as they are played.
fn plies_spooled(
    c: &Conversion,
    to: ConvertTo,
    text: &GameText,
    replayer: &mut Replayer,
    replay: &ReplayOptions,
) -> Rendered {
    let mut plies = PlyOut::new(to);
    let mut each = |_: &crate::rules::Rules, view: &crate::replay::PlyView<'_>| {
        plies.ply(&c.file, c.game, &view.to_trace(replay));
    };
    replayer.replay_text_each(text, replay, &|_| true, Some(&mut each));
    plies.finish(c)
}

/// The JSON of a valid game converted whole, written as its tree is read again and its
/// plies are replayed again (see [`write_json_of_text`]).
fn json_spooled(c: &Conversion, forms: Forms, text: &GameText, replay: &ReplayOptions) -> Rendered {
    let pretty = forms.to == ConvertTo::Json;
    let mut out = Spool::new();
    let written = write_json_of_text(c, pretty, forms.writes_positions(), text, replay, &mut out);
    Rendered::Spooled {
        head: Vec::new(),
        plies: written.map(|()| out).map_err(io::Error::from),
        tail: Vec::new(),
    }
}

/// The plies of a game in long text or CSV, written as they are played.
enum PlyOut {
    Long {
        plies: Spool,
        ply: String,
        failed: Option<io::Error>,
    },
    // Boxed: the writer keeps its buffer's state inline, some 370 bytes.
    Csv(Box<csv::Writer<Spool>>, Option<csv::Error>),
}

impl PlyOut {
    fn new(to: ConvertTo) -> PlyOut {
        match to {
            ConvertTo::Csv => PlyOut::Csv(Box::new(csv::Writer::from_writer(Spool::new())), None),
            _ => PlyOut::Long {
                plies: Spool::new(),
                ply: String::new(),
                failed: None,
            },
        }
    }

    fn ply(&mut self, file: &str, game: usize, p: &PlyTrace) {
        match self {
            PlyOut::Long {
                failed: Some(_), ..
            }
            | PlyOut::Csv(_, Some(_)) => {}
            PlyOut::Long { plies, ply, failed } => {
                ply.clear();
                long_ply(ply, p);
                // A ply's lines end with a line break: escaped a ply at a time as whole.
                let written = plies.write_all(crate::escape::escaped(ply).as_bytes());
                *failed = written.err();
            }
            PlyOut::Csv(w, failed) => *failed = w.write_record(csv_ply_row(file, game, p)).err(),
        }
    }

    /// The game written: its plies between what comes before and after them.
    fn finish(self, c: &Conversion) -> Rendered {
        let (head, plies, tail) = match self {
            PlyOut::Long { plies, failed, .. } => {
                let escaped = |s: String| crate::escape::escaped_owned(s).into_bytes();
                let plies = failed.map_or(Ok(plies), Err);
                (escaped(long_head(c)), plies, escaped(long_tail(c)))
            }
            PlyOut::Csv(w, failed) => {
                let plies = match failed {
                    Some(e) => Err(csv_io_error(e)),
                    None => w.into_inner().map_err(|e| e.into_error()),
                };
                (
                    csv_bytes(csv_head_rows(c)),
                    plies,
                    csv_bytes(csv_tail_rows(c)),
                )
            }
        };
        Rendered::Spooled { head, plies, tail }
    }
}

/// Rows written as CSV.
fn csv_bytes(rows: Vec<[String; 11]>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        // Writing to memory fails only as its allocation does.
        let _ = w.write_record(&row);
    }
    w.into_inner().unwrap_or_default()
}

/// A CSV writer's failure, as the failure to write its bytes.
fn csv_io_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        kind => io::Error::other(format!("{kind:?}")),
    }
}

/// Converts a game read, `index` of its input `name`, if the filter accepts it, into the
/// form `to`; `trace` is its replay when it was replayed from its text (the filter then
/// accepted it). A game with errors is left out and said to be, unless it is kept broken
/// ([`Forms::keep_broken`]) in a form that can hold it so.
fn convert_one(
    name: &str,
    index: usize,
    mut parsed: ParsedGame,
    trace: Option<Trace>,
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
    if trace.is_none() && !filter.accepts(&parsed.record) {
        return Converted::default();
    }
    let mut notes = altered(name, &parsed.problems);
    let trace = trace.unwrap_or_else(|| crate::replay::replay(&parsed, replay));
    if trace.is_valid() {
        // The record is taken, not copied: the game is not read again.
        let record = std::mem::take(&mut parsed.record);
        let conversion = converted(name, index, &parsed, record, trace, false);
        drop(parsed);
        notes.extend(conversion.kept_summary());
        return Converted {
            notes,
            output: Some(render(forms, &conversion)),
            ..Converted::default()
        };
    }
    let kept = forms
        .keep_broken
        .then(|| keep_broken(name, index, &parsed, replay, forms));
    broken(name, index, &parsed, &trace, notes, kept.flatten(), forms)
}

/// A game with errors, `parsed` placing its diagnostics (see [`broken_summary`]), kept
/// as `kept` or left out, and what is said of it after `notes`.
fn broken(
    name: &str,
    index: usize,
    parsed: &ParsedGame,
    trace: &Trace,
    mut notes: Vec<String>,
    kept: Option<Rendered>,
    forms: Forms,
) -> Converted {
    let error = broken_summary(name, index, parsed, trace);
    match kept {
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

/// What the reading changed of a game's text (bytes read as Latin-1 or replaced, NUL
/// bytes read as spaces), said as PMN.md asks, since the output holds it so: of the
/// game's `problems`, in their order.
fn altered(name: &str, problems: &[Problem]) -> Vec<String> {
    (problems.iter())
        .filter(|p| matches!(p.code, Code::Encoding | Code::NulByte))
        .map(|p| format!("{name}:{p}"))
        .collect()
}

/// A game of `text` as [`broken_summary`] places it (a diagnostic with no place at the
/// game's first line), without its record.
fn placed(text: &GameText) -> ParsedGame {
    ParsedGame {
        record: Default::default(),
        problems: Vec::new(),
        text: String::new(),
        offset: text.offset(),
        line: text.line(),
    }
}

/// `FILE:LINE:COL: game K: error[CODE]: message` for a game with errors, at its first
/// error.
fn broken_summary(file: &str, game: usize, parsed: &ParsedGame, trace: &Trace) -> String {
    let cause = replay_cause(parsed, trace);
    format!(
        "{file}:{}:{}: game {game}: error[{}]: {}",
        cause.line, cause.column, cause.code, cause.message
    )
}

/// A game with errors, read in the form `from`, in the form `to`, failing where it fails
/// as read: every ply
/// written stays a ply when the reader read the whole game; PMN read from PMN or JSON
/// that the reader stopped in is written as the game's text, verbatim. Long text and CSV,
/// which are not read back, hold the game as far as it replays and the rest as text.
/// `None` when the form cannot hold the game failing (Ludii's list holds the plies
/// replayed only).
pub(super) fn keep_broken(
    name: &str,
    index: usize,
    parsed: &ParsedGame,
    replay: &ReplayOptions,
    forms: Forms,
) -> Option<Rendered> {
    let Forms { to, .. } = forms;
    match to {
        ConvertTo::Pmn | ConvertTo::Relative | ConvertTo::Json | ConvertTo::Jsonl => {
            if let Some(c) = convert_broken_game(name, index, parsed, replay) {
                let rendered = render(forms, &c);
                // A ply that names no pit of its seat (another seat's pit, a pit off the
                // board) has no seat-relative number: such a game cannot fail alike.
                if to == ConvertTo::Relative && !relative_fails_alike(&rendered, &c.trace, replay) {
                    return None;
                }
                return Some(rendered);
            }
            kept_as_written(&parsed.text, forms)
        }
        ConvertTo::Long | ConvertTo::Csv => {
            Some(render(forms, &convert_game(name, index, parsed, replay)))
        }
        ConvertTo::Ludii => None,
    }
}

/// A game with errors whose reading has errors, kept failing where it fails: PMN read
/// from PMN or JSON as its text (`text`), verbatim; `None` in any other form.
fn kept_as_written(text: &str, forms: Forms) -> Option<Rendered> {
    let pmn_text = matches!(forms.from, Some(ConvertFrom::Pmn | ConvertFrom::Json));
    if forms.to == ConvertTo::Pmn && pmn_text {
        let mut text = text.trim_matches(is_space).to_string();
        text.push('\n');
        return Some(Rendered::Text(text));
    }
    None
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

/// [`relative_fails_alike`] of a game's relative text written from its text: read
/// back with `numbers` and replayed as it is read.
fn relative_text_fails_alike(
    replayer: &mut Replayer,
    written: &str,
    numbers: Option<&dyn crate::pmn::PitNumbers>,
    trace: &Trace,
    options: &ReplayOptions,
) -> bool {
    let Some(game) = crate::pmn::Reader::new(written.as_bytes()).next_text() else {
        return false;
    };
    let lean = ReplayOptions {
        diagnostics_only: true,
        keep_positions: false,
        keep_laps: false,
        ..options.clone()
    };
    let replayed = replayer.replay_numbered_text(&game, numbers, &lean, &|_| true, None);
    let first = |t: &Trace| t.first_error().map(|d| (d.ply, d.code));
    replayed.is_some_and(|(_, back)| first(&back) == first(trace))
}

/// Writes the output of one run, a game at a time.
struct OutputWriter<'a> {
    sink: Sink<'a>,
    pub(super) games: usize,
    /// What the output is called in messages (a file, or `<stdout>`).
    pub(super) name: &'a Path,
}

/// Where a run's output goes, in which form.
enum Sink<'a> {
    /// Games one after the other, a blank line between two: PMN, relative, Ludii, long.
    Games(&'a mut dyn io::Write),
    /// A JSON array of records.
    JsonArray(&'a mut dyn io::Write),
    /// A JSON record a line.
    JsonLines(&'a mut dyn io::Write),
    /// CSV: its header, then each game's rows.
    Csv(&'a mut dyn io::Write),
}

/// A game in the form `forms.to`: made where the game is converted, written in input
/// order.
fn render(forms: Forms, c: &Conversion) -> Rendered {
    Rendered::Text(match forms.to {
        ConvertTo::Pmn => to_pmn(c),
        ConvertTo::Relative => to_relative(c),
        ConvertTo::Ludii => to_ludii(c),
        ConvertTo::Long => to_long(c),
        ConvertTo::Json => to_json(c, true),
        ConvertTo::Jsonl if forms.positions => to_json(c, false),
        ConvertTo::Jsonl if forms.plies => to_lean_json(c),
        ConvertTo::Jsonl => to_compact_json(c),
        ConvertTo::Csv => return Rendered::Rows(csv_rows(c)),
    })
}

impl<'a> OutputWriter<'a> {
    pub(super) fn new(
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
                let header = csv_bytes(vec![CSV_HEADER.map(String::from)]);
                out.write_all(&header)
                    .map_err(|e| CommandError::io(name, e))?;
                Sink::Csv(out)
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
        let (out, before, after): (_, &[u8], &[u8]) = match &mut self.sink {
            Sink::Csv(out) => (out, b"", b""),
            Sink::Games(out) => (out, if first { b"" } else { b"\n" }, b""),
            Sink::JsonArray(out) => (out, if first { b"[\n" } else { b",\n" }, b""),
            Sink::JsonLines(out) => (out, b"", b"\n"),
        };
        let written = match game {
            Rendered::Rows(rows) => out.write_all(&csv_bytes(rows)),
            Rendered::Text(text) => write_spooled(out, before, text.as_bytes(), None, after),
            Rendered::Spooled { head, plies, tail } => {
                let plies = plies.map_err(|e| CommandError::io(self.name, e))?;
                write_spooled(out, before, &head, Some(plies), &tail)
                    .and_then(|()| out.write_all(after))
            }
        };
        written.map_err(|e| CommandError::io(self.name, e))
    }

    fn finish(self) -> Result<(), CommandError> {
        let name = self.name;
        match self.sink {
            Sink::JsonArray(out) => {
                let end = if self.games == 0 { "[]\n" } else { "\n]\n" };
                out.write_all(end.as_bytes())
                    .map_err(|e| CommandError::io(name, e))
            }
            Sink::Games(_) | Sink::JsonLines(_) | Sink::Csv(_) => Ok(()),
        }
    }
}

/// Writes `head`, the bytes of `plies` and `tail`, after `before`.
fn write_spooled(
    out: &mut dyn io::Write,
    before: &[u8],
    head: &[u8],
    plies: Option<Spool>,
    tail: &[u8],
) -> io::Result<()> {
    out.write_all(before)?;
    out.write_all(head)?;
    if let Some(plies) = plies {
        plies.write_to(out)?;
    }
    out.write_all(tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games the reader reads whole, valid: nested variations, NAGs, a suffix, comments
    /// with commands, a `;` comment, text after the result (a warning), Kiothi's
    /// opening redistribution and nki.
    const GAMES: &str = r#"[Game "Tsoro"]
[Board "4x6"]
[Rules "heads=0"]
[SetUp "1"]
[Position "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N"]
[Result "*"]

{before the first ply} 1... c5 $1 {a note [%clock 0:01]} (1... c5 {inner} (1... c5) $2)
2. a3!? c6 ;a line comment
3. a6 (3. a6) d6 4. a5 d5 *
trailing words after the result

[Game "Kiothi"]
[Result "*"]

1. a7,a9>a5:10 $3 b1,b2>b3:6,b9:4 {every occupied pit nki}
2. a8:1-a9 {[%stones 0 0]} *

[Game "Tsoro"]
[Board "4x6"]
[Rules "heads=0"]
[SetUp "1"]
[Position "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N"]
[Broken tag line
[Result "*"]

1... c5 2. a3 c6 3. ) a6 d6 *

[Game "Tsoro"]
[Board "4x6"]
[Rules "heads=0"]
[SetUp "1"]
[Position "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N"]
[Result "*"]

1... c5 {note} 2. a3 $1 (2. a3 {x} (2. a3 c6) 3. a6 *

[Game "Tsoro"]
[Board "4x6"]
[Rules "heads=0"]
[SetUp "1"]
[Position "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N"]
[Result "*"]

1... c5 2. a1 c6 3. a6 ) d6 *

[Game "Tsoro"]
[Board "4x6"]
[Numbering "as in the notebook"]
[Rules "heads=0"]
[SetUp "1"]
[Position "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N"]
[Result "*"]

1... c5 2. a3 c6 3. a9 d6 *

[Game "Tsoro"]
[Board "4x6"]
[Numbering "as in the notebook"]
[Rules "heads=0"]
[SetUp "1"]
[Position "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N"]
[Result "*"]

1... c5 2. a1 {empty} c6 3. a6 *

[Game "Tsoro"]
[Board "4x6"]
[Rules "heads=0"]
[SetUp "1"]
[Position "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N"]
[Result "*"]

1... c5 2. a3 c6 3. a6 d6 4. a5 d5 } *
after the result

[Game "Tsoro"]
[Board "4x6"]
[Rules "heads=0"]
[SetUp "1"]
[Position "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N"]
[Result "*"]

1... c5 2. a3 c6 3. 4. a6 ) d6

[Game "Tsoro"]
[Board "4x6"]
[Rules "heads=0"]
[SetUp "1"]
[Position "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N"]

1... c5 2. a3 (2. a3 (2. a3 c6)"#;

    fn forms(to: ConvertTo, plies: bool, positions: bool) -> Forms {
        Forms {
            from: Some(ConvertFrom::Pmn),
            to,
            keep_broken: false,
            positions,
            plies,
        }
    }

    /// A converted game's output as the writer writes it, after a first game.
    fn bytes(to: ConvertTo, game: Converted) -> Vec<u8> {
        let mut out = Vec::new();
        let mut writer = OutputWriter::new(to, &mut out, Path::new("out")).unwrap();
        writer.write(Rendered::Text(String::new())).unwrap();
        if let Some(output) = game.output {
            writer.write(output).unwrap();
        }
        writer.finish().unwrap();
        out
    }

    /// The twin of the forms that write each ply as the replay plays it, and of those
    /// written from the game's text (PMN and relative numbering, valid or kept broken):
    /// the same game converted from its record. Every game of `records/` and of [`GAMES`] (valid, not
    /// replayed to the end, or with the reader stopped in it: at a stray `)` or `}`
    /// after move numbers, at an unclosed variation (one ending at the `)` of one inside
    /// it, the text's last byte), after an illegal ply, after an unread tag line), in
    /// each such form, and kept broken: the same notes, the same bytes.
    #[test]
    fn a_game_written_as_it_is_played_is_the_bytes_of_its_record() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("records");
        let mut files = vec![("games".to_string(), GAMES.to_string())];
        for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
            let entry = entry.unwrap();
            if entry.path().extension().is_some_and(|e| e == "pmn") {
                let text = std::fs::read_to_string(entry.path()).unwrap();
                files.push((entry.path().display().to_string(), text));
            }
        }
        let kept = |to| Forms {
            keep_broken: true,
            ..forms(to, false, false)
        };
        let all = [
            forms(ConvertTo::Relative, false, false),
            kept(ConvertTo::Relative),
            kept(ConvertTo::Pmn),
            forms(ConvertTo::Csv, false, false),
            forms(ConvertTo::Long, false, false),
            kept(ConvertTo::Csv),
            kept(ConvertTo::Long),
            kept(ConvertTo::Json),
            Forms {
                keep_broken: true,
                ..forms(ConvertTo::Jsonl, false, true)
            },
            forms(ConvertTo::Json, false, false),
            forms(ConvertTo::Jsonl, true, false),
            forms(ConvertTo::Jsonl, false, true),
        ];
        let filter = Filter::new(None, &[]).unwrap();
        let (mut games, mut written) = (0, 0);
        for (name, text) in &files {
            let mut reader = crate::pmn::Reader::new(text.as_bytes());
            let mut index = 0;
            while let Some(game) = reader.next_text() {
                index += 1;
                games += 1;
                for forms in all {
                    let replay = output_replay(&ReplayOptions::full(), forms);
                    let played = convert_text(name, index, game.clone(), &filter, &replay, forms);
                    let parsed = game.clone().parse();
                    let kept = convert_one(name, index, parsed, None, &filter, &replay, forms);
                    let what = format!("{name}, game {index}, {}", forms.to.name());
                    assert_eq!(played.notes, kept.notes, "{what}");
                    assert_eq!(played.left_out, kept.left_out, "{what}");
                    written += usize::from(played.output.is_some());
                    let (played, kept) = (bytes(forms.to, played), bytes(forms.to, kept));
                    assert!(played == kept, "{what}: the bytes differ");
                }
            }
        }
        assert!(
            games > 50 && written > 100,
            "{games} games, {written} written"
        );
    }
}
