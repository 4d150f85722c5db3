//! `sow view`: one self-contained HTML page that replays the games of its inputs, ply by
//! ply, with every diagnostic shown at its ply.
//!
//! The page's data is made here from the one replay (a [`Trace`]): the PMN `Position`
//! string after every ply, what each ply did (laps, end, captures, bonus), the move text
//! as written, and every diagnostic. The board is the SVG of [`crate::diagram::svg_board`],
//! drawn once for each rule set; the page's script (`view/view.js`) only writes the
//! counts of a position into it and marks the sowing. No rule is written in the script:
//! it never works out a position. The script and style are embedded at build time, and
//! the page asks for nothing over the network (its Content-Security-Policy forbids it).
//!
//! A variation that branches from the main line is replayed, by [`replay`] as every
//! line is, as the line it makes: the main line before the ply it replaces, then its
//! plies.
//!
//! Must not replay but through [`replay`], or hold the games' syntax trees longer than
//! a batch: each game's data goes to a temporary file as it is made, and into the page
//! after the index, which alone is held to the end.

use std::io::{Seek, Write};

use compact_str::{format_compact, CompactString, ToCompactString};
use serde::Serialize;

use crate::corpus::{Batches, Filter, Input, Work};
use crate::diagnostic::Diagnostic;
use crate::error::CommandError;
use crate::geometry::{Pit, Side};
use crate::moves::Move;
use crate::pmn::{Element, ParsedGame, Record};
use crate::pmn::{GameText, Tag};
use crate::position::Position;
use crate::repair::RepairOptions;
use crate::replay::{replay, ReplayOptions, Trace};
use crate::rules::Game;

mod page;

pub use page::page;
use page::{game_script, PageParts};

const SCRIPT: &str = include_str!("view/view.js");
pub(crate) const STYLE: &str = include_str!("view/view.css");

/// Laps of one ply listed in the page, at most; the page says how many there were.
pub const MAX_LAPS_SHOWN: usize = 200;

/// One game of the page: everything the page shows of it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// Its number in the page, from 1 (the `g` of a deep link).
    pub number: usize,
    /// The file it comes from.
    pub input: String,
    /// Its number in that file, from 1.
    pub index: usize,
    /// The tags as written, in order.
    pub tags: Vec<(String, String)>,
    /// The rule set it was replayed under, as `Game Board (options)`.
    pub rules: Option<String>,
    /// The index of its board drawing among the page's boards.
    pub board: Option<usize>,
    /// The PMN `Position` string at the start (`positions[0]`) and after each ply
    /// replayed. In the page, a position is written as its changes from the one before
    /// when that is shorter (see [`position_changes`]).
    #[serde(serialize_with = "positions_as_changes")]
    pub positions: Vec<String>,
    /// What each ply replayed did: `plies[i]` is ply `i + 1`.
    pub plies: Vec<PlyView>,
    /// When the replay stopped at a ply it could not play: that ply's number (one past
    /// the plies replayed), shown with the board as it stood.
    pub stop: Option<u32>,
    /// The plies written in the main line.
    pub plies_written: usize,
    /// The move text as written.
    pub moves: MoveText,
    /// The variations that branch from the main line, replayed, in the order written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<VariationView>,
    /// `[%stones]` checkpoints written before the first ply (of the start).
    pub start_stones: Vec<Checkpoint>,
    /// Every diagnostic, in the order of the replay.
    pub diagnostics: Vec<DiagnosticView>,
    /// The result the record declares.
    pub declared: Option<String>,
    /// How and why the game ended, when it is over after the last ply replayed, as
    /// `sow show` says it.
    pub ending: Option<String>,
    pub errors: usize,
    pub warnings: usize,
    /// The ply of the first error (0: before the first ply), where the game list leads.
    pub first_error: Option<u32>,
    /// The board drawing, shared in the page by the games of the same rule set.
    #[serde(skip)]
    pub svg: Option<String>,
}

/// What one ply did.
#[derive(Clone, Debug, Serialize)]
pub struct PlyView {
    pub number: u32,
    /// `S` or `N`.
    pub side: char,
    /// The ply as written (without its suffix).
    pub text: String,
    /// The pits it lifted from (two for Kiothi's opening).
    pub from: Vec<String>,
    /// Kiothi's opening: the pits filled and the stones put in each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub placed: Vec<(String, u16)>,
    /// The laps in order, each as its start and end pit, `a3-b5` (at most
    /// [`MAX_LAPS_SHOWN`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub laps: Vec<String>,
    /// The laps in all.
    pub lap_count: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    /// Captured pits and the stones taken from each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub captured: Vec<(String, u16)>,
    /// Bonus pits and the stones taken from each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bonus: Vec<(String, u16)>,
    /// Kiothi: stones that went into the mover's prison.
    #[serde(skip_serializing_if = "is_zero")]
    pub prison_gain: u16,
    /// Kiothi: the opening ended with this ply and every occupied pit became nki.
    #[serde(skip_serializing_if = "is_false")]
    pub nki_marked: bool,
    /// Played under `[%foul]`.
    #[serde(skip_serializing_if = "is_false")]
    pub foul: bool,
    /// `[%stones]` checkpoints written after it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stones: Vec<Checkpoint>,
}

// A page of a thousand games holds some hundred thousand plies: what a ply did not do
// is left out of its data.
fn is_zero(n: &u16) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A `[%stones S N]` checkpoint beside the true counts.
#[derive(Clone, Debug, Serialize)]
pub struct Checkpoint {
    /// The arguments as written.
    pub written: String,
    /// South's and North's stones on the board (Kiothi: in prison), when the position
    /// is known.
    pub actual: Option<[u32; 2]>,
    /// "on the board" or "in prison".
    pub what: &'static str,
    pub agrees: bool,
}

/// One piece of move text as written. A game lists one a token of its move text: most
/// are kept inline, without an allocation each.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "k")]
pub enum Item {
    /// A move number, `12.` or `12...`.
    #[serde(rename = "n")]
    Number { t: CompactString },
    /// A ply; `p` is its number when it is in the main line.
    #[serde(rename = "p")]
    Ply {
        t: CompactString,
        #[serde(skip_serializing_if = "Option::is_none")]
        p: Option<u32>,
    },
    /// A comment's text.
    #[serde(rename = "c")]
    Comment { t: CompactString },
    /// `$n`.
    #[serde(rename = "g")]
    Nag { t: CompactString },
    /// A variation begins (after the ply it could have replaced); `v` is its index
    /// among the game's replayed variations, for one that branches from the main line.
    #[serde(rename = "(")]
    Open {
        #[serde(skip_serializing_if = "Option::is_none")]
        v: Option<usize>,
    },
    /// A variation ends.
    #[serde(rename = ")")]
    Close,
    /// The result token.
    #[serde(rename = "r")]
    Result { t: CompactString },
}

/// The move text as the page lists it: items made from a record, or, for a game with
/// no variation, read again from its text as the page is written, so that a long
/// game's items are never held.
#[derive(Clone, Debug)]
pub enum MoveText {
    Items(Vec<Item>),
    Text(GameText),
}

impl Serialize for MoveText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let game = match self {
            MoveText::Items(items) => return items.serialize(serializer),
            MoveText::Text(game) => game,
        };
        let mut seq = serializer.serialize_seq(None)?;
        let mut items = ItemsOfText {
            seq: &mut seq,
            main: 0,
            result: None,
            failed: None,
        };
        game.read(&mut items);
        let (failed, result) = (items.failed.take(), items.result);
        if let Some(e) = failed {
            return Err(e);
        }
        if let Some(r) = result {
            seq.serialize_element(&Item::Result {
                t: r.result.as_str().into(),
            })?;
        }
        seq.end()
    }
}

/// The reader's events of a game with no variation, each written as its [`Item`], as
/// [`move_text`] lists a record's elements.
struct ItemsOfText<'s, Q: serde::ser::SerializeSeq> {
    seq: &'s mut Q,
    /// Main-line plies read.
    main: u32,
    result: Option<crate::pmn::ResultToken>,
    failed: Option<Q::Error>,
}

impl<Q: serde::ser::SerializeSeq> ItemsOfText<'_, Q> {
    fn write(&mut self, item: Item) -> std::ops::ControlFlow<()> {
        match self.seq.serialize_element(&item) {
            Ok(()) => std::ops::ControlFlow::Continue(()),
            Err(e) => {
                self.failed = Some(e);
                std::ops::ControlFlow::Break(())
            }
        }
    }
}

impl<Q: serde::ser::SerializeSeq> crate::pmn::Visitor for ItemsOfText<'_, Q> {
    fn move_number(&mut self, m: crate::pmn::MoveNumber) -> std::ops::ControlFlow<()> {
        self.write(Item::Number { t: number_text(&m) })
    }

    fn ply(&mut self, ply: crate::pmn::Ply) -> std::ops::ControlFlow<()> {
        self.main += 1;
        self.write(Item::Ply {
            t: ply_text(&ply),
            p: Some(self.main),
        })
    }

    fn comment(&mut self, c: crate::pmn::Comment) -> std::ops::ControlFlow<()> {
        self.write(Item::Comment {
            t: CompactString::from(c.text.trim()),
        })
    }

    fn nag(&mut self, n: crate::pmn::Nag) -> std::ops::ControlFlow<()> {
        self.write(Item::Nag {
            t: format_compact!("${}", n.code),
        })
    }

    fn result(&mut self, result: crate::pmn::ResultToken) -> std::ops::ControlFlow<()> {
        self.result = Some(result);
        std::ops::ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: crate::pmn::Problem) {}
}

/// A move number as the page lists it: `12.` or `12...`.
fn number_text(m: &crate::pmn::MoveNumber) -> CompactString {
    format_compact!(
        "{}{}",
        m.number,
        match m.dots {
            crate::pmn::Dots::One => ".",
            crate::pmn::Dots::Three => "...",
        }
    )
}

/// A ply as the page lists it: as written, with its suffix.
fn ply_text(ply: &crate::pmn::Ply) -> CompactString {
    let mut t = ply.syntax.to_compact_string();
    if let Some(s) = ply.suffix {
        t.push_str(s.as_str());
    }
    t
}

/// What the page needs of a game's text before its replay: the `[%stones]` arguments
/// written after main-line plies (see [`move_text`]), whether it has a variation,
/// whether it holds anything, and whether the reader found an error.
#[derive(Default)]
struct Scan {
    stones: Vec<(u32, String)>,
    main: u32,
    variation: bool,
    anything: bool,
    result: Option<crate::pmn::ResultToken>,
    errors: bool,
}

impl crate::pmn::Visitor for Scan {
    fn move_number(&mut self, _m: crate::pmn::MoveNumber) -> std::ops::ControlFlow<()> {
        self.anything = true;
        std::ops::ControlFlow::Continue(())
    }

    fn ply(&mut self, _ply: crate::pmn::Ply) -> std::ops::ControlFlow<()> {
        self.anything = true;
        self.main += 1;
        std::ops::ControlFlow::Continue(())
    }

    fn comment(&mut self, c: crate::pmn::Comment) -> std::ops::ControlFlow<()> {
        self.anything = true;
        for cmd in c.commands.iter().filter(|c| c.name == "stones") {
            self.stones.push((self.main, cmd.args.as_str().to_string()));
        }
        std::ops::ControlFlow::Continue(())
    }

    fn nag(&mut self, _n: crate::pmn::Nag) -> std::ops::ControlFlow<()> {
        self.anything = true;
        std::ops::ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _open: crate::pmn::Span) -> crate::pmn::Skip {
        self.anything = true;
        self.variation = true;
        crate::pmn::Skip::Yes
    }

    fn result(&mut self, result: crate::pmn::ResultToken) -> std::ops::ControlFlow<()> {
        self.result = Some(result);
        std::ops::ControlFlow::Continue(())
    }

    fn problem(&mut self, problem: crate::pmn::Problem) {
        self.errors |= problem.is_error();
    }
}

/// A diagnostic as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct DiagnosticView {
    /// `error` or `warning`.
    pub severity: &'static str,
    pub code: &'static str,
    pub ply: Option<u32>,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// The legal plies there.
    pub legal: Vec<String>,
    /// The position the ply was played in.
    pub position: Option<String>,
    /// Repairs found, each as what it does and the edited text.
    pub suggestions: Vec<String>,
    pub suggestions_stopped: Option<String>,
}

impl DiagnosticView {
    fn of(d: &Diagnostic) -> DiagnosticView {
        DiagnosticView {
            severity: if d.is_error() { "error" } else { "warning" },
            code: d.code.as_str(),
            ply: d.ply,
            line: d.span.line,
            column: d.span.column,
            message: d.message.clone(),
            legal: d.legal.clone(),
            position: d.position.clone(),
            suggestions: (d.suggestions.iter())
                .map(|s| {
                    let how = if s.complete {
                        "replays completely".to_string()
                    } else {
                        format!("replays {} plies", s.replays)
                    };
                    format!("{} ({how}): {}", s.edit, s.text)
                })
                .collect(),
            suggestions_stopped: d.suggestions_stopped.clone(),
        }
    }
}

/// South's and North's stones a `[%stones]` checkpoint counts: on the board, or in
/// prison for Kiothi (PMN.md).
fn stones_counted(game: Game, pos: &Position) -> ([u32; 2], &'static str) {
    if game == Game::Kiothi {
        (
            [pos.prisons()[0] as u32, pos.prisons()[1] as u32],
            "in prison",
        )
    } else {
        (
            [pos.stones_of(Side::South), pos.stones_of(Side::North)],
            "on the board",
        )
    }
}

fn checkpoint(written: &str, game: Option<Game>, pos: Option<&Position>) -> Checkpoint {
    let counted = game.zip(pos).map(|(g, p)| stones_counted(g, p));
    let said: Option<Vec<u32>> = written.split(' ').map(|w| w.parse().ok()).collect();
    Checkpoint {
        written: written.to_string(),
        actual: counted.map(|c| c.0),
        what: counted.map_or("on the board", |c| c.1),
        agrees: matches!((counted, said.as_deref()), (Some((a, _)), Some(s)) if a[..] == *s),
    }
}

/// A PMN `Position` string written as its changes from the one before, when that is
/// shorter: `~I:CELL,I:CELL|TAIL`, where `I` counts the cells of the rows from 0 (top
/// row first, as the string lists them), `CELL` is the cell as the string writes it
/// (`3`, `0*`), and `TAIL` is what follows the rows (` S`, ` N S:18 N:29`). The page
/// rebuilds the string from the one before; the rows keep their lengths.
pub fn position_changes(before: &str, after: &str) -> Option<String> {
    let (was, _) = cells(before);
    let (is, tail) = cells(after);
    if was.len() != is.len() {
        return None;
    }
    let mut out = String::from("~");
    for (i, (a, b)) in was.iter().zip(&is).enumerate() {
        if a != b {
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&format!("{i}:{b}"));
        }
    }
    out.push('|');
    out.push_str(tail);
    (out.len() < after.len()).then_some(out)
}

/// The cells of a PMN `Position` string's rows, in order, and what follows the rows.
fn cells(position: &str) -> (Vec<&str>, &str) {
    let (rows, tail) = position.split_at(position.find(' ').unwrap_or(position.len()));
    (rows.split(['/', ',']).collect(), tail)
}

fn positions_as_changes<S: serde::Serializer>(
    positions: &[String],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = serializer.serialize_seq(Some(positions.len()))?;
    for (k, p) in positions.iter().enumerate() {
        let changes = k
            .checked_sub(1)
            .and_then(|j| position_changes(&positions[j], p));
        match changes {
            Some(c) => seq.serialize_element(&c)?,
            None => seq.serialize_element(p)?,
        }
    }
    seq.end()
}

/// The move text of a record as the page lists it, main-line plies numbered, and the
/// `[%stones]` arguments written after main-line plies, each with its ply (0: before the
/// first), in order.
/// A variation that branches from the main line: it replaces main-line ply `at`, whose
/// element is `record.moves[element]`.
struct Branch<'a> {
    at: u32,
    element: usize,
    elements: &'a [Element],
}

fn move_text(record: &Record) -> (Vec<Item>, Vec<(u32, String)>, Vec<Branch<'_>>) {
    let mut items = Vec::new();
    let mut stones: Vec<(u32, String)> = Vec::new();
    let mut branches = Vec::new();
    let mut main = 0u32;
    // The element of the last main-line ply, and how many main-line elements were read.
    let (mut last_ply, mut read) = (None, 0usize);
    // Variations nest; an explicit stack of the element lists still to walk.
    let mut stack: Vec<std::slice::Iter<'_, Element>> = vec![record.moves.iter()];
    while let Some(top) = stack.last_mut() {
        let Some(element) = top.next() else {
            stack.pop();
            if !stack.is_empty() {
                items.push(Item::Close);
            }
            continue;
        };
        let in_main = stack.len() == 1;
        if in_main {
            read += 1;
        }
        match element {
            Element::MoveNumber(m) => items.push(Item::Number { t: number_text(m) }),
            Element::Ply(ply) => {
                let t = ply_text(ply);
                let p = in_main.then(|| {
                    last_ply = Some(read - 1);
                    main += 1;
                    main
                });
                items.push(Item::Ply { t, p });
            }
            Element::Comment(c) => {
                let t = CompactString::from(c.text.trim());
                if in_main {
                    for cmd in c.commands.iter().filter(|c| c.name == "stones") {
                        stones.push((main, cmd.args.as_str().to_string()));
                    }
                }
                items.push(Item::Comment { t });
            }
            Element::Nag(n) => items.push(Item::Nag {
                t: format_compact!("${}", n.code),
            }),
            Element::Variation(v) => {
                let branch = last_ply.filter(|_| in_main).map(|element| {
                    branches.push(Branch {
                        at: main,
                        element,
                        elements: &v.elements,
                    });
                    branches.len() - 1
                });
                items.push(Item::Open { v: branch });
                stack.push(v.elements.iter());
            }
        }
    }
    if let Some(r) = record.result {
        items.push(Item::Result {
            t: r.result.as_str().into(),
        });
    }
    (items, stones, branches)
}

fn pits(list: &[(Pit, u16)]) -> Vec<(String, u16)> {
    list.iter().map(|(p, n)| (p.to_string(), *n)).collect()
}

fn ply_view(ply: &crate::replay::PlyTrace, stones: Vec<Checkpoint>) -> PlyView {
    let e = &ply.effect;
    let (from, placed) = match &ply.mv {
        Move::Sow(s) => (vec![s.from.to_string()], Vec::new()),
        Move::Redistribute(r) => (
            r.emptied.iter().map(Pit::to_string).collect(),
            pits(&r.placed),
        ),
    };
    PlyView {
        number: ply.number,
        side: ply.side.letter(),
        text: ply.text.clone(),
        from,
        placed,
        laps: (e.laps.iter().take(MAX_LAPS_SHOWN))
            .map(|l| format!("{}-{}", l.start, l.end))
            .collect(),
        lap_count: e.lap_count,
        end: e.end.map(|p| p.to_string()),
        captured: pits(&e.captured),
        bonus: pits(&e.bonus),
        prison_gain: e.prison_gain,
        nki_marked: e.nki_marked,
        foul: ply.foul,
        stones,
    }
}

/// A variation that branches from the main line, replayed as the line it makes: the
/// main line before the ply it replaces, then its own plies (those of variations inside
/// it are not played).
#[derive(Clone, Debug, Serialize)]
pub struct VariationView {
    /// The main-line ply it replaces: its first ply is numbered so.
    pub at: u32,
    /// The position before its first ply, then after each of its plies replayed.
    #[serde(serialize_with = "positions_as_changes")]
    pub positions: Vec<String>,
    pub plies: Vec<PlyView>,
    /// When its replay stopped at a ply it could not play: that ply's number.
    pub stop: Option<u32>,
    /// The diagnostics of its plies.
    pub diagnostics: Vec<DiagnosticView>,
}

fn variation_view(
    parsed: &ParsedGame,
    branch: &Branch<'_>,
    options: &ReplayOptions,
) -> VariationView {
    let record = &parsed.record;
    let moves = (record.moves[..branch.element].iter())
        .chain(
            branch
                .elements
                .iter()
                .filter(|e| !matches!(e, Element::Variation(_))),
        )
        .cloned()
        .collect();
    // Without the result: the variation is not the game.
    let tags = (record.tags.iter())
        .filter(|t| t.name != "Result")
        .cloned()
        .collect();
    let line = ParsedGame {
        record: Record {
            tags,
            moves,
            result: None,
        },
        problems: Vec::new(),
        text: String::new(),
        offset: 0,
        line: 1,
    };
    let trace = replay(&line, options);
    let from = branch.at as usize;
    let plies: Vec<PlyView> = (trace.plies.iter().skip(from - 1))
        .map(|p| ply_view(p, Vec::new()))
        .collect();
    let positions = (from - 1..=trace.plies.len())
        .filter_map(|k| trace.position_after(k).map(Position::to_string))
        .collect();
    let replayed = trace.plies.len() as u32;
    let stop = (trace.first_error_ply())
        .filter(|&p| p == replayed + 1 && p >= branch.at && !trace.complete);
    VariationView {
        at: branch.at,
        positions,
        plies,
        stop,
        diagnostics: (trace.diagnostics.iter())
            .filter(|d| d.ply.is_some_and(|p| p >= branch.at))
            .map(DiagnosticView::of)
            .collect(),
    }
}

/// The page's view of one game, from its replay (`options` replay its variations).
pub fn game_view(
    number: usize,
    input: &str,
    index: usize,
    parsed: &ParsedGame,
    trace: &Trace,
    options: &ReplayOptions,
) -> GameView {
    let record = &parsed.record;
    let (moves, written_stones, branches) = move_text(record);
    let variations = (branches.iter())
        .filter(|_| trace.start.is_some())
        .map(|b| variation_view(parsed, b, options))
        .collect();
    let seen = Seen {
        number,
        input,
        index,
        tags: &record.tags,
        moves: MoveText::Items(moves),
        written_stones,
        variations,
    };
    view_from(seen, trace)
}

/// What the page shows of a game beside its replay: where it is, its tags, its move
/// text, the `[%stones]` arguments written after main-line plies (see [`move_text`]) and
/// its variations, replayed.
struct Seen<'a> {
    number: usize,
    input: &'a str,
    index: usize,
    tags: &'a [Tag],
    moves: MoveText,
    written_stones: Vec<(u32, String)>,
    variations: Vec<VariationView>,
}

/// The page's view of one game from what it shows and its replay.
fn view_from(seen: Seen<'_>, trace: &Trace) -> GameView {
    let Seen {
        number,
        input,
        index,
        tags,
        moves,
        written_stones,
        variations,
    } = seen;
    let game = trace.rules.as_ref().map(|r| r.game());
    let stones_at = |n: usize, pos: Option<&Position>| -> Vec<Checkpoint> {
        let from = written_stones.partition_point(|(ply, _)| (*ply as usize) < n);
        (written_stones[from..].iter())
            .take_while(|(ply, _)| *ply as usize == n)
            .map(|(_, w)| checkpoint(w, game, pos))
            .collect()
    };
    let mut positions = Vec::with_capacity(trace.plies.len() + 1);
    positions.extend(trace.start.as_ref().map(Position::to_string));
    let mut plies = Vec::with_capacity(trace.plies.len());
    for ply in &trace.plies {
        plies.push(ply_view(
            ply,
            stones_at(ply.number as usize, ply.after.as_ref()),
        ));
        if let Some(after) = &ply.after {
            positions.push(after.to_string());
        }
    }
    let replayed = trace.plies.len() as u32;
    let first_error = trace.first_error().map(|d| d.ply.unwrap_or(0));
    let stop = first_error
        .filter(|&p| p == replayed + 1 && trace.start.is_some())
        .filter(|_| !trace.complete);
    let rules = trace.rules.as_ref().map(|r| {
        format!(
            "{} {}{}",
            r.game(),
            r.board(),
            match r.options_tag().as_str() {
                "" => String::new(),
                o => format!(" ({o})"),
            }
        )
    });
    let svg = trace
        .rules
        .as_ref()
        .filter(|_| trace.start.is_some())
        .map(|r| {
            // Drawn with no stone: the page writes every position's counts into it.
            crate::diagram::svg_board(r, &Position::empty(r.board(), Side::South), None, None)
        });
    let ending = match (&trace.rules, &trace.last, &trace.outcome) {
        (Some(rules), Some(last), Some(outcome)) => {
            Some(crate::diagram::game_over_lines(rules, last, outcome).join(" "))
        }
        _ => None,
    };
    GameView {
        number,
        input: input.to_string(),
        index,
        tags: (tags.iter())
            .map(|t| (t.name.to_string(), t.value.to_string()))
            .collect(),
        rules,
        board: None,
        positions,
        plies,
        stop,
        plies_written: trace.plies_written,
        variations,
        moves,
        start_stones: stones_at(0, trace.start.as_ref()),
        diagnostics: trace.diagnostics.iter().map(DiagnosticView::of).collect(),
        declared: trace.declared.map(|r| r.as_str().to_string()),
        ending,
        errors: trace.errors(),
        warnings: trace.warnings(),
        first_error,
        svg,
    }
}

/// Replays a parsed game as the page does (positions and laps kept, and repairs
/// searched for a game with an error, as `sow validate --suggest` would) and makes its
/// view.
pub fn view_of(
    number: usize,
    input: &str,
    index: usize,
    parsed: &ParsedGame,
    options: &ReplayOptions,
) -> GameView {
    let mut trace = replay(parsed, options);
    if !trace.is_valid() {
        crate::repair::attach_suggestions(parsed, &mut trace, options, &RepairOptions::default());
    }
    game_view(number, input, index, parsed, &trace, options)
}

/// The page's view of a game read from its input (numbered 0, for the page to number),
/// when the filter keeps it and it is a game. A game with no variation is replayed from
/// its text and never parsed whole: its move text is read again as the page is written,
/// and a search for repairs holds only the window of its record it reads.
fn text_view(
    input: &str,
    index: usize,
    text: GameText,
    filter: &Filter,
    options: &ReplayOptions,
    suggest: bool,
) -> Option<GameView> {
    let mut scan = Scan::default();
    let tags = match text.read(&mut scan) {
        Some(tags) if !scan.variation => tags,
        _ => {
            let game = text.parse();
            if game.is_no_game() || !filter.accepts(&game.record) {
                return None;
            }
            return Some(match suggest {
                true => view_of(0, input, index, &game, options),
                false => game_view(0, input, index, &game, &replay(&game, options), options),
            });
        }
    };
    // What stands for no game (see `ParsedGame::is_no_game`), and the filter.
    let errors = scan.errors || text.problems().iter().any(|p| p.is_error());
    let nothing = tags.is_empty() && !scan.anything && scan.result.is_none();
    let record = Record {
        tags,
        moves: Vec::new(),
        result: scan.result,
    };
    if (nothing && !errors) || !filter.accepts(&record) {
        return None;
    }
    let (_, mut trace) = crate::replay::Replayer::new().replay_text(&text, options, &|_| true)?;
    if suggest && !trace.is_valid() {
        crate::repair::attach_suggestions_from_text(
            &text,
            &mut trace,
            options,
            &RepairOptions::default(),
        );
    }
    let seen = Seen {
        number: 0,
        input,
        index,
        tags: &record.tags,
        moves: MoveText::Text(text),
        written_stones: scan.stones,
        variations: Vec::new(),
    };
    Some(view_from(seen, &trace))
}

/// `sow view`: the games of the inputs kept by the filter, replayed, as one page. The
/// games are replayed a batch at a time by the corpus driver. An input that cannot be
/// read is reported to `notes` (`NAME: why`), and the others are still read (to report
/// every one); then the command fails: a page that silently left an input out would
/// mislead. With `suggest`, the repairs of each game with an error are searched for, as
/// `sow validate --suggest` does.
pub fn write_view(
    inputs: &[Input],
    filter: &Filter,
    options: &ReplayOptions,
    suggest: bool,
    out: &mut dyn Write,
    notes: &mut dyn FnMut(String),
) -> Result<(), CommandError> {
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    // The index, which comes first in the page, needs every game: the games' data is
    // written to a file as each is made, and copied into the page after the index, so
    // that memory holds one game's view at a time.
    let mut parts = PageParts::default();
    let spill = tempfile::tempfile().map_err(|e| CommandError::io("<temporary file>", e))?;
    let mut scripts = std::io::BufWriter::new(spill);
    let mut unreadable = 0;
    let view = |work: Work| -> Result<Option<GameView>, String> {
        let name = &names[work.input()];
        let (index, text) = work.game_text(&names)?;
        Ok(text_view(name, index, text, filter, options, suggest))
    };
    let keep = |_, view: Result<Option<GameView>, String>| -> Result<(), CommandError> {
        match view {
            Ok(Some(mut view)) => {
                view.number = parts.games() + 1;
                parts.add(&mut view);
                game_script(&view, &mut scripts)
                    .map_err(|e| CommandError::io("<temporary file>", e))?;
            }
            Ok(None) => {}
            Err(report) => {
                notes(report);
                unreadable += 1;
            }
        }
        Ok(())
    };
    crate::corpus::drive(
        Batches::new(inputs, options.max_game_bytes),
        view,
        keep,
        |_| {},
    )?;
    if unreadable > 0 {
        return Err(CommandError::Unreadable(unreadable));
    }
    if parts.games() == 0 {
        return Err(CommandError::Usage("no game to show".into()));
    }
    let title = match &names[..] {
        [one] => format!("{one}: sow view"),
        _ => format!("{} files: sow view", names.len()),
    };
    let mut spill =
        (scripts.into_inner()).map_err(|e| CommandError::io("<temporary file>", e.into_error()))?;
    spill
        .seek(std::io::SeekFrom::Start(0))
        .map_err(|e| CommandError::io("<temporary file>", e))?;
    // A failure here is the temporary file's or the output's: told as the output's, as
    // a write of the page always was.
    parts
        .write(&title, out, |out| {
            std::io::copy(&mut spill, out).map(|_| ())
        })
        .map_err(|e| CommandError::io("<output>", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_written_as_its_changes_when_they_are_shorter() {
        let before = "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 S";
        let after = "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,0,3,3,2,2 N";
        assert_eq!(
            position_changes(before, after).unwrap(),
            "~19:0,20:3,21:3| N"
        );
        let kiothi = "0,3*,0,0,0,0,0,0,0,0/1,1,0,1,0,0,0,0,0,0 N S:18 N:29";
        let next = "0,3*,0,0,0,0,0,0,0,0/1,1,0,1,0,0,0,0,0,0 S S:18 N:30";
        assert_eq!(position_changes(kiothi, next).unwrap(), "~| S S:18 N:30");
        // Rows of another length are not changes.
        assert_eq!(position_changes("1,1/1,1 S", "1,1,1/1,1,1 S"), None);
    }
}
