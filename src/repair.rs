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

use std::time::Duration;

use crate::diagnostic::SuggestedEdit;
use crate::pmn::{GameResult, PlySyntax, Record};
use crate::replay::said_ply;

mod apply;
mod candidates;
mod infer;
mod rank;
mod search;
mod shown;
mod suggest;

pub use apply::apply_edit;
pub use infer::{describe_inference, describe_verdicts, infer_rules, Inference, RulesVerdict};
pub use rank::plausibility;
pub use search::{search, search_from, RepairSearch};
pub use suggest::{
    attach_suggestions, attach_suggestions_from_text, fixed_text, repair_text, suggest, Fix,
    GameRepaired, Suggestions, Take,
};

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

    /// The edit of a record held from main-line ply `base` on: its ply indices less
    /// `base`.
    pub(crate) fn shifted(&self, base: usize) -> Edit {
        let mut edit = self.clone();
        match &mut edit {
            Edit::Replace { at, .. }
            | Edit::Insert { at, .. }
            | Edit::Delete { at }
            | Edit::Swap { at }
            | Edit::Checkpoint { after: at, .. } => *at = at.saturating_sub(base),
            Edit::Result { .. } => {}
        }
        edit
    }

    /// The edit structured, for the JSON form, of the record it edits.
    pub fn structured(&self, record: &Record) -> SuggestedEdit {
        let written = shown::Written::of_record(record);
        self.structured_in(&shown::Plies::Written(&written), record)
    }

    /// [`Edit::structured`] with the record's main-line plies given: `written` (the
    /// record gives its result and tags).
    pub(crate) fn structured_in(
        &self,
        written: &shown::Plies<'_>,
        record: &Record,
    ) -> SuggestedEdit {
        let text = |i: usize| written.get(i).unwrap_or_default();
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
                (written.stones(*after))
                    .map(|args| format!("[%stones {args}]"))
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

    /// In words, with 1-based ply numbers, of the main-line plies `written`.
    pub(crate) fn describe(&self, written: &shown::Plies<'_>) -> String {
        let text = |i: usize| {
            (written.get(i))
                .map(|s| crate::escape::quoted(&s).into_owned())
                .unwrap_or_default()
        };
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

#[cfg(test)]
mod tests {
    use super::candidates::{choices, stone_choices};
    use super::rank::distance;
    use super::*;
    use crate::geometry::Pit;
    use crate::pmn;
    use crate::replay::PlyInput;

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

    /// A ply's syntax as the reader reads it.
    fn ply(text: &str) -> PlySyntax {
        let again = crate::pmn::parse_str(&format!("[Game \"Tsoro\"]\n\n1. {text} *\n"));
        again[0]
            .record
            .main_line()
            .next()
            .unwrap()
            .ply
            .syntax
            .clone()
    }

    #[test]
    fn plies_shown_edited_are_the_main_line_of_the_record_edited() {
        let text = "[Game \"Tsoro\"]\n\n1. a3 $1 {c} d10 (d11 {[%stones 1 1]}) 2. a4 {[%stones 3 4]} d9 {x [%stones 5 6]} 3. b5 *\n";
        let game = &crate::pmn::parse_str(text)[0];
        let record = &game.record;
        let plies = record.main_line().count();
        let mut edits = vec![Edit::Result {
            result: GameResult::Draw,
        }];
        for at in 0..=plies + 1 {
            edits.push(Edit::Replace {
                at,
                with: ply("c7"),
            });
            edits.push(Edit::Insert { at, ply: ply("c7") });
            edits.push(Edit::Delete { at });
            edits.push(Edit::Swap { at });
        }
        // A checkpoint after a ply of the record (the search corrects none other).
        for after in 0..plies {
            edits.push(Edit::Checkpoint {
                after,
                south: 3,
                north: 3,
            });
        }
        // Held from the record, and read from the text: the record then held in part.
        let whole = shown::Written::of_record(record);
        let cut = (pmn::Reader::new(text.as_bytes()).next_text().unwrap()).parse_cut(0);
        let read = shown::Written::read(&cut, plies, std::slice::from_ref(&(0..plies)));
        for written in [&whole, &read] {
            let written = shown::Plies::Written(written);
            for a in &edits {
                let once = shown::Plies::Edited(a, &written);
                let applied = apply_edit(record, a);
                for b in &edits {
                    if matches!(b, Edit::Checkpoint { after, .. } if *after >= once.len()) {
                        continue;
                    }
                    let twice = shown::Plies::Edited(b, &once);
                    let applied = apply_edit(&applied, b);
                    let inputs = PlyInput::main_line(&applied);
                    let whole: Vec<(String, Option<String>)> = (inputs.iter())
                        .map(|i| {
                            let stones = i.commands.iter().find(|c| c.name == "stones");
                            (
                                i.syntax.to_string(),
                                stones.map(|c| c.args.as_str().to_string()),
                            )
                        })
                        .collect();
                    let shown: Vec<(String, Option<String>)> = (0..twice.len())
                        .map(|i| (twice.get(i).unwrap_or_default(), twice.stones(i)))
                        .collect();
                    assert_eq!(shown, whole, "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_repaired_text_written_from_the_reader_is_the_record_repaired() {
        let games = [
            "[Game \"Tsoro\"]\n[Result \"1-0\"]\n\n1. a3 $1 $2 {c} d10 (d11 {v} (a2)) 2. a4 {[%stones 3 4]} d9 $4 3. b5 1-0\n",
            "[Game \"Tsoro\"]\n[SetUp \"1\"]\n[Position \"2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 N\"]\n\n1... d10 ; line\n2. a3 d9\n",
            "[Game \"Tsoro\"]\n\n{s} 1. a3 $1 {[%stones 1 2] c} (d11 {v} $2 (a2 $3)) d10 $2 $3 {x [%stones 3 4]} {[%stones 7 7]} 2. a4 {[%stones 5 6]} (a5) d9 $4 3. b5 *\n",
            // Checkpoints before the first ply, in a variation, in a line comment, two
            // in one comment and after the last ply; a swap across a variation.
            "[Game \"Tsoro\"]\n\n{[%stones 1 1]} 1. a3! $3 {x [%stones 2 2] y [%stones 9 9]} d10?! (d11 {[%stones 5 5]} a2 $1) {[%foul] [%stones 7 7]} 2. a4 ;[%stones 4 4] z\nd9 $4 {[%stones 6 6]} *\n",
        ];
        for text in games {
            let game = &crate::pmn::parse_str(text)[0];
            let plies = game.record.main_line().count();
            let mut edits = vec![
                Edit::Result {
                    result: GameResult::Draw,
                },
                Edit::Result {
                    result: GameResult::SouthWins,
                },
            ];
            for at in 0..=plies + 1 {
                edits.push(Edit::Replace {
                    at,
                    with: ply("c7"),
                });
                edits.push(Edit::Insert { at, ply: ply("c7") });
                edits.push(Edit::Delete { at });
                edits.push(Edit::Swap { at });
            }
            // A checkpoint after a ply of the record (the search corrects none other).
            for after in 0..plies + 1 {
                edits.push(Edit::Checkpoint {
                    after,
                    south: 9,
                    north: 8,
                });
            }
            let pairs = (edits.iter()).flat_map(|a| {
                std::iter::once(vec![a]).chain(edits.iter().map(move |b| vec![a, b]))
            });
            for pair in pairs {
                let mut record = game.record.clone();
                let mut in_range = true;
                for edit in &pair {
                    let plies = record.main_line().count();
                    in_range &= !matches!(edit, Edit::Checkpoint { after, .. } if *after >= plies);
                    record = apply::edit_record(&record, edit, true);
                }
                if !in_range {
                    continue;
                }
                let whole = pmn::write_game(&record);
                let read =
                    apply::edited_text(&game.text, game.offset, game.line, &game.record, &pair);
                assert_eq!(read, whole, "{pair:?}");
            }
        }
    }
}
