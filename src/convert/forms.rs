//! The forms `sow convert` reads and writes, and how an input's form is told.

use crate::corpus::Input;

use super::input::InputError;
use super::{NUMBERING_TAG, RELATIVE};

/// The form `sow convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertTo {
    /// PMN's export form.
    Pmn,
    /// A JSON array of records.
    Json,
    /// A JSON record a line.
    Jsonl,
    /// A CSV row a ply.
    Csv,
    /// Long text: every ply told in words.
    Long,
    /// PMN with seat-relative numbers.
    Relative,
    /// A Ludii move list.
    Ludii,
}

/// The form `sow convert` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertFrom {
    /// PMN.
    Pmn,
    /// PMN with seat-relative numbers.
    Relative,
    /// A Ludii move list.
    Ludii,
    /// The `json` or `jsonl` output of `sow convert` (or bare records in PMN's JSON form).
    Json,
}

impl ConvertFrom {
    /// The form's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ConvertFrom::Pmn => "pmn",
            ConvertFrom::Relative => "relative",
            ConvertFrom::Ludii => "ludii",
            ConvertFrom::Json => "json",
        }
    }

    /// The form a file's extension says: `None` for one that says nothing (`.txt`,
    /// standard input).
    pub fn of_name(input: &Input) -> Option<ConvertFrom> {
        let Input::File(path) = input else {
            return None;
        };
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        [ConvertFrom::Pmn, ConvertFrom::Json, ConvertFrom::Ludii]
            .into_iter()
            .find(|f| f.extensions().contains(&ext.as_str()))
    }

    /// The form a text is in, by its content: JSON starts with `{` or `[` (an array, not
    /// a tag), a Ludii move list has its `//` lines (its heading, tags or `end`), PMN a
    /// `[Name "..."]` tag line (relative numbering, its `Numbering` tag too). `None` when
    /// the content says none of them.
    pub fn of_text(text: &str) -> Option<ConvertFrom> {
        if looks_like_json(text) {
            Some(ConvertFrom::Json)
        } else if ludii_marker(text) {
            Some(ConvertFrom::Ludii)
        } else if relative_mark_line(text).is_some() {
            Some(ConvertFrom::Relative)
        } else if pmn_tag_line(text).is_some() {
            Some(ConvertFrom::Pmn)
        } else {
            None
        }
    }

    /// Why a text is not in this form, when its content says it is in another: JSON or
    /// Ludii's list read as PMN, PMN read as Ludii's list, relative numbering read as
    /// PMN. (JSON's reader refuses any text that is not JSON on its own.)
    pub(super) fn refuses(self, text: &str) -> Option<InputError> {
        let not = |what: &str, is: ConvertFrom, at: Option<(usize, usize)>| InputError {
            at,
            message: format!(
                "not {what}: the input reads as {} (give --from {})",
                is.describe(),
                is.name()
            ),
        };
        let what = self.describe();
        match self {
            ConvertFrom::Pmn | ConvertFrom::Relative => {
                if looks_like_json(text) {
                    return Some(not(what, ConvertFrom::Json, None));
                }
                if ludii_marker(text) && pmn_tag_line(text).is_none() {
                    return Some(not(what, ConvertFrom::Ludii, None));
                }
                let line = relative_mark_line(text).filter(|_| self == ConvertFrom::Pmn)?;
                Some(not(what, ConvertFrom::Relative, Some((line, 1))))
            }
            ConvertFrom::Ludii => {
                if looks_like_json(text) {
                    return Some(not(what, ConvertFrom::Json, None));
                }
                let line = pmn_tag_line(text)?;
                let is = match relative_mark_line(text) {
                    Some(_) => ConvertFrom::Relative,
                    None => ConvertFrom::Pmn,
                };
                Some(not(what, is, Some((line, 1))))
            }
            ConvertFrom::Json => None,
        }
    }

    pub(super) fn describe(self) -> &'static str {
        match self {
            ConvertFrom::Pmn => "PMN",
            ConvertFrom::Relative => "PMN in relative numbering",
            ConvertFrom::Ludii => "a Ludii move list",
            ConvertFrom::Json => "JSON",
        }
    }

    /// The extensions (without the dot) of the files a folder is walked for: those
    /// `sow convert --to` writes the form as (`ludii` has no extension of Ludii's own:
    /// Ludii's `.lud` files are rule files, not move lists, so it is named after the
    /// form).
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            ConvertFrom::Pmn | ConvertFrom::Relative => crate::corpus::PMN_EXTENSIONS,
            ConvertFrom::Json => &["json", "jsonl"],
            ConvertFrom::Ludii => &["ludii"],
        }
    }
}

/// Whether a text starts as JSON does: `{` followed by a key's `"` or the `}` of an
/// empty object (a PMN game may open with a brace comment, `{A note}`), or `[` followed
/// by what begins a JSON value (a PMN tag line starts `[` and a name); and its first
/// value reads as JSON, or breaks off at the end of the text (a file cut short). A stray
/// `[` before a tag line, or a brace comment that opens with a quotation, is PMN.
fn looks_like_json(text: &str) -> bool {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let next = |rest: &str| rest.trim_start().chars().next();
    let starts = match (text.strip_prefix('['), text.strip_prefix('{')) {
        (Some(rest), _) => {
            next(rest).is_none_or(|c| matches!(c, '{' | '[' | ']' | '"') || c.is_ascii_digit())
        }
        (None, Some(rest)) => next(rest).is_none_or(|c| matches!(c, '"' | '}')),
        (None, None) => false,
    };
    let first = || {
        let mut values =
            serde_json::Deserializer::from_str(text).into_iter::<serde::de::IgnoredAny>();
        values.next()
    };
    starts && first().is_none_or(|value| value.is_ok() || value.is_err_and(|e| e.is_eof()))
}

/// The line (from 1) of the first PMN tag line, `[Name "`, outside a Ludii comment.
fn pmn_tag_line(text: &str) -> Option<usize> {
    text.lines().position(is_tag_line).map(|i| i + 1)
}

fn is_tag_line(line: &str) -> bool {
    let Some(rest) = line.trim().strip_prefix('[') else {
        return false;
    };
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    name_len > 0 && rest[name_len..].trim_start().starts_with('"')
}

/// The line (from 1) of a `[Numbering "relative"]` tag line, the mark of relative
/// numbering.
fn relative_mark_line(text: &str) -> Option<usize> {
    let mark = |line: &str| {
        let line = line.trim();
        let Some(value) = (line.strip_prefix('['))
            .and_then(|l| l.strip_suffix(']'))
            .and_then(|l| l.trim().strip_prefix(NUMBERING_TAG))
        else {
            return false;
        };
        let value = value.trim().trim_matches('"');
        value.trim().eq_ignore_ascii_case(RELATIVE)
    };
    text.lines().position(mark).map(|i| i + 1)
}

/// Whether a text has a line only a Ludii move list has: its heading, a `//[` tag or a
/// `// end` result.
fn ludii_marker(text: &str) -> bool {
    text.lines().any(|line| {
        let Some(comment) = line.strip_prefix("//") else {
            return false;
        };
        let comment = comment.trim_start();
        comment.starts_with("Ludii move list")
            || (comment.starts_with('[') && is_tag_line(comment))
            || comment
                .strip_prefix("end")
                .is_some_and(|r| r.starts_with(' '))
    })
}

/// The extensions of every form read, for a folder walked without `--from`.
pub const EXTENSIONS: &[&str] = &["pmn", "json", "jsonl", "ludii"];

/// The form a conversion reads and the form it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forms {
    /// The form read; `None`: each input's own, told by its extension, else by its
    /// content ([`ConvertFrom::of_name`], [`ConvertFrom::of_text`]).
    pub from: Option<ConvertFrom>,
    pub to: ConvertTo,
    /// Keep a game with errors, in a form that fails where the input fails, instead of
    /// leaving it out.
    pub keep_broken: bool,
    /// `jsonl`: write the position after every ply and every ply's laps, as `json`
    /// does (and the plies, as [`Forms::plies`] does). The other forms are not changed
    /// by it.
    pub positions: bool,
    /// `jsonl`: write the move text as the record's syntax tree (`moves`) and each
    /// ply's effect (`replay.plies`), without the position after each ply and its laps
    /// (the position after the last ply once). Without it, or `positions`, a line holds
    /// the move text as PMN text (`movetext`) and no ply's effect, and stays a small
    /// multiple of its game's text. The other forms are not changed by it.
    pub plies: bool,
}

impl Forms {
    /// Whether the output holds each ply's effect, read from the replay's plies.
    pub fn writes_plies(self) -> bool {
        match self.to {
            ConvertTo::Json | ConvertTo::Long | ConvertTo::Csv | ConvertTo::Ludii => true,
            ConvertTo::Jsonl => self.positions || self.plies,
            ConvertTo::Pmn | ConvertTo::Relative => false,
        }
    }

    /// Whether the output holds the position after every ply and every ply's laps.
    pub fn writes_positions(self) -> bool {
        match self.to {
            ConvertTo::Json | ConvertTo::Long => true,
            ConvertTo::Jsonl => self.positions,
            ConvertTo::Pmn | ConvertTo::Relative | ConvertTo::Csv | ConvertTo::Ludii => false,
        }
    }
}

impl ConvertTo {
    /// The form's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ConvertTo::Pmn => "pmn",
            ConvertTo::Json => "json",
            ConvertTo::Jsonl => "jsonl",
            ConvertTo::Csv => "csv",
            ConvertTo::Long => "long",
            ConvertTo::Relative => "relative",
            ConvertTo::Ludii => "ludii",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PMN file that opens with a brace comment is PMN, not JSON.
    #[test]
    fn a_brace_comment_before_the_first_game_is_not_json() {
        let pmn = "{A note before the game}\n[Game \"Tsoro\"]\n\n1. a3 *\n";
        assert!(!looks_like_json(pmn));
        assert_eq!(ConvertFrom::of_text(pmn), Some(ConvertFrom::Pmn));
        for json in [
            "{\"tags\": []}",
            " { }",
            "[{\"tags\": []}]",
            "[]",
            "\u{feff}{\n \"a\": 1}",
            // Cut short, still JSON.
            "[{\"tags\": [{\"name\": \"Game\"",
        ] {
            assert!(looks_like_json(json), "{json}");
        }
    }

    /// A stray `[` before the first tag line, or a brace comment that opens with a
    /// quotation, leaves a PMN file PMN.
    #[test]
    fn a_stray_bracket_or_a_quoted_comment_before_the_tags_is_not_json() {
        for pmn in [
            "[\n\n[Game \"Tsoro\"]\n\n1. a3 *\n",
            "{\"Quoted\" said the player}\n[Game \"Tsoro\"]\n\n1. a3 *\n",
        ] {
            assert!(!looks_like_json(pmn), "{pmn}");
            assert_eq!(ConvertFrom::of_text(pmn), Some(ConvertFrom::Pmn), "{pmn}");
        }
    }
}
