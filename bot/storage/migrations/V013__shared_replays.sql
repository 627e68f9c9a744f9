-- One public replay per game (Share replay, cogs/after_game.py): the message it was posted as. A row without
-- a message_id is a post in flight, claimed at claimed_at; another click may take the claim over only once it
-- is older than an interaction token's life (bot/storage/replays.py, LEASE), so a process that died while
-- posting blocks nothing for ever, and a second click while it is posted answers privately instead.
CREATE TABLE shared_replays (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id   INTEGER NOT NULL,  -- 0 in DMs
    channel_id INTEGER NOT NULL,
    message_id INTEGER,           -- NULL while being posted
    claimed_at REAL    NOT NULL   -- unix seconds
);
