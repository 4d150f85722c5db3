//! `sow search`: the games of a corpus that match every criterion asked: their tags
//! (the corpus filter, [`crate::corpus::Filter`]), a position reached, a run of plies,
//! and events of their replay.
//!
//! A game is read as [`GameFacts`]: its plies as written with what each did, the
//! position before the first ply and after each one, its first error and whether it
//! ended in a repetition draw. The criteria read the plies one after another
//! ([`Check`]): from each ply as it is replayed from a game's text (PMN inputs, no ply
//! kept), or from the rows of a database written by `sow convert --to sqlite`
//! ([`crate::database`]); they read only the facts, so both give the same answers.
//! Nothing here plays a move.
//!
//! Games and plies are numbered from 1; ply 0 is the position before the first ply.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;

use crate::convert::{convert_broken_game, convert_game, export_text, to_pmn};
use crate::corpus::{self, Batches, Filter, Input, Work};
use crate::error::CommandError;
use crate::geometry::{Pit, Side};
use crate::play::{EndReason, Outcome};
use crate::pmn::{ParsedGame, Record};
use crate::position::{Position, Setup};
use crate::replay::{PlyView, ReplayOptions, Replayer, Trace};
use crate::rules::Rules;

/// A stone count asked of a pit or a prison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// `?`: any count.
    Any,
    Exactly(u16),
    /// `>=n`.
    AtLeast(u16),
    /// `<=n`.
    AtMost(u16),
}

impl Count {
    fn holds(self, stones: u16) -> bool {
        match self {
            Count::Any => true,
            Count::Exactly(n) => stones == n,
            Count::AtLeast(n) => stones >= n,
            Count::AtMost(n) => stones <= n,
        }
    }

    fn parse(text: &str) -> Result<Count, String> {
        let number = |digits: &str| {
            (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| digits.parse::<u16>().ok())
                .flatten()
                .ok_or_else(|| {
                    format!("{text:?} is not a count (n, ?, >=n or <=n, n at most 65535)")
                })
        };
        Ok(if text == "?" {
            Count::Any
        } else if let Some(n) = text.strip_prefix(">=") {
            Count::AtLeast(number(n)?)
        } else if let Some(n) = text.strip_prefix("<=") {
            Count::AtMost(number(n)?)
        } else {
            Count::Exactly(number(text)?)
        })
    }
}

/// A pit of a position asked for: its count, and whether it is nki (`None`: either).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    count: Count,
    nki: Option<bool>,
}

/// A position asked for: exact (a PMN `Position` string) or a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionQuery {
    /// As given, for the reports.
    pub text: String,
    /// Rows top to bottom as South sees them, as in a `Position` string.
    rows: Vec<Vec<Cell>>,
    side: Option<Side>,
    prisons: Option<[Count; 2]>,
    opening: Option<bool>,
    /// The PMN `Position` string of an exact position, as the replay writes it.
    exact: Option<String>,
}

impl PositionQuery {
    /// An exact position: a PMN `Position` string, read by the one reader of them
    /// ([`Setup`]). Every pit, the side to move, Kiothi's prisons, nki marks and
    /// opening must be as given.
    pub fn exact(text: &str) -> Result<PositionQuery, String> {
        let setup: Setup = text.parse().map_err(|e| format!("--position: {e}"))?;
        let rows = (setup.rows.iter())
            .map(|row| {
                (row.iter())
                    .map(|p| Cell {
                        count: Count::Exactly(p.stones),
                        nki: Some(p.nki),
                    })
                    .collect()
            })
            .collect();
        Ok(PositionQuery {
            text: text.trim().to_string(),
            rows,
            side: Some(setup.side),
            prisons: Some(
                setup
                    .prisons
                    .map_or([Count::Any; 2], |p| p.map(Count::Exactly)),
            ),
            opening: Some(setup.opening),
            exact: Some(setup_string(&setup)),
        })
    }

    /// A pattern: a `Position` string whose counts may be `?` (any), `>=n` or `<=n`
    /// (a count with `*` must be nki, one without may be either); the side to move, and
    /// Kiothi's `S:n N:m` (counts as pits) and `opening`, each optional.
    pub fn pattern(text: &str) -> Result<PositionQuery, String> {
        let syntax = |why: String| format!("--pattern {text:?}: {why}");
        let mut words = text.split_whitespace().peekable();
        let board = words.next().ok_or_else(|| syntax("it is empty".into()))?;
        let mut rows = Vec::new();
        for row in board.split('/') {
            let mut cells = Vec::new();
            for cell in row.split(',') {
                let (count, nki) = match cell.strip_suffix('*') {
                    Some(c) => (c, Some(true)),
                    None => (cell, None),
                };
                let count = Count::parse(count).map_err(syntax)?;
                cells.push(Cell { count, nki });
            }
            rows.push(cells);
        }
        let side = match words.peek() {
            Some(&"S") => Some(Side::South),
            Some(&"N") => Some(Side::North),
            _ => None,
        };
        if side.is_some() {
            words.next();
        }
        let mut prisons = None;
        if let Some(south) = words.peek().and_then(|w| w.strip_prefix("S:")) {
            let south = Count::parse(south).map_err(syntax)?;
            words.next();
            let north = (words.next().and_then(|w| w.strip_prefix("N:")))
                .ok_or_else(|| syntax("expected `N:m` after `S:n`".into()))?;
            prisons = Some([south, Count::parse(north).map_err(syntax)?]);
        }
        let mut opening = None;
        if words.peek() == Some(&"opening") {
            words.next();
            opening = Some(true);
        }
        if let Some(extra) = words.next() {
            return Err(syntax(format!("unexpected {extra:?}")));
        }
        Ok(PositionQuery {
            text: text.trim().to_string(),
            rows,
            side,
            prisons,
            opening,
            exact: None,
        })
    }

    /// The PMN `Position` string the query asks for, when it is exact: what a database's
    /// index of positions is looked up by.
    pub fn exact_string(&self) -> Option<&str> {
        self.exact.as_deref()
    }

    /// Whether `pits` is a position the query asks for. A board of another shape never
    /// is.
    pub fn holds<P: Pits + ?Sized>(&self, pits: &P) -> bool {
        let shape_holds = pits.rows() == self.rows.len()
            && (self.rows.iter().enumerate()).all(|(r, row)| pits.cols(r) == row.len());
        if !shape_holds {
            return false;
        }
        if self.side.is_some_and(|s| s != pits.side()) {
            return false;
        }
        if self.opening.is_some_and(|o| o != pits.opening()) {
            return false;
        }
        match (self.prisons, pits.prisons()) {
            (None, _) => {}
            (Some(asked), Some(held)) => {
                if !(asked[0].holds(held[0]) && asked[1].holds(held[1])) {
                    return false;
                }
            }
            // An exact position of a game without prisons asks for none.
            (Some(asked), None) => {
                if asked != [Count::Any; 2] {
                    return false;
                }
            }
        }
        (self.rows.iter().enumerate()).all(|(r, row)| {
            (row.iter().enumerate()).all(|(c, cell)| {
                let (stones, nki) = pits.pit(r, c);
                cell.count.holds(stones) && cell.nki.is_none_or(|n| n == nki)
            })
        })
    }
}

/// A position as the criteria read it: rows top to bottom as South sees them (as in a
/// `Position` string), pits left to right.
pub trait Pits {
    fn rows(&self) -> usize;
    /// Pits of row `row`.
    fn cols(&self, row: usize) -> usize;
    /// The stones of a pit and whether it is nki.
    fn pit(&self, row: usize, col: usize) -> (u16, bool);
    fn side(&self) -> Side;
    /// Kiothi's prisons, South then North.
    fn prisons(&self) -> Option<[u16; 2]>;
    fn opening(&self) -> bool;
}

impl<P: Pits + ?Sized> Pits for &P {
    fn rows(&self) -> usize {
        (**self).rows()
    }

    fn cols(&self, row: usize) -> usize {
        (**self).cols(row)
    }

    fn pit(&self, row: usize, col: usize) -> (u16, bool) {
        (**self).pit(row, col)
    }

    fn side(&self) -> Side {
        (**self).side()
    }

    fn prisons(&self) -> Option<[u16; 2]> {
        (**self).prisons()
    }

    fn opening(&self) -> bool {
        (**self).opening()
    }
}

impl Pits for Position {
    fn rows(&self) -> usize {
        self.board().rows() as usize
    }

    fn cols(&self, _row: usize) -> usize {
        self.board().cols() as usize
    }

    fn pit(&self, row: usize, col: usize) -> (u16, bool) {
        // The `Position` string's rows run from the last row of the board to its first.
        let pit = Pit::new(self.board().rows() - 1 - row as u8, col as u8 + 1);
        (self.stones(pit), self.is_nki(pit))
    }

    fn side(&self) -> Side {
        Position::side(self)
    }

    fn prisons(&self) -> Option<[u16; 2]> {
        // As the `Position` string: only Kiothi's two-row board writes its prisons.
        (self.board().rows() == 2).then_some(Position::prisons(self))
    }

    fn opening(&self) -> bool {
        Position::opening(self)
    }
}

impl Pits for Setup {
    fn rows(&self) -> usize {
        self.rows.len()
    }

    fn cols(&self, row: usize) -> usize {
        self.rows[row].len()
    }

    fn pit(&self, row: usize, col: usize) -> (u16, bool) {
        let p = self.rows[row][col];
        (p.stones, p.nki)
    }

    fn side(&self) -> Side {
        self.side
    }

    fn prisons(&self) -> Option<[u16; 2]> {
        self.prisons
    }

    fn opening(&self) -> bool {
        self.opening
    }
}

/// A set-up written as the replay writes a position (`Display for Position`): the form
/// a database holds, so that an exact position is looked up by its string.
fn setup_string(setup: &Setup) -> String {
    let mut s = String::new();
    for (r, row) in setup.rows.iter().enumerate() {
        if r > 0 {
            s.push('/');
        }
        for (c, p) in row.iter().enumerate() {
            if c > 0 {
                s.push(',');
            }
            let _ = write!(s, "{}", p.stones);
            if p.nki {
                s.push('*');
            }
        }
    }
    let _ = write!(s, " {}", setup.side.letter());
    if let Some([south, north]) = setup.prisons {
        let _ = write!(s, " S:{south} N:{north}");
    }
    if setup.opening {
        s.push_str(" opening");
    }
    s
}

/// Plies asked for, as written in a record: a ply given in part matches the plies that
/// begin so and go on with other than a digit (`a3` matches `a3-a7` and `a3xb4`, not
/// `a31`). Move numbers (`1.`, `1...`) are skipped.
fn plies_of(text: &str) -> Vec<String> {
    (text.split_whitespace())
        .filter(|w| {
            !(w.trim_end_matches('.').bytes().all(|b| b.is_ascii_digit()) && w.ends_with('.'))
        })
        .map(String::from)
        .collect()
}

fn ply_holds(asked: &str, written: &str) -> bool {
    written
        .strip_prefix(asked)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// What a search asks of a game besides its tags; every criterion given must hold.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Positions to reach (each at some ply, 0 included).
    pub positions: Vec<PositionQuery>,
    /// Plies from the first ply on.
    pub opening: Vec<String>,
    /// Plies one after another, from any ply.
    pub plies: Vec<String>,
    /// A ply that captures at least this many stones (bonus not counted).
    pub capture: Option<u32>,
    /// A ply whose sowing relays over at least this many laps.
    pub relay: Option<u64>,
    /// A ply that takes a bonus.
    pub bonus: bool,
    /// A ply played under `[%foul]`.
    pub foul: bool,
    /// The game ends in a repetition draw.
    pub repetition: bool,
    /// The replay stops at an error of this code (its first error).
    pub error: Option<String>,
}

impl Query {
    /// The opening and the run of plies, as written on the command line.
    pub fn with_plies(mut self, opening: Option<&str>, plies: Option<&str>) -> Query {
        self.opening = opening.map(plies_of).unwrap_or_default();
        self.plies = plies.map(plies_of).unwrap_or_default();
        self
    }

    /// Whether a criterion reads the positions of a game.
    pub fn needs_positions(&self) -> bool {
        !self.positions.is_empty()
    }

    /// Whether a criterion reads the plies of a game.
    pub fn needs_plies(&self) -> bool {
        !(self.opening.is_empty() && self.plies.is_empty())
            || self.capture.is_some()
            || self.relay.is_some()
            || self.bonus
            || self.foul
    }
}

/// One ply as the criteria read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyFacts<'a> {
    /// From 1.
    pub number: u32,
    /// As written, without its suffix annotation.
    pub text: &'a str,
    pub laps: u64,
    /// Stones captured, bonus not counted.
    pub captured: u32,
    /// Stones taken as a bonus.
    pub bonus: u32,
    pub foul: bool,
}

/// A game as the criteria read it.
#[derive(Clone, Debug)]
pub struct GameFacts<'a> {
    /// The plies replayed.
    pub plies: Vec<PlyFacts<'a>>,
    /// For each position the query asks for ([`Query::positions`], in order), the first
    /// ply at which the game reaches it (0: before the first ply), among the positions
    /// before the first ply and after each ply replayed.
    pub reached: Vec<Option<u32>>,
    /// The first error's code and ply.
    pub error: Option<(&'a str, Option<u32>)>,
    /// The ply that ended the game in a repetition draw.
    pub repetition: Option<u32>,
}

/// The criteria of a query read over a game's plies one after another, holding of the
/// plies read only the opening's and the last few a run of plies asks for: what
/// [`Query::check`] reads from [`GameFacts`], and a search of PMN text from each ply as
/// it is replayed, so that a long game costs no more than its text.
pub struct Check<'q> {
    query: &'q Query,
    /// The opening's plies read, while each holds (`None` once one does not).
    opening: Option<Vec<String>>,
    /// The last plies read, as many as the run of plies asks for, until a run holds.
    run: std::collections::VecDeque<(u32, String)>,
    /// The first ply at which each criterion of one ply holds, and what it found.
    plies: Option<Hit>,
    capture: Option<Hit>,
    relay: Option<Hit>,
    bonus: Option<Hit>,
    foul: Option<Hit>,
    /// As [`GameFacts::reached`], for the positions read so far.
    reached: Vec<Option<u32>>,
}

impl<'q> Check<'q> {
    pub fn new(query: &'q Query) -> Check<'q> {
        Check {
            query,
            opening: Some(Vec::new()),
            run: Default::default(),
            plies: None,
            capture: None,
            relay: None,
            bonus: None,
            foul: None,
            reached: vec![None; query.positions.len()],
        }
    }

    /// Reads the next ply.
    pub fn ply(&mut self, p: &PlyFacts<'_>) {
        let q = self.query;
        if let Some(opening) = &mut self.opening {
            if let Some(asked) = q.opening.get(opening.len()) {
                match ply_holds(asked, p.text) {
                    true => opening.push(p.text.to_string()),
                    false => self.opening = None,
                }
            }
        }
        if !q.plies.is_empty() && self.plies.is_none() {
            // The run's oldest text is written over, not let go and made anew.
            let mut text = match self.run.len() == q.plies.len() {
                true => self.run.pop_front().map(|(_, t)| t).unwrap_or_default(),
                false => String::new(),
            };
            text.clear();
            text.push_str(p.text);
            self.run.push_back((p.number, text));
            let holds = self.run.len() == q.plies.len()
                && (q.plies.iter().zip(&self.run)).all(|(a, (_, text))| ply_holds(a, text));
            if holds {
                let texts: Vec<&str> = self.run.iter().map(|(_, t)| t.as_str()).collect();
                self.plies = Some(Hit {
                    criterion: "plies",
                    ply: Some(self.run[0].0),
                    found: texts.join(" "),
                });
            }
        }
        let first = |hit: &mut Option<Hit>, criterion, holds: bool, found: &dyn Fn() -> String| {
            if hit.is_none() && holds {
                *hit = Some(Hit {
                    criterion,
                    ply: Some(p.number),
                    found: found(),
                });
            }
        };
        if let Some(k) = q.capture {
            let holds = p.captured >= k && p.captured > 0;
            first(&mut self.capture, "capture", holds, &|| {
                format!("{} captures {}", p.text, p.captured)
            });
        }
        if let Some(k) = q.relay {
            first(&mut self.relay, "relay", p.laps >= k, &|| {
                format!("{} sows {} laps", p.text, p.laps)
            });
        }
        if q.bonus {
            first(&mut self.bonus, "bonus", p.bonus > 0, &|| {
                format!("{} takes a bonus of {}", p.text, p.bonus)
            });
        }
        if q.foul {
            first(&mut self.foul, "foul", p.foul, &|| p.text.to_string());
        }
    }

    /// Reads the position after ply `ply`, the plies' positions in the order of the game.
    pub fn position(&mut self, ply: u32, position: &Position) {
        for (q, reached) in self.query.positions.iter().zip(&mut self.reached) {
            if reached.is_none() && q.holds(position) {
                *reached = Some(ply);
            }
        }
    }

    /// Reads the position before the first ply, before or after the plies' positions.
    pub fn start(&mut self, position: &Position) {
        for (q, reached) in self.query.positions.iter().zip(&mut self.reached) {
            if q.holds(position) {
                *reached = Some(0);
            }
        }
    }

    /// What every criterion found in the game read, or `None` when one does not hold;
    /// `error` is the game's first error (its code and ply) and `repetition` the ply
    /// that ended it in a repetition draw.
    pub fn finish(
        self,
        error: Option<(&str, Option<u32>)>,
        repetition: Option<u32>,
    ) -> Option<Vec<Hit>> {
        let q = self.query;
        let mut hits = Vec::new();
        if let Some(code) = &q.error {
            let (found, ply) = error.filter(|(c, _)| c == code)?;
            hits.push(Hit {
                criterion: "error",
                ply,
                found: found.to_string(),
            });
        }
        if q.repetition {
            hits.push(Hit {
                criterion: "repetition",
                ply: Some(repetition?),
                found: "a repetition draw".into(),
            });
        }
        if !q.opening.is_empty() {
            let opening = self.opening.filter(|o| o.len() == q.opening.len())?;
            hits.push(Hit {
                criterion: "opening",
                ply: Some(q.opening.len() as u32),
                found: opening.join(" "),
            });
        }
        if !q.plies.is_empty() {
            hits.push(self.plies?);
        }
        for (asked, hit) in [
            (q.capture.is_some(), self.capture),
            (q.relay.is_some(), self.relay),
            (q.bonus, self.bonus),
            (q.foul, self.foul),
        ] {
            if asked {
                hits.push(hit?);
            }
        }
        for (query, reached) in q.positions.iter().zip(self.reached) {
            hits.push(Hit {
                criterion: "position",
                ply: Some(reached?),
                found: query.text.clone(),
            });
        }
        Some(hits)
    }
}

/// The ply that ended the game in a repetition draw, if it did.
pub fn repetition_ply(trace: &Trace) -> Option<u32> {
    matches!(
        trace.outcome,
        Some(Outcome::Draw {
            reason: EndReason::Repetition
        })
    )
    .then_some(trace.plies.len().max(trace.played) as u32)
}

/// What a criterion found in a game: the first ply where it holds, and what it was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hit {
    pub criterion: &'static str,
    /// The ply (0: the position before the first ply); none for a criterion of the
    /// whole game (tags, an error before any ply).
    pub ply: Option<u32>,
    pub found: String,
}

/// A game that matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Match {
    pub file: String,
    pub game: usize,
    /// The first ply by which every criterion has held (none when no criterion is at a
    /// ply).
    pub ply: Option<u32>,
    pub matched: Vec<Hit>,
}

impl Query {
    /// What every criterion found in the game, or `None` when one does not hold.
    pub fn check(&self, facts: &GameFacts<'_>) -> Option<Vec<Hit>> {
        let mut check = Check::new(self);
        facts.plies.iter().for_each(|p| check.ply(p));
        check.reached.clone_from(&facts.reached);
        check.finish(facts.error, facts.repetition)
    }
}

/// A matched game's text in the output: the PMN export form as `sow convert --to pmn`
/// writes it, a game with errors kept so that it fails where it fails (as with
/// `--keep-broken`, else its text as read).
pub fn export_form(
    file: &str,
    game: usize,
    parsed: &ParsedGame,
    options: &ReplayOptions,
) -> String {
    // The export form reads the record and the replay's verdict, no ply's effect.
    let options = &ReplayOptions {
        diagnostics_only: true,
        ..options.clone()
    };
    let conversion = convert_game(file, game, parsed, options);
    if conversion.trace.is_valid() {
        return to_pmn(&conversion);
    }
    drop(conversion);
    broken_export_form(file, game, parsed, options)
}

/// [`export_form`] of a game that does not replay without an error: kept failing where
/// it fails when it can be, else its text as written.
pub fn broken_export_form(
    file: &str,
    game: usize,
    parsed: &ParsedGame,
    options: &ReplayOptions,
) -> String {
    let options = &ReplayOptions {
        diagnostics_only: true,
        ..options.clone()
    };
    match convert_broken_game(file, game, parsed, options) {
        Some(c) => to_pmn(&c),
        None => crate::convert::as_written(&parsed.text),
    }
}

/// How matches are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The games, in the PMN export form.
    Pmn,
    /// One JSON object a line per game matched: file, game, ply and what matched.
    Json,
}

/// A game matched, ready to write.
pub struct Found {
    pub matched: Match,
    /// The game in the export form (PMN output only).
    pub pmn: Option<String>,
}

/// Writes the matches of a search in the chosen form, in input order.
pub struct MatchWriter<'a> {
    out: &'a mut dyn Write,
    format: Format,
    /// Games written.
    pub written: usize,
}

impl<'a> MatchWriter<'a> {
    pub fn new(out: &'a mut dyn Write, format: Format) -> MatchWriter<'a> {
        MatchWriter {
            out,
            format,
            written: 0,
        }
    }

    pub fn write(&mut self, found: &Found) -> io::Result<()> {
        match self.format {
            Format::Json => {
                let line = serde_json::to_string(&found.matched).expect("a match serializes");
                writeln!(self.out, "{line}")?;
            }
            Format::Pmn => {
                if self.written > 0 {
                    self.out.write_all(b"\n")?;
                }
                self.out
                    .write_all(found.pmn.as_deref().unwrap_or("").as_bytes())?;
            }
        }
        self.written += 1;
        Ok(())
    }
}

/// The hit of the tag filters, when there are some.
pub fn tags_hit(filter: &Filter, wheres: &[String]) -> Option<Hit> {
    (!filter.is_empty()).then(|| {
        let mut asked: Vec<String> = filter.game.iter().map(|g| format!("Game={g}")).collect();
        asked.extend(wheres.iter().cloned());
        Hit {
            criterion: "tags",
            ply: None,
            found: asked.join(" "),
        }
    })
}

/// A match of a game whose criteria all held.
pub fn matched(file: &str, game: usize, mut hits: Vec<Hit>, tags: Option<Hit>) -> Match {
    let ply = hits.iter().filter_map(|h| h.ply).max();
    if let Some(tags) = tags {
        hits.insert(0, tags);
    }
    Match {
        file: file.to_string(),
        game,
        ply,
        matched: hits,
    }
}

/// What a search is asked.
pub struct Search<'a> {
    pub filter: &'a Filter,
    /// The `--where` conditions as written (for the report of what matched).
    pub wheres: &'a [String],
    pub query: &'a Query,
    /// How games are replayed (the positions are kept when a criterion reads them).
    pub replay: &'a ReplayOptions,
    pub format: Format,
}

/// Searches PMN inputs: each game read and replayed straight from its text (no syntax
/// tree for the games that do not match), in parallel batches by the corpus driver, and
/// each match handed to `sink` in input order. An input that cannot be read is reported
/// to `notes`, and the others are still read; the run then fails.
pub fn search_pmn(
    inputs: &[Input],
    search: &Search,
    sink: &mut dyn FnMut(Found) -> Result<(), CommandError>,
    notes: &mut dyn FnMut(String),
) -> Result<usize, CommandError> {
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    let lean = ReplayOptions {
        keep_positions: search.query.needs_positions(),
        keep_laps: false,
        ..search.replay.clone()
    };
    let keep = |record: &Record| search.filter.accepts(record);
    let one = |replayer: &mut Replayer, work: Work| -> Result<Option<Found>, String> {
        let input = work.input();
        let (index, text) = work.game_text(&names)?;
        // The criteria read each ply as it is replayed: no ply is kept.
        let mut check = Check::new(search.query);
        let mut written = String::new();
        let mut each = |_: &Rules, p: &PlyView<'_>| {
            written.clear();
            let _ = write!(written, "{}", p.syntax);
            check.ply(&PlyFacts {
                number: p.number,
                text: &written,
                laps: p.effect.lap_count,
                captured: p.effect.captured.iter().map(|&(_, n)| n as u32).sum(),
                bonus: p.effect.bonus.iter().map(|&(_, n)| n as u32).sum(),
                foul: p.foul,
            });
            if let Some(after) = p.after {
                check.position(p.number, after);
            }
        };
        let replayed = replayer.replay_text_each(&text, &lean, &keep, Some(&mut each));
        let Some((_, trace)) = replayed else {
            return Ok(None);
        };
        if let (Some(start), Some(_)) = (&trace.start, &trace.rules) {
            check.start(start);
        }
        let error = trace.first_error().map(|d| (d.code.as_str(), d.ply));
        let Some(hits) = check.finish(error, repetition_ply(&trace)) else {
            return Ok(None);
        };
        let name = &names[input];
        // A game read whole is written from its text, never parsed whole, and so is one
        // with errors in its reading, as it is written.
        let pmn = (search.format == Format::Pmn).then(|| {
            export_text(&text, &trace).unwrap_or_else(|| {
                match !trace.is_valid() && !crate::convert::reads_without_error(&text) {
                    true => crate::convert::as_written(text.text()),
                    false => export_form(name, index, &text.parse(), search.replay),
                }
            })
        });
        let tags = tags_hit(search.filter, search.wheres);
        Ok(Some(Found {
            matched: matched(name, index, hits, tags),
            pmn,
        }))
    };
    let mut unreadable = 0;
    let write = |_, found: Result<Option<Found>, String>| {
        match found {
            Ok(Some(found)) => sink(found)?,
            Ok(None) => {}
            Err(report) => {
                notes(report);
                unreadable += 1;
            }
        }
        Ok::<(), CommandError>(())
    };
    corpus::drive_with(
        Batches::new(inputs, search.replay.max_game_bytes),
        Replayer::new,
        one,
        write,
        |_| {},
    )?;
    Ok(unreadable)
}

/// Whether an input is a database written by `sow convert --to sqlite` (by its first
/// bytes: SQLite's file header).
pub fn is_database(input: &Input) -> bool {
    let Input::File(path) = input else {
        return false;
    };
    let mut head = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| io::Read::read_exact(&mut f, &mut head))
        .is_ok_and(|()| &head == b"SQLite format 3\0")
}

/// Searches the inputs, PMN files and databases alike, in order, writing the matches to
/// `out`. Returns how many games matched.
pub fn run(
    inputs: &[Input],
    search: &Search,
    out: &mut dyn Write,
    out_name: &std::path::Path,
    notes: &mut dyn FnMut(String),
) -> Result<usize, CommandError> {
    let mut writer = MatchWriter::new(out, search.format);
    let mut sink = |found: Found| {
        writer
            .write(&found)
            .map_err(|e| CommandError::io(out_name, e))
    };
    let mut unreadable = 0;
    let databases: Vec<bool> = inputs.iter().map(is_database).collect();
    // Runs of PMN inputs go to the corpus driver together; a database is read alone.
    let mut start = 0;
    while start < inputs.len() {
        if databases[start] {
            let Input::File(path) = &inputs[start] else {
                unreachable!("a database is a file");
            };
            if let Err(e) = crate::database::search(path, search, &mut sink)? {
                notes(format!("{}: {e}", path.display()));
                unreadable += 1;
            }
            start += 1;
            continue;
        }
        let end = (start..inputs.len())
            .find(|&i| databases[i])
            .unwrap_or(inputs.len());
        unreadable += search_pmn(&inputs[start..end], search, &mut sink, notes)?;
        start = end;
    }
    if unreadable > 0 {
        return Err(CommandError::Unreadable(unreadable));
    }
    Ok(writer.written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_read_counts_and_leave_the_side_open() {
        let q = PositionQuery::pattern("?,>=2,<=1,3*/0,0,0,0 ").unwrap();
        assert_eq!(q.side, None);
        assert_eq!(q.rows[0][1].count, Count::AtLeast(2));
        assert_eq!(q.rows[0][3].nki, Some(true));
        assert!(PositionQuery::pattern("1,x/0,0 S").is_err());
        assert!(PositionQuery::pattern("1,1/0,0 S extra").is_err());
    }

    #[test]
    fn an_exact_position_is_written_as_the_replay_writes_it() {
        let s = "0,3*,0,0,0,0,0,0,0,0/1,1,0,1,0,0,0,0,0,0 N S:18 N:29";
        assert_eq!(PositionQuery::exact(s).unwrap().exact_string(), Some(s));
        let spaced = "02,2/0,0  S";
        assert_eq!(
            PositionQuery::exact(spaced).unwrap().exact_string(),
            Some("2,2/0,0 S")
        );
    }

    #[test]
    fn a_ply_given_in_part_matches_the_plies_that_begin_so() {
        assert!(ply_holds("a3", "a3-a7"));
        assert!(ply_holds("a3", "a3xb4"));
        assert!(ply_holds("a3", "a3"));
        assert!(!ply_holds("a3", "a31"));
        assert!(!ply_holds("a3-a7", "a3"));
        assert_eq!(
            plies_of("1. a3 d10 2. a9 2... b3"),
            ["a3", "d10", "a9", "b3"]
        );
    }
}
