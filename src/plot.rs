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
use rayon::prelude::*;

use crate::cli::{PlotArgs, PlotKind};
use crate::corpus::{Filter, Input};
use crate::error::CommandError;
use crate::geometry::Side;
use crate::pmn::Record;
use crate::replay::{ReplayOptions, Trace};
use crate::rules::Game;
use crate::stats::{game_name, map_games};

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
    /// Game and board, e.g. `Tsoro 4x12`: the groups of the length and laps plots.
    pub kind: String,
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
        let start = trace.start.as_ref()?;
        let wants = |k: PlotKind| kind.is_none_or(|kind| kind == k);
        let prisons = rules.game() == Game::Kiothi;
        let material_of = |p: &crate::position::Position| {
            if prisons {
                [p.prisons[0] as u32, p.prisons[1] as u32]
            } else {
                [p.stones_of(Side::South), p.stones_of(Side::North)]
            }
        };
        let mut material = Vec::new();
        if wants(PlotKind::Material) {
            material.reserve(trace.plies.len() + 1);
            material.push(material_of(start));
            for p in &trace.plies {
                material.push(material_of(p.after.as_ref()?));
            }
        }
        let mut laps = Vec::new();
        if wants(PlotKind::Laps) {
            laps = trace.plies.iter().map(|p| p.effect.lap_count).collect();
        }
        let mut captures = Vec::new();
        if wants(PlotKind::Captures) {
            captures = (trace.plies.iter())
                .map(|p| (p.side, p.effect.stones_taken()))
                .collect();
        }
        Some(GameData {
            kind: format!("{} {}", rules.game(), rules.board()),
            name: game_name(record),
            prisons,
            plies: trace.plies.len(),
            material,
            laps,
            captures,
        })
    }

    /// Plies replayed.
    pub fn plies(&self) -> usize {
        self.plies
    }
}

/// Reads the data of every game of the inputs that passes the filter, in input order,
/// for one kind of figure (every kind with `None`: see [`GameData::from_trace_for`]).
/// An input that cannot be read is reported on standard error, and the others are
/// still read (to report every one); then it fails: no figure leaves an input out.
pub fn collect(
    inputs: &[Input],
    filter: &Filter,
    options: &ReplayOptions,
    kind: Option<PlotKind>,
) -> Result<Vec<GameData>, CommandError> {
    let mut options = options.clone();
    options.keep_positions = kind.is_none_or(|k| k == PlotKind::Material);
    let mut games = Vec::new();
    // Inputs in parallel, a few at a time, kept in input order.
    let width = rayon::current_num_threads().max(1);
    let mut unreadable = 0;
    for group in inputs.chunks(width) {
        let read: Vec<_> = group
            .par_iter()
            .map(|input| {
                map_games(input, filter, &options, |_, g, trace| {
                    GameData::from_trace_for(kind, &g.record, trace)
                })
            })
            .collect();
        for (input, data) in group.iter().zip(read) {
            match data {
                Ok(data) => games.extend(data.into_iter().flatten()),
                Err(e) => {
                    eprintln!("sow: {}: {e}", input.name());
                    unreadable += 1;
                }
            }
        }
    }
    match unreadable {
        0 => Ok(games),
        n => Err(CommandError::Unreadable(n)),
    }
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

/// `sow plot`: the SVG figure of the inputs.
pub fn run(
    inputs: &[Input],
    filter: &Filter,
    replay: &ReplayOptions,
    args: &PlotArgs,
) -> Result<String, CommandError> {
    let games = collect(inputs, filter, replay, Some(args.kind))?;
    let style = Style {
        width: args.width,
        height: args.height,
        title: args.title.clone(),
        every: args.every,
    };
    render(args.kind, &games, &style)
}

/// Draws a figure of the games.
pub fn render(kind: PlotKind, games: &[GameData], style: &Style) -> Result<String, CommandError> {
    if games.is_empty() {
        return Err(CommandError::Usage(
            "no game to plot (no input, or every game filtered out or unreadable)".into(),
        ));
    }
    if kind == PlotKind::Material
        && games.iter().any(|g| g.prisons)
        && games.iter().any(|g| !g.prisons)
    {
        return Err(CommandError::Usage(
            "Kiothi's material is stones in prison, the other games' stones on the board: one figure cannot show both; choose with --game".into(),
        ));
    }
    if style.width < 200 || style.height < 150 || style.width > 20_000 || style.height > 20_000 {
        return Err(CommandError::Usage(format!(
            "a figure of {}x{} is too small or too large; --width from 200 to 20000, --height from 150 to 20000",
            style.width, style.height
        )));
    }
    let title = printable(&(style.title.clone()).unwrap_or_else(|| default_title(kind, games)));
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (style.width, style.height)).into_drawing_area();
        let drawn = match kind {
            PlotKind::Material => material(&root, games, style, &title),
            PlotKind::Length => length(&root, games, style, &title),
            PlotKind::Laps => laps(&root, games, style, &title),
            PlotKind::Captures => captures(&root, games, style, &title),
        };
        drawn
            .and_then(|()| root.present().map_err(|e| e.to_string()))
            .map_err(|e| CommandError::Output(format!("cannot draw the figure: {e}")))?;
    }
    Ok(svg)
}

/// Text for the figure: control characters (from a tag value, say) are not allowed in
/// XML, so a tab is a space and the others are shown as U+FFFD.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' => ' ',
            c if c.is_control() => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// The kinds of game in a corpus, in order of first appearance.
fn kinds(games: &[GameData]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for g in games {
        if !out.contains(&g.kind.as_str()) {
            out.push(&g.kind);
        }
    }
    out
}

fn default_title(kind: PlotKind, games: &[GameData]) -> String {
    let what = match kind {
        PlotKind::Material => "Material",
        PlotKind::Length => "Game lengths",
        PlotKind::Laps => "Laps per ply",
        PlotKind::Captures => "Captures per ply",
    };
    if let [g] = games {
        return format!("{what}: {} ({})", g.name, g.kind);
    }
    format!(
        "{what}: {} games of {}",
        games.len(),
        kinds(games).join(", ")
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

/// Quantile `q` of sorted values (linear interpolation).
fn quantile(sorted: &[u32], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] as f64 + (sorted[hi] as f64 - sorted[lo] as f64) * (pos - lo as f64)
}

/// The median and quartiles of each side's material at each ply, over the games still
/// running at that ply, while at least a tenth of the games (and at least one) are.
pub fn material_quantiles(games: &[GameData]) -> [Vec<(f64, [f64; 3])>; 2] {
    let needed = games.len().div_ceil(10).max(1);
    let longest = games.iter().map(|g| g.material.len()).max().unwrap_or(0);
    let mut out = [Vec::new(), Vec::new()];
    for n in 0..longest {
        let running: Vec<&[u32; 2]> = games.iter().filter_map(|g| g.material.get(n)).collect();
        if running.len() < needed {
            break;
        }
        for (side, series) in out.iter_mut().enumerate() {
            let mut v: Vec<u32> = running.iter().map(|m| m[side]).collect();
            v.sort_unstable();
            series.push((
                n as f64,
                [quantile(&v, 0.25), quantile(&v, 0.5), quantile(&v, 0.75)],
            ));
        }
    }
    out
}

fn material(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    games: &[GameData],
    style: &Style,
    title: &str,
) -> Result<(), String> {
    let prisons = games.iter().all(|g| g.prisons);
    let y_desc = if prisons {
        "stones in prison"
    } else {
        "stones on own rows"
    };
    let sides = [Side::South, Side::North];
    if let [g] = games {
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
    let quantiles = material_quantiles(games);
    let last = quantiles[0].last().map_or(0.0, |q| q.0);
    let mut max = quantiles
        .iter()
        .flatten()
        .map(|(_, q)| q[2])
        .fold(0.0, f64::max);
    let mut x_max = last;
    if style.every {
        for g in games {
            x_max = x_max.max(g.plies() as f64);
            for m in &g.material {
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
        let faint = (4.0 / games.len() as f64).clamp(0.04, 0.25);
        for g in games {
            for side in sides {
                let color = PALETTE[side.index()].mix(faint);
                chart
                    .draw_series(LineSeries::new(
                        g.material
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

/// The values of each group counted.
fn counts(groups: impl Iterator<Item = impl Iterator<Item = u64>>) -> Vec<Counts> {
    groups
        .map(|values| {
            let mut counts = Counts::new();
            for v in values {
                *counts.entry(v).or_insert(0) += 1;
            }
            counts
        })
        .collect()
}

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
    games: &[GameData],
    style: &Style,
    title: &str,
) -> Result<(), String> {
    let groups = kinds(games);
    let lengths = counts(groups.iter().map(|k| {
        (games.iter())
            .filter(move |g| g.kind == *k)
            .map(|g| g.plies() as u64)
    }));
    let (width, bars) = histogram(&lengths, 25, None);
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
    games: &[GameData],
    style: &Style,
    title: &str,
) -> Result<(), String> {
    let groups = kinds(games);
    // Counted, not listed: a corpus has millions of plies but few distinct lap counts.
    let values = counts(groups.iter().map(|k| {
        (games.iter())
            .filter(move |g| g.kind == *k)
            .flat_map(|g| g.laps.iter().copied())
    }));
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
    let (width, mut bars) = histogram(&values, 30, Some(cap));
    for (bars, group) in bars.iter_mut().zip(&values) {
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
    let needed = games.len().div_ceil(10).max(1);
    let mut sums: [BTreeMap<usize, (u64, u64)>; 2] = [BTreeMap::new(), BTreeMap::new()];
    for g in games {
        for (i, &(side, taken)) in g.captures.iter().enumerate() {
            let e = sums[side.index()].entry(i + 1).or_insert((0, 0));
            e.0 += taken as u64;
            e.1 += 1;
        }
    }
    sums.map(|m| {
        m.into_iter()
            .filter(|(ply, _)| games.iter().filter(|g| g.plies() >= *ply).count() >= needed)
            .map(|(ply, (sum, n))| (ply as f64, sum as f64 / n as f64))
            .collect()
    })
}

fn captures(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    games: &[GameData],
    style: &Style,
    title: &str,
) -> Result<(), String> {
    let sides = [Side::South, Side::North];
    if let [g] = games {
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
    let means = capture_means(games);
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

    #[test]
    fn bins_are_round() {
        assert_eq!(bin_width(10, 25), 1);
        assert_eq!(bin_width(40, 25), 2);
        assert_eq!(bin_width(120, 25), 5);
        assert_eq!(bin_width(300, 25), 20);
    }

    #[test]
    fn quartiles_interpolate() {
        assert_eq!(quantile(&[1, 2, 3, 4, 5], 0.5), 3.0);
        assert_eq!(quantile(&[0, 10], 0.25), 2.5);
        assert_eq!(tick(&2.0), "2");
        assert_eq!(tick(&2.5), "2.5");
    }
}
