//! Repairs and rules inference for damaged transcriptions (`--suggest`, `--infer-rules`).

use serde::Serialize;

use crate::pmn::ParsedGame;
use crate::replay::{ReplayOptions, Trace};

/// How one combination of options fares on a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulesVerdict {
    /// The options, as a `Rules` tag would write them.
    pub options: String,
    /// Replays the whole record.
    pub consistent: bool,
    /// The first ply that fails, if any.
    pub fails_at: Option<u32>,
    /// The options are the record's own.
    pub declared: bool,
}

/// Adds repair suggestions to the first error of a trace.
pub fn attach_suggestions(_game: &ParsedGame, _trace: &mut Trace, _options: &ReplayOptions) {}

/// Replays a game under every combination of the options its `Rules` tag leaves open.
pub fn infer_rules(_game: &ParsedGame, _options: &ReplayOptions) -> Vec<RulesVerdict> {
    Vec::new()
}

/// "consistent with: ...; declared ... fails at ply N".
pub fn describe_verdicts(verdicts: &[RulesVerdict]) -> String {
    let consistent: Vec<&str> = verdicts
        .iter()
        .filter(|v| v.consistent)
        .map(|v| v.options.as_str())
        .collect();
    format!("consistent with: {}", consistent.join("; "))
}
