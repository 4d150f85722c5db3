//! The plies a suggestion shows: the written text of a game's main-line plies near its
//! edits, read from the record when it holds the whole main line, else from the game's
//! text, and those plies with the edits applied, without a copy of the record.

use std::ops::{ControlFlow, Range};

use crate::pmn::{self, Command, ParsedGame, PlySyntax};
use crate::replay::PlyInput;

use super::search::held_plies;
use super::Edit;

/// Main-line plies of a game, `len` in all, held in stretches: each ply's text and the
/// arguments of the first `[%stones]` written after it.
#[derive(Debug, Default)]
pub(crate) struct Written {
    len: usize,
    stretches: Vec<Stretch>,
}

/// Plies `from..from + ends.len()`: their texts one after another, where each ends, and
/// the `[%stones]` arguments after those that have one.
#[derive(Debug)]
struct Stretch {
    from: usize,
    text: String,
    ends: Vec<usize>,
    stones: Vec<(usize, String)>,
}

impl Written {
    /// The plies of a game in the ranges `wanted` (of its `plies` main-line plies):
    /// read from its record when it holds them all, else from its text.
    pub(crate) fn read(game: &ParsedGame, plies: usize, wanted: &[Range<usize>]) -> Written {
        let mut written = Written {
            len: plies,
            stretches: Vec::new(),
        };
        let end = wanted.iter().map(|r| r.end).max().unwrap_or(0);
        if held_plies(game) >= plies {
            for (i, input) in PlyInput::main_line(&game.record).iter().enumerate() {
                if i >= end {
                    break;
                }
                if wanted.iter().any(|r| r.contains(&i)) {
                    written.push(i, input.syntax, input.commands.iter().copied());
                }
            }
        } else {
            let mut reading = Reading {
                written: &mut written,
                wanted,
                end,
                read: 0,
                kept: false,
            };
            pmn::parse::read_game(&game.text, game.offset, game.line, &mut reading);
        }
        written
    }

    /// The plies of a record's whole main line.
    pub(crate) fn of_record(record: &pmn::Record) -> Written {
        let game = ParsedGame {
            record: record.clone(),
            problems: Vec::new(),
            text: String::new(),
            offset: 0,
            line: 1,
        };
        let plies = held_plies(&game);
        Written::read(&game, plies, std::slice::from_ref(&(0..plies)))
    }

    /// Holds ply `index`, the next after those held or the first of a stretch.
    fn push<'c>(
        &mut self,
        index: usize,
        syntax: &PlySyntax,
        commands: impl Iterator<Item = &'c Command>,
    ) {
        let joins = (self.stretches.last()).is_some_and(|s| s.from + s.ends.len() == index);
        if !joins {
            self.stretches.push(Stretch {
                from: index,
                text: String::new(),
                ends: Vec::new(),
                stones: Vec::new(),
            });
        }
        let Some(stretch) = self.stretches.last_mut() else {
            return;
        };
        use std::fmt::Write as _;
        let _ = write!(stretch.text, "{syntax}");
        stretch.ends.push(stretch.text.len());
        for command in commands {
            self.stones(index, command);
        }
    }

    /// A command after ply `index`, held: a `[%stones]`, when it is the first after it.
    fn stones(&mut self, index: usize, command: &Command) {
        let Some(stretch) = self.stretches.last_mut() else {
            return;
        };
        let has = stretch.stones.last().is_some_and(|(i, _)| *i == index);
        if command.name == "stones" && !has {
            stretch
                .stones
                .push((index, command.args.as_str().to_string()));
        }
    }

    fn stretch(&self, i: usize) -> Option<&Stretch> {
        (self.stretches.iter()).find(|s| s.from <= i && i < s.from + s.ends.len())
    }

    fn get(&self, i: usize) -> Option<&str> {
        let s = self.stretch(i)?;
        let k = i - s.from;
        let start = if k == 0 { 0 } else { s.ends[k - 1] };
        s.text.get(start..s.ends[k])
    }
}

/// The reader's events of a game's text, its main-line plies in the ranges wanted held
/// (variations are skipped).
struct Reading<'w> {
    written: &'w mut Written,
    wanted: &'w [Range<usize>],
    /// Past the last ply wanted.
    end: usize,
    /// Main-line plies read.
    read: usize,
    /// Whether the last ply read is held.
    kept: bool,
}

impl pmn::Visitor for Reading<'_> {
    fn ply(&mut self, ply: pmn::Ply) -> ControlFlow<()> {
        let i = self.read;
        if i >= self.end {
            return ControlFlow::Break(());
        }
        self.read += 1;
        self.kept = self.wanted.iter().any(|r| r.contains(&i));
        if self.kept {
            self.written.push(i, &ply.syntax, std::iter::empty());
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, comment: pmn::Comment) -> ControlFlow<()> {
        if self.kept {
            for command in &comment.commands {
                self.written.stones(self.read - 1, command);
            }
        }
        ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: pmn::Problem) {}
}

/// Main-line plies of a game as an edit is shown: those written, or those of an edit
/// made to other plies, as [`super::apply_edit`] makes it to a record.
pub(crate) enum Plies<'a> {
    Written(&'a Written),
    Edited(&'a Edit, &'a Plies<'a>),
}

impl Plies<'_> {
    /// The plies in all.
    pub(crate) fn len(&self) -> usize {
        match self {
            Plies::Written(w) => w.len,
            Plies::Edited(edit, under) => {
                let n = under.len();
                match edit {
                    Edit::Insert { .. } => n + 1,
                    Edit::Delete { at } if *at < n => n - 1,
                    _ => n,
                }
            }
        }
    }

    /// The text of ply `i` (from 0), when it is held.
    pub(crate) fn get(&self, i: usize) -> Option<String> {
        let (edit, under) = match self {
            Plies::Written(w) => return w.get(i).map(str::to_string),
            Plies::Edited(edit, under) => (edit, under),
        };
        let n = under.len();
        match edit {
            Edit::Replace { at, with } if *at == i && i < n => Some(with.to_string()),
            Edit::Insert { at, ply } => {
                let at = (*at).min(n);
                match i.cmp(&at) {
                    std::cmp::Ordering::Less => under.get(i),
                    std::cmp::Ordering::Equal => Some(ply.to_string()),
                    std::cmp::Ordering::Greater => under.get(i - 1),
                }
            }
            Edit::Delete { at } if *at < n && i >= *at => under.get(i + 1),
            Edit::Swap { at } if at + 1 < n && i == *at => under.get(i + 1),
            Edit::Swap { at } if at + 1 < n && i == at + 1 => under.get(*at),
            _ => under.get(i),
        }
    }

    /// The arguments of the first `[%stones]` after ply `i` (from 0), when it is held:
    /// the comments after a ply stay in place whatever the edit.
    pub(crate) fn stones(&self, i: usize) -> Option<String> {
        let (edit, under) = match self {
            Plies::Written(w) => {
                let s = w.stretch(i)?;
                let found = s.stones.iter().find(|(k, _)| *k == i);
                return found.map(|(_, args)| args.clone());
            }
            Plies::Edited(edit, under) => (edit, under),
        };
        let n = under.len();
        match edit {
            Edit::Insert { at, .. } => {
                let at = (*at).min(n);
                match i.cmp(&at) {
                    std::cmp::Ordering::Less => under.stones(i),
                    std::cmp::Ordering::Equal => None,
                    std::cmp::Ordering::Greater => under.stones(i - 1),
                }
            }
            // The comments after a deleted ply follow the ply before it.
            Edit::Delete { at } if *at < n && i + 1 == *at => {
                under.stones(i).or_else(|| under.stones(*at))
            }
            Edit::Delete { at } if *at < n && i >= *at => under.stones(i + 1),
            Edit::Checkpoint {
                after,
                south,
                north,
            } if *after == i => under.stones(i).map(|_| {
                let args = pmn::Args::split(&format!("{south} {north}"));
                args.as_str().to_string()
            }),
            _ => under.stones(i),
        }
    }
}

/// The plies a suggestion of `edits` shows of a game of `plies` main-line plies: those
/// around each edit (the result's, the last), and those between its edits.
pub(super) fn shown_range<'e>(edits: impl Iterator<Item = &'e Edit>, plies: usize) -> Range<usize> {
    let (mut from, mut to) = (usize::MAX, 0);
    for edit in edits {
        let at = match edit {
            Edit::Result { .. } => plies.saturating_sub(1),
            e => e.at(),
        };
        from = from.min(at.saturating_sub(3));
        to = to.max(at.saturating_add(6));
    }
    from.min(plies)..to.min(plies)
}
