//! Board diagrams of a position: a drawn text board (`sow show --format text`) and an
//! SVG figure for a page (`sow show --format svg`).
//!
//! Diagrams only draw; they never replay (the trace gives them the position and, for the
//! final position of a finished game, its outcome).

use std::fmt::Write;

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
    let side = pos.side;
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
    let side = pos.side;
    if pos.stones_of(side) == 0 {
        return "has no stones and no legal move";
    }
    let board = rules.board();
    let (mut endless, mut broken) = (false, false);
    let mut effect = Effect::default();
    for row in board.rows_of(side) {
        for col in 1..=board.cols() {
            let from = Pit::new(row, col);
            let stones = pos.get(from);
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
            let stones = pos.get(pit);
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
            let [south, north] = pos.prisons;
            let _ = writeln!(out, "prisons: South {south}, North {north}");
        }
        for line in game_over_lines(rules, pos, outcome) {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, "{pos}");
        return out;
    }
    let _ = write!(out, "{} to move", pos.side);
    if board.rows() == 2 {
        let _ = write!(
            out,
            "; prisons: South {}, North {}",
            pos.prisons[0], pos.prisons[1]
        );
        if pos.opening {
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

/// Where things go on an SVG board diagram.
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

/// An SVG diagram of a position as South sees it, for a page (about 500 units wide; wider
/// boards use pits of at least 24 units): every pit with its stone count, columns
/// 1..N above and below, row letters on both sides, Tsoro's heads (double ring, gold)
/// and Kiothi's nki pits (blue, `*`) distinguished, Kiothi's prisons, the side to move,
/// and the last ply when given: its origin (green ring), the path of its laps (arrows
/// from each lap's start to its end), where it ended (thick blue ring), the pits it
/// captured (red cross, stones taken) and its bonus pits (orange, stones taken); given
/// the outcome of a finished game, how it ended ([`game_over_lines`]) in place of the
/// side to move. The PMN `Position` string is the figure's `<desc>`.
pub fn svg_board(
    rules: &Rules,
    pos: &Position,
    last: Option<&crate::replay::PlyTrace>,
    outcome: Option<&Outcome>,
) -> String {
    let board = rules.board();
    let cols = board.cols() as f64;
    let rows = board.rows();
    let kiothi = rows == 2;
    let cell = if board.cols() <= 11 {
        40.0
    } else {
        (440.0 / cols).floor().max(24.0)
    };
    let layout = SvgLayout {
        cell,
        left: 30.0,
        top: 50.0,
        gap: 10.0,
        rows,
    };
    let prison_width = if kiothi { 110.0 } else { 0.0 };
    let board_width = cols * cell;
    let board_height = rows as f64 * cell + layout.gap;
    let width = (layout.left * 2.0 + board_width + prison_width).max(500.0);
    let ending = outcome.map(|o| game_over_lines(rules, pos, o));
    let status_lines = ending.as_ref().map_or(1, Vec::len) as f64;
    let info_lines = if last.is_some() { 2.0 } else { 0.0 } + status_lines;
    let height = layout.top + board_height + 22.0 + info_lines * 16.0 + 8.0;
    let radius = cell * 0.4;
    let count_size = if cell >= 36.0 { 14.0 } else { 11.0 };
    let caption = format!(
        "{} {}{}",
        rules.game(),
        board,
        match rules.options_tag().as_str() {
            "" => String::new(),
            o => format!(" ({o})"),
        }
    );

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">"#
    );
    let status = match outcome {
        Some(o) => format!("game over, {}", o.result_token()),
        None => format!("{} to move", pos.side),
    };
    let _ = writeln!(
        out,
        "<title>{}, {}</title>",
        xml_escape(&caption),
        xml_escape(&status)
    );
    let _ = writeln!(out, "<desc>{}</desc>", xml_escape(&pos.to_string()));
    out.push_str(concat!(
        r##"<defs><marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto">"##,
        r##"<path d="M0,0 L8,4 L0,8 z" fill="#1f5fa8"/></marker></defs>"##,
        "\n"
    ));
    let _ = writeln!(
        out,
        r#"<text class="caption" x="{}" y="18" font-size="13" font-weight="bold">{}</text>"#,
        layout.left,
        xml_escape(&caption)
    );
    // The board and the line between the two seats.
    let _ = writeln!(
        out,
        r##"<rect class="board" x="{}" y="{}" width="{board_width}" height="{board_height}" rx="8" fill="#d9b77e" stroke="#7a5a2b" stroke-width="2"/>"##,
        layout.left, layout.top
    );
    let divider = layout.top + (rows / 2) as f64 * cell + layout.gap / 2.0;
    let _ = writeln!(
        out,
        r##"<line class="divider" x1="{}" y1="{divider}" x2="{}" y2="{divider}" stroke="#7a5a2b" stroke-width="1.5"/>"##,
        layout.left,
        layout.left + board_width
    );
    // Coordinates: columns above and below, row letters left and right.
    for col in 1..=board.cols() {
        let (x, _) = layout.center(Pit::new(0, col));
        for y in [layout.top - 6.0, layout.top + board_height + 14.0] {
            let _ = writeln!(
                out,
                r#"<text class="coord" x="{x}" y="{y}" font-size="10" text-anchor="middle">{col}</text>"#
            );
        }
    }
    for row in 0..rows {
        let (_, y) = layout.center(Pit::new(row, 1));
        let letter = Pit::new(row, 1).row_letter();
        for x in [layout.left - 12.0, layout.left + board_width + 12.0] {
            let _ = writeln!(
                out,
                r#"<text class="coord" x="{x}" y="{}" font-size="10" text-anchor="middle">{letter}</text>"#,
                y + 3.5
            );
        }
    }
    // The pits.
    for pit in board.pits() {
        let (x, y) = layout.center(pit);
        let stones = pos.get(pit);
        let head = rules.is_head(pit);
        let nki = kiothi && pos.is_nki(pit);
        let (class, fill) = if head {
            ("pit head", "#f2cf63")
        } else if nki {
            ("pit nki", "#bcd8ee")
        } else {
            ("pit", "#fbf3e4")
        };
        let _ = writeln!(
            out,
            r##"<g class="{class}" id="{pit}"><circle cx="{x}" cy="{y}" r="{radius}" fill="{fill}" stroke="#5b4320" stroke-width="1"/>"##
        );
        if head {
            let _ = writeln!(
                out,
                r##"<circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="#5b4320" stroke-width="1"/>"##,
                radius - 3.0
            );
        }
        if nki {
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" font-size="14" font-weight="bold" fill="#1f4e79">*</text>"##,
                x + radius * 0.5,
                y - radius * 0.35
            );
        }
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{}" font-size="{count_size}" text-anchor="middle">{stones}</text></g>"#,
            y + count_size * 0.35
        );
    }
    // Kiothi's prisons, each beside its seat's row.
    if kiothi {
        let x = layout.left + board_width + 24.0;
        for side in [Side::North, Side::South] {
            let row = board.inner_row(side);
            let (_, y) = layout.center(Pit::new(row, 1));
            let _ = writeln!(
                out,
                r##"<g class="prison" id="prison-{}"><rect x="{x}" y="{}" width="{}" height="{}" rx="6" fill="#e9dcc3" stroke="#7a5a2b"/><text x="{}" y="{}" font-size="10" text-anchor="middle">{} prison</text><text x="{}" y="{}" font-size="{count_size}" text-anchor="middle">{}</text></g>"##,
                side.letter(),
                y - cell * 0.45,
                prison_width - 30.0,
                cell * 0.9,
                x + (prison_width - 30.0) / 2.0,
                y - cell * 0.1,
                side,
                x + (prison_width - 30.0) / 2.0,
                y + cell * 0.3,
                pos.prisons[side.index()]
            );
        }
    }
    // The last ply.
    if let Some(ply) = last {
        let e = &ply.effect;
        let ring = |out: &mut String, pit: Pit, class: &str, color: &str, width: f64| {
            if !board.contains(pit) {
                return;
            }
            let (x, y) = layout.center(pit);
            let _ = writeln!(
                out,
                r#"<circle class="{class}" cx="{x}" cy="{y}" r="{}" fill="none" stroke="{color}" stroke-width="{width}"/>"#,
                radius + 2.5
            );
        };
        match &ply.mv {
            crate::moves::Move::Sow(s) => {
                ring(&mut out, s.from, "from", "#2e8b57", 2.5);
            }
            crate::moves::Move::Redistribute(r) => {
                for &p in &r.emptied {
                    ring(&mut out, p, "from", "#2e8b57", 2.5);
                }
            }
        }
        for lap in e.laps.iter().take(SVG_MAX_LAPS) {
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
            // Bend each arrow to one side so that laps along one row stay apart, and
            // stop it short of the end pit's ring.
            let bend = cell * 0.35;
            let (cx, cy) = (
                (x1 + x2) / 2.0 - dy / length * bend,
                (y1 + y2) / 2.0 + dx / length * bend,
            );
            let (ex, ey) = (x2 - dx / length * radius, y2 - dy / length * radius);
            let _ = writeln!(
                out,
                r##"<path class="lap" d="M{x1:.1},{y1:.1} Q{cx:.1},{cy:.1} {ex:.1},{ey:.1}" fill="none" stroke="#1f5fa8" stroke-width="2" stroke-opacity="0.75" marker-end="url(#arrow)"/>"##
            );
        }
        if let Some(end) = e.end {
            ring(&mut out, end, "end", "#1f5fa8", 3.5);
        }
        let taken = |out: &mut String, list: &[(Pit, u16)], class: &str, color: &str| {
            for &(pit, n) in list {
                if !board.contains(pit) {
                    continue;
                }
                let (x, y) = layout.center(pit);
                let d = radius * 0.7;
                let _ = writeln!(
                    out,
                    r#"<g class="{class}"><path d="M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}" stroke="{color}" stroke-width="2.5" stroke-opacity="0.8"/><text x="{:.1}" y="{:.1}" font-size="10" fill="{color}" font-weight="bold">-{n}</text></g>"#,
                    x - d,
                    y - d,
                    x + d,
                    y + d,
                    x + d,
                    y - d,
                    x - d,
                    y + d,
                    x - radius,
                    y - radius * 0.75
                );
            }
        };
        taken(&mut out, &e.captured, "captured", "#c0392b");
        taken(&mut out, &e.bonus, "bonus", "#d35400");
    }
    // What the figure shows, in words.
    let mut y = layout.top + board_height + 36.0;
    if let Some(lines) = &ending {
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                y += 16.0;
            }
            let _ = writeln!(
                out,
                r#"<text class="info game-over" x="{}" y="{y}" font-size="11" font-weight="bold">{}</text>"#,
                layout.left,
                xml_escape(line)
            );
        }
    } else {
        let mut to_move = format!("{} to move", pos.side);
        if kiothi && pos.opening {
            to_move.push_str("; opening redistribution to come");
        }
        let _ = writeln!(
            out,
            r#"<text class="info" x="{}" y="{y}" font-size="11">{}</text>"#,
            layout.left,
            xml_escape(&to_move)
        );
    }
    if let Some(ply) = last {
        let e = &ply.effect;
        y += 16.0;
        let mut line = format!("last ply {} ({}): {}", ply.number, ply.side, ply.text);
        if e.lap_count > 0 {
            let laps = if e.lap_count == 1 { "lap" } else { "laps" };
            let _ = write!(line, "; {} {laps}", e.lap_count);
        }
        if let Some(end) = e.end {
            let _ = write!(line, "; ended in {end}");
        }
        let _ = writeln!(
            out,
            r#"<text class="info" x="{}" y="{y}" font-size="11">{}</text>"#,
            layout.left,
            xml_escape(&line)
        );
        y += 16.0;
        let list = |l: &[(Pit, u16)]| {
            if l.is_empty() {
                "none".to_string()
            } else {
                l.iter()
                    .map(|(p, n)| format!("{p} ({n})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let _ = writeln!(
            out,
            r#"<text class="info" x="{}" y="{y}" font-size="11">captured: {}; bonus: {}</text>"#,
            layout.left,
            xml_escape(&list(&e.captured)),
            xml_escape(&list(&e.bonus))
        );
    }
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
