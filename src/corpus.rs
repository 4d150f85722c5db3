//! Finding and reading the records a command is pointed at: files, folders walked
//! recursively for the files of the input's form (`*.pmn`, or what `sow convert --from`
//! names), and `-` for standard input; and the filters every corpus command shares
//! (`--game NAME`, `--where TAG=VALUE`, `TAG~REGEX`, `TAG>=VALUE`...); and the one
//! driver every corpus command walks
//! its inputs with ([`drive`]: batches in input order, worked on in parallel, results in
//! input order).
//!
//! Nothing here writes anywhere: input files are only ever opened for reading.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use walkdir::WalkDir;

use crate::pmn::{GameText, ParsedGame, Reader, Record};
use crate::rules::Game;

/// One input to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The name diagnostics use for it.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".into(),
            Input::File(p) => p.display().to_string(),
        }
    }

    /// Opens the input for streaming. Files are not buffered here: the [`Reader`] keeps
    /// its own buffer, and a second would copy every byte once more.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        Ok(match self {
            Input::Stdin => Box::new(io::stdin()),
            Input::File(p) => Box::new(File::open(p)?),
        })
    }

    /// The games of the input, one at a time, each at most `max_game_bytes` of text
    /// (`None`: the reader's default).
    pub fn games(&self, max_game_bytes: Option<usize>) -> io::Result<Reader<Box<dyn Read + Send>>> {
        let reader = Reader::new(self.open()?);
        Ok(match max_game_bytes {
            Some(bytes) => reader.with_max_game_bytes(bytes),
            None => reader,
        })
    }
}

/// A path that could not be used, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub path: String,
    pub reason: String,
    /// An error (unreadable, missing) rather than a note (hidden entry skipped).
    pub error: bool,
    /// How many inputs were found before it: it is reported before input `before`,
    /// so that reports follow the order of the paths.
    pub before: usize,
}

/// The extensions a folder is walked for when the input is PMN.
pub const PMN_EXTENSIONS: &[&str] = &["pmn"];

/// Expands command-line paths into inputs: files as given (whatever their extension),
/// folders walked recursively for `*.pmn` in a stable (sorted) order, `-` for standard
/// input. Hidden entries inside folders are skipped and reported; unreadable entries
/// and symlink loops are reported; nothing stops the walk.
pub fn expand(paths: &[PathBuf]) -> (Vec<Input>, Vec<Skipped>) {
    expand_for(paths, PMN_EXTENSIONS)
}

/// [`expand`], folders walked for the files whose extension (without the dot, any
/// case) is one of `extensions`. A folder that yields no file is reported with a note
/// (not an error): a command given it would otherwise read nothing and say nothing.
pub fn expand_for(paths: &[PathBuf], extensions: &[&str]) -> (Vec<Input>, Vec<Skipped>) {
    let mut inputs = Vec::new();
    let mut skipped = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Err(e) => skipped.push(Skipped {
                path: path.display().to_string(),
                reason: e.to_string(),
                error: true,
                before: inputs.len(),
            }),
            Ok(meta) if meta.is_dir() => walk(path, extensions, &mut inputs, &mut skipped),
            Ok(_) => inputs.push(Input::File(path.clone())),
        }
    }
    (inputs, skipped)
}

/// `*.json or *.jsonl`.
fn patterns(extensions: &[&str]) -> String {
    let patterns: Vec<String> = extensions.iter().map(|e| format!("*.{e}")).collect();
    match patterns.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "no".into(),
    }
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.to_str()
        .is_some_and(|n| n.starts_with('.') && n != "." && n != "..")
}

fn walk(root: &Path, extensions: &[&str], inputs: &mut Vec<Input>, skipped: &mut Vec<Skipped>) {
    let (found_before, skipped_before) = (inputs.len(), skipped.len());
    // Files passed over for their extension, to say so when nothing else is found.
    let mut others = 0;
    let mut walker = WalkDir::new(root)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    loop {
        let entry = match walker.next() {
            None => break,
            Some(Ok(entry)) => entry,
            Some(Err(e)) => {
                let path = e
                    .path()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| root.display().to_string());
                let reason = if e.loop_ancestor().is_some() {
                    "symbolic link loop; not followed".to_string()
                } else {
                    e.io_error()
                        .map(ToString::to_string)
                        .unwrap_or_else(|| e.to_string())
                };
                skipped.push(Skipped {
                    path,
                    reason,
                    error: true,
                    before: inputs.len(),
                });
                continue;
            }
        };
        if entry.depth() > 0 && is_hidden(entry.file_name()) {
            skipped.push(Skipped {
                path: entry.path().display().to_string(),
                reason: "hidden entry; not read".into(),
                error: false,
                before: inputs.len(),
            });
            if entry.file_type().is_dir() {
                walker.skip_current_dir();
            }
            continue;
        }
        if !entry.file_type().is_file() {
            continue;
        }
        let wanted = entry.path().extension().is_some_and(|e| {
            extensions
                .iter()
                .any(|wanted| e.eq_ignore_ascii_case(wanted))
        });
        if wanted {
            inputs.push(Input::File(entry.into_path()));
        } else {
            others += 1;
        }
    }
    // An error met in the walk has been reported already, and fails the command.
    let failed = skipped[skipped_before..].iter().any(|s| s.error);
    if inputs.len() == found_before && !failed {
        let others = match others {
            0 => String::new(),
            1 => " (1 file of another kind not read)".into(),
            n => format!(" ({n} files of other kinds not read)"),
        };
        skipped.push(Skipped {
            path: root.display().to_string(),
            reason: format!(
                "no {} file in this folder or below it{others}; nothing read from it",
                patterns(extensions)
            ),
            error: false,
            before: inputs.len(),
        });
    }
}

/// The record filters shared by the corpus commands.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// `--game NAME`: only games whose `Game` tag is NAME (case-insensitive).
    pub game: Option<String>,
    /// `--where TAG=VALUE`: only games with that tag value (all must hold). A game
    /// without a `Board` tag has its game's default board; without a `Rules` tag, the
    /// empty set of options.
    pub tags: Vec<(String, String)>,
    /// The other `--where` conditions (`~`, `!=`, `<`, `<=`, `>`, `>=`), which must hold
    /// as well, defaults counted as for `tags`.
    pub conditions: Vec<TagCondition>,
    /// What the games offered to the filter held: to say, when none passed, what the
    /// nearest value was. Shared by the clones the threads hold.
    seen: Arc<Mutex<Seen>>,
}

/// The games offered to a filter: whether any passed, and the tag names and the values
/// of the filtered tags they held (a few hundred of each at most).
#[derive(Debug, Default)]
struct Seen {
    passed: bool,
    names: BTreeSet<String>,
    values: BTreeMap<String, BTreeSet<String>>,
}

/// How many distinct names or values of a tag are kept to compare with.
const SEEN_AT_MOST: usize = 512;

impl Filter {
    /// Parses `--where` filters: `TAG=VALUE` (exact), `TAG!=VALUE`, `TAG~REGEX` (a
    /// regular expression found anywhere in the value), and `TAG<VALUE`, `<=`, `>`,
    /// `>=` (dates compared part by part, other values as numbers).
    pub fn new(game: Option<String>, wheres: &[String]) -> Result<Filter, String> {
        let mut tags = Vec::new();
        let mut conditions = Vec::new();
        for w in wheres {
            match TagCondition::parse(w)? {
                TagCondition {
                    name,
                    test: TagTest::Equal(value),
                } => tags.push((name, value)),
                other => conditions.push(other),
            }
        }
        Ok(Filter {
            game,
            tags,
            conditions,
            ..Filter::default()
        })
    }

    pub fn is_empty(&self) -> bool {
        self.game.is_none() && self.tags.is_empty() && self.conditions.is_empty()
    }

    /// Whether a game read is kept: what stands for no game (an empty file, a failure
    /// to read) is the file's, and no filter hides it.
    pub fn keeps(&self, game: &ParsedGame) -> bool {
        self.is_empty() || game.is_no_game() || self.accepts(&game.record)
    }

    pub fn accepts(&self, record: &Record) -> bool {
        if self.is_empty() {
            return true;
        }
        let game = record.tag("Game");
        // Trimmed, as the replay reads the tag (`[Game "Tsoro "]` is Tsoro).
        let game_passes = (self.game.as_ref())
            .is_none_or(|g| game.is_some_and(|t| t.trim().eq_ignore_ascii_case(g.trim())));
        let values: Vec<Option<String>> = (self.tags.iter())
            .map(|(k, _)| tag_or_default(record, k))
            .collect();
        let passes = game_passes
            && (self.tags.iter().zip(&values)).all(|((_, v), t)| t.as_deref() == Some(v.as_str()))
            && (self.conditions.iter())
                .all(|c| c.holds(tag_or_default(record, &c.name).as_deref()));
        if let Ok(mut seen) = self.seen.lock() {
            seen.passed |= passes;
            if !seen.passed {
                for tag in &record.tags {
                    if seen.names.len() < SEEN_AT_MOST {
                        seen.names.insert(tag.name.to_string());
                    }
                }
                let game_value = (self.game.as_ref()).map(|_| game.map(|g| g.trim().to_string()));
                let asked = (game_value.map(|v| ("Game".to_string(), v)).into_iter())
                    .chain(self.tags.iter().map(|(k, _)| k.clone()).zip(values));
                for (name, value) in asked {
                    let Some(value) = value else {
                        continue;
                    };
                    let set = seen.values.entry(name).or_default();
                    if set.len() < SEEN_AT_MOST {
                        set.insert(value);
                    }
                }
            }
        }
        passes
    }

    /// When no game offered passed the filter: what it asked that no game has, and the
    /// nearest tag name or value that a game does have (`no game has Site=Mutko;
    /// nearest: Mutoko`). `None` when a game passed, or the filter is empty.
    pub fn none_matched(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let seen = self.seen.lock().ok()?;
        if seen.passed {
            return None;
        }
        let asked = (self.game.iter().map(|g| ("Game".to_string(), g.clone())))
            .chain(self.tags.iter().cloned());
        for (name, value) in asked {
            let Some(values) = seen.values.get(&name) else {
                let nearest = nearest(&name, seen.names.iter());
                let mut said = format!("no game has the tag {name}");
                if let Some(n) = nearest {
                    let _ = write!(said, "; nearest tag: {n}");
                }
                return Some(said);
            };
            let holds = |v: &String| {
                if name == "Game" {
                    v.eq_ignore_ascii_case(value.trim())
                } else {
                    *v == value
                }
            };
            if !values.iter().any(holds) {
                let mut said = format!("no game has {name}={value}");
                if let Some(n) = nearest(&value, values.iter()) {
                    let _ = write!(said, "; nearest: {n}");
                }
                return Some(said);
            }
        }
        Some("no game passes every filter together".to_string())
    }
}

/// A `--where` condition on a tag's value (defaults counted: see [`Filter::tags`]).
#[derive(Clone, Debug)]
pub struct TagCondition {
    pub name: String,
    pub test: TagTest,
}

/// How a tag's value is tested.
#[derive(Clone, Debug)]
pub enum TagTest {
    /// `=`: the value, exactly.
    Equal(String),
    /// `!=`: any value but this one; a game without the tag passes.
    NotEqual(String),
    /// `~`: the regular expression matches somewhere in the value.
    Matches(regex::Regex),
    /// `<`, `<=`, `>`, `>=`: compared as dates for `Date` and `*Date` tags, else as
    /// numbers; a value that cannot be compared (`????`, not a number) fails.
    Compare(std::cmp::Ordering, bool, String),
}

/// A date as PMN writes it, `YYYY.MM.DD`, its parts `?` when unknown; or a prefix of it.
fn date_parts(value: &str) -> Vec<Option<u32>> {
    value
        .trim()
        .split('.')
        .map(|part| part.parse::<u32>().ok())
        .collect()
}

/// How a date compares with a bound given as a prefix of a date (`1964`, `1964.05`):
/// part by part while the bound has parts; `None` when a part the answer rests on is
/// unknown.
fn compare_dates(value: &str, bound: &str) -> Option<std::cmp::Ordering> {
    let value = date_parts(value);
    for (i, b) in date_parts(bound).into_iter().enumerate() {
        let ordering = value.get(i).copied().flatten()?.cmp(&b?);
        if ordering.is_ne() {
            return Some(ordering);
        }
    }
    Some(std::cmp::Ordering::Equal)
}

impl TagCondition {
    /// Reads `TAG=VALUE`, `TAG!=VALUE`, `TAG~REGEX`, `TAG<VALUE`, `TAG<=VALUE`,
    /// `TAG>VALUE` or `TAG>=VALUE`. The tag's name ends at the first operator.
    pub fn parse(text: &str) -> Result<TagCondition, String> {
        let wrong = || format!("--where takes TAG=VALUE (or ~ != < <= > >=), found {text:?}");
        let at = text.find(['=', '~', '!', '<', '>']).ok_or_else(wrong)?;
        let (name, rest) = text.split_at(at);
        if name.is_empty() {
            return Err(wrong());
        }
        use std::cmp::Ordering::{Greater, Less};
        let (test, value) = if let Some(v) = rest.strip_prefix("!=") {
            (TagTest::NotEqual(v.to_string()), v)
        } else if let Some(v) = rest.strip_prefix(">=") {
            (TagTest::Compare(Greater, true, v.to_string()), v)
        } else if let Some(v) = rest.strip_prefix("<=") {
            (TagTest::Compare(Less, true, v.to_string()), v)
        } else if let Some(v) = rest.strip_prefix('>') {
            (TagTest::Compare(Greater, false, v.to_string()), v)
        } else if let Some(v) = rest.strip_prefix('<') {
            (TagTest::Compare(Less, false, v.to_string()), v)
        } else if let Some(v) = rest.strip_prefix('~') {
            let regex = regex::Regex::new(v)
                .map_err(|e| format!("--where {text:?}: not a regular expression: {e}"))?;
            (TagTest::Matches(regex), v)
        } else if let Some(v) = rest.strip_prefix('=') {
            (TagTest::Equal(v.to_string()), v)
        } else {
            return Err(wrong());
        };
        if let TagTest::Compare(..) = test {
            let is_date = name.ends_with("Date");
            let comparable = if is_date {
                date_parts(value).first().is_some_and(Option::is_some)
            } else {
                value.trim().parse::<f64>().is_ok()
            };
            if !comparable {
                let kind = if is_date {
                    "a date (YYYY, YYYY.MM or YYYY.MM.DD)"
                } else {
                    "a number"
                };
                return Err(format!("--where {text:?}: {name} is compared with {kind}"));
            }
        }
        Ok(TagCondition {
            name: name.to_string(),
            test,
        })
    }

    /// Whether a game whose tag (or its default) is `value` passes.
    pub fn holds(&self, value: Option<&str>) -> bool {
        match (&self.test, value) {
            (TagTest::NotEqual(v), value) => value != Some(v.as_str()),
            (_, None) => false,
            (TagTest::Equal(v), Some(value)) => value == v,
            (TagTest::Matches(regex), Some(value)) => regex.is_match(value),
            (TagTest::Compare(side, or_equal, bound), Some(value)) => {
                let ordering = if self.name.ends_with("Date") {
                    compare_dates(value, bound)
                } else {
                    let number = |s: &str| s.trim().parse::<f64>().ok();
                    number(value)
                        .zip(number(bound))
                        .and_then(|(v, b)| v.partial_cmp(&b))
                };
                ordering.is_some_and(|o| o == *side || (*or_equal && o.is_eq()))
            }
        }
    }
}

/// A tag's value as the filters see it: as written (trimmed), else the default a game
/// without it has (its game's default board; no rule options).
fn tag_or_default(record: &Record, name: &str) -> Option<String> {
    if let Some(value) = record.tag(name) {
        return Some(value.trim().to_string());
    }
    match name {
        "Board" => {
            let game = Game::from_name(record.tag("Game")?)?;
            Some(game.default_board().to_string())
        }
        "Rules" => Some(String::new()),
        _ => None,
    }
}

/// The candidate nearest to `wanted` by edit distance (case aside), if any is near
/// enough to be a slip: at most a third of the longer's characters differ.
fn nearest<'a>(wanted: &str, candidates: impl Iterator<Item = &'a String>) -> Option<&'a String> {
    let wanted_lower = wanted.to_lowercase();
    candidates
        .map(|c| (edit_distance(&wanted_lower, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= wanted.chars().count().max(c.chars().count()).div_ceil(3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Games read and handled together: one batch of a file is handled in parallel.
pub const BATCH: usize = 256;

/// A batch also ends once its games' text reaches this many bytes, so that memory is
/// bounded by the text, not by the count: a syntax tree takes many times its text.
pub const BATCH_BYTES: usize = 1 << 18;

/// A piece of work read from the inputs, in input order.
#[derive(Debug)]
pub enum Work {
    /// A game (its number in its input, from 1), to be parsed where it is used, and
    /// then filtered ([`Filter::keeps`]).
    Game {
        input: usize,
        index: usize,
        game: GameText,
    },
    /// An input that could not be opened.
    Unreadable { input: usize, error: io::Error },
}

impl Work {
    /// The number of the input it comes from, from 0.
    pub fn input(&self) -> usize {
        match self {
            Work::Game { input, .. } | Work::Unreadable { input, .. } => *input,
        }
    }

    /// The game's number in its input (from 1) and its text; `Err` with the report
    /// (`NAME: ...`) when its input could not be opened or read. `names` are the inputs'
    /// names.
    pub fn game_text(self, names: &[String]) -> Result<(usize, GameText), String> {
        let (input, index, text) = match self {
            Work::Unreadable { input, error } => return Err(format!("{}: {error}", names[input])),
            Work::Game { input, index, game } => (input, index, game),
        };
        match text.read_failure(&names[input]) {
            Some(report) => Err(report),
            None => Ok((index, text)),
        }
    }

    /// The game, parsed, if it is one the analysers use: `Ok(None)` for a file's
    /// stand-in (a file with no game) or a game the filter leaves out; `Err` with the
    /// report (`NAME: ...`) when its input could not be opened or read. `names` are the
    /// inputs' names.
    pub fn parse_game(
        self,
        names: &[String],
        filter: &Filter,
    ) -> Result<Option<(usize, ParsedGame)>, String> {
        let (index, text) = self.game_text(names)?;
        let game = text.parse();
        if game.is_no_game() || !filter.accepts(&game.record) {
            return Ok(None);
        }
        Ok(Some((index, game)))
    }
}

/// The games of the inputs, in input order, in batches of at most [`BATCH`] games and
/// about [`BATCH_BYTES`] of text: what `validate`, `stats` and `plot` read. The games
/// are not parsed yet: each is parsed where it is used, on the thread that replays it
/// (see [`GameText`]), and the filter applies then.
pub struct Batches<'a> {
    inputs: &'a [Input],
    /// The input being read, its reader, and the number of the last game read from it.
    input: usize,
    games: Option<(Reader<Box<dyn Read + Send>>, usize)>,
    max_game_bytes: Option<usize>,
}

impl<'a> Batches<'a> {
    /// Nothing is opened until the first batch is asked for. Each game's text is at
    /// most `max_game_bytes` (`None`: the reader's default; see [`Input::games`]).
    pub fn new(inputs: &'a [Input], max_game_bytes: Option<usize>) -> Batches<'a> {
        Batches {
            inputs,
            input: 0,
            games: None,
            max_game_bytes,
        }
    }

    /// The next batch; `None` when every input has been read.
    pub fn next_batch(&mut self) -> Option<Vec<Work>> {
        let mut batch = Vec::with_capacity(BATCH);
        let mut bytes = 0;
        while batch.len() < BATCH && bytes < BATCH_BYTES && self.input < self.inputs.len() {
            let Some((games, index)) = &mut self.games else {
                match self.inputs[self.input].games(self.max_game_bytes) {
                    Ok(games) => self.games = Some((games, 0)),
                    Err(e) => {
                        batch.push(Work::Unreadable {
                            input: self.input,
                            error: e,
                        });
                        self.input += 1;
                    }
                }
                continue;
            };
            let Some(game) = games.next_text() else {
                self.games = None;
                self.input += 1;
                continue;
            };
            *index += 1;
            bytes += game.text_len();
            batch.push(Work::Game {
                input: self.input,
                index: *index,
                game,
            });
        }
        (!batch.is_empty()).then_some(batch)
    }
}

/// Where the pieces of a corpus' work come from, a batch at a time, in input order.
pub trait Source: Send {
    /// A piece of work.
    type Piece: Send;
    /// The next batch; `None` when every input has been read.
    fn next_batch(&mut self) -> Option<Vec<Self::Piece>>;
    /// The number of the input a piece comes from, from 0.
    fn input_of(piece: &Self::Piece) -> usize;
    /// How many inputs there are.
    fn inputs(&self) -> usize;
}

impl Source for Batches<'_> {
    type Piece = Work;

    fn next_batch(&mut self) -> Option<Vec<Work>> {
        Batches::next_batch(self)
    }

    fn input_of(piece: &Work) -> usize {
        piece.input()
    }

    fn inputs(&self) -> usize {
        self.inputs.len()
    }
}

/// Whole inputs, as many a batch as there are threads to work on them: for forms whose
/// text is read whole (Ludii's move lists, JSON). A piece is an input's number.
pub struct WholeInputs {
    count: usize,
    next: usize,
}

impl WholeInputs {
    pub fn new(inputs: &[Input]) -> WholeInputs {
        WholeInputs {
            count: inputs.len(),
            next: 0,
        }
    }
}

impl Source for WholeInputs {
    type Piece = usize;

    fn next_batch(&mut self) -> Option<Vec<usize>> {
        let end = self
            .count
            .min(self.next + rayon::current_num_threads().max(1));
        let batch: Vec<usize> = (self.next..end).collect();
        self.next = end;
        (!batch.is_empty()).then_some(batch)
    }

    fn input_of(piece: &usize) -> usize {
        *piece
    }

    fn inputs(&self) -> usize {
        self.count
    }
}

/// The one corpus driver of `validate`, `stats`, `plot` and `convert`: the pieces of
/// work of the inputs (their games, or whole inputs) read in order, a batch at a time,
/// `work` done on each piece of a batch in parallel while the next batch is read, and
/// each result handed to `sink` in input order with the number of the input it comes
/// from (an input that could not be opened is a piece of work too: every one is
/// reported). `done` is told, after each batch, how many inputs are read whole. Memory
/// holds about three batches and their results, however large the corpus. The first
/// error of `sink` stops the walk.
///
/// With one thread (`-j 1`) a batch is worked on this thread, then the next read: handed
/// to a pool of one worker, each batch would cost a wake-up and a wait.
pub fn drive<S: Source, T: Send, E>(
    source: S,
    work: impl Fn(S::Piece) -> T + Sync,
    sink: impl FnMut(usize, T) -> Result<(), E>,
    done: impl FnMut(usize),
) -> Result<(), E> {
    drive_with(source, || (), |_, piece| work(piece), sink, done)
}

/// [`drive`], each worker doing its work with a context of its own that `init` makes
/// (reusable buffers, a cache), kept from piece to piece: one for the whole walk with
/// one thread, one for each of rayon's splits of a batch with more.
pub fn drive_with<S: Source, W: Send, T: Send, E>(
    mut source: S,
    init: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, S::Piece) -> T + Sync,
    mut sink: impl FnMut(usize, T) -> Result<(), E>,
    mut done: impl FnMut(usize),
) -> Result<(), E> {
    let one_thread = rayon::current_num_threads() <= 1;
    let mut context = one_thread.then(&init);
    let mut render = |batch: Vec<S::Piece>| -> Vec<(usize, T)> {
        let one = |context: &mut W, piece: S::Piece| (S::input_of(&piece), work(context, piece));
        match &mut context {
            Some(context) => batch.into_iter().map(|piece| one(context, piece)).collect(),
            None => batch.into_par_iter().map_init(&init, one).collect(),
        }
    };
    let mut current = source.next_batch();
    while let Some(batch) = current {
        // The inputs before the batch's last one are read whole once it is.
        let read = batch.last().map_or(0, S::input_of);
        let (next, results) = if one_thread {
            let results = render(batch);
            (source.next_batch(), results)
        } else {
            // The reading worker joins the work when it is done.
            rayon::join(|| source.next_batch(), || render(batch))
        };
        for (input, result) in results {
            sink(input, result)?;
        }
        done(read);
        current = next;
    }
    done(source.inputs());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the driver hands on for a corpus, with `threads` threads: each result with
    /// its input, in the order received.
    fn driven(inputs: &[Input], threads: usize) -> Vec<(usize, String)> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut got = Vec::new();
        let mut done = Vec::new();
        pool.install(|| {
            let work = |w: Work| match w {
                Work::Game { index, game, .. } => format!("game {index}: {}", game.text_len()),
                Work::Unreadable { .. } => "unreadable".to_string(),
            };
            let sink = |input, result| {
                got.push((input, result));
                Ok::<(), ()>(())
            };
            drive(Batches::new(inputs, None), work, sink, |n| done.push(n)).unwrap();
        });
        assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
        assert_eq!(done.last(), Some(&inputs.len()));
        got
    }

    #[test]
    fn the_driver_keeps_input_order_and_reports_every_unreadable_input() {
        let dir = tempfile::tempdir().unwrap();
        let mut inputs = Vec::new();
        for (i, games) in [600, 0, 3, 1].into_iter().enumerate() {
            let path = dir.path().join(format!("{i}.pmn"));
            let text: String = (0..games)
                .map(|g| format!("[Game \"Tsoro\"]\n[Round \"{g}\"]\n\n*\n\n"))
                .collect();
            std::fs::write(&path, text).unwrap();
            inputs.push(Input::File(path));
            if i == 1 {
                inputs.push(Input::File(dir.path().join("missing.pmn")));
            }
        }
        let one = driven(&inputs, 1);
        // Every game of the first input, more than a batch, then the rest in order.
        let first: Vec<&str> = (one.iter().filter(|(i, _)| *i == 0))
            .map(|(_, r)| r.split(':').next().unwrap())
            .collect();
        let expected: Vec<String> = (1..=600).map(|g| format!("game {g}")).collect();
        assert_eq!(first, expected);
        assert!(one.windows(2).all(|w| w[0].0 <= w[1].0));
        let missing: Vec<_> = one.iter().filter(|(_, r)| r == "unreadable").collect();
        assert_eq!(missing, [&(2, "unreadable".to_string())]);
        assert_eq!(driven(&inputs, 3), one);
    }

    #[test]
    fn dates_compare_part_by_part_and_an_unknown_part_decides_nothing() {
        use std::cmp::Ordering::*;
        assert_eq!(compare_dates("1964.05.02", "1964"), Some(Equal));
        assert_eq!(compare_dates("1964.05.02", "1964.06"), Some(Less));
        assert_eq!(compare_dates("1971.??.??", "1964.06"), Some(Greater));
        assert_eq!(compare_dates("1964.??.??", "1964.06"), None);
        assert_eq!(compare_dates("????.??.??", "1964"), None);
        let after = TagCondition::parse("Date>=1964").unwrap();
        assert!(after.holds(Some("1964.??.??")));
        assert!(!after.holds(Some("1963.12.31")));
        assert!(!after.holds(None));
        // Not a number: no comparison holds.
        let round = TagCondition::parse("Round>2").unwrap();
        assert!(round.holds(Some("12")));
        assert!(!round.holds(Some("2a")));
        // A game without the tag is not equal to any value.
        assert!(TagCondition::parse("Site!=Mutoko").unwrap().holds(None));
    }

    #[test]
    fn filters_match_tags() {
        let games = crate::pmn::parse_str(
            "[Game \"Tsoro\"]\n[Site \"Mutoko\"]\n\n*\n\n[Game \"Nsolo\"]\n\n*\n",
        );
        let f = Filter::new(Some("tsoro".into()), &["Site=Mutoko".into()]).unwrap();
        assert!(f.accepts(&games[0].record));
        assert!(!f.accepts(&games[1].record));
        assert!(Filter::new(None, &["Site".into()]).is_err());
        // A Game tag with spaces around its name is the game the replay reads it as
        // (`--game` keeps it).
        let spaced = crate::pmn::parse_str("[Game \"Tsoro \"]\n\n*\n");
        assert!(Filter::new(Some("Tsoro".into()), &[])
            .unwrap()
            .accepts(&spaced[0].record));
    }
}
