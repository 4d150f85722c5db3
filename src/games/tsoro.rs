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

use super::{any_multiple, breach, undo_sowing, Candidates};
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

/// A seat's heads as pit indices (`Rules::heads` gives `Pit`s, each to be indexed).
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
    let mover = pos.side();
    let from = sowing.from;
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
    let lift = pos.pits()[from_index];
    if lift == 0 {
        return Err(Illegal::EmptyPit { pit: from });
    }
    let stop = match sowing.stop {
        None => None,
        Some(HeadStop { head, arrival }) => {
            if !board.contains(head) {
                return Err(Illegal::NoSuchPit { pit: head });
            }
            if !HeadPits::of(rules, mover).contains(board.index(head)) {
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
        if any_multiple(&pos.pits()[board.indices_of(mover)]) {
            breach(mode, effect, Illegal::SingletonWhileMultiple { pit: from })?;
        }
        // `>=`, not a division: the start's place is on the circuit.
        let next = if start_place + 1 >= circuit.len() {
            circuit[0]
        } else {
            circuit[start_place + 1]
        } as usize;
        if pos.pits()[next] != 0 {
            let rule = Illegal::SingletonBlocked {
                pit: from,
                next: board.pit(next),
                stones: pos.pits()[next],
            };
            breach(mode, effect, rule)?;
        }
    }

    // Played in place; a ply that fails half-way (an endless sowing, a wrong bonus) is
    // undone. The sowing touches only the mover's two rows, so only they are copied: a
    // window of a seat's most pits from the mover's first row, whose fixed size copies
    // without a call to `memcpy` (as a copy of the whole position did). The capture and
    // the bonus empty the opponent's pits that the effect lists, and count the capture.
    let own = side_range(board, mover);
    let saved: [u16; MAX_CIRCUIT] = pos.pits()[own.start..][..MAX_CIRCUIT]
        .try_into()
        .expect("a seat's rows start at most half-way");
    let captures = pos.capture_counts();
    let played = play(
        rules,
        pos,
        start_place,
        lift,
        stop,
        &sowing.bonus,
        mode,
        effect,
    );
    if played.is_err() {
        undo_sowing(rules, pos.pits_mut(), own, &saved, effect);
        pos.restore_captures(captures);
    }
    played
}

/// The sowing of a checked move, its capture and its bonus, in place: [`apply`] undoes
/// them if they fail.
// Inlined into `apply`, not a closure called on the spot, which compiles into a call
// every ply with its captures gathered into a frame.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn play(
    rules: &Rules,
    pos: &mut Position,
    start_place: usize,
    lift: u16,
    stop: Option<(usize, u32)>,
    bonus: &[BonusTake],
    mode: Mode,
    effect: &mut Effect,
) -> Result<(), Illegal> {
    let mover = pos.side();
    let end = sow_with_stop(
        rules,
        pos.pits_mut(),
        mover,
        start_place,
        lift,
        stop,
        effect,
    )?;
    effect.end = Some(rules.board().pit(end.pit));
    effect.stopped_at_head = !end.in_empty;
    let required = if end.in_empty {
        capture::<false>(rules, pos, mover, end.pit, effect).map(|due| due.count)
    } else {
        None
    };
    // A ply that captured nothing and names no bonus owes none and takes none.
    if required.is_some() || !bonus.is_empty() {
        take_bonus(rules, pos, required, bonus, mode, effect)?;
    }
    pos.pass_turn();
    Ok(())
}

/// Sows from `start_place`, relaying at every occupied lap end except the `k`-th arrival
/// of a lap at the occupied head `stop = (head, k)`, where the player stops.
// Inlined into `apply`: out of line, every ply paid for the call and its arguments.
#[inline(always)]
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
    // Only a player's stop may need the sowing run again from the start. The sowing
    // touches only the mover's rows: a window of a seat's most pits from the first of
    // them is kept, of a fixed size that copies without a call to `memcpy`.
    let own = side_range(board, mover);
    let original: Option<[u16; MAX_CIRCUIT]> = stop.map(|_| {
        pits[own.start..][..MAX_CIRCUIT]
            .try_into()
            .expect("a seat's rows start at most half-way")
    });
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
        rules.max_laps(),
        None,
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
    let (Err(Illegal::EndlessSowing { laps: d }), Some((head, k)), Some(original)) =
        (&first, stop, original)
    else {
        return first;
    };
    pits[own.start..][..MAX_CIRCUIT].copy_from_slice(&original);
    sow_to_late_stop(rules, pits, mover, start_place, lift, (head, k), *d, effect)
}

/// [`sow_with_stop`] again, from the original `pits`, when the always-relay sowing
/// cycles (its lap-end state recurred at lap D = `d`) but the player's stop may still
/// come in a later round of the cycle. A cycle is at most D laps long and the state at
/// lap D is on it, so if the cycle passes the occupied head at all, the k-th arrival
/// comes within D * (k + 1) laps; and if no arrival comes in the D laps after lap D, the
/// cycle never passes it. Re-run without detection, bounded so.
// Out of line: a stop at a head of an endless sowing is rare, and inlining this second
// sowing would keep the first out of line.
#[allow(clippy::too_many_arguments)]
#[cold]
#[inline(never)]
fn sow_to_late_stop(
    rules: &Rules,
    pits: &mut [u16; MAX_PITS],
    mover: Side,
    start_place: usize,
    lift: u16,
    (head, k): (usize, u32),
    d: u64,
    effect: &mut Effect,
) -> Result<SowEnd, Illegal> {
    effect.laps.clear();
    effect.lap_count = 0;
    effect.stones_sown = 0;
    // Within the rules' lap budget: a stop that comes later is undecided.
    let max_laps = d.saturating_mul(k as u64 + 1).min(rules.max_laps());
    let mut arrivals = 0u32;
    let mut seen_after_d = false;
    relay_sow(
        pits,
        rules.board(),
        rules.circuit(mover),
        start_place,
        lift,
        effect,
        false,
        max_laps,
        None,
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

/// What a capture leaves the mover to take: `count` of the `eligible` opponent pits.
struct BonusDue {
    count: usize,
    /// The eligible pits as a bit set: bit i is pit index `first + i` (none unless the
    /// capture was asked to list them).
    eligible: u64,
    first: usize,
}

impl BonusDue {
    fn eligible(&self) -> impl Iterator<Item = usize> + '_ {
        places(self.eligible).map(|i| self.first + i)
    }
}

/// The capture of a move that ended by itself in the empty pit `end`: if that pit is in
/// the mover's inner row and the opponent's opposite inner pit is occupied, empty it and
/// the outer pit behind it. Returns the bonus then due, or `None` when nothing was
/// captured; its eligible pits only with `LIST`.
// Inlined into `apply`, for the plies that capture nothing (most of them), which it
// answers at once; the capture itself is out of line.
#[inline(always)]
fn capture<const LIST: bool>(
    rules: &Rules,
    pos: &mut Position,
    mover: Side,
    end: usize,
    effect: &mut Effect,
) -> Option<BonusDue> {
    let n = rules.board().cols() as usize;
    // The rows a, b, c, d lie n pits apart in the pit array: from the mover's inner row,
    // the opposite pit is one row on and the pit behind it two, up for South, down for
    // North.
    let (inner_row, step) = match mover {
        Side::South => (n..2 * n, n as isize),
        Side::North => (2 * n..3 * n, -(n as isize)),
    };
    if !inner_row.contains(&end) {
        return None;
    }
    let opposite = end.wrapping_add_signed(step);
    if pos.pits()[opposite] == 0 {
        return None;
    }
    Some(take_captured::<LIST>(
        rules, pos, mover, opposite, step, effect,
    ))
}

/// [`capture`] of the occupied pit `opposite` and the pit behind it, `step` further on.
#[inline(never)]
fn take_captured<const LIST: bool>(
    rules: &Rules,
    pos: &mut Position,
    mover: Side,
    opposite: usize,
    step: isize,
    effect: &mut Effect,
) -> BonusDue {
    let board = rules.board();
    let n = board.cols() as usize;
    let behind = opposite.wrapping_add_signed(step);
    let stones = pos.pits()[opposite];
    effect.captured.push((board.pit(opposite), stones));
    pos.pits_mut()[opposite] = 0;
    let stones = pos.pits()[behind];
    if stones > 0 {
        effect.captured.push((board.pit(behind), stones));
        pos.pits_mut()[behind] = 0;
    }
    // Graded bonus: the mover's own capture number counts every capture, even one whose
    // bonus was cut short by too few eligible pits.
    let nth = pos.captures(mover) as u32 + 1;
    let bonus = options(rules).bonus_for_capture(nth) as usize;
    pos.count_capture(mover);
    // The bonus pits: the opponent's non-empty pits, but no head unless `head-bonus=yes`
    // (heads are sanctuaries). The mover takes as many as due, or all there are.
    let opponent = mover.opponent();
    let first = side_range(board, opponent).start;
    let mut sanctuaries = 0u64;
    if !options(rules).head_bonus {
        let heads = HeadPits::of(rules, opponent);
        for &head in &heads.pits[..heads.len] {
            sanctuaries |= 1 << (head - first);
        }
    }
    if !LIST {
        // Applying a move needs only how many pits are due: counted up to the bonus, in
        // place of the set of every eligible pit (most captures find theirs in the first
        // few pits).
        return BonusDue {
            count: count_occupied(pos.pits(), first, 2 * n, sanctuaries, bonus),
            eligible: 0,
            first,
        };
    }
    let eligible = pits_holding(pos.pits(), first, 2 * n, 1) & !sanctuaries;
    BonusDue {
        count: bonus.min(eligible.count_ones() as usize),
        eligible,
        first,
    }
}

/// How many of the pits `pits[first + i]`, i < len and bit i not in `skipped`, hold a
/// stone, counted up to `enough` at most.
fn count_occupied(
    pits: &[u16; MAX_PITS],
    first: usize,
    len: usize,
    skipped: u64,
    enough: usize,
) -> usize {
    let mut count = 0;
    for (i, &stones) in pits[first..first + len].iter().enumerate() {
        if count == enough {
            break;
        }
        count += usize::from(stones != 0 && skipped >> i & 1 == 0);
    }
    count
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
    let opponent = pos.side().opponent();
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
        let stones = pos.stones(pit);
        if stones == 0 {
            return Err(Illegal::BonusEmptyPit { pit });
        }
        if let Some(n) = take.stones {
            return Err(Illegal::BonusPitPartial { pit, stones: n });
        }
        if !options(rules).head_bonus && HeadPits::of(rules, opponent).contains(board.index(pit)) {
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

/// The circuit places a move may start from, as a bit set (bit k: place k): pits
/// holding two or more; only when there are none, single stones whose next pit is empty.
///
/// A seat's circuit is its first row left to right, then its second row right to left,
/// and both rows are contiguous in the pit array: a scan in index order gives the first
/// row's bits as they are and the second row's reversed.
fn starts(rules: &Rules, pos: &Position) -> u64 {
    let n = rules.board().cols() as usize;
    let first = side_range(rules.board(), pos.side()).start;
    starts_given(pos, first, n, most_stones(rules, pos))
}

/// The most stones in one pit of the side to move.
fn most_stones(rules: &Rules, pos: &Position) -> u16 {
    let own = side_range(rules.board(), pos.side());
    pos.pits()[own].iter().copied().max().unwrap_or(0)
}

/// [`starts`] for the side whose 2n pits begin at index `first` and hold at most `most`.
fn starts_given(pos: &Position, first: usize, n: usize, most: u16) -> u64 {
    let circuit_order = |bits: u64| {
        let first_row = bits & ((1 << n) - 1);
        let second_row = (bits >> n).reverse_bits() >> (64 - n);
        first_row | second_row << n
    };
    if most >= 2 {
        return circuit_order(pits_holding(pos.pits(), first, 2 * n, 2));
    }
    // Singletons: the next place of k is k + 1, round the circuit's 2n places.
    let single = circuit_order(pits_holding(pos.pits(), first, 2 * n, 1));
    let empty = !single & ((1 << (2 * n)) - 1);
    let next_empty = empty >> 1 | (empty & 1) << (2 * n - 1);
    single & next_empty
}

/// Bit i set where `pits[first + i]` holds at least `min` (1 or 2) stones, for i < len.
/// Four pits at a time in a u64 (SWAR): this runs on most plies of a playout. Reading up
/// to three pits past the seat's side stays inside the array (4 * 21 + 3 < `MAX_PITS`)
/// and their bits are masked off.
fn pits_holding(pits: &[u16; MAX_PITS], first: usize, len: usize, min: u16) -> u64 {
    const LANES: u64 = 0x0001_0001_0001_0001;
    const LOW15: u64 = 0x7fff * LANES;
    // Moves each lane's bit 0 (bit 16j) to bit 48 + j, with no carries into bits 48..63.
    const GATHER: u64 = 1 << 48 | 1 << 33 | 1 << 18 | 1 << 3;
    // At least 2: the lane is non-zero once its lowest bit is dropped.
    let keep = if min >= 2 { !LANES } else { !0 };
    let mut bits = 0u64;
    for chunk in (0..len).step_by(4) {
        let i = first + chunk;
        let Some(&[a, b, c, d]) = pits.get(i..i + 4) else {
            unreachable!("a seat's side plus three pits is inside the pit array")
        };
        let word = u64::from(a) | u64::from(b) << 16 | u64::from(c) << 32 | u64::from(d) << 48;
        let x = word & keep;
        let non_zero = ((((x & LOW15) + LOW15) | x) >> 15) & LANES;
        bits |= (non_zero.wrapping_mul(GATHER) >> 48) << chunk;
    }
    bits & ((1 << len) - 1)
}

/// The places of a bit set, lowest first.
fn places(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let place = (bits != 0).then(|| bits.trailing_zeros() as usize);
        bits &= bits.wrapping_sub(1);
        place
    })
}

/// The `k`-th (0-based) place of a bit set.
fn nth_place(mut bits: u64, k: usize) -> usize {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits.trailing_zeros() as usize
}

pub(crate) fn legal_moves(rules: &Rules, pos: &Position, out: &mut impl Candidates) {
    let board = rules.board();
    let mover = pos.side();
    let circuit = rules.circuit(mover);
    let heads = HeadPits::of(rules, mover);
    // A listing reads no lap: they are counted, not kept.
    let mut effect = Effect {
        lap_counts_only: true,
        ..Effect::default()
    };
    // Each candidate is sown on a copy of the position, made once.
    let mut after = pos.clone();
    for place in places(starts(rules, pos)) {
        let from = board.pit(circuit[place] as usize);
        after.clone_from(pos);
        let lift = after.pits()[circuit[place] as usize];
        // Heads in the order of their first arrival, and the arrivals at each.
        let mut arrivals = [(0usize, 0u32); 2];
        let mut reached = 0;
        effect.clear();
        // Every lap ending at an occupied head offers a stop; the always-relay sowing
        // goes on past it. A detected cycle stops the listing: its arrivals repeat.
        let relayed = relay_sow(
            after.pits_mut(),
            board,
            circuit,
            place,
            lift,
            &mut effect,
            true,
            rules.max_laps(),
            None,
            |end, _| {
                if heads.contains(end.pit) {
                    match arrivals[..reached].iter_mut().find(|(h, _)| *h == end.pit) {
                        Some((_, n)) => *n += 1,
                        None => {
                            arrivals[reached] = (end.pit, 1);
                            reached += 1;
                        }
                    }
                }
                Ok(Next::Relay)
            },
        );
        // The stops at a head on its first to its last arrival: one candidate.
        for &(head, last) in &arrivals[..reached] {
            let stop = HeadStop {
                head: board.pit(head),
                arrival: 1,
            };
            // The stops on the first to the last arrival: `last` plies.
            out.take(last.into(), || Candidate {
                mv: Move::Sow(Sowing {
                    stop: Some(stop),
                    ..Sowing::from(from)
                }),
                captures: false,
                bonus: BonusChoice::None,
                last_arrival: last,
            });
        }
        let Ok(end) = relayed else { continue };
        // A sowing that ends is one ply, whatever it captures: only the candidate reads
        // the capture.
        out.take(1, || {
            effect.clear();
            let due = capture::<true>(rules, &mut after, mover, end.pit, &mut effect);
            let bonus = match &due {
                Some(due) if due.count > 0 => BonusChoice::Pits {
                    count: due.count,
                    eligible: due.eligible().map(|p| board.pit(p)).collect(),
                },
                _ => BonusChoice::None,
            };
            Candidate::single(Move::Sow(Sowing::from(from)), due.is_some(), bonus)
        });
    }
}

pub(crate) fn has_legal_move(rules: &Rules, pos: &Position) -> bool {
    let board = rules.board();
    let mover = pos.side();
    let circuit = rules.circuit(mover);
    let heads = HeadPits::of(rules, mover);
    let mut effect = Effect::default();
    places(starts(rules, pos)).any(|place| {
        let mut pits = *pos.pits();
        let lift = pits[circuit[place] as usize];
        effect.clear();
        // Stopping at the first occupied head is as good a witness as ending by itself;
        // a sowing left undecided by the lap budget may be legal: the game is not known
        // to be over.
        let sown = relay_sow(
            &mut pits,
            board,
            circuit,
            place,
            lift,
            &mut effect,
            true,
            rules.max_laps(),
            None,
            |end, _| {
                Ok(if heads.contains(end.pit) {
                    Next::Stop
                } else {
                    Next::Relay
                })
            },
        );
        !matches!(sown, Err(Illegal::EndlessSowing { .. }))
    })
}

pub(crate) fn play_random(
    rules: &Rules,
    pos: &mut Position,
    rng: &mut Rng,
    effect: &mut Effect,
) -> Option<Move> {
    let board = rules.board();
    let mover = pos.side();
    let circuit = rules.circuit(mover);
    let heads = HeadPits::of(rules, mover);
    let own = side_range(board, mover);
    let most = most_stones(rules, pos);
    if most == 0 {
        return None;
    }
    // While pits hold two or more, a few random probes find one uniformly in most plies;
    // only when they all miss (and in the singleton endgame) is the whole set of starts
    // computed, which is uniform too.
    let len = circuit.len();
    let mut probed = None;
    if most >= 2 {
        'probing: for _ in 0..2 {
            let random = rng.next_u64();
            for k in 0..4 {
                let place = ((random >> (16 * k) & 0xffff) as usize * len) >> 16;
                if pos.pits()[circuit[place] as usize] >= 2 {
                    probed = Some(place);
                    break 'probing;
                }
            }
        }
    }
    let mut rest: Option<u64> = None;
    // Only the mover's side changes while sowing: keep it to undo an endless sowing.
    let mut original = [0u16; MAX_CIRCUIT];
    original[..len].copy_from_slice(&pos.pits()[own.clone()]);
    let restore =
        |pos: &mut Position| pos.pits_mut()[own.clone()].copy_from_slice(&original[..len]);
    loop {
        let place = match probed.take() {
            Some(place) => place,
            None => {
                let set = rest.get_or_insert_with(|| starts_given(pos, own.start, len / 2, most));
                if *set == 0 {
                    return None;
                }
                let place = nth_place(*set, rng.below(set.count_ones() as usize));
                *set &= !(1 << place);
                place
            }
        };
        let from_index = circuit[place] as usize;
        let lift = pos.pits()[from_index];
        let mut arrivals = [0u32; 2];
        let mut first_arrival = None;
        let mut stop = None;
        effect.clear();
        // At each occupied head, stop with probability 1/2.
        let sown = relay_sow(
            pos.pits_mut(),
            board,
            circuit,
            place,
            lift,
            effect,
            true,
            rules.max_laps(),
            None,
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
        // Endless if always relayed; but a stop at the first occupied head seen is legal
        // (the cycle was gone round in full before it was detected).
        let sown = sown.ok().or_else(|| {
            let first = first_arrival?;
            restore(pos);
            stop = Some(first);
            effect.clear();
            sow_with_stop(rules, pos.pits_mut(), mover, place, lift, stop, effect).ok()
        });
        let Some(end) = sown else {
            restore(pos);
            rest.get_or_insert_with(|| starts_given(pos, own.start, len / 2, most) & !(1 << place));
            continue;
        };
        effect.end = Some(board.pit(end.pit));
        effect.stopped_at_head = !end.in_empty;
        let mut bonus = Vec::new();
        if end.in_empty {
            if let Some(due) = capture::<true>(rules, pos, mover, end.pit, effect) {
                bonus = random_bonus(rules, pos, due, rng, effect);
            }
        }
        pos.pass_turn();
        return Some(Move::Sow(Sowing {
            from: board.pit(from_index),
            lift: None,
            stop: stop.map(|(head, arrival)| HeadStop {
                head: board.pit(head),
                arrival,
            }),
            bonus,
        }));
    }
}

/// Takes the bonus due: distinct eligible opponent pits chosen at random, whole.
fn random_bonus(
    rules: &Rules,
    pos: &mut Position,
    mut due: BonusDue,
    rng: &mut Rng,
    effect: &mut Effect,
) -> Vec<BonusTake> {
    let board = rules.board();
    let mut taken = Vec::with_capacity(due.count);
    for _ in 0..due.count {
        let bit = nth_place(due.eligible, rng.below(due.eligible.count_ones() as usize));
        due.eligible &= !(1 << bit);
        let p = due.first + bit;
        let pit = board.pit(p);
        effect.bonus.push((pit, pos.pits()[p]));
        pos.pits_mut()[p] = 0;
        taken.push(BonusTake { pit, stones: None });
    }
    taken
}
