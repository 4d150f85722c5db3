//! The streaming PMN reader: bytes in, one [`ParsedGame`] at a time out.
//!
//! It cuts the input into game chunks at lines that begin with a tag `[` after move
//! text or a result (and at a `Game` tag after a blank line in a game that has one, so
//! that a game of tags alone does not swallow the next), decodes them ([`super::decode`]), reports problems of the bytes
//! (encoding, NUL, long lines) and hands each chunk to the parser. Memory is bounded by
//! the largest game, not the file. It never fails and never panics; it must not know
//! any game's rules.
//!
//! A chunk's bytes are gathered as they are (one copy, out of the input's buffer) and
//! checked whole: when they are UTF-8 with no NUL byte and no long line (and, from
//! UTF-16, no U+FFFD once the decoder has replaced something), as a clean export is,
//! they are the text. Only a chunk with such a problem goes line by line
//! through the decoder and the checks that report it.

use std::io::{self, BufRead, BufReader, Chain, Cursor, Read};

use super::ast::{Record, Span, Tag};
use super::decode::{self, decode_line, Encoding, Utf16ToUtf8};
use super::parse::{parse_game, read_game, PitNumbers};
use super::problem::{Code, Problem};
use super::visit::{CutBuilder, Visitor};

/// Lines longer than this many characters are a `long-line` warning.
pub const MAX_LINE_CHARS: usize = 10_000;

/// The text one game may take, by default: far beyond any game played (a game of a
/// million plies takes a few megabytes). A game longer than its limit is not read: it
/// and the rest of its input are reported as a failure to read the input, so that
/// memory stays bounded by the limit whatever the input (`/dev/zero` is one endless
/// line).
pub const MAX_GAME_BYTES: usize = 64 << 20;

/// How much of an input's start is looked at to tell its encoding, and text from
/// binary data.
pub const SNIFF_BYTES: usize = 1 << 16;

/// Whether the start of an input is binary data, not text: at least 1 KiB of it, and
/// more than one byte in 16 a control character that no text holds (anything below
/// U+0020 but tab, line feed, form feed and carriage return; and DEL). Random bytes
/// hold about one in 9; a text file holds none, or a stray few.
fn is_binary(start: &[u8]) -> Option<usize> {
    let start = &start[..start.len().min(SNIFF_BYTES)];
    if start.len() < 1024 {
        return None;
    }
    // Bitwise, not short-circuit, tests: the count is then made many bytes at a time.
    let control =
        |b: u8| (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != 0x0c) & (b != b'\r') | (b == 0x7f);
    // Counted by runs of at most 255 bytes, each in a byte.
    let controls: usize = (start.chunks(255))
        .map(|run| run.iter().fold(0u8, |n, &b| n + control(b) as u8) as usize)
        .sum();
    (controls * 16 > start.len()).then_some(controls)
}

/// Why an input whose first bytes are `start` (at least [`SNIFF_BYTES`] of them, or
/// all) is not text, if it is not: binary data, which would read as an endless run of
/// broken games.
pub fn not_text(start: &[u8]) -> Option<String> {
    let encoding = Encoding::sniff(start);
    if !matches!(encoding, Encoding::Utf8 | Encoding::Utf8Bom) {
        return None;
    }
    let start = &start[encoding.bom_len()..];
    let controls = is_binary(start)?;
    Some(format!(
        "it is not text: {controls} of its first {} bytes are control characters; nothing of it is read",
        start.len().min(SNIFF_BYTES)
    ))
}

/// A size in bytes as people read it: `64 MiB`, `1.5 GiB`, `300 bytes`.
pub fn size_in_words(bytes: usize) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let text = format!("{value:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text} {}", UNITS[unit])
}

/// One game read from the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedGame {
    /// The game as far as it could be read.
    pub record: Record,
    /// The problems found, in the order of the text.
    pub problems: Vec<Problem>,
    /// The text of the game as decoded (line endings kept; a NUL byte read as a space).
    pub text: String,
    /// Byte offset of `text` in the decoded file.
    pub offset: usize,
    /// Line of the first line of `text`, from 1.
    pub line: u32,
}

impl ParsedGame {
    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(Problem::is_error)
    }

    /// Whether this stands for no game: a file that holds none (its `empty-file`
    /// warning) or an input that failed while being read (its `io` error). Text that
    /// reads as nothing because it broke at once is a game, with its errors.
    pub fn is_no_game(&self) -> bool {
        let record = &self.record;
        let nothing = record.tags.is_empty() && record.moves.is_empty() && record.result.is_none();
        nothing && (self.io_error().is_some() || !self.has_errors())
    }

    /// The failure to read the input, if reading it failed.
    pub fn io_error(&self) -> Option<&Problem> {
        self.problems.iter().find(|p| p.code == Code::Io)
    }
}

/// Reads all games of a text (already decoded).
pub fn parse_str(text: &str) -> Vec<ParsedGame> {
    Reader::new(text.as_bytes()).collect()
}

/// Reads all games of a file's bytes (any encoding PMN allows).
pub fn parse_bytes(bytes: &[u8]) -> Vec<ParsedGame> {
    Reader::new(bytes).collect()
}

type Prefixed<R> = Chain<Cursor<Vec<u8>>, R>;

/// A file whose lines end in a carriage return alone, read with each CR as a line feed:
/// one byte for one, so every offset and column stays that of the file.
struct LineEnds<R> {
    inner: R,
    cr_alone: bool,
}

impl<R> LineEnds<R> {
    fn new(inner: R, cr_alone: bool) -> LineEnds<R> {
        LineEnds { inner, cr_alone }
    }
}

impl<R: Read> Read for LineEnds<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.cr_alone {
            for b in &mut buf[..n] {
                if *b == b'\r' {
                    *b = b'\n';
                }
            }
        }
        Ok(n)
    }
}

/// What broken UTF-16 is read as.
const REPLACEMENT: char = '\u{FFFD}';

enum Input<R: Read> {
    /// Not yet opened: the encoding is not known.
    Unopened(R),
    Utf8(BufReader<LineEnds<Prefixed<R>>>),
    Utf16(BufReader<LineEnds<Utf16ToUtf8<Prefixed<R>>>>),
    Done,
}

impl<R: Read> Input<R> {
    /// The bytes read and not yet taken, without reading.
    fn buffer(&self) -> &[u8] {
        match self {
            Input::Utf8(r) => r.buffer(),
            Input::Utf16(r) => r.buffer(),
            Input::Unopened(_) | Input::Done => &[],
        }
    }

    fn consume(&mut self, n: usize) {
        match self {
            Input::Utf8(r) => r.consume(n),
            Input::Utf16(r) => r.consume(n),
            Input::Unopened(_) | Input::Done => {}
        }
    }
}

/// Where a game's lines have got to, for cutting the input into games.
struct Cut {
    has_moves: bool,
    has_content: bool,
    /// A game with tags and no move text (a broken game) must not swallow the next: a
    /// `Game` tag after a blank line, in a game that has one, begins the next game.
    has_game_tag: bool,
    after_blank: bool,
}

impl Cut {
    /// Takes a line of the game; true when it begins the next game instead.
    // Inlined into the scan's loop, where it runs once a line.
    #[inline(always)]
    fn begins_next_game(&mut self, line: &[u8]) -> bool {
        // The usual line before the move text, a tag line after no blank line, at once:
        // what the checks below decide for it (not the next game's; content, not moves).
        if !self.has_moves
            && !self.after_blank
            && line.first() == Some(&b'[')
            && line.get(1) != Some(&b'%')
        {
            if !self.has_game_tag {
                self.has_game_tag = is_game_tag(line);
            }
            self.has_content = true;
            return false;
        }
        // A line of Latin-1 or with NUL bytes decodes to as many characters as it has
        // bytes, and its first byte tells a tag as its first character would. Before the
        // move text, a tag line may be indented (the parser skips the spaces, and no
        // meaning is lost); after it, only a line that begins with `[` begins the next
        // game.
        let first = match line.first() {
            Some(b' ' | b'\t') if !self.has_moves => line.trim_ascii_start(),
            _ => line,
        };
        let is_tag = first.starts_with(b"[") && !first.starts_with(b"[%");
        let next_game = is_tag
            && (self.has_moves || self.after_blank && self.has_game_tag && is_game_tag(line));
        if next_game {
            return true;
        }
        if is_tag && !self.has_game_tag {
            self.has_game_tag = is_game_tag(line);
        }
        // Once the game has move text, blank lines no longer change anything.
        let blank = self.has_moves
            || line
                .iter()
                .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0 | 0x0c));
        if !blank {
            self.has_content = true;
            if !is_tag {
                self.has_moves = true;
            }
        }
        self.after_blank = blank && self.has_content;
        false
    }

    /// Takes the lines of a game that has content from `buf` (after the byte `before`),
    /// from `at`, up to the first line that `buf` does not hold whole: how many bytes of
    /// `buf` are the game's, and the length of the next game's line when one follows.
    fn scan(&mut self, buf: &[u8], mut at: usize, before: Option<u8>) -> (usize, Option<usize>) {
        loop {
            if self.has_moves {
                // As `copy_to_bracket_line`: only a `[` at the start of a line can end
                // the game.
                let at_line_start = match at {
                    0 => before.is_none_or(|b| b == b'\n'),
                    _ => buf[at - 1] == b'\n',
                };
                match bracket_line(&buf[at..], at_line_start) {
                    Some(i) => at += i,
                    None => return (buf.len(), None),
                }
            }
            let Some(end) = memchr::memchr(b'\n', &buf[at..]) else {
                return (at, None);
            };
            let line = &buf[at..at + end + 1];
            if self.begins_next_game(line) {
                return (at, Some(line.len()));
            }
            at += line.len();
        }
    }
}

/// A streaming reader over any [`Read`], yielding one game at a time.
///
/// ```
/// use sow::pmn::reader::Reader;
/// let text = "[Game \"Tsoro\"]\n\n1. a3 d10 *\n";
/// let games: Vec<_> = Reader::new(text.as_bytes()).collect();
/// assert_eq!(games.len(), 1);
/// assert!(games[0].problems.is_empty());
/// ```
pub struct Reader<R: Read> {
    input: Input<R>,
    /// A line read that begins the next game, empty when there is none (a pending line
    /// starts with `[`). Its buffer is kept from game to game.
    pending: Vec<u8>,
    /// The length of a pending line found whole in the input's buffer and left there, at
    /// its start (then `pending` is empty): its game is copied out with it, at once.
    held: usize,
    /// Offset and line number of the next line to read.
    offset: usize,
    line: u32,
    games_yielded: usize,
    saw_content: bool,
    latin1_reported_at: Option<u32>,
    /// Offset of the first character (after a UTF-8 byte-order mark).
    first_offset: usize,
    /// Length of the text of the last game read.
    last_game_len: usize,
    /// The text one game may take, in bytes (see [`MAX_GAME_BYTES`]).
    max_game: usize,
    /// What the first game reports of how the file was read (an encoding or line ends
    /// told without a mark), as warnings.
    told: Vec<&'static str>,
}

impl<R: Read> Reader<R> {
    /// A reader over `input`. Nothing is read until the first game is asked for.
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input: Input::Unopened(input),
            pending: Vec::new(),
            held: 0,
            offset: 0,
            line: 1,
            games_yielded: 0,
            saw_content: false,
            latin1_reported_at: None,
            first_offset: 0,
            last_game_len: 0,
            max_game: MAX_GAME_BYTES,
            told: Vec::new(),
        }
    }

    /// The reader, a game's text limited to `bytes` (at least 1) rather than
    /// [`MAX_GAME_BYTES`].
    pub fn with_max_game_bytes(mut self, bytes: usize) -> Reader<R> {
        self.max_game = bytes.max(1);
        self
    }

    fn open(&mut self) -> io::Result<()> {
        let Input::Unopened(_) = &self.input else {
            return Ok(());
        };
        let Input::Unopened(mut raw) = std::mem::replace(&mut self.input, Input::Done) else {
            unreachable!("checked above")
        };
        // The first bytes tell the encoding, whether the input is text at all, and
        // whether lines end in a carriage return alone (a CR and no line feed in them).
        let mut prefix = Vec::with_capacity(SNIFF_BYTES);
        (&mut raw)
            .take(SNIFF_BYTES as u64)
            .read_to_end(&mut prefix)?;
        // Binary data (`/dev/urandom`, an image) would read as an endless run of broken
        // games: it is refused before any game.
        if let Some(why) = not_text(&prefix) {
            return Err(io::Error::new(io::ErrorKind::InvalidData, why));
        }
        let encoding = Encoding::sniff(&prefix);
        let body = &prefix[encoding.bom_len()..];
        let cr_alone = decode::lines_end_in_cr_alone(body, encoding, true).unwrap_or(false);
        let bom = encoding.bom_len();
        self.told.extend(encoding.unmarked_note());
        if cr_alone {
            self.told.push(
                "the lines end in a carriage return alone (CR, as on classic Mac OS); each is read as a line end",
            );
        }
        let rest = Cursor::new(prefix[bom..].to_vec()).chain(raw);
        self.input = match encoding.utf16() {
            None => {
                if encoding == Encoding::Utf8Bom {
                    // The mark is bytes of the file: spans keep counting file bytes.
                    self.offset = bom;
                    self.first_offset = bom;
                }
                Input::Utf8(BufReader::with_capacity(
                    1 << 16,
                    LineEnds::new(rest, cr_alone),
                ))
            }
            Some(big_endian) => Input::Utf16(BufReader::with_capacity(
                1 << 16,
                LineEnds::new(Utf16ToUtf8::new(rest, big_endian), cr_alone),
            )),
        };
        Ok(())
    }

    /// The opened input's buffered reader; `None` before it is opened or once it is done.
    fn buffered(&mut self) -> Option<&mut dyn BufRead> {
        match &mut self.input {
            Input::Utf8(r) => Some(r),
            Input::Utf16(r) => Some(r),
            Input::Unopened(_) | Input::Done => None,
        }
    }

    /// Appends one line (its line break included) to `raw`; false at the end of the
    /// input. Stops, the line unfinished, once `raw` holds more than `cap` bytes.
    fn read_raw_line(&mut self, raw: &mut Vec<u8>, cap: usize) -> io::Result<bool> {
        let Some(input) = self.buffered() else {
            return Ok(false);
        };
        // `read_until`, with the line found in the buffer by memchr at once (the usual
        // case: a short tag line): fewer calls through `dyn BufRead` a line.
        let mut read = false;
        loop {
            let buf = match input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let (n, done) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i + 1, true),
                None => (buf.len(), buf.is_empty()),
            };
            raw.extend_from_slice(&buf[..n]);
            input.consume(n);
            read |= n > 0;
            if done || raw.len() > cap {
                return Ok(read);
            }
        }
    }

    /// Appends to `raw` the bytes up to the next line that begins with `[` (or to the end
    /// of the input), or until it holds more than `cap` bytes. `raw` must end at the
    /// start of a line. Move text needs no look at its lines: only a `[` at the start
    /// of one can end the game.
    fn copy_to_bracket_line(&mut self, raw: &mut Vec<u8>, cap: usize) -> io::Result<()> {
        let Some(input) = self.buffered() else {
            return Ok(());
        };
        loop {
            let buf = input.fill_buf()?;
            let at_line_start = raw.last().is_none_or(|&b| b == b'\n');
            let found = bracket_line(buf, at_line_start);
            let n = found.unwrap_or(buf.len());
            raw.extend_from_slice(&buf[..n]);
            input.consume(n);
            if found.is_some() || n == 0 || raw.len() > cap {
                return Ok(());
            }
        }
    }

    /// Where decoded UTF-16 text holds what broken UTF-16 is read as: looked for only
    /// once the decoder has put a replacement (a U+FFFD the file itself holds is not
    /// reported unless the file is also broken).
    fn broken_utf16(&self, text: &str) -> Option<usize> {
        let replaced = matches!(&self.input, Input::Utf16(r) if r.get_ref().inner.replaced > 0);
        if replaced {
            text.find(REPLACEMENT)
        } else {
            None
        }
    }

    /// Reports the problems of a line's bytes (`raw`, decoded as `text`) and advances
    /// the position past it.
    fn check_line(&mut self, raw: &[u8], text: &str, latin1: bool, out: &mut Vec<Problem>) {
        let at = |column: u32, start: usize, end: usize| Span {
            start,
            end,
            line: self.line,
            column,
        };
        if latin1 && self.latin1_reported_at.is_none() {
            let bad = std::str::from_utf8(raw)
                .err()
                .map_or(0, |e| e.valid_up_to());
            // The whole line is read as Latin-1: one character per byte.
            let column = 1 + bad as u32;
            let start = self.offset + text.char_indices().nth(bad).map_or(text.len(), |c| c.0);
            out.push(Problem::warning(
                Code::Encoding,
                at(column, start, start + 1),
                format!(
                    "byte {:#04x} is not UTF-8; the line is read as Latin-1 (later such lines are read the same way without a warning)",
                    raw[bad]
                ),
            ));
            self.latin1_reported_at = Some(self.line);
        }
        if let Some(at_char) = self.broken_utf16(text) {
            let column = 1 + text[..at_char].chars().count() as u32;
            let start = self.offset + at_char;
            out.push(Problem::warning(
                Code::Encoding,
                at(column, start, start + REPLACEMENT.len_utf8()),
                "broken UTF-16 (an unpaired surrogate, or an odd last byte) is read as U+FFFD",
            ));
        }
        if let Some(nul) = raw
            .contains(&0)
            .then(|| text.as_bytes().iter().position(|&b| b == 0))
            .flatten()
        {
            let column = 1 + text[..nul].chars().count() as u32;
            let message = match text.bytes().filter(|&b| b == 0).count() {
                1 => "a NUL byte (0x00) in the text; it is read as a space".to_string(),
                n => format!(
                    "{n} NUL bytes (0x00) on this line, the first here; they are read as spaces"
                ),
            };
            out.push(Problem::warning(
                Code::NulByte,
                at(column, self.offset + nul, self.offset + nul + 1),
                message,
            ));
        }
        if text.len() > MAX_LINE_CHARS {
            let chars = text.trim_end_matches(['\r', '\n']).chars().count();
            if chars > MAX_LINE_CHARS {
                out.push(Problem::warning(
                    Code::LongLine,
                    at(1, self.offset, self.offset + text.len()),
                    format!(
                        "this line has {chars} characters; lines longer than {MAX_LINE_CHARS} are read but are probably not PMN"
                    ),
                ));
            }
        }
        self.offset += text.len();
        if text.ends_with('\n') {
            self.line += 1;
        }
    }

    /// Decodes a chunk's bytes into its text, reporting the problems of its bytes, and
    /// advances the position past it.
    fn decode_chunk(&mut self, raw: Vec<u8>, problems: &mut Vec<Problem>) -> String {
        // Only a chunk longer than the limit can hold a line longer than it.
        let long = raw.len() > MAX_LINE_CHARS
            && raw
                .split(|&b| b == b'\n')
                .any(|line| line.len() > MAX_LINE_CHARS);
        let raw = match String::from_utf8(raw) {
            Ok(text)
                if !(long
                    || memchr::memchr(0, text.as_bytes()).is_some()
                    || self.broken_utf16(&text).is_some()) =>
            {
                // The usual chunk: nothing to report, and the bytes are the text. The
                // line breaks are counted with memchr's vector code.
                self.offset += text.len();
                self.line += memchr::memchr_iter(b'\n', text.as_bytes()).count() as u32;
                return text;
            }
            Ok(text) => text.into_bytes(),
            Err(e) => e.into_bytes(),
        };
        let mut text = String::with_capacity(raw.len());
        for line in raw.split_inclusive(|&b| b == b'\n') {
            let (decoded, latin1) = decode_line(line);
            self.check_line(line, &decoded, latin1, problems);
            // A NUL byte is read as a space wherever it is, as its warning says.
            match decoded.contains('\0') {
                true => text.push_str(&decoded.replace('\0', " ")),
                false => text.push_str(&decoded),
            }
        }
        text
    }

    /// Cuts the game's lines that the input's buffer holds whole, as the reads of
    /// [`Self::copy_to_bracket_line`] and [`Self::read_raw_line`] would (it reads nothing),
    /// after the `held` bytes of its first line: appends them to `raw`, and true when
    /// the next game's line was found (it is held then). Stops before a line that the
    /// buffer does not hold whole.
    fn take_buffered(
        &mut self,
        raw: &mut Vec<u8>,
        cut: &mut Cut,
        guess: usize,
        held: usize,
    ) -> bool {
        let buf = self.input.buffer();
        let before = raw.last().or(self.pending.last()).copied();
        let (taken, next_line) = cut.scan(buf, held, before);
        let next_game = next_line.is_some();
        // A game that ends here is copied once, at its length; one that goes on gets room.
        let more = if next_game { taken } else { taken.max(guess) };
        take_pending(&mut self.pending, raw, more);
        raw.extend_from_slice(&buf[..taken]);
        self.input.consume(taken);
        self.held = next_line.unwrap_or(0);
        next_game
    }

    fn read_game(&mut self) -> io::Result<Option<GameText>> {
        self.open()?;
        // Games are about the same size: when a game goes on past the bytes at hand, its
        // buffer starts at the last one's and some, so that it is rarely grown (each
        // growth copies it). A game the buffered bytes hold whole gets its exact length.
        let guess = self.last_game_len + self.last_game_len / 4;
        // Empty until the game's first bytes are taken: the pending line goes in first.
        let mut raw = Vec::new();
        let mut problems = Vec::new();
        let first = Span {
            start: self.first_offset,
            end: self.first_offset,
            line: 1,
            column: 1,
        };
        for note in self.told.drain(..) {
            problems.push(Problem::warning(Code::Encoding, first, note));
        }
        // The game's first line: held in the input's buffer, or pending.
        let mut first_held = std::mem::take(&mut self.held);
        let first_line = match first_held {
            0 => &self.pending[..],
            n => &self.input.buffer()[..n],
        };
        let mut cut = Cut {
            has_moves: false,
            has_content: !first_line.is_empty(),
            has_game_tag: is_game_tag(first_line),
            after_blank: false,
        };
        let start_offset_line = |reader: &Self| (reader.offset, reader.line);
        let (mut start_offset, mut start_line) = start_offset_line(self);
        loop {
            // Lines the buffer holds whole are cut where they lie, without a read per
            // line; the rest (a line across the buffer's end, leading blank lines) goes
            // the way below, which reads the input at the same points as ever.
            let held = std::mem::take(&mut first_held);
            if cut.has_content && self.take_buffered(&mut raw, &mut cut, guess, held) {
                break;
            }
            take_pending(&mut self.pending, &mut raw, guess);
            if cut.has_moves {
                self.copy_to_bracket_line(&mut raw, self.max_game)?;
            }
            let line_start = raw.len();
            if !self.read_raw_line(&mut raw, self.max_game)? {
                break;
            }
            if raw.len() > self.max_game {
                return Ok(Some(self.too_large(&raw, start_offset, start_line)));
            }
            let line = &raw[line_start..];
            if cut.begins_next_game(line) {
                self.pending.extend_from_slice(line);
                raw.truncate(line_start);
                break;
            }
            if !cut.has_content {
                // Leading blank lines belong to no game: the game starts after them. Their
                // bytes are still checked (a NUL byte is reported wherever it is).
                let blank_line = raw.split_off(line_start);
                let _ = self.decode_chunk(blank_line, &mut problems);
                (start_offset, start_line) = start_offset_line(self);
            }
        }
        if raw.len() > self.max_game {
            return Ok(Some(self.too_large(&raw, start_offset, start_line)));
        }
        let chunk = self.decode_chunk(raw, &mut problems);
        if !cut.has_content {
            if self.games_yielded == 0 && !self.saw_content {
                let span = Span {
                    start: self.first_offset,
                    end: self.first_offset,
                    line: 1,
                    column: 1,
                };
                problems.push(Problem::warning(
                    Code::EmptyFile,
                    span,
                    "the file holds no game",
                ));
                self.saw_content = true;
                return Ok(Some(GameText {
                    text: chunk,
                    problems,
                    offset: start_offset,
                    line: start_line,
                    is_game: false,
                }));
            }
            return Ok(None);
        }
        self.saw_content = true;
        self.last_game_len = chunk.len();
        Ok(Some(GameText {
            text: chunk,
            problems,
            offset: start_offset,
            line: start_line,
            is_game: true,
        }))
    }

    /// The stand-in of a game whose text `raw` (from `offset`, line `line`) runs past
    /// the limit: a failure to read the input, where the limit is passed. Nothing more
    /// of the input is read: its end may be endless (`/dev/zero`).
    fn too_large(&mut self, raw: &[u8], offset: usize, line: u32) -> GameText {
        self.input = Input::Done;
        self.pending = Vec::new();
        self.held = 0;
        let within = &raw[..self.max_game.min(raw.len())];
        let line_start = memchr::memrchr(b'\n', within).map_or(0, |i| i + 1);
        let last = &within[line_start..];
        // Bytes that are not UTF-8 are read as Latin-1: one character each.
        let chars = std::str::from_utf8(last).map_or(last.len(), |t| t.chars().count());
        let span = Span {
            start: offset + within.len(),
            end: offset + within.len(),
            line: line + memchr::memchr_iter(b'\n', within).count() as u32,
            column: u32::try_from(chars + 1).unwrap_or(u32::MAX),
        };
        let message = format!(
            "game {} (from line {line}) is longer than {} of text, the limit of one game; neither it nor the rest of the input is read (--max-game-size raises the limit)",
            self.games_yielded + 1,
            size_in_words(self.max_game),
        );
        GameText {
            text: String::new(),
            problems: vec![Problem::error(Code::Io, span, message)],
            offset,
            line,
            is_game: false,
        }
    }

    /// The next game's text, read and checked but not parsed: what the iterator gives
    /// once [`GameText::parse`]d. A corpus command parses each game where it replays it
    /// (see [`GameText`]).
    pub fn next_text(&mut self) -> Option<GameText> {
        if matches!(self.input, Input::Done) && self.pending.is_empty() {
            return None;
        }
        match self.read_game() {
            Ok(Some(game)) => {
                self.games_yielded += 1;
                Some(game)
            }
            Ok(None) => {
                self.input = Input::Done;
                None
            }
            Err(e) => {
                self.input = Input::Done;
                self.pending.clear();
                self.held = 0;
                let span = Span {
                    start: self.offset,
                    end: self.offset,
                    line: self.line,
                    column: 1,
                };
                Some(GameText {
                    text: String::new(),
                    problems: vec![Problem::error(
                        Code::Io,
                        span,
                        format!("the input could not be read: {e}"),
                    )],
                    offset: self.offset,
                    line: self.line,
                    is_game: false,
                })
            }
        }
    }
}

/// One game's text as the [`Reader`] cut and decoded it, with the problems of its
/// bytes, before it is parsed.
///
/// Parsing is most of reading, and a syntax tree takes many times its text: a
/// command that replays a batch of games parses each where it replays it, on that
/// thread, and drops the tree at once, rather than holding the batch's trees (some
/// megabytes, past the caches) from the reading thread to the replays.
#[derive(Debug, Clone)]
pub struct GameText {
    text: String,
    problems: Vec<Problem>,
    offset: usize,
    line: u32,
    /// Whether the text is a game to parse: not the stand-in of a file with no game
    /// (its `empty-file` warning) or of an input that failed (its `io` error).
    is_game: bool,
}

impl GameText {
    /// The game, parsed.
    pub fn parse(self) -> ParsedGame {
        self.parse_by(parse_game)
    }

    /// The game, parsed, its main line held only up to its `plies`-th ply (see
    /// [`CutBuilder`]): the tags, the result and every problem are a full parse's.
    pub fn parse_cut(self, plies: usize) -> ParsedGame {
        self.parse_by(|text, offset, line| {
            let mut builder = CutBuilder::new(text.len(), plies);
            let tags = read_game(text, offset, line, &mut builder);
            builder.finish(tags)
        })
    }

    fn parse_by(
        self,
        parse: impl FnOnce(&str, usize, u32) -> (Record, Vec<Problem>),
    ) -> ParsedGame {
        let GameText {
            text,
            mut problems,
            offset,
            line,
            is_game,
        } = self;
        let mut record = Record::default();
        if is_game {
            let parse_problems;
            (record, parse_problems) = parse(&text, offset, line);
            problems.extend(parse_problems);
            problems.sort_by_key(|p| p.span.start);
        }
        ParsedGame {
            record,
            problems,
            text,
            offset,
            line,
        }
    }

    /// Reads the game, handing its events to `visitor` (see [`Visitor`]); returns
    /// its tags. `None` when the text is not a game to read (see
    /// [`GameText::is_game`]).
    pub fn read<V: Visitor>(&self, visitor: &mut V) -> Option<Vec<Tag>> {
        self.read_numbered(None, visitor)
    }

    /// [`GameText::read`], the plies' pits written as `numbers` says (PMN's `a3` when
    /// `None`).
    pub fn read_numbered<V: Visitor>(
        &self,
        numbers: Option<&dyn PitNumbers>,
        visitor: &mut V,
    ) -> Option<Vec<Tag>> {
        self.is_game.then(|| {
            super::parse::read_numbered_game(&self.text, self.offset, self.line, numbers, visitor)
        })
    }

    /// Whether the text is a game to read: not the stand-in of a file with no game
    /// (its `empty-file` warning) or of an input that failed (its `io` error).
    pub fn is_game(&self) -> bool {
        self.is_game
    }

    /// The text of the game as decoded.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Byte offset of the text in the decoded file.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Line of the first line of the text, from 1.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The problems found in reading the text (its decoding: encoding, NUL bytes, long
    /// lines), before it is parsed.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The length of the text in bytes (what a batch of games is bounded by).
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The failure to read the input, if this stands for one (see
    /// [`ParsedGame::io_error`]).
    pub fn io_error(&self) -> Option<&Problem> {
        if self.is_game {
            return None;
        }
        self.problems.iter().find(|p| p.code == Code::Io)
    }

    /// [`GameText::io_error`] as the corpus commands report it, of the input `name`:
    /// `NAME:LINE:COLUMN: the input could not be read: ...`.
    pub fn read_failure(&self, name: &str) -> Option<String> {
        let p = self.io_error()?;
        Some(format!(
            "{name}:{}:{}: {}",
            p.span.line, p.span.column, p.message
        ))
    }
}

/// The start of a line that begins with `[`.
static BRACKET_LINE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\n["));

/// Where the first `[` that begins a line is in `rest` (its first byte begins a line when
/// `at_line_start`).
fn bracket_line(rest: &[u8], at_line_start: bool) -> Option<usize> {
    // The first `[` most often begins the next game's line; past one that does not (in a
    // comment, `{[%stones 35 23]}`), the line break and the bracket are looked for
    // together, not one bracket after another.
    match memchr::memchr(b'[', rest) {
        Some(0) if at_line_start => Some(0),
        Some(i) if i > 0 && rest[i - 1] == b'\n' => Some(i),
        Some(i) => BRACKET_LINE.find(&rest[i..]).map(|j| i + j + 1),
        None => None,
    }
}

/// Whether a line is a `Game` tag (indented or not).
fn is_game_tag(line: &[u8]) -> bool {
    let line = line.trim_ascii_start();
    line.starts_with(b"[Game")
        && line
            .get(5)
            .is_some_and(|&b| b == b'"' || b.is_ascii_whitespace())
}

/// Moves the pending line (the game's first) into `raw` while it holds nothing, with
/// room for `more` bytes after it.
fn take_pending(pending: &mut Vec<u8>, raw: &mut Vec<u8>, more: usize) {
    if raw.capacity() > 0 {
        return;
    }
    raw.reserve_exact(pending.len() + more);
    raw.extend_from_slice(pending);
    pending.clear();
    if pending.capacity() > 1 << 16 {
        // An unusually long line is not kept for the rest of the input.
        *pending = Vec::new();
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = ParsedGame;

    fn next(&mut self) -> Option<ParsedGame> {
        self.next_text().map(GameText::parse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pmn::Element;

    #[test]
    fn a_nul_byte_is_read_as_a_space_everywhere() {
        // In a comment too: a NUL is never kept, so no export writes one.
        let input = "[Game \"Tsoro\"]\n\n1. a3 {a\0b\0} *\n";
        let games: Vec<ParsedGame> = Reader::new(input.as_bytes()).collect();
        let comment = games[0].record.moves.iter().find_map(|e| match e {
            Element::Comment(c) => Some(c.text.as_str()),
            _ => None,
        });
        assert_eq!(comment, Some("a b "));
        assert!(!games[0].text.contains('\0'));
        let p: Vec<_> = games[0]
            .problems
            .iter()
            .map(|p| (p.code, p.span.column))
            .collect();
        assert_eq!(p, [(Code::NulByte, 9)]);
        assert!(games[0].problems[0].message.starts_with("2 NUL bytes"));
    }

    #[test]
    fn broken_utf16_is_reported() {
        // A lone surrogate is reported where it is replaced by U+FFFD.
        let text = "[Game \"Tsoro\"]\n\n{x} 1. a3 *\n";
        let mut units: Vec<u16> = text.encode_utf16().collect();
        let brace = units.iter().position(|&u| u == u16::from(b'x')).unwrap();
        units[brace] = 0xD800;
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(units.iter().flat_map(|u| u.to_le_bytes()));
        let games: Vec<ParsedGame> = Reader::new(&bytes[..]).collect();
        assert_eq!(games.len(), 1);
        let p: Vec<_> = games[0]
            .problems
            .iter()
            .map(|p| (p.code, p.span.line, p.span.column))
            .collect();
        assert_eq!(p, [(Code::Encoding, 3, 2)]);
        assert!(!games[0].has_errors());
    }

    #[test]
    fn a_game_of_tags_alone_does_not_swallow_the_next() {
        let input =
            "[Game \"Nsolo\"]\n[Event \"a\"]\n\n[Game \"Tsoro\"]\n[Event \"b\"]\n\n1. a3 *\n";
        let games: Vec<ParsedGame> = Reader::new(input.as_bytes()).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].record.tag("Event"), Some("a"));
        assert!(games[0]
            .problems
            .iter()
            .any(|p| p.code == Code::MissingResult));
        assert_eq!(games[1].record.tag("Game"), Some("Tsoro"));
        assert_eq!(games[1].record.tag("Event"), Some("b"));
        assert!(games[1].problems.is_empty(), "{:?}", games[1].problems);
        assert_eq!(games[1].line, 4);
        // Its export form reads back as the same two games, and writes the same bytes.
        let written: String = games
            .iter()
            .map(|g| crate::pmn::write_game(&g.record) + "\n")
            .collect();
        let again: Vec<ParsedGame> = Reader::new(written.as_bytes()).collect();
        assert_eq!(again.len(), 2);
        let rewritten: String = again
            .iter()
            .map(|g| crate::pmn::write_game(&g.record) + "\n")
            .collect();
        assert_eq!(rewritten, written);
        // A second Game tag without a blank line before it is a duplicate in one game.
        let input = "[Game \"Nsolo\"]\n[Game \"Tsoro\"]\n\n1. a3 *\n";
        let games: Vec<ParsedGame> = Reader::new(input.as_bytes()).collect();
        assert_eq!(games.len(), 1);
        assert!(games[0]
            .problems
            .iter()
            .any(|p| p.code == Code::DuplicateTag));
    }

    #[test]
    fn an_indented_tag_line_stays_in_its_game() {
        // The parser reads ` [Event "x"]` as a tag; the reader must not take it for move
        // text and begin a new game at the next tag line.
        for indent in [" ", "\t", "  \t"] {
            let input = format!(
                "[Game \"BaoLaKimasai\"]\n{indent}[Event \"x\"]\n[Result \"*\"]\n\n1. b2x c11x *\n"
            );
            let games: Vec<ParsedGame> = Reader::new(input.as_bytes()).collect();
            assert_eq!(games.len(), 1, "{indent:?}");
            let record = &games[0].record;
            assert_eq!(record.tag("Event"), Some("x"));
            assert_eq!(record.tag("Result"), Some("*"));
            assert_eq!(record.main_line().count(), 2);
            assert!(games[0].problems.is_empty(), "{:?}", games[0].problems);
        }
        // After the move text, a line must begin with `[` to begin the next game.
        let input = "[Game \"Tsoro\"]\n\n1. a3\n [Event \"y\"]\n*\n[Game \"Nsolo\"]\n\n*\n";
        let games: Vec<ParsedGame> = Reader::new(input.as_bytes()).collect();
        assert_eq!(games.len(), 2);
        assert!(games[0].problems.iter().any(|p| p.is_error()));
    }

    #[test]
    fn a_long_first_line_of_a_game_is_carried_over_whole() {
        // The line that begins a game is read while finishing the game before; a long
        // one must reach its game whole, and the games after it must be unaffected.
        let long = "x".repeat(100_000);
        let input = format!(
            "[Game \"Tsoro\"]\n\n1. a3 *\n[Event \"{long}\"]\n[Game \"Tsoro\"]\n\n1. a4 *\n[Game \"Nsolo\"]\n\n1. a1 *\n"
        );
        let games: Vec<ParsedGame> = Reader::new(input.as_bytes()).collect();
        assert_eq!(games.len(), 3);
        assert_eq!(games[1].record.tag("Event"), Some(long.as_str()));
        assert_eq!(games[1].line, 4);
        assert_eq!(games[2].record.tag("Game"), Some("Nsolo"));
        assert_eq!(games[2].line, 8);
        let whole: String = games.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(whole, input);
        for g in &games {
            assert!(g.problems.iter().all(|p| !p.is_error()), "{:?}", g.problems);
            assert_eq!(&input[g.offset..g.offset + g.text.len()], g.text);
        }
    }

    /// Gives its bytes a few at a time (1 to 7), as a pipe may: the reader's buffer then
    /// ends anywhere in a line.
    struct Trickle<'a> {
        bytes: &'a [u8],
        seed: u32,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.seed = self.seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let n = (1 + (self.seed >> 16) as usize % 7)
                .min(buf.len())
                .min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    #[test]
    fn games_are_cut_the_same_wherever_the_buffer_ends() {
        let long = "x".repeat(20_000);
        let inputs = [
            String::new(),
            "\n \n\t\n".to_string(),
            "[Game \"Tsoro\"]\n[Event \"a\"]\n\n1. a3 {[%stones 3 4]} d10 {[x]} [y]\n[%x]\n*\n[Game \"Nsolo\"]\n\n*\n".to_string(),
            "\n\n[Game \"Nsolo\"]\n[Event \"a\"]\n\n[Game \"Tsoro\"]\n [Event \"b\"]\n\t[Site \"c\"]\n\n1. a3 *\n".to_string(),
            "[Game \"Tsoro\"]\r\n[Event \"\u{e9}\0\"]\r\n\r\n1. a3\r\n [Event \"y\"]\r\n*\r\n[Game \"Tsoro\"]\r\n\r\n1. a4 *".to_string(),
            format!("[Game \"Tsoro\"]\n[Event \"{long}\"]\n\n1. a3 {{{long}}}\n*\n[Game \"Tsoro\"]\n\n*\n"),
        ];
        for input in &inputs {
            let mut bytes = input.clone().into_bytes();
            let whole: Vec<ParsedGame> = Reader::new(&bytes[..]).collect();
            for seed in 0..20 {
                let trickle = Trickle {
                    bytes: &bytes,
                    seed,
                };
                let games: Vec<ParsedGame> = Reader::new(trickle).collect();
                assert_eq!(games, whole, "{input:?}, seed {seed}");
            }
            // A byte that is not UTF-8 (Latin-1 é).
            if let Some(at) = bytes.iter().position(|&b| b == b'E') {
                bytes[at] = 0xE9;
                let whole: Vec<ParsedGame> = Reader::new(&bytes[..]).collect();
                let games: Vec<ParsedGame> = Reader::new(Trickle {
                    bytes: &bytes,
                    seed: 1,
                })
                .collect();
                assert_eq!(games, whole, "{input:?}");
            }
        }
    }

    #[test]
    fn games_across_the_buffers_end_are_whole() {
        // Over 64 KiB of games of every length, each game's text is the input at its
        // offset, and the texts add up to the input.
        let mut input = String::new();
        for i in 0..1500 {
            let moves: String = (1..=i % 29).map(|n| format!("{n}. a3 d10 ")).collect();
            input += &format!("[Game \"Tsoro\"]\n[Round \"{i}\"]\n\n{moves}*\n\n");
        }
        assert!(input.len() > 3 << 16);
        let games: Vec<ParsedGame> = Reader::new(input.as_bytes()).collect();
        assert_eq!(games.len(), 1500);
        let mut line = 1;
        for (i, g) in games.iter().enumerate() {
            assert_eq!(&input[g.offset..g.offset + g.text.len()], g.text);
            assert_eq!(g.line, line);
            assert_eq!(g.record.tag("Round"), Some(i.to_string().as_str()));
            assert!(g.problems.is_empty(), "{:?}", g.problems);
            line += g.text.matches('\n').count() as u32;
        }
        let whole: String = games.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(whole, input);
    }
}
