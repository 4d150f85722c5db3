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

use crate::geometry::Pit;
use crate::moves::{BonusChoice, Candidate, Effect, Illegal, Mode, Move, Sowing};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::sowing::{self, Next};

pub(crate) fn apply(
    rules: &Rules,
    pos: &mut Position,
    mv: &Move,
    _mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    let place = check_step(rules, pos, mv)?;
    step(rules, pos, place, effect);
    Ok(())
}

/// The mover's circuit place of a legal step's stone, or why the move is not one.
fn check_step(rules: &Rules, pos: &Position, mv: &Move) -> Result<usize, Illegal> {
    let sowing = match mv {
        Move::Sow(sowing) => sowing,
        Move::Redistribute(_) => return Err(Illegal::RedistributionNotAllowed),
    };
    if sowing.lift.is_some() || sowing.stop.is_some() || !sowing.bonus.is_empty() {
        return Err(Illegal::NotASimpleStep);
    }
    let pit = sowing.from.ok_or(Illegal::StepWithoutPit)?;
    let board = rules.board();
    if !board.contains(pit) {
        return Err(Illegal::NoSuchPit { pit });
    }
    let side = pos.side;
    let from = board.index(pit);
    let place = rules
        .circuit_place(side, from)
        .ok_or(Illegal::NotOwnPit { pit, side })?;
    match pos.pits[from] {
        0 => return Err(Illegal::EmptyPit { pit }),
        1 => {}
        stones => return Err(Illegal::CrowdedPit { pit, stones }),
    }
    let circuit = rules.circuit(side);
    let next = circuit[(place + 1) % circuit.len()] as usize;
    if pos.pits[next] != 0 {
        return Err(Illegal::StepBlocked {
            pit,
            next: board.pit(next),
        });
    }
    Ok(place)
}

/// Steps the stone at circuit `place` of the side to move into the next pit (which must
/// be empty), captures, and passes the turn.
fn step(rules: &Rules, pos: &mut Position, place: usize, effect: &mut Effect) {
    let side = pos.side;
    let board = rules.board();
    let circuit = rules.circuit(side);
    let next = circuit[(place + 1) % circuit.len()] as usize;
    // One lap of one stone into the empty next pit: the engine ends it at once and never
    // asks for a relay, since the step never lands on a stone.
    let sown = sowing::relay_sow(
        &mut pos.pits,
        board,
        circuit,
        place,
        1,
        effect,
        true,
        u64::MAX,
        |_, _| Ok(Next::Stop),
    );
    debug_assert!(matches!(sown, Ok(e) if e.pit == next && e.in_empty));
    let end = board.pit(next);
    effect.end = Some(end);
    if end.row == board.inner_row(side) {
        capture(pos, end, effect);
    }
    pos.side = side.opponent();
}

/// The stone entering inner-row pit `end` takes the opponent stone opposite, and then the
/// stone behind it (outer stones are safe otherwise).
fn capture(pos: &mut Position, end: Pit, effect: &mut Effect) {
    let board = pos.board();
    let Some(opposite) = board.opposite(end) else {
        return;
    };
    let taken = pos.get(opposite);
    if taken == 0 {
        return;
    }
    pos.set(opposite, 0);
    effect.captured.push((opposite, taken));
    if let Some(behind) = board.behind(opposite) {
        let taken = pos.get(behind);
        if taken != 0 {
            pos.set(behind, 0);
            effect.captured.push((behind, taken));
        }
    }
    let mover = pos.side.index();
    pos.captures[mover] = pos.captures[mover].saturating_add(1);
}

/// The legal steps of the side to move as a bit set over circuit places: a stone whose
/// next pit on the circuit is empty.
fn legal_places(rules: &Rules, pos: &Position) -> u64 {
    let circuit = rules.circuit(pos.side);
    let (mut stone, mut occupied) = (0u64, 0u64);
    for (place, &pit) in circuit.iter().enumerate() {
        let stones = pos.pits[pit as usize];
        stone |= ((stones == 1) as u64) << place;
        occupied |= ((stones != 0) as u64) << place;
    }
    let last = circuit.len().saturating_sub(1);
    let next_occupied = (occupied >> 1) | ((occupied & 1) << last);
    stone & !next_occupied
}

pub(crate) fn legal_moves(rules: &Rules, pos: &Position, out: &mut Vec<Candidate>) {
    let board = rules.board();
    let side = pos.side;
    let circuit = rules.circuit(side);
    let mut legal = legal_places(rules, pos);
    while legal != 0 {
        let place = legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let next = board.pit(circuit[(place + 1) % circuit.len()] as usize);
        let captures = next.row == board.inner_row(side)
            && board.opposite(next).is_some_and(|o| pos.get(o) != 0);
        out.push(Candidate {
            mv: Move::Sow(Sowing::from(board.pit(circuit[place] as usize))),
            captures,
            bonus: BonusChoice::None,
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
    let mut legal = legal_places(rules, pos);
    if legal == 0 {
        return None;
    }
    for _ in 0..rng.below(legal.count_ones() as usize) {
        legal &= legal - 1;
    }
    let place = legal.trailing_zeros() as usize;
    let from = rules.board().pit(rules.circuit(pos.side)[place] as usize);
    step(rules, pos, place, effect);
    Some(Move::Sow(Sowing::from(from)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Side;
    use crate::rules::Game;

    #[test]
    fn legal_places_wrap_round_the_circuit() {
        // South: b1 (last place) steps into a1 (first place) only if a1 is empty.
        let rules = Rules::default_for(Game::BaoLaKimasai);
        let mut pos = Position::empty(rules.board(), Side::South);
        pos.set(Pit::new(1, 1), 1);
        assert_eq!(legal_places(&rules, &pos), 1 << 23);
        pos.set(Pit::new(0, 1), 1);
        assert_eq!(legal_places(&rules, &pos), 1);
    }
}
