//! `sow stats` and `sow plot` over ~100 MB of generated records (random playouts of the
//! four games written as PMN text), in MB/s on one core and on all cores.
//!
//! `cargo bench --bench stats` (SOW_BENCH_MB sets the size, default 100;
//! SOW_BENCH_GAMES=Tsoro,Nsolo a choice of games, default all four; SOW_BENCH_PER=game,ply,plot
//! what to measure, default all). The numbers go into BENCHMARKS.md.
//!
//! Per-ply rows cost mostly the mobility column (`games::legal_moves` after every ply).

use std::io::Write;
use std::time::Instant;

use sow::corpus::{Filter, Input};
use sow::plot::PlotKind;
use sow::plot::{draw, gather, Style};
use sow::replay::ReplayOptions;
use sow::rng::Rng;
use sow::stats::Per;
use sow::{Effect, Game, GameState, Rules};

/// Random games of one rule set as PMN text, appended to `out`.
fn write_games(out: &mut String, rules: &Rules, rng: &mut Rng, games: usize, round: &mut usize) {
    for _ in 0..games {
        *round += 1;
        let mut state = GameState::start(rules.clone());
        let mut effect = Effect::default();
        let mut moves = String::new();
        let mut line = 0;
        while state.plies() < 1000 {
            let n = state.plies();
            let Some(mv) = state.play_random(rng, &mut effect) else {
                break;
            };
            if n.is_multiple_of(2) {
                moves.push_str(&format!("{}. ", n / 2 + 1));
            }
            let mut ply = mv.to_string();
            if effect.is_capture() && !ply.contains('x') {
                ply.push('x');
            }
            moves.push_str(&ply);
            if moves.len() - line > 72 {
                moves.push('\n');
                line = moves.len();
            } else {
                moves.push(' ');
            }
        }
        let result = state.outcome().map_or("*", |o| o.result_token());
        out.push_str(&format!(
            "[Game \"{}\"]\n[Rules \"{}\"]\n[Event \"Benchmark\"]\n[Round \"{round}\"]\n[Result \"{result}\"]\n\n{moves}{result}\n\n",
            rules.game().tag_name(),
            rules.options_tag(),
        ));
    }
}

fn main() {
    let mb: usize = std::env::var("SOW_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let target = mb << 20;
    let t = Instant::now();
    // SOW_BENCH_GAMES: a comma-separated choice of games (default: all four).
    let chosen = std::env::var("SOW_BENCH_GAMES").unwrap_or_default();
    let rules: Vec<Rules> = [Game::Tsoro, Game::Nsolo, Game::Kiothi, Game::BaoLaKimasai]
        .into_iter()
        .filter(|g| {
            chosen.is_empty()
                || chosen
                    .split(',')
                    .any(|c| c.trim().eq_ignore_ascii_case(g.tag_name()))
        })
        .map(|g| Rules::new(g, None, "").unwrap())
        .collect();
    let mut rng = Rng::new(2024);
    let mut text = String::with_capacity(target + (1 << 20));
    let mut round = 0;
    while text.len() < target {
        for r in &rules {
            write_games(&mut text, r, &mut rng, 16, &mut round);
        }
    }
    // A corpus of several files, as a collection of records usually is: files are read
    // in parallel, the games of one file by one reader.
    let files: usize = std::env::var("SOW_BENCH_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    let chunk = text.len() / files.max(1) + 1;
    let mut rest = text.as_str();
    for k in 0..files.max(1) {
        // Cut at a game boundary.
        let cut = if rest.len() <= chunk {
            rest.len()
        } else {
            rest[chunk..]
                .find("\n[Game ")
                .map_or(rest.len(), |i| chunk + i + 1)
        };
        let path = dir.path().join(format!("bench-{k}.pmn"));
        std::fs::File::create(&path)
            .unwrap()
            .write_all(&rest.as_bytes()[..cut])
            .unwrap();
        inputs.push(Input::File(path));
        rest = &rest[cut..];
    }
    let size = text.len() as f64 / 1e6;
    drop(text);
    println!(
        "generated {round} games, {size:.1} MB in {} files, in {:.1} s",
        inputs.len(),
        t.elapsed().as_secs_f64()
    );

    let filter = Filter::default();
    let options = ReplayOptions::full();
    let cores = rayon::current_num_threads();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let report = |what: &str, threads: usize, secs: f64, out: usize| {
        println!(
            "{what:<28} {threads} thread(s): {secs:7.2} s, {:7.1} MB/s, {:6.1} MB/s per core ({:.1} MB out)",
            size / secs,
            size / secs / threads as f64,
            out as f64 / 1e6
        );
    };
    // SOW_BENCH_PER: what to measure among `game`, `ply` and `plot` (default all).
    let pers = std::env::var("SOW_BENCH_PER").unwrap_or_else(|_| "game,ply,plot".into());
    for (name, per) in [
        ("stats --per game", Per::Game),
        ("stats --per ply", Per::Ply),
    ]
    .into_iter()
    .filter(|(_, per)| pers.contains(if *per == Per::Game { "game" } else { "ply" }))
    {
        for threads in [1, cores] {
            let t = Instant::now();
            let csv = if threads == 1 {
                one.install(|| sow::stats::run(&inputs, &filter, &options, per))
            } else {
                sow::stats::run(&inputs, &filter, &options, per)
            }
            .unwrap();
            report(name, threads, t.elapsed().as_secs_f64(), csv.len());
        }
    }
    // `sow plot`'s own path: the games read and counted into the figure, then drawn.
    for threads in [1, cores].into_iter().filter(|_| pers.contains("plot")) {
        let t = Instant::now();
        let figure = if threads == 1 {
            one.install(|| {
                gather(
                    &inputs,
                    &filter,
                    &options,
                    PlotKind::Laps,
                    false,
                    &mut |_| {},
                )
            })
        } else {
            gather(
                &inputs,
                &filter,
                &options,
                PlotKind::Laps,
                false,
                &mut |_| {},
            )
        }
        .unwrap();
        let svg = draw(&figure, &Style::default()).unwrap();
        report(
            "plot --kind laps",
            threads,
            t.elapsed().as_secs_f64(),
            svg.len(),
        );
    }
}
