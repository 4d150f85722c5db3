//! How likely a repair is: the plausibility of a slip of the pen, the size of an edit,
//! and the order of repairs, best first.

use crate::pmn::{ParsedGame, Pit, PitCount, PlySyntax, Record};
use crate::rules::{Game, Rules};

use super::{Edit, Repair};

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
            let added: Vec<Pit> = (lb.iter())
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
fn pit_slip(a: Pit, b: Pit, rules: &Rules) -> u32 {
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

/// Levenshtein distance between two short strings. Between long ones (no transcriber's
/// slip, and a cost that grows with the product of the lengths) it is taken as the
/// longer length, which bounds it from above.
pub(super) fn distance(a: &str, b: &str) -> usize {
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

/// The size of replacing one ply by another: for the same sowing with another `x` or
/// bonus list, one per pit added or removed (and one for the `x`); otherwise the number
/// of characters changed.
pub(super) fn ply_cost(written: &PlySyntax, other: &PlySyntax) -> usize {
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

/// Sorts repairs best first and keeps one of each group that differ only in optional
/// marks (an `x` with no bonus, a `:n` or bonus count that is the whole pit, an `-END`
/// outside Tsoro, where it is only a check).
pub(super) fn rank(repairs: &mut Vec<Repair>, parsed: &ParsedGame) {
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
