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

use std::fmt::{self, Write as _};

use super::ast::{CommentKind, Dots, Element, Ply, Record, Side, Tag};
use super::parse::{move_number_for, PitNumbers};

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
    write_numbered_game_into(record, None, out);
}

/// One game in export form, the plies' pits written as `numbers` says. A ply with a pit
/// that has no number is written with PMN's names. Lines break where they break in the
/// export form with PMN's names, so that line for line the two texts hold the same
/// plies.
pub fn write_numbered_game(record: &Record, numbers: &dyn PitNumbers) -> String {
    let mut out = String::new();
    write_numbered_game_into(record, Some(numbers), &mut out);
    out
}

/// The move text of one game (moves and result) as the export form writes it after
/// the tags' blank line, without the line break that ends it: empty for a game with no
/// move and no result. The tags written as the export form writes them, a blank line and
/// this text, and a line break, are [`write_game`]'s text.
pub fn write_move_text(record: &Record) -> String {
    let mut out = String::new();
    if let Some(tokens) = move_tokens(record, None) {
        tokens.wrap_into(&mut out);
        out.pop();
    }
    out
}

/// A game's PMN text made of its tags, written as the export form writes them, and move
/// text as given (`movetext`, PMN move text read as it stands), after a blank line; as
/// [`write_game`] writes it when `movetext` is [`write_move_text`]'s.
pub fn write_game_with_move_text(tags: &[Tag], movetext: &str) -> String {
    let mut out = String::new();
    write_tags_into(tags, &mut out);
    if !movetext.trim().is_empty() {
        if !tags.is_empty() {
            out.push('\n');
        }
        out.push_str(movetext);
        if !movetext.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

fn write_numbered_game_into(record: &Record, numbers: Option<&dyn PitNumbers>, out: &mut String) {
    write_tags_into(&record.tags, out);
    let Some(tokens) = move_tokens(record, numbers) else {
        return;
    };
    if !record.tags.is_empty() {
        out.push('\n');
    }
    tokens.wrap_into(out);
}

/// Tag lines in the export order.
fn write_tags_into(tags: &[Tag], out: &mut String) {
    let mut order: Vec<usize> = (0..tags.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| {
            let name = tags[i].name.as_ref();
            match EXPORT_TAG_ORDER.iter().position(|&n| n == name) {
                Some(p) => (p, ""),
                None => (EXPORT_TAG_ORDER.len(), name),
            }
        };
        key(a).cmp(&key(b))
    });
    for i in order {
        let tag = &tags[i];
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
}

/// The tokens of a game's moves and result; `None` when it has neither.
fn move_tokens<'n>(record: &Record, numbers: Option<&'n dyn PitNumbers>) -> Option<Tokens<'n>> {
    let mut tokens = Tokens {
        list: Vec::new(),
        opens: 0,
        numbers,
    };
    let first = match record.first_side() {
        Side::South => 0,
        Side::North => 1,
    };
    tokens.line(&record.moves, first);
    if let Some(result) = &record.result {
        tokens.push(result.result.as_str().to_string(), false);
    }
    (!tokens.list.is_empty()).then_some(tokens)
}

struct Tokens<'n> {
    list: Vec<Token>,
    /// `(` waiting to be glued to the next token.
    opens: usize,
    /// How the plies' pits are written: numbers, or PMN's names.
    numbers: Option<&'n dyn PitNumbers>,
}

struct Token {
    text: String,
    /// The characters the token takes on its line when lines are broken: those of its
    /// text, or of its PMN twin for a ply written in numbers.
    width: usize,
    /// Whether a line break must follow it (a `;` comment).
    ends_line: bool,
}

impl Tokens<'_> {
    fn push(&mut self, text: String, ends_line: bool) {
        let width = text.chars().count();
        self.push_as(text, width, ends_line);
    }

    fn push_as(&mut self, text: String, width: usize, ends_line: bool) {
        let text = if self.opens > 0 {
            let mut glued = "(".repeat(self.opens);
            glued.push_str(&text);
            glued
        } else {
            text
        };
        let width = width + self.opens;
        self.opens = 0;
        self.list.push(Token {
            text,
            width,
            ends_line,
        });
    }

    fn close(&mut self) {
        match self.list.last_mut() {
            Some(token) if !token.ends_line && self.opens == 0 => {
                token.text.push(')');
                token.width += 1;
            }
            _ => self.push(")".to_string(), false),
        }
    }

    /// A ply of absolute index `index`, its pits numbered when the writer has numbers.
    fn ply(&mut self, ply: &Ply, index: u64) {
        let mut text = String::with_capacity(8);
        let _ = write!(text, "{ply}");
        let Some(numbers) = self.numbers else {
            return self.push(text, false);
        };
        let side = if index.is_multiple_of(2) {
            Side::South
        } else {
            Side::North
        };
        let width = text.chars().count();
        let mut numbered = String::with_capacity(text.len());
        let written = ply.syntax.write_pits(&mut numbered, |f, pit| {
            let number = numbers.number(side, pit).ok_or(fmt::Error)?;
            write!(f, "{number}")
        });
        if written.is_ok() {
            if let Some(s) = ply.suffix {
                numbered.push_str(s.as_str());
            }
            text = numbered;
        }
        self.push_as(text, width, false);
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
                    self.ply(ply, index);
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
        for Token {
            text,
            width: chars,
            ends_line,
        } in self.list
        {
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
