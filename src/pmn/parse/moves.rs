//! The move-text scanner: the general loop over tokens, comments, NAGs, move numbers,
//! variations and results, with its explicit stack of lines.

use compact_str::CompactString;

use crate::pmn::ast::*;
use crate::pmn::problem::{Code, Problem};
use crate::pmn::visit::{Skip, Visitor};

use super::command::{command, find_byte};
use super::fast::lone_pit_at;
use super::numbers::Frame;
use super::ply::{
    lone_pit_ply, numbered_pit, parse_ply, pit, pit_name_len, ply_problem, PlyError, PlyErrorKind,
};
use super::{
    is_delimiter, is_space, quote, result_tag_against, result_token_at, token_end, Scanner,
    MAX_NESTING, RESULT_TAG, SET_UP_TAG,
};

impl<'a, 'v, V: Visitor> Scanner<'a, 'v, V> {
    pub(super) fn read_moves(&mut self) {
        // Without a `SetUp` tag South moves first; no search of the tags for it.
        let set_up = self.known_tags & SET_UP_TAG != 0;
        let first = match set_up.then(|| self.record.first_side()) {
            Some(Side::North) => 1,
            _ => 0,
        };
        let main = Frame::new(first, first, Span::default());
        // Room for a few open variations at once, so the first `(` of a game does not
        // allocate.
        let mut stack: Vec<Frame> = Vec::with_capacity(4);
        stack.push(main);
        let mut stopped = false;
        let mut content_end = self.pos;
        // The fast lane reads PMN's pits only. A build with `--cfg sow_general_loop_only`
        // leaves it out, to measure what it wins (BENCHMARKS.md).
        let usual = self.numbers.is_none() && !cfg!(sow_general_loop_only);
        while self.pos < self.bytes.len() {
            if usual && !self.line_wide {
                self.read_usual_tokens(&mut stack, &mut content_end);
                if self.halted {
                    return;
                }
                if self.pos == self.bytes.len() {
                    break;
                }
            }
            let start = self.pos;
            let b = self.bytes[start];
            if is_space(b) {
                self.skip_space();
                continue;
            }
            content_end = start;
            let ok = match b {
                b'{' => self.read_brace_comment(),
                b';' => self.read_line_comment(),
                b'(' => self.open_variation(&mut stack),
                b')' => self.close_variation(&mut stack),
                b'$' => self.read_nag(),
                b'*' => {
                    self.finish_with_result(&mut stack, GameResult::Unknown, 1);
                    return;
                }
                b'0'..=b'9' => {
                    let rest = &self.bytes[start..];
                    // Only `1-`, `0-` and `1/` can begin a result: skip the search otherwise.
                    let maybe_result = matches!(rest.get(1), Some(b'-' | b'/'));
                    if let Some((result, len)) =
                        maybe_result.then(|| result_token_at(rest)).flatten()
                    {
                        self.finish_with_result(&mut stack, result, len);
                        return;
                    }
                    if self.numbers.is_some()
                        && self.bytes.get(self.digits_end(start)) != Some(&b'.')
                    {
                        self.read_ply(&mut stack)
                    } else {
                        self.read_move_number(&mut stack)
                    }
                }
                b if b.is_ascii_alphabetic() => self.read_ply(&mut stack),
                _ => {
                    let found = self.char_at(start);
                    let end = start + found.len().max(1);
                    let expected = if b == b'[' {
                        "a tag here; tags come before the move text"
                    } else {
                        "a ply, move number, comment, NAG, variation or result"
                    };
                    self.error(
                        Code::Syntax,
                        start,
                        end,
                        format!("unexpected `{found}` in the move text; expected {expected}"),
                    );
                    false
                }
            };
            if !ok {
                if self.halted {
                    return;
                }
                stopped = true;
                break;
            }
        }
        self.close_open_variations(&mut stack, stopped);
        let mut main = stack.pop().expect("the main line");
        main.close(self.visitor);
        if !stopped && (!self.record.tags.is_empty() || self.any_element) {
            let at = self.bytes[..self.bytes.len()]
                .iter()
                .rposition(|&b| !is_space(b))
                .map_or(content_end, |i| i + 1);
            self.error(
                Code::MissingResult,
                at,
                at,
                "the game has no result; expected `1-0`, `0-1`, `1/2-1/2` or `*` at the end of the move text".into(),
            );
        }
        self.check_game_tag();
    }
}

impl<'a, 'v, V: Visitor> Scanner<'a, 'v, V> {
    /// Closes variations left open at the end of the text (or at a stop), keeping what
    /// was read in them. Each open `(` is a problem unless reading stopped at a problem.
    fn close_open_variations(&mut self, stack: &mut Vec<Frame>, stopped: bool) {
        while stack.len() > 1 {
            let depth = stack.len();
            let mut frame = stack.pop().expect("an open variation");
            frame.close(self.visitor);
            if !stopped {
                self.visitor.problem(Problem::error(
                    Code::UnterminatedVariation,
                    frame.open,
                    "this variation is not closed: expected `)` before the end of the game",
                ));
            }
            let span = Span {
                end: self.base_offset + self.pos,
                ..frame.open
            };
            self.end_variation(depth, span);
        }
    }

    fn finish_with_result(&mut self, stack: &mut Vec<Frame>, result: GameResult, len: usize) {
        let start = self.pos;
        self.pos += len;
        let span = self.span(start, self.pos);
        self.close_open_variations(stack, false);
        let mut main = stack.pop().expect("the main line");
        main.close(self.visitor);
        if self.visitor.result(ResultToken { result, span }).is_break() {
            return;
        }
        let has_result_tag = self.known_tags & RESULT_TAG != 0;
        if let Some(tag) = has_result_tag
            .then(|| result_tag_against(&self.record, result))
            .flatten()
        {
            let message = format!(
                "the result `{}` does not agree with the Result tag \"{}\" (line {})",
                result.as_str(),
                tag.value,
                tag.span.line
            );
            (self.visitor).problem(Problem::error(Code::ResultMismatch, span, message));
        }
        self.skip_space();
        if self.pos < self.bytes.len() {
            let start = self.pos;
            let end = self.line_end(start);
            let shown = quote(self.text[start..end].trim_end());
            let span = self.span_slow(start, self.bytes.len());
            self.visitor.problem(Problem::warning(
                Code::GarbageBetweenGames,
                span,
                format!(
                    "text after the result: `{shown}`; expected the tags of the next game (it is skipped)"
                ),
            ));
        }
        self.check_game_tag();
    }

    fn read_brace_comment(&mut self) -> bool {
        let open = self.pos;
        let Some(close) = self.bytes[open + 1..].iter().position(|&b| b == b'}') else {
            self.error(
                Code::UnterminatedComment,
                open,
                open + 1,
                "this comment is not closed: expected `}` before the end of the game".into(),
            );
            self.pos = self.bytes.len();
            return false;
        };
        let close = open + 1 + close;
        let span = self.span(open, close + 1);
        let comment = self.comment(CommentKind::Brace, open + 1, close, span);
        self.track(open, close + 1);
        self.pos = close + 1;
        self.emit(|v| v.comment(comment))
    }

    fn read_line_comment(&mut self) -> bool {
        let open = self.pos;
        let mut end = self.line_end(open);
        let span_end = end;
        // Every `\r` before the line break belongs to the line ending: keeping one would
        // not survive writing.
        while end > open + 1 && self.bytes[end - 1] == b'\r' {
            end -= 1;
        }
        let span = self.span(open, span_end);
        let comment = self.comment(CommentKind::Line, open + 1, end, span);
        self.track(open, span_end);
        self.pos = span_end;
        self.emit(|v| v.comment(comment))
    }

    fn comment(&mut self, kind: CommentKind, start: usize, end: usize, span: Span) -> Comment {
        let text = &self.text[start..end];
        let mut commands = Vec::new();
        let mut from = 0;
        // `[` found by memchr and `%` checked after it: a substring search would set up
        // its searcher at every call, dearer than the rest of the comment.
        while let Some(i) = find_byte(b'[', &text.as_bytes()[from..]) {
            let at = from + i;
            if text.as_bytes().get(at + 1) != Some(&b'%') {
                from = at + 1;
                continue;
            }
            let Some((len, words)) = command(&text[at..]) else {
                break;
            };
            if let Some((name, args)) = words {
                // Placed from the comment's own span: no rescan of the text before it.
                let inside = &text[..at];
                let newline = match at {
                    0 => None,
                    _ => memchr::memrchr(b'\n', inside.as_bytes()),
                };
                let (line, column) = match newline {
                    Some(nl) => (
                        span.line + count_bytes(inside.as_bytes(), |b| b == b'\n') as u32,
                        1 + chars(&inside[nl + 1..]),
                    ),
                    None => (span.line, span.column + 1 + chars(inside)),
                };
                let span = Span {
                    start: self.base_offset + start + at,
                    end: self.base_offset + start + at + len,
                    line,
                    column,
                };
                if commands.capacity() == 0 {
                    // Most comments with a command hold one.
                    commands.reserve_exact(1);
                }
                commands.push(Command {
                    name: Command::name_of(name),
                    args,
                    span,
                });
            }
            from = at + len;
        }
        // A comment over several lines of a CRLF file keeps LF line breaks, as the
        // export form writes them: the same comment reads the same from either file.
        let text = if self.has_cr && text.contains("\r\n") {
            lf_breaks(text)
        } else {
            CompactString::from(text)
        };
        Comment {
            kind,
            text,
            commands,
            span,
        }
    }

    fn open_variation(&mut self, stack: &mut Vec<Frame>) -> bool {
        let open = self.pos;
        if stack.len() > MAX_NESTING {
            self.error(
                Code::NestingTooDeep,
                open,
                open + 1,
                format!("variations are nested more than {MAX_NESTING} deep here; the rest of the game is skipped"),
            );
            return false;
        }
        let span = self.span(open, open + 1);
        let parent = stack.last().expect("a line");
        // A variation replaces the ply before it, so it starts on that ply's side.
        let next_ply = parent.last_ply.unwrap_or(parent.next_ply);
        let place = parent.last_place.unwrap_or(parent.place);
        stack.push(Frame::new(next_ply, place, span));
        self.pos += 1;
        self.any_element = true;
        if self.skipping == 0 && self.visitor.begin_variation(span) == Skip::Yes {
            self.skipping = stack.len();
        }
        true
    }

    fn close_variation(&mut self, stack: &mut Vec<Frame>) -> bool {
        let close = self.pos;
        if stack.len() == 1 {
            self.error(
                Code::UnmatchedParen,
                close,
                close + 1,
                "`)` without a `(` before it".into(),
            );
            return false;
        }
        self.pos += 1;
        let depth = stack.len();
        let mut frame = stack.pop().expect("an open variation");
        frame.close(self.visitor);
        let span = Span {
            end: self.base_offset + self.pos,
            ..frame.open
        };
        self.end_variation(depth, span)
    }

    fn digits_end(&self, from: usize) -> usize {
        self.bytes[from..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(self.bytes.len(), |i| from + i)
    }

    fn read_nag(&mut self) -> bool {
        let start = self.pos;
        let end = self.digits_end(start + 1);
        if end == start + 1 {
            self.error(
                Code::Syntax,
                start,
                start + 1,
                "expected a number after `$` (a NAG such as `$1`)".into(),
            );
            return false;
        }
        let digits = &self.text[start + 1..end];
        let Ok(code) = digits.parse::<u16>() else {
            self.error(
                Code::NumberTooLarge,
                start,
                end,
                format!(
                    "NAG `${}` is too large; the largest is $65535",
                    quote(digits)
                ),
            );
            return false;
        };
        if end < self.bytes.len() && !is_delimiter(self.bytes[end]) {
            let found = self.char_at(end);
            self.error(
                Code::Syntax,
                end,
                end + found.len().max(1),
                format!("unexpected `{found}` after NAG `${digits}`"),
            );
            return false;
        }
        let span = self.span(start, end);
        self.pos = end;
        self.emit(|v| v.nag(Nag { code, span }))
    }

    fn read_move_number(&mut self, stack: &mut [Frame]) -> bool {
        let start = self.pos;
        let digits_end = self.digits_end(start);
        let mut end = digits_end;
        while end < self.bytes.len() && self.bytes[end] == b'.' {
            end += 1;
        }
        let digits = &self.text[start..digits_end];
        let dots = match end - digits_end {
            1 => Dots::One,
            3 => Dots::Three,
            _ => {
                let token_end = self.token_end(start);
                let shown = quote(&self.text[start..token_end]);
                self.error(
                    Code::Syntax,
                    start,
                    token_end,
                    format!(
                        "expected a move number like `12.` or `12...` or a result, found `{shown}`"
                    ),
                );
                return false;
            }
        };
        // At most 9 digits always fit; longer ones are checked.
        let value = if digits.len() <= 9 {
            Some(
                digits
                    .bytes()
                    .fold(0u32, |v, d| v * 10 + u32::from(d - b'0')),
            )
        } else {
            digits.parse::<u32>().ok()
        };
        let Some(number) = value else {
            self.error(
                Code::NumberTooLarge,
                start,
                end,
                format!("move number {} is too large", quote(digits)),
            );
            return false;
        };
        let span = self.span(start, end);
        stack
            .last_mut()
            .expect("a line")
            .note_number(number, dots, || span);
        self.pos = end;
        self.emit(|v| v.move_number_with(|| MoveNumber { number, dots, span }))
    }

    fn token_end(&self, from: usize) -> usize {
        token_end(self.bytes, from)
    }

    /// Counts a ply just read in its line (its move number checked), and hands it on.
    #[inline(always)]
    fn ply_read(&mut self, stack: &mut [Frame], ply: impl FnOnce() -> Ply) -> bool {
        stack.last_mut().expect("a line").count_ply(self.visitor);
        self.emit(|v| v.ply_with(ply))
    }
}

impl<'a, 'v, V: Visitor> Scanner<'a, 'v, V> {
    fn read_ply(&mut self, stack: &mut [Frame]) -> bool {
        let start = self.pos;
        // The usual ply, a pit alone (`a3`, `c17`) before a delimiter, is told by its
        // first bytes, without scanning the token, and built right in its slot (see
        // `push_element`).
        if let Some((from, end)) = lone_pit_at(self.bytes, start).filter(|_| self.numbers.is_none())
        {
            let span = self.span(start, end);
            self.pos = end;
            let ply = || Ply {
                syntax: lone_pit_ply(from),
                suffix: None,
                span,
            };
            return self.ply_read(stack, ply);
        }
        let end = self.token_end(start);
        let token = &self.bytes[start..end];
        let marks = token
            .iter()
            .rev()
            .take_while(|&&b| b == b'!' || b == b'?')
            .count();
        let core_end = end - marks;
        let suffix = if marks == 0 {
            None
        } else {
            let text = &self.text[core_end..end];
            match Suffix::from_text(text) {
                Some(s) => Some(s),
                None => {
                    self.error(
                        Code::Syntax,
                        core_end,
                        end,
                        format!(
                            "`{}` is not an annotation; expected ! ? !! ?? !? or ?!",
                            quote(text)
                        ),
                    );
                    return false;
                }
            }
        };
        let core = &self.bytes[start..core_end];
        let parsed = match self.numbers {
            None => parse_ply(core, pit),
            Some(numbers) => {
                let side = stack.last_mut().expect("a line").take_place();
                parse_ply(core, move |at| numbered_pit(at, numbers, side))
            }
        };
        let syntax = match parsed {
            Ok(s) => s,
            Err(PlyError {
                rest_len,
                kind: PlyErrorKind::NoPit,
            }) => {
                // Said of the whole ply, as written.
                let at = start + core.len() - rest_len;
                let name = &self.text[at..at + pit_name_len(&self.bytes[at..core_end])];
                let why = self.numbers.map(|n| n.no_pit(name)).unwrap_or_default();
                let token = &self.text[start..end];
                self.error(Code::Syntax, start, end, format!("in ply `{token}`: {why}"));
                return false;
            }
            Err(e) => {
                let problem = ply_problem(core, e, &self.text[start..end]);
                let at = start + problem.at;
                let at_end = (at + 1).min(end).max(at);
                self.error(problem.code, at, at_end, problem.message);
                return false;
            }
        };
        let span = self.span(start, end);
        self.pos = end;
        let ply = || Ply {
            syntax,
            suffix,
            span,
        };
        self.ply_read(stack, ply)
    }
}

/// Text with LF line breaks: every carriage return before a line feed belongs to the
/// line break and goes (all of them, as for a line comment's end: `\r\r\n` becoming
/// `\r\n` would not read back the same).
pub(super) fn lf_breaks(text: &str) -> CompactString {
    let mut out = CompactString::with_capacity(text.len());
    let mut crs = 0;
    for c in text.chars() {
        match c {
            '\r' => crs += 1,
            '\n' => {
                crs = 0;
                out.push('\n');
            }
            c => {
                out.extend(std::iter::repeat_n('\r', crs));
                crs = 0;
                out.push(c);
            }
        }
    }
    out.extend(std::iter::repeat_n('\r', crs));
    out
}

/// How many characters `text` has (its length when it is ASCII, as it usually is).
pub(super) fn chars(text: &str) -> u32 {
    if text.is_ascii() {
        text.len() as u32
    } else {
        text.chars().count() as u32
    }
}

/// How many bytes of `bytes` are `hit`. Counted in blocks of at most 255 bytes into
/// byte-wide lanes, which the compiler vectorises 16 or 32 bytes at a time (a count
/// straight into a `usize` widens every byte to a word first). The blocks are 240
/// bytes, a multiple of the vector width: with 255, each block ended in 15 bytes
/// counted one at a time.
#[inline(always)]
pub(in crate::pmn) fn count_bytes(bytes: &[u8], hit: impl Fn(u8) -> bool) -> usize {
    bytes
        .chunks(240)
        .map(|block| {
            let in_block = block.iter().fold(0u8, |n, &b| n + u8::from(hit(b)));
            usize::from(in_block)
        })
        .sum()
}
