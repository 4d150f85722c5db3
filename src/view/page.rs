//! The page's text: its head, the index of its games, each game's data in a script
//! element of its own, and its script.

use std::collections::HashMap;
use std::io::Write;

use serde::Serialize;

use super::{GameView, SCRIPT, STYLE};

/// Writes JSON for a `<script type="application/json">` element: no `<` in it, so no
/// text in a record (`</script>` in a comment) can end the element.
pub(super) fn json_in_script(value: &impl Serialize, out: &mut dyn Write) -> std::io::Result<()> {
    let mut out = NoLessThan(out);
    serde_json::to_writer(&mut out, value).map_err(std::io::Error::from)
}

/// A writer that writes `<` as `\u003c`: in JSON, `<` occurs only inside strings,
/// where the two mean the same.
struct NoLessThan<'a>(&'a mut dyn Write);

impl Write for NoLessThan<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for (i, piece) in buf.split(|&b| b == b'<').enumerate() {
            if i > 0 {
                self.0.write_all(b"\\u003c")?;
            }
            self.0.write_all(piece)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Escapes text for HTML content: the same escaping as the board's SVG.
fn html_escape(text: &str) -> String {
    crate::diagram::xml_escape(text)
}

/// The summary of a game in the page's list of games.
#[derive(Serialize)]
struct Entry<'a> {
    title: String,
    input: &'a str,
    index: usize,
    errors: usize,
    warnings: usize,
    first_error: Option<u32>,
}

/// Text without spaces, in lower case: `Bao la Kimasai` names `BaoLaKimasai`.
fn squeezed(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

fn title_of(view: &GameView) -> String {
    let tag = |name: &str| {
        (view.tags.iter())
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.trim().is_empty() && *v != "?")
    };
    let players = match (tag("South"), tag("North")) {
        (Some(s), Some(n)) => Some(format!("{s} – {n}")),
        _ => None,
    };
    let game = tag("Game").unwrap_or("?");
    match (tag("Event"), players) {
        // An event names its game more often than not.
        (Some(event), _) if squeezed(event).contains(&squeezed(game)) => event.to_string(),
        (Some(name), _) => format!("{game}: {name}"),
        (None, Some(players)) => format!("{game}: {players}"),
        (None, None) => format!("{game}, {} game {}", view.input, view.index),
    }
}

/// What the page's index holds of its games: one board drawing for each rule set, and
/// a summary of each game.
#[derive(Default)]
pub(super) struct PageParts {
    boards: Vec<String>,
    seen: HashMap<String, usize>,
    entries: Vec<OwnedEntry>,
}

/// [`Entry`], held while the games are written.
struct OwnedEntry {
    title: String,
    input: String,
    index: usize,
    errors: usize,
    warnings: usize,
    first_error: Option<u32>,
}

impl PageParts {
    /// The games added.
    pub(super) fn games(&self) -> usize {
        self.entries.len()
    }

    /// Adds a game, next in the page: its board drawing is numbered among the page's.
    pub(super) fn add(&mut self, view: &mut GameView) {
        if let Some(svg) = view.svg.take() {
            let next = self.seen.len();
            let i = *self.seen.entry(svg.clone()).or_insert(next);
            view.board = Some(i);
            if i == next {
                self.boards.push(svg);
            }
        }
        self.entries.push(OwnedEntry {
            title: title_of(view),
            input: view.input.clone(),
            index: view.index,
            errors: view.errors,
            warnings: view.warnings,
            first_error: view.first_error,
        });
    }

    /// Writes the page: its head, the index, the games' scripts (`games` writes them)
    /// and its script.
    pub(super) fn write(
        &self,
        title: &str,
        out: &mut dyn Write,
        games: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let entries: Vec<Entry> = (self.entries.iter())
            .map(|e| Entry {
                title: e.title.clone(),
                input: &e.input,
                index: e.index,
                errors: e.errors,
                warnings: e.warnings,
                first_error: e.first_error,
            })
            .collect();
        let mut head = String::new();
        head.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        // Nothing is loaded from anywhere: the page works from file:// for years.
        head.push_str(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n",
        );
        head.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        head.push_str("<meta name=\"generator\" content=\"sow view\">\n");
        head.push_str(&format!("<title>{}</title>\n", html_escape(title)));
        head.push_str("<style>\n");
        head.push_str(STYLE);
        head.push_str("</style>\n</head>\n<body>\n");
        head.push_str(BODY);
        head.push_str("<script type=\"application/json\" id=\"sow-index\">");
        out.write_all(head.as_bytes())?;
        json_in_script(
            &serde_json::json!({ "title": title, "boards": self.boards, "games": entries }),
            out,
        )?;
        out.write_all(b"</script>\n")?;
        games(out)?;
        out.write_all(b"<script>\n")?;
        out.write_all(SCRIPT.as_bytes())?;
        out.write_all(b"</script>\n</body>\n</html>\n")
    }
}

/// Writes a game's data as the page holds it, in its own script element: a JSON object,
/// its fields in the order the page's script reads them, each line's positions and
/// plies copied from where they were written as it was replayed.
pub(super) fn game_script(view: &mut GameView, out: &mut dyn Write) -> std::io::Result<()> {
    write!(
        out,
        "<script type=\"application/json\" id=\"sow-game-{}\">",
        view.number
    )?;
    let first = &mut true;
    field(out, first, "number", &view.number)?;
    field(out, first, "input", &view.input)?;
    field(out, first, "index", &view.index)?;
    field(out, first, "tags", &view.tags)?;
    field(out, first, "rules", &view.rules)?;
    field(out, first, "board", &view.board)?;
    key(out, first, "positions")?;
    view.data.write_positions(&view.main, out)?;
    key(out, first, "plies")?;
    view.data.write_plies(&view.main, out)?;
    field(out, first, "stop", &view.stop)?;
    field(out, first, "plies_written", &view.plies_written)?;
    field(out, first, "moves", &view.moves)?;
    if !view.variations.is_empty() {
        key(out, first, "variations")?;
        for (i, v) in view.variations.iter().enumerate() {
            out.write_all(if i == 0 { b"[" } else { b"," })?;
            let first = &mut true;
            field(out, first, "at", &v.at)?;
            key(out, first, "positions")?;
            view.data.write_positions(&v.line, out)?;
            key(out, first, "plies")?;
            view.data.write_plies(&v.line, out)?;
            field(out, first, "stop", &v.stop)?;
            field(out, first, "diagnostics", &v.diagnostics)?;
            out.write_all(b"}")?;
        }
        out.write_all(b"]")?;
    }
    field(out, first, "start_stones", &view.start_stones)?;
    field(out, first, "diagnostics", &view.diagnostics)?;
    field(out, first, "declared", &view.declared)?;
    field(out, first, "ending", &view.ending)?;
    field(out, first, "errors", &view.errors)?;
    field(out, first, "warnings", &view.warnings)?;
    field(out, first, "first_error", &view.first_error)?;
    out.write_all(b"}</script>\n")
}

/// Writes a field's name in a JSON object, after `{` if it is the `first`, else `,`.
fn key(out: &mut dyn Write, first: &mut bool, name: &str) -> std::io::Result<()> {
    out.write_all(if std::mem::take(first) { b"{" } else { b"," })?;
    json_in_script(&name, out)?;
    out.write_all(b":")
}

/// Writes a field of a JSON object (see [`key`]) with its value.
fn field(
    out: &mut dyn Write,
    first: &mut bool,
    name: &str,
    value: &impl Serialize,
) -> std::io::Result<()> {
    key(out, first, name)?;
    json_in_script(value, out)
}

/// The page's markup; the script fills it in.
const BODY: &str = include_str!("body.html");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_in_a_script_cannot_end_it() {
        let mut out = Vec::new();
        json_in_script(&"a </script><b> & c", &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(!out.contains('<'), "{out}");
        assert_eq!(
            serde_json::from_str::<String>(&out).unwrap(),
            "a </script><b> & c"
        );
    }
}
