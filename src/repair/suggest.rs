//! Repairs as suggestions on diagnostics, and `sow repair`'s text of a repaired game.

use std::fmt::Write as _;

use crate::diagnostic::{SuggestedEdit, Suggestion};
use crate::pmn::parse::move_number_for;
use crate::pmn::{self, Dots, ParsedGame};
use crate::replay::{self, ReplayOptions, Trace};

use super::apply::{edit_record, edited_text};
use super::search::{search_held, unreadable_ply_repairs};
use super::shown::{shown_range, Plies, Written};
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
        trace.plies_written,
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
    let found = search_held(game, in_text, first_error, options, bounds);
    // The plies the suggestions show: around their edits, and between them.
    let kept = &found.repairs[..found.repairs.len().min(bounds.keep)];
    let mut wanted: Vec<std::ops::Range<usize>> = (kept.iter())
        .map(|r| shown_range(std::iter::once(&r.edit).chain(&r.second), in_text))
        .collect();
    wanted.sort_by_key(|r| r.start);
    let written = Written::read(game, in_text, &wanted);
    let written = Plies::Written(&written);
    let mut last_key = None;
    let mut rank = 0;
    for (i, r) in kept.iter().enumerate() {
        let key = r.key();
        if last_key != Some(key) {
            rank = i + 1;
            last_key = Some(key);
        }
        let once = Plies::Edited(&r.edit, &written);
        let twice;
        let plies = match &r.second {
            Some(second) => {
                twice = Plies::Edited(second, &once);
                &twice
            }
            None => &once,
        };
        let shown = r.second.as_ref().unwrap_or(&r.edit).at().min(plies.len());
        let from = r.edit.at().min(shown).saturating_sub(1);
        let to = (shown + 3).min(plies.len());
        // Written into one text: between far edits it shows many plies.
        let mut context = String::new();
        for i in from..to {
            let space = if i > from { " " } else { "" };
            let ply = plies.get(i).unwrap_or_default();
            let _ = write!(context, "{space}{}:{ply}", i + 1);
        }
        let mut edit = r.edit.describe(&written);
        if let Some(second) = &r.second {
            edit = format!("{edit}, then {}", second.describe(&once));
        }
        // A second edit reads the plies, comments and result of the game the first made.
        let then = (r.second.as_ref()).map(|second| second.structured_in(&once, &game.record));
        out.fixes.push(Fix {
            suggestion: Suggestion {
                edit,
                text: context,
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
            let edits: Vec<&Edit> = std::iter::once(&r.edit).chain(&r.second).collect();
            // Written from the text as it is read (a record built otherwise, with no
            // text, from the record).
            if !game.text.is_empty() || game.record.moves.is_empty() {
                return edited_text(&game.text, game.offset, game.line, &game.record, &edits);
            }
            let once = edit_record(&game.record, &r.edit, true);
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
/// renumbered reads with no move number out of step. The numbers are read from the
/// game's text as the reader reads it, and the game so renumbered is replayed from its
/// text: no syntax tree is built, however long the game.
fn renumbering(game: &ParsedGame, trace: &Trace, options: &ReplayOptions) -> Option<Fix> {
    let mut numbers = Numbers {
        game,
        index: u64::from(game.record.first_side() == pmn::Side::North),
        plies: 0,
        number: None,
        mends: Vec::new(),
        first_ply: 0,
        first_text: String::new(),
        lost: false,
    };
    pmn::parse::read_game(&game.text, game.offset, game.line, &mut numbers);
    let Numbers {
        mends,
        first_ply,
        first_text,
        lost,
        ..
    } = numbers;
    let first = mends.first().filter(|_| !lost)?.clone();
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
            text: format!("{} {first_text}", first.new),
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
    let fixed = fixed_text(game, &fix);
    let mut again = pmn::Reader::new(fixed.as_bytes());
    let sound = match (again.next_text(), again.next_text()) {
        (Some(one), None) => {
            let t = match replay::Replayer::new().replay_text(&one, options, &|_| true) {
                Some((_, trace)) => trace,
                None => replay::replay(&one.parse(), options),
            };
            t.is_valid() && !t.diagnostics.iter().any(|d| d.code == "move-number")
        }
        _ => false,
    };
    sound.then_some(fix)
}

/// The reader's events of a game's text: its main line's move numbers that do not fit
/// the ply after them (variations are skipped).
struct Numbers<'g> {
    game: &'g ParsedGame,
    /// The index of the next ply in the game, from its first side.
    index: u64,
    /// Main-line plies read.
    plies: usize,
    /// The last move number read, before the next ply.
    number: Option<pmn::MoveNumber>,
    mends: Vec<Mend>,
    /// The ply after the first number out of step (from 1), and its text.
    first_ply: usize,
    first_text: String,
    /// A number not found in the text where the reader said.
    lost: bool,
}

impl pmn::Visitor for Numbers<'_> {
    fn move_number(&mut self, number: pmn::MoveNumber) -> std::ops::ControlFlow<()> {
        self.number = Some(number);
        std::ops::ControlFlow::Continue(())
    }

    fn ply(&mut self, ply: pmn::Ply) -> std::ops::ControlFlow<()> {
        self.plies += 1;
        if let Some(m) = self.number.take() {
            let (fits, dots) = move_number_for(self.index);
            if (u64::from(m.number), m.dots) != (fits, dots) {
                let game = self.game;
                let start = m.span.start.checked_sub(game.offset);
                let end = m.span.end.checked_sub(game.offset);
                let old = start.zip(end).and_then(|(s, e)| game.text.get(s..e));
                let (Some(start), Some(end), Some(old)) = (start, end, old) else {
                    self.lost = true;
                    return std::ops::ControlFlow::Break(());
                };
                if self.mends.is_empty() {
                    self.first_ply = self.plies;
                    self.first_text = ply.syntax.to_string();
                }
                let new = match dots {
                    Dots::One => format!("{fits}."),
                    Dots::Three => format!("{fits}..."),
                };
                self.mends.push(Mend {
                    start,
                    end,
                    old: old.to_string(),
                    new,
                });
            }
        }
        self.index += 1;
        std::ops::ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: pmn::Problem) {}
}

/// [`attach_suggestions`] for the trace of a game replayed from its text, of which only
/// the tags, result and problems are parsed: the search for repairs reads the plies it
/// needs from the text.
pub fn attach_suggestions_from_text(
    text: &pmn::GameText,
    trace: &mut Trace,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) {
    let game = text.clone().parse_cut(0);
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
        // Replayed from its text, of which the search reads only the plies it needs.
        let (game, trace) = match replayer.replay_text(&game, options, &|_| true) {
            Some((_, trace)) => (game.parse_cut(0), trace),
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
