//! The PMN writer: records to the export form of PMN.md ("Import and export").
//!
//! Tags `Game Board Rules Event Site Date Round South North Result` first in that order,
//! then the others sorted by name; a blank line; move text with a move number before
//! every South ply and `N...` before a North ply that follows a comment or variation (or
//! starts a line), single spaces, lines of at most 80 characters, LF endings; a blank
//! line between games. Move numbers in the record are ignored and written afresh.
//!
//! The writer is syntax-only: it writes tag values as it is given them (normalising
//! `Board` and `Rules` is the caller's job) and must not know any game's rules.
//! Comment text must not contain `}` nor a line that begins with `[` but not `[%` (it
//! would start a new game when read), a line comment no line break, and tag values no
//! line break; records read by [`super::reader`] never do, records built from JSON
//! might.

use std::fmt::Write as _;

use super::ast::{CommentKind, Dots, Element, Record, Side};
use super::parse::move_number_for;

/// Tags written first, in this order; the others follow sorted by name.
pub const EXPORT_TAG_ORDER: [&str; 10] = [
    "Game", "Board", "Rules", "Event", "Site", "Date", "Round", "South", "North", "Result",
];

/// Lines of move text are at most this many characters (a single longer token, such as
/// a long comment, stands on its own line).
pub const MAX_LINE_CHARS: usize = 80;

/// One game in export form, ending with a line break.
pub fn write_game(record: &Record) -> String {
    let mut out = String::new();
    write_game_into(record, &mut out);
    out
}

/// Games in export form, separated by blank lines.
pub fn write_games<'a>(records: impl IntoIterator<Item = &'a Record>) -> String {
    let mut out = String::new();
    for (i, record) in records.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_game_into(record, &mut out);
    }
    out
}

/// Appends one game in export form to `out`.
pub fn write_game_into(record: &Record, out: &mut String) {
    let mut order: Vec<usize> = (0..record.tags.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| {
            let name = record.tags[i].name.as_ref();
            match EXPORT_TAG_ORDER.iter().position(|&n| n == name) {
                Some(p) => (p, ""),
                None => (EXPORT_TAG_ORDER.len(), name),
            }
        };
        key(a).cmp(&key(b))
    });
    for i in order {
        let tag = &record.tags[i];
        out.push('[');
        out.push_str(&tag.name);
        out.push_str(" \"");
        for c in tag.value.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]\n");
    }
    let mut tokens = Tokens::default();
    let first = match record.first_side() {
        Side::South => 0,
        Side::North => 1,
    };
    tokens.line(&record.moves, first);
    if let Some(result) = &record.result {
        tokens.push(result.result.as_str().to_string(), false);
    }
    if tokens.list.is_empty() {
        return;
    }
    if !record.tags.is_empty() {
        out.push('\n');
    }
    tokens.wrap_into(out);
}

#[derive(Default)]
struct Tokens {
    /// Token text and whether a line break must follow it (a `;` comment).
    list: Vec<(String, bool)>,
    /// `(` waiting to be glued to the next token.
    opens: usize,
}

impl Tokens {
    fn push(&mut self, text: String, ends_line: bool) {
        let text = if self.opens > 0 {
            let mut glued = "(".repeat(self.opens);
            glued.push_str(&text);
            self.opens = 0;
            glued
        } else {
            text
        };
        self.list.push((text, ends_line));
    }

    fn close(&mut self) {
        match self.list.last_mut() {
            Some((text, false)) if self.opens == 0 => text.push(')'),
            _ => self.push(")".to_string(), false),
        }
    }

    /// The tokens of one line of play whose first ply has absolute index `first`.
    fn line(&mut self, elements: &[Element], first: u64) {
        let mut index = first;
        let mut last = None;
        let mut number_north = true;
        for element in elements {
            match element {
                Element::MoveNumber(_) => {}
                Element::Ply(ply) => {
                    let (number, dots) = move_number_for(index);
                    if dots == Dots::One {
                        self.push(format!("{number}."), false);
                    } else if number_north {
                        self.push(format!("{number}..."), false);
                    }
                    let mut text = String::with_capacity(8);
                    let _ = write!(text, "{ply}");
                    self.push(text, false);
                    number_north = false;
                    last = Some(index);
                    index += 1;
                }
                Element::Comment(c) => {
                    match c.kind {
                        CommentKind::Brace => self.push(format!("{{{}}}", c.text), false),
                        CommentKind::Line => self.push(format!(";{}", c.text), true),
                    }
                    number_north = true;
                }
                Element::Nag(n) => self.push(format!("${}", n.code), false),
                Element::Variation(v) => {
                    self.opens += 1;
                    // A variation replaces the ply before it: it starts on that ply's side.
                    self.line(&v.elements, last.unwrap_or(index));
                    self.close();
                    number_north = true;
                }
            }
        }
    }

    fn wrap_into(self, out: &mut String) {
        let mut line_chars = 0;
        let mut break_next = false;
        for (text, ends_line) in self.list {
            let chars = text.chars().count();
            if line_chars > 0 {
                if break_next || line_chars + 1 + chars > MAX_LINE_CHARS {
                    out.push('\n');
                    line_chars = 0;
                } else {
                    out.push(' ');
                    line_chars += 1;
                }
            }
            out.push_str(&text);
            match text.rfind('\n') {
                Some(i) => line_chars = text[i + 1..].chars().count(),
                None => line_chars += chars,
            }
            // A token that ends inside a fresh line still counts as text on it.
            if line_chars == 0 && !text.is_empty() {
                line_chars = 1;
            }
            break_next = ends_line;
        }
        out.push('\n');
    }
}
