//! Replay as the reader reads: a visitor that plays each ply as its event arrives,
//! with the reader's problems turned into diagnostics.

use std::ops::ControlFlow;

use crate::diagnostic::{Code, Diagnostic};
use crate::moves::Move;
use crate::play::GameState;
use crate::pmn::{
    Command, Comment, ParsedGame, Ply, Problem, Record, ResultToken, Skip, Span, Visitor,
};
use crate::repetition::Repetitions;

use super::setup::{start_of, tag_span, trace_setup_total};
use super::step::{check_stones, step_into};
use super::{
    budgeted, check_result, declared_result, PlyBuffers, PlyInput, PlySink, ReplayOptions,
    Replayer, Trace,
};

/// Where the main line's plies start.
pub(super) struct PlyStarts(pub(super) Vec<usize>);

impl Visitor for PlyStarts {
    fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
        self.0.push(ply.span.start);
        ControlFlow::Continue(())
    }

    fn problem(&mut self, _problem: Problem) {}
}

/// A game's text and where it starts in its file.
#[derive(Copy, Clone)]
pub(super) struct TextAt<'t> {
    pub(super) text: &'t str,
    pub(super) offset: usize,
}

/// A replay in progress, fed by a parsed record ([`Replayer::replay`]) or by the
/// reader's events ([`Replayer::replay_text`]): the rules and start its tags give,
/// the commands before its first ply, its main line's plies one by one, then its end.
pub(super) struct Replaying<'o> {
    pub(super) options: &'o ReplayOptions,
    /// Takes each ply replayed instead of the trace's list, when given.
    each: Option<&'o mut PlySink<'o>>,
    /// The replay's own diagnostics so far (the reader's join them at the end).
    pub(super) trace: Trace,
    /// Why no rule set could be built, said at the end (unless the reader said it).
    no_rules: Option<Diagnostic>,
    /// The game, once its rules and start are known.
    pub(super) state: Option<GameState>,
    /// A checkpoint before the first ply failed: nothing is replayed.
    start_failed: bool,
    /// A ply failed: the replay stopped there.
    pub(super) failed: bool,
    /// The plies of the main line.
    pub(super) plies_written: usize,
}

impl<'o> Replaying<'o> {
    pub(super) fn begin(
        replayer: &mut Replayer,
        record: &Record,
        options: &'o ReplayOptions,
        each: Option<&'o mut PlySink<'o>>,
    ) -> Replaying<'o> {
        let mut game = Replaying {
            options,
            each,
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
                Code::Setup,
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
        game.state = Some(GameState::reusing(
            rules,
            start,
            &mut replayer.buffers.table,
        ));
        game
    }

    /// Whether plies are still to be played.
    pub(super) fn replays(&self) -> bool {
        self.state.is_some() && !self.start_failed && !self.failed
    }

    /// A command written before the first ply: a `[%stones]` checkpoint of the start,
    /// or a `[%foul]` that marks no ply.
    pub(super) fn command_before_plies(&mut self, cmd: &Command) {
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
                Code::Foul,
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
    pub(super) fn ply(&mut self, buffers: &mut PlyBuffers, input: &PlyInput<'_>) -> bool {
        if !self.replays() {
            return false;
        }
        let Some(state) = &mut self.state else {
            return false;
        };
        let mv = buffers.mv.get_or_insert_with(Move::buffer);
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
        if let Some(played) = ply {
            let view = played.view(input, mv, &buffers.effect, state.position(), self.options);
            match &mut self.each {
                Some(each) => each(state.rules(), &view),
                None => self.trace.plies.push(view.to_trace(self.options)),
            }
        }
        !self.failed
    }

    /// Hands the game's repetition table to `buffers`, for the next game: the plies are
    /// played.
    pub(super) fn give_back_table(&mut self, buffers: &mut PlyBuffers) {
        let table = self.state.as_mut().and_then(GameState::take_table);
        // A table grown by a long stretch without captures is let go, not kept for
        // the rest of the run.
        if let Some(table) = table.filter(Repetitions::is_small) {
            buffers.table = Some(table);
        }
    }

    /// The trace, once the record is read: `record`'s tags and result, the reader's
    /// `problems` and the places of the main line's plies (`starts`, needed only when a
    /// problem is not a `Result` one).
    pub(super) fn finish(
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
            (problems.iter()).partition(|p| p.code == Code::ResultMismatch);
        trace.diagnostics = (problems.iter())
            .map(|p| reader_diagnostic(p, starts, record, text))
            .collect();
        trace.declared = declared_result(record);
        trace.plies_written = self.plies_written;
        let as_read = |p: &&Problem| Diagnostic::from_problem(p);
        if let Some(d) = self.no_rules {
            // A missing Game tag the reader reported is not reported again.
            let reported = record.tag("Game").is_none()
                && (problems.iter()).any(|p| p.code == Code::MissingGameTag);
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
        let after_end = || trace.diagnostics.iter().any(|d| d.code == Code::AfterEnd);
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
pub(super) struct EventReplay<'r> {
    pub(super) replayer: &'r mut Replayer,
    pub(super) options: &'r ReplayOptions,
    /// Handed to the replay once the tags are read.
    pub(super) each: Option<&'r mut PlySink<'r>>,
    pub(super) keep: &'r dyn Fn(&Record) -> bool,
    pub(super) text: TextAt<'r>,
    /// The replay, once the tags are read (and kept).
    pub(super) game: Option<Replaying<'r>>,
    /// Whether the move text may hold a comment: when it cannot, no command follows a
    /// ply, and each ply is played as it arrives.
    pub(super) commented: bool,
    /// The last ply read, not played yet.
    pub(super) pending: Option<Ply>,
    /// The commands of the comments after it.
    pub(super) commands: Vec<Command>,
    /// The main-line plies read.
    pub(super) plies: u32,
    pub(super) problems: Vec<Problem>,
    pub(super) result: Option<ResultToken>,
}

impl EventReplay<'_> {
    /// Plays the ply held (the last ply read, number `plies`), with the commands after
    /// it.
    #[inline(always)]
    pub(super) fn step_pending(&mut self) {
        let Some(ply) = self.pending.take() else {
            return;
        };
        if let Some(game) = &mut self.game {
            if game.replays() {
                let input = PlyInput {
                    number: self.plies,
                    syntax: &ply.syntax,
                    span: &ply.span,
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
        let each = self.each.take();
        self.game = Some(Replaying::begin(self.replayer, record, self.options, each));
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
                        span: &ply.span,
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
pub(super) fn plies_in(record: &Record) -> usize {
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
    use crate::pmn::Code as P;
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
    use crate::pmn::Code as P;
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
