//! An edit applied to a record, with a comment that says what was repaired.

use crate::pmn::{self, Element, Record, Visitor as _};
use crate::replay::{self};

use super::Edit;

/// The record with an edit applied to its main line, as the search replayed it: the
/// comments after a ply stay in place whether plies are swapped, inserted or deleted.
pub fn apply_edit(record: &Record, edit: &Edit) -> Record {
    edit_record(record, edit, false)
}

/// A comment `{repaired: ...}` (docs/PMN.md, "Repairs").
fn repaired_comment(what: String) -> Element {
    let text = format!("repaired: {what}");
    Element::Comment(pmn::Comment {
        kind: pmn::CommentKind::Brace,
        text: text.as_str().into(),
        commands: Vec::new(),
        span: Default::default(),
    })
}

/// A comment's first `[%stones]` command written with the counts `south` and `north`,
/// and what the comment that records the change says (`was stones 3 4`: not a command,
/// so that it is no checkpoint itself); `None`, and the comment unchanged, when it holds
/// no such command.
fn correct_checkpoint(c: &mut pmn::Comment, south: u32, north: u32) -> Option<String> {
    let k = c.commands.iter().position(|c| c.name == "stones")?;
    let was = format!("was stones {}", c.commands[k].args.as_str());
    if let Some(open) = c.text.find("[%stones") {
        let close = c.text[open..]
            .find(']')
            .map_or(c.text.len(), |e| open + e + 1);
        let now = format!("[%stones {south} {north}]");
        let text = format!("{}{now}{}", &c.text[..open], &c.text[close..]);
        c.text = text.as_str().into();
    }
    c.commands[k].args = pmn::Args::split(&format!("{south} {north}"));
    Some(was)
}

/// [`apply_edit`], and with `mark` each change recorded in a comment beside it.
pub(super) fn edit_record(record: &Record, edit: &Edit, mark: bool) -> Record {
    let mut out = record.clone();
    // Where the main-line plies are among the elements.
    let ply_at: Vec<usize> = out
        .moves
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Element::Ply(_)))
        .map(|(i, _)| i)
        .collect();
    // The place after an element and its NAGs.
    let after = |moves: &[Element], i: usize| {
        i + 1
            + (moves[i + 1..].iter())
                .take_while(|e| matches!(e, Element::Nag(_)))
                .count()
    };
    match edit {
        Edit::Replace { at, with } => {
            if let Some(&i) = ply_at.get(*at) {
                if let Element::Ply(p) = &mut out.moves[i] {
                    let was = std::mem::replace(&mut p.syntax, with.clone());
                    if mark {
                        let j = after(&out.moves, i);
                        out.moves.insert(j, repaired_comment(format!("was {was}")));
                    }
                }
            }
        }
        Edit::Insert { at, ply } => {
            let index = ply_at.get(*at).copied().unwrap_or(out.moves.len());
            out.moves.insert(
                index,
                Element::Ply(pmn::Ply {
                    syntax: ply.clone(),
                    suffix: None,
                    span: Default::default(),
                }),
            );
            if mark {
                out.moves
                    .insert(index + 1, repaired_comment("inserted".into()));
            }
        }
        Edit::Delete { at } => {
            // The ply goes with its NAGs; the comments after it stay, as in the search
            // (a checkpoint is evidence of the position, not part of the ply).
            if let Some(&i) = ply_at.get(*at) {
                let j = after(&out.moves, i);
                let gone: Vec<Element> = out.moves.drain(i..j).collect();
                if mark {
                    if let Some(Element::Ply(p)) = gone.first() {
                        out.moves
                            .insert(i, repaired_comment(format!("deleted {}", p.syntax)));
                    }
                }
            }
        }
        Edit::Swap { at } => {
            // The plies alone change places; the comments after each stay where they are.
            if at + 1 < ply_at.len() {
                let (i, k) = (ply_at[*at], ply_at[at + 1]);
                out.moves.swap(i, k);
                if mark {
                    for (ply, other) in [(k, i), (i, k)] {
                        if let Element::Ply(p) = &out.moves[other] {
                            let was = p.syntax.to_string();
                            let j = after(&out.moves, ply);
                            out.moves.insert(j, repaired_comment(format!("was {was}")));
                        }
                    }
                }
            }
        }
        Edit::Checkpoint {
            after: ply,
            south,
            north,
        } => {
            // The first `[%stones]` in the comments between the ply and the next; none
            // after a ply the record does not have.
            let Some(&from) = ply_at.get(*ply) else {
                return out;
            };
            let to = ply_at.get(ply + 1).copied().unwrap_or(out.moves.len());
            for i in from + 1..to {
                let Element::Comment(c) = &mut out.moves[i] else {
                    continue;
                };
                let Some(was) = correct_checkpoint(c, *south, *north) else {
                    continue;
                };
                if mark {
                    out.moves.insert(i + 1, repaired_comment(was));
                }
                break;
            }
        }
        Edit::Result { result } => {
            let was = replay::declared_result(&out);
            if let Some(token) = &mut out.result {
                token.result = *result;
            }
            if let Some(tag) = out.tags.iter_mut().find(|t| t.name == "Result") {
                tag.value = result.as_str().into();
            }
            if mark {
                let was = was.map_or("no result", |r| r.as_str());
                out.moves.push(repaired_comment(format!("was {was}")));
            }
        }
    }
    out
}

/// A game's text written in the export form with edits applied, each recorded in a
/// comment, as [`edit_record`] applies them (`mark`) to the record the text reads as
/// and [`pmn::write_game`] writes it: from the reader's events, so that the record is
/// never held (a swap holds what lies between its two plies). `record` holds the game's
/// tags, result and first side (its moves may be held in part).
pub(super) fn edited_text(
    text: &str,
    offset: usize,
    line: u32,
    record: &Record,
    edits: &[&Edit],
) -> String {
    // The tags and the result token as the edits leave them, and what each result edit
    // says was declared before it.
    let mut head = Record {
        tags: record.tags.clone(),
        moves: Vec::new(),
        result: record.result,
    };
    let mut was = Vec::new();
    for edit in edits {
        if let Edit::Result { .. } = edit {
            was.push(replay::declared_result(&head));
            head = edit_record(&head, edit, false);
        }
    }
    let mut out = String::with_capacity(text.len() + 64);
    let writer = pmn::ExportWriter::new(&head.tags, record.first_side(), &mut out);
    let mut was = was.into_iter();
    let mut next = Next::Writer(writer);
    for edit in edits.iter().rev() {
        let was = match edit {
            Edit::Result { .. } => was.next_back().flatten(),
            _ => None,
        };
        next = Next::Edited(Box::new(Edited {
            edit,
            was,
            next,
            depth: 0,
            plies: 0,
            pending: None,
            dropping: false,
            held: None,
            done: false,
        }));
    }
    pmn::parse::read_game(text, offset, line, &mut next);
    next.finish(head.result.map(|r| r.result));
    out
}

/// Where an edit's events go: the writer, or the next edit.
enum Next<'e, 'o> {
    Writer(pmn::ExportWriter<'o>),
    Edited(Box<Edited<'e, 'o>>),
}

/// The events of a text with one edit applied, handed on to `next`.
struct Edited<'e, 'o> {
    edit: &'e Edit,
    /// The result declared before a result edit.
    was: Option<pmn::GameResult>,
    next: Next<'e, 'o>,
    /// Variations open.
    depth: usize,
    /// Main-line plies read.
    plies: usize,
    /// A comment that goes after the ply read and its NAGs.
    pending: Option<pmn::Comment>,
    /// The NAGs of a deleted ply go with it.
    dropping: bool,
    /// The first ply of a swap, and the events read after it, until its second ply.
    held: Option<(pmn::Ply, Vec<Event>)>,
    /// The checkpoint is corrected.
    done: bool,
}

/// An event of the reader held by a swap.
enum Event {
    Ply(pmn::Ply),
    Comment(pmn::Comment),
    Nag(pmn::Nag),
    MoveNumber(pmn::MoveNumber),
    Begin(pmn::Span),
    End(pmn::Span),
}

fn repaired(what: String) -> pmn::Comment {
    match repaired_comment(what) {
        Element::Comment(c) => c,
        _ => unreachable!("a repaired comment is a comment"),
    }
}

impl Next<'_, '_> {
    fn finish(self, result: Option<pmn::GameResult>) {
        match self {
            Next::Writer(w) => w.finish(result),
            Next::Edited(mut e) => {
                // A swap whose second ply never came: its first is written as it was.
                if let Some((ply, events)) = e.held.take() {
                    let _ = e.next.ply(ply);
                    e.hand_on(events);
                }
                e.flush();
                match e.edit {
                    Edit::Insert { at, ply } if *at >= e.plies => {
                        let _ = e.next.ply(pmn::Ply {
                            syntax: ply.clone(),
                            suffix: None,
                            span: Default::default(),
                        });
                        let _ = e.next.comment(repaired("inserted".into()));
                    }
                    Edit::Result { .. } => {
                        let was = e.was.map_or("no result", |r| r.as_str());
                        let _ = e.next.comment(repaired(format!("was {was}")));
                    }
                    _ => {}
                }
                e.next.finish(result)
            }
        }
    }
}

impl Edited<'_, '_> {
    /// Hands on the comment waiting for the ply's NAGs: the next event is none.
    fn flush(&mut self) {
        self.dropping = false;
        if let Some(c) = self.pending.take() {
            let _ = self.next.comment(c);
        }
    }

    /// Where the events go while a swap waits for its second ply.
    fn holding(&mut self) -> Option<&mut Vec<Event>> {
        self.held.as_mut().map(|(_, events)| events)
    }

    /// Reads the events a swap held, as they were read.
    fn hand_on(&mut self, events: Vec<Event>) {
        use pmn::Visitor as _;
        for event in events {
            let _ = match event {
                Event::Ply(p) => self.ply(p),
                Event::Comment(c) => self.comment(c),
                Event::Nag(n) => self.nag(n),
                Event::MoveNumber(m) => self.move_number(m),
                Event::Begin(open) => {
                    self.begin_variation(open);
                    std::ops::ControlFlow::Continue(())
                }
                Event::End(span) => self.end_variation(span),
            };
        }
    }
}

impl pmn::Visitor for Next<'_, '_> {
    fn ply(&mut self, ply: pmn::Ply) -> std::ops::ControlFlow<()> {
        match self {
            Next::Writer(w) => w.ply(ply),
            Next::Edited(e) => e.ply(ply),
        }
    }

    fn comment(&mut self, comment: pmn::Comment) -> std::ops::ControlFlow<()> {
        match self {
            Next::Writer(w) => w.comment(comment),
            Next::Edited(e) => e.comment(comment),
        }
    }

    fn nag(&mut self, nag: pmn::Nag) -> std::ops::ControlFlow<()> {
        match self {
            Next::Writer(w) => w.nag(nag),
            Next::Edited(e) => e.nag(nag),
        }
    }

    fn move_number(&mut self, number: pmn::MoveNumber) -> std::ops::ControlFlow<()> {
        match self {
            Next::Writer(w) => w.move_number(number),
            Next::Edited(e) => e.move_number(number),
        }
    }

    fn begin_variation(&mut self, open: pmn::Span) -> pmn::Skip {
        match self {
            Next::Writer(w) => w.begin_variation(open),
            Next::Edited(e) => e.begin_variation(open),
        }
    }

    fn end_variation(&mut self, span: pmn::Span) -> std::ops::ControlFlow<()> {
        match self {
            Next::Writer(w) => w.end_variation(span),
            Next::Edited(e) => e.end_variation(span),
        }
    }

    fn problem(&mut self, _problem: pmn::Problem) {}
}

impl pmn::Visitor for Edited<'_, '_> {
    fn ply(&mut self, mut ply: pmn::Ply) -> std::ops::ControlFlow<()> {
        if self.depth > 0 {
            if let Some(events) = self.holding() {
                events.push(Event::Ply(ply));
                return std::ops::ControlFlow::Continue(());
            }
            return self.next.ply(ply);
        }
        self.flush();
        let k = self.plies;
        self.plies += 1;
        match self.edit {
            Edit::Replace { at, with } if *at == k => {
                let was = std::mem::replace(&mut ply.syntax, with.clone());
                self.pending = Some(repaired(format!("was {was}")));
                self.next.ply(ply)
            }
            Edit::Insert { at, ply: new } if *at == k => {
                self.next.ply(pmn::Ply {
                    syntax: new.clone(),
                    suffix: None,
                    span: Default::default(),
                })?;
                self.next.comment(repaired("inserted".into()))?;
                self.next.ply(ply)
            }
            Edit::Delete { at } if *at == k => {
                self.dropping = true;
                self.next
                    .comment(repaired(format!("deleted {}", ply.syntax)))
            }
            // The plies alone change places; what lies between them stays, and each
            // ply's comment goes after the NAGs of the place it takes.
            Edit::Swap { at } if *at == k => {
                self.held = Some((ply, Vec::new()));
                std::ops::ControlFlow::Continue(())
            }
            Edit::Swap { at } if *at + 1 == k => {
                let Some((first, events)) = self.held.take() else {
                    return self.next.ply(ply);
                };
                let second = ply.syntax.to_string();
                self.pending = Some(repaired(format!("was {}", first.syntax)));
                self.next.ply(ply)?;
                self.hand_on(events);
                self.flush();
                self.pending = Some(repaired(format!("was {second}")));
                self.next.ply(first)
            }
            _ => self.next.ply(ply),
        }
    }

    fn comment(&mut self, mut comment: pmn::Comment) -> std::ops::ControlFlow<()> {
        if let Some(events) = self.holding() {
            events.push(Event::Comment(comment));
            return std::ops::ControlFlow::Continue(());
        }
        if self.depth > 0 {
            return self.next.comment(comment);
        }
        self.flush();
        match self.edit {
            // The first `[%stones]` in the comments after the ply, before the next.
            Edit::Checkpoint {
                after,
                south,
                north,
            } if !self.done && self.plies == after + 1 => {
                match correct_checkpoint(&mut comment, *south, *north) {
                    Some(was) => {
                        self.done = true;
                        self.next.comment(comment)?;
                        self.next.comment(repaired(was))
                    }
                    None => self.next.comment(comment),
                }
            }
            _ => self.next.comment(comment),
        }
    }

    fn nag(&mut self, nag: pmn::Nag) -> std::ops::ControlFlow<()> {
        if let Some(events) = self.holding() {
            events.push(Event::Nag(nag));
            return std::ops::ControlFlow::Continue(());
        }
        match self.depth == 0 && self.dropping {
            true => std::ops::ControlFlow::Continue(()),
            false => self.next.nag(nag),
        }
    }

    fn move_number(&mut self, number: pmn::MoveNumber) -> std::ops::ControlFlow<()> {
        if let Some(events) = self.holding() {
            events.push(Event::MoveNumber(number));
            return std::ops::ControlFlow::Continue(());
        }
        if self.depth == 0 {
            self.flush();
        }
        self.next.move_number(number)
    }

    fn begin_variation(&mut self, open: pmn::Span) -> pmn::Skip {
        if let Some(events) = self.holding() {
            events.push(Event::Begin(open));
            self.depth += 1;
            return pmn::Skip::No;
        }
        if self.depth == 0 {
            self.flush();
        }
        self.depth += 1;
        self.next.begin_variation(open)
    }

    fn end_variation(&mut self, span: pmn::Span) -> std::ops::ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        if let Some(events) = self.holding() {
            events.push(Event::End(span));
            return std::ops::ControlFlow::Continue(());
        }
        self.next.end_variation(span)
    }

    fn problem(&mut self, _problem: pmn::Problem) {}
}
