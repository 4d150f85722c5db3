//! Problems found while reading PMN text: what was found, what was expected, and where.
//!
//! Only problems of the text belong here (syntax, encoding, tags that disagree with the
//! move text). Problems of the play (an illegal ply) are the replay layer's.

use std::fmt;

use serde::Serialize;

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

/// What kind of problem it is; `as_str` gives the stable kebab-case code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemCode {
    /// Text that is not PMN where it is.
    Syntax,
    /// A `{` comment without its `}`.
    UnterminatedComment,
    /// A tag without its closing quote or `]`.
    UnterminatedTag,
    /// A `(` without its `)`.
    UnterminatedVariation,
    /// A `)` without its `(`.
    UnmatchedParen,
    /// A backslash in a tag value followed by something other than `"` or `\`.
    BadEscape,
    /// The same tag twice.
    DuplicateTag,
    /// No `Game` tag.
    MissingGameTag,
    /// No result token at the end of the move text.
    MissingResult,
    /// The `Result` tag and the result token disagree.
    ResultMismatch,
    /// A move number that does not fit the ply after it.
    MoveNumber,
    /// Bytes that are not UTF-8 (read as Latin-1), broken UTF-16, or an encoding or line
    /// ends told without a mark (UTF-16 without its byte-order mark, CR alone).
    Encoding,
    /// A NUL byte.
    NulByte,
    /// A line longer than the limit.
    LongLine,
    /// A number too large for its place.
    NumberTooLarge,
    /// Variations nested deeper than the limit.
    NestingTooDeep,
    /// A file with no games.
    EmptyFile,
    /// Text after a game's result and before the next game's tags.
    GarbageBetweenGames,
    /// The input could not be read.
    Io,
}

impl ProblemCode {
    /// The kebab-case code, e.g. `unterminated-comment`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemCode::Syntax => "syntax",
            ProblemCode::UnterminatedComment => "unterminated-comment",
            ProblemCode::UnterminatedTag => "unterminated-tag",
            ProblemCode::UnterminatedVariation => "unterminated-variation",
            ProblemCode::UnmatchedParen => "unmatched-paren",
            ProblemCode::BadEscape => "bad-escape",
            ProblemCode::DuplicateTag => "duplicate-tag",
            ProblemCode::MissingGameTag => "missing-game-tag",
            ProblemCode::MissingResult => "missing-result",
            ProblemCode::ResultMismatch => "result-mismatch",
            ProblemCode::MoveNumber => "move-number",
            ProblemCode::Encoding => "encoding",
            ProblemCode::NulByte => "nul-byte",
            ProblemCode::LongLine => "long-line",
            ProblemCode::NumberTooLarge => "number-too-large",
            ProblemCode::NestingTooDeep => "nesting-too-deep",
            ProblemCode::EmptyFile => "empty-file",
            ProblemCode::GarbageBetweenGames => "garbage-between-games",
            ProblemCode::Io => "io",
        }
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A problem in the text, with its place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// The kind of problem.
    pub code: ProblemCode,
    /// Plain words: what was found, what was expected.
    pub message: String,
    /// Where it is.
    pub span: Span,
}

impl Problem {
    /// An error.
    pub fn error(code: ProblemCode, span: Span, message: impl Into<String>) -> Problem {
        Problem {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
        }
    }

    /// A warning.
    pub fn warning(code: ProblemCode, span: Span, message: impl Into<String>) -> Problem {
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
