-- The way in: notes the bot gives once. PostgreSQL translation of ../V015__onboarding.sql.
CREATE TABLE onboarding_notes (
    note     TEXT             NOT NULL,            -- 'first_board' or 'server_setup'
    user_id  BIGINT           NOT NULL,
    guild_id BIGINT           NOT NULL DEFAULT 0,  -- 0: the note is given once in all servers
    given_at DOUBLE PRECISION NOT NULL,            -- unix seconds (0: given before this table, see below)
    PRIMARY KEY (note, user_id, guild_id)
);

-- Everyone who already has a game has seen a board: no first-board tip for them.
INSERT INTO onboarding_notes (note, user_id, guild_id, given_at)
SELECT DISTINCT 'first_board', user_id, 0, 0 FROM games;
