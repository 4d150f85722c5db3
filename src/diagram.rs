//! Board diagrams of a position: a drawn text board (`sow show --format text`) and an
//! SVG figure for a page (`sow show --format svg`).
//!
//! Diagrams only draw; they never replay (the trace gives them the position and, for the
//! final position of a finished game, its outcome).

use std::fmt::Write;

use crate::figure::{self, num, PrintSize};
use crate::games;
use crate::geometry::{Pit, Side};
use crate::moves::{Effect, Illegal, Mode, Move, Sowing};
use crate::play::{EndReason, Outcome};
use crate::position::Position;
use crate::rules::{Game, Rules};

/// How a finished game ended, in words, a sentence a line (RULES.md, each game's "End"):
/// why (no legal move, and why not; repetition), Kiothi's award and final score, and the
/// result. `pos` is the final position, as the trace gives it (before Kiothi's award).
pub fn game_over_lines(rules: &Rules, pos: &Position, outcome: &Outcome) -> Vec<String> {
    let side = pos.side();
    let result = match outcome.winner() {
        Some(winner) => format!("{winner} wins: {}.", outcome.result_token()),
        None => format!("A draw: {}.", outcome.result_token()),
    };
    let reason = match outcome {
        Outcome::Win { reason, .. } | Outcome::Draw { reason } => *reason,
    };
    if reason == EndReason::Repetition {
        let times = rules.repeat().unwrap_or(2);
        let nth = match times % 100 {
            11..=13 => "th",
            _ => ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][times as usize % 10],
        };
        return vec![
            format!(
                "Game over: a draw by repetition; this position, {side} to move, occurs for the {times}{nth} time."
            ),
            result,
        ];
    }
    let mut lines = vec![format!(
        "Game over: {side}, to move, {}.",
        why_no_move(rules, pos)
    )];
    if let EndReason::Score { score } = reason {
        let left = pos.stones_on_board();
        let taker = side.opponent();
        lines[0].pop();
        let stones = if left == 1 { "stone" } else { "stones" };
        let _ = write!(
            lines[0],
            "; the {left} {stones} left on the board go to {taker}'s prison."
        );
        let mut score_line = format!("Final score: South {}, North {}. ", score[0], score[1]);
        score_line.push_str(&result);
        if outcome.one_warrior_victory() {
            score_line.push_str(" A one-warrior victory (by two stones).");
        }
        lines.push(score_line);
    } else {
        lines.push(result);
    }
    lines
}

const ENDLESS_OR_BROKEN: &str =
    "has no legal move: every move it could make is an endless sowing or breaks a rule";

/// Why the side to move has no legal move: no stones, only endless sowings, or every
/// move breaks a rule. Each pit the side could start from is tried (Kiothi: every lift).
fn why_no_move(rules: &Rules, pos: &Position) -> &'static str {
    let side = pos.side();
    if pos.stones_of(side) == 0 {
        return "has no stones and no legal move";
    }
    let board = rules.board();
    let (mut endless, mut broken) = (false, false);
    let mut effect = Effect::default();
    for row in board.rows_of(side) {
        for col in 1..=board.cols() {
            let from = Pit::new(row, col);
            let stones = pos.stones(from);
            let lifts = if rules.game() == Game::Kiothi {
                stones
            } else {
                1
            };
            for lift in 1..=lifts.min(stones) {
                let mv = Move::Sow(Sowing {
                    lift: (rules.game() == Game::Kiothi).then_some(lift),
                    ..Sowing::from(from)
                });
                let mut after = pos.clone();
                match games::apply(rules, &mut after, &mv, Mode::Legal, &mut effect) {
                    Err(Illegal::EndlessSowing { .. }) => endless = true,
                    // Not a move while a pit holds two or more, which were tried.
                    Err(Illegal::SingletonWhileMultiple { .. }) => {}
                    _ => broken = true,
                }
                if endless && broken {
                    // The words cannot change any more.
                    return ENDLESS_OR_BROKEN;
                }
            }
        }
    }
    match (endless, broken) {
        (true, false) => "has no legal move: every move it could make is an endless sowing",
        (true, true) => ENDLESS_OR_BROKEN,
        _ => "has no legal move",
    }
}

/// A text drawing of a position as South sees it: column numbers on top, row letters on
/// the left, heads in parentheses, nki pits with `*`, a rule between the two sides, the
/// side to move (or, given the outcome of a finished game, how it ended:
/// [`game_over_lines`]), Kiothi's prisons, and the PMN `Position` string last.
pub fn text_board(
    rules: &Rules,
    pos: &Position,
    caption: &str,
    outcome: Option<&Outcome>,
) -> String {
    let board = rules.board();
    let width = pos
        .board_pits()
        .iter()
        .map(|s| s.to_string().len())
        .max()
        .unwrap_or(1)
        .max(board.cols().to_string().len())
        + 3;
    let mut out = String::new();
    if !caption.is_empty() {
        let _ = writeln!(out, "{caption}");
    }
    let _ = write!(out, "   ");
    for col in 1..=board.cols() {
        let _ = write!(out, "{col:>width$}");
    }
    out.push('\n');
    for row in (0..board.rows()).rev() {
        if row + 1 == board.rows() / 2 {
            let _ = writeln!(out, "   {}", "-".repeat(width * board.cols() as usize));
        }
        let _ = write!(out, " {} ", Pit::new(row, 1).row_letter());
        for col in 1..=board.cols() {
            let pit = Pit::new(row, col);
            let stones = pos.stones(pit);
            let cell = if rules.is_head(pit) {
                format!("({stones})")
            } else if pos.is_nki(pit) {
                format!("{stones}*")
            } else {
                format!("{stones} ")
            };
            let _ = write!(out, "{cell:>width$}");
        }
        out.push('\n');
    }
    if let Some(outcome) = outcome {
        if board.rows() == 2 {
            let [south, north] = pos.prisons();
            let _ = writeln!(out, "prisons: South {south}, North {north}");
        }
        for line in game_over_lines(rules, pos, outcome) {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, "{pos}");
        return out;
    }
    let _ = write!(out, "{} to move", pos.side());
    if board.rows() == 2 {
        let _ = write!(
            out,
            "; prisons: South {}, North {}",
            pos.prisons()[0],
            pos.prisons()[1]
        );
        if pos.opening() {
            out.push_str("; opening redistribution to come");
        }
    }
    out.push('\n');
    let _ = writeln!(out, "{pos}");
    out
}

/// Escapes text for SVG (XML) and HTML content and attribute values.
pub(crate) fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// Laps drawn at most: a sowing of thousands of laps would hide the board.
const SVG_MAX_LAPS: usize = 48;

/// The colours of the marks (Okabe-Ito, as the plots), each mark also its own shape.
const ORIGIN: &str = "#009E73";
const END: &str = "#0072B2";
const CAPTURED: &str = "#D55E00";
const BONUS: &str = "#CC79A7";
const NKI: &str = "#56B4E9";
const LAP: &str = "#1f4e79";

/// Where things go on an SVG board diagram, in points.
struct SvgLayout {
    cell: f64,
    left: f64,
    top: f64,
    /// Space between the two seats' rows.
    gap: f64,
    rows: u8,
}

impl SvgLayout {
    fn center(&self, pit: Pit) -> (f64, f64) {
        let x = self.left + (pit.col as f64 - 0.5) * self.cell;
        let from_top = (self.rows - 1 - pit.row) as f64;
        let gap = if pit.row < self.rows / 2 {
            self.gap
        } else {
            0.0
        };
        let y = self.top + (from_top + 0.5) * self.cell + gap;
        (x, y)
    }
}

/// A mark of the key, drawn at (x, y) with its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Origin,
    End,
    Captured,
    Bonus,
    Head,
    Nki,
    Lap,
}

impl Mark {
    fn said(self) -> &'static str {
        match self {
            Mark::Origin => "sown from",
            Mark::End => "last lap's end",
            Mark::Captured => "captured",
            Mark::Bonus => "bonus",
            Mark::Head => "head",
            Mark::Nki => "nki",
            Mark::Lap => "lap, in order",
        }
    }

    /// The mark's shape centred at (x, y), `s` across.
    fn draw(self, out: &mut String, x: f64, y: f64, s: f64, line: f64) {
        let h = s / 2.0;
        let _ = match self {
            Mark::Origin => writeln!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{ORIGIN}" stroke-width="{}"/>"#,
                num(x - h),
                num(y - h),
                num(s),
                num(s),
                num(line)
            ),
            Mark::End => writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{END}" stroke-width="{}"/>"#,
                num(x),
                num(y),
                num(h),
                num(line * 1.6)
            ),
            Mark::Captured => writeln!(
                out,
                r#"<path d="M{},{} L{},{} M{},{} L{},{}" stroke="{CAPTURED}" stroke-width="{}" stroke-linecap="round"/>"#,
                num(x - h),
                num(y - h),
                num(x + h),
                num(y + h),
                num(x + h),
                num(y - h),
                num(x - h),
                num(y + h),
                num(line * 1.3)
            ),
            Mark::Bonus => writeln!(
                out,
                r#"<path d="M{},{} L{},{} L{},{} L{},{} Z" fill="{BONUS}"/>"#,
                num(x),
                num(y - h),
                num(x + h),
                num(y),
                num(x),
                num(y + h),
                num(x - h),
                num(y)
            ),
            Mark::Head => writeln!(
                out,
                r##"<circle cx="{}" cy="{}" r="{}" fill="#f2cf63" stroke="#5b4320" stroke-width="{}"/><circle cx="{}" cy="{}" r="{}" fill="none" stroke="#5b4320" stroke-width="{}"/>"##,
                num(x),
                num(y),
                num(h),
                num(line * 0.6),
                num(x),
                num(y),
                num(h * 0.7),
                num(line * 0.6)
            ),
            Mark::Nki => {
                // A six-pointed asterisk of three strokes.
                let mut d = String::new();
                for k in 0..3 {
                    let a = std::f64::consts::PI * (0.5 + k as f64 / 3.0);
                    let (dx, dy) = (a.cos() * h, a.sin() * h);
                    let _ = write!(
                        d,
                        "M{},{} L{},{} ",
                        num(x - dx),
                        num(y - dy),
                        num(x + dx),
                        num(y + dy)
                    );
                }
                writeln!(
                    out,
                    r#"<path d="{}" stroke="{NKI}" stroke-width="{}" stroke-linecap="round"/>"#,
                    d.trim_end(),
                    num(line * 1.3)
                )
            }
            Mark::Lap => writeln!(
                out,
                r#"<path d="M{},{} L{},{}" stroke="{LAP}" stroke-width="{}" marker-end="url(#arrow)"/>"#,
                num(x - s),
                num(y),
                num(x + s * 0.6),
                num(y),
                num(line)
            ),
        };
    }
}

/// A box a text takes: (left, top, right, bottom).
type Area = [f64; 4];

fn overlaps(a: &Area, b: &Area) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// The SVG diagram at its own size (pits of 26 pt): see [`svg_board_at`].
pub fn svg_board(
    rules: &Rules,
    pos: &Position,
    last: Option<&crate::replay::PlyTrace>,
    outcome: Option<&Outcome>,
) -> String {
    svg_board_at(rules, pos, last, outcome, None)
}

/// An SVG diagram of a position as South sees it, for a page, `width_mm` wide at print
/// (else sized to the board: pits of 26 pt), laid out in points with the type at
/// least 7 pt: every pit with its stone count, columns above and below, row letters
/// on both sides, Tsoro's heads (double ring, gold) and Kiothi's nki pits (an
/// asterisk), Kiothi's prisons, and the last ply when given: where it was sown from (a
/// square), its laps as arrows numbered in order, where it ended (a thick ring), the
/// pits it captured (a cross) and its bonus pits (a diamond), with the stones taken
/// under the count where the pit has room. A key names the marks drawn. Then the side to
/// move, or, given the outcome of a finished game, how it ended as `sow show` says it
/// ([`game_over_lines`]), and the last ply in words. The PMN `Position` string is the
/// figure's `<desc>`.
pub fn svg_board_at(
    rules: &Rules,
    pos: &Position,
    last: Option<&crate::replay::PlyTrace>,
    outcome: Option<&Outcome>,
    width_mm: Option<f64>,
) -> String {
    let board = rules.board();
    let cols = board.cols() as f64;
    let rows = board.rows();
    let kiothi = rows == 2;
    let t = width_mm.map_or(8.0, |w| {
        PrintSize {
            width_mm: w,
            height_mm: w,
        }
        .type_pt()
    });
    let line = t * 0.15;
    let (asc, desc) = figure::text_extent(t);
    let margin = t;
    let letters = figure::text_width("d", t, false) + t * 0.6;
    let prison_width = if kiothi {
        figure::text_width("North prison", t, false) + figure::text_width("000", t, true) + t * 2.2
    } else {
        0.0
    };
    let aside = margin * 2.0 + letters * 2.0 + prison_width;
    let cell = match width_mm {
        Some(w) => (w * figure::PT_PER_MM - aside) / cols,
        None => 26.0,
    };
    let width = aside + cell * cols;
    let title_pt = t * 1.2;
    let caption = format!(
        "{} {}{}",
        rules.game().name(),
        board,
        match rules.options_tag().as_str() {
            "" => String::new(),
            o => format!(" ({o})"),
        }
    );
    let caption_lines = figure::wrap(&caption, title_pt, true, width - 2.0 * margin);
    let (t_asc, t_desc) = figure::text_extent(title_pt);
    let caption_height = caption_lines.len() as f64 * (t_asc + t_desc);
    let layout = SvgLayout {
        cell,
        left: margin + letters,
        top: margin + caption_height + t * 0.5 + asc + desc + t * 0.3,
        gap: cell * 0.25,
        rows,
    };
    let board_width = cols * cell;
    let board_height = rows as f64 * cell + layout.gap;
    let radius = cell * 0.42;
    // Two lines in a pit (count and stones taken) where it has room; the count alone
    // otherwise, at no less than the smallest type.
    let roomy = cell >= t * 3.4;
    let count_size = (cell * 0.36).clamp(t, t * 1.5);

    let mut body = String::new();
    let mut texts: Vec<Area> = Vec::new();
    let text = |out: &mut String,
                texts: &mut Vec<Area>,
                x: f64,
                y: f64,
                pt: f64,
                middle: bool,
                attrs: &str,
                said: &str| {
        let w = figure::text_width(said, pt, attrs.contains("bold"));
        let (a, d) = figure::text_extent(pt);
        let left = if middle { x - w / 2.0 } else { x };
        texts.push([left, y - a, left + w, y + d]);
        let anchor = if middle {
            r#" text-anchor="middle""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"<text{attrs} x="{}" y="{}" font-size="{}"{anchor}>{}</text>"#,
            num(x),
            num(y),
            num(pt),
            xml_escape(said)
        );
    };
    for (i, l) in caption_lines.iter().enumerate() {
        let y = margin + t_asc + i as f64 * (t_asc + t_desc);
        text(
            &mut body,
            &mut texts,
            margin,
            y,
            title_pt,
            false,
            r#" class="caption" font-weight="bold""#,
            l,
        );
    }
    // The board and the line between the two seats.
    let _ = writeln!(
        body,
        r##"<rect class="board" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="#d9b77e" stroke="#7a5a2b" stroke-width="{}"/>"##,
        num(layout.left),
        num(layout.top),
        num(board_width),
        num(board_height),
        num(cell * 0.2),
        num(line)
    );
    let divider = layout.top + (rows / 2) as f64 * cell + layout.gap / 2.0;
    let _ = writeln!(
        body,
        r##"<line class="divider" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#7a5a2b" stroke-width="{}"/>"##,
        num(layout.left),
        num(divider),
        num(layout.left + board_width),
        num(divider),
        num(line)
    );
    // Coordinates: columns above and below (every other one where they would touch),
    // row letters left and right.
    let widest = figure::text_width(&board.cols().to_string(), t, false) + t * 0.3;
    let every = (widest / cell).ceil().max(1.0) as u8;
    for col in 1..=board.cols() {
        if (col - 1) % every != 0 && col != board.cols() {
            continue;
        }
        if col != board.cols() && every > 1 && board.cols() - col < every {
            continue;
        }
        let (x, _) = layout.center(Pit::new(0, col));
        for y in [
            layout.top - t * 0.3 - desc,
            layout.top + board_height + t * 0.3 + asc,
        ] {
            text(
                &mut body,
                &mut texts,
                x,
                y,
                t,
                true,
                r#" class="coord""#,
                &col.to_string(),
            );
        }
    }
    for row in 0..rows {
        let (_, y) = layout.center(Pit::new(row, 1));
        let letter = Pit::new(row, 1).row_letter().to_string();
        for x in [
            layout.left - letters / 2.0,
            layout.left + board_width + letters / 2.0,
        ] {
            text(
                &mut body,
                &mut texts,
                x,
                y + (asc - desc) / 2.0,
                t,
                true,
                r#" class="coord""#,
                &letter,
            );
        }
    }
    let mut drawn: Vec<Mark> = Vec::new();
    let e = last.map(|ply| &ply.effect);
    let taken_at = |pit: Pit| -> Option<(Mark, u16)> {
        let e = e?;
        let find = |l: &[(Pit, u16)]| l.iter().find(|(p, _)| *p == pit).map(|(_, n)| *n);
        find(&e.captured)
            .map(|n| (Mark::Captured, n))
            .or_else(|| find(&e.bonus).map(|n| (Mark::Bonus, n)))
    };
    // The pits, each a group: its circle first and its count last (the viewer's page
    // writes counts into them).
    for pit in board.pits() {
        let (x, y) = layout.center(pit);
        let stones = pos.stones(pit);
        let head = rules.is_head(pit);
        let nki = kiothi && pos.is_nki(pit);
        let (class, fill) = if head {
            ("pit head", "#f2cf63")
        } else if nki {
            ("pit nki", "#d6e9f6")
        } else {
            ("pit", "#fbf3e4")
        };
        let _ = writeln!(
            body,
            r##"<g class="{class}" id="{pit}"><circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#5b4320" stroke-width="{}"/>"##,
            num(x),
            num(y),
            num(radius),
            num(line * 0.6)
        );
        if head {
            let _ = writeln!(
                body,
                r##"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="#5b4320" stroke-width="{}"/>"##,
                num(x),
                num(y),
                num(radius * 0.8),
                num(line * 0.6)
            );
            if !drawn.contains(&Mark::Head) {
                drawn.push(Mark::Head);
            }
        }
        if nki {
            Mark::Nki.draw(
                &mut body,
                x - cell * 0.33,
                y - cell * 0.33,
                cell * 0.2,
                line,
            );
            if !drawn.contains(&Mark::Nki) {
                drawn.push(Mark::Nki);
            }
        }
        let taken = taken_at(pit);
        // The count, or the count over the stones taken, centred in the pit.
        let (c_asc, c_desc) = figure::text_extent(count_size);
        let pair = c_asc + c_desc + t * 0.1 + asc + desc;
        let count_y = match taken {
            Some(_) if roomy => y - pair / 2.0 + c_asc,
            _ => y + (c_asc - c_desc) / 2.0,
        };
        if let (Some((mark, n)), true) = (taken, roomy) {
            let color = if mark == Mark::Captured {
                CAPTURED
            } else {
                "#8e3f6c"
            };
            let size = t;
            text(
                &mut body,
                &mut texts,
                x,
                count_y + c_desc + t * 0.1 + asc,
                size,
                true,
                &format!(r#" class="taken" fill="{color}""#),
                &format!("\u{2212}{n}"),
            );
        }
        text(
            &mut body,
            &mut texts,
            x,
            count_y,
            count_size,
            true,
            "",
            &stones.to_string(),
        );
        let _ = body.pop();
        body.push_str("</g>\n");
    }
    // Kiothi's prisons, each beside its seat's row: its name, then its count.
    if kiothi {
        let x = layout.left + board_width + letters + t * 0.6;
        let w = prison_width - t * 1.2;
        for side in [Side::North, Side::South] {
            let row = board.inner_row(side);
            let (_, y) = layout.center(Pit::new(row, 1));
            let h = cell * 0.84;
            let _ = write!(
                body,
                r##"<g class="prison" id="prison-{}"><rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="#e9dcc3" stroke="#7a5a2b" stroke-width="{}"/>"##,
                side.letter(),
                num(x),
                num(y - h / 2.0),
                num(w),
                num(h),
                num(t * 0.4),
                num(line * 0.6)
            );
            let base = y + (asc - desc) / 2.0;
            text(
                &mut body,
                &mut texts,
                x + t * 0.4,
                base,
                t,
                false,
                "",
                &format!("{side} prison"),
            );
            let count = pos.prisons()[side.index()].to_string();
            let cw = figure::text_width(&count, t, true);
            text(
                &mut body,
                &mut texts,
                x + w - t * 0.4 - cw / 2.0,
                base,
                t,
                true,
                r#" font-weight="bold""#,
                &count,
            );
            let _ = body.pop();
            body.push_str("</g>\n");
        }
    }
    // The last ply: its marks, then its laps on top of them.
    let mut unnumbered = false;
    if let Some(ply) = last {
        let e = &ply.effect;
        let corner = cell * 0.36;
        let small = (cell * 0.2).max(t * 0.45);
        let origin = |body: &mut String, pit: Pit| {
            if board.contains(pit) {
                let (x, y) = layout.center(pit);
                let _ = write!(body, r#"<g class="from">"#);
                Mark::Origin.draw(body, x, y, cell * 0.96, line * 1.2);
                body.push_str("</g>\n");
            }
        };
        match &ply.mv {
            Move::Sow(s) => origin(&mut body, s.from),
            Move::Redistribute(r) => {
                for &p in &r.emptied {
                    origin(&mut body, p);
                }
            }
        }
        if body.contains(r#"class="from""#) {
            drawn.push(Mark::Origin);
        }
        if let Some(end) = e.end.filter(|&p| board.contains(p)) {
            let (x, y) = layout.center(end);
            body.push_str(r#"<g class="end">"#);
            Mark::End.draw(&mut body, x, y, radius * 2.0 + line * 2.0, line * 1.4);
            body.push_str("</g>\n");
            drawn.push(Mark::End);
        }
        for (list, mark, class) in [
            (&e.captured, Mark::Captured, "captured"),
            (&e.bonus, Mark::Bonus, "bonus"),
        ] {
            for &(pit, _) in list.iter().filter(|(p, _)| board.contains(*p)) {
                let (x, y) = layout.center(pit);
                let _ = write!(body, r#"<g class="{class}">"#);
                mark.draw(&mut body, x + corner, y - corner, small, line);
                body.push_str("</g>\n");
                if !drawn.contains(&mark) {
                    drawn.push(mark);
                }
            }
        }
        let mut numbered = 0;
        for (i, lap) in e.laps.iter().take(SVG_MAX_LAPS).enumerate() {
            if !board.contains(lap.start) || !board.contains(lap.end) {
                continue;
            }
            let (x1, y1) = layout.center(lap.start);
            let (x2, y2) = layout.center(lap.end);
            let (dx, dy) = (x2 - x1, y2 - y1);
            let length = (dx * dx + dy * dy).sqrt();
            if length < 1.0 {
                continue;
            }
            // Bent to one side, so that laps along one row stay apart and a lap to
            // the next pit bulges out beyond the rings; from ring to ring.
            // Bent towards the line between the seats, off the coordinates.
            let bend = (cell * 0.8).max(length * 0.18);
            let (nx, ny) = (-dy / length, dx / length);
            let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            let inward = if ny.abs() > 1e-6 {
                (divider - my) * ny > 0.0
            } else {
                (layout.left + board_width / 2.0 - mx) * nx > 0.0
            };
            let bend = if inward { bend } else { -bend };
            let (cx, cy) = (mx + nx * bend, my + ny * bend);
            let towards = |(px, py): (f64, f64), r: f64| {
                let (ux, uy) = (cx - px, cy - py);
                let l = (ux * ux + uy * uy).sqrt().max(1e-9);
                (px + ux / l * r, py + uy / l * r)
            };
            let (sx, sy) = towards((x1, y1), radius);
            let (ex, ey) = towards((x2, y2), radius + line * 2.0);
            let _ = writeln!(
                body,
                r#"<path class="lap" d="M{},{} Q{},{} {},{}" fill="none" stroke="{LAP}" stroke-width="{}" stroke-opacity="0.85" marker-end="url(#arrow)"/>"#,
                num(sx),
                num(sy),
                num(cx),
                num(cy),
                num(ex),
                num(ey),
                num(line * 1.2)
            );
            // The lap's number at the top of its bend, where no other text is.
            let (lx, ly) = (
                0.25 * sx + 0.5 * cx + 0.25 * ex,
                0.25 * sy + 0.5 * cy + 0.25 * ey,
            );
            let label = (i + 1).to_string();
            let w = figure::text_width(&label, t, true);
            let area = [
                lx - w / 2.0 - 1.0,
                ly - (asc + desc) / 2.0 - 1.0,
                lx + w / 2.0 + 1.0,
                ly + (asc + desc) / 2.0 + 1.0,
            ];
            if e.laps.len() > 1 && !texts.iter().any(|a| overlaps(a, &area)) {
                let _ = writeln!(
                    body,
                    r#"<rect class="lap-number" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="white" stroke="{LAP}" stroke-width="{}"/>"#,
                    num(area[0]),
                    num(area[1]),
                    num(area[2] - area[0]),
                    num(area[3] - area[1]),
                    num(t * 0.3),
                    num(line * 0.5)
                );
                text(
                    &mut body,
                    &mut texts,
                    lx,
                    ly + (asc - desc) / 2.0,
                    t,
                    true,
                    &format!(r#" class="lap-number" font-weight="bold" fill="{LAP}""#),
                    &label,
                );
                numbered += 1;
            }
        }
        if !e.laps.is_empty() {
            drawn.push(Mark::Lap);
        }
        unnumbered = e.laps.len() > 1 && numbered < e.laps.len().min(SVG_MAX_LAPS);
    }
    // The key: the marks drawn, in rows under the board.
    let mut y = layout.top + board_height + t * 0.6 + asc + desc + t * 0.6;
    let swatch = t * 1.2;
    let mut x = margin;
    let row_h = (asc + desc).max(swatch) + t * 0.3;
    if !drawn.is_empty() {
        body.push_str("<g class=\"key\">\n");
        for mark in &drawn {
            let w = swatch + t * 0.4 + figure::text_width(mark.said(), t, false) + t;
            if x > margin && x + w - t > width - margin {
                x = margin;
                y += row_h;
            }
            mark.draw(
                &mut body,
                x + swatch / 2.0,
                y + row_h / 2.0,
                swatch * 0.8,
                line,
            );
            text(
                &mut body,
                &mut texts,
                x + swatch + t * 0.4,
                y + row_h / 2.0 + (asc - desc) / 2.0,
                t,
                false,
                "",
                mark.said(),
            );
            x += w;
        }
        body.push_str("</g>\n");
        y += row_h + t * 0.3;
    }
    // What the figure shows, in words.
    let mut lines: Vec<(String, &str)> = Vec::new();
    if let Some(ending) = outcome.map(|o| game_over_lines(rules, pos, o)) {
        for l in ending {
            lines.push((l, r#" class="info game-over""#));
        }
    } else {
        let mut to_move = format!("{} to move", pos.side());
        if kiothi && pos.opening() {
            to_move.push_str("; opening redistribution to come");
        }
        lines.push((to_move, r#" class="info""#));
    }
    if let Some(ply) = last {
        let e = &ply.effect;
        let mut said = format!("Last ply {} ({}): {}", ply.number, ply.side, ply.text);
        if e.lap_count > 0 {
            let laps = if e.lap_count == 1 { "lap" } else { "laps" };
            let _ = write!(said, "; {} {laps}", e.lap_count);
        }
        if unnumbered {
            // Some laps have no number on the board: their ends in order.
            let ends: Vec<String> = e.laps.iter().map(|l| l.end.to_string()).collect();
            let _ = write!(said, " (ending in {})", ends.join(", "));
        } else if let Some(end) = e.end {
            let _ = write!(said, ", ending in {end}");
        }
        let list = |l: &[(Pit, u16)]| {
            l.iter()
                .map(|(p, n)| format!("{p} ({n})"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !e.captured.is_empty() {
            let _ = write!(said, "; captured {}", list(&e.captured));
        }
        if !e.bonus.is_empty() {
            let _ = write!(said, "; bonus {}", list(&e.bonus));
        }
        said.push('.');
        lines.push((said, r#" class="info""#));
    }
    for (said, attrs) in &lines {
        let bold = attrs.contains("game-over");
        let attrs = if bold {
            format!("{attrs} font-weight=\"bold\"")
        } else {
            attrs.to_string()
        };
        for l in figure::wrap(said, t, bold, width - 2.0 * margin) {
            y += asc;
            text(&mut body, &mut texts, margin, y, t, false, &attrs, &l);
            y += desc + t * 0.15;
        }
    }
    let height = y + margin;
    let size = PrintSize {
        width_mm: width / figure::PT_PER_MM,
        height_mm: height / figure::PT_PER_MM,
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" {} font-family="{}">"#,
        size.svg_size(),
        figure::FONT_FAMILY_LIST
    );
    let status = match outcome {
        Some(o) => format!("game over, {}", o.result_token()),
        None => format!("{} to move", pos.side()),
    };
    let _ = writeln!(
        out,
        "<title>{}, {}</title>",
        xml_escape(&caption),
        xml_escape(&status)
    );
    let _ = writeln!(out, "<desc>{}</desc>", xml_escape(&pos.to_string()));
    out.push_str(concat!(
        r##"<defs><marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="5" markerHeight="5" orient="auto">"##,
        r##"<path d="M0,0 L8,4 L0,8 z" fill="#1f4e79"/></marker></defs>"##,
        "\n"
    ));
    let _ = writeln!(
        out,
        r#"<rect width="{}" height="{}" fill="white"/>"#,
        num(width),
        num(height)
    );
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;
    use crate::Board;

    #[test]
    fn text_board_draws_rows_top_to_bottom_with_heads() {
        let rules = Rules::new(Game::Tsoro, Board::new(4, 6), "heads=1").unwrap();
        let pos = Position::initial(&rules);
        let text = text_board(&rules, &pos, "start", None);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "start");
        assert!(lines[2].starts_with(" d "), "{text}");
        assert!(lines[2].contains("(3)"), "{text}");
        assert!(lines[6].starts_with(" a "), "{text}");
        assert!(lines[6].trim_end().ends_with("(3)"), "{text}");
        assert_eq!(lines[8], pos.to_string());
    }
}
