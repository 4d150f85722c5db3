//! Tsoro through the public API: the worked examples and illegal plies of EXAMPLES.md,
//! one test (or more) per rule of RULES.md's Tsoro section, each for both seats, and
//! property tests over random playouts for every option set.

use proptest::prelude::*;
use sow::games::{apply, has_legal_move, legal_moves, play_random};
use sow::moves::{BonusChoice, BonusTake, Effect, HeadStop, Illegal, Mode, Move, Sowing};
use sow::position::Setup;
use sow::rng::Rng;
use sow::{Board, Game, GameState, Outcome, Pit, Position, Rules, Side};

fn rules(cols: u8, options: &str) -> Rules {
    Rules::new(Game::Tsoro, Board::new(4, cols), options).unwrap()
}

fn pit(name: &str) -> Pit {
    name.parse().unwrap()
}

/// A sowing from `from`, with an optional head stop `(head, k)` and whole bonus pits.
fn sow(from: &str, stop: Option<(&str, u32)>, bonus: &[&str]) -> Move {
    Move::Sow(Sowing {
        from: pit(from),
        lift: None,
        stop: stop.map(|(head, arrival)| HeadStop {
            head: pit(head),
            arrival,
        }),
        bonus: bonus
            .iter()
            .map(|&b| BonusTake {
                pit: pit(b),
                stones: None,
            })
            .collect(),
    })
}

/// Parses and checks a `Position` string.
fn parse(r: &Rules, s: &str) -> Position {
    Position::parse(r, s).unwrap()
}

/// A parsed position whose seats have made these captures before it.
fn parse_with_captures(r: &Rules, s: &str, captures: [u16; 2]) -> Position {
    let mut setup: Setup = s.parse().unwrap();
    setup.captures = captures;
    Position::from_setup(r, &setup).unwrap()
}

/// Both seats' capture counts, South's first.
fn captures(pos: &Position) -> [u16; 2] {
    Side::BOTH.map(|side| pos.captures(side))
}

/// Applies a move to a parsed position; on `Err` checks that the position is unchanged.
fn play_mode(
    r: &Rules,
    before: &str,
    mv: &Move,
    mode: Mode,
) -> Result<(Position, Effect), Illegal> {
    let mut pos = parse(r, before);
    let old = pos.clone();
    let mut effect = Effect::default();
    match apply(r, &mut pos, mv, mode, &mut effect) {
        Ok(()) => Ok((pos, effect)),
        Err(e) => {
            assert_eq!(pos, old, "an illegal move changed the position");
            Err(e)
        }
    }
}

fn play(r: &Rules, before: &str, mv: &Move) -> Result<(Position, Effect), Illegal> {
    play_mode(r, before, mv, Mode::Legal)
}

fn named(list: &[(Pit, u16)]) -> Vec<(String, u16)> {
    list.iter().map(|&(p, s)| (p.to_string(), s)).collect()
}

// ---------------------------------------------------------------------------------------
// Both seats: North's version of a South case is the board turned round (180°), which
// maps aK to d(N+1-K) and bK to c(N+1-K), South's circuit onto North's, aN onto d1 and
// a(N-1) onto d2.

fn turn_pit(name: &str, cols: u8) -> String {
    let p = pit(name);
    Pit::new(3 - p.row, cols + 1 - p.col).to_string()
}

fn turn_position(s: &str) -> String {
    let (board, side) = s.split_once(' ').unwrap();
    let cells: Vec<&str> = board.split('/').flat_map(|row| row.split(',')).collect();
    let cols = cells.len() / 4;
    let rev: Vec<&str> = cells.into_iter().rev().collect();
    let rows: Vec<String> = rev.chunks(cols).map(|row| row.join(",")).collect();
    let side = if side == "S" { "N" } else { "S" };
    format!("{} {side}", rows.join("/"))
}

/// A ply checked for South as written and for North turned round.
struct Case<'a> {
    cols: u8,
    options: &'a str,
    before: &'a str,
    from: &'a str,
    stop: Option<(&'a str, u32)>,
    bonus: &'a [&'a str],
    after: &'a str,
    laps: u64,
    end: &'a str,
    captured: &'a [(&'a str, u16)],
    bonus_taken: &'a [(&'a str, u16)],
    stopped: bool,
}

impl Case<'_> {
    fn check_both_seats(&self) {
        self.check(false);
        self.check(true);
    }

    fn check(&self, turned: bool) {
        let r = rules(self.cols, self.options);
        let t = |name: &str| {
            if turned {
                turn_pit(name, self.cols)
            } else {
                name.to_string()
            }
        };
        let tp = |s: &str| {
            if turned {
                turn_position(s)
            } else {
                s.to_string()
            }
        };
        let from = t(self.from);
        let stop = self.stop.map(|(h, k)| (t(h), k));
        let bonus: Vec<String> = self.bonus.iter().map(|b| t(b)).collect();
        let bonus: Vec<&str> = bonus.iter().map(String::as_str).collect();
        let mv = sow(&from, stop.as_ref().map(|(h, k)| (h.as_str(), *k)), &bonus);
        let seat = if turned { "North" } else { "South" };
        let (pos, effect) = play(&r, &tp(self.before), &mv)
            .unwrap_or_else(|e| panic!("{seat}: {mv} is illegal: {e}"));
        assert_eq!(pos.to_string(), tp(self.after), "{seat}: {mv}");
        assert_eq!(effect.lap_count, self.laps, "{seat}: laps of {mv}");
        assert_eq!(
            effect.end.map(|p| p.to_string()),
            Some(t(self.end)),
            "{seat}: end"
        );
        let turn_list = |list: &[(&str, u16)]| -> Vec<(String, u16)> {
            list.iter().map(|&(p, s)| (t(p), s)).collect()
        };
        assert_eq!(
            named(&effect.captured),
            turn_list(self.captured),
            "{seat}: captured"
        );
        assert_eq!(
            named(&effect.bonus),
            turn_list(self.bonus_taken),
            "{seat}: bonus"
        );
        assert_eq!(
            effect.stopped_at_head, self.stopped,
            "{seat}: stopped at head"
        );
        assert!(effect.fouls.is_empty());
    }
}

/// An illegal ply, checked for South as written and for North turned round.
fn illegal_both_seats(
    cols: u8,
    options: &str,
    before: &str,
    mv: (&str, Option<(&str, u32)>, &[&str]),
) -> [Illegal; 2] {
    let r = rules(cols, options);
    let south = play(&r, before, &sow(mv.0, mv.1, mv.2))
        .map(|_| ())
        .unwrap_err();
    let t = |name: &str| turn_pit(name, cols);
    let from = t(mv.0);
    let stop = mv.1.map(|(h, k)| (t(h), k));
    let bonus: Vec<String> = mv.2.iter().map(|b| t(b)).collect();
    let bonus: Vec<&str> = bonus.iter().map(String::as_str).collect();
    let turned = sow(&from, stop.as_ref().map(|(h, k)| (h.as_str(), *k)), &bonus);
    let north = play(&r, &turn_position(before), &turned)
        .map(|_| ())
        .unwrap_err();
    [south, north]
}

// ---------------------------------------------------------------------------------------
// EXAMPLES.md: worked plies.

#[test]
fn example_relay_sowing_over_several_laps() {
    Case {
        cols: 12,
        options: "bonus=2 head-bonus=yes heads=1",
        before: "4,3,3,0,3,0,2,2,2,2,2,2/0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0/2,2,2,2,2,2,0,3,0,3,3,4 S",
        from: "a3",
        stop: None,
        bonus: &[],
        after: "4,3,3,0,3,0,2,2,2,2,2,2/0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1,1,1,1,1/2,2,0,3,0,3,1,0,1,4,4,0 N",
        laps: 4,
        end: "b8",
        captured: &[],
        bonus_taken: &[],
        stopped: false,
    }
    .check(false);
}

const EXAMPLE_CAPTURE: &str = "1,4,4,1,0,1,1,3,0,2,2,2/1,1,1,1,0,0,0,0,0,0,0,0/0,0,0,0,1,1,1,4,0,1,4,0/2,2,0,0,1,4,0,1,0,0,1,2 N";

#[test]
fn example_capture_of_inner_and_outer_pit_then_bonus_pits() {
    Case {
        cols: 12,
        options: "bonus=2 head-bonus=yes heads=1",
        before: EXAMPLE_CAPTURE,
        from: "d3",
        stop: None,
        bonus: &["a11", "b10"],
        after: "2,5,0,1,0,1,1,3,0,2,2,2/2,0,2,0,1,1,0,0,0,0,0,0/0,0,0,0,1,0,1,4,0,0,4,0/2,2,0,0,1,0,0,1,0,0,0,2 S",
        laps: 3,
        end: "c6",
        captured: &[("b6", 1), ("a6", 4)],
        bonus_taken: &[("a11", 1), ("b10", 1)],
        stopped: false,
    }
    .check(false);
}

#[test]
fn example_single_stone_steps_into_the_empty_next_pit() {
    Case {
        cols: 12,
        options: "bonus=2 head-bonus=yes heads=1",
        before: "0,1,0,2,0,2,1,0,0,1,1,0/1,1,1,0,1,0,0,0,2,1,0,0/0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,1,0,0,1,0,1,1,0 S",
        from: "a5",
        stop: None,
        bonus: &[],
        after: "0,1,0,2,0,2,1,0,0,1,1,0/1,1,1,0,1,0,0,0,2,1,0,0/0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,1,0,1,0,1,1,0 N",
        laps: 1,
        end: "a6",
        captured: &[],
        bonus_taken: &[],
        stopped: false,
    }
    .check(false);
}

#[test]
fn example_player_stops_at_an_occupied_head() {
    Case {
        cols: 21,
        options: "bonus=2 head-bonus=no heads=1",
        before: "1,5,2,1,0,1,3,0,3,3,0,3,3,0,3,1,3,3,0,3,0/1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1/2,0,3,0,3,1,0,1,4,2,1,1,0,5,0,5,1,1,4,4,1 N",
        from: "d3",
        stop: Some(("d1", 1)),
        bonus: &[],
        after: "2,6,0,1,0,1,3,0,3,3,0,3,3,0,3,1,3,3,0,3,0/1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1/2,0,3,0,3,1,0,1,4,2,1,1,0,5,0,5,1,1,4,4,1 S",
        laps: 1,
        end: "d1",
        captured: &[],
        bonus_taken: &[],
        stopped: true,
    }
    .check(false);
}

// EXAMPLES.md: illegal plies.

#[test]
fn example_illegal_plies() {
    let r = rules(12, "heads=1 head-bonus=yes");
    let e = play(&r, EXAMPLE_CAPTURE, &sow("d1", None, &[])).unwrap_err();
    assert_eq!(e, Illegal::SingletonWhileMultiple { pit: pit("d1") });
    let e = play(&r, EXAMPLE_CAPTURE, &sow("d3", None, &["a11"])).unwrap_err();
    assert_eq!(
        e,
        Illegal::BonusCount {
            taken: 1,
            required: 2
        }
    );
    assert_eq!(e.to_string(), "1 bonus pits taken, 2 required");
    let e = play(&r, EXAMPLE_CAPTURE, &sow("d3", None, &["a11", "a11"])).unwrap_err();
    assert_eq!(e, Illegal::BonusNotDistinct { pit: pit("a11") });
    assert!(
        e.to_string().starts_with("bonus pits must be distinct"),
        "{e}"
    );
    let e = play(&r, EXAMPLE_CAPTURE, &sow("b5", None, &[])).unwrap_err();
    assert_eq!(
        e,
        Illegal::NotOwnPit {
            pit: pit("b5"),
            side: Side::North
        }
    );
    assert!(play(&r, EXAMPLE_CAPTURE, &sow("d3", None, &["a11", "b10"])).is_ok());
}

// ---------------------------------------------------------------------------------------
// RULES.md, Tsoro: one or more tests per rule, on a 4x6 board unless the rule is about
// the board. Positions list the rows d / c / b / a.

const EMPTY_NORTH: &str = "0,0,0,0,0,0/0,0,0,0,0,0";

fn south(b: &str, a: &str) -> String {
    format!("{EMPTY_NORTH}/{b}/{a} S")
}

fn south_after(b: &str, a: &str) -> String {
    format!("{EMPTY_NORTH}/{b}/{a} N")
}

#[test]
fn board_every_allowed_size_starts_with_two_stones_in_outer_pits_and_plays() {
    for cols in [6, 8, 12, 15, 18, 21] {
        for (heads, extra) in [("2", 0), ("1", 2), ("0", 0)] {
            let r = rules(cols, &format!("heads={heads}"));
            let pos = Position::initial(&r);
            assert_eq!(pos.stones_on_board(), 4 * cols as u32 + extra);
            // South's first move from a1 drops one stone into a2 and a3 and relays there.
            let moves = legal_moves(&r, &pos);
            assert!(!moves.is_empty(), "4x{cols} heads={heads}");
            assert!(has_legal_move(&r, &pos));
        }
    }
}

#[test]
fn sowing_is_counter_clockwise_and_lifts_the_whole_pit() {
    let base = Case {
        cols: 6,
        options: "heads=0",
        before: &south("0,0,0,0,0,0", "3,0,0,0,0,0"),
        from: "a1",
        stop: None,
        bonus: &[],
        after: &south_after("0,0,0,0,0,0", "0,1,1,1,0,0"),
        laps: 1,
        end: "a4",
        captured: &[],
        bonus_taken: &[],
        stopped: false,
    };
    base.check_both_seats();
    // Round the corner: from the outer row's right end into the inner row, right to left.
    Case {
        before: &south("0,0,0,0,0,0", "0,0,0,0,3,0"),
        from: "a5",
        after: &south_after("0,0,0,0,1,1", "0,0,0,0,0,1"),
        end: "b5",
        ..base
    }
    .check_both_seats();
    // And from the inner row's left end back into the outer row.
    Case {
        before: &south("0,2,0,0,0,0", "0,0,0,0,0,0"),
        from: "b2",
        after: &south_after("1,0,0,0,0,0", "1,0,0,0,0,0"),
        end: "a1",
        ..base
    }
    .check_both_seats();
}

#[test]
fn sowing_round_the_whole_circuit_does_not_skip_the_origin() {
    // 13 stones on a 12-pit circuit: a whole round (a1 included), then a2 holds 2; the
    // relays go a2 -> a4 -> a6 -> b5 -> b3 -> b1 -> a2 (emptied by the first relay).
    Case {
        cols: 6,
        options: "heads=0",
        before: &south("0,0,0,0,0,0", "13,0,0,0,0,0"),
        from: "a1",
        stop: None,
        bonus: &[],
        after: &south_after("0,2,0,2,0,2", "2,1,2,0,2,0"),
        laps: 7,
        end: "a2",
        captured: &[],
        bonus_taken: &[],
        stopped: false,
    }
    .check_both_seats();
}

#[test]
fn relay_at_an_occupied_pit_that_is_not_a_head() {
    Case {
        cols: 6,
        options: "heads=0",
        before: &south("0,0,0,0,0,0", "2,0,1,0,0,0"),
        from: "a1",
        stop: None,
        bonus: &[],
        after: &south_after("0,0,0,0,0,0", "0,1,0,1,1,0"),
        laps: 2,
        end: "a5",
        captured: &[],
        bonus_taken: &[],
        stopped: false,
    }
    .check_both_seats();
}

#[test]
fn occupied_head_the_player_stops_there() {
    // heads=2: South's heads are a5 and a6 (North's d2 and d1).
    Case {
        cols: 6,
        options: "",
        before: &south("0,0,0,0,0,0", "0,0,2,0,1,0"),
        from: "a3",
        stop: Some(("a5", 1)),
        bonus: &[],
        after: &south_after("0,0,0,0,0,0", "0,0,0,1,2,0"),
        laps: 1,
        end: "a5",
        captured: &[],
        bonus_taken: &[],
        stopped: true,
    }
    .check_both_seats();
}

#[test]
fn occupied_head_the_player_relays_when_no_stop_is_named() {
    Case {
        cols: 6,
        options: "",
        before: &south("0,0,0,0,0,0", "0,0,2,0,1,0"),
        from: "a3",
        stop: None,
        bonus: &[],
        after: &south_after("0,0,0,0,0,1", "0,0,0,1,0,1"),
        laps: 2,
        end: "b6",
        captured: &[],
        bonus_taken: &[],
        stopped: false,
    }
    .check_both_seats();
}

/// South a = 2,1,0,1,4,0 and b = 0,1,0,1,0,1 on 4x6, sowing a5: by hand, lap 5 ends at
/// a6 holding 2 (first arrival), lap 10 at a5 holding 2, lap 15 at a6 holding 2 again.
const ARRIVALS: (&str, &str) = ("0,1,0,1,0,1", "2,1,0,1,4,0");

#[test]
fn occupied_head_the_kth_arrival_counts_laps_ending_there_occupied() {
    let base = Case {
        cols: 6,
        options: "heads=1",
        before: &south(ARRIVALS.0, ARRIVALS.1),
        from: "a5",
        stop: Some(("a6", 1)),
        bonus: &[],
        after: &south_after("1,0,1,0,1,2", "0,2,1,0,1,2"),
        laps: 5,
        end: "a6",
        captured: &[],
        bonus_taken: &[],
        stopped: true,
    };
    base.check_both_seats();
    Case {
        stop: Some(("a6", 2)),
        after: &south_after("1,0,1,2,1,0", "0,1,0,2,1,2"),
        laps: 15,
        ..base
    }
    .check_both_seats();
    // With two heads, a5 is a head too: lap 10 is its first arrival.
    Case {
        options: "heads=2",
        stop: Some(("a5", 1)),
        after: &south_after("0,1,0,1,0,3", "1,0,2,1,2,0"),
        laps: 10,
        end: "a5",
        ..base
    }
    .check_both_seats();
}

#[test]
fn occupied_head_a_stop_never_reached_leaves_the_move_to_end_by_itself() {
    // The stop names the head a5 for its 9th arrival, which never comes.
    let r = rules(6, "");
    let before = south("0,0,0,0,0,0", "0,0,2,0,1,0");
    let (pos, effect) = play(&r, &before, &sow("a3", Some(("a5", 9)), &[])).unwrap();
    assert_eq!(pos.to_string(), south_after("0,0,0,0,0,1", "0,0,0,1,0,1"));
    assert!(!effect.stopped_at_head);
    assert_eq!(effect.end, Some(pit("b6")));
}

#[test]
fn heads_which_pits_are_heads_under_each_option() {
    let before = south("0,0,0,0,0,0", "0,0,2,0,1,0");
    // (options, head named, whether it is a head of South)
    for (options, head, is_head) in [
        ("", "a5", true),
        ("", "a6", true),
        ("", "a4", false),
        ("heads=1", "a6", true),
        ("heads=1", "a5", false),
        ("heads=0", "a6", false),
        ("heads=0", "a5", false),
        // North's heads are no stop for South.
        ("", "d1", false),
    ] {
        let r = rules(6, options);
        let result = play(&r, &before, &sow("a3", Some((head, 1)), &[]));
        match result {
            Err(Illegal::NotAHead { pit: p, side }) => {
                assert!(!is_head, "{options}: {head}");
                assert_eq!((p, side), (pit(head), Side::South));
            }
            Ok(_) => assert!(is_head, "{options}: {head}"),
            Err(e) => panic!("{options}: {head}: {e}"),
        }
    }
    let [s, n] = illegal_both_seats(6, "heads=1", &before, ("a3", Some(("a5", 1)), &[]));
    assert!(matches!(s, Illegal::NotAHead { .. }) && matches!(n, Illegal::NotAHead { .. }));
}

#[test]
fn heads_zero_every_occupied_lap_end_relays() {
    // The sowing that stops at a5 or relays on under two heads simply relays.
    Case {
        cols: 6,
        options: "heads=0",
        before: &south("0,0,0,0,0,0", "0,0,2,0,1,0"),
        from: "a3",
        stop: None,
        bonus: &[],
        after: &south_after("0,0,0,0,0,1", "0,0,0,1,0,1"),
        laps: 2,
        end: "b6",
        captured: &[],
        bonus_taken: &[],
        stopped: false,
    }
    .check_both_seats();
}

#[test]
fn heads_a_move_may_end_by_itself_in_an_empty_head() {
    Case {
        cols: 6,
        options: "",
        before: &south("0,0,0,0,0,0", "0,0,0,2,0,0"),
        from: "a4",
        stop: Some(("a6", 1)),
        bonus: &[],
        after: &south_after("0,0,0,0,0,0", "0,0,0,0,1,1"),
        laps: 1,
        end: "a6",
        captured: &[],
        bonus_taken: &[],
        stopped: false,
    }
    .check_both_seats();
}

#[test]
fn move_ends_when_a_lap_ends_in_an_empty_pit() {
    let r = rules(6, "heads=0");
    let (pos, effect) = play(
        &r,
        &south("0,0,0,0,0,0", "2,0,0,0,0,0"),
        &sow("a1", None, &[]),
    )
    .unwrap();
    assert_eq!(effect.end, Some(pit("a3")));
    assert_eq!(effect.lap_count, 1);
    assert_eq!(pos.side(), Side::North);
}

#[test]
fn start_must_be_an_own_non_empty_pit() {
    let before = south("0,0,0,0,0,0", "2,0,0,0,0,0");
    let [s, n] = illegal_both_seats(6, "", &before, ("a2", None, &[]));
    assert_eq!(s, Illegal::EmptyPit { pit: pit("a2") });
    assert_eq!(n, Illegal::EmptyPit { pit: pit("d5") });
    let r = rules(6, "");
    let e = play(&r, &before, &sow("c1", None, &[])).unwrap_err();
    assert_eq!(
        e,
        Illegal::NotOwnPit {
            pit: pit("c1"),
            side: Side::South
        }
    );
}

#[test]
fn singletons_only_when_no_own_pit_holds_two_or_more() {
    let before = south("0,0,0,0,0,0", "1,0,2,0,0,0");
    let [s, n] = illegal_both_seats(6, "", &before, ("a1", None, &[]));
    assert_eq!(s, Illegal::SingletonWhileMultiple { pit: pit("a1") });
    assert_eq!(n, Illegal::SingletonWhileMultiple { pit: pit("d6") });
}

#[test]
fn singletons_only_into_an_empty_next_pit() {
    let before = south("0,0,0,0,0,0", "1,1,0,0,0,0");
    let [s, n] = illegal_both_seats(6, "", &before, ("a1", None, &[]));
    assert_eq!(
        s,
        Illegal::SingletonBlocked {
            pit: pit("a1"),
            next: pit("a2"),
            stones: 1
        }
    );
    assert_eq!(
        n,
        Illegal::SingletonBlocked {
            pit: pit("d6"),
            next: pit("d5"),
            stones: 1
        }
    );
}

#[test]
fn singletons_step_into_the_empty_next_pit_and_end_there() {
    Case {
        cols: 6,
        options: "",
        before: &south("1,0,0,0,0,0", "1,1,0,0,0,0"),
        from: "a2",
        stop: None,
        bonus: &[],
        after: &south_after("1,0,0,0,0,0", "1,0,1,0,0,0"),
        laps: 1,
        end: "a3",
        captured: &[],
        bonus_taken: &[],
        stopped: false,
    }
    .check_both_seats();
}

/// North: d = 3,5,0,1,0,0 (d1 a head under heads=2, d2 too), c = 2,0,0,0,4,0.
/// South sows b3 (2 stones) into b2, b1: b1 was empty, opposite c1 holds 2.
const CAPTURE: &str = "3,5,0,1,0,0/2,0,0,0,4,0/0,0,2,0,0,0/0,0,0,0,0,0 S";

fn capture_case<'a>(
    options: &'a str,
    bonus: &'a [&'a str],
    after: &'a str,
    taken: &'a [(&'a str, u16)],
) -> Case<'a> {
    Case {
        cols: 6,
        options,
        before: CAPTURE,
        from: "b3",
        stop: None,
        bonus,
        after,
        laps: 1,
        end: "b1",
        captured: &[("c1", 2), ("d1", 3)],
        bonus_taken: taken,
        stopped: false,
    }
}

#[test]
fn capture_empties_the_opposite_pit_and_the_head_behind_then_bonus() {
    capture_case(
        "",
        &["d4", "c5"],
        "0,5,0,0,0,0/0,0,0,0,0,0/1,1,0,0,0,0/0,0,0,0,0,0 N",
        &[("d4", 1), ("c5", 4)],
    )
    .check_both_seats();
}

#[test]
fn capture_lists_the_behind_pit_only_when_it_held_stones() {
    Case {
        before: "0,5,0,1,0,0/2,0,0,0,4,0/0,0,2,0,0,0/0,0,0,0,0,0 S",
        captured: &[("c1", 2)],
        ..capture_case(
            "",
            &["d4", "c5"],
            "0,5,0,0,0,0/0,0,0,0,0,0/1,1,0,0,0,0/0,0,0,0,0,0 N",
            &[("d4", 1), ("c5", 4)],
        )
    }
    .check_both_seats();
}

#[test]
fn capture_needs_the_opposite_pit_occupied() {
    Case {
        before: "3,5,0,1,0,0/0,0,0,0,4,0/0,0,2,0,0,0/0,0,0,0,0,0 S",
        captured: &[],
        ..capture_case(
            "",
            &[],
            "3,5,0,1,0,0/0,0,0,0,4,0/1,1,0,0,0,0/0,0,0,0,0,0 N",
            &[],
        )
    }
    .check_both_seats();
    let before = "3,5,0,1,0,0/0,0,0,0,4,0/0,0,2,0,0,0/0,0,0,0,0,0 S";
    let [s, n] = illegal_both_seats(6, "", before, ("b3", None, &["d4"]));
    assert_eq!((s, n), (Illegal::BonusNotDue, Illegal::BonusNotDue));
}

#[test]
fn capture_only_in_the_movers_inner_row() {
    // a2 -> a3, a4: ends in the outer row; c4 above b4 is no concern of a4.
    Case {
        cols: 6,
        options: "",
        before: "0,0,0,3,0,0/0,0,2,2,0,0/0,0,0,0,0,0/0,2,0,0,0,0 S",
        from: "a2",
        stop: None,
        bonus: &[],
        after: "0,0,0,3,0,0/0,0,2,2,0,0/0,0,0,0,0,0/0,0,1,1,0,0 N",
        laps: 1,
        end: "a4",
        captured: &[],
        bonus_taken: &[],
        stopped: false,
    }
    .check_both_seats();
}

#[test]
fn capture_by_a_singleton() {
    Case {
        cols: 6,
        options: "",
        before: "3,5,0,1,0,0/2,0,0,0,4,0/0,1,0,0,0,0/0,0,0,0,0,0 S",
        from: "b2",
        stop: None,
        bonus: &["d4", "c5"],
        after: "0,5,0,0,0,0/0,0,0,0,0,0/1,0,0,0,0,0/0,0,0,0,0,0 N",
        laps: 1,
        end: "b1",
        captured: &[("c1", 2), ("d1", 3)],
        bonus_taken: &[("d4", 1), ("c5", 4)],
        stopped: false,
    }
    .check_both_seats();
}

#[test]
fn bonus_heads_are_sanctuaries() {
    let [s, n] = illegal_both_seats(6, "", CAPTURE, ("b3", None, &["d2", "d4"]));
    assert_eq!(s, Illegal::BonusHead { pit: pit("d2") });
    assert_eq!(n, Illegal::BonusHead { pit: pit("a5") });
}

#[test]
fn bonus_head_bonus_yes_lets_heads_be_taken() {
    capture_case(
        "head-bonus=yes",
        &["d2", "d4"],
        "0,0,0,0,0,0/0,0,0,0,4,0/1,1,0,0,0,0/0,0,0,0,0,0 N",
        &[("d2", 5), ("d4", 1)],
    )
    .check_both_seats();
}

#[test]
fn bonus_is_cut_short_to_the_eligible_pits() {
    // bonus=5, but only d4 and c5 are eligible (d2 is a sanctuary): 2 pits are due.
    capture_case(
        "bonus=5",
        &["d4", "c5"],
        "0,5,0,0,0,0/0,0,0,0,0,0/1,1,0,0,0,0/0,0,0,0,0,0 N",
        &[("d4", 1), ("c5", 4)],
    )
    .check_both_seats();
    let [s, _] = illegal_both_seats(6, "bonus=5", CAPTURE, ("b3", None, &["d4"]));
    assert_eq!(
        s,
        Illegal::BonusCount {
            taken: 1,
            required: 2
        }
    );
    // With head-bonus=yes, d2 is eligible too: 3 are due.
    let [s, _] = illegal_both_seats(
        6,
        "bonus=5 head-bonus=yes",
        CAPTURE,
        ("b3", None, &["d4", "c5"]),
    );
    assert_eq!(
        s,
        Illegal::BonusCount {
            taken: 2,
            required: 3
        }
    );
}

#[test]
fn bonus_option_sets_the_number_of_pits() {
    for (options, due) in [("bonus=1", 1), ("bonus=2", 2), ("bonus=3", 3), ("", 2)] {
        let many = "3,5,1,1,1,1/2,0,1,1,4,1/0,0,2,0,0,0/0,0,0,0,0,0 S";
        let r = rules(6, options);
        let e = play(&r, many, &sow("b3", None, &["d6", "d5", "d4", "d3"])).unwrap_err();
        assert_eq!(
            e,
            Illegal::BonusCount {
                taken: 4,
                required: due
            },
            "{options}"
        );
    }
    // bonus=0: the capture stands alone, and a bonus written is not due.
    capture_case(
        "bonus=0",
        &[],
        "0,5,0,1,0,0/0,0,0,0,4,0/1,1,0,0,0,0/0,0,0,0,0,0 N",
        &[],
    )
    .check_both_seats();
    let [s, n] = illegal_both_seats(6, "bonus=0", CAPTURE, ("b3", None, &["d4"]));
    assert_eq!((s, n), (Illegal::BonusNotDue, Illegal::BonusNotDue));
}

#[test]
fn bonus_graded_list_counts_each_players_own_captures() {
    // Eight eligible pits after the capture; bonus=5,3,2.
    let many = "3,5,1,1,1,1/2,0,1,1,4,1/0,0,2,0,0,0/0,0,0,0,0,0 S";
    let r = rules(6, "bonus=5,3,2");
    for (done_by_south, done_by_north, due) in [(0, 7, 5), (1, 0, 3), (2, 0, 2), (9, 0, 2)] {
        let mut pos = parse_with_captures(&r, many, [done_by_south, done_by_north]);
        let mut effect = Effect::default();
        let mv = sow("b3", None, &["d6"]);
        let e = apply(&r, &mut pos, &mv, Mode::Legal, &mut effect).unwrap_err();
        assert_eq!(
            e,
            Illegal::BonusCount {
                taken: 1,
                required: due
            }
        );
        let bonus = ["d6", "d5", "d4", "d3", "c3"];
        let mv = sow("b3", None, &bonus[..due]);
        apply(&r, &mut pos, &mv, Mode::Legal, &mut effect).unwrap();
        assert_eq!(captures(&pos), [done_by_south + 1, done_by_north]);
    }
    // North's captures are counted apart from South's.
    let north = turn_position(many);
    let mut pos = parse_with_captures(&r, &north, [4, 1]);
    let mut effect = Effect::default();
    let mv = sow(&turn_pit("b3", 6), None, &["a1", "a2", "a3"]);
    apply(&r, &mut pos, &mv, Mode::Legal, &mut effect).unwrap();
    assert_eq!(captures(&pos), [4, 2]);
}

#[test]
fn bonus_a_capture_counts_even_when_its_bonus_was_cut_short() {
    // The first capture earns 5 but only 2 pits are eligible; the next earns 3.
    let r = rules(6, "bonus=5,3,2");
    let mut pos = parse(&r, CAPTURE);
    let mut effect = Effect::default();
    apply(
        &r,
        &mut pos,
        &sow("b3", None, &["d4", "c5"]),
        Mode::Legal,
        &mut effect,
    )
    .unwrap();
    assert_eq!(captures(&pos), [1, 0]);
}

#[test]
fn bonus_pits_distinct_non_empty_on_the_opponents_side_taken_whole() {
    let [s, n] = illegal_both_seats(6, "", CAPTURE, ("b3", None, &["d4", "d4"]));
    assert_eq!(s, Illegal::BonusNotDistinct { pit: pit("d4") });
    assert_eq!(n, Illegal::BonusNotDistinct { pit: pit("a3") });
    let [s, n] = illegal_both_seats(6, "", CAPTURE, ("b3", None, &["d4", "c2"]));
    assert_eq!(s, Illegal::BonusEmptyPit { pit: pit("c2") });
    assert_eq!(n, Illegal::BonusEmptyPit { pit: pit("b5") });
    let [s, _] = illegal_both_seats(6, "", CAPTURE, ("b3", None, &["d4", "b2"]));
    assert_eq!(s, Illegal::BonusNotOpponent { pit: pit("b2") });
    let r = rules(6, "");
    let partial = Move::Sow(Sowing {
        bonus: vec![BonusTake {
            pit: pit("c5"),
            stones: Some(2),
        }],
        ..Sowing::from(pit("b3"))
    });
    let e = play(&r, CAPTURE, &partial).unwrap_err();
    assert_eq!(
        e,
        Illegal::BonusPitPartial {
            pit: pit("c5"),
            stones: 2
        }
    );
}

#[test]
fn bonus_due_but_not_written_is_an_error() {
    // Reading taken: a missing bonus is `BonusMissing` (not `BonusCount` with 0 taken).
    let [s, n] = illegal_both_seats(6, "", CAPTURE, ("b3", None, &[]));
    assert_eq!((s, n), (Illegal::BonusMissing, Illegal::BonusMissing));
}

#[test]
fn end_a_player_with_no_legal_move_has_lost() {
    // North has no stones: South wins.
    let r = rules(6, "");
    let pos = parse(&r, &turn_position(&south("0,0,0,0,0,0", "0,0,0,0,0,0")));
    let state = GameState::new(r.clone(), pos);
    assert_eq!(state.outcome().and_then(|o| o.winner()), Some(Side::South));
    // Only singletons, none with an empty next pit.
    let full = south("1,1,1,1,1,1", "1,1,1,1,1,1");
    for before in [full.clone(), turn_position(&full)] {
        let pos = parse(&r, &before);
        assert!(!has_legal_move(&r, &pos));
        assert!(legal_moves(&r, &pos).is_empty());
        let mut p = pos.clone();
        assert!(play_random(&r, &mut p, &mut Rng::new(1), &mut Effect::default()).is_none());
        assert_eq!(p, pos);
        let state = GameState::new(r.clone(), pos.clone());
        assert_eq!(
            state.outcome().and_then(|o| o.winner()),
            Some(pos.side().opponent())
        );
    }
}

#[test]
fn end_only_endless_sowings_is_no_legal_move() {
    // heads=0: b2 (3 stones) is the only pit with two or more, and its sowing cycles.
    let r = rules(6, "heads=0");
    let only_endless = south("1,3,1,0,1,0", "0,1,0,1,0,1");
    for before in [only_endless.clone(), turn_position(&only_endless)] {
        let pos = parse(&r, &before);
        assert!(!has_legal_move(&r, &pos), "{before}");
        assert!(legal_moves(&r, &pos).is_empty());
        let mut p = pos.clone();
        assert!(play_random(&r, &mut p, &mut Rng::new(7), &mut Effect::default()).is_none());
        assert_eq!(p, pos);
        let outcome = GameState::new(r.clone(), pos.clone()).outcome();
        assert!(
            matches!(outcome, Some(Outcome::Win { winner, .. }) if winner == pos.side().opponent())
        );
    }
}

#[test]
fn endless_sowing_is_illegal_and_never_hangs() {
    let r = rules(6, "heads=0");
    let before = south(ARRIVALS.0, ARRIVALS.1);
    for (b, from) in [(before.clone(), "a5"), (turn_position(&before), "d2")] {
        let e = play(&r, &b, &sow(from, None, &[])).unwrap_err();
        assert!(matches!(e, Illegal::EndlessSowing { .. }), "{e}");
    }
}

/// A plain sowing with no cycle detection: relays everywhere except the `k`-th arrival
/// at the occupied `head`; at most `limit` laps. Returns (pits, laps, end, stopped).
fn reference_sow(
    r: &Rules,
    pos: &Position,
    from: Pit,
    stop: Option<(Pit, u32)>,
    limit: u64,
) -> Option<(Vec<u16>, u64, Pit, bool)> {
    let board = r.board();
    let circuit: Vec<usize> = r.circuit(pos.side()).iter().map(|&p| p as usize).collect();
    let mut pits = pos.board_pits().to_vec();
    let mut place = circuit.iter().position(|&p| p == board.index(from))?;
    let mut hand = std::mem::take(&mut pits[circuit[place]]);
    let mut arrivals = 0;
    for lap in 1..=limit {
        while hand > 0 {
            place = (place + 1) % circuit.len();
            pits[circuit[place]] += 1;
            hand -= 1;
        }
        let end = board.pit(circuit[place]);
        if pits[circuit[place]] == 1 {
            return Some((pits, lap, end, false));
        }
        if let Some((head, k)) = stop {
            if head == end {
                arrivals += 1;
                if arrivals == k {
                    return Some((pits, lap, end, true));
                }
            }
        }
        hand = std::mem::take(&mut pits[circuit[place]]);
    }
    None
}

#[test]
fn endless_sowing_a_stop_in_a_later_round_of_the_cycle_is_legal() {
    // heads=1: the always-relay sowing of a5 cycles (detected after some 257 laps, with
    // 23 arrivals at a6 by then); the 100th arrival at the head a6 comes much later.
    let r = rules(6, "heads=1");
    let before = south(ARRIVALS.0, ARRIVALS.1);
    for (b, from, head) in [
        (before.clone(), "a5", "a6"),
        (turn_position(&before), "d2", "d1"),
    ] {
        assert!(matches!(
            play(&r, &b, &sow(from, None, &[])),
            Err(Illegal::EndlessSowing { .. })
        ));
        let listed = legal_moves(&r, &parse(&r, &b));
        // The stops listed, one candidate a head, up to their last arrival.
        let most = listed
            .iter()
            .filter_map(|c| match &c.mv {
                Move::Sow(s) => s.stop.map(|_| c.last_arrival),
                _ => None,
            })
            .max()
            .unwrap();
        assert!(most > 1, "the listing holds later arrivals too");
        assert!(
            most < 100,
            "the stop must come after the cycle was detected"
        );
        let (pos, effect) = play(&r, &b, &sow(from, Some((head, 100)), &[])).unwrap();
        let start = parse(&r, &b);
        let (pits, laps, end, stopped) =
            reference_sow(&r, &start, pit(from), Some((pit(head), 100)), 100_000).unwrap();
        assert_eq!(pos.board_pits(), &pits[..]);
        assert_eq!(
            (effect.lap_count, effect.end, effect.stopped_at_head),
            (laps, Some(end), stopped)
        );
        assert!(stopped && laps > 257);
    }
}

#[test]
fn malformed_moves_are_errors_not_panics() {
    let r = rules(6, "");
    let before = south("0,0,0,0,0,0", "2,0,0,0,0,0");
    let cases: Vec<(Move, Illegal)> = vec![
        (
            Move::Redistribute(sow::moves::Redistribution {
                emptied: [pit("a1"), pit("a2")],
                placed: vec![],
            }),
            Illegal::RedistributionNotAllowed,
        ),
        (
            Move::Sow(Sowing {
                lift: Some(1),
                ..Sowing::from(pit("a1"))
            }),
            Illegal::PartialLiftNotAllowed,
        ),
        (
            Move::Sow(Sowing::from(Pit::new(9, 200))),
            Illegal::NoSuchPit {
                pit: Pit::new(9, 200),
            },
        ),
        (sow("a9", None, &[]), Illegal::NoSuchPit { pit: pit("a9") }),
        (
            sow("a1", Some(("a40", 1)), &[]),
            Illegal::NoSuchPit { pit: pit("a40") },
        ),
        (
            sow("a1", Some(("a6", 0)), &[]),
            Illegal::HeadStopArrivalZero { head: pit("a6") },
        ),
        (sow("a1", None, &["d1"]), Illegal::BonusNotDue),
    ];
    for (mv, expected) in cases {
        assert_eq!(play(&r, &before, &mv).unwrap_err(), expected, "{mv:?}");
    }
}

#[test]
fn foul_mode_executes_broken_rules_that_can_be_executed() {
    let r = rules(6, "");
    // A singleton while a pit holds two: executed, the rule noted.
    let before = south("0,0,0,0,0,0", "1,0,2,0,0,0");
    let (pos, effect) = play_mode(&r, &before, &sow("a1", None, &[]), Mode::Foul).unwrap();
    assert_eq!(pos.to_string(), south_after("0,0,0,0,0,0", "0,1,2,0,0,0"));
    assert_eq!(
        effect.fouls,
        [Illegal::SingletonWhileMultiple { pit: pit("a1") }]
    );
    // A blocked singleton: dropped into the occupied pit, which relays.
    let before = south("0,0,0,0,0,0", "1,1,0,0,0,0");
    let (pos, effect) = play_mode(&r, &before, &sow("a1", None, &[]), Mode::Foul).unwrap();
    assert_eq!(pos.to_string(), south_after("0,0,0,0,0,0", "0,0,1,1,0,0"));
    assert_eq!(effect.lap_count, 2);
    assert_eq!(effect.fouls.len(), 1);
    // A capture whose bonus is short: the pits written are taken.
    let (pos, effect) = play_mode(&r, CAPTURE, &sow("b3", None, &["d4"]), Mode::Foul).unwrap();
    assert_eq!(
        pos.to_string(),
        "0,5,0,0,0,0/0,0,0,0,4,0/1,1,0,0,0,0/0,0,0,0,0,0 N"
    );
    assert_eq!(
        effect.fouls,
        [Illegal::BonusCount {
            taken: 1,
            required: 2
        }]
    );
    // A sanctuary head taken.
    let (_, effect) = play_mode(&r, CAPTURE, &sow("b3", None, &["d2", "d4"]), Mode::Foul).unwrap();
    assert_eq!(effect.fouls, [Illegal::BonusHead { pit: pit("d2") }]);
    // What cannot be executed stays an error.
    let e = play_mode(&r, &before, &sow("a3", None, &[]), Mode::Foul).unwrap_err();
    assert_eq!(e, Illegal::EmptyPit { pit: pit("a3") });
    let r0 = rules(6, "heads=0");
    let endless = south(ARRIVALS.0, ARRIVALS.1);
    let e = play_mode(&r0, &endless, &sow("a5", None, &[]), Mode::Foul).unwrap_err();
    assert!(matches!(e, Illegal::EndlessSowing { .. }));
}

#[test]
fn legal_moves_list_every_head_stop_and_the_relayed_move() {
    // heads=2, a3 -> a4, a5 (occupied head): stop there, or relay on to b6.
    let r = rules(6, "");
    let pos = parse(&r, &south("0,0,0,0,0,0", "0,0,2,0,1,0"));
    let listed: Vec<String> = legal_moves(&r, &pos)
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(listed, ["a3-a5", "a3"]);
    // A capture carries its bonus choice.
    let pos = parse(&r, CAPTURE);
    let listed = legal_moves(&r, &pos);
    assert_eq!(listed.len(), 1);
    assert!(listed[0].captures);
    assert_eq!(
        listed[0].bonus,
        BonusChoice::Pits {
            count: 2,
            eligible: vec![pit("c5"), pit("d4")]
        }
    );
}

// ---------------------------------------------------------------------------------------
// Property tests over random playouts, for every option set.

const BOARDS: [u8; 6] = [6, 8, 12, 15, 18, 21];
const HEADS: [&str; 3] = ["2", "1", "0"];
const BONUS: [&str; 5] = ["2", "0", "1", "5", "5,3,2"];

fn options_strategy() -> impl Strategy<Value = (Rules, u64)> {
    (
        0..BOARDS.len(),
        0..HEADS.len(),
        0..BONUS.len(),
        any::<bool>(),
        any::<u64>(),
    )
        .prop_map(|(b, h, bonus, head_bonus, seed)| {
            let yes = if head_bonus { "yes" } else { "no" };
            let options = format!("heads={} bonus={} head-bonus={yes}", HEADS[h], BONUS[bonus]);
            (rules(BOARDS[b], &options), seed)
        })
}

/// Completes a candidate's bonus at random.
fn complete(c: &sow::Candidate, rng: &mut Rng) -> Move {
    let mut mv = c.mv.clone();
    if let (Move::Sow(s), BonusChoice::Pits { count, eligible }) = (&mut mv, &c.bonus) {
        let mut pool = eligible.clone();
        for _ in 0..*count {
            let p = pool.swap_remove(rng.below(pool.len()));
            s.bonus.push(BonusTake {
                pit: p,
                stones: None,
            });
        }
    }
    mv
}

/// The start pits by RULES.md, read naively: own pits holding two or more; only when
/// there are none, single stones whose next pit on the circuit is empty.
fn naive_starts(r: &Rules, pos: &Position) -> Vec<Pit> {
    let circuit: Vec<usize> = r.circuit(pos.side()).iter().map(|&p| p as usize).collect();
    let pits = pos.board_pits();
    let multiple: Vec<Pit> = circuit
        .iter()
        .filter(|&&p| pits[p] >= 2)
        .map(|&p| r.board().pit(p))
        .collect();
    if !multiple.is_empty() {
        return multiple;
    }
    (0..circuit.len())
        .filter(|&k| pits[circuit[k]] == 1 && pits[circuit[(k + 1) % circuit.len()]] == 0)
        .map(|k| r.board().pit(circuit[k]))
        .collect()
}

fn check_effect(
    r: &Rules,
    before: &Position,
    mv: &Move,
    after: &Position,
    effect: &Effect,
    start: u32,
    taken: &mut u32,
) {
    let Move::Sow(s) = mv else {
        panic!("Tsoro moves are sowings")
    };
    // Laps add up to the stones sown; the first lap sows the stones lifted.
    let sown: u64 = effect.laps.iter().map(|l| l.stones as u64).sum();
    if effect.lap_count as usize <= effect.laps.len() {
        assert_eq!(sown, effect.stones_sown);
    }
    assert_eq!(effect.laps[0].stones as u16, before.stones(s.start()));
    assert_eq!(effect.laps[0].start, s.start());
    assert_eq!(effect.laps.last().unwrap().end, effect.end.unwrap());
    // Stones are conserved: board + everything captured = start.
    *taken += effect.stones_taken();
    assert_eq!(after.stones_on_board() + *taken, start);
    assert_eq!(after.side(), before.side().opponent());
    // The mover's side matches a plain sowing with no cycle detection.
    let stop = s.stop.map(|h| (h.head, h.arrival));
    let (pits, laps, end, stopped) = reference_sow(r, before, s.start(), stop, 1_000_000).unwrap();
    assert_eq!(
        (laps, Some(end), stopped),
        (effect.lap_count, effect.end, effect.stopped_at_head)
    );
    let own = match before.side() {
        Side::South => 0..2 * r.board().cols() as usize,
        Side::North => 2 * r.board().cols() as usize..4 * r.board().cols() as usize,
    };
    assert_eq!(&after.board_pits()[own.clone()], &pits[own]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_every_invariant((r, seed) in options_strategy()) {
        let mut rng = Rng::new(seed);
        let mut pos = Position::initial(&r);
        let start = r.start_stones();
        let mut taken = 0u32;
        let mut effect = Effect::default();
        for _ in 0..200 {
            // Every candidate applies, deterministically, and keeps the invariants.
            let candidates = legal_moves(&r, &pos);
            prop_assert_eq!(has_legal_move(&r, &pos), !candidates.is_empty());
            // The candidates start from exactly the start pits of the rules, less those
            // whose sowing is endless with no head to stop at.
            let listed: Vec<Pit> = candidates
                .iter()
                .map(|c| match &c.mv {
                    Move::Sow(s) => s.start(),
                    _ => panic!("Tsoro moves are sowings"),
                })
                .collect();
            let allowed = naive_starts(&r, &pos);
            prop_assert!(listed.iter().all(|p| allowed.contains(p)));
            for &p in allowed.iter().filter(|p| !listed.contains(p)) {
                let mut e = Effect::default();
                let result = apply(&r, &mut pos.clone(), &sow(&p.to_string(), None, &[]), Mode::Legal, &mut e);
                prop_assert!(matches!(result, Err(Illegal::EndlessSowing { .. })), "{}", p);
            }
            // Every ply a candidate stands for (each arrival of a head's stops).
            for c in candidates.iter().flat_map(sow::Candidate::each) {
                let mv = complete(&c, &mut rng);
                let (mut a, mut b) = (pos.clone(), pos.clone());
                let (mut ea, mut eb) = (Effect::default(), Effect::default());
                apply(&r, &mut a, &mv, Mode::Legal, &mut ea).unwrap();
                apply(&r, &mut b, &mv, Mode::Legal, &mut eb).unwrap();
                prop_assert_eq!(&a, &b);
                prop_assert_eq!(&ea, &eb);
                prop_assert_eq!(c.captures, ea.is_capture());
                if let Move::Sow(Sowing { stop: Some(stop), .. }) = &c.mv {
                    prop_assert!(ea.stopped_at_head);
                    prop_assert_eq!(ea.end, Some(stop.head));
                }
                let mut t = taken;
                check_effect(&r, &pos, &mv, &a, &ea, start, &mut t);
            }
            // play_random's move, applied to the old position, does the same.
            let before = pos.clone();
            let Some(mv) = play_random(&r, &mut pos, &mut rng, &mut effect) else {
                prop_assert!(candidates.is_empty());
                break;
            };
            let mut again = before.clone();
            let mut e = Effect::default();
            apply(&r, &mut again, &mv, Mode::Legal, &mut e).unwrap();
            prop_assert_eq!(&again, &pos);
            prop_assert_eq!(&e, &effect);
            check_effect(&r, &before, &mv, &pos, &effect, start, &mut taken);
        }
    }
}
