//! Bytes to text: byte-order marks, UTF-16, and Latin-1 for lines that are not UTF-8.
//!
//! Decoding loses nothing: line endings, NUL bytes and long lines are kept as they are
//! (the reader reports them). This module must not look at what the text says.

use std::borrow::Cow;
use std::io::{self, Read};

/// The encoding of a file, as told by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 without a byte-order mark (lines that are not UTF-8 are read as Latin-1).
    Utf8,
    /// UTF-8 with a byte-order mark `EF BB BF`.
    Utf8Bom,
    /// UTF-16 little-endian with its mark `FF FE`.
    Utf16Le,
    /// UTF-16 big-endian with its mark `FE FF`.
    Utf16Be,
    /// UTF-16 little-endian without a mark, told by a NUL byte after each of the first
    /// two characters (ASCII, as a PMN file's `[G` is).
    Utf16LeUnmarked,
    /// UTF-16 big-endian without a mark, told by a NUL byte before each of the first two
    /// characters.
    Utf16BeUnmarked,
}

impl Encoding {
    /// The encoding told by the first bytes of a file (at least [`Encoding::SNIFF_LEN`]
    /// when the file has them). Text whose first two characters are each an ASCII byte
    /// beside a NUL byte is UTF-16 without its mark: as UTF-8 it would be NUL bytes, which
    /// no PMN text holds.
    pub fn sniff(prefix: &[u8]) -> Encoding {
        let ascii = |b: u8| b != 0 && b.is_ascii();
        match prefix {
            [0xEF, 0xBB, 0xBF, ..] => Encoding::Utf8Bom,
            [0xFF, 0xFE, ..] => Encoding::Utf16Le,
            [0xFE, 0xFF, ..] => Encoding::Utf16Be,
            [a, 0, b, 0, ..] if ascii(*a) && ascii(*b) => Encoding::Utf16LeUnmarked,
            [0, a, 0, b, ..] if ascii(*a) && ascii(*b) => Encoding::Utf16BeUnmarked,
            _ => Encoding::Utf8,
        }
    }

    /// How many first bytes [`Encoding::sniff`] looks at.
    pub const SNIFF_LEN: usize = 4;

    /// Length of the byte-order mark in bytes.
    pub fn bom_len(self) -> usize {
        match self {
            Encoding::Utf8 | Encoding::Utf16LeUnmarked | Encoding::Utf16BeUnmarked => 0,
            Encoding::Utf8Bom => 3,
            Encoding::Utf16Le | Encoding::Utf16Be => 2,
        }
    }

    /// Whether the text is UTF-16, and big-endian if so.
    pub fn utf16(self) -> Option<bool> {
        match self {
            Encoding::Utf8 | Encoding::Utf8Bom => None,
            Encoding::Utf16Le | Encoding::Utf16LeUnmarked => Some(false),
            Encoding::Utf16Be | Encoding::Utf16BeUnmarked => Some(true),
        }
    }

    /// What a reader says of an encoding told without its mark.
    pub fn unmarked_note(self) -> Option<&'static str> {
        match self {
            Encoding::Utf16LeUnmarked => Some(
                "the file has no byte-order mark, but a NUL byte follows each of its first characters: it is read as UTF-16 little-endian",
            ),
            Encoding::Utf16BeUnmarked => Some(
                "the file has no byte-order mark, but a NUL byte comes before each of its first characters: it is read as UTF-16 big-endian",
            ),
            _ => None,
        }
    }
}

/// Whether the lines of `body` (text without its mark, in `encoding`) end in a carriage
/// return alone (CR, as on classic Mac OS): it holds a CR and no line feed. `None` while
/// that is not known: no line feed yet, and more to come unless `complete`.
pub fn lines_end_in_cr_alone(body: &[u8], encoding: Encoding, complete: bool) -> Option<bool> {
    let (lf, cr) = match encoding.utf16() {
        None => (
            memchr::memchr(b'\n', body).is_some(),
            memchr::memchr(b'\r', body).is_some(),
        ),
        Some(big) => {
            let units = body.chunks_exact(2).map(|pair| {
                let pair = [pair[0], pair[1]];
                if big {
                    u16::from_be_bytes(pair)
                } else {
                    u16::from_le_bytes(pair)
                }
            });
            let (mut lf, mut cr) = (false, false);
            for unit in units {
                lf |= unit == 0x0A;
                cr |= unit == 0x0D;
            }
            (lf, cr)
        }
    };
    match (lf, complete) {
        (true, _) => Some(false),
        (false, true) => Some(cr),
        (false, false) => None,
    }
}

/// One line (or any piece of text that does not split a character) as text: UTF-8 when it
/// is valid UTF-8, Latin-1 otherwise (the flag says so).
pub fn decode_line(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (Cow::Borrowed(s), false),
        Err(_) => (Cow::Owned(bytes.iter().map(|&b| b as char).collect()), true),
    }
}

/// A whole file as text, with its encoding and whether any line was read as Latin-1.
/// The byte-order mark is not part of the text.
pub fn decode(bytes: &[u8]) -> (String, Encoding, bool) {
    let encoding = Encoding::sniff(bytes);
    let body = &bytes[encoding.bom_len()..];
    match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => {
            if let Ok(s) = std::str::from_utf8(body) {
                return (s.to_string(), encoding, false);
            }
            let mut text = String::with_capacity(body.len());
            let mut latin1 = false;
            for line in body.split_inclusive(|&b| b == b'\n') {
                let (s, l) = decode_line(line);
                latin1 |= l;
                text.push_str(&s);
            }
            (text, encoding, latin1)
        }
        Encoding::Utf16Le
        | Encoding::Utf16Be
        | Encoding::Utf16LeUnmarked
        | Encoding::Utf16BeUnmarked => {
            let mut text = String::new();
            let mut decoder = Utf16ToUtf8::new(body, encoding.utf16() == Some(true));
            // Reading from a slice cannot fail, and the decoder always yields UTF-8.
            let mut out = Vec::new();
            let _ = decoder.read_to_end(&mut out);
            text.push_str(&String::from_utf8_lossy(&out));
            (text, encoding, false)
        }
    }
}

/// A reader that turns UTF-16 bytes (without the mark) into UTF-8 bytes.
///
/// Unpaired surrogates and a final odd byte become U+FFFD; `replaced` counts them.
pub struct Utf16ToUtf8<R> {
    inner: R,
    big_endian: bool,
    input: Vec<u8>,
    output: Vec<u8>,
    output_pos: usize,
    high_surrogate: Option<u16>,
    eof: bool,
    /// How many U+FFFD were put for broken UTF-16.
    pub replaced: usize,
}

impl<R: Read> Utf16ToUtf8<R> {
    /// A decoder over `inner`, little-endian unless `big_endian`.
    pub fn new(inner: R, big_endian: bool) -> Self {
        Utf16ToUtf8 {
            inner,
            big_endian,
            input: Vec::new(),
            output: Vec::new(),
            output_pos: 0,
            high_surrogate: None,
            eof: false,
            replaced: 0,
        }
    }

    fn push_char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.output
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }

    fn push_unit(&mut self, unit: u16) {
        if let Some(high) = self.high_surrogate.take() {
            if (0xDC00..0xE000).contains(&unit) {
                let c = 0x10000 + (((high as u32) - 0xD800) << 10) + (unit as u32 - 0xDC00);
                self.push_char(char::from_u32(c).unwrap_or('\u{FFFD}'));
                return;
            }
            self.replaced += 1;
            self.push_char('\u{FFFD}');
        }
        if (0xD800..0xDC00).contains(&unit) {
            self.high_surrogate = Some(unit);
        } else if (0xDC00..0xE000).contains(&unit) {
            self.replaced += 1;
            self.push_char('\u{FFFD}');
        } else {
            self.push_char(char::from_u32(unit as u32).unwrap_or('\u{FFFD}'));
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        self.output.clear();
        self.output_pos = 0;
        while self.output.is_empty() && !self.eof {
            let mut chunk = [0u8; 8192];
            let n = self.inner.read(&mut chunk)?;
            if n == 0 {
                self.eof = true;
                if self.high_surrogate.take().is_some() {
                    self.replaced += 1;
                    self.push_char('\u{FFFD}');
                }
                if !self.input.is_empty() {
                    self.input.clear();
                    self.replaced += 1;
                    self.push_char('\u{FFFD}');
                }
                break;
            }
            self.input.extend_from_slice(&chunk[..n]);
            let pairs = self.input.len() / 2;
            for i in 0..pairs {
                let (a, b) = (self.input[2 * i], self.input[2 * i + 1]);
                let unit = if self.big_endian {
                    u16::from_be_bytes([a, b])
                } else {
                    u16::from_le_bytes([a, b])
                };
                self.push_unit(unit);
            }
            self.input.drain(..pairs * 2);
        }
        Ok(())
    }
}

impl<R: Read> Read for Utf16ToUtf8<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.output_pos >= self.output.len() {
            self.fill()?;
        }
        let available = &self.output[self.output_pos..];
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.output_pos += n;
        Ok(n)
    }
}
