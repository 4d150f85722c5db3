//! `sow`: read, validate, convert and analyse records of traditional mancala games:
//! Tsoro, Nsolo, Kiothi and Bao la Kimasai (four rows).
//!
//! See ARCHITECTURE.md for the map of the modules and the invariants between them.

pub mod games;
pub mod geometry;
pub mod moves;
pub mod play;
pub mod pmn;
pub mod position;
pub mod rng;
pub mod rules;
mod sowing;

pub use geometry::{Board, Direction, Pit, Side};
pub use moves::{Candidate, Effect, Illegal, Mode, Move};
pub use play::{GameState, Outcome};
pub use position::Position;
pub use rules::{Game, Rules};
