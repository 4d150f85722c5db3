//! `sow stats` and `sow plot` over ~100 MB of generated records (random playouts of the
//! four games written as PMN text), in MB/s on one core and on all cores.
//!
//! `cargo bench --bench stats` (SOW_BENCH_MB sets the size; default 100).

use std::io::Write;
use std::time::Instant;

use sow::cli::{Per, PlotKind};
use sow::corpus::{Filter, Input};
use sow::plot::{collect, render, Style};
use sow::replay::ReplayOptions;
use sow::rng::Rng;
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
            if n % 2 == 0 {
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
    let rules: Vec<Rules> = [Game::Tsoro, Game::Nsolo, Game::Kiothi, Game::BaoLaKimasai]
        .into_iter()
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
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.pmn");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let size = text.len() as f64 / 1e6;
    drop(text);
    println!(
        "generated {round} games, {size:.1} MB, in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    let inputs = [Input::File(path)];
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
    for (name, per) in [
        ("stats --per game", Per::Game),
        ("stats --per ply", Per::Ply),
    ] {
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
    for threads in [1, cores] {
        let t = Instant::now();
        let games = if threads == 1 {
            one.install(|| collect(&inputs, &filter, &options))
        } else {
            collect(&inputs, &filter, &options)
        }
        .unwrap();
        let read = t.elapsed().as_secs_f64();
        let mut out = 0;
        for kind in [
            PlotKind::Material,
            PlotKind::Length,
            PlotKind::Laps,
            PlotKind::Captures,
        ] {
            out += render(kind, &games, &Style::default()).unwrap().len();
        }
        report(
            "plot (read + 4 figures)",
            threads,
            t.elapsed().as_secs_f64(),
            out,
        );
        println!("  of which reading the traces: {read:.2} s");
    }
}
