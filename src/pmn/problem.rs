//! Problems found while reading PMN text: what was found, what was expected, and where.
//!
//! Only problems of the text belong here (syntax, encoding, tags that disagree with the
//! move text). Problems of the play (an illegal ply) are the replay layer's.

use std::fmt;

use serde::Serialize;

pub use crate::code::Code;

use super::ast::Span;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Something was lost or cannot be trusted.
    Error,
    /// The text was read, but not as the format asks.
    Warning,
}

/// A problem in the text, with its place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// The kind of problem.
    pub code: Code,
    /// Plain words: what was found, what was expected.
    pub message: String,
    /// Where it is.
    pub span: Span,
}

impl Problem {
    /// An error.
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Problem {
        Problem {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
        }
    }

    /// A warning.
    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Problem {
        Problem {
            severity: Severity::Warning,
            code,
            message: message.into(),
            span,
        }
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}: {severity}[{}]: {}",
            self.span.line, self.span.column, self.code, self.message
        )
    }
}
