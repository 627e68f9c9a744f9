-- Challenges: friends on the same private deal, each playing it once when they like, before a deadline.
-- All their SQL is in bot/storage/challenges.py.

-- Challenge games are ordinary rows of games with mode 'challenge' (the CHECK widened as V007 did).
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (mode IN (''casual'', ''daily'', ''race''))',
                  'CHECK (mode IN (''casual'', ''daily'', ''race'', ''challenge''))')
WHERE type = 'table' AND name = 'games';
PRAGMA writable_schema = RESET;
-- Fail the migration (and roll it back) if the constraint was not found and widened.
CREATE TEMP TABLE v012_check (widened INTEGER NOT NULL CHECK (widened));
INSERT INTO v012_check SELECT instr(sql, '''race'', ''challenge''') > 0 FROM sqlite_schema
WHERE type = 'table' AND name = 'games';
DROP TABLE v012_check;

CREATE TABLE challenges (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    message_id     INTEGER,                 -- the public challenge message
    challenger_id  INTEGER NOT NULL,
    variant        TEXT    NOT NULL,
    show_scores    INTEGER NOT NULL CHECK (show_scores IN (0, 1)),  -- open: scores shown as they come
    status         TEXT    NOT NULL CHECK (status IN ('open', 'closed')),
    created_at     REAL    NOT NULL,        -- unix seconds
    deadline       REAL    NOT NULL,        -- no game starts after it; it closes once those running end
    deal           TEXT    NOT NULL,        -- JSON of bot.competition.deal_to_json: never shown while open
    deal_seed      TEXT    NOT NULL,        -- shown once closed, for practice
    closed_at      REAL,
    unrated_reason TEXT                     -- why a closed challenge moved no rating (NULL: it did)
);
CREATE INDEX challenges_open ON challenges (status) WHERE status = 'open';

CREATE TABLE challenge_players (
    challenge_id  INTEGER NOT NULL REFERENCES challenges (id),
    position      INTEGER NOT NULL,               -- 0: the challenger, then the order they were named
    user_id       INTEGER NOT NULL,
    answer        TEXT    NOT NULL CHECK (answer IN ('challenger', 'invited', 'accepted', 'declined')),
    answered_at   REAL,
    game_id       INTEGER REFERENCES games (id),  -- the one attempt (set when it starts)
    place         INTEGER,                        -- final place when closed, 1 = winner
    rating_before REAL,
    rating_after  REAL,                           -- NULL: not rated
    rated         INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    PRIMARY KEY (challenge_id, user_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX challenge_players_game ON challenge_players (game_id) WHERE game_id IS NOT NULL;
CREATE INDEX challenge_players_user ON challenge_players (user_id);
