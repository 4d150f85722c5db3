//! A replay from the reader's events (`Replayer::replay_text`, no syntax tree) against
//! the replay of the parsed record: every game must give the same trace, diagnostics
//! and all. Checked on the shipped records, on generated games of every configuration
//! the benchmark corpus has, and on those games mutated at random (a mutation mostly
//! gives a game with something to report).

use std::io::Cursor;
use std::path::Path;

use sow::generate::{play_game, record, Player};
use sow::pmn::{GameText, Reader};
use sow::replay::{replay, ReplayOptions, Replayer, Trace};
use sow::rng::Rng;
use sow::{Board, Game, Rules};

/// The game texts of a file's bytes, as validation reads them.
fn texts(bytes: &[u8]) -> Vec<GameText> {
    let mut reader = Reader::new(Cursor::new(bytes.to_vec()));
    std::iter::from_fn(|| reader.next_text()).collect()
}

/// What the replay from the text and the replay of the parsed record say of one game,
/// compared, for validation and with every ply kept. Returns whether the game had
/// nothing to report.
fn compare(text: &GameText, what: &str) -> bool {
    let mut valid = true;
    for options in [ReplayOptions::validate(), ReplayOptions::full()] {
        valid &= compare_with(text, what, &options);
    }
    valid
}

fn compare_with(text: &GameText, what: &str, options: &ReplayOptions) -> bool {
    let full = replay(&text.clone().parse(), options);
    let Some((record, events)) = Replayer::new().replay_text(text, options, &|_| true) else {
        assert!(!text.is_game(), "{what}: a game not replayed from its text");
        return false;
    };
    assert_eq!(record.tags, text.clone().parse().record.tags, "{what}");
    let shown = |t: &Trace| {
        format!(
            "plies {} played {} declared {:?} outcome {:?} complete {} last {:?} start {:?} rules {:?} diagnostics {:?} traced {:?}",
            t.plies_written,
            t.played,
            t.declared,
            t.outcome,
            t.complete,
            t.last.as_ref().map(ToString::to_string),
            t.start.as_ref().map(ToString::to_string),
            t.rules.as_ref().map(|r| (r.game(), r.board())),
            t.diagnostics,
            (t.plies.iter())
                .map(|p| (p.number, &p.text, p.span, &p.effect.captured))
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        shown(&events),
        shown(&full),
        "{what}: the replays from the text and from the record differ"
    );
    events.diagnostics.is_empty()
}

/// The configurations of the benchmark corpus (BENCHMARKS.md): game, board, rules.
const CONFIGURATIONS: [(Game, Option<&str>, &str); 7] = [
    (Game::Tsoro, None, ""),
    (Game::Tsoro, Some("4x12"), "heads=1 head-bonus=yes"),
    (Game::Nsolo, None, ""),
    (Game::Nsolo, Some("4x36"), "bonus=hole"),
    (Game::Kiothi, None, ""),
    (Game::Kiothi, None, "start=6x5 leftmost=chain"),
    (Game::BaoLaKimasai, None, ""),
];

/// Generated games, `per` of each configuration, in the export form.
fn generated(per: u64, max_plies: u32) -> Vec<String> {
    let mut games = Vec::new();
    for (game, board, options) in CONFIGURATIONS {
        let board = board.map(|b| Board::parse(b).expect("a board"));
        let rules = Rules::new(game, board, options).expect("rules");
        for seed in 1..=per {
            let mut rng = Rng::new(seed);
            let (plies, result) = play_game(&rules, Player::Random, &mut rng, max_plies);
            let mut tags = vec![
                ("Game", game.to_string()),
                (
                    "Source",
                    "generated for a test of sow; not a historical game".into(),
                ),
                ("Result", result.as_str().to_string()),
            ];
            if let Some(b) = board {
                tags.push(("Board", b.to_string()));
            }
            if !options.is_empty() {
                tags.push(("Rules", options.to_string()));
            }
            games.push(sow::pmn::write_game(&record(&tags, &plies, result)));
        }
    }
    games
}

#[test]
fn every_generated_game_replays_from_its_text_as_from_its_record() {
    for (i, game) in generated(6, 300).iter().enumerate() {
        // Line breaks and spaces of any kind are spaces to the reader.
        let crlf = game.replace('\n', "\r\n");
        let tabs = game.replace(' ', "\t");
        for (form, game) in [("LF", game), ("CRLF", &crlf), ("tabs", &tabs)] {
            let texts = texts(game.as_bytes());
            assert_eq!(texts.len(), 1);
            // Generated games are valid.
            let what = format!("game {i} ({form})");
            assert!(compare(&texts[0], &what), "{what} reported:\n{game}");
        }
    }
}

#[test]
fn the_shipped_records_replay_alike_from_their_text() {
    let mut valid = 0;
    let mut reported = 0;
    for entry in walkdir::WalkDir::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("records")) {
        let entry = entry.expect("records are readable");
        if entry.path().extension().is_none_or(|e| e != "pmn") {
            continue;
        }
        let bytes = std::fs::read(entry.path()).expect("a record");
        for (i, text) in texts(&bytes).iter().enumerate() {
            match compare(text, &format!("{} game {}", entry.path().display(), i + 1)) {
                true => valid += 1,
                false => reported += 1,
            }
        }
    }
    // The records hold both: valid games, and flawed ones.
    assert!(
        valid > 100 && reported > 10,
        "valid {valid}, reported {reported}"
    );
}

/// Pieces a mutation puts into a game: what the reader must tell apart.
const PIECES: &[&str] = &[
    " ",
    "\n",
    "1.",
    "2...",
    "7.",
    "a1",
    "b3",
    "c12",
    "d9",
    "a37",
    "e4",
    "x",
    "xd3",
    "-a1",
    "-b2#2",
    ":3",
    ",",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "{c}",
    "!",
    "$1",
    "[%stones 1 2]",
    "\t",
    "\r\n",
    "a0",
    "b99",
    "1..",
    "99999999999.",
    "(a1)",
    ";c\n",
    "]",
    "\u{e9}",
];

/// A random edit of `game`: a piece inserted, a span deleted, or a span swapped with a
/// piece, at a character boundary.
fn mutate(game: &str, rng: &mut Rng) -> String {
    let boundaries: Vec<usize> = (0..=game.len())
        .filter(|&i| game.is_char_boundary(i))
        .collect();
    let at = boundaries[rng.below(boundaries.len())];
    let len = rng.below(6);
    let end = boundaries
        .iter()
        .copied()
        .find(|&b| b >= at + len)
        .unwrap_or(game.len());
    let piece = PIECES[rng.below(PIECES.len())];
    match rng.below(3) {
        0 => format!("{}{piece}{}", &game[..at], &game[at..]),
        1 => format!("{}{}", &game[..at], &game[end..]),
        _ => format!("{}{piece}{}", &game[..at], &game[end..]),
    }
}

#[test]
fn mutated_games_replay_alike_from_their_text() {
    let games = generated(2, 60);
    let mut rng = Rng::new(20261130);
    let (mut valid, mut reported) = (0, 0);
    for round in 0..1500 {
        let base = &games[rng.below(games.len())];
        // Mutations are aimed at the move text mostly.
        let mut game = mutate(base, &mut rng);
        if rng.below(2) == 0 {
            game = mutate(&game, &mut rng);
        }
        for (i, text) in texts(game.as_bytes()).iter().enumerate() {
            match compare(text, &format!("round {round} game {}:\n{game}", i + 1)) {
                true => valid += 1,
                false => reported += 1,
            }
        }
    }
    // Both ways are exercised: many mutations leave a valid game (a space, a line
    // break), many break it.
    assert!(
        valid > 100 && reported > 100,
        "valid {valid}, reported {reported}"
    );
}

#[test]
fn a_set_up_game_with_north_to_move_replays_alike_from_its_text() {
    // A generated Nsolo game from its second ply on: set up after South's first ply,
    // North to move, its move text numbered from `1...`.
    let rules = Rules::new(Game::Nsolo, None, "").expect("rules");
    let mut rng = Rng::new(7);
    let (plies, result) = play_game(&rules, Player::Random, &mut rng, 120);
    // The position after the first ply, from a replay of it alone.
    let first = sow::pmn::write_game(&record(
        &[("Game", "Nsolo".into())],
        &plies[..1],
        sow::pmn::GameResult::Unknown,
    ));
    let first = sow::pmn::parse_str(&first).remove(0);
    let after = replay(&first, &ReplayOptions::full())
        .last
        .expect("a position");
    let mut text = format!(
        "[Game \"Nsolo\"]\n[SetUp \"1\"]\n[Position \"{}\"]\n[Result \"{}\"]\n\n",
        after,
        result.as_str()
    );
    for (i, ply) in plies[1..].iter().enumerate() {
        match i % 2 {
            0 => text.push_str(&format!("{}... {ply} ", i / 2 + 1)),
            _ => text.push_str(&format!("{}. {ply} ", i / 2 + 2)),
        }
    }
    text.push_str(result.as_str());
    text.push('\n');
    let texts = texts(text.as_bytes());
    assert!(compare(&texts[0], "set-up game"), "reported:\n{text}");
    // Numbered from South's `1.`, as if South were to move, its move number is wrong.
    let wrong = text.replacen("1... ", "1. ", 1);
    assert!(!compare(&texts_of(&wrong)[0], "misnumbered set-up game"));
}

fn texts_of(text: &str) -> Vec<GameText> {
    texts(text.as_bytes())
}

/// One replayer reuses its buffers and the last game's repetition table from game to
/// game: every example game, replayed twice over by one replayer (so each follows
/// games of every kind, a repetition draw among them), gives what a fresh one gives.
#[test]
fn a_reused_replayer_gives_what_a_fresh_one_gives() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("records/examples");
    let mut all = Vec::new();
    let mut names: Vec<_> = (std::fs::read_dir(&dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pmn"))
        .collect();
    names.sort();
    for name in &names {
        all.extend(texts(&std::fs::read(name).unwrap()));
    }
    let draws = |t: &Trace| matches!(t.outcome, Some(sow::Outcome::Draw { .. }));
    let shown = |t: &Trace| {
        format!(
            "{:?} {} {:?} {:?}",
            t.outcome,
            t.played,
            t.last.as_ref().map(ToString::to_string),
            t.diagnostics
        )
    };
    let mut one = Replayer::new();
    let mut drawn = 0;
    for _round in 0..2 {
        for text in &all {
            for options in [ReplayOptions::validate(), ReplayOptions::full()] {
                let Some((_, reused)) = one.replay_text(text, &options, &|_| true) else {
                    continue;
                };
                let (_, fresh) = Replayer::new()
                    .replay_text(text, &options, &|_| true)
                    .unwrap();
                assert_eq!(
                    shown(&reused),
                    shown(&fresh),
                    "game at line {}",
                    text.line()
                );
                drawn += draws(&reused) as usize;
            }
        }
    }
    assert!(drawn > 0, "a repetition draw among the examples");
}
