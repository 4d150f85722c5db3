//! `sow plot`: SVG figures read from replay traces.

use crate::cli::PlotArgs;
use crate::corpus::{Filter, Input};
use crate::error::CommandError;
use crate::replay::ReplayOptions;

pub fn run(
    _inputs: &[Input],
    _filter: &Filter,
    _replay: &ReplayOptions,
    _args: &PlotArgs,
) -> Result<String, CommandError> {
    Err(CommandError::Usage("sow plot is not built yet".into()))
}
