//! Diagnostics: every problem found in a record, from the reader or the replay, with a
//! stable code, a severity, where it is, and plain words.
//!
//! The codes are part of the interface (`--format json`, records/flawed/): add codes
//! freely, never rename one.

use serde::Serialize;

pub use crate::code::Code;
use crate::pmn::{Problem, Severity, Span};

/// A suggested repair of a record (see `repair`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suggestion {
    /// What the edit does, e.g. "replace ply 14 `b5` by `b6`".
    pub edit: String,
    /// The edited move text around the edit.
    pub text: String,
    /// How many plies the edited record replays.
    pub replays: usize,
    /// Whether the edited record replays completely, with every checkpoint.
    pub complete: bool,
    /// The (first) edit, structured.
    #[serde(flatten)]
    pub change: SuggestedEdit,
    /// The same as `replays`, under the name the structured form uses.
    pub replays_to: usize,
    /// 1 for the best; suggestions ranked alike share a rank.
    pub rank: usize,
    /// A second edit, made after the first (its ply counted in the record the first
    /// edit made), when no single edit replays the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub then: Option<SuggestedEdit>,
}

/// One edit of a suggestion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct SuggestedEdit {
    /// `replace`, `insert`, `delete`, `swap`, `checkpoint` or `result`.
    pub action: &'static str,
    /// The ply replaced, inserted before (its number after the insertion), deleted or
    /// swapped with the next, or the ply a checkpoint follows (0: the start); for a
    /// result, the last ply.
    pub ply: u32,
    /// The text replaced: a ply, two plies (swap), a `[%stones]` command or a result.
    pub old: String,
    /// Its replacement: a ply, two plies, the corrected command or the result token.
    pub new: String,
}

/// One problem of one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    /// The ply it concerns (1-based), if any.
    pub ply: Option<u32>,
    pub span: Span,
    pub message: String,
    /// For an illegal ply: the legal plies at that point, in PMN notation.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub legal: Vec<String>,
    /// For an illegal ply: the position it was played in (PMN `Position` string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// Repairs found by `--suggest`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<Suggestion>,
    /// When `--suggest`'s search stopped at its bound: what it had done (more repairs
    /// may exist).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestions_stopped: Option<String>,
    /// When `--suggest` found no repair: how far its search went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestions_none: Option<String>,
}

impl Diagnostic {
    pub fn error(code: Code, ply: Option<u32>, span: Span, message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            ply,
            span,
            message,
            legal: Vec::new(),
            position: None,
            suggestions: Vec::new(),
            suggestions_stopped: None,
            suggestions_none: None,
        }
    }

    pub fn warning(code: Code, ply: Option<u32>, span: Span, message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, ply, span, message)
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// A reader problem as a diagnostic; `ply` when it lies in the move text.
    pub fn from_problem(problem: &Problem) -> Diagnostic {
        Diagnostic {
            severity: problem.severity,
            code: problem.code,
            ply: None,
            span: problem.span,
            message: problem.message.clone(),
            legal: Vec::new(),
            position: None,
            suggestions: Vec::new(),
            suggestions_stopped: None,
            suggestions_none: None,
        }
    }
}
