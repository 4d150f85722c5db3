//! Pits and seats by name: the words PMN syntax and the rules core share.
//!
//! A [`Pit`] is a row letter and a column, nothing more: whether it exists is a
//! question for a [`Board`](crate::geometry::Board), which the syntax layer never asks.
//! This module depends on nothing else in the crate.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A seat. South sits at the bottom of the board and moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// South, who plays rows `a` and `b` (on two rows, row `a`).
    South,
    /// North, who plays rows `c` and `d` (on two rows, row `b`).
    North,
}

impl Side {
    /// Both seats, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other seat.
    pub fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: the index into per-seat arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// `S` or `N`, as in the PMN `Position` string.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// `South` or `North`.
    pub fn name(self) -> &'static str {
        match self {
            Side::South => "South",
            Side::North => "North",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A pit named by its row letter (`a`..`d`, row index 0..3) and column (from 1).
///
/// A `Pit` is only a name; whether it exists depends on the board.
/// [`Pit::parse`] is the checked constructor for a name as written (`a`-`d`, `1..=99`);
/// [`Pit::new`] takes row and column indices the caller already knows to be in range.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pit {
    /// 0 = `a` (South's outer row), 1 = `b`, 2 = `c`, 3 = `d` (North's outer row).
    pub row: u8,
    /// 1-based column, from South's left.
    pub col: u8,
}

impl Pit {
    /// The highest column a pit name may have.
    pub const MAX_COL: u8 = 99;

    /// The pit at a row index and a column the caller knows to be in range.
    pub const fn new(row: u8, col: u8) -> Pit {
        Pit { row, col }
    }

    /// A pit from a row letter (`'a'..='d'`) and a column (`1..=99`), if both are valid.
    pub fn parse(row_letter: char, col: u8) -> Option<Pit> {
        let row = match row_letter {
            'a'..='d' => row_letter as u8 - b'a',
            _ => return None,
        };
        (1..=Self::MAX_COL)
            .contains(&col)
            .then_some(Pit { row, col })
    }

    /// The row letter: `a`, `b`, `c` or `d`.
    pub fn row_letter(self) -> char {
        match self.row {
            0..=25 => (b'a' + self.row) as char,
            _ => '?',
        }
    }

    /// Appends the pit's name (`a1`..`d99`, as `Display` writes it) to `out`.
    pub fn push_name(self, out: &mut Vec<u8>) {
        self.name(|letter, col| {
            // A row letter is ASCII.
            out.push(letter as u8);
            // A digit or two, pushed: a copy of unknown length would be a call.
            for &digit in col.as_bytes() {
                out.push(digit);
            }
        })
    }

    /// Writes the pit's name to any writer: a `String` takes it without a formatter.
    pub fn write_name<W: fmt::Write>(self, out: &mut W) -> fmt::Result {
        self.name(|letter, col| {
            out.write_char(letter)?;
            out.write_str(col)
        })
    }

    /// Gives `write` the pit's name in its two parts: the row letter, and the column in
    /// decimal (without a formatter: every table row and ply text names pits).
    fn name<R>(self, write: impl FnOnce(char, &str) -> R) -> R {
        let col = self.col as usize;
        if col < 100 {
            // One digit or two, cut from the table of `00` to `99`.
            let first = if col < 10 { 2 * col + 1 } else { 2 * col };
            return write(self.row_letter(), &TWO_DIGITS[first..2 * col + 2]);
        }
        write(self.row_letter(), itoa::Buffer::new().format(self.col))
    }
}

/// `00` to `99`, two digits each.
const TWO_DIGITS: &str = match std::str::from_utf8(&TWO_DIGIT_BYTES) {
    Ok(digits) => digits,
    Err(_) => panic!("digits are ASCII"),
};

const TWO_DIGIT_BYTES: [u8; 200] = {
    let mut digits = [0u8; 200];
    let mut n = 0;
    while n < 100 {
        digits[2 * n] = b'0' + (n / 10) as u8;
        digits[2 * n + 1] = b'0' + (n % 10) as u8;
        n += 1;
    }
    digits
};

impl fmt::Display for Pit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_name(f)
    }
}

impl fmt::Debug for Pit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Pit {
    type Err = String;

    /// Reads `a1`..`d99` (no leading zero); whether the pit exists on a board is
    /// [`Board::contains`](crate::geometry::Board::contains).
    fn from_str(s: &str) -> Result<Pit, String> {
        let mut chars = s.chars();
        let row = chars.next().ok_or_else(|| "empty pit".to_string())?;
        let digits = chars.as_str();
        let valid = !digits.is_empty()
            && !digits.starts_with('0')
            && digits.bytes().all(|b| b.is_ascii_digit());
        let col = if valid {
            digits.parse::<u8>().ok()
        } else {
            None
        };
        col.and_then(|col| Pit::parse(row, col))
            .ok_or_else(|| format!("`{s}` is not a pit (a row a-d and a column 1-99)"))
    }
}

/// A pit is written in JSON as its name, `"a3"`.
impl Serialize for Pit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Pit {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Pit, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Pit {
    /// The definition's name in the published record schema.
    fn schema_name() -> String {
        "PitRef".to_string()
    }

    fn json_schema(_: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        schemars::schema::SchemaObject {
            instance_type: Some(schemars::schema::InstanceType::String.into()),
            string: Some(Box::new(schemars::schema::StringValidation {
                pattern: Some("^[a-d][1-9][0-9]?$".to_string()),
                ..Default::default()
            })),
            metadata: Some(Box::new(schemars::schema::Metadata {
                description: Some("A pit: a row letter a-d and a column 1-99, e.g. `a3`.".into()),
                ..Default::default()
            })),
            ..Default::default()
        }
        .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pit_names_round_trip() {
        for row in 0..4 {
            for col in 1..=Pit::MAX_COL {
                let pit = Pit::new(row, col);
                assert_eq!(pit.to_string().parse::<Pit>(), Ok(pit));
                assert_eq!(Pit::parse(pit.row_letter(), col), Some(pit));
            }
        }
    }

    #[test]
    fn a_name_is_its_letter_and_its_column_in_decimal() {
        for row in 0..=u8::MAX {
            for col in 0..=u8::MAX {
                let pit = Pit::new(row, col);
                let expected = format!("{}{}", pit.row_letter(), col);
                assert_eq!(pit.to_string(), expected);
                let mut pushed = b"x".to_vec();
                pit.push_name(&mut pushed);
                assert_eq!(pushed, format!("x{expected}").into_bytes());
            }
        }
    }

    #[test]
    fn pit_names_reject_nonsense() {
        for bad in ["", "a", "a0", "a01", "e1", "z9", "a100", "A1", "a-1"] {
            assert!(bad.parse::<Pit>().is_err(), "{bad}");
        }
        assert_eq!(Pit::parse('e', 1), None);
        assert_eq!(Pit::parse('a', 0), None);
        assert_eq!(Pit::parse('a', 100), None);
    }
}
