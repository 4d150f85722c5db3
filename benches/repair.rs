//! The worst case of `sow validate --suggest` and `--infer-rules`: 300-ply games with an
//! error near the start (every candidate then replays the whole rest of the game), for
//! each game; the same games with two slips a few plies apart (the search then tries
//! second edits); and the accuracy of the repairs on 2,000 records corrupted by the
//! slip generator of tests/corrupt (`SOW_REPAIR_RECORDS` for another number).
//! `cargo bench --bench repair`; the numbers go into BENCHMARKS.md.

#[path = "../tests/corrupt/mod.rs"]
mod corrupt;

use std::time::Instant;

use sow::generate::{play_game, record, Player};
use sow::pmn;
use sow::repair::{infer_rules, search, RepairOptions};
use sow::replay::ReplayOptions;
use sow::rng::Rng;
use sow::{Board, Game, Rules};

/// The longest of the first 3000 random games (at most 300 plies): some games rarely
/// last 300 plies, so the table says how long the game was.
fn long_game(rules: &Rules) -> Vec<sow::pmn::PlySyntax> {
    let mut best = Vec::new();
    for seed in 1..=3000 {
        let (plies, _) = play_game(rules, Player::Random, &mut Rng::new(seed), 300);
        if plies.len() > best.len() {
            best = plies;
        }
        if best.len() >= 300 {
            break;
        }
    }
    best
}

fn main() {
    let configs = [
        Rules::new(Game::Tsoro, None, "").unwrap(),
        Rules::new(Game::Nsolo, Board::new(4, 36), "").unwrap(),
        Rules::new(Game::Kiothi, None, "").unwrap(),
        Rules::new(Game::BaoLaKimasai, None, "").unwrap(),
    ];
    println!(
        "{:<14} {:>6} {:>14} {:>10} {:>10} {:>16} {:>13}",
        "game", "plies", "suggest (ms)", "tried", "replayed", "infer-rules (ms)", "combinations"
    );
    for rules in &configs {
        let plies = long_game(rules);
        let mut tags = vec![("Game", rules.game().tag_name().to_string())];
        if rules.board() != rules.game().default_board() {
            tags.push(("Board", rules.board().to_string()));
        }
        // Rules inference is slowest on a record that replays: every combination then
        // replays it to the end.
        let whole = pmn::parse_str(&pmn::write_game(&record(
            &tags,
            &plies,
            pmn::GameResult::Unknown,
        )))
        .remove(0);
        // Repairs are slowest with an error near the start: every candidate then
        // replays the whole rest of the game. Swap two early plies.
        let mut swapped = plies.clone();
        swapped.swap(4, 5);
        let parsed = pmn::parse_str(&pmn::write_game(&record(
            &tags,
            &swapped,
            pmn::GameResult::Unknown,
        )))
        .remove(0);
        let options = ReplayOptions::validate();
        let t = Instant::now();
        // No bound on the search's work: the whole search is timed.
        let unbounded = RepairOptions {
            plies: u64::MAX,
            ..RepairOptions::default()
        };
        let found = search(&parsed, &options, &unbounded);
        let suggest = t.elapsed();
        let t = Instant::now();
        let verdicts = infer_rules(&whole, &options, u64::MAX).verdicts;
        let infer = t.elapsed();
        println!(
            "{:<14} {:>6} {:>14.1} {:>10} {:>10} {:>16.1} {:>13}{}",
            rules.game().tag_name(),
            plies.len(),
            suggest.as_secs_f64() * 1e3,
            found.tried,
            found.replayed,
            infer.as_secs_f64() * 1e3,
            verdicts.len(),
            if found.stopped_early {
                "  (suggest stopped early)"
            } else {
                ""
            }
        );
        assert!(!verdicts.is_empty());
    }
    two_slips(&configs);
    let n = std::env::var("SOW_REPAIR_RECORDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let t = Instant::now();
    println!("\naccuracy on {n} corrupted records (tests/corrupt):");
    corrupt::measure(corrupt::corpus(n));
    println!("({:.1} s on all cores)", t.elapsed().as_secs_f64());
}

/// The search on the longest games with two slips a few plies apart, near the start:
/// every single edit then replays to the second slip, and the second edits to the end.
/// Default bounds, as `validate --suggest` runs it; the slowest of the placements.
fn two_slips(configs: &[Rules]) {
    println!(
        "\n{:<14} {:>6} {:>20} {:>10} {:>10} {:>9}",
        "game", "plies", "two slips, worst (ms)", "tried", "replayed", "complete"
    );
    for rules in configs {
        let plies: Vec<String> = long_game(rules).iter().map(ToString::to_string).collect();
        let mut tags = vec![("Game", rules.game().tag_name().to_string())];
        if rules.board() != rules.game().default_board() {
            tags.push(("Board", rules.board().to_string()));
        }
        let mut worst = (0.0f64, 0usize, 0u64, false);
        let mut rng = Rng::new(23);
        for at in [4usize, 6, 10, 20, 40] {
            let Some((bad, _)) =
                corrupt::slip_at(corrupt::Slip::Two, rules, &plies, "*", at, &mut rng)
            else {
                continue;
            };
            let parsed = pmn::parse_str(&corrupt::game_text(&tags, &bad, "*")).remove(0);
            let options = ReplayOptions::validate();
            let t = Instant::now();
            let found = search(&parsed, &options, &RepairOptions::default());
            let ms = t.elapsed().as_secs_f64() * 1e3;
            if ms > worst.0 {
                let complete = found.repairs.first().is_some_and(|r| r.complete);
                worst = (ms, found.tried, found.replayed, complete);
            }
        }
        println!(
            "{:<14} {:>6} {:>20.1} {:>10} {:>10} {:>9}",
            rules.game().tag_name(),
            plies.len(),
            worst.0,
            worst.1,
            worst.2,
            worst.3
        );
    }
}
