//! `sow`: read, validate, convert and analyse records of traditional mancala games.
//!
//! See ARCHITECTURE.md for the map of the modules.

pub mod pmn;
