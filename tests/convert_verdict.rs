//! `sow convert` keeps every verdict: for every game of every record under records/ and
//! tests/, and of a few thousand mutated games, `validate` of the output gives the
//! verdict of `validate` of the input (valid or not, first error at the same ply, same
//! code), for every output form that reads back, with and without `--keep-broken`.
//! Without it a game with errors is absent from the output and named in the notes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sow::convert::{self, ConvertFrom, ConvertTo, Forms};
use sow::corpus::{Filter, Input};
use sow::pmn::{self, ParsedGame};
use sow::replay::{replay, ReplayOptions};
use sow::rules::Game;

mod xorshift;

use xorshift::Rng;

/// What `validate` says of a game: valid or not, and the ply and code of its first error.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Verdict {
    valid: bool,
    ply: Option<u32>,
    code: Option<&'static str>,
}

fn verdict(game: &ParsedGame) -> Verdict {
    let trace = replay(game, &ReplayOptions::validate());
    let first = trace.first_error();
    Verdict {
        valid: trace.is_valid(),
        ply: first.and_then(|d| d.ply),
        code: first.map(|d| d.code.as_str()),
    }
}

/// Every game of a PMN text, as `sow convert` numbers them (files holding no game aside).
fn games_of(bytes: &[u8]) -> Vec<ParsedGame> {
    pmn::parse_bytes(bytes)
        .into_iter()
        .filter(|g| !g.is_no_game())
        .collect()
}

/// The games of an output, read back in its form.
fn read_back(to: ConvertTo, out: &[u8]) -> Vec<ParsedGame> {
    let text = String::from_utf8(out.to_vec()).expect("the output is UTF-8");
    let options = ReplayOptions::validate();
    let games = match to {
        ConvertTo::Pmn => games_of(out),
        ConvertTo::Json | ConvertTo::Jsonl => {
            convert::read_json(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
        }
        ConvertTo::Relative => convert::read_relative(out, &options),
        ConvertTo::Ludii => convert::read_ludii(&text, &options),
        ConvertTo::Csv | ConvertTo::Long => unreachable!("not read back"),
    };
    games.into_iter().filter(|g| !g.is_no_game()).collect()
}

/// The numbers of the games a run's notes say were left out (`...: game K: error[...`).
fn left_out(notes: &[String]) -> BTreeSet<usize> {
    notes
        .iter()
        .filter(|n| n.contains("; left out"))
        .map(|n| {
            let after = &n[n.find(": game ").expect("names its game") + 7..];
            after[..after.find(':').unwrap()].parse().unwrap()
        })
        .collect()
}

const FORMS: [ConvertTo; 4] = [
    ConvertTo::Pmn,
    ConvertTo::Json,
    ConvertTo::Jsonl,
    ConvertTo::Relative,
];

/// Converts the PMN file `path` in every form that reads back, with and without
/// `--keep-broken`, and checks every verdict. Returns how many games had errors.
fn check_file(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let games = games_of(&bytes);
    let verdicts: Vec<Verdict> = games.iter().map(verdict).collect();
    // Ludii's list has numbers for Tsoro and Nsolo only; other games are a comment.
    let ludii = games.iter().all(|g| {
        replay(g, &ReplayOptions::validate())
            .rules
            .is_some_and(|r| matches!(r.game(), Game::Tsoro | Game::Nsolo))
    });
    let forms = FORMS
        .iter()
        .copied()
        .chain(ludii.then_some(ConvertTo::Ludii));
    for to in forms {
        for keep_broken in [false, true] {
            let mut out = Vec::new();
            let mut notes = Vec::new();
            let left = convert::run(
                &[Input::File(path.to_path_buf())],
                &Filter::default(),
                &ReplayOptions::full(),
                Forms {
                    from: Some(ConvertFrom::Pmn),
                    to,
                    keep_broken,
                    positions: false,
                    plies: false,
                },
                &mut out,
                Path::new("<out>"),
                &mut |n| notes.push(n),
            )
            .unwrap_or_else(|e| panic!("{}: {to:?}: {e}", path.display()));
            let gone = left_out(&notes);
            let what = format!(
                "{} --to {to:?} keep_broken={keep_broken}\n{}\n{}",
                path.display(),
                notes.join("\n"),
                String::from_utf8_lossy(&out)
            );
            assert_eq!(left, gone.len(), "{what}");
            for &k in &gone {
                assert!(!verdicts[k - 1].valid, "a valid game left out: {what}");
            }
            if !keep_broken || (to == ConvertTo::Pmn) {
                // Without --keep-broken every game with errors is left out; PMN keeps
                // every one of them.
                let broken = (verdicts.iter().enumerate())
                    .filter(|(_, v)| !v.valid)
                    .map(|(i, _)| i + 1);
                let expected: BTreeSet<usize> = if keep_broken {
                    BTreeSet::new()
                } else {
                    broken.collect()
                };
                assert_eq!(gone, expected, "{what}");
            }
            let expected: Vec<&Verdict> = (verdicts.iter().enumerate())
                .filter(|(i, _)| !gone.contains(&(i + 1)))
                .map(|(_, v)| v)
                .collect();
            let back: Vec<Verdict> = read_back(to, &out).iter().map(verdict).collect();
            let back: Vec<&Verdict> = back.iter().collect();
            if let Some(i) =
                (0..back.len().max(expected.len())).find(|&i| back.get(i) != expected.get(i))
            {
                panic!(
                    "game {} of the output: {:?} read back, {:?} expected\n{what}",
                    i + 1,
                    back.get(i),
                    expected.get(i)
                );
            }
        }
    }
    verdicts.iter().filter(|v| !v.valid).count()
}

fn pmn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let path = e.path();
        if path.is_dir() {
            pmn_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "pmn") {
            out.push(path);
        }
    }
}

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    pmn_files(&root.join("records"), &mut files);
    pmn_files(&root.join("tests"), &mut files);
    files
}

#[test]
fn every_record_keeps_its_verdict_through_every_form() {
    // The generated corpus (1,200 games of the same few rule sets) takes most of the
    // time: a debug build checks one of its files, an optimised build all of them.
    let mut generated = 0;
    let files: Vec<PathBuf> = (corpus().into_iter())
        .filter(|f| {
            let is_generated = f.components().any(|c| c.as_os_str() == "generated");
            generated += usize::from(is_generated);
            !is_generated || !cfg!(debug_assertions) || generated == 1
        })
        .collect();
    assert!(files.len() > 20, "{files:?}");
    let broken: usize = files.iter().map(|f| check_file(f)).sum();
    // The flawed records are among them: the check saw games with errors.
    assert!(broken >= 10, "{broken}");
}

/// One mutation of a game's text: a token dropped, doubled or swapped with the next, a
/// character changed, inserted or dropped, a line dropped, or the text cut short.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let tokens: Vec<&str> = text.split(' ').collect();
    let chars: Vec<char> = text.chars().collect();
    const ALPHABET: &[u8] = b"abcd0123456789x.*-(){};[]\"% \nSN/";
    match rng.below(8) {
        0 if tokens.len() > 1 => {
            let i = rng.below(tokens.len());
            let mut t = tokens.clone();
            t.remove(i);
            t.join(" ")
        }
        1 if tokens.len() > 1 => {
            let i = rng.below(tokens.len());
            let mut t = tokens.clone();
            t.insert(i, tokens[i]);
            t.join(" ")
        }
        2 if tokens.len() > 2 => {
            let i = rng.below(tokens.len() - 1);
            let mut t = tokens.clone();
            t.swap(i, i + 1);
            t.join(" ")
        }
        3 | 4 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            let mut c = chars.clone();
            c[i] = ALPHABET[rng.below(ALPHABET.len())] as char;
            c.into_iter().collect()
        }
        5 => {
            let i = rng.below(chars.len() + 1);
            let mut c = chars.clone();
            c.insert(i, ALPHABET[rng.below(ALPHABET.len())] as char);
            c.into_iter().collect()
        }
        6 => {
            let lines: Vec<&str> = text.lines().collect();
            let i = rng.below(lines.len());
            let mut l = lines.clone();
            if !l.is_empty() {
                l.remove(i);
            }
            l.join("\n")
        }
        _ => chars[..rng.below(chars.len() + 1)].iter().collect(),
    }
}

#[test]
fn mutated_records_keep_their_verdict_through_every_form() {
    // The games of the small records (the generated files hold a hundred long games a
    // file: a few of theirs are enough).
    let mut seeds: Vec<String> = Vec::new();
    for f in corpus() {
        let bytes = std::fs::read(&f).unwrap();
        let games = games_of(&bytes);
        let take = if f.to_string_lossy().contains("generated") {
            2
        } else {
            games.len()
        };
        seeds.extend(games.into_iter().take(take).map(|g| g.text));
    }
    let mut rng = Rng(0x5eed_0f50_u64);
    let dir = tempfile::tempdir().unwrap();
    let mut broken = 0;
    // Files of 50 mutants each: 3,000 mutants in an optimised build (`cargo test
    // --profile dist --test convert_verdict`), 200 in a debug one (`SOW_VERDICT_FILES`
    // sets the number of files).
    let files: usize = std::env::var("SOW_VERDICT_FILES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 4 } else { 60 });
    for file in 0..files {
        let mut text = String::new();
        for _ in 0..50 {
            let seed = &seeds[rng.below(seeds.len())];
            let mut mutant = mutate(seed, &mut rng);
            if rng.below(3) == 0 {
                mutant = mutate(&mutant, &mut rng);
            }
            text.push_str(mutant.trim_end());
            text.push_str("\n\n");
        }
        let path = dir.path().join(format!("m{file}.pmn"));
        std::fs::write(&path, &text).unwrap();
        broken += check_file(&path);
    }
    // The mutants are not all valid, nor all broken: both ways were checked.
    assert!(broken > files * 5, "{broken}");
    assert!(broken < files * 45, "{broken}");
}

fn sow(args: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("sow")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_broken_game_is_left_out_with_exit_status_1_or_kept_failing_at_the_same_ply() {
    let dir = tempfile::tempdir().unwrap();
    let input = "records/flawed/illegal-move.pmn";
    let out = dir.path().join("x.pmn");
    let x = out.to_str().unwrap();
    let run = sow(&["convert", "--to", "pmn", input, "-o", x]);
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(
        stderr.contains("game 1: error[illegal-move]: ply 5 `a3`")
            && stderr.contains("left out (--keep-broken keeps it)"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "");
    // Kept, through PMN and through JSON and back: validate fails at ply 5 as before.
    let json = dir.path().join("x.json");
    let j = json.to_str().unwrap();
    let run = sow(&["convert", "--to", "json", "--keep-broken", input, "-o", j]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let run = sow(&[
        "convert",
        "--from",
        "json",
        "--to",
        "pmn",
        "--keep-broken",
        "--force",
        j,
        "-o",
        x,
    ]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let validated = sow(&["validate", x]);
    assert_eq!(validated.status.code(), Some(1));
    let said = String::from_utf8(validated.stdout).unwrap()
        + &String::from_utf8(validated.stderr).unwrap();
    assert!(said.contains("error[illegal-move]: ply 5 `a3`"), "{said}");
    assert!(said.contains("1 with errors"), "{said}");
    // Ludii's list cannot hold it failing: left out even with --keep-broken.
    let run = sow(&["convert", "--to", "ludii", "--keep-broken", input]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(
        stderr.contains("left out: ludii cannot hold it"),
        "{stderr}"
    );
}
