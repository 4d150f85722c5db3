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
    /// Inputs that could not be read, each reported already: the command fails rather
    /// than give a result that silently leaves them out (an output file is not written).
    #[error("{0} input(s) could not be read (see above)")]
    Unreadable(usize),
}

impl CommandError {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> CommandError {
        CommandError::Io {
            path: path.into(),
            source,
        }
    }
}
