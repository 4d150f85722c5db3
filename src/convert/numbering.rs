//! Other numberings of the pits: seat-relative numbers and Ludii's sites, and the
//! rewriting of move text between them and PMN's absolute pits.
//!
//! A numbering is a pure function of the rule set's geometry and the seat that plays
//! the ply; nothing here replays a move. Both numberings are defined in
//! `docs/relative.md` and `docs/ludii.md`.

use std::ops::Range;

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

fn name_of(rules: &Rules, side: Side, pit: Pit, to: Numbering) -> Option<String> {
    match to {
        Numbering::Absolute => rules.board().contains(pit).then(|| pit.to_string()),
        Numbering::Relative => relative_number(rules, side, pit).map(|n| n.to_string()),
        Numbering::Ludii => ludii_site(rules, pit).map(|n| n.to_string()),
    }
}

fn pit_of(rules: &Rules, side: Side, atom: &str, from: Numbering) -> Option<Pit> {
    match from {
        Numbering::Absolute => atom.parse::<Pit>().ok(),
        Numbering::Relative | Numbering::Ludii => {
            if atom.is_empty() || !atom.bytes().all(|b| b.is_ascii_digit()) || atom.len() > 4 {
                return None;
            }
            let n: u32 = atom.parse().ok()?;
            if from == Numbering::Relative {
                relative_pit(rules, side, n)
            } else {
                ludii_pit(rules, n)
            }
        }
    }
}

/// Rewrites the pits of one ply (without its suffix) from one numbering to another,
/// for the seat that plays it. A pit is every name not written right after `:` or `#`
/// (those are counts). `None` when a pit has no name in either numbering.
pub fn rewrite_ply(
    rules: &Rules,
    side: Side,
    ply: &str,
    from: Numbering,
    to: Numbering,
) -> Option<String> {
    let mut out = String::with_capacity(ply.len() + 4);
    let mut map = TextMap::default();
    rewrite_ply_into(rules, side, (ply, 0), from, to, &mut out, &mut map).then_some(out)
}

/// [`rewrite_ply`], with the map from the rewritten ply back to `ply`.
pub fn rewrite_ply_mapped(
    rules: &Rules,
    side: Side,
    ply: &str,
    from: Numbering,
    to: Numbering,
) -> Option<(String, TextMap)> {
    let mut out = String::with_capacity(ply.len() + 4);
    let mut map = TextMap::default();
    rewrite_ply_into(rules, side, (ply, 0), from, to, &mut out, &mut map).then_some((out, map))
}

/// [`rewrite_ply`] appending to `out`, the renamed pits noted in `map`; `ply.1` is the
/// ply's byte offset in the text read. On `false` (a pit with no name), `out` and `map`
/// may hold part of the ply: the caller cuts them back.
fn rewrite_ply_into(
    rules: &Rules,
    side: Side,
    (ply, at): (&str, usize),
    from: Numbering,
    to: Numbering,
    out: &mut String,
    map: &mut TextMap,
) -> bool {
    let mut rest = ply;
    let mut count_next = false;
    while !rest.is_empty() {
        let read_at = at + (ply.len() - rest.len());
        // An atom is a run of letters and digits; `x` always separates.
        let atom_len = rest
            .find(|c: char| !c.is_ascii_alphanumeric() || c == 'x')
            .unwrap_or(rest.len());
        let split = if atom_len == 0 {
            rest.chars().next().map_or(0, char::len_utf8)
        } else {
            atom_len
        };
        let (atom, after) = rest.split_at(split);
        if atom_len == 0 {
            if !matches!(atom, ":" | "#" | "-" | "," | ">" | "x") {
                return false;
            }
            count_next = matches!(atom, ":" | "#");
            out.push_str(atom);
        } else if count_next {
            if !atom.bytes().all(|b| b.is_ascii_digit()) {
                return false;
            }
            out.push_str(atom);
            count_next = false;
        } else {
            let Some(name) =
                pit_of(rules, side, atom, from).and_then(|pit| name_of(rules, side, pit, to))
            else {
                return false;
            };
            map.renamed(
                read_at..read_at + atom.len(),
                out.len()..out.len() + name.len(),
            );
            out.push_str(&name);
        }
        rest = after;
    }
    true
}

/// Why a ply of another numbering could not be rewritten, when one of its pits names
/// none: said in the place of the reader's "expected a move number", which is all it
/// can say of `99` (found by helper-27's bug hunt). `None` when every pit is named (the
/// ply is then broken otherwise, and the reader says how).
pub fn unnamed_pit(rules: &Rules, token: &str, from: Numbering) -> Option<String> {
    // The ply of a token: after a move number glued to it, before its suffix.
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
    let ply = if digits > 0 && dots > 0 {
        &token[digits + dots..]
    } else {
        token
    };
    let (ply, _) = split_suffix(ply);
    let mut count_next = false;
    for atom in ply.split_inclusive(|c: char| !c.is_ascii_alphanumeric() || c == 'x') {
        let (name, separator) = match atom.char_indices().last() {
            Some((i, c)) if !c.is_ascii_alphanumeric() || c == 'x' => atom.split_at(i),
            _ => (atom, ""),
        };
        if !name.is_empty() && !count_next && pit_of(rules, Side::South, name, from).is_none() {
            let board = rules.board();
            return Some(match from {
                Numbering::Ludii => format!(
                    "`{name}` is no site of the {board} board (0-{})",
                    board.len() - 1
                ),
                _ => {
                    let half = seat_order(rules, Side::South).len();
                    format!(
                        "`{name}` names no pit: numbers here are 1-{half} (the player's own pits) and {}-{} (the opponent's)",
                        half + 1,
                        2 * half
                    )
                }
            });
        }
        count_next = matches!(separator, ":" | "#");
    }
    None
}

/// Where each byte of a rewritten text came from in the text read: the two differ only
/// in the pits renamed, whose names may be longer or shorter (`3` for `a3`). Positions
/// the reader finds in the rewritten text are turned back into places in the text read
/// with it, so that what is reported points at what the user wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextMap {
    /// Each renamed pit whose name changed length: its bytes in the text read, then in
    /// the text written, in the order of the text.
    renamed: Vec<(Range<usize>, Range<usize>)>,
}

impl TextMap {
    fn renamed(&mut self, read: Range<usize>, written: Range<usize>) {
        if read.len() != written.len() {
            self.renamed.push((read, written));
        }
    }

    /// The byte of the text read that byte `at` of the rewritten text stands for: the
    /// same place, shifted by the renamings before it; inside a renamed pit, the same
    /// place in the name read (its last byte at most).
    pub fn read_offset(&self, at: usize) -> usize {
        let before = self
            .renamed
            .partition_point(|(_, written)| written.start <= at);
        let Some((read, written)) = before.checked_sub(1).map(|i| &self.renamed[i]) else {
            return at;
        };
        if at < written.end {
            read.start + (at - written.start).min(read.len().saturating_sub(1))
        } else {
            read.end + (at - written.end)
        }
    }
}

/// Whether a token is a result token.
fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Splits a suffix annotation (`!`, `?!`, ...) off the end of a ply token.
fn split_suffix(token: &str) -> (&str, &str) {
    let body = token.trim_end_matches(['!', '?']);
    token.split_at(body.len())
}

/// One line of play being walked: the index of its next ply and of its last one.
#[derive(Copy, Clone)]
struct Line {
    next: u64,
    last: Option<u64>,
}

/// Rewrites the plies of one game's PMN-like text (tags, move text, comments,
/// variations kept byte for byte) from one numbering to another. `first` is the index
/// parity of the first ply (0: South plays first, 1: North). A ply that cannot be
/// rewritten is left as written, so that the reader reports it.
pub fn rewrite_game_text(
    rules: &Rules,
    first: u64,
    text: &str,
    from: Numbering,
    to: Numbering,
) -> String {
    rewrite_game_text_mapped(rules, first, text, from, to).0
}

/// [`rewrite_game_text`], with the map from the rewritten text back to `text`. Line
/// breaks are all kept, so a line of the one is the same line of the other.
pub fn rewrite_game_text_mapped(
    rules: &Rules,
    first: u64,
    text: &str,
    from: Numbering,
    to: Numbering,
) -> (String, TextMap) {
    let mut map = TextMap::default();
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut lines = vec![Line {
        next: first,
        last: None,
    }];
    let mut chars = text.char_indices().peekable();
    let bytes = text.as_bytes();
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '{' => {
                let end = text[i..].find('}').map_or(text.len(), |e| i + e + 1);
                out.push_str(&text[i..end]);
                skip_to(&mut chars, end);
            }
            ';' => {
                let end = text[i..].find('\n').map_or(text.len(), |e| i + e);
                out.push_str(&text[i..end]);
                skip_to(&mut chars, end);
            }
            '[' => {
                // A tag: copy to its `]`, quotes respected.
                let mut j = i + 1;
                let mut quoted = false;
                while j < bytes.len() {
                    match bytes[j] {
                        b'\\' if quoted => j += 1,
                        b'"' => quoted = !quoted,
                        b']' if !quoted => break,
                        b'\n' => break,
                        _ => {}
                    }
                    j += 1;
                }
                let end = (j + 1).min(text.len());
                let end = if text.is_char_boundary(end) { end } else { j };
                out.push_str(&text[i..end]);
                skip_to(&mut chars, end);
            }
            '(' => {
                let outer = *lines.last().expect("the main line is never popped");
                lines.push(Line {
                    next: outer.last.unwrap_or(outer.next),
                    last: None,
                });
                out.push(c);
                chars.next();
            }
            ')' => {
                if lines.len() > 1 {
                    lines.pop();
                }
                out.push(c);
                chars.next();
            }
            // A stray `}` (no comment is open): copied, as any text the reader will
            // report. (It used to be a token of no characters, read again forever.)
            '}' => {
                out.push(c);
                chars.next();
            }
            c if c.is_whitespace() => {
                out.push(c);
                chars.next();
            }
            _ => {
                // A token holds at least its first character, so the loop always moves on.
                let start = i + c.len_utf8();
                let end = text[start..]
                    .find(|c: char| c.is_whitespace() || "{};()[$".contains(c))
                    .map_or(text.len(), |e| start + e);
                let token = &text[i..end];
                let token = (token, i);
                rewrite_token(rules, token, &mut lines, from, to, (&mut out, &mut map));
                skip_to(&mut chars, end);
            }
        }
    }
    (out, map)
}

fn skip_to(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>, end: usize) {
    while chars.peek().is_some_and(|&(i, _)| i < end) {
        chars.next();
    }
}

/// Rewrites one token (`token.1` is its byte offset in the text read).
fn rewrite_token(
    rules: &Rules,
    (token, at): (&str, usize),
    lines: &mut [Line],
    from: Numbering,
    to: Numbering,
    (out, map): (&mut String, &mut TextMap),
) {
    if is_result(token) || token.starts_with('$') {
        out.push_str(token);
        return;
    }
    // A move number, possibly glued to the ply after it (`12.a3`).
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
    let ply = if digits > 0 && dots > 0 {
        out.push_str(&token[..digits + dots]);
        &token[digits + dots..]
    } else {
        token
    };
    if ply.is_empty() {
        return;
    }
    let ply_at = at + (token.len() - ply.len());
    let line = lines.last_mut().expect("the main line is never popped");
    let side = if line.next.is_multiple_of(2) {
        Side::South
    } else {
        Side::North
    };
    line.last = Some(line.next);
    line.next += 1;
    let (body, suffix) = split_suffix(ply);
    let (written, renamed) = (out.len(), map.renamed.len());
    if rewrite_ply_into(rules, side, (body, ply_at), from, to, out, map) {
        out.push_str(suffix);
    } else {
        out.truncate(written);
        map.renamed.truncate(renamed);
        out.push_str(ply);
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

    #[test]
    fn plies_rewrite_pits_but_not_counts() {
        let r = rules(Game::Tsoro, Board::new(4, 12), "heads=1");
        let rel = rewrite_ply(
            &r,
            Side::North,
            "d3xa11,b10",
            Numbering::Absolute,
            Numbering::Relative,
        )
        .unwrap();
        // North: d12..d1 are 1..12, so d3 is 10; South's a11 is 24+11, b10 is 24+15.
        assert_eq!(rel, "10x35,39");
        let back = rewrite_ply(
            &r,
            Side::North,
            &rel,
            Numbering::Relative,
            Numbering::Absolute,
        );
        assert_eq!(back.as_deref(), Some("d3xa11,b10"));
        let k = rules(Game::Kiothi, None, "");
        let rel = rewrite_ply(
            &k,
            Side::South,
            "a8:4-a1x",
            Numbering::Absolute,
            Numbering::Relative,
        );
        assert_eq!(rel.as_deref(), Some("8:4-1x"));
        let rel = rewrite_ply(
            &k,
            Side::North,
            "b1:10,b2>a5:10,b1:10",
            Numbering::Absolute,
            Numbering::Relative,
        );
        assert_eq!(rel.as_deref(), Some("10:10,9>15:10,10:10"));
        assert_eq!(
            rewrite_ply(
                &k,
                Side::South,
                "a11",
                Numbering::Absolute,
                Numbering::Relative
            ),
            None
        );
        assert_eq!(
            rewrite_ply(
                &k,
                Side::South,
                "99",
                Numbering::Relative,
                Numbering::Absolute
            ),
            None
        );
    }

    #[test]
    fn the_map_leads_back_from_each_pit_written_to_the_number_read() {
        let r = rules(Game::Tsoro, Board::new(4, 12), "");
        // North's `10x35,39` is `d3xa11,b10`: each pit one byte longer or shorter.
        let text = "1. 3 10x35,39 {x} 2. 4q *";
        let (abs, map) =
            rewrite_game_text_mapped(&r, 0, text, Numbering::Relative, Numbering::Absolute);
        assert_eq!(abs, "1. a3 d3xa11,b10 {x} 2. 4q *");
        let read = |written: &str| text[map.read_offset(abs.find(written).unwrap())..].to_string();
        assert_eq!(read("a3"), "3 10x35,39 {x} 2. 4q *");
        assert_eq!(read("d3x"), "10x35,39 {x} 2. 4q *");
        assert_eq!(read("xa11"), "x35,39 {x} 2. 4q *");
        assert_eq!(read("a11"), "35,39 {x} 2. 4q *");
        assert_eq!(read("b10"), "39 {x} 2. 4q *");
        assert_eq!(read("{x}"), "{x} 2. 4q *");
        // A ply that cannot be rewritten is copied as it is, and maps to itself.
        assert_eq!(read("4q"), "4q *");
        // Inside a pit, the same place in the number, its last byte at most.
        assert_eq!(
            map.read_offset(abs.find("a3").unwrap() + 1),
            text.find('3').unwrap()
        );
        assert_eq!(
            map.read_offset(abs.find("a11").unwrap() + 2),
            text.find("35").unwrap() + 1
        );
    }

    #[test]
    fn a_pit_named_by_no_number_is_said_so() {
        let r = rules(Game::Tsoro, Board::new(4, 8), "");
        let relative = |t| unnamed_pit(&r, t, Numbering::Relative);
        let own_and_theirs =
            "numbers here are 1-16 (the player's own pits) and 17-32 (the opponent's)";
        assert_eq!(
            relative("12.99!"),
            Some(format!("`99` names no pit: {own_and_theirs}"))
        );
        assert_eq!(
            relative("10x35:2,0"),
            Some(format!("`35` names no pit: {own_and_theirs}"))
        );
        // Counts are no pits; a ply broken otherwise is the reader's to say.
        assert_eq!(relative("10x31:99"), None);
        assert_eq!(relative("5-7?"), None);
        let ludii = unnamed_pit(&r, "19x10,32", Numbering::Ludii);
        assert_eq!(
            ludii.as_deref(),
            Some("`32` is no site of the 4x8 board (0-31)")
        );
    }

    #[test]
    fn game_text_keeps_everything_but_the_pits() {
        let r = rules(Game::Tsoro, Board::new(4, 6), "");
        let text = "[Game \"Tsoro\"]\n[Board \"4x6\"]\n\n1. a3! {a1 stays} d4 (1... d5 $2) 2. b2?; a4\n*\n";
        let rel = rewrite_game_text(&r, 0, text, Numbering::Absolute, Numbering::Relative);
        assert_eq!(
            rel,
            "[Game \"Tsoro\"]\n[Board \"4x6\"]\n\n1. 3! {a1 stays} 3 (1... 2 $2) 2. 11?; a4\n*\n"
        );
        let back = rewrite_game_text(&r, 0, &rel, Numbering::Relative, Numbering::Absolute);
        assert_eq!(back, text);
    }
}
