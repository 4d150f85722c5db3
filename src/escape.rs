//! Text from records and file names on its way to a terminal: every control character a
//! terminal would act on (an escape sequence that recolours, moves the cursor or retitles
//! the window; a carriage return that overwrites the line) is written so that it shows,
//! and does nothing. Every human-readable message and text output goes through here.
//!
//! Machine-readable forms (PMN, JSON, CSV, SVG) keep the text as it is: it is data there,
//! and their writers escape what their syntax needs.

use std::borrow::Cow;

/// A control character a terminal would act on: all but tab and line feed, and a
/// carriage return but before a line feed.
fn acts_on_terminal(c: char, next: Option<char>) -> bool {
    match c {
        '\t' | '\n' => false,
        '\r' => next != Some('\n'),
        c => c.is_control(),
    }
}

/// `text` with each control character a terminal would act on replaced by what
/// `replace` writes for it (borrowed when there is none).
fn without_controls(text: &str, replace: impl Fn(char, &mut String)) -> Cow<'_, str> {
    // Borrowed unless something is replaced (a CRLF game has control characters that
    // need no replacing).
    let mut chars = text.chars().peekable();
    let mut clean = true;
    while let (true, Some(c)) = (clean, chars.next()) {
        clean = !acts_on_terminal(c, chars.peek().copied());
    }
    if clean {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if acts_on_terminal(c, chars.peek().copied()) {
            replace(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// A message, name or text for the terminal: control characters written as Rust's
/// escapes (`\u{1b}`, `\r`).
pub fn escaped(text: &str) -> Cow<'_, str> {
    without_controls(text, |c, out| out.extend(c.escape_default()))
}

/// [`escaped`] for text already owned, given back when there is nothing to escape.
pub fn escaped_owned(text: String) -> String {
    if let Cow::Owned(clean) = escaped(&text) {
        return clean;
    }
    text
}

/// A record's text for a snippet under which a span is marked: each control character
/// a terminal would act on is shown as a character of the same length in bytes (`?`,
/// or `¿` for the two-byte ones), so that every span still points where it did.
pub fn shown(text: &str) -> Cow<'_, str> {
    without_controls(text, |c, out| {
        out.push(if c.len_utf8() == 1 { '?' } else { '¿' })
    })
}

/// How many characters of a record's text (a ply, a token) a message quotes.
pub const QUOTED_CHARS: usize = 40;

/// `text` as a message quotes it: its first [`QUOTED_CHARS`] characters, and an ellipsis
/// when it is longer (a record's text has no bound; a message has).
pub fn quoted(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
        None => text.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_show_and_do_nothing() {
        let text = "a\u{1b}[31mred\u{7}\r\n\tb\rc\u{85}";
        assert_eq!(escaped(text), "a\\u{1b}[31mred\\u{7}\r\n\tb\\rc\\u{85}");
        assert_eq!(shown(text), "a?[31mred?\r\n\tb?c\u{bf}");
        assert_eq!(shown(text).len(), text.len());
        // Plain text, CRLF line ends and tabs are borrowed as they are.
        for plain in ["a1 b2", "x\r\ny\tz\n", ""] {
            assert!(matches!(escaped(plain), Cow::Borrowed(t) if t == plain));
        }
    }

    #[test]
    fn a_long_text_is_quoted_cut_with_an_ellipsis() {
        let long = "b1,".repeat(200_000);
        let q = quoted(&long);
        assert_eq!(q.chars().count(), QUOTED_CHARS + 1);
        assert!(q.ends_with('…') && long.starts_with(q.trim_end_matches('…')));
        assert_eq!(quoted("a1-a21#2"), "a1-a21#2");
    }
}
