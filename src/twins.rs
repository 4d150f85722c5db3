//! `sow twins`: groups of games that are one game recorded twice: the same plies, one a
//! start of the other, or within a few edits of each other once aligned.
//!
//! Pairs are never all compared. Each game's plies are read as written (no replay),
//! each distinct ply text numbered once. The first plies of every game are cut into
//! blocks; each game is indexed under its `max_diff + 1` rarest blocks (those the fewest
//! games have at the same place), and looked up under every window of its own that one
//! of them could be, shifted by up to `max_diff` insertions and deletions. An edit
//! touches one block, so of two games within `max_diff` edits, one untouched block of
//! the other's indexed ones is found, provided the shorter record reaches it: a record
//! is compared with the games sharing what is least common in its opening, never with
//! every game of a common opening. A candidate is then measured by the banded edit
//! distance ([`crate::align::within`]), which gives up a few plies after two games
//! part.
//!
//! Memory holds, for every game, its plies as numbers (4 bytes a ply) and its tags of
//! [`AGREEMENT_TAGS`] as numbers, each distinct value once.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Write};
use std::ops::ControlFlow;

use serde::Serialize;

use crate::align::within;
use crate::corpus::{self, Batches, Filter, Input, Work};
use crate::error::CommandError;
use crate::escape::escaped_owned;
use crate::pmn::{Ply, Problem, Record, Visitor};
use crate::replay::{ReplayOptions, Replayer};

/// The tags whose agreement a group shows: when, where and who.
pub const AGREEMENT_TAGS: [&str; 4] = ["Date", "Site", "South", "North"];

/// Which game of a group is written by `--keep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The one with the most plies (the first of those).
    Longest,
    /// A valid one (the longest of those), else the longest.
    Valid,
    /// The first in input order.
    First,
}

/// What `sow twins` looks for.
#[derive(Clone, Debug)]
pub struct TwinOptions {
    /// Edits (changed, inserted or deleted plies) two twins may differ by.
    pub max_diff: usize,
    /// Plies the shorter of two twins has at least (at least `2 * max_diff + 1`).
    pub min_plies: usize,
    pub keep: Keep,
    /// The replay that decides which games are valid (`--keep valid`).
    pub replay: ReplayOptions,
}

impl TwinOptions {
    pub const MAX_DIFF: usize = 3;
    pub const MIN_PLIES: usize = 16;

    /// Checks that the index can find every twin: its blocks must fit in the shorter
    /// record's plies, shifted by the edits.
    pub fn check(&self) -> Result<(), String> {
        let least = 2 * self.max_diff + 1;
        if self.min_plies < least {
            return Err(format!(
                "--min-plies must be at least 2 × --max-diff + 1 = {least}"
            ));
        }
        Ok(())
    }

    /// Plies a block holds.
    fn block(&self) -> usize {
        ((self.min_plies - self.max_diff) / (self.max_diff + 1)).max(1)
    }
}

/// A game as the search sees it.
#[derive(Clone, Debug)]
pub struct GameEntry {
    /// The input it comes from, from 0, and its number there, from 1.
    pub input: usize,
    pub game: usize,
    /// Its plies, each distinct ply text numbered once.
    pub plies: Vec<u32>,
    /// The values of [`AGREEMENT_TAGS`], as numbers into [`Twins::values`] (0: absent).
    pub tags: [u32; AGREEMENT_TAGS.len()],
    /// Replays without an error (known only for `--keep valid`).
    pub valid: Option<bool>,
}

/// A group of twins.
#[derive(Clone, Debug)]
pub struct Group {
    /// Its games (indices into the entries), in input order.
    pub members: Vec<usize>,
    /// The most edits between two games found to be twins (0: the same plies, or one a
    /// start of the other).
    pub edits: usize,
    /// Which member is kept.
    pub kept: usize,
}

impl Group {
    /// `identical`, `prefix` or `edits`.
    pub fn relation(&self, entries: &[GameEntry]) -> &'static str {
        let first = &entries[self.members[0]].plies;
        if self.members.iter().all(|&m| entries[m].plies == *first) {
            "identical"
        } else if self.edits == 0 {
            "prefix"
        } else {
            "edits"
        }
    }

    /// Per tag of [`AGREEMENT_TAGS`]: whether every member has the same value.
    pub fn agreement(&self, entries: &[GameEntry]) -> Vec<bool> {
        let first = &entries[self.members[0]].tags;
        (0..AGREEMENT_TAGS.len())
            .map(|t| self.members.iter().all(|&m| entries[m].tags[t] == first[t]))
            .collect()
    }
}

/// What the search found.
#[derive(Debug, Default)]
pub struct Twins {
    pub entries: Vec<GameEntry>,
    pub groups: Vec<Group>,
    /// Input names.
    pub names: Vec<String>,
    /// The tag values the games hold, each once; the first stands for an absent tag.
    pub values: Vec<String>,
    /// Games shorter than `min_plies`, not compared: a few plies alike are no evidence
    /// of one game.
    pub short: usize,
}

impl Twins {
    /// The value of the `t`-th of [`AGREEMENT_TAGS`] in a game.
    pub fn tag(&self, entry: &GameEntry, t: usize) -> Option<&str> {
        match entry.tags[t] {
            0 => None,
            n => Some(&self.values[n as usize]),
        }
    }

    /// The games dropped by `--keep`: every member of a group but the one kept, as
    /// (input, game) in input order.
    pub fn dropped(&self) -> Vec<(usize, usize)> {
        let mut dropped: Vec<(usize, usize)> = (self.groups.iter())
            .flat_map(|g| g.members.iter().filter(move |&&m| m != g.kept))
            .map(|&m| (self.entries[m].input, self.entries[m].game))
            .collect();
        dropped.sort_unstable();
        dropped
    }
}

/// The plies and tags of a game, read without a syntax tree.
struct PlyReader<'f> {
    filter: &'f Filter,
    kept: bool,
    text: String,
}

impl Visitor for PlyReader<'_> {
    fn tags(&mut self, record: &Record) -> ControlFlow<()> {
        self.kept = self.filter.accepts(record);
        match self.kept {
            true => ControlFlow::Continue(()),
            false => ControlFlow::Break(()),
        }
    }

    fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
        use std::fmt::Write as _;
        let _ = writeln!(self.text, "{}", ply.syntax);
        ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: Problem) {}
}

/// A game read by a worker: its plies' texts, a line each, and its tags.
struct Read {
    game: usize,
    plies: String,
    tags: [Option<String>; AGREEMENT_TAGS.len()],
    valid: Option<bool>,
}

/// Reads the games of the inputs and finds the groups of twins.
pub fn find(
    inputs: &[Input],
    filter: &Filter,
    options: &TwinOptions,
) -> Result<Twins, CommandError> {
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    let mut twins = Twins {
        names: names.clone(),
        values: vec![String::new()],
        ..Twins::default()
    };
    let mut values: HashMap<String, u32> = HashMap::new();
    let want_valid = options.keep == Keep::Valid;
    let work = |replayer: &mut Replayer, work: Work| -> Result<Option<Read>, String> {
        let (index, game) = work.game_text(&names)?;
        let mut reader = PlyReader {
            filter,
            kept: false,
            text: String::new(),
        };
        let Some(tags) = game.read(&mut reader) else {
            return Ok(None);
        };
        if !reader.kept {
            return Ok(None);
        }
        let record = Record {
            tags,
            ..Record::default()
        };
        let valid = want_valid.then(|| {
            replayer
                .replay_text(&game, &options.replay, &|_| true)
                .is_some_and(|(_, trace)| trace.is_valid())
        });
        Ok(Some(Read {
            game: index,
            plies: reader.text,
            tags: AGREEMENT_TAGS.map(|t| record.tag(t).map(|v| v.trim().to_string())),
            valid,
        }))
    };
    let mut numbers: HashMap<String, u32> = HashMap::new();
    let mut unreadable = 0;
    let sink = |input: usize, read: Result<Option<Read>, String>| -> Result<(), CommandError> {
        match read {
            Err(report) => {
                let _ = writeln!(io::stderr(), "sow: {}", escaped_owned(report));
                unreadable += 1;
            }
            Ok(None) => {}
            Ok(Some(read)) => {
                // Held for the whole run: allocated to size.
                let mut plies =
                    Vec::with_capacity(memchr::memchr_iter(b'\n', read.plies.as_bytes()).count());
                plies.extend(read.plies.lines().map(|p| match numbers.get(p) {
                    Some(&n) => n,
                    None => {
                        let n = numbers.len() as u32;
                        numbers.insert(p.to_string(), n);
                        n
                    }
                }));
                let tags = read.tags.map(|v| match v {
                    None => 0,
                    Some(v) => *values.entry(v).or_insert_with_key(|v| {
                        twins.values.push(v.clone());
                        (twins.values.len() - 1) as u32
                    }),
                });
                twins.entries.push(GameEntry {
                    input,
                    game: read.game,
                    plies,
                    tags,
                    valid: read.valid,
                });
            }
        }
        Ok(())
    };
    corpus::drive_with(
        Batches::new(inputs, options.replay.max_game_bytes),
        Replayer::new,
        work,
        sink,
        |_| {},
    )?;
    if unreadable > 0 {
        return Err(CommandError::Unreadable(unreadable));
    }
    let (groups, short) = group(&twins.entries, options);
    twins.groups = groups;
    twins.short = short;
    Ok(twins)
}

/// A block of a game's plies, with how many games have it at its place (at most
/// `u16::MAX`: past that, all are equally common).
struct Block {
    hash: u64,
    game: u32,
    place: u16,
    games: u16,
}

/// Plies from the start within which blocks are indexed.
const REGION: usize = 48;

/// A hash of a block of plies at its place: the same for the same plies at the same
/// place, whatever the game. Two blocks that collide only make a candidate, which the
/// alignment then turns down.
fn block_hash(place: usize, plies: &[u32]) -> u64 {
    // FxHash-style mixing: a few cycles a ply.
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut h = (place as u64).wrapping_mul(K);
    for &p in plies {
        h = (h.rotate_left(5) ^ p as u64).wrapping_mul(K);
    }
    h
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Hashed(u64);

impl Hasher for Hashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Union-find's root of `x`, its path halved on the way.
fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// The groups of twins among the entries, and how many games were too short to be
/// compared.
pub fn group(entries: &[GameEntry], options: &TwinOptions) -> (Vec<Group>, usize) {
    let k = options.max_diff;
    let b = options.block();
    let long_enough = |e: &GameEntry| e.plies.len() >= options.min_plies;
    // Every block of the first plies of every long enough game, and how many games
    // have it at its place.
    let mut blocks: Vec<Block> = Vec::new();
    for (g, e) in entries.iter().enumerate().filter(|(_, e)| long_enough(e)) {
        for j in 0..e.plies.len().min(REGION) / b {
            blocks.push(Block {
                hash: block_hash(j, &e.plies[j * b..(j + 1) * b]),
                game: g as u32,
                place: j as u16,
                games: 0,
            });
        }
    }
    blocks.sort_unstable_by_key(|x| x.hash);
    for run in blocks.chunk_by_mut(|x, y| x.hash == y.hash) {
        let games = run.len().min(u16::MAX as usize) as u16;
        run.iter_mut().for_each(|x| x.games = games);
    }
    // Each game's k + 1 rarest blocks (the earliest of equally rare ones).
    blocks.sort_unstable_by_key(|x| (x.game, x.games, x.place));
    let mut index: Vec<(u64, u32)> = Vec::new();
    for game in blocks.chunk_by(|x, y| x.game == y.game) {
        index.extend(game.iter().take(k + 1).map(|x| (x.hash, x.game)));
    }
    drop(blocks);
    index.sort_unstable();
    // Where each hash's games are in the index: one probe a window.
    let mut runs: HashMap<u64, (u32, u32), BuildHasherDefault<Hashed>> = HashMap::default();
    let mut at = 0;
    for run in index.chunk_by(|x, y| x.0 == y.0) {
        runs.insert(run[0].0, (at as u32, run.len() as u32));
        at += run.len();
    }
    let hits = |hash: u64| match runs.get(&hash) {
        Some(&(from, len)) => &index[from as usize..(from + len) as usize],
        None => &[],
    };
    let mut parent: Vec<usize> = (0..entries.len()).collect();
    let mut worst: HashMap<usize, usize> = HashMap::new();
    let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
    let mut candidates: Vec<u32> = Vec::new();
    for (g, e) in entries.iter().enumerate() {
        if !long_enough(e) {
            continue;
        }
        // Every window that one of another game's chosen blocks can be, shifted by
        // up to k insertions and deletions.
        candidates.clear();
        for j in 0..REGION / b {
            for start in (j * b).saturating_sub(k)..=j * b + k {
                let Some(window) = e.plies.get(start..start + b) else {
                    continue;
                };
                let hash = block_hash(j, window);
                candidates.extend(
                    (hits(hash).iter())
                        .map(|&(_, h)| h)
                        .filter(|&h| h as usize != g),
                );
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        for &h in &candidates {
            let h = h as usize;
            if let Some(d) = within(&e.plies, &entries[h].plies, k) {
                pairs.push((g.min(h), g.max(h), d));
            }
        }
    }
    let short = (entries.iter())
        .filter(|e| e.plies.len() < options.min_plies)
        .count();
    for &(g, h, _) in &pairs {
        let (rg, rh) = (root(&mut parent, g), root(&mut parent, h));
        if rg != rh {
            parent[rg.max(rh)] = rg.min(rh);
        }
    }
    for &(g, _, d) in &pairs {
        let r = root(&mut parent, g);
        let w = worst.entry(r).or_default();
        *w = (*w).max(d);
    }
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for g in 0..entries.len() {
        let r = root(&mut parent, g);
        if worst.contains_key(&r) {
            members.entry(r).or_default().push(g);
        }
    }
    let mut groups: Vec<Group> = members
        .into_iter()
        .map(|(r, members)| {
            let kept = kept(entries, &members, options.keep);
            Group {
                members,
                edits: worst[&r],
                kept,
            }
        })
        .collect();
    groups.sort_unstable_by_key(|g| g.members[0]);
    (groups, short)
}

/// The member `keep` picks.
fn kept(entries: &[GameEntry], members: &[usize], keep: Keep) -> usize {
    let longest = |among: &mut dyn Iterator<Item = usize>| {
        // The first of the longest: the greatest length, then the least index.
        among.max_by_key(|&m| (entries[m].plies.len(), std::cmp::Reverse(m)))
    };
    match keep {
        Keep::First => members[0],
        Keep::Longest => longest(&mut members.iter().copied()).expect("a group has members"),
        Keep::Valid => longest(
            &mut members
                .iter()
                .copied()
                .filter(|&m| entries[m].valid == Some(true)),
        )
        .or_else(|| longest(&mut members.iter().copied()))
        .expect("a group has members"),
    }
}

fn plies(n: usize) -> String {
    match n {
        1 => "1 ply".into(),
        n => format!("{n} plies"),
    }
}

/// How a group's members are related, in words.
fn relation_words(group: &Group, entries: &[GameEntry]) -> String {
    match group.relation(entries) {
        "identical" => format!("the same {}", plies(entries[group.members[0]].plies.len())),
        "prefix" => "the same plies, one stopping earlier".into(),
        _ => format!("within {} of each other once aligned", edits(group.edits)),
    }
}

fn edits(n: usize) -> String {
    match n {
        1 => "1 edit".into(),
        n => format!("{n} edits"),
    }
}

/// The groups for a reader: each with its relation, the agreement of its tags and its
/// games (marked kept or dropped when `marked`), then a summary. Record text is escaped.
pub fn write_human(twins: &Twins, marked: bool, out: &mut dyn Write) -> io::Result<()> {
    let mut text = String::new();
    let entries = &twins.entries;
    for (n, group) in twins.groups.iter().enumerate() {
        let agreement: Vec<String> = (AGREEMENT_TAGS.iter().zip(group.agreement(entries)))
            .map(|(t, same)| format!("{t} {}", if same { "same" } else { "differ" }))
            .collect();
        text.push_str(&format!(
            "group {}: {} games, {}; {}\n",
            n + 1,
            group.members.len(),
            relation_words(group, entries),
            agreement.join(", ")
        ));
        for &m in &group.members {
            let e = &entries[m];
            let mark = match (marked, m == group.kept) {
                (false, _) => "",
                (true, true) => "kept     ",
                (true, false) => "dropped  ",
            };
            let tags: Vec<String> = (AGREEMENT_TAGS.iter().enumerate())
                .map(|(i, t)| {
                    let value = twins.tag(e, i).map_or("-".into(), |v| format!("{v:?}"));
                    format!("{t} {value}")
                })
                .collect();
            text.push_str(&format!(
                "  {mark}{} game {}, {}; {}\n",
                twins.names[e.input],
                e.game,
                plies(e.plies.len()),
                tags.join(", ")
            ));
        }
    }
    text.push_str(&summary(twins, marked));
    text.push('\n');
    out.write_all(escaped_owned(text).as_bytes())
}

fn summary(twins: &Twins, marked: bool) -> String {
    let in_groups: usize = twins.groups.iter().map(|g| g.members.len()).sum();
    let dropped = in_groups - twins.groups.len();
    let mut said = format!(
        "{} games read; {} group{} of twins holding {in_groups} games",
        twins.entries.len(),
        twins.groups.len(),
        if twins.groups.len() == 1 { "" } else { "s" },
    );
    if marked {
        said.push_str(&format!("; {dropped} dropped"));
    }
    if twins.short > 0 {
        said.push_str(&format!(
            "; {} shorter than --min-plies not compared",
            twins.short
        ));
    }
    said
}

#[derive(Serialize)]
struct JsonGame<'a> {
    file: &'a str,
    game: usize,
    plies: usize,
    tags: serde_json::Map<String, serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kept: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    valid: Option<bool>,
}

/// The groups as JSON Lines: one object per group (`"kind": "group"`), then a summary.
pub fn write_json(twins: &Twins, marked: bool, out: &mut dyn Write) -> io::Result<()> {
    let entries = &twins.entries;
    for (n, group) in twins.groups.iter().enumerate() {
        let games: Vec<JsonGame> = (group.members.iter())
            .map(|&m| {
                let e = &entries[m];
                JsonGame {
                    file: &twins.names[e.input],
                    game: e.game,
                    plies: e.plies.len(),
                    tags: (AGREEMENT_TAGS.iter().enumerate())
                        .map(|(i, t)| (t.to_string(), twins.tag(e, i).into()))
                        .collect(),
                    kept: marked.then_some(m == group.kept),
                    valid: e.valid,
                }
            })
            .collect();
        let agree: serde_json::Map<String, serde_json::Value> =
            (AGREEMENT_TAGS.iter().zip(group.agreement(entries)))
                .map(|(t, same)| (t.to_string(), same.into()))
                .collect();
        let line = serde_json::json!({
            "kind": "group",
            "group": n + 1,
            "relation": group.relation(entries),
            "edits": group.edits,
            "tags_agree": agree,
            "games": games,
        });
        writeln!(out, "{line}")?;
    }
    let in_groups: usize = twins.groups.iter().map(|g| g.members.len()).sum();
    let line = serde_json::json!({
        "kind": "summary",
        "games": entries.len(),
        "groups": twins.groups.len(),
        "in_groups": in_groups,
        "dropped": if marked { Some(in_groups - twins.groups.len()) } else { None },
        "short": twins.short,
    });
    writeln!(out, "{line}")
}

/// Writes every game of the inputs that passes the filter and is not in `dropped`
/// (sorted (input, game) pairs), each through the PMN writer, in input order; a game's
/// text is bounded by `max_game_bytes` as when the games were found.
pub fn write_kept(
    inputs: &[Input],
    filter: &Filter,
    dropped: &[(usize, usize)],
    max_game_bytes: Option<usize>,
    out: &mut dyn Write,
) -> Result<(), CommandError> {
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    let mut first = true;
    let work = |work: Work| -> Result<Option<String>, String> {
        let input = work.input();
        let Some((index, game)) = work.parse_game(&names, filter)? else {
            return Ok(None);
        };
        if dropped.binary_search(&(input, index)).is_ok() {
            return Ok(None);
        }
        Ok(Some(crate::pmn::write_game(&game.record)))
    };
    let sink = |_, text: Result<Option<String>, String>| -> Result<(), CommandError> {
        let Some(text) = text.map_err(CommandError::Output)? else {
            return Ok(());
        };
        let separator = if first { "" } else { "\n" };
        first = false;
        (out.write_all(separator.as_bytes()))
            .and_then(|()| out.write_all(text.as_bytes()))
            .map_err(|e| CommandError::io("<output>", e))
    };
    corpus::drive(Batches::new(inputs, max_game_bytes), work, sink, |_| {})
}
