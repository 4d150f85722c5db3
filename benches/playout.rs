//! Random playouts of every game: plies per second and games per second on one core.
//!
//! `cargo bench --bench playout [-- FILTER] [--seconds S]`. Each configuration plays
//! complete games from the start position with `GameState::play_random` (the repetition
//! rule included) until the game ends or reaches `MAX_PLIES`, for about `S` seconds
//! (default 3), and prints one line per configuration. The numbers go into BENCHMARKS.md.

use std::time::{Duration, Instant};

use sow::moves::Effect;
use sow::rng::Rng;
use sow::{Board, Game, GameState, Rules};

/// Games longer than this are cut off (a game may be capture-free for a long time).
const MAX_PLIES: u32 = 2_000;

fn configs() -> Vec<(&'static str, Rules)> {
    let r = |g, b: Option<Board>, o: &str| Rules::new(g, b, o).expect("benchmark rules are valid");
    vec![
        ("tsoro-4x21", r(Game::Tsoro, None, "")),
        (
            "tsoro-4x21-heads1",
            r(Game::Tsoro, None, "heads=1 head-bonus=yes"),
        ),
        ("tsoro-4x8", r(Game::Tsoro, Board::new(4, 8), "")),
        ("nsolo-4x8", r(Game::Nsolo, None, "")),
        ("nsolo-4x36", r(Game::Nsolo, Board::new(4, 36), "")),
        ("kiothi", r(Game::Kiothi, None, "")),
        ("bao-la-kimasai", r(Game::BaoLaKimasai, None, "")),
    ]
}

/// Seconds this thread has spent on a CPU (Linux), so that a loaded machine does not
/// make the engine look slower than it is; `None` elsewhere.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seconds = 3.0f64;
    let mut filter: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--seconds" => {
                seconds = args
                    .get(i + 1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(seconds);
                i += 1;
            }
            "--bench" => {}
            other if !other.starts_with('-') => filter = Some(other.to_string()),
            _ => {}
        }
        i += 1;
    }
    println!(
        "{:<20} {:>14} {:>16} {:>12} {:>10} {:>12}",
        "config", "plies/s (wall)", "plies/s (CPU)", "games/s", "games", "plies/game"
    );
    for (name, rules) in configs() {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let budget = Duration::from_secs_f64(seconds);
        let mut rng = Rng::new(0x5eed);
        let mut effect = Effect::default();
        let (mut plies, mut games) = (0u64, 0u64);
        let start = Instant::now();
        let cpu_start = thread_cpu_seconds();
        while start.elapsed() < budget {
            let mut game = GameState::start(rules.clone());
            while game.plies() < MAX_PLIES && game.play_random(&mut rng, &mut effect).is_some() {}
            plies += game.plies() as u64;
            games += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        let cpu = match (cpu_start, thread_cpu_seconds()) {
            (Some(a), Some(b)) if b > a => format!("{:.0}", plies as f64 / (b - a)),
            _ => "-".to_string(),
        };
        println!(
            "{:<20} {:>14.0} {:>16} {:>12.0} {:>10} {:>12.1}",
            name,
            plies as f64 / secs,
            cpu,
            games as f64 / secs,
            games,
            plies as f64 / games.max(1) as f64
        );
    }
}
