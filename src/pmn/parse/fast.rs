//! The scanner's fast lane: the usual tokens (spaces, move numbers, plies of plain
//! pits) read straight into their slots, in one loop; anything else goes to the general
//! loop, which makes the same elements and problems token for token.

use std::ops::ControlFlow;

use crate::pmn::ast::*;
use crate::pmn::visit::Visitor;

use super::numbers::Frame;
use super::ply::{lone_pit_ply, usual_pit};
use super::{is_delimiter, is_space, Scanner};

impl<'a, 'v, V: Visitor> Scanner<'a, 'v, V> {
    /// Reads the tokens of most move text, spaces, move numbers and plies made of pits
    /// (`a3`, `c17xa4,b12:2`, `b9-a7#2xd5`), in one loop that keeps the scanner's place in
    /// locals; returns before the first other token (a comment, a result, a suffix, or
    /// anything malformed), which the general loop reads. The elements and problems are
    /// those the general loop would make, token for token. The line must be ASCII so far
    /// (`line_wide` false): a column is then a byte count.
    // Not inlined: in a function of its own its loop keeps its values in registers, and
    // a change to the general loop does not move its code.
    #[inline(never)]
    pub(super) fn read_usual_tokens(&mut self, stack: &mut [Frame], content_end: &mut usize) {
        let bytes = self.bytes;
        let base = self.base_offset;
        let (mut pos, mut line, mut line_start) = (self.pos, self.line, self.line_start);
        let frame = stack.last_mut().expect("a line");
        let live = self.skipping == 0;
        let visitor = &mut *self.visitor;
        let mut read_any = false;
        let mut go = ControlFlow::Continue(());
        while let Some(&b) = bytes.get(pos) {
            // The space between tokens, nearly always one ` `, is told without a look-up.
            if b == b' ' {
                pos += 1;
                continue;
            }
            if is_space(b) {
                if b == b'\n' {
                    line += 1;
                    line_start = pos + 1;
                }
                pos += 1;
                continue;
            }
            let span = Span {
                start: base + pos,
                end: base + pos,
                line,
                column: 1 + (pos - line_start) as u32,
            };
            let end = if b.is_ascii_digit() {
                let Some((number, dots, end)) = usual_move_number(bytes, pos) else {
                    break;
                };
                let span = Span {
                    end: base + end,
                    ..span
                };
                frame.note_number(number, dots, || span);
                if live {
                    go = visitor.move_number_with(|| MoveNumber { number, dots, span });
                }
                end
            } else {
                let Some((from, len)) = usual_pit(&bytes[pos..]) else {
                    break;
                };
                // A pit alone (the most usual ply), or the rest of a longer ply read
                // into it. The ply is built whole where it is handed on, after the
                // count, so that it is not copied with wide loads over its narrow stores.
                let after = pos + len;
                if bytes.get(after).is_none_or(|&b| is_delimiter(b)) {
                    frame.count_ply(visitor);
                    if live {
                        go = visitor.ply_with(|| Ply {
                            syntax: lone_pit_ply(from),
                            suffix: None,
                            span: Span {
                                end: base + after,
                                ..span
                            },
                        });
                    }
                    after
                } else {
                    let mut syntax = lone_pit_ply(from);
                    let PlySyntax::Sowing(sowing) = &mut syntax else {
                        break;
                    };
                    let Some(end) = usual_sowing(bytes, after, sowing) else {
                        break;
                    };
                    frame.count_ply(visitor);
                    if live {
                        go = visitor.ply_with(|| Ply {
                            syntax,
                            suffix: None,
                            span: Span {
                                end: base + end,
                                ..span
                            },
                        });
                    }
                    end
                }
            };
            read_any = true;
            *content_end = pos;
            pos = end;
            if go.is_break() {
                break;
            }
        }
        self.any_element |= read_any;
        self.halted |= go.is_break();
        (self.pos, self.line, self.line_start) = (pos, line, line_start);
    }
}

/// A move number of at most nine digits and one or three dots at `at` (not a result):
/// its number, dots and end. `None` for anything else, which the general loop reads.
#[inline(always)]
pub(super) fn usual_move_number(bytes: &[u8], at: usize) -> Option<(u32, Dots, usize)> {
    // A number of one to three digits, told from the bytes at hand without a loop (the
    // move numbers of nearly every game); any other is counted below.
    if let Some(&[d0, b1, b2, b3, ..]) = bytes.get(at..) {
        let digit = |b: u8| b.wrapping_sub(b'0');
        let (number, after) = if b1 == b'.' {
            (u32::from(digit(d0)), 1)
        } else if digit(b1) <= 9 && b2 == b'.' {
            (u32::from(digit(d0)) * 10 + u32::from(digit(b1)), 2)
        } else if digit(b1) <= 9 && digit(b2) <= 9 && b3 == b'.' {
            let n = u32::from(digit(d0)) * 100 + u32::from(digit(b1)) * 10;
            (n + u32::from(digit(b2)), 3)
        } else {
            (0, 0)
        };
        // The first dot is at `at + after`; what follows it tells one dot from three.
        let dots = bytes.get(at + after + 1..at + after + 4);
        match (after, dots) {
            (0, _) => {}
            (_, Some(&[next, ..])) if next != b'.' => {
                return Some((number, Dots::One, at + after + 1));
            }
            (_, Some(&[b'.', b'.', next])) if next != b'.' => {
                return Some((number, Dots::Three, at + after + 3));
            }
            _ => {}
        }
    }
    counted_move_number(bytes, at)
}

/// [`usual_move_number`] by counting digits and dots: any move number it reads.
pub(super) fn counted_move_number(bytes: &[u8], at: usize) -> Option<(u32, Dots, usize)> {
    if matches!(bytes.get(at + 1), Some(b'-' | b'/')) {
        return None;
    }
    let digits = bytes[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits > 9 {
        return None;
    }
    let number = bytes[at..at + digits]
        .iter()
        .fold(0u32, |v, d| v * 10 + u32::from(d - b'0'));
    let after = at + digits;
    let count = bytes[after..].iter().take_while(|&&b| b == b'.').count();
    let dots = match count {
        1 => Dots::One,
        3 => Dots::Three,
        _ => return None,
    };
    Some((number, dots, after + count))
}

/// A count (`:n`, `#k`) at `at`: digits without a leading zero, at most 65535. `None`
/// for anything else.
#[inline(always)]
fn usual_count(bytes: &[u8], at: usize) -> Option<(u16, usize)> {
    let digits = bytes[at.min(bytes.len())..]
        .iter()
        .take(6)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 5 || (digits > 1 && bytes[at] == b'0') {
        return None;
    }
    let value = bytes[at..at + digits]
        .iter()
        .fold(0u32, |v, d| v * 10 + u32::from(d - b'0'));
    let value = u16::try_from(value).ok()?;
    Some((value, at + digits))
}

/// The rest of a sowing of usual pits with no suffix, from `at` after its first pit,
/// `[:n][-P[#k]][x[P[:n],...]]` up to a delimiter or the end of the text, read into
/// `sowing` (a pit alone so far) as [`ply`] reads it: where the ply ends. `None` for
/// anything else, which [`Scanner::read_ply`] reads or reports.
#[inline(always)]
fn usual_sowing(bytes: &[u8], at: usize, sowing: &mut Sowing) -> Option<usize> {
    let delimited = |p: usize| bytes.get(p).is_none_or(|&b| is_delimiter(b));
    let mut p = at;
    if delimited(p) {
        return Some(p);
    }
    if bytes[p] == b':' {
        let (lift, end) = usual_count(bytes, p + 1)?;
        sowing.lift = Some(lift);
        p = end;
    }
    if bytes.get(p) == Some(&b'-') {
        let (pit, len) = usual_pit(&bytes[p + 1..])?;
        sowing.end = Some(pit);
        p += 1 + len;
        if bytes.get(p) == Some(&b'#') {
            let (arrival, end) = usual_count(bytes, p + 1)?;
            sowing.arrival = Some(arrival);
            p = end;
        }
    }
    if bytes.get(p) == Some(&b'x') {
        p += 1;
        let pits = sowing.capture.insert(BonusPits::new());
        if !delimited(p) {
            loop {
                let (pit, len) = usual_pit(&bytes[p..])?;
                p += len;
                let mut count = None;
                if bytes.get(p) == Some(&b':') {
                    let (n, end) = usual_count(bytes, p + 1)?;
                    count = Some(n);
                    p = end;
                }
                pits.push(PitCount { pit, count });
                if bytes.get(p) != Some(&b',') {
                    break;
                }
                p += 1;
            }
        }
    }
    delimited(p).then_some(p)
}

/// A pit alone at `at` in `bytes` (`a3`, `c17`), followed by a delimiter or the end of
/// the text: the pit and where the token ends. `None` for anything else.
#[inline(always)]
pub(super) fn lone_pit_at(bytes: &[u8], at: usize) -> Option<(Pit, usize)> {
    let (pit, len) = usual_pit(&bytes[at..])?;
    let end = at + len;
    bytes
        .get(end)
        .is_none_or(|&b| is_delimiter(b))
        .then_some((pit, end))
}
