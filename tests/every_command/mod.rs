//! One input through the library path of every command, as the fuzzers drive it
//! (`tests/pmn_fuzz.rs` and `fuzz/fuzz_targets/commands.rs`): validate (both formats,
//! with repairs and rules inference now and then), stats, plot, convert to each form,
//! show, view, repair, generate's reading of a record's Game, Board and Rules tags,
//! search, tree, twins, diff, and the database (`convert --to sqlite`, then a search of
//! it).
//!
//! What must hold: no panic; no hang (each replay bounded by a small lap budget and each
//! repair search by its plies); every JSON output line parses; games that `generate`
//! plays from a record's tags read back and replay without an error. The commands take
//! turns, one an input.

use std::path::Path;

use sow::convert::{ConvertTo, Forms};
use sow::corpus::{Filter, Input};
use sow::plot::{PlotKind, Style};
use sow::repair::RepairOptions;
use sow::replay::{replay, ReplayOptions};
use sow::search::{Format, Query, Search};
use sow::show::{show, ShowFormat};
use sow::stats::Per;
use sow::tree::{TreeFormat, TreeOptions};
use sow::twins::{Keep, TwinOptions};

/// The lap budget of every replay: small, so that a mutated sowing that runs long is
/// undecided quickly.
pub const MAX_LAPS: u64 = 20_000;

/// The bound of every repair search, in plies replayed.
pub const REPAIR_PLIES: u64 = 2_000;

const FORMS: [ConvertTo; 7] = [
    ConvertTo::Pmn,
    ConvertTo::Json,
    ConvertTo::Jsonl,
    ConvertTo::Csv,
    ConvertTo::Long,
    ConvertTo::Relative,
    ConvertTo::Ludii,
];

const KINDS: [PlotKind; 4] = [
    PlotKind::Material,
    PlotKind::Length,
    PlotKind::Laps,
    PlotKind::Captures,
];

/// Each line of `out` that is not blank is JSON.
fn json_lines(what: &str, out: &[u8]) {
    let text = std::str::from_utf8(out).unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"));
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Err(e) = serde_json::from_str::<serde_json::Value>(line) {
            panic!("{what}: {e}: {line}");
        }
    }
}

/// The commands, one a run in turn (see [`check`]).
pub const COMMANDS: usize = 14;

/// Runs `bytes`, written to the file `path`, through one command's library path: the
/// commands take turns by `round` (validate in each format, stats, plot, convert, view,
/// show, repair, generate, search, tree, twins, diff, database), so that a long run gives
/// each its share; `round` also picks
/// what varies from turn to turn (the convert form, the plot kind, the show format) and
/// turns the costlier searches on now and then.
pub fn check(bytes: &[u8], path: &Path, round: usize) {
    let (command, turn) = (round % COMMANDS, round / COMMANDS);
    let inputs = [Input::File(path.to_path_buf())];
    if !(6..=8).contains(&command) {
        std::fs::write(path, bytes).unwrap();
    }
    let filter = Filter::default();
    let replay_options = ReplayOptions {
        max_laps: Some(MAX_LAPS),
        ..ReplayOptions::full()
    };
    let bounds = RepairOptions {
        plies: REPAIR_PLIES,
        ..RepairOptions::default()
    };
    let lean = ReplayOptions {
        max_laps: Some(MAX_LAPS),
        ..ReplayOptions::validate()
    };
    let mut notes = |_: String| {};
    match command {
        // validate, in each format; the JSON one line a diagnostic or game.
        0 | 1 => {
            let settings = sow::validate::Settings {
                replay: lean,
                suggest: turn % 5 == 3,
                infer_rules: turn % 5 == 4,
                repair: bounds,
                ..Default::default()
            };
            let format = match command {
                0 => sow::validate::Format::Human {
                    color: turn % 2 == 0,
                },
                _ => sow::validate::Format::Json,
            };
            let mut out = Vec::new();
            let summary =
                sow::validate::run(&inputs, &[], &settings, format, &mut out, &mut |_| {}).unwrap();
            if format == sow::validate::Format::Json {
                json_lines("validate --format json", &out);
                let objects = out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
                assert!(objects >= summary.games, "fewer objects than games");
            }
        }
        // stats, per ply and per game: a failure is the command's report, not a panic.
        2 => {
            let per = [Per::Game, Per::Ply][turn % 2];
            let mut out = Vec::new();
            let _ = sow::stats::write_stats(
                &inputs,
                &filter,
                &replay_options,
                per,
                &mut out,
                &mut notes,
            );
        }
        // plot, one kind a turn.
        3 => {
            let style = Style {
                width_mm: 84.0,
                height_mm: Some(56.0),
                title: None,
                every: turn % 3 == 0,
            };
            let kind = KINDS[turn % KINDS.len()];
            let _ = sow::plot::run(&inputs, &filter, &replay_options, kind, &style, &mut notes);
        }
        // convert, one form a turn, from the form the content tells.
        4 => {
            let to = FORMS[turn % FORMS.len()];
            let forms = Forms {
                from: None,
                to,
                keep_broken: turn / FORMS.len() % 2 == 1,
                positions: turn % 2 == 0,
                plies: turn % 3 == 0,
            };
            let mut out = Vec::new();
            let converted = sow::convert::run(
                &inputs,
                &filter,
                &replay_options,
                forms,
                &mut out,
                Path::new("out"),
                &mut notes,
            );
            match to {
                _ if converted.is_err() => {}
                ConvertTo::Jsonl => json_lines("convert --to jsonl", &out),
                ConvertTo::Json if !out.is_empty() => {
                    if let Err(e) = serde_json::from_slice::<serde_json::Value>(&out) {
                        panic!("convert --to json: {e}: {}", String::from_utf8_lossy(&out));
                    }
                }
                _ => {}
            }
        }
        // view, searching repairs (within validate's default bounds, not the small ones
        // above) one turn in fifty.
        5 => {
            let mut out = Vec::new();
            // Variations past a small bound of replay are shown, not replayed.
            let page = sow::view::PageOptions {
                suggest: turn % 50 == 2,
                variation_plies: 200,
                variation_text: 4096,
            };
            let _ = sow::view::write_view(
                &inputs,
                &filter,
                &replay_options,
                &page,
                &mut out,
                &mut notes,
            );
        }
        // show: the first and the last game, at their end, their start and a ply.
        6 => {
            let games = sow::pmn::parse_bytes(bytes);
            let format = [ShowFormat::Text, ShowFormat::Pmn, ShowFormat::Svg][turn % 3];
            let mut shown = games.iter().enumerate().take(1).collect::<Vec<_>>();
            shown.extend(games.iter().enumerate().skip(1).last());
            for (i, game) in shown {
                for ply in [None, Some(0), Some(turn % 7)] {
                    let _ = show("m.pmn", i + 1, game, ply, format, &replay_options);
                }
            }
        }
        // repair, of a UTF-8 record.
        7 => {
            if let Ok(text) = std::str::from_utf8(bytes) {
                let _ = sow::repair::repair_text(text, &[], &lean, &bounds);
            }
        }
        // generate, under the first game's tags: what it plays reads back and replays.
        8 => generate_under_the_tags(bytes, turn),
        // search, one kind of criterion a turn, in each format.
        9 => {
            let query = query(turn);
            let format = [Format::Pmn, Format::Json][turn % 2];
            let search = Search {
                filter: &filter,
                wheres: &[],
                query: &query,
                replay: &replay_options,
                format,
            };
            let mut out = Vec::new();
            let found = sow::search::run(&inputs, &search, &mut out, Path::new("out"), &mut notes);
            if found.is_ok() && format == Format::Json {
                json_lines("search --format json", &out);
            }
        }
        // tree, of a depth that varies, in each form.
        10 => {
            let options = TreeOptions {
                depth: 1 + turn % TreeOptions::DEPTH,
                min_games: 1,
                from: None,
                replay: replay_options.clone(),
            };
            if let Ok(forest) = sow::tree::build(&inputs, &filter, &options) {
                let _ = sow::tree::notes(&forest);
                for format in [TreeFormat::Text, TreeFormat::Csv, TreeFormat::Html] {
                    sow::tree::write(&forest, &options, format, &mut Vec::new()).unwrap();
                }
            }
        }
        // twins, with small bounds so that short games are compared too.
        11 => {
            let options = TwinOptions {
                max_diff: 1,
                min_plies: 3,
                keep: [Keep::Longest, Keep::Valid, Keep::First][turn % 3],
                replay: ReplayOptions {
                    diagnostics_only: true,
                    ..replay_options.clone()
                },
            };
            if let Ok(twins) = sow::twins::find(&inputs, &filter, &options) {
                let marked = turn % 2 == 0;
                sow::twins::write_human(&twins, marked, &mut Vec::new()).unwrap();
                let mut out = Vec::new();
                sow::twins::write_json(&twins, marked, &mut out).unwrap();
                json_lines("twins --format json", &out);
            }
        }
        // diff of the first game and the second (or the first again).
        12 => {
            let input = &inputs[0];
            let a = sow::diff::game_of(input, 1, None);
            let (b, k) = match sow::diff::game_of(input, 2, None) {
                Ok(b) => (Ok(b), 2),
                Err(_) => (sow::diff::game_of(input, 1, None), 1),
            };
            if let (Ok(a), Ok(b)) = (a, b) {
                let c = sow::diff::compare(("a", 1, &a), ("b", k, &b), &replay_options);
                sow::diff::write_human(&c, &mut Vec::new()).unwrap();
                let mut out = Vec::new();
                sow::diff::write_json(&c, &mut out).unwrap();
                json_lines("diff --format json", &out);
            }
        }
        // the database, then a search of it.
        _ => {
            let db = path.with_extension("sqlite");
            let written =
                sow::database::write(&inputs, &filter, &replay_options, &db, true, &mut notes);
            if written.is_ok() {
                let query = query(turn);
                let search = Search {
                    filter: &filter,
                    wheres: &[],
                    query: &query,
                    replay: &replay_options,
                    format: Format::Json,
                };
                let mut out = Vec::new();
                let db_input = [Input::File(db.clone())];
                if sow::search::run(&db_input, &search, &mut out, Path::new("out"), &mut notes)
                    .is_ok()
                {
                    json_lines("search of the database", &out);
                }
            }
            let _ = std::fs::remove_file(&db);
        }
    }
}

/// A search's criteria, one kind a turn.
fn query(turn: usize) -> Query {
    match turn % 5 {
        0 => Query {
            relay: Some(2),
            ..Query::default()
        },
        1 => Query {
            capture: Some(1),
            bonus: true,
            ..Query::default()
        },
        2 => Query::default().with_plies(Some("a3"), Some("b1 c2")),
        3 => Query {
            repetition: true,
            foul: true,
            ..Query::default()
        },
        _ => Query {
            error: Some("illegal-move".into()),
            ..Query::default()
        },
    }
}

/// `generate` with the Game, Board and Rules tags of the first game of `bytes`: a game it
/// plays reads back as one game that replays without an error.
fn generate_under_the_tags(bytes: &[u8], turn: usize) {
    let games = sow::pmn::parse_bytes(bytes);
    let Some(game) = games.first() else {
        return;
    };
    let tag = |name: &str| game.record.tag(name).map(str::to_string);
    let options = sow::generate::GenerateOptions {
        game: tag("Game").unwrap_or_default(),
        board: tag("Board"),
        rules: tag("Rules").unwrap_or_default(),
        games: 1,
        seed: turn as u64,
        player: sow::generate::Player::Random,
        max_plies: 40,
    };
    let Ok(rules) = sow::generate::rules_of(&options) else {
        return;
    };
    let mut out = Vec::new();
    sow::generate::write_games(&options, &rules, &mut out, Path::new("out")).unwrap();
    let again = sow::pmn::parse_bytes(&out);
    assert_eq!(again.len(), 1, "{}", String::from_utf8_lossy(&out));
    let trace = replay(&again[0], &ReplayOptions::validate());
    assert!(
        trace.is_valid(),
        "generated under {:?} {:?} {:?}: {:?}\n{}",
        options.game,
        options.board,
        options.rules,
        trace.first_error(),
        String::from_utf8_lossy(&out)
    );
}
