-- The last day each server started each variant's daily: which deals to solve ahead at its next rollover.
-- One small row per server and variant, kept by the trigger below in the transaction that inserts the game.
CREATE TABLE daily_activity (
    guild_id  INTEGER NOT NULL,
    variant   TEXT    NOT NULL,
    last_date TEXT    NOT NULL, -- 'YYYY-MM-DD', the server's date
    PRIMARY KEY (guild_id, variant)
) WITHOUT ROWID;
CREATE INDEX daily_activity_recent ON daily_activity (last_date);

CREATE TRIGGER games_daily_started AFTER INSERT ON games
WHEN NEW.mode = 'daily' AND NEW.daily_date IS NOT NULL
BEGIN
    INSERT INTO daily_activity (guild_id, variant, last_date) VALUES (NEW.guild_id, NEW.variant, NEW.daily_date)
    ON CONFLICT (guild_id, variant) DO UPDATE SET last_date = max(last_date, excluded.last_date);
END;

-- Dailies started before this migration.
INSERT INTO daily_activity (guild_id, variant, last_date)
SELECT guild_id, variant, max(daily_date) FROM games
WHERE mode = 'daily' AND daily_date IS NOT NULL
GROUP BY guild_id, variant;
