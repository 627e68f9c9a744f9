-- The way in: notes the bot gives once (all their SQL is in bot/storage/onboarding.py). A row says the note was
-- given, so "once" survives a restart: a player's first-board tip (guild_id 0: once, whatever the server) and
-- each admin's note of what to configure in a server.
CREATE TABLE onboarding_notes (
    note     TEXT    NOT NULL,            -- 'first_board' or 'server_setup'
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL DEFAULT 0,  -- 0: the note is given once in all servers
    given_at REAL    NOT NULL,            -- unix seconds (0: given before this table, see below)
    PRIMARY KEY (note, user_id, guild_id)
);

-- Everyone who already has a game has seen a board: no first-board tip for them.
INSERT INTO onboarding_notes (note, user_id, guild_id, given_at)
SELECT DISTINCT 'first_board', user_id, 0, 0 FROM games;
