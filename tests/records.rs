//! The records of `records/`: every teaching example replays without error and shows
//! the rule it claims to show, and the generated corpus is valid and is exactly what
//! the commands of `records/generated/make.sh` write.

use std::fs;
use std::path::{Path, PathBuf};

use clap::Parser;
use sow::cli::{Cli, Command};
use sow::play::EndReason;
use sow::pmn::{parse_str, ParsedGame};
use sow::replay::{replay, ReplayOptions, Trace};
use sow::{Outcome, Pit, Side};

mod expect;

fn records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("records")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every game of an example file with its full trace.
fn example_file(name: &str) -> Vec<(ParsedGame, Trace)> {
    let text = read(&records().join("examples").join(name));
    parse_str(&text)
        .into_iter()
        .map(|g| {
            let t = replay(&g, &ReplayOptions::full());
            (g, t)
        })
        .collect()
}

/// The trace of the example game whose `Event` tag is `event`.
fn example(file: &str, event: &str) -> Trace {
    let games = example_file(file);
    let found: Vec<_> = games
        .into_iter()
        .filter(|(g, _)| g.record.tag("Event") == Some(event))
        .collect();
    assert_eq!(found.len(), 1, "{file}: one game with Event {event:?}");
    let (_, trace) = found.into_iter().next().unwrap();
    assert!(trace.complete, "{file} {event:?}: {:?}", trace.diagnostics);
    trace
}

fn pit(s: &str) -> Pit {
    s.parse().unwrap_or_else(|_| panic!("{s} is a pit"))
}

fn pits(list: &[(Pit, u16)]) -> Vec<(String, u16)> {
    list.iter().map(|(p, n)| (p.to_string(), *n)).collect()
}

fn owned(list: &[(&str, u16)]) -> Vec<(String, u16)> {
    list.iter().map(|(p, n)| (p.to_string(), *n)).collect()
}

const EXAMPLE_FILES: [&str; 4] = ["tsoro.pmn", "nsolo.pmn", "kiothi.pmn", "bao-la-kimasai.pmn"];

#[test]
fn every_example_validates_and_says_it_was_written_for_teaching() {
    for file in EXAMPLE_FILES {
        let games = example_file(file);
        assert!(games.len() >= 2, "{file}: several games");
        for (g, t) in &games {
            let event = g.record.tag("Event").unwrap_or("?");
            assert!(t.is_valid(), "{file} {event}: {:?}", t.diagnostics);
            assert!(t.complete, "{file} {event}");
            // The only warning allowed is the foul the record shows on purpose.
            for d in &t.diagnostics {
                assert_eq!(d.code, "foul", "{file} {event}: {d:?}");
            }
            let source = g.record.tag("Source").unwrap_or("");
            assert!(
                source.contains("Written for teaching by the sow developers")
                    && source.contains("not a historical game"),
                "{file} {event}: Source {source:?}"
            );
        }
    }
}

#[test]
fn examples_readme_lists_every_example_game() {
    let readme = read(&records().join("examples").join("README.md"));
    for file in EXAMPLE_FILES {
        for (g, _) in example_file(file) {
            let event = g.record.tag("Event").unwrap();
            assert!(readme.contains(event), "README.md lacks {event:?}");
        }
    }
}

#[test]
fn tsoro_stop_at_a_head() {
    let t = example("tsoro.pmn", "Tsoro: stopping at a head");
    for (ply, head) in [(0, "a7"), (1, "d2")] {
        let e = &t.plies[ply].effect;
        assert!(e.stopped_at_head, "ply {}", ply + 1);
        assert_eq!(e.end, Some(pit(head)));
        assert_eq!(e.lap_count, 1);
    }
}

#[test]
fn tsoro_stop_at_the_second_arrival() {
    let t = example(
        "tsoro.pmn",
        "Tsoro: stopping at the second arrival at a head (#2)",
    );
    let e = &t.plies[0].effect;
    assert!(e.stopped_at_head);
    assert_eq!(e.end, Some(pit("a6")));
    assert_eq!(e.lap_count, 7);
    // The first lap also ended in a6, and relayed.
    assert_eq!(e.laps[0].end, pit("a6"));
    assert_eq!(
        t.last.as_ref().unwrap().to_pmn(),
        "0,0,0,0,0,1/0,0,1,0,0,0/2,2,1,0,2,2/0,1,2,1,3,2 N"
    );
}

#[test]
fn tsoro_capture_with_bonus_pits() {
    let t = example("tsoro.pmn", "Tsoro: capture with bonus pits");
    let e = &t.plies[0].effect;
    assert_eq!(e.end, Some(pit("c6")));
    assert_eq!(pits(&e.captured), owned(&[("b6", 1), ("a6", 4)]));
    assert_eq!(pits(&e.bonus), owned(&[("a11", 1), ("b10", 1)]));
}

#[test]
fn tsoro_singleton_and_an_accepted_foul() {
    let t = example("tsoro.pmn", "Tsoro: single stones, and a foul accepted");
    let single = &t.plies[0];
    assert_eq!(single.effect.end, Some(pit("a6")));
    assert!(single.effect.fouls.is_empty() && !single.foul);
    let foul = &t.plies[1];
    assert!(foul.foul);
    assert_eq!(foul.effect.fouls.len(), 1);
    assert_eq!(t.warnings(), 1);
    assert_eq!(t.errors(), 0);
}

#[test]
fn tsoro_graded_bonus_five_three_two() {
    let t = example("tsoro.pmn", "Tsoro: a graded bonus, 5, 3 then 2 pits");
    let bonus_sizes = |side: Side| -> Vec<usize> {
        t.plies
            .iter()
            .filter(|p| p.side == side && p.effect.is_capture())
            .map(|p| p.effect.bonus.len())
            .collect()
    };
    // Captures are counted for each player.
    assert_eq!(bonus_sizes(Side::South), [5, 3, 2]);
    assert_eq!(bonus_sizes(Side::North), [5, 3]);
    // The third bonus is two by the grading, not for want of pits: North had more
    // non-empty pits than that outside its head and the captured pit.
    let third = &t.plies[12];
    let before = t.position_after(12).unwrap();
    let captured: Vec<Pit> = third.effect.captured.iter().map(|&(p, _)| p).collect();
    let eligible = ["c", "d"]
        .iter()
        .flat_map(|row| (1..=12).map(move |col| pit(&format!("{row}{col}"))))
        .filter(|&p| p != pit("d1") && !captured.contains(&p) && before.stones(p) > 0)
        .count();
    assert_eq!(eligible, 4);
}

#[test]
fn tsoro_and_bao_games_end_when_a_player_cannot_move() {
    for (file, event) in [
        (
            "tsoro.pmn",
            "Tsoro: the last stones captured; North has no legal move",
        ),
        (
            "bao-la-kimasai.pmn",
            "Bao la Kimasai: North's last stone captured; North cannot move",
        ),
    ] {
        let t = example(file, event);
        assert!(t.plies[0].effect.is_capture(), "{event}");
        assert!(t.plies[0].effect.bonus.is_empty(), "{event}");
        assert_eq!(
            t.outcome,
            Some(Outcome::Win {
                winner: Side::South,
                reason: EndReason::NoLegalMove
            }),
            "{event}"
        );
        assert_eq!(t.outcome.unwrap().result_token(), "1-0");
    }
}

#[test]
fn nsolo_relay_chain_and_equal_bonus() {
    let t = example(
        "nsolo.pmn",
        "Nsolo: a relay chain of seven laps ending in a capture, equal bonus",
    );
    let e = &t.plies[0].effect;
    assert_eq!(e.lap_count, 7);
    assert_eq!(e.end, Some(pit("b8")));
    assert_eq!(pits(&e.captured), owned(&[("c8", 3)]));
    assert_eq!(pits(&e.bonus), owned(&[("d7", 3)]));
}

#[test]
fn nsolo_ccw_relay_back_into_its_origin() {
    let t = example(
        "nsolo.pmn",
        "Nsolo (sow=ccw): a relay sowing over four laps",
    );
    let e = &t.plies[0].effect;
    assert_eq!(e.lap_count, 4);
    assert_eq!(e.end, Some(pit("a4")));
    assert!(!e.is_capture());
    assert_eq!(
        t.last.as_ref().unwrap().to_pmn(),
        "5,2,0,1,0,5,5,3/1,2,0,1,0,1,1,1/3,5,1,2,0,1,1,0/2,0,1,1,3,5,1,2 N"
    );
}

#[test]
fn nsolo_repetition_draw() {
    let t = example("nsolo.pmn", "Nsolo: a draw by repetition");
    assert_eq!(t.plies.len(), 96);
    assert!(t.plies.iter().all(|p| !p.effect.is_capture()));
    assert_eq!(t.last, t.start);
    assert_eq!(
        t.outcome,
        Some(Outcome::Draw {
            reason: EndReason::Repetition
        })
    );
    // Not before: no earlier position was the set-up's.
    for n in 1..96 {
        assert_ne!(t.position_after(n), t.start.as_ref(), "ply {n}");
    }
}

#[test]
fn nsolo_hole_bonus() {
    let t = example(
        "nsolo.pmn",
        "Nsolo: capture, then the bonus of one whole pit (bonus=hole)",
    );
    let e = &t.plies[0].effect;
    assert_eq!(e.lap_count, 2);
    assert_eq!(pits(&e.captured), owned(&[("c20", 2)]));
    assert_eq!(pits(&e.bonus), owned(&[("c17", 2)]));
}

#[test]
fn kiothi_opening_then_nki_protects() {
    let t = example(
        "kiothi.pmn",
        "Kiothi: the opening redistribution, and a capture stopped by nki",
    );
    assert!(!t.plies[0].effect.nki_marked);
    assert!(t.plies[1].effect.nki_marked);
    let after_opening = t.position_after(2).unwrap();
    assert!(after_opening.is_nki(pit("b9")) && after_opening.is_nki(pit("a5")));
    // Ply 3 ends in South's empty a9 opposite the occupied nki b9: no capture.
    let ply3 = &t.plies[2];
    assert_eq!(ply3.effect.end, Some(pit("a9")));
    assert!(t.position_after(2).unwrap().stones(pit("a9")) == 0);
    assert_eq!(after_opening.stones(pit("b9")), 4);
    assert!(!ply3.effect.is_capture());
    assert_eq!(ply3.effect.prison_gain, 0);
    assert_eq!(t.last.as_ref().unwrap().stones(pit("b9")), 4);
}

#[test]
fn kiothi_leftmost_three_and_chain() {
    let t = example(
        "kiothi.pmn",
        "Kiothi: the leftmost capture takes three pits (leftmost=three)",
    );
    let e = &t.plies[0].effect;
    assert_eq!(e.end, Some(pit("b10")));
    assert_eq!(
        pits(&e.captured),
        owned(&[("a10", 3), ("a9", 4), ("a8", 2), ("b10", 1)])
    );
    assert_eq!(e.prison_gain, 10);

    let t = example(
        "kiothi.pmn",
        "Kiothi: the leftmost capture as a chain (leftmost=chain)",
    );
    let e = &t.plies[0].effect;
    assert_eq!(e.end, Some(pit("a1")));
    assert_eq!(
        pits(&e.captured),
        owned(&[("b1", 1), ("b2", 3), ("b3", 3), ("b4", 2), ("a1", 1)])
    );
    assert_eq!(e.nki_cleared, [pit("a5")]);
}

#[test]
fn bao_front_and_back_capture() {
    let t = example(
        "bao-la-kimasai.pmn",
        "Bao la Kimasai: a front and a back stone captured",
    );
    let e = &t.plies[0].effect;
    assert_eq!(e.end, Some(pit("b1")));
    assert_eq!(pits(&e.captured), owned(&[("c1", 1), ("d1", 1)]));
}

/// The `gen FILE ARGS...` lines of make.sh, with ARGS split as the shell would.
fn gen_lines() -> Vec<(String, Vec<String>, String)> {
    let script = read(&records().join("generated").join("make.sh"));
    let lines: Vec<_> = script
        .lines()
        .filter_map(|l| l.strip_prefix("gen "))
        .map(|rest| {
            let (file, args) = rest.split_once(' ').unwrap();
            let mut words = Vec::new();
            let mut word = String::new();
            let mut quoted = false;
            for ch in args.chars() {
                match ch {
                    '"' => quoted = !quoted,
                    ' ' if !quoted => {
                        if !word.is_empty() {
                            words.push(std::mem::take(&mut word));
                        }
                    }
                    _ => word.push(ch),
                }
            }
            words.push(word);
            (file.to_string(), words, args.to_string())
        })
        .collect();
    assert!(lines.len() >= 8, "make.sh has its gen lines");
    lines
}

#[test]
fn generated_files_are_what_their_commands_write() {
    let readme = read(&records().join("generated").join("README.md"));
    let mut files = 0;
    for (file, words, args) in gen_lines() {
        let listed = format!("sow generate {args} -o records/generated/{file} --force");
        assert!(readme.contains(&listed), "README.md lacks `{listed}`");
        let cli = Cli::try_parse_from(
            ["sow", "generate"]
                .into_iter()
                .map(String::from)
                .chain(words),
        )
        .unwrap_or_else(|e| panic!("{file}: {e}"));
        let Command::Generate(generate) = cli.command else {
            panic!("{file}: not a generate command")
        };
        let expected = sow::generate::run(&generate.options()).unwrap();
        expect::check_file(&format!("records/generated/{file}"), &expected);
        files += 1;
    }
    let on_disk = fs::read_dir(records().join("generated"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .and_then(|x| x.to_str())
                == Some("pmn")
        })
        .count();
    assert_eq!(
        files, on_disk,
        "every .pmn file of records/generated has a command"
    );
}

#[test]
fn generated_corpus_validates_without_problems() {
    let mut games = 0;
    for (file, _, _) in gen_lines() {
        let text = read(&records().join("generated").join(&file));
        for g in parse_str(&text) {
            let t = replay(&g, &ReplayOptions::validate());
            assert!(t.diagnostics.is_empty(), "{file}: {:?}", t.diagnostics);
            assert!(t.complete && t.outcome.is_some(), "{file}: finished");
            let source = g.record.tag("Source").unwrap_or("");
            assert!(source.starts_with("Generated by sow generate"), "{file}");
            games += 1;
        }
    }
    assert!(games >= 1000, "{games} games");
}
