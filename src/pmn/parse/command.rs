//! Commands `[%name args]` inside comments, read by hand (a split at whitespace).

use crate::pmn::ast::*;

/// A command's name and arguments.
type CommandWords<'a> = (&'a str, Args);

/// A command `[%name arg arg ...]` at the start of `text`: its name and its arguments
/// (nothing for `[%]`), and its length; `None` when `]` does not close it. Words are
/// split at any whitespace, as `str::split_whitespace` does. A word runs to whitespace
/// or `]`, so the first `]` closes the command. (By hand rather than in combinators:
/// most comments hold one, and this runs once a comment.)
pub(super) fn command(text: &str) -> Option<(usize, Option<CommandWords<'_>>)> {
    let rest = text.strip_prefix("[%")?;
    let close = find_byte(b']', rest.as_bytes())?;
    let inside = &rest[..close];
    let len = 2 + close + 1;
    // Trimmed by characters only when it may begin with whitespace (rarely).
    let inside = match inside.as_bytes().first() {
        Some(&b) if b > b' ' && b.is_ascii() => inside,
        _ => inside.trim_start(),
    };
    let words = (!inside.is_empty()).then(|| {
        // The name ends at the first whitespace (`char::is_whitespace`, which in ASCII
        // is tab to carriage return and space): told byte by byte while the text is
        // ASCII, as a command's name and arguments usually are, by characters after.
        let ascii_end = (inside.bytes())
            .position(|b| matches!(b, b'\t'..=b'\r' | b' ') || !b.is_ascii())
            .unwrap_or(inside.len());
        let name_end = match inside.as_bytes().get(ascii_end) {
            Some(b) if !b.is_ascii() => inside[ascii_end..]
                .find(char::is_whitespace)
                .map_or(inside.len(), |i| ascii_end + i),
            _ => ascii_end,
        };
        (&inside[..name_end], Args::split(&inside[name_end..]))
    });
    Some((len, words))
}

/// The first `byte` in `hay`: by a plain loop in the short texts of comments and
/// commands, where setting up memchr's vector search costs more than the search.
#[inline]
pub(super) fn find_byte(byte: u8, hay: &[u8]) -> Option<usize> {
    if hay.len() < 32 {
        hay.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, hay)
    }
}
