//! The database form of a corpus: `sow convert --to sqlite` writes an SQLite file
//! (schema: `schemas/sqlite.sql`, described in `schemas/sqlite.md`), and `sow search`
//! reads it back.
//!
//! Every number in it is read from the replay of each game ([`convert_game`], as `sow
//! convert` replays): the ply rows are `sow stats --per ply`'s ([`ply_rows`]), the
//! positions the replay's, the text the PMN export form [`search::export_form`]. A game
//! with errors is kept, with its first error: the database holds every verdict. A long
//! game is not held as rows: it is replayed again as they are inserted, its ply rows
//! then its positions, a part at a time, so that it costs no more than its text and the
//! file is the one its rows held whole would give. Search
//! over a database reads the facts the criteria read from its rows
//! ([`search::GameFacts`]), so it answers as a search of the PMN files does.
//!
//! The file is written through a temporary file and published only whole
//! ([`crate::output::write_by_path`]); a database is only ever opened read-only here.

use std::collections::HashMap;
use std::path::Path;

use rusqlite::{params, Connection, OpenFlags};

use crate::convert::convert_game;
use crate::corpus::{self, Batches, Filter, Input, Work};
use crate::error::CommandError;
use crate::pmn::{GameText, Record, Tag};
use crate::position::Setup;
use crate::replay::{ReplayOptions, Replayer};
use crate::search::{self, broken_export_form, GameFacts, PlyFacts};
use crate::stats::{ply_rows, set_of, PlyRow};

/// The schema: tables, then (after [`INDEXES_MARK`]) the indexes, made once the rows
/// are in.
pub const SCHEMA: &str = include_str!("../schemas/sqlite.sql");

/// The line of [`SCHEMA`] before which the tables are made, and after which the
/// indexes.
const INDEXES_MARK: &str = "-- Indexes, made once the rows are in.";

/// The form of the file, in its `meta` table under `format`.
pub const FORMAT: &str = "sow-sqlite 1";

/// The tags that have a column of their own in `games`: the tags PMN.md names
/// ([`Tag::KNOWN_NAMES`](crate::pmn::Tag::KNOWN_NAMES)), in the schema's column order.
pub const TAG_COLUMNS: [&str; 17] = [
    "Game",
    "Board",
    "Rules",
    "Event",
    "Site",
    "Date",
    "Round",
    "South",
    "North",
    "Result",
    "Source",
    "Transcriber",
    "Annotator",
    "Termination",
    "Score",
    "SetUp",
    "Position",
];

/// Which games are replayed again as their rows are inserted, rather than held as rows
/// (many times their text): a private setting, so that a test can hold the two ways
/// together.
#[derive(Clone, Copy)]
struct Long {
    /// A game whose text is longer than this many bytes.
    bytes: usize,
    /// The plies whose rows are made and inserted at a time.
    part: usize,
}

const LONG: Long = Long {
    bytes: 1 << 16,
    part: 4096,
};

/// A game's rows, made where the game is replayed.
struct GameRows {
    file: String,
    game: usize,
    tags: Vec<(String, String)>,
    rule_set: Option<String>,
    plies: Vec<PlyRow>,
    fouls: Vec<bool>,
    plies_written: usize,
    /// Plies replayed (those in `plies`, unless they are to be replayed again).
    replayed: usize,
    /// A long game's text, replayed again as its rows are inserted: its ply rows and
    /// positions after ply 0 are then not in `plies`, `fouls` and `positions`.
    replay_again: Option<GameText>,
    valid: bool,
    error: Option<(String, Option<u32>)>,
    outcome: Option<&'static str>,
    end_reason: Option<&'static str>,
    /// Before ply 1, then after every ply replayed.
    positions: Vec<String>,
    pmn: String,
}

fn game_rows(
    file: &str,
    game: usize,
    parsed: &crate::pmn::ParsedGame,
    options: &ReplayOptions,
) -> GameRows {
    let conversion = convert_game(file, game, parsed, options);
    let pmn = (conversion.trace.is_valid()).then(|| crate::convert::to_pmn(&conversion));
    let mut rows = rows_of(file, game, &parsed.record.tags, &conversion.trace);
    // One conversion of the game is held at a time: a broken game's export form
    // replays it again.
    drop(conversion);
    rows.pmn = pmn.unwrap_or_else(|| broken_export_form(file, game, parsed, options));
    rows
}

/// The rows of a game read from its input, when the filter keeps it and it is a game:
/// replayed from its text, and parsed then only for the export form of a game that
/// cannot be written from its text ([`crate::convert::export_text`]).
fn text_rows(
    file: &str,
    game: usize,
    text: GameText,
    filter: &Filter,
    options: &ReplayOptions,
    long: Long,
) -> Option<GameRows> {
    let parsed_rows = |text: GameText| {
        let parsed = text.parse();
        (!parsed.is_no_game() && filter.accepts(&parsed.record))
            .then(|| game_rows(file, game, &parsed, options))
    };
    if !text.is_game() {
        return parsed_rows(text);
    }
    // A long game keeps no ply here: they are replayed again as they are inserted.
    let lean = ReplayOptions {
        diagnostics_only: true,
        ..options.clone()
    };
    let Long { bytes, part } = long;
    let mut long = text.text().len() > bytes;
    let replay = if long { &lean } else { options };
    let mut replayer = Replayer::new();
    let (mut record, mut trace) = replayer.replay_text(&text, replay, &|r| filter.accepts(r))?;
    // A long game that stops within a part is held as rows: they are few.
    if long && trace.played <= part {
        (record, trace) = replayer.replay_text(&text, options, &|_| true)?;
        long = false;
    }
    // Text that may stand for no game (see `ParsedGame::is_no_game`) is parsed.
    if record.tags.is_empty() && record.result.is_none() && trace.plies_written == 0 {
        return parsed_rows(text);
    }
    let mut rows = rows_of(file, game, &record.tags, &trace);
    let again = long && trace.rules.is_some();
    let pmn = crate::convert::export_text(&text, &trace);
    // A game with errors in its reading is kept as it is written: it is not parsed.
    let as_written = || !trace.is_valid() && !crate::convert::reads_without_error(&text);
    let (pmn, text) = match pmn {
        Some(pmn) => (pmn, Some(text)),
        None if as_written() => (crate::convert::as_written(text.text()), Some(text)),
        // A long game's text is kept, to be replayed again.
        None if again => {
            let parsed = text.clone().parse();
            (
                record_export_form(file, game, parsed, trace, options),
                Some(text),
            )
        }
        None => (
            record_export_form(file, game, text.parse(), trace, options),
            None,
        ),
    };
    rows.pmn = pmn;
    rows.replay_again = text.filter(|_| again);
    Some(rows)
}

/// The export form of a game written from its record, `trace` its replay.
fn record_export_form(
    file: &str,
    game: usize,
    mut parsed: crate::pmn::ParsedGame,
    trace: crate::replay::Trace,
    options: &ReplayOptions,
) -> String {
    if !trace.is_valid() {
        return broken_export_form(file, game, &parsed, options);
    }
    let whole = std::mem::take(&mut parsed.record);
    let conversion = crate::convert::converted(file, game, &parsed, whole, trace, false);
    crate::convert::to_pmn(&conversion)
}

/// The rows of a game from its tags and replay, its export form not written yet.
fn rows_of(file: &str, game: usize, tags: &[Tag], trace: &crate::replay::Trace) -> GameRows {
    use crate::play::{EndReason, Outcome};
    let (outcome, end_reason) = match &trace.outcome {
        None => (None, None),
        Some(o) => {
            let reason = match o {
                Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
            };
            let reason = match reason {
                EndReason::NoLegalMove => "no-legal-move",
                EndReason::Repetition => "repetition",
                EndReason::Score { .. } => "score",
            };
            (Some(o.winner().map_or("draw", |s| s.name())), Some(reason))
        }
    };
    let positions = match (&trace.start, &trace.rules) {
        (Some(start), Some(_)) => std::iter::once(start.to_string())
            .chain(
                trace
                    .plies
                    .iter()
                    .filter_map(|p| p.after.as_ref().map(ToString::to_string)),
            )
            .collect(),
        _ => Vec::new(),
    };
    GameRows {
        file: file.to_string(),
        game,
        tags: (tags.iter())
            .map(|t| (t.name.to_string(), t.value.to_string()))
            .collect(),
        rule_set: trace.rules.as_ref().map(set_of),
        plies: ply_rows(file, game, trace),
        fouls: trace.plies.iter().map(|p| p.foul).collect(),
        plies_written: trace.plies_written,
        replayed: trace.played,
        replay_again: None,
        valid: trace.is_valid(),
        error: trace.first_error().map(|d| (d.code.to_string(), d.ply)),
        outcome,
        end_reason,
        positions,
        pmn: String::new(),
    }
}

fn sql_error(e: rusqlite::Error) -> CommandError {
    CommandError::Output(format!("cannot write the database: {e}"))
}

/// What of the replay's settings a game's rows depend on: the rule options that
/// override the records' (`--rules`) and the lap budget (`--max-laps`), as
/// `rules=KEY=VALUE,... max-laps=N` (empty parts when not set). A database is searched
/// only under the settings it was made with.
fn replay_settings(options: &ReplayOptions) -> String {
    let rules: Vec<String> = (options.overrides.iter())
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let laps = options.max_laps.map(|n| n.to_string()).unwrap_or_default();
    format!("rules={} max-laps={laps}", rules.join(","))
}

/// Makes the tables of a new database at `path`, made with the replay `options`.
fn create(path: &Path, options: &ReplayOptions) -> rusqlite::Result<Connection> {
    let db = Connection::open(path)?;
    // The file is published only whole: nothing is to be recovered from a failed run.
    // The indexes are sorted once the rows are in, through a cache of 64 MiB.
    db.execute_batch(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -65536;",
    )?;
    let (tables, _) = SCHEMA
        .split_once(INDEXES_MARK)
        .expect("the schema marks its indexes");
    db.execute_batch(tables)?;
    db.execute(
        "INSERT INTO meta (key, value) VALUES ('format', ?1), ('replay', ?2)",
        params![FORMAT, replay_settings(options)],
    )?;
    Ok(db)
}

/// The statements that insert a game's rows, prepared once.
struct Inserts<'c> {
    game: rusqlite::Statement<'c>,
    tag: rusqlite::Statement<'c>,
    ply: rusqlite::Statement<'c>,
    position: rusqlite::Statement<'c>,
    /// How a long game is replayed again.
    options: ReplayOptions,
    long: Long,
}

impl<'c> Inserts<'c> {
    fn new(
        db: &'c Connection,
        options: &ReplayOptions,
        long: Long,
    ) -> rusqlite::Result<Inserts<'c>> {
        let columns = TAG_COLUMNS.map(|c| format!("\"{c}\"")).join(", ");
        let values: Vec<String> = (1..=TAG_COLUMNS.len() + 13)
            .map(|i| format!("?{i}"))
            .collect();
        Ok(Inserts {
            game: db.prepare(&format!(
                "INSERT INTO games (id, file, game_number, {columns}, rule_set, plies, \
                 plies_written, valid, error_code, error_ply, outcome, end_reason, \
                 start_position, pmn) VALUES ({})",
                values.join(", ")
            ))?,
            tag: db.prepare(
                "INSERT INTO game_tags (game_id, seq, name, value) VALUES (?1, ?2, ?3, ?4)",
            )?,
            ply: db.prepare(
                "INSERT INTO plies (game_id, ply, player, move, laps, stones_sown, end_pit, \
                 captured, bonus, south, north, south_prison, north_prison, legal_moves, foul) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
            )?,
            position: db
                .prepare("INSERT INTO positions (game_id, ply, position) VALUES (?1, ?2, ?3)")?,
            options: options.clone(),
            long,
        })
    }

    /// Inserts a game's rows as game `id`.
    fn insert(&mut self, id: i64, g: &GameRows) -> rusqlite::Result<()> {
        use rusqlite::types::Value;
        let tag_of = |name: &str| {
            g.tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let text = |s: Option<&str>| s.map_or(Value::Null, |s| Value::Text(s.to_string()));
        let number = |n: usize| Value::Integer(n as i64);
        let mut values = vec![
            Value::Integer(id),
            Value::Text(g.file.clone()),
            number(g.game),
        ];
        values.extend(TAG_COLUMNS.iter().map(|c| text(tag_of(c))));
        values.extend([
            text(g.rule_set.as_deref()),
            number(g.replayed),
            number(g.plies_written),
            Value::Integer(i64::from(g.valid)),
            text(g.error.as_ref().map(|(c, _)| c.as_str())),
            (g.error.as_ref().and_then(|(_, p)| *p))
                .map_or(Value::Null, |p| Value::Integer(p.into())),
            text(g.outcome),
            text(g.end_reason),
            text(g.positions.first().map(String::as_str)),
            Value::Text(g.pmn.clone()),
        ]);
        self.game.execute(rusqlite::params_from_iter(values))?;
        for (i, (name, value)) in g.tags.iter().enumerate() {
            self.tag.execute(params![id, i as i64 + 1, name, value])?;
        }
        match &g.replay_again {
            None => {
                insert_plies(&mut self.ply, id, &g.plies, &g.fouls)?;
                insert_positions(&mut self.position, id, 0, &g.positions)
            }
            Some(text) => self.replayed(id, g, text),
        }
    }

    /// Inserts a long game's ply rows and then its positions as it is replayed from its
    /// text (twice, so that the rows go in in the order of a game held whole), a part of
    /// its plies at a time, each part's rows made by [`ply_rows`] from a trace that holds
    /// the part: its last ply is held back until the next comes, as the row of a game's
    /// last ply counts no legal move once the game is over.
    fn replayed(&mut self, id: i64, g: &GameRows, text: &GameText) -> rusqlite::Result<()> {
        let options = &self.options;
        let part_plies = self.long.part;
        let mut part = crate::replay::Trace::default();
        let mut failed = None;
        let mut each = |rules: &crate::rules::Rules, p: &crate::replay::PlyView<'_>| {
            if failed.is_some() {
                return;
            }
            part.rules.get_or_insert_with(|| rules.clone());
            part.plies.push(p.to_trace(options));
            if part.plies.len() > part_plies {
                let last = part.plies.pop();
                let rows = ply_rows(&g.file, g.game, &part);
                if let Err(e) = insert_plies(&mut self.ply, id, &rows, &fouls(&part)) {
                    failed = Some(e);
                }
                part.plies.clear();
                part.plies.extend(last);
            }
        };
        let replayed = Replayer::new().replay_text_each(text, options, &|_| true, Some(&mut each));
        if let Some(e) = failed {
            return Err(e);
        }
        if let Some((_, trace)) = replayed {
            part.outcome = trace.outcome;
        }
        let rows = ply_rows(&g.file, g.game, &part);
        insert_plies(&mut self.ply, id, &rows, &fouls(&part))?;
        drop(part);
        insert_positions(&mut self.position, id, 0, &g.positions)?;
        if g.positions.is_empty() {
            return Ok(());
        }
        let mut failed = None;
        let mut each = |_: &crate::rules::Rules, p: &crate::replay::PlyView<'_>| {
            let Some(after) = p.after.filter(|_| failed.is_none()) else {
                return;
            };
            let position = [after.to_string()];
            if let Err(e) = insert_positions(&mut self.position, id, p.number, &position) {
                failed = Some(e);
            }
        };
        Replayer::new().replay_text_each(text, options, &|_| true, Some(&mut each));
        failed.map_or(Ok(()), Err)
    }
}

fn fouls(trace: &crate::replay::Trace) -> Vec<bool> {
    trace.plies.iter().map(|p| p.foul).collect()
}

fn insert_plies(
    statement: &mut rusqlite::Statement<'_>,
    id: i64,
    plies: &[PlyRow],
    fouls: &[bool],
) -> rusqlite::Result<()> {
    for (row, foul) in plies.iter().zip(fouls) {
        statement.execute(params![
            id,
            row.ply,
            row.player,
            row.mv,
            row.laps as i64,
            row.stones_sown as i64,
            row.end_pit,
            row.captured,
            row.bonus,
            row.south,
            row.north,
            row.south_prison,
            row.north_prison,
            row.legal_moves as i64,
            foul,
        ])?;
    }
    Ok(())
}

fn insert_positions(
    statement: &mut rusqlite::Statement<'_>,
    id: i64,
    first: u32,
    positions: &[String],
) -> rusqlite::Result<()> {
    for (i, p) in positions.iter().enumerate() {
        statement.execute(params![id, i64::from(first) + i as i64, p])?;
    }
    Ok(())
}

/// Writes the database of the inputs' games that pass `filter` to `path` (through a
/// temporary file, published only whole; over an existing file only with `force`).
/// The games are replayed in parallel batches by the corpus driver and inserted in
/// input order. An input that cannot be read is reported to `notes`, the others still
/// read, and then nothing is written. Returns how many games were written.
pub fn write(
    inputs: &[Input],
    filter: &Filter,
    options: &ReplayOptions,
    path: &Path,
    force: bool,
    notes: &mut dyn FnMut(String),
) -> Result<usize, CommandError> {
    write_long(inputs, filter, options, path, force, notes, LONG)
}

/// [`write`], the games `long` names replayed again as their rows are inserted.
fn write_long(
    inputs: &[Input],
    filter: &Filter,
    options: &ReplayOptions,
    path: &Path,
    force: bool,
    notes: &mut dyn FnMut(String),
    long: Long,
) -> Result<usize, CommandError> {
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    let rows = |work: Work| -> Result<Option<GameRows>, String> {
        let name = &names[work.input()];
        let (index, text) = work.game_text(&names)?;
        Ok(text_rows(name, index, text, filter, options, long))
    };
    let mut fill = |tmp: &Path| -> Result<usize, CommandError> {
        let mut db = create(tmp, options).map_err(sql_error)?;
        let transaction = db.transaction().map_err(sql_error)?;
        let mut inserts = Inserts::new(&transaction, options, long).map_err(sql_error)?;
        let mut written = 0;
        let mut unreadable = 0;
        let sink = |_, rows: Result<Option<GameRows>, String>| {
            match rows {
                Ok(Some(g)) => {
                    written += 1;
                    inserts.insert(written as i64, &g).map_err(sql_error)?;
                }
                Ok(None) => {}
                Err(report) => {
                    notes(report);
                    unreadable += 1;
                }
            }
            Ok::<(), CommandError>(())
        };
        corpus::drive(
            Batches::new(inputs, options.max_game_bytes),
            rows,
            sink,
            |_| {},
        )?;
        if unreadable > 0 {
            return Err(CommandError::Unreadable(unreadable));
        }
        drop(inserts);
        let (_, indexes) = SCHEMA
            .split_once(INDEXES_MARK)
            .expect("the schema marks its indexes");
        transaction.execute_batch(indexes).map_err(sql_error)?;
        transaction.commit().map_err(sql_error)?;
        db.execute_batch("ANALYZE").map_err(sql_error)?;
        db.close().map_err(|(_, e)| sql_error(e))?;
        Ok(written)
    };
    let mut written = 0;
    crate::output::write_by_path(path, force, inputs, |tmp| {
        written = fill(tmp)?;
        Ok(())
    })
    .map_err(|e| match e {
        crate::output::StreamError::Io(e) => CommandError::io(path, e),
        crate::output::StreamError::Write(e) => e,
    })?;
    Ok(written)
}

/// Why a database could not be searched.
fn read_error(e: rusqlite::Error) -> String {
    format!("cannot read the database: {e}")
}

/// Searches a database written by [`write`], handing each game that matches to `sink`
/// in the order of the database. An exact position is looked up in the index of
/// positions first; every other criterion reads the games' rows. `Err` when the
/// database cannot be read (the matches before are handed on), and a failure of `sink`
/// is handed back.
pub fn search(
    path: &Path,
    search: &search::Search,
    sink: &mut dyn FnMut(search::Found) -> Result<(), CommandError>,
) -> Result<Result<(), String>, CommandError> {
    let mut failed = None;
    let read = search_rows(path, search, &mut |found| {
        sink(found).map_err(|e| {
            failed = Some(e);
            String::new()
        })
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(read),
    }
}

/// For each game that reaches some position `query` asks for, the first ply at which it
/// reaches each ([`GameFacts::reached`]): exact positions looked up in the index, and
/// when a pattern is asked for, every position read once.
fn reached(
    db: &Connection,
    query: &search::Query,
) -> Result<HashMap<i64, Vec<Option<u32>>>, String> {
    let mut reached: HashMap<i64, Vec<Option<u32>>> = HashMap::new();
    let asked = query.positions.len();
    let mut note = |game: i64, ply: u32, i: usize| {
        let first = &mut reached.entry(game).or_insert_with(|| vec![None; asked])[i];
        *first = Some(first.map_or(ply, |f: u32| f.min(ply)));
    };
    if query.positions.iter().all(|q| q.exact_string().is_some()) {
        let mut found = db
            .prepare("SELECT game_id, ply FROM positions WHERE position = ?1")
            .map_err(read_error)?;
        for (i, q) in query.positions.iter().enumerate() {
            let exact = q.exact_string().expect("every position asked is exact");
            let mut rows = found.query(params![exact]).map_err(read_error)?;
            while let Some(row) = rows.next().map_err(read_error)? {
                note(
                    row.get(0).map_err(read_error)?,
                    row.get(1).map_err(read_error)?,
                    i,
                );
            }
        }
    } else {
        let mut every = db
            .prepare("SELECT position, game_id, ply FROM positions")
            .map_err(read_error)?;
        let mut rows = every.query([]).map_err(read_error)?;
        while let Some(row) = rows.next().map_err(read_error)? {
            let text = row
                .get_ref(0)
                .map_err(read_error)?
                .as_str()
                .map_err(|e| read_error(e.into()))?;
            let setup: Setup = text
                .parse()
                .map_err(|e| format!("a position of the database: {e}"))?;
            let (game, ply) = (
                row.get(1).map_err(read_error)?,
                row.get(2).map_err(read_error)?,
            );
            for (i, q) in query.positions.iter().enumerate() {
                if q.holds(&setup) {
                    note(game, ply, i);
                }
            }
        }
    }
    Ok(reached)
}

fn search_rows(
    path: &Path,
    search: &search::Search,
    sink: &mut dyn FnMut(search::Found) -> Result<(), String>,
) -> Result<(), String> {
    let db = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(read_error)?;
    let format: Option<String> = db
        .query_row("SELECT value FROM meta WHERE key = 'format'", [], |r| {
            r.get(0)
        })
        .ok();
    if format.as_deref() != Some(FORMAT) {
        return Err(format!(
            "not a database of sow's ({FORMAT}); `sow convert --to sqlite` writes one"
        ));
    }
    let built = |key: &str| -> Option<String> {
        db.query_row("SELECT value FROM meta WHERE key = ?1", params![key], |r| {
            r.get(0)
        })
        .ok()
    };
    let asked = replay_settings(search.replay);
    if built("replay").as_deref() != Some(asked.as_str()) {
        return Err(format!(
            "its games were replayed with {:?}, and this search asks {asked:?} (--rules, \
             --max-laps): make the database again with them, or search the PMN files",
            built("replay").unwrap_or_default()
        ));
    }
    let query = search.query;
    let reached = reached(&db, query)?;
    // The games where the first exact position asked for is found, through the index of
    // positions, when one is asked for; else every game.
    let columns = "id, file, game_number, plies, error_code, error_ply, end_reason, pmn";
    let exact = query.positions.iter().find_map(|q| q.exact_string());
    let mut games = match exact {
        Some(_) => db.prepare(&format!(
            "SELECT {columns} FROM games WHERE id IN \
             (SELECT game_id FROM positions WHERE position = ?1) ORDER BY id"
        )),
        None => db.prepare(&format!("SELECT {columns} FROM games ORDER BY id")),
    }
    .map_err(read_error)?;
    let mut rows = match exact {
        Some(p) => games.query(params![p]),
        None => games.query([]),
    }
    .map_err(read_error)?;
    let mut tags = db
        .prepare("SELECT name, value FROM game_tags WHERE game_id = ?1 ORDER BY seq")
        .map_err(read_error)?;
    let mut plies = db
        .prepare(
            "SELECT ply, move, laps, captured, bonus, foul FROM plies WHERE game_id = ?1 \
             ORDER BY ply",
        )
        .map_err(read_error)?;
    let none_reached = vec![None; query.positions.len()];
    while let Some(row) = rows.next().map_err(read_error)? {
        let id: i64 = row.get(0).map_err(read_error)?;
        let reached = reached.get(&id).unwrap_or(&none_reached);
        if reached.iter().any(Option::is_none) {
            continue;
        }
        let record = Record {
            tags: tags
                .query_map(params![id], |r| {
                    Ok(Tag::new(r.get::<_, String>(0)?, r.get::<_, String>(1)?))
                })
                .map_err(read_error)?
                .collect::<Result<_, _>>()
                .map_err(read_error)?,
            ..Record::default()
        };
        if !search.filter.accepts(&record) {
            continue;
        }
        let file: String = row.get(1).map_err(read_error)?;
        let game: i64 = row.get(2).map_err(read_error)?;
        let replayed: i64 = row.get(3).map_err(read_error)?;
        let error_code: Option<String> = row.get(4).map_err(read_error)?;
        let error_ply: Option<u32> = row.get(5).map_err(read_error)?;
        let end_reason: Option<String> = row.get(6).map_err(read_error)?;
        let ply_rows: Vec<(u32, String, i64, u32, u32, bool)> = if query.needs_plies() {
            plies
                .query_map(params![id], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                    ))
                })
                .map_err(read_error)?
                .collect::<Result<_, _>>()
                .map_err(read_error)?
        } else {
            Vec::new()
        };
        let facts = GameFacts {
            plies: (ply_rows.iter())
                .map(|(number, text, laps, captured, bonus, foul)| PlyFacts {
                    number: *number,
                    text,
                    laps: *laps as u64,
                    captured: *captured,
                    bonus: *bonus,
                    foul: *foul,
                })
                .collect(),
            reached: reached.clone(),
            error: error_code.as_deref().map(|c| (c, error_ply)),
            repetition: (end_reason.as_deref() == Some("repetition")).then_some(replayed as u32),
        };
        let Some(hits) = query.check(&facts) else {
            continue;
        };
        let pmn = match search.format {
            search::Format::Pmn => Some(row.get::<_, String>(7).map_err(read_error)?),
            search::Format::Json => None,
        };
        let tags_hit = search::tags_hit(search.filter, search.wheres);
        let found = search::Found {
            matched: search::matched(&file, game as usize, hits, tags_hit),
            pmn,
        };
        sink(found)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{write_long, Long, LONG, TAG_COLUMNS};
    use crate::corpus::Filter;
    use crate::pmn::Tag;
    use crate::replay::ReplayOptions;

    #[test]
    fn a_game_replayed_again_as_its_rows_go_in_gives_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        let records = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("records");
        let folders = ["generated", "examples", "flawed"].map(|d| records.join(d));
        let (inputs, _) = crate::corpus::expand(&folders);
        assert!(inputs.len() > 10);
        let options = ReplayOptions::default();
        let file = |name: &str, long: Long| {
            let path = dir.path().join(name);
            let mut notes = |_| {};
            let filter = Filter::default();
            write_long(&inputs, &filter, &options, &path, false, &mut notes, long).unwrap();
            std::fs::read(path).unwrap()
        };
        // Every game replayed again, its plies three at a time.
        let all = Long { bytes: 0, part: 3 };
        assert_eq!(file("held.sqlite", LONG), file("again.sqlite", all));
    }

    #[test]
    fn the_tag_columns_are_the_tags_pmn_names() {
        let mut columns = TAG_COLUMNS.to_vec();
        let mut known = Tag::KNOWN_NAMES.to_vec();
        columns.sort_unstable();
        known.sort_unstable();
        assert_eq!(columns, known);
    }
}
