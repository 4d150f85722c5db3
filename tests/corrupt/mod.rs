//! A seeded generator of transcription slips, shared by the repair tests and the
//! repair benchmark: self-played games of every game and its options, each written as
//! PMN with one slip a transcriber makes (or two, a few plies apart).

#![allow(dead_code)]

use std::collections::BTreeMap;

use rayon::prelude::*;
use sow::generate::Player;
use sow::pmn;
use sow::replay::{replay, ReplayOptions};
use sow::rng::Rng;
use sow::{Board, Game, Rules, Side};

/// Every kind of slip the generator makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slip {
    /// The start pit's row letter misread (`a5` for `b5`).
    WrongRow,
    /// The start pit's column misread as its neighbour (`b6` for `b5`).
    MisreadStart,
    /// Two plies written in the wrong order.
    Swapped,
    /// A ply left out.
    Missing,
    /// A Tsoro head stop left out (`a3` for `a3-a8`).
    HeadStop,
    /// A Tsoro bonus pit left out (`a3xc4` for `a3xc4,d4`).
    BonusPit,
    /// A Kiothi count misread: the lift `:n`, or a count of the opening.
    KiothiMiscount,
    /// An `x` on a ply that captured nothing.
    StrayX,
    /// A wrong `-END`.
    WrongEnd,
    /// A `[%stones S N]` checkpoint with a count wrong.
    Checkpoint,
    /// A wrong result, in the tag and the token.
    Result,
    /// An Nsolo bonus count one off (`b1xd7:2` for `b1xd7:3`).
    BonusCount,
    /// A bonus pit misread as its neighbour.
    BonusPitSet,
    /// A stray space in a ply (`a 5`).
    StraySpace,
    /// Punctuation after a ply (`a6.`).
    StrayPunct,
    /// A digit written as a letter that looks like it (l/1, I/1, O/0, S/5).
    Confusable,
    /// A column's digits transposed or doubled (`a21` for `a12`, `a11` for `a1`).
    Digits,
    /// The start pit written from the other side's seat (`c3` for `b3`).
    WrongSide,
    /// Two slips (a misread pit, a stray `x`, a wrong `-END`) a few plies apart.
    Two,
    /// A move number out of step (`5.` for `4.`, `21.` for `12.`): the plies replay,
    /// the number gets a warning.
    MoveNumber,
}

impl Slip {
    pub const ALL: [Slip; 20] = [
        Slip::WrongRow,
        Slip::MisreadStart,
        Slip::Swapped,
        Slip::Missing,
        Slip::HeadStop,
        Slip::BonusPit,
        Slip::KiothiMiscount,
        Slip::StrayX,
        Slip::WrongEnd,
        Slip::Checkpoint,
        Slip::Result,
        Slip::BonusCount,
        Slip::BonusPitSet,
        Slip::StraySpace,
        Slip::StrayPunct,
        Slip::Confusable,
        Slip::Digits,
        Slip::WrongSide,
        Slip::Two,
        Slip::MoveNumber,
    ];
}

/// Every game with a spread of its options.
pub fn configs() -> Vec<Rules> {
    vec![
        Rules::new(Game::Tsoro, Board::new(4, 8), "").unwrap(),
        Rules::new(Game::Tsoro, Board::new(4, 12), "heads=1 bonus=1").unwrap(),
        Rules::new(
            Game::Tsoro,
            Board::new(4, 8),
            "heads=0 bonus=3 head-bonus=yes",
        )
        .unwrap(),
        Rules::new(Game::Tsoro, Board::new(4, 15), "bonus=5,3,2").unwrap(),
        Rules::new(Game::Nsolo, None, "").unwrap(),
        Rules::new(Game::Nsolo, None, "bonus=hole sow=ccw").unwrap(),
        Rules::new(Game::Nsolo, Board::new(4, 12), "bonus=none repeat=4").unwrap(),
        Rules::new(Game::Kiothi, None, "").unwrap(),
        Rules::new(Game::Kiothi, None, "start=5x5 leftmost=chain").unwrap(),
        Rules::new(Game::Kiothi, None, "start=6x5").unwrap(),
        Rules::new(Game::BaoLaKimasai, None, "").unwrap(),
    ]
}

/// A corrupted record and what it was.
#[derive(Clone, Debug)]
pub struct Corrupted {
    pub slip: Slip,
    pub rules: Rules,
    /// The record as played.
    pub original: String,
    /// The record with the slip.
    pub text: String,
}

/// A generated game's plies as text (for slips to be made in) and its result token.
pub fn play_game(
    rules: &Rules,
    player: Player,
    rng: &mut Rng,
    max_plies: u32,
) -> (Vec<String>, &'static str) {
    let (plies, result) = sow::generate::play_game(rules, player, rng, max_plies);
    (
        plies.iter().map(ToString::to_string).collect(),
        result.as_str(),
    )
}

/// A game's text from its tags and plies written as text, slips and all.
pub fn game_text(tags: &[(&str, String)], plies: &[String], result: &str) -> String {
    let mut text = String::new();
    for (name, value) in tags {
        text.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    text.push('\n');
    for (i, ply) in plies.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(ply);
        text.push(' ');
    }
    text.push_str(result);
    text.push('\n');
    text
}

/// The record's text: its tags, then the plies.
pub fn record_text(rules: &Rules, plies: &[String], result: &str) -> String {
    let mut tags: Vec<(&str, String)> = vec![("Game", rules.game().tag_name().to_string())];
    if rules.board() != rules.game().default_board() {
        tags.push(("Board", rules.board().to_string()));
    }
    let options = rules.options_tag();
    if !options.is_empty() {
        tags.push(("Rules", options));
    }
    tags.push(("Result", result.to_string()));
    game_text(&tags, plies, result)
}

/// The start pit of a sowing ply: its row letter and column digits.
fn start_of(ply: &str) -> Option<(char, &str, &str)> {
    let row = ply.chars().next()?;
    let digits = ply[1..].chars().take_while(|c| c.is_ascii_digit()).count();
    (row.is_ascii_lowercase() && digits > 0 && !ply.contains('>'))
        .then(|| (row, &ply[1..1 + digits], &ply[1 + digits..]))
}

/// The slip of one kind at ply `at` (or near it); `None` when it does not apply there.
pub fn slip_at(
    slip: Slip,
    rules: &Rules,
    plies: &[String],
    result: &str,
    at: usize,
    rng: &mut Rng,
) -> Option<(Vec<String>, String)> {
    let mut out = plies.to_vec();
    let mut result = result.to_string();
    let ply = &plies[at];
    let rows = rules.board().rows();
    let row_letter = |r: u8| char::from(b'a' + r);
    match slip {
        Slip::WrongRow => {
            let (row, col, rest) = start_of(ply)?;
            let other = row_letter(rng.below(rows as usize) as u8);
            (other != row).then_some(())?;
            out[at] = format!("{other}{col}{rest}");
        }
        Slip::MisreadStart => {
            let (row, col, rest) = start_of(ply)?;
            let c: i32 = col.parse().ok()?;
            let other = if rng.coin() { c + 1 } else { c - 1 };
            (other >= 1).then_some(())?;
            out[at] = format!("{row}{other}{rest}");
        }
        Slip::Swapped => out.swap(at, at + 1),
        Slip::Missing => {
            out.remove(at);
        }
        Slip::HeadStop => {
            (rules.game() == Game::Tsoro).then_some(())?;
            let dash = ply.find('-')?;
            let tail = ply.find('x').unwrap_or(ply.len());
            out[at] = format!("{}{}", &ply[..dash], &ply[tail..]);
        }
        Slip::BonusPit => {
            (rules.game() == Game::Tsoro).then_some(())?;
            let x = ply.find('x')?;
            let pits: Vec<&str> = ply[x + 1..].split(',').filter(|p| !p.is_empty()).collect();
            (!pits.is_empty()).then_some(())?;
            let drop = rng.below(pits.len());
            let kept: Vec<&str> = (pits.iter().enumerate())
                .filter(|(i, _)| *i != drop)
                .map(|(_, p)| *p)
                .collect();
            out[at] = format!("{}{}", &ply[..=x], kept.join(","));
        }
        Slip::KiothiMiscount => {
            (rules.game() == Game::Kiothi).then_some(())?;
            // The opening's last count, or a lift.
            let target = if rng.coin() { 0 } else { at };
            let p = &plies[target];
            let colon = p.rfind(':')?;
            let digits = p[colon + 1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let n: u32 = p[colon + 1..colon + 1 + digits].parse().ok()?;
            let m = if n > 1 && rng.coin() { n - 1 } else { n + 1 };
            out[target] = format!("{}{m}{}", &p[..=colon], &p[colon + 1 + digits..]);
        }
        Slip::StrayX => {
            (!ply.contains('x') && !ply.contains('>')).then_some(())?;
            out[at] = format!("{ply}x");
        }
        Slip::WrongEnd => {
            let (row, col, rest) = start_of(ply)?;
            (!rest.contains('-')).then_some(())?;
            let end = format!(
                "{}{}",
                row_letter(rng.below(rows as usize) as u8),
                1 + rng.below(rules.board().cols() as usize)
            );
            let (mid, tail) = rest.split_at(rest.find('x').unwrap_or(rest.len()));
            out[at] = format!("{row}{col}{mid}-{end}{tail}");
        }
        Slip::Checkpoint => {
            let mut full = ReplayOptions::full();
            full.keep_positions = true;
            let parsed = pmn::parse_str(&record_text(rules, plies, &result)).remove(0);
            let trace = replay(&parsed, &full);
            let after = trace.plies.get(at)?.after.as_ref()?;
            let [s, n] = if rules.game() == Game::Kiothi {
                [after.prisons()[0] as u32, after.prisons()[1] as u32]
            } else {
                [after.stones_of(Side::South), after.stones_of(Side::North)]
            };
            let off = 1 + rng.below(3) as u32;
            let (s, n) = match rng.below(4) {
                0 => (s + off, n),
                1 => (s, n + off),
                2 if s >= off => (s - off, n),
                _ if n >= off => (s, n - off),
                _ => (s + off, n),
            };
            out[at] = format!("{ply} {{[%stones {s} {n}]}}");
        }
        Slip::Result => {
            let others: Vec<&str> = ["1-0", "0-1", "1/2-1/2"]
                .into_iter()
                .filter(|r| *r != result)
                .collect();
            (result != "*").then_some(())?;
            result = others[rng.below(others.len())].to_string();
        }
        Slip::BonusCount => {
            (rules.game() == Game::Nsolo).then_some(())?;
            let x = ply.find('x')?;
            let colon = x + ply[x..].find(':')?;
            let digits = ply[colon + 1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let n: u32 = ply[colon + 1..colon + 1 + digits].parse().ok()?;
            let m = if n > 1 && rng.coin() { n - 1 } else { n + 1 };
            out[at] = format!("{}{m}{}", &ply[..=colon], &ply[colon + 1 + digits..]);
        }
        Slip::BonusPitSet => {
            (rules.game() != Game::Kiothi).then_some(())?;
            let x = ply.find('x')?;
            let list = &ply[x + 1..];
            let first = list.split(',').next().filter(|p| !p.is_empty())?;
            let (pit, count) = first.split_at(first.find(':').unwrap_or(first.len()));
            let (row, col, _) = start_of(pit)?;
            let c: u8 = col.parse().ok()?;
            let other = if c > 1 && rng.coin() { c - 1 } else { c + 1 };
            (other <= rules.board().cols()).then_some(())?;
            out[at] = format!("{}{row}{other}{count}{}", &ply[..=x], &list[first.len()..]);
        }
        Slip::StraySpace => {
            let (row, col, rest) = start_of(ply)?;
            out[at] = format!("{row} {col}{rest}");
        }
        Slip::StrayPunct => {
            out[at] = format!("{ply}{}", if rng.coin() { "." } else { "," });
        }
        Slip::Confusable => {
            let (row, col, rest) = start_of(ply)?;
            let i = col.find(['1', '0', '5'])?;
            let d = col.as_bytes()[i];
            let glyph = match d {
                b'1' if rng.coin() => 'l',
                b'1' => 'I',
                b'0' => 'O',
                _ => 'S',
            };
            out[at] = format!("{row}{}{glyph}{}{rest}", &col[..i], &col[i + 1..]);
        }
        Slip::Digits => {
            let (row, col, rest) = start_of(ply)?;
            let b = col.as_bytes();
            let wrong = match b.len() {
                2 if b[0] != b[1] => format!("{}{}", b[1] as char, b[0] as char),
                2 => format!("{}", b[0] as char),
                _ => format!("{col}{col}"),
            };
            out[at] = format!("{row}{wrong}{rest}");
        }
        Slip::WrongSide => {
            let (row, col, rest) = start_of(ply)?;
            let mirrored = row_letter(rows - 1 - (row as u8 - b'a'));
            out[at] = format!("{mirrored}{col}{rest}");
        }
        // Made in the text, where the move numbers are (see `number_slip`).
        Slip::MoveNumber => return None,
        Slip::Two => {
            let simple = [
                Slip::WrongRow,
                Slip::MisreadStart,
                Slip::StrayX,
                Slip::WrongEnd,
            ];
            let second_at = at + 2 + rng.below(4);
            (second_at < plies.len()).then_some(())?;
            let (once, _) = slip_at(simple[rng.below(4)], rules, plies, &result, at, rng)?;
            let (twice, _) = slip_at(simple[rng.below(4)], rules, &once, &result, second_at, rng)?;
            out = twice;
        }
    }
    Some((out, result))
}

/// A record with one slip of the kind, from game `seed` of the config `seed % n`;
/// `None` when the slip does not apply to that game, or left a record that validates.
pub fn corrupt(seed: u64, slip: Slip) -> Option<Corrupted> {
    let configs = configs();
    let rules = configs[seed as usize % configs.len()].clone();
    let mut rng = Rng::new(seed);
    // Finished games, mostly: a result can be wrong only when the game is over.
    let (plies, result) = play_game(&rules, Player::Random, &mut rng, 200);
    if plies.len() < 8 {
        return None;
    }
    let original = record_text(&rules, &plies, result);
    // A few tries at random plies, then every ply in turn: some kinds apply to few.
    let random: Vec<usize> = (0..12).map(|_| 2 + rng.below(plies.len() - 4)).collect();
    for at in random.into_iter().chain(2..plies.len() - 2) {
        let text = if slip == Slip::MoveNumber {
            let Some(text) = number_slip(&original, at, &mut rng) else {
                continue;
            };
            text
        } else {
            let Some((bad, bad_result)) = slip_at(slip, &rules, &plies, result, at, &mut rng)
            else {
                continue;
            };
            record_text(&rules, &bad, &bad_result)
        };
        let parsed = pmn::parse_str(&text);
        if parsed.len() != 1 || !needs_repair(&replay(&parsed[0], &ReplayOptions::validate())) {
            continue; // the slip gave another record that validates
        }
        return Some(Corrupted {
            slip,
            rules,
            original,
            text,
        });
    }
    None
}

/// The text with the move number before ply `at` (0-based; South's, as only South's
/// plies are numbered in a generated record) written out of step: one off, or its
/// digits transposed or doubled.
fn number_slip(text: &str, at: usize, rng: &mut Rng) -> Option<String> {
    at.is_multiple_of(2).then_some(())?;
    let n = at / 2 + 1;
    let right = format!(" {n}. ");
    let digits = n.to_string();
    let wrong = match rng.below(3) {
        0 => n + 1,
        1 if n > 1 => n - 1,
        _ if digits.len() == 2 && digits.as_bytes()[0] != digits.as_bytes()[1] => {
            digits.chars().rev().collect::<String>().parse().ok()?
        }
        _ => format!("{digits}{}", &digits[digits.len() - 1..])
            .parse()
            .ok()?,
    };
    let moves = text.find("\n\n")?;
    let i = moves + text[moves..].find(&right)?;
    Some(format!(
        "{} {wrong}. {}",
        &text[..i],
        &text[i + right.len()..]
    ))
}

/// Whether a replay shows something to repair: an error, or a move number out of step.
pub fn needs_repair(trace: &sow::replay::Trace) -> bool {
    !trace.is_valid() || trace.diagnostics.iter().any(|d| d.code == "move-number")
}

/// The moves a record replays, each bonus in the order of its pits (a bonus is the same
/// whatever order its pits are written in), and whether it replays without an error.
pub fn moves_of(text: &str) -> (Vec<sow::Move>, bool) {
    let games = pmn::parse_str(text);
    let Some(game) = games.first().filter(|_| games.len() == 1) else {
        return (Vec::new(), false);
    };
    let trace = replay(game, &ReplayOptions::full());
    let moves = (trace.plies.iter())
        .map(|p| {
            let mut mv = p.mv.clone();
            if let sow::Move::Sow(s) = &mut mv {
                s.bonus.sort_by_key(|b| b.pit);
            }
            mv
        })
        .collect();
    (moves, trace.is_valid())
}

/// Where among the suggestions for a corrupted record the first true one is (from 0):
/// one that, applied as `sow repair` applies it, gives a record that validates and
/// replays the moves as played (the true edit, or one equivalent to it). Also the plies
/// the search replayed.
pub fn judge(c: &Corrupted, bounds: &sow::repair::RepairOptions) -> Option<usize> {
    let options = ReplayOptions::validate();
    let game = pmn::parse_str(&c.text).remove(0);
    let trace = replay(&game, &options);
    let found = sow::repair::suggest(&game, &trace, &options, bounds);
    let (truth, _) = moves_of(&c.original);
    found.fixes.iter().position(|fix| {
        let fixed = sow::repair::fixed_text(&game, fix);
        let (moves, valid) = moves_of(&fixed);
        valid && moves == truth && !numbers_out_of_step(&fixed)
    })
}

/// Whether a record has a move number out of step.
fn numbers_out_of_step(text: &str) -> bool {
    pmn::parse_str(text).iter().any(|game| {
        (replay(game, &ReplayOptions::validate()).diagnostics.iter())
            .any(|d| d.code == "move-number")
    })
}

/// The corrupted records: slips in turn, games by seed, `n` in all.
pub fn corpus(n: usize) -> Vec<Corrupted> {
    let mut out = Vec::new();
    let mut seed = 0u64;
    while out.len() < n {
        // Slips in turn, and (as 20 and the 11 configurations share no factor) each
        // slip over every configuration.
        let batch: Vec<_> = (seed..seed + 64)
            .into_par_iter()
            .filter_map(|s| corrupt(s, Slip::ALL[s as usize % Slip::ALL.len()]))
            .collect();
        out.extend(batch);
        seed += 64;
    }
    out.truncate(n);
    out
}

/// `k` corrupted records of each slip.
pub fn each_slip(k: usize) -> Vec<Corrupted> {
    let n = Slip::ALL.len() as u64;
    Slip::ALL
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, &slip)| {
            (0..400u64)
                .filter_map(move |j| corrupt(i as u64 + n * j, slip))
                .take(k)
        })
        .collect()
}

/// Top-1 and top-3 counts per slip, printed as a table; returns them.
pub fn measure(records: Vec<Corrupted>) -> BTreeMap<Slip, (usize, usize, usize)> {
    let bounds = sow::repair::RepairOptions::default();
    let judged: Vec<(Slip, Option<usize>)> = records
        .par_iter()
        .map(|c| (c.slip, judge(c, &bounds)))
        .collect();
    let mut table: BTreeMap<Slip, (usize, usize, usize)> = BTreeMap::new();
    for (slip, at) in judged {
        let row = table.entry(slip).or_default();
        row.0 += 1;
        row.1 += (at == Some(0)) as usize;
        row.2 += at.is_some_and(|i| i < 3) as usize;
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    println!("| slip | records | top-1 | top-3 |");
    println!("|---|---:|---:|---:|");
    let (mut n, mut one, mut three) = (0, 0, 0);
    for (slip, (t, a, b)) in &table {
        println!(
            "| {slip:?} | {t} | {:.1}% | {:.1}% |",
            pct(*a, *t),
            pct(*b, *t)
        );
        (n, one, three) = (n + t, one + a, three + b);
    }
    println!(
        "| all | {n} | {:.1}% | {:.1}% |",
        pct(one, n),
        pct(three, n)
    );
    table
}
