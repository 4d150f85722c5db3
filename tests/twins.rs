//! `sow twins`: duplicates planted in a generated corpus (the same plies, a record that
//! stops early, one to three plies changed, a ply inserted or left out) are found, and
//! no group forms among distinct games.
//!
//! The corpus has `SOW_TWINS_GAMES` distinct games (300 by default, for a debug build);
//! the ignored test runs the 10,000.

use std::collections::BTreeSet;

use assert_cmd::Command;
use sow::corpus::{Filter, Input};
use sow::generate::{GenerateOptions, Player};
use sow::pmn::{Element, Ply, PlySyntax, Record, Tag};
use sow::replay::ReplayOptions;
use sow::twins::{find, Keep, TwinOptions};

fn distinct_games(count: usize, seed: u64) -> Vec<Record> {
    // Three sets, so that the corpus is not one game's only.
    let per = count.div_ceil(3);
    let mut records = Vec::new();
    for (game, board) in [("Tsoro", None), ("Nsolo", None), ("Tsoro", Some("4x12"))] {
        let text = sow::generate::run(&GenerateOptions {
            game: game.into(),
            board: board.map(String::from),
            rules: String::new(),
            games: per,
            seed,
            player: Player::Random,
            max_plies: 300,
        })
        .unwrap();
        records.extend(sow::pmn::parse_str(&text).into_iter().map(|g| g.record));
    }
    records.truncate(count);
    records
}

fn plies_of(record: &Record) -> Vec<PlySyntax> {
    record.main_line().map(|p| p.ply.syntax.clone()).collect()
}

/// A record with these tags and plies.
fn with_plies(record: &Record, plies: Vec<PlySyntax>, tags: &[(&'static str, &str)]) -> Record {
    let mut out = Record {
        tags: record.tags.clone(),
        moves: (plies.into_iter())
            .map(|syntax| {
                Element::Ply(Ply {
                    syntax,
                    suffix: None,
                    span: Default::default(),
                })
            })
            .collect(),
        result: record.result,
    };
    for (name, value) in tags {
        out.tags.retain(|t| t.name != *name);
        out.tags.push(Tag::new(*name, *value));
    }
    out
}

/// A ply of the game other than the one at `i`.
fn another(plies: &[PlySyntax], i: usize) -> PlySyntax {
    (plies.iter())
        .find(|p| **p != plies[i])
        .cloned()
        .expect("a game has two different plies")
}

/// A copy of `record` recorded otherwise, by `kind`.
fn planted(record: &Record, kind: usize) -> Record {
    let mut plies = plies_of(record);
    let n = plies.len();
    match kind {
        // The same plies, another observer's tags.
        0 => return with_plies(record, plies, &[("Date", "1964.05.02"), ("Site", "Mutoko")]),
        // Stopped early.
        1 => plies.truncate(n * 2 / 3),
        // One, two or three plies changed, spread over the game.
        2..=4 => {
            for c in 0..kind - 1 {
                let i = (c + 1) * n / (kind + 1);
                plies[i] = another(&plies, i);
            }
        }
        // A ply written twice.
        5 => {
            let extra = plies[n / 2].clone();
            plies.insert(n / 2, extra);
        }
        // A ply left out, and one changed.
        _ => {
            plies.remove(n / 3);
            let i = 2 * n / 3;
            plies[i] = another(&plies, i);
        }
    }
    with_plies(record, plies, &[])
}

/// The corpus: `count` distinct games, then the planted copies of every 17th game
/// (long enough to hold them); returns the text and the expected groups as game
/// numbers (from 1).
fn corpus(count: usize) -> (String, BTreeSet<Vec<usize>>) {
    let mut records = distinct_games(count, 5);
    let mut expected = BTreeSet::new();
    let originals: Vec<usize> = (0..count)
        .step_by(17)
        .filter(|&i| plies_of(&records[i]).len() >= 30)
        .collect();
    for (k, &i) in originals.iter().enumerate() {
        let copy = planted(&records[i], k % 7);
        records.push(copy);
        expected.insert(vec![i + 1, records.len()]);
    }
    assert!(originals.len() >= 7, "every kind of copy is planted");
    (sow::pmn::write_games(&records), expected)
}

fn groups_found(text: &str) -> BTreeSet<Vec<usize>> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corpus.pmn");
    std::fs::write(&path, text).unwrap();
    let options = TwinOptions {
        max_diff: TwinOptions::MAX_DIFF,
        min_plies: TwinOptions::MIN_PLIES,
        keep: Keep::Longest,
        replay: ReplayOptions::validate(),
    };
    let twins = find(&[Input::File(path)], &Filter::default(), &options).unwrap();
    (twins.groups.iter())
        .map(|g| g.members.iter().map(|&m| twins.entries[m].game).collect())
        .collect()
}

fn planted_twins_are_found(count: usize) {
    let (text, expected) = corpus(count);
    let found = groups_found(&text);
    assert_eq!(found, expected);
}

#[test]
fn planted_twins_are_found_and_nothing_else() {
    let count = std::env::var("SOW_TWINS_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300);
    planted_twins_are_found(count);
}

#[test]
#[ignore = "10,000 games: minutes in a debug build"]
fn planted_twins_are_found_among_ten_thousand_games() {
    planted_twins_are_found(10_000);
}

#[test]
fn four_changed_plies_are_more_than_the_default_allows() {
    let records = distinct_games(3, 9);
    let mut plies = plies_of(&records[0]);
    let n = plies.len();
    assert!(n >= 30);
    for c in 1..=4 {
        let i = c * n / 5;
        plies[i] = another(&plies, i);
    }
    let copy = with_plies(&records[0], plies, &[]);
    let text = sow::pmn::write_games([&records[0], &copy]);
    assert!(groups_found(&text).is_empty());
}

#[test]
fn keep_writes_one_game_a_group_and_says_what_was_dropped() {
    let records = distinct_games(4, 21);
    let long = &records[0];
    let n = plies_of(long).len();
    let short = with_plies(long, plies_of(long)[..n - 5].to_vec(), &[("Date", "1970")]);
    let text = sow::pmn::write_games([&short, long, &records[1], &records[2]]);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pmn");
    std::fs::write(&input, &text).unwrap();
    let output = dir.path().join("out.pmn");
    let run = |extra: &[&str]| {
        Command::cargo_bin("sow")
            .unwrap()
            .arg("twins")
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&["--keep", "longest"]);
    assert!(out.status.success(), "{out:?}");
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("group 1: 2 games, the same plies, one stopping earlier"));
    assert!(report.contains("Date differ"), "{report}");
    assert!(report.contains("dropped  "), "{report}");
    assert!(report.contains("in.pmn game 1"), "{report}");
    let kept = sow::pmn::parse_str(&std::fs::read_to_string(&output).unwrap());
    assert_eq!(kept.len(), 3);
    // The longer record is kept, unchanged but for its form.
    assert_eq!(kept[0].record.main_line().count(), long.main_line().count());
    assert_eq!(
        sow::pmn::write_game(&kept[0].record),
        sow::pmn::write_game(long)
    );

    // An existing output is not replaced without --force.
    let before = std::fs::read(&output).unwrap();
    let out = run(&["--keep", "first"]);
    assert!(!out.status.success());
    assert_eq!(std::fs::read(&output).unwrap(), before);
    let out = run(&["--keep", "first", "--force"]);
    assert!(out.status.success());
    let kept = sow::pmn::parse_str(&std::fs::read_to_string(&output).unwrap());
    assert_eq!(kept[0].record.tag("Date"), Some("1970"));
}

#[test]
fn json_lines_give_a_group_and_a_summary() {
    let records = distinct_games(2, 4);
    let text = sow::pmn::write_games([&records[0], &records[0], &records[1]]);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pmn");
    std::fs::write(&input, &text).unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["twins", "--format", "json"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["kind"], "group");
    assert_eq!(lines[0]["relation"], "identical");
    assert_eq!(lines[0]["tags_agree"]["Date"], true);
    let games: Vec<u64> = (lines[0]["games"].as_array().unwrap().iter())
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [1, 2]);
    assert_eq!(lines[1]["kind"], "summary");
    assert_eq!(lines[1]["groups"], 1);
}
