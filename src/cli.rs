//! The `sow` command line: argument definitions (clap) and dispatch to the library.
//!
//! Kept in the library so that the man page and shell completions are generated from
//! the same definitions (`sow man`, `sow completions`). Exit status: 0 success, 1 some
//! game has an error (validate), 2 usage or input/output failure.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::corpus::{self, Filter, Input};
use crate::error::CommandError;
use crate::output::write_output;
use crate::repair::RepairOptions;
use crate::replay::ReplayOptions;
use crate::rules::{known_keys, parse_options, Game, RulesError};
use crate::validate;

/// Validate, convert and analyse records of mancala games (Tsoro, Nsolo, Kiothi,
/// Bao la Kimasai) written in PMN, the Portable Mancala Notation.
#[derive(Parser, Debug)]
#[command(name = "sow", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Replay every game and report every problem, with the line, column and ply.
    Validate(ValidateArgs),
    /// Print the position after a ply as a text board, a PMN Position string or SVG.
    Show(ShowArgs),
    /// Statistics as CSV, one row per ply or per game.
    Stats(StatsArgs),
    /// SVG plots: material over time, game lengths, laps, captures.
    Plot(PlotArgs),
    /// Convert records: PMN export form, JSON, CSV, long text, seat-relative numbering.
    Convert(ConvertArgs),
    /// Play complete games under any options and write them as PMN.
    Generate(GenerateArgs),
    /// One self-contained HTML page that replays the games, every problem at its ply.
    View(ViewArgs),
    /// Write a copy of a record with its games repaired, each change in a comment.
    Repair(RepairArgs),
    /// The opening tree: each next ply with its games, results and mean length.
    Tree(TreeArgs),
    /// Groups of games that are one game recorded twice; --keep writes one of each.
    Twins(TwinsArgs),
    /// Two transcriptions of one game aligned ply by ply, with where they part.
    Diff(DiffArgs),
    /// The games that match every criterion given: tags, a position, plies, events.
    Search(SearchArgs),
    /// Print shell completions for sow.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Write the man pages of sow and its subcommands into a folder.
    Man {
        /// The folder (created if missing), or `-` for standard output (the pages one
        /// after another).
        #[arg(long, short = 'o', default_value = "man")]
        out_dir: PathBuf,
        /// Replace pages that exist.
        #[arg(long)]
        force: bool,
    },
}

/// `sow repair`.
#[derive(Args, Debug)]
pub struct RepairArgs {
    /// The record (UTF-8 PMN); it is never changed.
    pub file: PathBuf,
    /// The copy to write, each repair recorded beside it as `{repaired: ...}`.
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Replace the output file if it exists (never an input).
    #[arg(long)]
    pub force: bool,
    /// Apply the RANK-th suggestion (as `validate --suggest` lists them) for the error at
    /// ply PLY (of game GAME, or of any game); repeatable. Without it a game is repaired
    /// only when its best suggestion replays completely and no other is ranked as high.
    #[arg(long, value_name = "[GAME:]PLY:RANK")]
    pub take: Vec<crate::repair::Take>,
    /// Rule options overriding the Rules tag, e.g. "bonus=1".
    #[arg(long, value_name = "OPTIONS")]
    pub rules: Vec<String>,
    /// How many plies before the first error an edit may touch.
    #[arg(long, value_name = "PLIES", default_value_t = 12)]
    pub suggest_window: usize,
    /// Stop each game's search once its candidates have replayed this many plies.
    #[arg(long, value_name = "PLIES", default_value_t = RepairOptions::PLIES)]
    pub suggest_plies: u64,
    /// The text one game may take: bytes, or a number with KiB, MiB or GiB (default
    /// 64MiB). A longer game is reported, and neither it nor the rest of its input is
    /// read.
    #[arg(long = "max-game-size", value_name = "SIZE", value_parser = parse_size)]
    pub max_game_size: Option<usize>,
    /// Laps one sowing may take before its ply is reported undecided (default 10000000).
    #[arg(long = "max-laps", value_name = "N")]
    pub max_laps: Option<u64>,
}

/// Paths and filters shared by the corpus commands.
#[derive(Args, Debug, Clone)]
pub struct CorpusArgs {
    /// Files (read whatever their extension) and folders (walked recursively for
    /// *.pmn); `-` reads standard input.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Only games of this game (the value of the Game tag), e.g. Tsoro.
    #[arg(long = "game", value_name = "NAME")]
    pub game_name: Option<String>,
    /// Only games with this tag value, e.g. --where Site=Mutoko (repeatable; all hold).
    /// Also TAG!=VALUE, TAG~REGEX (found anywhere in the value), and TAG<VALUE, TAG<=,
    /// TAG>, TAG>= (Date and *Date tags compared as dates, e.g. --where 'Date>=1964',
    /// others as numbers). A game without a Board tag has its game's default board.
    #[arg(long = "where", value_name = "TAG=VALUE")]
    pub wheres: Vec<String>,
    /// Override a rule option of every record, e.g. --rules bonus=1 (repeatable).
    #[arg(long = "rules", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
    /// Laps one sowing may take before its ply is reported undecided (default 10000000).
    #[arg(long = "max-laps", value_name = "N")]
    pub max_laps: Option<u64>,
    /// The text one game may take: bytes, or a number with KiB, MiB or GiB (default
    /// 64MiB). A longer game is reported, and neither it nor the rest of its input is
    /// read.
    #[arg(long = "max-game-size", value_name = "SIZE", value_parser = parse_size)]
    pub max_game_size: Option<usize>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValidateFormat {
    Human,
    Json,
}

#[derive(Args, Debug)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Output format: rustc-style reports, or JSON Lines (one object per diagnostic and
    /// per game).
    #[arg(long, value_enum, default_value_t = ValidateFormat::Human)]
    pub format: ValidateFormat,
    /// For each game with an error, search the single edits that repair it.
    #[arg(long)]
    pub suggest: bool,
    /// With --suggest: how many plies before the first error an edit may touch. A slip
    /// often shows as an error some plies later; a wider window finds earlier ones and
    /// searches longer.
    #[arg(long, value_name = "PLIES", default_value_t = 12, requires = "suggest")]
    pub suggest_window: usize,
    /// With --suggest: stop each game's search once its candidates have replayed this
    /// many plies (the report says when it stopped early); with --infer-rules, each
    /// game's inference likewise. A bound on the work, so the suggestions are the same on
    /// every machine.
    #[arg(long, value_name = "PLIES", default_value_t = RepairOptions::PLIES)]
    pub suggest_plies: u64,
    /// With --suggest: also stop each game's search after this many milliseconds. The
    /// suggestions then depend on the machine's speed.
    #[arg(long, value_name = "MS", requires = "suggest")]
    pub suggest_budget: Option<u64>,
    /// Replay each game under every combination of the options its Rules tag leaves
    /// open, and say which are consistent with it (within --suggest-plies plies
    /// replayed; the report says when it stopped early).
    #[arg(long)]
    pub infer_rules: bool,
    /// Worker threads (default: one per core; at most four a core).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Fail the run (exit status 1) when any warning is reported, as for an error: for
    /// a check over a corpus.
    #[arg(long)]
    pub deny_warnings: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShowFormat {
    Text,
    Pmn,
    Svg,
    /// A PDF diagram, the font embedded.
    Pdf,
    /// A PNG diagram at `--dpi`.
    Png,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The file.
    pub file: PathBuf,
    /// The game in the file (from 1).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// The ply after which to show the position (0: the start; default: the last ply
    /// replayed).
    #[arg(long)]
    pub ply: Option<usize>,
    /// The format (default: as the output's extension says, .svg, .pdf or .png;
    /// else text).
    #[arg(long, value_enum)]
    pub format: Option<ShowFormat>,
    /// The diagram's width at print (svg, pdf, png): single, double, slide or a length
    /// such as 84mm (default: sized to the board).
    #[arg(long)]
    pub width: Option<String>,
    /// The resolution of a PNG diagram, in dots per inch.
    #[arg(long, default_value_t = 300.0)]
    pub dpi: f64,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Override a rule option of the record (repeatable).
    #[arg(long = "rules", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
    /// The text one game may take: bytes, or a number with KiB, MiB or GiB (default
    /// 64MiB). A longer game is reported, and neither it nor the rest of its input is
    /// read.
    #[arg(long = "max-game-size", value_name = "SIZE", value_parser = parse_size)]
    pub max_game_size: Option<usize>,
    /// Laps one sowing may take before its ply is reported undecided (default 10000000).
    #[arg(long = "max-laps", value_name = "N")]
    pub max_laps: Option<u64>,
}

/// A clap value enum for a library's option enum of the same variants, and the map
/// from one to the other: the library knows no clap.
macro_rules! value_enum {
    ($name:ident => $lib:ty { $($(#[$doc:meta])* $variant:ident),* $(,)? }) => {
        #[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$doc])* $variant),*
        }

        impl From<$name> for $lib {
            fn from(v: $name) -> $lib {
                match v {
                    $($name::$variant => <$lib>::$variant),*
                }
            }
        }
    };
}

value_enum!(Per => crate::stats::Per { Ply, Game });

#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// One row per ply or per game.
    #[arg(long, value_enum, default_value_t = Per::Game)]
    pub per: Per,
    /// Write the CSV to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Also write `datapackage.json` beside the CSV (with -o): a Frictionless Data
    /// Package naming the columns and their types, for R and pandas.
    #[arg(long, requires = "output")]
    pub datapackage: bool,
}

value_enum!(PlotKind => crate::plot::PlotKind { Material, Length, Laps, Captures });

value_enum!(FigureFormat => crate::figure::Format { Svg, Pdf, Png });

#[derive(Args, Debug)]
pub struct PlotArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// The file to write: SVG, PDF or PNG, as its extension says.
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// What to plot.
    #[arg(long, value_enum, default_value_t = PlotKind::Material)]
    pub kind: PlotKind,
    #[command(flatten)]
    pub figure: FigureArgs,
    /// With several games, also draw every game faintly (material plots).
    #[arg(long)]
    pub every: bool,
    /// The title (default: made from the records; "" for none).
    #[arg(long)]
    pub title: Option<String>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// The output forms of `sow convert`: the library's text forms, and the database.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertTo {
    Pmn,
    Json,
    Jsonl,
    Csv,
    Long,
    Relative,
    Ludii,
    /// An SQLite database (schemas/sqlite.md), written to the file -o names: every game
    /// kept with its verdict, read by `sow search`.
    Sqlite,
}

impl ConvertTo {
    /// The text form, or `None` for the database.
    fn text_form(self) -> Option<crate::convert::ConvertTo> {
        use crate::convert::ConvertTo as To;
        Some(match self {
            ConvertTo::Pmn => To::Pmn,
            ConvertTo::Json => To::Json,
            ConvertTo::Jsonl => To::Jsonl,
            ConvertTo::Csv => To::Csv,
            ConvertTo::Long => To::Long,
            ConvertTo::Relative => To::Relative,
            ConvertTo::Ludii => To::Ludii,
            ConvertTo::Sqlite => return None,
        })
    }
}

/// The size and format of a figure.
#[derive(Args, Debug)]
pub struct FigureArgs {
    /// The width at print: single (84mm), double (174mm), slide (254mm), or a length
    /// (84mm, 8.4cm, 3.3in, 238pt; a bare number is in px, 96 an inch).
    #[arg(long, default_value = "single")]
    pub width: String,
    /// The height at print, a length (default: suited to the figure).
    #[arg(long)]
    pub height: Option<String>,
    /// The format (default: the output's extension; they must agree).
    #[arg(long, value_enum)]
    pub format: Option<FigureFormat>,
    /// The resolution of a PNG, in dots per inch.
    #[arg(long, default_value_t = 300.0)]
    pub dpi: f64,
}

impl FigureArgs {
    /// The print size: `None` for the height when it is left to the figure.
    fn size(&self) -> Result<(f64, Option<f64>), CommandError> {
        let size = crate::figure::PrintSize::parse(&self.width, self.height.as_deref())
            .map_err(CommandError::Usage)?;
        Ok((
            size.width_mm,
            self.height.is_some().then_some(size.height_mm),
        ))
    }

    /// The format of the output, checked against `--format`.
    fn format(&self, output: Option<&Path>) -> Result<crate::figure::Format, CommandError> {
        crate::figure::Format::choose(output, self.format.map(Into::into))
            .map_err(CommandError::Usage)
    }
}

value_enum!(ConvertFrom => crate::convert::ConvertFrom {
    Pmn,
    Relative,
    Ludii,
    /// The `json` or `jsonl` output of `sow convert` (or bare records in PMN's JSON form).
    Json,
});

/// Folders given to `sow convert` are walked for the files of the `--from` form.
const CONVERT_PATHS_HELP: &str = "Files (read whatever their extension) and folders, walked recursively for the files of the --from form (of every form without it): *.pmn (pmn, relative), *.json and *.jsonl (json), *.ludii (ludii); `-` reads standard input";

#[derive(Args, Debug)]
#[command(mut_arg("paths", |a| a.help(CONVERT_PATHS_HELP)))]
pub struct ConvertArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// The output form.
    #[arg(long, value_enum)]
    pub to: ConvertTo,
    /// The input's form: PMN, PMN with seat-relative numbers, a Ludii move list, or JSON.
    /// A folder is walked for the files of this form (see PATHS). Default: each file's
    /// own, by its extension (.pmn, .json, .jsonl, .ludii), else by its content.
    #[arg(long, value_enum)]
    pub from: Option<ConvertFrom>,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Keep games with errors, written so that they fail where the input fails (pmn,
    /// relative, json, jsonl), instead of leaving them out (exit status 1).
    #[arg(long)]
    pub keep_broken: bool,
    /// jsonl: write each game's move text as a syntax tree (`moves`: every ply, move
    /// number, comment and NAG an object) and each ply's effect (`replay.plies`), some
    /// 25 times the input. Without it (or --positions) a line holds the move text as PMN
    /// text (`movetext`, as --to pmn writes it: comments, NAGs, variations, commands and
    /// the result included) and the count of plies replayed, about 1.5 times the input.
    #[arg(long)]
    pub plies: bool,
    /// jsonl: as --plies, and also the position after every ply and every ply's laps,
    /// as json writes them (some 20 to 60 times the input). Without it a line holds the
    /// position after the last ply only (`replay.last`).
    #[arg(long)]
    pub positions: bool,
}

#[derive(Args, Debug)]
pub struct ViewArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// The HTML file to write (`-`: standard output).
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Search no repairs for the games with an error (by default each is searched as
    /// `sow validate --suggest` searches, within the same bounds).
    #[arg(long)]
    pub no_suggest: bool,
    /// Plies of a game's main line its variations may replay in all: each variation is
    /// replayed from the game's start, so one after ply 100 replays 99 before its own.
    /// Those past it are shown but not replayed, and said so.
    #[arg(long, value_name = "N", default_value_t = crate::view::DEFAULT_VARIATION_PLIES)]
    pub max_variation_plies: u64,
    /// Text of a game its variations may read again in all, each the text before the
    /// ply it replaces (comments included): bytes, or a number with KiB, MiB or GiB
    /// (default 256MiB). Those past it are shown but not replayed, and said so.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_variation_text: Option<usize>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

value_enum!(Player => crate::generate::Player { Random, Greedy });

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The game: Tsoro, Nsolo, Kiothi or BaoLaKimasai.
    #[arg(long)]
    pub game: String,
    /// The board, e.g. 4x12 (default: the game's).
    #[arg(long)]
    pub board: Option<String>,
    /// Rule options as in a Rules tag, e.g. "bonus=1 heads=2".
    #[arg(long, default_value = "")]
    pub rules: String,
    /// How many games.
    #[arg(long, default_value_t = 1)]
    pub games: usize,
    /// The seed: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How the players choose: at random, or the move that captures most.
    #[arg(long, value_enum, default_value_t = Player::Random)]
    pub player: Player,
    /// Stop a game after this many plies (its result is then `*`).
    #[arg(long, default_value_t = 1000)]
    pub max_plies: u32,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

impl GenerateArgs {
    /// What the library plays for these arguments.
    pub fn options(&self) -> crate::generate::GenerateOptions {
        crate::generate::GenerateOptions {
            game: self.game.clone(),
            board: self.board.clone(),
            rules: self.rules.clone(),
            games: self.games,
            seed: self.seed,
            player: self.player.into(),
            max_plies: self.max_plies,
        }
    }
}

value_enum!(TreeFormat => crate::tree::TreeFormat { Text, Csv, Html });

#[derive(Args, Debug)]
pub struct TreeArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// The root: a PMN Position string, e.g. "2,2,2,2/0,0,0,0/0,0,0,0/2,2,2,2 S"
    /// (default: the start position). Each game counts from the first time it reaches it.
    #[arg(long, value_name = "POSITION")]
    pub from: Option<String>,
    /// Plies below the root.
    #[arg(long, default_value_t = crate::tree::TreeOptions::DEPTH)]
    pub depth: usize,
    /// Leave out the plies fewer games than this play from their position.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_games: u64,
    /// Indented text, tidy CSV (a row a ply, with its text and its game count as
    /// columns of their own), or an HTML page in the style of `sow view`'s.
    #[arg(long, value_enum, default_value_t = TreeFormat::Text)]
    pub format: TreeFormat,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

value_enum!(KeepTwin => crate::twins::Keep { Longest, Valid, First });

#[derive(Args, Debug)]
pub struct TwinsArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Plies (changed, inserted or deleted) two records of one game may differ by once
    /// aligned.
    #[arg(long, value_name = "K", default_value_t = crate::twins::TwinOptions::MAX_DIFF)]
    pub max_diff: usize,
    /// Plies the shorter of two twins has at least: shorter games are not compared (a
    /// few plies alike are no evidence of one game). At least 2 × K + 1.
    #[arg(long, value_name = "N", default_value_t = crate::twins::TwinOptions::MIN_PLIES)]
    pub min_plies: usize,
    /// With -o: which game of a group is written: the longest, a valid one (the
    /// longest of those), or the first.
    #[arg(long, value_enum, default_value_t = KeepTwin::Longest)]
    pub keep: KeepTwin,
    /// Write the games (PMN export form), one of each group, to this file; the report
    /// marks the games kept and dropped.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// The report: text, or JSON Lines (a line a group, then a summary).
    #[arg(long, value_enum, default_value_t = ValidateFormat::Human)]
    pub format: ValidateFormat,
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The first record (`FILE` or `FILE:K` for its game K).
    pub a: PathBuf,
    /// The second record (`FILE` or `FILE:K`).
    pub b: PathBuf,
    /// The game of A, from 1 (default 1).
    #[arg(long, value_name = "K")]
    pub game_a: Option<usize>,
    /// The game of B, from 1 (default 1).
    #[arg(long, value_name = "K")]
    pub game_b: Option<usize>,
    /// Text, or JSON Lines (a line for each game, each ply written otherwise and each
    /// differing tag, then a summary).
    #[arg(long, value_enum, default_value_t = ValidateFormat::Human)]
    pub format: ValidateFormat,
    /// Override a rule option of both records (repeatable).
    #[arg(long = "rules", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
    /// The text one game may take: bytes, or a number with KiB, MiB or GiB (default
    /// 64MiB). A longer game is reported, and neither it nor the rest of its input is
    /// read.
    #[arg(long = "max-game-size", value_name = "SIZE", value_parser = parse_size)]
    pub max_game_size: Option<usize>,
}

/// Parses a size: a number of bytes, or a number (a fraction allowed) and a unit, `KiB`,
/// `MiB`, `GiB` or `TiB` (1024 each), or `kB`, `MB`, `GB`, `TB` (1000 each), `B` for
/// bytes; case aside, a space allowed between.
fn parse_size(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kib" => 1024.0,
        "m" | "mib" => 1024.0 * 1024.0,
        "g" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tib" => 1024.0f64.powi(4),
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        other => {
            return Err(format!(
                "{other:?} is not a unit of size (KiB, MiB, GiB, ...)"
            ))
        }
    };
    let number: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size, such as 64MiB"))?;
    let bytes = (number * scale).round();
    if !(1.0..=usize::MAX as f64).contains(&bytes) {
        return Err(format!("{text:?} is not a size from 1 byte up"));
    }
    Ok(bytes as usize)
}

/// Parses `KEY=VALUE` rule overrides. An option no game has, or a value no game that
/// has the option allows, is a usage error (found before any record is read); one that
/// only some games of a corpus have is reported on each record it does not fit.
fn overrides(rules: &[String]) -> Result<Vec<(String, String)>, CommandError> {
    let pairs: Vec<(String, String)> = rules
        .iter()
        .flat_map(|r| r.split_whitespace())
        .map(|kv| {
            kv.split_once('=')
                .filter(|(k, v)| !k.is_empty() && !v.is_empty())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| {
                    CommandError::Usage(format!("--rules takes KEY=VALUE, found {kv:?}"))
                })
        })
        .collect::<Result<_, _>>()?;
    for pair in &pairs {
        let (key, value) = pair;
        let tried = Game::ALL.map(|game| parse_options(game, std::slice::from_ref(pair)));
        if tried.iter().any(Result::is_ok) {
            continue;
        }
        let bad_value = tried.into_iter().find_map(|r| match r {
            Err(e @ RulesError::BadValue { .. }) => Some(e.to_string()),
            _ => None,
        });
        let why = bad_value.unwrap_or_else(|| {
            let known: Vec<String> = (Game::ALL.iter())
                .map(|&g| format!("{g}: {}", known_keys(g)))
                .collect();
            format!("no game has the option {key:?} ({})", known.join("; "))
        });
        return Err(CommandError::Usage(format!("--rules {key}={value}: {why}")));
    }
    Ok(pairs)
}

/// The name of an output in a message: its path, or `<stdout>`.
fn output_name(path: Option<&Path>) -> PathBuf {
    match path {
        Some(p) if p.as_os_str() != "-" => p.to_path_buf(),
        _ => PathBuf::from("<stdout>"),
    }
}

/// A streamed output's failure as the command's: the output's own (named `name`), or
/// the command's.
fn stream_failure(e: crate::output::StreamError<CommandError>, name: &Path) -> CommandError {
    match e {
        crate::output::StreamError::Io(e) => CommandError::io(name, e),
        crate::output::StreamError::Write(e) => e,
    }
}

fn use_color() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && io::stdout().is_terminal()
}

/// Says on standard error that the filters passed no game, and what is nearest.
fn say_none_matched(filter: &Filter) {
    if let Some(note) = filter.none_matched() {
        say(note);
    }
}

/// Says a library's note on standard error, as `sow: NOTE`, its control characters
/// escaped.
fn say(note: String) {
    let _ = writeln!(io::stderr(), "sow: {}", crate::escape::escaped_owned(note));
}

/// Runs the command line; returns the exit status.
pub fn main() -> i32 {
    crate::output::remove_temporary_files_on_interrupt();
    let cli = Cli::parse();
    match run(cli) {
        Ok(status) => status,
        // The reader of the output stopped reading (`sow generate | head`): an output
        // failure, whose status says the work was not done, but nothing to report on
        // the terminal, as for the other tools of a pipe.
        Err(CommandError::Io { source, .. }) if source.kind() == io::ErrorKind::BrokenPipe => 2,
        Err(e) => {
            let _ = writeln!(
                io::stderr(),
                "sow: {}",
                crate::escape::escaped_owned(e.to_string())
            );
            2
        }
    }
}

/// The inputs of a corpus command. Unreadable paths are reported on stderr, and any
/// makes the command fail (hidden entries are only reported).
/// Folders are walked for the files whose extension is one of `extensions`.
pub fn corpus_inputs(
    args: &CorpusArgs,
    extensions: &[&str],
) -> Result<(Vec<Input>, Filter, ReplayOptions), CommandError> {
    let (inputs, skipped) = corpus::expand_for(&args.paths, extensions);
    let mut failed = false;
    for s in &skipped {
        let said = crate::escape::escaped_owned(format!("{}: {}", s.path, s.reason));
        let _ = writeln!(io::stderr(), "sow: {said}");
        failed |= s.error;
    }
    if failed && inputs.is_empty() {
        return Err(CommandError::Usage("no input could be read".into()));
    }
    // A table, figure or conversion that silently left an input out would mislead.
    if failed {
        let n = skipped.iter().filter(|s| s.error).count();
        return Err(CommandError::Unreadable(n));
    }
    let filter = Filter::new(args.game_name.clone(), &args.wheres).map_err(CommandError::Usage)?;
    let mut replay = ReplayOptions::full();
    replay.overrides = overrides(&args.rules)?;
    replay.max_laps = args.max_laps;
    replay.max_game_bytes = args.max_game_size;
    Ok((inputs, filter, replay))
}

fn run(cli: Cli) -> Result<i32, CommandError> {
    match cli.command {
        Command::Validate(args) => run_validate(args),
        Command::Show(args) => run_show(args),
        Command::Stats(args) => {
            // The package is refused before the table is written, not after.
            if let (true, false, Some(csv)) = (args.datapackage, args.force, &args.output) {
                let path = csv.with_file_name("datapackage.json");
                if path.exists() {
                    return Err(CommandError::Usage(format!(
                        "{} exists; --force replaces it",
                        path.display()
                    )));
                }
            }
            let (inputs, filter, replay) = corpus_inputs(&args.corpus, corpus::PMN_EXTENSIONS)?;
            // Rows are made a batch at a time and held, past 8 MB in a temporary file,
            // until the run succeeds: a per-ply table never sits in memory whole, and
            // a failed run writes nothing, to a file or to standard output.
            let name = output_name(args.output.as_deref());
            let written = crate::output::stream_whole_output(
                args.output.as_deref(),
                args.force,
                &inputs,
                |out| {
                    let per = args.per.into();
                    crate::stats::write_stats(&inputs, &filter, &replay, per, out, &mut say)
                },
            )
            .map_err(|e| stream_failure(e, &name));
            say_none_matched(&filter);
            written?;
            if let (true, Some(csv)) = (args.datapackage, &args.output) {
                let name = csv.file_name().map(|n| n.to_string_lossy().into_owned());
                let package = crate::stats::datapackage(args.per.into(), &name.unwrap_or_default());
                let path = csv.with_file_name("datapackage.json");
                write_output(Some(&path), args.force, &inputs, package.as_bytes())
                    .map_err(|e| CommandError::io(&path, e))?;
            }
            Ok(0)
        }
        Command::Plot(args) => {
            let format = args.figure.format(Some(&args.output))?;
            let (width_mm, height_mm) = args.figure.size()?;
            let (inputs, filter, replay) = corpus_inputs(&args.corpus, corpus::PMN_EXTENSIONS)?;
            let style = crate::plot::Style {
                width_mm,
                height_mm,
                title: args.title.clone(),
                every: args.every,
            };
            let kind = args.kind.into();
            let svg = crate::plot::run(&inputs, &filter, &replay, kind, &style, &mut say);
            say_none_matched(&filter);
            let bytes = crate::figure::encode(svg?, format, args.figure.dpi)
                .map_err(CommandError::Output)?;
            write_output(Some(&args.output), args.force, &inputs, &bytes)
                .map_err(|e| CommandError::io(&args.output, e))?;
            Ok(0)
        }
        Command::Convert(args) => {
            let Some(to) = args.to.text_form() else {
                return run_database(args);
            };
            let forms = crate::convert::Forms {
                from: args.from.map(Into::into),
                to,
                keep_broken: args.keep_broken,
                positions: args.positions,
                plies: args.plies,
            };
            let extensions = forms
                .from
                .map_or(crate::convert::EXTENSIONS, |f| f.extensions());
            let (inputs, filter, replay) = corpus_inputs(&args.corpus, extensions)?;
            // Written a game at a time, and only if the whole run succeeds.
            let name = output_name(args.output.as_deref());
            let mut left_out = 0;
            let written = crate::output::stream_whole_output(
                args.output.as_deref(),
                args.force,
                &inputs,
                |out| {
                    left_out = crate::convert::run(
                        &inputs, &filter, &replay, forms, out, &name, &mut say,
                    )?;
                    Ok(())
                },
            )
            .map_err(|e| stream_failure(e, &name));
            say_none_matched(&filter);
            written?;
            // A game left out is a game the output does not hold: the run did not do
            // all that was asked.
            Ok(i32::from(left_out > 0))
        }
        Command::Generate(args) => {
            // The arguments are checked before the output is opened; the games are
            // then written as they are played (a file whole or not at all, as always).
            let options = args.options();
            let rules = crate::generate::rules_of(&options)?;
            let name = output_name(args.output.as_deref());
            crate::output::stream_output(args.output.as_deref(), args.force, &[], |out| {
                crate::generate::write_games(&options, &rules, out, &name)
            })
            .map_err(|e| stream_failure(e, &name))?;
            Ok(0)
        }
        Command::View(args) => {
            let (inputs, filter, replay) = corpus_inputs(&args.corpus, corpus::PMN_EXTENSIONS)?;
            let name = output_name(Some(&args.output));
            crate::output::stream_whole_output(Some(&args.output), args.force, &inputs, |out| {
                let page = crate::view::PageOptions {
                    suggest: !args.no_suggest,
                    variation_plies: args.max_variation_plies,
                    variation_text: (args.max_variation_text.map(|b| b as u64))
                        .unwrap_or(crate::view::DEFAULT_VARIATION_TEXT),
                };
                crate::view::write_view(&inputs, &filter, &replay, &page, out, &mut say)
            })
            .map_err(|e| stream_failure(e, &name))?;
            Ok(0)
        }
        Command::Repair(args) => run_repair(args),
        Command::Tree(args) => run_tree(args),
        Command::Twins(args) => run_twins(args),
        Command::Diff(args) => run_diff(args),
        Command::Search(args) => run_search(args),
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            clap_complete::generate(shell, &mut cmd, "sow", &mut io::stdout());
            Ok(0)
        }
        Command::Man { out_dir, force } => {
            write_man_pages(&out_dir, force)?;
            Ok(0)
        }
    }
}

/// Writes `sow.1` and one page per subcommand (`sow-validate.1`, ...) into `dir`, or to
/// standard output when `dir` is `-`. Each page is an output file as any other: written
/// whole or not at all, and over an existing page only with `force` (without it, no page
/// is written if any exists).
pub fn write_man_pages(dir: &Path, force: bool) -> Result<(), CommandError> {
    // Built, each subcommand's synopsis names the command as typed (`sow validate`).
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let pages: Vec<clap_mangen::Man> = std::iter::once(cmd.clone())
        .chain(cmd.get_subcommands().cloned())
        .map(|page| clap_mangen::Man::new(page).source(concat!("sow ", env!("CARGO_PKG_VERSION"))))
        .collect();
    let paths: Vec<Option<PathBuf>> = pages
        .iter()
        .map(|page| (dir.as_os_str() != "-").then(|| dir.join(page.get_filename())))
        .collect();
    if let Some(dir) = paths.iter().flatten().next().and_then(|p| p.parent()) {
        std::fs::create_dir_all(dir).map_err(|e| CommandError::io(dir, e))?;
    }
    if let (false, Some(existing)) = (force, paths.iter().flatten().find(|p| p.exists())) {
        return Err(CommandError::Usage(format!(
            "{}: the page exists; no page written (use --force to replace them)",
            existing.display()
        )));
    }
    for (page, path) in pages.iter().zip(&paths) {
        crate::output::stream_output(path.as_deref(), force, &[], |out| page.render(out)).map_err(
            |(crate::output::StreamError::Io(e) | crate::output::StreamError::Write(e))| {
                CommandError::io(output_name(path.as_deref()), e)
            },
        )?;
    }
    Ok(())
}

/// `sow tree`.
fn run_tree(args: TreeArgs) -> Result<i32, CommandError> {
    let (inputs, filter, replay) = corpus_inputs(&args.corpus, corpus::PMN_EXTENSIONS)?;
    let options = crate::tree::TreeOptions {
        depth: args.depth,
        min_games: args.min_games,
        from: args.from.clone(),
        replay,
    };
    let forest = crate::tree::build(&inputs, &filter, &options);
    say_none_matched(&filter);
    let forest = forest?;
    for note in crate::tree::notes(&forest) {
        say(note);
    }
    let name = output_name(args.output.as_deref());
    crate::output::stream_whole_output(args.output.as_deref(), args.force, &inputs, |out| {
        crate::tree::write(&forest, &options, args.format.into(), out)
    })
    .map_err(|e| match e {
        crate::output::StreamError::Io(e) | crate::output::StreamError::Write(e) => {
            CommandError::io(&name, e)
        }
    })?;
    Ok(0)
}

/// `sow twins`: the report on standard output; with `-o`, the games kept.
fn run_twins(args: TwinsArgs) -> Result<i32, CommandError> {
    let (inputs, filter, replay) = corpus_inputs(&args.corpus, corpus::PMN_EXTENSIONS)?;
    let options = crate::twins::TwinOptions {
        max_diff: args.max_diff,
        min_plies: args.min_plies,
        keep: args.keep.into(),
        replay: ReplayOptions {
            diagnostics_only: true,
            ..replay
        },
    };
    options.check().map_err(CommandError::Usage)?;
    if args.output.is_some() && inputs.contains(&Input::Stdin) {
        return Err(CommandError::Usage(
            "sow twins -o reads its inputs twice, and standard input cannot be read twice".into(),
        ));
    }
    let twins = crate::twins::find(&inputs, &filter, &options);
    say_none_matched(&filter);
    let twins = twins?;
    let marked = args.output.is_some();
    if let Some(output) = &args.output {
        let dropped = twins.dropped();
        crate::output::stream_whole_output(Some(output), args.force, &inputs, |out| {
            crate::twins::write_kept(
                &inputs,
                &filter,
                &dropped,
                options.replay.max_game_bytes,
                out,
            )
        })
        .map_err(|e| stream_failure(e, output))?;
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match args.format {
        ValidateFormat::Human => crate::twins::write_human(&twins, marked, &mut out),
        ValidateFormat::Json => crate::twins::write_json(&twins, marked, &mut out),
    }
    .and_then(|()| out.flush())
    .map_err(|e| CommandError::io("<stdout>", e))?;
    Ok(0)
}

/// `sow diff`: exit status 0 when the records hold the same plies and tags, 1 when
/// they differ.
fn run_diff(args: DiffArgs) -> Result<i32, CommandError> {
    let mut options = ReplayOptions::full();
    options.overrides = overrides(&args.rules)?;
    let mut games = Vec::new();
    for (path, game) in [(&args.a, args.game_a), (&args.b, args.game_b)] {
        let (file, in_path) = crate::diff::split_game(path);
        if let (Some(k), Some(given)) = (in_path, game) {
            if k != given {
                return Err(CommandError::Usage(format!(
                    "{}: game {k} in the path, and {given} by --game-a/--game-b",
                    path.display()
                )));
            }
        }
        let number = in_path.or(game).unwrap_or(1);
        let input = match file.as_os_str() == "-" {
            true => Input::Stdin,
            false => Input::File(file),
        };
        let parsed = crate::diff::game_of(&input, number, args.max_game_size)?;
        games.push((input.name(), number, parsed));
    }
    let (a, b) = (&games[0], &games[1]);
    let comparison = crate::diff::compare(
        (a.0.as_str(), a.1, &a.2),
        (b.0.as_str(), b.1, &b.2),
        &options,
    );
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match args.format {
        ValidateFormat::Human => crate::diff::write_human(&comparison, &mut out),
        ValidateFormat::Json => crate::diff::write_json(&comparison, &mut out),
    }
    .and_then(|()| out.flush())
    .map_err(|e| CommandError::io("<stdout>", e))?;
    Ok(i32::from(!comparison.identical()))
}

/// `sow repair`: exit status 0 when every game is valid or repaired, 1 when a game
/// with an error was kept as it was.
fn run_repair(args: RepairArgs) -> Result<i32, CommandError> {
    let (inputs, _) = corpus::expand_for(std::slice::from_ref(&args.file), &[]);
    // The record is read whole, once its games are known to be within the limit of
    // one game's text and it is known to be text: memory stays bounded by the file,
    // and an endless input (`/dev/zero`) is refused.
    let mut games = (Input::File(args.file.clone()).games(args.max_game_size))
        .map_err(|e| CommandError::io(&args.file, e))?;
    let name = args.file.display().to_string();
    while let Some(game) = games.next_text() {
        if let Some(report) = game.read_failure(&name) {
            return Err(CommandError::Output(report));
        }
    }
    let bytes = std::fs::read(&args.file).map_err(|e| CommandError::io(&args.file, e))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        CommandError::Usage(format!(
            "{}: sow repair reads UTF-8 records only (sow convert --to pmn writes one)",
            args.file.display()
        ))
    })?;
    let mut replay = ReplayOptions::validate();
    replay.overrides = overrides(&args.rules)?;
    replay.max_laps = args.max_laps;
    let bounds = RepairOptions {
        window: args.suggest_window,
        plies: args.suggest_plies,
        ..RepairOptions::default()
    };
    let (fixed, done) = crate::repair::repair_text(&text, &args.take, &replay, &bounds);
    write_output(Some(&args.output), args.force, &inputs, fixed.as_bytes())
        .map_err(|e| CommandError::io(&args.output, e))?;
    let mut status = 0;
    let mut err = io::stderr().lock();
    for (i, d) in done.iter().enumerate() {
        use crate::repair::GameRepaired as G;
        let said = match d {
            G::Valid => continue,
            G::Repaired(edit) => format!("game {}: repaired: {edit}", i + 1),
            G::Kept(why) => {
                status = 1;
                format!("game {}: kept as it was: {why}", i + 1)
            }
        };
        let _ = writeln!(err, "sow: {}", crate::escape::escaped_owned(said));
    }
    Ok(status)
}

fn run_validate(args: ValidateArgs) -> Result<i32, CommandError> {
    if let Some(jobs) = args.jobs {
        // More threads than a few a core only cost: each is made, and waits. A slip of
        // the finger (`-j 5000`) is lowered, and said so.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let most = 4 * cores;
        if jobs > most {
            let _ = writeln!(
                io::stderr(),
                "sow: -j {jobs} is more than {most} (4 a core); {most} threads are used"
            );
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.clamp(1, most))
            .build_global()
            .map_err(|e| CommandError::Usage(e.to_string()))?;
    }
    let (inputs, skipped) = corpus::expand(&args.corpus.paths);
    let filter = Filter::new(args.corpus.game_name.clone(), &args.corpus.wheres)
        .map_err(CommandError::Usage)?;
    let mut replay = ReplayOptions::validate();
    replay.overrides = overrides(&args.corpus.rules)?;
    replay.max_laps = args.corpus.max_laps;
    replay.max_game_bytes = args.corpus.max_game_size;
    let settings = validate::Settings {
        replay,
        filter,
        suggest: args.suggest,
        repair: RepairOptions {
            window: args.suggest_window,
            plies: args.suggest_plies,
            budget: args.suggest_budget.map(Duration::from_millis),
            ..RepairOptions::default()
        },
        infer_rules: args.infer_rules,
    };
    let format = match args.format {
        ValidateFormat::Human => validate::Format::Human { color: use_color() },
        ValidateFormat::Json => validate::Format::Json,
    };
    let progress = (io::stderr().is_terminal() && inputs.len() >= 64).then(|| {
        let bar = indicatif::ProgressBar::new(inputs.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed}")
                .expect("the template is valid"),
        );
        bar
    });
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut done = |inputs: usize| {
        if let Some(bar) = &progress {
            bar.set_position(inputs as u64);
        }
    };
    let summary = validate::run(&inputs, &skipped, &settings, format, &mut out, &mut done)
        .map_err(|e| CommandError::io("<stdout>", e));
    say_none_matched(&settings.filter);
    let summary = summary?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    match format {
        validate::Format::Human { .. } => {
            writeln!(out, "{}", summary.line()).map_err(|e| CommandError::io("<stdout>", e))?
        }
        validate::Format::Json => {
            let mut obj = serde_json::to_value(summary).expect("a summary serializes");
            obj["kind"] = "summary".into();
            writeln!(out, "{obj}").map_err(|e| CommandError::io("<stdout>", e))?;
        }
    }
    out.flush().map_err(|e| CommandError::io("<stdout>", e))?;
    let status = validate::exit_status(&summary);
    Ok(if args.deny_warnings && summary.warnings > 0 {
        status.max(1)
    } else {
        status
    })
}

fn run_show(args: ShowArgs) -> Result<i32, CommandError> {
    let input = if args.file.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(args.file.clone())
    };
    let mut games =
        (input.games(args.max_game_size)).map_err(|e| CommandError::io(&args.file, e))?;
    if args.game == 0 {
        return Err(CommandError::Usage("games are numbered from 1".into()));
    }
    // The games before the one asked for are only cut, not parsed.
    let mut read = 0;
    let found = std::iter::from_fn(|| games.next_text())
        .inspect(|g| read += usize::from(g.is_game()))
        .nth(args.game - 1);
    drop(games);
    let Some(text) = found else {
        // How many there are, which is what a wrong number wants to know (the stand-in
        // of a file with no game is none).
        let file = args.file.display();
        return Err(CommandError::Usage(match read {
            0 => format!("{file} holds no game"),
            1 => format!("{file} has 1 game, not {}", args.game),
            n => format!("{file} has {n} games, not {}", args.game),
        }));
    };
    // Text of no tag, result or ply may stand for no game, as a parse tells (it holds
    // no ply, so its tree is small).
    let mut options = ReplayOptions::full();
    options.overrides = overrides(&args.rules)?;
    options.max_laps = args.max_laps;
    // The format: the output's extension names a figure's, which a --format given
    // must agree with.
    let figure_format = |f: ShowFormat| match f {
        ShowFormat::Svg => Some(crate::figure::Format::Svg),
        ShowFormat::Pdf => Some(crate::figure::Format::Pdf),
        ShowFormat::Png => Some(crate::figure::Format::Png),
        ShowFormat::Text | ShowFormat::Pmn => None,
    };
    let named = args
        .output
        .as_deref()
        .and_then(crate::figure::Format::of_path);
    let format = match (named, args.format) {
        (Some(named), Some(given)) if figure_format(given) != Some(named) => {
            return Err(CommandError::Usage(format!(
                "the output {} is named as {} but --format says {:?}",
                output_name(args.output.as_deref()).display(),
                named.name().to_uppercase(),
                given
            )))
        }
        (_, Some(given)) => given,
        (Some(crate::figure::Format::Svg), None) => ShowFormat::Svg,
        (Some(crate::figure::Format::Pdf), None) => ShowFormat::Pdf,
        (Some(crate::figure::Format::Png), None) => ShowFormat::Png,
        (None, None) => ShowFormat::Text,
    };
    let width_mm = match &args.width {
        None => None,
        Some(w) => Some(
            crate::figure::PrintSize::parse(w, Some("100mm"))
                .map_err(CommandError::Usage)?
                .width_mm,
        ),
    };
    // The game is replayed from its text, and only the ply asked for (the last, by
    // default) is kept: memory does not grow with the game.
    let mut replayer = crate::replay::Replayer::new();
    let mut replayed = 0;
    let mut kept: Option<crate::replay::PlyTrace> = None;
    let mut each = |_: &crate::rules::Rules, p: &crate::replay::PlyView<'_>| {
        replayed += 1;
        if args.ply.is_none_or(|n| n == replayed) {
            kept = Some(p.to_trace(&options));
        }
    };
    let every = |_: &crate::pmn::Record| true;
    let replay_text = replayer.replay_text_each(&text, &options, &every, Some(&mut each));
    let nothing = |r: &crate::pmn::Record| r.tags.is_empty() && r.result.is_none();
    let name = args.file.display().to_string();
    let drawn = match format {
        ShowFormat::Text => crate::show::ShowFormat::Text,
        ShowFormat::Pmn => crate::show::ShowFormat::Pmn,
        ShowFormat::Svg | ShowFormat::Pdf | ShowFormat::Png => crate::show::ShowFormat::Svg,
    };
    let shown = match replay_text {
        Some((record, trace)) if !(nothing(&record) && trace.plies_written == 0) => {
            crate::show::shown(
                &name,
                args.game,
                &trace,
                replayed,
                kept.as_ref(),
                args.ply,
                drawn,
                width_mm,
            )?
        }
        _ => {
            let parsed = text.parse();
            if parsed.is_no_game() {
                return Err(no_game(&input, &args.file, &parsed));
            }
            // A game of nothing but errors: the parse says them.
            crate::show::show(&name, args.game, &parsed, args.ply, drawn, &options)?
        }
    };
    if let Some(note) = shown.note {
        let _ = writeln!(io::stderr(), "sow: {}", crate::escape::escaped_owned(note));
    }
    let bytes = match figure_format(format) {
        Some(f) => crate::figure::encode(shown.text, f, args.dpi).map_err(CommandError::Output)?,
        None => shown.text.into_bytes(),
    };
    let inputs = std::slice::from_ref(&input);
    write_output(args.output.as_deref(), args.force, inputs, &bytes)
        .map_err(|e| CommandError::io(output_name(args.output.as_deref()), e))?;
    Ok(0)
}

/// Why `sow show` found no game to show: the input could not be read, or holds none.
fn no_game(input: &Input, file: &Path, parsed: &crate::pmn::ParsedGame) -> CommandError {
    let Some(p) = parsed.io_error() else {
        return CommandError::Usage(format!("{} holds no game", file.display()));
    };
    match p.message.strip_prefix("the input could not be read: ") {
        Some(why) => CommandError::io(file, io::Error::other(why.to_string())),
        // Not a failure of the system (a game past the limit): where it is.
        None => CommandError::Output(format!(
            "{}:{}:{}: {}",
            input.name(),
            p.span.line,
            p.span.column,
            p.message
        )),
    }
}

value_enum!(SearchFormat => crate::search::Format { Pmn, Json });

/// Folders given to `sow search` are walked for PMN files; a database is named as a file.
const SEARCH_PATHS_HELP: &str = "Files (read whatever their extension; an SQLite file written by `sow convert --to sqlite` is searched as a database) and folders, walked recursively for *.pmn; `-` reads standard input";

#[derive(Args, Debug)]
#[command(mut_arg("paths", |a| a.help(SEARCH_PATHS_HELP)))]
pub struct SearchArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// A position reached at some ply (0: before the first), exactly: a PMN Position
    /// string, e.g. "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 S" (repeatable;
    /// all must be reached).
    #[arg(long, value_name = "POSITION")]
    pub position: Vec<String>,
    /// A position reached at some ply, as a pattern: a Position string whose counts may
    /// be `?` (any), `>=n` or `<=n`; the side to move (and Kiothi's prisons) optional,
    /// e.g. "?,?,>=4,?/0,0,0,0/0,0,0,0/?,?,?,? N" (repeatable).
    #[arg(long, value_name = "PATTERN")]
    pub pattern: Vec<String>,
    /// The game opens with these plies, e.g. "a3 d10 a9" (a ply given in part, `a3`,
    /// matches the plies that begin so: `a3-a7`, `a3xb4`; move numbers are skipped).
    #[arg(long, value_name = "PLIES")]
    pub opening: Option<String>,
    /// These plies one after another, from any ply (as --opening).
    #[arg(long, value_name = "PLIES")]
    pub plies: Option<String>,
    /// A ply captures at least K stones (bonus not counted).
    #[arg(long, value_name = "K")]
    pub capture: Option<u32>,
    /// A ply's sowing relays over at least K laps.
    #[arg(long, value_name = "K")]
    pub relay: Option<u64>,
    /// A ply takes a bonus.
    #[arg(long)]
    pub bonus: bool,
    /// A ply is played under [%foul].
    #[arg(long)]
    pub foul: bool,
    /// The game ends in a repetition draw.
    #[arg(long)]
    pub repetition: bool,
    /// The replay stops at an error of this code (its first error), e.g. illegal-move.
    #[arg(long, value_name = "CODE")]
    pub error: Option<String>,
    /// The games in the PMN export form, or JSON Lines: one object a game matched, with
    /// its file, game, ply and what matched.
    #[arg(long, value_enum, default_value_t = SearchFormat::Pmn)]
    pub format: SearchFormat,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

impl SearchArgs {
    /// The criteria asked, besides the tags.
    pub fn query(&self) -> Result<crate::search::Query, CommandError> {
        use crate::search::PositionQuery;
        let mut positions: Vec<PositionQuery> = (self.position.iter())
            .map(|p| PositionQuery::exact(p))
            .collect::<Result<_, _>>()
            .map_err(CommandError::Usage)?;
        for p in &self.pattern {
            positions.push(PositionQuery::pattern(p).map_err(CommandError::Usage)?);
        }
        let query = crate::search::Query {
            positions,
            capture: self.capture,
            relay: self.relay,
            bonus: self.bonus,
            foul: self.foul,
            repetition: self.repetition,
            error: self.error.clone(),
            ..crate::search::Query::default()
        };
        Ok(query.with_plies(self.opening.as_deref(), self.plies.as_deref()))
    }
}

/// `sow search`: exit status 0 when a game matched, 1 when none did.
fn run_search(args: SearchArgs) -> Result<i32, CommandError> {
    let query = args.query()?;
    let (inputs, filter, replay) = corpus_inputs(&args.corpus, corpus::PMN_EXTENSIONS)?;
    let search = crate::search::Search {
        filter: &filter,
        wheres: &args.corpus.wheres,
        query: &query,
        replay: &replay,
        format: args.format.into(),
    };
    let name = output_name(args.output.as_deref());
    let mut found = 0;
    let written =
        crate::output::stream_whole_output(args.output.as_deref(), args.force, &inputs, |out| {
            found = crate::search::run(&inputs, &search, out, &name, &mut say)?;
            Ok(())
        })
        .map_err(|e| stream_failure(e, &name));
    say_none_matched(&filter);
    written?;
    Ok(i32::from(found == 0))
}

/// `sow convert --to sqlite`: the database of the games, written to the file -o names.
fn run_database(args: ConvertArgs) -> Result<i32, CommandError> {
    let Some(output) = args.output.as_deref().filter(|o| o.as_os_str() != "-") else {
        return Err(CommandError::Usage(
            "--to sqlite writes a file: name it with -o".into(),
        ));
    };
    if args.from.is_some_and(|f| f != ConvertFrom::Pmn) {
        return Err(CommandError::Usage(
            "--to sqlite reads PMN (convert other forms to PMN first)".into(),
        ));
    }
    let (inputs, filter, replay) = corpus_inputs(&args.corpus, corpus::PMN_EXTENSIONS)?;
    let written = crate::database::write(&inputs, &filter, &replay, output, args.force, &mut say);
    say_none_matched(&filter);
    written?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
