//! The syntax tree of one PMN game: tags, move text and result, each with its span.
//!
//! This module only describes what was written. It must not know any game's rules:
//! whether a ply is legal, which pits exist on a given board, or what a tag value means
//! are the replay layer's questions.

use std::borrow::Cow;
use std::fmt;

use compact_str::CompactString;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::pit::{Pit, Side};

/// Where a piece of text is in the file.
///
/// `start` and `end` are byte offsets into the decoded text (for a UTF-8 file, the file's
/// own bytes, a byte-order mark included); `line` and `column` are 1-based and locate
/// `start`, the column counting characters. A span of a value built by hand (or read
/// from JSON) is all zeros.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
    /// Line of `start`, from 1.
    pub line: u32,
    /// Column of `start` in characters, from 1.
    pub column: u32,
}

/// One game as written: tags, move text and result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Record {
    /// Tags in the order they were written (duplicates kept).
    pub tags: Vec<Tag>,
    /// Move text in order: move numbers, plies, comments, NAGs and variations.
    pub moves: Vec<Element>,
    /// The result token that ends the game, if there was one.
    pub result: Option<ResultToken>,
}

/// A tag pair `[Name "value"]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Tag {
    /// Tag name, e.g. `Game`.
    pub name: Cow<'static, str>,
    /// Tag value with escapes resolved (`\"` is stored as `"`).
    #[schemars(with = "String")]
    pub value: CompactString,
    /// The whole tag, `[` to `]`.
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
    /// The value between the quotes.
    #[serde(skip)]
    #[schemars(skip)]
    pub value_span: Span,
}

impl Tag {
    /// The tags PMN.md names: required, set-up and usual free tags.
    pub const KNOWN_NAMES: [&'static str; 17] = [
        "Game",
        "Board",
        "Rules",
        "Event",
        "Site",
        "Date",
        "Round",
        "South",
        "North",
        "Result",
        "SetUp",
        "Position",
        "Source",
        "Transcriber",
        "Annotator",
        "Termination",
        "Score",
    ];

    /// A tag without spans, e.g. one built by a converter.
    pub fn new(name: impl Into<Cow<'static, str>>, value: impl Into<CompactString>) -> Tag {
        Tag {
            name: name.into(),
            value: value.into(),
            span: Span::default(),
            value_span: Span::default(),
        }
    }

    /// The name as a shared `&'static str` when it is one PMN.md lists, else owned: the
    /// reader names most tags without an allocation each.
    pub fn name_of(name: &str) -> Cow<'static, str> {
        match Self::known_index(name) {
            Some(i) => Cow::Borrowed(Self::KNOWN_NAMES[i]),
            None => Cow::Owned(name.to_string()),
        }
    }

    /// Where `name` is in [`Tag::KNOWN_NAMES`], if it is there.
    pub(crate) fn known_index(name: &str) -> Option<usize> {
        (Self::KNOWN_NAMES.iter()).position(|&known| same_name(known, name))
    }
}

/// Whether two names are the same, told apart by their length and first byte before
/// their bytes are compared: names of the same length (`Event`, `Board`, `Round`) are
/// the rule, and this comparison stays inline.
#[inline]
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// One item of move text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Element {
    /// `12.` or `12...`.
    MoveNumber(MoveNumber),
    /// A ply with its optional suffix annotation.
    Ply(Ply),
    /// `{...}` or `;...`.
    Comment(Comment),
    /// `$12`.
    Nag(Nag),
    /// `( ... )`: plies that could have replaced the ply before it.
    Variation(Variation),
}

impl Element {
    /// Where the element is in the file.
    pub fn span(&self) -> Span {
        match self {
            Element::MoveNumber(m) => m.span,
            Element::Ply(p) => p.span,
            Element::Comment(c) => c.span,
            Element::Nag(n) => n.span,
            Element::Variation(v) => v.span,
        }
    }
}

/// A move number, `12.` before South's ply or `12...` before North's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MoveNumber {
    /// The number.
    pub number: u32,
    /// `.` or `...`.
    pub dots: Dots,
    /// Where it is.
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

/// The dots after a move number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Dots {
    /// `12.`: South's ply follows.
    One,
    /// `12...`: North's ply follows.
    Three,
}

/// A ply as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Ply {
    /// The parts of the ply.
    pub syntax: PlySyntax,
    /// `!`, `?`, `!!`, `??`, `!?` or `?!` written right after the ply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<Suffix>,
    /// The ply and its suffix.
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

/// The grammar of a ply, the union of what the four games write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "form", rename_all = "kebab-case")]
pub enum PlySyntax {
    /// `FROM[:n][-END[#k]][x[P[:n],P[:n],...]]`.
    Sowing(Sowing),
    /// Kiothi's opening `P,P>Q:n,Q:n,...`.
    Redistribution(Redistribution),
}

/// A sowing ply `FROM[:n][-END[#k]][x[P[:n],...]]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Sowing {
    /// The pit the move starts from.
    pub from: Pit,
    /// `:n`: how many stones are lifted (default all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lift: Option<u16>,
    /// `-END`: the pit where the move ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<Pit>,
    /// `#k`: the k-th arrival at the head named by `end`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrival: Option<u16>,
    /// `x` and the bonus pits after it; `None` when there is no `x`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture: Option<BonusPits>,
}

/// The bonus pits written after `x`, in order: a list like a `Vec` (it derefs to a
/// slice, and is written, compared and shown as one).
///
/// A capture names no pit, one or two far more often than more, and a `Vec` of them was
/// one allocation per capturing ply, the reader's most frequent: up to two are kept
/// inline, in no more room than the `Vec` took.
#[derive(Clone)]
pub struct BonusPits(BonusRepr);

#[derive(Clone)]
enum BonusRepr {
    Inline { len: u8, pits: [PitCount; 2] },
    Heap(Vec<PitCount>),
}

impl BonusPits {
    /// An empty list (`x` with no bonus pit).
    pub const fn new() -> BonusPits {
        const UNUSED: PitCount = PitCount {
            pit: Pit { row: 0, col: 0 },
            count: None,
        };
        BonusPits(BonusRepr::Inline {
            len: 0,
            pits: [UNUSED; 2],
        })
    }

    /// Appends a pit.
    // Inlined: the reader pushes every bonus pit it reads, nearly always into the room
    // kept inline, and a call would cost more than the push.
    #[inline]
    pub fn push(&mut self, pit: PitCount) {
        match &mut self.0 {
            BonusRepr::Inline { len, pits } if (*len as usize) < pits.len() => {
                pits[*len as usize] = pit;
                *len += 1;
            }
            _ => self.push_spilled(pit),
        }
    }

    /// [`BonusPits::push`] past the room kept inline.
    #[cold]
    #[inline(never)]
    fn push_spilled(&mut self, pit: PitCount) {
        match &mut self.0 {
            BonusRepr::Inline { len, pits } => {
                let mut heap = Vec::with_capacity(2 * pits.len());
                heap.extend_from_slice(&pits[..*len as usize]);
                heap.push(pit);
                self.0 = BonusRepr::Heap(heap);
            }
            BonusRepr::Heap(heap) => heap.push(pit),
        }
    }

    /// The pits, in order.
    pub fn as_slice(&self) -> &[PitCount] {
        match &self.0 {
            BonusRepr::Inline { len, pits } => &pits[..*len as usize],
            BonusRepr::Heap(heap) => heap,
        }
    }
}

impl Default for BonusPits {
    fn default() -> BonusPits {
        BonusPits::new()
    }
}

impl std::ops::Deref for BonusPits {
    type Target = [PitCount];

    fn deref(&self) -> &[PitCount] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a BonusPits {
    type Item = &'a PitCount;
    type IntoIter = std::slice::Iter<'a, PitCount>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl FromIterator<PitCount> for BonusPits {
    fn from_iter<I: IntoIterator<Item = PitCount>>(iter: I) -> BonusPits {
        let mut pits = BonusPits::new();
        for pit in iter {
            pits.push(pit);
        }
        pits
    }
}

impl From<Vec<PitCount>> for BonusPits {
    fn from(pits: Vec<PitCount>) -> BonusPits {
        if pits.len() <= 2 {
            pits.into_iter().collect()
        } else {
            BonusPits(BonusRepr::Heap(pits))
        }
    }
}

impl PartialEq for BonusPits {
    fn eq(&self, other: &BonusPits) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for BonusPits {}

impl fmt::Debug for BonusPits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

impl Serialize for BonusPits {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for BonusPits {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BonusPits, D::Error> {
        Vec::<PitCount>::deserialize(d).map(BonusPits::from)
    }
}

impl JsonSchema for BonusPits {
    fn is_referenceable() -> bool {
        <Vec<PitCount>>::is_referenceable()
    }

    fn schema_name() -> String {
        <Vec<PitCount>>::schema_name()
    }

    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        <Vec<PitCount>>::json_schema(gen)
    }
}

/// A bonus pit after `x`, with the stones taken from it (`:n`) when written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PitCount {
    /// The pit.
    pub pit: Pit,
    /// `:n`, if written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u16>,
}

/// Kiothi's opening redistribution `P,P>Q:n,Q:n,...`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Redistribution {
    /// The pits emptied, before `>`.
    pub emptied: Vec<Pit>,
    /// The pits filled, after `>`, with the stones put in each.
    pub filled: Vec<PitStones>,
}

/// A pit with a number of stones, `Q:n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PitStones {
    /// The pit.
    pub pit: Pit,
    /// The stones.
    pub stones: u16,
}

/// A suffix annotation written right after a ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Suffix {
    /// `!`
    #[serde(rename = "!")]
    Good,
    /// `?`
    #[serde(rename = "?")]
    Mistake,
    /// `!!`
    #[serde(rename = "!!")]
    Brilliant,
    /// `??`
    #[serde(rename = "??")]
    Blunder,
    /// `!?`
    #[serde(rename = "!?")]
    Interesting,
    /// `?!`
    #[serde(rename = "?!")]
    Dubious,
}

impl Suffix {
    /// The suffix as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Suffix::Good => "!",
            Suffix::Mistake => "?",
            Suffix::Brilliant => "!!",
            Suffix::Blunder => "??",
            Suffix::Interesting => "!?",
            Suffix::Dubious => "?!",
        }
    }

    /// The suffix for its text, if it is one.
    pub fn from_text(s: &str) -> Option<Suffix> {
        Some(match s {
            "!" => Suffix::Good,
            "?" => Suffix::Mistake,
            "!!" => Suffix::Brilliant,
            "??" => Suffix::Blunder,
            "!?" => Suffix::Interesting,
            "?!" => Suffix::Dubious,
            _ => return None,
        })
    }
}

/// A comment and the `[%name args]` commands found in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Comment {
    /// `{...}` or `;...`.
    pub kind: CommentKind,
    /// The text exactly as written, without the braces or the `;` (and, for a line
    /// comment, without the line ending).
    #[schemars(with = "String")]
    pub text: CompactString,
    /// The commands inside, in order. Derived from `text`; the writer ignores it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<Command>,
    /// The whole comment, braces included.
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

/// How a comment was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CommentKind {
    /// `{...}`
    Brace,
    /// `;...` to the end of the line.
    Line,
}

/// A command `[%name arg arg ...]` inside a comment, e.g. `[%stones 40 35]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Command {
    // A shared `&'static str` for the commands PMN.md defines, else owned: most comments
    // hold one, and the reader names it without an allocation.
    /// The name after `%`, e.g. `stones`.
    pub name: Cow<'static, str>,
    /// The arguments, split at whitespace.
    #[serde(default, skip_serializing_if = "Args::is_empty")]
    pub args: Args,
    /// `[` to `]`.
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

impl Command {
    /// The commands PMN.md defines.
    pub const KNOWN_NAMES: [&'static str; 2] = ["stones", "foul"];

    /// The name as a shared `&'static str` when it is one PMN.md defines, else owned.
    pub fn name_of(name: &str) -> Cow<'static, str> {
        match Self::KNOWN_NAMES.iter().find(|&&known| known == name) {
            Some(&known) => Cow::Borrowed(known),
            None => Cow::Owned(name.to_string()),
        }
    }
}

/// The arguments of a command: words, none empty and none holding whitespace (PMN
/// splits a command at whitespace, so no other word can be written).
// Kept as one string, the words joined by single spaces: a command then costs one
// allocation, not one for its list and one for each word (comments with commands are
// the most costly elements to read). The words cannot hold a space, so nothing is lost.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Args(CompactString);

impl Args {
    /// No arguments.
    pub const fn new() -> Args {
        Args(CompactString::const_new(""))
    }

    /// The words of `text` split at whitespace, as PMN splits a command.
    pub fn split(text: &str) -> Args {
        // Trimmed of ASCII whitespace only (bytes, no decoding): any other whitespace
        // left at an end fails the check below, and `split_whitespace` drops it.
        let text = text.trim_ascii();
        // Usually the words are ASCII already joined by single spaces, and taken whole.
        let mut after_space = false;
        let joined_already = text.bytes().all(|b| {
            let ok = (b > b' ' && b.is_ascii()) || (b == b' ' && !after_space);
            after_space = b == b' ';
            ok
        });
        if joined_already {
            return Args(CompactString::from(text));
        }
        let mut joined = CompactString::with_capacity(text.len());
        for word in text.split_whitespace() {
            if !joined.is_empty() {
                joined.push(' ');
            }
            joined.push_str(word);
        }
        Args(joined)
    }

    /// The words in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.0.split(' ').filter(|w| !w.is_empty())
    }

    /// How many words there are.
    pub fn len(&self) -> usize {
        if self.0.is_empty() {
            0
        } else {
            1 + memchr::memchr_iter(b' ', self.0.as_bytes()).count()
        }
    }

    /// Whether there is no argument.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The words joined by single spaces, as a command's arguments are written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Arguments from words, each of which must be a word (not empty, no whitespace).
    pub fn from_words<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> Result<Args, NotAWord> {
        let mut joined = CompactString::default();
        for word in words {
            let word = word.as_ref();
            if word.is_empty() || word.contains(char::is_whitespace) {
                return Err(NotAWord(word.to_string()));
            }
            if !joined.is_empty() {
                joined.push(' ');
            }
            joined.push_str(word);
        }
        Ok(Args(joined))
    }
}

/// A word that cannot be a command's argument: empty, or holding whitespace.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a command argument must be a word without whitespace; found {0:?}")]
pub struct NotAWord(pub String);

impl fmt::Debug for Args {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Args {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

// Read leniently: the words are joined and split again, as PMN would split them (an
// empty word goes, a word with whitespace becomes several). A command is derived from
// its comment's text, which the writer writes and the reader splits again, so refusing
// here would only refuse a whole JSON input over a list that is not used.
impl<'de> Deserialize<'de> for Args {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Args, D::Error> {
        Ok(Args::split(&Vec::<String>::deserialize(d)?.join(" ")))
    }
}

impl JsonSchema for Args {
    fn is_referenceable() -> bool {
        <Vec<String>>::is_referenceable()
    }

    fn schema_name() -> String {
        <Vec<String>>::schema_name()
    }

    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        <Vec<String>>::json_schema(gen)
    }
}

/// A numeric annotation glyph `$n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Nag {
    /// The number after `$`.
    pub code: u16,
    /// Where it is.
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

/// A variation `( ... )`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Variation {
    /// The move text inside the parentheses.
    pub elements: Vec<Element>,
    /// `(` to `)` (to the end of the game text when the `)` is missing).
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

/// The result token that ends a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ResultToken {
    /// The result.
    pub result: GameResult,
    /// Where it is.
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

/// A game result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum GameResult {
    /// `1-0`: South won.
    #[serde(rename = "1-0")]
    SouthWins,
    /// `0-1`: North won.
    #[serde(rename = "0-1")]
    NorthWins,
    /// `1/2-1/2`
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// `*`: unknown or unfinished.
    #[serde(rename = "*")]
    Unknown,
}

impl GameResult {
    /// The token as written.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::SouthWins => "1-0",
            GameResult::NorthWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The result for a token, if it is one.
    pub fn from_text(s: &str) -> Option<GameResult> {
        Some(match s {
            "1-0" => GameResult::SouthWins,
            "0-1" => GameResult::NorthWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

/// A main-line ply with the elements written after it, up to the next main-line ply.
#[derive(Debug, Clone, Copy)]
pub struct MainLinePly<'a> {
    /// The ply (its `span` says where it is).
    pub ply: &'a Ply,
    /// Position in the main line, from 0.
    pub index: usize,
    /// Elements between this ply and the next main-line ply: comments, NAGs,
    /// variations and move numbers.
    pub after: &'a [Element],
}

/// The plies of a record's main line ([`Record::main_line`]), found as they are asked
/// for: each element is looked at once, and nothing is allocated (the replay of every
/// game reads its plies so).
#[derive(Debug, Clone)]
pub struct MainLine<'a> {
    moves: &'a [Element],
    /// Where the next ply is in `moves`.
    next: Option<usize>,
    /// Its position in the main line.
    index: usize,
}

impl<'a> Iterator for MainLine<'a> {
    type Item = MainLinePly<'a>;

    #[inline]
    fn next(&mut self) -> Option<MainLinePly<'a>> {
        let at = self.next?;
        let Element::Ply(ply) = &self.moves[at] else {
            unreachable!("`next` is the place of a ply")
        };
        let rest = &self.moves[at + 1..];
        let after = rest.iter().position(|e| matches!(e, Element::Ply(_)));
        self.next = after.map(|i| at + 1 + i);
        let index = self.index;
        self.index += 1;
        Some(MainLinePly {
            ply,
            index,
            after: &rest[..after.unwrap_or(rest.len())],
        })
    }
}

impl<'a> MainLinePly<'a> {
    /// Comments written after the ply.
    pub fn comments(&self) -> impl Iterator<Item = &'a Comment> + 'a {
        self.after.iter().filter_map(|e| match e {
            Element::Comment(c) => Some(c),
            _ => None,
        })
    }

    /// Commands (`[%stones 40 35]`, `[%foul]`) in the comments written after the ply.
    pub fn commands(&self) -> impl Iterator<Item = &'a Command> + 'a {
        self.comments().flat_map(|c| c.commands.iter())
    }

    /// NAGs written after the ply.
    pub fn nags(&self) -> impl Iterator<Item = u16> + 'a {
        self.after.iter().filter_map(|e| match e {
            Element::Nag(n) => Some(n.code),
            _ => None,
        })
    }
}

impl Record {
    /// Calls `f` on every span of the record, in the order of the text: each tag's (and
    /// then its value's), each element's, a variation's elements right after it (a
    /// comment's commands after the comment), the result token's.
    pub fn for_each_span_mut(&mut self, mut f: impl FnMut(&mut Span)) {
        for tag in &mut self.tags {
            f(&mut tag.span);
            f(&mut tag.value_span);
        }
        // The lists being walked, innermost last, not recursion: variations nest as deep
        // as the reader allows. In the order of the text, as a caller counting columns
        // on from the last span asks.
        let mut lists = vec![self.moves.iter_mut()];
        while let Some(list) = lists.last_mut() {
            let Some(element) = list.next() else {
                lists.pop();
                continue;
            };
            match element {
                Element::MoveNumber(m) => f(&mut m.span),
                Element::Ply(p) => f(&mut p.span),
                Element::Comment(c) => {
                    f(&mut c.span);
                    c.commands
                        .iter_mut()
                        .for_each(|command| f(&mut command.span));
                }
                Element::Nag(n) => f(&mut n.span),
                Element::Variation(v) => {
                    f(&mut v.span);
                    lists.push(v.elements.iter_mut());
                }
            }
        }
        if let Some(result) = &mut self.result {
            f(&mut result.span);
        }
    }

    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| same_name(&t.name, name))
            .map(|t| t.value.as_str())
    }

    /// The plies of the main line (not inside variations), in order, each with the
    /// elements written after it.
    pub fn main_line(&self) -> MainLine<'_> {
        MainLine {
            moves: &self.moves,
            next: self.moves.iter().position(|e| matches!(e, Element::Ply(_))),
            index: 0,
        }
    }

    /// Who plays the first ply: North when the record has `[SetUp "1"]` and a
    /// `Position` whose side-to-move field (the token after the rows) is `N`;
    /// South otherwise.
    pub fn first_side(&self) -> Side {
        if self.tag("SetUp") != Some("1") {
            return Side::South;
        }
        match self
            .tag("Position")
            .and_then(|p| p.split_whitespace().nth(1))
        {
            Some("N") => Side::North,
            _ => Side::South,
        }
    }

    /// Sets every span in the record to zero, so that records read from different
    /// texts compare by content alone.
    pub fn clear_spans(&mut self) {
        self.for_each_span_mut(|span| *span = Span::default());
    }
}

impl PlySyntax {
    /// Writes the ply with each pit written by `pit` (counts, marks and separators as
    /// PMN writes them): PMN's names through `Display`, a numbering's numbers through
    /// the writer. An error of `pit` stops the writing and is returned.
    pub fn write_pits<W: fmt::Write>(
        &self,
        f: &mut W,
        mut pit: impl FnMut(&mut W, Pit) -> fmt::Result,
    ) -> fmt::Result {
        match self {
            PlySyntax::Sowing(s) => {
                pit(f, s.from)?;
                if let Some(n) = s.lift {
                    f.write_str(":")?;
                    number(f, n)?;
                }
                if let Some(end) = s.end {
                    f.write_str("-")?;
                    pit(f, end)?;
                }
                if let Some(k) = s.arrival {
                    f.write_str("#")?;
                    number(f, k)?;
                }
                if let Some(pits) = &s.capture {
                    f.write_str("x")?;
                    for (i, p) in pits.iter().enumerate() {
                        if i > 0 {
                            f.write_str(",")?;
                        }
                        pit(f, p.pit)?;
                        if let Some(n) = p.count {
                            f.write_str(":")?;
                            number(f, n)?;
                        }
                    }
                }
                Ok(())
            }
            PlySyntax::Redistribution(r) => {
                for (i, &p) in r.emptied.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    pit(f, p)?;
                }
                f.write_str(">")?;
                for (i, p) in r.filled.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    pit(f, p.pit)?;
                    f.write_str(":")?;
                    number(f, p.stones)?;
                }
                Ok(())
            }
        }
    }
}

/// Writes a count or a number of a ply in decimal, as `Display` does, without a
/// formatter's arguments.
fn number<W: fmt::Write>(f: &mut W, n: impl itoa::Integer) -> fmt::Result {
    f.write_str(itoa::Buffer::new().format(n))
}

impl fmt::Display for PlySyntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_pits(f, |f, p| fmt::Display::fmt(&p, f))
    }
}

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.syntax)?;
        if let Some(s) = self.suffix {
            f.write_str(s.as_str())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pits(n: u8) -> Vec<PitCount> {
        (1..=n)
            .map(|col| PitCount {
                pit: Pit { row: 2, col },
                count: (col % 2 == 0).then_some(u16::from(col)),
            })
            .collect()
    }

    #[test]
    fn bonus_pits_behave_as_the_vec_they_replace() {
        for n in 0..6 {
            let vec = pits(n);
            let mut pushed = BonusPits::new();
            for &p in &vec {
                pushed.push(p);
            }
            let collected: BonusPits = vec.iter().copied().collect();
            let converted = BonusPits::from(vec.clone());
            for list in [&pushed, &collected, &converted] {
                assert_eq!(list.as_slice(), &vec[..], "{n} pits");
                assert_eq!(format!("{list:?}"), format!("{vec:?}"));
                assert_eq!(
                    serde_json::to_string(list).unwrap(),
                    serde_json::to_string(&vec).unwrap()
                );
            }
            assert_eq!(pushed, converted);
            let json = serde_json::to_string(&vec).unwrap();
            let back: BonusPits = serde_json::from_str(&json).unwrap();
            assert_eq!(back, pushed);
        }
        assert_ne!(BonusPits::from(pits(2)), BonusPits::from(pits(3)));
    }

    #[test]
    fn args_split_as_split_whitespace_does() {
        let texts = [
            "",
            "   ",
            "40 35",
            " 40 35 ",
            "40  35",
            "40\t35\n",
            "a\u{0b}b",
            "é 1",
            "x\u{a0}y\u{2003}z",
            "\u{0b}40 35\u{0b}",
            "\u{a0}40 35\u{2003}",
            " \u{0b} 1 \u{85}",
            "[%foul",
            "1 2 3 4 5 6 7 8 9 10 11 12 13",
        ];
        for text in texts {
            let args = Args::split(text);
            let words: Vec<&str> = text.split_whitespace().collect();
            assert_eq!(args.iter().collect::<Vec<_>>(), words, "{text:?}");
            assert_eq!(args.len(), words.len(), "{text:?}");
            assert_eq!(args.is_empty(), words.is_empty(), "{text:?}");
            assert_eq!(args.as_str(), words.join(" "), "{text:?}");
            assert_eq!(format!("{args:?}"), format!("{words:?}"));
            assert_eq!(
                serde_json::to_string(&args).unwrap(),
                serde_json::to_string(&words).unwrap()
            );
            let back: Args = serde_json::from_str(&serde_json::to_string(&words).unwrap()).unwrap();
            assert_eq!(back, args);
            assert_eq!(Args::from_words(&words), Ok(args));
        }
    }

    #[test]
    fn args_are_words_or_refused_and_json_is_split_as_pmn_would() {
        // A command is split at whitespace, so no argument can be empty or hold any.
        for (word, split) in [
            ("", vec!["1"]),
            ("a b", vec!["1", "a", "b"]),
            ("a\tb", vec!["1", "a", "b"]),
            ("x\u{a0}", vec!["1", "x"]),
        ] {
            assert_eq!(
                Args::from_words(["1", word]),
                Err(NotAWord(word.to_string()))
            );
            // From JSON, where the list is not used (the comment's text is), the words
            // are taken as PMN would read them written out.
            let json = serde_json::to_string(&["1", word]).unwrap();
            let args = serde_json::from_str::<Args>(&json).unwrap();
            assert_eq!(args.iter().collect::<Vec<_>>(), split, "{word:?}");
        }
    }

    #[test]
    fn bonus_pits_take_no_more_room_than_a_vec() {
        use std::mem::size_of;
        assert!(size_of::<Option<BonusPits>>() <= size_of::<Option<Vec<PitCount>>>());
    }

    #[test]
    fn known_tag_names_are_shared_and_others_owned() {
        assert!(matches!(Tag::name_of("Game"), Cow::Borrowed("Game")));
        assert!(matches!(Tag::name_of("Transcriber"), Cow::Borrowed(_)));
        let other = Tag::name_of("Weather");
        assert!(matches!(other, Cow::Owned(_)));
        assert_eq!(other, "Weather");
        // Names are case-sensitive: `game` is an unknown tag, kept as written.
        assert!(matches!(Tag::name_of("game"), Cow::Owned(_)));
    }
}
