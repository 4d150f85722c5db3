//! The repetition rule (RULES.md, Nsolo and Bao la Kimasai): the same position for the
//! `repeat`-th time since the last capture is a draw; the start (or set-up) position
//! counts as its first occurrence.
//!
//! A position is what the rule compares ([`Position::same_for_repetition`]): the stones
//! of every pit and the side to move, and (Kiothi) the prisons, the nki marks and the
//! opening. A ply that takes stones (a capture or a bonus) clears the count: stones only
//! leave the board, so no position before it can recur.
//!
//! The table counts each position under its [`hash`], computed from the position alone:
//! positions the rule calls the same have the same hash, so a position has occurred at
//! most as often as its hash. When a hash comes round for the `repeat`-th time the
//! positions are compared exactly: the table keeps the first position since the last ply
//! that took stones and the moves played since, and replays them (applying a move is
//! deterministic). A hash never decides a draw alone.
//!
//! The hash is a sum of a term of the side to move and a term of each seat's pits. A ply
//! that takes no stones moves stones only round the mover's own rows (Nsolo's sowing, Bao
//! la Kimasai's step), so the table follows the hash by the mover's term alone; a ply
//! that takes stones, or is played under `[%foul]`, has every term computed anew.

use crate::games;
use crate::geometry::{Side, MAX_PITS};
use crate::moves::{Effect, Mode, Move};
use crate::position::Position;
use crate::rules::Rules;

/// The count of the positions since the last ply that took stones.
#[derive(Clone, Debug)]
pub struct Repetitions {
    /// The occurrence that draws.
    repeat: u32,
    /// The terms of South's and North's pits in the hash of the last position.
    seats: [u64; 2],
    /// The position after the last ply that took stones (or the start).
    since: Position,
    /// The moves played from `since`, each with its mode: the positions counted are
    /// `since` and the one after each. The first `held` are the log; those past it are
    /// kept from before the last capture, to be copied into.
    moves: Vec<(Move, Mode)>,
    held: usize,
    /// Open addressing: a slot is in use when its stamp is the table's, so a capture
    /// empties the table by taking the next stamp.
    slots: Vec<Slot>,
    stamp: u32,
    /// Slots in use.
    used: usize,
}

#[derive(Copy, Clone, Debug, Default)]
struct Slot {
    hash: u64,
    stamp: u32,
    /// Occurrences of the positions of this hash.
    count: u32,
}

/// The hash of a position under the repetition rule: of its pits and the side to move,
/// so equal positions have equal hashes (the prisons, nki marks and opening, which only
/// Kiothi has, are left to the exact comparison).
pub fn hash(pos: &Position) -> u64 {
    side_term(pos)
        .wrapping_add(seat_term(pos, Side::South).wrapping_add(seat_term(pos, Side::North)))
}

/// The term of the side to move.
fn side_term(pos: &Position) -> u64 {
    mix(pos.side() as u64, PLACES[0])
}

/// The term of a seat's pits (the first half of the pit array is South's).
///
/// Eight pits at a time, as two words of four, are mixed by a multiplication of the two
/// words (the high and low halves of the product folded together), each word first offset
/// by a constant of its place so that the same stones in two places count apart. The
/// terms are gathered by a rotation and a sum, which keeps the loop one multiplication an
/// eight of pits (a plain sum is turned into vector shuffles around the multiplications).
fn seat_term(pos: &Position, seat: Side) -> u64 {
    let all = pos.board_pits();
    let half = all.len() / 2;
    let (pits, places) = match seat {
        Side::South => (&all[..half], &PLACES[1..1 + SEAT_WORDS]),
        Side::North => (&all[half..], &PLACES[1 + SEAT_WORDS..]),
    };
    let eights = pits.chunks_exact(8);
    let rest = eights.remainder();
    let mut term = 0u64;
    for (eight, places) in eights.zip(places.chunks_exact(2)) {
        let mixed = mix(
            four_pits(&eight[..4]) ^ places[0],
            four_pits(&eight[4..]) ^ places[1],
        );
        term = term.rotate_left(1).wrapping_add(mixed);
    }
    if !rest.is_empty() {
        // The last one to seven pits, the missing ones empty.
        let pit = |i: usize| rest.get(i).copied().unwrap_or(0);
        let places = &places[2 * (pits.len() / 8)..];
        let low = four_pits(&[pit(0), pit(1), pit(2), pit(3)]);
        let high = four_pits(&[pit(4), pit(5), pit(6), 0]);
        let mixed = mix(low ^ places[0], high ^ places[1]);
        term = term.rotate_left(1).wrapping_add(mixed);
    }
    term
}

/// Four pits in a word, the first in the low bits.
#[inline(always)]
fn four_pits(four: &[u16]) -> u64 {
    four[0] as u64 | (four[1] as u64) << 16 | (four[2] as u64) << 32 | (four[3] as u64) << 48
}

/// The folded multiplication of two words.
#[inline(always)]
fn mix(a: u64, b: u64) -> u64 {
    let product = a as u128 * b as u128;
    (product as u64) ^ (product >> 64) as u64
}

/// Words of four pits in a seat's half of the widest board.
const SEAT_WORDS: usize = MAX_PITS / 8;

/// The constants of the places: one for the side to move, then one for each word of four
/// pits of South's half of the widest board, then of North's.
const PLACES: [u64; 1 + 2 * SEAT_WORDS] = {
    let mut places = [0; 1 + 2 * SEAT_WORDS];
    // A splitmix64 sequence: distinct, well spread, odd-or-even alike.
    let mut state: u64 = 0x243f_6a88_85a3_08d3;
    let mut i = 0;
    while i < places.len() {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        places[i] = z ^ (z >> 31);
        i += 1;
    }
    places
};

impl Repetitions {
    /// The table of a game of `rules` from `start`, which is its first occurrence;
    /// `None` when the game has no repetition rule.
    pub fn new(rules: &Rules, start: &Position) -> Option<Repetitions> {
        Repetitions::reusing(rules, start, &mut None)
    }

    /// [`Repetitions::new`] in the room of `spare`, a table of an earlier game, taken
    /// when the game has the rule: its slots and log are kept, their contents forgotten.
    pub fn reusing(
        rules: &Rules,
        start: &Position,
        spare: &mut Option<Repetitions>,
    ) -> Option<Repetitions> {
        let repeat = rules.repeat()?;
        if let Some(mut table) = spare.take() {
            table.repeat = repeat;
            table.seats = [Side::South, Side::North].map(|seat| seat_term(start, seat));
            table.clear(start);
            table.count(hash(start));
            return Some(table);
        }
        let mut table = Repetitions {
            repeat,
            seats: [Side::South, Side::North].map(|seat| seat_term(start, seat)),
            since: start.clone(),
            moves: Vec::new(),
            held: 0,
            slots: vec![Slot::default(); 64],
            stamp: 1,
            used: 0,
        };
        table.count(hash(start));
        Some(table)
    }

    /// Whether the table's room is that of a usual game (a few thousand positions), worth
    /// keeping for the next.
    pub fn is_small(&self) -> bool {
        self.slots.len() <= 1 << 12 && self.moves.capacity() <= 1 << 11
    }

    /// Counts the position `pos` that a ply of `mv` under `mode` left, which did
    /// `effect`; true when the position has now occurred `repeat` times since the last
    /// ply that took stones: a draw.
    // Inlined into the game's ply: a call a ply less.
    #[inline(always)]
    pub fn after_ply(
        &mut self,
        rules: &Rules,
        pos: &Position,
        mv: &Move,
        mode: Mode,
        effect: &Effect,
    ) -> bool {
        let took = effect.is_capture() || !effect.bonus.is_empty();
        if took {
            self.clear(pos);
        } else {
            self.log(mv, mode);
        }
        match mv {
            Move::Sow(sowing) if !took && mode == Mode::Legal => {
                let mover = pos.board().owner(sowing.from);
                self.seats[mover.index()] = seat_term(pos, mover);
            }
            _ => self.seats = [Side::South, Side::North].map(|seat| seat_term(pos, seat)),
        }
        let hash = side_term(pos).wrapping_add(self.seats[0].wrapping_add(self.seats[1]));
        debug_assert_eq!(hash, self::hash(pos), "the hash follows the position");
        self.count(hash) >= self.repeat && self.occurrences(rules, pos) >= self.repeat
    }

    /// Forgets every position: `pos`, after a ply that took stones, is the first again.
    #[cold]
    fn clear(&mut self, pos: &Position) {
        self.since.clone_from(pos);
        self.held = 0;
        self.used = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // The stamps wrapped: old slots could look in use.
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
    }

    /// Adds a move to the log, copied into a move kept from before the last capture
    /// where there is one.
    #[inline]
    fn log(&mut self, mv: &Move, mode: Mode) {
        match self.moves.get_mut(self.held) {
            Some(kept) => {
                kept.0.clone_from(mv);
                kept.1 = mode;
            }
            None => self.moves.push((mv.clone(), mode)),
        }
        self.held += 1;
    }

    /// Counts a position of this hash, and returns the occurrences of the hash.
    #[inline]
    fn count(&mut self, hash: u64) -> u32 {
        if 2 * (self.used + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = place(hash, mask);
        loop {
            let slot = &mut self.slots[i];
            if slot.stamp != self.stamp {
                *slot = Slot {
                    hash,
                    stamp: self.stamp,
                    count: 1,
                };
                self.used += 1;
                return 1;
            }
            if slot.hash == hash {
                slot.count += 1;
                return slot.count;
            }
            i = (i + 1) & mask;
        }
    }

    /// How often `pos`, the last position, occurs among the positions since the last ply
    /// that took stones, compared exactly: they are replayed from the first.
    #[cold]
    #[inline(never)]
    fn occurrences(&self, rules: &Rules, pos: &Position) -> u32 {
        let mut at = self.since.clone();
        let mut count = at.same_for_repetition(pos) as u32;
        let mut effect = Effect::default();
        for (mv, mode) in &self.moves[..self.held] {
            // Each move was played from this very position, so it plays again.
            if games::apply(rules, &mut at, mv, *mode, &mut effect).is_err() {
                debug_assert!(false, "a move replays as it was played");
                break;
            }
            count += at.same_for_repetition(pos) as u32;
        }
        count
    }

    /// Doubles the slots, placing the hashes held again.
    #[cold]
    fn grow(&mut self) {
        let size = 2 * self.slots.len();
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        let mask = size - 1;
        for slot in old.into_iter().filter(|s| s.stamp == self.stamp) {
            let mut i = place(slot.hash, mask);
            while self.slots[i].stamp == self.stamp {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }
}

/// The first slot to try for a hash: its bits spread by a multiplication, the high ones
/// taken.
fn place(hash: u64, mask: usize) -> usize {
    (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Pit;
    use crate::rng::Rng;
    use crate::rules::Game;

    fn nsolo(repeat: u32) -> (Rules, Position) {
        let rules = Rules::new(Game::Nsolo, None, &format!("repeat={repeat}")).unwrap();
        let start = Position::initial(&rules);
        (rules, start)
    }

    /// A ply from `start` that takes no stones, and the position it leaves.
    fn quiet_ply(rules: &Rules, start: &Position) -> (Move, Effect, Position) {
        let mut effect = Effect::default();
        for seed in 0.. {
            let mut pos = start.clone();
            let mv = games::play_random(rules, &mut pos, &mut Rng::new(seed), &mut effect)
                .expect("the start has a legal move");
            if !effect.is_capture() && effect.bonus.is_empty() {
                return (mv, effect, pos);
            }
        }
        unreachable!()
    }

    #[test]
    fn the_start_is_the_first_occurrence() {
        let (rules, start) = nsolo(3);
        let mut t = Repetitions::new(&rules, &start).unwrap();
        assert_eq!(t.count(hash(&start)), 2);
        assert_eq!(t.count(hash(&start)), 3);
    }

    #[test]
    fn a_ply_that_takes_stones_clears_the_count() {
        let (rules, start) = nsolo(2);
        let mut t = Repetitions::new(&rules, &start).unwrap();
        let mut effect = Effect::default();
        effect.captured.push((Pit::new(2, 1), 2));
        let mv = Move::Sow(crate::moves::Sowing::from(Pit::new(0, 1)));
        assert!(!t.after_ply(&rules, &start, &mv, Mode::Legal, &effect));
        assert_eq!(t.count(hash(&start)), 2, "counted afresh after the capture");
        assert_eq!(t.held, 0, "no move since the capture");
    }

    /// A hash that has come round `repeat` times draws only if the position itself has.
    #[test]
    fn a_hash_never_draws_alone() {
        let (rules, start) = nsolo(2);
        let (mv, effect, after) = quiet_ply(&rules, &start);
        let mut t = Repetitions::new(&rules, &start).unwrap();
        // As if another position had shared the hash of the one the ply leaves.
        t.count(hash(&after));
        assert!(!t.after_ply(&rules, &after, &mv, Mode::Legal, &effect));
        assert_eq!(t.occurrences(&rules, &after), 1);
        assert_eq!(t.occurrences(&rules, &start), 1);
    }

    /// Positions that differ in one pit, or in the side to move, hash apart on every
    /// board (a hash is a filter, but one that lets most positions through is no use).
    #[test]
    fn hashes_tell_apart_every_pit_and_the_side() {
        for cols in [8, 12, 19, 36] {
            let rules = Rules::new(Game::Nsolo, crate::geometry::Board::new(4, cols), "").unwrap();
            let start = Position::initial(&rules);
            let mut hashes = vec![hash(&start)];
            for i in 0..start.board().len() {
                for stones in [0, 1, 3] {
                    let mut pos = start.clone();
                    pos.pits_mut()[i] = stones;
                    if !pos.same_for_repetition(&start) {
                        hashes.push(hash(&pos));
                    }
                }
            }
            let mut north = start.clone();
            north.pass_turn();
            hashes.push(hash(&north));
            let n = hashes.len();
            hashes.sort();
            hashes.dedup();
            assert_eq!(hashes.len(), n, "4x{cols}");
        }
    }
}
