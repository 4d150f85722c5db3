//! An edit applied to a record, with a comment that says what was repaired.

use crate::pmn::{self, Element, Record};
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
            // The first `[%stones]` in the comments between the ply and the next.
            let from = ply_at.get(*ply).map_or(0, |&i| i + 1);
            let to = ply_at.get(ply + 1).copied().unwrap_or(out.moves.len());
            for i in from..to {
                let Element::Comment(c) = &mut out.moves[i] else {
                    continue;
                };
                let Some(k) = c.commands.iter().position(|c| c.name == "stones") else {
                    continue;
                };
                let was = format!("[%stones {}]", c.commands[k].args.as_str());
                let now = format!("[%stones {south} {north}]");
                if let Some(open) = c.text.find("[%stones") {
                    let close = c.text[open..]
                        .find(']')
                        .map_or(c.text.len(), |e| open + e + 1);
                    let text = format!("{}{now}{}", &c.text[..open], &c.text[close..]);
                    c.text = text.as_str().into();
                }
                c.commands[k].args = pmn::Args::split(&format!("{south} {north}"));
                if mark {
                    // Not a command: the comment says what was written, and is no
                    // checkpoint itself.
                    let old = was.trim_start_matches("[%").trim_end_matches(']');
                    out.moves
                        .insert(i + 1, repaired_comment(format!("was {old}")));
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
