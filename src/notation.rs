//! The one bridge between ply syntax and moves: a ply read as a [`Move`] of its game in
//! the position it is played in ([`read_move`]), and a move with its [`Effect`] written
//! back as ply syntax ([`ply_of`]).
//!
//! Syntax knows no rules and the rules core sees no text: this module is where the two
//! meet, for replay, the generator and repair alike. Text is written from the syntax
//! (`Display for PlySyntax`) and never from a move.

use crate::geometry::Pit;
use crate::moves::{BonusTake, Effect, HeadStop, Illegal, Move, Redistribution};
use crate::pmn::{self, PitCount, PitRef, PlySyntax};
use crate::position::Position;
use crate::rules::{Game, Rules};

/// The pit a reference names, if it is on the board of `rules`.
pub fn pit_on_board(rules: &Rules, pit: PitRef) -> Result<Pit, Illegal> {
    let p = Pit::new(pit.row, pit.col);
    if rules.board().contains(p) {
        Ok(p)
    } else {
        Err(Illegal::NoSuchPit { pit: p })
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
                if game == Game::Tsoro && rules.heads(pos.side).contains(&end) {
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
                        pos.side
                    )));
                }
                if k == 0 {
                    return Err(PlyError::Form(
                        "arrivals are counted from 1; `#0` names none".into(),
                    ));
                }
            }
            // Filled in place: the move and its bonus list are reused from ply to ply.
            let sowing = mv.as_sowing_mut();
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
            sowing.from = Some(from);
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

/// The reference that names a pit in ply syntax.
pub fn pit_ref(p: Pit) -> PitRef {
    PitRef {
        row: p.row,
        col: p.col,
    }
}

/// The ply syntax of a move with its effect: the move's own choices (start, Kiothi's
/// lift, Tsoro's head stop with its arrival when not the first), then `x` and the bonus
/// when it captured. No `-END` check: that belongs to a written record.
pub fn ply_of(mv: &Move, effect: &Effect) -> PlySyntax {
    match mv {
        Move::Redistribute(r) => PlySyntax::Redistribution(pmn::Redistribution {
            emptied: r.emptied.iter().map(|&p| pit_ref(p)).collect(),
            filled: r
                .placed
                .iter()
                .map(|&(p, n)| pmn::PitStones {
                    pit: pit_ref(p),
                    stones: n,
                })
                .collect(),
        }),
        Move::Sow(s) => PlySyntax::Sowing(pmn::Sowing {
            from: pit_ref(s.start()),
            lift: s.lift,
            end: s.stop.map(|h| pit_ref(h.head)),
            arrival: s
                .stop
                .and_then(|h| (h.arrival != 1).then_some(h.arrival.min(u16::MAX as u32) as u16)),
            capture: effect.is_capture().then(|| {
                s.bonus
                    .iter()
                    .map(|b| PitCount {
                        pit: pit_ref(b.pit),
                        count: b.stones,
                    })
                    .collect()
            }),
        }),
    }
}
