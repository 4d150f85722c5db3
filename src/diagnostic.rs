//! Diagnostics: every problem found in a record, from the reader or the replay, with a
//! stable code, a severity, where it is, and plain words.
//!
//! The codes are part of the interface (`--format json`, records/flawed/): add codes
//! freely, never rename one.

use serde::Serialize;

use crate::pmn::{Problem, Severity, Span};

/// The stable codes of replay problems (reader problems bring their own).
pub mod code {
    /// A ply that breaks the rules.
    pub const ILLEGAL_MOVE: &str = "illegal-move";
    /// A ply that can never end.
    pub const ENDLESS_SOWING: &str = "endless-sowing";
    /// A ply whose sowing neither ended nor proved endless within the lap budget.
    pub const UNDECIDED_SOWING: &str = "undecided-sowing";
    /// `-END` names another pit than the one where the move ended.
    pub const END_MISMATCH: &str = "end-mismatch";
    /// An `x` on a ply that captured nothing, or a capture without `x`.
    pub const CAPTURE_MARK: &str = "capture-mark";
    /// Bonus pits that break the bonus rule.
    pub const BONUS: &str = "bonus";
    /// A `[%stones S N]` checkpoint that disagrees with the replay.
    pub const STONES_MISMATCH: &str = "stones-mismatch";
    /// A `Result` that disagrees with the final position.
    pub const RESULT_MISMATCH: &str = "result-mismatch";
    /// A decisive or drawn result for a game that is not over.
    pub const RESULT_NOT_OVER: &str = "result-not-over";
    /// A ply written after the game was over.
    pub const AFTER_END: &str = "after-end";
    /// A ply executed under `[%foul]`.
    pub const FOUL: &str = "foul";
    /// A `Rules` option the game does not know, or a value out of range.
    pub const UNKNOWN_OPTION: &str = "unknown-option";
    /// A `Game` tag naming no game we know.
    pub const UNKNOWN_GAME: &str = "unknown-game";
    /// A `Board` tag the game is not played on.
    pub const BAD_BOARD: &str = "bad-board";
    /// A `Position` set-up that cannot be a position of the game.
    pub const SETUP: &str = "setup";
    /// A set-up whose stone total the rule set's start could not lead to (a warning).
    pub const SETUP_TOTAL: &str = "setup-total";
    /// A ply whose form the game does not write (e.g. `:n` outside Kiothi).
    pub const PLY_FORM: &str = "ply-form";
    /// A malformed `[%...]` command.
    pub const COMMAND: &str = "command";
}

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
}

/// One problem of one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: &'static str,
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
}

impl Diagnostic {
    pub fn error(code: &'static str, ply: Option<u32>, span: Span, message: String) -> Diagnostic {
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
        }
    }

    pub fn warning(
        code: &'static str,
        ply: Option<u32>,
        span: Span,
        message: String,
    ) -> Diagnostic {
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
            code: problem.code.as_str(),
            ply: None,
            span: problem.span,
            message: problem.message.clone(),
            legal: Vec::new(),
            position: None,
            suggestions: Vec::new(),
            suggestions_stopped: None,
        }
    }
}
