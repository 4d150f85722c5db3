//! Bao la Kimasai through the public API: RULES.md's section rule by rule (both seats),
//! the worked example of EXAMPLES.md, the end of the game, and properties of random
//! playouts under every option set.

use proptest::prelude::*;
use sow::games::{apply, has_legal_move, legal_moves, play_random};
use sow::moves::{BonusTake, HeadStop, Lap, Redistribution, Sowing};
use sow::play::EndReason;
use sow::position::Setup;
use sow::rng::Rng;
use sow::{Effect, Game, GameState, Illegal, Mode, Move, Outcome, Pit, Position, Rules, Side};

const START: &str = "1,1,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,0/0,1,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,1 S";

/// Every option set of the game (RULES.md, "All options": `repeat`).
const OPTION_SETS: [&str; 3] = ["", "repeat=2", "repeat=3"];

fn rules(options: &str) -> Rules {
    Rules::new(Game::BaoLaKimasai, None, options).unwrap()
}

fn pit(name: &str) -> Pit {
    name.parse().unwrap()
}

fn step(from: &str) -> Move {
    Move::Sow(Sowing::from(pit(from)))
}

/// A position with one stone in each named pit and nothing else.
fn layout(side: Side, stones: &[&str]) -> Position {
    let rules = rules("");
    let mut setup = Setup::empty(rules.board(), side);
    for &name in stones {
        setup.pit_mut(pit(name)).unwrap().stones = 1;
    }
    Position::from_setup(&rules, &setup).unwrap()
}

/// The same position with the other seat to move.
fn turned(pos: &Position) -> Position {
    let mut setup = pos.setup();
    setup.side = setup.side.opponent();
    Position::from_setup(&rules(""), &setup).unwrap()
}

/// The occupied pits, in board order.
fn occupied(pos: &Position) -> Vec<String> {
    pos.board()
        .pits()
        .filter(|&p| pos.stones(p) != 0)
        .map(|p| p.to_string())
        .collect()
}

/// Applies a move that must be legal, returning its effect.
fn play(pos: &mut Position, mv: &Move) -> Effect {
    let mut effect = Effect::default();
    apply(&rules(""), pos, mv, Mode::Legal, &mut effect).unwrap_or_else(|e| panic!("{mv}: {e}"));
    effect
}

/// Applies a move that must be illegal, checking the position is left unchanged.
fn refuse(pos: &Position, mv: &Move, mode: Mode) -> Illegal {
    let mut after = pos.clone();
    let mut effect = Effect::default();
    let err = apply(&rules(""), &mut after, mv, mode, &mut effect).unwrap_err();
    assert_eq!(&after, pos, "a refused move left the position changed");
    err
}

fn captured(effect: &Effect) -> Vec<(String, u16)> {
    effect
        .captured
        .iter()
        .map(|&(p, s)| (p.to_string(), s))
        .collect()
}

// ---- EXAMPLES.md ----------------------------------------------------------------------

#[test]
fn example_front_and_back_stones_captured() {
    let rules = rules("repeat=2");
    let mut pos = Position::parse(&rules, START).unwrap();
    let mut effect = Effect::default();
    apply(&rules, &mut pos, &step("b2"), Mode::Legal, &mut effect).unwrap();
    assert_eq!(
        pos.to_string(),
        "0,1,1,1,1,1,1,1,1,1,1,1/0,1,1,1,1,1,1,1,1,1,1,0/1,0,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,1 N"
    );
    assert_eq!(effect.lap_count, 1);
    assert_eq!(effect.end, Some(pit("b1")));
    assert_eq!(captured(&effect), [("c1".into(), 1), ("d1".into(), 1)]);
    assert!(effect.bonus.is_empty());
    // EXAMPLES.md lists no illegal plies for this game; they are checked rule by rule below.
}

// ---- Start ------------------------------------------------------------------------------

#[test]
fn start_has_one_stone_in_every_pit_but_b1_and_c12() {
    let rules = rules("");
    let start = Position::initial(&rules);
    assert_eq!(start.to_string(), START);
    assert_eq!(start.stones_on_board(), 46);
    assert_eq!(start.stones(pit("b1")), 0);
    assert_eq!(start.stones(pit("c12")), 0);
}

#[test]
fn no_pit_ever_holds_more_than_one_stone_in_a_setup() {
    let two = START.replacen("1,", "2,", 1);
    assert!(Position::parse(&rules(""), &two).is_err());
}

#[test]
fn a_pit_holding_more_than_one_stone_cannot_step() {
    // Only a position built by hand can hold two stones in a pit; it is refused, not
    // stepped half-way.
    // Bao's set-ups refuse it; a Tsoro set-up on the same 4x12 board holds it.
    let mut setup = layout(Side::South, &["a3"]).setup();
    setup.pit_mut(pit("a3")).unwrap().stones = 2;
    let tsoro = Rules::new(Game::Tsoro, Some(rules("").board()), "").unwrap();
    let pos = Position::from_setup(&tsoro, &setup).unwrap();
    assert_eq!(
        refuse(&pos, &step("a3"), Mode::Legal),
        Illegal::CrowdedPit {
            pit: pit("a3"),
            stones: 2
        }
    );
}

// ---- A move steps one own stone into the next pit of the counter-clockwise circuit ----

#[test]
fn a_step_moves_one_stone_along_the_outer_row_for_both_seats() {
    // South's circuit runs a1 -> a12; North's c1 -> c12 (its inner row) and d12 -> d1.
    let mut pos = layout(Side::South, &["a5", "d5"]);
    let effect = play(&mut pos, &step("a5"));
    assert_eq!(occupied(&pos), ["a6", "d5"]);
    assert_eq!(pos.side(), Side::North);
    assert_eq!(
        effect.laps,
        [Lap {
            start: pit("a5"),
            end: pit("a6"),
            stones: 1
        }]
    );
    assert_eq!(effect.end, Some(pit("a6")));
    assert!(!effect.is_capture());
    let effect = play(&mut pos, &step("d5"));
    assert_eq!(occupied(&pos), ["a6", "d4"]);
    assert_eq!(pos.side(), Side::South);
    assert_eq!(effect.end, Some(pit("d4")));
}

#[test]
fn a_step_turns_the_corner_from_outer_to_inner_row_and_back() {
    // South: b1 -> a1 and a12 -> b12. North: c12 -> d12 and d1 -> c1.
    let mut pos = layout(Side::South, &["a12", "b1", "c12", "d1"]);
    play(&mut pos, &step("b1"));
    play(&mut pos, &step("c12"));
    play(&mut pos, &step("a12"));
    play(&mut pos, &step("d1"));
    assert_eq!(occupied(&pos), ["a1", "b12", "c1", "d12"]);
}

#[test]
fn a_step_runs_right_to_left_along_souths_inner_row_and_left_to_right_along_norths() {
    let mut pos = layout(Side::South, &["b7", "c7"]);
    // b7 -> b6 (c6 empty: no capture), c7 -> c8 (b8 empty: no capture).
    assert!(!play(&mut pos, &step("b7")).is_capture());
    assert!(!play(&mut pos, &step("c7")).is_capture());
    assert_eq!(occupied(&pos), ["b6", "c8"]);
}

#[test]
fn a_step_is_legal_only_into_an_empty_pit() {
    let pos = layout(Side::South, &["a4", "a5", "d9", "d8"]);
    assert_eq!(
        refuse(&pos, &step("a4"), Mode::Legal),
        Illegal::StepBlocked {
            pit: pit("a4"),
            next: pit("a5")
        }
    );
    let north = turned(&pos);
    assert_eq!(
        refuse(&north, &step("d9"), Mode::Legal),
        Illegal::StepBlocked {
            pit: pit("d9"),
            next: pit("d8")
        }
    );
}

#[test]
fn foul_mode_cannot_put_a_second_stone_in_a_pit() {
    // [%foul] executes what can be executed; a step into an occupied pit would leave two
    // stones in one pit, which never happens in this game, so it stays an error.
    let pos = layout(Side::South, &["b12", "b11", "c2"]);
    assert_eq!(
        refuse(&pos, &step("b12"), Mode::Foul),
        Illegal::StepBlocked {
            pit: pit("b12"),
            next: pit("b11")
        }
    );
    let mut north = layout(Side::North, &["c2", "c3", "a1"]);
    assert_eq!(
        refuse(&north, &step("c2"), Mode::Foul),
        Illegal::StepBlocked {
            pit: pit("c2"),
            next: pit("c3")
        }
    );
    // A legal step under Foul mode is the same step, with no fouls.
    let mut effect = Effect::default();
    apply(&rules(""), &mut north, &step("c3"), Mode::Foul, &mut effect).unwrap();
    assert_eq!(occupied(&north), ["a1", "c2", "c4"]);
    assert!(effect.fouls.is_empty());
}

#[test]
fn only_a_stone_of_the_side_to_move_steps() {
    let south = layout(Side::South, &["a1", "d1"]);
    assert_eq!(
        refuse(&south, &step("d1"), Mode::Legal),
        Illegal::NotOwnPit {
            pit: pit("d1"),
            side: Side::South
        }
    );
    assert_eq!(
        refuse(&south, &step("a2"), Mode::Legal),
        Illegal::EmptyPit { pit: pit("a2") }
    );
    let north = turned(&south);
    assert_eq!(
        refuse(&north, &step("a1"), Mode::Foul),
        Illegal::NotOwnPit {
            pit: pit("a1"),
            side: Side::North
        }
    );
    assert_eq!(
        refuse(&north, &step("c5"), Mode::Foul),
        Illegal::EmptyPit { pit: pit("c5") }
    );
}

#[test]
fn a_move_is_a_plain_step_and_nothing_else() {
    let pos = layout(Side::South, &["a1", "d1"]);
    let with = |f: fn(&mut Sowing)| {
        let mut s = Sowing::from(pit("a1"));
        f(&mut s);
        Move::Sow(s)
    };
    for mode in [Mode::Legal, Mode::Foul] {
        let lift = with(|s| s.lift = Some(1));
        let stop = with(|s| {
            s.stop = Some(HeadStop {
                head: pit("a2"),
                arrival: 1,
            })
        });
        let bonus = with(|s| {
            s.bonus = vec![BonusTake {
                pit: pit("d1"),
                stones: None,
            }]
        });
        for mv in [lift, stop, bonus] {
            assert_eq!(refuse(&pos, &mv, mode), Illegal::NotASimpleStep, "{mv}");
        }
        let redistribute = Move::Redistribute(Redistribution {
            emptied: [pit("a1"), pit("a2")],
            placed: vec![(pit("a3"), 1)],
        });
        assert_eq!(
            refuse(&pos, &redistribute, mode),
            Illegal::RedistributionNotAllowed
        );
        for off in [
            Pit::new(0, 13),
            Pit::new(0, 0),
            Pit::new(4, 1),
            Pit::new(20, 99),
        ] {
            assert_eq!(
                refuse(&pos, &Move::Sow(Sowing::from(off)), mode),
                Illegal::NoSuchPit { pit: off }
            );
        }
    }
}

// ---- Capture ------------------------------------------------------------------------------

#[test]
fn capture_entering_the_inner_row_takes_the_opposite_stone_and_the_one_behind_it() {
    // South a12 -> b12 (entering from the outer row): c12 and d12 are taken.
    let mut pos = layout(Side::South, &["a12", "c12", "d12", "d11"]);
    let effect = play(&mut pos, &step("a12"));
    assert_eq!(captured(&effect), [("c12".into(), 1), ("d12".into(), 1)]);
    assert_eq!(occupied(&pos), ["b12", "d11"]);
    // North d1 -> c1: b1 and a1 are taken.
    let mut pos = layout(Side::North, &["d1", "b1", "a1", "a2"]);
    let effect = play(&mut pos, &step("d1"));
    assert_eq!(captured(&effect), [("b1".into(), 1), ("a1".into(), 1)]);
    assert_eq!(occupied(&pos), ["a2", "c1"]);
    assert_eq!(effect.end, Some(pit("c1")));
}

#[test]
fn capture_also_when_stepping_along_the_inner_row() {
    // South b5 -> b4 takes c4 and d4; North c3 -> c4 takes b4 and a4.
    let mut pos = layout(Side::South, &["b5", "c4", "d4", "c9"]);
    assert_eq!(
        captured(&play(&mut pos, &step("b5"))),
        [("c4".into(), 1), ("d4".into(), 1)]
    );
    let mut pos = layout(Side::North, &["c3", "b4", "a4", "b9"]);
    assert_eq!(
        captured(&play(&mut pos, &step("c3"))),
        [("b4".into(), 1), ("a4".into(), 1)]
    );
    assert_eq!(occupied(&pos), ["b9", "c4"]);
}

#[test]
fn capture_takes_the_opposite_stone_alone_when_the_pit_behind_is_empty() {
    let mut pos = layout(Side::South, &["b5", "c4", "d5"]);
    assert_eq!(captured(&play(&mut pos, &step("b5"))), [("c4".into(), 1)]);
    assert_eq!(occupied(&pos), ["b4", "d5"]);
    let mut pos = layout(Side::North, &["c3", "b4", "a3"]);
    assert_eq!(captured(&play(&mut pos, &step("c3"))), [("b4".into(), 1)]);
}

#[test]
fn no_capture_when_the_opposite_pit_is_empty_even_with_a_stone_behind() {
    let mut pos = layout(Side::South, &["b5", "d4"]);
    assert!(!play(&mut pos, &step("b5")).is_capture());
    assert_eq!(occupied(&pos), ["b4", "d4"]);
    let mut pos = layout(Side::North, &["c3", "a4"]);
    assert!(!play(&mut pos, &step("c3")).is_capture());
}

#[test]
fn outer_stones_are_safe_otherwise() {
    // A stone entering the outer row captures nothing, whatever stands in that column.
    let mut pos = layout(Side::South, &["b1", "c1", "d1", "a5", "c6", "d6"]);
    assert!(!play(&mut pos, &step("b1")).is_capture(), "b1 -> a1");
    assert!(
        !play(&mut pos, &step("c1")).is_capture(),
        "c1 -> c2: b2 empty"
    );
    assert!(!play(&mut pos, &step("a5")).is_capture(), "a5 -> a6");
    let mut pos = layout(Side::North, &["c12", "a12", "d3", "b2", "a2"]);
    assert!(!play(&mut pos, &step("c12")).is_capture(), "c12 -> d12");
    play(&mut pos, &step("a12"));
    assert!(!play(&mut pos, &step("d3")).is_capture(), "d3 -> d2");
    assert_eq!(occupied(&pos), ["a2", "b2", "b12", "d2", "d12"]);
}

// ---- Legal moves ---------------------------------------------------------------------------

fn candidates(pos: &Position) -> Vec<(String, bool)> {
    let mut list: Vec<(String, bool)> = legal_moves(&rules(""), pos)
        .into_iter()
        .map(|c| (c.mv.to_string(), c.captures))
        .collect();
    list.sort();
    list
}

#[test]
fn legal_moves_are_the_stones_whose_next_pit_is_empty() {
    let rules = rules("");
    let start = Position::initial(&rules);
    assert_eq!(candidates(&start), [("b2".into(), true)]);
    let north = turned(&start);
    assert_eq!(candidates(&north), [("c11".into(), true)]);
    // The circuit wraps: b1 steps to a1 and d1 to c1.
    let pos = layout(Side::South, &["b1", "a3", "a4", "d1", "c2"]);
    assert_eq!(
        candidates(&pos),
        [("a4".into(), false), ("b1".into(), false)]
    );
    let north = turned(&pos);
    assert_eq!(
        candidates(&north),
        [("c2".into(), false), ("d1".into(), true)]
    );
}

// ---- End ------------------------------------------------------------------------------------

#[test]
fn end_a_player_with_no_stones_has_lost() {
    for (side, stones) in [(Side::South, ["c5", "d5"]), (Side::North, ["a5", "b5"])] {
        let pos = layout(side, &stones);
        assert!(!has_legal_move(&rules(""), &pos));
        let game = GameState::new(rules(""), pos);
        assert_eq!(
            game.outcome(),
            Some(Outcome::Win {
                winner: side.opponent(),
                reason: EndReason::NoLegalMove
            })
        );
    }
}

#[test]
fn end_a_player_with_no_legal_move_has_lost() {
    // Every pit of the mover's circuit is full: no stone has an empty next pit.
    let full = |side: Side| -> Vec<String> {
        let rules = rules("");
        let board = rules.board();
        rules
            .circuit(side)
            .iter()
            .map(|&i| board.pit(i as usize).to_string())
            .collect()
    };
    for side in Side::BOTH {
        let mut names = full(side);
        names.push(if side == Side::South {
            "d4".into()
        } else {
            "a4".into()
        });
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut pos = layout(side, &names);
        assert!(!has_legal_move(&rules(""), &pos));
        assert!(legal_moves(&rules(""), &pos).is_empty());
        let before = pos.clone();
        let mut rng = Rng::new(1);
        assert_eq!(
            play_random(&rules(""), &mut pos, &mut rng, &mut Effect::default()),
            None
        );
        assert_eq!(pos, before);
        let mut game = GameState::new(rules(""), pos);
        assert_eq!(
            game.outcome().and_then(|o| o.winner()),
            Some(side.opponent())
        );
        assert_eq!(
            game.play(&step(names[0]), Mode::Legal),
            Err(Illegal::GameOver)
        );
    }
}

// ---- Repetition -----------------------------------------------------------------------------

/// RULES.md: "A capture-free cycle may be impossible in this game". It is: a South stone
/// that enters b12 while a North stone stands in row c (or a North stone entering c1
/// while row b is occupied) meets it head-on, and the ply on which they stand opposite
/// is a capture. So rows b and c are never occupied at once without a capture, and in a
/// cycle each of the 24 steps of a seat's circuit is taken equally often, F times: the
/// plies while row b is occupied include South's 13F steps into, along and out of row b
/// and between them at least 12F North steps, all inside row d, which has only 11F. The
/// repetition rule's table, the same for every game, is therefore checked on Nsolo's
/// cycles (tests/rules_nsolo.rs, tests/rules_repetition.rs); here, exhaustively for one
/// stone a seat, no capture-free play ever repeats.
#[test]
fn repetition_one_stone_each_always_meets_before_a_cycle_closes() {
    let rules = rules("");
    let board = rules.board();
    for south in 0..24 {
        for north in 0..24 {
            let s = board
                .pit(rules.circuit(Side::South)[south] as usize)
                .to_string();
            let n = board
                .pit(rules.circuit(Side::North)[north] as usize)
                .to_string();
            let mut game = GameState::new(rules.clone(), layout(Side::South, &[&s, &n]));
            let (mut rng, mut effect) = (Rng::new(0), Effect::default());
            let mut captured = false;
            for _ in 0..48 {
                game.play_random(&mut rng, &mut effect)
                    .expect("one step each is always legal");
                if effect.is_capture() {
                    captured = true;
                    break;
                }
            }
            assert!(captured, "{s} and {n} went round without meeting");
            assert_eq!(
                game.outcome().and_then(|o| o.winner()),
                Some(game.position().side().opponent())
            );
        }
    }
}

#[test]
fn repeat_option_takes_any_whole_number_from_2() {
    assert_eq!(rules("").repeat(), Some(2));
    assert_eq!(rules("repeat=2").options_tag(), "");
    assert_eq!(rules("repeat=3").repeat(), Some(3));
    assert_eq!(rules("repeat=3").options_tag(), "repeat=3");
    assert!(Rules::new(Game::BaoLaKimasai, None, "repeat=1").is_err());
    assert!(Rules::new(Game::BaoLaKimasai, None, "bonus=2").is_err());
}

// ---- Properties of random playouts ----------------------------------------------------------

/// A random set-up: each pit occupied with probability `density`/8, at most 46 stones.
fn random_setup(rng: &mut Rng, density: u64) -> Position {
    let rules = rules("");
    let side = if rng.coin() { Side::South } else { Side::North };
    let mut setup = Setup::empty(rules.board(), side);
    let mut stones = 0;
    for p in rules.board().pits() {
        if stones < 46 && rng.next_u64() % 8 < density {
            setup.pit_mut(p).unwrap().stones = 1;
            stones += 1;
        }
    }
    Position::from_setup(&rules, &setup).unwrap()
}

/// Checks every property of one position: legal moves are exactly the moves `apply`
/// accepts, and applying is deterministic and sows one stone in one lap.
fn check_position(rules: &Rules, pos: &Position) {
    let board = rules.board();
    let legal: Vec<Move> = legal_moves(rules, pos).into_iter().map(|c| c.mv).collect();
    for candidate in legal_moves(rules, pos) {
        let mut a = pos.clone();
        let mut b = pos.clone();
        let (mut ea, mut eb) = (Effect::default(), Effect::default());
        apply(rules, &mut a, &candidate.mv, Mode::Legal, &mut ea).unwrap();
        apply(rules, &mut b, &candidate.mv, Mode::Legal, &mut eb).unwrap();
        assert_eq!((&a, &ea), (&b, &eb), "applying is deterministic");
        assert_eq!(ea.is_capture(), candidate.captures);
        assert_eq!(ea.lap_count, 1);
        assert_eq!(ea.stones_sown, 1);
        assert_eq!(
            ea.laps.iter().map(|l| l.stones as u64).sum::<u64>(),
            ea.stones_sown
        );
        let Move::Sow(s) = &candidate.mv else {
            panic!("a step is a sowing")
        };
        assert_eq!(ea.laps[0].start, s.start());
        assert_eq!(Some(ea.laps[0].end), ea.end);
        assert_eq!(
            pos.stones_on_board(),
            a.stones_on_board() + ea.stones_taken()
        );
        assert!(a.board_pits().iter().all(|&s| s <= 1));
    }
    // Every move apply accepts is a legal move, and only those.
    for p in board.pits() {
        let mv = Move::Sow(Sowing::from(p));
        let ok = apply(
            rules,
            &mut pos.clone(),
            &mv,
            Mode::Legal,
            &mut Effect::default(),
        )
        .is_ok();
        assert_eq!(ok, legal.contains(&mv), "{mv} in {pos}");
    }
    assert_eq!(has_legal_move(rules, pos), !legal.is_empty());
}

/// Plays a random game with `play_random`, checking each ply against `apply`.
fn check_playout(rules: &Rules, mut pos: Position, seed: u64) {
    let start = pos.stones_on_board();
    let mut taken = 0u32;
    let mut rng = Rng::new(seed);
    let mut effect = Effect::default();
    for _ in 0..400 {
        check_position(rules, &pos);
        let before = pos.clone();
        let Some(mv) = play_random(rules, &mut pos, &mut rng, &mut effect) else {
            assert_eq!(pos, before, "no legal move leaves the position as it was");
            break;
        };
        let mut again = before.clone();
        let mut replay = Effect::default();
        apply(rules, &mut again, &mv, Mode::Legal, &mut replay).unwrap();
        assert_eq!(
            (&again, &replay),
            (&pos, &effect),
            "play_random's {mv} re-applied"
        );
        taken += effect.stones_taken();
        assert_eq!(pos.stones_on_board() + taken, start, "stones are conserved");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn playouts_from_the_start_keep_every_property(seed: u64, options in 0..OPTION_SETS.len()) {
        let rules = rules(OPTION_SETS[options]);
        check_playout(&rules, Position::initial(&rules), seed);
    }

    #[test]
    fn playouts_from_random_setups_keep_every_property(seed: u64, density in 1u64..8, options in 0..OPTION_SETS.len()) {
        let rules = rules(OPTION_SETS[options]);
        let pos = random_setup(&mut Rng::new(seed ^ 0xa5a5), density);
        check_playout(&rules, pos, seed);
    }

    #[test]
    fn games_end_by_a_loss_never_by_repetition(seed: u64, options in 0..OPTION_SETS.len()) {
        let rules = rules(OPTION_SETS[options]);
        let mut game = GameState::start(rules);
        let (mut rng, mut effect) = (Rng::new(seed), Effect::default());
        while game.plies() < 5_000 && game.play_random(&mut rng, &mut effect).is_some() {}
        let outcome = game.outcome().expect("a random game ends within 5000 plies");
        let stuck = game.position().side();
        prop_assert_eq!(outcome, Outcome::Win { winner: stuck.opponent(), reason: EndReason::NoLegalMove });
    }
}
