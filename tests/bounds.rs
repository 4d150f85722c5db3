//! Nothing grows without bound: an endless input (`/dev/zero`, `/dev/urandom`, an
//! endless comment) ends every command with an error naming the limit, and memory for
//! one game stays a small multiple of its text. Each command runs as a child process,
//! and its peak memory is read from the kernel's account of it (the maximum resident
//! set size that `wait4` gives), never timed.
//!
//! A child started by this process is accounted at least this process's own peak at
//! the moment it starts (Linux counts the memory the child shared with its parent until
//! it ran `sow`), and this process holds the texts and outputs of the tests running
//! beside it. So each command is started through GNU time (`/usr/bin/time`, which
//! `.ci/run` installs), a small process of its own, which starts `sow` and writes its
//! peak as `wait4` gives it; without GNU time, the peak of this process's own child is
//! read, which may be too high but is never too low.

#![cfg(target_os = "linux")]

use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a child run of `sow` did.
struct Run {
    status: Option<i32>,
    /// What it wrote to standard output and standard error.
    said: String,
    /// Its peak resident memory, in bytes.
    peak: u64,
}

const MB: u64 = 1 << 20;

/// GNU time, when it is installed.
const GNU_TIME: &str = "/usr/bin/time";

/// Runs `sow ARGS` with its standard input fed by `feed` (none: no input), and reads its
/// peak memory (see the module's note).
// The child is waited for by `wait4`, which clippy does not know.
#[allow(clippy::zombie_processes)]
fn run(args: &[&str], feed: Option<Box<dyn FnOnce(std::process::ChildStdin) + Send>>) -> Run {
    let mut said_file = tempfile::tempfile().unwrap();
    let peak_file = tempfile::NamedTempFile::new().unwrap();
    let timed = Path::new(GNU_TIME).exists();
    let mut command = match timed {
        true => {
            let mut c = Command::new(GNU_TIME);
            c.args(["-f", "%M", "-o"])
                .arg(peak_file.path())
                .arg(env!("CARGO_BIN_EXE_sow"));
            c
        }
        false => Command::new(env!("CARGO_BIN_EXE_sow")),
    };
    let mut child = command
        .args(args)
        .stdin(if feed.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(said_file.try_clone().unwrap())
        .stderr(said_file.try_clone().unwrap())
        .spawn()
        .unwrap();
    let feeder = feed.map(|feed| {
        let stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || feed(stdin))
    });
    let mut status = 0;
    // SAFETY: `rusage` is plain data, and the child is waited for once, here.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    if let Some(feeder) = feeder {
        feeder.join().unwrap();
    }
    let mut said = Vec::new();
    said_file.rewind().unwrap();
    said_file.read_to_end(&mut said).unwrap();
    // Linux gives the maximum resident set size in KiB; GNU time writes it last, after
    // a line on a status other than 0.
    let kib = match timed {
        true => {
            let written = std::fs::read_to_string(peak_file.path()).unwrap();
            let last = written.lines().last().unwrap_or_default();
            last.trim()
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("GNU time wrote {written:?}"))
        }
        false => usage.ru_maxrss as u64,
    };
    let exited = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Run {
        // GNU time exits with its command's status, or 128 and the signal that ended it.
        status: exited.filter(|&code| !timed || code < 128),
        said: String::from_utf8_lossy(&said).into_owned(),
        peak: kib * 1024,
    }
}

/// Feeds a game whose comment never ends, until the reader hangs up.
fn endless_comment() -> Option<Box<dyn FnOnce(std::process::ChildStdin) + Send>> {
    Some(Box::new(|mut stdin| {
        let _ = stdin.write_all(b"[Game \"Tsoro\"]\n\n1. a3 {");
        let chunk = vec![b'x'; 1 << 16];
        while stdin.write_all(&chunk).is_ok() {}
    }))
}

/// The arguments of every command that reads records, for the input `input`, writing
/// into `out` (a folder).
fn every_command(input: &str, out: &Path) -> Vec<Vec<String>> {
    let o = |name: &str| out.join(name).display().to_string();
    let commands: Vec<Vec<&str>> = vec![
        vec!["validate", input],
        vec!["stats", "--per", "ply", input],
        vec!["stats", "--per", "game", input],
        vec!["plot", input, "-o", "plot.svg"],
        vec!["convert", "--to", "jsonl", input],
        vec!["convert", "--to", "pmn", input],
        vec!["show", input],
        vec!["view", input, "-o", "view.html"],
        vec!["repair", input, "-o", "repaired.pmn"],
        vec!["search", "--relay", "1", input],
        vec!["tree", input],
        vec!["twins", input],
        vec!["convert", "--to", "sqlite", input, "-o", "games.sqlite"],
    ];
    (commands.into_iter())
        .map(|c| {
            (c.iter())
                .map(|a| match *a {
                    "plot.svg" | "view.html" | "repaired.pmn" | "games.sqlite" => o(a),
                    a => a.to_string(),
                })
                .collect()
        })
        .collect()
}

#[test]
fn binary_inputs_end_every_command_with_an_error_in_bounded_memory() {
    let out = tempfile::tempdir().unwrap();
    for input in ["/dev/zero", "/dev/urandom"] {
        for args in every_command(input, out.path()) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let r = run(&args, None);
            assert_eq!(r.status, Some(2), "{args:?}: {}", r.said);
            assert!(r.said.contains("is not text"), "{args:?}: {}", r.said);
            assert!(r.peak < 100 * MB, "{args:?}: {} MB", r.peak / MB);
        }
    }
}

#[test]
fn an_endless_comment_ends_every_command_at_the_limit_of_one_game() {
    let out = tempfile::tempdir().unwrap();
    for args in every_command("-", out.path()) {
        // `repair` reads a file, not standard input: it has its own test below.
        if args[0] == "repair" {
            continue;
        }
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.extend(["--max-game-size", "8MiB"]);
        // Standard input of no form named is read whole (see the test below).
        if args[0] == "convert" {
            args.extend(["--from", "pmn"]);
        }
        let r = run(&args, endless_comment());
        assert_eq!(r.status, Some(2), "{args:?}: {:?} {}", r.status, r.said);
        // The file, the game and where the limit was passed, and the limit.
        let said = "game 1 (from line 1) is longer than 8 MiB of text";
        assert!(r.said.contains(said), "{args:?}: {}", r.said);
        assert!(r.said.contains("<stdin>:3:8388593"), "{args:?}: {}", r.said);
        assert!(r.said.contains("--max-game-size"), "{args:?}: {}", r.said);
        assert!(r.peak < 100 * MB, "{args:?}: {} MB", r.peak / MB);
    }
}

#[test]
fn an_input_read_whole_is_held_to_the_limit_of_one_game() {
    let args = ["convert", "--to", "jsonl", "-", "--max-game-size", "8MiB"];
    let r = run(&args, endless_comment());
    assert_eq!(r.status, Some(2), "{}", r.said);
    assert!(
        r.said
            .contains("<stdin>: the input, read whole in this form, is longer than 8 MiB"),
        "{}",
        r.said
    );
    assert!(r.peak < 100 * MB, "{} MB", r.peak / MB);
}

/// A file of one game whose comment is 3 MiB: past a limit of 2 MiB, within one of 4.
fn comment_of_3_mib(dir: &Path) -> PathBuf {
    let record = dir.join("long.pmn");
    let mut text = b"[Game \"Tsoro\"]\n\n1. a3 {".to_vec();
    text.resize(text.len() + (3 << 20), b'x');
    text.extend_from_slice(b"} *\n");
    std::fs::write(&record, &text).unwrap();
    record
}

#[test]
fn repair_refuses_a_game_past_the_limit_before_reading_the_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    let record = comment_of_3_mib(dir.path());
    let out = dir.path().join("out.pmn");
    let args = [
        "repair",
        record.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--max-game-size",
        "2MiB",
    ];
    let r = run(&args, None);
    assert_eq!(r.status, Some(2), "{}", r.said);
    assert!(r.said.contains("longer than 2 MiB"), "{}", r.said);
    assert!(!out.exists());
    // Raised, the limit lets it through.
    let raised = run(&[&args[..4], &["--max-game-size", "4MiB"]].concat(), None);
    assert_eq!(raised.status, Some(0), "{}", raised.said);
}

#[test]
fn diff_holds_each_game_to_the_limit_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let record = comment_of_3_mib(dir.path());
    let record = record.to_str().unwrap();
    let args = ["diff", record, record, "--max-game-size", "2MiB"];
    let r = run(&args, None);
    assert_eq!(r.status, Some(2), "{}", r.said);
    assert!(r.said.contains("longer than 2 MiB"), "{}", r.said);
    let raised = run(&[&args[..3], &["--max-game-size", "4MiB"]].concat(), None);
    assert_eq!(raised.status, Some(0), "{}", raised.said);
}

/// A file of one Tsoro game of `bytes` of move text or more: a few legal plies, then
/// the same plies again and again (the replay stops at the first that is not legal,
/// but every ply is read).
fn long_game(dir: &Path, bytes: usize) -> PathBuf {
    let path = dir.join("long.pmn");
    let mut text = String::from("[Game \"Tsoro\"]\n\n");
    let mut n = 1;
    while text.len() < bytes {
        text += &format!("{n}. a3 d10 ");
        n += 1;
        if n % 8 == 0 {
            text.push('\n');
        }
    }
    text += "*\n";
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn one_long_game_takes_a_small_multiple_of_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    let game = long_game(dir.path(), text);
    let game = game.to_str().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    // The commands that replay a game from its text as it is read: no syntax tree,
    // no ply kept (beyond the few `tree` shows); convert, which then holds the tree
    // only as far as the game replays; `repair` and `view`, whose search for repairs
    // holds only the window of the tree it reads, and `view`, which reads the move text
    // again as it writes the page; `search`, `convert --to sqlite` and `convert
    // --keep-broken`, which write a game with errors that the reader read whole from
    // its text.
    let bounded = [
        "validate", "stats", "plot", "show", "convert", "tree", "view", "repair", "search",
    ];
    let page = out.join("plain.html").display().to_string();
    let no_suggest = ["view", "--no-suggest", game, "-o", &page].map(String::from);
    let kept = ["convert", "--keep-broken", "--to", "pmn", game].map(String::from);
    let more = [no_suggest.to_vec(), kept.to_vec()];
    for args in every_command(game, &out).into_iter().chain(more) {
        if !bounded.contains(&args[0].as_str()) {
            continue;
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = run(&args, None);
        assert!(
            matches!(r.status, Some(0 | 1)),
            "{args:?}: {:?} {}",
            r.status,
            r.said
        );
        assert!(
            r.peak < 4 * text as u64 + 40 * MB,
            "{args:?}: {} MB for {} MB of text",
            r.peak / MB,
            text as u64 / MB
        );
    }
}

/// A capture-free cycle of 120 plies on Tsoro 4x6 without heads, from the set-up
/// [`CYCLE_START`], North to move: a game that never ends, and has no repetition draw.
const CYCLE: &str = "c5 a3 c6 a6 d6 a5 d5 b3 d4 b2 d3 b1 d2 b6 d1 b5 c1 b4 c2 a1 \
    c5 a2 c6 a4 d6 a6 d5 b3 d4 b2 d3 b1 d2 b6 d1 b5 c1 b4 c2 a1 c5 a3 c6 a5 d6 a6 d5 b3 \
    d4 b2 d3 b1 d2 b6 d1 b5 c1 b4 c2 a2 c5 a1 c6 a4 d6 a3 d5 a2 d4 a5 d3 a6 d2 b6 d1 b5 \
    c1 a4 c2 a3 c5 a5 c6 a4 d6 b3 d5 b2 d4 b1 d3 a1 d2 a2 d1 a3 c1 b4 c2 b3 c5 b2 c6 a6 \
    d6 a5 d5 a4 d4 b6 d3 b1 d2 a1 d1 b5 c1 b4 c2 a2";

const CYCLE_START: &str = "0,0,0,0,0,0/0,0,1,0,2,1/0,0,1,0,0,0/0,0,1,0,1,1 N";

/// A file of one valid Tsoro game of `bytes` of move text or more: [`CYCLE`] again and
/// again, every ply replayed.
fn long_valid_game(dir: &Path, bytes: usize) -> PathBuf {
    let path = dir.join("valid.pmn");
    std::fs::write(&path, valid_game_text(bytes, &[])).unwrap();
    path
}

/// The text of [`long_valid_game`], with a variation after each ply numbered in
/// `variations` (from 1) that plays the same ply again.
fn valid_game_text(bytes: usize, variations: &[u64]) -> String {
    let mut text = format!(
        "[Game \"Tsoro\"]\n[Board \"4x6\"]\n[Rules \"heads=0\"]\n[SetUp \"1\"]\n\
         [Position \"{CYCLE_START}\"]\n[Result \"*\"]\n\n"
    );
    let mut ply = 0u64;
    while text.len() < bytes {
        for p in CYCLE.split_whitespace() {
            // North plays the even plies (from 0): a move number before each South ply.
            match ply % 2 {
                0 if ply == 0 => text += "1... ",
                0 => {}
                _ => text += &format!("{}. ", ply / 2 + 2),
            }
            text += p;
            if variations.contains(&(ply + 1)) {
                match ply % 2 {
                    0 => text += &format!(" ({}... {p})", ply / 2 + 1),
                    _ => text += &format!(" ({}. {p})", ply / 2 + 2),
                }
            }
            text.push(if ply % 16 == 15 { '\n' } else { ' ' });
            ply += 1;
        }
    }
    text += "*\n";
    text
}

#[test]
fn one_long_valid_game_takes_a_small_multiple_of_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    let game = long_valid_game(dir.path(), text);
    let game = game.to_str().unwrap();
    let valid = run(&["validate", game], None);
    assert_eq!(valid.status, Some(0), "{}", valid.said);
    assert!(valid.said.contains("1 valid"), "{}", valid.said);
    let db = dir.path().join("games.sqlite").display().to_string();
    let table = dir.path().join("plies.csv").display().to_string();
    let material = dir.path().join("material.svg").display().to_string();
    let captures = dir.path().join("captures.svg").display().to_string();
    // The export form written from the game's text (in PMN's names or seat-relative
    // numbers), and so the move text of its JSON line; the search's criteria read each
    // ply as it is replayed; the database's rows inserted as the game is replayed again;
    // a figure of one game drawn from its series, held once (its SVG is some 4 times
    // the text).
    let commands: [&[&str]; 9] = [
        &["convert", "--to", "pmn", game],
        &["stats", "--per", "ply", game, "-o", &table],
        &["plot", game, "-o", &material],
        &["plot", "--kind", "captures", game, "-o", &captures],
        &["convert", "--to", "relative", game],
        &["convert", "--to", "jsonl", game],
        &["search", "--relay", "1", game],
        &["search", "--plies", "c5 a3", "--format", "json", game],
        &["convert", "--to", "sqlite", game, "-o", &db],
    ];
    for args in commands {
        let r = run(args, None);
        assert_eq!(r.status, Some(0), "{args:?}: {}", r.said);
        // SQLite's page cache (64 MiB) and the sort of its indexes, whatever the game.
        let sqlite = if args.contains(&"sqlite") {
            120 * MB
        } else {
            0
        };
        assert!(
            r.peak < 4 * text as u64 + 40 * MB + sqlite,
            "{args:?}: {} MB for {} MB of text",
            r.peak / MB,
            text as u64 / MB
        );
    }
    // The search found the game, and wrote it whole.
    let found = run(&["search", "--opening", "c5 a3 c6", game], None);
    assert_eq!(found.status, Some(0), "{}", found.said);
    assert!(found.said.len() > text / 2, "{} bytes", found.said.len());
}

#[test]
fn a_page_of_one_long_valid_game_takes_a_small_multiple_of_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    let game = long_valid_game(dir.path(), text);
    let page = dir.path().join("view.html");
    let args = ["view", game.to_str().unwrap(), "-o", page.to_str().unwrap()];
    let r = run(&args, None);
    assert_eq!(r.status, Some(0), "{}", r.said);
    // A position and a ply's data for each of its plies: the page is far larger than the
    // bound, and is never held.
    let bound = 4 * text as u64 + 40 * MB;
    let page = std::fs::metadata(&page).unwrap().len();
    assert!(page > 2 * bound, "{} MB of page", page / MB);
    assert!(
        r.peak < bound,
        "{} MB for {} MB of text",
        r.peak / MB,
        text as u64 / MB
    );
}

/// How many times `needle` occurs in the file at `path`, read a megabyte at a time.
fn count_in_file(path: &Path, needle: &str) -> usize {
    let needle = needle.as_bytes();
    let mut file = std::fs::File::open(path).unwrap();
    let (mut count, mut held) = (0, Vec::new());
    let mut chunk = vec![0; 1 << 20];
    loop {
        let n = file.read(&mut chunk).unwrap();
        if n == 0 {
            return count;
        }
        held.extend_from_slice(&chunk[..n]);
        count += held.windows(needle.len()).filter(|w| *w == needle).count();
        // The bytes that may begin a match not yet whole, which were not counted.
        held.drain(..held.len().saturating_sub(needle.len() - 1));
    }
}

#[test]
fn a_page_replays_the_variations_of_a_long_game_within_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    let text = 1 << 20;
    // A variation every 500 plies: replayed each from the game's start, some 300
    // variations would replay 22 million plies; past the bound (10 million) they are
    // shown, not replayed.
    let every: Vec<u64> = (1..400).map(|k| 500 * k).collect();
    let game = dir.path().join("variations.pmn");
    std::fs::write(&game, valid_game_text(text, &every)).unwrap();
    let page = dir.path().join("view.html");
    let args = ["view", game.to_str().unwrap(), "-o", page.to_str().unwrap()];
    let r = run(&args, None);
    assert_eq!(r.status, Some(0), "{}", r.said);
    let said = number_before(&r.said, " variations of its ");
    let shown = count_in_file(&page, "\"code\":\"not-replayed\"");
    assert!(shown > 50, "{}", r.said);
    assert_eq!(said, Some(shown), "{}", r.said);
    assert!(r.said.contains("--max-variation-plies"), "{}", r.said);
    assert!(r.peak < 4 * text as u64 + 40 * MB, "{} MB", r.peak / MB);
}

#[test]
fn a_page_reads_the_text_before_a_long_games_variations_within_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    // A comment of 4 MiB before the first ply, then a variation after each of 100
    // plies: each read again with the text before it, 400 MiB in all, past the bound
    // (256 MiB), however few plies they replay.
    let mut text = valid_game_text(2000, &(1..=100).collect::<Vec<u64>>());
    let first = text.find("1... ").unwrap();
    text.insert_str(first, &format!("{{{}}}\n", "x".repeat(4 << 20)));
    let game = dir.path().join("comment.pmn");
    std::fs::write(&game, &text).unwrap();
    let page = dir.path().join("view.html");
    let args = ["view", game.to_str().unwrap(), "-o", page.to_str().unwrap()];
    let r = run(&args, None);
    assert_eq!(r.status, Some(0), "{}", r.said);
    let said = number_before(&r.said, " variations of its 100");
    let shown = count_in_file(&page, "\"code\":\"not-replayed\"");
    assert!(shown > 20, "{}", r.said);
    assert_eq!(said, Some(shown), "{}", r.said);
    assert!(r.said.contains("--max-variation-text"), "{}", r.said);
}

/// The number written just before `words` in `said`.
fn number_before(said: &str, words: &str) -> Option<usize> {
    let before = &said[..said.find(words)?];
    let digits = before.rsplit(' ').next()?;
    digits.parse().ok()
}

#[test]
fn a_page_of_one_long_valid_game_with_variations_takes_a_small_multiple_of_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    // Near the start, half way and near the end: each variation is replayed from the
    // start, as the line it makes.
    let game = dir.path().join("variations.pmn");
    std::fs::write(&game, valid_game_text(text, &[3, 600_000, 1_200_000])).unwrap();
    let page = dir.path().join("view.html");
    let args = ["view", game.to_str().unwrap(), "-o", page.to_str().unwrap()];
    let r = run(&args, None);
    assert_eq!(r.status, Some(0), "{}", r.said);
    let bound = 4 * text as u64 + 40 * MB;
    let len = std::fs::metadata(&page).unwrap().len();
    assert!(len > 2 * bound, "{} MB of page", len / MB);
    // Each variation replayed, without an error. The page is read a piece at a time:
    // held whole here, it would count in the peak of a command another test starts.
    for at in ["{\"at\":3,", "{\"at\":600000,", "{\"at\":1200000,"] {
        assert_eq!(count_in_file(&page, at), 1, "{at}");
    }
    assert_eq!(count_in_file(&page, "\"stop\":null"), 4, "a line stopped");
    assert!(
        r.peak < bound,
        "{} MB for {} MB of text",
        r.peak / MB,
        text as u64 / MB
    );
}

#[test]
fn validate_suggest_of_a_long_game_with_an_early_error_takes_a_small_multiple_of_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    // The replay stops at ply 3: the search for repairs reads the plies near it.
    let game = long_game(dir.path(), text);
    let game = game.to_str().unwrap();
    let r = run(&["validate", "--suggest", game], None);
    assert_eq!(r.status, Some(1), "{}", r.said);
    assert!(r.said.contains("suggestion"), "{}", r.said);
    assert!(
        r.peak < 4 * text as u64 + 40 * MB,
        "{} MB for {} MB of text",
        r.peak / MB,
        text as u64 / MB
    );
}

/// Where the first move number past `fraction` of the file `path` ends (its `. `), read
/// from a little of the file: the tests' own memory is no part of a child's measure, but
/// a child begins as a copy of its parent.
fn number_past(path: &Path, fraction: f64) -> u64 {
    let mut file = std::fs::File::open(path).unwrap();
    let from = (file.metadata().unwrap().len() as f64 * fraction) as u64;
    file.seek(std::io::SeekFrom::Start(from)).unwrap();
    let mut near = vec![0; 64];
    file.read_exact(&mut near).unwrap();
    let near = String::from_utf8_lossy(&near);
    from + near.find(". ").unwrap() as u64
}

/// Writes `bytes` into the file `path` at `at`, over what was there.
fn write_over(path: &Path, at: u64, bytes: &[u8]) {
    let mut file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.seek(std::io::SeekFrom::Start(at)).unwrap();
    file.write_all(bytes).unwrap();
}

/// The file `path` (a game of [`long_valid_game`]) with South's ply of the first move
/// past `fraction` of its text written as an empty pit: `a1`, or `a4` where `a1` was.
fn with_an_empty_pit(path: &Path, fraction: f64) {
    let ply = number_past(path, fraction) + 2;
    let mut file = std::fs::File::open(path).unwrap();
    file.seek(std::io::SeekFrom::Start(ply)).unwrap();
    let mut written = [0; 2];
    file.read_exact(&mut written).unwrap();
    let empty: &[u8] = if &written == b"a1" { b"a4" } else { b"a1" };
    write_over(path, ply, empty);
}

/// Runs `args` on a game of `text` bytes, and checks that it says `said` within a small
/// multiple of the text.
fn in_bounds(args: &[&str], text: u64, said: &str) {
    let r = run(args, None);
    assert!(matches!(r.status, Some(0 | 1)), "{args:?}: {}", r.said);
    assert!(r.said.contains(said), "{args:?}: {}", r.said);
    assert!(
        r.peak < 4 * text + 40 * MB,
        "{args:?}: {} MB for {} MB of text",
        r.peak / MB,
        text / MB
    );
}

#[test]
fn a_long_game_with_a_late_error_is_repaired_holding_a_window_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    let valid = long_valid_game(dir.path(), text as usize);
    let out = dir.path().join("repaired.pmn");
    let out = out.to_str().unwrap();
    // The search reads the plies near the error from the text, and replays those before
    // it from the text: wherever the error, no syntax tree of the plies before it.
    for fraction in [0.5, 0.999] {
        let game = dir.path().join(format!("late-{fraction}.pmn"));
        std::fs::copy(&valid, &game).unwrap();
        with_an_empty_pit(&game, fraction);
        let game = game.to_str().unwrap();
        in_bounds(
            &["validate", "--suggest", game],
            text,
            "suggestion: replace",
        );
        in_bounds(
            &["repair", game, "-o", out, "--force"],
            text,
            "repaired: replace",
        );
    }
    // Two errors far apart: the second search, from the error the first edit leaves,
    // reads a window of its own past the first. (The suggestion shows every ply between
    // the two edits: `repair` says only the edits.)
    let game = dir.path().join("two.pmn");
    std::fs::copy(&valid, &game).unwrap();
    with_an_empty_pit(&game, 0.0001);
    with_an_empty_pit(&game, 0.6);
    let game = game.to_str().unwrap();
    let said = "repaired: replace ply 142 `a1` by `a2`, then replace ply";
    in_bounds(&["repair", game, "-o", out, "--force"], text, said);
}

#[test]
fn a_long_game_with_a_move_number_out_of_step_is_renumbered_in_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    let game = long_valid_game(dir.path(), text as usize);
    // A move number near the end one too high: no replay error, a text problem, whose
    // repair reads the move numbers and replays the game renumbered from the text.
    let (at, number) = (0..)
        .map(|k| {
            let at = number_past(&game, 0.9 + k as f64 * 1e-6);
            let mut file = std::fs::File::open(&game).unwrap();
            file.seek(std::io::SeekFrom::Start(at - 6)).unwrap();
            let mut digits = [0; 6];
            file.read_exact(&mut digits).unwrap();
            (at - 6, String::from_utf8_lossy(&digits).into_owned())
        })
        .find(|(_, digits)| !digits.ends_with('9'))
        .unwrap();
    let n: u64 = number.parse().unwrap();
    write_over(&game, at, (n + 1).to_string().as_bytes());
    let out = dir.path().join("renumbered.pmn");
    let game = game.to_str().unwrap();
    let args = ["repair", game, "-o", out.to_str().unwrap()];
    in_bounds(&args, text, "repaired: write move number");
    // The number mended in place, and every other byte kept.
    let mut file = std::fs::File::open(&out).unwrap();
    file.seek(std::io::SeekFrom::Start(at)).unwrap();
    let mended = format!("{n}. {{repaired: was {}.}} ", n + 1);
    let mut near = vec![0; mended.len()];
    file.read_exact(&mut near).unwrap();
    assert_eq!(String::from_utf8_lossy(&near), mended);
    let len = |path: &Path| std::fs::metadata(path).unwrap().len();
    assert_eq!(len(&out), len(Path::new(game)) + mended.len() as u64 - 8);
}

#[test]
fn diff_of_two_long_games_takes_a_small_multiple_of_their_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    let game = long_game(dir.path(), text);
    let game = game.to_str().unwrap();
    // The same game twice: every ply is aligned (a step a ply), and each game holds
    // its plies' text and where each ends, not a syntax tree or a position a ply.
    let r = run(&["diff", game, game], None);
    assert_eq!(r.status, Some(0), "{}", r.said);
    assert!(r.said.contains("The plies are the same"), "{}", r.said);
    let both = 2 * text as u64;
    assert!(
        r.peak < 6 * both + 40 * MB,
        "{} MB for twice {} MB of text",
        r.peak / MB,
        text as u64 / MB
    );
}

#[test]
fn convert_says_each_games_note_before_its_input_ends() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    // Games with an error, left out and each named on standard error, fed until a note
    // is seen, or at most `most` of them: notes held to the end would come after.
    let most = 100_000;
    let mut child = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(["convert", "--from", "pmn", "--to", "pmn", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let seen = Arc::new(AtomicBool::new(false));
    let mut stderr = child.stderr.take().unwrap();
    let reader = {
        let seen = Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut said = Vec::new();
            let mut byte = [0u8; 1];
            while let Ok(1) = stderr.read(&mut byte) {
                said.push(byte[0]);
                if byte[0] == b'\n' {
                    seen.store(true, Ordering::SeqCst);
                }
            }
            String::from_utf8_lossy(&said).into_owned()
        })
    };
    let mut stdin = child.stdin.take().unwrap();
    let mut fed = 0;
    while fed < most && !seen.load(Ordering::SeqCst) {
        let game = format!("[Game \"Tsoro\"]\n[Round \"{fed}\"]\n\n1. z99 *\n\n");
        stdin.write_all(game.as_bytes()).unwrap();
        fed += 1;
    }
    let seen_before_the_end = seen.load(Ordering::SeqCst);
    drop(stdin);
    let status = child.wait().unwrap();
    let said = reader.join().unwrap();
    assert!(seen_before_the_end, "no note before {fed} games were fed");
    assert!(fed < most);
    assert_eq!(status.code(), Some(1), "{said}");
    assert_eq!(
        said.lines().filter(|l| l.contains("z99")).count(),
        fed,
        "{said}"
    );
}

/// The peak memory of `sow view` over `games` generated Tsoro games, the text's length
/// and the page's.
fn view_of_games(dir: &Path, games: usize) -> (u64, u64, u64) {
    let record = dir.join(format!("games-{games}.pmn"));
    let record = record.to_str().unwrap();
    let n = games.to_string();
    let made = run(
        &["generate", "--game", "Tsoro", "--games", &n, "-o", record],
        None,
    );
    assert_eq!(made.status, Some(0), "{}", made.said);
    let page = dir.join(format!("view-{games}.html"));
    let r = run(&["view", record, "-o", page.to_str().unwrap()], None);
    assert_eq!(r.status, Some(0), "{}", r.said);
    let len = |path: &Path| std::fs::metadata(path).unwrap().len();
    (r.peak, len(Path::new(record)), len(&page))
}

#[test]
fn a_page_of_many_games_holds_one_batch_of_games_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let (small, small_text, small_page) = view_of_games(dir.path(), 400);
    let (large, large_text, large_page) = view_of_games(dir.path(), 2000);
    // The page grows many times faster than the text; memory does not grow with it.
    let more_page = large_page - small_page;
    let more_text = large_text - small_text;
    assert!(
        more_page > 10 * more_text,
        "{more_page} bytes of page for {more_text}"
    );
    // A page held whole would add all of `more_page`; the allocator's and the threads'
    // own swings (several MB from run to run) stay well under half of it.
    assert!(
        large < small + more_page / 2,
        "{} MB for {} games, {} MB for {}; {} MB more page",
        large / MB,
        2000,
        small / MB,
        400,
        more_page / MB
    );
}

/// The long valid game with its text changed at its first move numbered past `number`
/// (`N. X Y`): `change(X, Y)` written in place of `X Y`.
fn long_game_changed(dir: &Path, number: u64, change: impl Fn(&str, &str) -> String) -> PathBuf {
    let whole = std::fs::read_to_string(long_valid_game(dir, 8 << 20)).unwrap();
    let at = whole.find(&format!(" {number}. ")).unwrap() + 1;
    let plies = at + whole[at..].find(". ").unwrap() + 2;
    let words: Vec<&str> = whole[plies..].splitn(3, [' ', '\n']).collect();
    let end = plies + words[0].len() + 1 + words[1].len();
    let changed = format!(
        "{}{}{}",
        &whole[..plies],
        change(words[0], words[1]),
        &whole[end..]
    );
    let path = dir.join("changed.pmn");
    std::fs::write(&path, changed).unwrap();
    path
}

#[test]
fn a_long_game_repaired_by_a_swap_or_a_checkpoint_takes_a_small_multiple_of_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    // An early error, so that the search reads few plies: the game repaired is written
    // from its text, not from its whole record.
    let swapped = |south: &str, north: &str| format!("{north} {south}");
    let checked = |south: &str, north: &str| format!("{south} {{[%stones 1 99]}} {north}");
    for (change, said, name) in [
        (
            &swapped as &dyn Fn(&str, &str) -> String,
            "repaired: swap plies",
            "swap.pmn",
        ),
        (
            &checked,
            "repaired: correct the checkpoint",
            "checkpoint.pmn",
        ),
    ] {
        let game = long_game_changed(dir.path(), 271, change);
        let game = game.to_str().unwrap();
        let out = dir.path().join(name);
        let out = out.to_str().unwrap();
        let r = run(&["repair", game, "-o", out], None);
        assert_eq!(r.status, Some(0), "{}", r.said);
        assert!(r.said.contains(said), "{}", r.said);
        assert!(
            r.peak < 4 * text as u64 + 40 * MB,
            "{said}: {} MB for {} MB of text",
            r.peak / MB,
            text as u64 / MB
        );
        let valid = run(&["validate", out], None);
        assert_eq!(valid.status, Some(0), "{}", valid.said);
    }
}

#[test]
fn convert_of_a_long_game_not_read_whole_takes_a_small_multiple_of_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    let whole = std::fs::read_to_string(long_valid_game(dir.path(), text)).unwrap();
    let half = whole[whole.len() / 2..].find(". ").unwrap() + whole.len() / 2;
    let number = whole[..half].rfind(' ').unwrap() + 1;
    // A stray `)` half way, where the reader stops; text after the result; a tag line
    // the reader cannot read.
    let games = [
        (
            "stray.pmn",
            format!("{}) {}", &whole[..number], &whole[number..]),
        ),
        (
            "after.pmn",
            format!("{} and more words\n", whole.trim_end()),
        ),
        ("tag.pmn", whole.replacen("[SetUp", "[Bad tag\n[SetUp", 1)),
    ];
    for (name, game) in games {
        let path = dir.path().join(name);
        std::fs::write(&path, game).unwrap();
        let path = path.to_str().unwrap();
        for to in ["pmn", "jsonl", "relative"] {
            for kept in [&[][..], &["--keep-broken"]] {
                let args = [&["convert", "--to", to, path][..], kept].concat();
                let r = run(&args, None);
                assert!(matches!(r.status, Some(0 | 1)), "{args:?}: {}", r.said);
                assert!(r.said.contains(&format!("{path}:")), "{args:?}: {}", r.said);
                // A game the reader stopped in is not held as its record: left out, or
                // kept as its text; nor is one it read whole but for text after its
                // result, written from its text.
                assert!(
                    r.peak < 4 * text as u64 + 40 * MB,
                    "{args:?}: {} MB for {} MB of text",
                    r.peak / MB,
                    text as u64 / MB
                );
            }
        }
        // Kept broken in long text and CSV: the plies up to where the reader stopped
        // (or all, past the unread tag line), written as they are replayed, then the
        // rest told from the text, with no record built.
        for to in ["long", "csv"] {
            let out = dir.path().join("out");
            let out = out.to_str().unwrap();
            let args = [
                "convert",
                "--to",
                to,
                "--keep-broken",
                path,
                "-o",
                out,
                "--force",
            ];
            let r = run(&args, None);
            assert!(matches!(r.status, Some(0 | 1)), "{args:?}: {}", r.said);
            assert!(r.said.contains(&format!("{path}:")), "{args:?}: {}", r.said);
            let written = std::fs::metadata(out).unwrap().len();
            assert!(written > text as u64, "{args:?}: {written} bytes");
            assert!(
                r.peak < 4 * text as u64 + 40 * MB,
                "{args:?}: {} MB for {} MB of text",
                r.peak / MB,
                text as u64 / MB
            );
        }
    }
}

#[test]
fn each_ply_of_one_long_valid_game_is_written_as_it_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let text = 1 << 20;
    let whole = std::fs::read_to_string(long_valid_game(dir.path(), text)).unwrap();
    // With text after its result: kept in comments at the end of its tree.
    let game = dir.path().join("after.pmn");
    std::fs::write(&game, format!("{} and more words\n", whole.trim_end())).unwrap();
    let game = game.to_str().unwrap();
    let forms: [&[&str]; 5] = [
        &["--to", "csv"],
        &["--to", "long"],
        &["--to", "json"],
        &["--to", "jsonl", "--plies"],
        &["--to", "jsonl", "--positions"],
    ];
    for form in forms {
        let out = dir.path().join("out");
        let out_name = out.to_str().unwrap();
        let args = [&["convert", game, "-o", out_name, "--force"][..], form].concat();
        let r = run(&args, None);
        assert_eq!(r.status, Some(0), "{args:?}: {}", r.said);
        assert!(r.said.contains("kept verbatim"), "{args:?}: {}", r.said);
        // Every ply's effect (and in some forms the position after it): the output is
        // many times the text, and is never held, nor is the game's tree.
        let bound = 4 * text as u64 + 40 * MB;
        let written = std::fs::metadata(&out).unwrap().len();
        assert!(
            written > 6 * text as u64,
            "{args:?}: {} MB written",
            written / MB
        );
        assert!(
            r.peak < bound,
            "{args:?}: {} MB for {} MB of text",
            r.peak / MB,
            text as u64 / MB
        );
        assert!(count_in_file(&out, "and more words") == 1, "{args:?}");
    }
}

#[test]
fn a_long_game_with_errors_in_its_reading_is_searched_and_stored_unparsed() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    let whole = std::fs::read_to_string(long_valid_game(dir.path(), text)).unwrap();
    let half = whole[whole.len() / 2..].find(". ").unwrap() + whole.len() / 2;
    let number = whole[..half].rfind(' ').unwrap() + 1;
    // A stray `)` half way, where the reader stops: the game is kept as it is written.
    let game = dir.path().join("stray.pmn");
    std::fs::write(&game, format!("{}) {}", &whole[..number], &whole[number..])).unwrap();
    let game = game.to_str().unwrap();
    let found = run(&["search", "--opening", "c5 a3", game], None);
    assert_eq!(found.status, Some(0), "{}", found.said);
    assert!(found.said.len() > text, "{} bytes", found.said.len());
    assert!(
        found.peak < 4 * text as u64 + 40 * MB,
        "{} MB",
        found.peak / MB
    );
    let db = dir.path().join("games.sqlite").display().to_string();
    let stored = run(&["convert", "--to", "sqlite", game, "-o", &db], None);
    assert!(matches!(stored.status, Some(0 | 1)), "{}", stored.said);
    // SQLite's page cache (64 MiB) and the sort of its indexes, whatever the game.
    let bound = 4 * text as u64 + 40 * MB + 120 * MB;
    assert!(stored.peak < bound, "{} MB", stored.peak / MB);
}

#[test]
fn each_ply_of_one_long_game_kept_broken_is_written_as_it_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let text = 1 << 20;
    let game = long_valid_game(dir.path(), text);
    with_an_empty_pit(&game, 0.9);
    let game = game.to_str().unwrap();
    let forms: [&[&str]; 4] = [
        &["--to", "csv"],
        &["--to", "long"],
        &["--to", "json"],
        &["--to", "jsonl", "--plies"],
    ];
    for form in forms {
        let out = dir.path().join("out");
        let out_name = out.to_str().unwrap();
        let args = [
            &["convert", game, "--keep-broken", "-o", out_name, "--force"][..],
            form,
        ]
        .concat();
        let r = run(&args, None);
        assert_eq!(r.status, Some(0), "{args:?}: {}", r.said);
        assert!(
            r.said.contains("kept (--keep-broken)"),
            "{args:?}: {}",
            r.said
        );
        // Every ply to the error, and the tree of every ply written.
        let written = std::fs::metadata(&out).unwrap().len();
        assert!(
            written > 6 * text as u64,
            "{args:?}: {} MB written",
            written / MB
        );
        let bound = 4 * text as u64 + 40 * MB;
        assert!(
            r.peak < bound,
            "{args:?}: {} MB for {} MB of text",
            r.peak / MB,
            text as u64 / MB
        );
    }
}

#[test]
fn a_long_game_kept_broken_in_relative_numbering_is_read_back_as_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let text = 8 << 20;
    let game = long_valid_game(dir.path(), text);
    with_an_empty_pit(&game, 0.9);
    let game = game.to_str().unwrap();
    let out = dir.path().join("out.pmn");
    let out = out.to_str().unwrap();
    // Written from its text, then read back and replayed as it is read, to see that it
    // fails where the game does.
    let args = [
        "convert",
        "--to",
        "relative",
        "--keep-broken",
        game,
        "-o",
        out,
    ];
    let r = run(&args, None);
    assert_eq!(r.status, Some(0), "{}", r.said);
    assert!(r.said.contains("kept (--keep-broken)"), "{}", r.said);
    assert!(std::fs::metadata(out).unwrap().len() > text as u64 / 2);
    assert!(
        r.peak < 4 * text as u64 + 40 * MB,
        "{} MB for {} MB of text",
        r.peak / MB,
        text as u64 / MB
    );
}

#[test]
fn a_spool_that_cannot_be_made_is_named_and_nothing_is_published() {
    let dir = tempfile::tempdir().unwrap();
    // Long text of a game of 1 MiB is some 25 MiB: past what is held in memory.
    let game = long_valid_game(dir.path(), 1 << 20);
    let out = dir.path().join("out.txt");
    let r = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(["convert", "--to", "long", "-o"])
        .arg(&out)
        .arg(&game)
        .env("TMPDIR", dir.path().join("no such folder"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{said}");
    assert!(said.contains("the temporary file in"), "{said}");
    assert!(said.contains("no such folder"), "{said}");
    assert!(!out.exists());
}
