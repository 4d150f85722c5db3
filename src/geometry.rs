//! The board: pits with absolute coordinates, rows, circuits, opposite and behind.
//!
//! Coordinates are absolute, as South sees the board (RULES.md, "Geometry shared by all
//! games"). This module knows no rule of any game beyond the shape of the board and the
//! order in which a seat's stones are dropped; it never sees text beyond pit names.

use std::fmt;

pub use crate::pit::{Pit, Side};

/// The largest board of any game: 4×36 (Nsolo).
pub const MAX_PITS: usize = 4 * 36;

/// The direction in which stones are dropped, as South sees the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    CounterClockwise,
    Clockwise,
}

/// The shape of a board: 2 or 4 rows of `cols` pits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: u8,
    cols: u8,
}

impl Board {
    /// A board of 2 or 4 rows and 1..=36 columns; any other shape is `None`.
    pub fn new(rows: u8, cols: u8) -> Option<Board> {
        ((rows == 2 || rows == 4) && (1..=36).contains(&cols)).then_some(Board { rows, cols })
    }

    /// Parses the PMN `Board` tag form `4xN` / `2x10`.
    pub fn parse(s: &str) -> Option<Board> {
        let (r, c) = s.trim().split_once(['x', 'X', '×'])?;
        Board::new(r.parse().ok()?, c.parse().ok()?)
    }

    pub fn rows(self) -> u8 {
        self.rows
    }

    pub fn cols(self) -> u8 {
        self.cols
    }

    /// The number of pits on the board.
    pub fn len(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    pub fn contains(self, pit: Pit) -> bool {
        pit.row < self.rows && pit.col >= 1 && pit.col <= self.cols
    }

    /// The index of a pit in a position's pit array (row-major, row `a` first).
    /// The pit must be on the board.
    pub fn index(self, pit: Pit) -> usize {
        debug_assert!(self.contains(pit));
        pit.row as usize * self.cols as usize + (pit.col as usize - 1)
    }

    /// The pit at an index of the pit array.
    pub fn pit(self, index: usize) -> Pit {
        // No division: a board has at most four rows, and this runs once or twice per
        // lap of every sowing.
        let cols = self.cols as usize;
        let row =
            (index >= cols) as usize + (index >= 2 * cols) as usize + (index >= 3 * cols) as usize;
        Pit::new(row as u8, (index - row * cols) as u8 + 1)
    }

    /// Every pit, in index order.
    pub fn pits(self) -> impl Iterator<Item = Pit> {
        (0..self.len()).map(move |i| self.pit(i))
    }

    /// The seat that owns a row: on four rows South owns `a` and `b`, North `c` and `d`;
    /// on two rows South owns `a` and North `b`.
    pub fn owner_of_row(self, row: u8) -> Side {
        if row < self.rows / 2 {
            Side::South
        } else {
            Side::North
        }
    }

    pub fn owner(self, pit: Pit) -> Side {
        self.owner_of_row(pit.row)
    }

    /// A seat's inner (front) row: `b` / `c` on four rows; the seat's only row on two.
    pub fn inner_row(self, side: Side) -> u8 {
        match (self.rows, side) {
            (4, Side::South) => 1,
            (4, Side::North) => 2,
            (_, Side::South) => 0,
            (_, Side::North) => 1,
        }
    }

    /// A seat's outer (back) row: `a` / `d` on four rows; the seat's only row on two.
    pub fn outer_row(self, side: Side) -> u8 {
        match (self.rows, side) {
            (4, Side::South) => 0,
            (4, Side::North) => 3,
            (_, Side::South) => 0,
            (_, Side::North) => 1,
        }
    }

    /// The rows a seat owns.
    pub fn rows_of(self, side: Side) -> std::ops::Range<u8> {
        let half = self.rows / 2;
        match side {
            Side::South => 0..half,
            Side::North => half..self.rows,
        }
    }

    /// The pit indices of the rows a seat owns: one run of the pit array, since rows are
    /// stored one after another.
    pub fn indices_of(self, side: Side) -> std::ops::Range<usize> {
        // A seat owns half the rows, South the first half: a product, without a branch on
        // the side (Nsolo's singleton rule reads a seat's pits on most plies).
        let seat = (self.rows / 2) as usize * self.cols as usize;
        let start = side.index() * seat;
        start..start + seat
    }

    /// The pit opposite an inner-row pit (`bK` ↔ `cK`; on two rows `aK` ↔ `bK`).
    /// Outer-row pits of a four-row board have no opposite.
    pub fn opposite(self, pit: Pit) -> Option<Pit> {
        match (self.rows, pit.row) {
            (4, 1) => Some(Pit::new(2, pit.col)),
            (4, 2) => Some(Pit::new(1, pit.col)),
            (2, 0) => Some(Pit::new(1, pit.col)),
            (2, 1) => Some(Pit::new(0, pit.col)),
            _ => None,
        }
    }

    /// The outer-row pit behind an inner-row pit of a four-row board (`bK` → `aK`,
    /// `cK` → `dK`).
    pub fn behind(self, pit: Pit) -> Option<Pit> {
        match (self.rows, pit.row) {
            (4, 1) => Some(Pit::new(0, pit.col)),
            (4, 2) => Some(Pit::new(3, pit.col)),
            _ => None,
        }
    }

    /// The order in which a seat drops stones (RULES.md, "Circuits"), starting from the
    /// seat's outer-row end where the circuit table starts. On two rows both seats sow
    /// around the whole board counter-clockwise (Kiothi), whatever `direction` says.
    pub fn circuit(self, side: Side, direction: Direction) -> Vec<Pit> {
        let n = self.cols;
        let forward = |row: u8| (1..=n).map(move |c| Pit::new(row, c));
        let backward = |row: u8| (1..=n).rev().map(move |c| Pit::new(row, c));
        if self.rows == 2 {
            return forward(0).chain(backward(1)).collect();
        }
        match (direction, side) {
            (Direction::CounterClockwise, Side::South) => forward(0).chain(backward(1)).collect(),
            (Direction::CounterClockwise, Side::North) => forward(2).chain(backward(3)).collect(),
            (Direction::Clockwise, Side::South) => backward(0).chain(forward(1)).collect(),
            (Direction::Clockwise, Side::North) => forward(3).chain(backward(2)).collect(),
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(pits: &[Pit]) -> Vec<String> {
        pits.iter().map(Pit::to_string).collect()
    }

    #[test]
    fn counter_clockwise_circuits_follow_the_table() {
        let board = Board::new(4, 3).unwrap();
        let south = board.circuit(Side::South, Direction::CounterClockwise);
        let north = board.circuit(Side::North, Direction::CounterClockwise);
        assert_eq!(names(&south), ["a1", "a2", "a3", "b3", "b2", "b1"]);
        assert_eq!(names(&north), ["c1", "c2", "c3", "d3", "d2", "d1"]);
    }

    #[test]
    fn clockwise_circuits_follow_the_table() {
        let board = Board::new(4, 3).unwrap();
        let south = board.circuit(Side::South, Direction::Clockwise);
        let north = board.circuit(Side::North, Direction::Clockwise);
        assert_eq!(names(&south), ["a3", "a2", "a1", "b1", "b2", "b3"]);
        assert_eq!(names(&north), ["d1", "d2", "d3", "c3", "c2", "c1"]);
    }

    #[test]
    fn two_row_circuit_goes_round_the_whole_board() {
        let board = Board::new(2, 3).unwrap();
        let c = board.circuit(Side::North, Direction::Clockwise);
        assert_eq!(names(&c), ["a1", "a2", "a3", "b3", "b2", "b1"]);
    }

    #[test]
    fn opposite_and_behind() {
        let four = Board::new(4, 8).unwrap();
        assert_eq!(
            four.opposite("b3".parse().unwrap()),
            Some("c3".parse().unwrap())
        );
        assert_eq!(
            four.behind("c3".parse().unwrap()),
            Some("d3".parse().unwrap())
        );
        assert_eq!(
            four.behind("b3".parse().unwrap()),
            Some("a3".parse().unwrap())
        );
        assert_eq!(four.opposite("a3".parse().unwrap()), None);
        let two = Board::new(2, 10).unwrap();
        assert_eq!(
            two.opposite("a10".parse().unwrap()),
            Some("b10".parse().unwrap())
        );
    }

    #[test]
    fn index_round_trips() {
        let board = Board::new(4, 21).unwrap();
        for (i, pit) in board.pits().enumerate() {
            assert_eq!(board.index(pit), i);
            assert_eq!(pit.to_string().parse::<Pit>(), Ok(pit));
        }
    }
}
