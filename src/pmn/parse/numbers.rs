//! Move numbers: the state of one line of play (`Frame`) that tells a move number right
//! or wrong for the ply after it, and the problems of wrong numbers.

use crate::pmn::ast::*;
use crate::pmn::problem::{Code, Problem};
use crate::pmn::visit::Visitor;

/// The reader's state of one line of play (the main line or a variation).
pub(super) struct Frame {
    /// Where the `(` is (unused for the main line).
    pub(super) open: Span,
    /// Absolute ply index (0 = South's first ply) of the next ply in this line.
    pub(super) next_ply: u64,
    /// Absolute ply index of the last ply in this line.
    pub(super) last_ply: Option<u64>,
    /// The move number before the next ply, when it is not the one that ply needs (or
    /// a move number off by one ply waits to be told, see `off_by_one`).
    wrong_number: Option<MoveNumber>,
    /// A move number one ply off the count, held until the line's next move number
    /// tells a missing or extra ply (that number fits the count moved by one ply) from
    /// a slip of the pen (it fits the count as it was).
    off_by_one: Option<OffByOne>,
    /// The place of the next ply in the line (its first ply's index, plus the plies
    /// read since), and of the last one: who plays a ply of numbered pits (see
    /// [`PitNumbers`]) follows from its place alone, whatever the move numbers say.
    /// Kept only for numbered pits.
    pub(super) place: u64,
    pub(super) last_place: Option<u64>,
}

/// A move number written one ply off the count (see `Frame::off_by_one`).
struct OffByOne {
    pub(super) number: MoveNumber,
    /// The index of the ply after it, as counted.
    index: u64,
    /// +1 when the number is one ply ahead of the count (a ply seems missing), -1 when
    /// behind (a ply seems extra).
    shift: i64,
}

impl Frame {
    /// Notes a move number just read, for the ply after it. It is told right or wrong here, where the next ply's index is already known
    /// (only a ply moves it, and the ply takes the note); it is reported when its ply
    /// comes. Then most plies find no note: a branch that nearly never goes the other
    /// way.
    #[inline(always)]
    pub(super) fn note_number(&mut self, number: u32, dots: Dots, span: impl FnOnce() -> Span) {
        let right = (u64::from(number), dots) == move_number_for(self.next_ply);
        if right && self.off_by_one.is_none() {
            self.wrong_number = None;
        } else {
            self.note_wrong_number(MoveNumber {
                number,
                dots,
                span: span(),
            });
        }
    }

    #[cold]
    #[inline(never)]
    fn note_wrong_number(&mut self, number: MoveNumber) {
        self.wrong_number = Some(number);
    }

    /// Counts a ply of this line, and reports the move number before it if it is wrong.
    #[inline(always)]
    pub(super) fn count_ply(&mut self, visitor: &mut impl Visitor) {
        let mut index = self.next_ply;
        if let Some(number) = self.wrong_number.take() {
            index = self.check_number(visitor, number, index);
        }
        self.last_ply = Some(index);
        self.next_ply = index + 1;
    }

    /// Checks the move number before the ply of index `index`, and tells the number
    /// held off by one (if any): returns the index the ply takes, moved by one ply when
    /// the numbers show a ply missing or extra before it. The first number of such a
    /// shift is reported once; the numbers after it, which fit the shift, are not.
    #[cold]
    #[inline(never)]
    fn check_number(&mut self, visitor: &mut impl Visitor, number: MoveNumber, index: u64) -> u64 {
        let written = written_index(number);
        let counted = index as i64;
        if let Some(held) = self.off_by_one.take() {
            if written == counted + held.shift {
                visitor.problem(move_number_problem(
                    held.number,
                    held.index,
                    Some(held.shift),
                ));
                return written as u64;
            }
            visitor.problem(move_number_problem(held.number, held.index, None));
        }
        if written == counted {
            return index;
        }
        if (written - counted).abs() == 1 {
            self.off_by_one = Some(OffByOne {
                number,
                index,
                shift: written - counted,
            });
        } else {
            visitor.problem(move_number_problem(number, index, None));
        }
        index
    }

    /// Ends the line: a move number held off by one, that no later number told, is
    /// reported as it is.
    pub(super) fn close(&mut self, visitor: &mut impl Visitor) {
        if let Some(held) = self.off_by_one.take() {
            visitor.problem(move_number_problem(held.number, held.index, None));
        }
    }

    pub(super) fn new(next_ply: u64, place: u64, open: Span) -> Frame {
        Frame {
            open,
            next_ply,
            last_ply: None,
            wrong_number: None,
            off_by_one: None,
            place,
            last_place: None,
        }
    }

    /// The side that plays the next ply of numbered pits, and its place taken.
    pub(super) fn take_place(&mut self) -> Side {
        let side = if self.place.is_multiple_of(2) {
            Side::South
        } else {
            Side::North
        };
        self.last_place = Some(self.place);
        self.place += 1;
        side
    }
}

/// The move number that belongs before the ply with this absolute index (0 = South's
/// first ply): `(number, dots)`.
#[inline]
pub fn move_number_for(index: u64) -> (u64, Dots) {
    let dots = if index.is_multiple_of(2) {
        Dots::One
    } else {
        Dots::Three
    };
    (index / 2 + 1, dots)
}

/// The absolute ply index a move number stands for (negative for move 0).
fn written_index(number: MoveNumber) -> i64 {
    2 * (i64::from(number.number) - 1) + i64::from(number.dots == Dots::Three)
}

/// The warning for a move number that does not fit the ply of index `index` after it;
/// `shift` says when the numbers after it show a ply missing (+1) or extra (-1) before it.
#[cold]
fn move_number_problem(number: MoveNumber, index: u64, shift: Option<i64>) -> Problem {
    let (expected, dots) = move_number_for(index);
    let write = |n: u64, d: Dots| match d {
        Dots::One => format!("{n}."),
        Dots::Three => format!("{n}..."),
    };
    let side = if dots == Dots::One { "South" } else { "North" };
    let why = match shift {
        Some(1) => {
            "; a ply seems to be missing before it (the move numbers after it count one ply more)"
        }
        Some(_) => {
            "; a ply seems to be extra before it (the move numbers after it count one ply fewer)"
        }
        None => "",
    };
    Problem::warning(
        Code::MoveNumber,
        number.span,
        format!(
            "move number `{}` does not fit: the ply after it is {side}'s ply of move {expected}, numbered `{}`{why}",
            write(number.number as u64, number.dots),
            write(expected, dots)
        ),
    )
}
