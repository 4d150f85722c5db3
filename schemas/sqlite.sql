-- The database form of a corpus, written by `sow convert --to sqlite -o corpus.db`.
-- See schemas/sqlite.md for what each table and column holds. `sow` runs this file to
-- make a database; `sow search` reads the databases it made.

-- The form of the file (`format`: `sow-sqlite 1`) and the replay's settings the rows
-- depend on (`replay`: `rules=KEY=VALUE,... max-laps=N`, from --rules and --max-laps).
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- One row a game, in the order of the inputs.
CREATE TABLE games (
  id INTEGER PRIMARY KEY,          -- from 1, in input order
  file TEXT NOT NULL,              -- the input's name as given
  game_number INTEGER NOT NULL,    -- the game's number in its file, from 1
  -- Tags as written (NULL when the record has none; the first of a name written twice).
  "Game" TEXT, "Board" TEXT, "Rules" TEXT, "Event" TEXT, "Site" TEXT, "Date" TEXT,
  "Round" TEXT, "South" TEXT, "North" TEXT, "Result" TEXT, "Source" TEXT,
  "Transcriber" TEXT, "Annotator" TEXT, "Termination" TEXT, "Score" TEXT,
  "SetUp" TEXT, "Position" TEXT,
  -- The replay.
  rule_set TEXT,                   -- game, board and options (`Tsoro 4x8`); NULL when
                                   -- the tags could not be read as rules
  plies INTEGER NOT NULL,          -- plies replayed
  plies_written INTEGER NOT NULL,  -- plies in the main line
  valid INTEGER NOT NULL,          -- 1 when no diagnostic is an error
  error_code TEXT,                 -- the first error's code (the replay stops there)
  error_ply INTEGER,               -- its ply, when it is at a ply
  outcome TEXT,                    -- `South`, `North` or `draw` when the game is over
  end_reason TEXT,                 -- `no-legal-move`, `repetition` or `score`
  start_position TEXT,             -- the position before ply 1 (a PMN Position string)
  pmn TEXT NOT NULL                -- the game in the PMN export form
);

-- Every tag, in the order written (duplicates kept).
CREATE TABLE game_tags (
  game_id INTEGER NOT NULL REFERENCES games(id),
  seq INTEGER NOT NULL,            -- from 1
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- One row a ply replayed: the columns of `sow stats --per ply` (docs/stats-columns.md),
-- less file, game and set (in games), and whether the ply was played under [%foul].
CREATE TABLE plies (
  game_id INTEGER NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,            -- from 1
  player TEXT NOT NULL,            -- `South` or `North`
  move TEXT NOT NULL,              -- as written, without its suffix annotation
  laps INTEGER NOT NULL,
  stones_sown INTEGER NOT NULL,
  end_pit TEXT,
  captured INTEGER NOT NULL,       -- bonus not included
  bonus INTEGER NOT NULL,
  south INTEGER NOT NULL,
  north INTEGER NOT NULL,
  south_prison INTEGER,
  north_prison INTEGER,
  legal_moves INTEGER NOT NULL,
  foul INTEGER NOT NULL,           -- 1 when played under [%foul]
  PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- The position before ply 1 (ply 0) and after every ply replayed, as PMN Position
-- strings, byte for byte as `sow show --format pmn` prints them, in the order of the
-- games and their plies.
CREATE TABLE positions (
  game_id INTEGER NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,            -- 0: before the first ply
  position TEXT NOT NULL
);

-- Indexes, made once the rows are in.
CREATE INDEX positions_by_position ON positions (position);
CREATE INDEX game_tags_by_value ON game_tags (name, value);
CREATE INDEX games_by_game ON games ("Game", "Board", "Rules");
CREATE INDEX games_by_site ON games ("Site");
CREATE INDEX games_by_date ON games ("Date");
CREATE INDEX games_by_event ON games ("Event");
CREATE INDEX games_by_south ON games ("South");
CREATE INDEX games_by_north ON games ("North");
CREATE INDEX games_by_file ON games (file, game_number);
