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
//! A variation that branches from the main line is replayed, as every line is, from
//! text: the line it makes is the game's text to the ply it replaces, then the
//! variation's moves (see `variation_view`).
//!
//! Must not replay but through [`crate::replay`], or hold a game's syntax tree, or its
//! positions and plies: each game is replayed from its text as the reader reads it, each
//! ply's data is written as the replay plays it (see `lines`), each game's data goes to
//! a temporary file once it is made, and into the page after the index, which alone is
//! held to the end.

use std::io::{Read, Seek, Write};

use compact_str::{format_compact, CompactString, ToCompactString};
use serde::Serialize;

use crate::corpus::{Batches, Filter, Input, Work};
use crate::diagnostic::{Code, Diagnostic};
use crate::error::CommandError;
use crate::geometry::{Pit, Side};
use crate::moves::Move;
use crate::pmn::reader::size_in_words;
use crate::pmn::Record;
use crate::pmn::{GameText, Tag};
use crate::position::Position;
use crate::repair::RepairOptions;
use crate::replay::{ReplayOptions, Replayer, Trace};
use crate::rules::Game;

mod lines;
mod page;

use lines::{GameData, LineSpan};
use page::{game_script, PageParts};

const SCRIPT: &str = include_str!("view/view.js");
pub(crate) const STYLE: &str = include_str!("view/view.css");

/// Laps of one ply listed in the page, at most; the page says how many there were.
pub const MAX_LAPS_SHOWN: usize = 200;

/// One game of the page: everything the page shows of it (written by
/// `page::game_script`, in the order of its fields).
#[derive(Debug)]
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
    /// Its main line in `data`: the PMN `Position` string at the start and after each
    /// ply replayed (each written as its changes from the one before when that is
    /// shorter, see [`position_changes`]), and what each ply replayed did.
    main: LineSpan,
    /// When the replay stopped at a ply it could not play: that ply's number (one past
    /// the plies replayed), shown with the board as it stood.
    pub stop: Option<u32>,
    /// The plies written in the main line.
    pub plies_written: usize,
    /// The move text as written.
    pub moves: MoveText,
    /// The variations that branch from the main line, replayed, in the order written.
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
    pub svg: Option<String>,
    /// The positions and plies of its lines, written as they were replayed.
    data: GameData,
    /// What to tell of it beside the page (variations not replayed), not in the page.
    pub note: Option<String>,
}

/// How the page is made beyond the replay.
#[derive(Clone, Copy, Debug)]
pub struct PageOptions {
    /// Search repairs of each game with an error, as `sow validate --suggest` does.
    pub suggest: bool,
    /// The plies of the main line a game's variations may replay in all: each is
    /// replayed from the game's start (a variation after ply 100 replays 99 plies
    /// before its own), so those past this are shown but not replayed.
    pub variation_plies: u64,
    /// The bytes of the game's text its variations may read again in all, each the
    /// text before the ply it replaces (comments included): past it, likewise.
    pub variation_text: u64,
}

impl PageOptions {
    /// The bounds of the variations' replay, as the options that set them.
    fn bounds(&self) -> String {
        format!(
            "--max-variation-plies {}, --max-variation-text {}",
            self.variation_plies,
            size_in_words(self.variation_text as usize)
                .replace(" bytes", "")
                .replace(' ', "")
        )
    }
}

impl Default for PageOptions {
    fn default() -> PageOptions {
        PageOptions {
            suggest: true,
            variation_plies: DEFAULT_VARIATION_PLIES,
            variation_text: DEFAULT_VARIATION_TEXT,
        }
    }
}

/// [`PageOptions::variation_plies`] by default: about a second of replay.
pub const DEFAULT_VARIATION_PLIES: u64 = 10_000_000;

/// [`PageOptions::variation_text`] by default (256 MiB): about a second of reading.
pub const DEFAULT_VARIATION_TEXT: u64 = 256 << 20;

/// Lines and columns of offsets of a game's text, asked in increasing order.
struct Places<'t> {
    text: &'t str,
    offset: usize,
    /// The offset reached, and its line and the offset its line begins at.
    at: usize,
    line: u32,
    line_start: usize,
}

impl<'t> Places<'t> {
    fn new(text: &'t GameText) -> Places<'t> {
        Places {
            text: text.text(),
            offset: text.offset(),
            at: text.offset(),
            line: text.line(),
            line_start: text.offset(),
        }
    }

    /// The line and column (from 1, in characters) of `offset`, at or past the last.
    fn of(&mut self, offset: usize) -> (u32, u32) {
        let piece = |a: usize, b: usize| {
            let (a, b) = (a.saturating_sub(self.offset), b.saturating_sub(self.offset));
            self.text.get(a..b).unwrap_or("")
        };
        let between = piece(self.at, offset);
        if let Some(last) = between.rfind('\n') {
            self.line += between.matches('\n').count() as u32;
            self.line_start = self.at + last + 1;
        }
        self.at = self.at.max(offset);
        let column = 1 + piece(self.line_start, offset).chars().count() as u32;
        (self.line, column)
    }
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

/// The move text as the page lists it, read again from the game's text as the page is
/// written, so that a long game's items are never held.
#[derive(Clone, Debug)]
pub struct MoveText(GameText);

impl Serialize for MoveText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(None)?;
        let mut items = ItemsOfText {
            seq: &mut seq,
            main: 0,
            depth: 0,
            branches: 0,
            result: None,
            failed: None,
        };
        self.0.read(&mut items);
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

/// The reader's events of a game, each written as its [`Item`]: main-line plies
/// numbered, and each variation that branches from the main line (see [`Scan`]) with
/// its index among them.
struct ItemsOfText<'s, Q: serde::ser::SerializeSeq> {
    seq: &'s mut Q,
    /// Main-line plies read.
    main: u32,
    /// The variations open.
    depth: usize,
    /// The variations that branch from the main line read.
    branches: usize,
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
        let p = (self.depth == 0).then(|| {
            self.main += 1;
            self.main
        });
        self.write(Item::Ply {
            t: ply_text(&ply),
            p,
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

    fn begin_variation(&mut self, _open: crate::pmn::Span) -> crate::pmn::Skip {
        let branch = (self.depth == 0 && self.main > 0).then(|| {
            self.branches += 1;
            self.branches - 1
        });
        match self.write(Item::Open { v: branch }) {
            std::ops::ControlFlow::Continue(()) => {
                self.depth += 1;
                crate::pmn::Skip::No
            }
            std::ops::ControlFlow::Break(()) => crate::pmn::Skip::Yes,
        }
    }

    fn end_variation(&mut self, _span: crate::pmn::Span) -> std::ops::ControlFlow<()> {
        self.depth -= 1;
        self.write(Item::Close)
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
/// written after main-line plies, each with its ply (0: before the first), in order;
/// the variations that branch from the main line; whether it holds anything, and
/// whether the reader found an error.
#[derive(Default)]
struct Scan {
    stones: Vec<(u32, String)>,
    main: u32,
    /// Where the last main-line ply read begins.
    last_ply: Option<usize>,
    branches: Vec<Branch>,
    /// The variations open.
    depth: usize,
    anything: bool,
    result: Option<crate::pmn::ResultToken>,
    errors: bool,
}

/// A variation that branches from the main line: it comes after main-line ply `at`,
/// which begins at `ply`, and replaces it. The text of its own moves runs from `moves`
/// to `end` (offsets in the game's file).
struct Branch {
    at: u32,
    ply: usize,
    moves: usize,
    end: usize,
}

impl crate::pmn::Visitor for Scan {
    fn move_number(&mut self, _m: crate::pmn::MoveNumber) -> std::ops::ControlFlow<()> {
        self.anything = true;
        std::ops::ControlFlow::Continue(())
    }

    fn ply(&mut self, ply: crate::pmn::Ply) -> std::ops::ControlFlow<()> {
        self.anything = true;
        if self.depth == 0 {
            self.main += 1;
            self.last_ply = Some(ply.span.start);
        }
        std::ops::ControlFlow::Continue(())
    }

    fn comment(&mut self, c: crate::pmn::Comment) -> std::ops::ControlFlow<()> {
        self.anything = true;
        if self.depth == 0 {
            for cmd in c.commands.iter().filter(|c| c.name == "stones") {
                self.stones.push((self.main, cmd.args.as_str().to_string()));
            }
        }
        std::ops::ControlFlow::Continue(())
    }

    fn nag(&mut self, _n: crate::pmn::Nag) -> std::ops::ControlFlow<()> {
        self.anything = true;
        std::ops::ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, open: crate::pmn::Span) -> crate::pmn::Skip {
        self.anything = true;
        if let (0, Some(ply)) = (self.depth, self.last_ply) {
            self.branches.push(Branch {
                at: self.main,
                ply,
                moves: open.end,
                end: open.end,
            });
        }
        self.depth += 1;
        crate::pmn::Skip::No
    }

    fn end_variation(&mut self, span: crate::pmn::Span) -> std::ops::ControlFlow<()> {
        self.depth -= 1;
        if let (0, Some(_), Some(branch)) = (self.depth, self.last_ply, self.branches.last_mut()) {
            branch.end = span.end;
        }
        std::ops::ControlFlow::Continue(())
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
    /// A warning of the page's own at ply `ply`, with no legal plies or repairs.
    fn notice(code: Code, ply: u32, line: u32, column: u32, message: String) -> DiagnosticView {
        DiagnosticView {
            severity: "warning",
            code: code.as_str(),
            ply: Some(ply),
            line,
            column,
            message,
            legal: Vec::new(),
            position: None,
            suggestions: Vec::new(),
            suggestions_stopped: None,
        }
    }

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

fn pits(list: &[(Pit, u16)]) -> Vec<(String, u16)> {
    list.iter().map(|(p, n)| (p.to_string(), *n)).collect()
}

/// What a ply replayed did, as the page shows it; `text` is the ply as written.
fn ply_view(
    (number, side, foul): (u32, Side, bool),
    mv: &Move,
    e: &crate::moves::Effect,
    text: String,
    stones: Vec<Checkpoint>,
) -> PlyView {
    let (from, placed) = match mv {
        Move::Sow(s) => (vec![s.from.to_string()], Vec::new()),
        Move::Redistribute(r) => (
            r.emptied.iter().map(Pit::to_string).collect(),
            pits(&r.placed),
        ),
    };
    PlyView {
        number,
        side: side.letter(),
        text,
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
        foul,
        stones,
    }
}

/// The `[%stones]` checkpoints written after main-line ply `n` (0: before the first), of
/// those `written` in order, against the position `pos` there.
fn stones_at(
    written: &[(u32, String)],
    n: u32,
    game: Option<Game>,
    pos: Option<&Position>,
) -> Vec<Checkpoint> {
    let from = written.partition_point(|(ply, _)| *ply < n);
    (written[from..].iter())
        .take_while(|(ply, _)| *ply == n)
        .map(|(_, w)| checkpoint(w, game, pos))
        .collect()
}

/// A variation that branches from the main line, replayed as the line it makes: the
/// main line before the ply it replaces, then its own plies (those of variations inside
/// it are not played).
#[derive(Debug)]
pub struct VariationView {
    /// The main-line ply it replaces: its first ply is numbered so.
    pub at: u32,
    /// Its line in its game's data: the position before its first ply, then after each
    /// of its plies replayed, and what each did.
    line: LineSpan,
    /// When its replay stopped at a ply it could not play: that ply's number.
    pub stop: Option<u32>,
    /// The diagnostics of its plies.
    pub diagnostics: Vec<DiagnosticView>,
}

/// A variation that branches from the main line, replayed into the next line of `data`
/// as the line it makes: the game's text to the ply it replaces, then its own moves, the
/// rest of the text in between left blank (each character a space, each line kept, so
/// that every place in it is where it is written). Only its replay's own diagnostics
/// are its: the reader's problems of that text are the game's, and a line has no
/// result.
fn variation_view(
    game: &GameText,
    branch: &Branch,
    options: &ReplayOptions,
    replayer: &mut Replayer,
    data: &mut GameData,
) -> std::io::Result<VariationView> {
    let text = game.text();
    let at = |offset: usize| offset - game.offset();
    let end = match text[..at(branch.end)].strip_suffix(')') {
        Some(moves) => moves.len(),
        None => at(branch.end),
    };
    let blank: String = (text[at(branch.ply)..at(branch.moves)].chars())
        .map(|c| match c {
            '\n' | '\r' => c,
            _ => ' ',
        })
        .collect();
    let bytes = text.as_bytes();
    let line = (&bytes[..at(branch.ply)])
        .chain(blank.as_bytes())
        .chain(&bytes[at(branch.moves)..end]);
    let mut reader = crate::pmn::Reader::new(line);
    if let Some(bytes) = options.max_game_bytes {
        reader = reader.with_max_game_bytes(bytes);
    }
    let read = reader.next_text();
    // Only the line's text read is held while it is replayed.
    drop(reader);
    let mut writer = data.line();
    let (mut played, mut start) = (0u32, None);
    let mut each = |_: &crate::rules::Rules, ply: &crate::replay::PlyView<'_>| {
        played += 1;
        if ply.number + 1 == branch.at {
            start = ply.after.cloned();
        }
        if ply.number >= branch.at {
            let view = ply_view(
                (ply.number, ply.side, ply.foul),
                ply.mv,
                ply.effect,
                ply.syntax.to_string(),
                Vec::new(),
            );
            writer.ply(&view, ply.after);
        }
    };
    let replayed = (read.as_ref())
        .and_then(|read| replayer.replay_text_each(read, options, &|_| true, Some(&mut each)));
    let mut trace = replayed.map(|(_, trace)| trace).unwrap_or_default();
    if branch.at == 1 {
        start = trace.start.take();
    }
    let line = writer.finish(start.as_ref())?;
    // Its lines are counted from its game's first.
    let shift = read.map_or(0, |read| game.line() as i64 - read.line() as i64);
    trace.diagnostics.retain(|d| of_the_play(d.code));
    let stop =
        (trace.first_error_ply()).filter(|&p| p == played + 1 && p >= branch.at && !trace.complete);
    Ok(VariationView {
        at: branch.at,
        line,
        stop,
        diagnostics: (trace.diagnostics.iter())
            .filter(|d| d.ply.is_some_and(|p| p >= branch.at))
            .map(|d| {
                let mut view = DiagnosticView::of(d);
                view.line = (i64::from(view.line) + shift) as u32;
                view
            })
            .collect(),
    })
}

/// Whether a diagnostic is the replay's own, not the reader's, nor of a declared result.
fn of_the_play(code: Code) -> bool {
    match code {
        Code::IllegalMove
        | Code::EndlessSowing
        | Code::UndecidedSowing
        | Code::EndMismatch
        | Code::CaptureMark
        | Code::Bonus
        | Code::StonesMismatch
        | Code::AfterEnd
        | Code::Foul
        | Code::UnknownOption
        | Code::UnknownGame
        | Code::BadBoard
        | Code::Setup
        | Code::SetupTotal
        | Code::PlyForm
        | Code::Command => true,
        Code::ResultNotOver
        | Code::Syntax
        | Code::UnterminatedComment
        | Code::UnterminatedTag
        | Code::UnterminatedVariation
        | Code::UnmatchedParen
        | Code::BadEscape
        | Code::DuplicateTag
        | Code::MissingGameTag
        | Code::MissingResult
        | Code::ResultMismatch
        | Code::MoveNumber
        | Code::Encoding
        | Code::NulByte
        | Code::LongLine
        | Code::NumberTooLarge
        | Code::NestingTooDeep
        | Code::EmptyFile
        | Code::GarbageBetweenGames
        | Code::Io
        | Code::Skipped
        | Code::NotReplayed => false,
    }
}

/// What the page shows of a game beside its replay: where it is, its tags, its move
/// text, the `[%stones]` arguments written after main-line plies (see [`Scan`]), its
/// variations, replayed, and its lines as they were written.
struct Seen<'a> {
    input: &'a str,
    index: usize,
    tags: &'a [Tag],
    moves: MoveText,
    written_stones: Vec<(u32, String)>,
    variations: Vec<VariationView>,
    main: LineSpan,
    data: GameData,
}

/// The page's view of one game (numbered 0, for the page to number) from what it shows
/// and its replay.
fn view_from(seen: Seen<'_>, trace: &Trace) -> GameView {
    let Seen {
        input,
        index,
        tags,
        moves,
        written_stones,
        variations,
        main,
        data,
    } = seen;
    let game = trace.rules.as_ref().map(|r| r.game());
    let replayed = main.plies_written as u32;
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
        number: 0,
        input: input.to_string(),
        index,
        tags: (tags.iter())
            .map(|t| (t.name.to_string(), t.value.to_string()))
            .collect(),
        rules,
        board: None,
        main,
        stop,
        plies_written: trace.plies_written,
        variations,
        moves,
        start_stones: stones_at(&written_stones, 0, game, trace.start.as_ref()),
        diagnostics: trace.diagnostics.iter().map(DiagnosticView::of).collect(),
        declared: trace.declared.map(|r| r.as_str().to_string()),
        ending,
        errors: trace.errors(),
        warnings: trace.warnings(),
        first_error,
        svg,
        data,
        note: None,
    }
}

/// The page's view of a game read from its input (numbered 0, for the page to number),
/// when the filter keeps it and it is a game, replayed from its text and never parsed
/// whole: each ply's data is written as the replay plays it (positions and laps kept),
/// its move text is read again as the page is written, each variation that branches
/// from the main line is replayed from the text of the line it makes, and a search for
/// repairs of a game with an error (as `sow validate --suggest` would, when `suggest`)
/// holds only the window of its record it reads.
fn text_view(
    input: &str,
    index: usize,
    text: GameText,
    filter: &Filter,
    options: &ReplayOptions,
    page: &PageOptions,
) -> std::io::Result<Option<GameView>> {
    let mut scan = Scan::default();
    let Some(tags) = text.read(&mut scan) else {
        return Ok(None);
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
        return Ok(None);
    }
    let mut replayer = Replayer::new();
    let mut data = GameData::new();
    let mut main = data.line();
    let written_stones = &scan.stones;
    // Each variation is replayed from the game's start: those past the plies the
    // game's variations may replay so are not, and are shown from the main line's
    // position before the ply they replace.
    let (mut plies, mut read) = (0u64, 0u64);
    let replays: Vec<bool> = (scan.branches.iter())
        .map(|b| {
            plies = plies.saturating_add(u64::from(b.at.saturating_sub(1)));
            read = read.saturating_add(b.ply.saturating_sub(text.offset()) as u64);
            plies <= page.variation_plies && read <= page.variation_text
        })
        .collect();
    // The main-line plies after which those begin (in order: variations are read in
    // the order of the plies they replace), and the positions after them.
    let mut before_unplayed: Vec<u32> = (scan.branches.iter().zip(&replays))
        .filter(|&(b, &replayed)| !replayed && b.at > 1)
        .map(|(b, _)| b.at - 1)
        .collect();
    before_unplayed.dedup();
    let mut next_unplayed = before_unplayed.iter().peekable();
    let mut starts: Vec<(u32, Position)> = Vec::new();
    let mut each = |rules: &crate::rules::Rules, ply: &crate::replay::PlyView<'_>| {
        if next_unplayed.next_if_eq(&&ply.number).is_some() {
            starts.extend(ply.after.map(|after| (ply.number, after.clone())));
        }
        let stones = stones_at(written_stones, ply.number, Some(rules.game()), ply.after);
        let view = ply_view(
            (ply.number, ply.side, ply.foul),
            ply.mv,
            ply.effect,
            ply.syntax.to_string(),
            stones,
        );
        main.ply(&view, ply.after);
    };
    let replayed = replayer.replay_text_each(&text, options, &|_| true, Some(&mut each));
    let Some((_, mut trace)) = replayed else {
        return Ok(None);
    };
    let main = main.finish(trace.start.as_ref())?;
    if page.suggest && !trace.is_valid() {
        crate::repair::attach_suggestions_from_text(
            &text,
            &mut trace,
            options,
            &RepairOptions::default(),
        );
    }
    let mut places = Places::new(&text);
    let mut not_replayed = 0;
    let mut variations = Vec::new();
    for (b, &replayed) in scan.branches.iter().zip(&replays) {
        if trace.start.is_none() {
            break;
        }
        if replayed {
            variations.push(variation_view(&text, b, options, &mut replayer, &mut data)?);
            continue;
        }
        not_replayed += 1;
        let start = match b.at {
            1 => trace.start.as_ref(),
            at => (starts.binary_search_by_key(&(at - 1), |s| s.0).ok()).map(|i| &starts[i].1),
        };
        let (line, column) = places.of(b.moves);
        let message = format!(
            "this variation is not replayed: each variation is replayed from the game's start, and those before it replayed as much of the main line as a game's variations may ({})",
            page.bounds()
        );
        variations.push(VariationView {
            at: b.at,
            line: data.line().finish(start)?,
            stop: Some(b.at),
            diagnostics: vec![DiagnosticView::notice(
                Code::NotReplayed,
                b.at,
                line,
                column,
                message,
            )],
        });
    }
    let note = (not_replayed > 0).then(|| {
        let (a, are) = match not_replayed {
            1 => ("variation", "is"),
            _ => ("variations", "are"),
        };
        format!(
            "{input}: game {index}: {not_replayed} {a} of its {} {are} not replayed: each variation is replayed from the game's start, and a game's variations replay no more of its main line than {}",
            scan.branches.len(),
            page.bounds()
        )
    });
    let seen = Seen {
        input,
        index,
        tags: &record.tags,
        moves: MoveText(text),
        written_stones: scan.stones,
        variations,
        main,
        data,
    };
    let mut view = view_from(seen, &trace);
    view.note = note;
    Ok(Some(view))
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
    page: &PageOptions,
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
    type Made = Result<std::io::Result<Option<GameView>>, String>;
    let view = |work: Work| -> Made {
        let name = &names[work.input()];
        let (index, text) = work.game_text(&names)?;
        Ok(text_view(name, index, text, filter, options, page))
    };
    let keep = |_, view: Made| -> Result<(), CommandError> {
        let temporary = |e| CommandError::io("<temporary file>", e);
        match view {
            Ok(Ok(Some(mut view))) => {
                if let Some(note) = view.note.take() {
                    notes(note);
                }
                view.number = parts.games() + 1;
                parts.add(&mut view);
                game_script(&mut view, &mut scripts).map_err(temporary)?;
            }
            Ok(Ok(None)) => {}
            Ok(Err(e)) => return Err(temporary(e)),
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
