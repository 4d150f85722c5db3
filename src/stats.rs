//! `sow stats`: statistics as CSV, one row per ply or per game, read from replay traces.
//!
//! Every number here is read from the [`Trace`] that one replay produced; this module
//! never plays a move. The columns are defined in `schemas/stats-ply.schema.json` and
//! `schemas/stats-game.schema.json` (Frictionless Table Schema) and in
//! `docs/stats-columns.md`.
//!
//! Streaming: the inputs are walked by the corpus driver ([`crate::corpus::drive`]), their
//! games replayed in parallel batches of at most [`BATCH`], and the rows written in
//! input order as each batch is done: memory holds a few batches' rows, whatever the
//! size of the corpus.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::corpus::{self, Batches, Filter, Input, Work};
use crate::error::CommandError;
use crate::games;
use crate::geometry::Side;
use crate::moves::Effect;
use crate::pmn::GameText;
use crate::pmn::{ParsedGame, Record};
use crate::replay::{replay, PlyView, ReplayOptions, Replayer, Trace};
use crate::rules::{Game, Rules};
use crate::spool::Spool;
use crate::validate::push_decimal;

pub use crate::corpus::BATCH;

/// What a row of the table stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Per {
    /// One row per ply replayed.
    Ply,
    /// One row per game.
    Game,
}

/// One row per ply replayed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyRow {
    /// The input's name as given on the command line (`<stdin>` for `-`).
    pub file: String,
    /// The game's number in its file, from 1 (games left out by a filter count too).
    pub game: usize,
    /// The ply's number in the game, from 1.
    pub ply: u32,
    /// Who played it: `South` or `North`.
    pub player: String,
    /// The ply as written (without its suffix annotation).
    #[serde(rename = "move")]
    pub mv: String,
    /// Laps of the sowing (0 for Kiothi's opening redistribution).
    pub laps: u64,
    /// Stones dropped in all laps.
    pub stones_sown: u64,
    /// The pit the move ended in (empty for an opening redistribution).
    pub end_pit: Option<String>,
    /// Stones captured (Kiothi: the capturing stone included), bonus not included.
    pub captured: u32,
    /// Stones taken as a bonus (Tsoro, Nsolo).
    pub bonus: u32,
    /// Stones on South's rows after the ply.
    pub south: u32,
    /// Stones on North's rows after the ply.
    pub north: u32,
    /// Kiothi: stones in South's prison after the ply (before any end-of-game award).
    pub south_prison: Option<u16>,
    /// Kiothi: stones in North's prison after the ply.
    pub north_prison: Option<u16>,
    /// Legal plies of the side to move after the ply (each listed move counting the
    /// plies it stands for, a bonus still to choose counting once).
    pub legal_moves: usize,
    /// The set of games it belongs to ([`set_of`]): rows of different sets are not to be
    /// pooled.
    pub set: String,
}

/// The column names of [`PlyRow`], in order.
pub const PLY_COLUMNS: &[&str] = &[
    "file",
    "game",
    "ply",
    "player",
    "move",
    "laps",
    "stones_sown",
    "end_pit",
    "captured",
    "bonus",
    "south",
    "north",
    "south_prison",
    "north_prison",
    "legal_moves",
    "set",
];

/// One row per game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    pub file: String,
    pub game: usize,
    /// A short label from the tags: `South - North, Event, Date`.
    pub name: String,
    /// The board, `RxC` (empty when the tags could not be understood).
    pub board: Option<String>,
    /// The non-default rule options in export form (the `Rules` tag as written when the
    /// tags could not be understood).
    pub rules: String,
    /// Plies replayed (all of them for a valid game; those before the error otherwise).
    pub plies: usize,
    /// Plies written in the record's main line.
    pub plies_written: usize,
    /// The declared result: `1-0`, `0-1`, `1/2-1/2` or `*` (empty when none).
    pub result: Option<String>,
    /// Whether the game is over by the rules after the last ply replayed (a complete
    /// replay only).
    pub over: bool,
    /// `South`, `North` or `draw`: the outcome by the rules when the game is over, else
    /// the declared decisive or drawn result, else empty.
    pub winner: Option<String>,
    /// `south_final - north_final`.
    pub margin: Option<i64>,
    /// South's final count: Kiothi, the prison after the end-of-game award when the game
    /// is over (else the prison after the last ply); other games, the stones on South's
    /// rows after the last ply replayed.
    pub south_final: Option<u32>,
    /// North's final count, as `south_final`.
    pub north_final: Option<u32>,
    /// Stones captured by South, bonus included, over the plies replayed.
    pub captures_south: u32,
    /// Stones captured by North, bonus included.
    pub captures_north: u32,
    /// Laps of all plies replayed.
    pub total_laps: u64,
    /// Most laps of one ply.
    pub max_laps: u64,
    /// Most stones sown by one ply.
    pub longest_sowing: u64,
    /// The first ply that captured.
    pub first_capture_ply: Option<u32>,
    /// Kiothi, game over: won by exactly two stones.
    pub one_warrior_victory: Option<bool>,
    /// No diagnostic is an error.
    pub valid: bool,
    /// The ply of the first error (empty when valid or when the error is not at a ply).
    pub first_error_ply: Option<u32>,
    /// The set of games it belongs to ([`set_of`]; empty when the tags could not be
    /// understood): rows of different sets are not to be pooled.
    pub set: String,
}

/// The set of games a game belongs to: game, board and rule options, e.g. `Tsoro 4x8`
/// or `Tsoro 4x21 head-bonus=yes`. Games of different sets play by different rules or
/// on different boards, and no statistic or figure pools them.
pub fn set_of(rules: &Rules) -> String {
    let options = rules.options_tag();
    let space = if options.is_empty() { "" } else { " " };
    format!("{} {}{space}{options}", rules.game(), rules.board())
}

/// The column names of [`GameRow`], in order.
pub const GAME_COLUMNS: &[&str] = &[
    "file",
    "game",
    "name",
    "board",
    "rules",
    "plies",
    "plies_written",
    "result",
    "over",
    "winner",
    "margin",
    "south_final",
    "north_final",
    "captures_south",
    "captures_north",
    "total_laps",
    "max_laps",
    "longest_sowing",
    "first_capture_ply",
    "one_warrior_victory",
    "valid",
    "first_error_ply",
    "set",
];

/// A short label of a game from its tags: `South - North, Event, Date`, parts that are
/// missing or `?` left out (`?` for both players when neither is named).
pub fn game_name(record: &Record) -> String {
    let known = |name: &str| {
        record
            .tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?" && !v.chars().all(|c| c == '?' || c == '.'))
    };
    let mut parts = Vec::new();
    match (known("South"), known("North")) {
        (None, None) => {}
        (s, n) => parts.push(format!("{} - {}", s.unwrap_or("?"), n.unwrap_or("?"))),
    }
    parts.extend(known("Event").map(String::from));
    parts.extend(known("Date").map(String::from));
    if parts.is_empty() {
        record
            .tag("Game")
            .map(String::from)
            .unwrap_or_else(|| "?".into())
    } else {
        parts.join(", ")
    }
}

/// The rows of the plies replayed in a game.
pub fn ply_rows(file: &str, game: usize, trace: &Trace) -> Vec<PlyRow> {
    let Some(rules) = &trace.rules else {
        return Vec::new();
    };
    let kiothi = rules.game() == Game::Kiothi;
    let last = trace.plies.len();
    trace
        .plies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            // A repetition draw ends the game with moves still on the board.
            let over = i + 1 == last && trace.outcome.is_some();
            let e = &p.effect;
            let after = p.after.as_ref();
            let captured: u32 = e.captured.iter().map(|&(_, n)| n as u32).sum();
            let bonus: u32 = e.bonus.iter().map(|&(_, n)| n as u32).sum();
            PlyRow {
                file: file.to_string(),
                game,
                ply: p.number,
                player: p.side.name().to_string(),
                mv: p.text.clone(),
                laps: e.lap_count,
                stones_sown: e.stones_sown,
                end_pit: e.end.map(|pit| pit.to_string()),
                captured,
                bonus,
                south: after.map_or(0, |a| a.stones_of(Side::South)),
                north: after.map_or(0, |a| a.stones_of(Side::North)),
                south_prison: after.filter(|_| kiothi).map(|a| a.prisons()[0]),
                north_prison: after.filter(|_| kiothi).map(|a| a.prisons()[1]),
                // The listing itself, where the fast path counts without one.
                legal_moves: match after {
                    Some(a) if !over => {
                        let legal = games::legal_moves(rules, a);
                        legal
                            .iter()
                            .map(crate::moves::Candidate::plies)
                            .sum::<u64>() as usize
                    }
                    _ => 0,
                },
                set: set_of(rules),
            }
        })
        .collect()
}

/// Who won: the outcome by the rules when the game is over after the last ply
/// replayed, else the declared decisive or drawn result; `Some(None)` is a draw, `None`
/// an unfinished game (or one whose result is not known).
pub fn winner_of(trace: &Trace) -> Option<Option<Side>> {
    match (&trace.outcome, trace.declared) {
        (Some(o), _) => Some(o.winner()),
        (None, Some(r)) => match r.as_str() {
            "1-0" => Some(Some(Side::South)),
            "0-1" => Some(Some(Side::North)),
            "1/2-1/2" => Some(None),
            _ => None,
        },
        _ => None,
    }
}

/// The row of a game.
pub fn game_row(file: &str, game: usize, record: &Record, trace: &Trace) -> GameRow {
    let mut tally = Tally::default();
    (trace.plies.iter()).for_each(|p| tally.add(p.number, p.side, &p.effect));
    tally.row(file, game, record, trace)
}

/// What a game's row counts over its plies, a ply at a time: a game row needs no
/// ply kept.
#[derive(Default)]
struct Tally {
    plies: usize,
    captures: [u32; 2],
    total_laps: u64,
    max_laps: u64,
    longest_sowing: u64,
    first_capture_ply: Option<u32>,
}

impl Tally {
    /// Adds ply `number`, played by `side` with the effect `e`.
    fn add(&mut self, number: u32, side: Side, e: &Effect) {
        self.plies += 1;
        self.captures[side.index()] += e.stones_taken();
        self.total_laps += e.lap_count;
        self.max_laps = self.max_laps.max(e.lap_count);
        self.longest_sowing = self.longest_sowing.max(e.stones_sown);
        if self.first_capture_ply.is_none() && (e.is_capture() || !e.bonus.is_empty()) {
            self.first_capture_ply = Some(number);
        }
    }

    /// The row, of the game whose plies were added (`trace` holds the rest).
    fn row(self, file: &str, game: usize, record: &Record, trace: &Trace) -> GameRow {
        let Tally {
            plies,
            captures,
            total_laps,
            max_laps,
            longest_sowing,
            first_capture_ply,
        } = self;
        let kiothi = trace.rules.as_ref().map(|r| r.game()) == Some(Game::Kiothi);
        let finals: Option<[u32; 2]> = match (&trace.outcome, &trace.last) {
            (Some(o), _) if o.score().is_some() => o.score().map(|[s, n]| [s as u32, n as u32]),
            (_, Some(last)) if kiothi => Some([last.prisons()[0] as u32, last.prisons()[1] as u32]),
            (_, Some(last)) => Some([last.stones_of(Side::South), last.stones_of(Side::North)]),
            _ => None,
        };
        let side_name = |s: Option<Side>| s.map_or("draw", Side::name).to_string();
        let winner = match (&trace.outcome, trace.declared) {
            (Some(o), _) => Some(side_name(o.winner())),
            (None, Some(r)) => match r.as_str() {
                "1-0" => Some("South".to_string()),
                "0-1" => Some("North".to_string()),
                "1/2-1/2" => Some("draw".to_string()),
                _ => None,
            },
            _ => None,
        };
        GameRow {
            file: file.to_string(),
            game,
            name: game_name(record),
            board: trace.rules.as_ref().map(|r| r.board().to_string()),
            rules: match &trace.rules {
                Some(r) => r.options_tag(),
                None => record.tag("Rules").unwrap_or("").to_string(),
            },
            plies,
            plies_written: trace.plies_written,
            result: trace.declared.map(|r| r.as_str().to_string()),
            over: trace.outcome.is_some(),
            winner,
            margin: finals.map(|[s, n]| s as i64 - n as i64),
            south_final: finals.map(|f| f[0]),
            north_final: finals.map(|f| f[1]),
            captures_south: captures[0],
            captures_north: captures[1],
            total_laps,
            max_laps,
            longest_sowing,
            first_capture_ply,
            one_warrior_victory: trace
                .outcome
                .filter(|_| kiothi)
                .map(|o| o.one_warrior_victory()),
            valid: trace.is_valid(),
            first_error_ply: trace.first_error_ply(),
            set: trace.rules.as_ref().map(set_of).unwrap_or_default(),
        }
    }
}

fn csv_error(e: csv::Error) -> CommandError {
    CommandError::Output(format!("cannot write CSV: {e}"))
}

/// The CSV rows (without the header) of one game, `index` of its file `name`: the
/// slow twin of [`RowWriter`], through serde and the csv crate.
fn game_csv(
    name: &str,
    index: usize,
    game: &ParsedGame,
    trace: &Trace,
    per: Per,
) -> Result<Vec<u8>, CommandError> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    let result = match per {
        Per::Ply => ply_rows(name, index, trace)
            .iter()
            .try_for_each(|row| w.serialize(row)),
        Per::Game => w.serialize(game_row(name, index, &game.record, trace)),
    };
    result
        .map_err(csv_error)
        .and_then(|()| w.into_inner().map_err(|e| csv_error(e.into_error().into())))
}

/// Whether a CSV field must be quoted, as the csv crate decides: when it holds a comma,
/// a quote or a line break.
fn needs_quotes(field: &[u8]) -> bool {
    (field.iter()).any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
}

/// Appends `field` to a CSV row as the csv crate writes it: quoted, its quotes doubled,
/// when it [`needs_quotes`]; as it is otherwise.
fn push_field(out: &mut Vec<u8>, field: &str) {
    let bytes = field.as_bytes();
    if !needs_quotes(bytes) {
        out.extend_from_slice(bytes);
        return;
    }
    push_quoted(out, bytes);
}

/// Appends `bytes` quoted, its quotes doubled.
fn push_quoted(out: &mut Vec<u8>, bytes: &[u8]) {
    out.push(b'"');
    for &b in bytes {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

/// Writes a game's ply rows as its plies are replayed, into a buffer handed on whole: the
/// fast path of [`ply_rows`] and the csv crate, byte for byte the same (a test holds them
/// together). A row is written but for its last two fields until the
/// next ply comes: the last ply's legal moves are 0 when the game is over, which is
/// known only at the end.
struct RowWriter {
    out: Vec<u8>,
    /// The game's rows before those in `out`, once they pass [`SPILLED`]: a long game's
    /// rows are not held.
    spilled: Option<io::Result<Spool>>,
    /// `FILE,GAME,` of the game's rows.
    prefix: Vec<u8>,
    /// `,SET\n` of the game's rows, once its rules are known.
    suffix: Vec<u8>,
    /// The legal moves after the last ply written.
    legal: Option<u64>,
}

impl RowWriter {
    fn new() -> RowWriter {
        RowWriter {
            out: Vec::new(),
            spilled: None,
            prefix: Vec::new(),
            suffix: Vec::new(),
            legal: None,
        }
    }

    /// Begins the rows of game `game` of the file `file`.
    fn begin(&mut self, file: &str, game: usize) {
        self.out.clear();
        self.spilled = None;
        self.prefix.clear();
        push_field(&mut self.prefix, file);
        self.prefix.push(b',');
        push_decimal(&mut self.prefix, game as u64);
        self.prefix.push(b',');
        self.suffix.clear();
        self.legal = None;
    }

    /// Ends the row before, with `legal` legal moves.
    fn end_row(&mut self, legal: u64) {
        push_decimal(&mut self.out, legal);
        self.out.extend_from_slice(&self.suffix);
    }

    fn ply(&mut self, rules: &Rules, p: &PlyView<'_>) {
        if let Some(legal) = self.legal.take() {
            self.end_row(legal);
            if self.out.len() >= SPILLED {
                self.spill();
            }
        }
        if self.suffix.is_empty() {
            self.suffix.push(b',');
            push_field(&mut self.suffix, &set_of(rules));
            self.suffix.push(b'\n');
        }
        let out = &mut self.out;
        let e = p.effect;
        let after = p.after;
        let kiothi = rules.game() == Game::Kiothi;
        out.extend_from_slice(&self.prefix);
        push_decimal(out, p.number.into());
        out.push(b',');
        out.extend_from_slice(p.side.name().as_bytes());
        out.push(b',');
        // The trace's text of the ply ([`PlyTrace::text`]) by the syntax's own writer,
        // straight into the row, and quoted there in the rare case it must be.
        let start = out.len();
        let _ = (p.syntax).write_pits(&mut RowText(out), |text, pit| {
            pit.push_name(text.0);
            Ok(())
        });
        if needs_quotes(&out[start..]) {
            let text = out.split_off(start);
            push_quoted(out, &text);
        }
        out.push(b',');
        push_decimal(out, e.lap_count);
        out.push(b',');
        push_decimal(out, e.stones_sown);
        out.push(b',');
        if let Some(pit) = e.end {
            pit.push_name(out);
        }
        out.push(b',');
        let captured: u32 = e.captured.iter().map(|&(_, n)| n as u32).sum();
        let bonus: u32 = e.bonus.iter().map(|&(_, n)| n as u32).sum();
        push_decimal(out, captured.into());
        out.push(b',');
        push_decimal(out, bonus.into());
        out.push(b',');
        push_decimal(out, after.map_or(0, |a| a.stones_of(Side::South)).into());
        out.push(b',');
        push_decimal(out, after.map_or(0, |a| a.stones_of(Side::North)).into());
        out.push(b',');
        if let Some(a) = after.filter(|_| kiothi) {
            push_decimal(out, a.prisons()[0].into());
            out.push(b',');
            push_decimal(out, a.prisons()[1].into());
        } else {
            out.push(b',');
        }
        out.push(b',');
        self.legal = Some(match after {
            Some(a) => games::legal_ply_count(rules, a),
            None => 0,
        });
    }

    /// Ends the game's rows: the last ply's legal moves are none when the game is over.
    fn finish(&mut self, trace: &Trace) {
        if let Some(legal) = self.legal.take() {
            self.end_row(if trace.outcome.is_some() { 0 } else { legal });
        }
    }

    /// Moves the rows written to the game's spool.
    fn spill(&mut self) {
        let spool = self.spilled.get_or_insert_with(|| Ok(Spool::new()));
        if let Ok(spool) = spool {
            if let Err(e) = spool.write_all(&self.out) {
                self.spilled = Some(Err(e));
            }
        }
        self.out.clear();
    }

    /// The game's rows, those spilled first; the writer keeps a buffer as large as the
    /// game's last rows (up to [`SPILLED`]) for the next game's: games of a corpus are
    /// much alike, and a buffer grown from nothing copies its rows again at every
    /// doubling.
    fn take(&mut self) -> GameRows {
        let next = Vec::with_capacity(self.out.len().min(SPILLED));
        GameRows {
            spilled: self.spilled.take(),
            rows: std::mem::replace(&mut self.out, next),
        }
    }
}

/// Bytes of a game's rows held in memory; past them, the rows go to a spool. Small in
/// the tests, so that the twin of the rows spills.
#[cfg(not(test))]
const SPILLED: usize = 1 << 20;
#[cfg(test)]
const SPILLED: usize = 1 << 10;

/// The rows of one game: those spilled to a spool (or why they could not be), then the
/// rest.
#[derive(Default)]
struct GameRows {
    spilled: Option<io::Result<Spool>>,
    rows: Vec<u8>,
}

impl GameRows {
    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(spilled) = self.spilled {
            spilled?.write_to(out)?;
        }
        out.write_all(&self.rows)
    }
}

impl From<Vec<u8>> for GameRows {
    fn from(rows: Vec<u8>) -> GameRows {
        GameRows {
            spilled: None,
            rows,
        }
    }
}

/// A row being written, as the writer of a ply's text.
struct RowText<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for RowText<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// What a worker keeps from game to game: its replay context and row buffer.
struct Worker {
    replayer: Replayer,
    rows: RowWriter,
}

/// The CSV rows of one game's text, `index` of its file `name`, replayed from its text
/// as it is read ([`Replayer::replay_text_each`]): rows are written as plies are played
/// and no ply is kept, so memory does not grow with the game. `None` when the game is
/// not one the table holds (a file's stand-in, a game the filter leaves out).
fn text_csv(
    worker: &mut Worker,
    name: &str,
    index: usize,
    text: &GameText,
    filter: &Filter,
    options: &ReplayOptions,
    per: Per,
) -> Result<GameRows, CommandError> {
    let keep = |record: &Record| filter.accepts(record);
    let Worker { replayer, rows } = worker;
    rows.begin(name, index);
    let mut tally = Tally::default();
    let replayed = match per {
        Per::Ply => {
            let mut each = |rules: &Rules, p: &PlyView<'_>| rows.ply(rules, p);
            replayer.replay_text_each(text, options, &keep, Some(&mut each))
        }
        Per::Game => {
            let mut each = |_: &Rules, p: &PlyView<'_>| tally.add(p.number, p.side, p.effect);
            replayer.replay_text_each(text, options, &keep, Some(&mut each))
        }
    };
    // The text is a game: turned down by the filter.
    let Some((record, trace)) = replayed else {
        return Ok(GameRows::default());
    };
    // Text that holds no tag, result or ply may stand for no game, as a parse tells
    // (see `ParsedGame::is_no_game`); it holds no ply, so its tree is small.
    if record.tags.is_empty() && record.result.is_none() && trace.plies_written == 0 {
        let game = text.clone().parse();
        if game.is_no_game() {
            return Ok(GameRows::default());
        }
        return game_csv(name, index, &game, &replay(&game, options), per).map(GameRows::from);
    }
    match per {
        Per::Ply => {
            rows.finish(&trace);
            Ok(rows.take())
        }
        Per::Game => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(std::mem::take(&mut rows.out));
            w.serialize(tally.row(name, index, &record, &trace))
                .map_err(csv_error)?;
            let row = w
                .into_inner()
                .map_err(|e| csv_error(e.into_error().into()))?;
            Ok(GameRows::from(row))
        }
    }
}

/// The header line of a table.
fn header(per: Per) -> Vec<u8> {
    let columns = match per {
        Per::Ply => PLY_COLUMNS,
        Per::Game => GAME_COLUMNS,
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(columns).expect("writing to memory");
    w.into_inner().expect("writing to memory")
}

/// Writes the CSV of every input, in input order, a batch of games at a time (replayed
/// in parallel, each game parsed on the thread that replays it): memory holds a batch's
/// rows, however large an input. An input that cannot be read is reported to `notes`
/// (`NAME: why`), and the others are still read (to report every one); then the command
/// fails, so that no table silently leaves an input out (the caller then discards what
/// was written: see [`crate::output::stream_whole_output`]).
pub fn write_stats(
    inputs: &[Input],
    filter: &Filter,
    options: &ReplayOptions,
    per: Per,
    out: &mut dyn Write,
    notes: &mut dyn FnMut(String),
) -> Result<(), CommandError> {
    // Ply rows read the position after every ply; a game row needs none but the last,
    // which every trace keeps.
    let options = &ReplayOptions {
        keep_positions: per == Per::Ply,
        keep_laps: false,
        ..options.clone()
    };
    let output_error = |e: io::Error| CommandError::io("<output>", e);
    out.write_all(&header(per)).map_err(output_error)?;
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    // An input's failure is reported once, and its games after it are not read.
    let mut unreadable = 0;
    // A game's rows (none for a file with no game, or a game left out), or why its
    // input could not be read. Each worker replays with a context of its own.
    let init = || Worker {
        replayer: Replayer::new(),
        rows: RowWriter::new(),
    };
    let rows =
        |worker: &mut Worker, work: Work| -> Result<Result<GameRows, CommandError>, String> {
            let input = work.input();
            let (index, text) = work.game_text(&names)?;
            if !text.is_game() {
                return Ok(Ok(GameRows::default()));
            }
            Ok(text_csv(
                worker,
                &names[input],
                index,
                &text,
                filter,
                options,
                per,
            ))
        };
    let write = |_, rows: Result<Result<GameRows, CommandError>, String>| {
        match rows {
            Ok(rows) => rows?.write_to(out).map_err(output_error)?,
            Err(report) => {
                notes(report);
                unreadable += 1;
            }
        }
        Ok(())
    };
    let batches = Batches::new(inputs, options.max_game_bytes);
    corpus::drive_with(batches, init, rows, write, |_| {})?;
    match unreadable {
        0 => Ok(()),
        n => Err(CommandError::Unreadable(n)),
    }
}

/// `sow stats`: the CSV of every game (`--per game`) or ply (`--per ply`) of the inputs;
/// the reports of unreadable inputs are left out (the error counts them).
pub fn run(
    inputs: &[Input],
    filter: &Filter,
    replay: &ReplayOptions,
    per: Per,
) -> Result<Vec<u8>, CommandError> {
    let mut out = Vec::new();
    write_stats(inputs, filter, replay, per, &mut out, &mut |_| {})?;
    Ok(out)
}

/// The Frictionless Data Package (`datapackage.json`) of a table written to the file
/// `csv_name` beside it: one tabular resource, its dialect and encoding, and its Table
/// Schema (`schemas/stats-*.schema.json`), so that R's `frictionless` and Python's
/// `frictionless`/pandas read the columns with their types.
pub fn datapackage(per: Per, csv_name: &str) -> String {
    let (schema, what) = match per {
        Per::Ply => (include_str!("../schemas/stats-ply.schema.json"), "ply"),
        Per::Game => (include_str!("../schemas/stats-game.schema.json"), "game"),
    };
    let mut schema: serde_json::Value =
        serde_json::from_str(schema).expect("the shipped schemas are JSON");
    if let Some(o) = schema.as_object_mut() {
        // A Table Schema inside a package; the `$schema` names the profile instead.
        o.remove("$schema");
    }
    // A resource's name: lower case letters, digits and `-._`.
    let stem = std::path::Path::new(csv_name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name: String = (stem.chars())
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '-' | '.' | '_') => c,
            _ => '-',
        })
        .collect();
    if name.is_empty() {
        name = format!("sow-stats-per-{what}");
    }
    let package = serde_json::json!({
        "profile": "tabular-data-package",
        "name": name,
        "title": format!("sow stats --per {what}"),
        "resources": [{
            "name": name,
            "path": csv_name,
            "profile": "tabular-data-resource",
            "format": "csv",
            "mediatype": "text/csv",
            "encoding": "utf-8",
            "dialect": { "delimiter": ",", "header": true, "doubleQuote": true },
            "schema": schema,
        }],
    });
    let mut out = serde_json::to_string_pretty(&package).expect("JSON values serialize");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_from_the_text_are_the_slow_twins_bytes() {
        // The records written by hand (every diagnostic's, the examples, the sources)
        // and the tests' data; a file name that must be quoted. The generated records
        // and the long sowings are left to the other tests, to keep a debug run quick.
        let root = env!("CARGO_MANIFEST_DIR");
        let walk = |dir: &str| walkdir::WalkDir::new(format!("{root}/{dir}"));
        let mut paths: Vec<_> = (walk("records").into_iter())
            .chain(walk("tests/data"))
            .filter_map(Result::ok)
            .filter(|e| {
                let skipped = |c: std::path::Component| {
                    c.as_os_str() == "generated" || c.as_os_str() == "long-sowings"
                };
                !e.path().components().any(skipped)
            })
            .filter(|e| e.path().extension().is_some_and(|x| x == "pmn"))
            .map(|e| e.into_path())
            .collect();
        paths.sort();
        assert!(paths.len() > 20, "{paths:?}");
        let mut worker = Worker {
            replayer: Replayer::new(),
            rows: RowWriter::new(),
        };
        let filter = Filter::default();
        let mut rows = 0;
        for path in &paths {
            let bytes = std::fs::read(path).unwrap();
            let name = format!("{}, \"quoted\"", path.display());
            for per in [Per::Ply, Per::Game] {
                let options = ReplayOptions {
                    keep_positions: per == Per::Ply,
                    keep_laps: false,
                    ..ReplayOptions::full()
                };
                let mut reader = crate::pmn::Reader::new(&bytes[..]);
                let mut index = 0;
                while let Some(text) = reader.next_text() {
                    index += 1;
                    if !text.is_game() {
                        continue;
                    }
                    let game_rows =
                        text_csv(&mut worker, &name, index, &text, &filter, &options, per).unwrap();
                    let mut fast = Vec::new();
                    game_rows.write_to(&mut fast).unwrap();
                    let game = text.parse();
                    let slow = match game.is_no_game() {
                        true => Vec::new(),
                        false => {
                            game_csv(&name, index, &game, &replay(&game, &options), per).unwrap()
                        }
                    };
                    assert_eq!(
                        String::from_utf8_lossy(&fast),
                        String::from_utf8_lossy(&slow),
                        "{name}, game {index}"
                    );
                    rows += fast.iter().filter(|&&b| b == b'\n').count();
                }
            }
        }
        assert!(rows > 250, "{rows}");
    }

    fn serde_header<T: Serialize>(row: &T) -> Vec<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(row).unwrap();
        let bytes = w.into_inner().unwrap();
        let mut r = csv::Reader::from_reader(&bytes[..]);
        r.headers().unwrap().iter().map(String::from).collect()
    }

    #[test]
    fn column_lists_match_the_rows() {
        let ply = PlyRow {
            file: "f".into(),
            game: 1,
            ply: 1,
            player: "South".into(),
            mv: "a1".into(),
            laps: 1,
            stones_sown: 1,
            end_pit: None,
            captured: 0,
            bonus: 0,
            south: 0,
            north: 0,
            south_prison: None,
            north_prison: None,
            legal_moves: 0,
            set: "Tsoro 4x21".into(),
        };
        assert_eq!(serde_header(&ply), PLY_COLUMNS);
        let record = crate::pmn::parse_str("[Game \"Tsoro\"]\n\n*\n").remove(0);
        let trace = replay(&record, &ReplayOptions::full());
        assert_eq!(
            serde_header(&game_row("f", 1, &record.record, &trace)),
            GAME_COLUMNS
        );
    }

    #[test]
    fn names_skip_unknown_parts() {
        let g = crate::pmn::parse_str(
            "[Game \"Tsoro\"]\n[South \"Tendai\"]\n[North \"?\"]\n[Event \"Field\"]\n[Date \"????.??.??\"]\n\n*\n",
        );
        assert_eq!(game_name(&g[0].record), "Tendai - ?, Field");
        let g = crate::pmn::parse_str("[Game \"Nsolo\"]\n\n*\n");
        assert_eq!(game_name(&g[0].record), "Nsolo");
    }
}
