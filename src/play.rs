//! A game in progress: a position under a rule set, the repetition history, and the end
//! of the game (RULES.md, each game's "End", and "Positions and results").
//!
//! The end is found lazily: a position with no legal move is only examined when a ply
//! fails or when the outcome is asked for, so replaying a record costs one application
//! per ply.

use std::cell::Cell;

use crate::games;
use crate::geometry::{Pit, Side};
use crate::moves::{Candidate, Effect, Illegal, Mode, Move, Sowing};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{Game, Rules};
use crate::sowing::{pits_key, KEYED_ABOVE, PIT_KEYS};

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A seat won: the other had no legal move (or, in Kiothi, fewer stones in prison).
    Win { winner: Side, reason: EndReason },
    /// A repetition draw, or Kiothi's equal prisons.
    Draw { reason: EndReason },
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move had no legal move (Tsoro, Nsolo, Bao la Kimasai: it lost).
    NoLegalMove,
    /// The same position occurred for the `repeat`-th time.
    Repetition,
    /// Kiothi: the side to move had no legal move; the stones left on the board went to
    /// the other seat's prison, and the prisons decided. `score` is South, North.
    Score { score: [u16; 2] },
}

impl Outcome {
    /// The PMN result token: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_token(&self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Side::South,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Side::North,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }

    pub fn winner(&self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// Kiothi's final score (prisons after the award), South then North.
    pub fn score(&self) -> Option<[u16; 2]> {
        match self {
            Outcome::Win {
                reason: EndReason::Score { score },
                ..
            }
            | Outcome::Draw {
                reason: EndReason::Score { score },
            } => Some(*score),
            _ => None,
        }
    }

    /// Kiothi's "one-warrior victory": a win by exactly two stones.
    pub fn one_warrior_victory(&self) -> bool {
        matches!(self.score(), Some([s, n]) if s.abs_diff(n) == 2)
    }
}

/// A game being played or replayed.
#[derive(Clone, Debug)]
pub struct GameState {
    rules: Rules,
    pos: Position,
    /// What the repetition rule needs of the positions since the last capture (earlier
    /// ones cannot recur: stones only leave): their keys, the first of them and the moves
    /// played since.
    history: History,
    /// Set when a repetition draw has occurred.
    repetition: bool,
    /// The rules' repetition count ([`Rules::repeat`]), asked every ply: kept here, not
    /// matched out of the options each time (0 without a repetition rule).
    repeat: u32,
    /// How positions are keyed for the repetition rule, settled once a game from the
    /// game and the board.
    keying: Keying,
    /// What follows each ply for the repetition rule (see `after_ply`): the way of the
    /// game's keying, settled with it, which every ply asked before.
    follow: Follow,
    plies: u32,
    /// The key of the pits, followed ply by ply from each effect (see
    /// [`GameState::follow_key`]): the linear key ([`pits_key`]) on the boards keyed so
    /// (more than [`KEYED_ABOVE`] pits), Bao la Kimasai's bits of the occupied pits
    /// ([`bao_pits_key`]); zero on the others.
    pits_key: u64,
    /// Besides the pits, the rest of the repetition key ([`rest_key`]) for each side to
    /// move, taken once a game, which every ply read before: only Kiothi's plies change
    /// a prison, an nki mark or the opening (see `rest_fixed`).
    rest_keys: [u64; 2],
    /// Whether `rest_keys` hold: the game is not Kiothi. (Kiothi has no repetition rule,
    /// so this is false only for rule sets put together by hand; their key is then taken
    /// whole every ply, as before.)
    rest_fixed: bool,
}

impl GameState {
    pub fn new(rules: Rules, pos: Position) -> GameState {
        let repeat = rules.repeat();
        // Only a game with a repetition rule follows the key (see `after_ply`).
        let keying = match repeat {
            None => Keying::None,
            Some(_) if rules.game() == Game::BaoLaKimasai => Keying::Bao,
            Some(_) if pos.board().len() > KEYED_ABOVE => Keying::Linear,
            Some(_) => Keying::Hashed,
        };
        let pits_key = match keying {
            Keying::Bao => bao_pits_key(pos.board_pits()),
            Keying::Linear => pits_key(pos.board_pits()),
            Keying::None | Keying::Hashed => 0,
        };
        let rest_fixed = rules.game() != Game::Kiothi;
        let rest_keys = Side::BOTH.map(|side| rest_key(&pos, side));
        let mut state = GameState {
            rules,
            pos,
            history: History::default(),
            repetition: false,
            repeat: repeat.unwrap_or(0),
            keying,
            follow: match keying {
                // Never called: `after_ply` asks the keying first.
                Keying::None => |_, _, _, _| {},
                Keying::Bao => GameState::follow_bao,
                // The short way takes the rest of the key as fixed.
                Keying::Linear if rest_fixed => GameState::follow_linear,
                Keying::Linear => GameState::follow_linear_any,
                Keying::Hashed if rest_fixed => GameState::follow_hashed,
                Keying::Hashed => GameState::follow_hashed_any,
            },
            plies: 0,
            pits_key,
            rest_keys,
            rest_fixed,
        };
        if matches!(keying, Keying::Linear | Keying::Hashed) {
            // The first position the rule counts: the others are re-derived from it.
            state.history.first = Some(state.pos.clone());
        }
        state.remember(keying);
        state
    }

    /// A game from the start position of a rule set.
    pub fn start(rules: Rules) -> GameState {
        let pos = Position::initial(&rules);
        GameState::new(rules, pos)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The rule set and the position, the game given up: a replay's trace keeps them,
    /// moved rather than copied.
    pub fn into_parts(self) -> (Rules, Position) {
        (self.rules, self.pos)
    }

    /// Plies played so far.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Plays a move. A game already over (by repetition, or with no legal move) refuses
    /// every move with [`Illegal::GameOver`].
    pub fn play(&mut self, mv: &Move, mode: Mode) -> Result<Effect, Illegal> {
        let mut effect = Effect::default();
        self.play_into(mv, mode, &mut effect)?;
        Ok(effect)
    }

    /// [`GameState::play`] into a reused effect.
    pub fn play_into(&mut self, mv: &Move, mode: Mode, effect: &mut Effect) -> Result<(), Illegal> {
        if self.repetition {
            return Err(Illegal::GameOver);
        }
        match games::apply(&self.rules, &mut self.pos, mv, mode, effect) {
            Ok(()) => {
                self.after_ply(effect, mv, mode);
                Ok(())
            }
            Err(e) => {
                if !games::has_legal_move(&self.rules, &self.pos) {
                    Err(Illegal::GameOver)
                } else {
                    Err(e)
                }
            }
        }
    }

    /// Plays a random legal move; `None` when the game is over.
    pub fn play_random(&mut self, rng: &mut Rng, effect: &mut Effect) -> Option<Move> {
        if self.repetition {
            return None;
        }
        let mv = games::play_random(&self.rules, &mut self.pos, rng, effect)?;
        self.after_ply(effect, &mv, Mode::Legal);
        Some(mv)
    }

    /// The legal moves of the side to move (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Candidate> {
        if self.repetition {
            return Vec::new();
        }
        games::legal_moves(&self.rules, &self.pos)
    }

    /// The outcome if the game is over, else `None`.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.repetition {
            return Some(Outcome::Draw {
                reason: EndReason::Repetition,
            });
        }
        if games::has_legal_move(&self.rules, &self.pos) {
            return None;
        }
        let stuck = self.pos.side;
        if self.rules.game() == Game::Kiothi {
            let mut score = self.pos.prisons;
            score[stuck.opponent().index()] += self.pos.stones_on_board() as u16;
            let reason = EndReason::Score { score };
            return Some(match score[0].cmp(&score[1]) {
                std::cmp::Ordering::Greater => Outcome::Win {
                    winner: Side::South,
                    reason,
                },
                std::cmp::Ordering::Less => Outcome::Win {
                    winner: Side::North,
                    reason,
                },
                std::cmp::Ordering::Equal => Outcome::Draw { reason },
            });
        }
        Some(Outcome::Win {
            winner: stuck.opponent(),
            reason: EndReason::NoLegalMove,
        })
    }

    /// Brings the key of the pits up to date with the ply just applied, which did
    /// `effect` (and `took` stones, see [`took`]), where hashing every pit anew would
    /// cost more.
    #[inline]
    fn follow_key(&mut self, keying: Keying, effect: &Effect, took: bool) {
        let board = self.pos.board();
        // Bao la Kimasai's plies take their own way, `follow_bao`.
        debug_assert!(keying != Keying::Bao);
        if keying == Keying::Linear {
            // The sowing's change, then the stones the capture and the bonus took (most
            // plies are quiet: they skip the walk over both lists, 15 instructions).
            let mut key = self.pits_key.wrapping_add(effect.sown_key);
            if took {
                for &(pit, stones) in (effect.captured.iter()).chain(&effect.bonus) {
                    let weight = PIT_KEYS[board.index(pit)];
                    key = key.wrapping_sub((stones as u64).wrapping_mul(weight));
                }
            }
            self.pits_key = key;
        }
    }

    // Inlined: the games without a repetition rule (Tsoro, Kiothi) only count the ply,
    // and no longer pay a call for it.
    #[inline(always)]
    fn after_ply(&mut self, effect: &Effect, mv: &Move, mode: Mode) {
        self.plies += 1;
        // The keying, a byte, is asked first: a game without a repetition rule pays a
        // comparison, not a load and a test of the pointer (one instruction a ply).
        if self.keying != Keying::None {
            (self.follow)(self, effect, mv, mode);
        }
    }

    /// What a ply of Bao la Kimasai leaves to the repetition rule, as
    /// [`GameState::follow_any`] (`follow_key`, `record`, `remember`) would: its step
    /// (`games::bao`) left in [`Effect::sown_key`] the bits of the pits it flipped in
    /// the exact key, so no pit is turned into an index here, and the key table grows on
    /// a cold path and the history is cleared after a capture out of line, so no register
    /// is saved for either (52 instructions a ply in all).
    #[inline(never)]
    fn follow_bao(&mut self, effect: &Effect, _mv: &Move, _mode: Mode) {
        self.pits_key ^= effect.sown_key;
        if took(effect) {
            // Its keys are exact: no positions or moves kept.
            self.history.clear_apart();
        }
        let key = self.pits_key | (self.pos.side as u64) << self.pos.board().len();
        debug_assert_eq!(key, bao_key(&self.pos), "the bits follow the plies");
        let history = &mut self.history;
        let count = match history.has_room() {
            true => history.probe(key),
            false => history.grow_and_count(key),
        };
        self.repetition = count >= self.repeat;
    }

    /// [`GameState::follow_short`] on a board keyed linearly (4x36 Nsolo).
    #[inline(never)]
    fn follow_linear(&mut self, effect: &Effect, mv: &Move, mode: Mode) {
        self.follow_short(Keying::Linear, effect, mv, mode);
    }

    /// [`GameState::follow_short`] on a board keyed by a hash of its pits.
    #[inline(never)]
    fn follow_hashed(&mut self, effect: &Effect, mv: &Move, mode: Mode) {
        self.follow_short(Keying::Hashed, effect, mv, mode);
    }

    /// [`GameState::follow_any`] of Nsolo (keyed linearly or hashed), where most
    /// plies are quiet plain sowings: they go a short way here, with no call but a last
    /// one, so its registers need no saving (17 instructions a ply, of some 100). It
    /// does with such a ply what [`GameState::follow_any`], the way of every other ply,
    /// does.
    #[inline(always)]
    fn follow_short(&mut self, keying: Keying, effect: &Effect, mv: &Move, mode: Mode) {
        let history = &mut self.history;
        // The moves and the key table asked for no more than they hold: then nothing
        // below calls (see `History::count_key`). (The rest of the key is fixed: see
        // `new`.)
        debug_assert!(self.rest_fixed);
        if !took(effect) && history.moves.len() < history.moves.capacity() && history.has_room() {
            if let Move::Sow(Sowing {
                from: Some(from),
                lift: None,
                stop: None,
                bonus,
            }) = mv
            {
                if bonus.is_empty() {
                    // As `follow_key`, `record` (`History::keep`) and `remember` do.
                    history.moves.push(Kept::sowing(*from, mode));
                    let pits = match keying {
                        Keying::Linear => {
                            self.pits_key = self.pits_key.wrapping_add(effect.sown_key);
                            self.pits_key
                        }
                        _ => lanes_key(self.pos.board_pits(), 1),
                    };
                    let key = spread(self.rest_keys[self.pos.side.index()] ^ pits);
                    debug_assert_eq!(key, repetition_key(&self.pos), "the key follows");
                    if history.probe(key) >= self.repeat {
                        // The last thing done, so a jump: nothing is kept for after it.
                        self.settle_repetition();
                    }
                    return;
                }
            }
        }
        match keying {
            Keying::Linear => self.follow_linear_any(effect, mv, mode),
            _ => self.follow_hashed_any(effect, mv, mode),
        }
    }

    /// The key of the position has come round `repeat` times: whether the position has,
    /// compared exactly, decides the repetition draw.
    #[cold]
    #[inline(never)]
    fn settle_repetition(&mut self) {
        self.repetition = self.history.occurrences(&self.rules, &self.pos) >= self.repeat;
    }

    /// [`GameState::follow_any`] of `follow_linear`'s other plies.
    #[inline(never)]
    fn follow_linear_any(&mut self, effect: &Effect, mv: &Move, mode: Mode) {
        self.follow_any(Keying::Linear, effect, mv, mode);
    }

    /// [`GameState::follow_any`] of `follow_hashed`'s other plies.
    #[inline(never)]
    fn follow_hashed_any(&mut self, effect: &Effect, mv: &Move, mode: Mode) {
        self.follow_any(Keying::Hashed, effect, mv, mode);
    }

    /// What a ply leaves to the repetition rule on a board keyed as `keying`, the
    /// game's: the key of the pits follows it, and the history records it. Each keying
    /// has its own copy (`follow_bao`, `follow_linear_any`, `follow_hashed_any`, the
    /// last two behind the short ways of Nsolo), which `after_ply` calls through
    /// [`GameState::follow`], where one asked the keying again and again each ply.
    #[inline(always)]
    fn follow_any(&mut self, keying: Keying, effect: &Effect, mv: &Move, mode: Mode) {
        let took = took(effect);
        self.follow_key(keying, effect, took);
        self.record(keying, took, mv, mode);
    }

    /// Keeps what the repetition rule needs of a ply (which `took` stones or not, see
    /// [`took`]), whose position is then remembered.
    // Inlined into each way of following a ply: a call of its own cost one each ply.
    #[inline(always)]
    fn record(&mut self, keying: Keying, took: bool, mv: &Move, mode: Mode) {
        if keying == Keying::Bao {
            // Its keys are exact: no positions or moves kept.
            if took {
                self.history.clear();
            }
        } else if took {
            self.history.restart(&self.pos);
        } else {
            self.history.keep(mv, mode);
        }
        self.remember(keying);
    }

    /// Adds the current position to the repetition history and checks the rule.
    // Inlined into `record`, its caller every ply: one call a ply less.
    #[inline(always)]
    fn remember(&mut self, keying: Keying) {
        let repeat = self.repeat;
        let (history, pos) = (&mut self.history, &self.pos);
        // The part of the key besides the pits (Bao la Kimasai's needs none).
        let rest = match self.rest_fixed {
            true => self.rest_keys[pos.side.index()],
            false => rest_key(pos, pos.side),
        };
        let key = match keying {
            Keying::None => return,
            Keying::Bao => {
                // No pit ever holds more than one stone: the occupied pits and the side
                // to move fit in one word, an exact key, so no position needs storing.
                let key = self.pits_key | (pos.side as u64) << pos.board().len();
                debug_assert_eq!(key, bao_key(pos), "the bits follow the plies");
                self.repetition = history.count_key(key) >= repeat;
                return;
            }
            Keying::Linear => spread(rest ^ self.pits_key),
            Keying::Hashed => spread(rest ^ lanes_key(pos.board_pits(), 1)),
        };
        debug_assert_eq!(key, repetition_key(pos), "the linear key follows the plies");
        if history.count_key(key) >= repeat {
            self.repetition = self.history.occurrences(&self.rules, &self.pos) >= repeat;
        }
    }
}

/// Whether a ply with `effect` took stones, by a capture or a bonus: no position before
/// it can recur (stones only leave), and the key of the pits loses what it took.
#[inline(always)]
fn took(effect: &Effect) -> bool {
    effect.is_capture() || !effect.bonus.is_empty()
}

/// How a ply is followed for the repetition rule (see [`GameState::follow`]).
type Follow = fn(&mut GameState, &Effect, &Move, Mode);

/// How a game keys its positions for the repetition rule (see [`GameState::pits_key`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Keying {
    /// No repetition rule: no key, no history.
    None,
    /// Bao la Kimasai: the bits of its occupied pits, an exact key.
    Bao,
    /// Boards of more than [`KEYED_ABOVE`] pits: the linear key the sowing keeps up.
    Linear,
    /// The other boards: a hash of their pits, ply by ply.
    Hashed,
}

/// The positions since the last capture, kept compactly for the repetition rule: a
/// table counting keys (a cheap filter run every ply), and the first position with the
/// moves played since, from which the positions themselves are re-derived for the exact
/// comparison, made only when a key has come round `repeat` times.
///
/// This runs once per ply of every playout, so it avoids a general hash map: the key
/// costs one multiplication per four pits (on boards of more than
/// [`KEYED_ABOVE`] pits, nothing: the sowing keeps their linear key up), the table is
/// open-addressed and cleared in O(1) by a generation stamp, and a ply stores its move
/// (a quiet ply its pit), not its position.
#[derive(Clone, Debug, Default)]
struct History {
    /// Open-addressed key counts; a slot belongs to the table only if its stamp is current.
    slots: Vec<Slot>,
    stamp: u32,
    /// Keys in the table (of the current stamp).
    keys: usize,
    /// The first remembered position (none for Bao la Kimasai, whose key is exact).
    first: Option<Position>,
    /// The moves played from `first`, each with its mode, one per later position.
    moves: Vec<Kept>,
    /// The moves of `moves` that are not a plain sowing, in order ([`Kept::OTHER`]).
    others: Vec<Move>,
}

/// A move kept in the history, with its mode, in one word. The moves kept are quiet
/// plies (a capture or a bonus starts the history afresh), and a quiet ply of Nsolo, the
/// game that keeps them, is a plain sowing from a pit (it lifts no part of it, stops at
/// no head and takes no bonus): its pit is kept, which is cheaper every ply than a copy
/// of the move (and one word stored, not a pit, a tag and a mode apart: 3 instructions a
/// ply). Any other move is kept aside, in [`History::others`], so that a kept move owns
/// nothing: forgetting the moves after a capture no longer visits each to drop it.
#[derive(Copy, Clone, Debug)]
struct Kept(u32);

impl Kept {
    /// Set for a move kept aside: the low bits are its index in [`History::others`]
    /// (else they are the row and the column of a plain sowing's pit).
    const OTHER: u32 = 1 << 31;
    /// Set for a move played under [`Mode::Foul`].
    const FOUL: u32 = 1 << 30;

    fn sowing(from: Pit, mode: Mode) -> Kept {
        Kept((from.row as u32) << 8 | from.col as u32 | Kept::foul(mode))
    }

    fn other(index: usize, mode: Mode) -> Kept {
        // Each is a move of its own in memory: a billion of them cannot be.
        debug_assert!(index < Kept::FOUL as usize);
        Kept(index as u32 | Kept::OTHER | Kept::foul(mode))
    }

    fn foul(mode: Mode) -> u32 {
        match mode {
            Mode::Legal => 0,
            Mode::Foul => Kept::FOUL,
        }
    }

    fn mode(self) -> Mode {
        match self.0 & Kept::FOUL {
            0 => Mode::Legal,
            _ => Mode::Foul,
        }
    }

    fn to_move(self, others: &[Move]) -> Move {
        let low = self.0 & (Kept::FOUL - 1);
        match self.0 & Kept::OTHER {
            0 => Move::Sow(Sowing::from(Pit {
                row: (low >> 8) as u8,
                col: low as u8,
            })),
            _ => others[low as usize].clone(),
        }
    }
}

thread_local! {
    /// The key table of the last game the thread dropped, with its stamp, and its list
    /// of moves, emptied (a [`Spare`]), for the next game to take up: a validation
    /// replays game after game on each thread, and each allocated, cleared and grew a
    /// table of its own (a long Nsolo 4x36 game to thousands of slots, 19 instructions
    /// a ply).
    static SPARE: Cell<Option<Spare>> = const { Cell::new(None) };
}

/// What a game's history leaves to the thread's next game (see [`SPARE`]): its key table
/// with its stamp, and its list of moves, emptied. The list, too, grew game after game
/// (a dozen growths of a short Nsolo game, 14 instructions a ply).
struct Spare {
    slots: Vec<Slot>,
    stamp: u32,
    moves: Vec<Kept>,
}

impl Drop for History {
    fn drop(&mut self) {
        if !self.slots.is_empty() {
            let mut moves = std::mem::take(&mut self.moves);
            moves.clear();
            let spare = Spare {
                slots: std::mem::take(&mut self.slots),
                stamp: self.stamp,
                moves,
            };
            // While the thread exits the spare may be gone: the table is then freed.
            let _ = SPARE.try_with(|cell| cell.set(Some(spare)));
        }
    }
}

#[derive(Copy, Clone, Debug, Default)]
struct Slot {
    key: u64,
    stamp: u32,
    count: u32,
}

/// Bao la Kimasai's exact position key: one bit per occupied pit (its 48 pits) and the
/// side to move above them. Pits hold 0 or 1 stone.
fn bao_key(pos: &Position) -> u64 {
    bao_pits_key(pos.board_pits()) | (pos.side as u64) << pos.board().len()
}

/// The bits of the occupied pits in [`bao_key`]: bit i is pit index i, a pit's bit the
/// lowest of its stones. (Taken once a game: the plies follow it by their
/// [`Effect::sown_key`], see `GameState::follow_bao`.)
fn bao_pits_key(pits: &[u16]) -> u64 {
    (pits.iter().enumerate()).fold(0, |bits, (i, &s)| bits | ((s & 1) as u64) << i)
}

/// A 64-bit key of what the repetition rule compares. Equal positions have equal keys;
/// unequal ones rarely do, and the exact comparison settles it when they do. A board of
/// more than [`KEYED_ABOVE`] pits is keyed by the linear key of its pits, which the
/// plies keep up to date (see [`GameState::after_ply`]), a smaller one by a hash of them.
fn repetition_key(pos: &Position) -> u64 {
    if pos.board().len() > KEYED_ABOVE {
        key_of(pos, pits_key(pos.board_pits()))
    } else {
        key_of(pos, lanes_key(pos.board_pits(), 1))
    }
}

/// [`repetition_key`] from the key of the pits.
fn key_of(pos: &Position, pits: u64) -> u64 {
    spread(rest_key(pos, pos.side) ^ pits)
}

/// What [`key_of`] mixes in besides the pits, with `side` to move.
fn rest_key(pos: &Position, side: Side) -> u64 {
    let rest = side as u64
        ^ (pos.opening as u64) << 1
        ^ (pos.prisons[0] as u64) << 2
        ^ (pos.prisons[1] as u64) << 18;
    (rest ^ pos.nki.rotate_left(34)).wrapping_mul(KEY_FACTOR)
}

/// The last step of [`key_of`]: the high bits spread down, as the table indexes by the
/// low ones.
fn spread(h: u64) -> u64 {
    h ^ h >> 29
}

const KEY_FACTOR: u64 = 0x9e37_79b9_7f4a_7c15;

/// A 64-bit key of `pits`, seeded by `part`. Four pits make one word, mixed in by one
/// multiplication (cheaper per ply than [`Position::key`]'s longer chain), in four
/// independent lanes: one chain of multiplications waited on each before, a third of a
/// 4×36 Nsolo validation.
#[inline(always)]
fn lanes_key(pits: &[u16], part: u64) -> u64 {
    let mix = |h: u64, word: u64| (h ^ word).wrapping_mul(KEY_FACTOR).rotate_left(23);
    let word =
        |w: &[u16]| w[0] as u64 | (w[1] as u64) << 16 | (w[2] as u64) << 32 | (w[3] as u64) << 48;
    let seed = part.wrapping_mul(KEY_FACTOR);
    let mut lanes = [seed, seed ^ 1, seed ^ 2, seed ^ 3];
    let blocks = pits.chunks_exact(16);
    let rest = blocks.remainder();
    for block in blocks {
        for (lane, w) in lanes.iter_mut().zip(block.chunks_exact(4)) {
            *lane = mix(*lane, word(w));
        }
    }
    let mut h = lanes.into_iter().fold(0, mix);
    let words = rest.chunks_exact(4);
    let tail = words.remainder();
    for w in words {
        h = mix(h, word(w));
    }
    for &s in tail {
        h = mix(h, s as u64);
    }
    h
}

impl History {
    // A thread's first table (its later games take up the last one's, see `SPARE`):
    // 128 slots (2 KiB) hold the 64 keys of most stretches between captures.
    const FIRST_SLOTS: usize = 128;

    /// Forgets every position (after a capture: none of them can recur).
    fn clear(&mut self) {
        self.forget_keys();
        self.moves.clear();
        self.others.clear();
    }

    /// Forgets every position, and starts afresh from `pos`, which a ply that took stones
    /// left (see [`took`]). (`pos` is copied here, not as every ply remembers a
    /// position: a quiet ply no longer asks whether the moves are empty.)
    // Inlined into the general way of a ply, whose registers are saved anyway.
    #[inline(always)]
    fn restart(&mut self, pos: &Position) {
        self.clear();
        self.first = Some(pos.clone());
    }

    /// Keeps a move played from the last position remembered.
    fn keep(&mut self, mv: &Move, mode: Mode) {
        let kept = match mv {
            Move::Sow(Sowing {
                from: Some(from),
                lift: None,
                stop: None,
                bonus,
            }) if bonus.is_empty() => Kept::sowing(*from, mode),
            _ => {
                self.others.push(mv.clone());
                Kept::other(self.others.len() - 1, mode)
            }
        };
        self.moves.push(kept);
    }

    /// Empties the key table by moving on to a new stamp.
    fn forget_keys(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Stamps wrapped: old slots could look current, so wipe them once.
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
        self.keys = 0;
    }

    /// [`History::clear`] out of line, for `GameState::follow_bao`: inlined, it made
    /// every ply save registers for the plies that capture.
    #[inline(never)]
    fn clear_apart(&mut self) {
        self.clear();
    }

    /// [`History::count_key`] in a table with no room: grows it first. (Out of line, so
    /// that a caller's ply-by-ply way saves no register for the growth.)
    #[cold]
    #[inline(never)]
    fn grow_and_count(&mut self, key: u64) -> u32 {
        self.count_key(key)
    }

    #[inline]
    fn count_key(&mut self, key: u64) -> u32 {
        if !self.has_room() {
            self.grow();
        }
        self.probe(key)
    }

    /// Whether the table has room for one key more, at most half full.
    #[inline(always)]
    fn has_room(&self) -> bool {
        2 * (self.keys + 1) <= self.slots.len()
    }

    /// [`History::count_key`] in a table that has room for it.
    #[inline(always)]
    fn probe(&mut self, key: u64) -> u32 {
        debug_assert!(self.has_room());
        // A table has a stamp other than zero, the stamp of the slots it is made of (see
        // `grow`), so no ply checks it.
        let mask = self.slots.len() - 1;
        // Index by the high bits of a multiplication: keys need not be well mixed.
        let mut i = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.stamp != self.stamp {
                *slot = Slot {
                    key,
                    stamp: self.stamp,
                    count: 1,
                };
                self.keys += 1;
                return 1;
            }
            if slot.key == key {
                slot.count += 1;
                return slot.count;
            }
            i = (i + 1) & mask;
        }
    }

    // Rare (a few times a game): kept out of `count_key`, which runs every ply.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        if self.slots.is_empty() {
            if let Some(spare) = SPARE.try_with(Cell::take).ok().flatten() {
                // The table the thread's last game left: a new stamp forgets its keys,
                // and it is as large as that game needed. So is its list of moves (the
                // first position's, taken up before any move is kept).
                self.slots = spare.slots;
                self.stamp = spare.stamp;
                self.forget_keys();
                if self.moves.is_empty() {
                    self.moves = spare.moves;
                }
                return;
            }
        }
        // Fresh slots carry stamp zero, never the table's: it starts at one.
        self.stamp = self.stamp.max(1);
        let size = (2 * self.slots.len()).max(Self::FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        let stamp = self.stamp;
        self.keys = 0;
        for slot in old.into_iter().filter(|s| s.stamp == stamp) {
            for _ in 0..slot.count {
                self.count_key(slot.key);
            }
        }
    }

    /// How often `pos`, the last remembered position, occurs among the remembered
    /// ones, compared exactly. They are re-derived by replaying the moves from the first.
    #[cold]
    #[inline(never)]
    fn occurrences(&self, rules: &Rules, pos: &Position) -> u32 {
        // A game that keeps moves keeps the position they start from, from its start.
        let Some(first) = self.first.as_ref() else {
            return 1;
        };
        let mut at = first.clone();
        let mut count = at.same_for_repetition(pos) as u32;
        let mut effect = Effect::default();
        for &kept in &self.moves {
            // A move replays as it was played (applying is deterministic); were one not
            // to, the positions after it are unknown and are not counted.
            let mv = kept.to_move(&self.others);
            if games::apply(rules, &mut at, &mv, kept.mode(), &mut effect).is_err() {
                debug_assert!(false, "a move replays as it was played");
                break;
            }
            count += at.same_for_repetition(pos) as u32;
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Pit;
    use crate::moves::Lap;

    /// A capture-free cycle cannot happen in Bao la Kimasai (see tests/rules_bao.rs), so
    /// the rule is checked here by walking the state through positions by hand.
    fn bao(repeat: u32) -> GameState {
        let rules = Rules::new(Game::BaoLaKimasai, None, &format!("repeat={repeat}")).unwrap();
        let mut pos = Position::empty(rules.board(), Side::South);
        pos.set(Pit::new(0, 1), 1);
        pos.set(Pit::new(3, 12), 1);
        GameState::new(rules, pos)
    }

    fn quiet() -> Effect {
        let mut effect = Effect::default();
        effect.push_lap(Lap {
            start: Pit::new(0, 1),
            end: Pit::new(0, 2),
            stones: 1,
        });
        effect
    }

    /// Moves the game to `pos` as if a ply had been played with `effect` (whose pits
    /// need not be those that changed: the key of the pits is taken anew).
    fn reach(game: &mut GameState, pos: &Position, effect: &Effect) {
        game.pos = pos.clone();
        game.pits_key = bao_pits_key(pos.board_pits());
        game.plies += 1;
        game.record(
            Keying::Bao,
            took(effect),
            &Move::Sow(Default::default()),
            Mode::Legal,
        );
    }

    #[test]
    fn repeat_2_draws_at_the_first_recurrence_of_the_start() {
        let mut game = bao(2);
        let start = game.pos.clone();
        let mut other = start.clone();
        other.side = Side::North;
        reach(&mut game, &other, &quiet());
        assert_eq!(game.outcome(), None);
        reach(&mut game, &start, &quiet());
        assert!(matches!(
            game.outcome(),
            Some(Outcome::Draw {
                reason: EndReason::Repetition
            })
        ));
        assert_eq!(
            game.play(&Move::Sow(Default::default()), Mode::Legal),
            Err(Illegal::GameOver)
        );
    }

    #[test]
    fn repeat_3_draws_at_the_third_occurrence() {
        let mut game = bao(3);
        let start = game.pos.clone();
        let mut other = start.clone();
        other.side = Side::North;
        for _ in 0..2 {
            reach(&mut game, &other, &quiet());
            assert_eq!(game.outcome(), None);
            reach(&mut game, &start, &quiet());
        }
        assert!(game.repetition, "the start occurred three times");
    }

    #[test]
    fn a_capture_forgets_earlier_positions() {
        let mut game = bao(2);
        let start = game.pos.clone();
        let mut capture = quiet();
        capture.captured.push((Pit::new(2, 1), 1));
        reach(&mut game, &start, &capture);
        assert!(!game.repetition, "the history was cleared by the capture");
        reach(&mut game, &start, &quiet());
        assert!(game.repetition, "the position after the capture counts");
    }

    #[test]
    fn equal_keys_of_different_positions_are_not_a_repetition() {
        // Nsolo keeps no positions, only keys and moves: force a collision by counting
        // the key of the position a quiet move leads to, before the move is played.
        let rules = Rules::new(Game::Nsolo, None, "repeat=2").unwrap();
        let mut game = GameState::start(rules);
        let quiet = (game.legal_moves().into_iter())
            .find(|c| !c.captures)
            .expect("a quiet first move");
        let mut after = game.clone();
        after.play(&quiet.mv, Mode::Legal).unwrap();
        game.history.count_key(repetition_key(after.position()));
        game.play(&quiet.mv, Mode::Legal).unwrap();
        assert_eq!(game.history.moves.len(), 1, "the move was remembered");
        assert!(
            !game.repetition,
            "the key came round twice, the position only once"
        );
    }

    /// Boards over `KEYED_ABOVE` pits keep the linear key of their pits ply by ply, from
    /// the sowing's change and the stones captured and taken as bonus.
    #[test]
    fn the_key_kept_ply_by_ply_is_the_key_of_the_position() {
        for (cols, bonus) in [(19, "none"), (24, "equal"), (35, "hole"), (36, "equal")] {
            let board = crate::Board::new(4, cols);
            let rules = Rules::new(Game::Nsolo, board, &format!("bonus={bonus}")).unwrap();
            let mut game = GameState::start(rules);
            let (mut rng, mut effect) = (Rng::new(cols as u64), Effect::default());
            let (mut quiet, mut bonuses) = (0, 0);
            for _ in 0..400 {
                if game.play_random(&mut rng, &mut effect).is_none() {
                    break;
                }
                quiet += !effect.is_capture() as u32;
                bonuses += !effect.bonus.is_empty() as u32;
                assert_eq!(game.pits_key, pits_key(game.pos.board_pits()), "4x{cols}");
            }
            assert!(quiet > 100, "4x{cols}: quiet plies were played");
            assert!(bonus == "none" || bonuses > 0, "4x{cols}: bonus was taken");
        }
    }

    /// The short way of `follow_short` leaves the game as the way of every ply does:
    /// the same game played with every ply sent the general way keeps the same key,
    /// moves, key counts and outcome, ply by ply, on boards keyed both ways.
    #[test]
    fn the_short_way_of_a_quiet_ply_is_the_general_one() {
        let linear: Follow = GameState::follow_linear_any;
        let hashed: Follow = GameState::follow_hashed_any;
        for (cols, general_way) in [(36, linear), (8, hashed)] {
            for (seed, repeat) in [(1, 2), (2, 3), (3, 2)] {
                let board = crate::Board::new(4, cols);
                let options = format!("repeat={repeat}");
                let rules = Rules::new(Game::Nsolo, board, &options).unwrap();
                short_and_general(rules, general_way, seed);
            }
        }
    }

    /// Plays a random game of `rules` twice, each ply the way of the game and
    /// `general_way`, and compares them ply by ply.
    fn short_and_general(rules: Rules, general_way: Follow, seed: u64) {
        let mut short = GameState::start(rules.clone());
        let mut general = GameState::start(rules);
        general.follow = general_way;
        let (mut rng, mut effect) = (Rng::new(seed), Effect::default());
        let mut quiet = 0;
        for _ in 0..600 {
            let Some(mv) = short.play_random(&mut rng, &mut effect) else {
                break;
            };
            general.play(&mv, Mode::Legal).unwrap();
            quiet += !took(&effect) as u32;
            let words = |g: &GameState| g.history.moves.iter().map(|k| k.0).collect::<Vec<_>>();
            assert_eq!(short.pits_key, general.pits_key);
            assert_eq!(words(&short), words(&general), "seed {seed}");
            assert_eq!(short.history.keys, general.history.keys);
            assert_eq!(short.outcome(), general.outcome());
        }
        assert!(quiet > 10, "seed {seed}: quiet plies were played");
    }

    /// The positions the rule counts exactly are those since the last capture: at every
    /// ply of random games, on boards keyed both ways, the count re-derived from the
    /// first of them and the moves since agrees with one over the positions themselves.
    #[test]
    fn the_exact_count_is_over_the_positions_since_the_last_capture() {
        for (cols, seed) in [(8, 1), (18, 2), (36, 3)] {
            let board = crate::Board::new(4, cols);
            let rules = Rules::new(Game::Nsolo, board, "").unwrap();
            let mut game = GameState::start(rules);
            let (mut rng, mut effect) = (Rng::new(seed), Effect::default());
            let mut since_capture = vec![game.pos.clone()];
            let mut captures = 0;
            for _ in 0..300 {
                if game.play_random(&mut rng, &mut effect).is_none() {
                    break;
                }
                if took(&effect) {
                    since_capture.clear();
                    captures += 1;
                }
                since_capture.push(game.pos.clone());
                let pos = &game.pos;
                let count = (since_capture.iter()).filter(|p| p.same_for_repetition(pos));
                assert_eq!(
                    game.history.occurrences(&game.rules, pos),
                    count.count() as u32,
                    "4x{cols}, ply {}",
                    game.plies
                );
            }
            assert!(captures > 5, "4x{cols}: captures were made");
        }
    }

    /// Bao la Kimasai keeps the bits of its occupied pits ply by ply, from the step and
    /// the stones captured.
    #[test]
    fn the_bao_bits_kept_ply_by_ply_are_those_of_the_position() {
        let rules = Rules::new(Game::BaoLaKimasai, None, "").unwrap();
        let (mut captures, mut plies) = (0, 0);
        for seed in 0..20 {
            let mut game = GameState::start(rules.clone());
            let (mut rng, mut effect) = (Rng::new(seed), Effect::default());
            while game.play_random(&mut rng, &mut effect).is_some() {
                plies += 1;
                captures += effect.is_capture() as u32;
                let bits = bao_pits_key(game.pos.board_pits());
                assert_eq!(game.pits_key, bits, "seed {seed}, ply {}", game.plies);
            }
        }
        assert!(
            plies > 1000 && captures > 50,
            "{plies} plies, {captures} captures"
        );
    }

    /// Bao la Kimasai's key is exact: every pit and the side to move have a bit of
    /// their own.
    #[test]
    fn bao_keys_tell_every_pit_and_the_side_apart() {
        let start = bao(2).pos;
        let mut keys = vec![bao_key(&start)];
        for i in 0..start.board().len() {
            let mut pos = start.clone();
            pos.pits[i] ^= 1;
            keys.push(bao_key(&pos));
        }
        let mut other = start.clone();
        other.side = Side::North;
        keys.push(bao_key(&other));
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n, "two positions share a key");
    }

    #[test]
    fn the_key_table_grows_and_keeps_counts() {
        let mut history = History::default();
        for round in 1..=3 {
            for key in 0..1000u64 {
                assert_eq!(history.count_key(key.wrapping_mul(0x9e37_79b9)), round);
            }
        }
        history.clear();
        assert_eq!(history.count_key(0), 1);
    }

    /// A game takes up the key table the thread's last game left, without its keys.
    #[test]
    fn the_next_game_takes_up_the_table_empty() {
        let mut history = History::default();
        for key in 0..1000u64 {
            history.count_key(key);
        }
        for _ in 0..100 {
            history.keep(&Move::Sow(Sowing::from(Pit::new(0, 1))), Mode::Legal);
        }
        let size = history.slots.len();
        let table = history.slots.as_ptr();
        let moves = history.moves.capacity();
        drop(history);
        let mut next = History::default();
        // One key asks for a table: the one left, whole (a fresh one would be smaller,
        // and elsewhere).
        assert_eq!(next.count_key(0), 1, "a key of the game before");
        assert_eq!(next.slots.len(), size, "the table was taken up");
        assert_eq!(next.slots.as_ptr(), table, "the very table");
        assert!(next.moves.is_empty(), "no move of the game before");
        assert_eq!(
            next.moves.capacity(),
            moves,
            "the list of moves was taken up"
        );
        for key in 1..1000u64 {
            assert_eq!(next.count_key(key), 1, "a key of the game before");
        }
        assert_eq!(next.slots.len(), size);
    }
}
