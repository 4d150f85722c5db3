//! Nsolo (Ngoni, Malawi and Zambia): RULES.md, its section of the same name.
//!
//! Each player sows round their own two rows, clockwise (`sow=ccw`: counter-clockwise;
//! the circuits come from [`Rules::circuit`]). A move lifts a whole pit of two or more
//! and relays on every lap that ends in an occupied pit, until a lap ends in an empty
//! pit. Single stones move only when no own pit holds two or more, and only into an empty
//! next pit. A move ending in the mover's inner row captures the opposite inner pit (not
//! the outer pit behind it), then takes the bonus (`bonus=equal`, `hole` or `none`).
//! There are no heads, no partial lifts and no prisons: captured stones leave the board.
//!
//! The end of the game and the repetition draw are [`crate::play::GameState`]'s; this
//! module only says which moves exist (`has_legal_move`).

use super::{any_multiple, breach, give_back, Candidates};
use crate::geometry::{Pit, Side, MAX_PITS};
use crate::moves::{BonusChoice, BonusTake, Candidate, Effect, Illegal, Mode, Move, Sowing};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{NsoloBonus, Options, Rules};
use crate::sowing::{first_lap_end, relay_sow, Next, SowUndo};

/// A seat's circuit is its two rows: at most 2 × 36 pits.
const MAX_CIRCUIT: usize = MAX_PITS / 2;

/// The stones of every pit, indexed like [`Position::pits`]. `apply` sows in place and
/// undoes a ply that fails, so that an illegal move leaves the position as it was.
type Pits = [u16; MAX_PITS];

/// The bonus a capture earns (RULES.md's ruling on the bonus).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Due {
    /// No capture, `bonus=none`, or nothing left on the opponent's side to take.
    Nothing,
    /// `bonus=equal`: exactly this many stones, pit by pit.
    Stones(u32),
    /// `bonus=hole`: the whole contents of one other non-empty opponent pit.
    Hole,
}

pub(crate) fn apply(
    rules: &Rules,
    pos: &mut Position,
    mv: &Move,
    mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    let sowing = match mv {
        Move::Sow(sowing) => sowing,
        Move::Redistribute(_) => return Err(Illegal::RedistributionNotAllowed),
    };
    let from = sowing.from;
    if sowing.lift.is_some() {
        return Err(Illegal::PartialLiftNotAllowed);
    }
    if sowing.stop.is_some() {
        return Err(Illegal::ChoiceNotOffered {
            option: "a stop at a head (Nsolo has no heads)",
        });
    }
    let side = pos.side();
    let place = check_start(rules, pos, from, mode, effect)?;
    // Sown in place; a ply that fails half-way (an endless sowing, a wrong bonus) is
    // undone: the sowing by the lifts of its laps (`SowUndo`), where a copy of the
    // mover's rows before every ply costs more than the few plies that fail need; the
    // opponent's pits by what the effect lists as captured and taken.
    let mut undo = SowUndo::new(place);
    let pits = pos.pits_mut();
    // Matched in place, not chained through a closure, which compiles into a call every
    // ply with its captures gathered into a frame. A quiet ply (no capture, no
    // bonus written) owes no bonus and writes none: it skips the bonus's rules.
    let played = match sow(rules, pits, side, place, effect, Some(&mut undo)) {
        Ok(end) => {
            let captured = capture(rules, pits, side, end, effect);
            if captured == 0 && sowing.bonus.is_empty() {
                Ok(0)
            } else {
                settle_bonus(rules, pits, side, captured, &sowing.bonus, mode, effect)
                    .map(|()| captured)
            }
        }
        Err(e) => Err(e),
    };
    match played {
        Ok(captured) => {
            finish(pos, captured);
            Ok(())
        }
        Err(e) => {
            undo.undo(pos.pits_mut(), rules.circuit(side), effect.lap_count);
            give_back(rules, pos.pits_mut(), effect);
            Err(e)
        }
    }
}

pub(crate) fn legal_moves(rules: &Rules, pos: &Position, out: &mut impl Candidates) {
    let side = pos.side();
    if !has_multiple(rules, pos.pits(), side) {
        // Single stones only: each moves into an empty next pit and ends there, one ply,
        // so a count needs only their number.
        let count = single_starts(rules, pos.pits(), side);
        return out.take_singles(count, |out| each_legal_move(rules, pos, out));
    }
    each_legal_move(rules, pos, out);
}

/// Every legal move, each sown (a single stone's, or any whose first lap ends in an
/// empty pit, only when its candidate is made).
fn each_legal_move(rules: &Rules, pos: &Position, out: &mut impl Candidates) {
    let board = rules.board();
    let side = pos.side();
    let circuit = rules.circuit(side);
    let (starts, count) = legal_starts(rules, pos.pits(), side);
    // A listing reads no lap: they are counted, not kept.
    let mut effect = Effect {
        lap_counts_only: true,
        ..Effect::default()
    };
    // Each candidate is sown on one copy of the pits, refreshed from the board alone
    // (past it the pits stay empty).
    let n = board.len();
    let mut pits: Pits = [0; MAX_PITS];
    for &place in &starts[..count] {
        let place = place as usize;
        // Named only in a candidate: a count reads no pit's name.
        let from = || board.pit(circuit[place] as usize);
        let lift = pos.pits()[circuit[place] as usize];
        if first_lap_end(pos.pits(), circuit, place, lift).1 == 0 {
            // The first lap ends in an empty pit, and the move with it (every single
            // stone's): one ply, known before its sowing, which only the candidate needs.
            out.take(1, || {
                pits[..n].copy_from_slice(&pos.pits()[..n]);
                effect.clear();
                let end = sow(rules, &mut pits, side, place, &mut effect, None);
                candidate(rules, &mut pits, side, from(), end.ok(), &mut effect)
            });
            continue;
        }
        pits[..n].copy_from_slice(&pos.pits()[..n]);
        effect.clear();
        let Ok(end) = sow(rules, &mut pits, side, place, &mut effect, None) else {
            continue; // an endless or undecided sowing
        };
        out.take(1, || {
            candidate(rules, &mut pits, side, from(), Some(end), &mut effect)
        });
    }
}

/// The candidate of the move from `from` that ended at `end` (`None`: no sowing, no
/// capture), with `pits` and `effect` as its sowing left them: its capture, and the bonus
/// the capture earns.
fn candidate(
    rules: &Rules,
    pits: &mut Pits,
    side: Side,
    from: Pit,
    end: Option<Pit>,
    effect: &mut Effect,
) -> Candidate {
    let board = rules.board();
    let captured = end.map_or(0, |end| capture(rules, pits, side, end, effect));
    let opponent_pits = || {
        board
            .pits()
            .filter(|&p| board.owner(p) != side && pits[board.index(p)] > 0)
    };
    let bonus = match bonus_due(rules, pits, side, captured) {
        Due::Nothing => BonusChoice::None,
        Due::Stones(stones) => BonusChoice::Stones {
            stones,
            eligible: opponent_pits().map(|p| (p, pits[board.index(p)])).collect(),
        },
        Due::Hole => BonusChoice::Pits {
            count: 1,
            eligible: opponent_pits().collect(),
        },
    };
    Candidate::single(Move::Sow(Sowing::from(from)), captured > 0, bonus)
}

pub(crate) fn has_legal_move(rules: &Rules, pos: &Position) -> bool {
    let side = pos.side();
    let (starts, count) = legal_starts(rules, pos.pits(), side);
    let mut effect = Effect::default();
    starts[..count].iter().any(|&place| {
        let mut pits = *pos.pits();
        effect.clear();
        // A sowing left undecided by the lap budget may be legal: the game is not
        // known to be over.
        let sown = sow(rules, &mut pits, side, place as usize, &mut effect, None);
        !matches!(sown, Err(Illegal::EndlessSowing { .. }))
    })
}

pub(crate) fn play_random(
    rules: &Rules,
    pos: &mut Position,
    rng: &mut Rng,
    effect: &mut Effect,
) -> Option<Move> {
    let side = pos.side();
    let (mut starts, mut count) = legal_starts(rules, pos.pits(), side);
    // Sown in place: the pits in use are kept to undo an endless sowing.
    let used = rules.board().len();
    let mut saved = [0u16; MAX_PITS];
    saved[..used].copy_from_slice(&pos.pits()[..used]);
    while count > 0 {
        let pick = rng.below(count);
        let place = starts[pick] as usize;
        effect.clear();
        let Ok(end) = sow(rules, pos.pits_mut(), side, place, effect, None) else {
            // An endless (or undecided) sowing: not a move to play; try another start.
            pos.pits_mut()[..used].copy_from_slice(&saved[..used]);
            count -= 1;
            starts[pick] = starts[count];
            continue;
        };
        let captured = capture(rules, pos.pits_mut(), side, end, effect);
        let due = bonus_due(rules, pos.pits(), side, captured);
        let bonus = random_bonus(rules, pos.pits_mut(), side, due, rng, effect);
        finish(pos, captured);
        let from = rules.board().pit(rules.circuit(side)[place] as usize);
        return Some(Move::Sow(Sowing {
            from,
            lift: None,
            stop: None,
            bonus,
        }));
    }
    None
}

/// Whether any of a seat's pits holds two or more stones. (Its circuit is its two rows,
/// one run of the pit array: scanned in order, without the circuit's indirection.)
fn has_multiple(rules: &Rules, pits: &Pits, side: Side) -> bool {
    any_multiple(&pits[rules.board().indices_of(side)])
}

/// The circuit places a move may start from: every own pit holding two or more; only
/// when there is none, every single stone whose next pit on the circuit is empty.
fn legal_starts(rules: &Rules, pits: &Pits, side: Side) -> ([u8; MAX_CIRCUIT], usize) {
    let circuit = rules.circuit(side);
    let mut starts = [0u8; MAX_CIRCUIT];
    let mut count = 0;
    // Branch-free: every place is written, and kept by counting it. Which of the two
    // kinds, the seat's rows in order tell, read without the circuit's indirection.
    if has_multiple(rules, pits, side) {
        for (place, &p) in circuit.iter().enumerate() {
            starts[count] = place as u8;
            count += (pits[p as usize] >= 2) as usize;
        }
    } else {
        let mut next = pits[circuit[0] as usize];
        for place in (0..circuit.len()).rev() {
            let stones = pits[circuit[place] as usize];
            starts[count] = place as u8;
            count += (stones == 1 && next == 0) as usize;
            next = stones;
        }
    }
    (starts, count)
}

/// How many single stones may move when no own pit holds two or more: the second kind
/// of [`legal_starts`], counted without listing them. A stone may move at the end of
/// each run of occupied pits around the circuit, where the next pit is empty; none
/// when every pit is occupied. A seat's circuit is its two rows joined at both ends,
/// whichever way it runs, so each run's two ends are where an occupied pit meets an
/// empty one along a row or across the rows' ends, read from the rows in order.
fn single_starts(rules: &Rules, pits: &Pits, side: Side) -> u64 {
    let seat = &pits[rules.board().indices_of(side)];
    let (first, second) = seat.split_at(seat.len() / 2);
    // Summed as numbers, which vectorises.
    let meetings = |row: &[u16]| -> u64 {
        let pairs = row.iter().zip(&row[1..]);
        pairs.map(|(a, b)| (a != b) as u16).sum::<u16>().into()
    };
    let last = first.len() - 1;
    let across = (first[0] != second[0]) as u64 + (first[last] != second[last]) as u64;
    (meetings(first) + meetings(second) + across) / 2
}

/// Checks the start pit of a move and returns its place on the mover's circuit.
fn check_start(
    rules: &Rules,
    pos: &Position,
    from: Pit,
    mode: Mode,
    effect: &mut Effect,
) -> Result<usize, Illegal> {
    let board = rules.board();
    let side = pos.side();
    let not_own = Illegal::NotOwnPit { pit: from, side };
    if !board.contains(from) {
        return Err(Illegal::NoSuchPit { pit: from });
    }
    let index = board.index(from);
    let place = rules.circuit_place(side, index).ok_or(not_own)?;
    match pos.pits()[index] {
        0 => Err(Illegal::EmptyPit { pit: from }),
        1 => {
            // Singletons: only when no own pit holds two or more, only into an empty
            // next pit (so the move ends there).
            if has_multiple(rules, pos.pits(), side) {
                breach(mode, effect, Illegal::SingletonWhileMultiple { pit: from })?;
            }
            // The place after the last is the first: no division, on most plies.
            let circuit = rules.circuit(side);
            let after = if place + 1 == circuit.len() {
                0
            } else {
                place + 1
            };
            let next = circuit[after] as usize;
            if pos.pits()[next] > 0 {
                let blocked = Illegal::SingletonBlocked {
                    pit: from,
                    next: board.pit(next),
                    stones: pos.pits()[next],
                };
                breach(mode, effect, blocked)?;
            }
            Ok(place)
        }
        _ => Ok(place),
    }
}

/// Sows the whole pit at circuit `place`, relaying on every lap that ends in an occupied
/// pit, and returns the pit where the move ended (in an empty pit). An endless or
/// undecided sowing is an error, and `pits` must then be discarded (or undone by `undo`).
// Inlined: each caller's `undo`, there or not, is then settled at compile time, not at
// every lap.
#[inline(always)]
fn sow(
    rules: &Rules,
    pits: &mut Pits,
    side: Side,
    place: usize,
    effect: &mut Effect,
    undo: Option<&mut SowUndo>,
) -> Result<Pit, Illegal> {
    let circuit = rules.circuit(side);
    let lift = pits[circuit[place] as usize];
    let end = relay_sow(
        pits,
        rules.board(),
        circuit,
        place,
        lift,
        effect,
        true,
        rules.max_laps(),
        undo,
        |_, _| Ok(Next::Relay),
    )?;
    let end = rules.board().pit(end.pit);
    effect.end = Some(end);
    Ok(end)
}

/// Capture: a move ending in the mover's inner row takes the stones of the opposite
/// opponent inner pit (the outer pit behind it is safe). Returns the stones captured.
// Inlined into `apply`: most plies end outside the inner row, and a call costs more.
#[inline(always)]
fn capture(rules: &Rules, pits: &mut Pits, side: Side, end: Pit, effect: &mut Effect) -> u16 {
    let board = rules.board();
    if end.row != board.inner_row(side) {
        return 0;
    }
    let Some(opposite) = board.opposite(end) else {
        return 0;
    };
    let index = board.index(opposite);
    let stones = pits[index];
    if stones > 0 {
        pits[index] = 0;
        effect.captured.push((opposite, stones));
    }
    stones
}

/// The bonus due after `captured` stones were taken (none if none were).
fn bonus_due(rules: &Rules, pits: &Pits, side: Side, captured: u16) -> Due {
    if captured == 0 {
        return Due::Nothing;
    }
    // The opponent's side is its two rows, one run of the pit array: read in order,
    // not through the circuit's indirection.
    let opponent = &pits[rules.board().indices_of(side.opponent())];
    let bonus = match rules.options() {
        Options::Nsolo(o) => o.bonus,
        _ => NsoloBonus::None,
    };
    match bonus {
        NsoloBonus::Equal => {
            // Summed in order, which vectorises.
            let left: u32 = opponent.iter().map(|&s| s as u32).sum();
            if left == 0 {
                Due::Nothing
            } else {
                Due::Stones(left.min(captured as u32))
            }
        }
        // A hole is due while the opponent has a stone: the first occupied pit settles
        // it, where the sum read all of them.
        NsoloBonus::Hole if opponent.iter().any(|&s| s > 0) => Due::Hole,
        NsoloBonus::Hole | NsoloBonus::None => Due::Nothing,
    }
}

/// The bonus after `captured` stones were taken ([`bonus_due`]), taken as the move
/// writes it ([`take_bonus`]). Kept out of line: most plies capture nothing and name no
/// bonus, and skip it.
#[inline(never)]
fn settle_bonus(
    rules: &Rules,
    pits: &mut Pits,
    side: Side,
    captured: u16,
    takes: &[BonusTake],
    mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    let due = bonus_due(rules, pits, side, captured);
    take_bonus(rules, pits, side, due, takes, mode, effect)
}

/// Takes the bonus as the move writes it: opponent pits, each named once, 1 to its
/// content each (`None`: the whole pit); `bonus=equal` exactly the stones due,
/// `bonus=hole` one whole pit.
fn take_bonus(
    rules: &Rules,
    pits: &mut Pits,
    side: Side,
    due: Due,
    takes: &[BonusTake],
    mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    match due {
        Due::Nothing if takes.is_empty() => return Ok(()),
        Due::Nothing => breach(mode, effect, Illegal::BonusNotDue)?,
        _ if takes.is_empty() => return breach(mode, effect, Illegal::BonusMissing),
        Due::Hole if takes.len() != 1 => {
            let count = Illegal::BonusCount {
                taken: takes.len(),
                required: 1,
            };
            breach(mode, effect, count)?;
        }
        _ => {}
    }
    let board = rules.board();
    let mut taken: u32 = 0;
    for (n, take) in takes.iter().enumerate() {
        let pit = take.pit;
        if !board.contains(pit) {
            return Err(Illegal::NoSuchPit { pit });
        }
        if board.owner(pit) == side {
            return Err(Illegal::BonusNotOpponent { pit });
        }
        if takes[..n].iter().any(|t| t.pit == pit) {
            return Err(Illegal::BonusNotDistinct { pit });
        }
        let index = board.index(pit);
        let holds = pits[index];
        if holds == 0 {
            return Err(Illegal::BonusEmptyPit { pit });
        }
        let stones = take.stones.unwrap_or(holds);
        if stones == 0 {
            return Err(Illegal::BonusZero { pit });
        }
        if stones > holds {
            return Err(Illegal::BonusTooMany { pit, stones, holds });
        }
        if due == Due::Hole && stones != holds {
            breach(mode, effect, Illegal::BonusHoleCount)?;
        }
        pits[index] -= stones;
        taken += stones as u32;
        effect.bonus.push((pit, stones));
    }
    if let Due::Stones(required) = due {
        if taken != required {
            breach(mode, effect, Illegal::BonusStones { taken, required })?;
        }
    }
    Ok(())
}

/// Completes the bonus at random, takes it, and returns it as the move writes it.
fn random_bonus(
    rules: &Rules,
    pits: &mut Pits,
    side: Side,
    due: Due,
    rng: &mut Rng,
    effect: &mut Effect,
) -> Vec<BonusTake> {
    let mut takes = Vec::new();
    if due == Due::Nothing {
        return takes;
    }
    let board = rules.board();
    // The opponent's non-empty pits not named yet, and their stones.
    let mut unnamed = [0u8; MAX_CIRCUIT];
    let mut count = 0;
    let mut left: u32 = 0;
    for &p in rules.circuit(side.opponent()) {
        if pits[p as usize] > 0 {
            unnamed[count] = p;
            count += 1;
            left += pits[p as usize] as u32;
        }
    }
    let mut need = match due {
        Due::Stones(stones) => stones,
        _ => 0,
    };
    while count > 0 && (need > 0 || (due == Due::Hole && takes.is_empty())) {
        let pick = rng.below(count);
        let index = unnamed[pick] as usize;
        count -= 1;
        unnamed[pick] = unnamed[count];
        let holds = pits[index];
        left -= holds as u32;
        let stones = if due == Due::Hole {
            holds
        } else {
            // At least what the pits not yet named cannot make up.
            let least = need.saturating_sub(left).max(1);
            let most = need.min(holds as u32);
            let stones = least + rng.below((most - least + 1) as usize) as u32;
            need -= stones;
            stones as u16
        };
        pits[index] -= stones;
        let pit = board.pit(index);
        effect.bonus.push((pit, stones));
        takes.push(BonusTake {
            pit,
            stones: (stones != holds).then_some(stones),
        });
    }
    takes
}

/// Ends a move: the opponent moves next.
fn finish(pos: &mut Position, captured: u16) {
    if captured > 0 {
        pos.count_capture(pos.side());
    }
    pos.pass_turn();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Board;
    use crate::rules::Game;

    /// The count of the single stones that may move, against their listing by
    /// [`legal_starts`]: every filling of a 4×8 seat with 0 and 1 stones, and random
    /// fillings of wider ones, for both seats and both ways round.
    #[test]
    fn single_starts_count_the_listed_single_stones() {
        let mut rng = Rng::new(27);
        let mut with_starts = 0;
        for cols in [8, 9, 36] {
            for options in ["sow=cw", "sow=ccw"] {
                let rules = Rules::new(Game::Nsolo, Board::new(4, cols), options).unwrap();
                let every = cols == 8;
                let fillings = if every { 1 << 16 } else { 20_000 };
                for side in Side::BOTH {
                    for filling in 0..fillings {
                        let mut pits: Pits = [0; MAX_PITS];
                        for (n, i) in rules.board().indices_of(side).enumerate() {
                            pits[i] = match every {
                                true => (filling >> n & 1) as u16,
                                false => rng.below(2) as u16,
                            };
                        }
                        let (_, listed) = legal_starts(&rules, &pits, side);
                        assert_eq!(
                            single_starts(&rules, &pits, side),
                            listed as u64,
                            "{cols} {options} {side:?} {pits:?}"
                        );
                        with_starts += (listed > 0) as u32;
                    }
                }
            }
        }
        assert!(with_starts > 200_000, "{with_starts}");
    }
}
