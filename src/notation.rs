//! The one bridge between ply syntax and moves: a ply read as a [`Move`] of its game in
//! the position it is played in ([`read_move`]), and a move with its [`Effect`] written
//! back as ply syntax ([`ply_of`]).
//!
//! Syntax knows no rules and the rules core sees no text: this module is where the two
//! meet, for replay, the generator and repair alike. Text is written from the syntax
//! (`Display for PlySyntax`) and never from a move.

use crate::geometry::Pit;
use crate::moves::{
    BonusChoice, BonusTake, Candidate, Effect, HeadStop, Illegal, Move, Redistribution,
};
use crate::pmn::{self, PitCount, PlySyntax};
use crate::position::Position;
use crate::rules::{Game, Rules};

/// A pit as written, if it is on the board of `rules`.
pub fn pit_on_board(rules: &Rules, pit: Pit) -> Result<Pit, Illegal> {
    if rules.board().contains(pit) {
        Ok(pit)
    } else {
        Err(Illegal::NoSuchPit { pit })
    }
}

/// Why a ply could not be read as a move of its game.
pub enum PlyError {
    /// A form the game does not write.
    Form(String),
    /// A pit that is not on the board.
    Illegal(Illegal),
}

impl From<Illegal> for PlyError {
    fn from(e: Illegal) -> PlyError {
        PlyError::Illegal(e)
    }
}

/// Reads a ply as a move of the game, in the position it is played in, into `mv`. The
/// bonus list of the move `mv` held is reused: a replay reads a move every ply.
// Inlined into the replay's loop, like `step_into`, which reads every ply with it.
#[inline(always)]
pub fn read_move(
    rules: &Rules,
    pos: &Position,
    syntax: &PlySyntax,
    mv: &mut Move,
) -> Result<(), PlyError> {
    let game = rules.game();
    match syntax {
        PlySyntax::Redistribution(r) => read_redistribution(rules, r, mv),
        PlySyntax::Sowing(s) => {
            let from = pit_on_board(rules, s.from)?;
            if s.lift.is_some() && game != Game::Kiothi {
                return Err(PlyError::Form(format!(
                    "{game} lifts every stone of a pit; only Kiothi writes `:n`"
                )));
            }
            let mut stop = None;
            if let Some(end) = s.end {
                let end = pit_on_board(rules, end)?;
                if game == Game::Tsoro && rules.heads(pos.side()).contains(&end) {
                    stop = Some(HeadStop {
                        head: end,
                        arrival: s.arrival.unwrap_or(1) as u32,
                    });
                }
            }
            if let Some(k) = s.arrival {
                if stop.is_none() {
                    return Err(PlyError::Form(format!(
                        "`#{k}` counts arrivals at a head; the pit after `-` is not a head of {}",
                        pos.side()
                    )));
                }
                if k == 0 {
                    return Err(PlyError::Form(
                        "arrivals are counted from 1; `#0` names none".into(),
                    ));
                }
            }
            // Filled in place: the move and its bonus list are reused from ply to ply.
            let sowing = mv.as_sowing_mut(from);
            sowing.bonus.clear();
            if let Some(list) = &s.capture {
                match game {
                    Game::Tsoro | Game::Nsolo => {}
                    _ if list.is_empty() => {}
                    _ => {
                        return Err(PlyError::Form(format!(
                            "{game} has no bonus: `x` stands alone"
                        )))
                    }
                }
                for pc in list {
                    if pc.count.is_some() && game == Game::Tsoro {
                        return Err(PlyError::Form(
                            "Tsoro bonus pits are taken whole; they have no `:n`".into(),
                        ));
                    }
                    sowing.bonus.push(BonusTake {
                        pit: pit_on_board(rules, pc.pit)?,
                        stones: pc.count,
                    });
                }
            }
            sowing.lift = s.lift;
            sowing.stop = stop;
            Ok(())
        }
    }
}

/// [`read_move`] of Kiothi's opening redistribution (two plies a game): kept out of the
/// replay's loop, into which `read_move` is inlined, and its vector sized at once.
#[inline(never)]
fn read_redistribution(
    rules: &Rules,
    r: &pmn::Redistribution,
    mv: &mut Move,
) -> Result<(), PlyError> {
    let game = rules.game();
    if game != Game::Kiothi {
        return Err(PlyError::Form(format!(
            "{game} has no opening redistribution (`P,P>Q:n`); only Kiothi does"
        )));
    }
    let [a, b] = r.emptied[..] else {
        return Err(PlyError::Form(format!(
            "the opening empties exactly two own pits; {} are named",
            r.emptied.len()
        )));
    };
    let mut placed = Vec::with_capacity(r.filled.len());
    for f in &r.filled {
        placed.push((pit_on_board(rules, f.pit)?, f.stones));
    }
    *mv = Move::Redistribute(Redistribution {
        emptied: [pit_on_board(rules, a)?, pit_on_board(rules, b)?],
        placed,
    });
    Ok(())
}

/// The ply syntax of a move with its effect: the move's own choices (start, Kiothi's
/// lift, Tsoro's head stop with its arrival when not the first), then `x` and the bonus
/// when it captured. No `-END` check: that belongs to a written record.
pub fn ply_of(mv: &Move, effect: &Effect) -> PlySyntax {
    match mv {
        Move::Redistribute(r) => PlySyntax::Redistribution(pmn::Redistribution {
            emptied: r.emptied.to_vec(),
            filled: r
                .placed
                .iter()
                .map(|&(p, n)| pmn::PitStones { pit: p, stones: n })
                .collect(),
        }),
        Move::Sow(s) => PlySyntax::Sowing(pmn::Sowing {
            from: s.start(),
            lift: s.lift,
            end: s.stop.map(|h| h.head),
            arrival: s
                .stop
                .and_then(|h| (h.arrival != 1).then_some(h.arrival.min(u16::MAX as u32) as u16)),
            capture: effect.is_capture().then(|| {
                s.bonus
                    .iter()
                    .map(|b| PitCount {
                        pit: b.pit,
                        count: b.stones,
                    })
                    .collect()
            }),
        }),
    }
}

/// A legal move as an illegal-move diagnostic lists it: its ply, then the bonus still
/// to choose in braces (`d3x{2 of a1,a3,b4}`), or Kiothi's opening as a pattern.
pub fn candidate_text(c: &Candidate) -> String {
    let names = |pits: &mut dyn Iterator<Item = Pit>| -> String {
        pits.map(|p| p.to_string()).collect::<Vec<_>>().join(",")
    };
    let ply = || ply_of(&c.mv, &Effect::default());
    match &c.bonus {
        BonusChoice::Redistribution { pits } => {
            format!(
                "P,P>Q:n,... with P two of {}",
                names(&mut pits.iter().copied())
            )
        }
        BonusChoice::None if c.captures => format!("{}x", ply()),
        BonusChoice::None => ply().to_string(),
        BonusChoice::Pits { count, eligible } => {
            format!(
                "{}x{{{count} of {}}}",
                ply(),
                names(&mut eligible.iter().copied())
            )
        }
        BonusChoice::Stones { stones, eligible } => {
            let unit = if *stones == 1 { "stone" } else { "stones" };
            let from = names(&mut eligible.iter().map(|&(p, _)| p));
            format!("{}x{{{stones} {unit} from {from}}}", ply())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Sowing;
    use crate::play::GameState;
    use crate::rng::Rng;
    use crate::Board;

    /// Every move of random playouts, written as ply syntax and read back in the
    /// position it was played in, is the move played; its text reads as the syntax.
    #[test]
    fn a_move_written_and_read_back_is_the_move() {
        let sets = [
            (Game::Tsoro, None, ""),
            (
                Game::Tsoro,
                Some((4, 12)),
                "heads=2 bonus=5,3,2 head-bonus=yes",
            ),
            (Game::Nsolo, None, ""),
            (Game::Nsolo, Some((4, 9)), "bonus=hole"),
            (Game::Kiothi, None, ""),
            (Game::Kiothi, None, "start=6x5 leftmost=chain"),
            (Game::BaoLaKimasai, None, ""),
        ];
        let mut plies = 0;
        for (game, board, options) in sets {
            let board = board.map(|(rows, cols)| Board::new(rows, cols).expect("a board"));
            let rules = Rules::new(game, board, options).expect("rules");
            for seed in 1..=8 {
                let mut rng = Rng::new(seed);
                let mut state = GameState::new(rules.clone(), Position::initial(&rules));
                let mut effect = Effect::default();
                while state.plies() < 200 {
                    let before = state.position().clone();
                    let Some(mv) = state.play_random(&mut rng, &mut effect) else {
                        break;
                    };
                    let syntax = ply_of(&mv, &effect);
                    let mut read = Move::buffer();
                    assert!(
                        read_move(&rules, &before, &syntax, &mut read).is_ok(),
                        "{game}: `{syntax}` not read in {before}"
                    );
                    assert_eq!(read, mv, "{game}: `{syntax}` in {before}");
                    let text = syntax.to_string();
                    let again =
                        crate::pmn::parse_str(&format!("[Game \"{game}\"]\n\n1. {text} *\n"));
                    let first = again[0].record.main_line().next().expect("a ply");
                    assert_eq!(first.ply.syntax, syntax, "{game}: `{text}`");
                    plies += 1;
                }
            }
        }
        assert!(plies > 1000, "only {plies} plies played");
    }

    #[test]
    fn a_candidate_is_listed_with_its_bonus_to_choose() {
        let c = Candidate::single(
            Move::Sow(Sowing::from(Pit::new(1, 3))),
            true,
            BonusChoice::Pits {
                count: 2,
                eligible: vec![Pit::new(2, 1), Pit::new(3, 4)],
            },
        );
        assert_eq!(candidate_text(&c), "b3x{2 of c1,d4}");
        let quiet = Candidate {
            captures: false,
            bonus: BonusChoice::None,
            ..c
        };
        assert_eq!(candidate_text(&quiet), "b3");
    }
}
