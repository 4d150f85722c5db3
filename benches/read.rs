//! Reading speed of the PMN reader on export-form text (one thread).
//!
//! Generates, in memory and deterministically, two corpora of the four games (default
//! 100 MB each; `SOW_BENCH_MB=n` to change): annotated records (comments with commands,
//! NAGs, variations) and the records `sow generate` writes for `benches/corpus.sh`. Reads
//! each with `sow::pmn::Reader` and prints MB/s and games/s (best of 3 runs). Without
//! `--bench` (as under `cargo test --benches`) it runs a cheap 1 MB smoke pass.

use std::hint::black_box;
use std::time::Instant;

#[path = "../tests/xorshift/mod.rs"]
mod xorshift;

use sow::generate::{GenerateOptions, Player};
use sow::pmn::{
    write_game_into, BonusPits, Comment, CommentKind, Element, GameResult, Nag, Pit, PitCount,
    PitStones, Ply, PlySyntax, Reader, Record, Redistribution, ResultToken, Sowing, Span, Tag,
    Variation,
};
use xorshift::Rng;

const NAMES: [&str; 8] = [
    "Tendai", "Farai", "Rudo", "Tatenda", "Wanjiru", "Kamau", "Nyambura", "Mwangi",
];

fn tag(name: &'static str, value: String) -> Tag {
    Tag::new(name, value)
}

fn pit(rng: &mut Rng, rows: usize, cols: usize, south: bool) -> Pit {
    // Kiothi's two rows are shared out by the replay layer; here any row will do.
    let row = if rows == 2 || south {
        rng.below(2)
    } else {
        2 + rng.below(2)
    };
    Pit {
        row: row as u8,
        col: 1 + rng.below(cols) as u8,
    }
}

fn ply(rng: &mut Rng, game: usize, index: usize, cols: usize) -> PlySyntax {
    let south = index.is_multiple_of(2);
    let rows = if game == 2 { 2 } else { 4 };
    let from = pit(rng, rows, cols, south);
    if game == 2 && index < 2 {
        return PlySyntax::Redistribution(Redistribution {
            emptied: vec![pit(rng, 2, cols, south), pit(rng, 2, cols, south)],
            filled: vec![PitStones {
                pit: pit(rng, 2, cols, south),
                stones: 10,
            }],
        });
    }
    let mut s = Sowing {
        from,
        lift: None,
        end: None,
        arrival: None,
        capture: None,
    };
    match game {
        0 => {
            if rng.chance(20) {
                s.end = Some(pit(rng, rows, cols, south));
                if rng.chance(10) {
                    s.arrival = Some(2);
                }
            }
            if rng.chance(25) {
                let n = rng.below(3);
                s.capture = Some(
                    (0..n)
                        .map(|_| PitCount {
                            pit: pit(rng, rows, cols, !south),
                            count: None,
                        })
                        .collect(),
                );
            }
        }
        1 => {
            if rng.chance(25) {
                let n = 1 + rng.below(2);
                s.capture = Some(
                    (0..n)
                        .map(|_| PitCount {
                            pit: pit(rng, rows, cols, !south),
                            count: rng.chance(40).then(|| 1 + rng.below(4) as u16),
                        })
                        .collect(),
                );
            }
        }
        2 => {
            if rng.chance(30) {
                s.lift = Some(1 + rng.below(9) as u16);
            }
            if rng.chance(15) {
                s.end = Some(pit(rng, rows, cols, south));
            }
            if rng.chance(20) {
                s.capture = Some(BonusPits::new());
            }
        }
        _ => {
            if rng.chance(20) {
                s.capture = Some(BonusPits::new());
            }
        }
    }
    PlySyntax::Sowing(s)
}

fn record(rng: &mut Rng, n: u64) -> Record {
    let game = (n % 4) as usize;
    let (name, board, cols) = [
        ("Tsoro", "4x12", 12),
        ("Nsolo", "4x8", 8),
        ("Kiothi", "2x10", 10),
        ("BaoLaKimasai", "4x12", 12),
    ][game];
    let result = [
        GameResult::SouthWins,
        GameResult::NorthWins,
        GameResult::Draw,
        GameResult::Unknown,
    ][rng.below(4)];
    let tags = vec![
        tag("Game", name.to_string()),
        tag("Board", board.to_string()),
        tag(
            "Event",
            format!("Field recordings {}", 1950 + rng.below(60)),
        ),
        tag("Site", "Mutoko".to_string()),
        tag(
            "Date",
            format!("{}.{:02}.??", 1950 + rng.below(60), 1 + rng.below(12)),
        ),
        tag("Round", (1 + rng.below(9)).to_string()),
        tag("South", NAMES[rng.below(8)].to_string()),
        tag("North", NAMES[rng.below(8)].to_string()),
        tag("Result", result.as_str().to_string()),
    ];
    let plies = 40 + rng.below(120);
    let mut moves = Vec::with_capacity(plies + 8);
    for i in 0..plies {
        moves.push(Element::Ply(Ply {
            syntax: ply(rng, game, i, cols),
            suffix: None,
            span: Span::default(),
        }));
        if rng.chance(3) {
            moves.push(Element::Comment(Comment {
                kind: CommentKind::Brace,
                text: format!("[%stones {} {}]", rng.below(60), rng.below(60)).into(),
                commands: Vec::new(),
                span: Span::default(),
            }));
        }
        if rng.chance(1) {
            moves.push(Element::Nag(Nag {
                code: 1 + rng.below(6) as u16,
                span: Span::default(),
            }));
        }
        if i > 0 && rng.chance(1) {
            let alt = (0..3)
                .map(|k| {
                    Element::Ply(Ply {
                        syntax: ply(rng, game, i + k, cols),
                        suffix: None,
                        span: Span::default(),
                    })
                })
                .collect();
            moves.push(Element::Variation(Variation {
                elements: alt,
                span: Span::default(),
            }));
        }
    }
    Record {
        tags,
        moves,
        result: Some(ResultToken {
            result,
            span: Span::default(),
        }),
    }
}

fn corpus(megabytes: usize) -> (String, usize) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut text = String::with_capacity(megabytes << 20);
    let mut games = 0;
    while text.len() < megabytes << 20 {
        if games > 0 {
            text.push('\n');
        }
        write_game_into(&record(&mut rng, games as u64), &mut text);
        games += 1;
    }
    (text, games)
}

/// CPU time of this thread in seconds (Linux), to see through a busy machine.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// The records `sow generate` writes, as `benches/corpus.sh` makes them (the same seven
/// configurations, 200 games a file, seeds from 1), until there are `megabytes` of them.
fn generated_corpus(megabytes: usize) -> (String, usize) {
    const CONFIGS: [(&str, Option<&str>, &str); 7] = [
        ("Tsoro", None, ""),
        ("Tsoro", Some("4x12"), "heads=1 head-bonus=yes"),
        ("Nsolo", None, ""),
        ("Nsolo", Some("4x36"), "bonus=hole"),
        ("Kiothi", None, ""),
        ("Kiothi", None, "start=6x5 leftmost=chain"),
        ("BaoLaKimasai", None, ""),
    ];
    let mut text = String::with_capacity(megabytes << 20);
    let mut games = 0;
    let mut seed = 1;
    while text.len() < megabytes << 20 {
        for (game, board, rules) in CONFIGS {
            let args = GenerateOptions {
                game: game.into(),
                board: board.map(Into::into),
                rules: rules.into(),
                games: 200,
                seed,
                player: Player::Random,
                max_plies: 1000,
            };
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&sow::generate::run(&args).expect("a configuration of corpus.sh"));
            games += 200;
            if text.len() >= megabytes << 20 {
                break;
            }
        }
        seed += 1;
    }
    (text, games)
}

/// Reads `text` `runs` times; prints the best wall-clock and thread CPU times.
fn measure(name: &str, text: &str, games: usize, runs: usize) {
    let mut best = f64::INFINITY;
    let mut best_cpu = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        let cpu_start = thread_cpu_seconds();
        let mut read = 0;
        let mut plies = 0;
        for game in Reader::new(black_box(text.as_bytes())) {
            assert!(game.problems.is_empty(), "{:?}", game.problems);
            plies += game.record.moves.len();
            read += 1;
        }
        black_box(plies);
        assert_eq!(read, games);
        best = best.min(start.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu_seconds()) {
            best_cpu = best_cpu.min(b - a);
        }
    }
    let mb = text.len() as f64 / 1e6;
    println!(
        "read, {name}: {mb:.1} MB, {games} games in {best:.3} s: {:.0} MB/s, {:.0} games/s (best of {runs})",
        mb / best,
        games as f64 / best
    );
    if best_cpu.is_finite() {
        println!(
            "read, {name} (thread CPU time): {best_cpu:.3} s: {:.0} MB/s, {:.0} games/s",
            mb / best_cpu,
            games as f64 / best_cpu
        );
    }
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let megabytes = if full {
        std::env::var("SOW_BENCH_MB")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(100)
    } else {
        1
    };
    let runs = if full { 3 } else { 1 };
    // Annotated text: comments with commands, NAGs, variations, long bonus lists.
    let (text, games) = corpus(megabytes);
    measure("annotated records", &text, games, runs);
    drop(text);
    // What `sow generate` writes: plies, move numbers and tags only.
    let (text, games) = generated_corpus(megabytes);
    measure("sow generate records", &text, games, runs);
}
