//! Rules inference: the option values under which a record replays.

use serde::Serialize;

use crate::pmn::ParsedGame;
use crate::replay::{self, ReplayOptions};
use crate::rules::{parse_options, split_options, Game, Options};

/// How one combination of options fares on a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulesVerdict {
    /// The options, as a `Rules` tag writes them (every option named).
    pub options: String,
    /// Replays the whole record (checkpoints and result included).
    pub consistent: bool,
    /// The first ply that fails, if any.
    pub fails_at: Option<u32>,
    /// The options are the record's own.
    pub declared: bool,
}

/// Every value of each option that `sow --infer-rules` tries (RULES.md, "All options";
/// open-ended ones, `repeat` and graded bonus lists, by their usual values).
fn option_values(game: Game) -> Vec<(&'static str, Vec<&'static str>)> {
    match game {
        Game::Tsoro => vec![
            ("heads", vec!["2", "1", "0"]),
            ("bonus", vec!["2", "0", "1", "3", "4", "5", "5,3,2"]),
            ("head-bonus", vec!["no", "yes"]),
        ],
        Game::Nsolo => vec![
            ("bonus", vec!["equal", "hole", "none"]),
            ("sow", vec!["cw", "ccw"]),
            ("repeat", vec!["3", "2", "4", "5"]),
        ],
        Game::Kiothi => vec![
            ("start", vec!["5x6", "5x5", "6x5"]),
            ("leftmost", vec!["three", "chain"]),
        ],
        Game::BaoLaKimasai => vec![("repeat", vec!["2", "3", "4", "5"])],
    }
}

/// What rules inference found: a verdict for each combination tried, and, when its
/// bound stopped it before every combination was tried, what it had done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inference {
    pub verdicts: Vec<RulesVerdict>,
    pub stopped: Option<String>,
}

/// Replays a game under every combination of the options its `Rules` tag leaves open
/// (on its declared board), declared combination first, as long as the plies replayed
/// stay within `plies`: the bound is checked before each combination's replay (each of
/// its plies bounded by the lap budget).
pub fn infer_rules(game: &ParsedGame, options: &ReplayOptions, plies: u64) -> Inference {
    let record = &game.record;
    let Some(kind) = record.tag("Game").and_then(Game::from_tag) else {
        return Inference::default();
    };
    let Ok(mut fixed) = split_options(record.tag("Rules").unwrap_or("")) else {
        return Inference::default();
    };
    // An option given with --rules is fixed, as if written in the Rules tag.
    crate::rules::with_overrides(&mut fixed, &options.overrides);
    let declared = replay::rules_of(record, &options.overrides).ok();
    let open: Vec<(&str, Vec<&str>)> = option_values(kind)
        .into_iter()
        .filter(|(k, _)| !fixed.iter().any(|(f, _)| f == k))
        .collect();
    let mut combos: Vec<Vec<(String, String)>> = vec![fixed.clone()];
    for (key, values) in &open {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((key.to_string(), v.to_string()));
                    c
                })
            })
            .collect();
    }
    let lean = ReplayOptions {
        overrides: Vec::new(),
        ..options.quieted()
    };
    let mut verdicts = Vec::new();
    let (mut replayed, mut stopped) = (0u64, None);
    // A combination replays at most the plies written, and counts one more.
    let most = (game.record.moves.len() as u64).saturating_add(1);
    let total = combos.len();
    for (tried, combo) in combos.into_iter().enumerate() {
        if replayed.saturating_add(most) > plies {
            stopped = Some(format!(
                "the inference stopped after {replayed} plies replayed and {tried} of {total} combinations; others may be consistent"
            ));
            break;
        }
        let Ok(opts) = parse_options(kind, &combo) else {
            continue;
        };
        let run = ReplayOptions {
            overrides: combo.clone(),
            ..lean.clone()
        };
        let trace = replay::replay(game, &run);
        replayed += trace.played as u64 + 1;
        let rules_here = trace.rules.clone();
        let is_declared = match (&declared, &rules_here) {
            (Some(d), Some(r)) => d == r,
            _ => false,
        };
        verdicts.push(RulesVerdict {
            options: full_options(&opts),
            consistent: trace.complete && trace.is_valid(),
            fails_at: trace.first_error_ply(),
            declared: is_declared,
        });
    }
    verdicts.sort_by_key(|v| !v.declared);
    verdicts.dedup_by(|a, b| a.options == b.options);
    Inference { verdicts, stopped }
}

/// Every option of a set, named, in table order.
fn full_options(options: &Options) -> String {
    match options {
        Options::Tsoro(o) => {
            let heads = match o.heads {
                crate::rules::Heads::Two => 2,
                crate::rules::Heads::One => 1,
                crate::rules::Heads::Zero => 0,
            };
            let bonus: Vec<String> = o.bonus.iter().map(u8::to_string).collect();
            format!(
                "heads={heads} bonus={} head-bonus={}",
                bonus.join(","),
                if o.head_bonus { "yes" } else { "no" }
            )
        }
        Options::Nsolo(o) => format!(
            "bonus={} sow={} repeat={}",
            match o.bonus {
                crate::rules::NsoloBonus::Equal => "equal",
                crate::rules::NsoloBonus::Hole => "hole",
                crate::rules::NsoloBonus::None => "none",
            },
            match o.sow {
                crate::Direction::Clockwise => "cw",
                crate::Direction::CounterClockwise => "ccw",
            },
            o.repeat
        ),
        Options::Kiothi(o) => format!(
            "start={} leftmost={}",
            match o.start {
                crate::rules::KiothiStart::FiveBySix => "5x6",
                crate::rules::KiothiStart::FiveByFive => "5x5",
                crate::rules::KiothiStart::SixByFive => "6x5",
            },
            match o.leftmost {
                crate::rules::Leftmost::Three => "three",
                crate::rules::Leftmost::Chain => "chain",
            }
        ),
        Options::BaoLaKimasai(o) => format!("repeat={}", o.repeat),
    }
}

/// The verdicts in words, and when the bound stopped the inference, what it had done.
pub fn describe_inference(inference: &Inference) -> String {
    let mut text = describe_verdicts(&inference.verdicts);
    if let Some(stopped) = &inference.stopped {
        text.push_str("; ");
        text.push_str(stopped);
    }
    text
}

/// "consistent with: A; B (declared X fails at ply N)".
pub fn describe_verdicts(verdicts: &[RulesVerdict]) -> String {
    let consistent: Vec<&str> = verdicts
        .iter()
        .filter(|v| v.consistent)
        .map(|v| v.options.as_str())
        .collect();
    let mut text = if verdicts.is_empty() {
        "no combination of options could be tried (the game, board or Rules tag is not understood)"
            .to_string()
    } else if consistent.is_empty() {
        "consistent with no combination of options".to_string()
    } else {
        format!("consistent with: {}", consistent.join("; "))
    };
    if let Some(d) = verdicts.iter().find(|v| v.declared && !v.consistent) {
        match d.fails_at {
            Some(ply) => text.push_str(&format!(" (declared {} fails at ply {ply})", d.options)),
            None => text.push_str(&format!(" (declared {} fails)", d.options)),
        }
    }
    text
}
