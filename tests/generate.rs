//! `sow generate`: games of every option set, from both players, all validate; the same
//! seed gives the same bytes; and the shell completions and man pages are generated from
//! the command-line definition.

use assert_cmd::Command;
use sow::generate::{GenerateOptions, Player};
use sow::pmn;
use sow::replay::{replay, ReplayOptions};

fn args(
    game: &str,
    board: Option<&str>,
    rules: &str,
    games: usize,
    seed: u64,
    player: Player,
) -> GenerateOptions {
    GenerateOptions {
        game: game.into(),
        board: board.map(Into::into),
        rules: rules.into(),
        games,
        seed,
        player,
        max_plies: 400,
    }
}

/// Every option value of RULES.md's "All options" table appears in some set.
const OPTION_SETS: &[(&str, Option<&str>, &str)] = &[
    ("Tsoro", None, ""),
    ("Tsoro", Some("4x6"), "heads=1"),
    ("Tsoro", Some("4x8"), "heads=0 bonus=0"),
    ("Tsoro", Some("4x12"), "bonus=5,3,2 head-bonus=yes"),
    ("Tsoro", Some("4x15"), "bonus=1"),
    ("Tsoro", Some("4x18"), "bonus=3 heads=1 head-bonus=yes"),
    ("Tsoro", Some("4x21"), "bonus=4"),
    ("Tsoro", Some("4x8"), "bonus=5"),
    ("Nsolo", None, ""),
    ("Nsolo", Some("4x9"), "bonus=hole"),
    ("Nsolo", Some("4x36"), "bonus=none sow=ccw"),
    ("Nsolo", Some("4x12"), "sow=ccw repeat=2"),
    ("Nsolo", None, "repeat=5"),
    ("Kiothi", None, ""),
    ("Kiothi", None, "start=5x5 leftmost=chain"),
    ("Kiothi", None, "start=6x5"),
    ("BaoLaKimasai", None, ""),
    ("BaoLaKimasai", None, "repeat=3"),
];

#[test]
fn generated_games_of_every_option_set_validate() {
    let options = ReplayOptions::validate();
    let mut games = 0;
    for &(game, board, rules) in OPTION_SETS {
        for player in [Player::Random, Player::Greedy] {
            for seed in [1, 7, 2026] {
                let text = sow::generate::run(&args(game, board, rules, 3, seed, player)).unwrap();
                for parsed in pmn::parse_str(&text) {
                    let trace = replay(&parsed, &options);
                    assert!(
                        trace.is_valid(),
                        "{game} {board:?} {rules:?} {player:?} seed {seed}: {:?}\n{}",
                        trace.diagnostics,
                        parsed.text
                    );
                    assert!(parsed
                        .record
                        .tag("Source")
                        .unwrap()
                        .contains("not a historical game"));
                    games += 1;
                }
            }
        }
    }
    assert_eq!(games, OPTION_SETS.len() * 2 * 3 * 3);
}

#[test]
fn rules_written_over_lines_give_games_that_validate() {
    // The Source tag repeats `--rules` and `--board` as read, not as given: a line
    // break in them would break the tag line in two.
    let text = sow::generate::run(&args(
        "Tsoro",
        Some("4x12\n"),
        " heads=1\r\n\tbonus=1 ",
        2,
        1,
        Player::Random,
    ))
    .unwrap();
    let games = pmn::parse_str(&text);
    assert_eq!(games.len(), 2);
    for parsed in &games {
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        assert!(replay(parsed, &ReplayOptions::validate()).is_valid());
        let source = parsed.record.tag("Source").unwrap();
        assert!(
            source.contains(" --board 4x12 --rules \"heads=1 bonus=1\","),
            "{source}"
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_games() {
    let a = sow::generate::run(&args("Nsolo", None, "", 5, 42, Player::Random)).unwrap();
    let b = sow::generate::run(&args("Nsolo", None, "", 5, 42, Player::Random)).unwrap();
    let c = sow::generate::run(&args("Nsolo", None, "", 5, 43, Player::Random)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
    // Game n does not depend on how many games are asked for.
    let first = sow::generate::run(&args("Nsolo", None, "", 1, 42, Player::Random)).unwrap();
    assert!(a.starts_with(&first), "{first}\n---\n{a}");
}

#[test]
fn generated_text_is_in_export_form() {
    let text =
        sow::generate::run(&args("Tsoro", Some("4x8"), "bonus=1", 4, 3, Player::Greedy)).unwrap();
    let records: Vec<_> = pmn::parse_str(&text)
        .into_iter()
        .map(|g| g.record)
        .collect();
    assert_eq!(pmn::write_games(&records), text);
}

#[test]
fn the_greedy_player_captures_at_least_as_much_as_the_random_one() {
    // Not a law, but over many games a player that takes the most stones each ply ends
    // more games with captures than one playing at random.
    let count = |player| {
        let text = sow::generate::run(&args("BaoLaKimasai", None, "", 30, 9, player)).unwrap();
        text.matches('x').count()
    };
    assert!(count(Player::Greedy) > count(Player::Random) / 2);
}

#[test]
fn completions_and_man_pages_come_from_the_command_line_definition() {
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["completions", "bash"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(
        text.contains("validate") && text.contains("--infer-rules"),
        "{text}"
    );
    let dir = tempfile::tempdir().unwrap();
    let status = Command::cargo_bin("sow")
        .unwrap()
        .args(["man", "-o"])
        .arg(dir.path())
        .output()
        .unwrap()
        .status;
    assert!(status.success());
    let page = std::fs::read_to_string(dir.path().join("sow-validate.1")).unwrap();
    assert!(page.contains("suggest"), "{page}");
    assert!(dir.path().join("sow.1").exists());
}

#[test]
fn a_reader_that_stops_reading_ends_the_run_quietly() {
    use std::io::Read;
    // `sow generate | head`: the games are written as they are played, and the pipe
    // closing after the first bytes is an output failure (status 2) to say nothing of.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sow"))
        .args([
            "generate", "--game", "Nsolo", "--games", "2000", "--seed", "3",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    assert!(first.starts_with(b"[Game \"Nsolo\"]"));
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_wrong_argument_is_reported_before_the_output_is_looked_at() {
    let dir = tempfile::tempdir().unwrap();
    let existing = dir.path().join("games.pmn");
    std::fs::write(&existing, "kept").unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args([
            "generate",
            "--game",
            "Oware",
            "-o",
            existing.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown game \"Oware\""), "{stderr}");
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "kept");
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_leaves_no_temporary_file() {
    // A run stopped by Ctrl-C (here SIGINT, sent once the output's temporary file
    // exists) removes the temporary file and ends by the signal, as it would have
    // without it (so that a shell loop stops on Ctrl-C): nothing is left
    // beside the output, and no output is made.
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("games.pmn");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(["generate", "--game", "Nsolo", "--games", "100000000", "-o"])
        .arg(&output)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let entries = || -> Vec<String> {
        std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while entries().is_empty() {
        assert!(std::time::Instant::now() < deadline, "no temporary file");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(entries()[0].ends_with(".tmp"), "{:?}", entries());
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        (status.code(), status.signal()),
        (None, Some(2)),
        "{status:?}"
    );
    assert_eq!(entries(), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn a_signal_the_run_was_started_to_ignore_stays_ignored() {
    // Catching the signals keeps `nohup`'s ignoring of a hang-up (and a background
    // job's of Ctrl-C): neither ends the run.
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("games.pmn");
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' HUP; exec \"$0\" generate --game Nsolo --games 100000000 -o \"$1\"")
        .arg(env!("CARGO_BIN_EXE_sow"))
        .arg(&output)
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_dir(dir.path()).unwrap().next().is_none() {
        assert!(std::time::Instant::now() < deadline, "no temporary file");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    let signal = |name: &str| {
        let sent = std::process::Command::new("kill")
            .args([name, &pid])
            .status()
            .unwrap();
        assert!(sent.success());
    };
    signal("-HUP");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "a hang-up ended the run"
    );
    signal("-INT");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(child.wait().unwrap().signal(), Some(2));
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}
