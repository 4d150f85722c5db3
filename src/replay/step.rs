//! One ply: its syntax read as a move under the rules and played, and the commands
//! after it checked.

use crate::diagnostic::{Code, Diagnostic};
use crate::geometry::Side;
use crate::moves::{Effect, Mode, Move};
use crate::notation::{read_move, PlyError};
use crate::play::GameState;
use crate::pmn::{Command, PlySyntax};
use crate::position::Position;
use crate::rules::Game;

use super::{illegal, said_ply, PlyInput, PlyTrace, PlyView, ReplayOptions};

/// Plays one ply and checks everything written with it (`-END`, `x`, `[%stones]`,
/// `[%foul]`), pushing diagnostics. Returns the ply's trace, or `None` when the ply
/// could not be played; `failed` is set on any error (the replay must stop).
pub(crate) fn step(
    state: &mut GameState,
    input: &PlyInput<'_>,
    effect: &mut Effect,
    options: &ReplayOptions,
    diagnostics: &mut Vec<Diagnostic>,
    failed: &mut bool,
) -> Option<PlyTrace> {
    let mut mv = Move::buffer();
    let played = step_into(state, input, &mut mv, effect, options, diagnostics, failed)?;
    Some(
        played
            .view(input, &mv, effect, state.position(), options)
            .to_trace(options),
    )
}

/// A ply [`step_into`] played, to be traced: what the input does not say of it.
#[derive(Clone, Copy)]
pub(super) struct Played {
    /// Who played it.
    side: Side,
    /// Played under `[%foul]`.
    foul: bool,
}

impl Played {
    /// The ply as played from `input` into `mv`, `effect` and the position `after`.
    #[inline(always)]
    pub(super) fn view<'a>(
        self,
        input: &PlyInput<'a>,
        mv: &'a Move,
        effect: &'a Effect,
        after: &'a Position,
        options: &ReplayOptions,
    ) -> PlyView<'a> {
        PlyView {
            number: input.number,
            side: self.side,
            span: *input.span,
            syntax: input.syntax,
            mv,
            effect,
            after: options.keep_positions.then_some(after),
            foul: self.foul,
        }
    }
}

/// [`step`] reading the move into `mv`, which a replay keeps from ply to ply; `None`
/// when the ply was not played or the replay keeps diagnostics only.
// Inlined into the replay's loop: one call a ply less, and the frame set up once a game.
#[inline(always)]
pub(super) fn step_into(
    state: &mut GameState,
    input: &PlyInput<'_>,
    mv: &mut Move,
    effect: &mut Effect,
    options: &ReplayOptions,
    diagnostics: &mut Vec<Diagnostic>,
    failed: &mut bool,
) -> Option<Played> {
    let number = input.number;
    let syntax = input.syntax;
    // The ply as written, quoted for a message: made only when one is written.
    let said = || said_ply(syntax);
    // Borrowed, and read only where a message is made.
    let span = input.span;
    let side = state.position().side();
    let has_x = matches!(syntax, PlySyntax::Sowing(s) if s.capture.is_some());
    let foul = input.commands.iter().any(|c| c.name == "foul");
    match read_move(state.rules(), state.position(), syntax, mv) {
        Ok(()) => {}
        Err(PlyError::Form(message)) => {
            diagnostics.push(Diagnostic::error(
                Code::PlyForm,
                Some(number),
                *span,
                format!("ply {number} `{said}`: {message}", said = said()),
            ));
            *failed = true;
            return None;
        }
        Err(PlyError::Illegal(e)) => {
            diagnostics.push(illegal(state, number, *span, syntax, &e, has_x, options));
            *failed = true;
            return None;
        }
    }
    let mode = if foul { Mode::Foul } else { Mode::Legal };
    if let Err(e) = state.play_into(mv, mode, effect) {
        diagnostics.push(illegal(state, number, *span, syntax, &e, has_x, options));
        *failed = true;
        return None;
    }
    for broken in &effect.fouls {
        diagnostics.push(Diagnostic::warning(
            Code::Foul,
            Some(number),
            *span,
            format!(
                "ply {number} `{said}` broke a rule and was accepted ([%foul]): {broken}",
                said = said()
            ),
        ));
    }
    if foul && effect.fouls.is_empty() {
        diagnostics.push(Diagnostic::warning(
            Code::Foul,
            Some(number),
            *span,
            format!(
                "ply {number} `{said}` is marked [%foul] but breaks no rule",
                said = said()
            ),
        ));
    }
    // The written `-END` is a check.
    if let PlySyntax::Sowing(s) = syntax {
        // So is `#k`: it says the sowing stopped at the head at its k-th arrival there.
        if let (Some(k), Some(end), false) = (s.arrival, effect.end, effect.stopped_at_head) {
            diagnostics.push(Diagnostic::error(
                Code::EndMismatch,
                Some(number),
                *span,
                format!(
                    "ply {number} `{said}` did not stop at a head: it never reached the head occupied a {k}{} time, and ended in the empty pit {end}",
                    ordinal_suffix(k), said = said()),
            ));
            *failed = true;
        } else if let (Some(written), Some(actual)) = (s.end, effect.end) {
            if written != actual {
                diagnostics.push(Diagnostic::error(
                    Code::EndMismatch,
                    Some(number),
                    *span,
                    format!(
                        "ply {number} `{said}` ends in {actual}, not in {written} as written",
                        said = said()
                    ),
                ));
                *failed = true;
            }
        }
    }
    // So is the `x` mark.
    let captured = effect.is_capture();
    if !*failed && has_x && !captured {
        diagnostics.push(Diagnostic::error(
            Code::CaptureMark,
            Some(number),
            *span,
            format!(
                "ply {number} `{said}` is marked x but captured nothing",
                said = said()
            ),
        ));
        *failed = true;
    } else if !*failed && !has_x && captured {
        let taken: Vec<String> = effect
            .captured
            .iter()
            .map(|(p, n)| format!("{p} ({n})"))
            .collect();
        diagnostics.push(Diagnostic::warning(
            Code::CaptureMark,
            Some(number),
            *span,
            format!(
                "ply {number} `{said}` captured {} but is not marked x",
                taken.join(", "),
                said = said()
            ),
        ));
    }
    let after = state.position();
    if !*failed {
        for cmd in input.commands.iter().filter(|c| c.name == "stones") {
            if let Some(d) = check_stones(state.rules().game(), after, number, cmd) {
                diagnostics.push(d);
                *failed = true;
                break;
            }
        }
    }
    if options.diagnostics_only {
        return None;
    }
    Some(Played { side, foul })
}

/// `st`, `nd`, `rd` or `th`, for "the 2nd arrival".
fn ordinal_suffix(n: u16) -> &'static str {
    match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

/// A `[%stones S N]` checkpoint against the position after the ply.
/// `number` 0 is a checkpoint of the start position (written before the first ply).
pub(super) fn check_stones(
    game: Game,
    after: &Position,
    number: u32,
    cmd: &Command,
) -> Option<Diagnostic> {
    let ply = Some(number).filter(|&n| n > 0);
    let counts: Option<Vec<u32>> = cmd.args.iter().map(|a| a.parse().ok()).collect();
    let Some(&[south, north]) = counts.as_deref() else {
        return Some(Diagnostic::error(
            Code::Command,
            ply,
            cmd.span,
            format!(
                "[%stones] takes two counts, South's and North's, e.g. [%stones 40 35]; found [%stones {}]",
                cmd.args.as_str()
            ),
        ));
    };
    let (actual, what) = if game == Game::Kiothi {
        (
            [after.prisons()[0] as u32, after.prisons()[1] as u32],
            "in prison",
        )
    } else {
        (
            [after.stones_of(Side::South), after.stones_of(Side::North)],
            "on the board",
        )
    };
    (actual != [south, north]).then(|| {
        let when = match number {
            0 => "at the start".to_string(),
            n => format!("after ply {n}"),
        };
        Diagnostic::error(
            Code::StonesMismatch,
            ply,
            cmd.span,
            format!(
                "{when} South has {} and North {} stones {what}; the record says {south} and {north}",
                actual[0], actual[1]
            ),
        )
    })
}
