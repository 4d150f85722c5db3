//! A game in progress: a position under a rule set, the repetition history, and the end
//! of the game (RULES.md, each game's "End", and "Positions and results").
//!
//! The end is found lazily: a position with no legal move is only examined when a ply
//! fails or when the outcome is asked for, so replaying a record costs one application
//! per ply.

use crate::games;
use crate::geometry::Side;
use crate::moves::{Candidate, Effect, Illegal, Mode, Move};
use crate::position::Position;
use crate::repetition::Repetitions;
use crate::rng::Rng;
use crate::rules::{Game, Rules};

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
    /// The repetition rule's count of positions, for the games that have the rule.
    repetitions: Option<Repetitions>,
    /// Set when a repetition draw has occurred.
    repetition: bool,
    plies: u32,
}

impl GameState {
    pub fn new(rules: Rules, pos: Position) -> GameState {
        GameState::reusing(rules, pos, &mut None)
    }

    /// [`GameState::new`], its repetition table made in the room of `spare` (see
    /// [`Repetitions::reusing`]).
    pub fn reusing(rules: Rules, pos: Position, spare: &mut Option<Repetitions>) -> GameState {
        let repetitions = Repetitions::reusing(&rules, &pos, spare);
        GameState {
            rules,
            pos,
            repetitions,
            repetition: false,
            plies: 0,
        }
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

    /// Gives up the repetition table, for a later game to reuse: the game's counts are
    /// not needed once it is replayed (whether a repetition ended it is kept).
    pub fn take_table(&mut self) -> Option<Repetitions> {
        self.repetitions.take()
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
                self.after_ply(mv, mode, effect);
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
        self.after_ply(&mv, Mode::Legal, effect);
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
        let stuck = self.pos.side();
        if self.rules.game() == Game::Kiothi {
            let mut score = self.pos.prisons();
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

    /// Counts the ply just played, and its position for the repetition rule.
    #[inline(always)]
    fn after_ply(&mut self, mv: &Move, mode: Mode, effect: &Effect) {
        self.plies += 1;
        if let Some(repetitions) = &mut self.repetitions {
            self.repetition = repetitions.after_ply(&self.rules, &self.pos, mv, mode, effect);
        }
    }
}
