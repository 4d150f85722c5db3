//! `sow stats`: CSV contents on hand-computed games (RULES.md, EXAMPLES.md), and the CSV
//! read back with the csv crate against the declared Table Schemas.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

mod expect;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/analysers")
        .join(name)
}

fn schema(per: &str) -> Value {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schemas/stats-{per}.schema.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

type Row = HashMap<String, String>;

/// Checks one value against a Table Schema field; panics with the reason.
fn check_field(field: &Value, value: &str, row: usize) {
    let name = field["name"].as_str().unwrap();
    let c = &field["constraints"];
    if value.is_empty() {
        assert!(
            c["required"] != Value::Bool(true),
            "row {row}: {name} is required but empty"
        );
        return;
    }
    match field["type"].as_str().unwrap() {
        "integer" => {
            let v: i64 = value
                .parse()
                .unwrap_or_else(|_| panic!("row {row}: {name}={value:?} is not an integer"));
            if let Some(min) = c["minimum"].as_i64() {
                assert!(v >= min, "row {row}: {name}={v} below {min}");
            }
        }
        "boolean" => assert!(
            value == "true" || value == "false",
            "row {row}: {name}={value:?} is not a boolean"
        ),
        "string" => {}
        other => panic!("unexpected type {other}"),
    }
    if let Some(allowed) = c["enum"].as_array() {
        assert!(
            allowed.iter().any(|a| a.as_str() == Some(value)),
            "row {row}: {name}={value:?} not in {allowed:?}"
        );
    }
}

/// Runs `sow stats` and reads its CSV back, checked against the schema of the table.
fn stats(per: &str, files: &[&str], extra: &[&str]) -> Vec<Row> {
    let mut cmd = Command::cargo_bin("sow").unwrap();
    cmd.arg("stats").arg("--per").arg(per);
    for f in files {
        cmd.arg(data(f));
    }
    cmd.args(extra);
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "sow stats failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The rows read back into the library's own row types.
    let typed = match per {
        "ply" => csv::Reader::from_reader(&out.stdout[..])
            .deserialize::<sow::stats::PlyRow>()
            .map(|r| r.map(|_| ()))
            .collect::<Result<Vec<()>, _>>(),
        _ => csv::Reader::from_reader(&out.stdout[..])
            .deserialize::<sow::stats::GameRow>()
            .map(|r| r.map(|_| ()))
            .collect::<Result<Vec<()>, _>>(),
    };
    let typed = typed.expect("the CSV reads back into the row type").len();
    let schema = schema(per);
    let fields = schema["fields"].as_array().unwrap();
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let names: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(
        header, names,
        "the CSV columns are the schema's fields, in order"
    );
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.unwrap();
        assert_eq!(record.len(), fields.len());
        for (field, value) in fields.iter().zip(record.iter()) {
            check_field(field, value, i + 1);
        }
        rows.push(
            header
                .iter()
                .cloned()
                .zip(record.iter().map(String::from))
                .collect(),
        );
    }
    assert_eq!(typed, rows.len());
    rows
}

fn find<'a>(rows: &'a [Row], file: &str, game: &str, ply: Option<&str>) -> &'a Row {
    rows.iter()
        .find(|r| {
            r["file"].ends_with(file) && r["game"] == game && ply.is_none_or(|p| r["ply"] == p)
        })
        .unwrap_or_else(|| panic!("no row for {file} game {game} ply {ply:?} in {rows:#?}"))
}

fn expect(row: &Row, pairs: &[(&str, &str)]) {
    for (k, v) in pairs {
        assert_eq!(row[*k], *v, "column {k} of {row:#?}");
    }
}

#[test]
fn bao_plies_hand_computed() {
    // RULES.md: 46 stones, 23 a side; b1 and c12 empty. Each step is one lap of one stone.
    let rows = stats("ply", &["bao.pmn"], &[]);
    assert_eq!(rows.len(), 4);
    let common = [("laps", "1"), ("stones_sown", "1"), ("bonus", "0")];
    let plies = [
        // ply, player, move, end, captured, south, north, mobility of the next side
        ("1", "South", "b2x", "b1", "2", "23", "21", "2"), // North: c11, d2
        ("2", "North", "c11x", "c12", "2", "21", "21", "2"), // South: a11, b3
        ("3", "South", "a11", "a12", "0", "21", "21", "2"), // North: d2, c10
        ("4", "North", "c10x", "c11", "1", "20", "21", "3"), // South: a10, a12, b3
    ];
    for (ply, player, mv, end, captured, south, north, legal) in plies {
        let row = find(&rows, "bao.pmn", "1", Some(ply));
        expect(row, &common);
        expect(
            row,
            &[
                ("player", player),
                ("move", mv),
                ("end_pit", end),
                ("captured", captured),
                ("south", south),
                ("north", north),
                ("south_prison", ""),
                ("north_prison", ""),
                ("legal_moves", legal),
            ],
        );
    }
}

#[test]
fn bao_game_hand_computed() {
    let rows = stats("game", &["bao.pmn"], &[]);
    assert_eq!(rows.len(), 1);
    expect(
        &rows[0],
        &[
            ("game", "1"),
            ("name", "Amina - Baraka, Hand-computed, 2024.05.01"),
            ("board", "4x12"),
            ("rules", ""),
            ("plies", "4"),
            ("plies_written", "4"),
            ("result", "*"),
            ("over", "false"),
            ("winner", ""),
            ("south_final", "20"),
            ("north_final", "21"),
            ("margin", "-1"),
            ("captures_south", "2"),
            ("captures_north", "3"),
            ("total_laps", "4"),
            ("max_laps", "1"),
            ("longest_sowing", "1"),
            ("first_capture_ply", "1"),
            ("one_warrior_victory", ""),
            ("valid", "true"),
            ("first_error_ply", ""),
        ],
    );
}

#[test]
fn tsoro_relay_capture_bonus_and_error() {
    let rows = stats("ply", &["tsoro.pmn"], &[]);
    // a3: laps of 2, 3, 4 and 5 stones (a12 is an occupied head: no -END, so it relays).
    expect(
        find(&rows, "tsoro.pmn", "1", Some("1")),
        &[
            ("player", "South"),
            ("laps", "4"),
            ("stones_sown", "14"),
            ("end_pit", "b8"),
            ("captured", "0"),
            ("bonus", "0"),
            ("south", "25"),
            ("north", "25"),
        ],
    );
    // d3xa11,b10: b6 (1) and a6 (4) captured, a11 (1) and b10 (1) as the bonus.
    expect(
        find(&rows, "tsoro.pmn", "2", Some("1")),
        &[
            ("player", "North"),
            ("move", "d3xa11,b10"),
            ("laps", "3"),
            ("end_pit", "c6"),
            ("captured", "5"),
            ("bonus", "2"),
            ("south", "18"),
            ("north", "25"),
        ],
    );
    // Ply 2 (`d1`, not South's pit) is illegal: no row for it.
    assert!(rows
        .iter()
        .all(|r| !(r["file"].ends_with("tsoro.pmn") && r["game"] == "2" && r["ply"] == "2")));

    let games = stats("game", &["tsoro.pmn"], &[]);
    expect(
        find(&games, "tsoro.pmn", "2", None),
        &[
            ("rules", "heads=1 head-bonus=yes"),
            ("plies", "1"),
            ("plies_written", "2"),
            ("captures_south", "0"),
            ("captures_north", "7"),
            ("first_capture_ply", "1"),
            ("south_final", "18"),
            ("north_final", "25"),
            ("margin", "-7"),
            ("valid", "false"),
            ("first_error_ply", "2"),
        ],
    );
    expect(
        find(&games, "tsoro.pmn", "1", None),
        &[
            ("valid", "true"),
            ("first_capture_ply", ""),
            ("longest_sowing", "14"),
            ("max_laps", "4"),
        ],
    );
}

#[test]
fn nsolo_capture_with_equal_bonus() {
    let rows = stats("ply", &["nsolo.pmn"], &[]);
    assert_eq!(rows.len(), 1);
    expect(
        &rows[0],
        &[
            ("move", "b1xd7"),
            ("laps", "7"),
            ("end_pit", "b8"),
            ("captured", "3"),
            ("bonus", "3"),
            ("south", "24"),
            ("north", "24"),
        ],
    );
}

#[test]
fn kiothi_prisons_and_the_award() {
    let rows = stats("ply", &["kiothi.pmn"], &[]);
    // The opening redistribution: no lap, stones only moved.
    expect(
        find(&rows, "kiothi.pmn", "1", Some("1")),
        &[
            ("laps", "0"),
            ("stones_sown", "0"),
            ("captured", "0"),
            ("south", "30"),
            ("north", "30"),
            ("south_prison", "0"),
            ("north_prison", "0"),
        ],
    );
    // a8:4-a1x: b1 (8) and the capturing stone go to South's prison.
    expect(
        find(&rows, "kiothi.pmn", "2", Some("1")),
        &[
            ("laps", "13"),
            ("end_pit", "a1"),
            ("captured", "9"),
            ("south", "26"),
            ("north", "25"),
            ("south_prison", "9"),
            ("north_prison", "0"),
        ],
    );
    let games = stats("game", &["kiothi.pmn"], &[]);
    expect(
        find(&games, "kiothi.pmn", "2", None),
        &[
            ("captures_south", "9"),
            ("south_final", "9"),
            ("north_final", "0"),
            ("margin", "9"),
            ("one_warrior_victory", ""),
        ],
    );
    // South cannot move: the 4 stones on the board go to North, 31 to 29.
    expect(
        find(&games, "kiothi.pmn", "3", None),
        &[
            ("plies", "0"),
            ("over", "true"),
            ("winner", "South"),
            ("south_final", "31"),
            ("north_final", "29"),
            ("margin", "2"),
            ("one_warrior_victory", "true"),
            ("valid", "true"),
        ],
    );
}

#[test]
fn filters_and_numbering_follow_the_files() {
    let rows = stats(
        "game",
        &["kiothi.pmn", "bao.pmn"],
        &["--where", "Event=EXAMPLES.md"],
    );
    let keys: Vec<(bool, &str)> = rows
        .iter()
        .map(|r| (r["file"].ends_with("kiothi.pmn"), r["game"].as_str()))
        .collect();
    assert_eq!(keys, [(true, "1"), (true, "2")]);
    let rows = stats(
        "game",
        &["tsoro.pmn", "bao.pmn"],
        &["--game", "baolakimasai"],
    );
    assert_eq!(rows.len(), 1);
    assert!(rows[0]["file"].ends_with("bao.pmn"));
}

#[test]
fn unreadable_rules_still_give_a_row() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.pmn");
    std::fs::write(&p, "[Game \"Chess\"]\n\n1. e4 *\n").unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["stats", "--per", "game"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut r = csv::Reader::from_reader(&out.stdout[..]);
    let rec: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rec.len(), 1);
    let h = r.headers().unwrap().clone();
    let get = |k: &str| rec[0][h.iter().position(|c| c == k).unwrap()].to_string();
    assert_eq!(get("valid"), "false");
    assert_eq!(get("plies"), "0");
    assert_eq!(get("board"), "");
}

/// docs/stats-columns.md is the schemas as markdown tables (`UPDATE_EXPECT=1` rewrites it).
#[test]
fn column_docs_match_the_schemas() {
    let mut md = String::from(
        "# `sow stats` columns\n\nGenerated from `schemas/stats-ply.schema.json` and `schemas/stats-game.schema.json` \
         (Frictionless Table Schema) by `tests/stats.rs`; run `UPDATE_EXPECT=1 cargo test --test stats` after changing them. \
         Empty cells are missing values.\n",
    );
    for (per, title) in [
        ("ply", "One row per ply (`--per ply`)"),
        ("game", "One row per game (`--per game`)"),
    ] {
        md.push_str(&format!(
            "\n## {title}\n\n| column | type | description |\n|---|---|---|\n"
        ));
        for f in schema(per)["fields"].as_array().unwrap() {
            let mut typ = f["type"].as_str().unwrap().to_string();
            if f["constraints"]["required"] != Value::Bool(true) {
                typ.push_str(", may be empty");
            }
            md.push_str(&format!(
                "| `{}` | {} | {} |\n",
                f["name"].as_str().unwrap(),
                typ,
                f["description"].as_str().unwrap().replace('|', "\\|")
            ));
        }
    }
    expect::check_file("docs/stats-columns.md", &md);
}

#[test]
fn an_unreadable_input_fails_the_command_and_writes_no_file() {
    // Not even the readable inputs are written, and the exit status is not 0.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    for command in ["stats", "plot", "convert"] {
        let mut cmd = Command::cargo_bin("sow").unwrap();
        cmd.arg(command);
        if command == "convert" {
            cmd.args(["--to", "pmn"]);
        }
        cmd.arg(data("bao.pmn"))
            .arg(dir.path().join("missing.pmn"))
            .arg("-o")
            .arg(&out);
        let run = cmd.output().unwrap();
        assert_eq!(run.status.code(), Some(2), "{command}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains("missing.pmn"), "{command}: {stderr}");
        assert!(!out.exists(), "{command} wrote {out:?}");
    }
}

#[test]
fn an_empty_file_gives_no_row() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pmn");
    std::fs::write(&empty, "").unwrap();
    let run = Command::cargo_bin("sow")
        .unwrap()
        .args(["stats", "--per", "game"])
        .arg(&empty)
        .arg(data("bao.pmn"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(!text.contains("empty.pmn"), "{text}");
}

#[test]
fn a_dash_as_output_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let run = Command::cargo_bin("sow")
        .unwrap()
        .current_dir(dir.path())
        .args(["stats", "--per", "game", "-o", "-"])
        .arg(data("bao.pmn"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    assert!(String::from_utf8(run.stdout)
        .unwrap()
        .starts_with("file,game,"));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no file `-`"
    );
}

#[test]
fn an_input_that_fails_when_read_is_reported_with_its_place() {
    // Standard input from a folder opens and fails on its first read, after the rows
    // of the inputs before it are made: the command fails and writes nothing, to
    // standard output as to a file (see above).
    let folder = std::fs::File::open(env!("CARGO_MANIFEST_DIR")).unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_sow"))
        .arg("stats")
        .arg(data("bao.pmn"))
        .arg("-")
        .stdin(folder)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.starts_with("sow: <stdin>:1:1: the input could not be read: "),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.is_empty(), "{stdout}");
}

#[test]
fn every_row_names_its_set_of_game_board_and_rules() {
    // Rows of different (game, board, rules) sets are told apart by their `set` column,
    // so that no aggregate of the table need pool them.
    let files = ["bao.pmn", "kiothi.pmn", "nsolo.pmn", "tsoro.pmn"];
    for per in ["ply", "game"] {
        let rows = stats(per, &files, &[]);
        let mut sets: Vec<(&str, &str)> = rows
            .iter()
            .filter(|r| !r["set"].is_empty())
            .map(|r| {
                let file = r["file"].rsplit('/').next().unwrap();
                (file, r["set"].as_str())
            })
            .collect();
        sets.dedup();
        for (file, set) in &sets {
            let game = set.split(' ').next().unwrap().to_lowercase();
            assert!(game.starts_with(&file[..3]), "{file}: {set}");
        }
        for file in files {
            assert!(sets.iter().any(|(f, _)| *f == file), "{per}: {file}");
        }
        if per == "game" {
            for r in &rows {
                if !r["set"].is_empty() {
                    let set: Vec<&str> = r["set"].splitn(3, ' ').collect();
                    assert_eq!(set[1], r["board"], "{r:?}");
                    assert_eq!(set.get(2).copied().unwrap_or(""), r["rules"], "{r:?}");
                }
            }
        }
    }
}
