//! The stable codes of every problem a record can have, the reader's and the replay's,
//! in one enum.
//!
//! The codes are part of the interface (`--format json`, records/flawed/, the schemas):
//! add codes freely, never rename one. The test below lists the set.

use std::fmt;

use serde::Serialize;

/// What kind of problem it is; [`Code::as_str`] gives the stable kebab-case code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Code {
    // The reader's: problems of the text.
    /// Text that is not PMN where it is.
    Syntax,
    /// A `{` comment without its `}`.
    UnterminatedComment,
    /// A tag without its closing quote or `]`.
    UnterminatedTag,
    /// A `(` without its `)`.
    UnterminatedVariation,
    /// A `)` without its `(`.
    UnmatchedParen,
    /// A backslash in a tag value followed by something other than `"` or `\`.
    BadEscape,
    /// The same tag twice.
    DuplicateTag,
    /// No `Game` tag.
    MissingGameTag,
    /// No result token at the end of the move text.
    MissingResult,
    /// A result that disagrees: the `Result` tag with the result token, or either with
    /// the final position.
    ResultMismatch,
    /// A move number that does not fit the ply after it.
    MoveNumber,
    /// Bytes that are not UTF-8 (read as Latin-1), broken UTF-16, or an encoding or line
    /// ends told without a mark (UTF-16 without its byte-order mark, CR alone).
    Encoding,
    /// A NUL byte.
    NulByte,
    /// A line longer than the limit.
    LongLine,
    /// A number too large for its place.
    NumberTooLarge,
    /// Variations nested deeper than the limit.
    NestingTooDeep,
    /// A file with no games.
    EmptyFile,
    /// Text after a game's result and before the next game's tags.
    GarbageBetweenGames,
    /// The input could not be read.
    Io,
    // The replay's: problems of the play.
    /// A ply that breaks the rules.
    IllegalMove,
    /// A ply that can never end.
    EndlessSowing,
    /// A ply whose sowing neither ended nor proved endless within the lap budget.
    UndecidedSowing,
    /// `-END` names another pit than the one where the move ended.
    EndMismatch,
    /// An `x` on a ply that captured nothing, or a capture without `x`.
    CaptureMark,
    /// Bonus pits that break the bonus rule.
    Bonus,
    /// A `[%stones S N]` checkpoint that disagrees with the replay.
    StonesMismatch,
    /// A decisive or drawn result for a game that is not over.
    ResultNotOver,
    /// A ply written after the game was over.
    AfterEnd,
    /// A ply executed under `[%foul]`.
    Foul,
    /// A `Rules` option the game does not know, or a value out of range.
    UnknownOption,
    /// A `Game` tag naming no game we know.
    UnknownGame,
    /// A `Board` tag the game is not played on.
    BadBoard,
    /// A `Position` set-up that cannot be a position of the game.
    Setup,
    /// A set-up whose stone total the rule set's start could not lead to (a warning).
    SetupTotal,
    /// A ply whose form the game does not write (e.g. `:n` outside Kiothi).
    PlyForm,
    /// A malformed `[%...]` command.
    Command,
    // The corpus's: inputs.
    /// An input skipped (not a file of the form asked for, say): a warning of the corpus.
    Skipped,
    // The page's (`sow view`).
    /// A variation not replayed: its game's variations had replayed the plies they may.
    NotReplayed,
}

impl Code {
    /// Every code, in the order of the enum.
    pub const ALL: [Code; 38] = [
        Code::Syntax,
        Code::UnterminatedComment,
        Code::UnterminatedTag,
        Code::UnterminatedVariation,
        Code::UnmatchedParen,
        Code::BadEscape,
        Code::DuplicateTag,
        Code::MissingGameTag,
        Code::MissingResult,
        Code::ResultMismatch,
        Code::MoveNumber,
        Code::Encoding,
        Code::NulByte,
        Code::LongLine,
        Code::NumberTooLarge,
        Code::NestingTooDeep,
        Code::EmptyFile,
        Code::GarbageBetweenGames,
        Code::Io,
        Code::IllegalMove,
        Code::EndlessSowing,
        Code::UndecidedSowing,
        Code::EndMismatch,
        Code::CaptureMark,
        Code::Bonus,
        Code::StonesMismatch,
        Code::ResultNotOver,
        Code::AfterEnd,
        Code::Foul,
        Code::UnknownOption,
        Code::UnknownGame,
        Code::BadBoard,
        Code::Setup,
        Code::SetupTotal,
        Code::PlyForm,
        Code::Command,
        Code::Skipped,
        Code::NotReplayed,
    ];

    /// The kebab-case code, e.g. `unterminated-comment`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "syntax",
            Code::UnterminatedComment => "unterminated-comment",
            Code::UnterminatedTag => "unterminated-tag",
            Code::UnterminatedVariation => "unterminated-variation",
            Code::UnmatchedParen => "unmatched-paren",
            Code::BadEscape => "bad-escape",
            Code::DuplicateTag => "duplicate-tag",
            Code::MissingGameTag => "missing-game-tag",
            Code::MissingResult => "missing-result",
            Code::ResultMismatch => "result-mismatch",
            Code::MoveNumber => "move-number",
            Code::Encoding => "encoding",
            Code::NulByte => "nul-byte",
            Code::LongLine => "long-line",
            Code::NumberTooLarge => "number-too-large",
            Code::NestingTooDeep => "nesting-too-deep",
            Code::EmptyFile => "empty-file",
            Code::GarbageBetweenGames => "garbage-between-games",
            Code::Io => "io",
            Code::IllegalMove => "illegal-move",
            Code::EndlessSowing => "endless-sowing",
            Code::UndecidedSowing => "undecided-sowing",
            Code::EndMismatch => "end-mismatch",
            Code::CaptureMark => "capture-mark",
            Code::Bonus => "bonus",
            Code::StonesMismatch => "stones-mismatch",
            Code::ResultNotOver => "result-not-over",
            Code::AfterEnd => "after-end",
            Code::Foul => "foul",
            Code::UnknownOption => "unknown-option",
            Code::UnknownGame => "unknown-game",
            Code::BadBoard => "bad-board",
            Code::Setup => "setup",
            Code::SetupTotal => "setup-total",
            Code::PlyForm => "ply-form",
            Code::Command => "command",
            Code::Skipped => "skipped",
            Code::NotReplayed => "not-replayed",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stable set: a code added, removed or renamed fails here first.
    #[test]
    fn the_codes_are_the_stable_set() {
        let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(
            codes,
            [
                "syntax",
                "unterminated-comment",
                "unterminated-tag",
                "unterminated-variation",
                "unmatched-paren",
                "bad-escape",
                "duplicate-tag",
                "missing-game-tag",
                "missing-result",
                "result-mismatch",
                "move-number",
                "encoding",
                "nul-byte",
                "long-line",
                "number-too-large",
                "nesting-too-deep",
                "empty-file",
                "garbage-between-games",
                "io",
                "illegal-move",
                "endless-sowing",
                "undecided-sowing",
                "end-mismatch",
                "capture-mark",
                "bonus",
                "stones-mismatch",
                "result-not-over",
                "after-end",
                "foul",
                "unknown-option",
                "unknown-game",
                "bad-board",
                "setup",
                "setup-total",
                "ply-form",
                "command",
                "skipped",
                "not-replayed",
            ]
        );
        // `ALL` holds every variant: the match fails to compile without a new one.
        for (i, code) in Code::ALL.iter().enumerate() {
            let at = match code {
                Code::Syntax => 0,
                Code::UnterminatedComment => 1,
                Code::UnterminatedTag => 2,
                Code::UnterminatedVariation => 3,
                Code::UnmatchedParen => 4,
                Code::BadEscape => 5,
                Code::DuplicateTag => 6,
                Code::MissingGameTag => 7,
                Code::MissingResult => 8,
                Code::ResultMismatch => 9,
                Code::MoveNumber => 10,
                Code::Encoding => 11,
                Code::NulByte => 12,
                Code::LongLine => 13,
                Code::NumberTooLarge => 14,
                Code::NestingTooDeep => 15,
                Code::EmptyFile => 16,
                Code::GarbageBetweenGames => 17,
                Code::Io => 18,
                Code::IllegalMove => 19,
                Code::EndlessSowing => 20,
                Code::UndecidedSowing => 21,
                Code::EndMismatch => 22,
                Code::CaptureMark => 23,
                Code::Bonus => 24,
                Code::StonesMismatch => 25,
                Code::ResultNotOver => 26,
                Code::AfterEnd => 27,
                Code::Foul => 28,
                Code::UnknownOption => 29,
                Code::UnknownGame => 30,
                Code::BadBoard => 31,
                Code::Setup => 32,
                Code::SetupTotal => 33,
                Code::PlyForm => 34,
                Code::Command => 35,
                Code::Skipped => 36,
                Code::NotReplayed => 37,
            };
            assert_eq!(at, i, "{code}");
        }
        // Serialized as its code.
        for code in Code::ALL {
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{code}\""));
        }
    }
}
