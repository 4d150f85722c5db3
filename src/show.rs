//! `sow show`: the position after one ply of one game, as a text board, a PMN `Position`
//! string or SVG. It replays through [`crate::replay`] and draws through
//! [`crate::diagram`]; it knows no terminal and no output file.

use crate::diagnostic::Diagnostic;
use crate::error::CommandError;
use crate::pmn::ParsedGame;
use crate::replay::{replay, PlyTrace, ReplayOptions, Trace};

/// How the position is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShowFormat {
    /// A text board with a caption and, at the end of the game, how it ended.
    Text,
    /// The PMN `Position` string.
    Pmn,
    /// An SVG board.
    Svg,
}

/// What `sow show` writes, and what it says beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The output (control characters of the record escaped in the text form).
    pub text: String,
    /// Which position this is, when the end was asked for and the game breaks before it.
    pub note: Option<String>,
}

/// The position of game `game` (its number from 1, for messages) of the file `name` after
/// ply `ply` (0: the start; `None`: the last ply replayed). A game that cannot be set up
/// (no rules, or no start position) has no position to show, and says why.
pub fn show(
    name: &str,
    game: usize,
    parsed: &ParsedGame,
    ply: Option<usize>,
    format: ShowFormat,
    options: &ReplayOptions,
) -> Result<Shown, CommandError> {
    let trace = replay(parsed, options);
    let replayed = trace.plies.len();
    let kept = match ply {
        Some(n) => n.checked_sub(1).and_then(|i| trace.plies.get(i)),
        None => trace.plies.last(),
    };
    shown(name, game, &trace, replayed, kept, ply, format)
}

/// [`show`] of a game replayed without keeping its plies: `replayed` plies were played,
/// and `kept` is the ply asked for (the last replayed when `ply` is `None`).
pub fn shown(
    name: &str,
    game: usize,
    trace: &Trace,
    replayed: usize,
    kept: Option<&PlyTrace>,
    ply: Option<usize>,
    format: ShowFormat,
) -> Result<Shown, CommandError> {
    // Where the first error is, as `file:line:column: `, to lead to the record.
    let first_error = trace.first_error();
    let place = |d: &Diagnostic| match d.span.line {
        0 => format!("{name}: "),
        line => format!("{name}:{line}:{}: ", d.span.column),
    };
    let (Some(rules), Some(start)) = (trace.rules.clone(), trace.start.as_ref()) else {
        let (at, why) = first_error
            .map(|d| (place(d), d.message.clone()))
            .unwrap_or_default();
        return Err(CommandError::Usage(format!(
            "{at}game {game} cannot be replayed: {why}"
        )));
    };
    let asked = ply;
    let ply = ply.unwrap_or(replayed);
    let when = |n: usize| match n {
        0 => "the start position".to_string(),
        n => format!("the position after ply {n}"),
    };
    let pos = match ply {
        0 => Some(start),
        _ => kept.and_then(|p| p.after.as_ref()),
    };
    let Some(pos) = pos.filter(|_| ply <= replayed) else {
        let why = match first_error {
            Some(d) => format!(
                "{}the replay stops at ply {}: {}",
                place(d),
                d.ply.unwrap_or(0),
                d.message
            ),
            None if replayed == 1 => "the game has 1 ply".into(),
            None => format!("the game has {replayed} plies"),
        };
        return Err(CommandError::Usage(format!(
            "no position after ply {ply}: {why}"
        )));
    };
    // The end was asked for, and the game breaks before it: say which position this is.
    let note = match (asked, first_error) {
        (None, Some(d)) => Some(format!(
            "{}game {game} stops at an error ({}: {}); this is {}",
            place(d),
            d.code,
            d.message,
            when(replayed)
        )),
        _ => None,
    };
    // The game's outcome belongs to its final position only.
    let outcome = trace.outcome.as_ref().filter(|_| ply == replayed);
    let last = kept.filter(|_| ply > 0);
    let text = match format {
        ShowFormat::Pmn => format!("{pos}\n"),
        ShowFormat::Text => {
            let caption = format!(
                "{} {}{}, game {game}, {}",
                rules.game(),
                rules.board(),
                match rules.options_tag().as_str() {
                    "" => String::new(),
                    o => format!(" ({o})"),
                },
                match last {
                    None => "start position".to_string(),
                    Some(p) => format!("after ply {ply} `{}`", p.text),
                }
            );
            crate::escape::escaped_owned(crate::diagram::text_board(&rules, pos, &caption, outcome))
        }
        ShowFormat::Svg => crate::diagram::svg_board(&rules, pos, last, outcome),
    };
    Ok(Shown { text, note })
}
