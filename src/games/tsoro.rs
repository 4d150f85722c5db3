//! Tsoro (Shona, Zimbabwe): RULES.md, its section of the same name.
//!
//! Each player sows counter-clockwise around their own two rows (their *circuit*). A move
//! lifts an own pit holding two or more; a *lap* ending in an occupied pit *relays*,
//! except at the mover's *heads* (misoro), where the player may stop instead; a lap
//! ending in an empty pit ends the move. A move ending by itself in an empty pit of the
//! mover's inner row captures the opponent's *opposite* inner pit and the outer pit
//! *behind* it, then the *bonus*: whole opponent pits of the mover's choice.
//!
//! This module never allocates in [`play_random`] beyond the reused [`Effect`] (and the
//! returned move's bonus list on a capture): the playout benchmark runs it in its hot
//! loop.

use crate::geometry::{Board, Side, MAX_PITS};
use crate::moves::{
    BonusChoice, BonusTake, Candidate, Effect, HeadStop, Illegal, Mode, Move, Sowing,
};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{Heads, Options, Rules, TsoroOptions};
use crate::sowing::{relay_sow, Next, SowEnd};

/// The longest circuit of a Tsoro board: two rows of 21 pits.
const MAX_CIRCUIT: usize = 2 * 21;

fn options(rules: &Rules) -> &TsoroOptions {
    match rules.options() {
        Options::Tsoro(o) => o,
        _ => unreachable!("games::mod dispatches only Tsoro rules to the Tsoro module"),
    }
}

/// A seat's heads as pit indices (`Rules::heads` allocates; this is for the hot loop).
#[derive(Copy, Clone)]
struct HeadPits {
    pits: [usize; 2],
    len: usize,
}

impl HeadPits {
    fn of(rules: &Rules, side: Side) -> HeadPits {
        let n = rules.board().cols() as usize;
        // South's outer row `a` is indices 0..n, North's outer row `d` is 3n..4n.
        let (rightmost, next) = match side {
            Side::South => (n - 1, n - 2),     // aN, a(N-1)
            Side::North => (3 * n, 3 * n + 1), // d1, d2
        };
        match options(rules).heads {
            Heads::Zero => HeadPits {
                pits: [0; 2],
                len: 0,
            },
            Heads::One => HeadPits {
                pits: [rightmost, 0],
                len: 1,
            },
            Heads::Two => HeadPits {
                pits: [next, rightmost],
                len: 2,
            },
        }
    }

    /// Which head (0 or 1) a pit is, if any.
    fn find(&self, pit: usize) -> Option<usize> {
        self.pits[..self.len].iter().position(|&h| h == pit)
    }

    fn contains(&self, pit: usize) -> bool {
        self.find(pit).is_some()
    }
}

/// The pit indices of a seat's side: South's rows `a`, `b` come first in the pit array.
fn side_range(board: Board, side: Side) -> std::ops::Range<usize> {
    let half = 2 * board.cols() as usize;
    match side {
        Side::South => 0..half,
        Side::North => half..2 * half,
    }
}

/// A rule broken: an error, or under [`Mode::Foul`] (when the move can still be executed)
/// a foul noted in the effect.
fn breach(mode: Mode, effect: &mut Effect, rule: Illegal) -> Result<(), Illegal> {
    if mode == Mode::Foul && rule.executable() {
        effect.fouls.push(rule);
        Ok(())
    } else {
        Err(rule)
    }
}

pub(crate) fn apply(
    rules: &Rules,
    pos: &mut Position,
    mv: &Move,
    mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    let Move::Sow(sowing) = mv else {
        return Err(Illegal::RedistributionNotAllowed);
    };
    let board = rules.board();
    let mover = pos.side;
    let Some(from) = sowing.from else {
        return Err(Illegal::ChoiceNotOffered {
            option: "a sowing with no start pit",
        });
    };
    if sowing.lift.is_some() {
        return Err(Illegal::PartialLiftNotAllowed);
    }
    if !board.contains(from) {
        return Err(Illegal::NoSuchPit { pit: from });
    }
    if board.owner(from) != mover {
        return Err(Illegal::NotOwnPit {
            pit: from,
            side: mover,
        });
    }
    let from_index = board.index(from);
    let lift = pos.pits[from_index];
    if lift == 0 {
        return Err(Illegal::EmptyPit { pit: from });
    }
    let heads = HeadPits::of(rules, mover);
    let stop = match sowing.stop {
        None => None,
        Some(HeadStop { head, arrival }) => {
            if !board.contains(head) {
                return Err(Illegal::NoSuchPit { pit: head });
            }
            if !heads.contains(board.index(head)) {
                return Err(Illegal::NotAHead {
                    pit: head,
                    side: mover,
                });
            }
            if arrival == 0 {
                return Err(Illegal::HeadStopArrivalZero { head });
            }
            Some((board.index(head), arrival))
        }
    };
    let circuit = rules.circuit(mover);
    let start_place = rules
        .circuit_place(mover, from_index)
        .expect("an own pit is on its owner's circuit");

    // Singletons: only when no own pit holds two or more, and only into an empty next pit.
    if lift == 1 {
        if circuit.iter().any(|&p| pos.pits[p as usize] >= 2) {
            breach(mode, effect, Illegal::SingletonWhileMultiple { pit: from })?;
        }
        let next = circuit[(start_place + 1) % circuit.len()] as usize;
        if pos.pits[next] != 0 {
            let rule = Illegal::SingletonBlocked {
                pit: from,
                next: board.pit(next),
                stones: pos.pits[next],
            };
            breach(mode, effect, rule)?;
        }
    }

    let mut after = pos.clone();
    let end = sow_with_stop(
        rules,
        &mut after.pits,
        mover,
        start_place,
        lift,
        stop,
        effect,
    )?;
    effect.end = Some(board.pit(end.pit));
    effect.stopped_at_head = !end.in_empty;
    let required = if end.in_empty {
        capture(rules, &mut after, mover, end.pit, effect)
    } else {
        None
    };
    take_bonus(rules, &mut after, required, &sowing.bonus, mode, effect)?;
    after.side = mover.opponent();
    *pos = after;
    Ok(())
}

/// Sows from `start_place`, relaying at every occupied lap end except the `k`-th arrival
/// of a lap at the occupied head `stop = (head, k)`, where the player stops.
fn sow_with_stop(
    rules: &Rules,
    pits: &mut [u16; MAX_PITS],
    mover: Side,
    start_place: usize,
    lift: u16,
    stop: Option<(usize, u32)>,
    effect: &mut Effect,
) -> Result<SowEnd, Illegal> {
    let board = rules.board();
    let circuit = rules.circuit(mover);
    let original = *pits;
    let mut arrivals = 0u32;
    let at_head = |arrivals: &mut u32, pit: usize| match stop {
        Some((head, k)) if head == pit => {
            *arrivals += 1;
            *arrivals == k
        }
        _ => false,
    };
    let first = relay_sow(
        pits,
        board,
        circuit,
        start_place,
        lift,
        effect,
        true,
        u64::MAX,
        |end, _| {
            // The engine offers only occupied lap ends, the last stone included.
            debug_assert!(end.stones >= 2 && circuit[end.place] as usize == end.pit);
            Ok(if at_head(&mut arrivals, end.pit) {
                Next::Stop
            } else {
                Next::Relay
            })
        },
    );
    let (Err(Illegal::EndlessSowing { laps: d }), Some((head, k))) = (&first, stop) else {
        return first;
    };
    let d = *d;
    // The always-relay sowing cycles (its lap-end state recurred at lap D = `d`), but the
    // player's stop may still come in a later round of the cycle. A cycle is at most D
    // laps long and the state at lap D is on it, so if the cycle passes the occupied head
    // at all, the k-th arrival comes within D * (k + 1) laps; and if no arrival comes in
    // the D laps after lap D, the cycle never passes it. Re-run without detection,
    // bounded so, from the original pits.
    *pits = original;
    effect.laps.clear();
    effect.lap_count = 0;
    effect.stones_sown = 0;
    let max_laps = d.saturating_mul(k as u64 + 1);
    let mut arrivals = 0u32;
    let mut seen_after_d = false;
    relay_sow(
        pits,
        board,
        circuit,
        start_place,
        lift,
        effect,
        false,
        max_laps,
        |end, _| {
            if end.pit == head {
                arrivals += 1;
                seen_after_d |= end.lap > d;
                if arrivals == k {
                    return Ok(Next::Stop);
                }
            }
            if end.lap > 2 * d && !seen_after_d {
                return Err(Illegal::EndlessSowing { laps: d });
            }
            Ok(Next::Relay)
        },
    )
}

/// The capture of a move that ended by itself in the empty pit `end`: if that pit is in
/// the mover's inner row and the opponent's opposite inner pit is occupied, empty it and
/// the outer pit behind it. Returns the number of bonus pits then due, or `None` when
/// nothing was captured.
fn capture(
    rules: &Rules,
    pos: &mut Position,
    mover: Side,
    end: usize,
    effect: &mut Effect,
) -> Option<usize> {
    let board = rules.board();
    let end = board.pit(end);
    if end.row != board.inner_row(mover) {
        return None;
    }
    let opposite = board.opposite(end)?;
    let stones = pos.get(opposite);
    if stones == 0 {
        return None;
    }
    effect.captured.push((opposite, stones));
    pos.set(opposite, 0);
    let behind = board.behind(opposite)?;
    let stones = pos.get(behind);
    if stones > 0 {
        effect.captured.push((behind, stones));
        pos.set(behind, 0);
    }
    // Graded bonus: the mover's own capture number counts every capture, even one whose
    // bonus was cut short by too few eligible pits.
    let o = options(rules);
    let nth = pos.captures[mover.index()] as u32 + 1;
    let due = o.bonus_for_capture(nth) as usize;
    pos.captures[mover.index()] = pos.captures[mover.index()].saturating_add(1);
    let mut eligible = [0u8; MAX_CIRCUIT];
    Some(due.min(bonus_eligible(rules, pos, mover, &mut eligible)))
}

/// The opponent's pits the mover may take as bonus: non-empty, and not a head unless
/// `head-bonus=yes` (heads are sanctuaries). Fills `out` and returns how many.
fn bonus_eligible(
    rules: &Rules,
    pos: &Position,
    mover: Side,
    out: &mut [u8; MAX_CIRCUIT],
) -> usize {
    let opponent = mover.opponent();
    let heads = HeadPits::of(rules, opponent);
    let head_bonus = options(rules).head_bonus;
    let mut n = 0;
    for p in side_range(rules.board(), opponent) {
        if pos.pits[p] > 0 && (head_bonus || !heads.contains(p)) {
            out[n] = p as u8;
            n += 1;
        }
    }
    n
}

/// Takes the bonus written in the move: `required` pits (`None`: no capture, none due),
/// each distinct, non-empty, on the opponent's side and no sanctuary head.
fn take_bonus(
    rules: &Rules,
    pos: &mut Position,
    required: Option<usize>,
    bonus: &[BonusTake],
    mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    let board = rules.board();
    let required = required.unwrap_or(0);
    if required == 0 && !bonus.is_empty() {
        breach(mode, effect, Illegal::BonusNotDue)?;
    }
    let opponent = pos.side.opponent();
    let heads = HeadPits::of(rules, opponent);
    let head_bonus = options(rules).head_bonus;
    for (i, take) in bonus.iter().enumerate() {
        let pit = take.pit;
        if !board.contains(pit) {
            return Err(Illegal::NoSuchPit { pit });
        }
        if board.owner(pit) != opponent {
            return Err(Illegal::BonusNotOpponent { pit });
        }
        if bonus[..i].iter().any(|b| b.pit == pit) {
            return Err(Illegal::BonusNotDistinct { pit });
        }
        let stones = pos.get(pit);
        if stones == 0 {
            return Err(Illegal::BonusEmptyPit { pit });
        }
        if let Some(n) = take.stones {
            return Err(Illegal::BonusPitPartial { pit, stones: n });
        }
        if !head_bonus && heads.contains(board.index(pit)) {
            breach(mode, effect, Illegal::BonusHead { pit })?;
        }
        effect.bonus.push((pit, stones));
        pos.set(pit, 0);
    }
    if required > 0 && bonus.is_empty() {
        breach(mode, effect, Illegal::BonusMissing)?;
    } else if required > 0 && bonus.len() != required {
        let rule = Illegal::BonusCount {
            taken: bonus.len(),
            required,
        };
        breach(mode, effect, rule)?;
    }
    Ok(())
}

/// The circuit places a move may start from: pits holding two or more; only when there
/// are none, single stones whose next pit is empty. Returns how many went into `out`.
fn starts(rules: &Rules, pos: &Position, out: &mut [u8; MAX_CIRCUIT]) -> usize {
    let circuit = rules.circuit(pos.side);
    let mut n = 0;
    for (place, &p) in circuit.iter().enumerate() {
        if pos.pits[p as usize] >= 2 {
            out[n] = place as u8;
            n += 1;
        }
    }
    if n > 0 {
        return n;
    }
    for (place, &p) in circuit.iter().enumerate() {
        let next = circuit[(place + 1) % circuit.len()] as usize;
        if pos.pits[p as usize] == 1 && pos.pits[next] == 0 {
            out[n] = place as u8;
            n += 1;
        }
    }
    n
}

pub(crate) fn legal_moves(rules: &Rules, pos: &Position, out: &mut Vec<Candidate>) {
    let board = rules.board();
    let mover = pos.side;
    let circuit = rules.circuit(mover);
    let heads = HeadPits::of(rules, mover);
    let mut places = [0u8; MAX_CIRCUIT];
    let mut effect = Effect::default();
    let n = starts(rules, pos, &mut places);
    for &place in &places[..n] {
        let place = place as usize;
        let from = board.pit(circuit[place] as usize);
        let mut after = pos.clone();
        let lift = after.pits[circuit[place] as usize];
        let mut arrivals = [0u32; 2];
        effect.clear();
        // Every lap ending at an occupied head offers a stop; the always-relay sowing
        // goes on past it. A detected cycle stops the listing: its arrivals repeat.
        let relayed = relay_sow(
            &mut after.pits,
            board,
            circuit,
            place,
            lift,
            &mut effect,
            true,
            u64::MAX,
            |end, _| {
                if let Some(h) = heads.find(end.pit) {
                    arrivals[h] += 1;
                    let stop = HeadStop {
                        head: board.pit(end.pit),
                        arrival: arrivals[h],
                    };
                    out.push(Candidate {
                        mv: Move::Sow(Sowing {
                            stop: Some(stop),
                            ..Sowing::from(from)
                        }),
                        captures: false,
                        bonus: BonusChoice::None,
                    });
                }
                Ok(Next::Relay)
            },
        );
        let Ok(end) = relayed else { continue };
        effect.clear();
        let required = capture(rules, &mut after, mover, end.pit, &mut effect);
        let bonus = match required {
            Some(count) if count > 0 => {
                let mut eligible = [0u8; MAX_CIRCUIT];
                let n = bonus_eligible(rules, &after, mover, &mut eligible);
                BonusChoice::Pits {
                    count,
                    eligible: eligible[..n]
                        .iter()
                        .map(|&p| board.pit(p as usize))
                        .collect(),
                }
            }
            _ => BonusChoice::None,
        };
        out.push(Candidate {
            mv: Move::Sow(Sowing::from(from)),
            captures: required.is_some(),
            bonus,
        });
    }
}

pub(crate) fn has_legal_move(rules: &Rules, pos: &Position) -> bool {
    let board = rules.board();
    let mover = pos.side;
    let circuit = rules.circuit(mover);
    let heads = HeadPits::of(rules, mover);
    let mut places = [0u8; MAX_CIRCUIT];
    let mut effect = Effect::default();
    let n = starts(rules, pos, &mut places);
    places[..n].iter().any(|&place| {
        let place = place as usize;
        let mut pits = pos.pits;
        let lift = pits[circuit[place] as usize];
        effect.clear();
        // Stopping at the first occupied head is as good a witness as ending by itself.
        relay_sow(
            &mut pits,
            board,
            circuit,
            place,
            lift,
            &mut effect,
            true,
            u64::MAX,
            |end, _| {
                Ok(if heads.contains(end.pit) {
                    Next::Stop
                } else {
                    Next::Relay
                })
            },
        )
        .is_ok()
    })
}

pub(crate) fn play_random(
    rules: &Rules,
    pos: &mut Position,
    rng: &mut Rng,
    effect: &mut Effect,
) -> Option<Move> {
    let board = rules.board();
    let mover = pos.side;
    let circuit = rules.circuit(mover);
    let heads = HeadPits::of(rules, mover);
    let mut places = [0u8; MAX_CIRCUIT];
    let mut n = starts(rules, pos, &mut places);
    let original = pos.pits;
    while n > 0 {
        let i = rng.below(n);
        let place = places[i] as usize;
        n -= 1;
        places[i] = places[n];
        let from_index = circuit[place] as usize;
        let lift = pos.pits[from_index];
        let mut arrivals = [0u32; 2];
        let mut first_arrival = None;
        let mut stop = None;
        effect.clear();
        // At each occupied head, stop with probability 1/2.
        let sown = relay_sow(
            &mut pos.pits,
            board,
            circuit,
            place,
            lift,
            effect,
            true,
            u64::MAX,
            |end, _| {
                if let Some(h) = heads.find(end.pit) {
                    arrivals[h] += 1;
                    let here = (end.pit, arrivals[h]);
                    first_arrival.get_or_insert(here);
                    if rng.coin() {
                        stop = Some(here);
                        return Ok(Next::Stop);
                    }
                }
                Ok(Next::Relay)
            },
        );
        let end = match sown {
            Ok(end) => end,
            Err(_) => {
                pos.pits = original;
                // Endless if always relayed, but a stop at the first occupied head seen
                // is legal (the cycle was gone round in full before it was detected).
                let Some(first) = first_arrival else { continue };
                effect.clear();
                stop = Some(first);
                match sow_with_stop(rules, &mut pos.pits, mover, place, lift, stop, effect) {
                    Ok(end) => end,
                    Err(_) => {
                        pos.pits = original;
                        continue;
                    }
                }
            }
        };
        effect.end = Some(board.pit(end.pit));
        effect.stopped_at_head = !end.in_empty;
        let mut bonus = Vec::new();
        if end.in_empty {
            if let Some(count) = capture(rules, pos, mover, end.pit, effect) {
                bonus = random_bonus(rules, pos, mover, count, rng, effect);
            }
        }
        pos.side = mover.opponent();
        return Some(Move::Sow(Sowing {
            from: Some(board.pit(from_index)),
            lift: None,
            stop: stop.map(|(head, arrival)| HeadStop {
                head: board.pit(head),
                arrival,
            }),
            bonus,
        }));
    }
    None
}

/// Takes `count` distinct eligible opponent pits chosen at random, whole.
fn random_bonus(
    rules: &Rules,
    pos: &mut Position,
    mover: Side,
    count: usize,
    rng: &mut Rng,
    effect: &mut Effect,
) -> Vec<BonusTake> {
    let board = rules.board();
    let mut eligible = [0u8; MAX_CIRCUIT];
    let mut n = bonus_eligible(rules, pos, mover, &mut eligible);
    let mut taken = Vec::with_capacity(count);
    for _ in 0..count {
        let i = rng.below(n);
        let p = eligible[i] as usize;
        n -= 1;
        eligible[i] = eligible[n];
        let pit = board.pit(p);
        effect.bonus.push((pit, pos.pits[p]));
        pos.pits[p] = 0;
        taken.push(BonusTake { pit, stones: None });
    }
    taken
}
