//! `convert --to jsonl`, a game a line, in three sizes. By default a line holds the
//! move text as PMN text (`movetext`) and the count of plies replayed, and stays a small
//! multiple of its game's text; `--plies` holds the move text as a syntax tree (`moves`)
//! and each ply's effect (`replay.plies`) without its position and laps, the position
//! after the last ply once; `--positions` every ply's position and laps too, as `--to
//! json` always has. Each reads back (`--from json`) as the records it was made of.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use sow::convert::{convert_game, to_compact_json, to_json, to_lean_json, Conversion};
use sow::pmn::{self, json::from_json, Record};
use sow::replay::ReplayOptions;

/// Generated games of every game, a file each.
const GENERATED: [&str; 4] = [
    "records/generated/tsoro-4x21-headbonus-random.pmn",
    "records/generated/nsolo-4x8-ccw-nobonus-random.pmn",
    "records/generated/kiothi-random.pmn",
    "records/generated/bao-la-kimasai-random.pmn",
];

/// Output bytes a byte of input may become by default: the move text as it is, and for
/// each game its tags, its start and last positions and a few counts in JSON.
const K: usize = 3;

/// The same with `--plies`: the record's syntax tree and each ply's effect, in JSON,
/// are some 13 to 29 times the move text of generated games.
const K_PLIES: usize = 30;

fn sow(args: &[&str], stdin: Option<Vec<u8>>) -> std::process::Output {
    let mut command = Command::cargo_bin("sow").unwrap();
    command.args(args);
    if let Some(stdin) = stdin {
        command.write_stdin(stdin);
    }
    command.output().unwrap()
}

fn convert(args: &[&str]) -> Vec<u8> {
    let mut all = vec!["convert"];
    all.extend(args);
    let out = sow(&all, None);
    assert!(out.status.success(), "{args:?}: {out:?}");
    out.stdout
}

fn lines(jsonl: &[u8]) -> Vec<Value> {
    (String::from_utf8_lossy(jsonl).lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every file of `records/` (below `under`) of PMN, in order.
fn pmn_files(under: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join(under)];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "pmn") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(!files.is_empty(), "{under}");
    files
}

#[test]
fn the_default_line_is_at_most_k_times_its_input() {
    // Every generated file: some 300 games of each game, of eleven rule sets.
    let (mut input, mut output) = (0, 0);
    for path in pmn_files("records/generated") {
        let file = path.to_str().unwrap();
        let bytes = std::fs::metadata(file).unwrap().len() as usize;
        let line = convert(&[file, "--to", "jsonl"]).len();
        let plies = convert(&[file, "--to", "jsonl", "--plies"]).len();
        let positions = convert(&[file, "--to", "jsonl", "--positions"]).len();
        assert!(line <= K * bytes, "{file}: {line} bytes from {bytes}");
        assert!(
            plies <= K_PLIES * bytes,
            "{file}: {plies} bytes from {bytes}"
        );
        assert!(
            line < plies && plies < positions,
            "{file}: {line} {plies} {positions}"
        );
        (input, output) = (input + bytes, output + line);
    }
    assert!(output <= K * input, "{output} bytes from {input}");
}

/// The keys of a JSON object, in order.
fn keys(value: &Value) -> Vec<String> {
    value.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn the_default_line_is_the_plies_line_with_its_move_text_as_pmn() {
    // Every record field but `moves` stays, `movetext` in its place; every key of the
    // replay but `plies` stays, their count in its place.
    let record_keys = keys(&serde_json::to_value(Record::default()).unwrap());
    let mut files: Vec<PathBuf> = GENERATED.iter().map(PathBuf::from).collect();
    files.extend(pmn_files("records/examples"));
    for path in files {
        let file = path.to_str().unwrap();
        let line = convert(&[file, "--to", "jsonl"]);
        let plies = convert(&[file, "--to", "jsonl", "--plies"]);
        let (line, plies_text) = (lines(&line), String::from_utf8(plies).unwrap());
        assert_eq!(line.len(), plies_text.lines().count(), "{file}");
        assert!(!line.is_empty(), "{file}");
        for (line, plies_line) in line.into_iter().zip(plies_text.lines()) {
            assert!(line.get("moves").is_none(), "{file}: {line}");
            assert!(line["replay"].get("plies").is_none(), "{file}: {line}");
            let movetext = line["movetext"].as_str().unwrap();
            let record = from_json(plies_line).unwrap();
            assert_eq!(movetext, pmn::write_move_text(&record), "{file}");
            let mut expected: Value = serde_json::from_str(plies_line).unwrap();
            let expected_map = expected.as_object_mut().unwrap();
            expected_map.remove("moves");
            expected_map.insert("movetext".into(), movetext.into());
            let replay = expected_map["replay"].as_object_mut().unwrap();
            let count = replay.remove("plies").unwrap().as_array().unwrap().len();
            replay.insert("plies_replayed".into(), count.into());
            assert_eq!(line, expected, "{file}");
            let line_keys = keys(&line);
            let mut want: Vec<String> = (record_keys.iter())
                .map(|k| if k == "moves" { "movetext" } else { k }.to_string())
                .collect();
            want.extend(["replay".to_string(), "source".to_string()]);
            let mut got = line_keys.clone();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{file}");
        }
    }
}

/// The conversions of a file's games, as the command makes them.
fn conversions(file: &str) -> Vec<Conversion> {
    let text = std::fs::read_to_string(file).unwrap();
    let options = ReplayOptions::full();
    (pmn::parse_str(&text).iter().enumerate())
        .map(|(i, g)| convert_game(file, i + 1, g, &options))
        .collect()
}

#[test]
fn each_form_of_a_line_is_its_writers() {
    for file in GENERATED {
        let games = conversions(file);
        for (flags, write) in [
            (&[][..], to_compact_json as fn(&Conversion) -> String),
            (&["--plies"][..], to_lean_json),
            (&["--positions"][..], |c| to_json(c, false)),
            (&["--plies", "--positions"][..], |c| to_json(c, false)),
        ] {
            let mut args = vec![file, "--to", "jsonl"];
            args.extend(flags);
            let written: String = games.iter().map(|c| write(c) + "\n").collect();
            let out = String::from_utf8(convert(&args)).unwrap();
            assert!(out == written, "{file} {flags:?}");
        }
    }
}

#[test]
fn positions_give_every_plys_position_and_laps() {
    for file in GENERATED {
        let full = lines(&convert(&[file, "--to", "jsonl", "--positions"]));
        let lean = lines(&convert(&[file, "--to", "jsonl", "--plies"]));
        assert_eq!(full.len(), lean.len(), "{file}");
        assert!(!full.is_empty());
        for (mut full, mut lean) in full.into_iter().zip(lean) {
            let plies = full["replay"]["plies"].as_array().unwrap().clone();
            assert!(!plies.is_empty(), "{file}");
            for ply in &plies {
                assert!(ply["after"].is_string(), "{file}: {ply}");
                assert!(ply["laps"].is_array(), "{file}: {ply}");
            }
            assert!(full["replay"].get("last").is_none(), "{file}");
            // Without: the position after the last ply once, and each ply the same but
            // for its position and laps.
            let last = plies.last().unwrap()["after"].clone();
            let lean_replay = lean["replay"].as_object_mut().unwrap();
            assert_eq!(lean_replay.remove("last"), Some(last), "{file}");
            for ply in full["replay"]["plies"].as_array_mut().unwrap() {
                let ply = ply.as_object_mut().unwrap();
                ply.remove("after");
                ply.remove("laps");
            }
            assert_eq!(full, lean, "{file}");
        }
    }
}

#[test]
fn json_keeps_every_position() {
    let file = GENERATED[0];
    let games: Value = serde_json::from_slice(&convert(&[file, "--to", "json"])).unwrap();
    let full = lines(&convert(&[file, "--to", "jsonl", "--positions"]));
    assert_eq!(games, Value::Array(full));
}

#[test]
fn every_record_reads_back_from_each_line_as_its_pmn() {
    // Every file of records/, flawed ones too: a game left out of the PMN (with errors)
    // is left out of the lines alike, and what is kept verbatim is kept in both.
    for path in pmn_files("records") {
        let file = path.to_str().unwrap();
        let direct = sow(&["convert", file, "--to", "pmn"], None);
        for flags in [&[][..], &["--plies"], &["--positions"]] {
            let mut args = vec!["convert", file, "--to", "jsonl"];
            args.extend(flags);
            let jsonl = sow(&args, None);
            assert_eq!(jsonl.status, direct.status, "{file} {flags:?}");
            assert_eq!(jsonl.stderr, direct.stderr, "{file} {flags:?}");
            let back = sow(
                &["convert", "-", "--from", "json", "--to", "pmn"],
                Some(jsonl.stdout),
            );
            assert!(back.status.success(), "{file} {flags:?}: {back:?}");
            assert!(back.stdout == direct.stdout, "{file} {flags:?}");
        }
    }
}
