//! `--game` and `--where` see what a game without the tag has (its game's default
//! board, no rule options), and a filter that passes no game says so, naming the
//! nearest tag or value a game has.

use assert_cmd::Command;

fn sow(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("sow")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

fn write(dir: &std::path::Path, text: &str) -> String {
    let file = dir.join("games.pmn");
    std::fs::write(&file, text).unwrap();
    file.to_str().unwrap().to_string()
}

const GAMES: &str = "[Game \"Tsoro\"]\n[Site \"Mutoko\"]\n\n1. a21-a19 *\n\n\
[Game \"Tsoro\"]\n[Board \"4x8\"]\n[Rules \"bonus=1\"]\n\n1. a5-a7 *\n";

#[test]
fn a_game_without_a_board_tag_has_its_default_board_for_where() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), GAMES);
    let games = |wheres: &[&str]| {
        let mut args = vec!["stats", file.as_str()];
        for w in wheres {
            args.extend(["--where", w]);
        }
        let out = sow(&args);
        assert!(out.status.success(), "{out:?}");
        let csv = String::from_utf8(out.stdout).unwrap();
        (csv.lines().skip(1))
            .map(|l| l.split(',').nth(1).unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(games(&["Board=4x21"]), ["1"]);
    assert_eq!(games(&["Board=4x8"]), ["2"]);
    assert_eq!(games(&["Rules="]), ["1"]);
    assert_eq!(games(&["Rules=bonus=1"]), ["2"]);
}

#[test]
fn a_filter_that_passes_no_game_names_the_nearest_value_or_tag() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), GAMES);
    let said = |args: &[&str]| {
        let out = sow(args);
        String::from_utf8(out.stderr).unwrap()
    };
    for command in [
        vec!["stats", &file],
        vec!["validate", &file],
        vec!["convert", "--to", "json", &file],
    ] {
        let mut args = command.clone();
        args.extend(["--where", "Site=Mutko"]);
        assert!(
            said(&args).contains("sow: no game has Site=Mutko; nearest: Mutoko\n"),
            "{args:?}: {}",
            said(&args)
        );
        let mut args = command.clone();
        args.extend(["--where", "Sitte=Mutoko"]);
        let text = said(&args);
        assert!(
            text.contains("sow: no game has the tag Sitte; nearest tag: Site\n"),
            "{args:?}: {text}"
        );
        // A filter that passes a game says nothing of the kind.
        let mut args = command.clone();
        args.extend(["--where", "Site=Mutoko"]);
        assert!(!said(&args).contains("no game has"), "{args:?}");
    }
    let text = said(&["stats", &file, "--game", "Nsollo"]);
    assert!(text.contains("no game has Game=Nsollo"), "{text}");
    let text = said(&["stats", &file, "--game", "Tsoro", "--where", "Board=4x12"]);
    assert!(
        text.contains("no game has Board=4x12; nearest: 4x21"),
        "{text}"
    );
}
