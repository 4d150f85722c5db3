//! `sow plot`: SVG figures read from replay traces.
//!
//! The data of each game ([`GameData`]) is read from its [`Trace`]; this module never
//! plays a move. Figures are drawn with plotters' SVG backend (text as `<text>`
//! elements, no font files) for print: axis labels with units, a title, a legend, and the
//! Okabe-Ito palette, whose blue and vermillion stay apart for colour-blind readers, with
//! a different marker per side (filled circles for South, open triangles for North) so
//! that the figure also reads in greyscale.

use std::collections::BTreeMap;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::corpus::{self, Batches, Filter, Input, Work};
use crate::error::CommandError;
use crate::geometry::Side;
use crate::pmn::Record;
use crate::replay::{PlyTrace, ReplayOptions, Replayer, Trace};
use crate::rules::{Game, Rules};
use crate::stats::{game_name, set_of};

/// Okabe-Ito: blue (South), vermillion (North), then the others for further series.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(204, 121, 167),
    RGBColor(0, 0, 0),
];

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
struct Series {
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

impl Series {
    fn new(kind: Option<PlotKind>, rules: &Rules) -> Series {
        Series {
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
            [p.prisons[0] as u32, p.prisons[1] as u32]
        } else {
            [p.stones_of(Side::South), p.stones_of(Side::North)]
        }
    }

    fn add(&mut self, p: &PlyTrace) {
        self.plies += 1;
        if self.wants(PlotKind::Material) {
            match &p.after {
                Some(after) => self.material.push(self.material_of(after)),
                None => self.no_position = true,
            }
        }
        if self.wants(PlotKind::Laps) {
            self.laps.push(p.effect.lap_count);
        }
        if self.wants(PlotKind::Captures) {
            self.captures.push((p.side, p.effect.stones_taken()));
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
            kind: set_of(rules),
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
        let mut series = Series::new(kind, rules);
        trace.plies.iter().for_each(|p| series.add(p));
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
    pub width: u32,
    pub height: u32,
    /// The title (default: made from the records).
    pub title: Option<String>,
    /// With several games, also draw every game faintly (material plots).
    pub every: bool,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            width: 640,
            height: 400,
            title: None,
            every: false,
        }
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
        let (input, text) = match work {
            Work::Unreadable { input, error } => return Err(format!("{}: {error}", names[input])),
            Work::Game { input, game, .. } => (input, game),
        };
        if let Some(report) = text.read_failure(&names[input]) {
            return Err(report);
        }
        let keep = |record: &Record| filter.accepts(record);
        let mut series: Option<Series> = None;
        let mut each = |rules: &Rules, p: &PlyTrace| {
            series
                .get_or_insert_with(|| Series::new(Some(kind), rules))
                .add(p);
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
            (None, Some(rules)) => Series::new(Some(kind), rules),
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
    /// several (the counts of this figure are then not drawn).
    panels: Vec<Figure>,
    /// Whether this is a panel: one set's figure, which has no panels of its own.
    is_panel: bool,
    /// Whether some game's material is its prisons (Kiothi), and whether some other's is not.
    prisons: [bool; 2],
    /// The first game, while it is the only one.
    only: Option<GameData>,
    /// With `every`: each game's plies and material series.
    series: Vec<(usize, Vec<[u32; 2]>)>,
    /// At each ply (0: the start), how many games had each material value, per side.
    material: Vec<[BTreeMap<u32, u64>; 2]>,
    /// Game lengths counted, per kind.
    lengths: Vec<Counts>,
    /// Laps per ply counted, per kind.
    laps: Vec<Counts>,
    /// Per side and ply (from 1), the stones taken in all and the games in which the
    /// side played that ply.
    captures: [BTreeMap<usize, (u64, u64)>; 2],
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
            captures: [BTreeMap::new(), BTreeMap::new()],
            plies: Counts::new(),
        }
    }

    /// Counts a game in.
    pub fn add(&mut self, game: GameData) {
        self.games += 1;
        let k = match self.kinds.iter().position(|k| *k == game.kind) {
            Some(k) => k,
            None => {
                self.kinds.push(game.kind.clone());
                self.kind_games.push([0, 0]);
                self.lengths.push(Counts::new());
                self.laps.push(Counts::new());
                if matches!(self.kind, PlotKind::Material | PlotKind::Captures) && !self.is_panel {
                    let mut panel = Figure::new(self.kind, self.every);
                    panel.is_panel = true;
                    self.panels.push(panel);
                }
                self.kinds.len() - 1
            }
        };
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
        for (i, &(side, taken)) in game.captures.iter().enumerate() {
            let e = self.captures[side.index()].entry(i + 1).or_insert((0, 0));
            e.0 += taken as u64;
            e.1 += 1;
        }
        if self.material.len() < game.material.len() {
            self.material
                .resize_with(game.material.len(), Default::default);
        }
        for (at, m) in self.material.iter_mut().zip(&game.material) {
            for side in 0..2 {
                *at[side].entry(m[side]).or_insert(0) += 1;
            }
        }
        if self.every {
            self.series.push((game.plies(), game.material.clone()));
        }
        self.only = (self.games == 1).then_some(game);
    }

    /// Each set of games (game, board, rule options) counted: its name, its games, and
    /// those of them that stop at an error.
    pub fn sets(&self) -> Vec<(&str, usize, usize)> {
        (self.kinds.iter().zip(&self.kind_games))
            .map(|(k, [games, stopped])| (k.as_str(), *games, *stopped))
            .collect()
    }

    /// The figure of one set alone (material and captures), as drawn in its panel.
    pub fn panel(&self, set: usize) -> Option<&Figure> {
        self.panels.get(set)
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
        self.only.as_ref().filter(|_| self.games == 1)
    }

    /// The median and quartiles of each side's material at each ply, over the games
    /// still running at that ply, while at least a tenth of the games (and at least
    /// one) are.
    pub fn material_quantiles(&self) -> [Vec<(f64, [f64; 3])>; 2] {
        let needed = self.games.div_ceil(10).max(1) as u64;
        let mut out = [Vec::new(), Vec::new()];
        for (n, at) in self.material.iter().enumerate() {
            let running: u64 = at[0].values().sum();
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
        let needed = self.games.div_ceil(10).max(1) as u64;
        let reaching = |ply: usize| -> u64 { self.plies.range(ply as u64..).map(|(_, n)| n).sum() };
        self.captures.clone().map(|m| {
            m.into_iter()
                .filter(|(ply, _)| reaching(*ply) >= needed)
                .map(|(ply, (sum, n))| (ply as f64, sum as f64 / n as f64))
                .collect()
        })
    }
}

/// Quantile `q` of values given by their counts (`total` in all): linear interpolation
/// between the values of the ranks on either side of `q (total - 1)`.
fn counted_quantile(counts: &BTreeMap<u32, u64>, total: u64, q: f64) -> f64 {
    let at_rank = |rank: u64| -> f64 {
        let mut below = 0;
        for (&v, &n) in counts {
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
    let kind = figure.kind;
    if figure.games == 0 {
        return Err(CommandError::Usage(
            "no game to plot (no input, or every game filtered out, unreadable or not replayed)"
                .into(),
        ));
    }
    if style.width < 200 || style.height < 150 || style.width > 20_000 || style.height > 20_000 {
        return Err(CommandError::Usage(format!(
            "a figure of {}x{} is too small or too large; --width from 200 to 20000, --height from 150 to 20000",
            style.width, style.height
        )));
    }
    let title = printable(&(style.title.clone()).unwrap_or_else(|| default_title(figure)));
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (style.width, style.height)).into_drawing_area();
        let drawn = match kind {
            _ if figure.panels.len() > 1 => panels(&root, figure, style, &title),
            PlotKind::Material => material(&root, figure, style, &title),
            PlotKind::Length => length(&root, figure, style, &title),
            PlotKind::Laps => laps(&root, figure, style, &title),
            PlotKind::Captures => captures(&root, figure, style, &title),
        };
        drawn
            .and_then(|()| root.present().map_err(|e| e.to_string()))
            .map_err(|e| CommandError::Output(format!("cannot draw the figure: {e}")))?;
    }
    Ok(svg)
}

/// A figure of several sets of games: the title, then a panel per set, titled with the
/// set and its games, in a grid as near square as it goes.
fn panels(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    figure: &Figure,
    style: &Style,
    title: &str,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let f = fonts(style);
    let fit = (0.95 * style.width as f64 / (0.45 * title.chars().count().max(1) as f64)) as u32;
    let below =
        (root.titled(title, ("sans-serif", f.title.min(fit).max(8)))).map_err(|e| e.to_string())?;
    let n = figure.panels.len();
    let cols = (n as f64).sqrt().ceil() as usize;
    let rows = n.div_ceil(cols);
    let areas = below.split_evenly((rows, cols));
    for ((area, panel), (set, games, stopped)) in
        areas.iter().zip(&figure.panels).zip(figure.sets())
    {
        let (width, height) = area.dim_in_pixel();
        let panel_style = Style {
            width,
            height,
            title: None,
            every: style.every,
        };
        let panel_title = printable(&format!("{set}: {}", games_said(games, stopped)));
        match figure.kind {
            PlotKind::Material => material(area, panel, &panel_style, &panel_title)?,
            _ => captures(area, panel, &panel_style, &panel_title)?,
        }
    }
    Ok(())
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

/// Font sizes that stay readable when the figure is printed at column width.
struct Fonts {
    title: u32,
    label: u32,
    tick: u32,
}

fn fonts(style: &Style) -> Fonts {
    // A 640-unit figure printed at a column's width (about 8.5 cm) puts 8-9 pt tick
    // labels at about 23 units; plotters draws text at 0.8 of the size asked.
    let base = (style.width.min(style.height * 2) as f64 / 28.0).clamp(12.0, 60.0);
    Fonts {
        title: (base * 1.3).round() as u32,
        label: (base * 1.12).round() as u32,
        tick: base.round() as u32,
    }
}

/// An upper bound for an axis: a little above the largest value.
fn top(max: f64) -> f64 {
    if max <= 0.0 {
        1.0
    } else {
        (max * 1.05).ceil()
    }
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

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

fn chart<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    style: &Style,
    title: &str,
    x: (f64, f64, &str),
    y: (f64, f64, &str),
) -> Result<Chart<'a, 'b>, String> {
    let f = fonts(style);
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    // A long title gets a smaller font rather than run off the figure (a character is
    // about 0.45 of the size asked).
    let fit = (0.95 * style.width as f64 / (0.45 * title.chars().count().max(1) as f64)) as u32;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", f.title.min(fit).max(8)))
        .margin(f.label / 2 + 4)
        .x_label_area_size(f.label * 2 + f.tick)
        .y_label_area_size(f.label * 2 + f.tick * 2)
        .build_cartesian_2d(x.0..x.1, y.0..y.1)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(0)
        .bold_line_style(BLACK.mix(0.12))
        .x_desc(x.2)
        .y_desc(y.2)
        .axis_desc_style(("sans-serif", f.label))
        .label_style(("sans-serif", f.tick))
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .draw()
        .map_err(|e| e.to_string())?;
    Ok(chart)
}

fn legend<'a, 'b: 'a>(chart: &mut Chart<'a, 'b>, style: &Style) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.5))
        .label_font(("sans-serif", fonts(style).tick))
        .draw()
        .map_err(|e| e.to_string())
}

/// South's marker: a filled circle; North's: an open triangle.
fn marker<DB: DrawingBackend>(
    side: Side,
    at: (f64, f64),
    size: u32,
) -> DynElement<'static, DB, (f64, f64)> {
    let color = PALETTE[side.index()];
    match side {
        Side::South => Circle::new(at, size, color.filled()).into_dyn(),
        Side::North => TriangleMarker::new(at, size + 1, color.stroke_width(2)).into_dyn(),
    }
}

/// Draws a line with a marker every few points, and its legend entry.
fn line_with_markers<'a, 'b: 'a>(
    chart: &mut Chart<'a, 'b>,
    side: Side,
    points: &[(f64, f64)],
    label: &str,
) -> Result<(), String> {
    let color = PALETTE[side.index()];
    let every = points.len().div_ceil(24).max(1);
    chart
        .draw_series(LineSeries::new(
            points.iter().copied(),
            color.stroke_width(2),
        ))
        .map_err(|e| e.to_string())?
        .label(label)
        .legend(move |(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new(vec![(0, 0), (24, 0)], color.stroke_width(2))
                + match side {
                    Side::South => Circle::new((12, 0), 4, color.filled()).into_dyn(),
                    Side::North => {
                        TriangleMarker::new((12, 0), 5, color.stroke_width(2)).into_dyn()
                    }
                }
        });
    chart
        .draw_series(points.iter().step_by(every).map(|&p| marker(side, p, 4)))
        .map_err(|e| e.to_string())?;
    Ok(())
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

fn material(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    figure: &Figure,
    style: &Style,
    title: &str,
) -> Result<(), String> {
    let prisons = !figure.prisons[1];
    let y_desc = if prisons {
        "stones in prison"
    } else {
        "stones on own rows"
    };
    let sides = [Side::South, Side::North];
    if let Some(g) = figure.only() {
        let max = g
            .material
            .iter()
            .flat_map(|m| m.iter())
            .max()
            .copied()
            .unwrap_or(0);
        let mut chart = chart(
            root,
            style,
            title,
            (0.0, g.plies().max(1) as f64, "ply"),
            (0.0, top(max as f64), y_desc),
        )?;
        for side in sides {
            let points: Vec<(f64, f64)> = g
                .material
                .iter()
                .enumerate()
                .map(|(n, m)| (n as f64, m[side.index()] as f64))
                .collect();
            line_with_markers(&mut chart, side, &points, side.name())?;
        }
        return legend(&mut chart, style);
    }
    let quantiles = figure.material_quantiles();
    let last = quantiles[0].last().map_or(0.0, |q| q.0);
    let mut max = quantiles
        .iter()
        .flatten()
        .map(|(_, q)| q[2])
        .fold(0.0, f64::max);
    let mut x_max = last;
    if style.every {
        for (plies, material) in &figure.series {
            x_max = x_max.max(*plies as f64);
            for m in material {
                max = max.max(m[0].max(m[1]) as f64);
            }
        }
    }
    let mut chart = chart(
        root,
        style,
        title,
        (0.0, x_max.max(1.0), "ply"),
        (0.0, top(max), y_desc),
    )?;
    if style.every {
        // Fainter the more games there are, so that the medians stay on top.
        let faint = (4.0 / figure.games as f64).clamp(0.04, 0.25);
        for (_, material) in &figure.series {
            for side in sides {
                let color = PALETTE[side.index()].mix(faint);
                chart
                    .draw_series(LineSeries::new(
                        material
                            .iter()
                            .enumerate()
                            .map(|(n, m)| (n as f64, m[side.index()] as f64)),
                        color.stroke_width(1),
                    ))
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    for side in sides {
        let q = &quantiles[side.index()];
        let color = PALETTE[side.index()];
        let band: Vec<(f64, f64)> = q
            .iter()
            .map(|(x, v)| (*x, v[2]))
            .chain(q.iter().rev().map(|(x, v)| (*x, v[0])))
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(band, color.mix(0.2).filled())))
            .map_err(|e| e.to_string())?
            .label(format!("{} 25-75%", side.name()))
            .legend(move |(x, y)| {
                Rectangle::new([(x, y - 5), (x + 24, y + 5)], color.mix(0.2).filled())
            });
    }
    for side in sides {
        let points: Vec<(f64, f64)> = quantiles[side.index()]
            .iter()
            .map(|(x, v)| (*x, v[1]))
            .collect();
        line_with_markers(
            &mut chart,
            side,
            &points,
            &format!("{} median", side.name()),
        )?;
    }
    legend(&mut chart, style)
}

/// Draws one bar series per group, the groups side by side in each bin; `bars[k][b]` is
/// the height of group k in bin b. Bins of width 1 are centred on their value.
fn grouped_bars<'a, 'b: 'a>(
    chart: &mut Chart<'a, 'b>,
    groups: &[&str],
    bars: &[Vec<f64>],
    width: f64,
) -> Result<(), String> {
    let k = groups.len().max(1) as f64;
    let offset = if width == 1.0 { -0.5 } else { 0.0 };
    for (j, (name, heights)) in groups.iter().zip(bars).enumerate() {
        let color = PALETTE[j % PALETTE.len()];
        chart
            .draw_series(
                heights
                    .iter()
                    .enumerate()
                    .filter(|(_, &h)| h > 0.0)
                    .map(|(b, &h)| {
                        let x0 = offset + b as f64 * width + j as f64 * width / k;
                        let mut r =
                            Rectangle::new([(x0, 0.0), (x0 + width / k, h)], color.filled());
                        r.set_margin(0, 0, 1, 1);
                        r
                    }),
            )
            .map_err(|e| e.to_string())?
            .label(*name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
    }
    Ok(())
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

/// Where a histogram's x axis starts: bins of width 1 are centred on their value.
fn x_start(width: u64) -> f64 {
    if width == 1 {
        -0.5
    } else {
        0.0
    }
}

fn length(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    figure: &Figure,
    style: &Style,
    title: &str,
) -> Result<(), String> {
    let labels = figure.series_labels();
    let groups: Vec<&str> = labels.iter().map(String::as_str).collect();
    let (width, bars) = histogram(&figure.lengths, 25, None);
    let max = bars.iter().flatten().fold(0.0, |a: f64, &b| a.max(b));
    let x_desc = if width == 1 {
        "game length (plies)".to_string()
    } else {
        format!("game length (plies, bins of {width})")
    };
    let mut chart = chart(
        root,
        style,
        title,
        (
            x_start(width),
            (bars[0].len() as u64 * width) as f64 + x_start(width),
            &x_desc,
        ),
        (0.0, top(max), "games"),
    )?;
    grouped_bars(&mut chart, &groups, &bars, width as f64)?;
    legend(&mut chart, style)
}

fn laps(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    figure: &Figure,
    style: &Style,
    title: &str,
) -> Result<(), String> {
    let labels = figure.series_labels();
    let groups: Vec<&str> = labels.iter().map(String::as_str).collect();
    // Counted, not listed: a corpus has millions of plies but few distinct lap counts.
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
    let mut x_desc = if width == 1 {
        "laps per ply".to_string()
    } else {
        format!("laps per ply (bins of {width})")
    };
    if capped {
        x_desc.push_str(&format!("; last bar: {last} or more"));
    }
    let mut chart = chart(
        root,
        style,
        title,
        (
            x_start(width),
            (bars[0].len() as u64 * width) as f64 + x_start(width),
            &x_desc,
        ),
        (0.0, top(max).min(100.0), "share of plies (%)"),
    )?;
    grouped_bars(&mut chart, &groups, &bars, width as f64)?;
    legend(&mut chart, style)
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

fn captures(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    figure: &Figure,
    style: &Style,
    title: &str,
) -> Result<(), String> {
    let sides = [Side::South, Side::North];
    if let Some(g) = figure.only() {
        let max = g.captures.iter().map(|c| c.1).max().unwrap_or(0);
        let mut chart = chart(
            root,
            style,
            title,
            (0.0, g.plies().max(1) as f64 + 1.0, "ply"),
            (0.0, top(max as f64), "stones captured (bonus included)"),
        )?;
        for side in sides {
            let color = PALETTE[side.index()];
            let bar_style = match side {
                Side::South => color.filled(),
                Side::North => color.stroke_width(2),
            };
            chart
                .draw_series(
                    g.captures
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| c.0 == side && c.1 > 0)
                        .map(|(i, c)| {
                            let x = (i + 1) as f64;
                            Rectangle::new([(x - 0.4, 0.0), (x + 0.4, c.1 as f64)], bar_style)
                        }),
                )
                .map_err(|e| e.to_string())?
                .label(side.name())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], bar_style));
        }
        return legend(&mut chart, style);
    }
    let means = figure.capture_means();
    let max = means.iter().flatten().map(|p| p.1).fold(0.0, f64::max);
    let x_max = means.iter().flatten().map(|p| p.0).fold(1.0, f64::max);
    let mut chart = chart(
        root,
        style,
        title,
        (0.0, x_max + 1.0, "ply"),
        (0.0, top(max), "stones captured (mean)"),
    )?;
    for side in sides {
        line_with_markers(
            &mut chart,
            side,
            &means[side.index()],
            &format!("{} (mean)", side.name()),
        )?;
    }
    legend(&mut chart, style)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values by their counts.
    fn counted(values: &[u32]) -> BTreeMap<u32, u64> {
        let mut counts = BTreeMap::new();
        for &v in values {
            *counts.entry(v).or_insert(0) += 1;
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
        let held: usize = (figure.material.iter().flatten()).map(BTreeMap::len).sum();
        assert!(held <= 32 * 2 * 3, "{held} values held");
        assert_eq!(figure.plies.len(), 2);
        assert_eq!(figure.laps[0].len(), 1);
        // The counts give what the values would: the median of 40, 41, 42 is 41.
        let [south, _] = figure.material_quantiles();
        assert_eq!(south[0], (0.0, [40.0, 41.0, 42.0]));
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
