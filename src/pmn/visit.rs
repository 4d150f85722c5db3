//! The events of the PMN reader: one game's text read as a stream of tags, move
//! numbers, plies, comments, NAGs, variations, a result and problems, handed to a
//! [`Visitor`] as they are read.
//!
//! The reader ([`super::parse::read_game`]) never judges legality, and builds nothing
//! a visitor does not build: [`RecordBuilder`] makes the owned [`Record`] (for convert,
//! repair and JSON); the replay steps each ply as it arrives, without a syntax tree.
//! A visitor that returns `ControlFlow::Break` stops the reading at once.

use std::ops::ControlFlow;

use super::ast::{
    Comment, Element, MoveNumber, Nag, Ply, Record, ResultToken, Span, Tag, Variation,
};
use super::problem::Problem;

/// Whether the events of a variation are wanted: the reader still reads a skipped
/// variation (its problems are reported), but sends none of its moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Send the variation's events, then `end_variation`.
    No,
    /// Send nothing of it, nor its `end_variation`.
    Yes,
}

/// What a consumer of the reader's events does with each. Every method but `problem`
/// may stop the reading.
pub trait Visitor {
    /// The tag section is read and checked: `record` holds its tags (the move text and
    /// result are the visitor's, and are empty here). Before any move text.
    fn tags(&mut self, _record: &Record) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A move number, `12.` or `12...`.
    fn move_number(&mut self, _number: MoveNumber) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// [`Visitor::move_number`], the number built by `build` (see
    /// [`Visitor::ply_with`]).
    #[inline(always)]
    fn move_number_with(&mut self, build: impl FnOnce() -> MoveNumber) -> ControlFlow<()>
    where
        Self: Sized,
    {
        self.move_number(build())
    }

    /// A ply with its suffix annotation and span.
    fn ply(&mut self, ply: Ply) -> ControlFlow<()>;

    /// [`Visitor::ply`], the ply built by `build`: a visitor that keeps plies builds
    /// each right where it keeps it (see `push_element`).
    #[inline(always)]
    fn ply_with(&mut self, build: impl FnOnce() -> Ply) -> ControlFlow<()>
    where
        Self: Sized,
    {
        self.ply(build())
    }

    /// A comment, `{...}` or `;...`, with the commands `[%...]` in it.
    fn comment(&mut self, _comment: Comment) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A NAG, `$12`.
    fn nag(&mut self, _nag: Nag) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A `(` at `open`: the variation's events follow, unless skipped.
    fn begin_variation(&mut self, _open: Span) -> Skip {
        Skip::Yes
    }

    /// The end of a variation not skipped; `span` runs from its `(` to its `)` (or to
    /// where reading stopped, when it was not closed).
    fn end_variation(&mut self, _span: Span) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// The result token that ends the move text.
    fn result(&mut self, _result: ResultToken) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A problem of the text, in the order they are found (a move number off by one
    /// ply is told, and reported, at the next move number of its line).
    fn problem(&mut self, problem: Problem);
}

/// The visitor that builds a game's owned [`Record`] (its move text and result; the
/// tags are the reader's) and the list of its problems.
pub struct RecordBuilder {
    /// The line being read (the main line, or the innermost open variation).
    line: Vec<Element>,
    /// The lines it is nested in, outermost first, each with the `(` of the variation
    /// inside it.
    outer: Vec<(Vec<Element>, Span)>,
    result: Option<ResultToken>,
    pub(super) problems: Vec<Problem>,
}

impl RecordBuilder {
    /// A builder for a game of `len` bytes of text.
    pub fn new(len: usize) -> RecordBuilder {
        // Sized from the text, so that the main line is rarely copied as it grows: a
        // token and the space after it take at least three bytes in nearly all move
        // text (`a3 `, `12. `). Past 65,536 elements the line grows as it needs.
        let line = Vec::with_capacity((len / 3 + 8).min(1 << 16));
        RecordBuilder {
            line,
            outer: Vec::new(),
            result: None,
            problems: Vec::new(),
        }
    }

    /// The record, with `tags`, and the problems.
    pub fn finish(mut self, tags: Vec<Tag>) -> (Record, Vec<Problem>) {
        self.close_variations();
        let record = Record {
            tags,
            moves: self.line,
            result: self.result,
        };
        (record, self.problems)
    }

    /// Closes the variations left open: the reader closed them itself; a visitor
    /// stopped early may leave some, kept in their parents as they are.
    pub fn close_variations(&mut self) {
        while let Some((outer, span)) = self.outer.pop() {
            let elements = std::mem::replace(&mut self.line, outer);
            self.push(Element::Variation(Variation { elements, span }));
        }
    }

    /// Takes the main line's elements read so far, when no variation is open (each
    /// whole, then): so a game's tree can be written an element at a time as it is read.
    pub fn take_main_line(&mut self) -> Option<std::vec::Drain<'_, Element>> {
        self.outer.is_empty().then(|| self.line.drain(..))
    }

    #[inline(always)]
    fn push(&mut self, element: Element) {
        push_element(&mut self.line, || element);
    }
}

impl Visitor for RecordBuilder {
    #[inline(always)]
    fn move_number(&mut self, number: MoveNumber) -> ControlFlow<()> {
        self.push(Element::MoveNumber(number));
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn move_number_with(&mut self, build: impl FnOnce() -> MoveNumber) -> ControlFlow<()> {
        push_element(&mut self.line, || Element::MoveNumber(build()));
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
        self.push(Element::Ply(ply));
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn ply_with(&mut self, build: impl FnOnce() -> Ply) -> ControlFlow<()> {
        push_element(&mut self.line, || Element::Ply(build()));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, comment: Comment) -> ControlFlow<()> {
        self.push(Element::Comment(comment));
        ControlFlow::Continue(())
    }

    fn nag(&mut self, nag: Nag) -> ControlFlow<()> {
        self.push(Element::Nag(nag));
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, open: Span) -> Skip {
        // Room for a short line at once: grown from nothing, most would take two allocations.
        let outer = std::mem::replace(&mut self.line, Vec::with_capacity(8));
        self.outer.push((outer, open));
        Skip::No
    }

    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        let Some((outer, _)) = self.outer.pop() else {
            return ControlFlow::Continue(());
        };
        let elements = std::mem::replace(&mut self.line, outer);
        self.push(Element::Variation(Variation { elements, span }));
        ControlFlow::Continue(())
    }

    fn result(&mut self, result: ResultToken) -> ControlFlow<()> {
        self.result = Some(result);
        ControlFlow::Continue(())
    }

    fn problem(&mut self, problem: Problem) {
        self.problems.push(problem);
    }
}

/// Appends the element (or tag) `build` makes, built in place.
///
/// `Vec::push(value)` builds the value on the stack, piece by piece (bytes, then words),
/// and then copies it into the vector with wide loads; a wide load over narrower stores
/// cannot be forwarded and stalls. Here the room is made first, so that nothing (no
/// call) stands between building the element and writing it: it is built in its slot.
#[inline(always)]
pub(super) fn push_element<T>(items: &mut Vec<T>, build: impl FnOnce() -> T) {
    items.reserve(1);
    let len = items.len();
    items.spare_capacity_mut()[0].write(build());
    // SAFETY: `reserve(1)` made room for the slot at `len`, which was just initialised.
    unsafe { items.set_len(len + 1) };
}

/// A [`RecordBuilder`] that holds the main line only from its `from`-th ply (counted
/// from 0) up to, not including, its `to`-th: what comes before or after is read (its
/// problems kept) but not held, the elements after a ply held as long as the ply is.
/// The tags, the result and every problem are held as a full parse holds them. A game
/// written only as far as it replays, or searched for repairs near one place, needs no
/// more of its tree, however long its text.
pub struct CutBuilder {
    builder: RecordBuilder,
    /// Variations open around the element read (0: the main line).
    depth: usize,
    /// Main-line plies read.
    read: usize,
    /// The main-line plies held: `from..to`.
    from: usize,
    to: usize,
    /// Whether the main-line element read is held: it follows a ply held (or, when the
    /// first ply is held, comes before the first ply).
    holding: bool,
    /// Whether the reading stops at the first main-line ply past those held.
    stops: bool,
}

impl CutBuilder {
    /// A builder for a game of `len` bytes of text, holding `plies` main-line plies.
    pub fn new(len: usize, plies: usize) -> CutBuilder {
        CutBuilder {
            stops: false,
            ..CutBuilder::window(len, 0, plies)
        }
    }

    /// A builder for a game of `len` bytes of text, holding the main-line plies
    /// `from..to` and what follows each, that stops the reading at the ply `to`: the
    /// result and the problems past it are not read.
    pub fn window(len: usize, from: usize, to: usize) -> CutBuilder {
        let plies = to.saturating_sub(from);
        CutBuilder {
            builder: RecordBuilder::new(len.min(plies.saturating_mul(16))),
            depth: 0,
            read: 0,
            from,
            to,
            holding: from == 0,
            stops: true,
        }
    }

    /// The record read, with the tags `tags`, and the problems.
    pub fn finish(self, tags: Vec<Tag>) -> (Record, Vec<Problem>) {
        self.builder.finish(tags)
    }

    /// Whether the element read is held.
    fn holds(&self) -> bool {
        self.depth > 0 || self.holding
    }
}

impl Visitor for CutBuilder {
    fn move_number(&mut self, number: MoveNumber) -> ControlFlow<()> {
        match self.holds() {
            true => self.builder.move_number(number),
            false => ControlFlow::Continue(()),
        }
    }

    fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
        if self.depth == 0 {
            if self.stops && self.read >= self.to {
                return ControlFlow::Break(());
            }
            self.holding = (self.from..self.to).contains(&self.read);
            self.read += 1;
        }
        match self.holds() {
            true => self.builder.ply(ply),
            false => ControlFlow::Continue(()),
        }
    }

    fn comment(&mut self, comment: Comment) -> ControlFlow<()> {
        match self.holds() {
            true => self.builder.comment(comment),
            false => ControlFlow::Continue(()),
        }
    }

    fn nag(&mut self, nag: Nag) -> ControlFlow<()> {
        match self.holds() {
            true => self.builder.nag(nag),
            false => ControlFlow::Continue(()),
        }
    }

    fn begin_variation(&mut self, open: Span) -> Skip {
        if !self.holds() {
            return Skip::Yes;
        }
        self.depth += 1;
        self.builder.begin_variation(open)
    }

    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        self.builder.end_variation(span)
    }

    fn result(&mut self, result: ResultToken) -> ControlFlow<()> {
        self.builder.result(result)
    }

    fn problem(&mut self, problem: Problem) {
        self.builder.problem(problem);
    }
}
