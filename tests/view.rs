//! `sow view`: the page's data, read back from the page, against the replay (no
//! browser): every position is the trace's, every diagnostic is there, and no text of a
//! record can end the page's data early.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use sow::corpus::{Filter, Input};
use sow::pmn::parse_str;
use sow::replay::{replay, ReplayOptions};
use sow::view::{write_view, PageOptions};

/// The files of a folder of records/, sorted.
fn records(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("records")
        .join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pmn"))
        .collect();
    files.sort();
    files
}

/// The page `sow view` writes of the games of `files`, with repairs searched for.
fn page_of(files: &[PathBuf]) -> String {
    let inputs: Vec<Input> = files.iter().cloned().map(Input::File).collect();
    let filter = Filter::new(None, &[]).unwrap();
    let mut out = Vec::new();
    let mut notes = |note: String| panic!("{note}");
    write_view(
        &inputs,
        &filter,
        &ReplayOptions::full(),
        &PageOptions::default(),
        &mut out,
        &mut notes,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

/// The data of the one game of the record `text`, as its page holds it.
fn game_data(text: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.pmn");
    std::fs::write(&file, text).unwrap();
    let data = page_data(&page_of(&[file]));
    assert_eq!(data.len(), 2, "the index and one game");
    data[1].1.clone()
}

/// The data of the one game of a file of records/.
fn record_data(path: &str) -> Value {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    game_data(&std::fs::read_to_string(file).unwrap())
}

/// The JSON of each `<script type="application/json" id="ID">` of a page.
fn page_data(html: &str) -> Vec<(String, Value)> {
    let open = "<script type=\"application/json\" id=\"";
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(open) {
        rest = &rest[at + open.len()..];
        let (id, after) = rest.split_once("\">").unwrap();
        let (json, after) = after.split_once("</script>").unwrap();
        out.push((id.to_string(), serde_json::from_str(json).unwrap()));
        rest = after;
    }
    out
}

/// The PMN `Position` strings of a game's data, those written as changes rebuilt as the
/// page rebuilds them.
fn positions_of(game: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in game["positions"].as_array().unwrap() {
        let p = p.as_str().unwrap();
        let Some(changes) = p.strip_prefix('~') else {
            out.push(p.to_string());
            continue;
        };
        let before = out.last().unwrap();
        let rows = before.split(' ').next().unwrap();
        let lengths: Vec<usize> = rows.split('/').map(|r| r.split(',').count()).collect();
        let mut cells: Vec<String> = rows.split(['/', ',']).map(str::to_string).collect();
        let (list, tail) = changes.split_once('|').unwrap();
        for change in list.split(',').filter(|c| !c.is_empty()) {
            let (i, cell) = change.split_once(':').unwrap();
            cells[i.parse::<usize>().unwrap()] = cell.to_string();
        }
        let mut rows = Vec::new();
        let mut at = 0;
        for n in lengths {
            rows.push(cells[at..at + n].join(","));
            at += n;
        }
        out.push(format!("{}{tail}", rows.join("/")));
    }
    out
}

/// Every game of the records' files, as the page shows it and as the replay has it.
#[test]
fn every_position_and_diagnostic_of_the_page_is_the_replays() {
    let options = ReplayOptions::full();
    let mut traces = Vec::new();
    let files: Vec<PathBuf> = records("examples")
        .into_iter()
        .chain(records("flawed"))
        .collect();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for parsed in parse_str(&text) {
            traces.push(replay(&parsed, &options));
        }
    }
    assert!(traces.len() > 30, "{} games", traces.len());
    let html = page_of(&files);
    let data = page_data(&html);
    assert_eq!(
        data.len(),
        traces.len() + 1,
        "the index and one script a game"
    );
    assert_eq!(data[0].0, "sow-index");
    assert_eq!(data[0].1["games"].as_array().unwrap().len(), traces.len());
    for (n, (trace, (id, game))) in traces.iter().zip(&data[1..]).enumerate() {
        assert_eq!(*id, format!("sow-game-{}", n + 1));
        let positions = positions_of(game);
        let expected: Vec<String> = (0..=trace.plies.len())
            .filter_map(|k| trace.position_after(k).map(|p| p.to_string()))
            .collect();
        assert_eq!(positions, expected, "game {}", n + 1);
        let plies = game["plies"].as_array().unwrap();
        assert_eq!(plies.len(), trace.plies.len());
        for (shown, ply) in plies.iter().zip(&trace.plies) {
            assert_eq!(shown["text"], ply.text.as_str());
            assert_eq!(shown["lap_count"], ply.effect.lap_count);
            assert_eq!(shown["foul"].as_bool().unwrap_or(false), ply.foul);
            let laps: Vec<String> = (ply.effect.laps.iter().take(sow::view::MAX_LAPS_SHOWN))
                .map(|l| format!("{}-{}", l.start, l.end))
                .collect();
            let shown_laps: Vec<&str> = (shown["laps"].as_array().into_iter().flatten())
                .map(|l| l.as_str().unwrap())
                .collect();
            assert_eq!(shown_laps, laps);
            let end = ply.effect.end.map(|p| p.to_string());
            assert_eq!(shown["end"].as_str(), end.as_deref());
        }
        let messages: Vec<(&str, Option<u64>)> = (game["diagnostics"].as_array().unwrap().iter())
            .map(|d| (d["message"].as_str().unwrap(), d["ply"].as_u64()))
            .collect();
        let expected: Vec<(&str, Option<u64>)> = (trace.diagnostics.iter())
            .map(|d| (d.message.as_str(), d.ply.map(u64::from)))
            .collect();
        assert_eq!(messages, expected, "game {}", n + 1);
        // A game that stops at a ply it cannot play shows that ply, one past the last
        // position.
        if let Some(stop) = game["stop"].as_u64() {
            assert_eq!(stop as usize, positions.len());
            assert_eq!(trace.first_error_ply(), Some(stop as u32));
        }
    }
}

/// The illegal ply of records/flawed/illegal-move.pmn, with its legal plies and a
/// repair, at the ply the page steps to.
#[test]
fn an_illegal_ply_is_shown_with_its_legal_plies_and_repairs() {
    let game = record_data("records/flawed/illegal-move.pmn");
    assert_eq!(game["stop"], 5);
    assert_eq!(positions_of(&game).len(), 5, "the start and four plies");
    assert_eq!(game["first_error"], 5);
    let d = &game["diagnostics"][0];
    assert_eq!(d["ply"], 5);
    assert_eq!(d["legal"], serde_json::json!(["a10", "b4x"]));
    assert!(!d["suggestions"].as_array().unwrap().is_empty(), "{d:?}");
}

#[test]
fn a_comment_cannot_end_the_pages_data() {
    let text = "[Game \"Tsoro\"]\n[Event \"</script><script>alert(1)</script>\"]\n\n1. a1 {</script> <!-- } *\n";
    let dir = tempfile::tempdir().unwrap();
    // The page's title is its file's name.
    let file = dir.path().join("<b>.pmn");
    std::fs::write(&file, text).unwrap();
    let html = page_of(&[file]);
    assert!(!html.contains("<b>"));
    assert!(!html.contains("<script>alert"));
    assert!(!html.contains("<!--"));
    let data = page_data(&html);
    assert_eq!(data.len(), 2);
    let tags = &data[1].1["tags"];
    assert_eq!(tags[1][1], "</script><script>alert(1)</script>");
}

/// `[%stones]` checkpoints beside the true counts, agreeing or not.
#[test]
fn checkpoints_are_shown_against_the_true_counts() {
    let game = record_data("records/flawed/stones-mismatch.pmn");
    let plies = game["plies"].as_array().unwrap();
    let all: Vec<&Value> = (plies.iter())
        .flat_map(|p| p["stones"].as_array().into_iter().flatten())
        .chain(game["start_stones"].as_array().unwrap())
        .collect();
    assert!(all.iter().any(|c| c["agrees"] == false), "{all:?}");
    for c in all {
        let said: Vec<Value> = (c["written"].as_str().unwrap().split(' '))
            .map(|w| w.parse::<u32>().unwrap().into())
            .collect();
        assert_eq!(
            c["agrees"].as_bool().unwrap(),
            c["actual"].as_array() == Some(&said)
        );
    }
}

#[test]
fn the_command_writes_one_page_and_never_over_a_file_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.html");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("records/examples");
    Command::cargo_bin("sow")
        .unwrap()
        .args(["view", "--game", "Kiothi"])
        .arg(&examples)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let html = std::fs::read_to_string(&out).unwrap();
    let data = page_data(&html);
    assert_eq!(data.len(), 1 + 3, "the three Kiothi games");
    assert!(html.contains("default-src 'none'"));
    Command::cargo_bin("sow")
        .unwrap()
        .arg("view")
        .arg(&examples)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), html);
    let input = examples.join("tsoro.pmn");
    Command::cargo_bin("sow")
        .unwrap()
        .arg("view")
        .arg(&input)
        .arg("-o")
        .arg(&input)
        .arg("--force")
        .assert()
        .code(2);
}

/// A variation is listed where it branches, its plies not numbered in the main line.
#[test]
fn a_variation_is_listed_where_it_branches() {
    let text =
        "[Game \"Tsoro\"]\n[Board \"4x8\"]\n\n1. a5-a7 $1 (1. a4 {or this} (1. a3)) d4-d2 *\n";
    let game = game_data(text);
    let items = &game["moves"];
    let kinds: Vec<String> = (items.as_array().unwrap().iter())
        .map(|i| {
            let t = i["t"].as_str().unwrap_or("");
            let p = i["p"].as_u64().map(|p| format!("#{p}")).unwrap_or_default();
            format!("{}{t}{p}", i["k"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "n1.", "pa5-a7#1", "g$1", "(", "n1.", "pa4", "cor this", "(", "n1.", "pa3", ")", ")",
            "pd4-d2#2", "r*"
        ]
    );
    assert_eq!(positions_of(&game).len(), 3);
    // The variation that branches from the main line is replayed as the line it makes:
    // from the position before ply 1, its own plies (not those of the one inside it).
    let variations = game["variations"].as_array().unwrap();
    assert_eq!(variations.len(), 1);
    let v = &variations[0];
    assert_eq!(v["at"], 1);
    assert_eq!(positions_of(v)[0], positions_of(&game)[0]);
    let plies = v["plies"].as_array().unwrap();
    let texts: Vec<&str> = plies.iter().map(|p| p["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["a4"]);
    assert_eq!(plies[0]["number"], 1);
}

#[test]
fn repairs_are_searched_unless_told_not_to() {
    let dir = tempfile::tempdir().unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("records/flawed/illegal-move.pmn");
    let suggestions = |extra: &[&str]| {
        let out = dir.path().join(format!("{}.html", extra.len()));
        Command::cargo_bin("sow")
            .unwrap()
            .arg("view")
            .arg(&input)
            .args(extra)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        let data = page_data(&std::fs::read_to_string(&out).unwrap());
        data[1].1["diagnostics"][0]["suggestions"]
            .as_array()
            .unwrap()
            .len()
    };
    assert!(suggestions(&[]) > 0);
    assert_eq!(suggestions(&["--no-suggest"]), 0);
}

/// A capture-free cycle of 120 plies on Tsoro 4x6 without heads, from [`CYCLE_START`],
/// North to move (as in tests/bounds.rs): a game as long as it is written.
const CYCLE: &str = "c5 a3 c6 a6 d6 a5 d5 b3 d4 b2 d3 b1 d2 b6 d1 b5 c1 b4 c2 a1 \
    c5 a2 c6 a4 d6 a6 d5 b3 d4 b2 d3 b1 d2 b6 d1 b5 c1 b4 c2 a1 c5 a3 c6 a5 d6 a6 d5 b3 \
    d4 b2 d3 b1 d2 b6 d1 b5 c1 b4 c2 a2 c5 a1 c6 a4 d6 a3 d5 a2 d4 a5 d3 a6 d2 b6 d1 b5 \
    c1 a4 c2 a3 c5 a5 c6 a4 d6 b3 d5 b2 d4 b1 d3 a1 d2 a2 d1 a3 c1 b4 c2 b3 c5 b2 c6 a6 \
    d6 a5 d5 a4 d4 b6 d3 b1 d2 a1 d1 b5 c1 b4 c2 a2";

const CYCLE_START: &str = "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N";

/// A game long enough that its lines' data outgrows memory and goes to a file: read
/// back from there, its positions are the replay's, and a variation's are the main
/// line's up to where it branches.
#[test]
fn a_long_games_positions_read_back_from_a_file_are_the_replays() {
    let mut text = format!(
        "[Game \"Tsoro\"]\n[Board \"4x6\"]\n[Rules \"heads=0\"]\n[SetUp \"1\"]\n\
         [Position \"{CYCLE_START}\"]\n\n1... "
    );
    let plies: Vec<&str> = CYCLE.split_whitespace().cycle().take(72_000).collect();
    let at = plies.len() - 10;
    for (i, ply) in plies.iter().enumerate() {
        if i % 2 == 1 {
            text += &format!("{}. ", i / 2 + 2);
        }
        text += ply;
        // A variation that plays the same ply again.
        if i + 1 == at {
            text += &format!(" ({}. {ply})", i / 2 + 2);
        }
        text += if i % 16 == 15 { "\n" } else { " " };
    }
    text += "*\n";
    let game = game_data(&text);
    let trace = replay(&parse_str(&text)[0], &ReplayOptions::full());
    assert!(trace.is_valid() && trace.plies.len() == plies.len());
    let expected: Vec<String> = (0..=trace.plies.len())
        .filter_map(|k| trace.position_after(k).map(|p| p.to_string()))
        .collect();
    // Past what a game's lists hold in memory.
    for list in ["positions", "plies"] {
        assert!(game[list].to_string().len() > 1 << 20, "{list}");
    }
    let positions = positions_of(&game);
    assert_eq!(positions, expected);
    let shown = game["plies"].as_array().unwrap();
    let texts: Vec<&str> = shown.iter().map(|p| p["text"].as_str().unwrap()).collect();
    assert_eq!(texts, plies);
    let v = &game["variations"][0];
    assert_eq!(v["at"], at);
    assert_eq!(positions_of(v), [&expected[at - 1][..], &expected[at][..]]);
}

/// A variation's diagnostics are where its plies are written in the file, its game not
/// the first, with characters of more than a byte before them on their line; a line has
/// no result, so the game's result is not checked at the variation's end.
#[test]
fn a_variations_diagnostic_is_at_its_ply_in_the_file() {
    let text = "[Game \"Tsoro\"]\n[Board \"4x8\"]\n\n1. a5-a7 *\n\n\
                [Game \"Tsoro\"]\n[Board \"4x8\"]\n[Result \"S\"]\n\n\
                1. a5-a7 {café} d4-d2 2. a4 $1 {éé} (2. a3 {é} d5 3. a3) 2... d3 *\n";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.pmn");
    std::fs::write(&file, text).unwrap();
    let data = page_data(&page_of(&[file]));
    let v = &data[2].1["variations"][0];
    assert_eq!(v["at"], 3);
    assert_eq!(v["stop"], 5);
    let diagnostics = v["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "illegal-move");
    assert_eq!(d["ply"], 5);
    let at = text.find("3. a3)").unwrap() + 3;
    let line_start = text[..at].rfind('\n').unwrap() + 1;
    assert_eq!(d["line"], text[..at].matches('\n').count() + 1);
    assert_eq!(d["column"], text[line_start..at].chars().count() + 1);
}

/// Each variation is replayed from the game's start: those past the plies a game's
/// variations may replay in all are shown from the main line's position before the ply
/// they replace, not replayed, and said so beside the page.
#[test]
fn variations_past_their_plies_of_replay_are_shown_not_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("game.pmn");
    std::fs::write(
        &input,
        "[Game \"Tsoro\"]\n[Board \"4x6\"]\n[Rules \"heads=0\"]\n[SetUp \"1\"]\n\
         [Position \"0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N\"]\n\n\
         1... c5 2. a3 (2. a3) c6 3. a6 (3. a6) d6 4. a5 (4. a5) d5 *\n",
    )
    .unwrap();
    let page = dir.path().join("page.html");
    // The variations replace plies 2, 4 and 6: they replay 1, 3 and 5 plies before
    // their own, 4 for the first two.
    let run_with = |bounds: &[&str]| {
        let out = Command::cargo_bin("sow")
            .unwrap()
            .arg("view")
            .args(bounds)
            .arg("-o")
            .arg(&page)
            .arg(&input)
            .arg("--force")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let said = String::from_utf8(out.stderr).unwrap();
        let data = page_data(&std::fs::read_to_string(&page).unwrap());
        (said, data[1].1.clone())
    };
    let run = |bound: &str| run_with(&["--max-variation-plies", bound]);
    let (said, all) = run("9");
    assert_eq!(said, "");
    let (said, game) = run("4");
    assert!(
        said.contains("game 1: 1 variation of its 3 is not replayed"),
        "{said}"
    );
    assert!(said.contains("--max-variation-plies"), "{said}");
    let (variations, replayed) = (&game["variations"], &all["variations"]);
    for v in 0..2 {
        assert_eq!(variations[v], replayed[v], "variation {v}");
    }
    let last = &variations[2];
    assert_eq!(last["at"], 6);
    assert_eq!(positions_of(last), [positions_of(&game)[5].clone()]);
    assert_eq!(last["plies"].as_array().unwrap().len(), 0);
    assert_eq!(last["stop"], 6);
    let notice = &last["diagnostics"][0];
    assert_eq!(notice["code"], "not-replayed");
    assert_eq!(notice["ply"], 6);
    // Where its moves begin: `4. a5` after the `(` on line 7.
    assert_eq!(
        (notice["line"].as_u64(), notice["column"].as_u64()),
        (Some(7), Some(50))
    );
    // Replayed, it plays its ply.
    assert_eq!(replayed[2]["plies"].as_array().unwrap().len(), 1);
    assert_eq!(replayed[2]["stop"], Value::Null);
    // Each reads again the game's text before the ply it replaces: bound so, the same.
    let text = std::fs::read_to_string(&input).unwrap();
    let before = |ply: &str| text.find(ply).unwrap();
    let two = before("a3 (2. a3)") + before("a6 (3. a6)");
    let (said, by_text) = run_with(&["--max-variation-text", &two.to_string()]);
    assert!(said.contains("1 variation of its 3"), "{said}");
    assert!(said.contains("--max-variation-text"), "{said}");
    for v in 0..3 {
        let (a, b) = (&by_text["variations"][v], &game["variations"][v]);
        for field in ["at", "positions", "plies", "stop"] {
            assert_eq!(a[field], b[field], "variation {v}: {field}");
        }
    }
    let notice = &by_text["variations"][2]["diagnostics"][0];
    assert_eq!(notice["code"], "not-replayed");
}
