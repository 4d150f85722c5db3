//! The count of legal plies (`games::legal_ply_count`) against the listing it stands
//! for (`games::legal_moves`, each candidate's plies summed), over random playouts of
//! every game: the count builds no candidate, and must come to what the list holds. The
//! listing in turn against `apply`: the sowings listed are those `apply` accepts, where
//! both the count and the listing decide some plies before sowing them.

use proptest::prelude::*;

use sow::games;
use sow::moves::{Candidate, Effect, Illegal, Mode, Move, Sowing};
use sow::rng::Rng;
use sow::{Board, Game, GameState, Position, Rules};

/// Every game, with the options that change what is legal or what a candidate holds.
fn rule_sets() -> Vec<Rules> {
    let rules = |game, board: Option<Board>, options: &str| {
        Rules::new(game, board, options).unwrap_or_else(|e| panic!("{game} {options}: {e}"))
    };
    vec![
        rules(Game::Tsoro, None, ""),
        rules(Game::Tsoro, Board::new(4, 12), "heads=1 head-bonus=yes"),
        rules(Game::Tsoro, Board::new(4, 8), "head-bonus=yes"),
        rules(Game::Nsolo, None, ""),
        rules(Game::Nsolo, Board::new(4, 36), "bonus=hole"),
        rules(Game::Nsolo, Board::new(4, 12), "bonus=none sow=ccw"),
        rules(Game::Kiothi, None, ""),
        rules(Game::Kiothi, None, "start=6x5 leftmost=chain"),
        rules(Game::BaoLaKimasai, None, ""),
    ]
}

/// Plays a random game of at most `plies` plies from the start, handing `check` every
/// position (the last, with no legal move, included) and the plies played before it.
fn each_position(
    rules: &Rules,
    seed: u64,
    plies: u32,
    mut check: impl FnMut(&Position, u32) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let mut game = GameState::new(rules.clone(), Position::initial(rules));
    let (mut rng, mut effect) = (Rng::new(seed), Effect::default());
    loop {
        check(game.position(), game.plies())?;
        if game.plies() >= plies || game.play_random(&mut rng, &mut effect).is_none() {
            return Ok(());
        }
    }
}

/// Plays a random game of at most `plies` plies, comparing the count with the listing
/// at every position, the last (no legal move) included; returns the positions seen and
/// the candidates seen that stand for more than one ply (Tsoro's stops at a head).
fn check_game(rules: &Rules, seed: u64, plies: u32) -> Result<(u32, u32), TestCaseError> {
    let (mut seen, mut several) = (0, 0);
    each_position(rules, seed, plies, |pos, played| {
        let candidates = games::legal_moves(rules, pos);
        several += candidates.iter().filter(|c| c.plies() > 1).count() as u32;
        let listed: u64 = candidates.iter().map(Candidate::plies).sum();
        prop_assert_eq!(
            games::legal_ply_count(rules, pos),
            listed,
            "{} after {} plies: {}",
            rules.game(),
            played,
            pos
        );
        seen += 1;
        Ok(())
    })?;
    Ok((seen, several))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_count_is_the_listings_plies(seed in any::<u64>()) {
        for rules in rule_sets() {
            check_game(&rules, seed, 400)?;
        }
    }
}

/// Plays a random game of at most `plies` plies, comparing at every position after the
/// opening the listed sowings with every sowing of an own pit (every lift, where a lift
/// is written) that `apply` accepts, a bonus still to choose aside; returns the
/// positions compared.
fn check_listing(rules: &Rules, seed: u64, plies: u32) -> Result<u32, TestCaseError> {
    let mut effect = Effect::default();
    let mut seen = 0;
    let lifted = rules.game() == Game::Kiothi;
    each_position(rules, seed, plies, |pos, played| {
        if pos.opening() {
            return Ok(());
        }
        let mut listed: Vec<(String, bool)> = (games::legal_moves(rules, pos).into_iter())
            .map(|c| (c.mv.to_string(), c.captures))
            .collect();
        let mut applied = Vec::new();
        for pit in pos
            .board()
            .pits()
            .filter(|&p| pos.board().owner(p) == pos.side())
        {
            let lifts = match lifted {
                true => (1..=pos.stones(pit)).map(Some).collect(),
                false => vec![None],
            };
            for lift in lifts {
                let mv = Move::Sow(Sowing {
                    lift,
                    ..Sowing::from(pit)
                });
                let mut after = pos.clone();
                effect.clear();
                match games::apply(rules, &mut after, &mv, Mode::Legal, &mut effect) {
                    Ok(()) => applied.push((mv.to_string(), effect.is_capture())),
                    // A capture whose bonus is still to choose.
                    Err(Illegal::BonusMissing) => applied.push((mv.to_string(), true)),
                    Err(_) => {}
                }
            }
        }
        listed.sort();
        applied.sort();
        prop_assert_eq!(
            &listed,
            &applied,
            "{} after {} plies: {}",
            rules.game(),
            played,
            pos
        );
        seen += 1;
        Ok(())
    })?;
    Ok(seen)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn the_listing_is_every_sowing_that_applies(seed in any::<u64>()) {
        for rules in rule_sets().iter().filter(|r| matches!(r.game(), Game::Nsolo | Game::Kiothi)) {
            check_listing(rules, seed, 300)?;
        }
    }
}

#[test]
fn games_to_their_end_count_as_they_list() {
    // Whole games, to positions with few moves, captures and bonuses, and no move.
    let (mut seen, mut several) = (0, 0);
    for rules in rule_sets() {
        for seed in 0..6 {
            let (s, m) = check_game(&rules, seed, 3_000).unwrap();
            (seen, several) = (seen + s, several + m);
        }
    }
    assert!(
        seen > 5_000,
        "{seen} positions, {several} candidates of several plies"
    );
}

#[test]
fn head_stops_on_many_arrivals_count_each_arrival() {
    // Set-ups whose always-relay sowings reach an occupied head many times: a candidate
    // there stands for every arrival, and the count must say so.
    let stop_in_cycle = Rules::new(Game::Tsoro, Board::new(4, 6), "heads=1").unwrap();
    for (name, rules) in [
        ("tsoro-endless-late.pmn", Rules::default_for(Game::Tsoro)),
        ("tsoro-stop-in-cycle.pmn", stop_in_cycle),
    ] {
        let path = format!(
            "{}/tests/data/long-sowings/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        let games = sow::pmn::parse_str(&text);
        let setup = games[0].record.tag("Position").unwrap();
        let pos = Position::parse(&rules, setup).unwrap();
        let candidates = games::legal_moves(&rules, &pos);
        assert!(candidates.iter().any(|c| c.plies() > 1), "{name}");
        let listed: u64 = candidates.iter().map(Candidate::plies).sum();
        assert_eq!(games::legal_ply_count(&rules, &pos), listed, "{name}");
    }
}
