-- Races (issue 13): a lobby, then the same deal for every racer on one shared clock, then ratings.

-- Race games are ordinary rows of games with mode 'race'. SQLite cannot ALTER a CHECK constraint;
-- widening one (every stored row still passes) may be done by editing the table's stored SQL, which
-- SQLite documents as safe for constraint changes that leave the stored rows valid
-- ("Making Other Kinds Of Table Schema Changes", sqlite.org/lang_altertable.html). This keeps every
-- column, index and trigger of games as it is, including those later migrations added.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (mode IN (''casual'', ''daily''))', 'CHECK (mode IN (''casual'', ''daily'', ''race''))')
WHERE type = 'table' AND name = 'games';
PRAGMA writable_schema = RESET;
-- Fail the migration (and roll it back) if the constraint was not found and widened.
CREATE TEMP TABLE v007_check (widened INTEGER NOT NULL CHECK (widened));
INSERT INTO v007_check SELECT instr(sql, '''daily'', ''race''') > 0 FROM sqlite_schema WHERE type = 'table' AND name = 'games';
DROP TABLE v007_check;

CREATE TABLE races (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    message_id        INTEGER,                -- the public race message (lobby, standings, results)
    host_id           INTEGER NOT NULL,
    variant           TEXT    NOT NULL,
    capacity          INTEGER NOT NULL CHECK (capacity BETWEEN 2 AND 8),
    status            TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'expired')),
    created_at        REAL    NOT NULL,       -- unix seconds
    lobby_deadline    REAL    NOT NULL,       -- the lobby expires then without a start
    start_at          REAL,                   -- the common start instant (set when started)
    end_at            REAL,                   -- start_at + the time limit: every racer's deadline
    deal_number       INTEGER,                -- the shared deal (replayable with /solitaire start deal:)
    finished_at       REAL,                   -- set once, in the transaction that writes the ratings
    results_posted_at REAL                    -- set once, by whoever posts the final results
);
CREATE INDEX races_open ON races (status) WHERE status IN ('lobby', 'running');

CREATE TABLE race_racers (
    race_id       INTEGER NOT NULL REFERENCES races (id),
    user_id       INTEGER NOT NULL,
    joined_at     REAL    NOT NULL,
    game_id       INTEGER REFERENCES games (id),  -- the racer's game (set at the start)
    left_at       REAL,                           -- left after the start: ranked last
    place         INTEGER,                        -- final place, 1 = winner
    rating_before REAL,                           -- displayed rating before and after this race
    rating_after  REAL,
    PRIMARY KEY (race_id, user_id)
) WITHOUT ROWID;
CREATE INDEX race_racers_game ON race_racers (game_id) WHERE game_id IS NOT NULL;
CREATE INDEX race_racers_user ON race_racers (user_id);

-- One multiplayer rating (openskill, Plackett-Luce) per member, server and variant.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    variant    TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    races      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, variant, user_id)
) WITHOUT ROWID;
