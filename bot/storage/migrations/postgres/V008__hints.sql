-- Hints (issue 14): PostgreSQL translation of ../V008__hints.sql.
ALTER TABLE games ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;

-- The all-time boards read best_results: a hinted game never enters it (a BEFORE trigger returning NULL
-- drops just that insert, stats still count the game).
CREATE FUNCTION best_results_hinted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT hinted FROM games WHERE id = NEW.game_id) <> 0 THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER best_results_skip_hinted BEFORE INSERT ON best_results
FOR EACH ROW EXECUTE FUNCTION best_results_hinted();

-- Today's and this week's casual boards skip hinted games: the covering index carries the flag.
DROP INDEX games_casual_time;
CREATE INDEX games_casual_time
    ON games (guild_id, variant, finished_at, user_id, score, seconds_used, mode, status, hinted)
    WHERE mode = 'casual' AND status <> 'playing';
