-- The last day each server started each variant's daily: which deals to solve ahead at its next rollover.
-- PostgreSQL translation of ../V004__daily_activity.sql.
CREATE TABLE daily_activity (
    guild_id  BIGINT NOT NULL,
    variant   TEXT   NOT NULL,
    last_date TEXT   NOT NULL, -- 'YYYY-MM-DD', the server's date
    PRIMARY KEY (guild_id, variant)
);
CREATE INDEX daily_activity_recent ON daily_activity (last_date);

CREATE FUNCTION games_note_daily() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO daily_activity (guild_id, variant, last_date) VALUES (NEW.guild_id, NEW.variant, NEW.daily_date)
    ON CONFLICT (guild_id, variant) DO UPDATE SET last_date = greatest(daily_activity.last_date, excluded.last_date);
    RETURN NULL;
END;
$$;

CREATE TRIGGER games_daily_started AFTER INSERT ON games
FOR EACH ROW WHEN (NEW.mode = 'daily' AND NEW.daily_date IS NOT NULL)
EXECUTE FUNCTION games_note_daily();

-- Dailies started before this migration.
INSERT INTO daily_activity (guild_id, variant, last_date)
SELECT guild_id, variant, max(daily_date) FROM games
WHERE mode = 'daily' AND daily_date IS NOT NULL
GROUP BY guild_id, variant;
