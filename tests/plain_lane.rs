//! The plain lane of validation (`GameText::plain`, `replay_plain`) against the full
//! reader and replay: a game the lane takes must replay to the trace the full path
//! gives, with nothing to report. Checked on the shipped records, on generated games of
//! every configuration the benchmark corpus has, and on those games mutated at random
//! (a mutation mostly makes a game the lane must refuse).

use std::io::Cursor;
use std::path::Path;

use sow::generate::{play_game, record, Player};
use sow::pmn::{GameText, Reader};
use sow::replay::{replay, replay_plain, ReplayOptions, Trace};
use sow::rng::Rng;
use sow::{Board, Game, Rules};

/// The game texts of a file's bytes, as validation reads them.
fn texts(bytes: &[u8]) -> Vec<GameText> {
    let mut reader = Reader::new(Cursor::new(bytes.to_vec()));
    std::iter::from_fn(|| reader.next_text()).collect()
}

/// What the lane and the full path say of one game, compared. Returns whether the lane
/// took it.
fn compare(text: &GameText, what: &str) -> bool {
    let options = ReplayOptions::validate();
    let full = replay(&text.clone().parse(), &options);
    let Some(mut plain) = text.plain() else {
        return false;
    };
    let Some(lane) = replay_plain(&mut plain, &options) else {
        return false;
    };
    let shown = |t: &Trace| {
        format!(
            "plies {} played {} declared {:?} outcome {:?} complete {} last {:?} start {:?} rules {:?} diagnostics {:?}",
            t.plies_written,
            t.played,
            t.declared,
            t.outcome,
            t.complete,
            t.last.as_ref().map(ToString::to_string),
            t.start.as_ref().map(ToString::to_string),
            t.rules.as_ref().map(|r| (r.game(), r.board())),
            t.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>(),
        )
    };
    assert!(lane.diagnostics.is_empty(), "{what}: the lane reported");
    assert_eq!(
        shown(&lane),
        shown(&full),
        "{what}: the lane and the full replay differ"
    );
    true
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
fn every_generated_game_takes_the_lane_to_the_full_replays_trace() {
    for (i, game) in generated(6, 300).iter().enumerate() {
        // Line breaks and spaces of any kind are spaces to the lane as to the reader.
        let crlf = game.replace('\n', "\r\n");
        let tabs = game.replace(' ', "\t");
        for (form, game) in [("LF", game), ("CRLF", &crlf), ("tabs", &tabs)] {
            let texts = texts(game.as_bytes());
            assert_eq!(texts.len(), 1);
            // Generated games are plain and valid: each must take the lane (were it to
            // refuse them all, validation would only be slower, and this test would
            // not notice it otherwise).
            let what = format!("game {i} ({form})");
            assert!(compare(&texts[0], &what), "{what} refused:\n{game}");
        }
    }
}

#[test]
fn the_shipped_records_replay_alike_in_the_lane() {
    let mut taken = 0;
    let mut refused = 0;
    for entry in walkdir::WalkDir::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("records")) {
        let entry = entry.expect("records are readable");
        if entry.path().extension().is_none_or(|e| e != "pmn") {
            continue;
        }
        let bytes = std::fs::read(entry.path()).expect("a record");
        for (i, text) in texts(&bytes).iter().enumerate() {
            match compare(text, &format!("{} game {}", entry.path().display(), i + 1)) {
                true => taken += 1,
                false => refused += 1,
            }
        }
    }
    // The records hold both: plain valid games, and annotated or flawed ones.
    assert!(
        taken > 100 && refused > 10,
        "taken {taken}, refused {refused}"
    );
}

/// Pieces a mutation puts into a plain game: what the lane must tell apart.
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
fn mutated_games_replay_alike_in_the_lane_or_leave_it() {
    let games = generated(2, 60);
    let mut rng = Rng::new(20261130);
    let (mut taken, mut refused) = (0, 0);
    for round in 0..1500 {
        let base = &games[rng.below(games.len())];
        // Mutations are aimed at the move text mostly, where the lane reads.
        let mut game = mutate(base, &mut rng);
        if rng.below(2) == 0 {
            game = mutate(&game, &mut rng);
        }
        for (i, text) in texts(game.as_bytes()).iter().enumerate() {
            match compare(text, &format!("round {round} game {}:\n{game}", i + 1)) {
                true => taken += 1,
                false => refused += 1,
            }
        }
    }
    // Both ways are exercised: many mutations leave a valid game (a space, a line
    // break), many break it.
    assert!(
        taken > 100 && refused > 100,
        "taken {taken}, refused {refused}"
    );
}

#[test]
fn a_set_up_game_with_north_to_move_takes_the_lane() {
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
    assert!(compare(&texts[0], "set-up game"), "refused:\n{text}");
    // Numbered from South's `1.`, as if South were to move, it is refused.
    let wrong = text.replacen("1... ", "1. ", 1);
    assert!(!compare(&texts_of(&wrong)[0], "misnumbered set-up game"));
}

fn texts_of(text: &str) -> Vec<GameText> {
    texts(text.as_bytes())
}
