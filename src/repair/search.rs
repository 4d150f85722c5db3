//! The search for repairs: single edits before the first error, each replayed from the
//! position before it, and a second edit when no single one replays the record.

use std::borrow::Cow;
use std::time::Instant;

use crate::diagnostic::{Code, SuggestedEdit, Suggestion};
use crate::moves::Effect;
use crate::play::GameState;
use crate::pmn::{self, ParsedGame, PlySyntax};
use crate::replay::{self, replay_from, PlyInput, ReplayOptions, TextTail, Trace};
use crate::rules::Game;

use super::apply::apply_edit;
use super::candidates::{legal_plies, near_variants};
use super::rank::{distance, plausibility, ply_cost, rank};
use super::suggest::{Fix, How, Mend};
use super::{Edit, Repair, RepairOptions};

/// The place of a ply inserted at the end of a record, which has no ply to borrow it from.
static NO_SPAN: pmn::Span = pmn::Span {
    start: 0,
    end: 0,
    line: 0,
    column: 0,
};

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct RepairSearch {
    /// Best first.
    pub repairs: Vec<Repair>,
    /// The search stopped (its plies or its time ran out) before every candidate was
    /// tried.
    pub stopped_early: bool,
    /// Candidates replayed.
    pub tried: usize,
    /// Plies the candidates replayed, each candidate counting one more (see
    /// [`RepairOptions::plies`]).
    pub replayed: u64,
}

/// Searches single-edit repairs of a game whose replay has an error.
pub fn search(
    parsed: &ParsedGame,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) -> RepairSearch {
    let baseline = replay::replay(parsed, &options.quieted());
    match baseline.first_error_ply() {
        Some(first_error) => search_from(parsed, first_error, options, bounds),
        None => RepairSearch::default(),
    }
}

/// [`search`] for a game whose first error is already known (from its trace), so that
/// the game is not replayed once more to find it. When no single edit replays the
/// record completely, the furthest single edits are each followed by a second search
/// from the error that then shows, within the same bound on work.
pub fn search_from(
    parsed: &ParsedGame,
    first_error: u32,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) -> RepairSearch {
    search_held(parsed, held_plies(parsed), first_error, options, bounds)
}

/// Main-line plies held past the furthest ply a search or its suggestions read, when a
/// game's record is held only in part (see [`Window`]).
pub(super) const HELD_PAST: usize = 4096;

/// The main-line plies a game's record holds.
pub(super) fn held_plies(parsed: &ParsedGame) -> usize {
    parsed.record.main_line().count()
}

/// Main-line plies a search from the error at ply `first_error` reads of the record:
/// its window, the plies after the error that a swap or a suggestion's text shows.
pub(super) fn plies_read(first_error: usize) -> usize {
    first_error + 4
}

/// What a search reads of a game: its main line from ply `base` on (counted from 0),
/// held as a record, with the game state before ply `base`; the plies past those held
/// are read from the game's text when a replay comes to them. A record that holds the
/// whole main line is its own window from 0; a game whose record holds it in part (see
/// [`crate::pmn::GameText::parse_cut`]) is read again from its text for the plies the
/// search reads, and its plies before them are replayed from the text, so a long
/// game costs no more than its text, wherever its error.
pub(super) struct Window<'a> {
    /// The game: its tags, result and problems, and its main line from ply `base` on.
    game: Cow<'a, ParsedGame>,
    base: usize,
    /// The state before ply `base`; `None` when the game's rules or start are not
    /// known, or a ply before it fails.
    state: Option<GameState>,
    /// The plies of the text past those held.
    tail: Option<TextTail<'a>>,
    /// The main-line plies of the game (as edited) in all.
    plies: usize,
}

impl<'a> Window<'a> {
    /// The window of a search from the error at ply `first_error` (from 1) of a game
    /// whose text has `plies` main-line plies: its plies from the search's first state
    /// (`window` plies before the error, and one more for a deletion) to
    /// [`HELD_PAST`] past those the search reads.
    pub(super) fn at(
        parsed: &'a ParsedGame,
        plies: usize,
        first_error: usize,
        window: usize,
        options: &ReplayOptions,
    ) -> Window<'a> {
        if held_plies(parsed) >= plies {
            return Window {
                game: Cow::Borrowed(parsed),
                base: 0,
                state: state_before(parsed, 0, options),
                tail: None,
                plies,
            };
        }
        let base = first_state(first_error, plies, window);
        let to = (plies_read(first_error) + HELD_PAST).min(plies);
        let state = state_before(parsed, base, options);
        Window::read(parsed, plies, plies, base, base, to, state)
    }

    /// The window whose record holds the plies `from..to` of the text (counted from 0,
    /// of `text_plies`), numbered from `base` in the game as edited (of `plies` plies),
    /// with the `state` before them.
    #[allow(clippy::too_many_arguments)]
    fn read(
        parsed: &'a ParsedGame,
        plies: usize,
        text_plies: usize,
        base: usize,
        from: usize,
        to: usize,
        state: Option<GameState>,
    ) -> Window<'a> {
        // The tags and result are the game's record's: the reading stops past the plies
        // held.
        let mut builder = pmn::CutBuilder::window(parsed.text.len(), from, to);
        pmn::parse::read_game(&parsed.text, parsed.offset, parsed.line, &mut builder);
        let mut record = builder.finish(parsed.record.tags.clone()).0;
        record.result = parsed.record.result;
        let game = ParsedGame {
            record,
            problems: parsed.problems.clone(),
            text: String::new(),
            offset: parsed.offset,
            line: parsed.line,
        };
        Window {
            game: Cow::Owned(game),
            base,
            state,
            tail: (to < text_plies).then_some(TextTail {
                text: &parsed.text,
                offset: parsed.offset,
                line: parsed.line,
                skip: to,
                until: usize::MAX,
            }),
            plies,
        }
    }

    /// The window of the game with `edit` made (its ply indices those of this window's
    /// game), for a search from the error at ply `first_error` of the game so edited: this
    /// window edited when it holds the plies that search reads (read as far as
    /// `read`), else a window of its own, read again from the text past the edit.
    fn edited(
        &self,
        parsed: &'a ParsedGame,
        edit: &Edit,
        first_error: usize,
        read: usize,
        window: usize,
        options: &ReplayOptions,
    ) -> Window<'a> {
        // An insertion or a deletion moves the plies after it by one.
        let shift: isize = match edit {
            Edit::Insert { .. } => 1,
            Edit::Delete { .. } if self.plies > 0 => -1,
            _ => 0,
        };
        let plies = self.plies.saturating_add_signed(shift);
        let record = apply_edit(&self.game.record, &edit.shifted(self.base));
        let far = self.tail.filter(|t| read > t.skip);
        let Some(tail) = far else {
            return Window {
                game: Cow::Owned(ParsedGame {
                    record,
                    problems: self.game.problems.clone(),
                    text: String::new(),
                    offset: self.game.offset,
                    line: self.game.line,
                }),
                base: self.base,
                state: self.state.clone(),
                tail: self.tail,
                plies,
            };
        };
        // The plies of the text held: those the search reads, as if the text were
        // held from its start.
        let text_plies = plies.saturating_add_signed(-shift);
        let to = (read + HELD_PAST).min(text_plies);
        let held_to = to.saturating_add_signed(shift);
        let first = first_state(first_error, held_to, window).max(self.base);
        let from = first.saturating_add_signed(-shift).max(edit_end(edit));
        let base = from.saturating_add_signed(shift);
        // The state before the new window: the edited plies held, then the text's.
        let state = self.state.clone().and_then(|mut state| {
            let inputs = PlyInput::main_line(&record);
            let mut trace = Trace::default();
            replay_from(
                &mut state,
                inputs.iter().take(base.saturating_sub(self.base)),
                Some(TextTail {
                    until: from,
                    ..tail
                }),
                &record,
                true,
                &options.quieted(),
                &mut trace,
            );
            trace.is_valid().then_some(state)
        });
        Window::read(parsed, plies, text_plies, base, from, to, state)
    }
}

/// The first ply past those an edit touches.
fn edit_end(edit: &Edit) -> usize {
    match edit {
        Edit::Swap { at } => at + 2,
        Edit::Result { .. } => 0,
        e => e.at() + 1,
    }
}

/// The first state a search from the error at ply `first_error` (from 1) needs, of a
/// record holding `plies` main-line plies: `window` plies before the error's, and one
/// more, as a deletion replays the ply before it.
fn first_state(first_error: usize, plies: usize, window: usize) -> usize {
    let error_index = first_error.saturating_sub(1).min(plies.saturating_sub(1));
    error_index.saturating_sub(window).saturating_sub(1)
}

/// The state before main-line ply `n` (counted from 0) of a game whose record holds its
/// main line from the start (in part, the rest read from its text). `None` when its rules
/// or start are not known, or a ply before it fails.
pub(super) fn state_before(
    parsed: &ParsedGame,
    n: usize,
    options: &ReplayOptions,
) -> Option<GameState> {
    let record = &parsed.record;
    let lean = options.quieted();
    let rules = replay::rules_for(record, &lean).ok()?;
    let start = replay::start_of(record, &rules).ok()?;
    let mut state = GameState::new(rules, start);
    if n == 0 {
        return Some(state);
    }
    let held = held_plies(parsed);
    let tail = (held < n).then_some(TextTail {
        text: &parsed.text,
        offset: parsed.offset,
        line: parsed.line,
        skip: held,
        until: n,
    });
    let inputs = PlyInput::main_line(record);
    let mut trace = Trace::default();
    replay_from(
        &mut state,
        inputs.iter().take(n),
        tail,
        record,
        true,
        &lean,
        &mut trace,
    );
    trace.is_valid().then_some(state)
}

/// [`search_from`] for a game whose text has `plies` main-line plies, of which its
/// record may hold only the first (see [`crate::pmn::GameText::parse_cut`]): the search
/// reads the game through a [`Window`], so a long game whose candidates fail soon costs
/// no more than its text. The search and its ranking are those of the whole record.
pub(super) fn search_held(
    parsed: &ParsedGame,
    plies: usize,
    first_error: u32,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) -> RepairSearch {
    /// Single edits tried as the first of two: the furthest, likeliest ones.
    const FIRSTS: usize = 6;
    let started = Instant::now();
    let window = Window::at(parsed, plies, first_error as usize, bounds.window, options);
    let mut result = search_single(&window, first_error, options, bounds, started);
    if result.repairs.iter().any(|r| r.complete) || result.stopped_early {
        return result;
    }
    let firsts: Vec<Repair> = result.repairs.iter().take(FIRSTS).cloned().collect();
    for first in firsts {
        if result.replayed >= bounds.plies {
            result.stopped_early = true;
            break;
        }
        // The second search reads the game from the error the first edit leaves.
        let next_error = first.replays + 1;
        let read = plies_read(first.replays + 2);
        let edited = window.edited(
            parsed,
            &first.edit,
            next_error,
            read,
            bounds.window,
            options,
        );
        let rest = RepairOptions {
            plies: bounds.plies - result.replayed,
            ..bounds.clone()
        };
        let next = search_single(&edited, next_error as u32, options, &rest, started);
        result.tried += next.tried;
        result.replayed += next.replayed;
        result.stopped_early |= next.stopped_early;
        // The first edit is worth its second only where both together replay further
        // than the first alone.
        for second in next.repairs.into_iter().filter(|r| r.complete) {
            result.repairs.push(Repair {
                edit: first.edit.clone(),
                second: Some(second.edit),
                replays: second.replays,
                progress: second.progress,
                complete: true,
                cost: first.cost + second.cost,
                warnings: second.warnings,
                plausibility: first.plausibility + second.plausibility,
            });
        }
    }
    rank(&mut result.repairs, parsed);
    result
}

/// The work of an edit's head stop beyond its one ply: its arrival less one (see
/// [`search_single`]).
fn stop_work(edit: &Edit) -> u64 {
    match edit {
        Edit::Replace { with: ply, .. } | Edit::Insert { ply, .. } => match ply {
            PlySyntax::Sowing(s) => s.arrival.map_or(0, |k| u64::from(k).saturating_sub(1)),
            PlySyntax::Redistribution(_) => 0,
        },
        _ => 0,
    }
}

/// One level of the search: single edits of plies up to `bounds.window` before the
/// first error, of the checkpoint that fails, of the result that fails, of the game
/// its `window` reads.
fn search_single(
    window: &Window<'_>,
    first_error: u32,
    options: &ReplayOptions,
    bounds: &RepairOptions,
    started: Instant,
) -> RepairSearch {
    let parsed = window.game.as_ref();
    let record = &parsed.record;
    let (held, plies, text_tail) = (window.base, window.plies, window.tail);
    let lean = options.quieted();
    let mut result = RepairSearch::default();
    let Some(state) = &window.state else {
        return result;
    };
    let rules = state.rules().clone();
    // The plies held, from ply `held` on: `inputs[i]` is ply `held + i`, numbered so.
    let mut inputs = PlyInput::main_line(record);
    for input in &mut inputs {
        input.number += held as u32;
    }
    if first_error == 0 || inputs.is_empty() {
        return result;
    }
    let error_index = (first_error as usize - 1).min(held + inputs.len() - 1);
    // The text's own errors (a Result tag against the result token, a missing result,
    // a duplicate tag) stay whatever ply is edited: with one, no edit makes the record
    // replay completely, and none is said to. A result edit writes the tag and the token alike.
    let text_errors = parsed.problems.iter().any(|p| p.is_error());
    let text_errors_but_result = parsed
        .problems
        .iter()
        .any(|p| p.is_error() && p.code != pmn::Code::ResultMismatch);
    let lowest = error_index.saturating_sub(bounds.window).max(held);
    // One more state before the window: a deletion replays the ply before it.
    let first_state = lowest.saturating_sub(1).max(held);
    let out_of_bounds = |result: &RepairSearch| {
        result.replayed >= bounds.plies || bounds.budget.is_some_and(|b| started.elapsed() > b)
    };

    // The game state before each ply of the window, from one replay of the plies held
    // before it.
    let states = states_before(
        state.clone(),
        &inputs,
        first_state - held,
        error_index - held,
        &lean,
    );
    let base = first_state;

    // How far the record as written replays: to the ply of the first error, or past it
    // when that error is the text's (a Result tag against the token, at the last ply).
    // An edit must do better, or replay completely.
    let replay_rest = |declared| {
        let mut st = states.get(error_index - base)?.clone();
        let mut trace = Trace {
            declared,
            ..Trace::default()
        };
        replay_from(
            &mut st,
            inputs[error_index - held..].iter(),
            text_tail,
            record,
            replay::cut_short(parsed),
            &lean,
            &mut trace,
        );
        Some(trace)
    };
    let declared = replay::declared_result(record);
    let (written_trace, written) = match replay_rest(declared) {
        Some(trace) => {
            result.replayed += trace.played as u64;
            let written = (trace.first_error_ply()).map_or(plies, |p| p as usize - 1);
            (trace, written)
        }
        None => (
            Trace {
                declared,
                ..Trace::default()
            },
            error_index,
        ),
    };
    let first_code = (written_trace.diagnostics.iter())
        .find(|d| d.is_error())
        .map(|d| d.code);

    // The edits of what the error names, beside the edits of plies: the checkpoint that
    // fails corrected to the counts of the replay; the result that fails written as the
    // game's outcome.
    let mut candidates: Vec<(Edit, usize, u32)> = Vec::new();
    if first_code == Some(Code::StonesMismatch) && written == error_index {
        if let Some(st) = states.get(error_index - base) {
            let mut st = st.clone();
            let (mut effect, mut scratch, mut failed) = (Effect::default(), Vec::new(), false);
            let mut bare = inputs[error_index - held].clone();
            bare.commands.clear();
            replay::step(
                &mut st,
                &bare,
                &mut effect,
                &lean,
                &mut scratch,
                &mut failed,
            );
            if !failed {
                let after = st.position();
                let [south, north] = if rules.game() == Game::Kiothi {
                    [after.prisons()[0] as u32, after.prisons()[1] as u32]
                } else {
                    [
                        after.stones_of(crate::Side::South),
                        after.stones_of(crate::Side::North),
                    ]
                };
                candidates.push((
                    Edit::Checkpoint {
                        after: error_index,
                        south,
                        north,
                    },
                    1,
                    0,
                ));
            }
        }
    }
    let result_wrong = first_code == Some(Code::ResultMismatch)
        || (written_trace.complete
            && parsed
                .problems
                .iter()
                .any(|p| p.code == pmn::Code::ResultMismatch));
    if result_wrong && written_trace.complete {
        if let Some(outcome) = written_trace.outcome {
            let true_result = replay::result_of(&outcome);
            if let Some(trace) = replay_rest(Some(true_result)) {
                result.replayed += trace.played as u64 + 1;
                result.tried += 1;
                if trace.complete && trace.is_valid() && !text_errors_but_result {
                    result.repairs.push(Repair {
                        edit: Edit::Result {
                            result: true_result,
                        },
                        replays: plies,
                        progress: plies,
                        complete: true,
                        cost: 1,
                        warnings: trace.warnings(),
                        plausibility: 0,
                        second: None,
                    });
                }
            }
        }
    }

    // Candidate edits of plies, nearest the error first. Each ply listed counts as
    // work, and a listing stops at what is left of the bound: a listing can be long (a
    // Tsoro sowing reaching its heads many times).
    let left = |result: &RepairSearch| bounds.plies.saturating_sub(result.replayed);
    let states_to = (base + states.len())
        .checked_sub(1)
        .filter(|_| !states.is_empty());
    for at in (lowest..=error_index.min(states_to.unwrap_or(0))).rev() {
        if states.is_empty() {
            break;
        }
        if out_of_bounds(&result) {
            result.stopped_early = true;
            break;
        }
        let st = &states[at - base];
        let here = inputs.get(at - held).map(|i| i.syntax);
        let here_text = here.map(|s| s.to_string()).unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        if let Some(w) = here {
            let (legal, cut) = legal_plies(st, Some(w), left(&result));
            result.stopped_early |= cut;
            result.replayed += legal.len() as u64;
            for v in legal.into_iter().chain(near_variants(w, &rules)) {
                let text = v.to_string();
                if text != here_text && seen.insert(text.clone()) {
                    let cost = ply_cost(w, &v);
                    let p = plausibility(w, &v, &rules);
                    candidates.push((Edit::Replace { at, with: v }, cost, p));
                }
            }
        }
        let (legal, cut) = legal_plies(st, None, left(&result));
        result.stopped_early |= cut;
        result.replayed += legal.len() as u64;
        for ply in legal {
            candidates.push((Edit::Insert { at, ply }, 2, 4));
        }
        if at < plies {
            candidates.push((Edit::Delete { at }, 2, 4));
        }
        if at + 1 < plies {
            candidates.push((Edit::Swap { at }, 2, 3));
        }
    }
    // Likely edits first, so that a search cut short has tried them.
    candidates.sort_by_key(|(e, cost, p)| (*p, *cost, error_index - e.at().min(error_index)));

    for (edit, cost, plausibility) in candidates {
        if out_of_bounds(&result) {
            result.stopped_early = true;
            break;
        }
        // A head stop at its k-th arrival sows at least k laps: it counts as k plies of
        // work, and one that the bound has no room for is not tried.
        let sown = stop_work(&edit);
        if result.replayed + sown > bounds.plies {
            result.stopped_early = true;
            continue;
        }
        result.replayed += sown;
        let at = edit.at();
        let mut from = at;
        // The edited plies, then the written ones from `tail` on: those are read from the
        // record's list as the replay comes to them, as most candidates fail within a
        // few plies (a copy of the rest of the game each would cost more than the replay).
        let mut head: Vec<PlyInput<'_>> = Vec::with_capacity(2);
        let corrected;
        let tail;
        match &edit {
            Edit::Replace { at, with } => {
                let mut input = inputs[at - held].clone();
                input.syntax = with;
                head.push(input);
                tail = at + 1;
            }
            Edit::Insert { at, ply } => {
                head.push(PlyInput {
                    number: 0,
                    syntax: ply,
                    span: inputs.get(at - held).map_or(&NO_SPAN, |i| i.span),
                    commands: Vec::new(),
                });
                tail = *at;
            }
            Edit::Delete { at } => {
                // The comments after a deleted ply stay where they are written: after the
                // ply before it (a checkpoint is evidence, not part of the ply). So the
                // replay starts at that ply, which now carries both sets of commands.
                if *at > base {
                    let mut prev = inputs[at - 1 - held].clone();
                    prev.commands
                        .extend(inputs[at - held].commands.iter().copied());
                    head.push(prev);
                    from = at - 1;
                }
                tail = at + 1;
            }
            Edit::Swap { at } => {
                // The plies change places; the comments (and their checkpoints) stay:
                // a checkpoint tells the position after the ply written before it.
                let (mut first, mut second) =
                    (inputs[at - held].clone(), inputs[at + 1 - held].clone());
                std::mem::swap(&mut first.syntax, &mut second.syntax);
                std::mem::swap(&mut first.span, &mut second.span);
                head.push(first);
                head.push(second);
                tail = at + 2;
            }
            Edit::Checkpoint {
                after,
                south,
                north,
            } => {
                let mut input = inputs[after - held].clone();
                let i = (input.commands.iter())
                    .position(|c| c.name == "stones")
                    .unwrap_or_default();
                corrected = pmn::Command {
                    args: pmn::Args::split(&format!("{south} {north}")),
                    ..input.commands[i].clone()
                };
                input.commands[i] = &corrected;
                head.push(input);
                tail = after + 1;
            }
            Edit::Result { .. } => continue,
        }
        for (k, input) in head.iter_mut().enumerate() {
            input.number = (from + k + 1) as u32;
        }
        let (head_len, edited_len) = (head.len(), head.len() + plies - tail);
        let rest = (inputs[tail - held..].iter().enumerate()).map(|(k, input)| PlyInput {
            number: (from + head_len + k + 1) as u32,
            ..input.clone()
        });
        let mut st = states[from - base].clone();
        // The result is checked as in a validation: a repair that leaves a wrong result
        // does not replay completely.
        let mut trace = Trace {
            declared: replay::declared_result(record),
            ..Trace::default()
        };
        replay_from(
            &mut st,
            head.into_iter().chain(rest),
            text_tail,
            record,
            replay::cut_short(parsed),
            &lean,
            &mut trace,
        );
        result.tried += 1;
        // One more for the candidate: the ply that failed, or the setting up of one that
        // replayed to the end.
        result.replayed += trace.played as u64 + 1;
        let replays = trace
            .first_error_ply()
            .map(|p| p as usize - 1)
            .unwrap_or(from + edited_len);
        let complete = trace.complete && trace.is_valid() && !text_errors;
        // Plies of the record as written that replay: an inserted ply is not one of them.
        let progress = match edit {
            Edit::Insert { at, .. } if at < replays => replays - 1,
            _ => replays,
        };
        if progress <= written.max(error_index) && !complete {
            continue; // no further than the record as written
        }
        result.repairs.push(Repair {
            edit,
            replays,
            progress,
            complete,
            cost,
            warnings: trace.warnings(),
            plausibility,
            second: None,
        });
    }
    rank(&mut result.repairs, parsed);
    result
}

/// The game states before the plies `from..=to` of `inputs` (counted from 0; `to` may be
/// `inputs.len()`, the state after them all), from one replay of the plies before;
/// fewer when a ply before `to` fails.
fn states_before(
    mut state: GameState,
    inputs: &[PlyInput<'_>],
    from: usize,
    to: usize,
    options: &ReplayOptions,
) -> Vec<GameState> {
    let mut states = Vec::new();
    let (mut effect, mut scratch, mut failed) = (Effect::default(), Vec::new(), false);
    for i in 0..=to {
        if i >= from {
            states.push(state.clone());
        }
        let Some(input) = inputs.get(i).filter(|_| i < to) else {
            break;
        };
        replay::step(
            &mut state,
            input,
            &mut effect,
            options,
            &mut scratch,
            &mut failed,
        );
        if failed {
            break;
        }
    }
    states
}

/// What a transcriber likely meant by an unreadable token: spaces gone, punctuation
/// after it gone, glyphs that look like digits read as those digits after the row
/// letter (l and I as 1, O as 0, S as 5, B as 8, Z as 2), the row letter in lower case.
fn likely_meant(token: &str) -> String {
    let mut out = String::new();
    for (i, c) in token.chars().filter(|c| !c.is_whitespace()).enumerate() {
        out.push(match (i, c) {
            (0, c) => c.to_ascii_lowercase(),
            (_, 'l' | 'I' | 'i' | '|') => '1',
            (_, 'O' | 'o') => '0',
            (_, 'S' | 's') => '5',
            (_, 'B') => '8',
            (_, 'Z') => '2',
            (_, c) => c,
        });
    }
    out.trim_end_matches(['.', ',', '!', '?', ';', '\'', '"'])
        .to_string()
}

/// Repairs of a ply the reader could not read (a `syntax` error at a ply, such as `z9`
/// for `a9`, `a 5` for `a5`, `a6.` for `a6`, `al` for `a1`): the legal plies at that
/// point, nearest what the token likely meant first, each put in the token's place in
/// the game's text, which is read and replayed again. Those that replay past it are
/// kept, furthest first, then nearest. `None` when the error is not such a ply or the
/// plies before it do not replay.
pub(super) fn unreadable_ply_repairs(
    game: &ParsedGame,
    plies: usize,
    error: &crate::diagnostic::Diagnostic,
    options: &ReplayOptions,
    keep: usize,
    most: u64,
) -> Option<Vec<Fix>> {
    /// Candidates tried, nearest first: a token is one slip away from few plies.
    const TRIED: usize = 40;
    if error.code != crate::pmn::Code::Syntax.as_str() {
        return None;
    }
    let number = error.ply? as usize;
    let text = game.text.as_str();
    let at = error.span.start.checked_sub(game.offset)?;
    let bytes = text.as_bytes();
    if at >= bytes.len() {
        return None;
    }
    let ends = |b: &u8| b.is_ascii_whitespace() || b"{}();$".contains(b);
    let start = bytes[..at].iter().rposition(ends).map_or(0, |i| i + 1);
    let mut end = bytes[at..]
        .iter()
        .position(ends)
        .map_or(bytes.len(), |i| at + i);
    // A row letter alone, then a column after a stray space (`a 5`): one token.
    // (A move number after it, `12.`, is none.)
    if end == start + 1 && bytes[start].is_ascii_alphabetic() {
        let next = end + bytes[end..].iter().take_while(|b| **b == b' ').count();
        let next_end = next + (bytes[next..].iter().position(ends)).unwrap_or(bytes.len() - next);
        let column = &bytes[next..next_end];
        if next > end && column.first().is_some_and(u8::is_ascii_digit) && !column.contains(&b'.') {
            end = next_end;
        }
    }
    // A move number (`12.`) is no ply.
    let token = text
        .get(start..end)
        .filter(|t| !t.is_empty() && !t.starts_with(|c: char| c.is_ascii_digit()))?;
    let meant = likely_meant(token);
    // The state before the unreadable ply: the `plies` read before it replay.
    let lean = options.quieted();
    if plies + 1 != number {
        return None;
    }
    let state = state_before(game, plies, options)?;
    let mut candidates: Vec<(usize, usize, String)> = legal_plies(&state, None, most)
        .0
        .iter()
        .map(|p| {
            let p = p.to_string();
            (distance(&meant, &p), distance(token, &p), p)
        })
        .collect();
    candidates.sort();
    candidates.dedup_by(|a, b| a.2 == b.2);
    let mut found: Vec<(bool, usize, usize, usize, usize, String)> = Vec::new();
    let mut replayer = replay::Replayer::new();
    for (near, cost, ply) in candidates.into_iter().take(TRIED) {
        let mended = format!("{}{ply}{}", &text[..start], &text[end..]);
        let Some(again) = pmn::Reader::new(mended.as_bytes()).next_text() else {
            continue;
        };
        // Replayed from its text: a long game's mended text builds no syntax tree.
        let trace = match replayer.replay_text(&again, &lean, &|_| true) {
            Some((_, trace)) => trace,
            None => replay::replay(&again.parse(), &lean),
        };
        let complete = trace.complete && trace.is_valid();
        let replays = (trace.first_error_ply()).map_or(trace.plies_written, |p| p as usize - 1);
        if complete || replays >= number {
            found.push((
                !complete,
                usize::MAX - replays,
                near,
                trace.warnings(),
                cost,
                ply,
            ));
        }
    }
    found.sort();
    // Plies that differ only in an empty `x` are one suggestion.
    let mut seen = std::collections::HashSet::new();
    found.retain(|f| seen.insert(f.5.trim_end_matches('x').to_string()));
    let mut last_key = None;
    let mut rank = 0;
    Some(
        found
            .into_iter()
            .take(keep)
            .enumerate()
            .map(|(i, (incomplete, far, near, warnings, cost, ply))| {
                let key = (incomplete, far, near, warnings, cost);
                if last_key != Some(key) {
                    rank = i + 1;
                    last_key = Some(key);
                }
                let replays = usize::MAX - far;
                Fix {
                    suggestion: Suggestion {
                        edit: format!(
                            "replace unreadable ply {number} `{}` by `{ply}`",
                            crate::escape::quoted(token)
                        ),
                        text: format!("{number}:{ply}"),
                        replays,
                        complete: !incomplete,
                        change: SuggestedEdit {
                            action: "replace",
                            ply: number as u32,
                            old: token.to_string(),
                            new: ply.clone(),
                        },
                        replays_to: replays,
                        rank,
                        then: None,
                    },
                    how: How::Text(vec![Mend {
                        start,
                        end,
                        old: token.to_string(),
                        new: ply,
                    }]),
                }
            })
            .collect(),
    )
}
