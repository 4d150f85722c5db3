//! Replay: the one place where a record's text meets the rules.
//!
//! A parsed record is replayed from its start position under its `Game`, `Board` and
//! `Rules` tags, ply by ply, into a [`Trace`]: the effect of every ply (and, when asked,
//! the position after it) and every diagnostic, reader problems included. Validation,
//! statistics, plots, conversion and diagrams all read the trace; none replays on its
//! own.
//!
//! After the first error in a game the replay stops: the position is then unknown.

use crate::diagnostic::{code, Diagnostic};
use crate::games;
use crate::geometry::{Pit, Side};
use crate::moves::{Candidate, Effect, Illegal, Mode, Move, Sowing};
use crate::notation::{read_move, PlyError};
use crate::play::{GameState, Outcome};
use std::ops::ControlFlow;

use crate::pmn::{
    Command, Comment, Element, GameResult, GameText, ParsedGame, Ply, PlySyntax, Problem,
    ProblemCode, Record, ResultToken, Skip, Span, Visitor,
};
use crate::position::Position;
use crate::rules::{split_options, with_overrides, Game, Rules};
use crate::Board;

/// How a replay is run.
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    /// `--rules KEY=VALUE`: options that override the record's `Rules` tag.
    pub overrides: Vec<(String, String)>,
    /// Keep the position after every ply in the trace (for show, stats, convert).
    pub keep_positions: bool,
    /// Keep every ply's laps in the trace (for `long` conversion, diagrams).
    pub keep_laps: bool,
    /// Legal plies listed in an illegal-move diagnostic, at most.
    pub max_legal_listed: usize,
    /// Keep no per-ply trace at all, only diagnostics and counts (validation, repairs).
    pub diagnostics_only: bool,
    /// `--max-laps`: the lap budget of one sowing ([`Rules::max_laps`]); `None` keeps
    /// the rules' default.
    pub max_laps: Option<u64>,
}

impl ReplayOptions {
    /// Options for validation: lean traces.
    pub fn validate() -> ReplayOptions {
        ReplayOptions {
            max_legal_listed: 64,
            diagnostics_only: true,
            ..ReplayOptions::default()
        }
    }

    /// Options for replays whose messages nobody reads (repair candidates, rules
    /// inference): diagnostics only, no legal-move lists.
    pub fn quiet(overrides: &[(String, String)]) -> ReplayOptions {
        ReplayOptions {
            overrides: overrides.to_vec(),
            diagnostics_only: true,
            ..ReplayOptions::default()
        }
    }

    /// [`ReplayOptions::quiet`] with these options' overrides and lap budget.
    pub fn quieted(&self) -> ReplayOptions {
        ReplayOptions {
            max_laps: self.max_laps,
            ..ReplayOptions::quiet(&self.overrides)
        }
    }

    /// Options for the analysers and converters: positions and laps kept.
    pub fn full() -> ReplayOptions {
        ReplayOptions {
            keep_positions: true,
            keep_laps: true,
            max_legal_listed: 64,
            ..ReplayOptions::default()
        }
    }
}

/// One replayed ply.
#[derive(Clone, Debug)]
pub struct PlyTrace {
    /// 1-based ply number.
    pub number: u32,
    /// Who played it.
    pub side: Side,
    /// Where it is written.
    pub span: Span,
    /// The ply as written (without its suffix).
    pub text: String,
    /// The move it was read as.
    pub mv: Move,
    /// What it did (laps kept only with `keep_laps`).
    pub effect: Effect,
    /// The position after it (only with `keep_positions`).
    pub after: Option<Position>,
    /// Played under `[%foul]`.
    pub foul: bool,
}

/// The replay of one game.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The rules the game was replayed under, when the tags could be understood.
    pub rules: Option<Rules>,
    /// The start position.
    pub start: Option<Position>,
    /// The plies replayed, in order (up to the first error); empty when the replay
    /// kept diagnostics only.
    pub plies: Vec<PlyTrace>,
    /// Plies played (those in `plies`, or their count when none are kept).
    pub played: usize,
    /// Every problem, in the order found (reader problems first).
    pub diagnostics: Vec<Diagnostic>,
    /// Plies in the record's main line.
    pub plies_written: usize,
    /// The position after the last ply replayed.
    pub last: Option<Position>,
    /// The outcome if the game is over after the last ply (only for a complete replay,
    /// or one stopped by a ply written after the end).
    pub outcome: Option<Outcome>,
    /// The result the record declares (token, else `Result` tag).
    pub declared: Option<GameResult>,
    /// The whole main line replayed without an error.
    pub complete: bool,
}

impl Trace {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }

    /// Valid: no diagnostic is an error.
    pub fn is_valid(&self) -> bool {
        self.errors() == 0
    }

    /// The first ply with an error, if any.
    pub fn first_error_ply(&self) -> Option<u32> {
        self.first_error().and_then(|d| d.ply)
    }

    /// The error at the earliest ply, else (no error at a ply) the first error. The
    /// reader's problems come first in the list, not in the game: a syntax error at ply
    /// 20 is listed before the illegal ply 5 that stopped the replay.
    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.first_error_index().map(|i| &self.diagnostics[i])
    }

    /// Where [`Trace::first_error`] is in the list of diagnostics.
    pub fn first_error_index(&self) -> Option<usize> {
        let errors = || (self.diagnostics.iter().enumerate()).filter(|(_, d)| d.is_error());
        errors()
            .filter(|(_, d)| d.ply.is_some())
            .min_by_key(|(_, d)| d.ply)
            .or_else(|| errors().next())
            .map(|(i, _)| i)
    }

    /// The position after ply `n` (0: the start), when positions were kept.
    pub fn position_after(&self, n: usize) -> Option<&Position> {
        if n == 0 {
            self.start.as_ref()
        } else {
            self.plies.get(n - 1)?.after.as_ref()
        }
    }
}

/// The span of a tag's value, or of the record's first element when the tag is absent.
fn tag_span(record: &Record, name: &str) -> Span {
    record
        .tags
        .iter()
        .find(|t| t.name == name)
        .map(|t| {
            if t.value_span.end > t.value_span.start {
                t.value_span
            } else {
                t.span
            }
        })
        .or_else(|| record.tags.first().map(|t| t.span))
        .unwrap_or_default()
}

/// Builds the rule set of a record from its tags and the overrides.
// A diagnostic is returned once per game at most: its size does not matter.
#[allow(clippy::result_large_err)]
pub fn rules_of(record: &Record, overrides: &[(String, String)]) -> Result<Rules, Diagnostic> {
    let Some(game_tag) = record.tag("Game") else {
        return Err(Diagnostic::error(
            code::UNKNOWN_GAME,
            None,
            tag_span(record, "Game"),
            "the record has no Game tag; expected one of Tsoro, Nsolo, Kiothi, BaoLaKimasai".into(),
        ));
    };
    let game = Game::from_tag(game_tag).ok_or_else(|| {
        Diagnostic::error(
            code::UNKNOWN_GAME,
            None,
            tag_span(record, "Game"),
            format!(
                "unknown game {game_tag:?}; expected one of Tsoro, Nsolo, Kiothi, BaoLaKimasai"
            ),
        )
    })?;
    let board = match record.tag("Board") {
        None => None,
        Some(text) => Some(Board::parse(text).ok_or_else(|| {
            Diagnostic::error(code::BAD_BOARD, None, tag_span(record, "Board"), {
                let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
                let form = match text.split_once('x') {
                    Some((r, c)) if digits(r) && digits(c) => "a board sow knows",
                    _ => "of the form RxC",
                };
                format!(
                    "board {text:?} is not {form}; {game} is played on {}",
                    game.allowed_boards()
                )
            })
        })?),
    };
    let written = record.tag("Rules").unwrap_or("");
    let option_error = |e: crate::rules::RulesError, span: Span| {
        let c = match e {
            crate::rules::RulesError::Board { .. } => code::BAD_BOARD,
            _ => code::UNKNOWN_OPTION,
        };
        Diagnostic::error(c, None, span, e.to_string())
    };
    let mut pairs =
        split_options(written).map_err(|e| option_error(e, tag_span(record, "Rules")))?;
    with_overrides(&mut pairs, overrides);
    let options: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let span = if record.tag("Board").is_some() && record.tag("Rules").is_none() {
        tag_span(record, "Board")
    } else {
        tag_span(record, "Rules")
    };
    Rules::new(game, board, &options.join(" ")).map_err(|e| {
        let mut d = option_error(e, span);
        // The record's own options may be fine: then the overrides are to blame.
        if !overrides.is_empty() && Rules::new(game, board, written).is_ok() {
            let given: Vec<String> = overrides.iter().map(|(k, v)| format!("{k}={v}")).collect();
            d.message = format!("with --rules {}: {}", given.join(" "), d.message);
        }
        d
    })
}

/// What a rule set is built from: a record's `Game`, `Board` and `Rules` tags and the
/// overrides.
struct RulesSource {
    tags: [Option<String>; 3],
    overrides: Vec<(String, String)>,
}

impl RulesSource {
    fn tags(record: &Record) -> [Option<&str>; 3] {
        ["Game", "Board", "Rules"].map(|name| record.tag(name))
    }

    fn is(&self, tags: [Option<&str>; 3], overrides: &[(String, String)]) -> bool {
        self.tags.iter().zip(tags).all(|(a, b)| a.as_deref() == b) && self.overrides == overrides
    }
}

/// [`rules_of`] with the options' overrides and lap budget.
#[allow(clippy::result_large_err)]
pub fn rules_for(record: &Record, options: &ReplayOptions) -> Result<Rules, Diagnostic> {
    rules_of(record, &options.overrides).map(|rules| budgeted(rules, options))
}

/// The rule set with the options' lap budget, if they set one.
fn budgeted(rules: Rules, options: &ReplayOptions) -> Rules {
    match options.max_laps {
        Some(laps) => rules.with_max_laps(laps),
        None => rules,
    }
}

/// What replays reuse from game to game, held by the caller (a worker keeps one for
/// the games it replays): the last rule set built, with the tags and overrides it was
/// built from, and the move and effect buffers of the last replay. The games of a
/// corpus mostly share their tags, and building a rule set (its option text joined and
/// parsed, its circuits laid out) costs as much as the plies of a short game, and each
/// replay would grow the lists of its effect (captures, bonus, nki marks cleared) anew.
#[derive(Default)]
pub struct Replayer {
    rules: Option<(RulesSource, Rules)>,
    buffers: PlyBuffers,
}

/// The move and effect a replay fills ply by ply.
#[derive(Default)]
pub(crate) struct PlyBuffers {
    effect: Effect,
    mv: Option<Move>,
}

impl Replayer {
    /// A context with nothing to reuse yet.
    pub fn new() -> Replayer {
        Replayer::default()
    }

    /// [`rules_of`], reusing the last rule set built when the record's tags and the
    /// overrides are those it was built from (they alone decide it).
    #[allow(clippy::result_large_err)]
    fn rules_of(
        &mut self,
        record: &Record,
        overrides: &[(String, String)],
    ) -> Result<Rules, Diagnostic> {
        let tags = RulesSource::tags(record);
        if let Some((source, rules)) = &self.rules {
            if source.is(tags, overrides) {
                return Ok(rules.clone());
            }
        }
        let rules = rules_of(record, overrides)?;
        let source = RulesSource {
            tags: tags.map(|t| t.map(str::to_string)),
            overrides: overrides.to_vec(),
        };
        self.rules = Some((source, rules.clone()));
        Ok(rules)
    }
}

/// The start position of a record: its `SetUp`/`Position`, else the game's layout.
#[allow(clippy::result_large_err)]
pub fn start_of(record: &Record, rules: &Rules) -> Result<Position, Diagnostic> {
    if record.tag("SetUp") == Some("1") {
        let Some(text) = record.tag("Position") else {
            return Err(Diagnostic::error(
                code::SETUP,
                None,
                tag_span(record, "SetUp"),
                "SetUp \"1\" needs a Position tag".into(),
            ));
        };
        return Position::parse(rules, text).map_err(|e| {
            Diagnostic::error(
                code::SETUP,
                None,
                tag_span(record, "Position"),
                e.to_string(),
            )
        });
    }
    Ok(Position::initial(rules))
}

/// A set-up's stone total that the start could not lead to: a warning (PMN.md).
fn trace_setup_total(record: &Record, rules: &Rules, start: &Position) -> Option<Diagnostic> {
    if record.tag("SetUp") != Some("1") {
        return None;
    }
    let unlike = start.total_unlike_start(rules)?;
    let span = tag_span(record, "Position");
    Some(Diagnostic::warning(
        code::SETUP_TOTAL,
        None,
        span,
        unlike.to_string(),
    ))
}

/// The diagnostic code of an illegal move.
fn code_of(e: &Illegal, has_x: bool) -> &'static str {
    match e {
        Illegal::EndlessSowing { .. } => code::ENDLESS_SOWING,
        Illegal::UndecidedSowing { .. } => code::UNDECIDED_SOWING,
        Illegal::GameOver => code::AFTER_END,
        Illegal::BonusMissing | Illegal::BonusNotDue if !has_x => code::CAPTURE_MARK,
        Illegal::BonusNotDue => code::CAPTURE_MARK,
        Illegal::BonusMissing
        | Illegal::BonusCount { .. }
        | Illegal::BonusStones { .. }
        | Illegal::BonusNotDistinct { .. }
        | Illegal::BonusEmptyPit { .. }
        | Illegal::BonusNotOpponent { .. }
        | Illegal::BonusHead { .. }
        | Illegal::BonusTooMany { .. }
        | Illegal::BonusPitPartial { .. }
        | Illegal::BonusZero { .. }
        | Illegal::BonusHoleCount => code::BONUS,
        _ => code::ILLEGAL_MOVE,
    }
}

pub(crate) fn result_of(outcome: &Outcome) -> GameResult {
    match outcome.winner() {
        Some(Side::South) => GameResult::SouthWins,
        Some(Side::North) => GameResult::NorthWins,
        None => GameResult::Draw,
    }
}

fn describe(outcome: &Outcome) -> String {
    use crate::play::EndReason;
    let reason = match outcome {
        Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
    };
    let how = match reason {
        EndReason::NoLegalMove => {
            let loser = outcome.winner().map(Side::opponent).unwrap_or(Side::South);
            format!("{loser} has no legal move")
        }
        EndReason::Repetition => "the position occurred for the repetition count".into(),
        EndReason::Score { score } => format!(
            "the side to move has no legal move; with the stones left awarded, the prisons are South {} and North {}",
            score[0], score[1]
        ),
    };
    format!("{how}, so the result is {}", result_of(outcome).as_str())
}

/// One ply to replay: what was written, with the commands of the comments after it.
/// The replay of a record and the repairs of `repair` feed the same [`step`].
#[derive(Clone, Debug)]
pub struct PlyInput<'a> {
    /// 1-based ply number.
    pub number: u32,
    pub syntax: &'a PlySyntax,
    pub span: Span,
    /// `[%...]` commands written after the ply.
    pub commands: Vec<&'a Command>,
}

impl<'a> PlyInput<'a> {
    /// The main-line plies of a record: what [`Record::main_line`] gives, in one pass
    /// over the move text.
    pub fn main_line(record: &'a Record) -> Vec<PlyInput<'a>> {
        MainLine::of(record).collect()
    }
}

/// The main-line plies of a record, each read when the replay comes to it (see
/// [`PlyInput::main_line`]): a replay reads every ply once, in order, so a list of them
/// built first would cost every ply a write and a read of its input.
// The walk of `Record::main_line`, gathering the commands in the same pass, not in a
// second pass over a ply's elements: this is the replay's hot path.
struct MainLine<'a> {
    elements: std::slice::Iter<'a, Element>,
    /// The next ply, met where the comments after the last one ended.
    next: Option<&'a crate::pmn::Ply>,
    number: u32,
}

impl<'a> MainLine<'a> {
    fn of(record: &'a Record) -> MainLine<'a> {
        let mut elements = record.moves.iter();
        // Comments before the first ply follow no ply: they are passed over here.
        let next = elements.find_map(|e| match e {
            Element::Ply(ply) => Some(ply),
            _ => None,
        });
        MainLine {
            elements,
            next,
            number: 0,
        }
    }
}

impl MainLine<'_> {
    /// The plies not read yet.
    fn left(self) -> usize {
        let rest = self.elements.filter(|e| matches!(e, Element::Ply(_)));
        self.next.is_some() as usize + rest.count()
    }
}

impl<'a> Iterator for MainLine<'a> {
    type Item = PlyInput<'a>;

    // Inlined into the replay's loop, which reads every ply with it.
    #[inline(always)]
    fn next(&mut self) -> Option<PlyInput<'a>> {
        let ply = self.next.take()?;
        // The commands of the comments up to the next ply, which is kept for the next
        // call: each element is read once.
        let mut commands = Vec::new();
        for element in self.elements.by_ref() {
            match element {
                Element::Ply(next) => {
                    self.next = Some(next);
                    break;
                }
                Element::Comment(comment) => commands.extend(comment.commands.iter()),
                Element::MoveNumber(_) | Element::Nag(_) | Element::Variation(_) => {}
            }
        }
        self.number += 1;
        Some(PlyInput {
            number: self.number,
            syntax: &ply.syntax,
            span: ply.span,
            commands,
        })
    }
}

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
    let mut mv = Move::Sow(Sowing::default());
    step_into(state, input, &mut mv, effect, options, diagnostics, failed)
}

/// [`step`] reading the move into `mv`, which a replay keeps from ply to ply.
// Inlined into the replay's loop: one call a ply less, and the frame set up once a game.
#[inline(always)]
fn step_into(
    state: &mut GameState,
    input: &PlyInput<'_>,
    mv: &mut Move,
    effect: &mut Effect,
    options: &ReplayOptions,
    diagnostics: &mut Vec<Diagnostic>,
    failed: &mut bool,
) -> Option<PlyTrace> {
    let number = input.number;
    let syntax = input.syntax;
    let said = said_ply(syntax);
    let span = input.span;
    let side = state.position().side;
    let has_x = matches!(syntax, PlySyntax::Sowing(s) if s.capture.is_some());
    let foul = input.commands.iter().any(|c| c.name == "foul");
    match read_move(state.rules(), state.position(), syntax, mv) {
        Ok(()) => {}
        Err(PlyError::Form(message)) => {
            diagnostics.push(Diagnostic::error(
                code::PLY_FORM,
                Some(number),
                span,
                format!("ply {number} `{said}`: {message}"),
            ));
            *failed = true;
            return None;
        }
        Err(PlyError::Illegal(e)) => {
            diagnostics.push(illegal(state, number, span, syntax, &e, has_x, options));
            *failed = true;
            return None;
        }
    }
    let mode = if foul { Mode::Foul } else { Mode::Legal };
    if let Err(e) = state.play_into(mv, mode, effect) {
        diagnostics.push(illegal(state, number, span, syntax, &e, has_x, options));
        *failed = true;
        return None;
    }
    for broken in &effect.fouls {
        diagnostics.push(Diagnostic::warning(
            code::FOUL,
            Some(number),
            span,
            format!("ply {number} `{said}` broke a rule and was accepted ([%foul]): {broken}"),
        ));
    }
    if foul && effect.fouls.is_empty() {
        diagnostics.push(Diagnostic::warning(
            code::FOUL,
            Some(number),
            span,
            format!("ply {number} `{said}` is marked [%foul] but breaks no rule"),
        ));
    }
    // The written `-END` is a check.
    if let PlySyntax::Sowing(s) = syntax {
        // So is `#k`: it says the sowing stopped at the head at its k-th arrival there.
        if let (Some(k), Some(end), false) = (s.arrival, effect.end, effect.stopped_at_head) {
            diagnostics.push(Diagnostic::error(
                code::END_MISMATCH,
                Some(number),
                span,
                format!(
                    "ply {number} `{said}` did not stop at a head: it never reached the head occupied a {k}{} time, and ended in the empty pit {end}",
                    ordinal_suffix(k)
                ),
            ));
            *failed = true;
        } else if let (Some(end), Some(actual)) = (s.end, effect.end) {
            let written = Pit::new(end.row, end.col);
            if written != actual {
                diagnostics.push(Diagnostic::error(
                    code::END_MISMATCH,
                    Some(number),
                    span,
                    format!("ply {number} `{said}` ends in {actual}, not in {written} as written"),
                ));
                *failed = true;
            }
        }
    }
    // So is the `x` mark.
    let captured = effect.is_capture();
    if !*failed && has_x && !captured {
        diagnostics.push(Diagnostic::error(
            code::CAPTURE_MARK,
            Some(number),
            span,
            format!("ply {number} `{said}` is marked x but captured nothing"),
        ));
        *failed = true;
    } else if !*failed && !has_x && captured {
        let taken: Vec<String> = effect
            .captured
            .iter()
            .map(|(p, n)| format!("{p} ({n})"))
            .collect();
        diagnostics.push(Diagnostic::warning(
            code::CAPTURE_MARK,
            Some(number),
            span,
            format!(
                "ply {number} `{said}` captured {} but is not marked x",
                taken.join(", ")
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
    let mut kept = effect.clone();
    if !options.keep_laps {
        kept.laps = Vec::new();
    }
    // The replay's own setting, not part of what the ply did.
    kept.lap_counts_only = false;
    Some(PlyTrace {
        number,
        side,
        span,
        text: syntax.to_string(),
        mv: mv.clone(),
        effect: kept,
        after: options.keep_positions.then(|| after.clone()),
        foul,
    })
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
fn check_stones(game: Game, after: &Position, number: u32, cmd: &Command) -> Option<Diagnostic> {
    let ply = Some(number).filter(|&n| n > 0);
    let counts: Option<Vec<u32>> = cmd.args.iter().map(|a| a.parse().ok()).collect();
    let Some(&[south, north]) = counts.as_deref() else {
        return Some(Diagnostic::error(
            code::COMMAND,
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
            [after.prisons[0] as u32, after.prisons[1] as u32],
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
            code::STONES_MISMATCH,
            ply,
            cmd.span,
            format!(
                "{when} South has {} and North {} stones {what}; the record says {south} and {north}",
                actual[0], actual[1]
            ),
        )
    })
}

/// Replays one parsed game, with a context of its own (see [`Replayer::replay`] for
/// game after game).
pub fn replay(parsed: &ParsedGame, options: &ReplayOptions) -> Trace {
    Replayer::new().replay(parsed, options)
}

impl Replayer {
    /// Replays one parsed game: its main line's plies, each read from the record as the
    /// replay comes to it.
    pub fn replay(&mut self, parsed: &ParsedGame, options: &ReplayOptions) -> Trace {
        let record = &parsed.record;
        let mut game = Replaying::begin(self, record, options);
        if game.replays() {
            // Commands before the first ply follow no ply: a checkpoint there is of the
            // start.
            let before_first = (record.moves.iter())
                .take_while(|e| !matches!(e, Element::Ply(_)))
                .filter_map(|e| match e {
                    Element::Comment(c) => Some(&c.commands),
                    _ => None,
                })
                .flatten();
            for cmd in before_first {
                game.command_before_plies(cmd);
            }
        }
        if game.replays() {
            let mut plies = MainLine::of(record);
            for input in plies.by_ref() {
                if !game.ply(&mut self.buffers, &input) {
                    break;
                }
            }
            game.plies_written = plies.number as usize + plies.left();
        } else {
            game.plies_written = plies_in(record);
        }
        // The plies' places number the reader's problems; none, none are needed.
        let starts: Vec<usize> =
            match (parsed.problems.iter()).all(|p| p.code == ProblemCode::ResultMismatch) {
                true => Vec::new(),
                false => record.main_line().map(|p| p.ply.span.start).collect(),
            };
        let text = TextAt {
            text: &parsed.text,
            offset: parsed.offset,
        };
        game.finish(record, &parsed.problems, &starts, text)
    }

    /// Replays one game straight from its text, as the reader reads it: each main-line
    /// ply is played as it arrives (once the comments after it are read, for their
    /// commands), and no syntax tree is built. The trace is [`Replayer::replay`]'s of
    /// the parsed game. `None` when the text stands for no game (see
    /// [`GameText::is_game`]) or `keep` turns the game's tags down; else the record of
    /// its tags and result, and the trace.
    pub fn replay_text(
        &mut self,
        game: &GameText,
        options: &ReplayOptions,
        keep: &dyn Fn(&Record) -> bool,
    ) -> Option<(Record, Trace)> {
        if !game.is_game() {
            return None;
        }
        let mut events = EventReplay {
            replayer: self,
            options,
            keep,
            text: TextAt {
                text: game.text(),
                offset: game.offset(),
            },
            game: None,
            commented: true,
            pending: None,
            commands: Vec::new(),
            plies: 0,
            problems: Vec::new(),
            result: None,
        };
        let tags = game.read(&mut events)?;
        events.step_pending();
        let EventReplay {
            game: replaying,
            plies,
            problems: read,
            result,
            ..
        } = events;
        let mut replaying = replaying?;
        replaying.plies_written = plies as usize;
        let record = Record {
            tags,
            moves: Vec::new(),
            result,
        };
        // The problems of the decoding and of the reading, in the order of the text,
        // as a parse gives them.
        let mut problems = game.problems().to_vec();
        problems.extend(read);
        problems.sort_by_key(|p| p.span.start);
        // The places of the plies number the reader's problems: read again for them,
        // only when there is one.
        let mut starts = PlyStarts(Vec::new());
        if !(problems.iter()).all(|p| p.code == ProblemCode::ResultMismatch) {
            game.read(&mut starts);
        }
        let text = TextAt {
            text: game.text(),
            offset: game.offset(),
        };
        let trace = replaying.finish(&record, &problems, &starts.0, text);
        Some((record, trace))
    }
}

/// Where the main line's plies start.
struct PlyStarts(Vec<usize>);

impl Visitor for PlyStarts {
    fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
        self.0.push(ply.span.start);
        ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: Problem) {}
}

/// A game's text and where it starts in its file.
#[derive(Copy, Clone)]
struct TextAt<'t> {
    text: &'t str,
    offset: usize,
}

/// A replay in progress, fed by a parsed record ([`Replayer::replay`]) or by the
/// reader's events ([`Replayer::replay_text`]): the rules and start its tags give,
/// the commands before its first ply, its main line's plies one by one, then its end.
struct Replaying<'o> {
    options: &'o ReplayOptions,
    /// The replay's own diagnostics so far (the reader's join them at the end).
    trace: Trace,
    /// Why no rule set could be built, said at the end (unless the reader said it).
    no_rules: Option<Diagnostic>,
    /// The game, once its rules and start are known.
    state: Option<GameState>,
    /// A checkpoint before the first ply failed: nothing is replayed.
    start_failed: bool,
    /// A ply failed: the replay stopped there.
    failed: bool,
    /// The plies of the main line.
    plies_written: usize,
}

impl<'o> Replaying<'o> {
    fn begin(
        replayer: &mut Replayer,
        record: &Record,
        options: &'o ReplayOptions,
    ) -> Replaying<'o> {
        let mut game = Replaying {
            options,
            trace: Trace::default(),
            no_rules: None,
            state: None,
            start_failed: false,
            failed: false,
            plies_written: 0,
        };
        replayer.buffers.effect.lap_counts_only = !options.keep_laps;
        let rules = match replayer.rules_of(record, &options.overrides) {
            Ok(r) => budgeted(r, options),
            Err(d) => {
                game.no_rules = Some(d);
                return game;
            }
        };
        let start = match start_of(record, &rules) {
            Ok(p) => p,
            Err(d) => {
                game.trace.diagnostics.push(d);
                game.trace.rules = Some(rules);
                return game;
            }
        };
        if record.tag("Position").is_some() && record.tag("SetUp") != Some("1") {
            game.trace.diagnostics.push(Diagnostic::warning(
                code::SETUP,
                None,
                tag_span(record, "Position"),
                "the Position tag is not used without [SetUp \"1\"]: the game starts from the initial layout".into(),
            ));
        }
        if let Some(unlike) = trace_setup_total(record, &rules, &start) {
            game.trace.diagnostics.push(unlike);
        }
        // The rules go into the trace from the state, at the end.
        game.trace.start = Some(start.clone());
        game.state = Some(GameState::new(rules, start));
        game
    }

    /// Whether plies are still to be played.
    fn replays(&self) -> bool {
        self.state.is_some() && !self.start_failed && !self.failed
    }

    /// A command written before the first ply: a `[%stones]` checkpoint of the start,
    /// or a `[%foul]` that marks no ply.
    fn command_before_plies(&mut self, cmd: &Command) {
        let Some(state) = &self.state else {
            return;
        };
        match cmd.name.as_ref() {
            "stones" if !self.start_failed => {
                if let Some(d) = check_stones(state.rules().game(), state.position(), 0, cmd) {
                    self.trace.diagnostics.push(d);
                    self.start_failed = true;
                }
            }
            "foul" => self.trace.diagnostics.push(Diagnostic::warning(
                code::FOUL,
                None,
                cmd.span,
                "[%foul] before the first ply marks no ply; it belongs after the ply it excuses"
                    .into(),
            )),
            _ => {}
        }
    }

    /// Plays the next ply of the main line; false once the replay has stopped.
    #[inline(always)]
    fn ply(&mut self, buffers: &mut PlyBuffers, input: &PlyInput<'_>) -> bool {
        if !self.replays() {
            return false;
        }
        let Some(state) = &mut self.state else {
            return false;
        };
        let mv = buffers
            .mv
            .get_or_insert_with(|| Move::Sow(Sowing::default()));
        let before = state.plies();
        let ply = step_into(
            state,
            input,
            mv,
            &mut buffers.effect,
            self.options,
            &mut self.trace.diagnostics,
            &mut self.failed,
        );
        if state.plies() > before {
            self.trace.played += 1;
        }
        if let Some(ply) = ply {
            self.trace.plies.push(ply);
        }
        !self.failed
    }

    /// The trace, once the record is read: `record`'s tags and result, the reader's
    /// `problems` and the places of the main line's plies (`starts`, needed only when a
    /// problem is not a `Result` one).
    fn finish(
        self,
        record: &Record,
        problems: &[Problem],
        starts: &[usize],
        text: TextAt<'_>,
    ) -> Trace {
        let mut trace = self.trace;
        let own = std::mem::take(&mut trace.diagnostics);
        // PMN.md: a Result problem comes after any problem in the plies, so the
        // reader's (the Result tag against the token) waits for the replay.
        let (result_problems, problems): (Vec<_>, Vec<_>) =
            (problems.iter()).partition(|p| p.code == ProblemCode::ResultMismatch);
        trace.diagnostics = (problems.iter())
            .map(|p| reader_diagnostic(p, starts, record, text))
            .collect();
        trace.declared = declared_result(record);
        trace.plies_written = self.plies_written;
        let as_read = |p: &&Problem| Diagnostic::from_problem(p);
        if let Some(d) = self.no_rules {
            // A missing Game tag is the reader's `missing-game-tag` already: once is
            // enough.
            let reported = record.tag("Game").is_none()
                && (problems.iter()).any(|p| p.code == ProblemCode::MissingGameTag);
            if !reported {
                trace.diagnostics.push(d);
            }
            trace
                .diagnostics
                .extend(result_problems.iter().map(as_read));
            return trace;
        }
        trace.diagnostics.extend(own);
        let Some(state) = self.state else {
            trace
                .diagnostics
                .extend(result_problems.iter().map(as_read));
            return trace;
        };
        if self.start_failed {
            let (rules, last) = state.into_parts();
            (trace.rules, trace.last) = (Some(rules), Some(last));
            trace
                .diagnostics
                .extend(result_problems.iter().map(as_read));
            return trace;
        }
        let complete = !self.failed && !cut_short_by(problems.iter().copied());
        // A ply written after the end: the game replayed to its end, and its outcome
        // is known (the after-end error says it). The declared result is not checked
        // against it: the after-end error, at the first ply wrong, already says the
        // true result.
        let after_end = || trace.diagnostics.iter().any(|d| d.code == code::AFTER_END);
        let outcome = (complete || after_end()).then(|| state.outcome()).flatten();
        let (rules, last) = state.into_parts();
        (trace.rules, trace.last) = (Some(rules), Some(last));
        trace.outcome = outcome;
        if complete {
            trace.complete = true;
            check_result(record, &mut trace, outcome);
        }
        // The result token follows the last ply written, whether or not the replay got
        // that far.
        let ply = Some(trace.plies_written as u32).filter(|&n| n > 0);
        for p in result_problems {
            let mut d = Diagnostic::from_problem(p);
            d.ply = ply;
            trace.diagnostics.push(d);
        }
        trace
    }
}

/// The reader's events fed to a [`Replaying`]: each main-line ply is held until the
/// next (or the end), so that the commands of the comments after it come with it.
/// Variations are skipped.
struct EventReplay<'r> {
    replayer: &'r mut Replayer,
    options: &'r ReplayOptions,
    keep: &'r dyn Fn(&Record) -> bool,
    text: TextAt<'r>,
    /// The replay, once the tags are read (and kept).
    game: Option<Replaying<'r>>,
    /// Whether the move text may hold a comment: when it cannot, no command follows a
    /// ply, and each ply is played as it arrives.
    commented: bool,
    /// The last ply read, not played yet.
    pending: Option<Ply>,
    /// The commands of the comments after it.
    commands: Vec<Command>,
    /// The main-line plies read.
    plies: u32,
    problems: Vec<Problem>,
    result: Option<ResultToken>,
}

impl EventReplay<'_> {
    /// Plays the ply held (the last ply read, number `plies`), with the commands after
    /// it.
    #[inline(always)]
    fn step_pending(&mut self) {
        let Some(ply) = self.pending.take() else {
            return;
        };
        if let Some(game) = &mut self.game {
            if game.replays() {
                let input = PlyInput {
                    number: self.plies,
                    syntax: &ply.syntax,
                    span: ply.span,
                    commands: self.commands.iter().collect(),
                };
                game.ply(&mut self.replayer.buffers, &input);
            }
        }
        self.commands.clear();
    }
}

impl Visitor for EventReplay<'_> {
    fn tags(&mut self, record: &Record) -> ControlFlow<()> {
        if !(self.keep)(record) {
            return ControlFlow::Break(());
        }
        self.game = Some(Replaying::begin(self.replayer, record, self.options));
        // The move text follows the last tag (a tag's value may hold `{` or `;`).
        let moves = (record.tags.iter())
            .map(|t| t.span.end)
            .max()
            .and_then(|end| end.checked_sub(self.text.offset))
            .and_then(|at| self.text.text.get(at..))
            .unwrap_or(self.text.text);
        self.commented = memchr::memchr2(b'{', b';', moves.as_bytes()).is_some();
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
        if !self.commented {
            self.plies += 1;
            if let Some(game) = &mut self.game {
                if game.replays() {
                    let input = PlyInput {
                        number: self.plies,
                        syntax: &ply.syntax,
                        span: ply.span,
                        commands: Vec::new(),
                    };
                    game.ply(&mut self.replayer.buffers, &input);
                }
            }
            return ControlFlow::Continue(());
        }
        self.step_pending();
        self.plies += 1;
        self.pending = Some(ply);
        ControlFlow::Continue(())
    }

    fn comment(&mut self, comment: Comment) -> ControlFlow<()> {
        if self.pending.is_some() {
            self.commands.extend(comment.commands);
        } else if self.plies == 0 {
            if let Some(game) = &mut self.game {
                for cmd in &comment.commands {
                    game.command_before_plies(cmd);
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _open: Span) -> Skip {
        Skip::Yes
    }

    fn result(&mut self, result: ResultToken) -> ControlFlow<()> {
        self.result = Some(result);
        ControlFlow::Continue(())
    }

    fn problem(&mut self, problem: Problem) {
        self.problems.push(problem);
    }
}

/// The plies of a record's main line.
fn plies_in(record: &Record) -> usize {
    record.main_line().count()
}

/// Whether the reader may have left part of the main line unread: an error other than
/// those of the tags or the result, which leave the move text whole. The result is
/// checked against the final position only when the whole main line was read.
pub(crate) fn cut_short(parsed: &ParsedGame) -> bool {
    cut_short_by(parsed.problems.iter())
}

/// [`cut_short`] of the reader's problems.
fn cut_short_by<'p>(mut problems: impl Iterator<Item = &'p Problem>) -> bool {
    use crate::pmn::ProblemCode as P;
    problems.any(|p| {
        p.is_error()
            && !matches!(
                p.code,
                P::DuplicateTag | P::ResultMismatch | P::MissingGameTag | P::MissingResult
            )
    })
}

/// Whether a place before the first ply is in the move text: after the last tag read,
/// and on no tag line (one the reader could not read is after the last it could).
fn before_plies_in_move_text(record: &Record, text: TextAt<'_>, at: usize) -> bool {
    let moves_start = (record.tags.iter()).map(|t| t.span.end).max().unwrap_or(0);
    let Some(before) = at.checked_sub(text.offset).and_then(|a| text.text.get(..a)) else {
        return false;
    };
    let line = &text.text[before.rfind('\n').map_or(0, |i| i + 1)..];
    at >= moves_start && !line.trim_start().starts_with('[')
}

/// A reader problem as a diagnostic. A problem of the move text where a ply stands is
/// given that ply's number: the plies before it (`starts` are where the main line's
/// plies start), plus one (so a ply 1 that could not be read, or a wrong move number
/// before it, is ply 1).
fn reader_diagnostic(
    problem: &Problem,
    starts: &[usize],
    record: &Record,
    text: TextAt<'_>,
) -> Diagnostic {
    use crate::pmn::ProblemCode as P;
    let mut d = Diagnostic::from_problem(problem);
    let in_move_text = matches!(
        problem.code,
        P::Syntax
            | P::MoveNumber
            | P::UnterminatedComment
            | P::UnterminatedVariation
            | P::UnmatchedParen
            | P::NumberTooLarge
            | P::NestingTooDeep
    );
    let at = problem.span.start;
    let after_a_ply = starts.first().is_some_and(|&first| at >= first);
    if in_move_text && (after_a_ply || before_plies_in_move_text(record, text, at)) {
        // The plies are in the order of the text: a search, not a walk, as a game can
        // hold a problem a ply (a wrong move number before each).
        let before = starts.partition_point(|&start| start < problem.span.start);
        d.ply = Some(before as u32 + 1);
    }
    d
}

/// The result a record declares: its result token, else its `Result` tag.
pub fn declared_result(record: &Record) -> Option<GameResult> {
    record
        .result
        .map(|r| r.result)
        .or_else(|| record.tag("Result").and_then(GameResult::from_text))
}

/// Replays `inputs` from `state`, appending to `trace`, and checks the result when the
/// whole main line replayed and was read whole (`cut_short`: see [`cut_short`]). The
/// plies are owned (read from the record as the replay goes, see [`MainLine`]) or
/// borrowed (a list of them, as the repairs give).
pub(crate) fn replay_from<'a, P: std::borrow::Borrow<PlyInput<'a>>>(
    state: &mut GameState,
    inputs: impl IntoIterator<Item = P>,
    record: &Record,
    cut_short: bool,
    options: &ReplayOptions,
    trace: &mut Trace,
) {
    let mut buffers = PlyBuffers::default();
    replay_with(
        &mut buffers,
        state,
        inputs,
        record,
        cut_short,
        options,
        trace,
    );
}

/// [`replay_from`] filling the move and effect of `buffers` ply by ply.
fn replay_with<'a, P: std::borrow::Borrow<PlyInput<'a>>>(
    buffers: &mut PlyBuffers,
    state: &mut GameState,
    inputs: impl IntoIterator<Item = P>,
    record: &Record,
    cut_short: bool,
    options: &ReplayOptions,
    trace: &mut Trace,
) {
    let effect = &mut buffers.effect;
    let mv = buffers
        .mv
        .get_or_insert_with(|| Move::Sow(Sowing::default()));
    effect.lap_counts_only = !options.keep_laps;
    let mut failed = false;
    for input in inputs {
        let before = state.plies();
        let ply = step_into(
            state,
            input.borrow(),
            mv,
            effect,
            options,
            &mut trace.diagnostics,
            &mut failed,
        );
        if state.plies() > before {
            trace.played += 1;
        }
        if let Some(ply) = ply {
            trace.plies.push(ply);
        }
        if failed {
            break;
        }
    }
    trace.last = Some(state.position().clone());
    if failed || cut_short {
        // A ply written after the end: the game replayed to its end, and its outcome
        // is known (the after-end error says it). The
        // declared result is not checked against it: the after-end error, at the
        // first ply wrong, already says the true result.
        if trace.diagnostics.iter().any(|d| d.code == code::AFTER_END) {
            trace.outcome = state.outcome();
        }
        return;
    }
    trace.complete = true;
    let outcome = state.outcome();
    trace.outcome = outcome;
    check_result(record, trace, outcome);
}

/// PMN.md, "Results": the declared result against the final position.
fn check_result(record: &Record, trace: &mut Trace, outcome: Option<Outcome>) {
    let Some(declared) = trace.declared else {
        return;
    };
    let span = record
        .result
        .map(|r| r.span)
        .unwrap_or_else(|| tag_span(record, "Result"));
    let ply = Some(trace.played as u32).filter(|&n| n > 0);
    match (declared, outcome) {
        (GameResult::Unknown, _) => {}
        (declared, Some(outcome)) => {
            let actual = result_of(&outcome);
            if declared != actual {
                trace.diagnostics.push(Diagnostic::error(
                    code::RESULT_MISMATCH,
                    ply,
                    span,
                    format!(
                        "the record says {} but the game is over: {}",
                        declared.as_str(),
                        describe(&outcome)
                    ),
                ));
            }
        }
        (declared, None) => {
            let explained = record
                .tag("Termination")
                .is_some_and(|t| !t.trim().eq_ignore_ascii_case("normal"));
            if !explained {
                trace.diagnostics.push(Diagnostic::warning(
                    code::RESULT_NOT_OVER,
                    ply,
                    span,
                    format!(
                        "the record says {} but the game is not over ({} has a legal move); a Termination tag (e.g. resignation, abandoned) would explain it",
                        declared.as_str(),
                        trace.last.as_ref().map(|p| p.side).unwrap_or(Side::South)
                    ),
                ));
            }
        }
    }
}

/// A ply as a message quotes it (see [`crate::escape::quoted`]).
pub fn said_ply(syntax: &PlySyntax) -> String {
    crate::escape::quoted(&syntax.to_string()).into_owned()
}

/// The diagnostic of a ply that could not be played.
fn illegal(
    state: &GameState,
    number: u32,
    span: Span,
    syntax: &PlySyntax,
    e: &Illegal,
    has_x: bool,
    options: &ReplayOptions,
) -> Diagnostic {
    let code = code_of(e, has_x);
    let pos = state.position();
    let said = said_ply(syntax);
    let message = match e {
        Illegal::GameOver => match state.outcome() {
            Some(outcome) => format!(
                "ply {number} `{said}` is written after the end of the game ({})",
                describe(&outcome)
            ),
            None => format!("ply {number} `{said}` is written after the end of the game"),
        },
        _ => format!("ply {number} `{said}` by {} is illegal: {e}", pos.side),
    };
    let mut d = Diagnostic::error(code, Some(number), span, message);
    // Repairs replay many candidates and read no message: they ask for no legal list.
    if code != code::AFTER_END && options.max_legal_listed > 0 {
        d.position = Some(pos.to_string());
        let legal = games::legal_moves(state.rules(), pos);
        // A head's stops are one candidate: each arrival is listed in turn.
        d.legal = (legal.iter().flat_map(Candidate::each))
            .take(options.max_legal_listed)
            .map(|c| crate::notation::candidate_text(&c))
            .collect();
        let plies: u64 = legal.iter().map(Candidate::plies).sum();
        if plies > d.legal.len() as u64 {
            d.legal
                .push(format!("... and {} more", plies - d.legal.len() as u64));
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule set kept from the game before is reused only for the same tags and
    /// overrides: each game gets the rules of its own tags, and a bad tag its error.
    #[test]
    fn each_game_gets_the_rules_of_its_own_tags() {
        let text = "[Game \"Nsolo\"]\n[Board \"4x36\"]\n[Rules \"bonus=hole\"]\n\n*\n\n\
                    [Game \"Nsolo\"]\n[Board \"4x36\"]\n[Rules \"bonus=hole\"]\n\n*\n\n\
                    [Game \"Nsolo\"]\n[Board \"4x36\"]\n\n*\n\n\
                    [Game \"Nsolo\"]\n[Board \"4x36\"]\n[Rules \"bonus=many\"]\n\n*\n\n\
                    [Game \"Tsoro\"]\n[Board \"4x36\"]\n[Rules \"bonus=hole\"]\n\n*\n";
        let games = crate::pmn::parse_str(text);
        let board = crate::Board::new(4, 36);
        let hole = Rules::new(Game::Nsolo, board, "bonus=hole").unwrap();
        let expected = [
            Some(&hole),
            Some(&hole),
            Some(&Rules::new(Game::Nsolo, board, "").unwrap()),
        ];
        for overrides in [vec![], vec![("bonus".to_string(), "equal".to_string())]] {
            let options = ReplayOptions::quiet(&overrides);
            let traces: Vec<Trace> = games.iter().map(|g| replay(g, &options)).collect();
            let rules: Vec<Option<&Rules>> = traces.iter().map(|t| t.rules.as_ref()).collect();
            if overrides.is_empty() {
                assert_eq!(rules[..3], expected);
                assert_eq!(rules[3], None, "bonus=many is no option");
            } else {
                let equal = Rules::new(Game::Nsolo, board, "bonus=equal").unwrap();
                assert_eq!(rules[..4], [Some(&equal); 4]);
            }
            assert_eq!(rules[4], None, "Tsoro is not played on 4x36");
        }
        // One record under other overrides in turn: the overrides are part of the key.
        let equal = Rules::new(Game::Nsolo, board, "bonus=equal").unwrap();
        let overridden = vec![("bonus".to_string(), "equal".to_string())];
        for (overrides, want) in [(vec![], &hole), (overridden, &equal), (vec![], &hole)] {
            let trace = replay(&games[0], &ReplayOptions::quiet(&overrides));
            assert_eq!(trace.rules.as_ref(), Some(want));
        }
    }

    /// The one-pass main line gives what `Record::main_line` defines: every main-line
    /// ply numbered from 1, with the commands of the comments after it (not those of
    /// comments before the first ply, nor inside variations).
    #[test]
    fn ply_inputs_follow_the_records_main_line() {
        let text = "[Game \"Tsoro\"]\n\n{[%stones 1 1]} 1. a3 {[%stones 2 2] x} $1 \
                    (1. a4 {[%foul]}) d10 {[%foul] [%stones 3 3]} 2. a5 ; [%stones 4 4]\n*\n";
        let games = crate::pmn::parse_str(text);
        let record = &games[0].record;
        let inputs = PlyInput::main_line(record);
        let expected: Vec<(usize, Span, Vec<&Command>)> = record
            .main_line()
            .map(|e| (e.index + 1, e.ply.span, e.commands().collect()))
            .collect();
        let got: Vec<(usize, Span, Vec<&Command>)> = inputs
            .iter()
            .map(|i| (i.number as usize, i.span, i.commands.clone()))
            .collect();
        assert_eq!(got, expected);
        let names: Vec<Vec<&str>> = inputs
            .iter()
            .map(|i| i.commands.iter().map(|c| c.name.as_ref()).collect())
            .collect();
        assert_eq!(
            names,
            [vec!["stones"], vec!["foul", "stones"], vec!["stones"]]
        );
    }
}
