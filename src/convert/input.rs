//! Reading the inputs: PMN, the JSON form, and seat-relative numbering.

use std::io::{self, Read};

use crate::corpus::Input;
use crate::pmn::json::RecordJson;
use crate::pmn::{self, decode, reader, Code, GameText, ParsedGame, Problem, Span};
use crate::replay::{rules_of, ReplayOptions};
use crate::rules::Rules;

use super::forms::ConvertFrom;
use super::ludii::each_ludii_game;
use super::numbering;
use super::numbering::Numbering;
use super::{is_relative_mark, NUMBERING_TAG};

/// Why an input could not be read: where in it (line and column, for a parse error),
/// and what.
#[derive(Debug)]
pub struct InputError {
    pub(super) at: Option<(usize, usize)>,
    pub(super) message: String,
}

impl InputError {
    pub(super) fn describe(&self, name: &str) -> String {
        match self.at {
            Some((line, column)) => format!("{name}:{line}:{column}: {}", self.message),
            None => format!("{name}: {}", self.message),
        }
    }
}

impl From<io::Error> for InputError {
    fn from(e: io::Error) -> InputError {
        InputError {
            at: None,
            message: format!("the input could not be read: {e}"),
        }
    }
}

/// The games of an input in Ludii's or the JSON form, turned into PMN games and given
/// to `game` one at a time with their index (from 0; a JSON record's own, empty records
/// counted), with what to say of the input in `notes`. The text is read whole (its
/// decoding, and JSON's check of its bytes, need all of it), not its games.
pub(super) fn read_input(
    input: &Input,
    from: Option<ConvertFrom>,
    options: &ReplayOptions,
    notes: &mut Vec<String>,
    game: &mut dyn FnMut(usize, ParsedGame, ConvertFrom) -> Result<(), InputError>,
) -> Result<(), InputError> {
    // Read whole, the input is one game's text as far as the limit goes: binary data
    // and an endless input are refused in bounded memory.
    let limit = options.max_game_bytes.unwrap_or(reader::MAX_GAME_BYTES);
    let mut bytes = Vec::new();
    let mut opened = input.open().map_err(InputError::from)?;
    (&mut opened)
        .take(reader::SNIFF_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(InputError::from)?;
    if let Some(why) = reader::not_text(&bytes) {
        return Err(InputError::from(io::Error::new(
            io::ErrorKind::InvalidData,
            why,
        )));
    }
    opened
        .take((limit as u64 + 1).saturating_sub(bytes.len() as u64))
        .read_to_end(&mut bytes)
        .map_err(InputError::from)?;
    if bytes.len() > limit {
        return Err(InputError {
            at: None,
            message: format!(
                "the input, read whole in this form, is longer than {} of text, the limit of one game; it is not read (--max-game-size raises the limit)",
                reader::size_in_words(limit)
            ),
        });
    }
    // JSON is told by its bytes (UTF-8 only); the other forms by their decoded text.
    let text = || decode::decode(&bytes).0;
    let from = match from {
        Some(from) => from,
        None => ConvertFrom::of_text(&text()).ok_or_else(|| InputError {
            at: None,
            message: "the input's form could not be told from its name or its content (no JSON, no Ludii move list, no PMN tag line): give --from".into(),
        })?,
    };
    if from != ConvertFrom::Json {
        if let Some(e) = from.refuses(&text()) {
            return Err(e);
        }
    }
    match from {
        ConvertFrom::Ludii => {
            // Decoded as PMN files are (a byte-order mark, UTF-16, Latin-1 for lines that
            // are not UTF-8): tags and comments are kept verbatim, so no byte may be
            // replaced.
            let (text, encoding, latin1) = decode::decode(&bytes);
            if latin1 {
                let body = &bytes[encoding.bom_len()..];
                let bad = std::str::from_utf8(body)
                    .err()
                    .map_or(body.len(), |e| e.valid_up_to());
                let before = &body[..bad];
                let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
                let line_start = before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                // The whole line is read as Latin-1, a character a byte (as the reader
                // counts such a line's columns).
                let column = 1 + bad - line_start;
                notes.push(format!(
                    "{}:{line}:{column}: warning: byte {:#04x} is not UTF-8; lines that are not UTF-8 are read as Latin-1",
                    input.name(),
                    body.get(bad).copied().unwrap_or_default()
                ));
            }
            let mut index = 0;
            each_ludii_game(&text, options, &mut |parsed| {
                index += 1;
                game(index - 1, parsed, from)
            })?;
            if index == 0 {
                notes.push(no_game(input));
            }
            Ok(())
        }
        ConvertFrom::Json => {
            // JSON is UTF-8; other bytes would be replaced, and the records altered.
            let text = String::from_utf8(bytes).map_err(|e| {
                let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let valid = std::str::from_utf8(valid).unwrap_or_default();
                InputError {
                    at: Some((
                        1 + valid.matches('\n').count(),
                        1 + valid.rsplit('\n').next().unwrap_or("").chars().count(),
                    )),
                    message: "not JSON: a byte that is not UTF-8".into(),
                }
            })?;
            // A byte-order mark, which JSON does not have, but editors write.
            let json = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let mut games = 0;
            each_json_game(json, &mut |index, parsed| {
                games += 1;
                game(index, parsed, from)
            })?;
            if games == 0 {
                notes.push(no_game(input));
            }
            Ok(())
        }
        // An input whose form was told by its content: read whole.
        ConvertFrom::Pmn | ConvertFrom::Relative => {
            let games = match from {
                ConvertFrom::Relative => read_relative(&bytes, options),
                _ => pmn::parse_bytes(&bytes),
            };
            for (index, parsed) in games.into_iter().enumerate() {
                game(index, parsed, from)?;
            }
            Ok(())
        }
    }
}

/// What is said of an input of Ludii's or the JSON form that holds no game, as of a PMN
/// file.
fn no_game(input: &Input) -> String {
    format!(
        "{}: warning[empty-file]: the file holds no game",
        input.name()
    )
}

/// serde_json's message without the place it appends (given apart here).
fn json_error_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&place) {
        Some(message) => message.to_string(),
        None => text,
    }
}

/// Reads records in JSON form as PMN games: a JSON array of records (`--to json`), one
/// record a line (`--to jsonl`), or one record. Extra keys (`source`, `replay`) are
/// ignored: the record alone is read. A record's move text given as `moves` is written
/// as PMN and read again; given as `movetext` it is read with the tags as PMN as it
/// stands ([`pmn::json::RecordJson::read`]). A record with no tag, move or result holds
/// nothing and is no game. What is reported of a game is placed where its record begins
/// in the text.
pub fn read_json(text: &str) -> Result<Vec<ParsedGame>, InputError> {
    let mut games = Vec::new();
    each_json_game(text, &mut |_, game| {
        games.push(game);
        Ok::<_, InputError>(())
    })?;
    Ok(games)
}

/// [`read_json`], giving each game to `game` as soon as its record is read, with the
/// record's index (from 0): memory holds the text and one record, not all of them.
fn each_json_game<E: From<InputError>>(
    text: &str,
    game: &mut dyn FnMut(usize, ParsedGame) -> Result<(), E>,
) -> Result<(), E> {
    let mut index = 0;
    each_json_record(text, &mut |record, (line, column)| {
        index += 1;
        if record.is_empty() {
            return Ok(());
        }
        let refused = |message: String| {
            E::from(InputError {
                at: Some((line, column)),
                message: format!("record {index} {message}"),
            })
        };
        let mut parsed = match record.read() {
            Err(e) => return Err(refused(format!("cannot be read: {e}"))),
            // PMN text, read as it stands: what the reader could not read is kept as
            // in any PMN game.
            Ok(Some(parsed)) => parsed,
            Ok(None) => {
                let record = record
                    .record()
                    .map_err(|e| refused(format!("cannot be read: {e}")))?;
                // A record PMN cannot express (a line break in a tag value, a `}` in a
                // brace comment) would be read back as something else: refused, not cut
                // short. What PMN can express writes the same once read back.
                let text = pmn::write_game(&record);
                let Some(parsed) = pmn::parse_str(&text).into_iter().next() else {
                    return Ok(());
                };
                if pmn::write_game(&parsed.record) != text {
                    let why = parsed.problems.iter().find(|p| p.is_error()).map_or_else(
                        || "it reads back as another record".to_string(),
                        |p| p.message.clone(),
                    );
                    return Err(refused(format!(
                        "cannot be written as PMN without loss (a line break in a tag value, or a closing brace in a brace comment?): {why}"
                    )));
                }
                parsed
            }
        };
        // The PMN text is the program's, not the file's: what is said of the game is
        // said at its record.
        let (line, column) = (line as u32, column as u32);
        let place = |span: &mut Span| {
            span.line = line;
            span.column = column;
        };
        parsed.record.for_each_span_mut(place);
        parsed.problems.iter_mut().for_each(|p| place(&mut p.span));
        parsed.line = line;
        game(index - 1, parsed)
    })
}

/// Calls `record` with each record of a JSON text, in order, and the line and column
/// where it begins: the elements of an array, or records one after another.
fn each_json_record<E: From<InputError>>(
    text: &str,
    record: &mut dyn FnMut(RecordJson, (usize, usize)) -> Result<(), E>,
) -> Result<(), E> {
    let mut at = JsonPlace {
        text,
        at: 0,
        line: 1,
        column: 1,
    };
    if let Some(too_deep) = deepest(text, MAX_JSON_NESTING) {
        at.advance_to(too_deep);
        return Err(at
            .error(&format!(
                "nested more than {MAX_JSON_NESTING} deep (PMN's variations nest {} deep at most)",
                crate::pmn::parse::MAX_NESTING
            ))
            .into());
    }
    at.skip_whitespace();
    let array = text[at.at..].starts_with('[');
    if array {
        at.advance_to(at.at + 1);
        at.skip_whitespace();
        if text[at.at..].starts_with(']') {
            at.advance_to(at.at + 1);
        } else if at.at == text.len() {
            return Err(at.end_error("EOF while parsing a list").into());
        } else {
            loop {
                at.skip_whitespace();
                if text[at.at..].starts_with(']') {
                    return Err(at.error("trailing comma").into());
                }
                at.record(record)?;
                at.skip_whitespace();
                match text[at.at..].chars().next() {
                    Some(',') => at.advance_to(at.at + 1),
                    Some(']') => {
                        at.advance_to(at.at + 1);
                        break;
                    }
                    Some(_) => return Err(at.error("expected `,` or `]`").into()),
                    None => return Err(at.end_error("EOF while parsing a list").into()),
                }
            }
        }
        at.skip_whitespace();
        if at.at < text.len() {
            return Err(at.error("trailing characters").into());
        }
        return Ok(());
    }
    while at.at < text.len() {
        at.record(record)?;
        at.skip_whitespace();
    }
    Ok(())
}

/// How deep a JSON text of records may nest: a record's own levels and two for each
/// variation, 256 deep, with room to spare. Deeper text is refused before it is read,
/// so that reading it cannot run out of stack.
const MAX_JSON_NESTING: usize = 2 * crate::pmn::parse::MAX_NESTING + 64;

/// The offset of the first `[` or `{` of `text` (outside strings) that is more than
/// `most` deep, if any.
fn deepest(text: &str, most: usize) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > most {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// A place in a JSON text being walked, with its line and column (counted as the walk
/// goes).
struct JsonPlace<'t> {
    pub(super) text: &'t str,
    pub(super) at: usize,
    pub(super) line: usize,
    /// The column of `at`, in characters from 1.
    pub(super) column: usize,
}

impl JsonPlace<'_> {
    fn advance_to(&mut self, to: usize) {
        let passed = &self.text.as_bytes()[self.at..to];
        // Characters are counted as passed, not from the line's start at each record,
        // which would be quadratic in the records of an array written on one line.
        let chars = |bytes: &[u8]| bytes.iter().filter(|&&b| (b as i8) >= -0x40).count();
        if let Some(last) = memchr::memrchr(b'\n', passed) {
            self.line += memchr::memchr_iter(b'\n', passed).count();
            self.column = 1 + chars(&passed[last + 1..]);
        } else {
            self.column += chars(passed);
        }
        self.at = to;
    }

    /// Passes JSON's whitespace.
    fn skip_whitespace(&mut self) {
        let rest = &self.text[self.at..];
        let left = rest.trim_start_matches([' ', '\t', '\n', '\r']).len();
        self.advance_to(self.at + rest.len() - left);
    }

    /// Reads the record that begins here, gives it to `record`, and moves past it.
    pub(super) fn record<E: From<InputError>>(
        &mut self,
        record: &mut dyn FnMut(RecordJson, (usize, usize)) -> Result<(), E>,
    ) -> Result<(), E> {
        // serde_json's own bound on nesting (128) is below what PMN's variations reach
        // (two levels a variation, 256 variations deep): `sow`'s own JSON of a record
        // nested 62 deep could not be read back with it. The text's nesting is bounded
        // before any record is read (`deepest`).
        let mut de = serde_json::Deserializer::from_str(&self.text[self.at..]);
        de.disable_recursion_limit();
        let mut one = de.into_iter();
        match one.next() {
            Some(Ok(read)) => {
                let end = self.at + one.byte_offset();
                record(read, (self.line, self.column))?;
                self.advance_to(end);
                Ok(())
            }
            Some(Err(e)) => Err(self.serde_error(&e).into()),
            None => Err(self.end_error("EOF while parsing a value").into()),
        }
    }

    /// `message` about the text here.
    pub(super) fn error(&self, message: &str) -> InputError {
        InputError {
            at: Some((self.line, self.column)),
            message: format!("not JSON records: {message}"),
        }
    }

    /// `message` about the end of the text, here: placed as serde places it, at the
    /// last character (column 0 of the line after a last line break).
    fn end_error(&self, message: &str) -> InputError {
        let mut error = self.error(message);
        error.at = Some((self.line, self.column - 1));
        error
    }

    /// serde's error in the text from here, placed in the whole text.
    fn serde_error(&self, e: &serde_json::Error) -> InputError {
        // serde counts the column in bytes; a column here is in characters, as the
        // reader counts them.
        let rest = &self.text[self.at..];
        let (line_start, column) = match e.line() {
            0 | 1 => (0, self.column),
            n => {
                let breaks = memchr::memchr_iter(b'\n', rest.as_bytes()).nth(n - 2);
                (breaks.map_or(rest.len(), |i| i + 1), 1)
            }
        };
        let end = floor_char_boundary(rest, line_start + e.column().saturating_sub(1));
        let chars = rest.get(line_start..end).map_or(0, |t| t.chars().count());
        let at = (e.line() > 0).then_some((self.line + e.line().max(1) - 1, column + chars));
        InputError {
            at,
            message: format!("not JSON records: {}", json_error_message(e)),
        }
    }
}

/// Reads records in relative numbering (docs/relative.md) as PMN games.
pub fn read_relative(bytes: &[u8], options: &ReplayOptions) -> Vec<ParsedGame> {
    let mut reader = pmn::Reader::new(bytes);
    std::iter::from_fn(|| reader.next_text())
        .map(|text| from_relative(text, options))
        .collect()
}

/// One game of [`read_relative`]: its plies' numbers read as the pits they name.
pub(super) fn from_relative(text: GameText, options: &ReplayOptions) -> ParsedGame {
    let decoding = text.problems().to_vec();
    let parsed = text.parse();
    let Ok(rules) = rules_of(&parsed.record, &options.overrides) else {
        return parsed;
    };
    let mut game = read_numbered(parsed, decoding, &rules, Numbering::Relative);
    // The mark no longer says how the record is numbered: it goes, from the text too
    // (blanked, so that spans stay in place), or the text would hold a tag the record
    // does not. A Numbering tag of another value is the transcriber's, and stays.
    for tag in game.record.tags.iter().filter(|t| is_relative_mark(t)) {
        let at = tag.span.start.checked_sub(game.offset);
        let len = tag.span.end.saturating_sub(tag.span.start);
        if let Some(at) = at.filter(|&a| game.text.get(a..a + len).is_some()) {
            game.text.replace_range(at..at + len, &" ".repeat(len));
        }
    }
    // The mark is not a tag of the record: neither it nor the transcriber's Numbering
    // tag after it is a duplicate.
    let mut not_duplicates: Vec<usize> = (game.record.tags.iter())
        .filter(|t| is_relative_mark(t))
        .map(|t| t.span.start)
        .collect();
    game.record.tags.retain(|t| !is_relative_mark(t));
    if !not_duplicates.is_empty() {
        let first_own = (game.record.tags.iter()).find(|t| t.name == NUMBERING_TAG);
        not_duplicates.extend(first_own.map(|t| t.span.start));
        let duplicate = |p: &Problem| p.code == Code::DuplicateTag;
        (game.problems).retain(|p| !(duplicate(p) && not_duplicates.contains(&p.span.start)));
    }
    game
}

/// A game whose plies name pits by numbers `from` (relative or Ludii), `parsed` as
/// PMN (for its tags, which gave `rules`), read again with its plies' numbers read as
/// the pits they name under `rules`.
///
/// The game holds the text as written, and its spans point there: what is reported of
/// it is at the numbers written, and what its record does not hold is kept as
/// written, numbers and all. `decoding` are the problems of the text's decoding.
pub(super) fn read_numbered(
    parsed: ParsedGame,
    decoding: Vec<Problem>,
    rules: &Rules,
    from: Numbering,
) -> ParsedGame {
    let numbers = numbering::PitNumbers::new(rules, from);
    let (record, mut problems) =
        pmn::parse::parse_numbered_game(&parsed.text, parsed.offset, parsed.line, Some(&numbers));
    problems.extend(decoding);
    problems.sort_by_key(|p| p.span.start);
    ParsedGame {
        record,
        problems,
        text: parsed.text,
        offset: parsed.offset,
        line: parsed.line,
    }
}

/// The last character boundary of `text` at or before `at`.
fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}
