//! `sow plot`: figures read from replay traces, as SVG, PDF or PNG.
//!
//! The data of each game ([`GameData`]) is read from its [`Trace`]; this module never
//! plays a move. A figure is laid out in points at its print size ([`PrintSize`]), with
//! text measured in the shipped font ([`crate::figure`]), so that nothing collides:
//! the title wraps (an empty one takes no room), the legend and the notes stand under
//! the data, tick labels are spaced by their widths, axis titles stay on the canvas.
//! Colours are Okabe-Ito's, whose blue and vermillion stay apart for colour-blind
//! readers; the sides also differ by line (South solid, North dashed) and marker
//! (filled circles, open triangles), and odd bar groups are hatched, so that a figure
//! reads in greyscale. What a statistic leaves out is said in a note on the figure.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::corpus::{self, Batches, Filter, Input, Work};
use crate::error::CommandError;
use crate::figure::{self, num, PrintSize};
use crate::geometry::Side;
use crate::moves::Effect;
use crate::pmn::Record;
use crate::position::Position;
use crate::replay::{PlyView, ReplayOptions, Replayer, Trace};
use crate::rules::{Game, Rules};
use crate::stats::game_name;

/// Okabe-Ito: blue (South), vermillion (North), then the others for further series.
pub const PALETTE: [&str; 7] = [
    "#0072B2", "#D55E00", "#009E73", "#E69F00", "#56B4E9", "#CC79A7", "#000000",
];

/// The set of a game as a figure names it: the game as people write it, the board and
/// the rule options (`Bao la Kimasai 4x12`, `Tsoro 4x21 head-bonus=yes`).
pub fn set_name(rules: &Rules) -> String {
    let options = rules.options_tag();
    let space = if options.is_empty() { "" } else { " " };
    format!("{} {}{space}{options}", rules.game().name(), rules.board())
}

/// What a figure needs of one game, read from its trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameData {
    /// Game, board and rule options, e.g. `Tsoro 4x12` or `Tsoro 4x21 head-bonus=yes`:
    /// the set the game belongs to. No figure pools games of different sets: each set
    /// is a series of its own (lengths, laps) or a panel of its own (material, captures).
    pub kind: String,
    /// The replay stopped at an error: the game is drawn up to it.
    pub stopped: bool,
    /// A label from the tags (`South - North, Event, Date`).
    pub name: String,
    /// Kiothi: the material is the prisons, not the stones on the board.
    pub prisons: bool,
    /// Plies replayed.
    pub plies: usize,
    /// Material of South and North at the start (index 0) and after each ply replayed.
    pub material: Vec<[u32; 2]>,
    /// Laps of each ply replayed.
    pub laps: Vec<u64>,
    /// Who played each ply and the stones it took (captured and bonus).
    pub captures: Vec<(Side, u32)>,
}

/// The series of one game's figure, gathered a ply at a time as the game is replayed:
/// no ply is kept.
struct GameSeries {
    kind: Option<PlotKind>,
    prisons: bool,
    plies: usize,
    /// Material after each ply (the start's is put first at the end).
    material: Vec<[u32; 2]>,
    laps: Vec<u64>,
    captures: Vec<(Side, u32)>,
    /// A ply came without its position: material cannot be drawn.
    no_position: bool,
}

impl GameSeries {
    fn new(kind: Option<PlotKind>, rules: &Rules) -> GameSeries {
        GameSeries {
            kind,
            prisons: rules.game() == Game::Kiothi,
            plies: 0,
            material: Vec::new(),
            laps: Vec::new(),
            captures: Vec::new(),
            no_position: false,
        }
    }

    fn wants(&self, k: PlotKind) -> bool {
        self.kind.is_none_or(|kind| kind == k)
    }

    fn material_of(&self, p: &crate::position::Position) -> [u32; 2] {
        if self.prisons {
            [p.prisons()[0] as u32, p.prisons()[1] as u32]
        } else {
            [p.stones_of(Side::South), p.stones_of(Side::North)]
        }
    }

    /// Adds a ply played by `side` with the effect `e`, and the position after it when
    /// the replay kept it.
    fn add(&mut self, side: Side, e: &Effect, after: Option<&Position>) {
        self.plies += 1;
        if self.wants(PlotKind::Material) {
            match after {
                Some(after) => self.material.push(self.material_of(after)),
                None => self.no_position = true,
            }
        }
        if self.wants(PlotKind::Laps) {
            self.laps.push(e.lap_count);
        }
        if self.wants(PlotKind::Captures) {
            self.captures.push((side, e.stones_taken()));
        }
    }

    /// The game's data, its plies added; `None` when its rules or start were not
    /// understood.
    fn data(mut self, record: &Record, trace: &Trace) -> Option<GameData> {
        let rules = trace.rules.as_ref()?;
        let start = trace.start.as_ref()?;
        if self.wants(PlotKind::Material) {
            if self.no_position {
                return None;
            }
            self.material.insert(0, self.material_of(start));
        }
        Some(GameData {
            kind: set_name(rules),
            stopped: self.plies < trace.plies_written || !trace.complete,
            name: game_name(record),
            prisons: self.prisons,
            plies: self.plies,
            material: self.material,
            laps: self.laps,
            captures: self.captures,
        })
    }
}

impl GameData {
    /// The data of a replayed game; `None` when its rules or start were not understood.
    pub fn from_trace(record: &Record, trace: &Trace) -> Option<GameData> {
        GameData::from_trace_for(None, record, trace)
    }

    /// The data of a replayed game for one kind of figure: only the series it draws are
    /// kept (all of them with `None`; material needs the trace's positions). A corpus's
    /// series are held until the figure is drawn, and each is a word or two a ply: a
    /// figure of game lengths keeps none, a figure of material one of the three.
    pub fn from_trace_for(
        kind: Option<PlotKind>,
        record: &Record,
        trace: &Trace,
    ) -> Option<GameData> {
        let rules = trace.rules.as_ref()?;
        let mut series = GameSeries::new(kind, rules);
        (trace.plies.iter()).for_each(|p| series.add(p.side, &p.effect, p.after.as_ref()));
        series.data(record, trace)
    }
    /// Plies replayed.
    pub fn plies(&self) -> usize {
        self.plies
    }
}

/// What a figure shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotKind {
    /// Stones on each side's board (and in prison) ply by ply.
    Material,
    /// How many plies the games lasted.
    Length,
    /// Laps per ply.
    Laps,
    /// Captures per ply.
    Captures,
}

/// How a figure is drawn.
#[derive(Clone, Debug)]
pub struct Style {
    /// The print width, in millimetres.
    pub width_mm: f64,
    /// The print height, in millimetres; `None`: three quarters of the width for one
    /// chart, taller for panels.
    pub height_mm: Option<f64>,
    /// The title (default: made from the records; empty: none).
    pub title: Option<String>,
    /// With several games, also draw every game faintly (material plots).
    pub every: bool,
}

impl Default for Style {
    /// A journal's single column.
    fn default() -> Style {
        Style {
            width_mm: PrintSize::SINGLE.width_mm,
            height_mm: None,
            title: None,
            every: false,
        }
    }
}

impl Style {
    /// A style of a print size.
    pub fn sized(size: PrintSize) -> Style {
        Style {
            width_mm: size.width_mm,
            height_mm: Some(size.height_mm),
            ..Style::default()
        }
    }

    /// The size a figure is drawn at: the height given, or one that suits its charts
    /// (panels in rows of two in a column, each about half as tall as wide).
    fn size_of(&self, figure: &Figure) -> PrintSize {
        let w = self.width_mm;
        let height_mm = self.height_mm.unwrap_or_else(|| {
            let n = figure.panels.len();
            if n > 1 {
                let cols = panel_columns(w * figure::PT_PER_MM, n);
                let rows = n.div_ceil(cols) as f64;
                // Each row as tall as half a panel's width, and at least the room its
                // title, axes and a readable plot take.
                let t = PrintSize {
                    width_mm: w,
                    height_mm: w,
                }
                .type_pt()
                    / figure::PT_PER_MM;
                let row = (w / cols as f64 * 0.55).max(13.0 * t);
                w * 0.12 + 8.0 * t + rows * row
            } else {
                w * 0.75
            }
        });
        PrintSize {
            width_mm: w,
            height_mm,
        }
    }
}

/// Columns of a grid of `n` panels on a page `width` points wide: two in a column's
/// width, else as near a square as it goes.
fn panel_columns(width: f64, n: usize) -> usize {
    if width < 2.4 * 84.0 * figure::PT_PER_MM {
        2.min(n)
    } else {
        (n as f64).sqrt().ceil() as usize
    }
}

/// `sow plot`: the SVG figure of one kind of the inputs, what [`gather`] says told to
/// `notes`.
pub fn run(
    inputs: &[Input],
    filter: &Filter,
    replay: &ReplayOptions,
    kind: PlotKind,
    style: &Style,
    notes: &mut dyn FnMut(String),
) -> Result<String, CommandError> {
    let figure = gather(inputs, filter, replay, kind, style.every, notes)?;
    draw(&figure, style)
}

/// Reads the games of the inputs that pass the filter, in input order, into the figure
/// of one kind: each game's series is counted in as it is read and then dropped, so
/// memory holds a batch of games and the figure's counts (with `every`, every game's
/// material series too). An input that cannot be read is reported to `notes` (`NAME:
/// why`), and the others are still read (to report every one); then it fails: no figure
/// leaves an input out. Games that could not be replayed are counted in a last note.
pub fn gather(
    inputs: &[Input],
    filter: &Filter,
    options: &ReplayOptions,
    kind: PlotKind,
    every: bool,
    notes: &mut dyn FnMut(String),
) -> Result<Figure, CommandError> {
    let mut options = options.clone();
    options.keep_positions = kind == PlotKind::Material;
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    let mut figure = Figure::new(kind, every);
    let mut unreadable = vec![false; inputs.len()];
    // Games kept by the filters that could not be replayed (their game, board, rules or
    // set-up not understood): they have no figures, and are counted to be said so.
    let mut not_replayed = 0;
    // A game filtered out is `None`; one kept but not replayed, `Some(None)`.
    // Each game is replayed from its text as it is read, its series gathered ply by
    // ply: no syntax tree and no ply is kept, however long the game.
    let data = |replayer: &mut Replayer, work: Work| -> Result<Option<Option<GameData>>, String> {
        let (_, text) = work.game_text(&names)?;
        let keep = |record: &Record| filter.accepts(record);
        let mut series: Option<GameSeries> = None;
        let mut each = |rules: &Rules, p: &PlyView<'_>| {
            series
                .get_or_insert_with(|| GameSeries::new(Some(kind), rules))
                .add(p.side, p.effect, p.after);
        };
        let Some((record, trace)) =
            replayer.replay_text_each(&text, &options, &keep, Some(&mut each))
        else {
            // A file's stand-in, or a game the filter leaves out.
            return Ok(None);
        };
        // Text of no tag, result or ply may stand for no game, as a parse tells.
        if record.tags.is_empty() && record.result.is_none() && trace.plies_written == 0 {
            let game = text.parse();
            if game.is_no_game() {
                return Ok(None);
            }
        }
        let series = match (series, &trace.rules) {
            (Some(series), _) => series,
            (None, Some(rules)) => GameSeries::new(Some(kind), rules),
            (None, None) => return Ok(Some(None)),
        };
        Ok(Some(series.data(&record, &trace)))
    };
    let count = |input: usize, data: Result<Option<Option<GameData>>, String>| {
        match data {
            Ok(Some(Some(game))) => figure.add(game),
            Ok(Some(None)) => not_replayed += 1,
            Ok(None) => {}
            Err(e) => {
                notes(e);
                unreadable[input] = true;
            }
        }
        Ok::<(), std::convert::Infallible>(())
    };
    let batches = Batches::new(inputs, options.max_game_bytes);
    let Ok(()) = corpus::drive_with(batches, Replayer::new, data, count, |_| {});
    if not_replayed > 0 {
        let (games, are) = match not_replayed {
            1 => ("game", "is"),
            _ => ("games", "are"),
        };
        notes(format!(
            "{not_replayed} {games} could not be replayed (game, board, rules or set-up not understood; `sow validate` says why) and {are} not drawn"
        ));
    }
    match unreadable.iter().filter(|&&u| u).count() {
        0 => Ok(figure),
        n => Err(CommandError::Unreadable(n)),
    }
}

/// Draws a figure of the games.
pub fn render(kind: PlotKind, games: &[GameData], style: &Style) -> Result<String, CommandError> {
    let mut figure = Figure::new(kind, style.every);
    for g in games {
        figure.add(g.clone());
    }
    draw(&figure, style)
}

/// What a figure draws, counted game by game as they are read: for material the values
/// of each side at each ply, for lengths and laps their counts per kind of game, for
/// captures the sums per ply. One game is kept whole while it is the only one (a
/// figure of one game draws its own series), and with `every` each game's material.
#[derive(Clone, Debug)]
pub struct Figure {
    kind: PlotKind,
    every: bool,
    /// Games counted.
    games: usize,
    /// The sets of games (`Tsoro 4x12`), in order of first appearance.
    kinds: Vec<String>,
    /// Per set, the games counted and those that stop at an error.
    kind_games: Vec<[usize; 2]>,
    /// Material and captures: a figure per set, drawn as a panel each when there are
    /// several (the counts of this figure are then not drawn); none while there is one.
    panels: Vec<Figure>,
    /// Whether this is a panel: one set's figure, which has no panels of its own.
    is_panel: bool,
    /// Whether some game's material is its prisons (Kiothi), and whether some other's is not.
    prisons: [bool; 2],
    /// The first game, while it is the only one: its series are not counted in the
    /// fields below until a second game comes.
    only: Option<GameData>,
    /// With `every`: each game's plies and material series.
    series: Vec<(usize, Vec<[u32; 2]>)>,
    /// At each ply (0: the start), how many games had each material value, per side.
    material: Vec<[Tally; 2]>,
    /// Game lengths counted, per kind.
    lengths: Vec<Counts>,
    /// Laps per ply counted, per kind.
    laps: Vec<Counts>,
    /// Per side and ply (from 1, at index `ply - 1`), the stones taken in all and the
    /// games in which the side played that ply (none: the side never played it).
    captures: [Vec<(u64, u64)>; 2],
    /// Game lengths counted, of all kinds.
    plies: Counts,
}

impl Figure {
    pub fn new(kind: PlotKind, every: bool) -> Figure {
        Figure {
            kind,
            every,
            games: 0,
            kinds: Vec::new(),
            kind_games: Vec::new(),
            panels: Vec::new(),
            is_panel: false,
            prisons: [false; 2],
            only: None,
            series: Vec::new(),
            material: Vec::new(),
            lengths: Vec::new(),
            laps: Vec::new(),
            captures: [Vec::new(), Vec::new()],
            plies: Counts::new(),
        }
    }

    /// Counts a game in.
    pub fn add(&mut self, game: GameData) {
        let k = match self.kinds.iter().position(|k| *k == game.kind) {
            Some(k) => k,
            None => {
                // The panels begin with the second set: the first set's is the figure
                // as it is then, which holds the first set's games alone.
                let panels = matches!(self.kind, PlotKind::Material | PlotKind::Captures);
                if panels && !self.is_panel && self.kinds.len() == 1 {
                    let mut first = self.clone();
                    first.is_panel = true;
                    self.panels.push(first);
                }
                self.kinds.push(game.kind.clone());
                self.kind_games.push([0, 0]);
                self.lengths.push(Counts::new());
                self.laps.push(Counts::new());
                if panels && !self.is_panel && self.kinds.len() > 1 {
                    let mut panel = Figure::new(self.kind, self.every);
                    panel.is_panel = true;
                    self.panels.push(panel);
                }
                self.kinds.len() - 1
            }
        };
        self.games += 1;
        self.kind_games[k][0] += 1;
        self.kind_games[k][1] += usize::from(game.stopped);
        if let Some(panel) = self.panels.get_mut(k) {
            panel.add(game.clone());
        }
        self.prisons[usize::from(!game.prisons)] = true;
        let plies = game.plies() as u64;
        *self.lengths[k].entry(plies).or_insert(0) += 1;
        *self.plies.entry(plies).or_insert(0) += 1;
        for &laps in &game.laps {
            *self.laps[k].entry(laps).or_insert(0) += 1;
        }
        // A lone game's series are counted in when a second game comes: a figure of one
        // game draws the game itself, and a long one is not held twice.
        if let Some(first) = self.only.take() {
            self.count_series(&first);
        }
        if self.games == 1 {
            self.only = Some(game);
        } else {
            self.count_series(&game);
        }
    }

    /// Counts a game's series ply by ply: its captures, its material, and with `every`
    /// the material series itself.
    fn count_series(&mut self, game: &GameData) {
        for (i, &(side, taken)) in game.captures.iter().enumerate() {
            let plies = &mut self.captures[side.index()];
            if plies.len() <= i {
                plies.resize(i + 1, (0, 0));
            }
            plies[i].0 += taken as u64;
            plies[i].1 += 1;
        }
        if self.material.len() < game.material.len() {
            self.material
                .resize_with(game.material.len(), Default::default);
        }
        for (at, m) in self.material.iter_mut().zip(&game.material) {
            for side in 0..2 {
                at[side].add(m[side]);
            }
        }
        if self.every {
            self.series.push((game.plies(), game.material.clone()));
        }
    }

    /// The figure with every game's series counted: itself, or while it holds one game,
    /// a copy with that game counted in.
    fn counted(&self) -> std::borrow::Cow<'_, Figure> {
        match &self.only {
            None => std::borrow::Cow::Borrowed(self),
            Some(game) => {
                let mut all = self.clone();
                all.only = None;
                all.count_series(game);
                std::borrow::Cow::Owned(all)
            }
        }
    }

    /// Each set of games (game, board, rule options) counted: its name, its games, and
    /// those of them that stop at an error.
    pub fn sets(&self) -> Vec<(&str, usize, usize)> {
        (self.kinds.iter().zip(&self.kind_games))
            .map(|(k, [games, stopped])| (k.as_str(), *games, *stopped))
            .collect()
    }

    /// The figure of one set alone (material and captures), as drawn in its panel: the
    /// figure itself while it holds one set.
    pub fn panel(&self, set: usize) -> Option<&Figure> {
        let panels = matches!(self.kind, PlotKind::Material | PlotKind::Captures);
        match self.kinds.len() {
            1 if panels && set == 0 && !self.is_panel => Some(self),
            _ => self.panels.get(set),
        }
    }

    /// The label of each set's series: the set alone for one set, else with its games.
    fn series_labels(&self) -> Vec<String> {
        if self.kinds.len() == 1 {
            return self.kinds.clone();
        }
        (self.sets().into_iter())
            .map(|(set, games, stopped)| format!("{set}: {}", games_said(games, stopped)))
            .collect()
    }

    /// Games that stop at an error.
    fn stopped(&self) -> usize {
        self.kind_games.iter().map(|k| k[1]).sum()
    }

    /// The one game, when the figure has exactly one.
    fn only(&self) -> Option<&GameData> {
        self.only.as_ref()
    }

    /// Games still running at each ply (0: the start).
    fn running(&self) -> Vec<u64> {
        let all = self.counted();
        all.material.iter().map(|at| at[0].total()).collect()
    }

    /// The median and quartiles of each side's material at each ply, over the games
    /// still running at that ply, while at least a tenth of the games (and at least
    /// one) are.
    pub fn material_quantiles(&self) -> [Vec<(f64, [f64; 3])>; 2] {
        let all = self.counted();
        let needed = self.games.div_ceil(10).max(1) as u64;
        let mut out = [Vec::new(), Vec::new()];
        for (n, at) in all.material.iter().enumerate() {
            let running: u64 = at[0].total();
            if running < needed {
                break;
            }
            for (series, values) in out.iter_mut().zip(at) {
                let q = |q: f64| counted_quantile(values, running, q);
                series.push((n as f64, [q(0.25), q(0.5), q(0.75)]));
            }
        }
        out
    }

    /// The mean stones taken at each ply by each side, over the games in which that
    /// side played that ply: `[South, North]`, each a list of (ply, mean), for the plies
    /// that at least a tenth of the games reach.
    pub fn capture_means(&self) -> [Vec<(f64, f64)>; 2] {
        let all = self.counted();
        let needed = self.games.div_ceil(10).max(1) as u64;
        let reaching = |ply: usize| -> u64 { self.plies.range(ply as u64..).map(|(_, n)| n).sum() };
        all.captures.clone().map(|m| {
            (m.into_iter().enumerate())
                .map(|(i, taken)| (i + 1, taken))
                .filter(|&(ply, (_, n))| n > 0 && reaching(ply) >= needed)
                .map(|(ply, (sum, n))| (ply as f64, sum as f64 / n as f64))
                .collect()
        })
    }
}

/// How many games had each value (one side's material at one ply), in value order: a
/// single value is held in place (every ply that one game alone reaches, as the end
/// of a long game), more in a map.
#[derive(Clone, Debug, Default)]
enum Tally {
    #[default]
    Empty,
    One(u32, u64),
    // Boxed: the map's own 24 bytes would make every ply's tally half as large again.
    #[allow(clippy::box_collection)]
    Many(Box<BTreeMap<u32, u64>>),
}

impl Tally {
    /// Counts a game that had `value`.
    fn add(&mut self, value: u32) {
        match self {
            Tally::Empty => *self = Tally::One(value, 1),
            Tally::One(v, n) if *v == value => *n += 1,
            Tally::One(v, n) => {
                *self = Tally::Many(Box::new(BTreeMap::from([(*v, *n), (value, 1)])));
            }
            Tally::Many(counts) => *counts.entry(value).or_insert(0) += 1,
        }
    }

    /// The values and their counts, in value order.
    fn counts(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        let (one, many) = match self {
            Tally::Empty => (None, None),
            Tally::One(v, n) => (Some((*v, *n)), None),
            Tally::Many(counts) => (None, Some(counts.iter().map(|(&v, &n)| (v, n)))),
        };
        one.into_iter().chain(many.into_iter().flatten())
    }

    /// The games counted.
    fn total(&self) -> u64 {
        self.counts().map(|(_, n)| n).sum()
    }
}

/// Quantile `q` of values given by their counts (`total` in all): linear interpolation
/// between the values of the ranks on either side of `q (total - 1)`.
fn counted_quantile(counts: &Tally, total: u64, q: f64) -> f64 {
    let at_rank = |rank: u64| -> f64 {
        let mut below = 0;
        for (v, n) in counts.counts() {
            below += n;
            if below > rank {
                return v as f64;
            }
        }
        0.0
    };
    let pos = q * (total - 1) as f64;
    let (lo, hi) = (pos.floor() as u64, pos.ceil() as u64);
    at_rank(lo) + (at_rank(hi) - at_rank(lo)) * (pos - lo as f64)
}

/// Draws a figure.
pub fn draw(figure: &Figure, style: &Style) -> Result<String, CommandError> {
    if figure.games == 0 {
        return Err(CommandError::Usage(
            "no game to plot (no input, or every game filtered out, unreadable or not replayed)"
                .into(),
        ));
    }
    let size = style.size_of(figure);
    if style.height_mm.is_some() {
        size.check().map_err(CommandError::Usage)?;
    } else {
        // The height is the figure's own: only the width is the reader's to check.
        PrintSize {
            height_mm: size.width_mm,
            ..size
        }
        .check()
        .map_err(CommandError::Usage)?;
    }
    let title = printable(&(style.title.clone()).unwrap_or_else(|| default_title(figure)));
    let mut page = Page::new(size);
    let t = page.t;
    let (w, h) = (size.width_pt(), size.height_pt());
    let margin = t * 0.6;
    // The title, wrapped to the width: it never shrinks, and an empty one takes no room.
    let mut y = margin;
    let title_pt = t * 1.2;
    for line in figure::wrap(&title, title_pt, true, w - 2.0 * margin) {
        let (asc, desc) = figure::text_extent(title_pt);
        page.text(
            margin,
            y + asc,
            title_pt,
            Anchor::Start,
            "title",
            &line,
            true,
        );
        y += asc + desc + t * 0.15;
    }
    if y > margin {
        y += t * 0.4;
    }
    // What the figure draws, then the legend and the notes under the data, bottom up.
    let drawing = match figure.kind {
        _ if figure.panels.len() > 1 => Drawing::Panels(
            (figure.panels.iter().zip(figure.sets()))
                .map(|(panel, (set, games, stopped))| {
                    (
                        panel_drawing(panel),
                        (set.to_string(), panel_games(games, stopped)),
                    )
                })
                .collect(),
        ),
        _ => Drawing::One(panel_drawing(figure)),
    };
    let charts: Vec<&Chart> = match &drawing {
        Drawing::One(c) => vec![c],
        Drawing::Panels(p) => p.iter().map(|(c, _)| c).collect(),
    };
    // The legend of every panel's looks, each once.
    let mut legend: Vec<(Look, String)> = Vec::new();
    for (look, label) in charts.iter().flat_map(|c| &c.legend) {
        if !legend.iter().any(|(_, l)| l == label) {
            legend.push((look.clone(), label.clone()));
        }
    }
    let mut notes = charts[0].notes.clone();
    if charts.len() > 1 {
        // Said once for all panels, each of which counts its own games (a panel of one
        // game draws it whole, with nothing to say).
        let any = charts.iter().any(|c| !c.notes.is_empty());
        notes = match figure.kind {
            _ if !any => Vec::new(),
            PlotKind::Material => vec![format!(
                "Medians over the games still running at each ply, drawn while at least a tenth of a panel's games run; 25-75% bands where at least {BAND_GAMES} games run."
            )],
            _ => vec!["Means over the games that reach each ply, drawn while at least a tenth of a panel's games do.".to_string()],
        };
    }
    let stopped = figure.stopped();
    if stopped > 0 && figure.panels.len() > 1 {
        notes.push("A game that stops at an error is drawn up to it.".to_string());
    }
    let note_lines: Vec<String> = (notes.iter())
        .flat_map(|n| figure::wrap(n, t, false, w - 2.0 * margin))
        .collect();
    let rows = legend_rows(&legend, t, w - 2.0 * margin);
    let line_h = t * 1.3;
    // Room under the charts: the legend, the notes and the margin.
    let under = margin + note_lines.len() as f64 * line_h + rows.len() as f64 * line_h + t * 0.8;
    // The charts need room for their titles, axes and a plot of some height.
    let grid_rows = match &drawing {
        Drawing::One(_) => 1,
        Drawing::Panels(p) => p.len().div_ceil(panel_columns(w, p.len())),
    };
    let needed = y + under + grid_rows as f64 * t * 13.0;
    let mut h = h;
    if needed > h {
        if style.height_mm.is_some() {
            return Err(CommandError::Usage(format!(
                "the figure needs a height of at least {:.0} mm for its title, legend and notes (--height)",
                (needed / figure::PT_PER_MM).ceil()
            )));
        }
        h = needed;
        page.size.height_mm = h / figure::PT_PER_MM;
    }
    let mut bottom = h - margin;
    let notes_top = bottom - note_lines.len() as f64 * line_h;
    if !note_lines.is_empty() {
        bottom = notes_top - t * 0.3;
    }
    let legend_top = bottom - rows.len() as f64 * line_h;
    if !rows.is_empty() {
        bottom = legend_top - t * 0.5;
    }
    let region = Region {
        left: margin,
        top: y,
        right: w - margin,
        bottom,
    };
    match &drawing {
        Drawing::One(chart) => page.chart(chart, region, true, true, 0),
        Drawing::Panels(panels) => {
            let n = panels.len();
            let cols = panel_columns(w, n);
            let gap = t;
            let cell_w = (region.width() - gap * (cols - 1) as f64) / cols as f64;
            let cell_h = (region.height() - gap * (grid_rows - 1) as f64) / grid_rows as f64;
            for (i, (chart, name)) in panels.iter().enumerate() {
                let (r, c) = (i / cols, i % cols);
                let left = region.left + c as f64 * (cell_w + gap);
                let mut top = region.top + r as f64 * (cell_h + gap);
                let label = t * 1.07;
                let (set, games) = name;
                let mut lines =
                    figure::wrap(&printable(&format!("{set} ({games})")), label, true, cell_w);
                if lines.len() > 3 {
                    lines = figure::wrap(&printable(set), label, true, cell_w);
                }
                // Three lines at most: the rest is cut.
                if lines.len() > 3 {
                    let rest = lines[2..].join(" ");
                    lines.truncate(2);
                    lines.push(fit(&rest, label, true, cell_w));
                }
                for line in lines {
                    let (asc, desc) = figure::text_extent(label);
                    page.text(left, top + asc, label, Anchor::Start, "panel", &line, true);
                    top += asc + desc;
                }
                let cell = Region {
                    left,
                    top: top + t * 0.3,
                    right: left + cell_w,
                    bottom: region.top + r as f64 * (cell_h + gap) + cell_h,
                };
                // The x axis's title under the bottom panels only; every panel has its
                // own y axis, whose title may differ (prisons, stones on the board).
                let last_row = r == grid_rows - 1 || i + cols >= n;
                page.chart(chart, cell, true, last_row, i + 1);
            }
        }
    }
    page.legend(&rows, margin, legend_top, line_h);
    for (i, line) in note_lines.iter().enumerate() {
        let (asc, _) = figure::text_extent(t);
        let y = notes_top + i as f64 * line_h + asc;
        page.text(margin, y, t, Anchor::Start, "note", line, false);
    }
    Ok(page.finish(&title))
}

enum Drawing<'a> {
    One(Chart<'a>),
    Panels(Vec<(Chart<'a>, (String, String))>),
}

/// How a series is drawn, which its legend entry shows.
#[derive(Clone, Debug)]
enum Look {
    /// A line of a side: South solid with filled circles, North dashed with open
    /// triangles, so that the two also differ in greyscale.
    Line(Side),
    /// A side's 25-75% band.
    Band(Side),
    /// Bars of group `j`: its colour, hatched for odd groups; `outline` draws them
    /// open (North's bars beside South's filled ones).
    Bars { j: usize, outline: bool },
}

impl Look {
    fn color(&self) -> &'static str {
        match self {
            Look::Line(side) | Look::Band(side) => PALETTE[side.index()],
            Look::Bars { j, .. } => PALETTE[j % PALETTE.len()],
        }
    }
}

/// One axis: its range, whether its ticks are whole numbers, its title.
#[derive(Clone, Debug)]
struct Axis {
    min: f64,
    max: f64,
    integer: bool,
    title: String,
    /// Ticks at multiples of this (histogram bins), when set.
    step: Option<f64>,
}

impl Axis {
    /// An axis from `min` to `max`, its ticks where they fall.
    fn new(min: f64, max: f64, integer: bool, title: impl Into<String>) -> Axis {
        Axis {
            min,
            max,
            integer,
            title: title.into(),
            step: None,
        }
    }

    /// An axis of counts or shares, from 0 to a little above the largest, `max`.
    fn counts(max: f64, integer: bool, title: impl Into<String>) -> Axis {
        Axis::new(0.0, headroom(max), integer, title)
    }
}

/// A series to draw.
#[derive(Clone, Debug)]
enum Series<'a> {
    /// A polyline (with markers when `Look::Line`), faint when `faint` is set.
    Line {
        look: Look,
        points: Points<'a>,
        faint: Option<f64>,
    },
    /// A filled polygon.
    Band { look: Look, points: Vec<(f64, f64)> },
    /// Bars as (left, right, height).
    Bars {
        look: Look,
        bars: Vec<(f64, f64, f64)>,
    },
}

/// The points of a line: computed, or one side's material at each ply of a game, read
/// where the game holds it (a long game's series is not held twice).
#[derive(Clone, Debug)]
enum Points<'a> {
    Computed(Vec<(f64, f64)>),
    Material(&'a [[u32; 2]], Side),
}

impl Points<'_> {
    fn len(&self) -> usize {
        match self {
            Points::Computed(points) => points.len(),
            Points::Material(material, _) => material.len(),
        }
    }

    /// The points, as (x, y).
    fn iter(&self) -> impl Iterator<Item = (f64, f64)> + Clone + '_ {
        let (computed, material) = match self {
            Points::Computed(points) => (Some(points.iter().copied()), None),
            Points::Material(material, side) => {
                let side = side.index();
                let at = move |(n, m): (usize, &[u32; 2])| (n as f64, m[side] as f64);
                (None, Some(material.iter().enumerate().map(at)))
            }
        };
        computed
            .into_iter()
            .flatten()
            .chain(material.into_iter().flatten())
    }
}

/// One chart: axes, series, the legend's entries and the notes that say what the
/// statistics leave out.
#[derive(Clone, Debug)]
struct Chart<'a> {
    x: Axis,
    y: Axis,
    series: Vec<Series<'a>>,
    legend: Vec<(Look, String)>,
    notes: Vec<String>,
}

/// A rectangle on the page, in points.
#[derive(Clone, Copy, Debug)]
struct Region {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Region {
    fn width(&self) -> f64 {
        self.right - self.left
    }
    fn height(&self) -> f64 {
        self.bottom - self.top
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Anchor {
    Start,
    Middle,
}

/// The SVG of a figure being drawn, in points.
struct Page {
    size: PrintSize,
    /// The smallest type, in points.
    t: f64,
    /// The width of a data line.
    line: f64,
    body: String,
    defs: String,
}

impl Page {
    fn new(size: PrintSize) -> Page {
        Page {
            size,
            t: size.type_pt(),
            line: size.line_pt(),
            body: String::new(),
            defs: String::new(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn text(
        &mut self,
        x: f64,
        y: f64,
        pt: f64,
        anchor: Anchor,
        class: &str,
        text: &str,
        bold: bool,
    ) {
        let anchor = match anchor {
            Anchor::Start => "",
            Anchor::Middle => r#" text-anchor="middle""#,
        };
        let weight = if bold { r#" font-weight="bold""# } else { "" };
        let _ = writeln!(
            self.body,
            r#"<text class="{class}" x="{}" y="{}" font-size="{}"{anchor}{weight}>{}</text>"#,
            num(x),
            num(y),
            num(pt),
            figure::escape(text)
        );
    }

    fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64, extra: &str) {
        self.polyline_of(points.iter().copied(), stroke, width, extra);
    }

    /// A polyline of points given one at a time, written as they come: a series of a
    /// long game is never held as text twice.
    fn polyline_of(
        &mut self,
        points: impl Iterator<Item = (f64, f64)>,
        stroke: &str,
        width: f64,
        extra: &str,
    ) {
        let _ = write!(
            self.body,
            r#"<polyline fill="none" stroke="{stroke}" stroke-width="{}"{extra} points=""#,
            num(width),
        );
        self.points(points);
        self.body.push_str("\"/>\n");
    }

    /// Points as SVG writes them: `x,y`, a space between two.
    fn points(&mut self, points: impl Iterator<Item = (f64, f64)>) {
        for (i, (x, y)) in points.enumerate() {
            if i > 0 {
                self.body.push(' ');
            }
            let _ = write!(self.body, "{},{}", num(x), num(y));
        }
    }

    /// A side's marker centred at (x, y): a filled circle for South, an open triangle
    /// for North.
    fn marker(&mut self, side: Side, x: f64, y: f64) {
        let r = self.t * 0.32;
        let color = PALETTE[side.index()];
        match side {
            Side::South => {
                let _ = writeln!(
                    self.body,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{color}"/>"#,
                    num(x),
                    num(y),
                    num(r)
                );
            }
            Side::North => {
                let r = r * 1.25;
                let pts = [
                    (x, y - r),
                    (x + r * 0.866, y + r * 0.5),
                    (x - r * 0.866, y + r * 0.5),
                ];
                let pts: Vec<String> = pts
                    .iter()
                    .map(|(a, b)| format!("{},{}", num(*a), num(*b)))
                    .collect();
                let _ = writeln!(
                    self.body,
                    r#"<polygon points="{}" fill="white" stroke="{color}" stroke-width="{}"/>"#,
                    pts.join(" "),
                    num(self.line * 0.9)
                );
            }
        }
    }

    /// A bar (or a legend swatch) of a look, hatched for odd groups.
    fn bar(&mut self, look: &Look, x: f64, y: f64, w: f64, h: f64) {
        let color = look.color();
        let (fill, stroke) = match look {
            Look::Bars { outline: true, .. } => (
                "white".to_string(),
                format!(r#" stroke="{color}" stroke-width="{}""#, num(self.line)),
            ),
            Look::Band(_) => (color.to_string(), String::new()),
            _ => (color.to_string(), String::new()),
        };
        let opacity = if matches!(look, Look::Band(_)) {
            r#" opacity="0.2""#
        } else {
            ""
        };
        let _ = writeln!(
            self.body,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"{stroke}{opacity}/>"#,
            num(x),
            num(y),
            num(w),
            num(h)
        );
        if let Look::Bars { j, outline: false } = look {
            if j % 2 == 1 {
                self.hatch_defs();
                let _ = writeln!(
                    self.body,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="url(#hatch)"/>"#,
                    num(x),
                    num(y),
                    num(w),
                    num(h)
                );
            }
        }
    }

    fn hatch_defs(&mut self) {
        if self.defs.is_empty() {
            let s = self.t * 0.5;
            let _ = write!(
                self.defs,
                r#"<pattern id="hatch" patternUnits="userSpaceOnUse" width="{0}" height="{0}" patternTransform="rotate(45)"><rect width="{1}" height="{0}" fill="white" fill-opacity="0.7"/></pattern>"#,
                num(s),
                num(s * 0.35)
            );
        }
    }

    /// Draws a chart in a region: axes, ticks, the series. `y_title` and `x_title` say
    /// whether the axis titles are drawn (panels share them).
    fn chart(&mut self, chart: &Chart, region: Region, y_title: bool, x_title: bool, panel: usize) {
        let t = self.t;
        let label = t * 1.07;
        let (asc, desc) = figure::text_extent(t);
        let (l_asc, l_desc) = figure::text_extent(label);
        let tick_len = t * 0.35;
        let gap = t * 0.3;
        // Space for the x axis: ticks, their labels, its title.
        let mut plot_bottom = region.bottom - tick_len - gap - asc - desc;
        if x_title {
            plot_bottom -= gap + l_asc + l_desc;
        }
        // Half a tick label above the top tick.
        let plot_top = region.top + (asc + desc) / 2.0 + gap;
        let y_ticks = ticks(&chart.y, plot_bottom - plot_top, (asc + desc) * 2.2);
        let y_label_w = (y_ticks.iter())
            .map(|v| figure::text_width(&tick(v), t, false))
            .fold(0.0, f64::max);
        let mut plot_left = region.left + y_label_w + gap + tick_len;
        if y_title {
            plot_left += l_asc + l_desc + gap;
        }
        // The last x tick label may stand out half its width past the frame.
        let x_last_w = figure::text_width(&tick(&chart.x.max.floor()), t, false);
        let plot_right = region.right - x_last_w / 2.0;
        let x_label_w = (chart.x.min.floor() as i64..=chart.x.max.ceil() as i64)
            .map(|v| figure::text_width(&tick(&(v as f64)), t, false))
            .fold(0.0, f64::max)
            .max(figure::text_width("0000", t, false).min(figure::text_width(
                &tick(&chart.x.max),
                t,
                false,
            )));
        let x_ticks = ticks(&chart.x, plot_right - plot_left, x_label_w + t);
        let sx = (plot_right - plot_left) / (chart.x.max - chart.x.min);
        let sy = (plot_bottom - plot_top) / (chart.y.max - chart.y.min);
        let px = |x: f64| plot_left + (x - chart.x.min) * sx;
        let py = |y: f64| plot_bottom - (y - chart.y.min) * sy;
        // Grid lines, then the data, then the frame's axes.
        for v in &y_ticks {
            let y = py(*v);
            let _ = writeln!(
                self.body,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#000000" stroke-opacity="0.12" stroke-width="{}"/>"##,
                num(plot_left),
                num(y),
                num(plot_right),
                num(y),
                num(self.line * 0.5)
            );
        }
        let id = if panel == 0 {
            "data".to_string()
        } else {
            format!("data-{panel}")
        };
        let _ = writeln!(self.body, r#"<g id="{id}">"#);
        for s in &chart.series {
            match s {
                Series::Line {
                    look,
                    points,
                    faint,
                } => {
                    let mapped = points.iter().map(|(x, y)| (px(x), py(y)));
                    let color = look.color();
                    if let Some(faint) = faint {
                        self.polyline_of(
                            mapped,
                            color,
                            self.line * 0.5,
                            &format!(r#" opacity="{}""#, num(*faint)),
                        );
                        continue;
                    }
                    let side = match look {
                        Look::Line(side) => *side,
                        _ => Side::South,
                    };
                    let dash = match side {
                        Side::South => String::new(),
                        Side::North => {
                            format!(r#" stroke-dasharray="{} {}""#, num(t * 0.5), num(t * 0.3))
                        }
                    };
                    self.polyline_of(mapped.clone(), color, self.line, &dash);
                    let every = points.len().div_ceil(24).max(1);
                    for (x, y) in mapped.step_by(every) {
                        self.marker(side, x, y);
                    }
                }
                Series::Band { look, points } => {
                    self.body.push_str(r#"<polygon points=""#);
                    self.points(points.iter().map(|&(x, y)| (px(x), py(y))));
                    let _ = writeln!(self.body, r#"" fill="{}" opacity="0.2"/>"#, look.color());
                }
                Series::Bars { look, bars } => {
                    for &(lo, hi, v) in bars {
                        let (x0, x1, y) = (px(lo), px(hi), py(v));
                        self.bar(look, x0, y, x1 - x0, plot_bottom - y);
                    }
                }
            }
        }
        self.body.push_str("</g>\n");
        let black = "#000000";
        self.polyline(
            &[(plot_left, plot_bottom), (plot_right, plot_bottom)],
            black,
            self.line * 0.6,
            r#" opacity="1""#,
        );
        self.polyline(
            &[(plot_left, plot_top - gap), (plot_left, plot_bottom)],
            black,
            self.line * 0.6,
            r#" opacity="1""#,
        );
        for v in &y_ticks {
            let y = py(*v);
            let _ = writeln!(
                self.body,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{black}" stroke-width="{}"/>"#,
                num(plot_left - tick_len),
                num(y),
                num(plot_left),
                num(y),
                num(self.line * 0.6)
            );
            // Centred on its tick: the label's `y` is the tick's.
            let _ = writeln!(
                self.body,
                r#"<text class="tick" x="{}" y="{}" font-size="{}" text-anchor="end" dominant-baseline="central">{}</text>"#,
                num(plot_left - tick_len - gap),
                num(y),
                num(t),
                tick(v)
            );
        }
        for v in &x_ticks {
            let x = px(*v);
            let _ = writeln!(
                self.body,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{black}" stroke-width="{}"/>"#,
                num(x),
                num(plot_bottom),
                num(x),
                num(plot_bottom + tick_len),
                num(self.line * 0.6)
            );
            self.text(
                x,
                plot_bottom + tick_len + gap + asc,
                t,
                Anchor::Middle,
                "tick",
                &tick(v),
                false,
            );
        }
        if x_title {
            let y = plot_bottom + tick_len + gap + asc + desc + gap + l_asc;
            let x = (plot_left + plot_right) / 2.0;
            for (i, line) in figure::wrap(&chart.x.title, label, false, region.width())
                .iter()
                .enumerate()
                .take(1)
            {
                let _ = i;
                self.text(x, y, label, Anchor::Middle, "axis", line, false);
            }
        }
        if y_title {
            let x = region.left + l_asc;
            let y = (plot_top + plot_bottom) / 2.0;
            let text = fit(
                &chart.y.title,
                label,
                false,
                plot_bottom - plot_top + (asc + desc),
            );
            let _ = writeln!(
                self.body,
                r#"<text class="axis" transform="translate({},{}) rotate(-90)" font-size="{}" text-anchor="middle">{}</text>"#,
                num(x),
                num(y),
                num(label),
                figure::escape(&text)
            );
        }
    }

    /// The legend, row by row from `top`.
    fn legend(&mut self, rows: &[Vec<(Look, String, f64)>], left: f64, top: f64, line_h: f64) {
        if rows.is_empty() {
            return;
        }
        let t = self.t;
        let (asc, desc) = figure::text_extent(t);
        self.body.push_str("<g id=\"legend\">\n");
        for (r, row) in rows.iter().enumerate() {
            let mut x = left;
            let base = top + r as f64 * line_h + asc;
            let mid = base - (asc - desc) / 2.0;
            for (look, label, width) in row {
                let swatch = t * 2.0;
                match look {
                    Look::Line(side) => {
                        let dash = match side {
                            Side::South => String::new(),
                            Side::North => {
                                format!(r#" stroke-dasharray="{} {}""#, num(t * 0.5), num(t * 0.3))
                            }
                        };
                        self.polyline(
                            &[(x, mid), (x + swatch, mid)],
                            look.color(),
                            self.line,
                            &dash,
                        );
                        self.marker(*side, x + swatch / 2.0, mid);
                    }
                    _ => self.bar(look, x, mid - t * 0.4, swatch, t * 0.8),
                }
                self.text(
                    x + swatch + t * 0.4,
                    base,
                    t,
                    Anchor::Start,
                    "key",
                    label,
                    false,
                );
                x += width;
            }
        }
        self.body.push_str("</g>\n");
    }

    /// The page's text: its head put before the body in place, so that a long game's
    /// figure is not held twice.
    fn finish(mut self, title: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" {} font-family="{}">"#,
            self.size.svg_size(),
            figure::FONT_FAMILY_LIST
        );
        let _ = writeln!(out, "<title>{}</title>", figure::escape(title));
        if !self.defs.is_empty() {
            let _ = writeln!(out, "<defs>{}</defs>", self.defs);
        }
        let _ = writeln!(
            out,
            r#"<rect width="{}" height="{}" fill="white"/>"#,
            num(self.size.width_pt()),
            num(self.size.height_pt())
        );
        self.body.insert_str(0, &out);
        self.body.push_str("</svg>\n");
        self.body
    }
}

/// A text cut with an ellipsis to fit a length (an axis title longer than its axis).
fn fit(text: &str, pt: f64, bold: bool, width: f64) -> String {
    if figure::text_width(text, pt, bold) <= width {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let cut: String = chars.iter().collect::<String>() + "…";
        if figure::text_width(&cut, pt, bold) <= width {
            return cut;
        }
    }
    String::new()
}

/// The legend's entries in rows no wider than `width`: each with the width it takes.
fn legend_rows(legend: &[(Look, String)], t: f64, width: f64) -> Vec<Vec<(Look, String, f64)>> {
    let mut rows: Vec<Vec<(Look, String, f64)>> = Vec::new();
    let mut used = 0.0;
    for (look, label) in legend {
        let label = fit(label, t, false, width - t * 2.4);
        let w = t * 2.4 + figure::text_width(&label, t, false) + t * 1.2;
        if rows.is_empty() || used + w - t * 1.2 > width {
            rows.push(Vec::new());
            used = 0.0;
        }
        used += w;
        rows.last_mut()
            .expect("a row")
            .push((look.clone(), label, w));
    }
    rows
}

/// Tick values of an axis of `length` points, at least `spacing` apart: the finest
/// round step (1, 2 or 5 times a power of ten; whole for whole-number axes; a multiple
/// of the axis's own step when it has one) whose ticks fit.
fn ticks(axis: &Axis, length: f64, spacing: f64) -> Vec<f64> {
    let fit = (length / spacing.max(1e-9)).floor() as i64 + 1;
    let range = (axis.max - axis.min).max(1e-9);
    let base = axis.step.unwrap_or(1.0);
    let mut power = if axis.integer || axis.step.is_some() {
        1.0
    } else {
        10f64.powi((range.log10().floor() as i32) - 3)
    };
    let at = |step: f64| {
        let first = (axis.min / step - 1e-9).ceil() as i64;
        let last = (axis.max / step + 1e-9).floor() as i64;
        (first, last)
    };
    loop {
        for m in [1.0, 2.0, 5.0] {
            let step = base * power * m;
            let (first, last) = at(step);
            if last - first < fit.max(2) || power > 1e12 {
                return (first..=last).map(|i| i as f64 * step).collect();
            }
        }
        power *= 10.0;
    }
}

/// A chart of one figure (or one panel).
fn panel_drawing(figure: &Figure) -> Chart<'_> {
    match figure.kind {
        PlotKind::Material => material(figure),
        PlotKind::Length => length(figure),
        PlotKind::Laps => laps(figure),
        PlotKind::Captures => captures(figure),
    }
}

/// Games at least that a ply's 25-75% band is drawn over: with fewer, quartiles say
/// little.
pub const BAND_GAMES: u64 = 4;

fn material(figure: &Figure) -> Chart<'_> {
    let prisons = !figure.prisons[1];
    let y_title = if prisons {
        "stones in prison"
    } else {
        "stones on own rows"
    };
    let sides = [Side::South, Side::North];
    let mut series = Vec::new();
    let mut legend = Vec::new();
    let mut notes = Vec::new();
    let mut max = 0.0f64;
    let mut x_max = 1.0f64;
    if let Some(g) = figure.only() {
        for side in sides {
            let points = Points::Material(&g.material, side);
            max = points.iter().map(|p| p.1).fold(max, f64::max);
            series.push(Series::Line {
                look: Look::Line(side),
                points,
                faint: None,
            });
            legend.push((Look::Line(side), side.name().to_string()));
        }
        x_max = x_max.max(g.plies() as f64);
    } else {
        let quantiles = figure.material_quantiles();
        let last = quantiles[0].last().map_or(0.0, |q| q.0);
        x_max = x_max.max(last);
        if figure.every {
            // Fainter the more games there are, so that the medians stay on top.
            let faint = (4.0 / figure.games as f64).clamp(0.04, 0.25);
            for (plies, material) in &figure.series {
                x_max = x_max.max(*plies as f64);
                for side in sides {
                    let points = Points::Material(material, side);
                    max = points.iter().map(|p| p.1).fold(max, f64::max);
                    series.push(Series::Line {
                        look: Look::Line(side),
                        points,
                        faint: Some(faint),
                    });
                }
            }
        }
        let running = figure.running();
        let band_until = running.iter().take_while(|&&r| r >= BAND_GAMES).count();
        for side in sides {
            let q = &quantiles[side.index()][..band_until.min(quantiles[side.index()].len())];
            if q.len() >= 2 {
                let points: Vec<(f64, f64)> = (q.iter().map(|(x, v)| (*x, v[2])))
                    .chain(q.iter().rev().map(|(x, v)| (*x, v[0])))
                    .collect();
                max = points.iter().map(|p| p.1).fold(max, f64::max);
                series.push(Series::Band {
                    look: Look::Band(side),
                    points,
                });
                legend.push((Look::Band(side), format!("{} 25-75%", side.name())));
            }
        }
        for side in sides {
            let points: Vec<(f64, f64)> = (quantiles[side.index()].iter())
                .map(|(x, v)| (*x, v[1]))
                .collect();
            max = points.iter().map(|p| p.1).fold(max, f64::max);
            series.push(Series::Line {
                look: Look::Line(side),
                points: Points::Computed(points),
                faint: None,
            });
            legend.push((Look::Line(side), format!("{} median", side.name())));
        }
        let needed = figure.games.div_ceil(10).max(1);
        let longest = figure.plies.last_key_value().map_or(0, |(&p, _)| p);
        let mut said = format!(
            "Median over the games still running at each ply, drawn while at least {needed} of the {} games run",
            figure.games
        );
        if (last as u64) < longest {
            let _ = write!(
                said,
                " (to ply {}; the longest game has {longest})",
                last as u64
            );
        }
        said.push('.');
        notes.push(said);
        notes.push(if band_until >= 2 {
            format!(
                "25-75% band where at least {BAND_GAMES} games run{}.",
                if band_until < quantiles[0].len() {
                    format!(" (to ply {})", band_until - 1)
                } else {
                    String::new()
                }
            )
        } else {
            format!("No 25-75% band: fewer than {BAND_GAMES} games run.")
        });
    }
    Chart {
        x: Axis::new(-x_max * 0.02, x_max * 1.02, true, "ply"),
        y: Axis::counts(max, true, y_title),
        series,
        legend,
        notes,
    }
}

/// The top of a y axis: the largest value and a twentieth above it.
fn headroom(max: f64) -> f64 {
    if max <= 0.0 {
        1.0
    } else {
        max * 1.06
    }
}

/// Bars of several groups side by side, centred on their bins: `bars[k][b]` is the
/// height of group k in bin b, bins of `width` from 0 (of width 1: centred on their value).
fn grouped(
    groups: &[String],
    bars: &[Vec<f64>],
    width: u64,
) -> (Vec<Series<'static>>, Vec<(Look, String)>, f64, f64) {
    let k = groups.len().max(1) as f64;
    let w = width as f64;
    // A bin's bars fill 80% of it, leaving a gap between bins.
    let (start, span) = if width == 1 {
        (-0.4, 0.8)
    } else {
        (0.1 * w, 0.8 * w)
    };
    let mut series = Vec::new();
    let mut legend = Vec::new();
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for (j, (name, heights)) in groups.iter().zip(bars).enumerate() {
        let look = Look::Bars { j, outline: false };
        let drawn: Vec<(f64, f64, f64)> = (heights.iter().enumerate())
            .filter(|(_, &h)| h > 0.0)
            .map(|(b, &h)| {
                let x0 = b as f64 * w + start + j as f64 * span / k;
                (x0, x0 + span / k, h)
            })
            .collect();
        for &(a, b, _) in &drawn {
            lo = lo.min(a);
            hi = hi.max(b);
        }
        series.push(Series::Bars {
            look: look.clone(),
            bars: drawn,
        });
        legend.push((look, name.clone()));
    }
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    (series, legend, lo, hi)
}

fn length(figure: &Figure) -> Chart<'_> {
    let labels = figure.series_labels();
    let (width, bars) = histogram(&figure.lengths, 25, None);
    let max = bars.iter().flatten().fold(0.0, |a: f64, &b| a.max(b));
    let (series, legend, lo, hi) = grouped(&labels, &bars, width);
    let x_title = if width == 1 {
        "game length (plies)".to_string()
    } else {
        format!("game length (plies, bins of {width})")
    };
    Chart {
        x: x_axis(lo, hi, width, x_title),
        y: Axis::counts(max, true, "games"),
        series,
        legend,
        notes: Vec::new(),
    }
}

/// The x axis of a histogram: whole numbers, ticks on bin edges (or, for bins of 1, on
/// the values their bars are centred on).
fn x_axis(lo: f64, hi: f64, width: u64, title: String) -> Axis {
    let pad = if width == 1 { 0.2 } else { 0.0 };
    let (min, max) = if width == 1 {
        (lo - pad, hi + pad)
    } else {
        (
            (lo / width as f64).floor() * width as f64,
            (hi / width as f64).ceil() * width as f64,
        )
    };
    Axis {
        min,
        max,
        integer: true,
        title,
        step: Some(width as f64),
    }
}

fn laps(figure: &Figure) -> Chart<'_> {
    let labels = figure.series_labels();
    let values = &figure.laps;
    // A long tail of relay sowings would squeeze the bulk into one bar: laps beyond the
    // 99th percentile (at least 10) share the last bar.
    let mut all = Counts::new();
    for (&v, &n) in values.iter().flatten() {
        *all.entry(v).or_insert(0) += n;
    }
    let plies: u64 = all.values().sum();
    // The value at index `plies * 99 / 100` (at most the last) of the sorted laps.
    let rank = (plies * 99 / 100).min(plies.saturating_sub(1));
    let mut below = 0;
    let percentile = all.iter().find_map(|(&v, &n)| {
        below += n;
        (below > rank).then_some(v)
    });
    let cap = percentile.unwrap_or(0).max(10);
    let capped = all.last_key_value().is_some_and(|(&m, _)| m > cap);
    let (width, mut bars) = histogram(values, 30, Some(cap));
    for (bars, group) in bars.iter_mut().zip(values) {
        let total = group.values().sum::<u64>().max(1) as f64;
        for b in bars.iter_mut() {
            *b *= 100.0 / total;
        }
    }
    let max = bars.iter().flatten().fold(0.0, |a: f64, &b| a.max(b));
    let last = (bars[0].len() as u64 - 1) * width;
    let x_title = if width == 1 {
        "laps per ply".to_string()
    } else {
        format!("laps per ply (bins of {width})")
    };
    let mut notes = Vec::new();
    if capped {
        notes.push(format!(
            "The last bar counts the plies of {last} laps or more."
        ));
    }
    let (series, legend, lo, hi) = grouped(&labels, &bars, width);
    Chart {
        x: x_axis(lo, hi, width, x_title),
        y: Axis::counts(max, false, "share of plies (%)"),
        series,
        legend,
        notes,
    }
}

fn captures(figure: &Figure) -> Chart<'_> {
    let sides = [Side::South, Side::North];
    let mut series = Vec::new();
    let mut legend = Vec::new();
    let mut notes = Vec::new();
    let (max, x_max, y_title, integer);
    if let Some(g) = figure.only() {
        max = g.captures.iter().map(|c| c.1).max().unwrap_or(0) as f64;
        x_max = g.plies().max(1) as f64;
        y_title = "stones captured (bonus included)";
        integer = true;
        for (j, side) in sides.into_iter().enumerate() {
            let look = Look::Bars {
                j,
                outline: side == Side::North,
            };
            let bars = (g.captures.iter().enumerate())
                .filter(|(_, c)| c.0 == side && c.1 > 0)
                .map(|(i, c)| {
                    let x = (i + 1) as f64;
                    (x - 0.4, x + 0.4, c.1 as f64)
                })
                .collect();
            series.push(Series::Bars {
                look: look.clone(),
                bars,
            });
            legend.push((look, side.name().to_string()));
        }
    } else {
        let means = figure.capture_means();
        max = means.iter().flatten().map(|p| p.1).fold(0.0, f64::max);
        x_max = means.iter().flatten().map(|p| p.0).fold(1.0, f64::max);
        y_title = "stones captured (mean)";
        integer = false;
        for side in sides {
            series.push(Series::Line {
                look: Look::Line(side),
                points: Points::Computed(means[side.index()].clone()),
                faint: None,
            });
            legend.push((Look::Line(side), format!("{} (mean)", side.name())));
        }
        notes.push(format!(
            "Mean over the games that reach each ply, drawn while at least {} of the {} games do.",
            figure.games.div_ceil(10).max(1),
            figure.games
        ));
    }
    Chart {
        x: Axis::new(0.4, x_max + 0.6, true, "ply"),
        y: Axis::counts(max, integer, y_title),
        series,
        legend,
        notes,
    }
}

/// `12 games`, and how many of them stop at an error, for a panel's title.
fn panel_games(games: usize, stopped: usize) -> String {
    let mut said = games_said(games, 0);
    if stopped > 0 {
        let stop = if stopped == 1 { "stops" } else { "stop" };
        said.push_str(&format!(", {stopped} {stop} at an error"));
    }
    said
}

/// `12 games`, and how many of them stop at an error and how they are drawn.
fn games_said(games: usize, stopped: usize) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut said = format!("{games} game{}", plural(games));
    if stopped > 0 {
        let (stop, them) = if stopped == 1 {
            ("stops", "it")
        } else {
            ("stop", "them")
        };
        said.push_str(&format!(
            ", {stopped} {stop} at an error (drawn up to {them})"
        ));
    }
    said
}

/// Text for the figure: control characters (from a tag value, say) and the two
/// noncharacters U+FFFE and U+FFFF are not allowed in XML, so a tab is a space and the
/// others are shown as U+FFFD.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' => ' ',
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => '\u{fffd}',
            c => c,
        })
        .collect()
}

fn default_title(figure: &Figure) -> String {
    let what = match figure.kind {
        PlotKind::Material => "Material",
        PlotKind::Length => "Game lengths",
        PlotKind::Laps => "Laps per ply",
        PlotKind::Captures => "Captures per ply",
    };
    if let Some(g) = figure.only() {
        let stops = if g.stopped {
            "; it stops at an error (drawn up to it)"
        } else {
            ""
        };
        return format!("{what}: {} ({}){stops}", g.name, g.kind);
    }
    if figure.kinds.len() > 1 {
        return format!(
            "{what}: {} games in {} sets",
            figure.games,
            figure.kinds.len()
        );
    }
    let stopped = figure.stopped();
    let stops = match stopped {
        0 => String::new(),
        _ => format!(
            ", {stopped} {} at an error (drawn up to {})",
            if stopped == 1 { "stops" } else { "stop" },
            if stopped == 1 { "it" } else { "them" }
        ),
    };
    format!(
        "{what}: {} games of {}{stops}",
        figure.games,
        figure.kinds.join(", ")
    )
}

/// A tick label: integers without a decimal point.
fn tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A bin width of 1, 2 or 5 times a power of ten giving at most `bins` bins up to `max`.
fn bin_width(max: u64, bins: u64) -> u64 {
    let mut w = 1;
    loop {
        for m in [1, 2, 5] {
            if max / (w * m) < bins {
                return w * m;
            }
        }
        w *= 10;
    }
}

/// How often each value occurs, per group: the input of [`histogram`].
type Counts = BTreeMap<u64, u64>;

/// The bins of values per group: (bin width, bars[group][bin]) with counts, in about
/// `bins` bins of a round width. Values above `cap` (when given) are counted in the last
/// bin.
fn histogram(groups: &[Counts], bins: u64, cap: Option<u64>) -> (u64, Vec<Vec<f64>>) {
    let max = groups
        .iter()
        .filter_map(|c| c.last_key_value())
        .map(|(&v, _)| v)
        .max()
        .unwrap_or(0);
    let max = cap.map_or(max, |c| c.min(max));
    let width = bin_width(max, bins);
    let n = (max / width + 1) as usize;
    let bars = groups
        .iter()
        .map(|group| {
            let mut bars = vec![0.0; n];
            for (&v, &count) in group {
                bars[((v / width) as usize).min(n - 1)] += count as f64;
            }
            bars
        })
        .collect();
    (width, bars)
}

/// The median and quartiles of each side's material at each ply, over the games still
/// running at that ply, while at least a tenth of the games (and at least one) are.
pub fn material_quantiles(games: &[GameData]) -> [Vec<(f64, [f64; 3])>; 2] {
    let mut figure = Figure::new(PlotKind::Material, false);
    for g in games {
        figure.add(g.clone());
    }
    figure.material_quantiles()
}

/// The mean stones taken at each ply by each side, over the games in which that side
/// played that ply: `[South, North]`, each a list of (ply, mean), for the plies that at
/// least a tenth of the games reach.
pub fn capture_means(games: &[GameData]) -> [Vec<(f64, f64)>; 2] {
    let mut figure = Figure::new(PlotKind::Captures, false);
    for g in games {
        figure.add(g.clone());
    }
    figure.capture_means()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values by their counts.
    fn counted(values: &[u32]) -> Tally {
        let mut counts = Tally::default();
        for &v in values {
            counts.add(v);
        }
        counts
    }

    /// A game of `plies` plies whose material goes down by one a ply from `start`.
    fn falling(start: u32, plies: usize) -> GameData {
        GameData {
            kind: "Tsoro 4x12".into(),
            stopped: false,
            name: "a game".into(),
            prisons: false,
            plies,
            material: (0..=plies as u32)
                .map(|n| [start - n, start - n / 2])
                .collect(),
            laps: vec![1; plies],
            captures: (0..plies)
                .map(|i| (if i % 2 == 0 { Side::South } else { Side::North }, 1))
                .collect(),
        }
    }

    #[test]
    fn a_figure_holds_counts_not_games() {
        // Memory grows with the distinct values, not with the games: ten thousand
        // games of a few shapes are held as a few counts.
        let mut figure = Figure::new(PlotKind::Material, false);
        for i in 0..10_000 {
            figure.add(falling(40 + (i % 3) as u32, 30 + i % 2));
        }
        assert!(figure.only.is_none() && figure.series.is_empty());
        assert_eq!(figure.material.len(), 32);
        let held: usize = (figure.material.iter().flatten())
            .map(|t| t.counts().count())
            .sum();
        assert!(held <= 32 * 2 * 3, "{held} values held");
        assert_eq!(figure.plies.len(), 2);
        assert_eq!(figure.laps[0].len(), 1);
        // The counts give what the values would: the median of 40, 41, 42 is 41.
        let [south, _] = figure.material_quantiles();
        assert_eq!(south[0], (0.0, [40.0, 41.0, 42.0]));
    }

    #[test]
    fn a_tally_counts_as_a_map_does() {
        let values = [7u32, 7, 3, 7, 12, 3, 0];
        let mut map = BTreeMap::new();
        let mut tally = Tally::default();
        assert_eq!(tally.total(), 0);
        for v in values {
            *map.entry(v).or_insert(0u64) += 1;
            tally.add(v);
            let counted: Vec<(u32, u64)> = tally.counts().collect();
            let mapped: Vec<(u32, u64)> = map.iter().map(|(&v, &n)| (v, n)).collect();
            assert_eq!(counted, mapped);
            assert_eq!(tally.total(), map.values().sum::<u64>());
        }
    }

    #[test]
    fn counted_quantiles_interpolate_as_sorted_values_do() {
        let values = [3u32, 9, 9, 10, 14, 20, 21];
        let counts = counted(&values);
        for q in [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0] {
            let pos = q * (values.len() - 1) as f64;
            let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
            let want =
                values[lo] as f64 + (values[hi] as f64 - values[lo] as f64) * (pos - lo as f64);
            assert_eq!(
                counted_quantile(&counts, values.len() as u64, q),
                want,
                "q {q}"
            );
        }
    }

    #[test]
    fn bins_are_round() {
        assert_eq!(bin_width(10, 25), 1);
        assert_eq!(bin_width(40, 25), 2);
        assert_eq!(bin_width(120, 25), 5);
        assert_eq!(bin_width(300, 25), 20);
    }

    #[test]
    fn quartiles_interpolate() {
        assert_eq!(counted_quantile(&counted(&[1, 2, 3, 4, 5]), 5, 0.5), 3.0);
        assert_eq!(counted_quantile(&counted(&[0, 10]), 2, 0.25), 2.5);
        assert_eq!(tick(&2.0), "2");
        assert_eq!(tick(&2.5), "2.5");
    }
}
