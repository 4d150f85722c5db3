//! The repetition rule (RULES.md, Nsolo and Bao la Kimasai): the same position for the
//! `repeat`-th time since the last capture is a draw; the start (or set-up) position
//! counts as its first occurrence.
//!
//! A position is what the rule compares ([`Position::same_for_repetition`]): the stones
//! of every pit and the side to move, and (Kiothi) the prisons, the nki marks and the
//! opening. A ply that takes stones (a capture or a bonus) clears the count: stones only
//! leave the board, so no position before it can recur.
//!
//! Each position is counted under its exact key, the words [`Key`] packs it into, so two
//! positions share a count only when they are the same. A hash of the words picks the
//! slot of the table and the words themselves decide a match (a one-word key is its own
//! hash, kept in its slot whole).
//!
//! The key and its hash follow the game ply by ply ([`Followed`]), a pure function of
//! the key before and the ply, checked against the full computation in the tests:
//! Bao la Kimasai's one-word key from the ply's step ([`Key::after_step`]), the words of
//! the other keys from the pits the ply changed, the hash being a sum of one term a word.

use crate::geometry::Board;
use crate::moves::{Effect, Move};
use crate::position::Position;
use crate::rules::{Game, Rules};

/// The count of the positions since the last ply that took stones.
#[derive(Clone, Debug)]
pub struct Repetitions {
    /// The occurrence that draws.
    repeat: u32,
    key: Key,
    /// The key of the last position.
    last: Followed,
    /// The exact keys of the distinct positions counted, one after another.
    keys: Vec<u64>,
    /// Open addressing: a slot is in use when its stamp is the table's, so a capture
    /// empties the table by taking the next stamp.
    slots: Vec<Slot>,
    stamp: u32,
    /// Slots in use.
    used: usize,
}

#[derive(Copy, Clone, Debug, Default)]
struct Slot {
    /// The hash of the key (a one-word key itself).
    tag: u64,
    stamp: u32,
    /// Occurrences of the position.
    count: u32,
    /// Where its key begins in [`Repetitions::keys`].
    at: u32,
}

/// How a position is packed into the words of its exact key.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// One word: bit i is set when pit index i holds a stone, and the side to move is the
    /// bit above the pits. Exact for Bao la Kimasai, whose pits hold at most one stone and
    /// which has no prisons, nki or opening.
    Bits,
    /// Every pit's stones in 16 bits, four pits a word, then a word of the side to move,
    /// the opening and the prisons, and a word of the nki marks.
    Stones,
}

/// The exact key of a position and its hash, followed from ply to ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Followed {
    words: Vec<u64>,
    hash: u64,
}

impl Key {
    /// The packing for positions of `rules` that follow from `start`.
    pub fn for_game(rules: &Rules, start: &Position) -> Key {
        // A Bao la Kimasai stone steps only into an empty pit, so no later position has
        // a pit of two stones either (a crowded set-up keeps the general key).
        let single = start.board_pits().iter().all(|&s| s <= 1);
        if rules.game() == Game::BaoLaKimasai && single && start.board().len() < 64 {
            Key::Bits
        } else {
            Key::Stones
        }
    }

    /// The exact key of `pos`, into `words` (emptied first).
    pub fn pack(self, pos: &Position, words: &mut Vec<u64>) {
        words.clear();
        match self {
            Key::Bits => words.push(bits(pos)),
            Key::Stones => {
                let pits = pos.board_pits();
                let four = pits.chunks_exact(4);
                let rest = four.remainder();
                words.extend(four.map(four_pits));
                if !rest.is_empty() {
                    words.push(last_pits(rest));
                }
                words.extend(beyond_pits(pos));
            }
        }
    }

    /// The hash of an exact key's words: a one-word key itself, else a sum of one term
    /// a word, so that a ply changing a few words changes a few terms.
    pub fn hash(self, words: &[u64]) -> u64 {
        match (self, words) {
            (Key::Bits, &[word]) => word,
            _ => (words.iter().enumerate()).fold(0, |h, (i, &w)| h.wrapping_add(term(i, w))),
        }
    }

    /// The [`Key::Bits`] key after a Bao la Kimasai ply of `mv` that did `effect`, from
    /// the key before it: the stone left its pit for the end pit, the captured stones
    /// left the board, and the turn passed.
    pub fn after_step(key: u64, board: Board, mv: &Move, effect: &Effect) -> u64 {
        let bit = |pit| 1u64 << board.index(pit);
        let mut key = key ^ 1 << board.len();
        if let (Move::Sow(sowing), Some(end)) = (mv, effect.end) {
            key ^= bit(sowing.from) ^ bit(end);
        }
        for &(pit, _) in &effect.captured {
            key ^= bit(pit);
        }
        key
    }
}

impl Followed {
    /// The key of `pos` packed by `key`, and its hash, computed in full.
    pub fn of(key: Key, pos: &Position) -> Followed {
        let mut words = Vec::new();
        key.pack(pos, &mut words);
        let hash = key.hash(&words);
        Followed { words, hash }
    }

    /// The words of the exact key.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Follows a ply of `mv` that did `effect` and left `pos`: [`Key::Bits`] from the
    /// step, [`Key::Stones`] word by word, the hash changing by the terms of the words
    /// that differ (a quiet ply changes only the mover's rows and the side to move).
    #[inline]
    pub fn after_ply(&mut self, key: Key, pos: &Position, mv: &Move, effect: &Effect) {
        match key {
            Key::Bits => {
                let word = Key::after_step(self.words[0], pos.board(), mv, effect);
                self.words[0] = word;
                self.hash = word;
            }
            Key::Stones => {
                let pits = pos.board_pits();
                let four = pits.chunks_exact(4);
                let rest = four.remainder();
                let mut hash = self.hash;
                let mut follow = |i: usize, word: &mut u64, new: u64| {
                    if *word != new {
                        hash = hash.wrapping_sub(term(i, *word)).wrapping_add(term(i, new));
                        *word = new;
                    }
                };
                let beyond_at = self.words.len() - 2;
                let (board_words, beyond) = self.words.split_at_mut(beyond_at);
                for (i, (word, four)) in board_words.iter_mut().zip(four).enumerate() {
                    follow(i, word, four_pits(four));
                }
                let mut i = pits.len() / 4;
                if !rest.is_empty() {
                    follow(i, &mut board_words[i], last_pits(rest));
                    i += 1;
                }
                for (j, (word, new)) in beyond.iter_mut().zip(beyond_pits(pos)).enumerate() {
                    follow(i + j, word, new);
                }
                self.hash = hash;
            }
        }
    }
}

/// [`Key::Stones`]: four pits in a word, the first in the low bits.
#[inline(always)]
fn four_pits(four: &[u16]) -> u64 {
    four[0] as u64 | (four[1] as u64) << 16 | (four[2] as u64) << 32 | (four[3] as u64) << 48
}

/// [`Key::Stones`]: the last one to three pits in a word, the first in the low bits.
fn last_pits(rest: &[u16]) -> u64 {
    (rest.iter().rev()).fold(0, |word, &s| word << 16 | s as u64)
}

/// [`Key::Stones`]: the words after the pits.
#[inline(always)]
fn beyond_pits(pos: &Position) -> [u64; 2] {
    let word = pos.side() as u64
        | (pos.opening() as u64) << 1
        | (pos.prisons()[0] as u64) << 16
        | (pos.prisons()[1] as u64) << 32;
    [word, pos.nki_marks()]
}

/// [`Key::Bits`] of a position.
fn bits(pos: &Position) -> u64 {
    let pits =
        (pos.board_pits().iter().enumerate()).fold(0, |k, (i, &s)| k | ((s != 0) as u64) << i);
    pits | (pos.side() as u64) << pos.board().len()
}

/// The term of the `i`-th word of a key in its hash: the word mixed with its place, so
/// that the same word in two places counts apart, and spread by a multiplication.
#[inline(always)]
fn term(i: usize, word: u64) -> u64 {
    let x =
        (word ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ x >> 29
}

impl Repetitions {
    /// The table of a game of `rules` from `start`, which is its first occurrence;
    /// `None` when the game has no repetition rule.
    pub fn new(rules: &Rules, start: &Position) -> Option<Repetitions> {
        let repeat = rules.repeat()?;
        let key = Key::for_game(rules, start);
        let mut table = Repetitions {
            repeat,
            key,
            last: Followed::of(key, start),
            keys: Vec::new(),
            slots: vec![Slot::default(); 64],
            stamp: 1,
            used: 0,
        };
        table.count();
        Some(table)
    }

    /// Counts the position a ply of `mv` left, `pos`, which did `effect`; true when it
    /// has now occurred `repeat` times since the last ply that took stones: a draw.
    #[inline]
    pub fn after_ply(&mut self, pos: &Position, mv: &Move, effect: &Effect) -> bool {
        if effect.is_capture() || !effect.bonus.is_empty() {
            self.clear();
        }
        self.last.after_ply(self.key, pos, mv, effect);
        debug_assert!(
            self.key != Key::Bits || self.last.words[0] == bits(pos),
            "the bits follow"
        );
        self.count() >= self.repeat
    }

    /// [`Repetitions::after_ply`] with the key computed in full, for tests that move a
    /// game from position to position by hand.
    #[cfg(test)]
    pub(crate) fn count_in_full(&mut self, pos: &Position, effect: &Effect) -> bool {
        if effect.is_capture() || !effect.bonus.is_empty() {
            self.clear();
        }
        self.last = Followed::of(self.key, pos);
        self.count() >= self.repeat
    }

    /// Forgets every position.
    #[cold]
    fn clear(&mut self) {
        self.keys.clear();
        self.used = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // The stamps wrapped: old slots could look in use.
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
    }

    /// Counts the last position, and returns its occurrences.
    fn count(&mut self) -> u32 {
        if 2 * (self.used + 1) > self.slots.len() {
            self.grow();
        }
        // A one-word key is its own hash: the tag alone decides a match.
        let whole = self.key == Key::Bits;
        let (tag, words) = (self.last.hash, &self.last.words[..]);
        let mask = self.slots.len() - 1;
        let mut i = place(tag, mask);
        loop {
            let slot = &mut self.slots[i];
            if slot.stamp != self.stamp {
                *slot = Slot {
                    tag,
                    stamp: self.stamp,
                    count: 1,
                    at: self.keys.len() as u32,
                };
                if !whole {
                    self.keys.extend_from_slice(words);
                }
                self.used += 1;
                return 1;
            }
            let at = slot.at as usize;
            if slot.tag == tag && (whole || self.keys[at..at + words.len()] == *words) {
                slot.count += 1;
                return slot.count;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the slots, placing the positions held again.
    #[cold]
    fn grow(&mut self) {
        let size = 2 * self.slots.len();
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        let mask = size - 1;
        for slot in old.into_iter().filter(|s| s.stamp == self.stamp) {
            let mut i = place(slot.tag, mask);
            while self.slots[i].stamp == self.stamp {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }
}

/// The first slot to try for a tag: its bits spread by a multiplication, the high ones
/// taken.
fn place(tag: u64, mask: usize) -> usize {
    (tag.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Pit, Side};

    fn table(repeat: u32) -> (Repetitions, Position) {
        let rules = Rules::new(Game::Nsolo, None, &format!("repeat={repeat}")).unwrap();
        let start = Position::initial(&rules);
        (Repetitions::new(&rules, &start).unwrap(), start)
    }

    fn count(table: &mut Repetitions, pos: &Position) -> u32 {
        table.last = Followed::of(table.key, pos);
        table.count()
    }

    #[test]
    fn the_start_is_the_first_occurrence() {
        let (mut t, start) = table(3);
        assert_eq!(count(&mut t, &start), 2);
        assert_eq!(count(&mut t, &start), 3);
    }

    #[test]
    fn positions_differing_in_one_pit_or_the_side_are_counted_apart() {
        let (mut t, start) = table(3);
        let board = start.board();
        for i in 0..board.len() {
            let mut pos = start.clone();
            pos.pits_mut()[i] += 1;
            assert_eq!(count(&mut t, &pos), 1, "pit {}", board.pit(i));
        }
        let mut north = start.clone();
        north.pass_turn();
        assert_eq!(count(&mut t, &north), 1);
        let mut prisons = start.clone();
        prisons.imprison(Side::North, 1);
        assert_eq!(count(&mut t, &prisons), 1);
        let mut nki = start.clone();
        nki.set_nki_marks(1);
        assert_eq!(count(&mut t, &nki), 1);
        assert_eq!(
            count(&mut t, &start),
            2,
            "the table grew and kept its counts"
        );
    }

    #[test]
    fn a_ply_that_takes_stones_clears_the_count() {
        let (mut t, start) = table(2);
        let mut effect = Effect::default();
        effect.captured.push((Pit::new(2, 1), 2));
        let mv = Move::Sow(crate::moves::Sowing::from(Pit::new(0, 1)));
        assert!(!t.after_ply(&start, &mv, &effect), "counted afresh");
        effect.captured.clear();
        assert!(
            t.after_ply(&start, &mv, &effect),
            "the second occurrence draws"
        );
    }
}
