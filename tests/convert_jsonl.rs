//! `convert --to jsonl` without `--positions` stays a bounded multiple of its input: each
//! ply's position and laps are left out, the position after the last ply written once;
//! with `--positions` every ply has its position, as `--to json` always has.

use assert_cmd::Command;
use serde_json::Value;

/// Generated games of every game, a file each.
const GENERATED: [&str; 4] = [
    "records/generated/tsoro-4x21-headbonus-random.pmn",
    "records/generated/nsolo-4x8-ccw-nobonus-random.pmn",
    "records/generated/kiothi-random.pmn",
    "records/generated/bao-la-kimasai-random.pmn",
];

/// Output bytes a byte of input may become without `--positions`: the record's syntax
/// tree and each ply's effect, in JSON, are some 13 to 29 times the move text of
/// generated games.
const K: usize = 30;

fn convert(args: &[&str]) -> Vec<u8> {
    let out = Command::cargo_bin("sow")
        .unwrap()
        .arg("convert")
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    out.stdout
}

fn lines(jsonl: &[u8]) -> Vec<Value> {
    (String::from_utf8_lossy(jsonl).lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn jsonl_is_at_most_k_times_its_input_without_positions() {
    for file in GENERATED {
        let input = std::fs::metadata(file).unwrap().len() as usize;
        let lean = convert(&[file, "--to", "jsonl"]).len();
        let full = convert(&[file, "--to", "jsonl", "--positions"]).len();
        assert!(lean <= K * input, "{file}: {lean} bytes from {input}");
        assert!(
            full > lean,
            "{file}: --positions writes more: {full}, {lean}"
        );
    }
}

#[test]
fn positions_give_every_plys_position_and_laps() {
    for file in GENERATED {
        let full = lines(&convert(&[file, "--to", "jsonl", "--positions"]));
        let lean = lines(&convert(&[file, "--to", "jsonl"]));
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
fn jsonl_without_positions_reads_back_as_its_records() {
    for file in GENERATED {
        let direct = convert(&[file, "--to", "pmn"]);
        let jsonl = convert(&[file, "--to", "jsonl"]);
        let back = Command::cargo_bin("sow")
            .unwrap()
            .args(["convert", "-", "--from", "json", "--to", "pmn"])
            .write_stdin(jsonl)
            .output()
            .unwrap();
        assert!(back.status.success(), "{file}: {back:?}");
        assert_eq!(back.stdout, direct, "{file}");
    }
}
