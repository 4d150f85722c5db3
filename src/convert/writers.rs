//! The output forms of a conversion: PMN, relative numbering, Ludii, JSON, CSV and the
//! long form.

use std::fmt::Write as _;
use std::io;
use std::ops::ControlFlow;

use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};

use crate::geometry::Pit;
use crate::moves::Move;
use crate::pmn::{self, CommentKind, Element, GameText, PitNumbers as _, Record, Tag};
use crate::replay::{PlyTrace, PlyView, ReplayOptions, Replayer};
use crate::rules::{Game, Rules};

use super::numbering;
use super::numbering::Numbering;
use super::verdict::{rest_comments, verbatim_comments};
use super::{is_relative_mark, Conversion, AFTER_RESULT_NOTE, NUMBERING_TAG, RELATIVE, TAG_NOTE};

/// The game in the PMN export form.
pub fn to_pmn(c: &Conversion) -> String {
    pmn::write_game(&c.record)
}

/// The game in relative numbering (docs/relative.md): the export form with a
/// `[Numbering "relative"]` tag (before any Numbering tag of the record's own, which is
/// kept) and every pit of every ply, variations included, written as a number from the
/// seat of the player who plays it.
pub fn to_relative(c: &Conversion) -> String {
    // Without rules there are no seats to number from: the game is written in PMN as it
    // is, without a Numbering tag, so that reading it back changes nothing.
    let Some(rules) = &c.trace.rules else {
        return pmn::write_game(&c.record);
    };
    let mut record = c.record.clone();
    record.tags = relative_tags(&record.tags);
    pmn::write_numbered_game(
        &record,
        &numbering::PitNumbers::new(rules, Numbering::Relative),
    )
}

/// A game's tags in relative numbering: the mark `[Numbering "relative"]`, written first
/// of the Numbering tags (the export form sorts tags of one name in the order they are
/// held), then the record's own.
pub(super) fn relative_tags(tags: &[Tag]) -> Vec<Tag> {
    let mut tags: Vec<Tag> = tags
        .iter()
        .filter(|t| !is_relative_mark(t))
        .cloned()
        .collect();
    let at = (tags.iter())
        .position(|t| t.name == NUMBERING_TAG)
        .unwrap_or(tags.len());
    tags.insert(at, Tag::new(NUMBERING_TAG, RELATIVE));
    tags
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
    let tag_comments: Vec<Element> = c
        .unread_tags
        .iter()
        .flat_map(|u| verbatim_comments(TAG_NOTE, u))
        .collect();
    ludii_comments(&mut out, &tag_comments);
    let sites = numbering::PitNumbers::new(rules, Numbering::Ludii);
    // The plies replayed are the first plies of the main line, in order.
    let written = (c.record.moves.iter()).filter_map(|e| match e {
        Element::Ply(p) => Some(&p.syntax),
        _ => None,
    });
    for (ply, syntax) in c.trace.plies.iter().zip(written) {
        let start = out.len();
        let side = ply.side;
        let numbered = syntax.write_pits(&mut out, |f, pit| {
            let site = sites.number(side, pit).ok_or(std::fmt::Error)?;
            write!(f, "{site}")
        });
        if numbered.is_err() {
            out.truncate(start);
            out.push_str(&ply.text);
        }
        out.push('\n');
        // A foul accepted is part of the play, not commentary: without it the ply
        // would not replay when the list is read back.
        if ply.foul {
            let _ = writeln!(out, "//{{[%foul]}}");
        }
    }
    if let Some(rest) = &c.rest {
        ludii_comments(&mut out, &rest_comments(rest));
    }
    if let Some(u) = &c.after_result {
        ludii_comments(&mut out, &verbatim_comments(AFTER_RESULT_NOTE, u));
    }
    if let Some(result) = c.record.result {
        let _ = writeln!(out, "// end {}", result.result.as_str());
    }
    out
}

/// PMN comments as the `//{...}` and `//;...` lines of a Ludii move list.
fn ludii_comments(out: &mut String, comments: &[Element]) {
    for e in comments {
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

#[derive(Serialize)]
struct GameJson<'a> {
    #[serde(flatten)]
    pub(super) record: RecordOut<'a>,
    source: SourceJson<'a>,
    pub(super) replay: ReplayJson<'a>,
}

/// The record in a game's JSON: its serde form (move text as the tree `moves`), or the
/// same with the move text as PMN text, `movetext`.
#[derive(Serialize)]
#[serde(untagged)]
enum RecordOut<'a> {
    Tree(&'a Record),
    Text(RecordText<'a>),
    /// The tree read again from the game's text as it is written.
    TreeOfText(RecordOfText<'a>),
}

/// [`Record`]'s serde form, its tree `moves` read from the game's text.
#[derive(Serialize)]
struct RecordOfText<'a> {
    tags: &'a [Tag],
    moves: MovesOfText<'a>,
    result: &'a Option<pmn::ResultToken>,
}

/// A valid game's move text as its record's tree holds it once converted, written an
/// element of the main line at a time as the reader reads the game's text again: the
/// elements read, then the text after the result in comments.
struct MovesOfText<'a> {
    text: &'a GameText,
    after_result: Option<&'a super::Unread>,
}

impl Serialize for MovesOfText<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        let mut elements = Elements {
            builder: pmn::RecordBuilder::new(0),
            seq: &mut seq,
            failed: None,
        };
        self.text.read(&mut elements);
        elements.builder.close_variations();
        let _ = elements.write();
        if let Some(e) = elements.failed {
            return Err(e);
        }
        let after =
            (self.after_result.iter()).flat_map(|u| verbatim_comments(AFTER_RESULT_NOTE, u));
        for element in after {
            seq.serialize_element(&element)?;
        }
        seq.end()
    }
}

/// The visitor of [`MovesOfText`]: each element of the main line written once it is
/// read whole (a variation once it is closed).
struct Elements<'s, S: SerializeSeq> {
    builder: pmn::RecordBuilder,
    seq: &'s mut S,
    failed: Option<S::Error>,
}

impl<S: SerializeSeq> Elements<'_, S> {
    fn write(&mut self) -> ControlFlow<()> {
        if self.failed.is_some() {
            return ControlFlow::Break(());
        }
        for element in self.builder.take_main_line().into_iter().flatten() {
            if let Err(e) = self.seq.serialize_element(&element) {
                self.failed = Some(e);
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }
}

impl<S: SerializeSeq> pmn::Visitor for Elements<'_, S> {
    fn move_number(&mut self, number: pmn::MoveNumber) -> ControlFlow<()> {
        let _ = self.builder.move_number(number);
        self.write()
    }

    fn ply(&mut self, ply: pmn::Ply) -> ControlFlow<()> {
        let _ = self.builder.ply(ply);
        self.write()
    }

    fn comment(&mut self, comment: pmn::Comment) -> ControlFlow<()> {
        let _ = self.builder.comment(comment);
        self.write()
    }

    fn nag(&mut self, nag: pmn::Nag) -> ControlFlow<()> {
        let _ = self.builder.nag(nag);
        self.write()
    }

    fn begin_variation(&mut self, open: pmn::Span) -> pmn::Skip {
        self.builder.begin_variation(open)
    }

    fn end_variation(&mut self, span: pmn::Span) -> ControlFlow<()> {
        let _ = self.builder.end_variation(span);
        self.write()
    }

    fn result(&mut self, result: pmn::ResultToken) -> ControlFlow<()> {
        self.builder.result(result)
    }

    // The game was read before, its problems said then.
    fn problem(&mut self, _problem: pmn::Problem) {}
}

/// [`Record`]'s serde form with `movetext` in place of `moves`: every other field of
/// the record, in its order.
#[derive(Serialize)]
struct RecordText<'a> {
    tags: &'a [Tag],
    movetext: String,
    result: &'a Option<pmn::ResultToken>,
}

#[derive(Serialize)]
struct SourceJson<'a> {
    pub(super) file: &'a str,
    pub(super) game: usize,
}

#[derive(Serialize)]
struct ReplayJson<'a> {
    /// `Game board options`, when the rules could be built.
    pub(super) rules: Option<String>,
    pub(super) start: Option<String>,
    complete: bool,
    /// Left out with the move text as PMN text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) plies: Option<PliesOut<'a>>,
    /// The count of plies replayed, written in place of the plies.
    #[serde(skip_serializing_if = "Option::is_none")]
    plies_replayed: Option<usize>,
    /// The position after the last ply replayed (the start when none was), written
    /// when the plies' positions are not.
    #[serde(skip_serializing_if = "Option::is_none")]
    last: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    not_replayed_from: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_because: Option<String>,
    /// Text outside the move text that the reader did not read (kept verbatim in the
    /// record's comments): unreadable tag lines, text after the result.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    not_read: Vec<NotReadJson>,
}

/// The plies of a game's JSON: those its trace kept, or the game replayed again from
/// its text, each written as it is played.
#[derive(Serialize)]
#[serde(untagged)]
enum PliesOut<'a> {
    Kept(Vec<PlyJson>),
    OfText(PliesOfText<'a>),
}

/// A valid game replayed again from its text, under the options it was converted with,
/// each ply written as it is played.
struct PliesOfText<'a> {
    text: &'a GameText,
    replay: &'a ReplayOptions,
    positions: bool,
}

impl Serialize for PliesOfText<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        let mut failed = None;
        let mut each = |_: &Rules, view: &PlyView<'_>| {
            if failed.is_none() {
                let ply = ply_json(&view.to_trace(self.replay), self.positions);
                failed = seq.serialize_element(&ply).err();
            }
        };
        let mut replayer = Replayer::new();
        replayer.replay_text_each(self.text, self.replay, &|_| true, Some(&mut each));
        if let Some(e) = failed {
            return Err(e);
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct NotReadJson {
    pub(super) line: u32,
    pub(super) column: u32,
    pub(super) code: &'static str,
    because: String,
}

#[derive(Serialize)]
struct PlyJson {
    pub(super) ply: u32,
    player: &'static str,
    pub(super) text: String,
    /// Left out with the positions.
    #[serde(skip_serializing_if = "Option::is_none")]
    laps: Option<Vec<LapJson>>,
    lap_count: u64,
    stones_sown: u64,
    pub(super) end: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stopped_at_head: bool,
    captured: Vec<PitStonesJson>,
    bonus: Vec<PitStonesJson>,
    #[serde(skip_serializing_if = "is_zero")]
    prison_gain: u16,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    foul: bool,
    /// `null` when the replay kept no position; left out with the positions.
    #[serde(skip_serializing_if = "Option::is_none")]
    after: Option<Option<String>>,
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

#[derive(Serialize)]
struct LapJson {
    pub(super) start: String,
    pub(super) end: String,
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

/// The game as JSON: the record's JSON form plus `source` and `replay`, with the
/// position after every ply and every ply's laps.
pub fn to_json(c: &Conversion, pretty: bool) -> String {
    json_of(c, pretty, Detail::Positions, None)
}

/// The game as one line of JSON, as [`to_json`] without the position after each ply
/// and without each ply's laps (the count of its laps stays): the replay's `last` holds
/// the position after the last ply instead. A ply's position is as long as the board,
/// and its laps as many as it relayed.
pub fn to_lean_json(c: &Conversion) -> String {
    json_of(c, false, Detail::Plies, None)
}

/// The game as one line of JSON, as [`to_lean_json`] with the move text as PMN text
/// (`movetext`, as [`to_pmn`] writes it after the tags) in place of the tree `moves`,
/// and without the plies' effects: `replay.plies_replayed` counts them. The tree and
/// the effects are each about ten times the move text; without them a line is a small
/// multiple of its game's text.
pub fn to_compact_json(c: &Conversion) -> String {
    json_of(c, false, Detail::MoveText, None)
}

/// [`to_compact_json`] of a conversion whose move text is given as the export form
/// writes it ([`crate::convert::export_move_text`]), its record holding no move.
pub fn to_compact_json_with(c: &Conversion, movetext: String) -> String {
    json_of(c, false, Detail::MoveText, Some(movetext))
}

/// What a game's JSON holds of its plies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// The move text as PMN text; no ply's effect.
    MoveText,
    /// The move text as a tree; each ply's effect, without its laps and position.
    Plies,
    /// The move text as a tree; each ply's effect, laps and position.
    Positions,
}

/// `movetext`, when given, is the record's move text as the export form writes it.
fn json_of(c: &Conversion, pretty: bool, detail: Detail, movetext: Option<String>) -> String {
    let mut out = Vec::new();
    let written = write_json(c, pretty, detail, movetext, None, &mut out);
    written.expect("a conversion always serialises");
    String::from_utf8(out).expect("JSON is text")
}

/// [`to_json`] (`pretty`, or on one line) or, without `positions`, [`to_lean_json`] of
/// a valid game converted whole from `text` ([`crate::convert::exported`]: its record
/// holds no move, its trace no ply), written to `out` as its tree is read again from
/// the text and its plies replayed again under `replay`, the options of the
/// conversion: memory holds neither, however long the game.
pub(super) fn write_json_of_text(
    c: &Conversion,
    pretty: bool,
    positions: bool,
    text: &GameText,
    replay: &ReplayOptions,
    out: impl io::Write,
) -> serde_json::Result<()> {
    let detail = match positions {
        true => Detail::Positions,
        false => Detail::Plies,
    };
    write_json(c, pretty, detail, None, Some((text, replay)), out)
}

/// A ply's JSON, with its laps and the position after it when `positions`.
fn ply_json(p: &PlyTrace, positions: bool) -> PlyJson {
    PlyJson {
        ply: p.number,
        player: p.side.name(),
        text: p.text.clone(),
        laps: positions.then(|| {
            (p.effect.laps.iter())
                .map(|l| LapJson {
                    start: l.start.to_string(),
                    end: l.end.to_string(),
                    stones: l.stones,
                })
                .collect()
        }),
        lap_count: p.effect.lap_count,
        stones_sown: p.effect.stones_sown,
        end: p.effect.end.map(|e| e.to_string()),
        stopped_at_head: p.effect.stopped_at_head,
        captured: pit_stones(&p.effect.captured),
        bonus: pit_stones(&p.effect.bonus),
        prison_gain: p.effect.prison_gain,
        foul: p.foul,
        after: positions.then(|| p.after.as_ref().map(ToString::to_string)),
    }
}

/// The game's JSON to `out`; with `of_text`, its tree and plies from its text and the
/// options of its replay (see [`write_json_of_text`]).
fn write_json(
    c: &Conversion,
    pretty: bool,
    detail: Detail,
    movetext: Option<String>,
    of_text: Option<(&GameText, &ReplayOptions)>,
    out: impl io::Write,
) -> serde_json::Result<()> {
    let positions = detail == Detail::Positions;
    let plies = (detail != Detail::MoveText).then(|| match of_text {
        Some((text, replay)) => PliesOut::OfText(PliesOfText {
            text,
            replay,
            positions,
        }),
        None => PliesOut::Kept(
            c.trace
                .plies
                .iter()
                .map(|p| ply_json(p, positions))
                .collect(),
        ),
    });
    let record = match (detail, of_text) {
        (Detail::MoveText, _) => RecordOut::Text(RecordText {
            tags: &c.record.tags,
            movetext: movetext.unwrap_or_else(|| pmn::write_move_text(&c.record)),
            result: &c.record.result,
        }),
        (Detail::Plies | Detail::Positions, None) => RecordOut::Tree(&c.record),
        (Detail::Plies | Detail::Positions, Some((text, _))) => {
            RecordOut::TreeOfText(RecordOfText {
                tags: &c.record.tags,
                moves: MovesOfText {
                    text,
                    after_result: c.after_result.as_ref(),
                },
                result: &c.record.result,
            })
        }
    };
    let game = GameJson {
        record,
        source: SourceJson {
            file: &c.file,
            game: c.game,
        },
        replay: ReplayJson {
            rules: c.trace.rules.as_ref().map(rules_caption),
            start: c.trace.start.as_ref().map(ToString::to_string),
            complete: c.trace.complete,
            plies,
            plies_replayed: (detail == Detail::MoveText).then_some(c.trace.played),
            last: match positions {
                true => None,
                false => (c.trace.last.as_ref())
                    .or(c.trace.start.as_ref())
                    .map(ToString::to_string),
            },
            not_replayed_from: c.rest.as_ref().map(|r| r.ply),
            stopped_because: c.rest.as_ref().map(|r| r.cause.message.clone()),
            not_read: c
                .unread_tags
                .iter()
                .chain(&c.after_result)
                .map(|u| NotReadJson {
                    line: u.cause.line,
                    column: u.cause.column,
                    code: u.cause.code,
                    because: u.cause.message.clone(),
                })
                .collect(),
        },
    };
    match pretty {
        true => serde_json::to_writer_pretty(out, &game),
        false => serde_json::to_writer(out, &game),
    }
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
/// text verbatim in `text`. Each tag line not read (first) and text after the result
/// (last) has a row of its own, with an empty `ply` and the text verbatim in `text`.
pub(super) fn csv_rows(c: &Conversion) -> Vec<[String; 11]> {
    let mut rows = csv_head_rows(c);
    rows.extend(
        c.trace
            .plies
            .iter()
            .map(|p| csv_ply_row(&c.file, c.game, p)),
    );
    rows.extend(csv_tail_rows(c));
    rows
}

/// The rows of [`csv_rows`] before the plies': the tag lines not read.
pub(super) fn csv_head_rows(c: &Conversion) -> Vec<[String; 11]> {
    (c.unread_tags.iter())
        .map(|u| kept_row(c, String::new(), &u.text))
        .collect()
}

/// The row of one ply replayed, of game `game` of `file`.
pub(super) fn csv_ply_row(file: &str, game: usize, p: &PlyTrace) -> [String; 11] {
    let (from, lift, arrival) = match &p.mv {
        Move::Sow(s) => (
            s.from.to_string(),
            s.lift.map(|n| n.to_string()).unwrap_or_default(),
            s.stop.map(|h| h.arrival.to_string()).unwrap_or_default(),
        ),
        Move::Redistribute(r) => (
            format!("{},{}", r.emptied[0], r.emptied[1]),
            String::new(),
            String::new(),
        ),
    };
    [
        file.to_string(),
        game.to_string(),
        p.number.to_string(),
        p.side.name().to_string(),
        from,
        lift,
        p.effect.end.map(|e| e.to_string()).unwrap_or_default(),
        arrival,
        pits_text(&p.effect.captured),
        pits_text(&p.effect.bonus),
        p.text.clone(),
    ]
}

/// The rows of [`csv_rows`] after the plies': the rest of the move text not replayed,
/// and the text after the result.
pub(super) fn csv_tail_rows(c: &Conversion) -> Vec<[String; 11]> {
    let rest = (c.rest.iter()).map(|rest| kept_row(c, rest.ply.to_string(), &rest.text));
    let after = (c.after_result.iter()).map(|u| kept_row(c, String::new(), &u.text));
    rest.chain(after).collect()
}

/// A row of text kept verbatim: `ply` and `text` only.
fn kept_row(c: &Conversion, ply: String, text: &str) -> [String; 11] {
    let mut row: [String; 11] = Default::default();
    row[0] = c.file.clone();
    row[1] = c.game.to_string();
    row[2] = ply;
    row[10] = text.to_string();
    row
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
    let mut out = long_head(c);
    for p in &c.trace.plies {
        long_ply(&mut out, p);
    }
    out.push_str(&long_tail(c));
    // Read by people: the file's name and the text kept verbatim show their controls.
    crate::escape::escaped_owned(out)
}

/// What [`to_long`] writes before the plies, its controls not yet escaped: the rules,
/// the start and the tag lines not read.
pub(super) fn long_head(c: &Conversion) -> String {
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
    for u in &c.unread_tags {
        let _ = writeln!(
            out,
            "tag line not read (line {}): {}",
            u.cause.line, u.cause.message
        );
        long_lines(&mut out, &u.text);
    }
    out
}

/// What [`to_long`] writes of one ply, its controls not yet escaped: lines each ended
/// by a line break.
pub(super) fn long_ply(out: &mut String, p: &PlyTrace) {
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

/// What [`to_long`] writes after the plies, its controls not yet escaped: the text not
/// replayed or not read, the outcome and the result.
pub(super) fn long_tail(c: &Conversion) -> String {
    let mut out = String::new();
    if let Some(rest) = &c.rest {
        let _ = writeln!(
            out,
            "not replayed from ply {}: {}",
            rest.ply, rest.cause.message
        );
        long_lines(&mut out, &rest.text);
    }
    if let Some(u) = &c.after_result {
        let _ = writeln!(
            out,
            "text after the result not read (line {}): {}",
            u.cause.line, u.cause.message
        );
        long_lines(&mut out, &u.text);
    }
    if let Some(outcome) = &c.trace.outcome {
        let _ = writeln!(out, "game over: {}", outcome.result_token());
    }
    if let Some(declared) = c.trace.declared {
        let _ = writeln!(out, "result: {}", declared.as_str());
    }
    out
}

/// Text kept verbatim, each line after `  | `.
fn long_lines(out: &mut String, text: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "  | {line}");
    }
}
