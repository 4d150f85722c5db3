//! `sow convert`: round trips (PMN → JSON → PMN, PMN → relative → PMN, PMN → Ludii →
//! PMN) on the example records of tests/data/convert/ and on random games of every
//! option set, the `long` form as a snapshot, and games with errors.

use std::path::Path;

use assert_cmd::Command;
use sow::convert::{
    convert_game, read_ludii, read_relative, to_json, to_long, to_ludii, to_pmn, to_relative,
    Conversion, REST_NOTE,
};
use sow::moves::Effect;
use sow::pmn::{self, json::from_json, write_game};
use sow::replay::ReplayOptions;
use sow::rng::Rng;
use sow::{Board, Game, GameState, Position, Rules};

const DATA: &str = "tests/data/convert";

fn read(name: &str) -> String {
    std::fs::read_to_string(Path::new(DATA).join(name)).unwrap()
}

fn convert_all(text: &str) -> Vec<Conversion> {
    let options = ReplayOptions::full();
    pmn::parse_str(text)
        .iter()
        .enumerate()
        .map(|(i, g)| convert_game("test.pmn", i + 1, g, &options))
        .collect()
}

/// Every game of a text in the export form, one string per game.
fn export(text: &str) -> Vec<String> {
    convert_all(text).iter().map(to_pmn).collect()
}

/// A random game under a rule set, written as PMN text (tags as a user might write
/// them: the board and every option, even the defaults).
fn random_game(game: Game, board: Option<Board>, options: &str, seed: u64) -> String {
    let rules = Rules::new(game, board, options).unwrap();
    let mut state = GameState::new(rules.clone(), Position::initial(&rules));
    let mut rng = Rng::new(seed);
    let mut effect = Effect::default();
    let mut plies = Vec::new();
    while plies.len() < 120 {
        let Some(mv) = state.play_random(&mut rng, &mut effect) else {
            break;
        };
        plies.push(sow::generate::ply_text(&mv, &effect));
    }
    let result = state.outcome().map_or("*", |o| o.result_token());
    let mut text = format!(
        "[Game \"{game}\"]\n[Board \"{}\"]\n[Rules \"{options}\"]\n[Result \"{result}\"]\n\n",
        rules.board()
    );
    for (i, ply) in plies.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(ply);
        text.push(if i % 8 == 7 { '\n' } else { ' ' });
    }
    text.push_str(result);
    text.push('\n');
    text
}

/// Every option set of RULES.md's "All options" table, each value at least once.
fn option_sets() -> Vec<(Game, Option<Board>, &'static str)> {
    vec![
        (Game::Tsoro, None, ""),
        (Game::Tsoro, Board::new(4, 6), "heads=1 bonus=0"),
        (Game::Tsoro, Board::new(4, 8), "heads=0 bonus=1"),
        (
            Game::Tsoro,
            Board::new(4, 12),
            "heads=2 bonus=3 head-bonus=yes",
        ),
        (Game::Tsoro, Board::new(4, 15), "bonus=4 head-bonus=no"),
        (Game::Tsoro, Board::new(4, 18), "bonus=5,3,2 heads=1"),
        (Game::Nsolo, None, "bonus=equal sow=cw repeat=3"),
        (Game::Nsolo, Board::new(4, 12), "bonus=hole"),
        (
            Game::Nsolo,
            Board::new(4, 36),
            "bonus=none sow=ccw repeat=5",
        ),
        (Game::Kiothi, None, "start=5x6 leftmost=three"),
        (Game::Kiothi, None, "start=5x5 leftmost=chain"),
        (Game::Kiothi, None, "start=6x5"),
        (Game::BaoLaKimasai, None, "repeat=2"),
        (Game::BaoLaKimasai, None, "repeat=3"),
    ]
}

fn random_games() -> Vec<String> {
    option_sets()
        .into_iter()
        .enumerate()
        .map(|(i, (game, board, options))| random_game(game, board, options, 7 + i as u64))
        .collect()
}

/// The shipped corpus: every record under records/ (examples, generated, flawed).
fn shipped() -> Vec<String> {
    let (inputs, _) = sow::corpus::expand(&[Path::new(env!("CARGO_MANIFEST_DIR")).join("records")]);
    assert!(
        inputs.len() >= 30,
        "records/ should hold the shipped corpus"
    );
    inputs
        .iter()
        .map(|i| match i {
            sow::corpus::Input::File(p) => std::fs::read_to_string(p).unwrap(),
            sow::corpus::Input::Stdin => unreachable!(),
        })
        .collect()
}

/// The corpus of the round trips: the examples, the game with an error, random games of
/// every option set, and the shipped records.
fn corpus() -> Vec<String> {
    let mut texts = vec![read("examples.pmn"), read("illegal.pmn")];
    texts.extend(random_games());
    texts.extend(shipped());
    texts
}

#[test]
fn random_games_are_played() {
    // The round trips below are only worth something if the games have plies.
    for text in random_games() {
        let c = &convert_all(&text)[0];
        assert!(
            c.trace.plies.len() >= 2,
            "a random game of two plies or more:\n{text}"
        );
        assert!(
            c.rest.is_none(),
            "a random game replays to its end:\n{text}"
        );
    }
}

#[test]
fn the_examples_replay_as_examples_md_computed_them() {
    let conversions = convert_all(&read("examples.pmn"));
    let expected: Vec<String> = read("examples.expected")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(conversions.len(), expected.len());
    for (c, line) in conversions.iter().zip(&expected) {
        let mut fields = line.split('\t');
        let (event, after, effect) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        assert_eq!(c.record.tag("Event"), Some(event));
        assert!(c.rest.is_none(), "{event}: {:?}", c.trace.diagnostics);
        let ply = &c.trace.plies[0];
        assert_eq!(ply.after.as_ref().unwrap().to_string(), after, "{event}");
        let list = |l: &[(sow::Pit, u16)]| {
            if l.is_empty() {
                "none".to_string()
            } else {
                l.iter()
                    .map(|(p, n)| format!("{p} ({n})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let e = &ply.effect;
        assert!(
            effect.starts_with(&format!("{}; ", e.lap_count)),
            "{event}: {effect}"
        );
        if let Some(end) = e.end {
            assert!(
                effect.contains(&format!("ended in {end};")),
                "{event}: {effect}"
            );
        }
        assert!(
            effect.contains(&format!("captured: {};", list(&e.captured))),
            "{event}: {effect}"
        );
        assert!(
            effect.ends_with(&format!("bonus: {}", list(&e.bonus))),
            "{event}: {effect}"
        );
    }
}

#[test]
fn the_export_form_is_a_fixed_point() {
    for text in corpus() {
        for game in export(&text) {
            assert_eq!(export(&game), vec![game.clone()]);
        }
    }
}

#[test]
fn pmn_json_pmn_is_the_identity_on_the_export_form() {
    for text in corpus() {
        for game in export(&text) {
            for c in convert_all(&game) {
                for pretty in [true, false] {
                    let json = to_json(&c, pretty);
                    let record = from_json(&json).unwrap();
                    assert_eq!(write_game(&record), game, "{json}");
                }
            }
        }
    }
}

#[test]
fn the_command_line_reads_json_back() {
    for to in ["json", "jsonl"] {
        let json = Command::cargo_bin("sow")
            .unwrap()
            .args(["convert", "tests/data/convert/illegal.pmn", "--to", to])
            .output()
            .unwrap();
        assert!(json.status.success());
        let back = Command::cargo_bin("sow")
            .unwrap()
            .args(["convert", "-", "--from", "json", "--to", "pmn"])
            .write_stdin(json.stdout)
            .output()
            .unwrap();
        assert!(back.status.success(), "{back:?}");
        assert_eq!(
            String::from_utf8(back.stdout).unwrap(),
            export(&read("illegal.pmn")).join("\n")
        );
    }
}

#[test]
fn json_carries_each_plys_effect() {
    let c = &convert_all(&read("examples.pmn"))[0];
    let value: serde_json::Value = serde_json::from_str(&to_json(c, false)).unwrap();
    let ply = &value["replay"]["plies"][0];
    assert_eq!(ply["text"], "b2x");
    assert_eq!(ply["player"], "South");
    assert_eq!(ply["end"], "b1");
    assert_eq!(ply["captured"][0]["pit"], "c1");
    assert_eq!(ply["captured"][1]["pit"], "d1");
    assert_eq!(
        ply["after"],
        "0,1,1,1,1,1,1,1,1,1,1,1/0,1,1,1,1,1,1,1,1,1,1,0/1,0,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,1 N"
    );
    assert_eq!(value["source"]["game"], 1);
    assert_eq!(value["tags"][0]["name"], "Game");
}

#[test]
fn pmn_relative_pmn_is_the_identity_on_the_export_form() {
    let options = ReplayOptions::full();
    for text in corpus() {
        for game in export(&text) {
            for c in convert_all(&game) {
                let relative = to_relative(&c);
                // A game whose rules cannot be built has no seats to number from.
                assert_eq!(
                    relative.contains("[Numbering \"relative\"]"),
                    c.trace.rules.is_some(),
                    "{relative}"
                );
                let back: Vec<String> = read_relative(relative.as_bytes(), &options)
                    .iter()
                    .map(|g| to_pmn(&convert_game("test.pmn", 1, g, &options)))
                    .collect();
                assert_eq!(back, vec![game.clone()], "{relative}");
            }
        }
    }
}

#[test]
fn relative_numbers_are_seat_relative() {
    // Tsoro 4x12 heads=1, North to move: d3 is North's 10th pit (d12 is its 1st), and
    // South's a11 and b10 are 24+11 and 24+15.
    let text = read("illegal.pmn");
    let c = &convert_all(&text)[0];
    let relative = to_relative(c);
    assert!(relative.contains("1... 10x35,39 {legal}"), "{relative}");
}

#[test]
fn pmn_ludii_pmn_keeps_the_plies_tags_and_result() {
    let options = ReplayOptions::full();
    for (i, (game, board, rules)) in option_sets().into_iter().enumerate() {
        if !matches!(game, Game::Tsoro | Game::Nsolo) {
            continue;
        }
        let text = random_game(game, board, rules, 100 + i as u64);
        for exported in export(&text) {
            let c = &convert_all(&exported)[0];
            let ludii = to_ludii(c);
            assert!(ludii.starts_with("// Ludii move list: "), "{ludii}");
            let back: Vec<String> = read_ludii(&ludii, &options)
                .iter()
                .map(|g| to_pmn(&convert_game("test.pmn", 1, g, &options)))
                .collect();
            assert_eq!(back, vec![exported.clone()], "{ludii}");
        }
    }
}

#[test]
fn ludii_sites_are_row_major_from_souths_outer_left() {
    let c = &convert_all(&read("illegal.pmn"))[0];
    let ludii = to_ludii(c);
    // 4x12: d3 is 3*12+2 = 38; a11 is 10; b10 is 12+9 = 21.
    assert!(ludii.lines().any(|l| l == "38x10,21"), "{ludii}");
    assert!(ludii.contains("// [Game \"Tsoro\"]"), "{ludii}");
    // Games Ludii does not have here are named, not dropped silently.
    let k = &convert_all(&random_game(Game::Kiothi, None, "", 1))[0];
    assert!(to_ludii(k).contains("Kiothi has no Ludii numbering"));
}

#[test]
fn an_illegal_ply_keeps_the_rest_verbatim_in_comments() {
    let text = read("illegal.pmn");
    let c = &convert_all(&text)[0];
    let rest = c.rest.as_ref().expect("ply 2 is illegal");
    assert_eq!(rest.ply, 2);
    assert_eq!(
        rest.text,
        "2. c5 {not South's pit [%stones 1 2]} d1\n3. a1 (3. a2 $2)"
    );
    let out = to_pmn(c);
    assert!(
        out.contains(&format!("{{{REST_NOTE} 2: ")),
        "the note says where the replay stopped:\n{out}"
    );
    // Each line of the rest stands in a line comment, `[%` defused.
    assert!(
        out.contains(";2. c5 {not South's pit [ %stones 1 2]} d1\n;3. a1 (3. a2 $2)\n*"),
        "{out}"
    );
    // The converted game replays to its end, and converting it again changes nothing.
    let again = &convert_all(&out)[0];
    assert!(again.rest.is_none(), "{:?}", again.trace.diagnostics);
    assert_eq!(to_pmn(again), out);
    // The other forms keep it too.
    assert!(to_long(c).contains("  | 3. a1 (3. a2 $2)"));
    assert!(to_ludii(c).contains("//;3. a1 (3. a2 $2)"));
}

#[test]
fn a_game_whose_rules_cannot_be_built_keeps_its_text() {
    let text = "[Game \"Oware\"]\n[Board \"4x99\"]\n\n1. a3 d10 *\n";
    let c = &convert_all(text)[0];
    assert!(c.trace.rules.is_none());
    let out = to_pmn(c);
    assert!(
        out.contains("[Board \"4x99\"]"),
        "tags kept as written: {out}"
    );
    assert!(out.contains(";1. a3 d10"), "{out}");
}

#[test]
fn the_board_and_rules_tags_are_normalised() {
    let text = "[Game \"Nsolo\"]\n[Board \"4x8\"]\n[Rules \"repeat=5 sow=ccw bonus=equal\"]\n\n*\n\n[Game \"Tsoro\"]\n[Board \"4x12\"]\n[Rules \"bonus=2 heads=2\"]\n\n*\n";
    let out = export(text);
    assert_eq!(
        out[0],
        "[Game \"Nsolo\"]\n[Rules \"sow=ccw repeat=5\"]\n\n*\n"
    );
    assert_eq!(out[1], "[Game \"Tsoro\"]\n[Board \"4x12\"]\n\n*\n");
}

#[test]
fn the_long_form_spells_out_every_effect() {
    let long: String = convert_all(&read("examples.pmn"))
        .iter()
        .map(to_long)
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("long_examples", long);
}

#[test]
fn the_command_line_converts_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    Command::cargo_bin("sow")
        .unwrap()
        .args([
            "convert",
            "tests/data/convert/examples.pmn",
            "--to",
            "csv",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success();
    let csv = std::fs::read_to_string(&out).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("file,game,ply,player,from,lift,end,arrival,capture,bonus,text")
    );
    assert_eq!(
        lines.next(),
        Some("tests/data/convert/examples.pmn,1,1,South,b2,,b1,,c1:1 d1:1,,b2x")
    );
    Command::cargo_bin("sow")
        .unwrap()
        .args([
            "convert",
            "tests/data/convert/examples.pmn",
            "--to",
            "pmn",
            "-o",
        ])
        .arg(&out)
        .assert()
        .failure();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), csv);
}

#[test]
fn the_command_line_reads_relative_records_back() {
    let dir = tempfile::tempdir().unwrap();
    let rel = dir.path().join("games.rel.pmn");
    Command::cargo_bin("sow")
        .unwrap()
        .args([
            "convert",
            "tests/data/convert/examples.pmn",
            "--to",
            "relative",
            "-o",
        ])
        .arg(&rel)
        .assert()
        .success();
    let back = Command::cargo_bin("sow")
        .unwrap()
        .args(["convert", "--from", "relative", "--to", "pmn"])
        .arg(&rel)
        .output()
        .unwrap();
    assert!(back.status.success());
    let direct = export(&read("examples.pmn")).join("\n");
    assert_eq!(String::from_utf8(back.stdout).unwrap(), direct);
}
