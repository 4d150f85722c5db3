//! Bao la Kimasai, four rows (Maasai, Tanzania): RULES.md, its section of the same name.
//!
//! - A move steps one own stone into the next pit of the mover's counter-clockwise
//!   circuit, and only into an empty pit: no pit ever holds more than one stone.
//! - Capture: a stone that enters the mover's inner row captures the opponent stone
//!   opposite, and the stone behind that one (the opponent's outer pit, same column).
//! - The end (no stones or no legal move: lost) and the repetition draw are found by
//!   [`GameState`](crate::GameState) from the functions here.
//!
//! `Mode::Foul` changes nothing: no broken rule of this game can be executed. A step into
//! an occupied pit would put two stones in one pit, which the game never allows, so it
//! stays an error in both modes; every other breach names no executable step at all.
//!
//! This module must not know text, records or the repetition history.

use super::Candidates;
use crate::geometry::{Pit, Side};
use crate::moves::{BonusChoice, Candidate, Effect, Illegal, Lap, Mode, Move, Sowing};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::Rules;

pub(crate) fn apply(
    rules: &Rules,
    pos: &mut Position,
    mv: &Move,
    _mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    let (from, next) = check_step(rules, pos, mv)?;
    step(pos, from, next, effect);
    Ok(())
}

/// The pit indices a legal step goes from and to, or why the move is not one.
fn check_step(rules: &Rules, pos: &Position, mv: &Move) -> Result<(usize, usize), Illegal> {
    let sowing = match mv {
        Move::Sow(sowing) => sowing,
        Move::Redistribute(_) => return Err(Illegal::RedistributionNotAllowed),
    };
    if sowing.lift.is_some() || sowing.stop.is_some() || !sowing.bonus.is_empty() {
        return Err(Illegal::NotASimpleStep);
    }
    let pit = sowing.from;
    let board = rules.board();
    if !board.contains(pit) {
        return Err(Illegal::NoSuchPit { pit });
    }
    let side = pos.side();
    // `Board::index` on the 4×12 board: a multiplication by a constant.
    let from = pit.row as usize * COLS + (pit.col as usize - 1);
    let next = next_on_circuit(side, from).ok_or(Illegal::NotOwnPit { pit, side })?;
    match pos.pits()[from] {
        0 => return Err(Illegal::EmptyPit { pit }),
        1 => {}
        stones => return Err(Illegal::CrowdedPit { pit, stones }),
    }
    if pos.pits()[next] != 0 {
        return Err(Illegal::StepBlocked {
            pit,
            next: board.pit(next),
        });
    }
    Ok((from, next))
}

/// Steps the stone in pit index `from` of the side to move into `next`, the following
/// pit of its circuit (which must be empty), captures, and passes the turn.
// Inlined into `apply` (and the playouts): a call a ply less.
#[inline(always)]
fn step(pos: &mut Position, from: usize, next: usize, effect: &mut Effect) {
    let side = pos.side();
    // One lap of one stone into an empty pit: it never relays and cannot be endless, so
    // the relay-sowing engine has nothing to do here (and would cost this hot path a
    // tenth of its time setting up cycle detection).
    let pits = pos.pits_mut();
    pits[from] = 0;
    pits[next] = 1;
    let (start, end) = (pit_at(from), pit_at(next));
    effect.push_lap(Lap {
        start,
        end,
        stones: 1,
    });
    effect.end = Some(end);
    // The 4x12 board by index (`Board::inner_row`, `opposite`, `behind`, checked by the
    // test `capture_pits_are_the_boards`): South's inner row b is indices 12..24, the
    // opposite pit (row c) a row up and the one behind it (row d) two; North's inner
    // row c is 24..36, its opposite and behind a row and two rows down.
    let (opposite, behind) = match side {
        Side::South if (COLS..2 * COLS).contains(&next) => (next + COLS, next + 2 * COLS),
        Side::North if (2 * COLS..3 * COLS).contains(&next) => (next - COLS, next - 2 * COLS),
        _ => (usize::MAX, 0),
    };
    // Outer stones are safe otherwise: only an occupied opposite pit is taken.
    if opposite != usize::MAX && pos.pits()[opposite] != 0 {
        capture(pos, opposite, behind, effect);
    }
    pos.pass_turn();
}

/// The stone entering an inner-row pit takes the opponent stones in pit index
/// `opposite` (occupied) and `behind` it.
fn capture(pos: &mut Position, opposite: usize, behind: usize, effect: &mut Effect) {
    for index in [opposite, behind] {
        let stones = std::mem::take(&mut pos.pits_mut()[index]);
        if stones != 0 {
            effect.captured.push((pit_at(index), stones));
        }
    }
    pos.count_capture(pos.side());
}

/// Pits per row and per seat: Bao la Kimasai is played on 4×12 only.
const COLS: usize = 12;
const SEAT_PITS: usize = 2 * COLS;

/// The legal steps of the side to move, as a bit set over the seat's pits in index order
/// (bit `i` is pit index `first_pit + i`): a stone whose next pit on the circuit is empty.
///
/// This runs on every ply of a playout, so it reads the seat's 24 pits four at a time.
/// A seat's circuit runs left to right along the first of its rows in index order
/// (South's `a`, North's `c`) and back right to left along the second (RULES.md,
/// "Circuits"); the test `legal_places_follow_the_circuit` holds this to the rules'
/// circuit.
fn legal_places(rules: &Rules, pos: &Position) -> u64 {
    let first = first_pit(rules, pos.side());
    let Some(pits) = pos.pits().get(first..first + SEAT_PITS) else {
        return 0;
    };
    let (mut occupied, mut crowded) = (0u64, 0u64);
    for (k, four) in pits.chunks_exact(4).enumerate() {
        let word = four[0] as u64
            | (four[1] as u64) << 16
            | (four[2] as u64) << 32
            | (four[3] as u64) << 48;
        crowded |= word & !ONES;
        occupied |= lanes(word) << (4 * k);
    }
    if crowded != 0 {
        // Only a position built by hand can hold two stones in a pit; such a stone
        // cannot step (`Illegal::CrowdedPit`), but it blocks the stone behind it.
        let (mut single, mut any) = (0u64, 0u64);
        for (i, &stones) in pits.iter().enumerate() {
            single |= ((stones == 1) as u64) << i;
            any |= ((stones != 0) as u64) << i;
        }
        return single & !next_occupied(any);
    }
    occupied & !next_occupied(occupied)
}

/// Sets bit `i` where the next pit on the circuit after bit `i`'s pit is occupied.
fn next_occupied(occupied: u64) -> u64 {
    let row = (1u64 << COLS) - 1;
    let (forth, back) = (occupied & row, occupied >> COLS & row);
    // Forth: each pit's next is the one to its right; the last one's is the back row's
    // rightmost. Back: each pit's next is the one to its left; the leftmost's is the
    // forth row's leftmost.
    let forth_next = forth >> 1 | (back >> (COLS - 1)) << (COLS - 1);
    let back_next = (back << 1 & row) | (forth & 1);
    forth_next | back_next << COLS
}

/// The pit at an index: `Board::pit` on the 4×12 board, with the division by a constant
/// (a multiplication) rather than by the board's width (a slow division, twice a ply).
fn pit_at(index: usize) -> Pit {
    Pit::new((index / COLS) as u8, (index % COLS) as u8 + 1)
}

/// `Rules::next_on_circuit` on the 4×12 board, by arithmetic rather than two table
/// look-ups: along the first of the seat's rows in index order, back along the second
/// (see [`legal_places`]; the test `next_on_circuit_is_the_rules` holds it to the rules').
/// `None` for a pit not of the seat.
fn next_on_circuit(side: Side, from: usize) -> Option<usize> {
    let first = side.index() * SEAT_PITS;
    let place = from.wrapping_sub(first);
    let next = match place {
        _ if place >= SEAT_PITS => return None,
        p if p == COLS - 1 => SEAT_PITS - 1,
        p if p == COLS => 0,
        p if p < COLS => p + 1,
        p => p - 1,
    };
    Some(first + next)
}

/// The index of the first pit of a seat's rows.
fn first_pit(rules: &Rules, side: Side) -> usize {
    rules.board().rows_of(side).start as usize * COLS
}

/// Stones 1 in every 16-bit lane.
const ONES: u64 = 0x0001_0001_0001_0001;

/// Four bits, one per 16-bit lane of `word` (lowest lane first), from each lane's
/// lowest bit: gathered into bits 48..51 by one multiplication (no two terms overlap).
fn lanes(word: u64) -> u64 {
    const GATHER: u64 = 1 << 48 | 1 << 33 | 1 << 18 | 1 << 3;
    ((word & ONES).wrapping_mul(GATHER) >> 48) & 0xf
}

/// Set bits of every byte, and the place of the k-th set bit of every byte, as tables:
/// the playout picks its move from a 24-bit set every ply, and the machine's baseline
/// has no population-count or bit-deposit instruction.
const BYTE_ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    t
};

const BYTE_SELECT: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The number of set bits of a seat's 24-bit set.
fn ones(set: u64) -> usize {
    (BYTE_ONES[(set & 0xff) as usize]
        + BYTE_ONES[(set >> 8 & 0xff) as usize]
        + BYTE_ONES[(set >> 16 & 0xff) as usize]) as usize
}

/// The place of the `k`-th (from 0) set bit of a 24-bit set with more than `k` bits set.
fn nth_set_bit(set: u64, mut k: usize) -> usize {
    let mut base = 0;
    loop {
        let byte = (set >> base & 0xff) as usize;
        let n = BYTE_ONES[byte] as usize;
        if k < n {
            return base + BYTE_SELECT[byte][k] as usize;
        }
        k -= n;
        base += 8;
    }
}

pub(crate) fn legal_moves(rules: &Rules, pos: &Position, out: &mut impl Candidates) {
    let board = rules.board();
    let side = pos.side();
    let first = first_pit(rules, side);
    let mut legal = legal_places(rules, pos);
    while legal != 0 {
        let from = first + legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let captures = rules.next_on_circuit(side, from).is_some_and(|next| {
            let next = board.pit(next);
            next.row == board.inner_row(side)
                && board.opposite(next).is_some_and(|o| pos.stones(o) != 0)
        });
        out.take(1, || {
            Candidate::single(
                Move::Sow(Sowing::from(board.pit(from))),
                captures,
                BonusChoice::None,
            )
        });
    }
}

pub(crate) fn has_legal_move(rules: &Rules, pos: &Position) -> bool {
    legal_places(rules, pos) != 0
}

pub(crate) fn play_random(
    rules: &Rules,
    pos: &mut Position,
    rng: &mut Rng,
    effect: &mut Effect,
) -> Option<Move> {
    let legal = legal_places(rules, pos);
    if legal == 0 {
        return None;
    }
    let from = first_pit(rules, pos.side()) + nth_set_bit(legal, rng.below(ones(legal)));
    let next = next_on_circuit(pos.side(), from)?;
    step(pos, from, next, effect);
    Some(Move::Sow(Sowing::from(pit_at(from))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    #[test]
    fn legal_places_follow_the_circuit() {
        // A lone stone may step; with a stone in its next pit on the circuit it may not.
        let rules = Rules::default_for(Game::BaoLaKimasai);
        for side in Side::BOTH {
            let first = first_pit(&rules, side);
            for &pit in rules.circuit(side) {
                let (pit, bit) = (pit as usize, 1 << (pit as usize - first));
                let next = rules.next_on_circuit(side, pit).unwrap();
                let mut pos = Position::empty(rules.board(), side);
                pos.pits_mut()[pit] = 1;
                assert_eq!(legal_places(&rules, &pos), bit);
                pos.pits_mut()[next] = 1;
                assert_eq!(legal_places(&rules, &pos) & bit, 0);
                pos.pits_mut()[next] = 2;
                assert_eq!(legal_places(&rules, &pos), 0, "a crowded pit blocks too");
                pos.pits_mut()[next] = 0;
                pos.pits_mut()[pit] = 2;
                assert_eq!(legal_places(&rules, &pos), 0, "a crowded pit cannot step");
            }
        }
    }

    #[test]
    fn next_on_circuit_is_the_rules() {
        let rules = Rules::default_for(Game::BaoLaKimasai);
        for side in Side::BOTH {
            assert_eq!(first_pit(&rules, side), side.index() * SEAT_PITS);
            for from in 0..rules.board().len() + 2 {
                let theirs = (from < rules.board().len())
                    .then(|| rules.next_on_circuit(side, from))
                    .flatten();
                assert_eq!(next_on_circuit(side, from), theirs, "{side:?} {from}");
            }
        }
    }

    #[test]
    fn nth_set_bit_selects_in_order() {
        for set in [1u64, 0b1011, 0xff_ffff, 0x80_0001, 0x12_3456, 0xf0_0f00] {
            let places: Vec<usize> = (0..24).filter(|&i| set >> i & 1 == 1).collect();
            assert_eq!(ones(set), places.len());
            for (k, &p) in places.iter().enumerate() {
                assert_eq!(nth_set_bit(set, k), p, "{set:#x} {k}");
            }
        }
    }

    #[test]
    fn pit_at_is_the_boards_pit() {
        let board = Rules::default_for(Game::BaoLaKimasai).board();
        for i in 0..board.len() {
            assert_eq!(pit_at(i), board.pit(i));
        }
    }

    #[test]
    fn capture_pits_are_the_boards() {
        // The indices `step` takes for the inner rows, the opposite pits and behind.
        let board = Rules::default_for(Game::BaoLaKimasai).board();
        for side in Side::BOTH {
            for i in 0..board.len() {
                let inner = board.pit(i).row == board.inner_row(side);
                let (row, shift) = match side {
                    Side::South => (COLS..2 * COLS, COLS as isize),
                    Side::North => (2 * COLS..3 * COLS, -(COLS as isize)),
                };
                assert_eq!(row.contains(&i), inner, "{side:?} {i}");
                if inner {
                    let at = |k: isize| board.pit((i as isize + k * shift) as usize);
                    let opposite = board.opposite(board.pit(i)).unwrap();
                    assert_eq!(at(1), opposite);
                    assert_eq!(Some(at(2)), board.behind(opposite));
                }
            }
        }
    }

    #[test]
    fn lanes_gathers_every_lane() {
        for bits in 0..16u64 {
            let word = (0..4).fold(0, |w, i| w | (bits >> i & 1) << (16 * i));
            assert_eq!(lanes(word), bits);
        }
    }
}
