//! What a replay starts from: the rules of a record's tags and its start position.

use crate::diagnostic::{Code, Diagnostic};
use crate::pmn::{Record, Span};
use crate::position::Position;
use crate::rules::{split_options, with_overrides, Game, Rules};
use crate::Board;

/// The span of a tag's value, or of the record's first element when the tag is absent.
pub(super) fn tag_span(record: &Record, name: &str) -> Span {
    record
        .tags
        .iter()
        .find(|t| t.name == name)
        .map(|t| {
            if t.value_span.end > t.value_span.start {
                t.value_span
            } else {
                t.span
            }
        })
        .or_else(|| record.tags.first().map(|t| t.span))
        .unwrap_or_default()
}

/// Builds the rule set of a record from its tags and the overrides.
// A diagnostic is returned once per game at most: its size does not matter.
#[allow(clippy::result_large_err)]
pub fn rules_of(record: &Record, overrides: &[(String, String)]) -> Result<Rules, Diagnostic> {
    // No Game tag is the reader's `missing-game-tag`, whoever finds it: one code for it.
    let Some(game_tag) = record.tag("Game") else {
        return Err(Diagnostic::error(
            Code::MissingGameTag,
            None,
            tag_span(record, "Game"),
            "the record has no Game tag; expected one of Tsoro, Nsolo, Kiothi, BaoLaKimasai".into(),
        ));
    };
    let game = Game::from_tag(game_tag).ok_or_else(|| {
        Diagnostic::error(
            Code::UnknownGame,
            None,
            tag_span(record, "Game"),
            format!(
                "unknown game {game_tag:?}; expected one of Tsoro, Nsolo, Kiothi, BaoLaKimasai"
            ),
        )
    })?;
    let board = match record.tag("Board") {
        None => None,
        Some(text) => Some(Board::parse(text).ok_or_else(|| {
            Diagnostic::error(Code::BadBoard, None, tag_span(record, "Board"), {
                let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
                let form = match text.split_once('x') {
                    Some((r, c)) if digits(r) && digits(c) => "a board sow knows",
                    _ => "of the form RxC",
                };
                format!(
                    "board {text:?} is not {form}; {game} is played on {}",
                    game.allowed_boards()
                )
            })
        })?),
    };
    let written = record.tag("Rules").unwrap_or("");
    let option_error = |e: crate::rules::RulesError, span: Span| {
        let c = match e {
            crate::rules::RulesError::Board { .. } => Code::BadBoard,
            _ => Code::UnknownOption,
        };
        Diagnostic::error(c, None, span, e.to_string())
    };
    let mut pairs =
        split_options(written).map_err(|e| option_error(e, tag_span(record, "Rules")))?;
    with_overrides(&mut pairs, overrides);
    let options: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let span = if record.tag("Board").is_some() && record.tag("Rules").is_none() {
        tag_span(record, "Board")
    } else {
        tag_span(record, "Rules")
    };
    Rules::new(game, board, &options.join(" ")).map_err(|e| {
        let mut d = option_error(e, span);
        // The record's own options may be fine: then the overrides are to blame.
        if !overrides.is_empty() && Rules::new(game, board, written).is_ok() {
            let given: Vec<String> = overrides.iter().map(|(k, v)| format!("{k}={v}")).collect();
            d.message = format!("with --rules {}: {}", given.join(" "), d.message);
        }
        d
    })
}

/// The start position of a record: its `SetUp`/`Position`, else the game's layout.
#[allow(clippy::result_large_err)]
pub fn start_of(record: &Record, rules: &Rules) -> Result<Position, Diagnostic> {
    if record.tag("SetUp") == Some("1") {
        let Some(text) = record.tag("Position") else {
            return Err(Diagnostic::error(
                Code::Setup,
                None,
                tag_span(record, "SetUp"),
                "SetUp \"1\" needs a Position tag".into(),
            ));
        };
        return Position::parse(rules, text).map_err(|e| {
            Diagnostic::error(
                Code::Setup,
                None,
                tag_span(record, "Position"),
                e.to_string(),
            )
        });
    }
    Ok(Position::initial(rules))
}

/// A set-up's stone total that the start could not lead to: a warning (PMN.md).
pub(super) fn trace_setup_total(
    record: &Record,
    rules: &Rules,
    start: &Position,
) -> Option<Diagnostic> {
    if record.tag("SetUp") != Some("1") {
        return None;
    }
    let unlike = start.total_unlike_start(rules)?;
    let span = tag_span(record, "Position");
    Some(Diagnostic::warning(
        Code::SetupTotal,
        None,
        span,
        unlike.to_string(),
    ))
}
