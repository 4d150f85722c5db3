//! The repetition rule (RULES.md, Nsolo and Bao la Kimasai) held to its words over random
//! playouts: the same position for the `repeat`-th time since the last capture is a
//! draw, the start counting as its first occurrence. The game's table is compared with a
//! plain list of the positions since the last ply that took stones.

use proptest::prelude::*;

use sow::games;
use sow::moves::Effect;
use sow::play::EndReason;
use sow::position::Setup;
use sow::repetition::hash;
use sow::rng::Rng;
use sow::{Board, Game, GameState, Outcome, Position, Rules};

/// Every game with a repetition rule, on boards of every size class.
fn rule_sets() -> Vec<Rules> {
    let nsolo =
        |cols, options: &str| Rules::new(Game::Nsolo, Board::new(4, cols), options).unwrap();
    vec![
        nsolo(8, ""),
        nsolo(8, "repeat=2"),
        nsolo(8, "repeat=2 bonus=none"),
        nsolo(12, "repeat=2 bonus=hole sow=ccw"),
        nsolo(19, "repeat=2"),
        nsolo(36, "repeat=2"),
        nsolo(36, "repeat=4 bonus=none"),
        Rules::new(Game::BaoLaKimasai, None, "").unwrap(),
        Rules::new(Game::BaoLaKimasai, None, "repeat=3").unwrap(),
    ]
}

/// Plays a random game of at most `plies` plies and checks, ply by ply, that it is drawn
/// exactly when the plain count says so; returns whether it was drawn.
fn check_game(rules: &Rules, seed: u64, plies: u32) -> Result<bool, TestCaseError> {
    check_game_from(rules, Position::initial(rules), seed, plies)
}

/// [`check_game`] from a set-up.
fn check_game_from(
    rules: &Rules,
    start: Position,
    seed: u64,
    plies: u32,
) -> Result<bool, TestCaseError> {
    let repeat = rules.repeat().unwrap() as usize;
    let mut game = GameState::new(rules.clone(), start);
    let mut since_taking: Vec<Position> = vec![game.position().clone()];
    let (mut rng, mut effect) = (Rng::new(seed), Effect::default());
    while game.plies() < plies {
        if game.play_random(&mut rng, &mut effect).is_none() {
            prop_assert!(!games::has_legal_move(rules, game.position()));
            return Ok(false);
        }
        if effect.is_capture() || !effect.bonus.is_empty() {
            since_taking.clear();
        }
        let pos = game.position().clone();
        let seen = (since_taking.iter())
            .filter(|p| p.same_for_repetition(&pos))
            .count()
            + 1;
        since_taking.push(pos);
        let drawn = matches!(
            game.outcome(),
            Some(Outcome::Draw {
                reason: EndReason::Repetition
            })
        );
        prop_assert_eq!(
            drawn,
            seen >= repeat,
            "{} seed {} ply {}",
            rules.game(),
            seed,
            game.plies()
        );
        if drawn {
            prop_assert!(
                game.play_random(&mut rng, &mut effect).is_none(),
                "the game is over"
            );
            return Ok(true);
        }
    }
    Ok(false)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_draw_comes_exactly_at_the_repeat_th_occurrence(set in 0..9usize, seed in any::<u64>()) {
        check_game(&rule_sets()[set], seed, 600)?;
    }

    /// Positions of a random game hash alike exactly when the rule calls them the same.
    #[test]
    fn positions_hash_alike_exactly_when_they_are_the_same(set in 0..9usize, seed in any::<u64>()) {
        let rules = &rule_sets()[set];
        check_hashes(rules, Position::initial(rules), seed)?;
    }

    /// The same from sparse set-ups of Nsolo, whose games come round to their positions.
    #[test]
    fn positions_from_sparse_set_ups_hash_alike_exactly_when_they_are_the_same(
        set in 0..7usize,
        seed in any::<u64>(),
    ) {
        let rules = &nsolo_sets()[set];
        check_hashes(rules, sparse_setup(rules, seed), seed)?;
    }
}

/// A set-up of Nsolo with a few stones on each side, placed at random: games of single
/// stones going round. (Random games seldom come round to a position before a capture;
/// the draw at the exact ply of a capture-free cycle is checked in rules_nsolo.rs.)
fn sparse_setup(rules: &Rules, seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    let board = rules.board();
    let mut setup = Setup::empty(board, sow::Side::South);
    for side in sow::Side::BOTH {
        let circuit = rules.circuit(side);
        for _ in 0..1 + rng.below(4) {
            let pit = board.pit(circuit[rng.below(circuit.len())] as usize);
            setup.pit_mut(pit).unwrap().stones += 1;
        }
    }
    Position::from_setup(rules, &setup).unwrap()
}

/// The Nsolo rule sets of [`rule_sets`].
fn nsolo_sets() -> Vec<Rules> {
    (rule_sets().into_iter())
        .filter(|r| r.game() == Game::Nsolo)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_draw_comes_exactly_at_the_repeat_th_occurrence_from_sparse_set_ups(
        set in 0..7usize,
        seed in any::<u64>(),
    ) {
        let rules = &nsolo_sets()[set];
        check_game_from(rules, sparse_setup(rules, seed), seed, 4000)?;
    }
}

/// Plays a random game from `start` (at most 600 plies) and compares every two of its
/// positions: same hash exactly when the same position.
fn check_hashes(rules: &Rules, mut pos: Position, seed: u64) -> Result<(), TestCaseError> {
    let mut seen: Vec<(u64, Position)> = vec![(hash(&pos), pos.clone())];
    let (mut rng, mut effect) = (Rng::new(seed), Effect::default());
    for ply in 1..=600 {
        if games::play_random(rules, &mut pos, &mut rng, &mut effect).is_none() {
            break;
        }
        let h = hash(&pos);
        for (other_hash, other) in &seen {
            prop_assert_eq!(
                h == *other_hash,
                pos.same_for_repetition(other),
                "{} seed {} ply {}",
                rules.game(),
                seed,
                ply
            );
        }
        seen.push((h, pos.clone()));
    }
    Ok(())
}
