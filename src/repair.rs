//! Repairs and rules inference for damaged transcriptions (`sow validate --suggest`,
//! `sow repair`, `--infer-rules`).
//!
//! A repair is one edit of the main line (replace a ply, by a legal ply or by a ply one
//! part away from the written one; insert a missing ply; delete a ply; swap two
//! adjacent plies), of the `[%stones]` checkpoint that fails, or of the result that
//! fails; or two such edits, when no single one replays the record. A ply the reader
//! could not read (`a 5`, `a6.`, `al`) is mended in the text instead. Candidates are
//! replayed with the same [`replay::step`] the validator uses, from the position before
//! the edit, and ranked by how far the edited record then replays (complete records,
//! checkpoints and result included, first), then by how likely the slip is for a
//! transcriber ([`plausibility`]), then by the warnings left, then by the size of the
//! edit. The search is bounded by the plies it replays (and, if asked, by time), checked
//! before each listing of candidates and each candidate, and says when it stopped.
//!
//! [`replay::step`]: crate::replay

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::diagnostic::{code, SuggestedEdit, Suggestion};
use crate::games;
use crate::geometry::Pit;
use crate::moves::{BonusChoice, BonusTake, Effect, Mode, Move, Sowing};
use crate::notation::{pit_ref, ply_of};
use crate::play::GameState;
use crate::pmn::{
    self, BonusPits, Element, GameResult, ParsedGame, PitCount, PitRef, PlySyntax, Record,
};
use crate::replay::{self, replay_from, said_ply, PlyInput, ReplayOptions, Trace};
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
    /// Correct the first `[%stones]` checkpoint after ply `after` to the counts.
    Checkpoint {
        after: usize,
        south: u32,
        north: u32,
    },
    /// Write this result as the result token and the `Result` tag.
    Result { result: GameResult },
}

impl Edit {
    /// The first ply index the edit changes.
    pub fn at(&self) -> usize {
        match self {
            Edit::Replace { at, .. }
            | Edit::Insert { at, .. }
            | Edit::Delete { at }
            | Edit::Swap { at }
            | Edit::Checkpoint { after: at, .. } => *at,
            Edit::Result { .. } => usize::MAX,
        }
    }

    /// The edit structured, for the JSON form: `written` are the plies of the record it
    /// edits.
    pub fn structured(&self, record: &Record) -> SuggestedEdit {
        let written: Vec<String> = record
            .main_line()
            .map(|e| e.ply.syntax.to_string())
            .collect();
        let text = |i: usize| written.get(i).cloned().unwrap_or_default();
        let (action, ply, old, new) = match self {
            Edit::Replace { at, with } => ("replace", at + 1, text(*at), with.to_string()),
            Edit::Insert { at, ply } => ("insert", at + 1, String::new(), ply.to_string()),
            Edit::Delete { at } => ("delete", at + 1, text(*at), String::new()),
            Edit::Swap { at } => (
                "swap",
                at + 1,
                format!("{} {}", text(*at), text(at + 1)),
                format!("{} {}", text(at + 1), text(*at)),
            ),
            Edit::Checkpoint {
                after,
                south,
                north,
            } => (
                "checkpoint",
                after + 1,
                checkpoint_after(record, *after)
                    .map(|c| format!("[%stones {}]", c.args.as_str()))
                    .unwrap_or_default(),
                format!("[%stones {south} {north}]"),
            ),
            Edit::Result { result } => {
                // The token, and the tag when it says otherwise.
                let token = record.result.map(|t| t.result.as_str());
                let tag = record.tag("Result");
                let old = match (token, tag) {
                    (Some(t), Some(g)) if t != g => format!("{t} [Result \"{g}\"]"),
                    (Some(t), _) => t.to_string(),
                    (None, Some(g)) => format!("[Result \"{g}\"]"),
                    (None, None) => String::new(),
                };
                ("result", written.len(), old, result.as_str().to_string())
            }
        };
        SuggestedEdit {
            action,
            ply: ply as u32,
            old,
            new,
        }
    }

    /// In words, with 1-based ply numbers.
    pub fn describe(&self, written: &[&PlySyntax]) -> String {
        let text = |i: usize| written.get(i).map(|s| said_ply(s)).unwrap_or_default();
        match self {
            Edit::Replace { at, with } => {
                format!(
                    "replace ply {} `{}` by `{}`",
                    at + 1,
                    text(*at),
                    said_ply(with)
                )
            }
            Edit::Insert { at, ply } => format!("insert `{}` as ply {}", said_ply(ply), at + 1),
            Edit::Delete { at } => format!("delete ply {} `{}`", at + 1, text(*at)),
            Edit::Swap { at } => format!(
                "swap plies {} `{}` and {} `{}`",
                at + 1,
                text(*at),
                at + 2,
                text(*at + 1)
            ),
            Edit::Checkpoint {
                after,
                south,
                north,
            } => {
                format!(
                    "correct the checkpoint after ply {} to [%stones {south} {north}]",
                    after + 1
                )
            }
            Edit::Result { result } => format!("write the result {}", result.as_str()),
        }
    }
}

/// The first `[%stones]` command after main-line ply `after` (0-based).
fn checkpoint_after(record: &Record, after: usize) -> Option<&pmn::Command> {
    let inputs = PlyInput::main_line(record);
    let found = inputs
        .get(after)?
        .commands
        .iter()
        .find(|c| c.name == "stones")
        .copied();
    found
}

/// Bounds of the search.
#[derive(Clone, Debug)]
pub struct RepairOptions {
    /// How many plies before the first error an edit may touch. A slip (a dropped
    /// Tsoro head stop, say) often shows as an error several plies later, so the
    /// window reaches well behind the error.
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
    /// The default of [`RepairOptions::plies`]: well above what the searches of the
    /// repair benchmark need, and well under a second of searching.
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
    /// How unlikely the slip is for a transcriber (see [`plausibility`]): 0 for an
    /// optional mark, more for a misread pit, a skipped or an extra ply.
    pub plausibility: u32,
    /// A second edit, made after `edit` (its ply indices those of the record `edit`
    /// made), when no single edit replays the record.
    pub second: Option<Edit>,
}

impl Repair {
    /// The order of the ranking: furthest first (complete, then most plies of the
    /// record as written), then the likeliest slip, then the fewest warnings, then the
    /// smallest edit.
    fn key(&self) -> (bool, std::cmp::Reverse<usize>, u32, usize, usize) {
        (
            !self.complete,
            std::cmp::Reverse(self.progress),
            self.plausibility,
            self.warnings,
            self.cost,
        )
    }

    /// The record with the repair's edits applied.
    pub fn apply(&self, record: &Record) -> Record {
        let once = apply_edit(record, &self.edit);
        match &self.second {
            Some(second) => apply_edit(&once, second),
            None => once,
        }
    }
}

/// How unlikely a transcriber is to write `written` for `meant`: the sum over the
/// ply's parts of the slip each shows (0: the same, or an `x` alone; 1: an `-END` or
/// `:n` left out or added, a count one off, a bonus pit left out; 2: a neighbouring pit, the same column in another row,
/// digits transposed or doubled; 3: the pit seen from the other side; 5: any other).
pub fn plausibility(written: &PlySyntax, meant: &PlySyntax, rules: &Rules) -> u32 {
    match (written, meant) {
        (PlySyntax::Sowing(a), PlySyntax::Sowing(b)) => {
            let mut p = pit_slip(a.from, b.from, rules);
            if a.lift != b.lift {
                p += match (a.lift, b.lift) {
                    (Some(x), Some(y)) if x.abs_diff(y) == 1 => 1,
                    (Some(_), None) | (None, Some(_)) => 1,
                    _ => 2,
                };
            }
            if (a.end, a.arrival) != (b.end, b.arrival) {
                p += match (a.end, b.end) {
                    (Some(x), Some(y)) if x == y => 1,
                    (Some(x), Some(y)) => pit_slip(x, y, rules),
                    _ => 1,
                };
            }
            let la = a.capture.as_deref().unwrap_or_default();
            let lb = b.capture.as_deref().unwrap_or_default();
            // An `x` alone is an optional mark: a capture without it is a warning, and
            // the warnings decide between the two.
            let mut removed = Vec::new();
            for x in la {
                match lb.iter().find(|y| y.pit == x.pit) {
                    Some(y) if y.count != x.count => p += 1,
                    Some(_) => {}
                    None => removed.push(x.pit),
                }
            }
            // A pit misread for one beside it is one slip, not a pit left out and
            // another added.
            let added: Vec<PitRef> = (lb.iter())
                .filter(|y| !la.iter().any(|x| x.pit == y.pit))
                .map(|y| y.pit)
                .collect();
            let misread = (added.iter())
                .filter(|a| removed.iter().any(|r| pit_slip(**a, *r, rules) == 2))
                .count()
                .min(removed.len());
            p += (removed.len() + added.len() - misread) as u32;
            p
        }
        _ => 5 + distance(&written.to_string(), &meant.to_string()) as u32,
    }
}

/// How unlikely a transcriber is to write pit `a` for pit `b` (see [`plausibility`]).
fn pit_slip(a: PitRef, b: PitRef, rules: &Rules) -> u32 {
    if a == b {
        return 0;
    }
    let board = rules.board();
    let (rows, cols) = (board.rows(), board.cols());
    let (ca, cb) = (a.col.to_string(), b.col.to_string());
    let digits_slip = {
        let mut t: Vec<char> = cb.chars().collect();
        t.reverse();
        let reversed: String = t.into_iter().collect();
        (ca.len() == 2 && reversed == ca)
            || distance(&ca, &cb) == 1
                && (ca.len() != cb.len())
                && (ca.chars().zip(cb.chars()).all(|(x, y)| x == y))
    };
    if (a.row == b.row && a.col.abs_diff(b.col) == 1)
        || (a.col == b.col)
        || (a.row == b.row && digits_slip)
    {
        2
    } else if a.row as u32 + b.row as u32 + 1 == rows as u32
        && (a.col == b.col || a.col as u32 + b.col as u32 == cols as u32 + 1)
    {
        3
    } else {
        5
    }
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

/// Levenshtein distance between two short strings. Between long ones (no transcriber's
/// slip, and a cost that grows with the product of the lengths) it is taken as the
/// longer length, which bounds it from above.
fn distance(a: &str, b: &str) -> usize {
    /// The largest product of the lengths computed exactly.
    const EXACT: usize = 1 << 16;
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().saturating_mul(b.len()) > EXACT {
        return a.len().max(b.len());
    }
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
/// bonus when it fits, else the fullest pits), as ply syntax: at most `most` of them, and
/// whether `most` cut the listing short. The first ply of every candidate comes before
/// a Tsoro head's later stops, so that a short listing holds a ply from each.
///
/// A head stop is listed without sowing it to its arrival (a candidate's stops are
/// legal, and capture nothing), so the listing costs no laps; stops past the largest
/// arrival PMN writes are left out.
fn legal_plies(
    state: &GameState,
    written: Option<&PlySyntax>,
    most: u64,
) -> (Vec<PlySyntax>, bool) {
    let legal = state.legal_moves();
    let most = usize::try_from(most).unwrap_or(usize::MAX);
    let firsts = legal.iter().filter_map(|c| c.each().next());
    let later_stops = legal.iter().flat_map(|c| {
        c.each()
            .skip(1)
            .take_while(|one| one.last_arrival <= u32::from(u16::MAX))
    });
    let mut out = Vec::new();
    let mut effect = Effect::default();
    for c in firsts.chain(later_stops) {
        if out.len() >= most {
            return (out, true);
        }
        list_one(state, &c, written, &mut effect, &mut out);
    }
    let cut = out.len() > most;
    out.truncate(most);
    (out, cut)
}

/// Lists the plies of one candidate of one ply (see [`legal_plies`]).
fn list_one(
    state: &GameState,
    c: &crate::moves::Candidate,
    written: Option<&PlySyntax>,
    effect: &mut Effect,
    out: &mut Vec<PlySyntax>,
) {
    let pos = state.position();
    if let Move::Sow(s) = &c.mv {
        if s.stop.is_some() && !c.captures && c.bonus == BonusChoice::None {
            out.push(ply_of(&c.mv, &Effect::default()));
            return;
        }
    }
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
                        try_bonus(state, s, take(pits), effect, out);
                    }
                    // Every pit written: one of them misread for a pit beside it.
                    if need == 0 {
                        for i in 0..kept.len() {
                            for &near in rest.iter().filter(|p| beside(**p, kept[i])) {
                                let mut pits = kept.clone();
                                pits[i] = near;
                                try_bonus(state, s, take(pits), effect, out);
                            }
                        }
                    }
                    let mut pits = kept;
                    pits.extend(rest.into_iter().take(need));
                    s.bonus = take(pits);
                }
                BonusChoice::Stones { stones, eligible } => {
                    s.bonus = crate::moves::fullest_first(*stones, eligible);
                    // With no bonus written, the other ways of taking the stones too,
                    // from the fullest pits first.
                    let named = written_bonus(written);
                    let mut pits = eligible.clone();
                    pits.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                    if named.is_empty() {
                        for taken in stone_choices(&pits, *stones, OTHER_BONUS_CHOICES + 1) {
                            if taken != s.bonus {
                                try_bonus(state, s, taken, effect, out);
                            }
                        }
                    } else {
                        // A bonus written with one count wrong (the count that makes
                        // the total), or one pit misread for a pit beside it.
                        let list: Vec<BonusTake> = written_takes(written);
                        let holds = |p: Pit| eligible.iter().find(|e| e.0 == p).map(|e| e.1 as u32);
                        let taken =
                            |t: &BonusTake| holds(t.pit).map(|h| t.stones.map_or(h, u32::from));
                        for i in 0..list.len() {
                            let others: Option<u32> = (list.iter().enumerate())
                                .filter(|(j, _)| *j != i)
                                .map(|(_, t)| taken(t))
                                .sum();
                            if let (Some(others), Some(h)) = (others, holds(list[i].pit)) {
                                let need = stones.checked_sub(others);
                                if let Some(need) = need.filter(|&n| n >= 1 && n <= h) {
                                    let mut fixed = list.clone();
                                    fixed[i].stones = (need != h).then_some(need as u16);
                                    try_bonus(state, s, fixed, effect, out);
                                }
                            }
                            for &(near, h) in eligible.iter().filter(|e| {
                                beside(e.0, list[i].pit) && !list.iter().any(|t| t.pit == e.0)
                            }) {
                                let mut fixed = list.clone();
                                fixed[i].pit = near;
                                if fixed[i].stones.is_some_and(|n| n as u32 > h as u32) {
                                    continue;
                                }
                                try_bonus(state, s, fixed, effect, out);
                            }
                        }
                        // Then the ways of taking the stones from the pits written first.
                        pits.sort_by_key(|(p, _)| {
                            named.iter().position(|n| n == p).unwrap_or(usize::MAX)
                        });
                        for taken in stone_choices(&pits, *stones, WRITTEN_BONUS_CHOICES) {
                            if taken != s.bonus {
                                try_bonus(state, s, taken, effect, out);
                            }
                        }
                    }
                }
                BonusChoice::Redistribution { .. } => return,
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
                        if try_bonus(state, s, as_written, effect, out) {
                            return;
                        }
                    }
                }
            }
        }
        let mut p = pos.clone();
        if games::apply(state.rules(), &mut p, &mv, Mode::Legal, effect).is_ok() {
            out.push(ply_of(&mv, effect));
        }
    }
}

/// How many choices of bonus pits besides the fullest are tried for a capture whose
/// bonus is not written: the true one is otherwise rarely found for a skipped capture.
const OTHER_BONUS_CHOICES: usize = 256;

/// How many ways of taking a bonus are tried for a capture whose bonus is written but
/// wrong: those that keep the pits written come first.
const WRITTEN_BONUS_CHOICES: usize = 8;

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

/// Whether a transcriber may read one pit for the other: neighbours in a row, or the
/// same column in another row.
fn beside(a: Pit, b: Pit) -> bool {
    a != b && ((a.row == b.row && a.col.abs_diff(b.col) == 1) || a.col == b.col)
}

/// The bonus of a written ply, as it is taken.
fn written_takes(written: Option<&PlySyntax>) -> Vec<BonusTake> {
    match written {
        Some(PlySyntax::Sowing(w)) => (w.capture.iter().flatten())
            .map(|pc| BonusTake {
                pit: Pit::new(pc.pit.row, pc.pit.col),
                stones: pc.count,
            })
            .collect(),
        _ => Vec::new(),
    }
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
            // Lists longer than a board's pits name some pit twice: no slip, and the
            // count below would grow with the square of their length.
            if la.len() + lb.len() > 2 * crate::geometry::MAX_PITS {
                return 1 + la.len() + lb.len();
            }
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
    /// Single edits tried as the first of two: the furthest, likeliest ones.
    const FIRSTS: usize = 6;
    let started = Instant::now();
    let mut result = search_single(parsed, first_error, options, bounds, started);
    if result.repairs.iter().any(|r| r.complete) || result.stopped_early {
        return result;
    }
    let firsts: Vec<Repair> = result.repairs.iter().take(FIRSTS).cloned().collect();
    for first in firsts {
        if result.replayed >= bounds.plies {
            result.stopped_early = true;
            break;
        }
        let edited = ParsedGame {
            record: apply_edit(&parsed.record, &first.edit),
            text: String::new(),
            ..parsed.clone()
        };
        let rest = RepairOptions {
            plies: bounds.plies - result.replayed,
            ..bounds.clone()
        };
        let next = search_single(&edited, first.replays as u32 + 1, options, &rest, started);
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

/// Sorts repairs best first and keeps one of each group that differ only in optional
/// marks (an `x` with no bonus, a `:n` or bonus count that is the whole pit, an `-END`
/// outside Tsoro, where it is only a check).
fn rank(repairs: &mut Vec<Repair>, parsed: &ParsedGame) {
    repairs.sort_by_key(Repair::key);
    let mut seen = std::collections::HashSet::new();
    repairs.retain(|r| {
        let key = (
            mark_free(&r.edit, &parsed.record),
            r.second.as_ref().map(|e| mark_free(e, &parsed.record)),
        );
        seen.insert(key)
    });
}

/// An edit with the optional marks of its ply dropped, as a key.
fn mark_free(edit: &Edit, record: &Record) -> String {
    let game = record.tag("Game").and_then(Game::from_tag);
    let bare = |p: &PlySyntax| -> String {
        match p {
            PlySyntax::Sowing(s) => {
                let mut s = s.clone();
                if s.capture.as_ref().is_some_and(|c| c.is_empty()) {
                    s.capture = None;
                }
                if game != Some(Game::Tsoro) {
                    s.end = None;
                }
                if let Some(c) = &mut s.capture {
                    let mut list: Vec<PitCount> = c.iter().copied().collect();
                    list.sort_by_key(|pc| (pc.pit.row, pc.pit.col));
                    *c = list.into_iter().collect();
                }
                PlySyntax::Sowing(s).to_string()
            }
            other => other.to_string(),
        }
    };
    match edit {
        Edit::Replace { at, with } => format!("r{at}:{}", bare(with)),
        Edit::Insert { at, ply } => format!("i{at}:{}", bare(ply)),
        other => format!("{other:?}"),
    }
}

/// One level of the search: single edits of plies up to `bounds.window` before the
/// first error, of the checkpoint that fails, of the result that fails.
fn search_single(
    parsed: &ParsedGame,
    first_error: u32,
    options: &ReplayOptions,
    bounds: &RepairOptions,
    started: Instant,
) -> RepairSearch {
    let record = &parsed.record;
    let lean = options.quieted();
    let mut result = RepairSearch::default();
    let Ok(rules) = replay::rules_for(record, &lean) else {
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
    // replay completely, and none is said to. A result edit writes the tag and the token alike.
    let text_errors = parsed.problems.iter().any(|p| p.is_error());
    let text_errors_but_result = parsed
        .problems
        .iter()
        .any(|p| p.is_error() && p.code != pmn::ProblemCode::ResultMismatch);
    let lowest = error_index.saturating_sub(bounds.window);
    // One more state before the window: a deletion replays the ply before it.
    let first_state = lowest.saturating_sub(1);
    let out_of_bounds = |result: &RepairSearch| {
        result.replayed >= bounds.plies || bounds.budget.is_some_and(|b| started.elapsed() > b)
    };

    // The game state before each ply of the window, from one replay of the prefix.
    let start_state = GameState::new(rules.clone(), start);
    let states = states_before(start_state, &inputs, first_state, error_index, &lean);
    let base = first_state;

    // How far the record as written replays: to the ply of the first error, or past it
    // when that error is the text's (a Result tag against the token, at the last ply).
    // An edit must do better, or replay completely.
    let mut written_trace = Trace {
        declared: replay::declared_result(record),
        ..Trace::default()
    };
    let written = match states.get(error_index - base) {
        Some(st) => {
            let mut st = st.clone();
            replay_from(
                &mut st,
                inputs[error_index..].iter(),
                record,
                replay::cut_short(parsed),
                &lean,
                &mut written_trace,
            );
            result.replayed += written_trace.played as u64;
            written_trace
                .first_error_ply()
                .map_or(inputs.len(), |p| p as usize - 1)
        }
        None => error_index,
    };
    let first_code = (written_trace.diagnostics.iter())
        .find(|d| d.is_error())
        .map(|d| d.code);

    // The edits of what the error names, beside the edits of plies: the checkpoint that
    // fails corrected to the counts of the replay; the result that fails written as the
    // game's outcome.
    let mut candidates: Vec<(Edit, usize, u32)> = Vec::new();
    if first_code == Some(code::STONES_MISMATCH) && written == error_index {
        if let Some(st) = states.get(error_index - base) {
            let mut st = st.clone();
            let (mut effect, mut scratch, mut failed) = (Effect::default(), Vec::new(), false);
            let mut bare = inputs[error_index].clone();
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
                    [after.prisons[0] as u32, after.prisons[1] as u32]
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
    let result_wrong = first_code == Some(code::RESULT_MISMATCH)
        || (written_trace.complete
            && parsed
                .problems
                .iter()
                .any(|p| p.code == pmn::ProblemCode::ResultMismatch));
    if result_wrong && written_trace.complete {
        if let Some(outcome) = written_trace.outcome {
            let true_result = replay::result_of(&outcome);
            let mut trace = Trace {
                declared: Some(true_result),
                ..Trace::default()
            };
            if let Some(st) = states.get(error_index - base) {
                let mut st = st.clone();
                replay_from(
                    &mut st,
                    inputs[error_index..].iter(),
                    record,
                    replay::cut_short(parsed),
                    &lean,
                    &mut trace,
                );
                result.replayed += trace.played as u64 + 1;
                result.tried += 1;
                if trace.complete && trace.is_valid() && !text_errors_but_result {
                    result.repairs.push(Repair {
                        edit: Edit::Result {
                            result: true_result,
                        },
                        replays: inputs.len(),
                        progress: inputs.len(),
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
    for at in (lowest..=error_index.min(states.len() + base - 1)).rev() {
        if out_of_bounds(&result) {
            result.stopped_early = true;
            break;
        }
        let st = &states[at - base];
        let here = inputs.get(at).map(|i| i.syntax);
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
        if at < inputs.len() {
            candidates.push((Edit::Delete { at }, 2, 4));
        }
        if at + 1 < inputs.len() {
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
            Edit::Checkpoint {
                after,
                south,
                north,
            } => {
                let mut input = inputs[*after].clone();
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
fn unreadable_ply_repairs(
    game: &ParsedGame,
    error: &crate::diagnostic::Diagnostic,
    options: &ReplayOptions,
    keep: usize,
    most: u64,
) -> Option<Vec<Fix>> {
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
    // The state before the unreadable ply: the plies read before it replay.
    let lean = options.quieted();
    let rules = replay::rules_for(&game.record, &lean).ok()?;
    let start_position = replay::start_of(&game.record, &rules).ok()?;
    let inputs = PlyInput::main_line(&game.record);
    if inputs.len() + 1 != number {
        return None;
    }
    let start_state = GameState::new(rules, start_position);
    let state = states_before(start_state, &inputs, inputs.len(), inputs.len(), &lean).pop()?;
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
    for (near, cost, ply) in candidates.into_iter().take(TRIED) {
        let mended = format!("{}{ply}{}", &text[..start], &text[end..]);
        let Some(again) = pmn::parse_str(&mended).into_iter().next() else {
            continue;
        };
        let trace = replay::replay(&again, &lean);
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
                    how: How::Text {
                        start,
                        end,
                        old: token.to_string(),
                        new: ply,
                    },
                }
            })
            .collect(),
    )
}

/// The record with an edit applied to its main line, as the search replayed it: the
/// comments after a ply stay in place whether plies are swapped, inserted or deleted.
pub fn apply_edit(record: &Record, edit: &Edit) -> Record {
    edit_record(record, edit, false)
}

/// A comment `{repaired: ...}` (docs/PMN.md, "Repairs").
fn repaired_comment(what: String) -> Element {
    let text = format!("repaired: {what}");
    Element::Comment(pmn::Comment {
        kind: pmn::CommentKind::Brace,
        text: text.as_str().into(),
        commands: Vec::new(),
        span: Default::default(),
    })
}

/// [`apply_edit`], and with `mark` each change recorded in a comment beside it.
fn edit_record(record: &Record, edit: &Edit, mark: bool) -> Record {
    let mut out = record.clone();
    // Where the main-line plies are among the elements.
    let ply_at: Vec<usize> = out
        .moves
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Element::Ply(_)))
        .map(|(i, _)| i)
        .collect();
    // The place after an element and its NAGs.
    let after = |moves: &[Element], i: usize| {
        i + 1
            + (moves[i + 1..].iter())
                .take_while(|e| matches!(e, Element::Nag(_)))
                .count()
    };
    match edit {
        Edit::Replace { at, with } => {
            if let Some(&i) = ply_at.get(*at) {
                if let Element::Ply(p) = &mut out.moves[i] {
                    let was = std::mem::replace(&mut p.syntax, with.clone());
                    if mark {
                        let j = after(&out.moves, i);
                        out.moves.insert(j, repaired_comment(format!("was {was}")));
                    }
                }
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
            if mark {
                out.moves
                    .insert(index + 1, repaired_comment("inserted".into()));
            }
        }
        Edit::Delete { at } => {
            // The ply goes with its NAGs; the comments after it stay, as in the search
            // (a checkpoint is evidence of the position, not part of the ply).
            if let Some(&i) = ply_at.get(*at) {
                let j = after(&out.moves, i);
                let gone: Vec<Element> = out.moves.drain(i..j).collect();
                if mark {
                    if let Some(Element::Ply(p)) = gone.first() {
                        out.moves
                            .insert(i, repaired_comment(format!("deleted {}", p.syntax)));
                    }
                }
            }
        }
        Edit::Swap { at } => {
            // The plies alone change places; the comments after each stay where they are.
            if at + 1 < ply_at.len() {
                let (i, k) = (ply_at[*at], ply_at[at + 1]);
                out.moves.swap(i, k);
                if mark {
                    for (ply, other) in [(k, i), (i, k)] {
                        if let Element::Ply(p) = &out.moves[other] {
                            let was = p.syntax.to_string();
                            let j = after(&out.moves, ply);
                            out.moves.insert(j, repaired_comment(format!("was {was}")));
                        }
                    }
                }
            }
        }
        Edit::Checkpoint {
            after: ply,
            south,
            north,
        } => {
            // The first `[%stones]` in the comments between the ply and the next.
            let from = ply_at.get(*ply).map_or(0, |&i| i + 1);
            let to = ply_at.get(ply + 1).copied().unwrap_or(out.moves.len());
            for i in from..to {
                let Element::Comment(c) = &mut out.moves[i] else {
                    continue;
                };
                let Some(k) = c.commands.iter().position(|c| c.name == "stones") else {
                    continue;
                };
                let was = format!("[%stones {}]", c.commands[k].args.as_str());
                let now = format!("[%stones {south} {north}]");
                if let Some(open) = c.text.find("[%stones") {
                    let close = c.text[open..]
                        .find(']')
                        .map_or(c.text.len(), |e| open + e + 1);
                    let text = format!("{}{now}{}", &c.text[..open], &c.text[close..]);
                    c.text = text.as_str().into();
                }
                c.commands[k].args = pmn::Args::split(&format!("{south} {north}"));
                if mark {
                    // Not a command: the comment says what was written, and is no
                    // checkpoint itself.
                    let old = was.trim_start_matches("[%").trim_end_matches(']');
                    out.moves
                        .insert(i + 1, repaired_comment(format!("was {old}")));
                }
                break;
            }
        }
        Edit::Result { result } => {
            let was = replay::declared_result(&out);
            if let Some(token) = &mut out.result {
                token.result = *result;
            }
            if let Some(tag) = out.tags.iter_mut().find(|t| t.name == "Result") {
                tag.value = result.as_str().into();
            }
            if mark {
                let was = was.map_or("no result", |r| r.as_str());
                out.moves.push(repaired_comment(format!("was {was}")));
            }
        }
    }
    out
}

/// The edit in words, with the plies of the record it edits.
fn describe_in(edit: &Edit, record: &Record) -> String {
    let written: Vec<&PlySyntax> = record.main_line().map(|e| &e.ply.syntax).collect();
    edit.describe(&written)
}

/// A repair ready to be shown and applied: a search's [`Repair`], or a mended token of
/// the text (a ply the reader could not read).
#[derive(Clone, Debug)]
pub struct Fix {
    /// The suggestion as `--suggest` reports it.
    pub suggestion: Suggestion,
    how: How,
}

#[derive(Clone, Debug)]
enum How {
    Record(Repair),
    /// Bytes `start..end` of the game's text, which read `old`, replaced by `new`.
    Text {
        start: usize,
        end: usize,
        old: String,
        new: String,
    },
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

/// The best repairs of a game whose trace has an error (at most `bounds.keep`).
pub fn suggest(
    game: &ParsedGame,
    trace: &Trace,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) -> Suggestions {
    let mut out = Suggestions::default();
    let (Some(first_error), Some(at)) = (trace.first_error_ply(), trace.first_error_index()) else {
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
    let found = search_from(game, first_error, options, bounds);
    let mut last_key = None;
    let mut rank = 0;
    for (i, r) in found.repairs.iter().take(bounds.keep).enumerate() {
        let key = r.key();
        if last_key != Some(key) {
            rank = i + 1;
            last_key = Some(key);
        }
        let edited = r.apply(&game.record);
        let plies: Vec<String> = edited
            .main_line()
            .map(|e| e.ply.syntax.to_string())
            .collect();
        let shown = r.second.as_ref().unwrap_or(&r.edit).at().min(plies.len());
        let from = r.edit.at().min(shown).saturating_sub(1);
        let to = (shown + 3).min(plies.len());
        let context: Vec<String> = (from..to)
            .map(|i| format!("{}:{}", i + 1, plies[i]))
            .collect();
        let once = apply_edit(&game.record, &r.edit);
        let mut edit = describe_in(&r.edit, &game.record);
        if let Some(second) = &r.second {
            edit = format!("{edit}, then {}", describe_in(second, &once));
        }
        out.fixes.push(Fix {
            suggestion: Suggestion {
                edit,
                text: context.join(" "),
                replays: r.replays,
                complete: r.complete,
                change: r.edit.structured(&game.record),
                replays_to: r.replays,
                rank,
                then: r.second.as_ref().map(|e| e.structured(&once)),
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
            let once = edit_record(&game.record, &r.edit, true);
            let twice = match &r.second {
                // The second edit's plies are those of the record the first made; the
                // comment the first added is no ply and shifts none.
                Some(second) => edit_record(&once, second, true),
                None => once,
            };
            pmn::write_game(&twice)
        }
        How::Text {
            start,
            end,
            old,
            new,
        } => {
            let text = &game.text;
            let old = old.replace(['{', '}'], "");
            format!(
                "{}{new} {{repaired: was {old}}}{}",
                &text[..*start],
                &text[*end..]
            )
        }
    }
}

/// Adds the best repairs as suggestions to the first error of a trace.
pub fn attach_suggestions(
    game: &ParsedGame,
    trace: &mut Trace,
    options: &ReplayOptions,
    bounds: &RepairOptions,
) {
    let Some(at) = trace.first_error_index() else {
        return;
    };
    let found = suggest(game, trace, options, bounds);
    // The suggestions go with the earliest error.
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
    for (i, game) in pmn::parse_str(text).into_iter().enumerate() {
        let number = i + 1;
        let (start, end) = (game.offset, game.offset + game.text.len());
        if text.get(start..end) != Some(game.text.as_str()) || start < copied {
            // Not where the reader said: nothing of this game is changed.
            done.push(GameRepaired::Kept(
                "its text could not be located in the file".into(),
            ));
            continue;
        }
        out.push_str(&text[copied..start]);
        copied = end;
        let trace = replay::replay(&game, options);
        if trace.is_valid() {
            out.push_str(&game.text);
            done.push(GameRepaired::Valid);
            continue;
        }
        let found = suggest(&game, &trace, options, bounds);
        let error_ply = trace.first_error_ply().unwrap_or(0);
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
                let again = pmn::parse_str(&fixed);
                let sound = again.len() == 1 && replay::replay(&again[0], options).is_valid();
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

/// What rules inference found: a verdict for each combination tried, and, when its
/// bound stopped it before every combination was tried, what it had done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inference {
    pub verdicts: Vec<RulesVerdict>,
    pub stopped: Option<String>,
}

/// Replays a game under every combination of the options its `Rules` tag leaves open
/// (on its declared board), declared combination first, as long as the plies replayed
/// stay within `plies`: the bound is checked before each combination's replay (each of
/// its plies bounded by the lap budget).
pub fn infer_rules(game: &ParsedGame, options: &ReplayOptions, plies: u64) -> Inference {
    let record = &game.record;
    let Some(kind) = record.tag("Game").and_then(Game::from_tag) else {
        return Inference::default();
    };
    let Ok(mut fixed) = split_options(record.tag("Rules").unwrap_or("")) else {
        return Inference::default();
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
    let lean = ReplayOptions {
        overrides: Vec::new(),
        ..options.quieted()
    };
    let mut verdicts = Vec::new();
    let (mut replayed, mut stopped) = (0u64, None);
    // A combination replays at most the plies written, and counts one more.
    let most = (game.record.moves.len() as u64).saturating_add(1);
    let total = combos.len();
    for (tried, combo) in combos.into_iter().enumerate() {
        if replayed.saturating_add(most) > plies {
            stopped = Some(format!(
                "the inference stopped after {replayed} plies replayed and {tried} of {total} combinations; others may be consistent"
            ));
            break;
        }
        let Ok(opts) = parse_options(kind, &combo) else {
            continue;
        };
        let run = ReplayOptions {
            overrides: combo.clone(),
            ..lean.clone()
        };
        let trace = replay::replay(game, &run);
        replayed += trace.played as u64 + 1;
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
    Inference { verdicts, stopped }
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
pub fn describe_inference(inference: &Inference) -> String {
    let mut text = describe_verdicts(&inference.verdicts);
    if let Some(stopped) = &inference.stopped {
        text.push_str("; ");
        text.push_str(stopped);
    }
    text
}

/// The verdicts in words (see [`describe_inference`]).
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
        // Nearly every stone left, from many pits of one: the pruning keeps the search
        // short of the 2^72 dead branches.
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
