//! Nsolo through the public API: RULES.md's "Nsolo" section rule by rule, for both seats
//! and every option, EXAMPLES.md's worked plies, the game end through `GameState`, and
//! property tests over random playouts.
//!
//! Positions are PMN `Position` strings: rows d/c/b/a, columns 1..N from South's left.
//! Every South case is also played from North's seat by turning the board round
//! ([`rotate`]): South's clockwise circuit a8..a1 b1..b8 becomes North's d1..d8 c8..c1.

use proptest::prelude::*;
use sow::moves::{BonusChoice, BonusTake, Effect, HeadStop, Redistribution, Sowing, LAP_DETAIL};
use sow::play::EndReason;
use sow::rng::Rng;
use sow::{
    games, Board, Game, GameState, Illegal, Mode, Move, Outcome, Pit, Position, Rules, Side,
};

// ---------------------------------------------------------------------------------------
// Helpers

fn rules(cols: u8, options: &str) -> Rules {
    Rules::new(Game::Nsolo, Board::new(4, cols), options).unwrap()
}

/// Parses and checks a `Position` string.
fn parse(rules: &Rules, position: &str) -> Position {
    Position::parse(rules, position).unwrap()
}

fn pit(name: &str) -> Pit {
    name.parse().unwrap()
}

fn sow_bonus(from: &str, bonus: &[(&str, Option<u16>)]) -> Move {
    Move::Sow(Sowing {
        bonus: bonus
            .iter()
            .map(|&(p, stones)| BonusTake {
                pit: pit(p),
                stones,
            })
            .collect(),
        ..Sowing::from(pit(from))
    })
}

fn sow(from: &str) -> Move {
    sow_bonus(from, &[])
}

/// Applies a move; on `Err` checks that the position was left as it was.
fn play_mode(
    rules: &Rules,
    before: &str,
    mv: &Move,
    mode: Mode,
) -> Result<(String, Effect), Illegal> {
    let mut pos = parse(rules, before);
    let mut effect = Effect::default();
    match games::apply(rules, &mut pos, mv, mode, &mut effect) {
        Ok(()) => Ok((pos.to_string(), effect)),
        Err(e) => {
            assert_eq!(
                pos.to_string(),
                before,
                "an illegal move changed the position"
            );
            Err(e)
        }
    }
}

fn play(rules: &Rules, before: &str, mv: &Move) -> Result<(String, Effect), Illegal> {
    play_mode(rules, before, mv, Mode::Legal)
}

fn pits_taken(list: &[(Pit, u16)]) -> Vec<(String, u16)> {
    list.iter().map(|&(p, s)| (p.to_string(), s)).collect()
}

fn owned(list: &[(&str, u16)]) -> Vec<(String, u16)> {
    list.iter().map(|&(p, s)| (p.to_string(), s)).collect()
}

fn assert_effect(
    effect: &Effect,
    laps: u64,
    end: &str,
    captured: &[(&str, u16)],
    bonus: &[(&str, u16)],
) {
    assert_eq!(effect.lap_count, laps, "laps");
    assert_eq!(effect.end, Some(pit(end)), "end");
    assert_eq!(pits_taken(&effect.captured), owned(captured), "captured");
    assert_eq!(pits_taken(&effect.bonus), owned(bonus), "bonus");
}

/// The same position seen from the other seat: the board turned round, the other side
/// to move.
fn rotate(position: &str) -> String {
    let (board, side) = position.split_once(' ').unwrap();
    let rows: Vec<String> = board
        .split('/')
        .rev()
        .map(|row| row.split(',').rev().collect::<Vec<_>>().join(","))
        .collect();
    let side = if side == "S" { "N" } else { "S" };
    format!("{} {side}", rows.join("/"))
}

/// The pit a pit becomes when the board is turned round.
fn rotate_pit(cols: u8, name: &str) -> String {
    let p = pit(name);
    Pit::new(3 - p.row, cols + 1 - p.col).to_string()
}

/// A South ply with its expected result, checked as written and from North's seat.
struct Case<'a> {
    before: &'a str,
    from: &'a str,
    bonus: &'a [(&'a str, Option<u16>)],
    after: &'a str,
    laps: u64,
    end: &'a str,
    captured: &'a [(&'a str, u16)],
    taken: &'a [(&'a str, u16)],
}

fn check_both_seats(rules: &Rules, case: &Case) {
    let (after, effect) = play(rules, case.before, &sow_bonus(case.from, case.bonus)).unwrap();
    assert_eq!(after, case.after, "South");
    assert_effect(&effect, case.laps, case.end, case.captured, case.taken);

    let n = rules.board().cols();
    let r = |p: &str| rotate_pit(n, p);
    let bonus: Vec<(String, Option<u16>)> = case.bonus.iter().map(|&(p, s)| (r(p), s)).collect();
    let bonus: Vec<(&str, Option<u16>)> = bonus.iter().map(|(p, s)| (p.as_str(), *s)).collect();
    let rotated = |list: &[(&str, u16)]| -> Vec<(String, u16)> {
        list.iter().map(|&(p, s)| (r(p), s)).collect()
    };
    let (after, effect) = play(
        rules,
        &rotate(case.before),
        &sow_bonus(&r(case.from), &bonus),
    )
    .unwrap();
    assert_eq!(after, rotate(case.after), "North");
    assert_eq!(effect.lap_count, case.laps, "North laps");
    assert_eq!(effect.end, Some(pit(&r(case.end))), "North end");
    assert_eq!(
        pits_taken(&effect.captured),
        rotated(case.captured),
        "North captured"
    );
    assert_eq!(
        pits_taken(&effect.bonus),
        rotated(case.taken),
        "North bonus"
    );
}

/// The reasons a South ply and its North mirror are rejected for.
fn rejected_both(
    rules: &Rules,
    before: &str,
    from: &str,
    bonus: &[(&str, Option<u16>)],
) -> [Illegal; 2] {
    let n = rules.board().cols();
    let south = play(rules, before, &sow_bonus(from, bonus)).unwrap_err();
    let rotated: Vec<(String, Option<u16>)> =
        bonus.iter().map(|&(p, s)| (rotate_pit(n, p), s)).collect();
    let rotated: Vec<(&str, Option<u16>)> = rotated.iter().map(|(p, s)| (p.as_str(), *s)).collect();
    let north = play(
        rules,
        &rotate(before),
        &sow_bonus(&rotate_pit(n, from), &rotated),
    )
    .unwrap_err();
    [south, north]
}

/// The start pits `legal_moves` offers, as names.
fn candidate_starts(rules: &Rules, position: &str) -> Vec<String> {
    let pos = Position::parse(rules, position).unwrap();
    let mut starts: Vec<String> = games::legal_moves(rules, &pos)
        .iter()
        .map(|c| match &c.mv {
            Move::Sow(s) => s.start().to_string(),
            other => panic!("Nsolo offered {other:?}"),
        })
        .collect();
    starts.sort();
    starts
}

// ---------------------------------------------------------------------------------------
// EXAMPLES.md

/// EXAMPLES.md, "Nsolo (ccw): a relay sowing over several laps".
#[test]
fn example_ccw_relay_sowing_over_several_laps() {
    let rules = rules(8, "bonus=none repeat=5 sow=ccw");
    let before = "5,2,0,1,0,5,5,3/1,2,0,1,0,1,1,1/2,4,0,1,5,0,0,2/1,1,0,5,2,4,0,1 S";
    let mv = sow_bonus("a4", &[]);
    let (after, effect) = play(&rules, before, &mv).unwrap();
    assert_eq!(
        after,
        "5,2,0,1,0,5,5,3/1,2,0,1,0,1,1,1/3,5,1,2,0,1,1,0/2,0,1,1,3,5,1,2 N"
    );
    assert_effect(&effect, 4, "a4", &[], &[]);
}

/// EXAMPLES.md, "Nsolo (ccw, bonus=hole): capture, then the bonus".
#[test]
fn example_ccw_hole_capture_then_bonus() {
    let rules = rules(36, "bonus=hole repeat=5 sow=ccw");
    let before = "3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,1,4,4,1,0,4,1,0,3,0,3,3,0/1,2,2,2,2,2,2,2,2,2,0,3,0,3,3,0,3,1,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,1/0,3,0,3,3,0,3,3,0,3,3,0,3,3,0,1,1,3,0,3,0,2,2,2,2,2,2,2,2,2,2,2,2,2,2,1/0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,0,1,4,0,1,4,4,1,3,3 N";
    let mv = sow_bonus("d8", &[("a23", Some(3))]);
    let (after, effect) = play(&rules, before, &mv).unwrap();
    assert_eq!(
        after,
        "0,4,1,4,0,1,4,0,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,1,4,4,1,0,4,1,0,3,0,3,3,0/2,3,3,0,3,3,0,3,3,0,1,4,1,3,3,0,3,1,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,1/0,3,0,3,3,0,3,3,0,3,3,0,0,3,0,1,1,3,0,3,0,2,2,2,2,2,2,2,2,2,2,2,2,2,2,1/0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,0,3,0,3,0,1,4,0,1,4,4,1,3,3 S"
    );
    assert_effect(&effect, 6, "c13", &[("b13", 3)], &[("a23", 3)]);
}

/// EXAMPLES.md, "Nsolo (cw, bonus=hole): capture, then the bonus".
#[test]
fn example_cw_hole_capture_then_bonus() {
    let rules = rules(36, "bonus=hole repeat=3 sow=cw");
    let before = "2,2,2,2,2,0,3,0,3,3,0,3,3,0,3,3,0,1,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3/0,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,1,3,3,0,3,3,0,3,3,0,3/3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,1,4,0,3,3,0,3,3,0,3,3,0,1/3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,0,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3 S";
    let mv = sow_bonus("b13", &[("c17", None)]);
    let (after, effect) = play(&rules, before, &mv).unwrap();
    assert_eq!(
        after,
        "2,2,2,2,2,0,3,0,3,3,0,3,3,0,3,3,0,1,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3/0,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0,2,2,0,2,2,2,2,2,1,3,3,0,3,3,0,3,3,0,3/3,0,3,3,0,3,3,0,3,3,0,3,0,1,4,0,1,4,4,1,3,3,0,1,4,0,3,3,0,3,3,0,3,3,0,1/3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,0,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3 N"
    );
    assert_effect(&effect, 2, "b20", &[("c20", 2)], &[("c17", 2)]);
}

/// EXAMPLES.md, "Nsolo (cw): a relay sowing over several laps".
#[test]
fn example_cw_relay_sowing_over_several_laps() {
    let rules = rules(36, "bonus=hole repeat=3 sow=cw");
    let before = "2,2,2,2,2,0,3,0,3,3,0,3,3,0,3,3,0,1,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3/1,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,1,0,2,0,2,2,2,2,2,1,3,3,0,3,3,0,3,3,0,3/0,0,3,3,0,3,3,0,3,3,0,3,0,0,4,0,1,4,4,1,3,3,0,1,4,0,3,3,0,3,3,0,3,3,0,1/3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,0,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3 S";
    let mv = sow_bonus("b27", &[]);
    let (after, effect) = play(&rules, before, &mv).unwrap();
    assert_eq!(
        after,
        "2,2,2,2,2,0,3,0,3,3,0,3,3,0,3,3,0,1,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3/1,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,1,0,2,0,2,2,2,2,2,1,3,3,0,3,3,0,3,3,0,3/0,0,3,3,0,3,3,0,3,3,0,3,0,0,4,0,1,4,4,1,3,3,0,1,4,0,0,4,1,0,4,1,4,0,1,2/3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,3,3,0,0,3,0,3,3,0,3,3,0,3,3,0,3,3,1,4 N"
    );
    assert_effect(&effect, 3, "a35", &[], &[]);
}

/// EXAMPLES.md, "Nsolo (cw, bonus=equal): capture, then the bonus".
#[test]
fn example_cw_equal_capture_then_bonus() {
    let rules = rules(8, "bonus=equal repeat=3 sow=cw");
    let before = "3,0,3,3,0,3,3,0/1,1,4,4,1,0,1,3/3,0,0,3,1,0,1,2/0,3,0,0,3,3,1,4 S";
    let mv = sow_bonus("b1", &[("d7", None)]);
    let (after, effect) = play(&rules, before, &mv).unwrap();
    assert_eq!(
        after,
        "3,0,3,3,0,3,0,0/1,1,4,4,1,0,1,0/1,2,0,1,0,2,3,1/1,0,1,1,4,0,2,5 N"
    );
    assert_effect(&effect, 7, "b8", &[("c8", 3)], &[("d7", 3)]);
}

/// EXAMPLES.md, "Nsolo (ccw, bonus=equal): capture, then the bonus".
#[test]
fn example_ccw_equal_capture_then_bonus() {
    let rules = rules(12, "bonus=equal repeat=4 sow=ccw");
    let before = "0,1,4,4,2,1,3,0,5,0,3,0/2,1,4,0,1,1,3,0,1,0,0,6/0,1,4,1,0,4,0,5,2,1,1,3/5,1,1,4,4,1,0,4,1,0,1,2 N";
    let mv = sow_bonus(
        "d5",
        &[("b4", None), ("a3", None), ("a9", None), ("b9", None)],
    );
    let (after, effect) = play(&rules, before, &mv).unwrap();
    assert_eq!(
        after,
        "1,2,0,5,0,1,3,0,5,0,3,0/3,2,0,1,2,2,4,1,1,0,0,6/0,1,4,0,0,4,0,0,0,1,1,3/5,1,0,4,4,1,0,4,0,0,1,2 S"
    );
    assert_effect(
        &effect,
        3,
        "c8",
        &[("b8", 5)],
        &[("b4", 1), ("a3", 1), ("a9", 1), ("b9", 2)],
    );
}

// ---------------------------------------------------------------------------------------
// Board and start

#[test]
fn start_has_two_stones_in_every_pit_but_the_rightmost_inner_pits() {
    let r8 = rules(8, "");
    assert_eq!(
        Position::initial(&r8).to_string(),
        "2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/2,2,2,2,2,2,2,0/2,2,2,2,2,2,2,2 S"
    );
    let r36 = rules(36, "");
    let start = Position::initial(&r36);
    assert_eq!(start.stones_on_board(), 284);
    assert_eq!(start.stones(pit("b36")), 0);
    assert_eq!(start.stones(pit("c1")), 0);
    assert_eq!(start.stones_of(Side::South), start.stones_of(Side::North));
}

#[test]
fn board_is_four_rows_of_eight_to_thirty_six() {
    assert_eq!(
        Rules::default_for(Game::Nsolo).board(),
        Board::new(4, 8).unwrap()
    );
    assert!(Rules::new(Game::Nsolo, Board::new(4, 7), "").is_err());
    assert!(Rules::new(Game::Nsolo, Board::new(2, 10), "").is_err());
    for cols in [8, 9, 21, 36] {
        assert!(Rules::new(Game::Nsolo, Board::new(4, cols), "").is_ok());
    }
}

// ---------------------------------------------------------------------------------------
// Sowing: clockwise (sow=ccw: counter-clockwise), whole pits, relay, end in an empty pit

const ONE_PIT: &str = "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,2,0,0,0 S";

#[test]
fn sowing_is_clockwise_by_default() {
    let case = Case {
        before: ONE_PIT,
        from: "a5",
        bonus: &[],
        after: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,1,1,0,0,0,0 N",
        laps: 1,
        end: "a3",
        captured: &[],
        taken: &[],
    };
    check_both_seats(&rules(8, ""), &case);
    check_both_seats(&rules(8, "sow=cw"), &case);
}

#[test]
fn sow_ccw_sows_counter_clockwise() {
    check_both_seats(
        &rules(8, "sow=ccw"),
        &Case {
            before: ONE_PIT,
            from: "a5",
            bonus: &[],
            after: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,1,1,0 N",
            laps: 1,
            end: "a7",
            captured: &[],
            taken: &[],
        },
    );
}

#[test]
fn clockwise_circuit_runs_from_the_inner_row_back_to_the_outer_row() {
    // b7, 3 stones: b8, then round the corner to a8 and a7.
    check_both_seats(
        &rules(8, ""),
        &Case {
            before: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,3,0/0,0,0,0,0,0,0,0 S",
            from: "b7",
            bonus: &[],
            after: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,1,1 N",
            laps: 1,
            end: "a7",
            captured: &[],
            taken: &[],
        },
    );
}

#[test]
fn counter_clockwise_circuit_runs_from_the_inner_row_back_to_the_outer_row() {
    // sow=ccw, b2, 3 stones: b1, then round the corner to a1 and a2.
    check_both_seats(
        &rules(8, "sow=ccw"),
        &Case {
            before: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,3,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S",
            from: "b2",
            bonus: &[],
            after: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0 N",
            laps: 1,
            end: "a2",
            captured: &[],
            taken: &[],
        },
    );
}

#[test]
fn a_lap_ending_in_an_occupied_pit_relays_its_whole_content() {
    // a5 (2): a4, a3 (now 2, the last stone included): relay a2, a1 (empty): the end.
    let before = "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,1,0,2,0,0,0 S";
    let case = Case {
        before,
        from: "a5",
        bonus: &[],
        after: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,1,0,1,0,0,0,0 N",
        laps: 2,
        end: "a1",
        captured: &[],
        taken: &[],
    };
    check_both_seats(&rules(8, ""), &case);
    let (_, effect) = play(&rules(8, ""), before, &sow("a5")).unwrap();
    let laps: Vec<(String, String, u32)> = effect
        .laps
        .iter()
        .map(|l| (l.start.to_string(), l.end.to_string(), l.stones))
        .collect();
    assert_eq!(
        laps,
        [("a5".into(), "a3".into(), 2), ("a3".into(), "a1".into(), 2)]
    );
}

#[test]
fn relay_with_sow_ccw() {
    // a5 (2): a6, a7 (now 2): relay a8, b8 (empty, and c8 empty: no capture).
    check_both_seats(
        &rules(8, "sow=ccw"),
        &Case {
            before: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,2,0,1,0 S",
            from: "a5",
            bonus: &[],
            after: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,1,0,1 N",
            laps: 2,
            end: "b8",
            captured: &[],
            taken: &[],
        },
    );
}

#[test]
fn a_lap_round_the_whole_circuit_drops_into_the_origin_pit_too() {
    // 16 stones round a 16-pit circuit: the last lands in the emptied origin: the end.
    check_both_seats(
        &rules(8, ""),
        &Case {
            before: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,16 S",
            from: "a8",
            bonus: &[],
            after: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1 N",
            laps: 1,
            end: "a8",
            captured: &[],
            taken: &[],
        },
    );
}

#[test]
fn a_move_starts_from_an_occupied_own_pit() {
    let r = rules(8, "");
    assert_eq!(
        rejected_both(&r, ONE_PIT, "a4", &[]),
        [
            Illegal::EmptyPit { pit: pit("a4") },
            Illegal::EmptyPit { pit: pit("d5") }
        ]
    );
    assert_eq!(
        rejected_both(&r, ONE_PIT, "d8", &[]),
        [
            Illegal::NotOwnPit {
                pit: pit("d8"),
                side: Side::South
            },
            Illegal::NotOwnPit {
                pit: pit("a1"),
                side: Side::North
            }
        ]
    );
}

// ---------------------------------------------------------------------------------------
// Singletons

const SINGLE_AND_PAIR: &str = "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,1,0,0,0,0,0/0,0,0,0,2,0,0,0 S";
const TWO_SINGLES: &str = "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,1,1,0,0,0,0/0,0,0,0,0,0,0,0 S";

#[test]
fn singletons_may_not_move_while_an_own_pit_holds_two() {
    let r = rules(8, "");
    assert_eq!(
        rejected_both(&r, SINGLE_AND_PAIR, "b3", &[]),
        [
            Illegal::SingletonWhileMultiple { pit: pit("b3") },
            Illegal::SingletonWhileMultiple { pit: pit("c6") }
        ]
    );
    assert_eq!(candidate_starts(&r, SINGLE_AND_PAIR), ["a5"]);
    assert_eq!(candidate_starts(&r, &rotate(SINGLE_AND_PAIR)), ["d4"]);
}

#[test]
fn singletons_move_only_into_an_empty_next_pit() {
    let r = rules(8, "");
    assert_eq!(
        rejected_both(&r, TWO_SINGLES, "b3", &[]),
        [
            Illegal::SingletonBlocked {
                pit: pit("b3"),
                next: pit("b4"),
                stones: 1
            },
            Illegal::SingletonBlocked {
                pit: pit("c6"),
                next: pit("c5"),
                stones: 1
            }
        ]
    );
    assert_eq!(candidate_starts(&r, TWO_SINGLES), ["b4"]);
    check_both_seats(
        &r,
        &Case {
            before: TWO_SINGLES,
            from: "b4",
            bonus: &[],
            after: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,1,0,1,0,0,0/0,0,0,0,0,0,0,0 N",
            laps: 1,
            end: "b5",
            captured: &[],
            taken: &[],
        },
    );
}

#[test]
fn singletons_follow_the_circuit_round_the_corner() {
    check_both_seats(
        &rules(8, ""),
        &Case {
            before: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0 S",
            from: "a1",
            bonus: &[],
            after: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 N",
            laps: 1,
            end: "b1",
            captured: &[],
            taken: &[],
        },
    );
}

#[test]
fn singletons_with_sow_ccw_step_the_other_way() {
    // Counter-clockwise, South's inner row runs b8 -> b1: b4's next pit is b3.
    let r = rules(8, "sow=ccw");
    assert_eq!(candidate_starts(&r, TWO_SINGLES), ["b3"]);
    assert_eq!(
        rejected_both(&r, TWO_SINGLES, "b4", &[]),
        [
            Illegal::SingletonBlocked {
                pit: pit("b4"),
                next: pit("b3"),
                stones: 1
            },
            Illegal::SingletonBlocked {
                pit: pit("c5"),
                next: pit("c6"),
                stones: 1
            }
        ]
    );
}

#[test]
fn a_singleton_move_can_capture() {
    check_both_seats(
        &rules(8, "bonus=none"),
        &Case {
            before: "0,0,0,0,0,0,0,1/0,0,0,0,2,0,0,0/0,0,0,1,0,0,0,0/0,0,0,0,0,0,0,0 S",
            from: "b4",
            bonus: &[],
            after: "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0 N",
            laps: 1,
            end: "b5",
            captured: &[("c5", 2)],
            taken: &[],
        },
    );
}

// ---------------------------------------------------------------------------------------
// Capture

/// South's a2 (3 stones) sows a1, b1, b2 and ends in the empty b2, opposite c2 (4);
/// behind c2, d2 holds 5; North also has c6 (2) and d7 (1): 8 stones after the capture.
const CAPTURE: &str = "0,5,0,0,0,0,1,0/0,4,0,0,0,2,0,0/0,0,0,0,0,0,0,0/0,3,0,0,0,0,0,0 S";
const CAPTURED: &str = "0,5,0,0,0,0,1,0/0,0,0,0,0,2,0,0/1,1,0,0,0,0,0,0/1,0,0,0,0,0,0,0 N";

#[test]
fn capture_takes_the_opposite_inner_pit_but_not_the_outer_pit_behind() {
    check_both_seats(
        &rules(8, "bonus=none"),
        &Case {
            before: CAPTURE,
            from: "a2",
            bonus: &[],
            after: CAPTURED,
            laps: 1,
            end: "b2",
            captured: &[("c2", 4)],
            taken: &[],
        },
    );
}

#[test]
fn no_capture_when_the_opposite_pit_is_empty() {
    check_both_seats(
        &rules(8, ""),
        &Case {
            before: "0,5,0,0,0,0,1,0/0,0,0,0,0,2,0,0/0,0,0,0,0,0,0,0/0,3,0,0,0,0,0,0 S",
            from: "a2",
            bonus: &[],
            after: "0,5,0,0,0,0,1,0/0,0,0,0,0,2,0,0/1,1,0,0,0,0,0,0/1,0,0,0,0,0,0,0 N",
            laps: 1,
            end: "b2",
            captured: &[],
            taken: &[],
        },
    );
}

#[test]
fn no_capture_when_the_move_ends_in_the_outer_row() {
    // a5 ends in a3; c3 is occupied but is not opposite an outer pit.
    check_both_seats(
        &rules(8, ""),
        &Case {
            before: "0,0,0,0,0,0,0,1/0,0,4,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,2,0,0,0 S",
            from: "a5",
            bonus: &[],
            after: "0,0,0,0,0,0,0,1/0,0,4,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,1,1,0,0,0,0 N",
            laps: 1,
            end: "a3",
            captured: &[],
            taken: &[],
        },
    );
}

// ---------------------------------------------------------------------------------------
// bonus=equal (default): exactly min(k, stones left) stones, pit by pit

#[test]
fn equal_bonus_takes_as_many_stones_as_were_captured_pit_by_pit() {
    for options in ["", "bonus=equal"] {
        let r = rules(8, options);
        check_both_seats(
            &r,
            &Case {
                before: CAPTURE,
                from: "a2",
                bonus: &[("d2", Some(3)), ("d7", None)],
                after: "0,2,0,0,0,0,0,0/0,0,0,0,0,2,0,0/1,1,0,0,0,0,0,0/1,0,0,0,0,0,0,0 N",
                laps: 1,
                end: "b2",
                captured: &[("c2", 4)],
                taken: &[("d2", 3), ("d7", 1)],
            },
        );
        check_both_seats(
            &r,
            &Case {
                before: CAPTURE,
                from: "a2",
                bonus: &[("c6", None), ("d2", Some(2))],
                after: "0,3,0,0,0,0,1,0/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0/1,0,0,0,0,0,0,0 N",
                laps: 1,
                end: "b2",
                captured: &[("c2", 4)],
                taken: &[("c6", 2), ("d2", 2)],
            },
        );
    }
}

#[test]
fn equal_bonus_must_total_exactly_the_stones_due() {
    let r = rules(8, "");
    let stones = |taken| Illegal::BonusStones { taken, required: 4 };
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[("d2", Some(3))]),
        [stones(3), stones(3)]
    );
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[("d2", Some(4)), ("d7", None)]),
        [stones(5), stones(5)]
    );
    // A pit named without a count is taken whole: d2 holds 5, one too many.
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[("d2", None)]),
        [stones(5), stones(5)]
    );
}

#[test]
fn equal_bonus_names_each_pit_once() {
    assert_eq!(
        rejected_both(
            &rules(8, ""),
            CAPTURE,
            "a2",
            &[("d2", Some(2)), ("d2", Some(2))]
        ),
        [
            Illegal::BonusNotDistinct { pit: pit("d2") },
            Illegal::BonusNotDistinct { pit: pit("a7") }
        ]
    );
}

#[test]
fn equal_bonus_counts_run_from_one_to_the_pit_content() {
    let r = rules(8, "");
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[("d7", Some(4))]),
        [
            Illegal::BonusTooMany {
                pit: pit("d7"),
                stones: 4,
                holds: 1
            },
            Illegal::BonusTooMany {
                pit: pit("a2"),
                stones: 4,
                holds: 1
            }
        ]
    );
    assert_eq!(
        rejected_both(
            &r,
            CAPTURE,
            "a2",
            &[("d2", Some(0)), ("c6", Some(2)), ("d7", None)]
        ),
        [
            Illegal::BonusZero { pit: pit("d2") },
            Illegal::BonusZero { pit: pit("a7") }
        ]
    );
    assert_eq!(
        play(&r, CAPTURE, &sow_bonus("a2", &[("d2", Some(u16::MAX))])).unwrap_err(),
        Illegal::BonusTooMany {
            pit: pit("d2"),
            stones: u16::MAX,
            holds: 5
        }
    );
}

#[test]
fn equal_bonus_pits_are_occupied_opponent_pits() {
    let r = rules(8, "");
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[("d1", Some(1)), ("d2", Some(3))]),
        [
            Illegal::BonusEmptyPit { pit: pit("d1") },
            Illegal::BonusEmptyPit { pit: pit("a8") }
        ]
    );
    // The captured pit is empty by now.
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[("c2", Some(1)), ("d2", Some(3))]),
        [
            Illegal::BonusEmptyPit { pit: pit("c2") },
            Illegal::BonusEmptyPit { pit: pit("b7") }
        ]
    );
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[("a1", Some(1)), ("d2", Some(3))]),
        [
            Illegal::BonusNotOpponent { pit: pit("a1") },
            Illegal::BonusNotOpponent { pit: pit("d8") }
        ]
    );
    assert_eq!(
        play(&r, CAPTURE, &sow_bonus("a2", &[("d9", Some(1))])).unwrap_err(),
        Illegal::NoSuchPit { pit: pit("d9") }
    );
}

#[test]
fn equal_bonus_due_but_not_written_is_an_error() {
    assert_eq!(
        rejected_both(&rules(8, ""), CAPTURE, "a2", &[]),
        [Illegal::BonusMissing, Illegal::BonusMissing]
    );
}

#[test]
fn equal_bonus_is_cut_to_the_stones_left_on_the_opponent_side() {
    // Captured 4, but only d7 (1) is left: the bonus is 1 stone.
    let before = "0,0,0,0,0,0,1,0/0,4,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,3,0,0,0,0,0,0 S";
    let r = rules(8, "");
    check_both_seats(
        &r,
        &Case {
            before,
            from: "a2",
            bonus: &[("d7", None)],
            after: "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0/1,0,0,0,0,0,0,0 N",
            laps: 1,
            end: "b2",
            captured: &[("c2", 4)],
            taken: &[("d7", 1)],
        },
    );
    let pos = Position::parse(&r, before).unwrap();
    let capture = games::legal_moves(&r, &pos)
        .into_iter()
        .find(|c| c.captures)
        .unwrap();
    assert_eq!(
        capture.bonus,
        BonusChoice::Stones {
            stones: 1,
            eligible: vec![(pit("d7"), 1)]
        }
    );
}

#[test]
fn no_bonus_is_due_when_the_opponent_has_nothing_left() {
    let before = "0,0,0,0,0,0,0,0/0,4,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,3,0,0,0,0,0,0 S";
    for options in ["", "bonus=hole"] {
        let r = rules(8, options);
        check_both_seats(
            &r,
            &Case {
                before,
                from: "a2",
                bonus: &[],
                after: "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0/1,0,0,0,0,0,0,0 N",
                laps: 1,
                end: "b2",
                captured: &[("c2", 4)],
                taken: &[],
            },
        );
        assert_eq!(
            rejected_both(&r, before, "a2", &[("c2", None)]),
            [Illegal::BonusNotDue, Illegal::BonusNotDue]
        );
        let pos = Position::parse(&r, before).unwrap();
        let capture = games::legal_moves(&r, &pos)
            .into_iter()
            .find(|c| c.captures)
            .unwrap();
        assert_eq!(capture.bonus, BonusChoice::None);
    }
}

#[test]
fn a_bonus_written_on_a_move_that_did_not_capture_is_not_due() {
    let before = "0,5,0,0,0,0,1,0/0,4,0,0,0,2,0,0/0,0,0,0,0,0,0,0/0,0,0,0,2,0,0,0 S";
    for options in ["", "bonus=hole", "bonus=none"] {
        assert_eq!(
            rejected_both(&rules(8, options), before, "a5", &[("d2", None)]),
            [Illegal::BonusNotDue, Illegal::BonusNotDue]
        );
    }
}

#[test]
fn equal_bonus_candidate_offers_the_stones_and_the_opponent_pits() {
    let r = rules(8, "");
    let pos = Position::parse(&r, CAPTURE).unwrap();
    let moves = games::legal_moves(&r, &pos);
    assert_eq!(moves.len(), 1);
    assert!(moves[0].captures);
    assert_eq!(moves[0].mv, sow("a2"));
    assert_eq!(
        moves[0].bonus,
        BonusChoice::Stones {
            stones: 4,
            eligible: vec![(pit("c6"), 2), (pit("d2"), 5), (pit("d7"), 1)]
        }
    );
}

// ---------------------------------------------------------------------------------------
// bonus=hole: one other non-empty opponent pit, whole

#[test]
fn hole_bonus_takes_one_whole_pit_whatever_was_captured() {
    let r = rules(8, "bonus=hole");
    for bonus in [None, Some(5)] {
        check_both_seats(
            &r,
            &Case {
                before: CAPTURE,
                from: "a2",
                bonus: &[("d2", bonus)],
                after: "0,0,0,0,0,0,1,0/0,0,0,0,0,2,0,0/1,1,0,0,0,0,0,0/1,0,0,0,0,0,0,0 N",
                laps: 1,
                end: "b2",
                captured: &[("c2", 4)],
                taken: &[("d2", 5)],
            },
        );
    }
}

#[test]
fn hole_bonus_count_must_be_the_whole_pit() {
    assert_eq!(
        rejected_both(&rules(8, "bonus=hole"), CAPTURE, "a2", &[("d2", Some(3))]),
        [Illegal::BonusHoleCount, Illegal::BonusHoleCount]
    );
}

#[test]
fn hole_bonus_is_exactly_one_pit() {
    let r = rules(8, "bonus=hole");
    let two = Illegal::BonusCount {
        taken: 2,
        required: 1,
    };
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[("d2", None), ("d7", None)]),
        [two.clone(), two]
    );
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[]),
        [Illegal::BonusMissing, Illegal::BonusMissing]
    );
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[("c2", None)]),
        [
            Illegal::BonusEmptyPit { pit: pit("c2") },
            Illegal::BonusEmptyPit { pit: pit("b7") }
        ]
    );
}

#[test]
fn hole_bonus_candidate_offers_one_of_the_opponent_pits() {
    let r = rules(8, "bonus=hole");
    let pos = Position::parse(&r, CAPTURE).unwrap();
    let moves = games::legal_moves(&r, &pos);
    assert_eq!(
        moves[0].bonus,
        BonusChoice::Pits {
            count: 1,
            eligible: vec![pit("c6"), pit("d2"), pit("d7")]
        }
    );
}

// ---------------------------------------------------------------------------------------
// bonus=none

#[test]
fn bonus_none_captures_without_a_bonus() {
    let r = rules(8, "bonus=none");
    assert_eq!(
        rejected_both(&r, CAPTURE, "a2", &[("d2", Some(4))]),
        [Illegal::BonusNotDue, Illegal::BonusNotDue]
    );
    let pos = Position::parse(&r, CAPTURE).unwrap();
    let moves = games::legal_moves(&r, &pos);
    assert_eq!(
        (moves[0].captures, &moves[0].bonus),
        (true, &BonusChoice::None)
    );
}

// ---------------------------------------------------------------------------------------
// Mode::Foul: executable breaches are played and recorded, others still fail

#[test]
fn foul_singleton_is_played_and_recorded() {
    let r = rules(8, "");
    let (after, effect) = play_mode(&r, SINGLE_AND_PAIR, &sow("b3"), Mode::Foul).unwrap();
    assert_eq!(
        after,
        "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,1,0,0,0,0/0,0,0,0,2,0,0,0 N"
    );
    assert_eq!(
        effect.fouls,
        [Illegal::SingletonWhileMultiple { pit: pit("b3") }]
    );
    // A blocked single stone lands in an occupied pit, so it relays: b4 (2) -> b5, b6.
    let (after, effect) = play_mode(&r, TWO_SINGLES, &sow("b3"), Mode::Foul).unwrap();
    assert_eq!(
        after,
        "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,1,1,0,0/0,0,0,0,0,0,0,0 N"
    );
    assert_eq!(effect.lap_count, 2);
    assert_eq!(
        effect.fouls,
        [Illegal::SingletonBlocked {
            pit: pit("b3"),
            next: pit("b4"),
            stones: 1
        }]
    );
}

#[test]
fn foul_bonus_is_taken_as_written_and_recorded() {
    let (after, effect) = play_mode(&rules(8, ""), CAPTURE, &sow("a2"), Mode::Foul).unwrap();
    assert_eq!(after, CAPTURED);
    assert_eq!(effect.fouls, [Illegal::BonusMissing]);
    let mv = sow_bonus("a2", &[("d2", Some(1))]);
    let (after, effect) = play_mode(&rules(8, ""), CAPTURE, &mv, Mode::Foul).unwrap();
    assert_eq!(
        after,
        "0,4,0,0,0,0,1,0/0,0,0,0,0,2,0,0/1,1,0,0,0,0,0,0/1,0,0,0,0,0,0,0 N"
    );
    assert_eq!(
        effect.fouls,
        [Illegal::BonusStones {
            taken: 1,
            required: 4
        }]
    );
    let mv = sow_bonus("a2", &[("d2", Some(3))]);
    let (_, effect) = play_mode(&rules(8, "bonus=hole"), CAPTURE, &mv, Mode::Foul).unwrap();
    assert_eq!(pits_taken(&effect.bonus), owned(&[("d2", 3)]));
    assert_eq!(effect.fouls, [Illegal::BonusHoleCount]);
    let mv = sow_bonus("a2", &[("d2", None)]);
    let (_, effect) = play_mode(&rules(8, "bonus=none"), CAPTURE, &mv, Mode::Foul).unwrap();
    assert_eq!(effect.fouls, [Illegal::BonusNotDue]);
}

#[test]
fn foul_does_not_execute_what_cannot_be_executed() {
    let r = rules(8, "");
    assert_eq!(
        play_mode(&r, ONE_PIT, &sow("a4"), Mode::Foul).unwrap_err(),
        Illegal::EmptyPit { pit: pit("a4") }
    );
    let mv = sow_bonus("a2", &[("a1", Some(1))]);
    assert_eq!(
        play_mode(&r, CAPTURE, &mv, Mode::Foul).unwrap_err(),
        Illegal::BonusNotOpponent { pit: pit("a1") }
    );
    assert!(matches!(
        play_mode(&r, ENDLESS, &sow("a1"), Mode::Foul),
        Err(Illegal::EndlessSowing { .. })
    ));
}

// ---------------------------------------------------------------------------------------
// Whatever the move, apply answers with a reason and never panics

#[test]
fn moves_off_the_board_or_of_the_wrong_kind_are_rejected() {
    let r = rules(8, "");
    for bad in [
        Pit::new(0, 9),
        Pit::new(0, 0),
        Pit::new(7, 1),
        Pit::new(0, 200),
        Pit::new(255, 255),
    ] {
        let mv = Move::Sow(Sowing::from(bad));
        assert_eq!(
            play(&r, ONE_PIT, &mv).unwrap_err(),
            Illegal::NoSuchPit { pit: bad }
        );
    }
    let redistribution = Move::Redistribute(Redistribution {
        emptied: [pit("a5"), pit("a4")],
        placed: vec![(pit("a1"), 2)],
    });
    assert_eq!(
        play(&r, ONE_PIT, &redistribution).unwrap_err(),
        Illegal::RedistributionNotAllowed
    );
    for lift in [0, 1, 2, u16::MAX] {
        let mv = Move::Sow(Sowing {
            lift: Some(lift),
            ..Sowing::from(pit("a5"))
        });
        assert_eq!(
            play(&r, ONE_PIT, &mv).unwrap_err(),
            Illegal::PartialLiftNotAllowed
        );
    }
    let stop = Move::Sow(Sowing {
        stop: Some(HeadStop {
            head: pit("a8"),
            arrival: 1,
        }),
        ..Sowing::from(pit("a5"))
    });
    assert!(matches!(
        play(&r, ONE_PIT, &stop),
        Err(Illegal::ChoiceNotOffered { .. })
    ));
}

// ---------------------------------------------------------------------------------------
// Endless sowing

/// South's only pit of two or more, a1 (15), sows for ever; the single stones may not
/// move while it holds two or more, so South has no legal move.
const ENDLESS: &str = "1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,0,1,0,1,0,1,0/15,1,0,1,0,1,0,1 S";

/// Relay-sows from a pit the plain way, for at most `max_laps` laps: `Some((laps, end))`
/// if the move ended, `None` if it was still going.
fn naive_sowing(rules: &Rules, pos: &Position, from: Pit, max_laps: u64) -> Option<(u64, Pit)> {
    let board = rules.board();
    let circuit = rules.circuit(pos.side());
    let mut pits = pos.board_pits().to_vec();
    let mut place = circuit
        .iter()
        .position(|&p| p as usize == board.index(from))
        .unwrap();
    let mut hand = std::mem::take(&mut pits[board.index(from)]);
    for lap in 1..=max_laps {
        while hand > 0 {
            place = (place + 1) % circuit.len();
            pits[circuit[place] as usize] += 1;
            hand -= 1;
        }
        let end = circuit[place] as usize;
        if pits[end] == 1 {
            return Some((lap, board.pit(end)));
        }
        hand = std::mem::take(&mut pits[end]);
    }
    None
}

#[test]
fn endless_sowing_is_illegal() {
    let r = rules(8, "");
    let [south, north] = rejected_both(&r, ENDLESS, "a1", &[]);
    assert!(matches!(south, Illegal::EndlessSowing { .. }), "{south:?}");
    assert!(matches!(north, Illegal::EndlessSowing { .. }), "{north:?}");
    let pos = Position::parse(&r, ENDLESS).unwrap();
    assert_eq!(naive_sowing(&r, &pos, pit("a1"), 200_000), None);
    assert!(games::legal_moves(&r, &pos).is_empty());
}

/// a3 (2) sows for ever; b8 (2) is a move.
const ONE_ENDLESS: &str = "1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,1,0,1,0,1,0,2/1,0,2,1,0,1,0,1 S";

#[test]
fn play_random_tries_another_start_after_an_endless_sowing() {
    let r = rules(8, "");
    let pos = Position::parse(&r, ONE_ENDLESS).unwrap();
    let mut probe = pos.clone();
    let mut effect = Effect::default();
    let endless = games::apply(&r, &mut probe, &sow("a3"), Mode::Legal, &mut effect);
    assert!(
        matches!(endless, Err(Illegal::EndlessSowing { .. })),
        "{endless:?}"
    );
    assert_eq!(candidate_starts(&r, ONE_ENDLESS), ["b8"]);
    for seed in 0..40 {
        let mut played = pos.clone();
        let mv = games::play_random(&r, &mut played, &mut Rng::new(seed), &mut effect).unwrap();
        assert_eq!(mv, sow("b8"));
        let mut replayed = pos.clone();
        let mut again = Effect::default();
        games::apply(&r, &mut replayed, &mv, Mode::Legal, &mut again).unwrap();
        assert_eq!((played, effect.clone()), (replayed, again));
    }
    // Only endless sowings: no move, and the position is left as it was.
    let pos = Position::parse(&r, ENDLESS).unwrap();
    let mut played = pos.clone();
    assert_eq!(
        games::play_random(&r, &mut played, &mut Rng::new(1), &mut effect),
        None
    );
    assert_eq!(played, pos);
}

// ---------------------------------------------------------------------------------------
// End of the game and the repetition draw (GameState)

/// A capture-free cycle of 96 plies from this position back to it (found by search).
const CYCLE_START: &str = "0,1,0,0,0,1,0,0/0,0,0,0,0,1,0,0/1,0,0,1,0,0,0,1/2,0,0,0,0,0,0,0 S";
const CYCLE: &str = "a1 d6 b1 c6 b2 c5 b3 d7 b6 d8 b7 d2 a7 d3 a6 c4 a5 c3 a4 c2 a3 c1 a2 c8 a1 c7 b1 c6 b2 c5 b3 d1 b6 d2 b7 d4 a7 d3 a6 c4 a5 c3 a4 c2 a3 c1 a2 d1 a1 d2 b1 d5 b2 d6 b3 d7 b6 d8 b7 d4 a7 d3 a6 d5 a5 d4 a4 d6 a3 d5 a2 c8 a1 c7 b1 c6 b2 c5 b3 d7 b6 d8 b7 c8 a7 c7 a6 c4 a5 c3 a4 c2 a3 c1 a2 d1";

/// Plays the cycle's plies from the set-up until the game ends; the plies played.
fn play_cycle(options: &str) -> (GameState, u32) {
    let r = rules(8, options);
    let pos = Position::parse(&r, CYCLE_START).unwrap();
    let mut game = GameState::new(r, pos);
    let plies: Vec<&str> = CYCLE.split(' ').collect();
    assert_eq!(plies.len(), 96);
    for (n, from) in plies.iter().cycle().enumerate() {
        if game.outcome().is_some() {
            return (game, n as u32);
        }
        let effect = game.play(&sow(from), Mode::Legal).unwrap();
        assert!(!effect.is_capture(), "ply {n} captured");
        if n % 96 == 95 {
            assert_eq!(game.position().to_string(), CYCLE_START);
        }
    }
    unreachable!()
}

#[test]
fn repetition_draws_on_the_third_occurrence_by_default_counting_the_setup() {
    let (mut game, plies) = play_cycle("");
    assert_eq!(plies, 192);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Repetition
        })
    );
    assert_eq!(
        game.play(&sow("a1"), Mode::Legal).unwrap_err(),
        Illegal::GameOver
    );
    assert!(game.legal_moves().is_empty());
}

#[test]
fn repeat_option_sets_the_occurrence_that_draws() {
    assert_eq!(play_cycle("repeat=2").1, 96);
    assert_eq!(play_cycle("repeat=3").1, 192);
    assert_eq!(play_cycle("repeat=4 bonus=hole sow=cw").1, 288);
}

fn outcome_of(options: &str, position: &str) -> Option<Outcome> {
    let r = rules(8, options);
    let pos = Position::parse(&r, position).unwrap();
    GameState::new(r, pos).outcome()
}

fn lost_by(side: Side) -> Option<Outcome> {
    Some(Outcome::Win {
        winner: side.opponent(),
        reason: EndReason::NoLegalMove,
    })
}

#[test]
fn a_side_with_no_legal_move_loses() {
    // Sixteen single stones: every next pit is occupied.
    let blocked = "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1 S";
    for options in ["", "sow=ccw"] {
        assert_eq!(outcome_of(options, blocked), lost_by(Side::South));
        assert_eq!(outcome_of(options, &rotate(blocked)), lost_by(Side::North));
    }
}

#[test]
fn a_side_whose_every_move_is_endless_loses() {
    assert_eq!(outcome_of("", ENDLESS), lost_by(Side::South));
    assert_eq!(outcome_of("", &rotate(ENDLESS)), lost_by(Side::North));
}

#[test]
fn a_side_with_no_stones_loses() {
    let empty = "0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S";
    assert_eq!(outcome_of("", empty), lost_by(Side::South));
    assert_eq!(outcome_of("", &rotate(empty)), lost_by(Side::North));
    assert_eq!(outcome_of("", ONE_PIT), None);
}

#[test]
fn capturing_the_last_stones_wins() {
    let r = rules(8, "");
    let before = "0,0,0,0,0,0,0,0/0,4,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,3,0,0,0,0,0,0 S";
    let mut game = GameState::new(r.clone(), Position::parse(&r, before).unwrap());
    assert_eq!(game.outcome(), None);
    game.play(&sow("a2"), Mode::Legal).unwrap();
    assert_eq!(game.outcome(), lost_by(Side::North));
}

// ---------------------------------------------------------------------------------------
// Property tests over random playouts, for every option set

const OPTION_SETS: [&str; 6] = [
    "",
    "bonus=hole",
    "bonus=none",
    "sow=ccw",
    "bonus=hole sow=ccw",
    "bonus=none sow=ccw",
];

/// Completes a candidate's bonus at random (independently of the module's own choice).
fn complete(candidate: &sow::Candidate, rng: &mut Rng) -> Move {
    let Move::Sow(mut sowing) = candidate.mv.clone() else {
        panic!("Nsolo offered {:?}", candidate.mv)
    };
    match &candidate.bonus {
        BonusChoice::None => {}
        BonusChoice::Pits { count, eligible } => {
            assert_eq!(*count, 1);
            let p = eligible[rng.below(eligible.len())];
            sowing.bonus.push(BonusTake {
                pit: p,
                stones: None,
            });
        }
        BonusChoice::Stones { stones, eligible } => {
            let mut pool = eligible.clone();
            let mut need = *stones;
            while need > 0 {
                let (p, holds) = pool.swap_remove(rng.below(pool.len()));
                let take = need.min(holds as u32) as u16;
                need -= take as u32;
                let stones = if take == holds && rng.coin() {
                    None
                } else {
                    Some(take)
                };
                sowing.bonus.push(BonusTake { pit: p, stones });
            }
        }
        other => panic!("Nsolo offered {other:?}"),
    }
    Move::Sow(sowing)
}

/// What must hold of every applied move: laps add up, the start pit's stones were lifted,
/// laps follow each other, the board lost exactly the stones taken, the turn passed.
fn check_effect(rules: &Rules, before: &Position, after: &Position, mv: &Move, effect: &Effect) {
    let Move::Sow(sowing) = mv else {
        unreachable!()
    };
    assert!(effect.fouls.is_empty());
    assert_eq!(after.side(), before.side().opponent());
    let sown: u64 = effect.laps.iter().map(|l| l.stones as u64).sum();
    if effect.lap_count as usize <= LAP_DETAIL {
        assert_eq!(effect.laps.len() as u64, effect.lap_count);
        assert_eq!(sown, effect.stones_sown);
        assert_eq!(effect.laps.last().map(|l| l.end), effect.end);
    }
    assert_eq!(effect.laps[0].start, sowing.start());
    assert_eq!(effect.laps[0].stones, before.stones(sowing.start()) as u32);
    for pair in effect.laps.windows(2) {
        assert_eq!(pair[1].start, pair[0].end);
    }
    assert_eq!(
        before.stones_on_board(),
        after.stones_on_board() + effect.stones_taken(),
        "stones conserved"
    );
    let naive = naive_sowing(rules, before, sowing.start(), 1_000_000).unwrap();
    assert_eq!(
        (effect.lap_count, effect.end),
        (naive.0, Some(naive.1)),
        "plain relay sowing"
    );
}

fn apply_fresh(rules: &Rules, pos: &Position, mv: &Move) -> Result<(Position, Effect), Illegal> {
    let mut after = pos.clone();
    let mut effect = Effect::default();
    games::apply(rules, &mut after, mv, Mode::Legal, &mut effect)?;
    Ok((after, effect))
}

/// Plays up to `plies` random plies from the start, checking every legal move on the way.
fn check_playout(rules: &Rules, seed: u64, plies: u32) {
    let mut rng = Rng::new(seed);
    let mut pos = Position::initial(rules);
    let mut taken: u32 = 0;
    for _ in 0..plies {
        let candidates = games::legal_moves(rules, &pos);
        assert_eq!(candidates.is_empty(), !games::has_legal_move(rules, &pos));
        for candidate in &candidates {
            let mv = complete(candidate, &mut rng);
            let (after, effect) = apply_fresh(rules, &pos, &mv).unwrap();
            assert_eq!(effect.is_capture(), candidate.captures);
            check_effect(rules, &pos, &after, &mv, &effect);
            assert_eq!(
                apply_fresh(rules, &pos, &mv).unwrap(),
                (after, effect),
                "deterministic"
            );
        }
        // Every other own pit is refused, for a reason about its start.
        let board = rules.board();
        for p in board.pits().filter(|&p| board.owner(p) == pos.side()) {
            if candidates
                .iter()
                .any(|c| c.mv == Move::Sow(Sowing::from(p)))
            {
                continue;
            }
            let err = apply_fresh(rules, &pos, &Move::Sow(Sowing::from(p))).unwrap_err();
            assert!(
                matches!(
                    err,
                    Illegal::EmptyPit { .. }
                        | Illegal::SingletonWhileMultiple { .. }
                        | Illegal::SingletonBlocked { .. }
                        | Illegal::EndlessSowing { .. }
                ),
                "{p}: {err:?}"
            );
        }
        let mut played = pos.clone();
        let mut effect = Effect::default();
        let Some(mv) = games::play_random(rules, &mut played, &mut rng, &mut effect) else {
            assert!(candidates.is_empty());
            assert_eq!(played, pos, "no move, no change");
            return;
        };
        let start = match &mv {
            Move::Sow(s) => s.start(),
            other => panic!("{other:?}"),
        };
        assert!(candidates
            .iter()
            .any(|c| c.mv == Move::Sow(Sowing::from(start))));
        assert_eq!(
            apply_fresh(rules, &pos, &mv).unwrap(),
            (played.clone(), effect.clone())
        );
        taken += effect.stones_taken();
        assert_eq!(
            played.stones_on_board() + taken,
            rules.start_stones(),
            "stones conserved"
        );
        pos = played;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_every_invariant_on_4x8(seed in any::<u64>()) {
        for options in OPTION_SETS {
            check_playout(&rules(8, options), seed, 80);
        }
    }

    #[test]
    fn random_playouts_keep_every_invariant_on_any_board(seed in any::<u64>(), cols in 9u8..=36) {
        for options in OPTION_SETS {
            check_playout(&rules(cols, options), seed, 25);
        }
    }
}
