//! `sow`: read, validate, convert and analyse records of traditional mancala games:
//! Tsoro, Nsolo, Kiothi and Bao la Kimasai (four rows).
//!
//! See ARCHITECTURE.md for the map of the modules and the invariants between them.

pub mod align;
#[cfg(feature = "cli")]
pub mod cli;
pub mod code;
pub mod convert;
pub mod corpus;
pub mod database;
pub mod diagnostic;
pub mod diagram;
pub mod diff;
pub mod error;
pub mod escape;
pub mod figure;
pub mod games;
pub mod generate;
pub mod geometry;
pub mod moves;
pub mod notation;
pub mod output;
pub mod pit;
pub mod play;
pub mod plot;
pub mod pmn;
pub mod position;
pub mod repair;
pub mod repetition;
pub mod replay;
pub mod rng;
pub mod rules;
pub mod search;
pub mod show;
mod sowing;
mod spool;
pub mod stats;
pub mod tree;
pub mod twins;
pub mod validate;
pub mod view;

pub use geometry::{Board, Direction, Pit, Side};
pub use moves::{Candidate, Effect, Illegal, Mode, Move};
pub use play::{GameState, Outcome};
pub use position::Position;
pub use rules::{Game, Rules};
