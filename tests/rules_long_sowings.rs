//! Every ply is decided within a bound: a sowing that has neither ended nor shown a
//! recurring lap-end state after the lap budget ([`Rules::max_laps`]) is refused as
//! undecided, never sown on for minutes. The records in tests/data/long-sowings were
//! found by a search for set-ups whose sowing runs long.

use sow::games::legal_moves;
use sow::moves::Candidate;
use sow::pmn::parse_str;
use sow::replay::{replay, ReplayOptions, Trace};
use sow::{Position, Rules};

const DIR: &str = "tests/data/long-sowings";

fn replay_file(name: &str, max_laps: Option<u64>) -> Trace {
    let text = std::fs::read_to_string(format!("{DIR}/{name}")).unwrap();
    let games = parse_str(&text);
    assert_eq!(games.len(), 1, "{name}");
    let options = ReplayOptions {
        max_laps,
        ..ReplayOptions::validate()
    };
    replay(&games[0], &options)
}

/// The code and ply of the first diagnostic.
fn first_problem(trace: &Trace) -> Option<(&'static str, Option<u32>)> {
    trace.diagnostics.first().map(|d| (d.code.as_str(), d.ply))
}

/// Each record's long sowing reaches a small budget undecided, with its own code.
#[test]
fn a_sowing_still_going_at_the_lap_budget_is_undecided() {
    for name in ["tsoro-endless-late.pmn", "kiothi-endless-late.pmn"] {
        let trace = replay_file(name, Some(100_000));
        assert_eq!(
            first_problem(&trace),
            Some(("undecided-sowing", Some(1))),
            "{name}"
        );
        let message = &trace.diagnostics[0].message;
        assert!(message.contains("after 100000 laps"), "{name}: {message}");
    }
}

/// The Tsoro sowing's lap-end state first recurs after 2,061,623 laps: within the
/// default budget, so the ply is decided, endless.
#[test]
fn a_sowing_proved_endless_within_the_default_budget_is_endless() {
    let trace = replay_file("tsoro-endless-late.pmn", None);
    assert_eq!(first_problem(&trace), Some(("endless-sowing", Some(1))));
    assert!(trace.diagnostics[0].message.contains("2061623 laps"));
}

/// The Kiothi sowing's lap-end state first recurs after 128,694,312 laps, beyond the
/// default budget (which the rules report).
#[test]
fn the_default_budget_is_below_the_kiothi_records_cycle() {
    let rules = Rules::default_for(sow::Game::Kiothi);
    assert!(rules.max_laps() < 128_694_312);
    assert_eq!(rules.clone().with_max_laps(5).max_laps(), 5);
    assert_eq!(rules.with_max_laps(0).max_laps(), 1, "at least one lap");
}

/// The always-relay sowing of a1 arrives at the occupied heads a20 and a21 some 99,000
/// times before its cycle is found, each arrival a legal stop: the list holds them as
/// one candidate a head, not one each.
#[test]
fn head_stops_are_listed_as_one_candidate_per_head() {
    let text = std::fs::read_to_string(format!("{DIR}/tsoro-endless-late.pmn")).unwrap();
    let games = parse_str(&text);
    let rules = Rules::default_for(sow::Game::Tsoro);
    let setup = games[0].record.tag("Position").unwrap();
    let pos = Position::parse(&rules, setup).unwrap();
    let legal = legal_moves(&rules, &pos);
    let from_a1: Vec<&Candidate> = (legal.iter())
        .filter(|c| c.to_string().starts_with("a1-"))
        .collect();
    assert_eq!(from_a1.len(), 2, "{from_a1:?}");
    let plies: u64 = from_a1.iter().map(|c| c.plies()).sum();
    assert!(plies > 90_000, "{plies}");
    let each: Vec<String> = from_a1[0].each().take(3).map(|c| c.to_string()).collect();
    assert_eq!(each, ["a1-a21", "a1-a21#2", "a1-a21#3"]);
    assert_eq!(from_a1[1].each().count() as u64, from_a1[1].plies());
    let trace = replay_file("tsoro-endless-late.pmn", Some(100_000));
    let listed = &trace.diagnostics[0].legal;
    assert_eq!(listed.len(), 65, "64 plies listed and how many more");
    assert!(listed[64].starts_with("... and "), "{}", listed[64]);
}

/// PMN.md's ruling: a stop ends the move, so `-HEAD#k` is legal whenever the sowing
/// reaches that head occupied a k-th time, also after a lap-end state has recurred. The
/// always-relay sowing of a5 is endless (its cycle is found after some 257 laps, 23
/// arrivals at a6); the 100th arrival at a6 lies inside the cycle.
#[test]
fn a_stop_inside_an_endless_cycle_is_legal() {
    let trace = replay_file("tsoro-stop-in-cycle.pmn", None);
    assert_eq!(first_problem(&trace), None);
    assert_eq!(trace.played, 1);
    let text = std::fs::read_to_string(format!("{DIR}/tsoro-stop-in-cycle.pmn")).unwrap();
    let relayed = text.replace("a5-a6#100", "a5");
    let games = parse_str(&relayed);
    let trace = replay(&games[0], &ReplayOptions::validate());
    assert_eq!(
        first_problem(&trace),
        Some(("endless-sowing", Some(1))),
        "without the stop the sowing never ends"
    );
}

/// The repair search of the Tsoro record's ply 1 would list every stop of a1 at its
/// heads (some 4,800 under a budget of 100,000 laps, 99,000 under the default): it lists
/// no more than is left of its bound of plies, tries no candidate past it, and says that
/// the bound cut it short.
#[test]
fn the_repair_search_of_a_long_sowing_stops_at_its_bound_of_plies() {
    use sow::repair::{search, RepairOptions};
    let text = std::fs::read_to_string(format!("{DIR}/tsoro-endless-late.pmn")).unwrap();
    let games = parse_str(&text);
    let options = ReplayOptions {
        max_laps: Some(100_000),
        ..ReplayOptions::validate()
    };
    for plies in [50, 500] {
        let bounds = RepairOptions {
            plies,
            ..RepairOptions::default()
        };
        let found = search(&games[0], &options, &bounds);
        assert!(found.stopped_early, "{plies}");
        // A candidate of this one-ply game replays at most its one ply and counts one
        // more: a check before each step overshoots by no more.
        assert!(found.replayed <= plies + 2, "{plies}: {}", found.replayed);
        assert!(found.replayed >= plies - 2, "{plies}: {}", found.replayed);
    }
}

fn sow_cmd(args: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("sow")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

/// Every command that replays takes `--max-laps`: the Tsoro record's stop at its head's
/// 100th arrival (some 1,100 laps) is legal under the default budget, and undecided
/// under a budget of 100 laps, as each command says.
#[test]
fn every_command_that_replays_takes_the_lap_budget() {
    let record = format!("{DIR}/tsoro-stop-in-cycle.pmn");
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let said = "undecided sowing: after 100 laps";
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let budget = ["--max-laps", "100"];
    // Each command, with the budget and without.
    let run = |args: &[&str], budgeted: bool| {
        let mut all = args.to_vec();
        if budgeted {
            all.extend(budget);
        }
        sow_cmd(&all)
    };
    for budgeted in [false, true] {
        let o = run(&["validate", &record], budgeted);
        assert_eq!(text(&o.stdout).contains(said), budgeted);
        let o = run(&["show", &record], budgeted);
        assert_eq!(text(&o.stderr).contains(said), budgeted);
        let html = out("v.html");
        let o = run(&["view", &record, "--force", "-o", &html], budgeted);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let page = std::fs::read_to_string(&html).unwrap();
        assert_eq!(page.contains(said), budgeted);
        let o = run(
            &["repair", &record, "--force", "-o", &out("r.pmn")],
            budgeted,
        );
        assert_eq!(
            o.status.code(),
            Some(i32::from(budgeted)),
            "{}",
            text(&o.stderr)
        );
        let o = run(&["stats", &record], budgeted);
        let valid = text(&o.stdout)
            .lines()
            .nth(1)
            .unwrap()
            .contains(",true,,Tsoro");
        assert_eq!(valid, !budgeted, "{}", text(&o.stdout));
        let svg = out("p.svg");
        let o = run(&["plot", &record, "--force", "-o", &svg], budgeted);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let figure = std::fs::read_to_string(&svg).unwrap();
        assert_eq!(figure.contains("stops at an error"), budgeted);
    }
}

/// Rules inference checks its bound of plies before each combination's replay, and says
/// when it stopped: the one-ply record's 14 open combinations (its Rules tag fixes
/// `heads`) replay 2 plies of work each, so a bound of 5 tries 2 of them.
#[test]
fn rules_inference_stops_at_its_bound_of_plies_and_says_so() {
    use sow::repair::infer_rules;
    let text = std::fs::read_to_string(format!("{DIR}/tsoro-stop-in-cycle.pmn")).unwrap();
    let games = parse_str(&text);
    let options = ReplayOptions::validate();
    let all = infer_rules(&games[0], &options, u64::MAX);
    assert_eq!((all.verdicts.len(), all.stopped), (14, None));
    let cut = infer_rules(&games[0], &options, 5);
    assert_eq!(cut.verdicts.len(), 2);
    let said = cut.stopped.unwrap();
    assert!(
        said.contains("after 4 plies replayed and 2 of 14 combinations"),
        "{said}"
    );
    assert_eq!(cut.verdicts[..], all.verdicts[..2]);
}
