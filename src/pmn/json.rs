//! The JSON form of a record and its JSON Schema.
//!
//! The JSON form is the serde form of [`Record`]: tags, move text (plies with their
//! parts, comments with their commands, NAGs, variations, move numbers) and result;
//! spans are left out. It must carry nothing the PMN text cannot, so that
//! JSON → PMN → JSON is the identity.
//!
//! A record may instead hold its move text as PMN text, `movetext` (the moves and the
//! result as [`super::write_move_text`] writes them), in place of the tree `moves`:
//! [`RecordJson`] reads either, and the text is read by the PMN reader, as any PMN is.
//! `schemas/record.schema.json` is generated from these types by [`schema_json`].

use schemars::JsonSchema;
use serde::Deserialize;

use super::ast::{Element, Record, ResultToken, Tag};
use super::problem::Code;
use super::reader::{parse_str, ParsedGame};
use super::writer::write_game_with_move_text;

/// A record as pretty-printed JSON.
pub fn to_json(record: &Record) -> String {
    serde_json::to_string_pretty(record).expect("a record always serialises")
}

/// A record from its JSON form, its move text given as `moves` or as `movetext`. Spans
/// are zero. A `movetext` that does not read whole as one game's move text is refused
/// ([`RecordJson::record`]).
pub fn from_json(json: &str) -> Result<Record, serde_json::Error> {
    let read: RecordJson = serde_json::from_str(json)?;
    read.record().map_err(serde::de::Error::custom)
}

/// One game as written: tags, move text and result. The move text is given either as
/// `moves`, its syntax tree, or as `movetext`, PMN move text (the moves and the result
/// token as the export form writes them after the tags); one of the two is present.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[schemars(rename = "Record")]
pub struct RecordJson {
    /// Tags in the order they were written (duplicates kept).
    pub tags: Vec<Tag>,
    /// Move text in order: move numbers, plies, comments, NAGs and variations.
    #[schemars(with = "Vec<Element>")]
    pub moves: Option<Vec<Element>>,
    /// Move text as PMN text: plies, move numbers, comments with their commands, NAGs,
    /// variations and the result token, as PMN writes them after the tags.
    #[schemars(with = "String")]
    pub movetext: Option<String>,
    /// The result token that ends the game, if there was one (with `movetext`, the
    /// text's result token, written again).
    pub result: Option<ResultToken>,
}

/// Why a record in JSON form does not make one PMN game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordJsonError {
    /// Neither `moves` nor `movetext` is given.
    #[error("the record has neither `moves` nor `movetext`")]
    NoMoveText,
    /// Both `moves` and `movetext` are given.
    #[error("the record has both `moves` and `movetext`; give one")]
    BothMoveTexts,
    /// The PMN text of tags and `movetext` does not read as one game with these tags:
    /// a tag line in the move text, or a line break in a tag value.
    #[error("its tags and movetext do not read back as one game with these tags (a tag line in the movetext, or a line break in a tag value?)")]
    NotOneGame,
    /// `result` is not the result token of `movetext`.
    #[error("its result ({given}) is not its movetext's ({read})")]
    ResultDiffers {
        /// `result`, as a token (`none` when null).
        given: String,
        /// The result token read from `movetext` (`none` when it has none).
        read: String,
    },
    /// The reader could not read `movetext` whole (a record cannot hold what it did not
    /// read).
    #[error("its movetext does not read as PMN: {0}")]
    Unreadable(String),
}

impl RecordJson {
    /// Whether the record holds nothing: no tag, no move, no result.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
            && self.moves.as_ref().is_none_or(Vec::is_empty)
            && self.movetext.as_ref().is_none_or(|t| t.trim().is_empty())
            && self.result.is_none()
    }

    /// The record: its `moves` as they are, or its tags and `movetext` read by the PMN
    /// reader (spans zero), which must read them whole.
    pub fn record(self) -> Result<Record, RecordJsonError> {
        let Some(game) = self.read()? else {
            return Ok(Record {
                tags: self.tags,
                moves: self.moves.unwrap_or_default(),
                result: self.result,
            });
        };
        if let Some(p) = game.problems.iter().find(|p| loses_text(p.code)) {
            return Err(RecordJsonError::Unreadable(p.message.clone()));
        }
        let mut record = game.record;
        record.for_each_span_mut(|s| *s = Default::default());
        Ok(record)
    }

    /// A record with `movetext`: its PMN text ([`write_game_with_move_text`]) read by
    /// the PMN reader, as any PMN game (what the reader could not read is among the
    /// game's problems, and its text kept). `None` for a record with `moves`. The text
    /// must read as one game with the record's tags, and with its result if it gives one
    /// (when the reader reads the text whole).
    pub fn read(&self) -> Result<Option<ParsedGame>, RecordJsonError> {
        let movetext = match (&self.moves, &self.movetext) {
            (Some(_), None) => return Ok(None),
            (None, Some(text)) => text,
            (Some(_), Some(_)) => return Err(RecordJsonError::BothMoveTexts),
            (None, None) => return Err(RecordJsonError::NoMoveText),
        };
        let text = write_game_with_move_text(&self.tags, movetext);
        let mut games = parse_str(&text).into_iter();
        let (Some(game), None) = (games.next(), games.next()) else {
            return Err(RecordJsonError::NotOneGame);
        };
        // The tags read are the tags given, in the order the export form writes them.
        let tag_lines = |tags: &[Tag]| write_game_with_move_text(tags, "");
        if tag_lines(&game.record.tags) != tag_lines(&self.tags) {
            return Err(RecordJsonError::NotOneGame);
        }
        // A text not read whole may hide its result token: its own error says more.
        let whole = !game.problems.iter().any(|p| loses_text(p.code));
        let read = game.record.result.map(|r| r.result);
        if let Some(given) = self.result.map(|r| r.result).filter(|_| whole) {
            if read != Some(given) {
                return Err(RecordJsonError::ResultDiffers {
                    given: given.as_str().to_string(),
                    read: read.map_or("none", |r| r.as_str()).to_string(),
                });
            }
        }
        Ok(Some(game))
    }
}

/// Whether a problem of the reader means text it did not read into the record, or read
/// altered: a record with such a problem does not stand for its text. (A missing tag or
/// result, a duplicate tag or a move number out of place are said of text read whole.)
fn loses_text(code: Code) -> bool {
    matches!(
        code,
        Code::Syntax
            | Code::UnterminatedComment
            | Code::UnterminatedTag
            | Code::UnterminatedVariation
            | Code::UnmatchedParen
            | Code::BadEscape
            | Code::NulByte
            | Code::LongLine
            | Code::NumberTooLarge
            | Code::NestingTooDeep
            | Code::GarbageBetweenGames
            | Code::Io
    )
}

/// The JSON Schema of the JSON form of a record: `moves` or `movetext`, one of them.
pub fn schema() -> schemars::schema::RootSchema {
    let mut schema = schemars::schema_for!(RecordJson);
    let object = schema.schema.object();
    object.required.remove("moves");
    object.required.remove("movetext");
    let one_of = ["moves", "movetext"].map(|key| {
        schemars::schema::Schema::Object(schemars::schema::SchemaObject {
            object: Some(Box::new(schemars::schema::ObjectValidation {
                required: [key.to_string()].into(),
                ..Default::default()
            })),
            ..Default::default()
        })
    });
    schema.schema.subschemas().one_of = Some(one_of.to_vec());
    schema
}

/// The JSON Schema as committed in `schemas/record.schema.json` (pretty, ending with a
/// line break).
pub fn schema_json() -> String {
    let mut s = serde_json::to_string_pretty(&schema()).expect("a schema always serialises");
    s.push('\n');
    s
}
