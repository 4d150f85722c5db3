//! Board diagrams of a position: a drawn text board (`sow show --format text`).
//!
//! Diagrams only draw; they never replay (the trace gives them the position).

use std::fmt::Write;

use crate::geometry::Pit;
use crate::position::Position;
use crate::rules::Rules;

/// A text drawing of a position as South sees it: column numbers on top, row letters on
/// the left, heads in parentheses, nki pits with `*`, a rule between the two sides, the
/// side to move, Kiothi's prisons, and the PMN `Position` string last.
pub fn text_board(rules: &Rules, pos: &Position, caption: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;
    use crate::Board;

    #[test]
    fn text_board_draws_rows_top_to_bottom_with_heads() {
        let rules = Rules::new(Game::Tsoro, Board::new(4, 6), "heads=1").unwrap();
        let pos = Position::initial(&rules);
        let text = text_board(&rules, &pos, "start");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "start");
        assert!(lines[2].starts_with(" d "), "{text}");
        assert!(lines[2].contains("(3)"), "{text}");
        assert!(lines[6].starts_with(" a "), "{text}");
        assert!(lines[6].trim_end().ends_with("(3)"), "{text}");
        assert_eq!(lines[8], pos.to_string());
    }
}

/// An SVG diagram of a position (not drawn yet: an empty figure).
pub fn svg_board(
    _rules: &Rules,
    _pos: &Position,
    _last: Option<&crate::replay::PlyTrace>,
) -> String {
    String::new()
}
