//! `sow convert`: round trips (PMN → JSON → PMN, PMN → relative → PMN, PMN → Ludii →
//! PMN) on the example records of tests/data/convert/ and on random games of every
//! option set, the `long` form as a snapshot, and games with errors.

use std::path::Path;

use assert_cmd::Command;
use sow::convert::{
    convert_game, read_ludii, read_relative, to_compact_json, to_json, to_long, to_ludii, to_pmn,
    to_relative, Conversion, REST_NOTE,
};
use sow::moves::Effect;
use sow::pmn::{self, json::from_json, write_game};
use sow::replay::ReplayOptions;
use sow::rng::Rng;
use sow::{Board, Game, GameState, Position, Rules};

mod expect;

const DATA: &str = "tests/data/convert";

fn read(name: &str) -> String {
    std::fs::read_to_string(Path::new(DATA).join(name)).unwrap()
}

/// The places (`LINE:COLUMN`) `sow convert --from FROM --to pmn` names its games at on
/// standard error, for `text` in a file.
fn places_said(text: &str, from: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("input");
    std::fs::write(&file, text).unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["convert", "--from", from, "--to", "pmn"])
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let places: Vec<String> = (stderr.lines())
        .filter_map(|l| l.split(": game").next()?.rsplit_once("input:"))
        .map(|(_, place)| place.to_string())
        .collect();
    assert!(!places.is_empty(), "{stderr}");
    places
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
        plies.push(sow::notation::ply_of(&mv, &effect).to_string());
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
                for json in [to_json(&c, true), to_json(&c, false), to_compact_json(&c)] {
                    let record = from_json(&json).unwrap();
                    assert_eq!(write_game(&record), game, "{json}");
                }
            }
        }
    }
}

#[test]
fn the_command_line_reads_json_back() {
    // A game with errors is kept broken through JSON: the PMN made of it is the PMN made
    // of the record directly.
    let file = "tests/data/convert/illegal.pmn";
    let direct = sow(&["convert", file, "--to", "pmn", "--keep-broken"]);
    assert!(direct.status.success(), "{direct:?}");
    for to in [&["json"][..], &["jsonl"], &["jsonl", "--plies"]] {
        let mut args = vec!["convert", file, "--keep-broken", "--to"];
        args.extend(to);
        let json = sow(&args);
        assert!(json.status.success());
        let back = Command::cargo_bin("sow")
            .unwrap()
            .args([
                "convert",
                "-",
                "--from",
                "json",
                "--to",
                "pmn",
                "--keep-broken",
            ])
            .write_stdin(json.stdout)
            .output()
            .unwrap();
        assert!(back.status.success(), "{back:?}");
        assert_eq!(back.stdout, direct.stdout);
        // Left out without --keep-broken, and the run fails.
        let mut args = vec!["convert", file, "--to"];
        args.extend(to);
        let json = sow(&args);
        assert_eq!(json.status.code(), Some(1));
        let games: serde_json::Value = if to == ["json"] {
            serde_json::from_slice(&json.stdout).unwrap()
        } else {
            serde_json::Value::Array(vec![])
        };
        assert_eq!(games, serde_json::json!([]));
        assert!(json
            .stdout
            .iter()
            .all(|b| b.is_ascii_whitespace() || b"[]".contains(b)));
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
fn a_foul_accepted_goes_to_ludii_and_back() {
    // `[%foul]` is kept though the comments go, so the ply played under it replays
    // when the list is read back.
    let options = ReplayOptions::full();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("records/examples/tsoro.pmn"),
    )
    .unwrap();
    let games = convert_all(&text);
    let fouled: Vec<_> = games
        .iter()
        .filter(|c| c.trace.plies.iter().any(|p| p.foul))
        .collect();
    assert!(!fouled.is_empty(), "the examples hold a foul accepted");
    for c in fouled {
        let ludii = to_ludii(c);
        assert!(ludii.contains("\n//{[%foul]}\n"), "{ludii}");
        for game in read_ludii(&ludii, &options) {
            let back = convert_game("test.pmn", 1, &game, &options);
            assert!(
                back.rest.is_none() && back.trace.is_valid(),
                "{ludii}\n{:?}",
                back.trace.diagnostics
            );
            assert_eq!(back.trace.plies.len(), c.trace.plies.len());
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
    expect::snapshots();
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

#[test]
fn a_ludii_list_is_reported_at_its_own_lines_and_columns() {
    // Lines count from the file's start, not each game's first tag, and a ply's column
    // is that of the sites written, not of the pits they become.
    let game = "// Ludii move list: Tsoro on 4x12\n// [Game \"Tsoro\"]\n// [Board \"4x12\"]\n";
    let text = format!("{game}2\n37\n  14\n// end *\n\n{game}2\n   37\n   9q9\n// end *\n");
    let games = read_ludii(&text, &ReplayOptions::full());
    assert_eq!(games.len(), 2);
    // Game 1: `14` (b3), indented by two, is line 6, column 3; its tags are lines 2-3.
    let third = games[0].record.main_line().nth(2).unwrap().ply;
    assert_eq!((third.span.line, third.span.column), (6, 3));
    let board = &games[0].record.tags[1];
    assert_eq!((board.span.line, board.span.column), (3, 4));
    // Game 2: `37` (d2) is line 13, column 4; `9q9` is no site: line 14, column 4.
    let second = games[1].record.main_line().nth(1).unwrap().ply;
    assert_eq!((second.span.line, second.span.column), (13, 4));
    let problem = &games[1].problems[0];
    assert_eq!((problem.span.line, problem.span.column), (14, 4));
    assert!(problem.message.contains("9q9"), "{}", problem.message);
    // Said as what it is, not as a token the reader did not expect.
    let expected = "in ply `9q9`: `9q9` is no site of the 4x12 board (0-47)";
    assert_eq!(problem.message, expected);

    assert_eq!(places_said(&text, "ludii"), ["6:3", "14:4"]);
}

#[test]
fn a_ludii_list_loses_no_game_to_a_missing_header_or_separator() {
    // A game after `// end` or a blank line, with no header of its own, is not merged
    // into the game before; a line beginning with `[` (a tag written without `//`) loses
    // neither its game nor those after it up to the next header.
    let header = "// [Game \"Tsoro\"]\n// [Board \"4x8\"]\n";
    let text = format!(
        "{header}4-6\n// end 1-0\n27-25\n// end 0-1\n\n{header}4-6\n\n27-25\n\n[Game \"Tsoro\"]\n4-6\n// end *\n"
    );
    let games = read_ludii(&text, &ReplayOptions::full());
    let summary: Vec<(u32, String, Option<String>)> = games
        .iter()
        .map(|g| {
            let plies = g
                .record
                .main_line()
                .map(|p| p.ply.syntax.to_string())
                .collect();
            let result = g.record.result.map(|r| r.result.as_str().to_string());
            (g.line, plies, result)
        })
        .map(|(line, plies, result): (u32, Vec<String>, _)| (line, plies.join(" "), result))
        .collect();
    assert_eq!(
        summary,
        [
            (1, "a5-a7".into(), Some("1-0".into())),
            // No header, so no rules to read its sites by: `27-25` is not PMN.
            (5, String::new(), None),
            // A game without `// end` is given `*`.
            (8, "a5-a7".into(), Some("*".into())),
            (12, String::new(), None),
            // The tag line without `//` begins a PMN game, whose plies are not read.
            (14, String::new(), None),
        ]
    );
    // `// end` may be followed by any space, a tab too.
    let tabbed = format!("{header}4-6\n//\tend\t1-0\n");
    let result = read_ludii(&tabbed, &ReplayOptions::full())[0].record.result;
    assert_eq!(result.map(|r| r.result.as_str()), Some("1-0"));
    // The games without a header are reported, where they are: no game is lost.
    for (game, at, found) in [
        (1, (5, 1), "27-25"),
        (3, (12, 1), "27-25"),
        (4, (15, 1), "4-6"),
    ] {
        let problem = &games[game].problems[0];
        assert_eq!((problem.span.line, problem.span.column), at, "{problem:?}");
        assert!(problem.message.contains(found), "{}", problem.message);
    }
}

#[test]
fn a_ludii_list_in_latin1_keeps_its_bytes_and_is_warned_of() {
    // `ú` in Latin-1 (0xFA), after a UTF-8 byte-order mark: decoded as PMN files are, the
    // line holding it wholly as Latin-1 (its UTF-8 `é` too: two characters), and its
    // column counted in bytes.
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("latin1.txt");
    std::fs::write(
        &list,
        b"\xef\xbb\xbf// [Game \"Nsolo\"]\n// [South \"M\xc3\xa9pho Ndlov\xfa\"]\n",
    )
    .unwrap();
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["convert", "--from", "ludii", "--to", "pmn"])
        .arg(&list)
        .output()
        .unwrap();
    assert!(out.status.success());
    let pmn = String::from_utf8(out.stdout).unwrap();
    assert!(
        pmn.starts_with("[Game \"Nsolo\"]\n[South \"M\u{c3}\u{a9}pho Ndlov\u{fa}\"]\n"),
        "{pmn}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("latin1.txt:2:24: warning: byte 0xfa is not UTF-8"),
        "{stderr}"
    );
}

// Games the reader could not read whole: every byte of a game
// that its record does not hold ends up verbatim in comments, the output reads back to
// itself, and every output form carries the kept text.

/// The export form of each game of a text, each checked to read back to itself: its
/// conversion is a fixed point, and JSON takes it back to the same bytes.
fn export_checked(text: &str) -> Vec<String> {
    let games = export(text);
    for game in &games {
        assert_eq!(export(game), vec![game.clone()], "a fixed point:\n{game}");
        for c in convert_all(game) {
            for json in [to_json(&c, false), to_compact_json(&c)] {
                let record = from_json(&json).unwrap();
                assert_eq!(&write_game(&record), game);
            }
        }
    }
    games
}

/// The `n`-th game (from 1) of tests/data/convert/unread.pmn, as its text.
fn unread_game(n: usize) -> String {
    let text = read("unread.pmn");
    let games = pmn::parse_str(&text);
    games[n - 1].text.clone()
}

#[test]
fn a_syntax_error_keeps_the_rest_of_the_move_text_and_the_result() {
    // `1. b2x z9 *` keeps `z9 *`.
    let out = export_checked(&unread_game(1)).remove(0);
    assert!(
        out.contains(&format!("1. b2x\n{{{REST_NOTE} 2: in ply `z9`: row `z`")),
        "{out}"
    );
    assert!(out.ends_with("verbatim}\n;z9 *\n"), "{out}");
}

#[test]
fn an_unterminated_comment_keeps_the_rest_of_the_move_text() {
    let out = export_checked(&unread_game(2)).remove(0);
    // The note cannot hold a `}`, and does not turn it into a misleading `)`.
    assert!(
        out.contains(&format!(
            "{{{REST_NOTE} 2: this comment is not closed: expected a closing brace before"
        )),
        "{out}"
    );
    assert!(
        out.ends_with("\n;{the comment never closes c11x *\n"),
        "{out}"
    );
}

#[test]
fn a_bad_ply_in_mid_game_keeps_everything_after_it() {
    let out = export_checked(&unread_game(3)).remove(0);
    assert!(out.starts_with("[Game \"BaoLaKimasai\"]"), "{out}");
    assert!(out.contains("1. b2x {keep me} 1... c11x\n{"), "{out}");
    assert!(
        out.contains(&format!("{{{REST_NOTE} 3: in ply `q7`")),
        "{out}"
    );
    assert!(
        out.ends_with("\n;2. q7 {important note} b3x (2. b4) c10x $3 *\n"),
        "{out}"
    );
}

#[test]
fn text_after_the_result_is_kept_before_it() {
    let out = export_checked(&unread_game(4)).remove(0);
    assert!(
        out.contains("1. b2x c11x\n{sow convert: text after the result"),
        "{out}"
    );
    // `[%` defused, as in every verbatim text.
    assert!(
        out.ends_with("\n;trailing words here\n;more trailing [ %stones 1 2]\n*\n"),
        "{out}"
    );
    assert!(!out.contains(REST_NOTE), "every ply replayed: {out}");
}

#[test]
fn an_unreadable_tag_line_is_kept_and_the_moves_still_convert() {
    let text = unread_game(5);
    let c = &convert_all(&text)[0];
    assert!(c.rest.is_none(), "the moves replay: {:?}", c.rest);
    assert_eq!(c.trace.plies.len(), 2);
    let out = export_checked(&text).remove(0);
    assert!(out.contains("[Date \"1963.07.??\"]"), "{out}");
    assert!(
        out.contains("\n\n{sow convert: tag line not read: tag `[Site \"Mutoko` is not closed"),
        "{out}"
    );
    assert!(out.ends_with("\n;[Site \"Mutoko\n1. b2x c11x *\n"), "{out}");
}

#[test]
fn an_unreadable_last_tag_line_keeps_the_moves_it_hid() {
    // The reader resumes at the next tag line; there is none, so the moves were skipped.
    let text = unread_game(6);
    let c = &convert_all(&text)[0];
    assert_eq!(c.rest.as_ref().map(|r| r.ply), Some(1));
    let out = export_checked(&text).remove(0);
    assert!(
        out.contains(&format!("{{{REST_NOTE} 1: tag `[Site")),
        "{out}"
    );
    assert!(
        out.ends_with("\n;[Site \"Mutoko\n;\n;1. b2x c11x *\n"),
        "{out}"
    );
}

#[test]
fn prose_is_a_game_kept_verbatim() {
    let out = export_checked("just some prose { with a brace\n").remove(0);
    assert!(out.starts_with(&format!("{{{REST_NOTE} 1: ")), "{out}");
    assert!(
        out.ends_with("\n;just some prose { with a brace\n"),
        "{out}"
    );
}

#[test]
fn a_variation_the_reader_closed_is_kept_as_written() {
    // Writing the variation would add a `)` that the text never had.
    let text = "[Game \"BaoLaKimasai\"]\n\n1. b2x (1. b3 c10 *\n";
    let out = export_checked(text).remove(0);
    assert!(out.ends_with("\n;(1. b3 c10\n*\n"), "{out}");
    let text = "[Game \"BaoLaKimasai\"]\n\n1. b2x c11x (1... c10x (1... c9x)\n";
    let out = export_checked(text).remove(0);
    assert!(out.ends_with("\n;(1... c10x (1... c9x)\n"), "{out}");
}

fn sow(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("sow")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn every_output_form_carries_the_unread_text() {
    let file = "tests/data/convert/unread.pmn";
    let mid = "2. q7 {important note} b3x (2. b4) c10x $3 *";
    // Every game of the file but one (text after its result) has errors: kept broken.
    let run = |to: &str| {
        let out = sow(&["convert", file, "--to", to, "--keep-broken"]);
        let text = String::from_utf8(out.stdout).unwrap();
        // Only PMN, long text and CSV can hold a game the reader stopped in.
        let whole = ["pmn", "csv", "long"].contains(&to);
        assert_eq!(out.status.code(), Some(if whole { 0 } else { 1 }), "{text}");
        text
    };
    // PMN holds the broken games as written, so that they fail where they fail.
    let out = run("pmn");
    for kept in [
        format!(" {mid}\n"),
        "1. b2x z9 *\n".into(),
        ";more trailing [ %stones 1 2]\n".into(),
        "[Site \"Mutoko\n[Date".into(),
        "[Site \"Mutoko\n\n1. b2x c11x *\n".into(),
    ] {
        assert!(out.contains(&kept), "--to pmn: {kept:?} in\n{out}");
    }
    let out = run("relative");
    assert!(out.contains(";more trailing [ %stones 1 2]\n"), "{out}");
    assert!(!out.contains("z9") && !out.contains("q7"), "{out}");
    for to in ["json", "jsonl"] {
        let out = run(to);
        assert!(out.contains("more trailing [ %stones 1 2]"), "{out}");
        assert!(out.contains("\"not_read\""), "--to {to}: {out}");
        assert!(!out.contains("z9") && !out.contains("q7"), "{out}");
    }
    let csv = run("csv");
    for row in [
        format!("unread.pmn,3,3,,,,,,,,{mid}\n"),
        "unread.pmn,1,2,,,,,,,,z9 *\n".into(),
        "unread.pmn,4,,,,,,,,,\"trailing words here\nmore trailing [%stones 1 2]\"\n".into(),
        "unread.pmn,5,,,,,,,,,\"[Site \"\"Mutoko\"\n".into(),
    ] {
        assert!(csv.contains(&row), "{row:?} in\n{csv}");
    }
    let long = run("long");
    for kept in [
        format!("  | {mid}\n"),
        "  | z9 *\n".into(),
        "  | more trailing [%stones 1 2]\n".into(),
        "  | [Site \"Mutoko\n".into(),
    ] {
        assert!(long.contains(&kept), "{kept:?} in\n{long}");
    }
    // Ludii's list holds only the plies replayed: the game with `q7` is left out.
    let ludii = run("ludii");
    assert!(!ludii.contains("q7") && !ludii.contains("4-6"), "{ludii}");
}

#[test]
fn games_that_did_not_convert_whole_are_named_on_stderr() {
    let out = sow(&["convert", "tests/data/convert/unread.pmn", "--to", "pmn"]);
    assert_eq!(out.status.code(), Some(1), "games with errors are left out");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 7, "one line per game:\n{stderr}");
    let file = "tests/data/convert/unread.pmn";
    assert_eq!(
        lines[0],
        format!("sow: {file}:5:8: game 1: error[syntax]: in ply `z9`: row `z` does not exist; rows are a, b, c and d; left out (--keep-broken keeps it)")
    );
    assert!(
        lines[3].starts_with(&format!(
            "sow: {file}:23:15: game 4: text after the result not read (garbage-between-games"
        )),
        "{stderr}"
    );
    assert!(
        lines[4].starts_with(&format!(
            "sow: {file}:28:1: game 5: error[unterminated-tag]: "
        )),
        "{stderr}"
    );
    assert!(
        lines[6].starts_with(&format!(
            "sow: {file}:45:19: game 7: error[syntax]: in ply `q7`"
        )),
        "{stderr}"
    );
    // A game with errors is named at its first error; games that convert whole say
    // nothing.
    let out = sow(&["convert", "records/flawed/syntax.pmn", "--to", "json"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.starts_with("sow: records/flawed/syntax.pmn:6:8: game 1: error[syntax]: "),
        "{stderr}"
    );
    let out = sow(&["convert", "records/examples", "--to", "pmn"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "");
}

#[test]
fn an_input_that_is_not_json_fails_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "[\n  {\"tags\": [],\n  oops\n]\n").unwrap();
    let good = dir.path().join("good.json");
    let json = sow(&["convert", "tests/data/convert/examples.pmn", "--to", "json"]);
    std::fs::write(&good, json.stdout).unwrap();
    let out = dir.path().join("out.pmn");
    std::fs::write(&out, "kept\n").unwrap();
    let result = Command::cargo_bin("sow")
        .unwrap()
        .args(["convert", "--from", "json", "--to", "pmn", "--force", "-o"])
        .arg(&out)
        .arg(&good)
        .arg(&bad)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(2), "{result:?}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept\n");
    let stderr = String::from_utf8(result.stderr).unwrap();
    let at = format!("{}:3:3: not JSON records: ", bad.display());
    assert_eq!(
        stderr.matches(&at).count(),
        2,
        "every bad input named:\n{stderr}"
    );
    // Without -o, nothing goes to standard output either.
    let result = sow(&[
        "convert",
        "--from",
        "json",
        "--to",
        "pmn",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(result.status.code(), Some(2));
    assert!(result.stdout.is_empty());
}

#[test]
fn json_games_are_reported_at_their_records_and_numbered_as_records() {
    // A game's line and column are those of its record in the file, not of the PMN
    // text made of it, and an empty record is counted as a game.
    let record = |third: &str| {
        format!(
            r#"{{"tags":[{{"name":"Game","value":"Tsoro"}},{{"name":"Board","value":"4x12"}}],"moves":[{{"type":"ply","syntax":{{"form":"sowing","from":"a3"}}}},{{"type":"ply","syntax":{{"form":"sowing","from":"d3"}}}},{{"type":"ply","syntax":{{"form":"sowing","from":"{third}"}}}}],"result":{{"result":"*"}}}}"#
        )
    };
    let empty = r#"{"tags":[],"moves":[],"result":null}"#;
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("games.jsonl");
    std::fs::write(
        &lines,
        format!("{}\n{empty}\n{}\n", record("a4"), record("b10")),
    )
    .unwrap();
    // The same records in an array, the bad one indented on its line, after a UTF-8
    // byte-order mark (which editors write).
    let array = dir.path().join("games.json");
    let text = format!(
        "\u{feff}[\n{},\n{empty},\n  {}\n]\n",
        record("a4"),
        record("b10")
    );
    std::fs::write(&array, text).unwrap();
    for (file, place) in [(&lines, "3:1"), (&array, "4:3")] {
        let out = sow(&[
            "convert",
            "--from",
            "json",
            "--to",
            "csv",
            "--keep-broken",
            file.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{out:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        let expected = format!("{}:{place}: game 3: error[illegal-move]", file.display());
        assert!(stderr.contains(&expected), "{expected}\n{stderr}");
        let csv = String::from_utf8(out.stdout).unwrap();
        let games: Vec<&str> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap())
            .collect();
        // Game 3's third row holds its text not converted.
        assert_eq!(games, ["1", "1", "1", "3", "3", "3"], "{csv}");
    }
}

#[test]
fn what_reading_changed_of_the_text_is_warned_of() {
    // A Latin-1 file, or a NUL byte, is converted with the warning PMN.md asks for, as
    // validate gives it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("changed.pmn");
    std::fs::write(
        &file,
        b"[Game \"Tsoro\"]\n[Site \"Mutoko \xe9\"]\n\n1. a3 {a\0b} *\n",
    )
    .unwrap();
    let out = sow(&["convert", "--to", "pmn", file.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let name = file.display();
    assert!(
        stderr.contains(&format!("sow: {name}:2:15: warning[encoding]: byte 0xe9")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("sow: {name}:4:9: warning[nul-byte]")),
        "{stderr}"
    );
}

#[test]
fn a_second_board_or_rules_tag_is_kept_as_written() {
    // A second Board or Rules tag keeps its own value, whatever the first one's is.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dup.pmn");
    for (tags, kept) in [
        (
            "[Board \"4x8\"]\n[Rules \"bonus=1\"]\n[Rules \"bonus=3\"]\n[Board \"4x12\"]\n",
            "[Board \"4x8\"]\n[Rules \"bonus=1\"]\n[Rules \"bonus=3\"]\n[Board \"4x12\"]\n",
        ),
        // A duplicate tag is an error: the game is kept as written.
        (
            "[Board \"4x21\"]\n[Board \"4x8\"]\n",
            "[Board \"4x21\"]\n[Board \"4x8\"]\n",
        ),
        // Alone, the default is dropped.
        ("[Board \"4x21\"]\n", ""),
    ] {
        std::fs::write(&file, format!("[Game \"Tsoro\"]\n{tags}\n1. a5-a7 *\n")).unwrap();
        // The ply fails on the 4x12 board: the game is kept broken.
        let out = sow(&[
            "convert",
            "--to",
            "pmn",
            "--keep-broken",
            file.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{out:?}");
        let expected = format!("[Game \"Tsoro\"]\n{kept}\n1. a5-a7 *\n");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    }
}

#[test]
fn json_of_variations_nested_as_deep_as_pmn_allows_reads_back() {
    // serde_json's own bound on nesting (128 levels) would refuse sow's own JSON of a
    // record with variations nested 62 deep (PMN allows 256).
    let n = sow::pmn::parse::MAX_NESTING;
    let text = format!(
        "[Game \"Tsoro\"]\n[Board \"4x8\"]\n\n1. a5-a7 {}{} *\n",
        "(1. a1 ".repeat(n),
        ")".repeat(n)
    );
    let dir = tempfile::tempdir().unwrap();
    let (pmn_file, json_file) = (dir.path().join("deep.pmn"), dir.path().join("deep.json"));
    std::fs::write(&pmn_file, &text).unwrap();
    let json = sow(&["convert", "--to", "json", pmn_file.to_str().unwrap()]);
    assert!(json.status.success(), "{json:?}");
    std::fs::write(&json_file, &json.stdout).unwrap();
    let back = sow(&[
        "convert",
        "--from",
        "json",
        "--to",
        "pmn",
        json_file.to_str().unwrap(),
    ]);
    let direct = sow(&["convert", "--to", "pmn", pmn_file.to_str().unwrap()]);
    assert!(back.status.success(), "{back:?}");
    assert_eq!(back.stdout, direct.stdout);
    // Deeper JSON is refused before it is read, where it goes too deep.
    std::fs::write(&json_file, "[".repeat(100_000)).unwrap();
    let out = sow(&[
        "convert",
        "--from",
        "json",
        "--to",
        "pmn",
        json_file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("deep.json:1:577: not JSON records: nested more than 576 deep"),
        "{stderr}"
    );
}

#[test]
fn an_input_of_json_or_ludii_without_a_game_is_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    for (from, text) in [("json", ""), ("json", "[ ]\n"), ("ludii", "// nothing\n")] {
        let file = dir.path().join("none");
        std::fs::write(&file, text).unwrap();
        let out = sow(&[
            "convert",
            "--from",
            from,
            "--to",
            "pmn",
            file.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{out:?}");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            stderr,
            format!(
                "sow: {}: warning[empty-file]: the file holds no game\n",
                file.display()
            )
        );
    }
}

#[test]
fn an_input_that_cannot_be_opened_or_read_fails_the_run() {
    use sow::convert::{ConvertFrom, ConvertTo, Forms};
    use sow::corpus::{Filter, Input};
    let dir = tempfile::tempdir().unwrap();
    let good = Input::File(Path::new(DATA).join("examples.pmn"));
    let options = ReplayOptions::full();
    let run = |inputs: &[Input], from| {
        let mut out = Vec::new();
        let name = Path::new("<test>");
        sow::convert::run(
            inputs,
            &Filter::default(),
            &options,
            Forms {
                from: Some(from),
                to: ConvertTo::Pmn,
                keep_broken: false,
                positions: false,
                plies: false,
            },
            &mut out,
            name,
            &mut |_| {},
        )
    };
    assert!(run(std::slice::from_ref(&good), ConvertFrom::Pmn).is_ok());
    let missing = Input::File(dir.path().join("missing.pmn"));
    // A folder opens as a file on Unix, but reading it fails.
    let folder = Input::File(dir.path().to_path_buf());
    for from in [
        ConvertFrom::Pmn,
        ConvertFrom::Relative,
        ConvertFrom::Ludii,
        ConvertFrom::Json,
    ] {
        for bad in [&missing, &folder] {
            let inputs = [good.clone(), bad.clone()];
            assert!(run(&inputs, from).is_err(), "{from:?} {bad:?}");
        }
    }
}

#[test]
fn an_empty_file_is_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pmn");
    std::fs::write(&empty, "").unwrap();
    let empty = empty.to_str().unwrap();
    let out = sow(&["convert", empty, "--to", "json"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "[]\n");
    let alone = sow(&["convert", "tests/data/convert/examples.pmn", "--to", "pmn"]);
    for to in ["pmn", "relative", "long", "ludii"] {
        let out = sow(&[
            "convert",
            empty,
            "tests/data/convert/examples.pmn",
            "--to",
            to,
        ]);
        let alone = sow(&["convert", "tests/data/convert/examples.pmn", "--to", to]);
        assert!(out.status.success());
        assert_eq!(out.stdout, alone.stdout, "--to {to}: no stray game");
    }
    assert!(!alone.stdout.is_empty());
    // Text that reads as nothing because it broke at once is a game, and it is kept.
    let prose = dir.path().join("prose.pmn");
    std::fs::write(&prose, "  just some prose { with a brace\n").unwrap();
    let out = sow(&[
        "convert",
        prose.to_str().unwrap(),
        "--to",
        "pmn",
        "--keep-broken",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, "just some prose { with a brace\n");
}

/// Reader problems that leave text unread.
fn leaves_text_unread(code: pmn::Code) -> bool {
    use pmn::Code as P;
    matches!(
        code,
        P::Syntax
            | P::UnterminatedComment
            | P::UnterminatedTag
            | P::UnterminatedVariation
            | P::UnmatchedParen
            | P::BadEscape
            | P::NumberTooLarge
            | P::NestingTooDeep
            | P::GarbageBetweenGames
    )
}

#[test]
fn mutated_records_lose_no_text_in_conversion() {
    // Slips a transcriber might make, anywhere in the records: the text at every reader
    // problem that leaves text unread must reach the output, and the output must read
    // back to itself.
    const PIECES: &[&str] = &[
        "z9",
        "{",
        "}",
        "(",
        ")",
        "$",
        "$x",
        "1.",
        "99999999999.",
        "*",
        " * tail",
        "\n",
        "[Site \"x",
        "\"",
        "\\",
        "[%stones 1 2]",
        "a3!!!",
        ";",
        "é",
    ];
    let mut seeds = vec![
        read("unread.pmn"),
        read("examples.pmn"),
        read("illegal.pmn"),
    ];
    // The small records (examples, flawed): the generated files hold a hundred games
    // each, too many to convert hundreds of times.
    seeds.extend(shipped().into_iter().filter(|t| t.len() < 8_000));
    assert!(seeds.len() > 20);
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for round in 0..3000 {
        let mut text = seeds[round % seeds.len()].clone();
        for _ in 0..1 + rng.below(3) {
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.insert_str(at, PIECES[rng.below(PIECES.len())]);
        }
        for (i, game) in pmn::parse_str(&text).iter().enumerate() {
            let c = convert_game("m.pmn", i + 1, game, &ReplayOptions::full());
            let out = to_pmn(&c);
            let result = game.record.result.map(|r| r.span.start);
            for p in game.problems.iter().filter(|p| leaves_text_unread(p.code)) {
                let from = p.span.start - game.offset;
                let line_end = game.text[from..]
                    .find('\n')
                    .map_or(game.text.len(), |e| from + e);
                let until = match result {
                    Some(r) if r - game.offset > from => line_end.min(r - game.offset),
                    _ => line_end,
                };
                let kept = game.text[from..until].trim_end().replace("[%", "[ %");
                assert!(
                    out.contains(&kept),
                    "{:?} lost {kept:?}:\n{}\n---\n{out}",
                    p.code,
                    game.text
                );
                checked += 1;
            }
            assert_eq!(
                export(&out),
                vec![out.clone()],
                "a fixed point:\n{}",
                game.text
            );
        }
    }
    assert!(checked > 1500, "only {checked} problems checked");
}

#[test]
fn json_that_pmn_cannot_express_is_refused_not_cut_short() {
    // A tag value with a line break, or a comment with a closing brace, is refused:
    // written, it would lose the tags, plies and result after it.
    let dir = tempfile::tempdir().unwrap();
    let json = sow(&[
        "convert",
        "tests/data/convert/examples.pmn",
        "--to",
        "jsonl",
        "--plies",
    ]);
    let first = String::from_utf8(json.stdout)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let mut record: serde_json::Value = serde_json::from_str(&first).unwrap();
    for (i, broken) in ["tag", "comment"].into_iter().enumerate() {
        let mut r = record.clone();
        match broken {
            "tag" => r["tags"][0]["value"] = "Tsoro\nNsolo".into(),
            _ => {
                let moves = r["moves"].as_array_mut().unwrap();
                moves.insert(
                    1,
                    serde_json::json!({"type": "comment", "kind": "brace", "text": "a } b", "commands": []}),
                );
            }
        }
        let path = dir.path().join(format!("{i}.jsonl"));
        std::fs::write(&path, serde_json::to_string(&r).unwrap()).unwrap();
        let out = sow(&[
            "convert",
            "--from",
            "json",
            "--to",
            "pmn",
            path.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{broken}: {out:?}");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("record 1 cannot be written as PMN without loss"),
            "{stderr}"
        );
    }
    // The record as it was reads: the check refuses only what PMN cannot express.
    record["moves"].as_array_mut().unwrap().truncate(2);
    let path = dir.path().join("fine.jsonl");
    std::fs::write(&path, serde_json::to_string(&record).unwrap()).unwrap();
    let out = sow(&[
        "convert",
        "--from",
        "json",
        "--to",
        "pmn",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// The first line of `sow convert --to jsonl` of tests/data/convert/examples.pmn (its
/// first game: `1. b2x *`), as JSON.
fn first_default_line() -> serde_json::Value {
    let json = sow(&[
        "convert",
        "tests/data/convert/examples.pmn",
        "--to",
        "jsonl",
    ]);
    let text = String::from_utf8(json.stdout).unwrap();
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

/// `sow convert --from json --to pmn` (and `more` arguments) of a record written to a
/// file.
fn pmn_of_record(record: &serde_json::Value, more: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("record.jsonl");
    std::fs::write(&path, serde_json::to_string(record).unwrap()).unwrap();
    let mut args = vec!["convert", "--from", "json", "--to", "pmn"];
    args.extend(more);
    args.push(path.to_str().unwrap());
    sow(&args)
}

#[test]
fn a_movetext_that_is_not_one_game_with_its_tags_is_refused() {
    // A line's move text is PMN text read with its tags as one game: text that would
    // read as another game, other tags or another result is refused, not read as
    // something else; so is a record with both forms of move text, or neither.
    let record = first_default_line();
    let movetext = record["movetext"].as_str().unwrap().to_string();
    assert_eq!(movetext, "1. b2x *");
    type Edit<'a> = &'a dyn Fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 6] = [
        ("do not read back as one game", &|r| {
            r["movetext"] = format!("{movetext}\n[Game \"Tsoro\"]\n\n1. a3 *").into()
        }),
        ("do not read back as one game", &|r| {
            r["movetext"] = format!("[Site \"Mutoko\"]\n{movetext}").into()
        }),
        ("do not read back as one game", &|r| {
            r["tags"][1]["value"] = "Bao\nla Kimasai".into()
        }),
        ("its result (0-1) is not its movetext's (*)", &|r| {
            r["result"] = serde_json::json!({"result": "0-1"})
        }),
        ("both `moves` and `movetext`", &|r| {
            r["moves"] = serde_json::json!([])
        }),
        ("neither `moves` nor `movetext`", &|r| {
            r.as_object_mut().unwrap().remove("movetext");
        }),
    ];
    for (said, edit) in edits {
        let mut r = record.clone();
        edit(&mut r);
        let out = pmn_of_record(&r, &[]);
        assert_eq!(out.status.code(), Some(2), "{said}: {out:?}");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("record 1 cannot be read: "), "{stderr}");
        assert!(stderr.contains(said), "{said}: {stderr}");
    }
    // The record as it is reads, as does its move text without its result written
    // twice.
    for record in [record.clone(), {
        let mut r = record.clone();
        r.as_object_mut().unwrap().remove("result");
        r
    }] {
        let out = pmn_of_record(&record, &[]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.ends_with("\n\n1. b2x *\n"), "{text}");
    }
}

#[test]
fn a_movetext_the_reader_stops_in_is_a_game_with_errors_kept_as_written() {
    // The move text is read as any PMN game's: what the reader cannot read is the game's
    // error, named at its record, and --keep-broken keeps the text as written.
    let mut record = first_default_line();
    record["movetext"] = "1. b2x {a comment never closed *".into();
    let out = pmn_of_record(&record, &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("record.jsonl:1:1: game 1: error["),
        "{stderr}"
    );
    let out = pmn_of_record(&record, &["--keep-broken"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("\n\n1. b2x {a comment never closed *\n"),
        "{text}"
    );
    // The library's reader of one record refuses it.
    let line = serde_json::to_string(&record).unwrap();
    let error = from_json(&line).unwrap_err().to_string();
    assert!(
        error.contains("its movetext does not read as PMN"),
        "{error}"
    );
}

#[test]
fn a_run_whose_last_input_fails_writes_nothing_though_it_streams() {
    // The games are written as they are converted; a failure after some of them must
    // still leave nothing: no output file, no temporary file, nothing on standard output.
    // The input that fails is standard input read from a folder: it opens, and fails
    // only when read, once the good file's games are converted. PMN and relative
    // numbering both stream.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let other = tempfile::tempdir().unwrap();
    let relative = other.path().join("examples.rel.pmn");
    let pmn = format!("{DATA}/examples.pmn");
    let to_relative = sow(&["convert", "--to", "relative", &pmn]);
    std::fs::write(&relative, to_relative.stdout).unwrap();
    let relative = relative.to_str().unwrap().to_string();
    for (from, good) in [("pmn", &pmn), ("relative", &relative)] {
        let run_failing = |args: &[&str]| {
            let folder = std::fs::File::open(dir.path()).unwrap();
            std::process::Command::new(env!("CARGO_BIN_EXE_sow"))
                .args(["convert", "--from", from])
                .args(args)
                .args([good.as_str(), "-"])
                .stdin(folder)
                .output()
                .unwrap()
        };
        for to in ["pmn", "json", "csv"] {
            let case = format!("--from {from} --to {to}");
            let run = run_failing(&["--to", to]);
            assert_eq!(run.status.code(), Some(2), "{case}: {run:?}");
            assert!(
                run.stdout.is_empty(),
                "{case}: something on standard output"
            );
            // The failure and the count of failures: nothing of the games of an input
            // that failed ("not converted ..."), though they were read.
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert_eq!(stderr.lines().count(), 2, "{case}: {stderr}");
            let run = run_failing(&["--to", to, "-o", out.to_str().unwrap()]);
            assert_eq!(run.status.code(), Some(2), "{case}: {run:?}");
            let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
            assert!(left.is_empty(), "{case}: {left:?} left behind");
            // The same run without the failing input writes the file, as standard output.
            let whole = sow(&["convert", "--from", from, "--to", to, good]);
            assert!(whole.status.success());
            let o = out.to_str().unwrap();
            let run = sow(&["convert", "--from", from, "--to", to, "-o", o, good]);
            assert!(run.status.success(), "{run:?}");
            assert_eq!(std::fs::read(&out).unwrap(), whole.stdout);
            std::fs::remove_file(&out).unwrap();
        }
    }
}

#[test]
fn standard_output_needs_no_temporary_folder() {
    // The output is held in memory until it passes 8 MB: a missing temporary folder
    // changes nothing for a small conversion.
    let file = format!("{DATA}/examples.pmn");
    let plain = sow(&["convert", "--to", "jsonl", &file]);
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["convert", "--to", "jsonl", &file])
        .env("TMPDIR", "/nonexistent/sow-test")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(out.stdout, plain.stdout);
}

#[test]
fn standard_output_past_its_memory_stays_in_memory_without_a_temporary_folder() {
    // Past 8 MiB the held output goes to a temporary file; where none can be made, it
    // stays in memory, and the run succeeds with every byte.
    let file = "records/generated/bao-la-kimasai-greedy.pmn";
    let args = ["convert", "--to", "jsonl", "--positions", file];
    let plain = sow(&args);
    assert!(plain.stdout.len() > 8 << 20, "{} bytes", plain.stdout.len());
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(args)
        .env("TMPDIR", "/nonexistent/sow-test")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout == plain.stdout, "the output differs");
}

#[test]
fn a_stray_closing_brace_in_relative_numbering_is_read_not_looped_on() {
    // `}` outside a comment is read once, not as a token of no characters read again
    // forever. The rewrite runs on a thread with a deadline, so that a loop fails here
    // rather than hangs the test run.
    let text = "[Game \"Tsoro\"]\n[Numbering \"relative\"]\n\n1. 5-7 } 1... 5-7 *\n";
    let (sent, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let games = read_relative(text.as_bytes(), &ReplayOptions::full());
        let _ = sent.send(games);
    });
    let games = received
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("reading relative numbering ended");
    assert_eq!(games.len(), 1);
    // The reader reports the stray brace where it is written, as in any PMN text.
    let problem = &games[0].problems[0];
    assert_eq!(problem.code, pmn::Code::Syntax);
    assert_eq!((problem.span.line, problem.span.column), (4, 8));
    assert!(problem.message.contains('}'), "{}", problem.message);
}

#[test]
fn relative_numbering_is_reported_at_the_line_and_column_written() {
    // A problem's column is the text's as written, not the rewritten text's, whose
    // pits are longer than the numbers (`3` is `a3`); lines count from the file's start.
    let game = "[Game \"Tsoro\"]\n[Board \"4x12\"]\n[Numbering \"relative\"]\n\n";
    let text = format!("{game}1. 3 10 2. 15 10 *\n\n{game}1. 3 10 2. 1q5 10 *\n");
    let games = read_relative(text.as_bytes(), &ReplayOptions::full());
    assert_eq!(games.len(), 2);
    // Game 1 reads; its third ply, `15` (South's b10, empty), is column 12 of line 5.
    assert!(games[0].problems.is_empty(), "{:?}", games[0].problems);
    let third = games[0].record.main_line().nth(2).unwrap().ply;
    assert_eq!((third.span.line, third.span.column), (5, 12));
    // Game 2's `1q5` is no number: the reader reports it on line 11, column 12.
    let problem = &games[1].problems[0];
    assert_eq!(problem.code, pmn::Code::Syntax);
    assert_eq!((problem.span.line, problem.span.column), (11, 12));
    assert!(problem.message.contains("1q5"), "{}", problem.message);
    // Said as what it is, not as a token the reader did not expect.
    let expected = "in ply `1q5`: `1q5` names no pit: numbers here are 1-24 (the player's own pits) and 25-48 (the opponent's)";
    assert_eq!(problem.message, expected);

    assert_eq!(places_said(&text, "relative"), ["5:12", "11:12"]);
}

#[test]
fn relative_numbering_keeps_the_decodings_warnings() {
    // The rewritten text is read again as UTF-8, and the Latin-1 warning of the text
    // read stays.
    let text = b"[Game \"Tsoro\"]\n[Numbering \"relative\"]\n[Site \"Mutoko \xe9\"]\n\n1. 3 *\n";
    let games = read_relative(text, &ReplayOptions::full());
    let codes: Vec<_> = games[0].problems.iter().map(|p| p.code).collect();
    assert_eq!(codes, [pmn::Code::Encoding]);
    assert_eq!(games[0].record.tag("Site"), Some("Mutoko \u{e9}"));
}

/// `sow convert ARGS`, its standard output and standard error; it must succeed.
fn convert_ok(args: &[&str]) -> (String, String) {
    let out = sow(&[&["convert"], args].concat());
    assert!(out.status.success(), "{out:?}");
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (text(out.stdout), text(out.stderr))
}

#[test]
fn a_folder_is_walked_for_the_files_of_the_from_form() {
    // A folder is walked for the files of `--from`'s form, not `*.pmn` whatever it says.
    let dir = tempfile::tempdir().unwrap();
    let (json, ludii, pmn) = (
        dir.path().join("json"),
        dir.path().join("ludii"),
        dir.path().join("pmn"),
    );
    let example = "tests/data/convert/examples.pmn";
    let mut written = Vec::new();
    for (folder, to, name) in [
        (&json, "json", "a.json"),
        (&json, "jsonl", "b.jsonl"),
        (&ludii, "ludii", "a.ludii"),
        (&pmn, "relative", "a.pmn"),
    ] {
        std::fs::create_dir_all(folder).unwrap();
        let out = folder.join(name);
        convert_ok(&["--to", to, example, "-o", out.to_str().unwrap()]);
        written.push(out);
        // A file of another form beside them is not read.
        std::fs::write(folder.join("notes.txt"), "not a record\n").unwrap();
    }
    let path = |p: &Path| p.to_str().unwrap().to_string();
    for (from, folder, files) in [
        ("json", &json, &written[0..2]),
        ("ludii", &ludii, &written[2..3]),
        ("relative", &pmn, &written[3..4]),
    ] {
        let named: Vec<String> = files.iter().map(|f| path(f)).collect();
        let named: Vec<&str> = named.iter().map(String::as_str).collect();
        let args = ["--from", from, "--to", "pmn"];
        let by_name = convert_ok(&[&args[..], &named].concat());
        assert!(by_name.0.contains("[Game \"Tsoro\"]"), "{by_name:?}");
        let walked = convert_ok(&[&args[..], &[path(folder).as_str()]].concat());
        assert_eq!(walked, by_name, "--from {from}");
    }
    let expected = export(&read("examples.pmn")).join("\n");
    assert_eq!(
        convert_ok(&["--from", "relative", "--to", "pmn", &path(&pmn)]).0,
        expected
    );
    // A file named is read whatever its extension.
    let named = dir.path().join("games.txt");
    std::fs::copy(json.join("a.json"), &named).unwrap();
    let (stdout, _) = convert_ok(&["--from", "json", "--to", "pmn", named.to_str().unwrap()]);
    assert_eq!(stdout, expected);
}

#[test]
fn a_folder_without_a_file_of_the_from_form_is_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.pmn"), read("examples.pmn")).unwrap();
    let folder = dir.path().to_str().unwrap();
    let (stdout, stderr) = convert_ok(&["--from", "json", "--to", "pmn", folder]);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        format!("sow: {folder}: no *.json or *.jsonl file in this folder or below it (1 file of another kind not read); nothing read from it\n")
    );
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (_, stderr) = convert_ok(&["--from", "ludii", "--to", "pmn", empty.to_str().unwrap()]);
    assert_eq!(
        stderr,
        format!(
            "sow: {}: no *.ludii file in this folder or below it; nothing read from it\n",
            empty.display()
        )
    );
}

#[test]
fn a_numbering_tag_of_the_transcribers_survives_relative_numbering() {
    // A transcriber's Numbering tag (how the source numbered its holes) survives: `--to
    // relative` adds its own mark beside it, and `--from relative` drops only the mark.
    let dir = tempfile::tempdir().unwrap();
    let (pmn, rel) = (dir.path().join("a.pmn"), dir.path().join("a.rel.pmn"));
    let note = "[Numbering \"holes 1-32 from the north-west corner, as in the notebook\"]\n";
    let tags = "[Game \"Tsoro\"]\n[Board \"4x8\"]\n[Result \"*\"]\n";
    let absolute = format!("{tags}{note}\n1. a5-a7 d4-d2 *\n");
    std::fs::write(&pmn, &absolute).unwrap();
    let (relative, _) = convert_ok(&["--to", "relative", pmn.to_str().unwrap()]);
    assert_eq!(
        relative,
        format!("{tags}[Numbering \"relative\"]\n{note}\n1. 5-7 5-7 *\n")
    );
    std::fs::write(&rel, &relative).unwrap();
    let rel = rel.to_str().unwrap();
    assert_eq!(
        convert_ok(&["--from", "relative", "--to", "pmn", rel]).0,
        absolute
    );
    assert_eq!(
        convert_ok(&["--from", "relative", "--to", "relative", rel]).0,
        relative
    );
    // Written before the mark, in a record of relative numbers: kept, the mark dropped.
    std::fs::write(
        &pmn,
        format!("{tags}{note}[Numbering \"Relative\"]\n\n1. 5-7 5-7 *\n"),
    )
    .unwrap();
    let (back, stderr) = convert_ok(&["--from", "relative", "--to", "pmn", pmn.to_str().unwrap()]);
    assert_eq!((back.as_str(), stderr.as_str()), (absolute.as_str(), ""));
}
