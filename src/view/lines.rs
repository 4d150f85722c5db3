//! A game's lines as the page's data lists them: the positions and plies of its main
//! line and of each variation, written as JSON while the replay plays each ply, never
//! kept as values. The JSON is held in memory while it is small, and in a temporary
//! file past a bound ([`Spool`]): a position a ply makes a page many times its game's text.

use std::io::{self, Write};
use std::ops::Range;

use super::page::json_in_script;
use super::{position_changes, PlyView};
use crate::position::Position;
use crate::spool::Spool;

/// The positions and the plies of a game's lines, each list written one line after the
/// other: a line's are a range of each.
#[derive(Debug)]
pub(super) struct GameData {
    positions: Spool,
    plies: Spool,
}

/// Where a line's positions and plies are in its game's data, and what begins its
/// positions (see [`LineWriter::finish`]).
#[derive(Debug)]
pub(super) struct LineSpan {
    /// The JSON of the line's first positions, before those in `positions`.
    head: String,
    positions: Range<u64>,
    plies: Range<u64>,
    /// The plies written.
    pub(super) plies_written: usize,
}

impl GameData {
    pub(super) fn new() -> GameData {
        GameData {
            positions: Spool::new(),
            plies: Spool::new(),
        }
    }

    /// The writer of the game's next line: the one before it must be finished.
    pub(super) fn line(&mut self) -> LineWriter<'_> {
        let (positions, plies) = (self.positions.len(), self.plies.len());
        LineWriter {
            data: self,
            positions,
            plies,
            first: None,
            last: None,
            plies_written: 0,
            failed: None,
        }
    }

    /// Writes a line's positions as a JSON array, each written as its changes from the
    /// one before when that is shorter (see [`position_changes`]). Read once every line
    /// of the game is written: nothing is written after a read.
    pub(super) fn write_positions(
        &mut self,
        line: &LineSpan,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        self.positions.flush()?;
        out.write_all(b"[")?;
        out.write_all(line.head.as_bytes())?;
        self.positions.copy(&line.positions, out)?;
        out.write_all(b"]")
    }

    /// Writes a line's plies as a JSON array.
    pub(super) fn write_plies(&mut self, line: &LineSpan, out: &mut dyn Write) -> io::Result<()> {
        self.plies.flush()?;
        out.write_all(b"[")?;
        self.plies.copy(&line.plies, out)?;
        out.write_all(b"]")
    }
}

/// Writes one line's plies, and the position after each, as the replay plays them.
pub(super) struct LineWriter<'d> {
    data: &'d mut GameData,
    /// Where the line's positions and plies begin.
    positions: u64,
    plies: u64,
    /// The position after the line's first ply, written once the line's start is
    /// known (see [`LineWriter::finish`]), and the position after its last.
    first: Option<String>,
    last: Option<String>,
    plies_written: usize,
    failed: Option<io::Error>,
}

impl LineWriter<'_> {
    /// Writes a ply, and the position after it when it is known.
    pub(super) fn ply(&mut self, ply: &PlyView, after: Option<&Position>) {
        if self.failed.is_some() {
            return;
        }
        let mut written = match self.plies_written {
            0 => Ok(()),
            _ => self.data.plies.write_all(b","),
        };
        written = written.and_then(|()| json_in_script(ply, &mut self.data.plies));
        self.plies_written += 1;
        if let (Ok(()), Some(after)) = (&written, after) {
            let after = after.to_string();
            match &self.last {
                // The first is written after the start, which comes first.
                None => self.first = Some(after.clone()),
                Some(before) => {
                    let changes = position_changes(before, &after);
                    written = self.data.positions.write_all(b",").and_then(|()| {
                        json_in_script(changes.as_ref().unwrap_or(&after), &mut self.data.positions)
                    });
                }
            }
            self.last = Some(after);
        }
        if let Err(e) = written {
            self.failed = Some(e);
        }
    }

    /// The line written, beginning at `start` (none: no position), and where it is.
    pub(super) fn finish(self, start: Option<&Position>) -> io::Result<LineSpan> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let mut head = Vec::new();
        let start = start.map(Position::to_string);
        if let Some(start) = &start {
            json_in_script(start, &mut head)?;
        }
        if let Some(first) = &self.first {
            let changes = match &start {
                Some(start) => {
                    head.push(b',');
                    position_changes(start, first)
                }
                None => None,
            };
            json_in_script(changes.as_ref().unwrap_or(first), &mut head)?;
        }
        Ok(LineSpan {
            head: String::from_utf8(head).expect("JSON is text"),
            positions: self.positions..self.data.positions.len(),
            plies: self.plies..self.data.plies.len(),
            plies_written: self.plies_written,
        })
    }
}
