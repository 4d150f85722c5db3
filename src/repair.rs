//! Repairs and rules inference for damaged transcriptions (`sow validate --suggest`,
//! `--infer-rules`).
//!
//! A repair is one edit of the main line: replace a ply (by a legal ply, or by a ply a
//! few characters away from the written one), insert a missing ply, delete a ply, swap
//! two adjacent plies. Candidates are replayed with the same [`replay::step`] the
//! validator uses, from the position before the edit, and ranked by how far the edited
//! record then replays (complete records, checkpoints and result included, first), then
//! by how small the edit is. The search is bounded in time and says when it stopped
//! early.
//!
//! [`replay::step`]: crate::replay

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::diagnostic::Suggestion;
use crate::games;
use crate::geometry::Pit;
use crate::moves::{BonusChoice, BonusTake, Effect, Mode, Move, Sowing};
use crate::notation::{pit_ref, ply_of};
use crate::play::GameState;
use crate::pmn::{self, BonusPits, Element, ParsedGame, PitRef, PlySyntax, Record};
use crate::replay::{self, replay_from, PlyInput, ReplayOptions, Trace};
use crate::rules::{parse_options, split_options, Game, Options, Rules};

/// One edit of a record's main line (ply indices are 0-based here; messages say 1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Replace ply `at` by `with`.
    Replace { at: usize, with: PlySyntax },
    /// Insert `ply` before ply `at` (at == len: append).
    Insert { at: usize, ply: PlySyntax },
    /// Delete ply `at`.
    Delete { at: usize },
    /// Swap plies `at` and `at + 1`.
    Swap { at: usize },
}

impl Edit {
    /// The first ply index the edit changes.
    pub fn at(&self) -> usize {
        match self {
            Edit::Replace { at, .. }
            | Edit::Insert { at, .. }
            | Edit::Delete { at }
            | Edit::Swap { at } => *at,
        }
    }

    /// In words, with 1-based ply numbers.
    pub fn describe(&self, written: &[&PlySyntax]) -> String {
        let text = |i: usize| written.get(i).map(|s| s.to_string()).unwrap_or_default();
        match self {
            Edit::Replace { at, with } => {
                format!("replace ply {} `{}` by `{with}`", at + 1, text(*at))
            }
            Edit::Insert { at, ply } => format!("insert `{ply}` as ply {}", at + 1),
            Edit::Delete { at } => format!("delete ply {} `{}`", at + 1, text(*at)),
            Edit::Swap { at } => format!(
                "swap plies {} `{}` and {} `{}`",
                at + 1,
                text(*at),
                at + 2,
                text(*at + 1)
            ),
        }
    }
}

/// Bounds of the search.
#[derive(Clone, Debug)]
pub struct RepairOptions {
    /// How many plies before the first error an edit may touch. A slip (a dropped
    /// Tsoro head stop, say) often shows as an error several plies later: a review
    /// found 66 of 161 dropped `-END`s missed with 6, and 33 with 12, the time of the
    /// search hardly changed.
    pub window: usize,
    /// Stop searching once the candidates have replayed this many plies (each candidate
    /// counting one more, for its own setting up): a bound on the work, the same on
    /// every machine, so that the suggestions are too.
    pub plies: u64,
    /// Stop searching after this long, if set: a bound on the time, whose suggestions
    /// then depend on the machine's speed.
    pub budget: Option<Duration>,
    /// Suggestions kept.
    pub keep: usize,
}

impl RepairOptions {
    /// The default of [`RepairOptions::plies`]: about 0.7 s of searching at most on the
    /// development machine, where a search replays a ply (or sets up a candidate) in
    /// 0.56-0.69 µs (BENCHMARKS.md, seventh session). The largest search of 420 games
    /// with planted problems, and that of the repair benchmark (its worst case), needed
    /// 55,128 and 60,316.
    pub const PLIES: u64 = 1_000_000;
}

impl Default for RepairOptions {
    fn default() -> RepairOptions {
        RepairOptions {
            window: 12,
            plies: RepairOptions::PLIES,
            budget: None,
            keep: 3,
        }
    }
}

/// A ranked repair.
#[derive(Clone, Debug)]
pub struct Repair {
    pub edit: Edit,
    /// Plies the edited record replays without an error.
    pub replays: usize,
    /// Of them, plies of the record as written (an inserted ply is not one).
    pub progress: usize,
    /// The edited record replays completely, checkpoints and result included.
    pub complete: bool,
    /// The size of the edit (characters changed; 2 for an insertion, deletion or swap).
    pub cost: usize,
    /// Warnings the edited record still gets.
    pub warnings: usize,
}

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

/// Levenshtein distance between two short strings.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + (ca != cb) as usize)
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// Every legal ply at a position, each completed with one bonus choice (the written
/// bonus when it fits, else the fullest pits), as ply syntax.
fn legal_plies(state: &GameState, written: Option<&PlySyntax>) -> Vec<PlySyntax> {
    let pos = state.position();
    let mut out = Vec::new();
    let mut effect = Effect::default();
    for c in state
        .legal_moves()
        .iter()
        .flat_map(crate::moves::Candidate::each)
    {
        let mut mv = c.mv.clone();
        if let Move::Sow(s) = &mut mv {
            match &c.bonus {
                BonusChoice::Pits { count, eligible } => {
                    // The pits as written that are eligible, completed with each other
                    // eligible pit when one is missing (the likeliest slip), else with
                    // the fullest pits.
                    let kept: Vec<Pit> = written_bonus(written)
                        .into_iter()
                        .filter(|p| eligible.contains(p))
                        .fold(Vec::new(), |mut v, p| {
                            if !v.contains(&p) && v.len() < *count {
                                v.push(p);
                            }
                            v
                        });
                    let mut rest: Vec<Pit> = eligible
                        .iter()
                        .copied()
                        .filter(|p| !kept.contains(p))
                        .collect();
                    rest.sort_by(|a, b| pos.get(*b).cmp(&pos.get(*a)).then(a.cmp(b)));
                    let need = count - kept.len();
                    let take = |pits: Vec<Pit>| -> Vec<BonusTake> {
                        pits.into_iter()
                            .map(|pit| BonusTake { pit, stones: None })
                            .collect()
                    };
                    // Other completions: with one pit missing from those written, each
                    // other eligible pit; with none written (a ply skipped, or its `x`
                    // and bonus dropped), the other choices of pits, fullest first, as
                    // many as [`OTHER_BONUS_CHOICES`].
                    let others: Vec<Vec<Pit>> = if need == 1 && !kept.is_empty() {
                        rest.iter().map(|&extra| vec![extra]).collect()
                    } else if kept.is_empty() && need > 0 {
                        choices(&rest, need, OTHER_BONUS_CHOICES + 1).split_off(1)
                    } else {
                        Vec::new()
                    };
                    for extra in others {
                        let mut pits = kept.clone();
                        pits.extend(extra);
                        try_bonus(state, s, take(pits), &mut effect, &mut out);
                    }
                    let mut pits = kept;
                    pits.extend(rest.into_iter().take(need));
                    s.bonus = take(pits);
                }
                BonusChoice::Stones { stones, eligible } => {
                    s.bonus = crate::moves::fullest_first(*stones, eligible);
                    // With no bonus written, the other ways of taking the stones too,
                    // from the fullest pits first.
                    if written_bonus(written).is_empty() {
                        let mut pits = eligible.clone();
                        pits.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                        for taken in stone_choices(&pits, *stones, OTHER_BONUS_CHOICES + 1) {
                            if taken != s.bonus {
                                try_bonus(state, s, taken, &mut effect, &mut out);
                            }
                        }
                    }
                }
                BonusChoice::Redistribution { .. } => continue,
                BonusChoice::None => {}
            }
            // Prefer the bonus as written when it makes the ply legal.
            if let Some(PlySyntax::Sowing(w)) = written {
                if let Some(list) = &w.capture {
                    if !list.is_empty() && c.bonus != BonusChoice::None {
                        let as_written = list
                            .iter()
                            .map(|pc| BonusTake {
                                pit: Pit::new(pc.pit.row, pc.pit.col),
                                stones: pc.count,
                            })
                            .collect();
                        if try_bonus(state, s, as_written, &mut effect, &mut out) {
                            continue;
                        }
                    }
                }
            }
        }
        let mut p = pos.clone();
        if games::apply(state.rules(), &mut p, &mv, Mode::Legal, &mut effect).is_ok() {
            out.push(ply_of(&mv, &effect));
        }
    }
    out
}

/// How many choices of bonus pits besides the fullest are tried for a capture whose
/// bonus is not written: the true one is otherwise rarely found for a skipped capture.
const OTHER_BONUS_CHOICES: usize = 256;

/// The first `cap` choices of `k` of `pits`, in the order of `pits` (lexicographic).
fn choices(pits: &[Pit], k: usize, cap: usize) -> Vec<Vec<Pit>> {
    let mut out = Vec::new();
    if k == 0 || k > pits.len() {
        return out;
    }
    let mut at: Vec<usize> = (0..k).collect();
    while out.len() < cap {
        out.push(at.iter().map(|&i| pits[i]).collect());
        // The next choice: the last index that can move moves, those after it follow.
        let Some(i) = (0..k).rev().find(|&i| at[i] < pits.len() - k + i) else {
            break;
        };
        at[i] += 1;
        for j in i + 1..k {
            at[j] = at[j - 1] + 1;
        }
    }
    out
}

/// The first `cap` ways of taking `stones` stones from the pits (each at most what it
/// holds), taking as much as possible from the earlier pits first; a pit taken whole is
/// named without a count, as the written form does.
fn stone_choices(pits: &[(Pit, u16)], stones: u32, cap: usize) -> Vec<Vec<BonusTake>> {
    /// `room[i]`: the stones the pits from `i` on hold, so that a branch that can no
    /// longer take `left` is not walked (without it, a bonus of nearly all the stones
    /// left walks every way of taking fewer).
    fn go(
        pits: &[(Pit, u16)],
        room: &[u32],
        left: u32,
        taken: &mut Vec<BonusTake>,
        out: &mut Vec<Vec<BonusTake>>,
        cap: usize,
    ) {
        if out.len() >= cap || left > room[0] {
            return;
        }
        if left == 0 {
            out.push(taken.clone());
            return;
        }
        let Some((&(pit, holds), rest)) = pits.split_first() else {
            return;
        };
        let most = (holds as u32).min(left);
        for take in (0..=most).rev() {
            if left - take > room[1] {
                break; // taking less leaves more than the rest can give
            }
            if take > 0 {
                taken.push(BonusTake {
                    pit,
                    stones: (take != holds as u32).then_some(take as u16),
                });
            }
            go(rest, &room[1..], left - take, taken, out, cap);
            if take > 0 {
                taken.pop();
            }
        }
    }
    let mut room = vec![0u32; pits.len() + 1];
    for i in (0..pits.len()).rev() {
        room[i] = room[i + 1] + pits[i].1 as u32;
    }
    let mut out = Vec::new();
    go(pits, &room, stones, &mut Vec::new(), &mut out, cap);
    out
}

/// The sowing with another bonus, added to `out` (as written) when it is legal in the
/// state; returns whether it was.
fn try_bonus(
    state: &GameState,
    sowing: &Sowing,
    bonus: Vec<BonusTake>,
    effect: &mut Effect,
    out: &mut Vec<PlySyntax>,
) -> bool {
    let alt = Move::Sow(Sowing {
        bonus,
        ..sowing.clone()
    });
    let mut pos = state.position().clone();
    let legal = games::apply(state.rules(), &mut pos, &alt, Mode::Legal, effect).is_ok();
    if legal {
        out.push(ply_of(&alt, effect));
    }
    legal
}

/// The bonus pits of a written ply.
fn written_bonus(written: Option<&PlySyntax>) -> Vec<Pit> {
    match written {
        Some(PlySyntax::Sowing(w)) => w
            .capture
            .iter()
            .flatten()
            .map(|pc| Pit::new(pc.pit.row, pc.pit.col))
            .collect(),
        _ => Vec::new(),
    }
}

/// The size of replacing one ply by another: for the same sowing with another `x` or
/// bonus list, one per pit added or removed (and one for the `x`); otherwise the number
/// of characters changed.
fn ply_cost(written: &PlySyntax, other: &PlySyntax) -> usize {
    if let (PlySyntax::Sowing(a), PlySyntax::Sowing(b)) = (written, other) {
        if (a.from, a.lift, a.end, a.arrival) == (b.from, b.lift, b.end, b.arrival) {
            let la = a.capture.as_deref().unwrap_or_default();
            let lb = b.capture.as_deref().unwrap_or_default();
            let removed = la.iter().filter(|p| !lb.contains(p)).count();
            let added = lb.iter().filter(|p| !la.contains(p)).count();
            return (a.capture.is_some() != b.capture.is_some()) as usize + removed + added;
        }
    }
    distance(&written.to_string(), &other.to_string())
}

/// Variants of a written sowing ply that differ in one part: the `x` mark toggled, the
/// `-END` removed or moved, the lift changed.
fn near_variants(written: &PlySyntax, rules: &Rules) -> Vec<PlySyntax> {
    let s = match written {
        PlySyntax::Sowing(s) => s,
        PlySyntax::Redistribution(r) => return redistribution_variants(r, rules),
    };
    let mut out = Vec::new();
    let mut push = |v: pmn::Sowing| out.push(PlySyntax::Sowing(v));
    // `x` toggled.
    let mut v = s.clone();
    v.capture = if s.capture.is_some() {
        None
    } else {
        Some(BonusPits::new())
    };
    push(v);
    // `-END` removed, or any other pit.
    if s.end.is_some() {
        let mut v = s.clone();
        v.end = None;
        v.arrival = None;
        push(v);
        for pit in rules.board().pits() {
            let mut v = s.clone();
            v.end = Some(pit_ref(pit));
            push(v);
        }
    }
    // Another lift.
    if let Some(n) = s.lift {
        for m in [n.saturating_sub(1), n + 1] {
            if m > 0 && m != n {
                let mut v = s.clone();
                v.lift = Some(m);
                push(v);
            }
        }
        let mut v = s.clone();
        v.lift = None;
        push(v);
    }
    // The start pit moved anywhere else on the board (a misread letter or digit).
    for pit in rules.board().pits() {
        if pit_ref(pit) != s.from {
            let mut v = s.clone();
            v.from = pit_ref(pit);
            push(v);
        }
    }
    out
}

/// Variants of Kiothi's opening redistribution `P,P>Q:n,...` that differ in one part,
/// the likeliest slips: one pit read as another, one count misread (1 to 20).
fn redistribution_variants(r: &pmn::Redistribution, rules: &Rules) -> Vec<PlySyntax> {
    let mut out = Vec::new();
    let pits: Vec<PitRef> = rules.board().pits().map(pit_ref).collect();
    for i in 0..r.emptied.len() {
        for &pit in &pits {
            if pit != r.emptied[i] {
                let mut v = r.clone();
                v.emptied[i] = pit;
                out.push(PlySyntax::Redistribution(v));
            }
        }
    }
    for i in 0..r.filled.len() {
        for &pit in &pits {
            if pit != r.filled[i].pit {
                let mut v = r.clone();
                v.filled[i].pit = pit;
                out.push(PlySyntax::Redistribution(v));
            }
        }
        for stones in 1..=20 {
            if stones != r.filled[i].stones {
                let mut v = r.clone();
                v.filled[i].stones = stones;
                out.push(PlySyntax::Redistribution(v));
            }
        }
    }
    out
}

/// Searches single-edit repairs of a game whose replay has an error.
pub fn search(
    parsed: &ParsedGame,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) -> RepairSearch {
    let baseline = replay::replay(parsed, &ReplayOptions::quiet(&options.overrides));
    match baseline.first_error_ply() {
        Some(first_error) => search_from(parsed, first_error, options, bounds),
        None => RepairSearch::default(),
    }
}

/// [`search`] for a game whose first error is already known (from its trace), so that
/// the game is not replayed once more to find it.
pub fn search_from(
    parsed: &ParsedGame,
    first_error: u32,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) -> RepairSearch {
    let started = Instant::now();
    let record = &parsed.record;
    let lean = ReplayOptions::quiet(&options.overrides);
    let mut result = RepairSearch::default();
    let Ok(rules) = replay::rules_of(record, &lean.overrides) else {
        return result;
    };
    let Ok(start) = replay::start_of(record, &rules) else {
        return result;
    };
    let inputs = PlyInput::main_line(record);
    if first_error == 0 || inputs.is_empty() {
        return result;
    }
    let error_index = (first_error as usize - 1).min(inputs.len().saturating_sub(1));
    // The text's own errors (a Result tag against the result token, a missing result,
    // a duplicate tag) stay whatever ply is edited: with one, no edit makes the record
    // replay completely (found by helper-28's bug hunt: such edits were said to).
    let text_errors = parsed.problems.iter().any(|p| p.is_error());
    let lowest = error_index.saturating_sub(bounds.window);
    // One more state before the window: a deletion replays the ply before it.
    let first_state = lowest.saturating_sub(1);

    // The game state before each ply of the window, from one replay of the prefix.
    let start_state = GameState::new(rules.clone(), start);
    let states = states_before(start_state, &inputs, first_state, error_index, &lean);
    let base = first_state;

    // Candidate edits, nearest the error first.
    let mut candidates: Vec<(Edit, usize)> = Vec::new();
    for at in (lowest..=error_index.min(states.len() + base - 1)).rev() {
        let st = &states[at - base];
        let here = inputs.get(at).map(|i| i.syntax);
        let here_text = here.map(|s| s.to_string()).unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        if let Some(w) = here {
            for v in legal_plies(st, Some(w))
                .into_iter()
                .chain(near_variants(w, &rules))
            {
                let text = v.to_string();
                if text != here_text && seen.insert(text.clone()) {
                    let cost = ply_cost(w, &v);
                    candidates.push((Edit::Replace { at, with: v }, cost));
                }
            }
        }
        for ply in legal_plies(st, None) {
            candidates.push((Edit::Insert { at, ply }, 2));
        }
        if at < inputs.len() {
            candidates.push((Edit::Delete { at }, 2));
        }
        if at + 1 < inputs.len() {
            candidates.push((Edit::Swap { at }, 2));
        }
    }
    // Cheap edits first, so that a search cut short has tried the likeliest ones.
    candidates.sort_by_key(|(e, cost)| (*cost, error_index - e.at().min(error_index)));

    // How far the record as written replays: to the ply of the first error, or past it
    // when that error is the text's (a Result tag against the token, at the last ply).
    // An edit must do better, or replay completely.
    let written = match states.get(error_index - base) {
        Some(st) => {
            let mut st = st.clone();
            let mut trace = Trace::default();
            replay_from(
                &mut st,
                inputs[error_index..].iter(),
                record,
                false,
                &lean,
                &mut trace,
            );
            result.replayed += trace.played as u64;
            trace
                .first_error_ply()
                .map_or(inputs.len(), |p| p as usize - 1)
        }
        None => error_index,
    };

    for (edit, cost) in candidates {
        let out_of_time = bounds.budget.is_some_and(|b| started.elapsed() > b);
        if result.replayed >= bounds.plies || out_of_time {
            result.stopped_early = true;
            break;
        }
        let at = edit.at();
        let mut from = at;
        // The edited plies, then the written ones from `tail` on: those are read from the
        // record's list as the replay comes to them, as most candidates fail within a
        // few plies (a copy of the rest of the game each cost more than the replay).
        let mut head: Vec<PlyInput<'_>> = Vec::with_capacity(2);
        let tail;
        match &edit {
            Edit::Replace { at, with } => {
                let mut input = inputs[*at].clone();
                input.syntax = with;
                head.push(input);
                tail = at + 1;
            }
            Edit::Insert { at, ply } => {
                head.push(PlyInput {
                    number: 0,
                    syntax: ply,
                    span: inputs.get(*at).map(|i| i.span).unwrap_or_default(),
                    commands: Vec::new(),
                });
                tail = *at;
            }
            Edit::Delete { at } => {
                // The comments after a deleted ply stay where they are written: after the
                // ply before it (a checkpoint is evidence, not part of the ply). So the
                // replay starts at that ply, which now carries both sets of commands.
                if *at > base {
                    let mut prev = inputs[at - 1].clone();
                    prev.commands.extend(inputs[*at].commands.iter().copied());
                    head.push(prev);
                    from = at - 1;
                }
                tail = at + 1;
            }
            Edit::Swap { at } => {
                // The plies change places; the comments (and their checkpoints) stay:
                // a checkpoint tells the position after the ply written before it.
                let (mut first, mut second) = (inputs[*at].clone(), inputs[at + 1].clone());
                std::mem::swap(&mut first.syntax, &mut second.syntax);
                std::mem::swap(&mut first.span, &mut second.span);
                head.push(first);
                head.push(second);
                tail = at + 2;
            }
        }
        for (k, input) in head.iter_mut().enumerate() {
            input.number = (from + k + 1) as u32;
        }
        let (head_len, edited_len) = (head.len(), head.len() + inputs.len() - tail);
        let rest = (inputs[tail..].iter().enumerate()).map(|(k, input)| PlyInput {
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
        });
    }
    // Furthest first, then (as far) the one with fewer warnings, then the smallest.
    result.repairs.sort_by(|a, b| {
        b.complete
            .cmp(&a.complete)
            .then(b.progress.cmp(&a.progress))
            .then(a.warnings.cmp(&b.warnings))
            .then(a.cost.cmp(&b.cost))
    });
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

/// Repairs of a ply the reader could not read (a `syntax` error at a ply, such as `z9`
/// for `a9`): the legal plies at that point, nearest the written token first, each put
/// in the token's place in the game's text, which is read and replayed again. Those
/// that replay past it are kept, furthest first. `None` when the error is not such a
/// ply or the plies before it do not replay.
fn unreadable_ply_repairs(
    game: &ParsedGame,
    error: &crate::diagnostic::Diagnostic,
    options: &ReplayOptions,
    keep: usize,
) -> Option<Vec<Suggestion>> {
    /// Candidates tried, nearest first: a token is one slip away from few plies.
    const TRIED: usize = 40;
    if error.code != crate::pmn::ProblemCode::Syntax.as_str() {
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
    let end = bytes[at..]
        .iter()
        .position(ends)
        .map_or(bytes.len(), |i| at + i);
    let token = text
        .get(start..end)
        .filter(|t| !t.is_empty() && !t.contains('.'))?;
    // The state before the unreadable ply: the plies read before it replay.
    let lean = ReplayOptions::quiet(&options.overrides);
    let rules = replay::rules_of(&game.record, &lean.overrides).ok()?;
    let start_position = replay::start_of(&game.record, &rules).ok()?;
    let inputs = PlyInput::main_line(&game.record);
    if inputs.len() + 1 != number {
        return None;
    }
    let start_state = GameState::new(rules, start_position);
    let state = states_before(start_state, &inputs, inputs.len(), inputs.len(), &lean).pop()?;
    let mut candidates: Vec<(usize, String)> = legal_plies(&state, None)
        .iter()
        .map(|p| {
            let p = p.to_string();
            (distance(token, &p), p)
        })
        .collect();
    candidates.sort();
    candidates.dedup_by(|a, b| a.1 == b.1);
    let mut found: Vec<(bool, usize, usize, usize, String)> = Vec::new();
    for (cost, ply) in candidates.into_iter().take(TRIED) {
        let mended = format!("{}{ply}{}", &text[..start], &text[end..]);
        let Some(again) = pmn::parse_str(&mended).into_iter().next() else {
            continue;
        };
        let trace = replay::replay(&again, &lean);
        let complete = trace.complete && trace.is_valid();
        let replays = (trace.first_error_ply()).map_or(trace.plies_written, |p| p as usize - 1);
        if complete || replays >= number {
            found.push((!complete, usize::MAX - replays, trace.warnings(), cost, ply));
        }
    }
    found.sort();
    Some(
        found
            .into_iter()
            .take(keep)
            .map(|(incomplete, far, _, _, ply)| Suggestion {
                edit: format!("replace unreadable ply {number} `{token}` by `{ply}`"),
                text: format!("{number}:{ply}"),
                replays: usize::MAX - far,
                complete: !incomplete,
            })
            .collect(),
    )
}

/// The record with an edit applied to its main line, as the search replayed it: the
/// comments after a ply stay in place whether plies are swapped, inserted or deleted.
pub fn apply_edit(record: &Record, edit: &Edit) -> Record {
    let mut out = record.clone();
    // Where the main-line plies are among the elements.
    let ply_at: Vec<usize> = out
        .moves
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Element::Ply(_)))
        .map(|(i, _)| i)
        .collect();
    match edit {
        Edit::Replace { at, with } => {
            if let Some(Element::Ply(p)) = ply_at.get(*at).and_then(|&i| out.moves.get_mut(i)) {
                p.syntax = with.clone();
            }
        }
        Edit::Insert { at, ply } => {
            let index = ply_at.get(*at).copied().unwrap_or(out.moves.len());
            out.moves.insert(
                index,
                Element::Ply(pmn::Ply {
                    syntax: ply.clone(),
                    suffix: None,
                    span: Default::default(),
                }),
            );
        }
        Edit::Delete { at } => {
            // The ply goes with its NAGs; the comments after it stay, as in the search
            // (a checkpoint is evidence of the position, not part of the ply).
            if let Some(&i) = ply_at.get(*at) {
                let nags = (out.moves[i + 1..].iter())
                    .take_while(|e| matches!(e, Element::Nag(_)))
                    .count();
                out.moves.drain(i..=i + nags);
            }
        }
        Edit::Swap { at } => {
            // The plies alone change places; the comments after each stay where they are.
            if at + 1 < ply_at.len() {
                out.moves.swap(ply_at[*at], ply_at[at + 1]);
            }
        }
    }
    out
}

/// Adds the best repairs as suggestions to the first error of a trace.
pub fn attach_suggestions(
    game: &ParsedGame,
    trace: &mut Trace,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) {
    let Some(first_error) = trace.first_error_ply() else {
        return;
    };
    // The suggestions go with the earliest error.
    let Some(at) = trace.first_error_index() else {
        return;
    };
    // A ply the reader could not read: the record stops before it, so edits of the
    // record cannot reach past it; the text is mended instead.
    let d = &mut trace.diagnostics[at];
    if let Some(found) = unreadable_ply_repairs(game, d, options, bounds.keep) {
        d.suggestions = found;
        return;
    }
    let found = search_from(game, first_error, options, bounds);
    let written: Vec<&PlySyntax> = game.record.main_line().map(|e| &e.ply.syntax).collect();
    let d = &mut trace.diagnostics[at];
    for r in found.repairs.iter().take(bounds.keep) {
        let edited = apply_edit(&game.record, &r.edit);
        let plies: Vec<String> = edited
            .main_line()
            .map(|e| e.ply.syntax.to_string())
            .collect();
        let from = r.edit.at().saturating_sub(1);
        let to = (r.edit.at() + 3).min(plies.len());
        let context: Vec<String> = (from..to)
            .map(|i| format!("{}:{}", i + 1, plies[i]))
            .collect();
        d.suggestions.push(Suggestion {
            edit: r.edit.describe(&written),
            text: context.join(" "),
            replays: r.replays,
            complete: r.complete,
        });
    }
    if found.stopped_early {
        let after = if found.replayed >= bounds.plies {
            format!("{} plies replayed", found.replayed)
        } else {
            format!("{} ms", bounds.budget.unwrap_or_default().as_millis())
        };
        // Said apart from the suggestions: it is none.
        d.suggestions_stopped = Some(format!(
            "the search stopped after {after} and {} candidates; more repairs may exist",
            found.tried
        ));
    }
}

/// How one combination of options fares on a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulesVerdict {
    /// The options, as a `Rules` tag writes them (every option named).
    pub options: String,
    /// Replays the whole record (checkpoints and result included).
    pub consistent: bool,
    /// The first ply that fails, if any.
    pub fails_at: Option<u32>,
    /// The options are the record's own.
    pub declared: bool,
}

/// Every value of each option that `sow --infer-rules` tries (RULES.md, "All options";
/// open-ended ones, `repeat` and graded bonus lists, by their usual values).
fn option_values(game: Game) -> Vec<(&'static str, Vec<&'static str>)> {
    match game {
        Game::Tsoro => vec![
            ("heads", vec!["2", "1", "0"]),
            ("bonus", vec!["2", "0", "1", "3", "4", "5", "5,3,2"]),
            ("head-bonus", vec!["no", "yes"]),
        ],
        Game::Nsolo => vec![
            ("bonus", vec!["equal", "hole", "none"]),
            ("sow", vec!["cw", "ccw"]),
            ("repeat", vec!["3", "2", "4", "5"]),
        ],
        Game::Kiothi => vec![
            ("start", vec!["5x6", "5x5", "6x5"]),
            ("leftmost", vec!["three", "chain"]),
        ],
        Game::BaoLaKimasai => vec![("repeat", vec!["2", "3", "4", "5"])],
    }
}

/// Replays a game under every combination of the options its `Rules` tag leaves open
/// (on its declared board), declared combination first.
pub fn infer_rules(game: &ParsedGame, options: &ReplayOptions) -> Vec<RulesVerdict> {
    let record = &game.record;
    let Some(kind) = record.tag("Game").and_then(Game::from_tag) else {
        return Vec::new();
    };
    let Ok(mut fixed) = split_options(record.tag("Rules").unwrap_or("")) else {
        return Vec::new();
    };
    // An option given with --rules is fixed, as if written in the Rules tag.
    crate::rules::with_overrides(&mut fixed, &options.overrides);
    let declared = replay::rules_of(record, &options.overrides).ok();
    let open: Vec<(&str, Vec<&str>)> = option_values(kind)
        .into_iter()
        .filter(|(k, _)| !fixed.iter().any(|(f, _)| f == k))
        .collect();
    let mut combos: Vec<Vec<(String, String)>> = vec![fixed.clone()];
    for (key, values) in &open {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((key.to_string(), v.to_string()));
                    c
                })
            })
            .collect();
    }
    let lean = ReplayOptions::quiet(&[]);
    let mut verdicts = Vec::new();
    for combo in combos {
        let Ok(opts) = parse_options(kind, &combo) else {
            continue;
        };
        let run = ReplayOptions {
            overrides: combo.clone(),
            ..lean.clone()
        };
        let trace = replay::replay(game, &run);
        let rules_here = trace.rules.clone();
        let is_declared = match (&declared, &rules_here) {
            (Some(d), Some(r)) => d == r,
            _ => false,
        };
        verdicts.push(RulesVerdict {
            options: full_options(&opts),
            consistent: trace.complete && trace.is_valid(),
            fails_at: trace.first_error_ply(),
            declared: is_declared,
        });
    }
    verdicts.sort_by_key(|v| !v.declared);
    verdicts.dedup_by(|a, b| a.options == b.options);
    verdicts
}

/// Every option of a set, named, in table order.
fn full_options(options: &Options) -> String {
    match options {
        Options::Tsoro(o) => {
            let heads = match o.heads {
                crate::rules::Heads::Two => 2,
                crate::rules::Heads::One => 1,
                crate::rules::Heads::Zero => 0,
            };
            let bonus: Vec<String> = o.bonus.iter().map(u8::to_string).collect();
            format!(
                "heads={heads} bonus={} head-bonus={}",
                bonus.join(","),
                if o.head_bonus { "yes" } else { "no" }
            )
        }
        Options::Nsolo(o) => format!(
            "bonus={} sow={} repeat={}",
            match o.bonus {
                crate::rules::NsoloBonus::Equal => "equal",
                crate::rules::NsoloBonus::Hole => "hole",
                crate::rules::NsoloBonus::None => "none",
            },
            match o.sow {
                crate::Direction::Clockwise => "cw",
                crate::Direction::CounterClockwise => "ccw",
            },
            o.repeat
        ),
        Options::Kiothi(o) => format!(
            "start={} leftmost={}",
            match o.start {
                crate::rules::KiothiStart::FiveBySix => "5x6",
                crate::rules::KiothiStart::FiveByFive => "5x5",
                crate::rules::KiothiStart::SixByFive => "6x5",
            },
            match o.leftmost {
                crate::rules::Leftmost::Three => "three",
                crate::rules::Leftmost::Chain => "chain",
            }
        ),
        Options::BaoLaKimasai(o) => format!("repeat={}", o.repeat),
    }
}

/// "consistent with: A; B (declared X fails at ply N)".
pub fn describe_verdicts(verdicts: &[RulesVerdict]) -> String {
    let consistent: Vec<&str> = verdicts
        .iter()
        .filter(|v| v.consistent)
        .map(|v| v.options.as_str())
        .collect();
    let mut text = if verdicts.is_empty() {
        "no combination of options could be tried (the game, board or Rules tag is not understood)"
            .to_string()
    } else if consistent.is_empty() {
        "consistent with no combination of options".to_string()
    } else {
        format!("consistent with: {}", consistent.join("; "))
    };
    if let Some(d) = verdicts.iter().find(|v| v.declared && !v.consistent) {
        match d.fails_at {
            Some(ply) => text.push_str(&format!(" (declared {} fails at ply {ply})", d.options)),
            None => text.push_str(&format!(" (declared {} fails)", d.options)),
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_come_in_order_and_stop_at_the_cap() {
        let pits: Vec<Pit> = (1..=4).map(|c| Pit::new(0, c)).collect();
        let named = |c: Vec<Vec<Pit>>| -> Vec<String> {
            c.iter()
                .map(|v| v.iter().map(Pit::to_string).collect::<Vec<_>>().join(","))
                .collect()
        };
        assert_eq!(
            named(choices(&pits, 2, 100)),
            ["a1,a2", "a1,a3", "a1,a4", "a2,a3", "a2,a4", "a3,a4"]
        );
        assert_eq!(named(choices(&pits, 1, 2)), ["a1", "a2"]);
        assert!(choices(&pits, 5, 10).is_empty());
        assert_eq!(choices(&pits, 4, 10).len(), 1);
    }

    #[test]
    fn stone_choices_take_from_the_fullest_first() {
        let pits = [
            (Pit::new(0, 1), 3),
            (Pit::new(0, 2), 1),
            (Pit::new(0, 3), 1),
        ];
        let named: Vec<String> = stone_choices(&pits, 2, 100)
            .iter()
            .map(|c| {
                c.iter()
                    .map(|t| match t.stones {
                        Some(n) => format!("{}:{n}", t.pit),
                        None => t.pit.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        assert_eq!(named, ["a1:2", "a1:1,a2", "a1:1,a3", "a2,a3"]);
        assert_eq!(stone_choices(&pits, 2, 2).len(), 2);
        assert!(stone_choices(&pits, 6, 100).is_empty());
        // Nearly every stone left, from many pits of one: without pruning, 2^72 dead
        // branches (found by review: the search hung); with it, a few hundred steps.
        let singles: Vec<(Pit, u16)> = (1..=36)
            .flat_map(|c| [(Pit::new(2, c), 1), (Pit::new(3, c), 1)])
            .collect();
        assert_eq!(stone_choices(&singles, 72, 10).len(), 1);
        assert_eq!(stone_choices(&singles, 71, 10).len(), 10);
    }

    #[test]
    fn distance_counts_single_character_edits() {
        assert_eq!(distance("b5", "b6"), 1);
        assert_eq!(distance("b5", "c5"), 1);
        assert_eq!(distance("a12", "a2"), 1);
        assert_eq!(distance("d3xa11,b10", "d3xa11"), 4);
    }

    #[test]
    fn describe_names_the_declared_failure() {
        let v = vec![
            RulesVerdict {
                options: "heads=2 bonus=2 head-bonus=no".into(),
                consistent: false,
                fails_at: Some(31),
                declared: true,
            },
            RulesVerdict {
                options: "heads=2 bonus=1 head-bonus=no".into(),
                consistent: true,
                fails_at: None,
                declared: false,
            },
        ];
        assert_eq!(
            describe_verdicts(&v),
            "consistent with: heads=2 bonus=1 head-bonus=no (declared heads=2 bonus=2 head-bonus=no fails at ply 31)"
        );
    }
}
