//! `sow generate`: complete games played by simple players, written as PMN.

use crate::cli::GenerateArgs;
use crate::error::CommandError;

pub fn run(_args: &GenerateArgs) -> Result<String, CommandError> {
    Err(CommandError::Usage("sow generate is not built yet".into()))
}
