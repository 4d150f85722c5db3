//! Other numberings of the pits: seat-relative numbers and Ludii's sites, and the map
//! ([`PitNumbers`]) through which the one PMN reader reads, and the PMN writer writes,
//! plies in them.
//!
//! A numbering is a pure function of the rule set's geometry and the seat that plays
//! the ply; nothing here replays a move. Both numberings are defined in
//! `docs/relative.md` and `docs/ludii.md`.

use crate::geometry::{Pit, Side};
use crate::rules::Rules;

/// How pits are named in a ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Numbering {
    /// PMN's absolute pits: `a1`, `c17`.
    Absolute,
    /// Seat-relative numbers (docs/relative.md).
    Relative,
    /// Ludii's sites (docs/ludii.md): `board.index(pit)`.
    Ludii,
}

/// A seat's own pits in the order of its relative numbers 1..=half: its circuit, kept
/// to the pits it owns, rotated to start at the outer-row pit on the seat's left
/// (South: `a1`; North, who faces South: the last column of its outer row).
pub fn seat_order(rules: &Rules, side: Side) -> Vec<Pit> {
    let board = rules.board();
    let own: Vec<Pit> = rules
        .circuit(side)
        .iter()
        .map(|&i| board.pit(i as usize))
        .filter(|&p| board.owner(p) == side)
        .collect();
    let left = match side {
        Side::South => Pit::new(board.outer_row(side), 1),
        Side::North => Pit::new(board.outer_row(side), board.cols()),
    };
    let start = own.iter().position(|&p| p == left).unwrap_or(0);
    own[start..].iter().chain(&own[..start]).copied().collect()
}

/// The relative number of a pit for the seat that plays: its own pits 1..=half in
/// [`seat_order`], the opponent's pits half+1..=2·half in the opponent's own order.
pub fn relative_number(rules: &Rules, side: Side, pit: Pit) -> Option<u32> {
    let board = rules.board();
    if !board.contains(pit) {
        return None;
    }
    let owner = board.owner(pit);
    let order = seat_order(rules, owner);
    let place = order.iter().position(|&p| p == pit)? as u32;
    let half = order.len() as u32;
    Some(if owner == side {
        place + 1
    } else {
        half + place + 1
    })
}

/// The pit of a relative number for the seat that plays.
pub fn relative_pit(rules: &Rules, side: Side, number: u32) -> Option<Pit> {
    let own = seat_order(rules, side);
    let half = own.len() as u32;
    match number {
        0 => None,
        n if n <= half => own.get(n as usize - 1).copied(),
        n if n <= 2 * half => seat_order(rules, side.opponent())
            .get((n - half) as usize - 1)
            .copied(),
        _ => None,
    }
}

/// Ludii's site of a pit: row by row from South's outer-row left, 0-based.
pub fn ludii_site(rules: &Rules, pit: Pit) -> Option<u32> {
    let board = rules.board();
    board.contains(pit).then(|| board.index(pit) as u32)
}

/// The pit of a Ludii site.
pub fn ludii_pit(rules: &Rules, site: u32) -> Option<Pit> {
    let board = rules.board();
    ((site as usize) < board.len()).then(|| board.pit(site as usize))
}

/// The map of a numbering's pits (see [`PitNumbers`]): the numbers of the
/// plies of a relative record or a Ludii move list as the pits they name for the seat
/// that plays, for the one PMN reader, and back, for the PMN writer.
pub struct PitNumbers<'r> {
    rules: &'r Rules,
    from: Numbering,
    /// Each seat's own pits in the order of its relative numbers (South's, North's).
    orders: [Vec<Pit>; 2],
}

impl<'r> PitNumbers<'r> {
    /// The pits named by numbers `from` (relative or Ludii) under `rules`.
    pub fn new(rules: &'r Rules, from: Numbering) -> PitNumbers<'r> {
        PitNumbers {
            rules,
            from,
            orders: Side::BOTH.map(|side| seat_order(rules, side)),
        }
    }
}

impl PitNumbers<'_> {
    /// The pits of the seat that plays, and of the other, in the order of their numbers.
    fn orders(&self, side: Side) -> (&[Pit], &[Pit]) {
        match side {
            Side::South => (&self.orders[0], &self.orders[1]),
            Side::North => (&self.orders[1], &self.orders[0]),
        }
    }
}

impl crate::pmn::PitNumbers for PitNumbers<'_> {
    fn pit(&self, side: Side, number: u32) -> Option<Pit> {
        let (own, theirs) = self.orders(side);
        let pit = match self.from {
            Numbering::Absolute => None,
            Numbering::Ludii => ludii_pit(self.rules, number),
            Numbering::Relative => {
                let half = own.len() as u32;
                match number {
                    0 => None,
                    n if n <= half => own.get(n as usize - 1).copied(),
                    n => theirs.get((n - half) as usize - 1).copied(),
                }
            }
        }?;
        Some(pit)
    }

    fn number(&self, side: Side, pit: Pit) -> Option<u32> {
        match self.from {
            Numbering::Absolute => None,
            Numbering::Ludii => ludii_site(self.rules, pit),
            Numbering::Relative => {
                let (own, theirs) = self.orders(side);
                let place = |order: &[Pit]| order.iter().position(|&p| p == pit);
                match place(own) {
                    Some(i) => Some(i as u32 + 1),
                    None => place(theirs).map(|i| (own.len() + i) as u32 + 1),
                }
            }
        }
    }

    fn no_pit(&self, written: &str) -> String {
        let board = self.rules.board();
        match self.from {
            Numbering::Ludii => format!(
                "`{written}` is no site of the {board} board (0-{})",
                board.len() - 1
            ),
            _ => {
                let half = self.orders[0].len();
                format!(
                    "`{written}` names no pit: numbers here are 1-{half} (the player's own pits) and {}-{} (the opponent's)",
                    half + 1,
                    2 * half
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;
    use crate::Board;

    fn rules(game: Game, board: Option<Board>, options: &str) -> Rules {
        Rules::new(game, board, options).unwrap()
    }

    #[test]
    fn ccw_four_rows_number_from_the_outer_left() {
        let r = rules(Game::Tsoro, Board::new(4, 6), "");
        let south: Vec<String> = seat_order(&r, Side::South)
            .iter()
            .map(Pit::to_string)
            .collect();
        assert_eq!(south.join(" "), "a1 a2 a3 a4 a5 a6 b6 b5 b4 b3 b2 b1");
        let north: Vec<String> = seat_order(&r, Side::North)
            .iter()
            .map(Pit::to_string)
            .collect();
        assert_eq!(north.join(" "), "d6 d5 d4 d3 d2 d1 c1 c2 c3 c4 c5 c6");
        assert_eq!(relative_number(&r, Side::South, Pit::new(2, 1)), Some(19));
        assert_eq!(relative_pit(&r, Side::North, 19), Some(Pit::new(1, 6)));
    }

    #[test]
    fn clockwise_nsolo_starts_at_the_same_pit() {
        let r = rules(Game::Nsolo, None, "");
        let south: Vec<String> = seat_order(&r, Side::South)
            .iter()
            .map(Pit::to_string)
            .collect();
        assert_eq!(
            south.join(" "),
            "a1 b1 b2 b3 b4 b5 b6 b7 b8 a8 a7 a6 a5 a4 a3 a2"
        );
        let north: Vec<String> = seat_order(&r, Side::North)
            .iter()
            .map(Pit::to_string)
            .collect();
        assert_eq!(
            north.join(" "),
            "d8 c8 c7 c6 c5 c4 c3 c2 c1 d1 d2 d3 d4 d5 d6 d7"
        );
    }

    #[test]
    fn kiothi_numbers_rows_from_each_players_left() {
        let r = rules(Game::Kiothi, None, "");
        assert_eq!(relative_number(&r, Side::South, Pit::new(0, 1)), Some(1));
        assert_eq!(relative_number(&r, Side::South, Pit::new(1, 10)), Some(11));
        assert_eq!(relative_number(&r, Side::North, Pit::new(1, 10)), Some(1));
        assert_eq!(relative_number(&r, Side::North, Pit::new(1, 1)), Some(10));
        assert_eq!(relative_number(&r, Side::North, Pit::new(0, 1)), Some(11));
        assert_eq!(relative_pit(&r, Side::North, 21), None);
        assert_eq!(relative_pit(&r, Side::North, 0), None);
    }

    #[test]
    fn every_numbering_is_a_bijection_on_every_board() {
        let mut sets = vec![
            rules(Game::Kiothi, None, ""),
            rules(Game::BaoLaKimasai, None, ""),
        ];
        for n in [6, 8, 12, 15, 18, 21] {
            sets.push(rules(Game::Tsoro, Board::new(4, n), ""));
        }
        for n in 8..=36 {
            sets.push(rules(Game::Nsolo, Board::new(4, n), ""));
            sets.push(rules(Game::Nsolo, Board::new(4, n), "sow=ccw"));
        }
        for r in &sets {
            let len = r.board().len() as u32;
            for side in Side::BOTH {
                let mut seen = std::collections::HashSet::new();
                for pit in r.board().pits() {
                    let n = relative_number(r, side, pit).unwrap();
                    assert!((1..=len).contains(&n));
                    assert!(seen.insert(n));
                    assert_eq!(relative_pit(r, side, n), Some(pit));
                    // North's numbers are South's turned half a turn.
                    let turned = Pit::new(
                        r.board().rows() - 1 - pit.row,
                        r.board().cols() + 1 - pit.col,
                    );
                    assert_eq!(relative_number(r, side.opponent(), turned), Some(n));
                    let site = ludii_site(r, pit).unwrap();
                    assert_eq!(ludii_pit(r, site), Some(pit));
                }
                assert_eq!(relative_pit(r, side, len + 1), None);
            }
        }
    }

    /// A PMN ply with its pits written as numbers `to` for `side`, as the writer
    /// writes it; `None` when a pit has no number.
    fn numbered(r: &Rules, to: Numbering, side: Side, ply: &str) -> Option<String> {
        use crate::pmn::PitNumbers as _;
        let text = format!("[Game \"Tsoro\"]\n\n1. {ply} *");
        let (record, _) = crate::pmn::parse::parse_game(&text, 0, 1);
        let Some(crate::pmn::Element::Ply(p)) = record.moves.get(1) else {
            panic!("no ply in {text:?}");
        };
        let numbers = PitNumbers::new(r, to);
        let mut out = String::new();
        (p.syntax)
            .write_pits(&mut out, |f, pit| {
                let n = numbers.number(side, pit).ok_or(std::fmt::Error)?;
                std::fmt::Write::write_fmt(f, format_args!("{n}"))
            })
            .ok()?;
        Some(out)
    }

    #[test]
    fn plies_number_pits_but_not_counts() {
        let r = rules(Game::Tsoro, Board::new(4, 12), "heads=1");
        let rel = numbered(&r, Numbering::Relative, Side::North, "d3xa11,b10").unwrap();
        // North: d12..d1 are 1..12, so d3 is 10; South's a11 is 24+11, b10 is 24+15.
        assert_eq!(rel, "10x35,39");
        let (plies, problems) = read(&r, Numbering::Relative, "1. 3 10x35,39 *");
        assert_eq!(problems, Vec::<String>::new());
        assert_eq!(plies[1].0, "d3xa11,b10");
        let k = rules(Game::Kiothi, None, "");
        let rel = numbered(&k, Numbering::Relative, Side::South, "a8:4-a1x");
        assert_eq!(rel.as_deref(), Some("8:4-1x"));
        let rel = numbered(&k, Numbering::Relative, Side::North, "b1,b2>a5:10,b1:10");
        assert_eq!(rel.as_deref(), Some("10,9>15:10,10:10"));
        assert_eq!(numbered(&k, Numbering::Relative, Side::South, "a11"), None);
        let rel = numbered(&r, Numbering::Ludii, Side::North, "d12xa1:2");
        assert_eq!(rel.as_deref(), Some("47x0:2"));
    }

    /// The plies and problems of a game's move text whose pits are numbers `from`.
    fn read(r: &Rules, from: Numbering, moves: &str) -> (Vec<(String, usize)>, Vec<String>) {
        let text = format!("[Game \"Tsoro\"]\n\n{moves}");
        let numbers = PitNumbers::new(r, from);
        let (record, problems) =
            crate::pmn::parse::parse_numbered_game(&text, 0, 1, Some(&numbers));
        let at = text.find(moves).unwrap();
        // The plies in the order of the text, variations' included.
        fn plies(elements: &[crate::pmn::Element], at: usize, out: &mut Vec<(String, usize)>) {
            for e in elements {
                match e {
                    crate::pmn::Element::Ply(p) => {
                        out.push((p.syntax.to_string(), p.span.start - at))
                    }
                    crate::pmn::Element::Variation(v) => plies(&v.elements, at, out),
                    _ => {}
                }
            }
        }
        let mut found = Vec::new();
        plies(&record.moves, at, &mut found);
        let problems = (problems.iter())
            .map(|p| format!("{}: {}", p.span.start - at, p.message))
            .collect();
        (found, problems)
    }

    #[test]
    fn the_reader_reads_numbers_as_pits_and_places_them_where_written() {
        let r = rules(Game::Tsoro, Board::new(4, 12), "");
        // North's `10x35,39` is `d3xa11,b10`; a variation starts on the side of the ply
        // it replaces.
        let moves = "1. 3 10x35,39 {x} (1... 12 $1) 2. 4!? *";
        let (plies, problems) = read(&r, Numbering::Relative, moves);
        assert_eq!(problems, Vec::<String>::new());
        let at = |s: &str| moves.find(s).unwrap();
        assert_eq!(
            plies,
            [
                ("a3".to_string(), at("3 ")),
                ("d3xa11,b10".to_string(), at("10x")),
                ("d1".to_string(), at("12 ")),
                ("a4".to_string(), at("4!?")),
            ]
        );
        let (plies, _) = read(&r, Numbering::Ludii, "0 47 *");
        assert_eq!(plies, [("a1".to_string(), 0), ("d12".to_string(), 2)]);
    }

    #[test]
    fn a_pit_named_by_no_number_is_said_so() {
        let r = rules(Game::Tsoro, Board::new(4, 8), "");
        let own_and_theirs =
            "numbers here are 1-16 (the player's own pits) and 17-32 (the opponent's)";
        let (_, problems) = read(&r, Numbering::Relative, "12. 99! *");
        assert_eq!(
            problems,
            [format!(
                "4: in ply `99!`: `99` names no pit: {own_and_theirs}"
            )]
        );
        let (_, problems) = read(&r, Numbering::Relative, "1. 3 10x35:2,0 *");
        assert_eq!(
            problems,
            [format!(
                "5: in ply `10x35:2,0`: `35` names no pit: {own_and_theirs}"
            )]
        );
        // The ply ends where the reader ends it: `$1` is its NAG.
        let (_, problems) = read(&r, Numbering::Relative, "12. 99$1 *");
        assert_eq!(
            problems,
            [format!(
                "4: in ply `99`: `99` names no pit: {own_and_theirs}"
            )]
        );
        // Counts are no pits.
        let (plies, problems) = read(&r, Numbering::Relative, "1. 3 10x31:99 *");
        assert_eq!((plies.len(), problems.len()), (2, 0));
        let (_, problems) = read(&r, Numbering::Ludii, "19x10,32 *");
        assert_eq!(
            problems,
            ["0: in ply `19x10,32`: `32` is no site of the 4x8 board (0-31)"]
        );
    }

    #[test]
    fn a_broken_numbered_ply_is_quoted_as_written() {
        // Its syntax error quotes the numbers written, not the pits they name (`a3:`).
        let r = rules(Game::Tsoro, Board::new(4, 8), "");
        let (_, problems) = read(&r, Numbering::Relative, "1. 3 3 2. 3: *");
        assert_eq!(
            problems,
            ["12: in ply `3:`: expected a number of stones lifted (digits)"]
        );
        let (_, problems) = read(&r, Numbering::Ludii, "2 3-x *");
        assert_eq!(
            problems,
            ["4: in ply `3-x`: expected a pit number, found `x`"]
        );
    }

    #[test]
    fn the_writer_numbers_the_pits_and_keeps_everything_else() {
        let r = rules(Game::Tsoro, Board::new(4, 6), "");
        let text = "[Game \"Tsoro\"]\n[Board \"4x6\"]\n\n1. a3! {a1 stays} 1... d4 (1... d5 $2) 2. b2? ;a4\n*\n";
        let (record, problems) = crate::pmn::parse::parse_game(text, 0, 1);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(crate::pmn::write_game(&record), text);
        let numbers = PitNumbers::new(&r, Numbering::Relative);
        let rel = crate::pmn::write_numbered_game(&record, &numbers);
        assert_eq!(
            rel,
            "[Game \"Tsoro\"]\n[Board \"4x6\"]\n\n1. 3! {a1 stays} 1... 3 (1... 2 $2) 2. 11? ;a4\n*\n"
        );
        let (back, problems) = crate::pmn::parse::parse_numbered_game(&rel, 0, 1, Some(&numbers));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(crate::pmn::write_game(&back), text);
    }

    /// A ply with a pit that has no number is written with PMN's names, and lines break
    /// where the export form breaks them.
    #[test]
    fn the_writer_keeps_a_pit_without_a_number_and_the_lines_of_the_export_form() {
        let r = rules(Game::Tsoro, Board::new(4, 6), "");
        let mut moves = String::new();
        for n in 1..=20 {
            moves.push_str(&format!("{n}. a1 d6 "));
        }
        let text = format!("[Game \"Tsoro\"]\n[Board \"4x6\"]\n\n{moves}1. a9 *\n");
        let (record, _) = crate::pmn::parse::parse_game(&text, 0, 1);
        let pmn = crate::pmn::write_game(&record);
        let numbers = PitNumbers::new(&r, Numbering::Relative);
        let rel = crate::pmn::write_numbered_game(&record, &numbers);
        assert!(rel.ends_with(" a9 *\n"), "{rel}");
        assert_eq!(rel.lines().count(), pmn.lines().count());
        for (a, b) in pmn.lines().zip(rel.lines()) {
            assert_eq!(
                a.split(' ').count(),
                b.split(' ').count(),
                "{a:?} and {b:?}"
            );
        }
    }
}
