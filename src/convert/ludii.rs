//! Reading Ludii's move lists.

use crate::pmn::{self, ParsedGame, Span};
use crate::replay::{rules_of, ReplayOptions};

use super::input::{read_numbered, InputError};
use super::numbering::Numbering;

/// A piece of a line of a Ludii move list: its text, and where it starts in the file.
#[derive(Clone, Debug)]
struct LudiiText {
    pub(super) text: String,
    pub(super) line: u32,
    pub(super) column: u32,
}

impl LudiiText {
    /// `part`, a slice of the `line`-th line of the file, `text`.
    fn of(part: &str, text: &str, line: u32) -> LudiiText {
        let at = (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
        let before = text.get(..at).unwrap_or_default();
        LudiiText {
            text: part.to_string(),
            line,
            column: 1 + before.chars().count() as u32,
        }
    }
}

/// A game of a Ludii move list being read.
#[derive(Default)]
struct LudiiGame {
    pub(super) tags: Vec<LudiiText>,
    pub(super) plies: Vec<LudiiText>,
    pub(super) comments: Vec<(usize, LudiiText)>,
    pub(super) end: Option<LudiiText>,
    /// The last line of the file that is the game's, and its length in characters: a
    /// result the list does not write is put at its end.
    pub(super) last: (u32, u32),
}

/// Where a line of the PMN text made of a Ludii game was in the file.
struct LudiiOrigin {
    /// Byte offset of the line in the PMN text.
    pub(super) start: usize,
    /// The line's text as the file has it, and where it starts there.
    pub(super) read: LudiiText,
}

impl LudiiGame {
    pub(super) fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.plies.is_empty() && self.comments.is_empty()
    }

    fn has_moves(&self) -> bool {
        !self.plies.is_empty() || !self.comments.is_empty() || self.end.is_some()
    }

    /// The game as PMN text whose plies name pits by Ludii's sites, with where each of
    /// its lines was in the file.
    fn to_pmn(&self) -> (String, Vec<LudiiOrigin>) {
        let mut text = String::new();
        let mut origins = Vec::new();
        for tag in &self.tags {
            origins.push(LudiiOrigin {
                start: text.len(),
                read: tag.clone(),
            });
            text.push_str(&tag.text);
            text.push('\n');
        }
        // The blank line after the tags holds nothing to place.
        text.push('\n');
        let mut push = |line: &str, read: &LudiiText| {
            origins.push(LudiiOrigin {
                start: text.len(),
                read: read.clone(),
            });
            text.push_str(line);
            text.push('\n');
        };
        let mut comments = self.comments.iter().peekable();
        for (i, ply) in self.plies.iter().enumerate() {
            while let Some((_, c)) = comments.next_if(|(at, _)| *at <= i) {
                push(&c.text, c);
            }
            push(&ply.text, ply);
        }
        for (_, c) in comments {
            push(&c.text, c);
        }
        let end = self.end.clone().unwrap_or_else(|| LudiiText {
            text: "*".into(),
            line: self.last.0,
            column: 1 + self.last.1,
        });
        push(&end.text, &end);
        (text, origins)
    }

    /// The game, read as PMN, its spans placed in the file: their lines and columns
    /// are those of the list as written (their byte offsets, the PMN text's).
    ///
    /// Its PMN text is one game, unless a line of the list begins with `[` (a tag line
    /// written without `//`): the PMN reader begins a game there, and each game it reads
    /// is given, so that nothing of the list is passed over unsaid.
    fn read(&self, options: &ReplayOptions) -> Vec<ParsedGame> {
        let (text, origins) = self.to_pmn();
        let place = |span: &mut Span| {
            let Some(o) = (origins.partition_point(|o| o.start <= span.start))
                .checked_sub(1)
                .map(|i| &origins[i])
            else {
                return;
            };
            let within = span.start - o.start;
            let read = &o.read;
            let before = read.text.get(..within.min(read.text.len()));
            span.line = read.line;
            span.column = read.column + before.map_or(0, |b| b.chars().count() as u32);
        };
        // The sites are read by the rules of the list's own header, in every game of
        // the PMN text.
        let tags: String = self.tags.iter().map(|t| format!("{}\n", t.text)).collect();
        let head = pmn::parse_str(&format!("{tags}\n*\n"));
        let record = head.first().map(|g| g.record.clone()).unwrap_or_default();
        let rules = rules_of(&record, &options.overrides).ok();
        let mut reader = pmn::Reader::new(text.as_bytes());
        let mut games: Vec<ParsedGame> = std::iter::from_fn(|| reader.next_text())
            .map(|game| {
                let decoding = game.problems().to_vec();
                let parsed = game.parse();
                match &rules {
                    Some(rules) => read_numbered(parsed, decoding, rules, Numbering::Ludii),
                    None => parsed,
                }
            })
            .collect();
        for game in &mut games {
            game.record.for_each_span_mut(place);
            game.problems.iter_mut().for_each(|p| place(&mut p.span));
            let mut first = Span {
                start: game.offset,
                ..Span::default()
            };
            place(&mut first);
            game.line = first.line;
        }
        games
    }
}

/// Reads a Ludii move list (docs/ludii.md) as PMN games. What is reported of a game
/// points at the list: its lines, and in them the columns, of the sites written.
pub fn read_ludii(text: &str, options: &ReplayOptions) -> Vec<ParsedGame> {
    let mut games = Vec::new();
    let read = each_ludii_game(text, options, &mut |game| {
        games.push(game);
        Ok::<_, InputError>(())
    });
    debug_assert!(read.is_ok(), "the games are only gathered");
    games
}

/// [`read_ludii`], giving each game to `game` as soon as it is read.
pub(super) fn each_ludii_game<E>(
    text: &str,
    options: &ReplayOptions,
    game: &mut dyn FnMut(ParsedGame) -> Result<(), E>,
) -> Result<(), E> {
    let mut current = LudiiGame::default();
    let mut flush = |g: &mut LudiiGame| {
        let read = if g.is_empty() {
            Vec::new()
        } else {
            g.read(options)
        };
        *g = LudiiGame::default();
        read.into_iter().try_for_each(&mut *game)
    };
    for (number, line) in text.lines().enumerate() {
        let number = number as u32 + 1;
        let line = line.trim_end_matches('\r');
        let piece = |part: &str| LudiiText::of(part, line, number);
        if let Some(comment) = line.strip_prefix("//") {
            if comment.trim_start().starts_with('[') {
                if current.has_moves() {
                    flush(&mut current)?;
                }
                current.tags.push(piece(comment.trim_start()));
            } else if comment.starts_with('{') || comment.starts_with(';') {
                current.comments.push((current.plies.len(), piece(comment)));
            } else if let Some(result) = (comment.trim().strip_prefix("end"))
                .filter(|rest| rest.starts_with(char::is_whitespace))
            {
                // The result ends the game: what follows is another's.
                current.end = Some(piece(result.trim()));
                flush(&mut current)?;
            } else {
                continue;
            }
            current.last = (number, line.chars().count() as u32);
            continue;
        }
        let ply = line.trim();
        if !ply.is_empty() {
            current.plies.push(piece(ply));
            current.last = (number, line.chars().count() as u32);
        } else if current.has_moves() {
            // Games are separated by a blank line (docs/ludii.md).
            flush(&mut current)?;
        }
    }
    flush(&mut current)
}
