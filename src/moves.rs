//! Moves (every choice a player makes), their effects, and why a move is illegal.
//!
//! A [`Move`] is what the rules core accepts: it carries no text. The replay layer builds
//! moves from PMN plies; the `-END` check and the `x` mark are compared there against the
//! [`Effect`] that applying the move returns.

use std::fmt;

use thiserror::Error;

use crate::geometry::{Board, Pit, Side};

/// A move: a sowing (every game after Kiothi's opening) or Kiothi's opening
/// redistribution.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Sow(Sowing),
    Redistribute(Redistribution),
}

/// A sowing move and the choices made during it.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Sowing {
    /// The pit the move starts from: every sowing has one.
    pub from: Pit,
    /// Kiothi: the number of stones lifted (`:n`); `None` lifts them all.
    pub lift: Option<u16>,
    /// Tsoro: stop at this head on the k-th arrival of a lap at it while it is occupied.
    pub stop: Option<HeadStop>,
    /// Tsoro and Nsolo: the bonus taken after a capture, in the order written.
    pub bonus: Vec<BonusTake>,
}

impl Clone for Move {
    fn clone(&self) -> Move {
        match self {
            Move::Sow(sowing) => Move::Sow(sowing.clone()),
            Move::Redistribute(r) => Move::Redistribute(r.clone()),
        }
    }

    /// A sowing into a sowing is copied part by part, its bonus list reused: a log of
    /// moves copies each ply's move into one it keeps.
    fn clone_from(&mut self, source: &Move) {
        match (self, source) {
            (Move::Sow(to), Move::Sow(from)) => to.clone_from(from),
            (to, from) => *to = from.clone(),
        }
    }
}

impl Clone for Sowing {
    fn clone(&self) -> Sowing {
        Sowing {
            from: self.from,
            lift: self.lift,
            stop: self.stop,
            bonus: self.bonus.clone(),
        }
    }

    fn clone_from(&mut self, source: &Sowing) {
        // Every field named: one added must be copied here too.
        let Sowing {
            from,
            lift,
            stop,
            bonus,
        } = source;
        self.from = *from;
        self.lift = *lift;
        self.stop = *stop;
        self.bonus.clone_from(bonus);
    }
}

impl Move {
    /// A move for a replay to read plies into ([`crate::notation::read_move`] writes
    /// every part of it): a sowing from `a1` until then.
    pub(crate) fn buffer() -> Move {
        Move::Sow(Sowing::from(Pit::new(0, 1)))
    }

    /// The move as a sowing from `from` to fill in, made a sowing first if it is not
    /// one: a replay reads every ply into one move, reusing its bonus list.
    #[inline(always)]
    pub(crate) fn as_sowing_mut(&mut self, from: Pit) -> &mut Sowing {
        match self {
            Move::Sow(sowing) => sowing.from = from,
            Move::Redistribute(_) => *self = Move::Sow(Sowing::from(from)),
        }
        match self {
            Move::Sow(sowing) => sowing,
            Move::Redistribute(_) => unreachable!("made a sowing above"),
        }
    }
}

impl Sowing {
    /// A sowing from a pit with no further choices.
    pub fn from(pit: Pit) -> Sowing {
        Sowing {
            from: pit,
            lift: None,
            stop: None,
            bonus: Vec::new(),
        }
    }

    /// The start pit.
    pub fn start(&self) -> Pit {
        self.from
    }
}

/// Tsoro's choice to stop at an occupied head.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeadStop {
    pub head: Pit,
    /// 1-based: stop at the `arrival`-th lap that ends at `head` while it is occupied.
    pub arrival: u32,
}

/// One pit taken as a bonus: Tsoro takes whole pits; Nsolo names a count (`P:n`, `None`
/// for the whole pit).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BonusTake {
    pub pit: Pit,
    pub stones: Option<u16>,
}

/// Kiothi's opening redistribution: empty two own pits, place their stones freely.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Redistribution {
    pub emptied: [Pit; 2],
    /// Where the stones go, in the order written.
    pub placed: Vec<(Pit, u16)>,
}

/// One lap of a sowing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Lap {
    pub start: Pit,
    pub end: Pit,
    pub stones: u32,
}

/// The laps of an effect keep at most this many entries; `lap_count` and
/// `stones_sown` count them all, so a sowing of millions of laps stays small.
pub const LAP_DETAIL: usize = 4096;

/// What applying a move did.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Effect {
    /// The laps (the first [`LAP_DETAIL`] of them).
    pub laps: Vec<Lap>,
    /// Laps in all (an opening redistribution has none).
    pub lap_count: u64,
    /// Stones dropped in all laps.
    pub stones_sown: u64,
    /// Where the move ended (`None` for an opening redistribution).
    pub end: Option<Pit>,
    /// Tsoro: the move ended by the player's stop at an occupied head.
    pub stopped_at_head: bool,
    /// Captured pits and their stones, in the order taken. Kiothi lists the capturing
    /// stone's own pit last.
    pub captured: Vec<(Pit, u16)>,
    /// Bonus pits and the stones taken from each.
    pub bonus: Vec<(Pit, u16)>,
    /// Stones that went into the mover's prison (Kiothi).
    pub prison_gain: u16,
    /// Pits whose nki mark was cleared by lifting (Kiothi).
    pub nki_cleared: Vec<Pit>,
    /// Kiothi: this ply ended the opening, and every occupied pit was marked nki.
    pub nki_marked: bool,
    /// Rules broken by a move executed under [`Mode::Foul`].
    pub fouls: Vec<Illegal>,
    /// Keep no laps, only `lap_count` and `stones_sown`: set by a caller that reads no
    /// laps (a validation), to spare every lap its record. [`Effect::clear`] keeps it.
    pub lap_counts_only: bool,
}

impl Effect {
    /// Empties the effect, keeping its allocations, for reuse in a playout loop.
    pub fn clear(&mut self) {
        self.laps.clear();
        self.lap_count = 0;
        self.stones_sown = 0;
        self.end = None;
        self.stopped_at_head = false;
        self.captured.clear();
        self.bonus.clear();
        self.prison_gain = 0;
        self.nki_cleared.clear();
        self.nki_marked = false;
        self.fouls.clear();
    }

    /// Whether the move captured (its bonus aside).
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// Stones captured and taken as bonus, in all.
    pub fn stones_taken(&self) -> u32 {
        self.captured
            .iter()
            .chain(&self.bonus)
            .map(|&(_, s)| s as u32)
            .sum()
    }

    /// Records a lap, keeping the detail only for the first [`LAP_DETAIL`] laps (and
    /// none with `lap_counts_only`).
    pub fn push_lap(&mut self, lap: Lap) {
        self.lap_count += 1;
        self.stones_sown += lap.stones as u64;
        if !self.lap_counts_only && self.laps.len() < LAP_DETAIL {
            self.laps.push(lap);
        }
    }

    /// [`Effect::push_lap`] of a lap between two pit indices of `board`, which are
    /// turned into pits only when the lap is kept.
    // Inlined into every sowing: with Tsoro's sowing inlined into its `apply`, it would
    // otherwise stay out of line, a call every lap.
    #[inline(always)]
    pub(crate) fn push_lap_between(&mut self, board: Board, start: usize, end: usize, stones: u32) {
        self.lap_count += 1;
        self.stones_sown += stones as u64;
        if !self.lap_counts_only && self.laps.len() < LAP_DETAIL {
            self.laps.push(Lap {
                start: board.pit(start),
                end: board.pit(end),
                stones,
            });
        }
    }
}

/// How strictly a move is applied.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every rule holds; a broken rule makes the move illegal.
    Legal,
    /// PMN's `[%foul]`: execute the move as written where it can be executed
    /// mechanically, and list the rules it broke in [`Effect::fouls`].
    Foul,
}

/// Why a move is illegal (or, under [`Mode::Foul`], which rule it broke). Messages speak
/// the words of RULES.md.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Illegal {
    #[error("the game is over")]
    GameOver,
    #[error("there is no pit {pit} on this board")]
    NoSuchPit { pit: Pit },
    #[error("{pit} is not a pit of the side to move ({side})")]
    NotOwnPit { pit: Pit, side: Side },
    #[error("pit {pit} is empty")]
    EmptyPit { pit: Pit },
    #[error(
        "pit {pit} holds 1 stone; single stones may move only when no own pit holds two or more"
    )]
    SingletonWhileMultiple { pit: Pit },
    #[error(
        "the single stone in {pit} may move only into an empty next pit, and {next} holds {stones}"
    )]
    SingletonBlocked { pit: Pit, next: Pit, stones: u16 },
    #[error("the stone in {pit} may step only into an empty pit, and {next} is occupied")]
    StepBlocked { pit: Pit, next: Pit },
    #[error("{lift} stones cannot be lifted from {pit}, which holds {stones}")]
    LiftTooMany { pit: Pit, lift: u16, stones: u16 },
    #[error("a lift of 0 stones is no move")]
    LiftZero,
    #[error("only Kiothi lifts part of a pit (`:n`)")]
    PartialLiftNotAllowed,
    #[error("first lap ends in occupied own pit {pit}")]
    FirstLapOwnOccupied { pit: Pit },
    #[error("endless sowing: the lap-end state recurs after {laps} laps; this move can never end")]
    EndlessSowing { laps: u64 },
    #[error("undecided sowing: after {laps} laps the sowing has neither ended nor shown a recurring lap-end state; the lap budget ends the search here")]
    UndecidedSowing { laps: u64 },
    #[error("{pit} is not a head of {side}; only heads offer a stop")]
    NotAHead { pit: Pit, side: Side },
    #[error("{taken} bonus pits taken, {required} required")]
    BonusCount { taken: usize, required: usize },
    #[error("{taken} bonus stones taken, {required} required")]
    BonusStones { taken: u32, required: u32 },
    #[error("bonus pits must be distinct: {pit} is named twice")]
    BonusNotDistinct { pit: Pit },
    #[error("bonus pit {pit} is empty; bonus pits must be non-empty when taken")]
    BonusEmptyPit { pit: Pit },
    #[error("bonus pit {pit} is not on the opponent's side")]
    BonusNotOpponent { pit: Pit },
    #[error("bonus pit {pit} is a head, and heads are sanctuaries (head-bonus=no)")]
    BonusHead { pit: Pit },
    #[error("{stones} stones cannot be taken from {pit}, which holds {holds}")]
    BonusTooMany { pit: Pit, stones: u16, holds: u16 },
    #[error("a bonus was written but none is due")]
    BonusNotDue,
    #[error("the bonus is one other opponent pit (bonus=hole), taken whole")]
    BonusHoleCount,
    #[error("the move captured, and its bonus is due but not written")]
    BonusMissing,
    #[error("plies 1 and 2 of Kiothi are the opening redistribution (`P,P>Q:n,...`)")]
    OpeningRequired,
    #[error("the opening redistribution is over; this is a sowing ply")]
    OpeningOver,
    #[error("only Kiothi has an opening redistribution")]
    RedistributionNotAllowed,
    #[error("the opening empties two different own pits; {pit} is named twice")]
    OpeningSamePit { pit: Pit },
    #[error("{placed} stones placed, but {lifted} were lifted from the two emptied pits")]
    OpeningStones { lifted: u32, placed: u32 },
    #[error("a placement of 0 stones in {pit} places nothing")]
    OpeningZero { pit: Pit },
    #[error("Bao la Kimasai has no lift count, head stop or bonus")]
    NotASimpleStep,
    #[error("{option} is not a choice this game offers")]
    ChoiceNotOffered { option: &'static str },
    // Reasons of one game only go below, each game in its own block.

    // -- Tsoro --
    #[error("a stop at head {head} on arrival #0: arrivals at a head are counted from 1")]
    HeadStopArrivalZero { head: Pit },
    #[error("bonus pit {pit} names {stones} stones; Tsoro takes its bonus pits whole")]
    BonusPitPartial { pit: Pit, stones: u16 },

    // -- Nsolo --
    #[error("a bonus of 0 stones from {pit} takes nothing; each bonus pit is named with a count from 1 to its content")]
    BonusZero { pit: Pit },

    // -- Kiothi --

    // -- Bao la Kimasai --
    #[error("pit {pit} holds {stones} stones; in Bao la Kimasai no pit ever holds more than one")]
    CrowdedPit { pit: Pit, stones: u16 },
}

impl Illegal {
    /// Whether a move that broke this rule can still be executed mechanically
    /// (PMN's `[%foul]`).
    pub fn executable(&self) -> bool {
        matches!(
            self,
            Illegal::SingletonWhileMultiple { .. }
                | Illegal::SingletonBlocked { .. }
                | Illegal::FirstLapOwnOccupied { .. }
                | Illegal::BonusCount { .. }
                | Illegal::BonusStones { .. }
                | Illegal::BonusHead { .. }
                | Illegal::BonusMissing
                | Illegal::BonusNotDue
                | Illegal::BonusHoleCount
                | Illegal::StepBlocked { .. }
        )
    }
}

impl fmt::Display for Move {
    /// The move in PMN ply syntax (without `-END` checks or the `x` mark, which belong to
    /// the written record, except Tsoro's head stop, which is a choice).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Sow(s) => {
                write!(f, "{}", s.from)?;
                if let Some(n) = s.lift {
                    write!(f, ":{n}")?;
                }
                if let Some(stop) = s.stop {
                    write!(f, "-{}", stop.head)?;
                    if stop.arrival != 1 {
                        write!(f, "#{}", stop.arrival)?;
                    }
                }
                if !s.bonus.is_empty() {
                    f.write_str("x")?;
                    for (i, b) in s.bonus.iter().enumerate() {
                        if i > 0 {
                            f.write_str(",")?;
                        }
                        write!(f, "{}", b.pit)?;
                        if let Some(n) = b.stones {
                            write!(f, ":{n}")?;
                        }
                    }
                }
                Ok(())
            }
            Move::Redistribute(r) => {
                write!(f, "{},{}>", r.emptied[0], r.emptied[1])?;
                for (i, (pit, n)) in r.placed.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{pit}:{n}")?;
                }
                Ok(())
            }
        }
    }
}

/// A legal move with its bonus still to be chosen, as legal move generation describes
/// it where full enumeration of the bonus would explode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move with an empty bonus.
    pub mv: Move,
    /// Whether the move captures.
    pub captures: bool,
    /// The bonus that must be chosen to complete the move.
    pub bonus: BonusChoice,
    /// Tsoro: `mv` stops at a head, and the candidate stands for the stops there on every
    /// arrival from `mv`'s up to this one, all legal: a sowing's stops at a head are one
    /// candidate, however many laps pass the head. Zero for a move with no stop.
    pub last_arrival: u32,
}

impl Candidate {
    /// A candidate standing for one move.
    pub fn single(mv: Move, captures: bool, bonus: BonusChoice) -> Candidate {
        let last_arrival = match &mv {
            Move::Sow(Sowing {
                stop: Some(stop), ..
            }) => stop.arrival,
            _ => 0,
        };
        Candidate {
            mv,
            captures,
            bonus,
            last_arrival,
        }
    }

    /// The number of legal plies the candidate stands for (their bonus aside).
    pub fn plies(&self) -> u64 {
        match &self.mv {
            Move::Sow(Sowing {
                stop: Some(stop), ..
            }) => u64::from(self.last_arrival.saturating_sub(stop.arrival)) + 1,
            _ => 1,
        }
    }

    /// The candidates of one ply each that this one stands for, in the order of the
    /// arrivals.
    pub fn each(&self) -> impl Iterator<Item = Candidate> + '_ {
        let first = match &self.mv {
            Move::Sow(Sowing {
                stop: Some(stop), ..
            }) => stop.arrival,
            _ => self.last_arrival,
        };
        (first..=self.last_arrival.max(first)).map(move |arrival| {
            let mut one = self.clone();
            if let Move::Sow(Sowing {
                stop: Some(stop), ..
            }) = &mut one.mv
            {
                stop.arrival = arrival;
            }
            one.last_arrival = arrival;
            one
        })
    }
}

/// The bonus a capturing candidate still has to choose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BonusChoice {
    /// No bonus is due.
    None,
    /// Choose exactly `count` distinct pits among `eligible` (Tsoro; Nsolo `bonus=hole`
    /// with count 1), each taken whole.
    Pits { count: usize, eligible: Vec<Pit> },
    /// Take exactly `stones` stones from `eligible` pits (pit, stones it holds), each
    /// named once with 1..=its content (Nsolo `bonus=equal`).
    Stones {
        stones: u32,
        eligible: Vec<(Pit, u16)>,
    },
    /// Kiothi's opening: empty two of `pits` and place their stones anywhere.
    Redistribution { pits: Vec<Pit> },
}

/// Nsolo's `bonus=equal` taken from the fullest pits first: `stones` stones from
/// `eligible` (pit, stones it holds), each pit named once, a whole pit written without a
/// count. The greedy player's choice, and the repair search's guess.
pub fn fullest_first(stones: u32, eligible: &[(Pit, u16)]) -> Vec<BonusTake> {
    let mut pits = eligible.to_vec();
    pits.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut left = stones;
    let mut out = Vec::new();
    for (pit, holds) in pits {
        if left == 0 {
            break;
        }
        let take = (holds as u32).min(left) as u16;
        out.push(BonusTake {
            pit,
            stones: (take != holds).then_some(take),
        });
        left -= take as u32;
    }
    out
}

impl fmt::Display for Candidate {
    /// PMN-like notation: `d3x{2 of a1,a3,b4}` for a bonus still to choose.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.bonus {
            BonusChoice::Redistribution { pits } => {
                let names: Vec<String> = pits.iter().map(Pit::to_string).collect();
                write!(f, "P,P>Q:n,... with P two of {}", names.join(","))
            }
            BonusChoice::None => {
                write!(f, "{}", self.mv)?;
                if self.captures {
                    f.write_str("x")?;
                }
                Ok(())
            }
            BonusChoice::Pits { count, eligible } => {
                let names: Vec<String> = eligible.iter().map(Pit::to_string).collect();
                write!(f, "{}x{{{count} of {}}}", self.mv, names.join(","))
            }
            BonusChoice::Stones { stones, eligible } => {
                let names: Vec<String> = eligible.iter().map(|(p, _)| p.to_string()).collect();
                let unit = if *stones == 1 { "stone" } else { "stones" };
                write!(
                    f,
                    "{}x{{{stones} {unit} from {}}}",
                    self.mv,
                    names.join(",")
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `clone_from` gives the source, whatever the move it copies into.
    #[test]
    fn clone_from_gives_the_source() {
        let pit = |row, col| Pit::new(row, col);
        let sowing = Move::Sow(Sowing {
            from: pit(1, 3),
            lift: Some(2),
            stop: Some(HeadStop {
                head: pit(0, 1),
                arrival: 2,
            }),
            bonus: vec![BonusTake {
                pit: pit(2, 4),
                stones: Some(1),
            }],
        });
        let plain = Move::Sow(Sowing::from(pit(0, 5)));
        let redistribution = Move::Redistribute(Redistribution {
            emptied: [pit(0, 1), pit(0, 2)],
            placed: vec![(pit(1, 1), 3)],
        });
        let moves = [sowing, plain, redistribution];
        for source in &moves {
            for into in &moves {
                let mut copy = into.clone();
                copy.clone_from(source);
                assert_eq!(&copy, source);
            }
        }
    }
}
