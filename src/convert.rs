//! `sow convert`: records in other forms, read from replay traces.
//!
//! Every game is replayed once ([`crate::replay::replay`]); each output form is a
//! reader of the trace and of the record. Nothing here moves a stone.
//!
//! - `pmn`: the export form, with the `Board` tag dropped when it is the game's default
//!   and the `Rules` tag rewritten as [`Rules::options_tag`] (dropped when empty), when
//!   the rules could be built; otherwise the tags stay as written.
//! - `json` / `jsonl`: the JSON form of the record (the serde form of
//!   [`crate::pmn::Record`], so `pmn::json::from_json` reads it back) with two more
//!   keys: `source` (file and game number) and `replay` (the rules and, per ply, its
//!   effect and the position after it). `json` is one array; `jsonl` one game a line.
//! - `csv`: one row per ply: `file, game, ply, player, from, lift, end, arrival,
//!   capture, bonus, text` (pits with stones as `b6:1 a6:4`).
//! - `long`: every ply with its whole effect spelled out, as readable text.
//! - `relative`: the moves in seat-relative numbers (docs/relative.md), read back with
//!   `--from relative`.
//! - `--from json` reads the `json`/`jsonl` output back (its records; the rest ignored).
//! - `ludii`: a Ludii-style move list (docs/ludii.md), read back with `--from ludii`.
//!
//! A game with an error is converted as far as it replays; the rest of its move text is
//! kept verbatim in comments after a note saying where and why the replay stopped
//! ([`REST_NOTE`]), so that nothing is lost. The only change made to that text: `[%`
//! is written `[ %`, so that the commands in it are not read as checks of the last ply
//! replayed.

pub mod numbering;

use std::fmt::Write as _;
use std::io::{self, Read, Write as _};

use serde::Serialize;

use crate::cli::{ConvertFrom, ConvertTo};
use crate::corpus::{Filter, Input};
use crate::error::CommandError;
use crate::geometry::{Pit, Side};
use crate::moves::Move;
use crate::pmn::{self, Comment, CommentKind, Element, ParsedGame, Record, Span, Tag};
use crate::replay::{replay, rules_of, ReplayOptions, Trace};
use crate::rules::{Game, Rules};

use numbering::Numbering;

/// The start of the comment that says where a game's replay stopped.
pub const REST_NOTE: &str = "sow convert: not replayed from ply";

/// The tag a relative record carries.
pub const NUMBERING_TAG: &str = "Numbering";

/// The part of a game that did not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rest {
    /// The first ply not converted (from 1).
    pub ply: usize,
    /// Why the replay stopped.
    pub reason: String,
    /// The move text from that ply to the result token, as written.
    pub text: String,
}

/// One game, replayed and ready to be written in any form.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The input's name.
    pub file: String,
    /// The game's number in its file, from 1.
    pub game: usize,
    /// The replay.
    pub trace: Trace,
    /// The record as converted: tags normalised, move text cut after the last ply
    /// replayed, the rest in comments.
    pub record: Record,
    /// What did not replay.
    pub rest: Option<Rest>,
}

/// Replays one game and prepares its conversion.
pub fn convert_game(
    file: &str,
    game: usize,
    parsed: &ParsedGame,
    options: &ReplayOptions,
) -> Conversion {
    let trace = replay(parsed, options);
    let mut record = parsed.record.clone();
    if let Some(rules) = &trace.rules {
        normalise_tags(&mut record, rules);
    }
    let replayed = trace.plies.len();
    let mut rest = None;
    if replayed < trace.plies_written {
        let cut = record
            .moves
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, Element::Ply(_)))
            .nth(replayed)
            .map(|(i, _)| i)
            .unwrap_or(record.moves.len());
        // The move number written before that ply goes with it.
        let cut = match cut.checked_sub(1).map(|i| &record.moves[i]) {
            Some(Element::MoveNumber(_)) => cut - 1,
            _ => cut,
        };
        let tail: Vec<Element> = record.moves.split_off(cut);
        let text = rest_text(parsed, &tail);
        let reason = trace
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.message.clone())
            .unwrap_or_else(|| "the replay stopped".into());
        let r = Rest {
            ply: replayed + 1,
            reason,
            text,
        };
        record.moves.extend(rest_comments(&r));
        rest = Some(r);
    }
    Conversion {
        file: file.to_string(),
        game,
        trace,
        record,
        rest,
    }
}

/// `Board` dropped when it is the default, `Rules` as the rule set's export form.
fn normalise_tags(record: &mut Record, rules: &Rules) {
    let board = rules.board();
    let options = rules.options_tag();
    record.tags.retain(|t| {
        !(t.name == "Board" && board == rules.game().default_board()
            || t.name == "Rules" && options.is_empty())
    });
    for tag in &mut record.tags {
        match tag.name.as_ref() {
            "Board" => tag.value = board.to_string(),
            "Rules" => tag.value = options.clone(),
            _ => {}
        }
    }
    if !options.is_empty() && record.tag("Rules").is_none() {
        record.tags.push(Tag::new("Rules", options));
    }
    if board != rules.game().default_board() && record.tag("Board").is_none() {
        record.tags.push(Tag::new("Board", board.to_string()));
    }
}

/// The written text of the elements that did not replay, up to the result token.
fn rest_text(parsed: &ParsedGame, tail: &[Element]) -> String {
    let (Some(first), Some(last)) = (tail.first(), tail.last()) else {
        return String::new();
    };
    let start = first.span().start;
    let end = parsed
        .record
        .result
        .map(|r| r.span.start)
        .filter(|&e| e >= start)
        .unwrap_or(last.span().end);
    let offset = parsed.offset;
    let from_text = start
        .checked_sub(offset)
        .zip(end.checked_sub(offset))
        .and_then(|(a, b)| parsed.text.get(a..b))
        .filter(|t| !t.trim().is_empty() && first.span() != Span::default());
    match from_text {
        Some(t) => t.trim_end().to_string(),
        // Spans of a record built by hand: write the elements instead.
        None => pmn::write_game(&Record {
            tags: vec![],
            moves: tail.to_vec(),
            result: None,
        })
        .trim_end()
        .to_string(),
    }
}

/// The note and the verbatim lines of the rest, as comments.
fn rest_comments(rest: &Rest) -> Vec<Element> {
    let reason: String = rest
        .reason
        .chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect();
    let mut out = vec![Element::Comment(Comment {
        kind: CommentKind::Brace,
        text: format!(
            "{REST_NOTE} {}: {reason}; the rest of the move text follows verbatim",
            rest.ply
        ),
        commands: vec![],
        span: Span::default(),
    })];
    for line in rest.text.lines() {
        out.push(Element::Comment(Comment {
            kind: CommentKind::Line,
            text: line.trim_end_matches('\r').replace("[%", "[ %"),
            commands: vec![],
            span: Span::default(),
        }));
    }
    out
}

/// Runs `sow convert`: reads every input, converts every game the filter accepts, and
/// returns the bytes to write. Unreadable inputs are reported on standard error and
/// skipped.
pub fn run(
    inputs: &[Input],
    filter: &Filter,
    replay: &ReplayOptions,
    to: ConvertTo,
    from: ConvertFrom,
) -> Result<Vec<u8>, CommandError> {
    let mut writer = OutputWriter::new(to);
    for input in inputs {
        let games = match read_input(input, from, replay) {
            Ok(g) => g,
            Err(e) => {
                let _ = writeln!(io::stderr(), "sow: {}: {e}", input.name());
                continue;
            }
        };
        let name = input.name();
        for (i, parsed) in games.into_iter().enumerate() {
            if !filter.accepts(&parsed.record) {
                continue;
            }
            let conversion = convert_game(&name, i + 1, &parsed, replay);
            writer.push(&conversion)?;
        }
    }
    writer.finish()
}

/// The games of an input, read in the given numbering and turned into PMN games.
fn read_input(
    input: &Input,
    from: ConvertFrom,
    options: &ReplayOptions,
) -> io::Result<Vec<ParsedGame>> {
    if from == ConvertFrom::Pmn {
        return Ok(input.games()?.collect());
    }
    let mut bytes = Vec::new();
    input.open()?.read_to_end(&mut bytes)?;
    Ok(match from {
        ConvertFrom::Relative => read_relative(&bytes, options),
        ConvertFrom::Ludii => read_ludii(&String::from_utf8_lossy(&bytes), options),
        ConvertFrom::Json => read_json(&String::from_utf8_lossy(&bytes))
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?,
        ConvertFrom::Pmn => unreachable!("handled above"),
    })
}

/// Reads records in JSON form as PMN games: a JSON array of records (`--to json`), one
/// record a line (`--to jsonl`), or one record. Extra keys (`source`, `replay`) are
/// ignored: the record alone is read, written as PMN and read again.
pub fn read_json(text: &str) -> Result<Vec<ParsedGame>, String> {
    let trimmed = text.trim_start();
    let records: Vec<Record> = if trimmed.starts_with('[') {
        serde_json::from_str(trimmed).map_err(|e| format!("not JSON records: {e}"))?
    } else {
        serde_json::Deserializer::from_str(trimmed)
            .into_iter::<Record>()
            .collect::<Result<_, _>>()
            .map_err(|e| format!("not JSON records: {e}"))?
    };
    Ok(records
        .iter()
        .filter_map(|r| pmn::parse_str(&pmn::write_game(r)).into_iter().next())
        .collect())
}

/// Reads records in relative numbering (docs/relative.md) as PMN games.
pub fn read_relative(bytes: &[u8], options: &ReplayOptions) -> Vec<ParsedGame> {
    pmn::parse_bytes(bytes)
        .into_iter()
        .map(|parsed| {
            let Ok(rules) = rules_of(&parsed.record, &options.overrides) else {
                return parsed;
            };
            let first = first_index(&parsed.record);
            let text = numbering::rewrite_game_text(
                &rules,
                first,
                &parsed.text,
                Numbering::Relative,
                Numbering::Absolute,
            );
            match pmn::parse_str(&text).into_iter().next() {
                Some(mut game) => {
                    game.record.tags.retain(|t| t.name != NUMBERING_TAG);
                    game
                }
                None => parsed,
            }
        })
        .collect()
}

/// 0 when South plays the first ply, 1 when North does.
fn first_index(record: &Record) -> u64 {
    match record.first_side() {
        pmn::Side::South => 0,
        pmn::Side::North => 1,
    }
}

/// A game of a Ludii move list being read.
#[derive(Default)]
struct LudiiGame {
    tags: String,
    plies: Vec<String>,
    comments: Vec<(usize, String)>,
    end: Option<String>,
}

impl LudiiGame {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.plies.is_empty() && self.comments.is_empty()
    }

    fn has_moves(&self) -> bool {
        !self.plies.is_empty() || !self.comments.is_empty() || self.end.is_some()
    }

    /// The game as PMN text, its sites turned into pits.
    fn to_pmn(&self, options: &ReplayOptions) -> String {
        let head = pmn::parse_str(&format!("{}\n*\n", self.tags));
        let record = head.first().map(|g| g.record.clone()).unwrap_or_default();
        let rules = rules_of(&record, &options.overrides).ok();
        let first = first_index(&record);
        let mut text = self.tags.clone();
        text.push('\n');
        let mut comments = self.comments.iter().peekable();
        for (i, ply) in self.plies.iter().enumerate() {
            while let Some((_, c)) = comments.next_if(|(at, _)| *at <= i) {
                text.push_str(c);
                text.push('\n');
            }
            let side = if (first + i as u64).is_multiple_of(2) {
                Side::South
            } else {
                Side::North
            };
            let pit_ply = rules
                .as_ref()
                .and_then(|r| {
                    numbering::rewrite_ply(r, side, ply, Numbering::Ludii, Numbering::Absolute)
                })
                .unwrap_or_else(|| ply.clone());
            text.push_str(&pit_ply);
            text.push('\n');
        }
        for (_, c) in comments {
            text.push_str(c);
            text.push('\n');
        }
        text.push_str(self.end.as_deref().unwrap_or("*"));
        text.push('\n');
        text
    }
}

/// Reads a Ludii move list (docs/ludii.md) as PMN games.
pub fn read_ludii(text: &str, options: &ReplayOptions) -> Vec<ParsedGame> {
    let mut games = Vec::new();
    let mut current = LudiiGame::default();
    let flush = |g: &mut LudiiGame, games: &mut Vec<ParsedGame>| {
        if !g.is_empty() {
            games.extend(pmn::parse_str(&g.to_pmn(options)).into_iter().take(1));
        }
        *g = LudiiGame::default();
    };
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if let Some(comment) = line.strip_prefix("//") {
            if comment.trim_start().starts_with('[') {
                if current.has_moves() {
                    flush(&mut current, &mut games);
                }
                current.tags.push_str(comment.trim_start());
                current.tags.push('\n');
            } else if comment.starts_with('{') || comment.starts_with(';') {
                current
                    .comments
                    .push((current.plies.len(), comment.to_string()));
            } else if let Some(result) = comment.trim().strip_prefix("end ") {
                current.end = Some(result.trim().to_string());
            }
            continue;
        }
        let ply = line.trim();
        if !ply.is_empty() {
            current.plies.push(ply.to_string());
        }
    }
    flush(&mut current, &mut games);
    games
}

/// Accumulates the output of one run.
struct OutputWriter {
    to: ConvertTo,
    out: String,
    games: usize,
    csv: Option<csv::Writer<Vec<u8>>>,
}

impl OutputWriter {
    fn new(to: ConvertTo) -> OutputWriter {
        let csv = (to == ConvertTo::Csv).then(|| {
            let mut w = csv::Writer::from_writer(Vec::new());
            let _ = w.write_record(CSV_HEADER);
            w
        });
        OutputWriter {
            to,
            out: String::new(),
            games: 0,
            csv,
        }
    }

    fn push(&mut self, c: &Conversion) -> Result<(), CommandError> {
        let first = self.games == 0;
        self.games += 1;
        match self.to {
            ConvertTo::Pmn => {
                if !first {
                    self.out.push('\n');
                }
                self.out.push_str(&to_pmn(c));
            }
            ConvertTo::Relative => {
                if !first {
                    self.out.push('\n');
                }
                self.out.push_str(&to_relative(c));
            }
            ConvertTo::Ludii => {
                if !first {
                    self.out.push('\n');
                }
                self.out.push_str(&to_ludii(c));
            }
            ConvertTo::Json => {
                self.out.push_str(if first { "[\n" } else { ",\n" });
                self.out.push_str(&to_json(c, true));
            }
            ConvertTo::Jsonl => {
                self.out.push_str(&to_json(c, false));
                self.out.push('\n');
            }
            ConvertTo::Long => {
                if !first {
                    self.out.push('\n');
                }
                self.out.push_str(&to_long(c));
            }
            ConvertTo::Csv => {
                let w = self.csv.as_mut().expect("a CSV writer for CSV output");
                for row in csv_rows(c) {
                    w.write_record(&row)
                        .map_err(|e| CommandError::Output(e.to_string()))?;
                }
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<u8>, CommandError> {
        match self.to {
            ConvertTo::Json => {
                self.out
                    .push_str(if self.games == 0 { "[]\n" } else { "\n]\n" });
            }
            ConvertTo::Csv => {
                let w = self.csv.take().expect("a CSV writer for CSV output");
                return w
                    .into_inner()
                    .map_err(|e| CommandError::Output(e.to_string()));
            }
            _ => {}
        }
        Ok(self.out.into_bytes())
    }
}

/// The game in the PMN export form.
pub fn to_pmn(c: &Conversion) -> String {
    pmn::write_game(&c.record)
}

/// The game in relative numbering (docs/relative.md): the export form with a
/// `[Numbering "relative"]` tag and every pit of every ply, variations included,
/// written as a number from the seat of the player who plays it.
pub fn to_relative(c: &Conversion) -> String {
    // Without rules there are no seats to number from: the game is written in PMN as it
    // is, without a Numbering tag, so that reading it back changes nothing.
    let Some(rules) = &c.trace.rules else {
        return pmn::write_game(&c.record);
    };
    let mut record = c.record.clone();
    record.tags.retain(|t| t.name != NUMBERING_TAG);
    record.tags.push(Tag::new(NUMBERING_TAG, "relative"));
    let text = pmn::write_game(&record);
    numbering::rewrite_game_text(
        rules,
        first_index(&record),
        &text,
        Numbering::Absolute,
        Numbering::Relative,
    )
}

/// The game as a Ludii-style move list (docs/ludii.md). Games Ludii does not have here
/// (Kiothi, Bao la Kimasai) and games whose rules could not be built are written as a
/// comment saying so.
pub fn to_ludii(c: &Conversion) -> String {
    let mut out = String::new();
    let rules = match &c.trace.rules {
        Some(r) if matches!(r.game(), Game::Tsoro | Game::Nsolo) => r,
        Some(r) => {
            let _ = writeln!(
                out,
                "// {}, game {}: {} has no Ludii numbering here (only Tsoro and Nsolo); not converted",
                c.file,
                c.game,
                r.game()
            );
            return out;
        }
        None => {
            let _ = writeln!(
                out,
                "// {}, game {}: the rules could not be built; not converted",
                c.file, c.game
            );
            return out;
        }
    };
    let board = rules.board();
    let _ = writeln!(
        out,
        "// Ludii move list: {} on {board}, Ludii's (mancalaBoard {} {}) with sites 0..{} row by row from South's outer-row left",
        rules.game(),
        board.rows(),
        board.cols(),
        board.len() - 1
    );
    let tags = pmn::write_game(&Record {
        tags: c.record.tags.clone(),
        moves: vec![],
        result: None,
    });
    for line in tags.lines() {
        let _ = writeln!(out, "// {line}");
    }
    for ply in &c.trace.plies {
        let line = numbering::rewrite_ply(
            rules,
            ply.side,
            &ply.text,
            Numbering::Absolute,
            Numbering::Ludii,
        )
        .unwrap_or_else(|| ply.text.clone());
        let _ = writeln!(out, "{line}");
    }
    if let Some(rest) = &c.rest {
        for e in rest_comments(rest) {
            if let Element::Comment(cm) = e {
                match cm.kind {
                    CommentKind::Brace => {
                        let _ = writeln!(out, "//{{{}}}", cm.text);
                    }
                    CommentKind::Line => {
                        let _ = writeln!(out, "//;{}", cm.text);
                    }
                }
            }
        }
    }
    if let Some(result) = c.record.result {
        let _ = writeln!(out, "// end {}", result.result.as_str());
    }
    out
}

#[derive(Serialize)]
struct GameJson<'a> {
    #[serde(flatten)]
    record: &'a Record,
    source: SourceJson<'a>,
    replay: ReplayJson,
}

#[derive(Serialize)]
struct SourceJson<'a> {
    file: &'a str,
    game: usize,
}

#[derive(Serialize)]
struct ReplayJson {
    /// `Game board options`, when the rules could be built.
    rules: Option<String>,
    start: Option<String>,
    complete: bool,
    plies: Vec<PlyJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    not_replayed_from: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_because: Option<String>,
}

#[derive(Serialize)]
struct PlyJson {
    ply: u32,
    player: &'static str,
    text: String,
    laps: Vec<LapJson>,
    lap_count: u64,
    stones_sown: u64,
    end: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stopped_at_head: bool,
    captured: Vec<PitStonesJson>,
    bonus: Vec<PitStonesJson>,
    #[serde(skip_serializing_if = "is_zero")]
    prison_gain: u16,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    foul: bool,
    after: Option<String>,
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

#[derive(Serialize)]
struct LapJson {
    start: String,
    end: String,
    stones: u32,
}

#[derive(Serialize)]
struct PitStonesJson {
    pit: String,
    stones: u16,
}

fn pit_stones(list: &[(Pit, u16)]) -> Vec<PitStonesJson> {
    list.iter()
        .map(|&(pit, stones)| PitStonesJson {
            pit: pit.to_string(),
            stones,
        })
        .collect()
}

fn rules_caption(rules: &Rules) -> String {
    let options = rules.options_tag();
    if options.is_empty() {
        format!("{} {}", rules.game(), rules.board())
    } else {
        format!("{} {} {options}", rules.game(), rules.board())
    }
}

/// The game as JSON: the record's JSON form plus `source` and `replay`.
pub fn to_json(c: &Conversion, pretty: bool) -> String {
    let plies = c
        .trace
        .plies
        .iter()
        .map(|p| PlyJson {
            ply: p.number,
            player: p.side.name(),
            text: p.text.clone(),
            laps: p
                .effect
                .laps
                .iter()
                .map(|l| LapJson {
                    start: l.start.to_string(),
                    end: l.end.to_string(),
                    stones: l.stones,
                })
                .collect(),
            lap_count: p.effect.lap_count,
            stones_sown: p.effect.stones_sown,
            end: p.effect.end.map(|e| e.to_string()),
            stopped_at_head: p.effect.stopped_at_head,
            captured: pit_stones(&p.effect.captured),
            bonus: pit_stones(&p.effect.bonus),
            prison_gain: p.effect.prison_gain,
            foul: p.foul,
            after: p.after.as_ref().map(ToString::to_string),
        })
        .collect();
    let game = GameJson {
        record: &c.record,
        source: SourceJson {
            file: &c.file,
            game: c.game,
        },
        replay: ReplayJson {
            rules: c.trace.rules.as_ref().map(rules_caption),
            start: c.trace.start.as_ref().map(ToString::to_string),
            complete: c.trace.complete,
            plies,
            not_replayed_from: c.rest.as_ref().map(|r| r.ply),
            stopped_because: c.rest.as_ref().map(|r| r.reason.clone()),
        },
    };
    let json = if pretty {
        serde_json::to_string_pretty(&game)
    } else {
        serde_json::to_string(&game)
    };
    json.expect("a conversion always serialises")
}

/// The columns of `--to csv`.
pub const CSV_HEADER: [&str; 11] = [
    "file", "game", "ply", "player", "from", "lift", "end", "arrival", "capture", "bonus", "text",
];

fn pits_text(list: &[(Pit, u16)]) -> String {
    list.iter()
        .map(|(p, n)| format!("{p}:{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One row per ply replayed; a game that did not replay to its end has one more row,
/// with the number of the first ply not replayed, empty parts and the rest of the move
/// text verbatim in `text`.
fn csv_rows(c: &Conversion) -> Vec<[String; 11]> {
    let mut rows = Vec::new();
    for p in &c.trace.plies {
        let (from, lift, arrival) = match &p.mv {
            Move::Sow(s) => (
                s.from.map(|f| f.to_string()).unwrap_or_default(),
                s.lift.map(|n| n.to_string()).unwrap_or_default(),
                s.stop.map(|h| h.arrival.to_string()).unwrap_or_default(),
            ),
            Move::Redistribute(r) => (
                format!("{},{}", r.emptied[0], r.emptied[1]),
                String::new(),
                String::new(),
            ),
        };
        rows.push([
            c.file.clone(),
            c.game.to_string(),
            p.number.to_string(),
            p.side.name().to_string(),
            from,
            lift,
            p.effect.end.map(|e| e.to_string()).unwrap_or_default(),
            arrival,
            pits_text(&p.effect.captured),
            pits_text(&p.effect.bonus),
            p.text.clone(),
        ]);
    }
    if let Some(rest) = &c.rest {
        rows.push([
            c.file.clone(),
            c.game.to_string(),
            rest.ply.to_string(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            rest.text.clone(),
        ]);
    }
    rows
}

fn pits_words(list: &[(Pit, u16)]) -> String {
    if list.is_empty() {
        return "none".into();
    }
    list.iter()
        .map(|(p, n)| format!("{p} ({n})"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn stones(n: u64) -> String {
    if n == 1 {
        "1 stone".into()
    } else {
        format!("{n} stones")
    }
}

/// The game with every ply's effect spelled out.
pub fn to_long(c: &Conversion) -> String {
    let mut out = String::new();
    let _ = write!(out, "{}, game {}", c.file, c.game);
    match &c.trace.rules {
        Some(rules) => {
            let _ = writeln!(out, ": {}", rules_caption(rules));
        }
        None => {
            let _ = writeln!(out, ": the rules could not be built");
        }
    }
    if let Some(start) = &c.trace.start {
        let _ = writeln!(out, "start: {start}");
    }
    for p in &c.trace.plies {
        let _ = writeln!(out, "ply {}, {}: {}", p.number, p.side, p.text);
        let e = &p.effect;
        if let Move::Redistribute(r) = &p.mv {
            let placed: Vec<String> = r.placed.iter().map(|(q, n)| format!("{q} ({n})")).collect();
            let _ = writeln!(
                out,
                "  opening redistribution: emptied {} and {}; placed {}",
                r.emptied[0],
                r.emptied[1],
                placed.join(", ")
            );
        } else {
            let _ = writeln!(
                out,
                "  laps: {} ({} sown)",
                e.lap_count,
                stones(e.stones_sown)
            );
            for (i, lap) in e.laps.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "    {}. {} to {}, {}",
                    i + 1,
                    lap.start,
                    lap.end,
                    stones(lap.stones as u64)
                );
            }
            if (e.laps.len() as u64) < e.lap_count {
                let _ = writeln!(
                    out,
                    "    ... {} more laps not kept",
                    e.lap_count - e.laps.len() as u64
                );
            }
        }
        if let Some(end) = e.end {
            let how = if e.stopped_at_head {
                " (stopped at the head)"
            } else {
                ""
            };
            let _ = writeln!(out, "  ended in {end}{how}");
        }
        let _ = writeln!(out, "  captured: {}", pits_words(&e.captured));
        let _ = writeln!(out, "  bonus: {}", pits_words(&e.bonus));
        if e.prison_gain > 0 {
            let _ = writeln!(out, "  to {}'s prison: {}", p.side, e.prison_gain);
        }
        if !e.nki_cleared.is_empty() {
            let cleared: Vec<String> = e.nki_cleared.iter().map(Pit::to_string).collect();
            let _ = writeln!(out, "  nki cleared: {}", cleared.join(", "));
        }
        if e.nki_marked {
            let _ = writeln!(out, "  every occupied pit marked nki");
        }
        if p.foul {
            let _ = writeln!(out, "  played under [%foul]");
        }
        if let Some(after) = &p.after {
            let _ = writeln!(out, "  after: {after}");
        }
    }
    if let Some(rest) = &c.rest {
        let _ = writeln!(out, "not replayed from ply {}: {}", rest.ply, rest.reason);
        for line in rest.text.lines() {
            let _ = writeln!(out, "  | {line}");
        }
    }
    if let Some(outcome) = &c.trace.outcome {
        let _ = writeln!(out, "game over: {}", outcome.result_token());
    }
    if let Some(declared) = c.trace.declared {
        let _ = writeln!(out, "result: {}", declared.as_str());
    }
    out
}
