//! `sow diff`: a ply inserted, left out or changed in a second transcription, and two
//! unrelated games.

use assert_cmd::Command;
use serde_json::Value;
use sow::generate::{GenerateOptions, Player};
use sow::pmn::{Element, Ply, PlySyntax, Record, Tag};

fn games(count: usize, seed: u64) -> Vec<Record> {
    let text = sow::generate::run(&GenerateOptions {
        game: "Tsoro".into(),
        board: Some("4x8".into()),
        rules: String::new(),
        games: count,
        seed,
        player: Player::Random,
        max_plies: 200,
    })
    .unwrap();
    sow::pmn::parse_str(&text)
        .into_iter()
        .map(|g| g.record)
        .collect()
}

fn plies_of(record: &Record) -> Vec<PlySyntax> {
    record.main_line().map(|p| p.ply.syntax.clone()).collect()
}

fn with_plies(record: &Record, plies: Vec<PlySyntax>) -> Record {
    Record {
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
    }
}

/// `sow diff --format json` of two records: its lines and its exit status.
fn diff(a: &Record, b: &Record) -> (Vec<Value>, i32) {
    let dir = tempfile::tempdir().unwrap();
    let (pa, pb) = (dir.path().join("a.pmn"), dir.path().join("b.pmn"));
    std::fs::write(&pa, sow::pmn::write_game(a)).unwrap();
    // B is the second game of its file, picked by FILE:K.
    std::fs::write(&pb, sow::pmn::write_games([a, b])).unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["diff", "--format", "json"])
        .arg(&pa)
        .arg(format!("{}:2", pb.display()))
        .output()
        .unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (lines, out.status.code().unwrap())
}

fn of_kind<'a>(lines: &'a [Value], kind: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["kind"] == kind).collect()
}

fn summary(lines: &[Value]) -> &Value {
    of_kind(lines, "summary")[0]
}

fn a_long_game() -> Record {
    (games(20, 3).into_iter())
        .find(|g| g.main_line().count() >= 30)
        .expect("a game of 30 plies")
}

#[test]
fn a_ply_written_twice_is_an_insertion_where_b_stops() {
    let a = a_long_game();
    let mut plies = plies_of(&a);
    let extra = plies[9].clone();
    plies.insert(10, extra.clone());
    let b = with_plies(&a, plies);
    let (lines, status) = diff(&a, &b);
    assert_eq!(status, 1);
    let edits = of_kind(&lines, "ply");
    assert_eq!(edits.len(), 1, "{lines:?}");
    assert_eq!(edits[0]["op"], "inserted");
    assert_eq!(edits[0]["ply_b"], 11);
    assert_eq!(edits[0]["ply_a"], Value::Null);
    assert_eq!(edits[0]["b"], extra.to_string());
    let s = summary(&lines);
    assert_eq!(s["common_start"], 10);
    assert_eq!(s["further"], "a");
    // B's replay stops at the extra ply (the same pit, played by the other side or
    // emptied), with its code.
    let games = of_kind(&lines, "game");
    assert_eq!(games[0]["stop"], Value::Null);
    assert_eq!(games[1]["stop"]["ply"], 11);
    assert!(games[1]["stop"]["code"].as_str().is_some());
    // The position where they part is the one after ply 10, as `sow show` gives it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.pmn");
    std::fs::write(&path, sow::pmn::write_game(&a)).unwrap();
    let shown = Command::cargo_bin("sow")
        .unwrap()
        .args(["show", "--format", "pmn", "--ply", "10"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(
        s["parting_position"].as_str().unwrap(),
        String::from_utf8(shown.stdout).unwrap().trim()
    );
}

#[test]
fn a_ply_left_out_is_a_deletion() {
    let a = a_long_game();
    let mut plies = plies_of(&a);
    let gone = plies.remove(20);
    let b = with_plies(&a, plies);
    let (lines, _) = diff(&a, &b);
    let edits = of_kind(&lines, "ply");
    assert_eq!(edits.len(), 1, "{lines:?}");
    assert_eq!(edits[0]["op"], "deleted");
    assert_eq!(edits[0]["a"], gone.to_string());
    // Left out where a run of the same ply makes the place ambiguous, it is the last
    // of the run.
    let ply_a = edits[0]["ply_a"].as_u64().unwrap() as usize;
    assert!(ply_a >= 21, "{ply_a}");
    assert!(plies_of(&a)[20..ply_a].iter().all(|p| *p == gone));
    assert_eq!(summary(&lines)["further"], "a");
}

#[test]
fn a_changed_ply_is_one_edit_and_tags_that_differ_are_named() {
    let a = a_long_game();
    let mut plies = plies_of(&a);
    let other = (plies.iter().find(|p| **p != plies[15]).cloned()).unwrap();
    let was = std::mem::replace(&mut plies[15], other.clone());
    let mut b = with_plies(&a, plies);
    b.tags.retain(|t| t.name != "Round");
    b.tags.push(Tag::new("Site", "Mutoko"));
    let (lines, _) = diff(&a, &b);
    let edits = of_kind(&lines, "ply");
    assert_eq!(edits.len(), 1, "{lines:?}");
    assert_eq!(edits[0]["op"], "changed");
    assert_eq!(
        (edits[0]["ply_a"].as_u64(), edits[0]["ply_b"].as_u64()),
        (Some(16), Some(16))
    );
    assert_eq!(
        (edits[0]["a"].as_str(), edits[0]["b"].as_str()),
        (
            Some(was.to_string().as_str()),
            Some(other.to_string().as_str())
        )
    );
    let tags: Vec<(String, Value, Value)> = (of_kind(&lines, "tag").into_iter())
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_string(),
                t["a"].clone(),
                t["b"].clone(),
            )
        })
        .collect();
    assert_eq!(
        tags,
        [
            (
                "Round".to_string(),
                a.tag("Round").unwrap().into(),
                Value::Null
            ),
            ("Site".to_string(), Value::Null, "Mutoko".into()),
        ]
    );
    assert_eq!(summary(&lines)["unrelated"], false);
}

#[test]
fn two_unrelated_games_differ_in_most_plies() {
    let g = games(6, 8);
    let (a, b) = (&g[1], &g[4]);
    let (lines, status) = diff(a, b);
    assert_eq!(status, 1);
    let s = summary(&lines);
    assert_eq!(s["unrelated"], true, "{s}");
    assert!(s["edits"].as_u64().unwrap() > s["common_start"].as_u64().unwrap());
    // The human form says so.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.pmn");
    std::fs::write(&path, sow::pmn::write_games(&g)).unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["diff", "--game-a", "2", "--game-b", "5"])
        .arg(&path)
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("probably not one game"), "{text}");
    assert!(text.contains("Tags that differ"), "{text}");
}

#[test]
fn a_game_and_itself_are_the_same() {
    let a = a_long_game();
    let (lines, status) = diff(&a, &a);
    assert_eq!(status, 0);
    assert_eq!(summary(&lines)["identical"], true);
    assert_eq!(summary(&lines)["parting_position"], Value::Null);
}

#[test]
fn a_game_number_past_the_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.pmn");
    std::fs::write(&path, sow::pmn::write_game(&a_long_game())).unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["diff", "--game-b", "3"])
        .arg(&path)
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("has 1 game, not 3"), "{err}");
}
