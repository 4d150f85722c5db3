//! The relay-sowing engine shared by the sowing games.
//!
//! Lift stones from a pit and drop one into each following pit of a circuit; a *lap* ends
//! where its last stone lands. The game decides at each lap that ends in an occupied pit
//! whether to relay (lift that pit's whole content, the last stone included, and sow on)
//! or stop. A lap that ends in an empty pit ends the move (RULES.md, "Geometry").
//!
//! A move that can never end is detected with Brent's cycle detection over lap-end
//! states (the circuit's contents and the lap-end place), in bounded memory: one saved
//! state, which each later lap end is compared with in place, whatever the number of
//! laps.

use crate::geometry::{Board, MAX_PITS};
use crate::moves::{Effect, Illegal};

/// A lap that ended in an occupied pit: the decision point of a relay.
#[derive(Copy, Clone, Debug)]
pub(crate) struct LapEnd {
    /// 1-based lap number.
    pub lap: u64,
    /// Pit index where the lap ended.
    pub pit: usize,
    /// The pit's place on the circuit.
    pub place: usize,
    /// Stones now in the pit, the last stone included.
    pub stones: u16,
}

/// The game's decision at a lap that ended in an occupied pit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    Relay,
    Stop,
}

/// How a sowing ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct SowEnd {
    /// Pit index of the last lap's end.
    pub pit: usize,
    /// Its place on the circuit.
    pub place: usize,
    /// The last lap ended in a pit that was empty (the move ended by itself); otherwise
    /// the game chose to stop.
    pub in_empty: bool,
}

/// Laps before cycle detection starts comparing states. Brent's method works from any
/// point of the sequence, so starting late only delays detection by this many laps and
/// spares the common short sowing the comparisons.
const DETECT_AFTER: u64 = 64;

/// The state of Brent's cycle detection.
struct Brent {
    /// The saved lap-end state: the circuit's contents, then the lap-end place.
    saved: [u16; MAX_CIRCUIT + 1],
    have_saved: bool,
    power: u64,
    lam: u64,
}

impl Brent {
    fn new() -> Brent {
        Brent {
            saved: [0; MAX_CIRCUIT + 1],
            have_saved: false,
            power: 1,
            lam: 0,
        }
    }

    /// Saves the state of the lap that ended at `end_place`.
    fn save(&mut self, pits: &[u16], circuit: &[u8], end_place: usize) {
        for (slot, &p) in self.saved.iter_mut().zip(circuit) {
            *slot = pits[p as usize];
        }
        self.saved[circuit.len()] = end_place as u16;
    }

    /// Whether the state of the lap that ended at `end_place` is the saved one. The
    /// place first: most states differ there, and their pits are then not read.
    fn is_saved(&self, pits: &[u16], circuit: &[u8], end_place: usize) -> bool {
        self.saved[circuit.len()] == end_place as u16
            && (circuit.iter().zip(&self.saved)).all(|(&p, &stones)| pits[p as usize] == stones)
    }
}

/// Longest circuit: both rows of a seat on a 4×36 board (or Kiothi's 20 pits).
const MAX_CIRCUIT: usize = 72;

/// Laps whose lifts a [`SowUndo`] keeps. Most sowings end within a few laps; a longer one
/// keeps the pits as they were instead, rebuilt once from these laps.
const LIFTS_KEPT: usize = 32;

/// What undoes a sowing of [`relay_sow`]: the stones each lap lifted from its start, from
/// which the laps are sown back, last lap first. A sowing that runs past [`LIFTS_KEPT`]
/// laps (every endless one among them) keeps the pits from before it instead. Cheaper
/// than a copy of the circuit before every sowing, which a ply almost never needs.
pub(crate) struct SowUndo {
    /// The circuit place of the first lap's start.
    start_place: usize,
    /// The lifts of the first laps; past them, the last slot is written over (`before`
    /// undoes those sowings).
    lifts: [u16; LIFTS_KEPT],
    /// The pits before the sowing, once it ran past the kept laps.
    before: Option<[u16; MAX_PITS]>,
}

impl SowUndo {
    pub(crate) fn new(start_place: usize) -> SowUndo {
        SowUndo {
            start_place,
            lifts: [0; LIFTS_KEPT],
            before: None,
        }
    }

    /// Keeps the lift of `lap` (1-based). Branch-free: a lap past the kept ones writes
    /// over the last slot.
    #[inline(always)]
    fn record(&mut self, lap: u64, stones: u16) {
        self.lifts[(lap as usize - 1).min(LIFTS_KEPT - 1)] = stones;
    }

    /// At the end of the last kept lap of a sowing that goes on: keeps the pits as they
    /// were before the sowing, the kept laps sown back on a copy.
    #[cold]
    #[inline(never)]
    fn keep_before(&mut self, pits: &[u16], circuit: &[u8]) {
        let mut before = [0u16; MAX_PITS];
        before[..pits.len()].copy_from_slice(pits);
        unsow(&mut before, circuit, self.start_place, &self.lifts);
        self.before = Some(before);
    }

    /// Gives the circuit of a sowing of `laps` laps the stones it held before it. The
    /// sowing must have been made on `pits` with this undo, around `circuit`.
    #[cold]
    #[inline(never)]
    pub(crate) fn undo(&self, pits: &mut [u16], circuit: &[u8], laps: u64) {
        match &self.before {
            Some(before) => {
                for &p in circuit {
                    pits[p as usize] = before[p as usize];
                }
            }
            None => {
                let laps = laps as usize;
                debug_assert!(laps <= LIFTS_KEPT);
                unsow(pits, circuit, self.start_place, &self.lifts[..laps]);
            }
        }
    }
}

/// Sows back the laps of a sowing from circuit place `start_place` that lifted `lifts`,
/// last lap first: each lap takes back a stone from each pit it dropped one in, and its
/// start gets back the stones it lifted.
fn unsow(pits: &mut [u16], circuit: &[u8], start_place: usize, lifts: &[u16]) {
    let len = circuit.len();
    // Each lap starts where the one before ended, `stones % len` places on.
    let on = |place: usize, stones: u16| (place + stones as usize % len) % len;
    let mut place = start_place;
    if let Some((_, before_last)) = lifts.split_last() {
        for &stones in before_last {
            place = on(place, stones);
        }
    }
    for (n, &stones) in lifts.iter().enumerate().rev() {
        let rounds = stones / len as u16;
        let mut dropped = place;
        for _ in 0..stones as usize % len {
            dropped += 1;
            if dropped == len {
                dropped = 0;
            }
            pits[circuit[dropped] as usize] -= 1;
        }
        if rounds > 0 {
            for &p in circuit {
                pits[p as usize] -= rounds;
            }
        }
        pits[circuit[place] as usize] += stones;
        if n > 0 {
            place = (place + len - on(0, lifts[n - 1])) % len;
        }
    }
}

/// Where the first lap of `lift` stones from circuit place `place` ends (a pit index),
/// and what that pit held before the lap's last stone: 0 when the lap ends in an empty
/// pit, and the move with it (no relay, no stop offered), which is then known without
/// sowing it. `lift` is at least 1 and at most what the start pit holds.
pub(crate) fn first_lap_end(pits: &[u16], circuit: &[u8], place: usize, lift: u16) -> (usize, u16) {
    let len = circuit.len();
    let end = circuit[(place + lift as usize) % len] as usize;
    // Each pit after the start gets a stone a round, the lap's end the last of them;
    // the start gave up the stones lifted.
    let lifted_here = if end == circuit[place] as usize {
        lift
    } else {
        0
    };
    (end, pits[end] - lifted_here + (lift - 1) / len as u16)
}

/// Sows `lift` stones from circuit place `start_place` around `circuit` (pit indices),
/// relaying while `at_occupied_end` says so, and records the laps in `effect`.
///
/// The stones are taken out of the start pit here. `at_occupied_end` sees the lap end
/// and the pits after the lap. With `detect_cycles`, a lap-end state that recurs is
/// reported as [`Illegal::EndlessSowing`]. A sowing neither ended nor proved endless
/// after `max_laps` laps is [`Illegal::UndecidedSowing`]. On either error the caller must
/// discard `pits` (or undo them by `undo`).
///
/// With `undo`, the sowing keeps what undoes it (a [`SowUndo`] of `start_place`).
// Inlined into each game's sowing, as the decision it is given is.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn relay_sow(
    pits: &mut [u16],
    board: Board,
    circuit: &[u8],
    start_place: usize,
    lift: u16,
    effect: &mut Effect,
    detect_cycles: bool,
    max_laps: u64,
    mut undo: Option<&mut SowUndo>,
    mut at_occupied_end: impl FnMut(&LapEnd, &[u16]) -> Result<Next, Illegal>,
) -> Result<SowEnd, Illegal> {
    let len = circuit.len();
    debug_assert!(len <= MAX_CIRCUIT);
    // A single stone into an empty next pit (most plies of a long Nsolo game): the one
    // lap it makes, ending the move, without the set-up of the laps below.
    if lift == 1 {
        let next = if start_place + 1 >= len {
            0
        } else {
            start_place + 1
        };
        let start_pit = circuit[start_place] as usize;
        let end_pit = circuit[next] as usize;
        if pits[end_pit] == 0 && end_pit != start_pit {
            pits[start_pit] -= 1;
            pits[end_pit] = 1;
            if let Some(undo) = undo {
                undo.record(1, 1);
            }
            effect.push_lap_between(board, start_pit, end_pit, 1);
            return Ok(SowEnd {
                pit: end_pit,
                place: next,
                in_empty: true,
            });
        }
    }
    let mut place = start_place;
    let mut stones = lift;
    pits[circuit[place] as usize] -= lift;

    // Brent's cycle detection, set up only when a sowing runs long: `saved` is the
    // tortoise, compared with every later state until `power` laps have passed, then
    // moved up to the hare. On the stack: Kiothi's sowings often run past
    // `DETECT_AFTER` laps, and a box would cost them an allocation each.
    let mut brent: Option<Brent> = None;

    let mut lap: u64 = 0;
    loop {
        lap += 1;
        if let Some(undo) = undo.as_deref_mut() {
            undo.record(lap, stones);
        }
        let start_pit = circuit[place] as usize;
        // Drop the stones: whole rounds first, then the rest one by one. Most laps make
        // no round, and skip the division.
        let (rounds, rest) = match stones as usize {
            stones if stones < len => (0, stones),
            stones => ((stones / len) as u16, stones % len),
        };
        if rounds > 0 {
            for &p in circuit {
                pits[p as usize] += rounds;
            }
        }
        let mut end_place = place;
        for _ in 0..rest {
            // `>=`, not `==`: the place is then known to be on the circuit, and is read
            // without a check of the circuit's bounds for every stone.
            end_place = if end_place + 1 >= len {
                0
            } else {
                end_place + 1
            };
            pits[circuit[end_place] as usize] += 1;
        }
        let end_pit = circuit[end_place] as usize;
        effect.push_lap_between(board, start_pit, end_pit, stones as u32);
        if pits[end_pit] == 1 {
            return Ok(SowEnd {
                pit: end_pit,
                place: end_place,
                in_empty: true,
            });
        }
        let end = LapEnd {
            lap,
            pit: end_pit,
            place: end_place,
            stones: pits[end_pit],
        };
        if at_occupied_end(&end, pits)? == Next::Stop {
            return Ok(SowEnd {
                pit: end_pit,
                place: end_place,
                in_empty: false,
            });
        }
        if let Some(undo) = undo.as_deref_mut() {
            if lap == LIFTS_KEPT as u64 {
                undo.keep_before(pits, circuit);
            }
        }
        if lap >= max_laps {
            return Err(Illegal::UndecidedSowing { laps: lap });
        }
        if detect_cycles && lap >= DETECT_AFTER {
            let b = brent.get_or_insert_with(Brent::new);
            if b.have_saved {
                b.lam += 1;
                if b.is_saved(pits, circuit, end_place) {
                    return Err(Illegal::EndlessSowing { laps: lap });
                }
                if b.lam == b.power {
                    b.save(pits, circuit, end_place);
                    b.power *= 2;
                    b.lam = 0;
                }
            } else {
                b.save(pits, circuit, end_place);
                b.have_saved = true;
            }
        }
        // Relay: lift the whole pit, the last stone included.
        stones = pits[end_pit];
        pits[end_pit] = 0;
        place = end_place;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Direction, Side};

    fn circuit(board: Board) -> Vec<u8> {
        board
            .circuit(Side::South, Direction::CounterClockwise)
            .into_iter()
            .map(|p| board.index(p) as u8)
            .collect()
    }

    #[test]
    fn a_lap_into_an_empty_pit_ends_the_move() {
        let board = Board::new(4, 4).unwrap();
        let c = circuit(board);
        let mut pits = vec![0u16; board.len()];
        pits[0] = 2; // a1
        let mut effect = Effect::default();
        let end = relay_sow(
            &mut pits,
            board,
            &c,
            0,
            2,
            &mut effect,
            true,
            u64::MAX,
            None,
            |_, _| Ok(Next::Relay),
        )
        .unwrap();
        assert_eq!(board.pit(end.pit).to_string(), "a3");
        assert!(end.in_empty);
        assert_eq!(&pits[..4], &[0, 1, 1, 0]);
        assert_eq!(effect.lap_count, 1);
        assert_eq!(effect.stones_sown, 2);
    }

    #[test]
    fn lap_counts_only_counts_the_laps_it_does_not_keep() {
        let board = Board::new(4, 2).unwrap(); // circuit a1 a2 b2 b1
        let c = circuit(board);
        let sow = |effect: &mut Effect| {
            let mut pits = vec![0u16; board.len()];
            pits[0] = 5;
            relay_sow(
                &mut pits,
                board,
                &c,
                0,
                5,
                effect,
                true,
                u64::MAX,
                None,
                |_, _| Ok(Next::Relay),
            )
            .unwrap()
        };
        let mut kept = Effect::default();
        let mut counted = Effect {
            lap_counts_only: true,
            ..Effect::default()
        };
        assert_eq!(sow(&mut kept), sow(&mut counted));
        assert_eq!(kept.laps.len(), 3);
        assert!(counted.laps.is_empty());
        assert_eq!(
            (counted.lap_count, counted.stones_sown),
            (kept.lap_count, kept.stones_sown)
        );
        counted.clear();
        assert!(counted.lap_counts_only, "clear keeps the setting");
    }

    #[test]
    fn a_long_lap_does_not_skip_the_origin() {
        let board = Board::new(4, 2).unwrap(); // circuit a1 a2 b2 b1
        let c = circuit(board);
        let mut pits = vec![0u16; board.len()];
        pits[0] = 5;
        let mut effect = Effect::default();
        // 5 stones from a1: a2 b2 b1 a1 a2: ends in a2 (holding 2): relay 2 -> b2, b1
        // (holding 2): relay 2 -> a1, a2 (emptied by the first relay): the move ends.
        let end = relay_sow(
            &mut pits,
            board,
            &c,
            0,
            5,
            &mut effect,
            true,
            u64::MAX,
            None,
            |_, _| Ok(Next::Relay),
        )
        .unwrap();
        assert_eq!(board.pit(end.pit).to_string(), "a2");
        assert!(end.in_empty);
        assert_eq!(effect.lap_count, 3);
        assert_eq!(pits.iter().sum::<u16>(), 5);
    }

    /// Every filling of the circuit `c` of `board` with 0 to `most - 1` stones a pit
    /// whose first pit (the start) is not empty, numbered.
    fn starts(board: Board, c: &[u8], most: u32) -> impl Iterator<Item = (u32, Vec<u16>)> + '_ {
        (0..most.pow(c.len() as u32)).filter_map(move |code| {
            let mut pits = vec![0u16; board.len()];
            let mut k = code;
            for &p in c {
                pits[p as usize] = (k % most) as u16;
                k /= most;
            }
            (pits[0] > 0).then_some((code, pits))
        })
    }

    /// A sowing undone by its `SowUndo` leaves the pits as they were: short sowings by
    /// their lifts, long and endless ones by the pits kept before them.
    #[test]
    fn a_sowing_is_undone_by_its_lifts() {
        let board = Board::new(4, 2).unwrap();
        let c = circuit(board);
        let (mut long, mut endless) = (0, 0);
        for (code, pits) in starts(board, &c, 7) {
            let mut sown = pits.clone();
            let mut undo = SowUndo::new(0);
            let mut effect = Effect::default();
            let end = relay_sow(
                &mut sown,
                board,
                &c,
                0,
                pits[0],
                &mut effect,
                true,
                u64::MAX,
                Some(&mut undo),
                |_, _| Ok(Next::Relay),
            );
            long += (effect.lap_count > LIFTS_KEPT as u64) as u32;
            endless += end.is_err() as u32;
            undo.undo(&mut sown, &c, effect.lap_count);
            assert_eq!(sown, pits, "{code}");
        }
        assert!(
            endless > 0 && long > endless,
            "{long} long, {endless} endless"
        );
    }

    #[test]
    fn endless_sowings_are_detected_exactly() {
        // Every small configuration on a 4x2 board: a sowing reported endless must not
        // end within a generous bound, and one reported finished must finish the same
        // way without detection.
        let board = Board::new(4, 2).unwrap();
        let c = circuit(board);
        let mut endless = 0;
        for (_, pits) in starts(board, &c, 6) {
            let lift = pits[0];
            let (mut a, mut b) = (pits.clone(), pits.clone());
            let mut e = Effect::default();
            let detected = relay_sow(
                &mut a,
                board,
                &c,
                0,
                lift,
                &mut e,
                true,
                u64::MAX,
                None,
                |_, _| Ok(Next::Relay),
            );
            let bounded = relay_sow(
                &mut b,
                board,
                &c,
                0,
                lift,
                &mut e,
                false,
                100_000,
                None,
                |_, _| Ok(Next::Relay),
            );
            match (detected, bounded) {
                (Err(Illegal::EndlessSowing { .. }), Err(Illegal::UndecidedSowing { .. })) => {
                    endless += 1
                }
                (Ok(x), Ok(y)) => {
                    assert_eq!(x, y);
                    assert_eq!(a, b);
                }
                (x, y) => panic!("{pits:?}: detection says {x:?}, bounded run says {y:?}"),
            }
        }
        assert!(
            endless > 0,
            "no endless sowing among the small configurations"
        );
    }
}
