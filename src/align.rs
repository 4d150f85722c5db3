//! Two ply sequences aligned by edit distance: which plies are the same, changed,
//! inserted or deleted. `sow diff` reads the whole alignment ([`align`]); `sow twins`
//! asks only whether two games are within a few edits of each other, one possibly
//! stopping early ([`within`]).
//!
//! Sequences are of anything comparable (ply texts, their hashes): nothing here knows
//! PMN or the rules.

/// One step of an alignment of `a` with `b`, with the indices (from 0) of the elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `a[i]` and `b[j]` are the same.
    Same(usize, usize),
    /// `a[i]` was written where `b` has `b[j]`.
    Changed(usize, usize),
    /// `b[j]` has no counterpart in `a`.
    Inserted(usize),
    /// `a[i]` has no counterpart in `b`.
    Deleted(usize),
}

impl Step {
    /// Whether the step is an edit (not [`Step::Same`]).
    pub fn is_edit(self) -> bool {
        !matches!(self, Step::Same(..))
    }
}

/// Cells of the full table at most: beyond it the middle part, once the common start
/// and end are set aside, is aligned as changed plies and a tail of insertions or
/// deletions rather than by the table (two records of one game rarely differ in more
/// than a few hundred plies).
const MOST_CELLS: usize = 1 << 26;

/// A shortest edit script from `a` to `b` (unit costs for a change, an insertion and a
/// deletion). Among scripts of equal cost, changes come before insertions and
/// deletions, and edits as late as possible: a transcription that slipped once reads as
/// one edit at the slip.
pub fn align<T: PartialEq>(a: &[T], b: &[T]) -> Vec<Step> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = (a[prefix..].iter().rev())
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (mid_a, mid_b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut steps: Vec<Step> = (0..prefix).map(|i| Step::Same(i, i)).collect();
    if (mid_a.len() + 1).saturating_mul(mid_b.len() + 1) <= MOST_CELLS {
        steps.extend(
            table_align(mid_a, mid_b)
                .into_iter()
                .map(|s| shift(s, prefix, prefix)),
        );
    } else {
        let common = mid_a.len().min(mid_b.len());
        for k in 0..common {
            let (i, j) = (prefix + k, prefix + k);
            steps.push(match mid_a[k] == mid_b[k] {
                true => Step::Same(i, j),
                false => Step::Changed(i, j),
            });
        }
        steps.extend((common..mid_a.len()).map(|k| Step::Deleted(prefix + k)));
        steps.extend((common..mid_b.len()).map(|k| Step::Inserted(prefix + k)));
    }
    let (from_a, from_b) = (a.len() - suffix, b.len() - suffix);
    steps.extend((0..suffix).map(|k| Step::Same(from_a + k, from_b + k)));
    steps
}

fn shift(step: Step, da: usize, db: usize) -> Step {
    match step {
        Step::Same(i, j) => Step::Same(i + da, j + db),
        Step::Changed(i, j) => Step::Changed(i + da, j + db),
        Step::Inserted(j) => Step::Inserted(j + db),
        Step::Deleted(i) => Step::Deleted(i + da),
    }
}

/// The full edit-distance table, walked back from its end.
fn table_align<T: PartialEq>(a: &[T], b: &[T]) -> Vec<Step> {
    let (n, m) = (a.len(), b.len());
    let width = m + 1;
    let mut cost = vec![0u32; (n + 1) * width];
    for (j, c) in cost.iter_mut().take(width).enumerate() {
        *c = j as u32;
    }
    for i in 1..=n {
        cost[i * width] = i as u32;
        for j in 1..=m {
            let diagonal = cost[(i - 1) * width + j - 1] + u32::from(a[i - 1] != b[j - 1]);
            let up = cost[(i - 1) * width + j] + 1;
            let left = cost[i * width + j - 1] + 1;
            cost[i * width + j] = diagonal.min(up).min(left);
        }
    }
    // Walked back from the end, a diagonal step first: edits land as late as they can.
    let mut steps = Vec::with_capacity(n.max(m));
    let (mut i, mut j) = (n, m);
    while i > 0 || j > 0 {
        let here = cost[i * width + j];
        if i > 0 && j > 0 {
            let same = a[i - 1] == b[j - 1];
            if cost[(i - 1) * width + j - 1] + u32::from(!same) == here {
                i -= 1;
                j -= 1;
                steps.push(match same {
                    true => Step::Same(i, j),
                    false => Step::Changed(i, j),
                });
                continue;
            }
        }
        if i > 0 && cost[(i - 1) * width + j] + 1 == here {
            i -= 1;
            steps.push(Step::Deleted(i));
        } else {
            j -= 1;
            steps.push(Step::Inserted(j));
        }
    }
    steps.reverse();
    steps
}

/// The fewest edits that make one of `a` and `b` the other or a start of it (the
/// longer one's plies past the end of the shorter's alignment are free: a record that
/// stops early is the same game), if at most `most`. Only the band of the table within
/// `most` of its diagonal is computed, and the walk stops once every cell of a row is
/// past `most`: two unlike games cost a few rows.
pub fn within<T: PartialEq>(a: &[T], b: &[T], most: usize) -> Option<usize> {
    let (n, m) = (a.len(), b.len());
    if n == 0 || m == 0 {
        // An empty record is the start of any other.
        return Some(0);
    }
    let band = most;
    let over = most as u32 + 1;
    // Row i holds the cells j in i-band ..= i+band, at j - i + band.
    let width = 2 * band + 1;
    let mut previous = vec![over; width];
    let mut row = vec![over; width];
    for (d, cell) in previous.iter_mut().enumerate().skip(band) {
        // Row 0: b's first d - band plies inserted.
        let j = d - band;
        if j <= m {
            *cell = j as u32;
        }
    }
    // The best end found: a past its end (row n), or b past its end (column m).
    let mut best = over;
    if m <= band {
        best = best.min(previous[m + band]);
    }
    for i in 1..=n {
        let mut row_best = over;
        for d in 0..width {
            row[d] = over;
            let Some(j) = (i + d).checked_sub(band) else {
                continue;
            };
            if j > m {
                continue;
            }
            let mut c = over;
            if j == 0 {
                c = c.min(i as u32);
            } else {
                c = c.min(previous[d] + u32::from(a[i - 1] != b[j - 1]));
                if d > 0 {
                    c = c.min(row[d - 1] + 1);
                }
            }
            if d + 1 < width {
                c = c.min(previous[d + 1] + 1);
            }
            row[d] = c.min(over);
            row_best = row_best.min(row[d]);
            if j == m {
                best = best.min(row[d]);
            }
        }
        if row_best >= over {
            break;
        }
        std::mem::swap(&mut previous, &mut row);
        if i == n {
            best = best.min(previous.iter().copied().min().unwrap_or(over));
        }
    }
    (best <= most as u32).then_some(best as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edits(a: &str, b: &str) -> Vec<Step> {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        align(&a, &b).into_iter().filter(|s| s.is_edit()).collect()
    }

    #[test]
    fn an_alignment_names_each_edit_at_its_place() {
        assert_eq!(edits("abcdef", "abcdef"), []);
        assert_eq!(edits("abcdef", "abXdef"), [Step::Changed(2, 2)]);
        assert_eq!(edits("abcdef", "abcXdef"), [Step::Inserted(3)]);
        assert_eq!(edits("abcdef", "abdef"), [Step::Deleted(2)]);
        assert_eq!(edits("", "ab"), [Step::Inserted(0), Step::Inserted(1)]);
        assert_eq!(
            edits("axcdeyg", "abcdefg"),
            [Step::Changed(1, 1), Step::Changed(5, 5)]
        );
    }

    #[test]
    fn an_alignment_covers_both_sequences_in_order() {
        let a: Vec<u8> = b"the same game recorded twice".to_vec();
        let b: Vec<u8> = b"tha same gme recordd twice!!".to_vec();
        let steps = align(&a, &b);
        let (mut i, mut j) = (0, 0);
        for s in steps {
            match s {
                Step::Same(x, y) | Step::Changed(x, y) => {
                    assert_eq!((x, y), (i, j));
                    i += 1;
                    j += 1;
                }
                Step::Inserted(y) => {
                    assert_eq!(y, j);
                    j += 1;
                }
                Step::Deleted(x) => {
                    assert_eq!(x, i);
                    i += 1;
                }
            }
        }
        assert_eq!((i, j), (a.len(), b.len()));
    }

    /// The edit distance with a free tail on either side, by the full table.
    fn slow_within(a: &[u8], b: &[u8]) -> usize {
        let (n, m) = (a.len(), b.len());
        let mut t = vec![vec![0usize; m + 1]; n + 1];
        for (i, row) in t.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, c) in t[0].iter_mut().enumerate() {
            *c = j;
        }
        for i in 1..=n {
            for j in 1..=m {
                t[i][j] = (t[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]))
                    .min(t[i - 1][j] + 1)
                    .min(t[i][j - 1] + 1);
            }
        }
        let last_row = t[n].iter().copied().min().unwrap();
        let last_column = t.iter().map(|r| r[m]).min().unwrap();
        last_row.min(last_column)
    }

    #[test]
    fn the_banded_distance_agrees_with_the_full_table() {
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..3000 {
            let n = rng.below(12);
            let m = rng.below(12);
            let a: Vec<u8> = (0..n).map(|_| rng.below(3) as u8).collect();
            let b: Vec<u8> = (0..m).map(|_| rng.below(3) as u8).collect();
            let slow = slow_within(&a, &b);
            for most in 0..4 {
                let expected = (slow <= most).then_some(slow);
                assert_eq!(within(&a, &b, most), expected, "{a:?} {b:?} {most}");
            }
        }
    }
}
