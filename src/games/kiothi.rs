//! Kiothi (Meru, Kenya): RULES.md, its section of the same name.
//!
//! - Board 2×10: row `a` is South's, row `b` North's; `aK` is opposite `bK`. Both seats
//!   sow counter-clockwise around the whole board (a1 → a10, b10 → b1); the two prisons
//!   are never sown into.
//! - Opening (plies 1 and 2, while `pos.opening()`): the mover empties exactly two of their
//!   own occupied pits and places those stones freely, any number in any of the 20 pits,
//!   all of them. After North's redistribution every occupied pit is marked *nki*.
//! - Later moves: lift n ≥ 1 of the stones of one own pit and sow; relay on laps ending
//!   in occupied pits (either row); the move ends when a lap ends in an empty pit.
//! - First-lap restriction: the first lap must not end in an occupied pit of the mover's
//!   own row.
//! - Lifting stones from a pit (origin or relay) clears its nki mark for good; dropping
//!   stones into it does not.
//! - Capture: a move ending in an empty pit of the mover's own row takes the opposite pit
//!   if it is occupied and not nki, with the capturing stone, into the mover's prison.
//! - Leftmost bonus: ending in the mover's leftmost pit (South a1, North b10) takes the
//!   opposite pit and the next two on the mover's right (`leftmost=three`), or the
//!   unbroken run of occupied, non-nki enemy pits from the opposite one
//!   (`leftmost=chain`); when the three cannot all be taken, the ordinary capture applies.
//!
//! The end of the game (no legal move: the board goes to the other seat's prison, and
//! the prisons decide) is [`crate::play::GameState`]'s; this module only says whether a
//! move exists. It never reads text.

use super::{breach, Candidates};
use crate::geometry::{Pit, Side};
use crate::moves::{BonusChoice, Candidate, Effect, Illegal, Mode, Move, Redistribution, Sowing};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{Leftmost, Options, Rules};
use crate::sowing::{first_lap_end, relay_sow, Next};

/// Pits per row.
const COLS: usize = 10;
/// Pits on the board.
const PITS: usize = 2 * COLS;

/// A seat's own row, as pit indices (row `a` is 0..10, row `b` 10..20).
fn own_row(side: Side) -> std::ops::Range<usize> {
    side.index() * COLS..side.index() * COLS + COLS
}

fn is_own(side: Side, pit: usize) -> bool {
    own_row(side).contains(&pit)
}

fn bit(pit: usize) -> u64 {
    1u64 << pit
}

/// The leftmost pit of a seat's row, as the seat sees it: South a1, North b10.
fn leftmost(side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => PITS - 1,
    }
}

/// The enemy row in the order a leftmost capture takes it: the pit opposite the mover's
/// leftmost pit first, then on along the mover's right (South: b1, b2, ...; North: a10,
/// a9, ...).
const ENEMY_RUN: [[usize; COLS]; 2] = [
    [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];

/// The pit opposite `pit` (`aK` ↔ `bK`).
fn opposite(pit: usize) -> usize {
    (pit + COLS) % PITS
}

pub(crate) fn apply(
    rules: &Rules,
    pos: &mut Position,
    mv: &Move,
    mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    match mv {
        Move::Redistribute(r) => redistribute(pos, r, mode, effect),
        Move::Sow(s) => {
            if pos.opening() {
                return Err(Illegal::OpeningRequired);
            }
            if s.stop.is_some() {
                return Err(Illegal::ChoiceNotOffered {
                    option: "a stop at a head",
                });
            }
            if !s.bonus.is_empty() {
                return Err(Illegal::ChoiceNotOffered {
                    option: "a bonus after the capture",
                });
            }
            let from = s.from;
            let origin = own_pit(pos, from)?;
            let holds = pos.pits()[origin];
            let lift = match s.lift {
                None => holds,
                Some(0) => return Err(Illegal::LiftZero),
                Some(n) if n > holds => {
                    return Err(Illegal::LiftTooMany {
                        pit: from,
                        lift: n,
                        stones: holds,
                    })
                }
                Some(n) => n,
            };
            sow(rules, pos, origin, lift, mode, rules.max_laps(), effect)
        }
    }
}

/// The index of an occupied pit of the side to move.
// Inlined: every sowing checks its start pit here, and the call returned its index
// through memory.
#[inline(always)]
fn own_pit(pos: &Position, pit: Pit) -> Result<usize, Illegal> {
    let board = pos.board();
    if !board.contains(pit) {
        return Err(Illegal::NoSuchPit { pit });
    }
    if board.owner(pit) != pos.side() {
        return Err(Illegal::NotOwnPit {
            pit,
            side: pos.side(),
        });
    }
    let index = board.index(pit);
    if pos.pits()[index] == 0 {
        return Err(Illegal::EmptyPit { pit });
    }
    Ok(index)
}

/// The opening redistribution: empty two own occupied pits and place their stones.
fn redistribute(
    pos: &mut Position,
    r: &Redistribution,
    _mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    // None of the opening's rules can be broken and the ply still executed as written
    // (`Illegal::executable`), so `Mode::Foul` changes nothing here.
    if !pos.opening() {
        return Err(Illegal::OpeningOver);
    }
    let board = pos.board();
    let [p, q] = r.emptied;
    if p == q {
        return Err(Illegal::OpeningSamePit { pit: p });
    }
    let (p, q) = (own_pit(pos, p)?, own_pit(pos, q)?);
    let lifted = pos.pits()[p] as u32 + pos.pits()[q] as u32;
    let mut placed: u64 = 0;
    for &(pit, stones) in &r.placed {
        if !board.contains(pit) {
            return Err(Illegal::NoSuchPit { pit });
        }
        if stones == 0 {
            return Err(Illegal::OpeningZero { pit });
        }
        placed += stones as u64;
    }
    if placed != lifted as u64 {
        return Err(Illegal::OpeningStones {
            lifted,
            placed: placed.min(u32::MAX as u64) as u32,
        });
    }
    pos.pits_mut()[p] = 0;
    pos.pits_mut()[q] = 0;
    // A pit named twice among the placements receives both counts: RULES.md does not
    // forbid it.
    for &(pit, stones) in &r.placed {
        let i = board.index(pit);
        let pits = pos.pits_mut();
        pits[i] = pits[i].saturating_add(stones);
    }
    // Ruling: after North's redistribution (ply 2) every occupied pit is nki.
    if pos.side() == Side::North {
        pos.end_opening();
        let pits = pos.pits();
        let marks = (0..PITS)
            .filter(|&i| pits[i] > 0)
            .fold(0, |marks, i| marks | bit(i));
        pos.set_nki_marks(marks);
        effect.nki_marked = true;
    }
    pos.pass_turn();
    Ok(())
}

/// Sows `lift` stones from own pit `origin`, relaying until a lap ends in an empty pit,
/// then captures. The sowing works on a copy of the pits, and `pos` changes only once
/// the move has proved legal. A sowing still going after `max_laps` laps is
/// [`Illegal::UndecidedSowing`].
fn sow(
    rules: &Rules,
    pos: &mut Position,
    origin: usize,
    lift: u16,
    mode: Mode,
    max_laps: u64,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    let board = pos.board();
    let side = pos.side();
    let mut pits = [0u16; PITS];
    pits.copy_from_slice(&pos.pits()[..PITS]);
    let place = rules
        .circuit_place(side, origin)
        .ok_or(Illegal::NoSuchPit {
            pit: board.pit(origin),
        })?;

    // Losing protection: lifting from a pit (origin or relay) clears its nki mark for
    // good. The engine holds `effect`, so the cleared pits are noted here in order.
    let mut nki = pos.nki_marks();
    let mut cleared = [0u8; PITS];
    let mut n_cleared = 0;
    let mut lift_from = |pit: usize, nki: &mut u64| {
        if *nki & bit(pit) != 0 {
            *nki &= !bit(pit);
            cleared[n_cleared] = pit as u8;
            n_cleared += 1;
        }
    };
    lift_from(origin, &mut nki);
    // The pit of a first-lap foul, its rule made only when there is one: an `Illegal`
    // kept across the sowing would cost a check of its drop every ply.
    let mut first_lap_foul: Option<usize> = None;
    let end = relay_sow(
        &mut pits,
        board,
        rules.circuit(side),
        place,
        lift,
        effect,
        true,
        max_laps,
        None,
        |lap_end, _| {
            // The engine asks only at laps ending in an occupied pit.
            debug_assert!(lap_end.stones >= 2);
            debug_assert_eq!(rules.circuit(side)[lap_end.place] as usize, lap_end.pit);
            // The first lap must not end in an occupied pit of the mover's own row.
            if lap_end.lap == 1 && is_own(side, lap_end.pit) {
                if mode == Mode::Legal {
                    return Err(Illegal::FirstLapOwnOccupied {
                        pit: board.pit(lap_end.pit),
                    });
                }
                first_lap_foul = Some(lap_end.pit);
            }
            // Relay on every occupied lap end, in either row.
            lift_from(lap_end.pit, &mut nki);
            Ok(Next::Relay)
        },
    )?;
    if let Some(pit) = first_lap_foul {
        let rule = Illegal::FirstLapOwnOccupied {
            pit: board.pit(pit),
        };
        breach(mode, effect, rule)?;
    }
    // Most plies clear no mark.
    if n_cleared > 0 {
        effect
            .nki_cleared
            .extend(cleared[..n_cleared].iter().map(|&i| board.pit(i as usize)));
    }
    effect.end = Some(board.pit(end.pit));
    capture(rules, side, &mut pits, nki, end.pit, effect);
    pos.pits_mut()[..PITS].copy_from_slice(&pits);
    pos.set_nki_marks(nki);
    pos.imprison(side, effect.prison_gain);
    pos.pass_turn();
    Ok(())
}

/// Captures after a move that ended (in an empty pit) at `end`: the opposite pit, or the
/// leftmost bonus, and the capturing stone, off the board; `effect.prison_gain` says
/// how many stones go to the mover's prison.
fn capture(
    rules: &Rules,
    side: Side,
    pits: &mut [u16; PITS],
    nki: u64,
    end: usize,
    effect: &mut Effect,
) {
    if !is_own(side, end) {
        return;
    }
    let capturable = |i: usize| pits[i] > 0 && nki & bit(i) == 0;
    let run = &ENEMY_RUN[side.index()];
    debug_assert_eq!(run[0], opposite(leftmost(side)));
    let ordinary = [opposite(end)];
    let taken: &[usize] = if end != leftmost(side) {
        &ordinary
    } else {
        match rules.options() {
            Options::Kiothi(o) if o.leftmost == Leftmost::Chain => {
                let n = run.iter().take_while(|&&i| capturable(i)).count();
                &run[..n.max(1)]
            }
            _ if run[..3].iter().all(|&i| capturable(i)) => &run[..3],
            _ => &ordinary,
        }
    };
    if !capturable(taken[0]) {
        return;
    }
    let mut gain: u16 = 0;
    for &i in taken {
        effect.captured.push((rules.board().pit(i), pits[i]));
        gain = gain.saturating_add(pits[i]);
        pits[i] = 0;
    }
    // The capturing stone goes with them.
    effect.captured.push((rules.board().pit(end), 1));
    pits[end] -= 1;
    effect.prison_gain = gain.saturating_add(1);
}

/// Every legal move. Listing is for messages, repairs and statistics, so each candidate
/// sowing gets at most [`LISTING_LAP_BUDGET`] laps (or the rules' budget, if smaller):
/// one still going then (neither ended nor proved endless; some endless sowings need a
/// billion laps to prove) is left out of the list.
pub(crate) fn legal_moves(rules: &Rules, pos: &Position, out: &mut impl Candidates) {
    let board = pos.board();
    let side = pos.side();
    if pos.opening() {
        let own: Vec<Pit> = own_row(side)
            .filter(|&i| pos.pits()[i] > 0)
            .map(|i| board.pit(i))
            .collect();
        // Too many redistributions to list: one candidate describes them, with the one
        // that puts the stones back where they were as its move.
        if let [p, q, ..] = own[..] {
            out.take(1, || {
                Candidate::single(
                    Move::Redistribute(Redistribution {
                        emptied: [p, q],
                        placed: vec![(p, pos.stones(p)), (q, pos.stones(q))],
                    }),
                    false,
                    BonusChoice::Redistribution { pits: own },
                )
            });
        }
        return;
    }
    let circuit = rules.circuit(side);
    // A listing reads no lap: they are counted, not kept.
    let mut effect = Effect {
        lap_counts_only: true,
        ..Effect::default()
    };
    // What a count's bare sowing did (see `sowing_ends`).
    let mut bare = effect.clone();
    // Each candidate is sown on a copy of the position, made once.
    let mut after = pos.clone();
    for origin in own_row(side).filter(|&i| pos.pits()[i] > 0) {
        let Some(place) = rules.circuit_place(side, origin) else {
            continue;
        };
        let pit = board.pit(origin);
        for lift in 1..=pos.pits()[origin] {
            // Whether the sowing of `lift` stones ends within the budget, and if so
            // whether it captures.
            let mut captures = |effect: &mut Effect| {
                effect.clear();
                after.clone_from(pos);
                let budget = LISTING_LAP_BUDGET.min(rules.max_laps());
                let sown = sow(rules, &mut after, origin, lift, Mode::Legal, budget, effect);
                sown.ok().map(|()| effect.is_capture())
            };
            let (end, before) = first_lap_end(pos.pits(), circuit, place, lift);
            if before == 0 {
                // The move ends after its one lap: legal, known before its sowing, which
                // only the candidate needs.
                out.take(1, || {
                    let captures = captures(&mut effect) == Some(true);
                    Candidate::single(sowing(pit, lift), captures, BonusChoice::None)
                });
            } else if is_own(side, end) {
                continue; // the first-lap restriction
            } else {
                // Sown whole only for the candidate; a count needs only to know that the
                // sowing ends.
                out.take_if(
                    || sowing_ends(rules, pos, place, lift, &mut bare),
                    || {
                        let captures = captures(&mut effect)?;
                        Some(Candidate::single(
                            sowing(pit, lift),
                            captures,
                            BonusChoice::None,
                        ))
                    },
                );
            }
        }
    }
}

/// Whether the sowing of `lift` stones from the mover's circuit `place` ends within the
/// listing's lap budget: [`sow`]'s sowing, on a copy of the pits alone, for a move whose
/// first lap [`legal_moves`] has checked. The marks it clears and the capture after it
/// do not change where it goes, so it ends exactly when the move is legal.
fn sowing_ends(
    rules: &Rules,
    pos: &Position,
    place: usize,
    lift: u16,
    effect: &mut Effect,
) -> bool {
    let mut pits = [0u16; PITS];
    pits.copy_from_slice(&pos.pits()[..PITS]);
    effect.clear();
    let budget = LISTING_LAP_BUDGET.min(rules.max_laps());
    let circuit = rules.circuit(pos.side());
    let relay = |_: &_, _: &_| Ok(Next::Relay);
    relay_sow(
        &mut pits,
        pos.board(),
        circuit,
        place,
        lift,
        effect,
        true,
        budget,
        None,
        relay,
    )
    .is_ok()
}

fn sowing(pit: Pit, lift: u16) -> Move {
    Move::Sow(Sowing {
        lift: Some(lift),
        ..Sowing::from(pit)
    })
}

pub(crate) fn has_legal_move(rules: &Rules, pos: &Position) -> bool {
    let side = pos.side();
    if pos.opening() {
        return own_row(side).filter(|&i| pos.pits()[i] > 0).count() >= 2;
    }
    let circuit = rules.circuit(side);
    let mut effect = Effect::default();
    let mut after = pos.clone();
    let mut cut_off = false;
    for budget in [LAP_BUDGET.min(rules.max_laps()), rules.max_laps()] {
        cut_off = false;
        for origin in own_row(side) {
            let holds = pos.pits()[origin];
            let Some(place) = rules.circuit_place(side, origin) else {
                continue;
            };
            for lift in 1..=holds {
                let (end, before) = first_lap_end(pos.pits(), circuit, place, lift);
                if before == 0 {
                    return true; // the move ends after one lap
                }
                if is_own(side, end) {
                    continue; // the first-lap restriction
                }
                effect.clear();
                after.clone_from(pos);
                match sow(
                    rules,
                    &mut after,
                    origin,
                    lift,
                    Mode::Legal,
                    budget,
                    &mut effect,
                ) {
                    Ok(()) => return true,
                    Err(Illegal::UndecidedSowing { .. }) => cut_off = true,
                    Err(_) => {}
                }
            }
        }
        if !cut_off {
            break;
        }
    }
    // A sowing left undecided by the whole budget may be legal: the game is not known
    // to be over.
    cut_off
}

/// Laps a sowing may take in the first pass of [`play_random`] and [`has_legal_move`].
/// Some endless sowings are proved endless only after a billion laps (minutes): moves
/// that need more laps than this are tried, within the rules' budget, only when no
/// shorter move is legal.
const LAP_BUDGET: u64 = 10_000;

/// Laps a candidate sowing may take while legal moves are listed.
const LISTING_LAP_BUDGET: u64 = 1_000_000;

/// Attempts at a random (pit, lift) before trying every one in turn.
const RANDOM_ATTEMPTS: usize = 16;

pub(crate) fn play_random(
    rules: &Rules,
    pos: &mut Position,
    rng: &mut Rng,
    effect: &mut Effect,
) -> Option<Move> {
    if pos.opening() {
        return redistribute_at_random(pos, rng, effect);
    }
    // Every (own pit, lift) pair is numbered 0..total: pair k lifts k+1 stones from the
    // first pit, and so on.
    let own = own_row(pos.side());
    let mut holds = [0u16; COLS];
    holds.copy_from_slice(&pos.pits()[own.clone()]);
    let total: usize = holds.iter().map(|&s| s as usize).sum();
    if total == 0 {
        return None;
    }
    let pair = |mut k: usize| {
        for (i, &h) in holds.iter().enumerate() {
            if k < h as usize {
                return (own.start + i, k as u16 + 1);
            }
            k -= h as usize;
        }
        unreachable!("k < total")
    };
    let mut cut_off = false;
    for budget in [LAP_BUDGET.min(rules.max_laps()), rules.max_laps()] {
        let offset = rng.below(total);
        let tries = (0..RANDOM_ATTEMPTS)
            .map(|_| rng.below(total))
            .chain((0..total).map(|j| (offset + j) % total));
        for k in tries {
            let (origin, lift) = pair(k);
            effect.clear();
            match sow(rules, pos, origin, lift, Mode::Legal, budget, effect) {
                Ok(()) => return Some(sowing(pos.board().pit(origin), lift)),
                Err(Illegal::UndecidedSowing { .. }) => cut_off = true,
                Err(_) => {}
            }
        }
        if !cut_off {
            break;
        }
    }
    effect.clear();
    None
}

/// The opening at random: two random own occupied pits, their stones spread at random
/// over the 20 pits.
fn redistribute_at_random(pos: &mut Position, rng: &mut Rng, effect: &mut Effect) -> Option<Move> {
    let board = pos.board();
    let mut own = [0usize; COLS];
    let mut n = 0;
    for i in own_row(pos.side()).filter(|&i| pos.pits()[i] > 0) {
        own[n] = i;
        n += 1;
    }
    if n < 2 {
        return None;
    }
    let first = rng.below(n);
    let second = (first + 1 + rng.below(n - 1)) % n;
    let (p, q) = (own[first], own[second]);
    let mut spread = [0u16; PITS];
    for _ in 0..pos.pits()[p] as u32 + pos.pits()[q] as u32 {
        spread[rng.below(PITS)] += 1;
    }
    let mv = Redistribution {
        emptied: [board.pit(p), board.pit(q)],
        placed: (0..PITS)
            .filter(|&i| spread[i] > 0)
            .map(|i| (board.pit(i), spread[i]))
            .collect(),
    };
    redistribute(pos, &mv, Mode::Legal, effect).ok()?;
    Some(Move::Redistribute(mv))
}
