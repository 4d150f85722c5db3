//! The worst case of `sow validate --suggest` and `--infer-rules`: 300-ply games with an
//! error near the start (every candidate then replays the whole rest of the game), for
//! each game. `cargo bench --bench repair`; the numbers go into BENCHMARKS.md.

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
        let verdicts = infer_rules(&whole, &options);
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
}
