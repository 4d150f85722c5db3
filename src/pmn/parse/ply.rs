//! The ply grammar, in nom combinators over the bytes of one ply token, and the
//! problems of a ply that does not read.

use nom::branch::alt;
use nom::character::complete::{char, digit1, one_of};
use nom::combinator::{cut, eof, map, map_res, opt, peek};
use nom::error::{context, ContextError, ErrorKind, FromExternalError, ParseError};
use nom::multi::{fold_many0, separated_list1};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use crate::pmn::ast::*;
use crate::pmn::problem::Code;

use super::{quote, PitNumbers, PIT_NUMBER_DIGITS};

// ---------------------------------------------------------------------------------
// The ply grammar, in nom combinators over the bytes of one ply token.
//
// Every problem of a ply is final (`nom::Err::Failure`): a ply token has one reading, so
// there is nothing to backtrack to. Only the optional parts (`:n`, `-END`, `#k`, `x`)
// and the choice between a sowing and a redistribution backtrack, on their first byte.
// The error is a small `Copy` value, so that backtracking costs no allocation; its
// message is written only when it is reported.

/// What went wrong in a ply, and where (`at` is the rest of the ply from there).
#[derive(Clone, Copy)]
pub(super) struct PlyError {
    pub(super) rest_len: usize,
    pub(super) kind: PlyErrorKind,
}

#[derive(Clone, Copy)]
pub(super) enum PlyErrorKind {
    /// A nom parser failed where the grammar did not name what it expected (not
    /// reported: every such failure is backtracked over or given a context).
    Nom,
    /// Expected this, found the character at `at` (or the end of the ply).
    Unexpected(&'static str),
    /// No digits where this number belongs.
    NoDigits(Number),
    /// The number starts with 0.
    LeadingZero(Number),
    /// The number is larger than its largest value.
    TooLarge(Number),
    /// A row letter other than `a`-`d`.
    NoSuchRow(u8),
    ColumnZero,
    ColumnTooLarge,
    /// A number that names no pit (see [`PitNumbers`]).
    NoPit,
}

/// The numbers of a ply, for messages.
#[derive(Clone, Copy)]
pub(super) enum Number {
    Column,
    Lifted,
    Arrival,
    Stones,
    Taken,
}

impl Number {
    pub(super) fn name(self) -> &'static str {
        match self {
            Number::Column => "column",
            Number::Lifted => "number of stones lifted",
            Number::Arrival => "arrival number",
            Number::Stones => "number of stones",
            Number::Taken => "number of stones taken",
        }
    }

    pub(super) fn max(self) -> u64 {
        match self {
            Number::Column => u64::MAX,
            _ => u16::MAX as u64,
        }
    }
}

impl PlyErrorKind {
    pub(super) fn code(self) -> Code {
        match self {
            PlyErrorKind::TooLarge(_) | PlyErrorKind::ColumnTooLarge => Code::NumberTooLarge,
            _ => Code::Syntax,
        }
    }
}

impl ParseError<&[u8]> for PlyError {
    fn from_error_kind(at: &[u8], _: ErrorKind) -> Self {
        PlyError {
            rest_len: at.len(),
            kind: PlyErrorKind::Nom,
        }
    }

    fn append(_: &[u8], _: ErrorKind, other: Self) -> Self {
        other
    }
}

/// `context("what was expected", parser)` names what a bare nom parser expected.
impl ContextError<&[u8]> for PlyError {
    fn add_context(at: &[u8], expected: &'static str, other: Self) -> Self {
        match other.kind {
            PlyErrorKind::Nom => PlyError {
                rest_len: at.len(),
                kind: PlyErrorKind::Unexpected(expected),
            },
            _ => other,
        }
    }
}

/// A number that reads but does not fit (from `map_res`) is reported at its digits.
impl FromExternalError<&[u8], PlyErrorKind> for PlyError {
    fn from_external_error(at: &[u8], _: ErrorKind, kind: PlyErrorKind) -> Self {
        PlyError {
            rest_len: at.len(),
            kind,
        }
    }
}

type PlyResult<'a, O> = IResult<&'a [u8], O, PlyError>;

fn fail<O>(at: &[u8], kind: PlyErrorKind) -> PlyResult<'_, O> {
    Err(nom::Err::Failure(PlyError {
        rest_len: at.len(),
        kind,
    }))
}

/// The value of `digits`, if it fits in the number's largest value and has no leading
/// zero.
fn number_value(digits: &[u8], number: Number) -> Result<u64, PlyErrorKind> {
    if digits.len() > 1 && digits[0] == b'0' {
        return Err(PlyErrorKind::LeadingZero(number));
    }
    digits
        .iter()
        .try_fold(0u64, |v, &d| {
            v.checked_mul(10)?.checked_add((d - b'0') as u64)
        })
        .filter(|&v| v <= number.max())
        .ok_or(PlyErrorKind::TooLarge(number))
}

/// A count of stones or an arrival number: digits, no larger than 65535.
pub(super) fn count<'a>(number: Number) -> impl Parser<&'a [u8], Output = u16, Error = PlyError> {
    let digits = move |at: &'a [u8]| {
        digit1(at).or_else(|_: nom::Err<PlyError>| fail(at, PlyErrorKind::NoDigits(number)))
    };
    cut(map_res(digits, move |d: &[u8]| {
        number_value(d, number).map(|n| n as u16)
    }))
}

/// A row letter `a`-`d`.
fn row(at: &[u8]) -> PlyResult<'_, u8> {
    match at.first() {
        Some(&r @ b'a'..=b'd') => Ok((&at[1..], r - b'a')),
        Some(&r) if r.is_ascii_alphabetic() => fail(at, PlyErrorKind::NoSuchRow(r)),
        _ => fail(
            at,
            PlyErrorKind::Unexpected("a pit such as `a3` (a row a-d and a column)"),
        ),
    }
}

/// The column of a pit, `1..=99` without leading zeros.
pub(super) fn column(at: &[u8]) -> PlyResult<'_, u8> {
    // A column too large for any number is as much a column past the last as `100` is:
    // one message for both.
    let value = |d: &[u8]| match number_value(d, Number::Column) {
        Ok(0) => Err(PlyErrorKind::ColumnZero),
        Ok(col) if col <= Pit::MAX_COL as u64 => Ok(col as u8),
        Ok(_) | Err(PlyErrorKind::TooLarge(_)) => Err(PlyErrorKind::ColumnTooLarge),
        Err(e) => Err(e),
    };
    cut(context(
        "a column number after the row letter",
        map_res(digit1, value),
    ))
    .parse(at)
}

/// A pit such as `a3` or `c17`.
///
/// Inlined: the usual `a3` / `c17` (most of the text) is read here, and its result stays
/// in registers (returned through memory, a `Pit` written as two bytes and read back
/// as one `u16` would stall the reader's hot loop); anything else goes to `pit_slow`.
#[inline(always)]
pub(super) fn pit(at: &[u8]) -> PlyResult<'_, Pit> {
    match usual_pit(at) {
        Some((pit, len)) => Ok((&at[len..], pit)),
        None => pit_slow(at),
    }
}

/// The usual pit at the start of `at`, a row `a`-`d` and a column of one or two digits
/// not starting with 0 (and no third digit): the pit and its length. `None` for anything
/// else, well-formed or not, which [`pit_slow`] reads or reports.
#[inline(always)]
pub(super) fn usual_pit(at: &[u8]) -> Option<(Pit, usize)> {
    // Four bytes at hand (nearly always: a result follows the last ply): read as
    // bytes, without the pattern's length checks at each of them.
    if let [r, d1, d2, after, ..] = *at {
        let (row, d1) = (r.wrapping_sub(b'a'), d1.wrapping_sub(b'1'));
        if row > 3 || d1 > 8 {
            return None;
        }
        let d2 = d2.wrapping_sub(b'0');
        let two = d2 <= 9;
        if two && after.is_ascii_digit() {
            return None;
        }
        let col = if two { (d1 + 1) * 10 + d2 } else { d1 + 1 };
        return Some((Pit { row, col }, 2 + usize::from(two)));
    }
    matched_pit(at)
}

/// [`usual_pit`] by its pattern: any usual pit, however few bytes follow it.
pub(super) fn matched_pit(at: &[u8]) -> Option<(Pit, usize)> {
    let [r @ b'a'..=b'd', d1 @ b'1'..=b'9', rest @ ..] = at else {
        return None;
    };
    let (row, d1) = (r - b'a', d1 - b'0');
    match rest {
        [] => Some((Pit { row, col: d1 }, 2)),
        [next, ..] if !next.is_ascii_digit() => Some((Pit { row, col: d1 }, 2)),
        [d2, tail @ ..] if tail.first().is_none_or(|b| !b.is_ascii_digit()) => Some((
            Pit {
                row,
                col: d1 * 10 + (d2 - b'0'),
            },
            3,
        )),
        _ => None,
    }
}

/// A pit written as a number (see [`PitNumbers`]), for a ply that `side` plays: the
/// name is the run of letters and digits up to the next `x` (which always begins a
/// capture), and names a pit only when it is a number the caller maps to one.
pub(super) fn numbered_pit<'a>(
    at: &'a [u8],
    numbers: &dyn PitNumbers,
    side: Side,
) -> PlyResult<'a, Pit> {
    let len = pit_name_len(at);
    if len == 0 {
        return fail(at, PlyErrorKind::Unexpected("a pit number"));
    }
    let name = &at[..len];
    let number = (len <= PIT_NUMBER_DIGITS && name.iter().all(u8::is_ascii_digit))
        .then(|| name.iter().fold(0u32, |v, d| v * 10 + u32::from(d - b'0')));
    match number.and_then(|n| numbers.pit(side, n)) {
        Some(pit) => Ok((&at[len..], pit)),
        None => fail(at, PlyErrorKind::NoPit),
    }
}

/// The length of the pit name at the start of `at` in numbered plies (see
/// [`numbered_pit`]).
pub(super) fn pit_name_len(at: &[u8]) -> usize {
    (at.iter())
        .take_while(|&&b| b.is_ascii_alphanumeric() && b != b'x')
        .count()
}

/// A pit the fast path of [`pit`] does not read (or a malformed one), in combinators.
#[inline(never)]
fn pit_slow(at: &[u8]) -> PlyResult<'_, Pit> {
    (row, column).map(|(row, col)| Pit { row, col }).parse(at)
}

/// `:n` after a pit.
fn stones<'a>(number: Number) -> impl Parser<&'a [u8], Output = u16, Error = PlyError> {
    preceded(char(':'), count(number))
}

/// Kiothi's redistribution after its first pit: `,P,...>Q:n,Q:n,...`.
fn redistribution<'a>(
    from: Pit,
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, Pit> + Copy,
) -> impl Parser<&'a [u8], Output = PlySyntax, Error = PlyError> {
    let emptied = fold_many0(
        preceded(char(','), pit),
        move || vec![from],
        |mut pits, pit| {
            pits.push(pit);
            pits
        },
    );
    let arrow = cut(context(
        "`,` and another pit, or `>` and the pits filled",
        char('>'),
    ));
    let colon = cut(context("`:` and the stones put in the pit", char(':')));
    let filled = separated_list1(
        char(','),
        (pit, preceded(colon, count(Number::Stones)))
            .map(|(pit, stones)| PitStones { pit, stones }),
    );
    // A `,` or `>` after the first pit can only begin a redistribution.
    preceded(peek(one_of(",>")), (terminated(emptied, arrow), filled))
        .map(|(emptied, filled)| PlySyntax::Redistribution(Redistribution { emptied, filled }))
}

/// The sowing after its first pit: `[:n][-END[#k]][x[P[:n],P[:n],...]]`.
pub(super) fn sowing<'a>(
    from: Pit,
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, Pit> + Copy,
) -> impl Parser<&'a [u8], Output = PlySyntax, Error = PlyError> {
    let lift = opt(stones(Number::Lifted));
    let end = opt(preceded(
        char('-'),
        (pit, opt(preceded(char('#'), count(Number::Arrival)))),
    ));
    let capture = opt(preceded(
        char('x'),
        alt((map(eof, |_| BonusPits::new()), move |at| {
            bonus_list(at, pit)
        })),
    ));
    (lift, end, capture).map(move |(lift, end, capture)| {
        PlySyntax::Sowing(Sowing {
            from,
            lift,
            end: end.map(|(pit, _)| pit),
            arrival: end.and_then(|(_, arrival)| arrival),
            capture,
        })
    })
}

/// A bonus pit `P[:n]`.
fn bonus_pit<'a>(
    at: &'a [u8],
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, Pit> + Copy,
) -> PlyResult<'a, PitCount> {
    (pit, opt(stones(Number::Taken)))
        .map(|(pit, count)| PitCount { pit, count })
        .parse(at)
}

/// Bonus pits `P[:n],P[:n],...`, read as `separated_list1` reads a list, into a
/// [`BonusPits`] (no allocation for one or two).
fn bonus_list<'a>(
    at: &'a [u8],
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, Pit> + Copy,
) -> PlyResult<'a, BonusPits> {
    let (rest, first) = bonus_pit(at, pit)?;
    let more = preceded(char(','), move |at| bonus_pit(at, pit));
    let start = move || BonusPits::from_iter([first]);
    fold_many0(more, start, |mut pits, pit| {
        pits.push(pit);
        pits
    })
    .parse(rest)
}

/// What may follow a ply read so far, for the message when something else does.
fn expected_after(ply: &PlySyntax) -> &'static str {
    match ply {
        PlySyntax::Redistribution(_) => "`,` and another pit, or the end of the ply",
        PlySyntax::Sowing(s) => match (s.lift, s.end, s.arrival, &s.capture) {
            (_, _, _, Some(_)) => "`,` and another bonus pit, or the end of the ply",
            (_, Some(_), None, None) => "`#k`, `x` or the end of the ply",
            (_, Some(_), Some(_), None) => "`x` or the end of the ply",
            (None, None, _, None) => "`:n`, `-END`, `x` or the end of the ply",
            (Some(_), None, _, None) => "`-END`, `x` or the end of the ply",
        },
    }
}

/// A ply that is a pit alone, as [`ply`] reads it.
#[inline(always)]
pub(super) fn lone_pit_ply(from: Pit) -> PlySyntax {
    PlySyntax::Sowing(Sowing {
        from,
        lift: None,
        end: None,
        arrival: None,
        capture: None,
    })
}

/// Reads a whole ply (without its suffix annotation), its pits read by `pit`.
pub(super) fn ply<'a>(
    at: &'a [u8],
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, Pit> + Copy,
) -> PlyResult<'a, PlySyntax> {
    let (rest, from) = pit(at)?;
    if rest.is_empty() {
        // A pit alone: what `sowing` would give, without its work.
        return Ok((rest, lone_pit_ply(from)));
    }
    let (rest, ply) = alt((redistribution(from, pit), sowing(from, pit))).parse(rest)?;
    if !rest.is_empty() {
        return fail(rest, PlyErrorKind::Unexpected(expected_after(&ply)));
    }
    Ok((rest, ply))
}

/// A problem of a ply: where (from the start of the ply), its code and its message.
pub(super) struct PlyProblem {
    pub(super) at: usize,
    pub(super) code: Code,
    pub(super) message: String,
}

/// Parses the text of a ply (without its suffix annotation), its pits read by `pit`.
pub(super) fn parse_ply<'a>(
    b: &'a [u8],
    pit: impl Fn(&'a [u8]) -> PlyResult<'a, Pit> + Copy,
) -> Result<PlySyntax, PlyError> {
    match ply(b, pit) {
        Ok((_, syntax)) => Ok(syntax),
        Err(nom::Err::Failure(e) | nom::Err::Error(e)) => Err(e),
        // Complete parsers never ask for more; were one to, it is no ply, not a panic.
        Err(nom::Err::Incomplete(_)) => Err(PlyError {
            rest_len: b.len(),
            kind: PlyErrorKind::Nom,
        }),
    }
}

/// The problem of the ply `b` (without its suffix) for its error `e`; `token` is the
/// whole token, suffix included, for the message.
pub(super) fn ply_problem(b: &[u8], e: PlyError, token: &str) -> PlyProblem {
    let at = b.len() - e.rest_len;
    let rest = &b[at..];
    let digits = || {
        let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        String::from_utf8_lossy(&rest[..n]).into_owned()
    };
    let message = match e.kind {
        PlyErrorKind::Nom => "expected a ply".to_string(),
        PlyErrorKind::Unexpected(expected) => {
            // The grammar steps over ASCII only: `at` is on a character boundary.
            let found = match String::from_utf8_lossy(rest).chars().next() {
                Some(c) => format!("`{c}`"),
                None => "the end of the ply".to_string(),
            };
            format!("expected {expected}, found {found}")
        }
        PlyErrorKind::NoDigits(number) => format!("expected a {} (digits)", number.name()),
        PlyErrorKind::LeadingZero(number) => format!(
            "{} `{}` starts with 0; write it without leading zeros",
            number.name(),
            digits()
        ),
        PlyErrorKind::TooLarge(number) => format!(
            "{} {} is too large; the largest is {}",
            number.name(),
            quote(&digits()),
            number.max()
        ),
        PlyErrorKind::NoSuchRow(r) => {
            format!("row `{}` does not exist; rows are a, b, c and d", r as char)
        }
        PlyErrorKind::ColumnZero => "column 0 does not exist; columns start at 1".to_string(),
        PlyErrorKind::ColumnTooLarge => format!(
            "column {} is too large; columns go up to {}",
            quote(&digits()),
            Pit::MAX_COL
        ),
        // Told by the scanner, which knows the numbering.
        PlyErrorKind::NoPit => format!(
            "`{}` names no pit",
            String::from_utf8_lossy(&rest[..pit_name_len(rest)])
        ),
    };
    PlyProblem {
        at,
        code: e.kind.code(),
        message: format!("in ply `{}`: {message}", quote(token)),
    }
}
