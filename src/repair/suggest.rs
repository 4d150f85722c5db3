//! Repairs as suggestions on diagnostics, and `sow repair`'s text of a repaired game.

use crate::diagnostic::{SuggestedEdit, Suggestion};
use crate::pmn::parse::move_number_for;
use crate::pmn::{self, Dots, Element, ParsedGame};
use crate::replay::{self, ReplayOptions, Trace};

use super::apply::{apply_edit, edit_record, edited_text};
use super::search::{
    held_plies, holding, plies_read, search_held, unreadable_ply_repairs, HELD_PAST,
};
use super::{Edit, Repair, RepairOptions};

/// A repair ready to be shown and applied: a search's [`Repair`], or mended tokens of
/// the text (a ply the reader could not read, move numbers out of step).
#[derive(Clone, Debug)]
pub struct Fix {
    /// The suggestion as `--suggest` reports it.
    pub suggestion: Suggestion,
    pub(super) how: How,
}

#[derive(Clone, Debug)]
pub(super) enum How {
    /// A repair of the record.
    Record(Repair),
    /// Tokens of the game's text replaced, in the order of the text.
    Text(Vec<Mend>),
}

/// Bytes `start..end` of a game's text, which read `old`, replaced by `new`.
#[derive(Clone, Debug)]
pub(super) struct Mend {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) old: String,
    pub(super) new: String,
}

/// The outcome of [`suggest`].
#[derive(Clone, Debug, Default)]
pub struct Suggestions {
    /// Best first, ranked from 1.
    pub fixes: Vec<Fix>,
    /// When the search stopped at its bound: what it had done.
    pub stopped: Option<String>,
    /// When no repair was found: how far the search went.
    pub none: Option<String>,
}

/// The best repairs of a game whose trace has an error (at most `bounds.keep`), or of
/// the move numbers out of step of a game that replays without one.
pub fn suggest(
    game: &ParsedGame,
    trace: &Trace,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) -> Suggestions {
    let mut out = Suggestions::default();
    let (Some(first_error), Some(at)) = (trace.first_error_ply(), trace.first_error_index()) else {
        out.fixes.extend(renumbering(game, trace, options));
        return out;
    };
    // A ply the reader could not read: the record stops before it, so edits of the
    // record cannot reach past it; the text is mended instead.
    if let Some(found) = unreadable_ply_repairs(
        game,
        &trace.diagnostics[at],
        options,
        bounds.keep,
        bounds.plies,
    ) {
        out.fixes = found;
        if out.fixes.is_empty() {
            out.none = Some(format!(
                "no repair found: no legal ply in the place of the unreadable ply {first_error} replays past it"
            ));
        }
        return out;
    }
    // The record may hold its main line only in part (see `search_held`): the trace
    // counts the plies of the text.
    let in_text = trace.plies_written;
    // A long record is held only as far as the search reads it.
    let cut;
    let game = match plies_read(first_error as usize) + HELD_PAST {
        read if read < held_plies(game) => {
            cut = holding(game, read);
            &cut
        }
        _ => game,
    };
    let found = search_held(game, in_text, first_error, options, bounds);
    // The suggestions' text reads the record to the plies after the furthest edit, a
    // result's to the end of the game.
    let kept = &found.repairs[..found.repairs.len().min(bounds.keep)];
    let need = (kept.iter())
        .flat_map(|r| std::iter::once(&r.edit).chain(&r.second))
        .map(|e| match e {
            Edit::Result { .. } => in_text,
            e => plies_read(e.at() + 2),
        })
        .max()
        .unwrap_or(0);
    let whole;
    let game = match held_plies(game) < in_text && need > held_plies(game) {
        true => {
            whole = holding(game, need.min(in_text));
            &whole
        }
        false => game,
    };
    let mut last_key = None;
    let mut rank = 0;
    // The edits are shown from the record's plies, not from copies of the record.
    let written: Vec<&pmn::PlySyntax> = game.record.main_line().map(|e| &e.ply.syntax).collect();
    for (i, r) in found.repairs.iter().take(bounds.keep).enumerate() {
        let key = r.key();
        if last_key != Some(key) {
            rank = i + 1;
            last_key = Some(key);
        }
        let once = r.edit.edited_plies(&written);
        let twice;
        let plies = match &r.second {
            Some(second) => {
                twice = second.edited_plies(&once);
                &twice
            }
            None => &once,
        };
        let shown = r.second.as_ref().unwrap_or(&r.edit).at().min(plies.len());
        let from = r.edit.at().min(shown).saturating_sub(1);
        let to = (shown + 3).min(plies.len());
        let context: Vec<String> = (from..to)
            .map(|i| format!("{}:{}", i + 1, plies[i]))
            .collect();
        let mut edit = r.edit.describe(&written);
        if let Some(second) = &r.second {
            edit = format!("{edit}, then {}", second.describe(&once));
        }
        // A second edit of a checkpoint or the result reads the comments or the result
        // of the record the first made.
        let then = r.second.as_ref().map(|second| match second {
            Edit::Checkpoint { .. } | Edit::Result { .. } => {
                second.structured(&apply_edit(&game.record, &r.edit))
            }
            _ => second.structured_in(&once, &game.record),
        });
        out.fixes.push(Fix {
            suggestion: Suggestion {
                edit,
                text: context.join(" "),
                replays: r.replays,
                complete: r.complete,
                change: r.edit.structured_in(&written, &game.record),
                replays_to: r.replays,
                rank,
                then,
            },
            how: How::Record(r.clone()),
        });
    }
    let window = RepairOptions::default().window.max(bounds.window);
    let lowest = (first_error as usize).saturating_sub(window).max(1);
    if found.stopped_early {
        let after = if found.replayed >= bounds.plies {
            format!("{} plies replayed", found.replayed)
        } else {
            format!("{} ms", bounds.budget.unwrap_or_default().as_millis())
        };
        out.stopped = Some(format!(
            "the search stopped after {after} and {} candidates; more repairs may exist",
            found.tried
        ));
    } else if out.fixes.is_empty() {
        out.none = Some(format!(
            "no repair found: {} candidates, one or two edits of plies {lowest} to {first_error} and of the checkpoints and result, {} plies replayed",
            found.tried, found.replayed
        ));
    }
    out
}

/// The text of a game with a fix applied, each change recorded in a comment beside it
/// (`{repaired: was b3}`; docs/PMN.md, "Repairs"). A fix of the record writes the game
/// in export form; a mended token changes the text there alone.
pub fn fixed_text(game: &ParsedGame, fix: &Fix) -> String {
    match &fix.how {
        How::Record(r) => {
            // Written from the text as it is read; a game with no text (a record built
            // otherwise, held whole) from its record.
            let edits: Vec<&Edit> = std::iter::once(&r.edit).chain(&r.second).collect();
            if !game.text.is_empty() || game.record.moves.is_empty() {
                return edited_text(&game.text, game.offset, game.line, &game.record, &edits);
            }
            let record = &game.record;
            let once = edit_record(record, &r.edit, true);
            let twice = match &r.second {
                // The second edit's plies are those of the record the first made; the
                // comment the first added is no ply and shifts none.
                Some(second) => edit_record(&once, second, true),
                None => once,
            };
            pmn::write_game(&twice)
        }
        How::Text(mends) => {
            let text = &game.text;
            let mut out = String::with_capacity(text.len() + 32 * mends.len());
            let mut copied = 0;
            for m in mends {
                let old = m.old.replace(['{', '}'], "");
                out.push_str(&text[copied..m.start]);
                out.push_str(&format!("{} {{repaired: was {old}}}", m.new));
                copied = m.end;
            }
            out.push_str(&text[copied..]);
            out
        }
    }
}

/// The main line's move numbers that do not fit the ply after them, each written as the
/// one that fits: one fix for a game that replays without an error, when the game so
/// renumbered reads with no move number out of step.
fn renumbering(game: &ParsedGame, trace: &Trace, options: &ReplayOptions) -> Option<Fix> {
    let written = |n: u64, dots: Dots| match dots {
        Dots::One => format!("{n}."),
        Dots::Three => format!("{n}..."),
    };
    let mut index = u64::from(game.record.first_side() == pmn::Side::North);
    let mut plies = 0;
    let mut number = None;
    let mut mends = Vec::new();
    let mut first_ply = 0;
    for element in &game.record.moves {
        match element {
            Element::MoveNumber(m) => number = Some(*m),
            Element::Ply(_) => {
                plies += 1;
                if let Some(m) = number.take() {
                    let (fits, dots) = move_number_for(index);
                    if (u64::from(m.number), m.dots) != (fits, dots) {
                        let start = m.span.start.checked_sub(game.offset)?;
                        let end = m.span.end.checked_sub(game.offset)?;
                        if mends.is_empty() {
                            first_ply = plies;
                        }
                        mends.push(Mend {
                            start,
                            end,
                            old: game.text.get(start..end)?.to_string(),
                            new: written(fits, dots),
                        });
                    }
                }
                index += 1;
            }
            _ => {}
        }
    }
    let first = mends.first()?.clone();
    let edit = match mends.len() {
        1 => format!("write move number `{}` as `{}`", first.old, first.new),
        n => format!(
            "write move number `{}` as `{}`, and the {} after it out of step",
            first.old,
            first.new,
            n - 1
        ),
    };
    let fix = Fix {
        suggestion: Suggestion {
            edit,
            text: format!("{} {}", first.new, ply_text(game, first_ply)),
            replays: trace.plies_written,
            complete: true,
            change: SuggestedEdit {
                action: "renumber",
                ply: first_ply as u32,
                old: first.old,
                new: first.new,
            },
            replays_to: trace.plies_written,
            rank: 1,
            then: None,
        },
        how: How::Text(mends),
    };
    // Offered only when the game so renumbered reads with every move number in step.
    let again = pmn::parse_str(&fixed_text(game, &fix));
    let sound = again.len() == 1 && {
        let t = replay::replay(&again[0], options);
        t.is_valid() && !t.diagnostics.iter().any(|d| d.code == "move-number")
    };
    sound.then_some(fix)
}

/// The written text of main-line ply `number` (from 1).
fn ply_text(game: &ParsedGame, number: usize) -> String {
    (game.record.main_line().nth(number.saturating_sub(1)))
        .map(|e| e.ply.syntax.to_string())
        .unwrap_or_default()
}

/// The main-line plies of a game a search for its repairs reads, from its trace: a
/// record parsed to this many (see [`crate::pmn::GameText::parse_cut`]) gets the
/// suggestions of the whole record.
pub fn plies_read_for(trace: &Trace) -> usize {
    (trace.first_error_ply()).map_or(usize::MAX, |e| plies_read(e as usize) + HELD_PAST)
}

/// [`attach_suggestions`] for the trace of a game replayed from its text, which is parsed
/// only as far as the search for repairs reads it.
pub fn attach_suggestions_from_text(
    text: &pmn::GameText,
    trace: &mut Trace,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) {
    let game = text.clone().parse_cut(plies_read_for(trace));
    attach_suggestions(&game, trace, options, bounds);
}

/// Adds the best repairs as suggestions to the first error of a trace.
pub fn attach_suggestions(
    game: &ParsedGame,
    trace: &mut Trace,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) {
    // The suggestions go with the earliest error, or else with the first move number out
    // of step.
    let Some(at) = trace
        .first_error_index()
        .or_else(|| (trace.diagnostics.iter()).position(|d| d.code == "move-number"))
    else {
        return;
    };
    let found = suggest(game, trace, options, bounds);
    let d = &mut trace.diagnostics[at];
    d.suggestions = found.fixes.into_iter().map(|f| f.suggestion).collect();
    // Said apart from the suggestions: neither is one.
    d.suggestions_stopped = found.stopped;
    d.suggestions_none = found.none;
}

/// A suggestion named to be applied (`sow repair --take [GAME:]PLY:RANK`): in game
/// `game` (any, if `None`), whose first error is at ply `ply`, the `rank`-th suggestion
/// listed (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    pub game: Option<usize>,
    pub ply: u32,
    pub rank: usize,
}

impl std::str::FromStr for Take {
    type Err = String;

    fn from_str(s: &str) -> Result<Take, String> {
        let parts: Vec<&str> = s.split(':').collect();
        let number = |t: &str| -> Result<usize, String> {
            t.parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("`{t}` in `{s}` is not a number from 1"))
        };
        match parts.as_slice() {
            [ply, rank] => Ok(Take {
                game: None,
                ply: number(ply)? as u32,
                rank: number(rank)?,
            }),
            [game, ply, rank] => Ok(Take {
                game: Some(number(game)?),
                ply: number(ply)? as u32,
                rank: number(rank)?,
            }),
            _ => Err(format!("`{s}` is not PLY:RANK or GAME:PLY:RANK")),
        }
    }
}

/// What `sow repair` did with one game (numbered from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameRepaired {
    /// The game replays without an error: kept as it was.
    Valid,
    /// The suggestion applied, in words; the game as repaired replays without an error.
    Repaired(String),
    /// Kept as it was, and why.
    Kept(String),
}

/// The text of a file with each game that has an error repaired where one repair is
/// clearly best (the top suggestion, when it replays completely and no other is ranked
/// as high) or named by `takes`, and what was done with each game. Every other byte is
/// kept: the games not repaired, and the text between games.
pub fn repair_text(
    text: &str,
    takes: &[Take],
    options: &ReplayOptions,
    bounds: &RepairOptions,
) -> (String, Vec<GameRepaired>) {
    let mut out = String::with_capacity(text.len());
    let mut done = Vec::new();
    let mut copied = 0;
    let mut games = pmn::Reader::new(text.as_bytes());
    let mut replayer = replay::Replayer::new();
    let mut number = 0;
    while let Some(game) = games.next_text() {
        number += 1;
        let (start, end) = (game.offset(), game.offset() + game.text_len());
        if text.get(start..end) != Some(game.text()) || start < copied {
            // Not where the reader said: nothing of this game is changed.
            done.push(GameRepaired::Kept(
                "its text could not be located in the file".into(),
            ));
            continue;
        }
        out.push_str(&text[copied..start]);
        copied = end;
        // Replayed from its text, and parsed only as far as the search reads it.
        let (game, trace) = match replayer.replay_text(&game, options, &|_| true) {
            Some((_, trace)) => (game.parse_cut(plies_read_for(&trace)), trace),
            None => {
                let game = game.parse();
                let trace = replay::replay(&game, options);
                (game, trace)
            }
        };
        let found = suggest(&game, &trace, options, bounds);
        if trace.is_valid() && found.fixes.is_empty() {
            out.push_str(&game.text);
            done.push(GameRepaired::Valid);
            continue;
        }
        // The ply of the error, or of the first move number out of step.
        let error_ply = (trace.first_error_ply())
            .or_else(|| found.fixes.first().map(|f| f.suggestion.change.ply))
            .unwrap_or(0);
        let named = takes
            .iter()
            .find(|t| t.game.is_none_or(|g| g == number) && t.ply == error_ply);
        let chosen = match named {
            Some(t) => found.fixes.get(t.rank - 1).ok_or_else(|| {
                format!(
                    "--take {}:{}: the error at ply {error_ply} has {} suggestion(s)",
                    t.ply,
                    t.rank,
                    found.fixes.len()
                )
            }),
            None => match found.fixes.as_slice() {
                [] => Err(found
                    .none
                    .clone()
                    .or(found.stopped.clone())
                    .unwrap_or_else(|| "no repair found".into())),
                [best, ..] if !best.suggestion.complete => Err(format!(
                    "no repair replays completely (the best, {}, replays {} plies)",
                    best.suggestion.edit, best.suggestion.replays
                )),
                [best, next, ..] if next.suggestion.rank == best.suggestion.rank => Err(format!(
                    "ambiguous: {} and {} are ranked alike; name one with --take {error_ply}:RANK",
                    best.suggestion.edit, next.suggestion.edit
                )),
                [best, ..] => Ok(best),
            },
        };
        let kept = match chosen {
            Ok(fix) => {
                let fixed = fixed_text(&game, fix);
                // The repaired game must read and replay without an error, or the game
                // is kept as it was.
                let mut again = pmn::Reader::new(fixed.as_bytes());
                let sound = match (again.next_text(), again.next_text()) {
                    (Some(one), None) => (replayer.replay_text(&one, options, &|_| true))
                        .map_or_else(
                            || replay::replay(&one.parse(), options).is_valid(),
                            |(_, trace)| trace.is_valid(),
                        ),
                    _ => false,
                };
                if sound {
                    out.push_str(&fixed);
                    if !fixed.ends_with('\n') && game.text.ends_with('\n') {
                        out.push('\n');
                    }
                    done.push(GameRepaired::Repaired(fix.suggestion.edit.clone()));
                    None
                } else {
                    Some(format!(
                        "{} leaves the game with an error",
                        fix.suggestion.edit
                    ))
                }
            }
            Err(why) => Some(why),
        };
        if let Some(why) = kept {
            out.push_str(&game.text);
            done.push(GameRepaired::Kept(why));
        }
    }
    out.push_str(&text[copied.min(text.len())..]);
    (out, done)
}
