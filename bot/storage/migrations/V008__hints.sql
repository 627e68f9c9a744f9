-- Hints (issue 14): a casual game in which the player took a hint is marked, and left off the casual boards.
ALTER TABLE games ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;

-- The all-time boards read best_results: a hinted game never enters it (V002's trigger stays as it is;
-- RAISE(IGNORE) drops just that insert, stats still count the game).
CREATE TRIGGER best_results_skip_hinted BEFORE INSERT ON best_results
WHEN (SELECT hinted FROM games WHERE id = NEW.game_id)
BEGIN
    SELECT RAISE(IGNORE);
END;

-- Today's and this week's casual boards skip hinted games: the covering index carries the flag.
DROP INDEX games_casual_time;
CREATE INDEX games_casual_time
    ON games (guild_id, variant, finished_at, user_id, score, seconds_used, mode, status, hinted)
    WHERE mode = 'casual' AND status <> 'playing';
