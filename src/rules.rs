//! Rule sets: a game, its board and its options (RULES.md, "All options").
//!
//! A [`Rules`] value can only be built from a game, a board the game allows and options
//! the game knows, with values in range; anything else is a [`RulesError`] that names the
//! allowed values. Nothing here moves a stone: the game modules do.

use std::fmt;

use thiserror::Error;

use crate::geometry::{Board, Direction, Pit, Side, MAX_PITS};

/// The four games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Game {
    Tsoro,
    Nsolo,
    Kiothi,
    BaoLaKimasai,
}

impl Game {
    pub const ALL: [Game; 4] = [Game::Tsoro, Game::Nsolo, Game::Kiothi, Game::BaoLaKimasai];

    /// The value of the PMN `Game` tag.
    pub fn tag_name(self) -> &'static str {
        match self {
            Game::Tsoro => "Tsoro",
            Game::Nsolo => "Nsolo",
            Game::Kiothi => "Kiothi",
            Game::BaoLaKimasai => "BaoLaKimasai",
        }
    }

    /// The game's name as people write it: `Bao la Kimasai`, where the tag has
    /// `BaoLaKimasai`. Figures and their captions use it.
    pub fn name(self) -> &'static str {
        match self {
            Game::BaoLaKimasai => "Bao la Kimasai",
            g => g.tag_name(),
        }
    }

    /// Parses a `Game` tag value (exact, as PMN.md spells it).
    pub fn from_tag(s: &str) -> Option<Game> {
        Game::ALL.into_iter().find(|g| g.tag_name() == s.trim())
    }

    /// A game named on the command line: its tag name in any case (`tsoro`, `TSORO`).
    /// A record's `Game` tag is read by [`Game::from_tag`], as PMN.md spells the names.
    pub fn from_name(s: &str) -> Option<Game> {
        Game::ALL
            .into_iter()
            .find(|g| g.tag_name().eq_ignore_ascii_case(s.trim()))
    }

    pub fn default_board(self) -> Board {
        match self {
            Game::Tsoro => Board::new(4, 21),
            Game::Nsolo => Board::new(4, 8),
            Game::Kiothi => Board::new(2, 10),
            Game::BaoLaKimasai => Board::new(4, 12),
        }
        .expect("default boards are valid")
    }

    /// Whether the game is played on this board.
    pub fn allows_board(self, board: Board) -> bool {
        match self {
            Game::Tsoro => board.rows() == 4 && [6, 8, 12, 15, 18, 21].contains(&board.cols()),
            Game::Nsolo => board.rows() == 4 && (8..=36).contains(&board.cols()),
            Game::Kiothi => board == Board::new(2, 10).unwrap(),
            Game::BaoLaKimasai => board == Board::new(4, 12).unwrap(),
        }
    }

    /// The boards the game allows, in words, for error messages.
    pub fn allowed_boards(self) -> &'static str {
        match self {
            Game::Tsoro => "4x21, 4x18, 4x15, 4x12, 4x8, 4x6",
            Game::Nsolo => "4x8 .. 4x36",
            Game::Kiothi => "2x10",
            Game::BaoLaKimasai => "4x12",
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag_name())
    }
}

/// A rule set that could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    #[error("unknown game {found:?}; expected one of Tsoro, Nsolo, Kiothi, BaoLaKimasai")]
    UnknownGame { found: String },
    #[error("board {found:?} is not played in {game}; allowed: {allowed}")]
    Board {
        game: Game,
        found: String,
        allowed: &'static str,
    },
    #[error("{game} has no option {key:?}; its options are: {known}")]
    UnknownOption {
        game: Game,
        key: String,
        known: &'static str,
    },
    #[error("option {key}={value:?} is out of range for {game}; allowed: {allowed}")]
    BadValue {
        game: Game,
        key: String,
        value: String,
        allowed: &'static str,
    },
    #[error("option {key:?} is given twice")]
    DuplicateOption { key: String },
    #[error("{found:?} is not of the form key=value")]
    Syntax { found: String },
}

/// Tsoro's heads (misoro): RULES.md, "Tsoro".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Heads {
    /// Two heads per seat (default): South a(N-1), aN; North d2, d1.
    Two,
    /// One head per seat (aN, d1), starting with 3 stones.
    One,
    /// Matthews' basic game: no heads.
    Zero,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TsoroOptions {
    pub heads: Heads,
    /// Bonus pits per capture: `[n]` for a flat bonus, a longer list for a graded one
    /// (the k-th capture of a player earns `bonus[k-1]`, every later one the last value).
    pub bonus: Vec<u8>,
    /// Whether heads may be taken as bonus pits.
    pub head_bonus: bool,
}

impl TsoroOptions {
    /// The number of bonus pits due for a player's capture number `nth` (1-based).
    pub fn bonus_for_capture(&self, nth: u32) -> u8 {
        let i = (nth.max(1) as usize - 1).min(self.bonus.len() - 1);
        self.bonus[i]
    }
}

/// Nsolo's bonus after a capture: RULES.md, "Nsolo".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NsoloBonus {
    /// As many stones as were captured, from anywhere on the opponent's side (default).
    Equal,
    /// The contents of one other non-empty opponent pit (Sanderson 1913).
    Hole,
    /// No bonus.
    None,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NsoloOptions {
    pub bonus: NsoloBonus,
    /// Clockwise by default; `sow=ccw` sows counter-clockwise.
    pub sow: Direction,
    /// The occurrence of a position that draws (default 3).
    pub repeat: u32,
}

/// Kiothi's start layouts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KiothiStart {
    /// Five stones in each of the six rightmost pits (default).
    FiveBySix,
    /// Five stones in each of the five rightmost pits.
    FiveByFive,
    /// Six stones in each of the five rightmost pits.
    SixByFive,
}

impl KiothiStart {
    /// (stones per pit, pits per seat)
    pub fn layout(self) -> (u16, u8) {
        match self {
            KiothiStart::FiveBySix => (5, 6),
            KiothiStart::FiveByFive => (5, 5),
            KiothiStart::SixByFive => (6, 5),
        }
    }
}

/// Kiothi's leftmost bonus.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Leftmost {
    /// The opposite pit and the next two on the mover's right (default).
    Three,
    /// The opposite pit and every following occupied, non-nki pit in an unbroken run.
    Chain,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KiothiOptions {
    pub start: KiothiStart,
    pub leftmost: Leftmost,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BaoOptions {
    /// The occurrence of a position that draws (default 2, the first recurrence).
    pub repeat: u32,
}

/// The options of one game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Options {
    Tsoro(TsoroOptions),
    Nsolo(NsoloOptions),
    Kiothi(KiothiOptions),
    BaoLaKimasai(BaoOptions),
}

/// A complete, checked rule set: game, board, options, and the circuits they imply.
#[derive(Clone, Debug)]
pub struct Rules {
    game: Game,
    board: Board,
    options: Options,
    // The circuits and heads are kept in arrays, not vectors: a replay clones its rule
    // set for every game, and allocations would weigh on a short game.
    /// Each seat's circuit, as pit indices in dropping order: the first
    /// `circuit_len` entries.
    circuits: [[u8; MAX_CIRCUIT]; 2],
    circuit_len: [usize; 2],
    /// For each pit index, its place in each seat's circuit (`NOT_ON_CIRCUIT` if none).
    circuit_place: [[u8; MAX_PITS]; 2],
    /// Tsoro's heads of each seat: the first `head_count` entries.
    heads: [[Pit; 2]; 2],
    head_count: [usize; 2],
    /// The lap budget of one sowing ([`Rules::max_laps`]).
    max_laps: u64,
}

/// The laps a sowing may take before it is left undecided, unless a caller sets another
/// budget: some ten million laps, about a second of sowing, far beyond any sowing made
/// by hand.
pub const DEFAULT_MAX_LAPS: u64 = 10_000_000;

/// The longest circuit: a seat's two rows on the widest board (Nsolo 4×36).
const MAX_CIRCUIT: usize = MAX_PITS / 2;

/// Marks a pit that is not on a seat's circuit in [`Rules::circuit_place`].
pub const NOT_ON_CIRCUIT: u8 = u8::MAX;

// The lap budget is a bound on the search, not a rule: rule sets that differ only in it
// are the same rules.
impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        self.game == other.game && self.board == other.board && self.options == other.options
    }
}

impl Eq for Rules {}

const TSORO_KEYS: &str = "heads, bonus, head-bonus";
const NSOLO_KEYS: &str = "bonus, sow, repeat";
const KIOTHI_KEYS: &str = "start, leftmost";
const BAO_KEYS: &str = "repeat";

impl Rules {
    /// The default rules of a game on its default board.
    pub fn default_for(game: Game) -> Rules {
        Rules::new(game, None, "").expect("default rules are valid")
    }

    /// Builds a rule set from a game, a board (`None`: the game's default) and the
    /// space-separated `key=value` options of a PMN `Rules` tag.
    pub fn new(game: Game, board: Option<Board>, options: &str) -> Result<Rules, RulesError> {
        let board = board.unwrap_or_else(|| game.default_board());
        if !game.allows_board(board) {
            return Err(RulesError::Board {
                game,
                found: board.to_string(),
                allowed: game.allowed_boards(),
            });
        }
        let pairs = split_options(options)?;
        let options = parse_options(game, &pairs)?;
        Ok(Rules::from_parts(game, board, options))
    }

    /// Builds a rule set from a game, a board and already-typed options.
    ///
    /// Panics if the board is not one the game allows (a programming error: typed
    /// callers check [`Game::allows_board`]).
    pub fn from_parts(game: Game, board: Board, options: Options) -> Rules {
        assert!(game.allows_board(board), "{game} is not played on {board}");
        let direction = match &options {
            Options::Nsolo(o) => o.sow,
            _ => Direction::CounterClockwise,
        };
        let mut circuits = [[0; MAX_CIRCUIT]; 2];
        let mut circuit_len = [0; 2];
        let mut circuit_place = [[NOT_ON_CIRCUIT; MAX_PITS]; 2];
        for side in Side::BOTH {
            let circuit = board.circuit(side, direction);
            for (place, &pit) in circuit.iter().enumerate() {
                let pit = board.index(pit) as u8;
                circuits[side.index()][place] = pit;
                circuit_place[side.index()][pit as usize] = place as u8;
            }
            circuit_len[side.index()] = circuit.len();
        }
        let mut heads = [[Pit::new(0, 1); 2]; 2];
        let mut head_count = [0; 2];
        for side in Side::BOTH {
            let of_side = heads_of(&options, board, side);
            heads[side.index()][..of_side.len()].copy_from_slice(&of_side);
            head_count[side.index()] = of_side.len();
        }
        Rules {
            game,
            board,
            options,
            circuits,
            circuit_len,
            circuit_place,
            heads,
            head_count,
            max_laps: DEFAULT_MAX_LAPS,
        }
    }

    /// The rule set with a lap budget of `max_laps` (at least 1) for each sowing.
    pub fn with_max_laps(mut self, max_laps: u64) -> Rules {
        self.max_laps = max_laps.max(1);
        self
    }

    /// The laps one sowing may take: a sowing that has neither ended nor shown a
    /// recurring lap-end state by then is refused as undecided
    /// ([`crate::Illegal::UndecidedSowing`]), so that every ply is decided in bounded time.
    pub fn max_laps(&self) -> u64 {
        self.max_laps
    }

    pub fn game(&self) -> Game {
        self.game
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// A seat's circuit as pit indices, in dropping order.
    // Inlined: a ply's sowing is inlined into `apply`, and this would otherwise stay a call.
    #[inline(always)]
    pub fn circuit(&self, side: Side) -> &[u8] {
        &self.circuits[side.index()][..self.circuit_len[side.index()]]
    }

    /// A pit's place in a seat's circuit, or `None` if the seat does not sow there.
    pub fn circuit_place(&self, side: Side, pit: usize) -> Option<usize> {
        let place = self.circuit_place[side.index()][pit];
        (place != NOT_ON_CIRCUIT).then_some(place as usize)
    }

    /// The pit index after `pit` on a seat's circuit.
    pub fn next_on_circuit(&self, side: Side, pit: usize) -> Option<usize> {
        let place = self.circuit_place(side, pit)?;
        let circuit = self.circuit(side);
        // No division: this runs every ply of a Bao la Kimasai playout.
        let next = if place + 1 == circuit.len() {
            0
        } else {
            place + 1
        };
        Some(circuit[next] as usize)
    }

    /// Tsoro's heads of a seat (empty for other games or `heads=0`).
    pub fn heads(&self, side: Side) -> &[Pit] {
        &self.heads[side.index()][..self.head_count[side.index()]]
    }

    /// Whether a pit is a head of either seat.
    pub fn is_head(&self, pit: Pit) -> bool {
        Side::BOTH.iter().any(|&s| self.heads(s).contains(&pit))
    }

    /// The occurrence of a position that draws, for games with a repetition rule.
    pub fn repeat(&self) -> Option<u32> {
        match &self.options {
            Options::Nsolo(o) => Some(o.repeat),
            Options::BaoLaKimasai(o) => Some(o.repeat),
            _ => None,
        }
    }

    /// The non-default options in the order of RULES.md's "All options" table, as the
    /// export form of a `Rules` tag writes them (empty when every option is default).
    pub fn options_tag(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        match &self.options {
            Options::Tsoro(o) => {
                match o.heads {
                    Heads::Two => {}
                    Heads::One => parts.push("heads=1".into()),
                    Heads::Zero => parts.push("heads=0".into()),
                }
                if o.bonus != [2] {
                    let list: Vec<String> = o.bonus.iter().map(u8::to_string).collect();
                    parts.push(format!("bonus={}", list.join(",")));
                }
                if o.head_bonus {
                    parts.push("head-bonus=yes".into());
                }
            }
            Options::Nsolo(o) => {
                match o.bonus {
                    NsoloBonus::Equal => {}
                    NsoloBonus::Hole => parts.push("bonus=hole".into()),
                    NsoloBonus::None => parts.push("bonus=none".into()),
                }
                if o.sow == Direction::CounterClockwise {
                    parts.push("sow=ccw".into());
                }
                if o.repeat != 3 {
                    parts.push(format!("repeat={}", o.repeat));
                }
            }
            Options::Kiothi(o) => {
                match o.start {
                    KiothiStart::FiveBySix => {}
                    KiothiStart::FiveByFive => parts.push("start=5x5".into()),
                    KiothiStart::SixByFive => parts.push("start=6x5".into()),
                }
                if o.leftmost == Leftmost::Chain {
                    parts.push("leftmost=chain".into());
                }
            }
            Options::BaoLaKimasai(o) => {
                if o.repeat != 2 {
                    parts.push(format!("repeat={}", o.repeat));
                }
            }
        }
        parts.join(" ")
    }

    /// The number of stones the game starts with on this board under these options.
    pub fn start_stones(&self) -> u32 {
        let n = self.board.cols() as u32;
        match &self.options {
            Options::Tsoro(o) => match o.heads {
                Heads::One => 4 * n + 2,
                _ => 4 * n,
            },
            Options::Nsolo(_) => 8 * n - 4,
            Options::Kiothi(o) => {
                let (stones, pits) = o.start.layout();
                2 * stones as u32 * pits as u32
            }
            Options::BaoLaKimasai(_) => 4 * n - 2,
        }
    }
}

/// Tsoro's heads (RULES.md): South a(N-1), aN; North d2, d1; `heads=1` only the
/// rightmost (aN, d1); `heads=0` none.
fn heads_of(options: &Options, board: Board, side: Side) -> Vec<Pit> {
    let Options::Tsoro(o) = options else {
        return Vec::new();
    };
    let n = board.cols();
    match (o.heads, side) {
        (Heads::Zero, _) => vec![],
        (Heads::One, Side::South) => vec![Pit::new(0, n)],
        (Heads::One, Side::North) => vec![Pit::new(3, 1)],
        (Heads::Two, Side::South) => vec![Pit::new(0, n - 1), Pit::new(0, n)],
        (Heads::Two, Side::North) => vec![Pit::new(3, 2), Pit::new(3, 1)],
    }
}

/// The allowed keys of a game, for messages.
pub fn known_keys(game: Game) -> &'static str {
    match game {
        Game::Tsoro => TSORO_KEYS,
        Game::Nsolo => NSOLO_KEYS,
        Game::Kiothi => KIOTHI_KEYS,
        Game::BaoLaKimasai => BAO_KEYS,
    }
}

/// Sets each override in `pairs`: a key already there takes the override's value, a new
/// one is added (what `--rules KEY=VALUE` does to a record's `Rules` tag).
pub fn with_overrides(pairs: &mut Vec<(String, String)>, overrides: &[(String, String)]) {
    for (key, value) in overrides {
        match pairs.iter_mut().find(|(k, _)| k == key) {
            Some(pair) => pair.1 = value.clone(),
            None => pairs.push((key.clone(), value.clone())),
        }
    }
}

/// Splits a `Rules` tag value into `(key, value)` pairs, rejecting duplicates.
pub fn split_options(options: &str) -> Result<Vec<(String, String)>, RulesError> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for word in options.split_whitespace() {
        let (key, value) = word.split_once('=').ok_or_else(|| RulesError::Syntax {
            found: word.to_string(),
        })?;
        if key.is_empty() || value.is_empty() {
            return Err(RulesError::Syntax {
                found: word.to_string(),
            });
        }
        if pairs.iter().any(|(k, _)| k == key) {
            return Err(RulesError::DuplicateOption {
                key: key.to_string(),
            });
        }
        pairs.push((key.to_string(), value.to_string()));
    }
    Ok(pairs)
}

fn bad(game: Game, key: &str, value: &str, allowed: &'static str) -> RulesError {
    RulesError::BadValue {
        game,
        key: key.to_string(),
        value: value.to_string(),
        allowed,
    }
}

fn unknown(game: Game, key: &str) -> RulesError {
    RulesError::UnknownOption {
        game,
        key: key.to_string(),
        known: known_keys(game),
    }
}

fn parse_repeat(game: Game, key: &str, value: &str) -> Result<u32, RulesError> {
    const ALLOWED: &str = "a whole number n >= 2";
    match value.parse::<u32>() {
        Ok(n) if n >= 2 => Ok(n),
        _ => Err(bad(game, key, value, ALLOWED)),
    }
}

/// Typed options of a game from `(key, value)` pairs; absent keys take their defaults.
pub fn parse_options(game: Game, pairs: &[(String, String)]) -> Result<Options, RulesError> {
    match game {
        Game::Tsoro => {
            let mut o = TsoroOptions {
                heads: Heads::Two,
                bonus: vec![2],
                head_bonus: false,
            };
            for (key, value) in pairs {
                match key.as_str() {
                    "heads" => {
                        o.heads = match value.as_str() {
                            "2" => Heads::Two,
                            "1" => Heads::One,
                            "0" => Heads::Zero,
                            _ => return Err(bad(game, key, value, "2, 1, 0")),
                        }
                    }
                    "bonus" => {
                        const ALLOWED: &str =
                            "0..5, or a comma-separated list of such numbers, e.g. 5,3,2";
                        let list: Option<Vec<u8>> = value
                            .split(',')
                            .map(|v| v.parse::<u8>().ok().filter(|&n| n <= 5))
                            .collect();
                        o.bonus = list.ok_or_else(|| bad(game, key, value, ALLOWED))?;
                    }
                    "head-bonus" => {
                        o.head_bonus = match value.as_str() {
                            "no" => false,
                            "yes" => true,
                            _ => return Err(bad(game, key, value, "no, yes")),
                        }
                    }
                    _ => return Err(unknown(game, key)),
                }
            }
            Ok(Options::Tsoro(o))
        }
        Game::Nsolo => {
            let mut o = NsoloOptions {
                bonus: NsoloBonus::Equal,
                sow: Direction::Clockwise,
                repeat: 3,
            };
            for (key, value) in pairs {
                match key.as_str() {
                    "bonus" => {
                        o.bonus = match value.as_str() {
                            "equal" => NsoloBonus::Equal,
                            "hole" => NsoloBonus::Hole,
                            "none" => NsoloBonus::None,
                            _ => return Err(bad(game, key, value, "equal, hole, none")),
                        }
                    }
                    "sow" => {
                        o.sow = match value.as_str() {
                            "cw" => Direction::Clockwise,
                            "ccw" => Direction::CounterClockwise,
                            _ => return Err(bad(game, key, value, "cw, ccw")),
                        }
                    }
                    "repeat" => o.repeat = parse_repeat(game, key, value)?,
                    _ => return Err(unknown(game, key)),
                }
            }
            Ok(Options::Nsolo(o))
        }
        Game::Kiothi => {
            let mut o = KiothiOptions {
                start: KiothiStart::FiveBySix,
                leftmost: Leftmost::Three,
            };
            for (key, value) in pairs {
                match key.as_str() {
                    "start" => {
                        o.start = match value.as_str() {
                            "5x6" => KiothiStart::FiveBySix,
                            "5x5" => KiothiStart::FiveByFive,
                            "6x5" => KiothiStart::SixByFive,
                            _ => return Err(bad(game, key, value, "5x6, 5x5, 6x5")),
                        }
                    }
                    "leftmost" => {
                        o.leftmost = match value.as_str() {
                            "three" => Leftmost::Three,
                            "chain" => Leftmost::Chain,
                            _ => return Err(bad(game, key, value, "three, chain")),
                        }
                    }
                    _ => return Err(unknown(game, key)),
                }
            }
            Ok(Options::Kiothi(o))
        }
        Game::BaoLaKimasai => {
            let mut o = BaoOptions { repeat: 2 };
            for (key, value) in pairs {
                match key.as_str() {
                    "repeat" => o.repeat = parse_repeat(game, key, value)?,
                    _ => return Err(unknown(game, key)),
                }
            }
            Ok(Options::BaoLaKimasai(o))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tsoro's and Nsolo's singleton rule scans a seat's pits as one run of the pit
    /// array (`Board::indices_of`): that is right only while each seat's circuit is
    /// exactly its own rows, on every board and in both directions.
    #[test]
    fn tsoro_and_nsolo_circuits_are_their_seats_rows() {
        let mut checked = 0;
        for (game, boards) in [
            (Game::Tsoro, [4, 8, 21, 36]),
            (Game::Nsolo, [8, 12, 21, 36]),
        ] {
            for cols in boards {
                for sow in ["", "sow=cw", "sow=ccw"] {
                    let board = Board::new(4, cols).unwrap();
                    let Ok(rules) = Rules::new(game, Some(board), sow) else {
                        continue;
                    };
                    for side in [Side::South, Side::North] {
                        let mut pits: Vec<usize> =
                            rules.circuit(side).iter().map(|&p| p as usize).collect();
                        pits.sort_unstable();
                        let rows: Vec<usize> = board.indices_of(side).collect();
                        assert_eq!(pits, rows, "{game} 4x{cols} {sow} {side}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked >= 16, "only {checked} circuits checked");
    }

    #[test]
    fn defaults_print_no_options() {
        for game in Game::ALL {
            assert_eq!(Rules::default_for(game).options_tag(), "", "{game}");
        }
    }

    #[test]
    fn options_print_in_table_order() {
        let r = Rules::new(Game::Tsoro, None, "head-bonus=yes bonus=5,3,2 heads=1").unwrap();
        assert_eq!(r.options_tag(), "heads=1 bonus=5,3,2 head-bonus=yes");
        let r = Rules::new(Game::Nsolo, None, "repeat=5 sow=ccw bonus=hole").unwrap();
        assert_eq!(r.options_tag(), "bonus=hole sow=ccw repeat=5");
    }

    #[test]
    fn unknown_option_names_the_known_ones() {
        let e = Rules::new(Game::Kiothi, None, "heads=1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "Kiothi has no option \"heads\"; its options are: start, leftmost"
        );
    }

    #[test]
    fn out_of_range_values_name_the_allowed_ones() {
        let e = Rules::new(Game::Tsoro, None, "bonus=6").unwrap_err();
        assert!(e.to_string().contains("0..5"), "{e}");
        let e = Rules::new(Game::Nsolo, None, "repeat=1").unwrap_err();
        assert!(e.to_string().contains("n >= 2"), "{e}");
        let e = Rules::new(Game::Tsoro, Board::new(4, 10), "").unwrap_err();
        assert!(e.to_string().contains("4x21, 4x18"), "{e}");
        assert!(Board::new(4, 37).is_none());
        let e = Rules::new(Game::Nsolo, Board::new(4, 6), "").unwrap_err();
        assert!(e.to_string().contains("4x8 .. 4x36"), "{e}");
    }

    #[test]
    fn duplicate_and_malformed_options_are_errors() {
        assert!(matches!(
            Rules::new(Game::Nsolo, None, "repeat=3 repeat=4"),
            Err(RulesError::DuplicateOption { .. })
        ));
        assert!(matches!(
            Rules::new(Game::Nsolo, None, "repeat"),
            Err(RulesError::Syntax { .. })
        ));
    }

    #[test]
    fn graded_bonus_uses_the_last_value_after_the_list() {
        let Options::Tsoro(o) = Rules::new(Game::Tsoro, None, "bonus=5,3,2")
            .unwrap()
            .options()
            .clone()
        else {
            unreachable!()
        };
        let grades: Vec<u8> = (1..=5).map(|k| o.bonus_for_capture(k)).collect();
        assert_eq!(grades, [5, 3, 2, 2, 2]);
    }

    #[test]
    fn start_stones_match_rules_md() {
        assert_eq!(Rules::default_for(Game::Tsoro).start_stones(), 84);
        assert_eq!(Rules::default_for(Game::Nsolo).start_stones(), 60);
        let n36 = Rules::new(Game::Nsolo, Board::new(4, 36), "").unwrap();
        assert_eq!(n36.start_stones(), 284);
        assert_eq!(Rules::default_for(Game::Kiothi).start_stones(), 60);
        assert_eq!(
            Rules::new(Game::Kiothi, None, "start=5x5")
                .unwrap()
                .start_stones(),
            50
        );
        assert_eq!(Rules::default_for(Game::BaoLaKimasai).start_stones(), 46);
    }
}
