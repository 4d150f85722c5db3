//! The errors of the corpus commands (stats, plot, convert, generate, show): a usage
//! problem or an input/output failure, each naming what it concerns.

use std::path::PathBuf;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum CommandError {
    /// The command line asks for something that cannot be done.
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Output could not be produced.
    #[error("{0}")]
    Output(String),
}

impl CommandError {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> CommandError {
        CommandError::Io {
            path: path.into(),
            source,
        }
    }
}
