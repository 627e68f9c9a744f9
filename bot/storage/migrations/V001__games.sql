-- Every game played, running or finished; COMPETITION's leaderboards read it.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,          -- 0 in DMs
    channel_id    INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    variant       TEXT    NOT NULL,          -- draw1|draw3|goldrush|friday13
    mode          TEXT    NOT NULL CHECK (mode IN ('casual', 'daily')),
    deal_number   INTEGER,                   -- casual: public deal number
    daily_date    TEXT,                      -- daily: 'YYYY-MM-DD' in the server's time zone
    state         TEXT    NOT NULL,          -- json.dumps(game_to_json(game)): deck + full move log
    status        TEXT    NOT NULL,          -- playing|won|ended|stuck|expired
    score         INTEGER NOT NULL DEFAULT 0,
    seconds_used  INTEGER,                   -- set when finished
    started_at    REAL    NOT NULL,          -- unix seconds
    deadline      REAL    NOT NULL,          -- unix seconds
    finished_at   REAL,                      -- unix seconds, set exactly once
    message_id    INTEGER,                   -- the board message
    webhook_token TEXT,                      -- ephemeral boards: interaction token to edit them (15 min life)
    version       INTEGER NOT NULL DEFAULT 0 -- game.version
);
CREATE INDEX games_active ON games (status) WHERE status = 'playing';
CREATE UNIQUE INDEX games_one_active ON games (guild_id, user_id) WHERE status = 'playing';
