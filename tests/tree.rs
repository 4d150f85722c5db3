//! `sow tree`: counts checked against a brute-force count over a generated corpus, and
//! transpositions on hand-made records.

use assert_cmd::Command;
use sow::corpus::{Filter, Input};
use sow::generate::{GenerateOptions, Player};
use sow::replay::{replay, ReplayOptions};
use sow::stats::winner_of;
use sow::tree::{build, Forest, TreeOptions};

fn generated(game: &str, board: Option<&str>, games: usize, seed: u64) -> String {
    sow::generate::run(&GenerateOptions {
        game: game.into(),
        board: board.map(String::from),
        rules: String::new(),
        games,
        seed,
        player: Player::Random,
        max_plies: 200,
    })
    .unwrap()
}

fn forest_of(text: &str, depth: usize, from: Option<&str>) -> Forest {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pmn");
    std::fs::write(&path, text).unwrap();
    let options = TreeOptions {
        depth,
        min_games: 1,
        from: from.map(String::from),
        replay: ReplayOptions::full(),
    };
    build(&[Input::File(path)], &Filter::default(), &options).unwrap()
}

/// Each game's positions after 0..=depth plies (PMN strings), the plies that led to
/// them, its winner and its length, by replaying it on its own.
type Walk = (Vec<String>, Vec<String>, Option<Option<sow::Side>>, usize);

fn walks(text: &str, depth: usize) -> Vec<Walk> {
    sow::pmn::parse_str(text)
        .iter()
        .map(|g| {
            let trace = replay(g, &ReplayOptions::full());
            let positions = (0..=depth.min(trace.plies.len()))
                .map(|n| trace.position_after(n).unwrap().to_string())
                .collect();
            let plies = (trace.plies.iter().take(depth))
                .map(|p| p.text.clone())
                .collect();
            (positions, plies, winner_of(&trace), trace.plies_written)
        })
        .collect()
}

#[test]
fn tree_counts_agree_with_a_brute_force_count() {
    let text = generated("Tsoro", Some("4x6"), 300, 11);
    let depth = 4;
    let forest = forest_of(&text, depth, None);
    assert_eq!(forest.trees.len(), 1);
    let tree = &forest.trees[0];
    let walks = walks(&text, depth);
    assert_eq!(tree.games(), walks.len() as u64);
    let mut transpositions = 0;
    for (n, node) in tree.nodes.iter().enumerate() {
        let position = node.position.to_string();
        let d = node.depth;
        let reaching: Vec<&Walk> = (walks.iter())
            .filter(|w| w.0.get(d) == Some(&position))
            .collect();
        assert_eq!(node.games, reaching.len() as u64, "node {n} at depth {d}");
        let south = (reaching.iter())
            .filter(|w| w.2 == Some(Some(sow::Side::South)))
            .count();
        let unfinished = reaching.iter().filter(|w| w.2.is_none()).count();
        assert_eq!(node.results.south, south as u64);
        assert_eq!(node.results.unfinished, unfinished as u64);
        let lengths: usize = reaching.iter().map(|w| w.3).sum();
        assert_eq!(node.length_sum, lengths as u64);
        // The orders that lead here: the distinct (position before, ply) pairs.
        let mut orders: Vec<(&String, &String)> = (reaching.iter())
            .filter(|_| d > 0)
            .map(|w| (&w.0[d - 1], &w.1[d - 1]))
            .collect();
        orders.sort();
        orders.dedup();
        assert_eq!(node.into.len(), orders.len(), "node {n}: {position}");
        transpositions += usize::from(orders.len() > 1);
    }
    for edge in &tree.edges {
        let from = tree.nodes[edge.from].position.to_string();
        let d = tree.nodes[edge.from].depth;
        let by_this: usize = (walks.iter())
            .filter(|w| w.0.get(d) == Some(&from) && w.1.get(d) == Some(&edge.ply))
            .count();
        assert_eq!(edge.games, by_this as u64, "{from} {}", edge.ply);
    }
    // Every position at every depth of every game is a node.
    let mut distinct: Vec<(usize, &String)> = (walks.iter())
        .flat_map(|w| w.0.iter().enumerate())
        .collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(tree.nodes.len(), distinct.len());
    assert!(transpositions > 0, "the corpus should show a transposition");
}

const TSORO_4X6: &str = "[Game \"Tsoro\"]\n[Board \"4x6\"]\n";

fn record(plies: &str, result: &str) -> String {
    format!("{TSORO_4X6}[Result \"{result}\"]\n\n{plies} {result}\n\n")
}

#[test]
fn two_orders_of_the_same_plies_make_one_position() {
    let text = [
        record("1. a6 d5 2. a3-a5 d1", "1-0"),
        record("1. a3-a5 d5 2. a6 d2", "0-1"),
        record("1. a3-a5 d5 2. a6 d1", "*"),
    ]
    .concat();
    let forest = forest_of(&text, 3, None);
    let tree = &forest.trees[0];
    let at_three: Vec<_> = tree.nodes.iter().filter(|n| n.depth == 3).collect();
    assert_eq!(at_three.len(), 1, "one position after ply 3");
    let merged = at_three[0];
    assert_eq!(merged.games, 3);
    assert_eq!(merged.into.len(), 2, "reached by two orders");
    assert_eq!(
        (
            merged.results.south,
            merged.results.north,
            merged.results.unfinished
        ),
        (1, 1, 1)
    );
    let mut by_order: Vec<(String, u64)> = (merged.into.iter())
        .map(|&e| (tree.edges[e].ply.clone(), tree.edges[e].games))
        .collect();
    by_order.sort();
    assert_eq!(by_order, [("a3-a5".to_string(), 1), ("a6".to_string(), 2)]);

    // The text says so, and shows the position once with what follows it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.pmn");
    std::fs::write(&path, &text).unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["tree", "--depth", "4"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(
        shown.contains("transposition: 2 games by this order, of 2 orders"),
        "{shown}"
    );
    assert!(
        shown.contains("transposition: 1 game by this order; shown after"),
        "{shown}"
    );
    // The plies after the merged position are listed once, with all three games.
    let d1: Vec<&str> = shown
        .lines()
        .filter(|l| l.trim_start().starts_with("d1 "))
        .collect();
    assert_eq!(d1.len(), 1, "{shown}");
}

#[test]
fn from_a_position_counts_each_game_from_where_it_reaches_it() {
    let text = [
        record("1. a6 d5 2. a3-a5 d1", "1-0"),
        record("1. a3-a5 d5 2. a6 d2", "0-1"),
        record("1. a1 d5", "*"),
    ]
    .concat();
    let start = forest_of(&text, 3, None);
    let merged = (start.trees[0].nodes.iter())
        .find(|n| n.depth == 3)
        .unwrap()
        .position
        .to_string();
    let forest = forest_of(&text, 2, Some(&merged));
    let tree = &forest.trees[0];
    assert_eq!((tree.games(), tree.games_read), (2, 3));
    let mut next: Vec<&str> = (tree.children(0, 1).into_iter())
        .map(|e| tree.edges[e].ply.as_str())
        .collect();
    next.sort();
    assert_eq!(next, ["d1", "d2"]);
}

#[test]
fn unlike_sets_have_trees_of_their_own_and_csv_names_them() {
    let text = [
        record("1. a6 d5", "*"),
        "[Game \"Tsoro\"]\n\n1. a6 d5 *\n\n".to_string(),
    ]
    .concat();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.pmn");
    std::fs::write(&path, &text).unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["tree", "--format", "csv", "--depth", "1"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("2 sets"), "{stderr}");
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let headers = reader.headers().unwrap().clone();
    assert_eq!(&headers[3], "ply");
    assert_eq!(&headers[4], "games");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let sets: Vec<(&str, &str, &str)> = rows.iter().map(|r| (&r[0], &r[3], &r[4])).collect();
    assert_eq!(
        sets,
        [
            ("Tsoro 4x6", "", "1"),
            ("Tsoro 4x6", "a6", "1"),
            ("Tsoro 4x21", "", "1"),
            ("Tsoro 4x21", "a6", "1"),
        ]
    );
}
