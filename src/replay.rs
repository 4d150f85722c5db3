//! Replay: the one place where a record's text meets the rules.
//!
//! A parsed record is replayed from its start position under its `Game`, `Board` and
//! `Rules` tags, ply by ply, into a [`Trace`]: the effect of every ply (and, when asked,
//! the position after it) and every diagnostic, reader problems included. Validation,
//! statistics, plots, conversion and diagrams all read the trace; none replays on its
//! own.
//!
//! After the first error in a game the replay stops: the position is then unknown.

use crate::diagnostic::{Code, Diagnostic};
use crate::games;
use crate::geometry::Side;
use crate::moves::{Candidate, Effect, Illegal, Move};
use crate::play::{GameState, Outcome};

use crate::pmn::{
    Command, Element, GameResult, GameText, ParsedGame, PitNumbers, PlySyntax, Record, Span,
};
use crate::position::Position;
use crate::repetition::Repetitions;
use crate::rules::Rules;

mod events;
mod setup;
mod step;

pub(crate) use events::cut_short;
use events::{plies_in, EventReplay, PlyStarts, Replaying, TextAt};
use setup::tag_span;
pub use setup::{rules_of, start_of};
pub(crate) use step::step;
use step::step_into;

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
    /// `--max-game-size`: the text one game read may take, in bytes; `None` keeps the
    /// reader's default ([`crate::pmn::reader::MAX_GAME_BYTES`]).
    pub max_game_bytes: Option<usize>,
}

/// What takes each ply replayed, in place of the trace's list: with the game's rules.
pub type PlySink<'a> = dyn FnMut(&Rules, &PlyView<'_>) + 'a;

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

/// A ply just replayed, borrowed from the replay: what a [`PlySink`] reads. The
/// trace's list holds its owned copy, a [`PlyTrace`].
#[derive(Clone, Copy, Debug)]
pub struct PlyView<'a> {
    /// 1-based ply number.
    pub number: u32,
    /// Who played it.
    pub side: Side,
    /// Where it is written.
    pub span: Span,
    /// The ply as written ([`PlyTrace::text`] is its text, without its suffix).
    pub syntax: &'a PlySyntax,
    /// The move it was read as.
    pub mv: &'a Move,
    /// What it did (laps recorded only with `keep_laps`).
    pub effect: &'a Effect,
    /// The position after it (only with `keep_positions`).
    pub after: Option<&'a Position>,
    /// Played under `[%foul]`.
    pub foul: bool,
}

impl PlyView<'_> {
    /// The ply's owned trace, under the options it was replayed with.
    pub fn to_trace(&self, options: &ReplayOptions) -> PlyTrace {
        let mut kept = self.effect.clone();
        if !options.keep_laps {
            kept.laps = Vec::new();
        }
        // The replay's own setting, not part of what the ply did.
        kept.lap_counts_only = false;
        PlyTrace {
            number: self.number,
            side: self.side,
            span: self.span,
            text: self.syntax.to_string(),
            mv: self.mv.clone(),
            effect: kept,
            after: self.after.cloned(),
            foul: self.foul,
        }
    }
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
    /// The repetition table of the last game that had one, for the next to reuse.
    table: Option<Repetitions>,
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

/// The diagnostic code of an illegal move.
fn code_of(e: &Illegal, has_x: bool) -> Code {
    match e {
        Illegal::EndlessSowing { .. } => Code::EndlessSowing,
        Illegal::UndecidedSowing { .. } => Code::UndecidedSowing,
        Illegal::GameOver => Code::AfterEnd,
        Illegal::BonusMissing | Illegal::BonusNotDue if !has_x => Code::CaptureMark,
        Illegal::BonusNotDue => Code::CaptureMark,
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
        | Illegal::BonusHoleCount => Code::Bonus,
        _ => Code::IllegalMove,
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
    /// Where the ply is written: borrowed, as it is read only for a message or a trace.
    pub span: &'a Span,
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
            span: &ply.span,
            commands,
        })
    }
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
        let mut game = Replaying::begin(self, record, options, None);
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
            match (parsed.problems.iter()).all(|p| p.code == Code::ResultMismatch) {
                true => Vec::new(),
                false => record.main_line().map(|p| p.ply.span.start).collect(),
            };
        let text = TextAt {
            text: &parsed.text,
            offset: parsed.offset,
        };
        game.give_back_table(&mut self.buffers);
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
        self.replay_text_each(game, options, keep, None)
    }

    /// [`Replayer::replay_text`], each ply replayed handed to `each` (with the rules)
    /// as it is played, rather than kept in the trace, when `each` is given: the
    /// trace's `plies` are then empty, and memory does not grow with the game.
    pub fn replay_text_each<'a>(
        &'a mut self,
        game: &'a GameText,
        options: &'a ReplayOptions,
        keep: &'a dyn Fn(&Record) -> bool,
        each: Option<&'a mut PlySink<'a>>,
    ) -> Option<(Record, Trace)> {
        self.replay_numbered_text(game, None, options, keep, each)
    }

    /// [`Replayer::replay_text_each`] of a game whose plies' pits are written as
    /// `numbers` says (PMN's `a3` when `None`).
    pub fn replay_numbered_text<'a>(
        &'a mut self,
        game: &'a GameText,
        numbers: Option<&dyn PitNumbers>,
        options: &'a ReplayOptions,
        keep: &'a dyn Fn(&Record) -> bool,
        each: Option<&'a mut PlySink<'a>>,
    ) -> Option<(Record, Trace)> {
        if !game.is_game() {
            return None;
        }
        let mut events = EventReplay {
            replayer: self,
            options,
            each,
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
        let tags = game.read_numbered(numbers, &mut events)?;
        events.step_pending();
        if let Some(replaying) = &mut events.game {
            replaying.give_back_table(&mut events.replayer.buffers);
        }
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
        if !(problems.iter()).all(|p| p.code == Code::ResultMismatch) {
            game.read_numbered(numbers, &mut starts);
        }
        let text = TextAt {
            text: game.text(),
            offset: game.offset(),
        };
        let trace = replaying.finish(&record, &problems, &starts.0, text);
        Some((record, trace))
    }
}

/// The result a record declares: its result token, else its `Result` tag.
pub fn declared_result(record: &Record) -> Option<GameResult> {
    record
        .result
        .map(|r| r.result)
        .or_else(|| record.tag("Result").and_then(GameResult::from_text))
}

/// The main-line plies of a game's text past those a record holds (see
/// [`crate::pmn::GameText::parse_cut`]): its plies from the `skip`-th (counted from 0)
/// up to, not including, the `until`-th, read from the text as a replay comes to them,
/// after the plies it was given.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TextTail<'t> {
    /// The game's text, where it starts in its file, and its first line.
    pub(crate) text: &'t str,
    pub(crate) offset: usize,
    pub(crate) line: u32,
    /// The main-line plies of the text the record holds, not replayed from the text.
    pub(crate) skip: usize,
    /// Where the replay stops: `usize::MAX` for the end of the game.
    pub(crate) until: usize,
}

/// Replays `inputs` from `state`, then the plies of `tail` (if given), appending to
/// `trace`, and checks the result when the whole main line replayed and was read whole
/// (`cut_short`: see [`cut_short`]). The plies are owned (read from the record as the
/// replay goes, see [`MainLine`]) or borrowed (a list of them, as the repairs give).
pub(crate) fn replay_from<'a, P: std::borrow::Borrow<PlyInput<'a>>>(
    state: &mut GameState,
    inputs: impl IntoIterator<Item = P>,
    tail: Option<TextTail<'_>>,
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
        tail,
        record,
        cut_short,
        options,
        trace,
    );
}

/// [`replay_from`] filling the move and effect of `buffers` ply by ply.
#[allow(clippy::too_many_arguments)]
fn replay_with<'a, P: std::borrow::Borrow<PlyInput<'a>>>(
    buffers: &mut PlyBuffers,
    state: &mut GameState,
    inputs: impl IntoIterator<Item = P>,
    tail: Option<TextTail<'_>>,
    record: &Record,
    cut_short: bool,
    options: &ReplayOptions,
    trace: &mut Trace,
) {
    let effect = &mut buffers.effect;
    let mv = buffers.mv.get_or_insert_with(Move::buffer);
    effect.lap_counts_only = !options.keep_laps;
    let mut failed = false;
    {
        let mut play = |input: &PlyInput<'_>| -> bool {
            let before = state.plies();
            let ply = step_into(
                state,
                input,
                mv,
                effect,
                options,
                &mut trace.diagnostics,
                &mut failed,
            );
            if state.plies() > before {
                trace.played += 1;
            }
            if let Some(played) = ply {
                let view = played.view(input, mv, effect, state.position(), options);
                trace.plies.push(view.to_trace(options));
            }
            !failed
        };
        let (mut going, mut number) = (true, 0);
        for input in inputs {
            let input = input.borrow();
            number = input.number;
            going = play(input);
            if !going {
                break;
            }
        }
        if let Some(tail) = tail.filter(|_| going) {
            let mut rest = TailPlies {
                skip: tail.skip,
                until: tail.until,
                read: 0,
                number,
                pending: None,
                commands: Vec::new(),
                play: &mut play,
                going: true,
            };
            crate::pmn::parse::read_game(tail.text, tail.offset, tail.line, &mut rest);
            let _ = rest.step_pending();
        }
    }
    trace.last = Some(state.position().clone());
    if failed || cut_short {
        // A ply written after the end: the game replayed to its end, and its outcome
        // is known (the after-end error says it). The
        // declared result is not checked against it: the after-end error, at the
        // first ply wrong, already says the true result.
        if trace.diagnostics.iter().any(|d| d.code == Code::AfterEnd) {
            trace.outcome = state.outcome();
        }
        return;
    }
    trace.complete = true;
    let outcome = state.outcome();
    trace.outcome = outcome;
    check_result(record, trace, outcome);
}

/// The reader's events of a [`TextTail`] played by `play`: each main-line ply past
/// `skip` is held until the next (or the end), so that the commands of the comments
/// after it come with it, and numbered on from `number`. Variations are skipped.
struct TailPlies<'p, F: FnMut(&PlyInput<'_>) -> bool> {
    skip: usize,
    /// The plies from the `until`-th on are not played.
    until: usize,
    /// The main-line plies read.
    read: usize,
    /// The number of the last ply played.
    number: u32,
    pending: Option<crate::pmn::Ply>,
    commands: Vec<Command>,
    play: &'p mut F,
    /// No ply has failed.
    going: bool,
}

impl<F: FnMut(&PlyInput<'_>) -> bool> TailPlies<'_, F> {
    /// Plays the ply held, with the commands after it; stops the reading once a ply
    /// fails.
    fn step_pending(&mut self) -> std::ops::ControlFlow<()> {
        if let Some(ply) = self.pending.take() {
            self.number += 1;
            let input = PlyInput {
                number: self.number,
                syntax: &ply.syntax,
                span: &ply.span,
                commands: self.commands.iter().collect(),
            };
            self.going = (self.play)(&input);
            self.commands.clear();
        }
        match self.going {
            true => std::ops::ControlFlow::Continue(()),
            false => std::ops::ControlFlow::Break(()),
        }
    }
}

impl<F: FnMut(&PlyInput<'_>) -> bool> crate::pmn::Visitor for TailPlies<'_, F> {
    fn ply(&mut self, ply: crate::pmn::Ply) -> std::ops::ControlFlow<()> {
        self.read += 1;
        if self.read <= self.skip {
            return std::ops::ControlFlow::Continue(());
        }
        self.step_pending()?;
        if self.read > self.until {
            return std::ops::ControlFlow::Break(());
        }
        self.pending = Some(ply);
        std::ops::ControlFlow::Continue(())
    }

    fn comment(&mut self, comment: crate::pmn::Comment) -> std::ops::ControlFlow<()> {
        if self.pending.is_some() {
            self.commands.extend(comment.commands);
        }
        std::ops::ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: crate::pmn::Problem) {}
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
                    Code::ResultMismatch,
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
                    Code::ResultNotOver,
                    ply,
                    span,
                    format!(
                        "the record says {} but the game is not over ({} has a legal move); a Termination tag (e.g. resignation, abandoned) would explain it",
                        declared.as_str(),
                        trace.last.as_ref().map(|p| p.side()).unwrap_or(Side::South)
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
        _ => format!("ply {number} `{said}` by {} is illegal: {e}", pos.side()),
    };
    let mut d = Diagnostic::error(code, Some(number), span, message);
    // Repairs replay many candidates and read no message: they ask for no legal list.
    if code != Code::AfterEnd && options.max_legal_listed > 0 {
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
    use crate::rules::Game;

    /// A record without a Game tag has one code for it, the reader's, whether the
    /// reader or the rules find it (a record built from JSON has no reader problems).
    #[test]
    fn a_missing_game_tag_has_one_code() {
        let parsed = &crate::pmn::parse_str("[Event \"x\"]\n\n1. a3 *\n")[0];
        let trace = replay(parsed, &ReplayOptions::validate());
        let codes: Vec<&str> = trace.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["missing-game-tag"]);
        let d = rules_of(&parsed.record, &[]).unwrap_err();
        assert_eq!(d.code, "missing-game-tag");
        let mut built = parsed.clone();
        built.problems.clear();
        let trace = replay(&built, &ReplayOptions::validate());
        let codes: Vec<&str> = trace.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["missing-game-tag"]);
    }

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
            .map(|i| (i.number as usize, *i.span, i.commands.clone()))
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
