//! `sow stats`: statistics as CSV, one row per ply or per game, read from replay traces.

use crate::cli::Per;
use crate::corpus::{Filter, Input};
use crate::error::CommandError;
use crate::replay::ReplayOptions;

pub fn run(
    _inputs: &[Input],
    _filter: &Filter,
    _replay: &ReplayOptions,
    _per: Per,
) -> Result<Vec<u8>, CommandError> {
    Err(CommandError::Usage("sow stats is not built yet".into()))
}
