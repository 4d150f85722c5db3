//! The candidate plies at a position: every legal ply, and the plies one part away
//! from the written one.

use crate::games;
use crate::geometry::Pit;
use crate::moves::{BonusChoice, BonusTake, Effect, Mode, Move, Sowing};
use crate::notation::ply_of;
use crate::play::GameState;
use crate::pmn::{self, BonusPits, PlySyntax};
use crate::rules::Rules;

/// Every legal ply at a position, each completed with one bonus choice (the written
/// bonus when it fits, else the fullest pits), as ply syntax: at most `most` of them, and
/// whether `most` cut the listing short. The first ply of every candidate comes before
/// a Tsoro head's later stops, so that a short listing holds a ply from each.
///
/// A head stop is listed without sowing it to its arrival (a candidate's stops are
/// legal, and capture nothing), so the listing costs no laps; stops past the largest
/// arrival PMN writes are left out.
pub(super) fn legal_plies(
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
                    rest.sort_by(|a, b| pos.stones(*b).cmp(&pos.stones(*a)).then(a.cmp(b)));
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
                                pit: pc.pit,
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
pub(super) fn choices(pits: &[Pit], k: usize, cap: usize) -> Vec<Vec<Pit>> {
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
pub(super) fn stone_choices(pits: &[(Pit, u16)], stones: u32, cap: usize) -> Vec<Vec<BonusTake>> {
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
                pit: pc.pit,
                stones: pc.count,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The bonus pits of a written ply.
fn written_bonus(written: Option<&PlySyntax>) -> Vec<Pit> {
    match written {
        Some(PlySyntax::Sowing(w)) => w.capture.iter().flatten().map(|pc| pc.pit).collect(),
        _ => Vec::new(),
    }
}

/// Variants of a written sowing ply that differ in one part: the `x` mark toggled, the
/// `-END` removed or moved, the lift changed.
pub(super) fn near_variants(written: &PlySyntax, rules: &Rules) -> Vec<PlySyntax> {
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
            v.end = Some(pit);
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
        if pit != s.from {
            let mut v = s.clone();
            v.from = pit;
            push(v);
        }
    }
    out
}

/// Variants of Kiothi's opening redistribution `P,P>Q:n,...` that differ in one part,
/// the likeliest slips: one pit read as another, one count misread (1 to 20).
fn redistribution_variants(r: &pmn::Redistribution, rules: &Rules) -> Vec<PlySyntax> {
    let mut out = Vec::new();
    let pits: Vec<Pit> = rules.board().pits().collect();
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
