//! The rules of the four games, one module each, behind one set of functions.
//!
//! Each module is a short transcription of its section of RULES.md and exposes the same
//! four functions, which this module dispatches to by [`Game`]:
//!
//! - `apply(rules, pos, mv, mode, effect)`: apply a move, filling `effect`; on `Err` the
//!   position is unchanged. On success the side to move has passed to the opponent.
//! - `legal_moves(rules, pos, out)`: every legal move, with bonus choices described
//!   compactly ([`Candidate`]).
//! - `has_legal_move(rules, pos)`: whether the side to move can move at all.
//! - `play_random(rules, pos, rng, effect)`: play one legal move chosen at random (for
//!   playouts and `sow generate`), returning it, or `None` (position unchanged) when
//!   there is no legal move.

pub mod bao;
pub mod kiothi;
pub mod nsolo;
pub mod tsoro;

use crate::moves::{Candidate, Effect, Illegal, Mode, Move};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{Game, Rules};

/// A broken rule: an error, or under [`Mode::Foul`] (when the move can still be executed
/// as written) a foul noted in the effect.
pub(crate) fn breach(mode: Mode, effect: &mut Effect, rule: Illegal) -> Result<(), Illegal> {
    if mode == Mode::Foul && rule.executable() {
        effect.fouls.push(rule);
        Ok(())
    } else {
        Err(rule)
    }
}

/// Undoes a failed ply of a game whose sowing touches only the mover's rows (Tsoro):
/// those rows (the pit range `own`) get back their stones from `saved`, and the
/// opponent's pits what [`give_back`] gives them.
pub(crate) fn undo_sowing(
    rules: &Rules,
    pits: &mut [u16],
    own: std::ops::Range<usize>,
    saved: &[u16],
    effect: &Effect,
) {
    pits[own.clone()].copy_from_slice(&saved[..own.len()]);
    give_back(rules, pits, effect);
}

/// Gives the opponent's pits back the stones the effect lists as captured and taken as
/// bonus (always the opponent's: taking from another pit is never a foul, so never
/// executed), undoing a failed ply of a game whose sowing touches only the mover's rows
/// (Tsoro, Nsolo).
pub(crate) fn give_back(rules: &Rules, pits: &mut [u16], effect: &Effect) {
    let board = rules.board();
    for &(pit, stones) in effect.captured.iter().chain(&effect.bonus) {
        pits[board.index(pit)] += stones;
    }
}

/// Applies a move to a position under a rule set. On `Err` the position is unchanged.
pub fn apply(
    rules: &Rules,
    pos: &mut Position,
    mv: &Move,
    mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    effect.clear();
    match rules.game() {
        Game::Tsoro => tsoro::apply(rules, pos, mv, mode, effect),
        Game::Nsolo => nsolo::apply(rules, pos, mv, mode, effect),
        Game::Kiothi => kiothi::apply(rules, pos, mv, mode, effect),
        Game::BaoLaKimasai => bao::apply(rules, pos, mv, mode, effect),
    }
}

/// Whether any of `pits` holds two stones or more: the test of Tsoro's and Nsolo's
/// singleton rule, run on every singleton ply (most plies of a long game). A pit holds
/// two or more exactly when a bit above the lowest is set, so the pits are OR-ed
/// together, which vectorises, where `any(|&s| s >= 2)` went pit by pit.
#[inline(always)]
pub(crate) fn any_multiple(pits: &[u16]) -> bool {
    // A seat of the widest board, two rows of 36, is the long case: with its length
    // known the fold unrolls, without the loop's set-up for any length.
    if let Ok(seat) = <&[u16; 72]>::try_from(pits) {
        return seat.iter().fold(0, |bits, &s| bits | s) & !1 != 0;
    }
    pits.iter().fold(0, |bits, &s| bits | s) & !1 != 0
}

/// Where legal move generation puts its candidates: a list of them, or a count of the
/// plies they stand for, which builds none (a bonus's eligible pits are not gathered).
pub(crate) trait Candidates {
    /// Takes a candidate standing for `plies` plies ([`Candidate::plies`]), which `make`
    /// builds.
    fn take(&mut self, plies: u64, make: impl FnOnce() -> Candidate);

    /// Takes `count` candidates of one ply each, which `each` hands over one by one
    /// ([`Candidates::take`]): a count takes the number without the candidates.
    fn take_singles(&mut self, count: u64, each: impl FnOnce(&mut Self));

    /// Takes a candidate of one ply if the move is legal: a count asks `legal`, a
    /// listing has `make` build the candidate, `None` when the move is not legal (the
    /// two must agree).
    fn take_if(&mut self, legal: impl FnOnce() -> bool, make: impl FnOnce() -> Option<Candidate>);
}

impl Candidates for Vec<Candidate> {
    #[inline]
    fn take(&mut self, _: u64, make: impl FnOnce() -> Candidate) {
        self.push(make());
    }

    #[inline]
    fn take_singles(&mut self, _: u64, each: impl FnOnce(&mut Self)) {
        each(self);
    }

    #[inline]
    fn take_if(&mut self, _: impl FnOnce() -> bool, make: impl FnOnce() -> Option<Candidate>) {
        self.extend(make());
    }
}

/// The plies of the candidates taken.
struct PlyCount(u64);

impl Candidates for PlyCount {
    #[inline]
    fn take(&mut self, plies: u64, _: impl FnOnce() -> Candidate) {
        self.0 += plies;
    }

    #[inline]
    fn take_singles(&mut self, count: u64, _: impl FnOnce(&mut Self)) {
        self.0 += count;
    }

    #[inline]
    fn take_if(&mut self, legal: impl FnOnce() -> bool, _: impl FnOnce() -> Option<Candidate>) {
        self.0 += legal() as u64;
    }
}

/// Every legal move of the side to move, into `out`.
fn list_into(rules: &Rules, pos: &Position, out: &mut impl Candidates) {
    match rules.game() {
        Game::Tsoro => tsoro::legal_moves(rules, pos, out),
        Game::Nsolo => nsolo::legal_moves(rules, pos, out),
        Game::Kiothi => kiothi::legal_moves(rules, pos, out),
        Game::BaoLaKimasai => bao::legal_moves(rules, pos, out),
    }
}

/// The legal moves of the side to move.
pub fn legal_moves(rules: &Rules, pos: &Position) -> Vec<Candidate> {
    let mut out = Vec::new();
    list_into(rules, pos, &mut out);
    out
}

/// The plies the legal moves of the side to move stand for, a bonus still to choose
/// counting once: the sum of [`Candidate::plies`] over [`legal_moves`], by the same
/// generation, without building the candidates.
pub fn legal_ply_count(rules: &Rules, pos: &Position) -> u64 {
    let mut count = PlyCount(0);
    list_into(rules, pos, &mut count);
    count.0
}

/// Whether the side to move has any legal move.
pub fn has_legal_move(rules: &Rules, pos: &Position) -> bool {
    match rules.game() {
        Game::Tsoro => tsoro::has_legal_move(rules, pos),
        Game::Nsolo => nsolo::has_legal_move(rules, pos),
        Game::Kiothi => kiothi::has_legal_move(rules, pos),
        Game::BaoLaKimasai => bao::has_legal_move(rules, pos),
    }
}

/// Plays one random legal move; `None` (position unchanged) when there is none.
pub fn play_random(
    rules: &Rules,
    pos: &mut Position,
    rng: &mut Rng,
    effect: &mut Effect,
) -> Option<Move> {
    effect.clear();
    match rules.game() {
        Game::Tsoro => tsoro::play_random(rules, pos, rng, effect),
        Game::Nsolo => nsolo::play_random(rules, pos, rng, effect),
        Game::Kiothi => kiothi::play_random(rules, pos, rng, effect),
        Game::BaoLaKimasai => bao::play_random(rules, pos, rng, effect),
    }
}

#[cfg(test)]
mod tests {
    use super::any_multiple;

    #[test]
    fn any_multiple_is_any_pit_of_two_or_more() {
        let cases: [&[u16]; 7] = [
            &[],
            &[0, 1, 1, 0],
            &[2],
            &[1, 3],
            &[0; 72],
            &[1; 72],
            &[4, 0],
        ];
        for pits in cases {
            assert_eq!(any_multiple(pits), pits.iter().any(|&s| s >= 2), "{pits:?}");
        }
        let mut pits = [1u16; 72];
        pits[71] = 256;
        assert!(any_multiple(&pits));
    }
}
