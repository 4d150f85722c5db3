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

use super::ast::{Comment, CommentKind, Dots, Element, Ply, Record, Side, Tag};
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
    write_moves(record, None, false, &mut out);
    if out.ends_with('\n') {
        out.pop();
    }
    out
}

/// A game's PMN text made of its tags, written as the export form writes them, and move
/// text as given (`movetext`, PMN move text read as it stands), after a blank line; as
/// [`write_game`] writes it when `movetext` is [`write_move_text`]'s.
pub fn write_game_with_move_text(tags: &[Tag], movetext: &str) -> String {
    let mut out = String::new();
    write_tags(tags, &mut out);
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
    write_tags(&record.tags, out);
    write_moves(record, numbers, !record.tags.is_empty(), out);
}

/// The move text's tokens and a line break after them (none when there is no token), a
/// blank line first when `blank_first`.
fn write_moves(
    record: &Record,
    numbers: Option<&dyn PitNumbers>,
    blank_first: bool,
    out: &mut String,
) {
    let mut tokens = Tokens::new(numbers, blank_first, out);
    let first = match record.first_side() {
        Side::South => 0,
        Side::North => 1,
    };
    tokens.line(&record.moves, first);
    if let Some(result) = &record.result {
        tokens.push(result.result.as_str().to_string(), false);
    }
    tokens.finish();
}

/// Writes the tags in the export form's order, a line each.
fn write_tags(tags: &[Tag], out: &mut String) {
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

/// The move text's tokens, written as they come, lines broken as they fill: the last
/// token is held until the next, as a `)` may be glued to it.
struct Tokens<'n> {
    /// The last token, not written yet.
    last: Option<Token>,
    /// `(` waiting to be glued to the next token.
    opens: usize,
    /// How the plies' pits are written: numbers, or PMN's names.
    numbers: Option<&'n dyn PitNumbers>,
    out: &'n mut String,
    /// A blank line is written before the first token (after tags).
    blank_first: bool,
    /// A token has been written.
    written: bool,
    /// Characters on the line written.
    line_chars: usize,
    /// A line break must come before the next token.
    break_next: bool,
}

/// Where a line of play is: the index of its next ply, of its last, and whether a
/// North ply there needs its move number.
struct Line {
    index: u64,
    last: Option<u64>,
    number_north: bool,
}

impl Line {
    fn from(first: u64) -> Line {
        Line {
            index: first,
            last: None,
            number_north: true,
        }
    }
}

/// The export form of one game written as the reader's events arrive: the text
/// [`write_game`] gives of the record the events build (with the tags given), without
/// holding that record. Move numbers, problems and the result's event are passed over:
/// the result is given to [`ExportWriter::finish`].
pub struct ExportWriter<'o> {
    tokens: Tokens<'o>,
    /// The lines the line read is nested in, outermost first.
    outer: Vec<Line>,
    line: Line,
}

impl<'o> ExportWriter<'o> {
    /// Writes `tags` to `out`, then the move text of the events, its first ply played
    /// by `first`.
    pub fn new(tags: &[Tag], first: Side, out: &'o mut String) -> ExportWriter<'o> {
        ExportWriter::numbered(tags, first, None, out)
    }

    /// [`ExportWriter::new`], the plies' pits written as `numbers` says when given: the
    /// text [`write_numbered_game`] gives of the record the events build.
    pub fn numbered(
        tags: &[Tag],
        first: Side,
        numbers: Option<&'o dyn PitNumbers>,
        out: &'o mut String,
    ) -> ExportWriter<'o> {
        write_tags(tags, out);
        ExportWriter {
            tokens: Tokens::new(numbers, !tags.is_empty(), out),
            outer: Vec::new(),
            line: Line::from(u64::from(first == Side::North)),
        }
    }

    /// Writes the result token, if any, and the end of the move text.
    pub fn finish(mut self, result: Option<super::ast::GameResult>) {
        if let Some(result) = result {
            self.tokens.push(result.as_str().to_string(), false);
        }
        self.tokens.finish();
    }
}

impl super::visit::Visitor for ExportWriter<'_> {
    fn ply(&mut self, ply: Ply) -> std::ops::ControlFlow<()> {
        self.tokens.ply_in(&mut self.line, &ply);
        std::ops::ControlFlow::Continue(())
    }

    fn comment(&mut self, comment: Comment) -> std::ops::ControlFlow<()> {
        self.tokens.comment_in(&mut self.line, &comment);
        std::ops::ControlFlow::Continue(())
    }

    fn nag(&mut self, nag: super::ast::Nag) -> std::ops::ControlFlow<()> {
        self.tokens.push(format!("${}", nag.code), false);
        std::ops::ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _open: super::ast::Span) -> super::visit::Skip {
        let inner = self.tokens.open(&self.line);
        self.outer.push(std::mem::replace(&mut self.line, inner));
        super::visit::Skip::No
    }

    fn end_variation(&mut self, _span: super::ast::Span) -> std::ops::ControlFlow<()> {
        if let Some(outer) = self.outer.pop() {
            self.line = outer;
            self.tokens.close_in(&mut self.line);
        }
        std::ops::ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: super::problem::Problem) {}
}

struct Token {
    text: String,
    /// The characters the token takes on its line when lines are broken: those of its
    /// text, or of its PMN twin for a ply written in numbers.
    width: usize,
    /// Whether a line break must follow it (a `;` comment).
    ends_line: bool,
}

impl<'n> Tokens<'n> {
    fn new(
        numbers: Option<&'n dyn PitNumbers>,
        blank_first: bool,
        out: &'n mut String,
    ) -> Tokens<'n> {
        Tokens {
            last: None,
            opens: 0,
            numbers,
            out,
            blank_first,
            written: false,
            line_chars: 0,
            break_next: false,
        }
    }

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
        let token = Token {
            text,
            width,
            ends_line,
        };
        if let Some(last) = self.last.replace(token) {
            self.write(last);
        }
    }

    fn close(&mut self) {
        match self.last.as_mut() {
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
        let mut line = Line::from(first);
        for element in elements {
            match element {
                Element::MoveNumber(_) => {}
                Element::Ply(ply) => self.ply_in(&mut line, ply),
                Element::Comment(c) => self.comment_in(&mut line, c),
                Element::Nag(n) => self.push(format!("${}", n.code), false),
                Element::Variation(v) => {
                    let inner = self.open(&line);
                    self.line(&v.elements, inner.index);
                    self.close_in(&mut line);
                }
            }
        }
    }

    /// A ply of the line, with the move number before it when it needs one.
    fn ply_in(&mut self, line: &mut Line, ply: &Ply) {
        let (number, dots) = move_number_for(line.index);
        if dots == Dots::One {
            self.push(format!("{number}."), false);
        } else if line.number_north {
            self.push(format!("{number}..."), false);
        }
        self.ply(ply, line.index);
        line.number_north = false;
        line.last = Some(line.index);
        line.index += 1;
    }

    fn comment_in(&mut self, line: &mut Line, c: &Comment) {
        match c.kind {
            CommentKind::Brace => self.push(format!("{{{}}}", c.text), false),
            CommentKind::Line => self.push(format!(";{}", c.text), true),
        }
        line.number_north = true;
    }

    /// A variation opened in `line`: the line it starts. A variation replaces the ply
    /// before it: it starts on that ply's side.
    fn open(&mut self, line: &Line) -> Line {
        self.opens += 1;
        Line::from(line.last.unwrap_or(line.index))
    }

    /// The variation in `line` closed.
    fn close_in(&mut self, line: &mut Line) {
        self.close();
        line.number_north = true;
    }

    /// Writes a token, after a space or a line break.
    fn write(&mut self, token: Token) {
        let Token {
            text,
            width: chars,
            ends_line,
        } = token;
        let out = &mut *self.out;
        if !self.written && self.blank_first {
            out.push('\n');
        }
        self.written = true;
        if self.line_chars > 0 {
            if self.break_next || self.line_chars + 1 + chars > MAX_LINE_CHARS {
                out.push('\n');
                self.line_chars = 0;
            } else {
                out.push(' ');
                self.line_chars += 1;
            }
        }
        out.push_str(&text);
        match text.rfind('\n') {
            Some(i) => self.line_chars = text[i + 1..].chars().count(),
            None => self.line_chars += chars,
        }
        // A token that ends inside a fresh line still counts as text on it.
        if self.line_chars == 0 && !text.is_empty() {
            self.line_chars = 1;
        }
        self.break_next = ends_line;
    }

    /// Writes the last token, and the line break that ends the move text (none when
    /// there is no move text).
    fn finish(mut self) {
        if let Some(last) = self.last.take() {
            self.write(last);
        }
        if self.written {
            self.out.push('\n');
        }
    }
}
