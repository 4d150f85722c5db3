//! Tsoro (Shona, Zimbabwe): RULES.md, its section of the same name.

use crate::moves::{Candidate, Effect, Illegal, Mode, Move};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::Rules;

pub(crate) fn apply(
    _rules: &Rules,
    _pos: &mut Position,
    _mv: &Move,
    _mode: Mode,
    _effect: &mut Effect,
) -> Result<(), Illegal> {
    Err(Illegal::ChoiceNotOffered {
        option: "any move (not written yet)",
    })
}

pub(crate) fn legal_moves(_rules: &Rules, _pos: &Position, _out: &mut Vec<Candidate>) {}

pub(crate) fn has_legal_move(_rules: &Rules, _pos: &Position) -> bool {
    false
}

pub(crate) fn play_random(
    _rules: &Rules,
    _pos: &mut Position,
    _rng: &mut Rng,
    _effect: &mut Effect,
) -> Option<Move> {
    None
}
