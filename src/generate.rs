//! `sow generate`: complete games played by simple players, written as PMN.
//!
//! Deterministic for a seed: the same command line gives the same bytes on every
//! machine. Every game says in its `Source` tag that it was generated, and how.

use std::fmt::Write;
use std::io;
use std::path::Path;

use crate::error::CommandError;
use crate::games;
use crate::moves::{BonusChoice, BonusTake, Candidate, Effect, Mode, Move};
use crate::notation::ply_of;
use crate::play::GameState;
use crate::pmn::{self, Element, GameResult, Ply, PlySyntax, Record, ResultToken, Tag};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{Game, Rules};
use crate::Board;

/// How the players of a generated game choose their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A legal move at random.
    Random,
    /// A legal move that takes the most stones, ties broken at random.
    Greedy,
}

impl Player {
    /// The player's name, as `--player` and the `Source` tag write it.
    pub fn name(self) -> &'static str {
        match self {
            Player::Random => "random",
            Player::Greedy => "greedy",
        }
    }
}

/// What `sow generate` plays: the rule set as the command line names it, how many
/// games, from which seed, by which player, and at most how many plies a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// The game's tag name, e.g. `Tsoro`.
    pub game: String,
    /// The board, e.g. `4x12`; the game's own when `None`.
    pub board: Option<String>,
    /// Rule options as in a `Rules` tag.
    pub rules: String,
    /// How many games.
    pub games: usize,
    /// The seed: the same seed gives the same games.
    pub seed: u64,
    /// How the players choose.
    pub player: Player,
    /// A game stops after this many plies, its result then `*`.
    pub max_plies: u32,
}

/// Completes a candidate's bonus greedily: the fullest eligible pits first.
fn greedy_bonus(c: &Candidate) -> Move {
    let mut mv = c.mv.clone();
    let Move::Sow(s) = &mut mv else {
        return mv;
    };
    match &c.bonus {
        BonusChoice::Pits { count, eligible } => {
            // `eligible` has no counts; the caller orders them by stones.
            s.bonus = eligible
                .iter()
                .take(*count)
                .map(|&pit| BonusTake { pit, stones: None })
                .collect();
        }
        BonusChoice::Stones { stones, eligible } => {
            s.bonus = crate::moves::fullest_first(*stones, eligible);
        }
        BonusChoice::None | BonusChoice::Redistribution { .. } => {}
    }
    mv
}

/// The greedy player's move: among the legal moves, one that takes the most stones
/// (ties broken at random); falls back to a random move when none is listed whole.
fn greedy_move(state: &GameState, rng: &mut Rng) -> Option<Move> {
    let pos = state.position();
    let mut candidates: Vec<Candidate> = state
        .legal_moves()
        .iter()
        .flat_map(Candidate::each)
        .collect();
    // Order pit-bonus choices by stones so that `greedy_bonus` takes the fullest.
    for c in &mut candidates {
        if let BonusChoice::Pits { eligible, .. } = &mut c.bonus {
            eligible.sort_by(|a, b| pos.stones(*b).cmp(&pos.stones(*a)).then(a.cmp(b)));
        }
        if let BonusChoice::Redistribution { .. } = c.bonus {
            return None;
        }
    }
    let mut best: Vec<(u32, Move)> = Vec::new();
    let mut effect = Effect::default();
    for c in &candidates {
        let mv = greedy_bonus(c);
        let mut p = pos.clone();
        if games::apply(state.rules(), &mut p, &mv, Mode::Legal, &mut effect).is_err() {
            continue;
        }
        let taken = effect.stones_taken() + effect.prison_gain as u32;
        match best.first() {
            Some((b, _)) if taken < *b => {}
            Some((b, _)) if taken == *b => best.push((taken, mv)),
            _ => best = vec![(taken, mv)],
        }
    }
    if best.is_empty() {
        return None;
    }
    let k = rng.below(best.len());
    Some(best.swap_remove(k).1)
}

/// Plays one game; returns its plies and its result (`*` when unfinished).
pub fn play_game(
    rules: &Rules,
    player: Player,
    rng: &mut Rng,
    max_plies: u32,
) -> (Vec<PlySyntax>, GameResult) {
    let mut state = GameState::new(rules.clone(), Position::initial(rules));
    let mut effect = Effect::default();
    let mut plies = Vec::new();
    while state.plies() < max_plies {
        let chosen = match player {
            Player::Greedy => greedy_move(&state, rng),
            Player::Random => None,
        };
        let played = match chosen {
            Some(mv) => state
                .play_into(&mv, Mode::Legal, &mut effect)
                .ok()
                .map(|_| mv),
            None => state.play_random(rng, &mut effect),
        };
        let Some(mv) = played else { break };
        plies.push(ply_of(&mv, &effect));
    }
    let result = match state.outcome() {
        Some(o) => GameResult::from_text(o.result_token()).expect("an outcome's result token"),
        None => GameResult::Unknown,
    };
    (plies, result)
}

/// The record of a game from South's first ply: its tags, its plies and its result.
pub fn record(tags: &[(&'static str, String)], plies: &[PlySyntax], result: GameResult) -> Record {
    Record {
        tags: (tags.iter())
            .map(|(name, value)| Tag::new(*name, value.as_str()))
            .collect(),
        moves: (plies.iter())
            .map(|syntax| {
                Element::Ply(Ply {
                    syntax: syntax.clone(),
                    suffix: None,
                    span: Default::default(),
                })
            })
            .collect(),
        result: Some(ResultToken {
            result,
            span: Default::default(),
        }),
    }
}

/// Runs `sow generate`.
pub fn run(args: &GenerateOptions) -> Result<String, CommandError> {
    let rules = rules_of(args)?;
    let mut out = Vec::new();
    write_games(args, &rules, &mut out, Path::new("<memory>"))?;
    Ok(String::from_utf8(out).expect("games are written as UTF-8"))
}

/// The rules `--game`, `--board` and `--rules` name: checked before any output is
/// opened, so that a usage error is not hidden by a problem of the output.
pub fn rules_of(args: &GenerateOptions) -> Result<Rules, CommandError> {
    let game = Game::from_name(&args.game).ok_or_else(|| {
        CommandError::Usage(format!(
            "unknown game {:?}; expected one of Tsoro, Nsolo, Kiothi, BaoLaKimasai",
            args.game
        ))
    })?;
    let board = match &args.board {
        None => None,
        Some(b) => Some(Board::parse(b).ok_or_else(|| {
            CommandError::Usage(format!("board {b:?} is not of the form 4xN or 2x10"))
        })?),
    };
    Rules::new(game, board, &args.rules).map_err(|e| CommandError::Usage(e.to_string()))
}

/// [`run`] under the [`rules_of`] the arguments, each game written to `out` as soon as
/// it is played (memory holds one game, however many are asked for); `out_name` names
/// `out` in messages.
pub fn write_games(
    args: &GenerateOptions,
    rules: &Rules,
    out: &mut dyn io::Write,
    out_name: &Path,
) -> Result<(), CommandError> {
    let game = rules.game();
    let player = args.player.name();
    for n in 1..=args.games {
        // Each game has its own stream, so game n is the same whatever --games says.
        let mut rng = Rng::new(args.seed ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let (plies, result) = play_game(rules, args.player, &mut rng, args.max_plies);
        let mut tags: Vec<(&str, String)> = vec![("Game", game.tag_name().to_string())];
        if rules.board() != game.default_board() {
            tags.push(("Board", rules.board().to_string()));
        }
        let options = rules.options_tag();
        if !options.is_empty() {
            tags.push(("Rules", options));
        }
        tags.push(("Event", "Generated games".into()));
        tags.push(("Round", n.to_string()));
        tags.push(("South", format!("sow {player} player")));
        tags.push(("North", format!("sow {player} player")));
        tags.push(("Result", result.as_str().to_string()));
        let mut command = format!(
            "sow generate --game {} --seed {} --player {player} --max-plies {}",
            game.tag_name(),
            args.seed,
            args.max_plies
        );
        if args.board.is_some() {
            // As the board was read, not as typed (a line break would break the tag).
            let _ = write!(command, " --board {}", rules.board());
        }
        // The options' words, one space apart: the tag is one line, whatever spaces
        // (line breaks too) the argument held.
        let words: Vec<&str> = args.rules.split_whitespace().collect();
        if !words.is_empty() {
            let _ = write!(command, " --rules \"{}\"", words.join(" "));
        }
        tags.push((
            "Source",
            format!("Generated by {command}, game {n}; not a historical game"),
        ));
        if result == GameResult::Unknown && plies.len() as u32 >= args.max_plies {
            tags.push(("Termination", "unfinished".into()));
        }
        let text = pmn::write_game(&record(&tags, &plies, result));
        let separator = if n > 1 { "\n" } else { "" };
        (out.write_all(separator.as_bytes()))
            .and_then(|()| out.write_all(text.as_bytes()))
            .map_err(|e| CommandError::io(out_name, e))?;
    }
    Ok(())
}
