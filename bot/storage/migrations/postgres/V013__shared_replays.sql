-- One public replay per game (Share replay, cogs/after_game.py): the message it was posted as.
-- PostgreSQL translation of ../V013__shared_replays.sql.
CREATE TABLE shared_replays (
    game_id    BIGINT           PRIMARY KEY REFERENCES games (id),
    guild_id   BIGINT           NOT NULL, -- 0 in DMs
    channel_id BIGINT           NOT NULL,
    message_id BIGINT,                    -- NULL while being posted
    claimed_at DOUBLE PRECISION NOT NULL  -- unix seconds
);
