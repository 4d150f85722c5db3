//! PMN, the Portable Mancala Notation: reader, writer and JSON form (syntax only).
//!
//! Bytes are decoded ([`decode`]), cut into games and parsed ([`reader`], [`parse`])
//! into [`ast::Record`]s with spans and a list of [`problem::Problem`]s; [`writer`]
//! writes records back in the export form; [`json`] gives the JSON form and its schema.
//!
//! This layer must not know any game's rules: it never asks whether a ply is legal,
//! which pits a board has, or what a tag value means. The replay layer does that.

#![warn(missing_docs)]

pub mod ast;
pub mod decode;
pub mod json;
pub mod parse;
pub mod problem;
pub mod reader;
pub mod visit;
pub mod writer;

pub use ast::{
    Args, BonusPits, Command, Comment, CommentKind, Dots, Element, GameResult, MainLine,
    MainLinePly, MoveNumber, Nag, NotAWord, Pit, PitCount, PitStones, Ply, PlySyntax, Record,
    Redistribution, ResultToken, Side, Sowing, Span, Suffix, Tag, Variation,
};
pub use parse::PitNumbers;
pub use problem::{Code, Problem, Severity};
pub use reader::{parse_bytes, parse_str, GameText, ParsedGame, Reader};
pub use visit::{CutBuilder, RecordBuilder, Skip, Visitor};
pub use writer::{
    write_game, write_game_into, write_game_with_move_text, write_games, write_move_text,
    write_numbered_game, ExportWriter,
};
