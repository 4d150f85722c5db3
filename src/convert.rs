//! `sow convert`: records in other forms, read from replay traces.

use crate::cli::{ConvertFrom, ConvertTo};
use crate::corpus::{Filter, Input};
use crate::error::CommandError;
use crate::replay::ReplayOptions;

pub fn run(
    _inputs: &[Input],
    _filter: &Filter,
    _replay: &ReplayOptions,
    _to: ConvertTo,
    _from: ConvertFrom,
) -> Result<Vec<u8>, CommandError> {
    Err(CommandError::Usage("sow convert is not built yet".into()))
}
