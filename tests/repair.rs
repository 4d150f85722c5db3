//! Repairs and rules inference, measured on generated games corrupted by one edit.
//!
//! Each corruption is one slip a transcriber makes: a misread start pit (another row
//! letter or column), a skipped ply, two plies written in the wrong order, an `x` added,
//! a wrong `-END`. A repair is "true" when applying it to the corrupted record gives back
//! the original plies exactly. The rate is printed (run with `--nocapture`) and must be at
//! least 90%; every suggestion must replay as claimed.

use sow::generate::Player;
use sow::pmn::{self, ParsedGame};
use sow::repair::{infer_rules, search, RepairOptions};
use sow::replay::{replay, ReplayOptions};
use sow::rng::Rng;
use sow::{Board, Game, Rules};

mod corrupt;

use corrupt::{game_text, play_game, record_text};

fn parse_one(text: &str) -> ParsedGame {
    let mut games = pmn::parse_str(text);
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

fn plies_of(parsed: &ParsedGame) -> Vec<String> {
    parsed
        .record
        .main_line()
        .map(|e| e.ply.syntax.to_string())
        .collect()
}

/// A one-character slip in a ply's start pit: another row letter or another column.
fn misread_start(ply: &str, rng: &mut Rng) -> Option<String> {
    let bytes: Vec<char> = ply.chars().collect();
    let digits_end = 1 + bytes[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if rng.coin() {
        let rows = ['a', 'b', 'c', 'd'];
        let other = rows[rng.below(4)];
        (other != bytes[0]).then(|| format!("{other}{}", &ply[1..]))
    } else {
        let k = 1 + rng.below(digits_end - 1);
        let digit = char::from(b'0' + rng.below(10) as u8);
        let mut s: Vec<char> = bytes.clone();
        (s[k] != digit && !(k == 1 && digit == '0')).then(|| {
            s[k] = digit;
            s.into_iter().collect()
        })
    }
}

/// Corrupts a game by one edit of the given kind; `None` when the kind does not apply.
fn corrupt(plies: &[String], kind: usize, rng: &mut Rng) -> Option<Vec<String>> {
    if plies.len() < 6 {
        return None;
    }
    let at = 2 + rng.below(plies.len() - 4);
    let mut out = plies.to_vec();
    match kind {
        // A misread start pit.
        0 => out[at] = misread_start(&plies[at], rng)?,
        // A skipped ply (one without a bonus: a bonus choice cannot be guessed back).
        1 => {
            if plies[at].contains('x') || plies[at].contains(',') || plies[at].contains('>') {
                return None;
            }
            out.remove(at);
        }
        // Two plies written in the wrong order.
        2 => out.swap(at, at + 1),
        // An `x` on a ply that captured nothing.
        3 => {
            if plies[at].contains('x') || plies[at].contains('>') {
                return None;
            }
            out[at].push('x');
        }
        // A wrong `-END`.
        _ => {
            if plies[at].contains('-') || plies[at].contains('>') {
                return None;
            }
            let (head, tail) = match plies[at].find('x') {
                Some(i) => plies[at].split_at(i),
                None => (plies[at].as_str(), ""),
            };
            let from = &head[..1 + head[1..].chars().take_while(|c| c.is_ascii_digit()).count()];
            let wrong = if from.starts_with('a') { "a1" } else { "b1" };
            if head.ends_with(wrong) {
                return None;
            }
            out[at] = format!("{head}-{wrong}{tail}");
        }
    }
    Some(out)
}

fn configs() -> Vec<Rules> {
    vec![
        Rules::new(Game::Tsoro, Board::new(4, 8), "").unwrap(),
        Rules::new(Game::Tsoro, Board::new(4, 12), "heads=1 bonus=1").unwrap(),
        Rules::new(Game::Nsolo, None, "").unwrap(),
        Rules::new(Game::Nsolo, None, "bonus=hole sow=ccw").unwrap(),
        Rules::new(Game::Kiothi, None, "").unwrap(),
        Rules::new(Game::BaoLaKimasai, None, "").unwrap(),
    ]
}

#[test]
fn the_true_edit_is_among_the_top_three_for_most_corruptions() {
    let lean = ReplayOptions::validate();
    let bounds = RepairOptions::default();
    let mut rng = Rng::new(2026);
    let (mut total, mut found) = (0usize, 0usize);
    let mut by_kind = [(0usize, 0usize); 5];
    let mut seed = 0u64;
    while total < 240 {
        seed += 1;
        let rules = &configs()[seed as usize % 6];
        let mut game_rng = Rng::new(seed);
        let (plies, result) = play_game(rules, Player::Random, &mut game_rng, 60);
        let kind = (seed as usize / 6) % 5;
        let Some(bad) = corrupt(&plies, kind, &mut rng) else {
            continue;
        };
        let parsed = parse_one(&record_text(rules, &bad, result));
        let trace = replay(&parsed, &lean);
        if trace.is_valid() {
            continue; // the slip happened to give another legal record
        }
        total += 1;
        by_kind[kind].0 += 1;
        let found_here = search(&parsed, &lean, &bounds);
        let restored = (found_here.repairs.iter().take(3)).any(|r| restores(&parsed, r, &plies));
        if restored {
            found += 1;
            by_kind[kind].1 += 1;
        }
        // Every suggestion is genuine: the edited record, written and read again,
        // replays exactly as far as claimed.
        for r in found_here.repairs.iter().take(3) {
            let edited = r.apply(&parsed.record);
            let again = parse_one(&pmn::write_game(&edited));
            let t = replay(&again, &lean);
            let replays = t
                .first_error_ply()
                .map(|p| p as usize - 1)
                .unwrap_or(plies_of(&again).len());
            assert_eq!(replays, r.replays, "{:?} on {bad:?}", r.edit);
            assert_eq!(t.complete && t.is_valid(), r.complete, "{:?}", r.edit);
        }
    }
    let rate = found as f64 / total as f64;
    println!(
        "repair: true edit in the top three for {found} of {total} corrupted records ({:.1}%); by kind (misread start, skipped ply, swapped plies, stray x, wrong -END): {by_kind:?}",
        100.0 * rate
    );
    assert!(rate >= 0.9, "only {found} of {total}: {by_kind:?}");
}

#[test]
fn the_true_options_are_always_among_the_consistent_ones() {
    let option_sets: &[(Game, Option<Board>, &str)] = &[
        (
            Game::Tsoro,
            Board::new(4, 8),
            "heads=2 bonus=2 head-bonus=no",
        ),
        (
            Game::Tsoro,
            Board::new(4, 8),
            "heads=1 bonus=1 head-bonus=yes",
        ),
        (
            Game::Tsoro,
            Board::new(4, 8),
            "heads=0 bonus=3 head-bonus=no",
        ),
        (
            Game::Tsoro,
            Board::new(4, 8),
            "heads=2 bonus=5,3,2 head-bonus=yes",
        ),
        (
            Game::Tsoro,
            Board::new(4, 8),
            "heads=2 bonus=0 head-bonus=no",
        ),
        (Game::Nsolo, None, "bonus=equal sow=cw repeat=3"),
        (Game::Nsolo, None, "bonus=hole sow=ccw repeat=2"),
        (Game::Nsolo, None, "bonus=none sow=cw repeat=4"),
        (Game::Kiothi, None, "start=5x6 leftmost=three"),
        (Game::Kiothi, None, "start=5x5 leftmost=chain"),
        (Game::Kiothi, None, "start=6x5 leftmost=three"),
        (Game::BaoLaKimasai, None, "repeat=2"),
        (Game::BaoLaKimasai, None, "repeat=3"),
    ];
    for &(game, board, options) in option_sets {
        let rules = Rules::new(game, board, options).unwrap();
        for seed in 1..=3u64 {
            let mut rng = Rng::new(seed * 77);
            let (plies, result) = play_game(&rules, Player::Random, &mut rng, 80);
            // The record names its game and board but leaves every option open.
            let mut tags: Vec<(&str, String)> = vec![("Game", game.tag_name().to_string())];
            if let Some(b) = board {
                tags.push(("Board", b.to_string()));
            }
            tags.push(("Result", result.to_string()));
            let parsed = parse_one(&game_text(&tags, &plies, result));
            let verdicts = infer_rules(&parsed, &ReplayOptions::validate(), u64::MAX).verdicts;
            assert!(
                verdicts
                    .iter()
                    .any(|v| v.consistent && v.options == options),
                "{game} {options} seed {seed}: {verdicts:?}"
            );
        }
    }
}

/// The flawed records shipped with the project (records/flawed/).
fn flawed(name: &str) -> ParsedGame {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("records/flawed")
        .join(format!("{name}.pmn"));
    parse_one(&std::fs::read_to_string(path).unwrap())
}

#[test]
fn a_repair_said_to_replay_completely_leaves_no_error_result_included() {
    // Candidates are replayed with the declared result, so an edit that leaves a wrong
    // result is not said to replay completely.
    let lean = ReplayOptions::validate();
    for name in [
        "result-mismatch",
        "illegal-move",
        "end-mismatch",
        "capture-mark",
    ] {
        let game = flawed(name);
        let found = search(&game, &lean, &RepairOptions::default());
        for r in found.repairs.iter().filter(|r| r.complete) {
            let edited = r.apply(&game.record);
            let again = parse_one(&pmn::write_game(&edited));
            let trace = replay(&again, &lean);
            assert!(
                trace.is_valid(),
                "{name}: {:?} leaves {:?}",
                r.edit,
                trace.diagnostics
            );
        }
    }
}

#[test]
fn an_inserted_ply_after_which_the_written_one_still_fails_is_no_repair() {
    // The inserted ply does not count as a ply replayed, so an insertion that leaves the
    // erroneous ply failing at once does not get further.
    let lean = ReplayOptions::validate();
    for name in ["illegal-move", "stones-mismatch", "end-mismatch", "command"] {
        let game = flawed(name);
        let first_error = replay(&game, &lean).first_error_ply().unwrap() as usize;
        let found = search(&game, &lean, &RepairOptions::default());
        for r in &found.repairs {
            assert!(r.complete || r.progress >= first_error, "{name}: {r:?}");
        }
    }
}

#[test]
fn an_unreadable_ply_is_mended_in_the_text() {
    // A ply the reader cannot read (`z9` for `a9`) is mended itself, not by changing the
    // correct plies before it. Its row letter or
    // its first digit is misread as something no pit has; the true ply must be among
    // the suggestions, and each must replay as claimed.
    let lean = ReplayOptions::validate();
    let mut rng = Rng::new(7);
    let (mut total, mut found) = (0, 0);
    for seed in 1..=60u64 {
        let rules = &configs()[seed as usize % 6];
        let (plies, result) = play_game(rules, Player::Random, &mut Rng::new(seed), 40);
        if plies.len() < 4 {
            continue;
        }
        let k = 1 + rng.below(plies.len() - 1);
        let mut bad = plies.clone();
        let slip = if rng.coin() { "z" } else { "a0" };
        bad[k] = format!("{slip}{}", &plies[k][1..]);
        let text = record_text(rules, &bad, result);
        let parsed = parse_one(&text);
        let mut trace = replay(&parsed, &lean);
        assert!(!trace.is_valid(), "{bad:?}");
        sow::repair::attach_suggestions(&parsed, &mut trace, &lean, &RepairOptions::default());
        let d = trace.diagnostics.iter().find(|d| d.is_error()).unwrap();
        assert_eq!(d.code, "syntax", "{:?}", d);
        total += 1;
        let token = text
            .split_whitespace()
            .find(|t| t.starts_with(slip))
            .unwrap();
        found += d.suggestions.iter().any(|s| {
            s.edit
                == format!(
                    "replace unreadable ply {} `{token}` by `{}`",
                    k + 1,
                    plies[k]
                )
        }) as usize;
        for s in &d.suggestions {
            let with = s.edit.rsplit('`').nth(1).unwrap();
            let mended = text.replacen(token, with, 1);
            let t = replay(&parse_one(&mended), &lean);
            assert_eq!(t.complete && t.is_valid(), s.complete, "{s:?}");
            let replays = t
                .first_error_ply()
                .map_or(t.plies_written, |p| p as usize - 1);
            assert_eq!(replays, s.replays, "{s:?}");
        }
    }
    println!("repair: unreadable ply mended in {found} of {total} records");
    assert!(found * 10 >= total * 9, "only {found} of {total}");
}

#[test]
fn a_swap_keeps_the_checkpoints_in_place() {
    // A swap leaves the comments after each ply in place, so a record with a [%stones]
    // checkpoint after every ply can be mended by a swap.
    let lean = ReplayOptions::validate();
    let mut full = ReplayOptions::full();
    full.keep_positions = true;
    let (mut total, mut found) = (0, 0);
    for seed in 1..=40u64 {
        let rules = &configs()[(seed % 2) as usize];
        let (plies, result) = play_game(rules, Player::Random, &mut Rng::new(seed), 30);
        if plies.len() < 8 {
            continue;
        }
        let trace = replay(&parse_one(&record_text(rules, &plies, result)), &full);
        let stones: Vec<String> = (trace.plies.iter())
            .map(|p| {
                let after = p.after.as_ref().unwrap();
                let [s, n] = [sow::Side::South, sow::Side::North].map(|x| after.stones_of(x));
                format!("{{[%stones {s} {n}]}}")
            })
            .collect();
        let k = 2 + (seed as usize % (plies.len() - 4));
        let mut bad = plies.clone();
        bad.swap(k, k + 1);
        let with_checks: Vec<String> = (bad.iter().zip(&stones))
            .map(|(p, c)| format!("{p} {c}"))
            .collect();
        let parsed = parse_one(&record_text(rules, &with_checks, result));
        if replay(&parsed, &lean).is_valid() {
            continue;
        }
        total += 1;
        let repairs = search(&parsed, &lean, &RepairOptions::default()).repairs;
        found += repairs.iter().take(3).any(|r| {
            let edited = r.apply(&parsed.record);
            let again = parse_one(&pmn::write_game(&edited));
            plies_of(&again) == plies && replay(&again, &lean).is_valid()
        }) as usize;
    }
    println!("repair: swap with checkpoints mended in {found} of {total} records");
    assert!(
        total >= 10 && found * 10 >= total * 9,
        "only {found} of {total}"
    );
}

#[test]
fn a_misread_count_or_pit_of_kiothis_opening_is_mended() {
    // The opening redistribution has one-part variants, so a count misread (`b8:2` for
    // `b8:1`) is found.
    let lean = ReplayOptions::validate();
    let rules = Rules::new(Game::Kiothi, None, "").unwrap();
    let (mut total, mut found) = (0, 0);
    for seed in 1..=20u64 {
        let (plies, result) = play_game(&rules, Player::Random, &mut Rng::new(seed), 10);
        let mut bad = plies.clone();
        // The last count of South's opening, one more.
        let (head, count) = plies[0].rsplit_once(':').unwrap();
        bad[0] = format!("{head}:{}", count.parse::<u16>().unwrap() + 1);
        let parsed = parse_one(&record_text(&rules, &bad, result));
        if replay(&parsed, &lean).is_valid() {
            continue;
        }
        total += 1;
        let repairs = search(&parsed, &lean, &RepairOptions::default()).repairs;
        found += repairs
            .iter()
            .take(3)
            .any(|r| plies_of(&parse_one(&pmn::write_game(&r.apply(&parsed.record)))) == plies)
            as usize;
    }
    println!("repair: Kiothi opening count mended in {found} of {total} records");
    assert!(
        total >= 10 && found * 10 >= total * 9,
        "only {found} of {total}"
    );
}

/// A generated Nsolo game with a misread start pit whose error shows only more than
/// `RepairOptions::default().window` plies later: the original plies, the corrupted
/// ones, the index of the slip and the 1-based ply of the first error.
fn a_slip_far_before_its_error() -> (Rules, Vec<String>, Vec<String>, usize, usize) {
    let lean = ReplayOptions::validate();
    let rules = Rules::new(Game::Nsolo, None, "").unwrap();
    let mut rng = Rng::new(7);
    let far = RepairOptions::default().window + 2;
    for seed in 1..400 {
        let (plies, result) = play_game(&rules, Player::Random, &mut Rng::new(seed), 160);
        for at in 4..plies.len().saturating_sub(far + 4) {
            let Some(slip) = misread_start(&plies[at], &mut rng) else {
                continue;
            };
            let mut bad = plies.clone();
            bad[at] = slip;
            let parsed = parse_one(&record_text(&rules, &bad, result));
            let Some(error) = replay(&parsed, &lean).first_error_ply() else {
                continue;
            };
            let error = error as usize;
            if error > at + far {
                return (rules, plies, bad, at, error);
            }
        }
    }
    panic!("no slip found whose error shows far after it");
}

/// Whether a repair gives back the original plies.
fn restores(parsed: &ParsedGame, repair: &sow::repair::Repair, plies: &[String]) -> bool {
    plies_of(&ParsedGame {
        record: repair.apply(&parsed.record),
        ..parsed.clone()
    }) == plies
}

#[test]
fn a_slip_further_back_than_the_window_is_found_by_a_wider_one() {
    let lean = ReplayOptions::validate();
    let (rules, plies, bad, at, error) = a_slip_far_before_its_error();
    let parsed = parse_one(&record_text(&rules, &bad, "*"));
    // No bound on the search's work: only the window limits it.
    let narrow = RepairOptions {
        plies: u64::MAX,
        keep: 100,
        ..RepairOptions::default()
    };
    let found = search(&parsed, &lean, &narrow);
    assert!(
        !found.repairs.iter().any(|r| r.edit.at() <= at),
        "an edit reached ply {} ({} plies before the error at ply {error}) with a window of {}",
        at + 1,
        error - 1 - at,
        narrow.window
    );
    let wide = RepairOptions {
        window: error - at,
        ..narrow
    };
    let found = search(&parsed, &lean, &wide);
    assert!(!found.stopped_early);
    assert!(
        found
            .repairs
            .iter()
            .any(|r| r.edit.at() == at && restores(&parsed, r, &plies)),
        "ply {} `{}` (for `{}`) not found with a window of {}",
        at + 1,
        bad[at],
        plies[at],
        wide.window
    );
}

#[test]
fn the_command_line_sets_the_window_and_the_bounds_of_the_search() {
    let (rules, _, bad, at, error) = a_slip_far_before_its_error();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slip.pmn");
    std::fs::write(&path, record_text(&rules, &bad, "*")).unwrap();
    let path = path.to_str().unwrap();
    let run = |flags: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("sow")
            .unwrap()
            .args(["validate", "--format", "json", "--suggest"])
            .args(flags)
            .arg(path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let wanted = format!("replace ply {} `{}`", at + 1, bad[at]);
    let default = run(&[]);
    assert!(!default.contains(&wanted), "{default}");
    let window = (error - at).to_string();
    let wide = run(&["--suggest-window", &window]);
    assert!(wide.contains(&wanted), "{wanted} not in {wide}");
    // Its work is bounded by plies replayed, which the report says when it stopped it;
    // bounded alike, the search gives the same suggestions however fast it runs.
    let short = run(&["--suggest-window", &window, "--suggest-plies", "50"]);
    assert!(!short.contains(&wanted), "{short}");
    let replayed: u64 = (short.split("search stopped after ").nth(1))
        .and_then(|rest| rest.split(" plies replayed and ").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no stop reported: {short}"));
    assert!(replayed >= 50, "{short}");
    // The stop is said apart from the suggestions: it is not a suggestion of 0 plies.
    assert!(short.contains("\"suggestions_stopped\":\"the search stopped after "));
    assert!(!short.contains("\"edit\":\"(search"), "{short}");
    assert_eq!(
        run(&["--suggest-window", &window, "--suggest-plies", "50"]),
        short
    );
    // A bound on its time is there too, for those who want one.
    let timed = run(&["--suggest-window", &window, "--suggest-budget", "600000"]);
    assert_eq!(timed, wide);
    // The bounds belong to the search: without --suggest they are a usage error.
    let out = assert_cmd::Command::cargo_bin("sow")
        .unwrap()
        .args(["validate", "--suggest-window", "40", path])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn no_edit_is_suggested_that_leaves_the_texts_own_error() {
    // With a Result tag against the result token (an error of the text, at the last
    // ply), no edit of the last ply is said to replay completely, and an unterminated
    // comment gets no edit that replays no further than the record as written.
    let mismatch = "[Game \"Tsoro\"]\n[Board \"4x6\"]\n[Result \"1-0\"]\n\n1. a2 d2 2. a6 d6-d1 3. a1 d5-d2 4. b4 d2xb5,a4 5. a5 d1xa2,b2 6. a6xc4,d4\nc2xb6,b5 0-1\n";
    let unterminated = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("records/flawed/unterminated-comment.pmn"),
    )
    .unwrap();
    // The Result tag against the token is mended only by writing the true result in
    // both.
    for (text, only_result) in [(mismatch.to_string(), true), (unterminated, false)] {
        let out = assert_cmd::Command::cargo_bin("sow")
            .unwrap()
            .args(["validate", "--format", "json", "--suggest", "-"])
            .write_stdin(text)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let json = String::from_utf8(out.stdout).unwrap();
        assert!(json.contains("\"severity\":\"error\""), "{json}");
        if only_result {
            assert!(json.contains("\"action\":\"result\""), "{json}");
            for kind in ["replace", "insert", "delete", "swap", "checkpoint"] {
                assert!(!json.contains(&format!("\"action\":\"{kind}\"")), "{json}");
            }
        } else {
            assert!(!json.contains("\"suggestions\""), "{json}");
        }
    }
}

/// `sow repair` on a file; its exit status, standard error and the output's text.
fn run_repair(input: &std::path::Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let output = input.with_extension("fixed.pmn");
    let _ = std::fs::remove_file(&output);
    let out = assert_cmd::Command::cargo_bin("sow")
        .unwrap()
        .arg("repair")
        .arg(input)
        .arg("-o")
        .arg(&output)
        .args(extra)
        .output()
        .unwrap();
    let fixed = std::fs::read_to_string(&output).unwrap_or_default();
    (
        out.status.code(),
        String::from_utf8(out.stderr).unwrap(),
        fixed,
    )
}

#[test]
fn sow_repair_records_each_edit_and_its_output_validates() {
    let flawed = |name: &str| {
        std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("records/flawed")
                .join(format!("{name}.pmn")),
        )
        .unwrap()
    };
    // A misread start pit, a wrong checkpoint, a wrong result, and a game that is valid.
    let rules = &configs()[2];
    let (plies, result) = play_game(rules, Player::Random, &mut Rng::new(5), 40);
    let mut bad = plies.clone();
    let at = 6;
    let slip = bad[at].replacen(
        &bad[at][..1],
        if bad[at].starts_with('a') { "b" } else { "a" },
        1,
    );
    bad[at] = slip.clone();
    let valid = record_text(rules, &plies, result);
    let text = [
        record_text(rules, &bad, result),
        flawed("stones-mismatch"),
        flawed("result-mismatch"),
        valid.clone(),
    ]
    .join("\n");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.pmn");
    std::fs::write(&input, &text).unwrap();
    let search = search(
        &parse_one(&record_text(rules, &bad, result)),
        &ReplayOptions::validate(),
        &RepairOptions::default(),
    );
    // The slip gives an error the search mends first, uniquely (else the game is kept).
    assert!(search.repairs[0].complete, "{:?}", search.repairs);
    let (status, stderr, fixed) = run_repair(&input, &[]);
    assert_eq!(status, Some(0), "{stderr}");
    // The input is unchanged.
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
    // Each edit is recorded beside it.
    assert!(
        fixed.contains(&format!("{{repaired: was {slip}}}")),
        "{fixed}"
    );
    assert!(fixed.contains("[%stones 21 21]"), "{fixed}");
    assert!(fixed.contains("{repaired: was stones 22 20}"), "{fixed}");
    assert!(fixed.contains("{repaired: was 1-0} 0-1"), "{fixed}");
    assert!(fixed.contains("[Result \"0-1\"]"), "{fixed}");
    // The valid game is copied byte for byte.
    assert!(fixed.ends_with(&valid), "{fixed}");
    assert_eq!(stderr.matches("repaired:").count(), 3, "{stderr}");
    // The output validates.
    let out = assert_cmd::Command::cargo_bin("sow")
        .unwrap()
        .args(["validate"])
        .arg(input.with_extension("fixed.pmn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // The input is never the output, even with --force.
    let out = assert_cmd::Command::cargo_bin("sow")
        .unwrap()
        .arg("repair")
        .arg(&input)
        .arg("-o")
        .arg(&input)
        .arg("--force")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
}

#[test]
fn sow_repair_leaves_an_ambiguous_game_alone_and_says_so() {
    // A game whose first two suggestions replay completely and rank alike.
    let lean = ReplayOptions::validate();
    let mut found = None;
    'seeds: for seed in 1..400u64 {
        let rules = &configs()[seed as usize % 6];
        let (plies, result) = play_game(rules, Player::Random, &mut Rng::new(seed), 60);
        if plies.len() < 8 {
            continue;
        }
        for at in 2..plies.len() - 2 {
            let mut bad = plies.clone();
            bad.remove(at);
            let text = record_text(rules, &bad, result);
            let game = parse_one(&text);
            let trace = replay(&game, &lean);
            if trace.is_valid() {
                continue;
            }
            let s = sow::repair::suggest(&game, &trace, &lean, &RepairOptions::default());
            if let [a, b, ..] = s.fixes.as_slice() {
                let (a, b) = (&a.suggestion, &b.suggestion);
                if a.complete && b.complete && a.rank == b.rank {
                    found = Some((text, trace.first_error_ply().unwrap()));
                    break 'seeds;
                }
            }
        }
    }
    let (text, error_ply) = found.expect("no ambiguous game");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ambiguous.pmn");
    std::fs::write(&input, &text).unwrap();
    let (status, stderr, fixed) = run_repair(&input, &[]);
    assert_eq!(status, Some(1), "{stderr}");
    assert!(
        stderr.contains("game 1: kept as it was: ambiguous"),
        "{stderr}"
    );
    assert_eq!(fixed, text);
    // Named, the second suggestion is applied.
    let take = format!("{error_ply}:2");
    let (status, stderr, fixed) = run_repair(&input, &["--take", &take]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(fixed.contains("{repaired: "), "{fixed}");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
}

#[test]
fn sow_repair_writes_a_move_number_out_of_step_as_the_one_that_fits() {
    // `5.` where the count says `4.`: the plies replay, the number gets a warning, and
    // the repair writes the number that fits, with the one written beside it.
    let rules = &configs()[0];
    let (plies, result) = play_game(rules, Player::Random, &mut Rng::new(3), 30);
    assert!(plies.len() > 10);
    let valid = record_text(rules, &plies, result);
    let text = valid.replacen(" 4. ", " 5. ", 1);
    assert_ne!(text, valid);
    let game = parse_one(&text);
    let options = ReplayOptions::validate();
    let trace = replay(&game, &options);
    assert!(trace.is_valid());
    let found = sow::repair::suggest(&game, &trace, &options, &RepairOptions::default());
    let first = &found.fixes[0].suggestion;
    assert_eq!(
        (
            first.change.action,
            first.change.ply,
            first.change.old.as_str(),
            first.change.new.as_str()
        ),
        ("renumber", 7, "5.", "4.")
    );
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.pmn");
    std::fs::write(&input, &text).unwrap();
    let (status, stderr, fixed) = run_repair(&input, &[]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
    assert_eq!(fixed, valid.replacen(" 4. ", " 4. {repaired: was 5.} ", 1));
    // The repaired record has no move number out of step.
    let again = replay(&parse_one(&fixed), &options);
    assert!(again.is_valid());
    assert!(
        !again.diagnostics.iter().any(|d| d.code == "move-number"),
        "{fixed}"
    );
}

#[test]
fn move_numbers_that_show_a_ply_missing_are_all_written_in_step() {
    // Every number from the fourth move on one ahead: a renumbering of each, in one fix.
    let rules = &configs()[0];
    let (plies, result) = play_game(rules, Player::Random, &mut Rng::new(3), 30);
    let valid = record_text(rules, &plies, result);
    let moves = valid.find("\n\n").unwrap();
    let mut text = valid[..moves].to_string();
    for token in valid[moves..].split(' ') {
        let shifted = token
            .strip_suffix('.')
            .and_then(|n| n.trim_start().parse::<u32>().ok())
            .filter(|&n| n >= 4)
            .map(|n| {
                format!(
                    "{}{}.",
                    &token[..token.len() - token.trim_start().len()],
                    n + 1
                )
            });
        text.push_str(&shifted.unwrap_or_else(|| token.to_string()));
        text.push(' ');
    }
    text.pop();
    assert_ne!(text, valid);
    let game = parse_one(&text);
    let options = ReplayOptions::validate();
    let trace = replay(&game, &options);
    assert!(trace.is_valid());
    let found = sow::repair::suggest(&game, &trace, &options, &RepairOptions::default());
    let fix = &found.fixes[0];
    assert_eq!(fix.suggestion.change.action, "renumber");
    let fixed = sow::repair::fixed_text(&game, fix);
    let again = replay(&parse_one(&fixed), &options);
    assert!(
        !again.diagnostics.iter().any(|d| d.code == "move-number"),
        "{fixed}"
    );
    assert_eq!(plies_of(&parse_one(&fixed)), plies_of(&game));
}

#[test]
fn a_record_held_in_part_gets_the_suggestions_of_the_whole_record() {
    // The search reads the plies it needs from the game's text when its record holds
    // the main line in part: held to no ply or to any ply from the error on, a record
    // gets the suggestions, ranks and repaired text of the whole record.
    let options = ReplayOptions::validate();
    let bounds = RepairOptions::default();
    let mut compared = 0;
    for c in corrupt::corpus(120) {
        let whole = parse_one(&c.text);
        let trace = replay(&whole, &options);
        let Some(error) = trace.first_error_ply() else {
            continue;
        };
        let said = |game: &ParsedGame| {
            let found = sow::repair::suggest(game, &trace, &options, &bounds);
            let fixes: Vec<_> = (found.fixes.iter())
                .map(|f| (f.suggestion.clone(), sow::repair::fixed_text(game, f)))
                .collect();
            (fixes, found.stopped, found.none)
        };
        let expected = said(&whole);
        for held in [0, error as usize, error as usize + 1, error as usize + 5] {
            if held >= trace.plies_written {
                continue;
            }
            let mut games = pmn::Reader::new(c.text.as_bytes());
            let part = games.next_text().unwrap().parse_cut(held);
            assert!(part.record.main_line().count() < trace.plies_written);
            assert_eq!(said(&part), expected, "held to {held}: {}", c.text);
            compared += 1;
        }
    }
    assert!(compared > 100, "{compared}");
}
