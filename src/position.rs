//! Positions: the board's stones, the side to move, and for Kiothi the prisons, the nki
//! marks and the opening phase; built from a game's start layout or from a checked setup.
//!
//! The PMN `Position` string (PMN.md) is parsed into an unchecked [`Setup`], which
//! [`Position::from_setup`] validates against a rule set. Printing a position gives the
//! same string form byte for byte.

use std::fmt;

use thiserror::Error;

use crate::geometry::{Board, Pit, Side, MAX_PITS};
use crate::rules::{Game, Heads, Options, Rules};

/// A position of any of the four games.
///
/// A position exists only as a game's start layout ([`Position::initial`]) or as a
/// checked set-up ([`Position::from_setup`], [`Position::parse`]), and only the rules
/// core changes it, ply by ply; everyone else reads it through its accessors.
///
/// Two positions are equal when their board, side to move, prisons, nki marks, opening
/// phase and capture counts agree. The repetition rule compares positions by
/// [`Position::same_for_repetition`], which leaves out the capture counts (they never
/// differ between positions that can recur).
#[derive(PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    /// Stones per pit, indexed by [`Board::index`]; entries past `board.len()` are zero.
    pits: [u16; MAX_PITS],
    side: Side,
    /// Kiothi's prisons, South then North (zero in the other games).
    prisons: [u16; 2],
    /// Kiothi's nki marks, one bit per pit index.
    nki: u64,
    /// Kiothi: the opening redistribution (plies 1-2) is still to come.
    opening: bool,
    /// Captures made by each seat since the start (or set-up): Tsoro's graded bonus.
    captures: [u16; 2],
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            board: self.board,
            pits: self.pits,
            side: self.side,
            prisons: self.prisons,
            nki: self.nki,
            opening: self.opening,
            captures: self.captures,
        }
    }

    /// Copies only the pits of the larger of the two boards: past its board a position's
    /// pits are empty. A listing of moves copies its position once a candidate.
    fn clone_from(&mut self, source: &Position) {
        let n = self.board.len().max(source.board.len());
        debug_assert!(
            source.pits[n..].iter().all(|&s| s == 0),
            "pits past the board"
        );
        self.pits[..n].copy_from_slice(&source.pits[..n]);
        self.board = source.board;
        self.side = source.side;
        self.prisons = source.prisons;
        self.nki = source.nki;
        self.opening = source.opening;
        self.captures = source.captures;
    }
}

impl Position {
    /// The start position of a rule set (RULES.md, each game's "Start").
    pub fn initial(rules: &Rules) -> Position {
        let board = rules.board();
        let n = board.cols();
        let mut pos = Position::empty(board, Side::South);
        // Rows and boards are filled as ranges of the pit array, not pit by pit with
        // each index worked out from its pit: every game starts here.
        match rules.options() {
            Options::Tsoro(o) => {
                for row in [0, 3] {
                    let first = board.index(Pit::new(row, 1));
                    pos.pits[first..first + n as usize].fill(2);
                }
                if o.heads == Heads::One {
                    pos.set(Pit::new(0, n), 3);
                    pos.set(Pit::new(3, 1), 3);
                }
            }
            Options::Nsolo(_) => {
                pos.pits[..board.len()].fill(2);
                pos.set(Pit::new(1, n), 0);
                pos.set(Pit::new(2, 1), 0);
            }
            Options::Kiothi(o) => {
                let (stones, count) = o.start.layout();
                for k in 0..count {
                    pos.set(Pit::new(0, 10 - k), stones);
                    pos.set(Pit::new(1, 1 + k), stones);
                }
                pos.opening = true;
            }
            Options::BaoLaKimasai(_) => {
                pos.pits[..board.len()].fill(1);
                pos.set(Pit::new(1, 1), 0);
                pos.set(Pit::new(2, n), 0);
            }
        }
        pos
    }

    /// A board with no stones: the canvas `initial` and `from_setup` fill.
    pub(crate) fn empty(board: Board, side: Side) -> Position {
        Position {
            board,
            pits: [0; MAX_PITS],
            side,
            prisons: [0; 2],
            nki: 0,
            opening: false,
            captures: [0; 2],
        }
    }

    #[inline]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The stones in a pit of the board.
    #[inline]
    pub fn stones(&self, pit: Pit) -> u16 {
        self.pits[self.board.index(pit)]
    }

    /// The seat to move.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The stones in a seat's prison (Kiothi; zero in the other games).
    #[inline]
    pub fn prison(&self, side: Side) -> u16 {
        self.prisons[side.index()]
    }

    /// Both prisons, South's then North's (Kiothi; zeros in the other games).
    #[inline]
    pub fn prisons(&self) -> [u16; 2] {
        self.prisons
    }

    /// Kiothi: whether the opening redistribution (plies 1-2) is still to come.
    #[inline]
    pub fn opening(&self) -> bool {
        self.opening
    }

    /// The captures a seat has made since the start or the set-up (Tsoro's graded bonus
    /// counts them).
    #[inline]
    pub fn captures(&self, side: Side) -> u16 {
        self.captures[side.index()]
    }

    /// Puts a number of stones in a pit, for the layouts `initial` and `from_setup`
    /// build and the rules core's own changes.
    pub(crate) fn set(&mut self, pit: Pit, stones: u16) {
        let i = self.board.index(pit);
        self.pits[i] = stones;
    }

    /// Stones per pit indexed by [`Board::index`], entries past the board zero: the
    /// rules core's index-based loops read the whole array.
    #[inline]
    pub(crate) fn pits(&self) -> &[u16; MAX_PITS] {
        &self.pits
    }

    /// The pit array for the rules core's sowings, captures and bonus takes, which keep
    /// the entries past the board zero.
    #[inline]
    pub(crate) fn pits_mut(&mut self) -> &mut [u16; MAX_PITS] {
        &mut self.pits
    }

    /// The turn passes to the other seat.
    #[inline]
    pub(crate) fn pass_turn(&mut self) {
        self.side = self.side.opponent();
    }

    /// A seat makes one more capture.
    #[inline]
    pub(crate) fn count_capture(&mut self, side: Side) {
        let n = &mut self.captures[side.index()];
        *n = n.saturating_add(1);
    }

    /// Both seats' capture counts, to be given back by `restore_captures` when a ply is
    /// undone.
    #[inline]
    pub(crate) fn capture_counts(&self) -> [u16; 2] {
        self.captures
    }

    #[inline]
    pub(crate) fn restore_captures(&mut self, captures: [u16; 2]) {
        self.captures = captures;
    }

    /// Kiothi: stones put in a seat's prison.
    #[inline]
    pub(crate) fn imprison(&mut self, side: Side, stones: u16) {
        let prison = &mut self.prisons[side.index()];
        *prison = prison.saturating_add(stones);
    }

    /// Kiothi: the opening redistribution is over.
    #[inline]
    pub(crate) fn end_opening(&mut self) {
        self.opening = false;
    }

    /// Kiothi's nki marks, one bit per pit index.
    #[inline]
    pub(crate) fn nki_marks(&self) -> u64 {
        self.nki
    }

    #[inline]
    pub(crate) fn set_nki_marks(&mut self, nki: u64) {
        self.nki = nki;
    }

    /// The pits in use, indexed by [`Board::index`].
    pub fn board_pits(&self) -> &[u16] {
        &self.pits[..self.board.len()]
    }

    /// Whether a pit is marked nki. Only Kiothi's 20 pits can be; on larger boards
    /// (which have no nki) every pit past the 64th is simply unmarked.
    pub fn is_nki(&self, pit: Pit) -> bool {
        let i = self.board.index(pit);
        i < 64 && self.nki & (1u64 << i) != 0
    }

    /// Marks or unmarks a pit nki. Marking a pit past the 64th is ignored: only
    /// Kiothi's board has nki pits.
    pub(crate) fn set_nki(&mut self, pit: Pit, nki: bool) {
        let i = self.board.index(pit);
        if i >= 64 {
            return;
        }
        let bit = 1u64 << i;
        if nki {
            self.nki |= bit;
        } else {
            self.nki &= !bit;
        }
    }

    /// Stones on a seat's side of the board.
    pub fn stones_of(&self, side: Side) -> u32 {
        // A seat's rows are one run of the pit array: summed in order, which vectorises.
        (self.pits[self.board.indices_of(side)].iter())
            .map(|&s| s as u32)
            .sum()
    }

    /// Stones on the whole board.
    pub fn stones_on_board(&self) -> u32 {
        self.board_pits().iter().map(|&s| s as u32).sum()
    }

    /// Whether two positions are the same for the repetition rules: board, side to move,
    /// and (Kiothi) prisons, nki marks and phase; capture counts are not compared.
    pub fn same_for_repetition(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.board_pits() == other.board_pits()
            && self.prisons == other.prisons
            && self.nki == other.nki
            && self.opening == other.opening
    }

    /// Builds a position from an unchecked setup, checking it against the rules: the
    /// board's shape and what each game forbids outright (PMN.md: a set-up is evidence,
    /// so its stone total is not checked here; see [`Position::total_unlike_start`]).
    pub fn from_setup(rules: &Rules, setup: &Setup) -> Result<Position, SetupError> {
        let board = rules.board();
        let game = rules.game();
        if setup.rows.len() != board.rows() as usize {
            return Err(SetupError::RowCount {
                found: setup.rows.len(),
                expected: board.rows() as usize,
                board,
            });
        }
        let mut pos = Position::empty(board, setup.side);
        // Rows are listed top to bottom as South sees them: d, c, b, a (Kiothi b, a).
        for (i, row) in setup.rows.iter().enumerate() {
            let row_index = board.rows() - 1 - i as u8;
            if row.len() != board.cols() as usize {
                return Err(SetupError::ColumnCount {
                    row: Pit::new(row_index, 1).row_letter(),
                    found: row.len(),
                    expected: board.cols() as usize,
                });
            }
            for (c, cell) in row.iter().enumerate() {
                let pit = Pit::new(row_index, c as u8 + 1);
                if cell.nki && game != Game::Kiothi {
                    return Err(SetupError::NkiOutsideKiothi { pit });
                }
                if game == Game::BaoLaKimasai && cell.stones > 1 {
                    return Err(SetupError::BaoMoreThanOne {
                        pit,
                        stones: cell.stones,
                    });
                }
                if cell.nki && cell.stones == 0 {
                    return Err(SetupError::EmptyNki { pit });
                }
                pos.set(pit, cell.stones);
                if cell.nki {
                    pos.set_nki(pit, true);
                }
            }
        }
        match (game, setup.prisons) {
            (Game::Kiothi, Some(prisons)) => pos.prisons = prisons,
            (Game::Kiothi, None) => return Err(SetupError::MissingPrisons),
            (_, Some(_)) => return Err(SetupError::PrisonsOutsideKiothi { game }),
            (_, None) => {}
        }
        if setup.opening && game != Game::Kiothi {
            return Err(SetupError::OpeningOutsideKiothi { game });
        }
        pos.opening = setup.opening;
        if pos.opening && pos.nki != 0 {
            return Err(SetupError::NkiDuringOpening);
        }
        pos.captures = setup.captures;
        let total = pos.total_stones();
        if total > u16::MAX as u32 {
            return Err(SetupError::BeyondCapacity { found: total });
        }
        Ok(pos)
    }

    /// Stones on the board and in the prisons.
    pub fn total_stones(&self) -> u32 {
        self.stones_on_board() + self.prisons.iter().map(|&p| p as u32).sum::<u32>()
    }

    /// How a set-up's stone total differs from any the rule set's start could lead to:
    /// more than the start (stones only ever leave the board), or for Kiothi any other
    /// total (no stone leaves the game). `None` when the total could be reached.
    pub fn total_unlike_start(&self, rules: &Rules) -> Option<TotalUnlikeStart> {
        let found = self.total_stones();
        let start = rules.start_stones();
        let exact = rules.game() == Game::Kiothi;
        let unlike = if exact { found != start } else { found > start };
        unlike.then_some(TotalUnlikeStart {
            game: rules.game(),
            found,
            start,
        })
    }

    /// The PMN `Position` string of this position.
    pub fn to_pmn(&self) -> String {
        self.to_string()
    }

    /// The set-up that [`Position::from_setup`] turns back into this position: the way
    /// to a position that differs from this one, checked like any other.
    pub fn setup(&self) -> Setup {
        let board = self.board;
        let kiothi = board.rows() == 2;
        let rows = (0..board.rows())
            .rev()
            .map(|row| {
                (1..=board.cols())
                    .map(|col| {
                        let pit = Pit::new(row, col);
                        SetupPit {
                            stones: self.stones(pit),
                            nki: self.is_nki(pit),
                        }
                    })
                    .collect()
            })
            .collect();
        Setup {
            rows,
            side: self.side,
            prisons: kiothi.then_some(self.prisons),
            opening: self.opening,
            captures: self.captures,
        }
    }
}

impl fmt::Display for Position {
    /// The PMN `Position` string form, byte for byte.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.board;
        let kiothi = board.rows() == 2;
        for row in (0..board.rows()).rev() {
            if row + 1 != board.rows() {
                f.write_str("/")?;
            }
            for col in 1..=board.cols() {
                if col != 1 {
                    f.write_str(",")?;
                }
                let pit = Pit::new(row, col);
                write!(f, "{}", self.stones(pit))?;
                if kiothi && self.is_nki(pit) {
                    f.write_str("*")?;
                }
            }
        }
        write!(f, " {}", self.side.letter())?;
        if kiothi {
            write!(f, " S:{} N:{}", self.prisons[0], self.prisons[1])?;
            if self.opening {
                f.write_str(" opening")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

/// One pit of a [`Setup`]: its stones and whether it is marked nki (`*`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SetupPit {
    pub stones: u16,
    pub nki: bool,
}

/// A PMN `Position` string read but not yet checked against any rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Rows top to bottom as South sees them (d, c, b, a; Kiothi b, a).
    pub rows: Vec<Vec<SetupPit>>,
    pub side: Side,
    pub prisons: Option<[u16; 2]>,
    pub opening: bool,
    /// Captures each seat made before the set-up, South's then North's (Tsoro's graded
    /// bonus counts them). The `Position` string gives none: a set-up read has `[0, 0]`.
    pub captures: [u16; 2],
}

impl Setup {
    /// A set-up of a board with no stones, no prisons and no opening.
    pub fn empty(board: Board, side: Side) -> Setup {
        let row = vec![
            SetupPit {
                stones: 0,
                nki: false
            };
            board.cols() as usize
        ];
        Setup {
            rows: vec![row; board.rows() as usize],
            side,
            prisons: (board.rows() == 2).then_some([0; 2]),
            opening: false,
            captures: [0; 2],
        }
    }

    /// A pit of the set-up, if its rows and columns reach it.
    pub fn pit_mut(&mut self, pit: Pit) -> Option<&mut SetupPit> {
        let rows = self.rows.len();
        let row = rows.checked_sub(1 + pit.row as usize)?;
        self.rows
            .get_mut(row)?
            .get_mut((pit.col as usize).checked_sub(1)?)
    }
}

/// Why a `Position` string or set-up was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("position string: {0}")]
    Syntax(String),
    #[error("the position has {found} rows; a {board} board has {expected}")]
    RowCount {
        found: usize,
        expected: usize,
        board: Board,
    },
    #[error("row {row} of the position has {found} pits; expected {expected}")]
    ColumnCount {
        row: char,
        found: usize,
        expected: usize,
    },
    #[error("pit {pit} holds {stones} stones; in Bao la Kimasai no pit holds more than one")]
    BaoMoreThanOne { pit: Pit, stones: u16 },
    #[error("pit {pit} is marked nki (*), but only Kiothi has nki pits")]
    NkiOutsideKiothi { pit: Pit },
    #[error("pit {pit} is marked nki (*) but holds no stones")]
    EmptyNki { pit: Pit },
    #[error("a Kiothi position must give the prisons, as `S:n N:m`")]
    MissingPrisons,
    #[error("{game} has no prisons; only Kiothi positions give `S:n N:m`")]
    PrisonsOutsideKiothi { game: Game },
    #[error("{game} has no opening phase; only Kiothi positions end with `opening`")]
    OpeningOutsideKiothi { game: Game },
    #[error("no pit is nki before the opening redistribution is over")]
    NkiDuringOpening,
    #[error("the position holds {found} stones; sow holds at most 65535 in a position")]
    BeyondCapacity { found: u32 },
}

/// A set-up whose stone total no game under its rules could reach from the start: a
/// warning, never an error (PMN.md: a set-up is evidence).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TotalUnlikeStart {
    pub game: Game,
    /// Stones on the board and in the prisons.
    pub found: u32,
    /// Stones the rule set's start holds.
    pub start: u32,
}

impl fmt::Display for TotalUnlikeStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let TotalUnlikeStart { game, found, start } = *self;
        let stones = if found == 1 { "stone" } else { "stones" };
        if game == Game::Kiothi {
            write!(
                f,
                "the set-up holds {found} {stones} (board and prisons); {game} under these rules starts with {start}, and no stone ever leaves the game"
            )
        } else {
            write!(
                f,
                "the set-up holds {found} {stones}; {game} under these rules starts with only {start}, and stones only ever leave the board"
            )
        }
    }
}

impl std::str::FromStr for Setup {
    type Err = SetupError;

    /// Reads a PMN `Position` string: rows separated by `/`, counts by `,`, a space and
    /// the side to move; Kiothi adds ` S:n N:m`, `*` after nki counts and ` opening`.
    fn from_str(s: &str) -> Result<Setup, SetupError> {
        let syntax = |msg: String| SetupError::Syntax(msg);
        let mut words = s.split_whitespace();
        let rows_word = words
            .next()
            .ok_or_else(|| syntax("the position string is empty".into()))?;
        let mut rows = Vec::new();
        for row in rows_word.split('/') {
            let mut cells = Vec::new();
            for cell in row.split(',') {
                let (digits, nki) = match cell.strip_suffix('*') {
                    Some(d) => (d, true),
                    None => (cell, false),
                };
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(syntax(format!(
                        "{cell:?} is not a stone count (digits, optionally followed by *)"
                    )));
                }
                let stones = digits
                    .parse::<u16>()
                    .map_err(|_| syntax(format!("stone count {digits} is too large")))?;
                cells.push(SetupPit { stones, nki });
            }
            rows.push(cells);
        }
        let side = match words.next() {
            Some("S") => Side::South,
            Some("N") => Side::North,
            Some(other) => {
                return Err(syntax(format!(
                    "expected the side to move, S or N, found {other:?}"
                )))
            }
            None => return Err(syntax("the side to move (S or N) is missing".into())),
        };
        let mut prisons = None;
        let mut opening = false;
        let rest: Vec<&str> = words.collect();
        let mut i = 0;
        if let Some(first) = rest.first() {
            if let Some(south) = first.strip_prefix("S:") {
                let north = rest
                    .get(1)
                    .and_then(|w| w.strip_prefix("N:"))
                    .ok_or_else(|| syntax("expected `N:m` after `S:n`".into()))?;
                let parse = |v: &str| {
                    v.parse::<u16>()
                        .map_err(|_| syntax(format!("{v:?} is not a prison count")))
                };
                prisons = Some([parse(south)?, parse(north)?]);
                i = 2;
            }
        }
        if rest.get(i) == Some(&"opening") {
            opening = true;
            i += 1;
        }
        if let Some(extra) = rest.get(i) {
            return Err(syntax(format!("unexpected {extra:?} at the end")));
        }
        Ok(Setup {
            rows,
            side,
            prisons,
            opening,
            captures: [0; 2],
        })
    }
}

impl Position {
    /// Parses and checks a PMN `Position` string under a rule set.
    pub fn parse(rules: &Rules, s: &str) -> Result<Position, SetupError> {
        Position::from_setup(rules, &s.parse()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    /// `clone_from` copies only a board's pits: a copy into a position of a larger or a
    /// smaller board is still the source, equal to it and hashed alike.
    #[test]
    fn clone_from_between_boards_gives_the_source() {
        let wide = Rules::new(Game::Nsolo, Board::new(4, 36), "").unwrap();
        let narrow = Rules::default_for(Game::Kiothi);
        let (wide, narrow) = (Position::initial(&wide), Position::initial(&narrow));
        for (source, into) in [(&wide, &narrow), (&narrow, &wide), (&wide, &wide)] {
            let mut copy = into.clone();
            copy.clone_from(source);
            assert!(copy == *source, "{source}");
            assert_eq!(copy.to_string(), source.to_string());
            assert_eq!(
                crate::repetition::hash(&copy),
                crate::repetition::hash(source)
            );
        }
    }

    #[test]
    fn initial_positions_print_as_pmn() {
        let tsoro = Rules::new(Game::Tsoro, Board::new(4, 6), "").unwrap();
        assert_eq!(
            Position::initial(&tsoro).to_string(),
            "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 S"
        );
        let kiothi = Rules::default_for(Game::Kiothi);
        assert_eq!(
            Position::initial(&kiothi).to_string(),
            "5,5,5,5,5,5,0,0,0,0/0,0,0,0,5,5,5,5,5,5 S S:0 N:0 opening"
        );
        let bao = Rules::default_for(Game::BaoLaKimasai);
        assert_eq!(
            Position::initial(&bao).to_string(),
            "1,1,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,0/0,1,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,1 S"
        );
        let nsolo = Rules::default_for(Game::Nsolo);
        assert_eq!(
            Position::initial(&nsolo).to_string(),
            "2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/2,2,2,2,2,2,2,0/2,2,2,2,2,2,2,2 S"
        );
    }

    #[test]
    fn tsoro_single_head_starts_with_three_stones() {
        let r = Rules::new(Game::Tsoro, Board::new(4, 6), "heads=1").unwrap();
        assert_eq!(
            Position::initial(&r).to_string(),
            "3,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,3 S"
        );
    }

    #[test]
    fn position_strings_round_trip() {
        let r = Rules::default_for(Game::Kiothi);
        let s = "0,3*,0,0,0,0,0,0,0,0/1,1,0,1,0,0,0,0,0,0 N S:18 N:29";
        // 6 + 47 = 53, not 60: a set-up is evidence, so it is a position all the same.
        let unlike = Position::parse(&r, s).unwrap();
        assert_eq!(unlike.to_string(), s);
        assert_eq!(
            unlike.total_unlike_start(&r),
            Some(TotalUnlikeStart {
                game: Game::Kiothi,
                found: 53,
                start: 60
            })
        );
        let s = "0,3*,0,0,0,0,0,0,0,0/1,1,0,1,0,0,0,0,0,0 N S:25 N:29";
        let reachable = Position::parse(&r, s).unwrap();
        assert_eq!(reachable.to_string(), s);
        assert_eq!(reachable.total_unlike_start(&r), None);
    }

    #[test]
    fn a_position_comes_back_from_its_setup() {
        for game in [Game::Tsoro, Game::Nsolo, Game::Kiothi, Game::BaoLaKimasai] {
            let rules = Rules::default_for(game);
            let start = Position::initial(&rules);
            assert_eq!(Position::from_setup(&rules, &start.setup()), Ok(start));
        }
        let kiothi = Rules::default_for(Game::Kiothi);
        let s = "0,3*,0,0,0,0,0,0,0,0/1,1,0,1,0,0,0,0,0,0 N S:18 N:29";
        let pos = Position::parse(&kiothi, s).unwrap();
        assert_eq!(Position::from_setup(&kiothi, &pos.setup()), Ok(pos));
        let tsoro = Rules::default_for(Game::Tsoro);
        let mut setup = Position::initial(&tsoro).setup();
        setup.captures = [4, 1];
        let pos = Position::from_setup(&tsoro, &setup).unwrap();
        assert_eq!(
            (pos.captures(Side::South), pos.captures(Side::North)),
            (4, 1)
        );
        assert_eq!(pos.setup(), setup);
    }

    #[test]
    fn setups_are_checked() {
        let bao = Rules::default_for(Game::BaoLaKimasai);
        let two = "2,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0 S";
        assert!(matches!(
            Position::parse(&bao, two),
            Err(SetupError::BaoMoreThanOne { .. })
        ));
        let tsoro = Rules::new(Game::Tsoro, Board::new(4, 6), "").unwrap();
        assert!(matches!(
            Position::parse(&tsoro, "2,2,2/2,2,2 S"),
            Err(SetupError::ColumnCount { .. } | SetupError::RowCount { .. })
        ));
        // More stones than the start: a position, with a total no game could reach.
        let more = Position::parse(&tsoro, "9,9,9,9,9,9/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 S");
        let found = more
            .unwrap()
            .total_unlike_start(&tsoro)
            .map(|t| (t.found, t.start));
        assert_eq!(found, Some((66, 24)));
        let fewer = Position::parse(&tsoro, "2,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 S");
        assert_eq!(fewer.unwrap().total_unlike_start(&tsoro), None);
        assert!(matches!(
            Position::parse(
                &tsoro,
                "65535,1,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0 S"
            ),
            Err(SetupError::BeyondCapacity { found: 65536 })
        ));
        assert!(
            Position::parse(&tsoro, "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 X").is_err()
        );
        assert!(
            Position::parse(&tsoro, "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,x S").is_err()
        );
    }
}

#[cfg(test)]
mod total_tests {
    use super::*;

    #[test]
    fn the_set_up_total_warning_names_both_totals_in_words() {
        let kiothi = Rules::default_for(Game::Kiothi);
        let one = Position::parse(&kiothi, "1,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0 S S:0 N:0");
        assert_eq!(
            one.unwrap()
                .total_unlike_start(&kiothi)
                .unwrap()
                .to_string(),
            "the set-up holds 1 stone (board and prisons); Kiothi under these rules starts \
             with 60, and no stone ever leaves the game"
        );
    }
}

#[cfg(test)]
mod large_board_tests {
    use super::*;
    use crate::rules::Game;

    /// Set-ups parse on boards of more than 64 pits (Nsolo 4x17 and up, Tsoro 4x18 and
    /// 4x21), where nki bits set for every pit would overflow the shift.
    #[test]
    fn setups_of_boards_over_64_pits_parse() {
        let rules = Rules::new(Game::Tsoro, Board::new(4, 21), "").unwrap();
        let start = Position::initial(&rules);
        let again = Position::parse(&rules, &start.to_string()).unwrap();
        assert_eq!(again, start);
        assert!(!again.is_nki(Pit::new(3, 21)));
    }
}
