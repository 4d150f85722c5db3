//! `sow convert` reads each input in its form: `--from`, else the form its extension
//! says, else the form its content says. An input not in the form it is read as is an
//! error naming that form: exit status 2, nothing written.

use std::path::Path;

use assert_cmd::Command;

fn sow_in(args: &[&str], stdin: &[u8]) -> std::process::Output {
    Command::cargo_bin("sow")
        .unwrap()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap()
}

fn sow(args: &[&str]) -> std::process::Output {
    sow_in(args, b"")
}

const PMN: &str = "tests/data/convert/examples.pmn";

/// Converts `input` with `args` into a file that must not appear: exit 2, and the
/// message names the form.
fn refused(input: &Path, args: &[&str], says: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.pmn");
    let mut all = vec![
        "convert",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    all.extend(args);
    let run = sow(&all);
    assert_eq!(run.status.code(), Some(2), "{args:?}: {run:?}");
    assert!(!out.exists(), "{args:?}: nothing written");
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(stderr.contains(says), "{args:?}: {says:?} in {stderr}");
}

#[test]
fn json_read_as_pmn_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let json = sow(&["convert", PMN, "--to", "json"]);
    assert!(json.status.success());
    // Named .json, read as PMN; and named .pmn, read as what its name says.
    for name in ["game.json", "game.pmn"] {
        let file = dir.path().join(name);
        std::fs::write(&file, &json.stdout).unwrap();
        refused(
            &file,
            &["--to", "pmn", "--from", "pmn"],
            "not PMN: the input reads as JSON (give --from json)",
        );
    }
    let file = dir.path().join("game.pmn");
    refused(&file, &["--to", "pmn"], "not PMN: the input reads as JSON");
}

#[test]
fn pmn_read_as_ludii_is_refused() {
    refused(
        Path::new(PMN),
        &["--to", "pmn", "--from", "ludii"],
        "not a Ludii move list: the input reads as PMN (give --from pmn)",
    );
}

#[test]
fn plain_text_read_as_json_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.json");
    std::fs::write(&file, "Some notes on the games of Mutoko.\n").unwrap();
    refused(&file, &["--to", "pmn", "--from", "json"], "not JSON");
    refused(&file, &["--to", "pmn"], "not JSON");
}

#[test]
fn plain_text_of_no_form_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("README.txt");
    std::fs::write(&file, "Some notes on the games of Mutoko.\n").unwrap();
    refused(&file, &["--to", "pmn"], "could not be told");
}

#[test]
fn the_form_is_told_by_the_extension_else_by_the_content() {
    let dir = tempfile::tempdir().unwrap();
    let expected = sow(&["convert", PMN, "--to", "pmn"]);
    assert!(expected.status.success());
    for to in ["json", "ludii", "relative"] {
        let made = sow(&["convert", PMN, "--to", to]);
        assert!(made.status.success(), "{made:?}");
        let ext = match to {
            "json" => "json",
            "ludii" => "ludii",
            _ => "pmn",
        };
        let named = dir.path().join(format!("game-{to}.{ext}"));
        let txt = dir.path().join(format!("game-{to}.txt"));
        std::fs::write(&named, &made.stdout).unwrap();
        std::fs::write(&txt, &made.stdout).unwrap();
        let from_stdin = sow_in(&["convert", "-", "--to", "pmn"], &made.stdout);
        // Relative numbering in a .pmn file is told by its mark, not read as PMN.
        let files: Vec<&Path> = if to == "relative" {
            vec![&txt]
        } else {
            vec![&named, &txt]
        };
        for file in files {
            let back = sow(&["convert", file.to_str().unwrap(), "--to", "pmn"]);
            assert!(back.status.success(), "{to} {file:?}: {back:?}");
            if to != "ludii" {
                assert_eq!(back.stdout, expected.stdout, "{to} {file:?}");
            }
        }
        assert!(from_stdin.status.success(), "{to}: {from_stdin:?}");
        if to != "ludii" {
            assert_eq!(
                from_stdin.stdout, expected.stdout,
                "{to} from standard input"
            );
        }
    }
    // A .pmn file in relative numbering is refused as PMN, naming the form.
    let made = sow(&["convert", PMN, "--to", "relative"]);
    let file = dir.path().join("rel.pmn");
    std::fs::write(&file, &made.stdout).unwrap();
    refused(
        &file,
        &["--to", "pmn"],
        "not PMN: the input reads as PMN in relative numbering (give --from relative)",
    );
}
