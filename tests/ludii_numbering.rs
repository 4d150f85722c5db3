//! Ludii's site numbers, pinned to what Ludii's own rule files say
//! (`Common/res/lud/board/sow/four_rows/Tsoro.lud` and `Nsolo.lud` in the Ludeme/Ludii
//! repository; docs/ludii.md): `(mancalaBoard 4 N store:None)` with player 1's track
//! `"0,E,N1,W"` and player 2's `"2N,E,N1,W"`, player 1's inner row the track minus the
//! bottom row, player 2's the track minus the top row, and the opposite pit of player 1's
//! site `s` at `s + N` (the outer pit behind it at `s + 2N`).

use sow::convert::numbering::{ludii_pit, ludii_site};
use sow::{Board, Game, Pit, Position, Rules, Side};

fn pit(s: &str) -> Pit {
    s.parse().unwrap()
}

fn site(rules: &Rules, p: &str) -> u32 {
    ludii_site(rules, pit(p)).unwrap()
}

/// The sites of a Ludii track `"START,E,N1,W"` on a board of `n` columns: from START
/// east to the end of its row, one row north, then west to the row's start.
fn track(start: u32, n: u32) -> Vec<u32> {
    let east: Vec<u32> = (start..start + n).collect();
    let west = (start + n..start + 2 * n).rev();
    east.into_iter().chain(west).collect()
}

/// The sites of a seat's circuit, in sowing order, from its first pit.
fn circuit_sites(rules: &Rules, side: Side) -> Vec<u32> {
    let board = rules.board();
    (rules.circuit(side).iter())
        .map(|&i| ludii_site(rules, board.pit(i as usize)).unwrap())
        .collect()
}

#[test]
fn tsoro_4x8_sites_of_the_corners_and_a_few_pits() {
    let r = Rules::new(Game::Tsoro, Board::new(4, 8), "").unwrap();
    let pinned = [
        ("a1", 0),
        ("a8", 7),
        ("b1", 8),
        ("b8", 15),
        ("c1", 16),
        ("c6", 21),
        ("d1", 24),
        ("d8", 31),
    ];
    for (p, s) in pinned {
        assert_eq!(site(&r, p), s, "{p}");
        assert_eq!(ludii_pit(&r, s), Some(pit(p)), "site {s}");
    }
    assert_eq!(ludii_pit(&r, 32), None, "4x8 has sites 0..31");
}

/// Tsoro sows counter-clockwise, as Ludii's tracks do: South is player 1, North player 2.
#[test]
fn tsoro_circuits_are_ludiis_tracks() {
    for n in [6u8, 8, 12, 21] {
        let r = Rules::new(Game::Tsoro, Board::new(4, n), "").unwrap();
        let n = n as u32;
        assert_eq!(circuit_sites(&r, Side::South), track(0, n), "4x{n} Track1");
        assert_eq!(
            circuit_sites(&r, Side::North),
            track(2 * n, n),
            "4x{n} Track2"
        );
    }
}

/// Nsolo.lud sows counter-clockwise (`sow=ccw`); its start leaves empty player 1's inner
/// pit on the right and player 2's on the left: sites 2N-1 and 2N, PMN's bN and c1.
#[test]
fn nsolo_ccw_circuits_and_start_are_ludiis() {
    for n in [10u8, 20] {
        let r = Rules::new(Game::Nsolo, Board::new(4, n), "sow=ccw").unwrap();
        let n = n as u32;
        assert_eq!(circuit_sites(&r, Side::South), track(0, n));
        assert_eq!(circuit_sites(&r, Side::North), track(2 * n, n));
        let start = Position::initial(&r);
        let empty: Vec<u32> = (r.board().pits())
            .filter(|&p| start.stones(p) == 0)
            .map(|p| ludii_site(&r, p).unwrap())
            .collect();
        assert_eq!(empty, [2 * n - 1, 2 * n]);
    }
}

/// Nsolo.lud's `OppositePit` is `to + Columns` for player 1 and its `OppositeOuterPit`
/// `to + 2 * Columns`: PMN's opposite and behind.
#[test]
fn opposite_and_behind_are_ludiis_column_steps() {
    let r = Rules::new(Game::Nsolo, Board::new(4, 10), "sow=ccw").unwrap();
    for col in 1..=10u8 {
        let b = ludii_site(&r, Pit::new(1, col)).unwrap();
        assert_eq!(
            ludii_site(&r, Pit::new(2, col)),
            Some(b + 10),
            "c{col} opposite b{col}"
        );
        assert_eq!(
            ludii_site(&r, Pit::new(3, col)),
            Some(b + 20),
            "d{col} behind c{col}"
        );
    }
}
