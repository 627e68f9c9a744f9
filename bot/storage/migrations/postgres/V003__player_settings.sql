-- Each player's display preferences, the same in every server (all their SQL is in bot/storage/players.py).
-- No row means the defaults: every column's default below. PostgreSQL translation of ../V003__player_settings.sql.
CREATE TABLE player_settings (
    user_id     BIGINT  PRIMARY KEY,
    four_colour INTEGER NOT NULL DEFAULT 0 CHECK (four_colour IN (0, 1)) -- clubs green, diamonds blue
);
