//! `sow diff`: two transcriptions of one game compared. Their plies are aligned by
//! edit distance ([`crate::align`]: same, changed, inserted and deleted plies), each is
//! replayed to say how far it goes and where it stops, and the position where they part
//! and the tags that differ are named.
//!
//! Plies compare as written (their syntax, without a suffix annotation): `a3` and `a3!`
//! are the same ply, `a3` and `a3-b5` are not, though both may be read as one move.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::align::{align, Step};
use crate::corpus::Input;
use crate::error::CommandError;
use crate::escape::escaped_owned;
use crate::pmn::{GameText, Ply, Problem, Record, Visitor};
use crate::position::Position;
use crate::replay::{PlyView, ReplayOptions, Replayer, Trace};
use crate::rules::Rules;
use crate::stats::set_of;

/// One of the two games compared: where it is and what its replay found.
#[derive(Clone, Debug, Serialize)]
pub struct Transcription {
    /// The input's name.
    pub file: String,
    /// The game's number in its input, from 1.
    pub game: usize,
    /// The game's set (game, board and rule options), when its tags are understood.
    pub set: Option<String>,
    /// Plies written in its main line.
    pub plies: usize,
    /// Plies replayed: all of them, or those before the first error.
    pub replayed: usize,
    /// The first error, when the replay stops at one.
    pub stop: Option<Stop>,
}

/// Where a replay stops.
#[derive(Clone, Debug, Serialize)]
pub struct Stop {
    /// The ply of the error (none for an error of the tags).
    pub ply: Option<u32>,
    /// The diagnostic's code, as `sow validate` gives it.
    pub code: &'static str,
    pub message: String,
}

/// A ply of one record without its like in the other, or written otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edit {
    /// `changed`, `inserted` (in B only) or `deleted` (in A only).
    pub kind: &'static str,
    /// The ply's number in A, from 1 (for an insertion: none).
    pub ply_a: Option<usize>,
    /// The ply's number in B, from 1 (for a deletion: none).
    pub ply_b: Option<usize>,
    /// The ply as A writes it.
    pub a: Option<String>,
    /// The ply as B writes it.
    pub b: Option<String>,
}

/// A tag whose values differ (absent on one side counts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TagDifference {
    pub name: String,
    pub a: Option<String>,
    pub b: Option<String>,
}

/// The comparison of two games.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub a: Transcription,
    pub b: Transcription,
    /// Plies both write alike from the start.
    pub common_start: usize,
    /// Every ply written otherwise, in the order of the games.
    pub edits: Vec<Edit>,
    /// Plies aligned as the same.
    pub same: usize,
    /// The position after the plies both start with (PMN `Position` string), when the
    /// records differ and one of them replays that far.
    pub parting_position: Option<String>,
    /// `a`, `b`, or `both` when they replay equally far.
    pub further: &'static str,
    pub tags: Vec<TagDifference>,
}

impl Comparison {
    /// Whether the records differ in more plies than they share: two games, not two
    /// transcriptions of one.
    pub fn unrelated(&self) -> bool {
        self.edits.len() > self.same
    }

    /// Whether the two records hold the same plies and tags.
    pub fn identical(&self) -> bool {
        self.edits.is_empty() && self.tags.is_empty()
    }
}

/// A game's main-line plies as written, read from its text: one string and where each
/// ply ends in it.
#[derive(Default)]
struct PlyTexts {
    text: String,
    ends: Vec<usize>,
}

impl PlyTexts {
    fn of(game: &GameText) -> (Record, PlyTexts) {
        let mut plies = PlyTexts::default();
        let tags = game.read(&mut plies).unwrap_or_default();
        let record = Record {
            tags,
            moves: Vec::new(),
            result: None,
        };
        (record, plies)
    }

    fn each(&self) -> Vec<&str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        (starts.zip(&self.ends))
            .map(|(start, &end)| &self.text[start..end])
            .collect()
    }
}

impl Visitor for PlyTexts {
    fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
        use std::fmt::Write as _;
        let _ = write!(self.text, "{}", ply.syntax);
        self.ends.push(self.text.len());
        ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: Problem) {}
}

/// Replays a game from its text: its trace (without its plies), how many plies it
/// replayed, and the position after ply `at` (0: the start) if it reached it.
fn replay_to(
    game: &GameText,
    options: &ReplayOptions,
    at: usize,
) -> (Trace, usize, Option<Position>) {
    let mut replayed = 0;
    let mut after = None;
    let mut each = |_: &Rules, ply: &PlyView| {
        replayed += 1;
        if replayed == at {
            after = ply.after.cloned();
        }
    };
    let every = |_: &Record| true;
    let trace = Replayer::new()
        .replay_text_each(game, options, &every, Some(&mut each))
        .map(|(_, trace)| trace)
        .unwrap_or_default();
    let after = match at {
        0 => trace.start.clone(),
        _ => after,
    };
    (trace, replayed, after)
}

fn transcription(file: &str, game: usize, trace: &Trace, replayed: usize) -> Transcription {
    Transcription {
        file: file.to_string(),
        game,
        set: trace.rules.as_ref().map(set_of),
        plies: trace.plies_written,
        replayed,
        stop: trace.first_error().map(|d| Stop {
            ply: d.ply,
            code: d.code.as_str(),
            message: d.message.clone(),
        }),
    }
}

/// The tags of the two records whose values differ, in the order A lists them, then
/// those only B has.
fn tag_differences(a: &Record, b: &Record) -> Vec<TagDifference> {
    let mut names: Vec<&str> = Vec::new();
    for tag in a.tags.iter().chain(&b.tags) {
        if !names.contains(&tag.name.as_ref()) {
            names.push(&tag.name);
        }
    }
    names
        .into_iter()
        .filter_map(|name| {
            let (va, vb) = (a.tag(name), b.tag(name));
            (va != vb).then(|| TagDifference {
                name: name.to_string(),
                a: va.map(String::from),
                b: vb.map(String::from),
            })
        })
        .collect()
}

/// Compares game `a` (number `game_a` of `file_a`) with game `b`. Each game is read
/// from its text twice, for its plies and to replay it: no syntax tree is built, and
/// of the positions only the one where the games part is kept.
pub fn compare(
    (file_a, game_a, a): (&str, usize, &GameText),
    (file_b, game_b, b): (&str, usize, &GameText),
    options: &ReplayOptions,
) -> Comparison {
    let options = &ReplayOptions {
        keep_positions: true,
        keep_laps: false,
        ..options.clone()
    };
    let ((record_a, texts_a), (record_b, texts_b)) = (PlyTexts::of(a), PlyTexts::of(b));
    let (plies_a, plies_b) = (texts_a.each(), texts_b.each());
    let steps = align(&plies_a, &plies_b);
    let common_start = steps.iter().take_while(|s| !s.is_edit()).count();
    let edits: Vec<Edit> = steps
        .iter()
        .filter_map(|&step| {
            let (kind, i, j) = match step {
                Step::Same(..) => return None,
                Step::Changed(i, j) => ("changed", Some(i), Some(j)),
                Step::Inserted(j) => ("inserted", None, Some(j)),
                Step::Deleted(i) => ("deleted", Some(i), None),
            };
            Some(Edit {
                kind,
                ply_a: i.map(|i| i + 1),
                ply_b: j.map(|j| j + 1),
                a: i.map(|i| plies_a[i].to_string()),
                b: j.map(|j| plies_b[j].to_string()),
            })
        })
        .collect();
    let same = steps.len() - edits.len();
    let (trace_a, replayed_a, parting_a) = replay_to(a, options, common_start);
    let (trace_b, replayed_b, parting_b) = replay_to(b, options, common_start);
    let parting_position = (!edits.is_empty())
        .then(|| parting_a.or(parting_b).map(|p| p.to_string()))
        .flatten();
    let further = match replayed_a.cmp(&replayed_b) {
        std::cmp::Ordering::Greater => "a",
        std::cmp::Ordering::Less => "b",
        std::cmp::Ordering::Equal => "both",
    };
    Comparison {
        a: transcription(file_a, game_a, &trace_a, replayed_a),
        b: transcription(file_b, game_b, &trace_b, replayed_b),
        common_start,
        edits,
        same,
        parting_position,
        further,
        tags: tag_differences(&record_a, &record_b),
    }
}

/// A path as `sow diff` takes it: `FILE`, or `FILE:K` for its game K when no file is
/// named so. The game is `None` when not given with the path.
pub fn split_game(path: &Path) -> (PathBuf, Option<usize>) {
    if path.exists() {
        return (path.to_path_buf(), None);
    }
    let text = path.to_string_lossy();
    match text.rsplit_once(':') {
        Some((file, k))
            if !file.is_empty() && !k.is_empty() && k.bytes().all(|c| c.is_ascii_digit()) =>
        {
            (PathBuf::from(file), k.parse().ok())
        }
        _ => (path.to_path_buf(), None),
    }
}

/// Game `number` (from 1) of `input`, read up to it and no further.
pub fn game_of(
    input: &Input,
    number: usize,
    max_game_bytes: Option<usize>,
) -> Result<GameText, CommandError> {
    let name = input.name();
    if number == 0 {
        return Err(CommandError::Usage(format!(
            "{name}: games are numbered from 1"
        )));
    }
    let mut games = input
        .games(max_game_bytes)
        .map_err(|e| CommandError::io(&name, e))?;
    let mut read = 0;
    while let Some(game) = games.next_text() {
        if let Some(p) = game.io_error() {
            let message = p
                .message
                .trim_start_matches("the input could not be read: ");
            return Err(CommandError::io(
                &name,
                io::Error::other(message.to_string()),
            ));
        }
        if !game.is_game() {
            continue;
        }
        read += 1;
        if read == number {
            return Ok(game);
        }
    }
    Err(CommandError::Usage(match read {
        0 => format!("{name} holds no game"),
        1 => format!("{name} has 1 game, not {number}"),
        n => format!("{name} has {n} games, not {number}"),
    }))
}

/// Edits listed in the human form at most; the JSON form lists them all.
const EDITS_LISTED: usize = 40;

fn plies(n: usize) -> String {
    match n {
        1 => "1 ply".into(),
        n => format!("{n} plies"),
    }
}

fn describe(side: &str, t: &Transcription) -> String {
    let set = t.set.as_deref().unwrap_or("rules not understood");
    let how = match &t.stop {
        None => "replays completely".to_string(),
        Some(stop) => match stop.ply {
            Some(ply) => format!("stops at ply {ply}: {} {}", stop.code, stop.message),
            None => format!("cannot be replayed: {} {}", stop.code, stop.message),
        },
    };
    format!(
        "{side}: {} game {} ({set}), {}, {how}",
        t.file,
        t.game,
        plies(t.plies)
    )
}

fn quoted(v: &Option<String>) -> String {
    v.as_ref()
        .map_or_else(|| "(none)".to_string(), |v| format!("{v:?}"))
}

/// The comparison for a reader: the two games, where they part, the plies written
/// otherwise, which replays further, and the tags that differ. Record text is escaped.
pub fn write_human(c: &Comparison, out: &mut dyn Write) -> io::Result<()> {
    let mut text = String::new();
    let mut line = |s: String| {
        text.push_str(&s);
        text.push('\n');
    };
    line(describe("A", &c.a));
    line(describe("B", &c.b));
    if c.edits.is_empty() {
        line(format!("The plies are the same ({}).", plies(c.same)));
    } else {
        let start = match c.common_start {
            0 => "They differ from the first ply".to_string(),
            n => format!(
                "They agree on the first {}, and part after ply {n}",
                plies(n)
            ),
        };
        line(format!(
            "{start}; {} aligned alike, {} written otherwise.",
            plies(c.same),
            plies(c.edits.len())
        ));
        if c.unrelated() {
            line("They differ in more plies than they share: probably not one game.".into());
        }
        if let Some(position) = &c.parting_position {
            line(format!("Position where they part: {position}"));
        }
        let number = |n: Option<usize>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
        for e in c.edits.iter().take(EDITS_LISTED) {
            let what = match e.kind {
                "changed" => format!(
                    "changed   {} -> {}",
                    e.a.as_deref().unwrap_or(""),
                    e.b.as_deref().unwrap_or("")
                ),
                "inserted" => format!("inserted  {} (B only)", e.b.as_deref().unwrap_or("")),
                _ => format!("deleted   {} (A only)", e.a.as_deref().unwrap_or("")),
            };
            line(format!(
                "  ply {:>4} / {:<4} {what}",
                number(e.ply_a),
                number(e.ply_b)
            ));
        }
        if c.edits.len() > EDITS_LISTED {
            line(format!(
                "  ... and {} more (--format json lists every one)",
                c.edits.len() - EDITS_LISTED
            ));
        }
    }
    line(match c.further {
        "a" => format!(
            "A replays further: {} against {}.",
            plies(c.a.replayed),
            c.b.replayed
        ),
        "b" => format!(
            "B replays further: {} against {}.",
            plies(c.b.replayed),
            c.a.replayed
        ),
        _ => format!("Both replay {}.", plies(c.a.replayed)),
    });
    if c.tags.is_empty() {
        line("The tags are the same.".into());
    } else {
        line("Tags that differ (A / B):".into());
        for t in &c.tags {
            line(format!("  {}: {} / {}", t.name, quoted(&t.a), quoted(&t.b)));
        }
    }
    out.write_all(escaped_owned(text).as_bytes())
}

/// The comparison as JSON Lines: a line for each game (`"kind": "game"`), each edit
/// (`"kind": "ply"`) and each differing tag (`"kind": "tag"`), then a summary.
pub fn write_json(c: &Comparison, out: &mut dyn Write) -> io::Result<()> {
    let mut line = |value: serde_json::Value| writeln!(out, "{value}");
    for (side, t) in [("a", &c.a), ("b", &c.b)] {
        let mut v = serde_json::to_value(t).expect("a transcription serializes");
        v["kind"] = "game".into();
        v["side"] = side.into();
        line(v)?;
    }
    for e in &c.edits {
        let mut v = serde_json::to_value(e).expect("an edit serializes");
        v["op"] = v["kind"].take();
        v["kind"] = "ply".into();
        line(v)?;
    }
    for t in &c.tags {
        let mut v = serde_json::to_value(t).expect("a tag serializes");
        v["kind"] = "tag".into();
        line(v)?;
    }
    line(serde_json::json!({
        "kind": "summary",
        "identical": c.identical(),
        "common_start": c.common_start,
        "same": c.same,
        "edits": c.edits.len(),
        "changed": c.edits.iter().filter(|e| e.kind == "changed").count(),
        "inserted": c.edits.iter().filter(|e| e.kind == "inserted").count(),
        "deleted": c.edits.iter().filter(|e| e.kind == "deleted").count(),
        "parting_position": c.parting_position,
        "further": c.further,
        "unrelated": c.unrelated(),
        "tags_differ": c.tags.len(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> crate::pmn::ParsedGame {
        crate::pmn::parse_str(text).remove(0)
    }

    #[test]
    fn tags_differ_by_value_or_by_absence() {
        let a = game("[Game \"Tsoro\"]\n[Site \"Mutoko\"]\n[Date \"1964\"]\n\n*\n");
        let b = game("[Game \"Tsoro\"]\n[Date \"1965\"]\n[Round \"2\"]\n\n*\n");
        let names: Vec<String> = tag_differences(&a.record, &b.record)
            .into_iter()
            .map(|t| format!("{}={}/{}", t.name, quoted(&t.a), quoted(&t.b)))
            .collect();
        assert_eq!(
            names,
            [
                "Site=\"Mutoko\"/(none)",
                "Date=\"1964\"/\"1965\"",
                "Round=(none)/\"2\""
            ]
        );
    }
}
