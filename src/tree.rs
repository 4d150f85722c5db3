//! `sow tree`: the opening tree of a corpus. From the start (or a given position), each
//! next ply with how many games played it, how they ended (South wins, draws, North wins,
//! unfinished) and their mean length.
//!
//! A node is a position at a depth (plies from the root): positions reached by
//! different orders of plies are one node, counted once for each game that reaches it,
//! and the tree says so (a transposition, with the number of orders). Positions are
//! equal as the repetition rule compares them ([`Position::same_for_repetition`]),
//! which is what their PMN `Position` string shows. Each set (game, board and rule
//! options) has a tree of its own: unlike games are never pooled.
//!
//! Every position is read from the replay's trace; nothing here plays a move.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::io::{self, Write};

use crate::corpus::{self, Batches, Filter, Input, Work};
use crate::error::CommandError;
use crate::escape::escaped_owned;
use crate::geometry::Side;
use crate::pmn::Record;
use crate::position::Position;
use crate::replay::{PlyView, ReplayOptions, Replayer};
use crate::rules::Rules;
use crate::stats::{set_of, winner_of};

/// The forms of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeFormat {
    /// Indented text.
    Text,
    /// Tidy CSV, a row a ply.
    Csv,
    /// One HTML page in the style of `sow view`'s, each position a fold.
    Html,
}

/// Writes the trees in a form.
pub fn write(
    forest: &Forest,
    options: &TreeOptions,
    format: TreeFormat,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        TreeFormat::Text => write_text(forest, options, out),
        TreeFormat::Csv => write_csv(forest, options, out),
        TreeFormat::Html => out.write_all(html(forest, options).as_bytes()),
    }
}

/// What `sow tree` builds.
#[derive(Clone, Debug)]
pub struct TreeOptions {
    /// Plies below the root.
    pub depth: usize,
    /// Plies played by fewer games from a node are left out.
    pub min_games: u64,
    /// The root: a PMN `Position` string (else each game's start position).
    pub from: Option<String>,
    pub replay: ReplayOptions,
}

impl TreeOptions {
    pub const DEPTH: usize = 6;
}

/// How a game ended: South won, drawn, North won, unfinished (or not known).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    pub south: u64,
    pub draws: u64,
    pub north: u64,
    pub unfinished: u64,
}

impl Results {
    fn add(&mut self, winner: Option<Option<Side>>) {
        match winner {
            Some(Some(Side::South)) => self.south += 1,
            Some(None) => self.draws += 1,
            Some(Some(Side::North)) => self.north += 1,
            None => self.unfinished += 1,
        }
    }
}

/// A position as the tree merges them: the repetition rule's equality.
#[derive(Clone, Debug)]
struct Key(Position);

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.0.same_for_repetition(&other.0)
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(crate::repetition::hash(&self.0));
    }
}

/// A position at a depth, with the games that reach it.
#[derive(Clone, Debug)]
pub struct Node {
    pub position: Position,
    pub depth: usize,
    pub games: u64,
    pub results: Results,
    /// The sum of the games' lengths (plies in their main lines).
    pub length_sum: u64,
    /// The plies that lead here (indices into the edges), in the order first played.
    pub into: Vec<usize>,
    /// The plies played from here (indices into the edges), in the order first played.
    pub out: Vec<usize>,
}

impl Node {
    /// The mean length of the games that reach it.
    pub fn mean_length(&self) -> f64 {
        match self.games {
            0 => 0.0,
            n => self.length_sum as f64 / n as f64,
        }
    }
}

/// A ply from a node to the next.
#[derive(Clone, Debug)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    /// The ply as written.
    pub ply: String,
    /// Games that play it from `from`.
    pub games: u64,
}

/// The tree of one set.
#[derive(Clone, Debug)]
pub struct Tree {
    /// The set: game, board and rule options.
    pub set: String,
    /// Node 0 is the root.
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// Games of the set read, whether or not they reach the root.
    pub games_read: u64,
    lookup: HashMap<(usize, Key), usize>,
    edge_lookup: HashMap<(usize, String), usize>,
}

impl Tree {
    fn new(set: String) -> Tree {
        Tree {
            set,
            nodes: Vec::new(),
            edges: Vec::new(),
            games_read: 0,
            lookup: HashMap::new(),
            edge_lookup: HashMap::new(),
        }
    }

    fn node(&mut self, depth: usize, position: &Position) -> usize {
        let key = (depth, Key(position.clone()));
        if let Some(&n) = self.lookup.get(&key) {
            return n;
        }
        let n = self.nodes.len();
        self.nodes.push(Node {
            position: position.clone(),
            depth,
            games: 0,
            results: Results::default(),
            length_sum: 0,
            into: Vec::new(),
            out: Vec::new(),
        });
        self.lookup.insert(key, n);
        n
    }

    /// Adds a game that reaches the root: its positions from the root on, with the ply
    /// that led to each.
    fn add(&mut self, line: &Line) {
        let mut at = self.node(0, &line.root);
        let count = |node: &mut Node| {
            node.games += 1;
            node.results.add(line.winner);
            node.length_sum += line.length as u64;
        };
        count(&mut self.nodes[at]);
        for (d, (ply, position)) in line.plies.iter().enumerate() {
            let to = self.node(d + 1, position);
            count(&mut self.nodes[to]);
            let key = (at, ply.clone());
            let e = match self.edge_lookup.get(&key) {
                Some(&e) => e,
                None => {
                    let e = self.edges.len();
                    self.edges.push(Edge {
                        from: at,
                        to,
                        ply: ply.clone(),
                        games: 0,
                    });
                    self.edge_lookup.insert(key, e);
                    self.nodes[at].out.push(e);
                    self.nodes[to].into.push(e);
                    e
                }
            };
            self.edges[e].games += 1;
            at = to;
        }
    }

    /// The root, when a game reached it.
    pub fn root(&self) -> Option<&Node> {
        self.nodes.first()
    }

    /// The games that reach the root.
    pub fn games(&self) -> u64 {
        self.root().map_or(0, |r| r.games)
    }

    /// The plies played from a node by at least `min_games` games, most played first
    /// (then by their text).
    pub fn children(&self, node: usize, min_games: u64) -> Vec<usize> {
        let mut out: Vec<usize> = (self.nodes[node].out.iter().copied())
            .filter(|&e| self.edges[e].games >= min_games)
            .collect();
        out.sort_by(|&a, &b| {
            let (a, b) = (&self.edges[a], &self.edges[b]);
            b.games.cmp(&a.games).then_with(|| a.ply.cmp(&b.ply))
        });
        out
    }
}

/// What one game adds to its set's tree: from the root on, each ply and the position
/// after it.
struct Line {
    set: String,
    root: Position,
    plies: Vec<(String, Position)>,
    winner: Option<Option<Side>>,
    length: usize,
}

/// The plies of one game the tree shows, kept as the replay plays them: the first
/// `depth`, and (when a root is given) the position after the first ply that reaches
/// it with the `depth` plies after that.
struct Window {
    depth: usize,
    /// The root given, parsed under the game's rules (`None` inside: it does not fit).
    root: Option<Option<Position>>,
    first: Vec<(String, Position)>,
    from_root: Option<(Position, Vec<(String, Position)>)>,
}

impl Window {
    fn add(&mut self, ply: &PlyView, root: Option<&Position>) {
        let Some(after) = ply.after else {
            return;
        };
        if self.first.len() < self.depth {
            self.first.push((ply.syntax.to_string(), after.clone()));
        }
        match (&mut self.from_root, root) {
            (Some((_, plies)), _) if plies.len() < self.depth => {
                plies.push((ply.syntax.to_string(), after.clone()));
            }
            (Some(_), _) => {}
            (None, Some(root)) if after.same_for_repetition(root) => {
                self.from_root = Some((after.clone(), Vec::new()));
            }
            _ => {}
        }
    }
}

/// A game read by a worker.
enum Read {
    /// Left out by the filter, or a file with no game.
    None,
    /// Its rules could not be read from its tags.
    NoRules,
    /// Of a set whose root it does not reach (or that the `--from` position does not
    /// fit: the reason).
    Elsewhere {
        set: String,
        misfit: Option<String>,
    },
    Line(Box<Line>),
}

/// The trees of the inputs, one per set in the order of their first game, and notes on
/// the games left out.
#[derive(Debug, Default)]
pub struct Forest {
    pub trees: Vec<Tree>,
    /// Games whose rules could not be read from their tags.
    pub no_rules: u64,
    /// Sets the `--from` position does not fit, with why.
    pub misfits: Vec<(String, String)>,
}

/// Reads the games of the inputs into their sets' trees.
pub fn build(
    inputs: &[Input],
    filter: &Filter,
    options: &TreeOptions,
) -> Result<Forest, CommandError> {
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    let replay = ReplayOptions {
        keep_positions: true,
        keep_laps: false,
        ..options.replay.clone()
    };
    // Each worker's replayer, and the root parsed under each set's rules.
    type Context = (Replayer, HashMap<String, Result<Position, String>>);
    let init = || -> Context { (Replayer::new(), HashMap::new()) };
    let keep = |record: &Record| filter.accepts(record);
    let work = |(replayer, roots): &mut Context, work: Work| -> Result<Read, String> {
        let (_, text) = work.game_text(&names)?;
        // The plies are kept as they are played, only those the tree shows: the first
        // `depth`, and the `depth` after the first position that is the root.
        let mut window = Window {
            depth: options.depth,
            root: None,
            first: Vec::new(),
            from_root: None,
        };
        let mut each = |rules: &Rules, ply: &PlyView| {
            if let Some(text) = &options.from {
                if window.root.is_none() {
                    let root = roots.entry(set_of(rules)).or_insert_with(|| {
                        Position::parse(rules, text.trim()).map_err(|e| e.to_string())
                    });
                    window.root = Some(root.as_ref().ok().cloned());
                }
                let root = window.root.take().flatten();
                window.add(ply, root.as_ref());
                window.root = Some(root);
            } else {
                window.add(ply, None);
            }
        };
        let Some((_, trace)) = replayer.replay_text_each(&text, &replay, &keep, Some(&mut each))
        else {
            return Ok(Read::None);
        };
        let Some(rules) = &trace.rules else {
            return Ok(Read::NoRules);
        };
        let set = set_of(rules);
        let Window {
            first, from_root, ..
        } = window;
        let (root, plies) = match &options.from {
            None => (trace.start.clone(), first),
            Some(text) => {
                let root = roots.entry(set.clone()).or_insert_with(|| {
                    Position::parse(rules, text.trim()).map_err(|e| e.to_string())
                });
                let root = match root {
                    Ok(root) => root,
                    Err(why) => {
                        let misfit = Some(why.clone());
                        return Ok(Read::Elsewhere { set, misfit });
                    }
                };
                match (&trace.start, from_root) {
                    (Some(start), _) if start.same_for_repetition(root) => {
                        (Some(start.clone()), first)
                    }
                    (_, Some((root, plies))) => (Some(root), plies),
                    _ => return Ok(Read::Elsewhere { set, misfit: None }),
                }
            }
        };
        let Some(root) = root else {
            return Ok(Read::Elsewhere { set, misfit: None });
        };
        Ok(Read::Line(Box::new(Line {
            set,
            root,
            plies,
            winner: winner_of(&trace),
            length: trace.plies_written,
        })))
    };
    let mut forest = Forest::default();
    let mut sets: HashMap<String, usize> = HashMap::new();
    let mut unreadable = 0;
    let mut tree_of = |forest: &mut Forest, set: &str| -> usize {
        *sets.entry(set.to_string()).or_insert_with(|| {
            forest.trees.push(Tree::new(set.to_string()));
            forest.trees.len() - 1
        })
    };
    let sink = |_, read: Result<Read, String>| -> Result<(), CommandError> {
        match read {
            Err(report) => {
                let _ = writeln!(io::stderr(), "sow: {}", escaped_owned(report));
                unreadable += 1;
            }
            Ok(Read::None) => {}
            Ok(Read::NoRules) => forest.no_rules += 1,
            Ok(Read::Elsewhere { set, misfit }) => {
                let t = tree_of(&mut forest, &set);
                forest.trees[t].games_read += 1;
                if let Some(why) = misfit {
                    if !forest.misfits.iter().any(|(s, _)| *s == set) {
                        forest.misfits.push((set, why));
                    }
                }
            }
            Ok(Read::Line(line)) => {
                let t = tree_of(&mut forest, &line.set);
                forest.trees[t].games_read += 1;
                forest.trees[t].add(&line);
            }
        }
        Ok(())
    };
    corpus::drive_with(
        Batches::new(inputs, options.replay.max_game_bytes),
        init,
        work,
        sink,
        |_| {},
    )?;
    if unreadable > 0 {
        return Err(CommandError::Unreadable(unreadable));
    }
    Ok(forest)
}

/// The notes on games left out, for standard error.
pub fn notes(forest: &Forest) -> Vec<String> {
    let mut notes = Vec::new();
    if forest.no_rules > 0 {
        notes.push(format!(
            "{} game(s) left out: their tags name no game, board or rules sow can replay",
            forest.no_rules
        ));
    }
    for (set, why) in &forest.misfits {
        notes.push(format!("the --from position does not fit {set}: {why}"));
    }
    if forest.trees.len() > 1 {
        let sets: Vec<&str> = forest.trees.iter().map(|t| t.set.as_str()).collect();
        notes.push(format!(
            "the games are of {} sets, each with a tree of its own ({}); --game and --where (e.g. --where Board=4x8) choose one",
            sets.len(),
            sets.join("; ")
        ));
    }
    notes
}

fn games(n: u64) -> String {
    match n {
        1 => "1 game".into(),
        n => format!("{n} games"),
    }
}

/// A node's counts as the text form shows them.
fn counts(node: &Node) -> String {
    let r = &node.results;
    format!(
        "{:>7} {:>7} {:>7} {:>7} {:>10} {:>7.1}",
        node.games,
        r.south,
        r.draws,
        r.north,
        r.unfinished,
        node.mean_length()
    )
}

/// The path of plies from the root to a node, by the first ply that led to each.
fn path_to(tree: &Tree, mut node: usize) -> Vec<&str> {
    let mut path = Vec::new();
    while let Some(&e) = tree.nodes[node].into.first() {
        path.push(tree.edges[e].ply.as_str());
        node = tree.edges[e].from;
    }
    path.reverse();
    path
}

/// The trees as indented text: a heading per set, then a line per ply (indented by its
/// depth) with the games reaching the position after it, their results and mean
/// length. A transposition is marked where it is first shown, and not expanded again
/// where it is met by another order. Record text is escaped.
pub fn write_text(forest: &Forest, options: &TreeOptions, out: &mut dyn Write) -> io::Result<()> {
    let mut text = String::new();
    for (t, tree) in forest.trees.iter().enumerate() {
        if t > 0 {
            text.push('\n');
        }
        let from = match &options.from {
            Some(p) => format!("from {}", p.trim()),
            None => "from the start position".into(),
        };
        let _ = writeln!(
            text,
            "{}: {} of {} games reach the root, {from}; depth {}, plies of at least {} game{}",
            tree.set,
            tree.games(),
            tree.games_read,
            options.depth,
            options.min_games,
            if options.min_games == 1 { "" } else { "s" }
        );
        let Some(root) = tree.root() else {
            continue;
        };
        let label_width = 12 + 2 * options.depth;
        let _ = writeln!(
            text,
            "{:<label_width$} {:>7} {:>7} {:>7} {:>7} {:>10} {:>7}",
            "ply", "games", "South", "draws", "North", "unfinished", "length"
        );
        let _ = writeln!(text, "{:<label_width$} {}", "(root)", counts(root));
        // Nodes shown so far, with the edge they were shown under.
        let mut shown: HashMap<usize, usize> = HashMap::new();
        // Depth-first, each node's most played ply first.
        let mut stack: Vec<usize> = tree.children(0, options.min_games);
        stack.reverse();
        while let Some(e) = stack.pop() {
            let edge = &tree.edges[e];
            let node = &tree.nodes[edge.to];
            let label = format!("{}{}", "  ".repeat(node.depth), edge.ply);
            let _ = write!(text, "{label:<label_width$} {}", counts(node));
            let orders = node.into.len();
            match shown.get(&edge.to) {
                Some(&first) => {
                    let path = path_through(tree, first);
                    let _ = writeln!(
                        text,
                        "  transposition: {} by this order; shown after {}",
                        games(edge.games),
                        path.join(" ")
                    );
                    continue;
                }
                None if orders > 1 => {
                    let _ = writeln!(
                        text,
                        "  transposition: {} by this order, of {orders} orders",
                        games(edge.games),
                    );
                }
                None => text.push('\n'),
            }
            shown.insert(edge.to, e);
            let mut children = tree.children(edge.to, options.min_games);
            children.reverse();
            stack.extend(children);
        }
    }
    out.write_all(escaped_owned(text).as_bytes())
}

/// The plies from the root through an edge.
fn path_through(tree: &Tree, edge: usize) -> Vec<&str> {
    let e = &tree.edges[edge];
    let mut path = path_to(tree, e.from);
    path.push(e.ply.as_str());
    path
}

/// The CSV columns.
pub const CSV_COLUMNS: &[&str] = &[
    "set",
    "depth",
    "path",
    "ply",
    "games",
    "games_by_this_ply",
    "south",
    "draws",
    "north",
    "unfinished",
    "mean_length",
    "orders",
    "position",
];

/// The trees as tidy CSV: a row for each root and for each ply shown (every order of a
/// transposition has its row; `position` ties them, and `orders` counts them). `path`
/// is the plies from the root before the ply, one space apart.
pub fn write_csv(forest: &Forest, options: &TreeOptions, out: &mut dyn Write) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(CSV_COLUMNS)?;
    for tree in &forest.trees {
        let Some(root) = tree.root() else {
            continue;
        };
        let row = |w: &mut csv::Writer<&mut dyn Write>,
                   path: &str,
                   ply: &str,
                   node: &Node,
                   by_ply: u64|
         -> io::Result<()> {
            let r = &node.results;
            w.write_record([
                tree.set.as_str(),
                &node.depth.to_string(),
                path,
                ply,
                &node.games.to_string(),
                &by_ply.to_string(),
                &r.south.to_string(),
                &r.draws.to_string(),
                &r.north.to_string(),
                &r.unfinished.to_string(),
                &format!("{:.2}", node.mean_length()),
                &node.into.len().max(1).to_string(),
                &node.position.to_string(),
            ])?;
            Ok(())
        };
        row(&mut w, "", "", root, root.games)?;
        // Depth-first with the path to each edge; a node met again by another order
        // has its row, and is not expanded again.
        let mut expanded = vec![false; tree.nodes.len()];
        let mut stack: Vec<(usize, String)> = (tree.children(0, options.min_games).into_iter())
            .rev()
            .map(|e| (e, String::new()))
            .collect();
        while let Some((e, path)) = stack.pop() {
            let edge = &tree.edges[e];
            let node = &tree.nodes[edge.to];
            row(&mut w, &path, &edge.ply, node, edge.games)?;
            if std::mem::replace(&mut expanded[edge.to], true) {
                continue;
            }
            let below = match path.is_empty() {
                true => edge.ply.clone(),
                false => format!("{path} {}", edge.ply),
            };
            let children = tree.children(edge.to, options.min_games);
            stack.extend(children.into_iter().rev().map(|e| (e, below.clone())));
        }
    }
    w.flush()
}

/// The tree page's own rules, on top of `sow view`'s style.
const TREE_STYLE: &str = "
main.tree { padding: 0.5rem 1rem; }
.tree ul { list-style: none; margin: 0; padding-left: 1.2rem; border-left: 1px solid var(--line); }
.tree summary, .tree .leaf { display: flex; gap: 0.8rem; align-items: baseline; padding: 0.05rem 0; }
.tree .leaf { padding-left: 1rem; }
.tree .ply { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 600; min-width: 7rem; }
.tree .n { font-variant-numeric: tabular-nums; min-width: 4rem; text-align: right; }
.tree .results, .tree .length { color: var(--muted); font-variant-numeric: tabular-nums; }
.tree .transposition { color: var(--warning); }
";

/// The trees as one self-contained HTML page in `sow view`'s style: a section per set,
/// each position a fold with its plies inside.
pub fn html(forest: &Forest, options: &TreeOptions) -> String {
    use crate::diagram::xml_escape as esc;
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n",
    );
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(
        "<meta name=\"generator\" content=\"sow tree\">\n<title>Opening tree</title>\n<style>\n",
    );
    out.push_str(crate::view::STYLE);
    out.push_str(TREE_STYLE);
    out.push_str("</style>\n</head>\n<body>\n<header><h1>Opening tree</h1></header>\n<main class=\"tree\">\n");
    let line = |out: &mut String, ply: &str, node: &Node, note: &str| {
        let r = &node.results;
        let _ = write!(
            out,
            "<span class=\"ply\">{}</span><span class=\"n\">{}</span><span class=\"results\">South {} · draws {} · North {} · unfinished {}</span><span class=\"length\">mean {:.1} plies</span>",
            esc(ply), games(node.games), r.south, r.draws, r.north, r.unfinished, node.mean_length()
        );
        if !note.is_empty() {
            let _ = write!(out, "<span class=\"transposition\">{}</span>", esc(note));
        }
    };
    for tree in &forest.trees {
        let from = match &options.from {
            Some(p) => format!("from {}", p.trim()),
            None => "from the start position".into(),
        };
        let _ = writeln!(
            out,
            "<section>\n<h2>{}</h2>\n<p>{} of {} games reach the root, {}; depth {}, plies of at least {}.</p>",
            esc(&tree.set),
            tree.games(),
            tree.games_read,
            esc(&from),
            options.depth,
            games(options.min_games)
        );
        let Some(root) = tree.root() else {
            out.push_str("</section>\n");
            continue;
        };
        out.push_str("<details open><summary>");
        line(&mut out, "(root)", root, "");
        out.push_str("</summary>\n<ul>\n");
        // Folds opened and closed by an explicit stack: as deep as `--depth`, never
        // the program's own stack.
        enum Step {
            Edge(usize),
            Close,
        }
        let mut shown: HashMap<usize, usize> = HashMap::new();
        let mut stack: Vec<Step> = (tree.children(0, options.min_games).into_iter().rev())
            .map(Step::Edge)
            .collect();
        while let Some(step) = stack.pop() {
            let e = match step {
                Step::Close => {
                    out.push_str("</ul>\n</details></li>\n");
                    continue;
                }
                Step::Edge(e) => e,
            };
            let edge = &tree.edges[e];
            let node = &tree.nodes[edge.to];
            let orders = node.into.len();
            let (note, again) = match shown.get(&edge.to) {
                Some(&first) => (
                    format!(
                        "transposition: {} by this order; shown after {}",
                        games(edge.games),
                        path_through(tree, first).join(" ")
                    ),
                    true,
                ),
                None if orders > 1 => (
                    format!(
                        "transposition: {} by this order, of {orders} orders",
                        games(edge.games)
                    ),
                    false,
                ),
                None => (String::new(), false),
            };
            let children = match again {
                true => Vec::new(),
                false => tree.children(edge.to, options.min_games),
            };
            if !again {
                shown.insert(edge.to, e);
            }
            if children.is_empty() {
                out.push_str("<li><div class=\"leaf\">");
                line(&mut out, &edge.ply, node, &note);
                out.push_str("</div></li>\n");
                continue;
            }
            out.push_str("<li><details><summary>");
            line(&mut out, &edge.ply, node, &note);
            out.push_str("</summary>\n<ul>\n");
            stack.push(Step::Close);
            stack.extend(children.into_iter().rev().map(Step::Edge));
        }
        out.push_str("</ul>\n</details>\n</section>\n");
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}
