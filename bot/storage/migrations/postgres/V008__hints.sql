-- Hints (issue 14): PostgreSQL translation of ../V008__hints.sql.
ALTER TABLE games ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;

-- The all-time boards read best_results: a hinted game never enters it; stats still count the game.
-- SQLite does this with a BEFORE INSERT trigger on best_results that looks the game up; here V006's result
-- function has the game's row at hand, so it is replaced by one that skips that insert (no lookup per result).
CREATE OR REPLACE FUNCTION games_count_result() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.seconds_used IS NULL OR NEW.finished_at IS NULL THEN
        RAISE EXCEPTION 'a finished game needs seconds_used and finished_at' USING ERRCODE = 'check_violation';
    END IF;
    INSERT INTO member_stats (guild_id, user_id, variant, mode, games, wins, total_score, best_score)
    VALUES (NEW.guild_id, NEW.user_id, NEW.variant, NEW.mode, 1, (NEW.status = 'won')::integer, NEW.score, NEW.score)
    ON CONFLICT (guild_id, user_id, variant, mode) DO UPDATE SET
        games = member_stats.games + 1,
        wins = member_stats.wins + excluded.wins,
        total_score = member_stats.total_score + excluded.total_score,
        best_score = greatest(member_stats.best_score, excluded.best_score);
    -- Ranking rule (bot.competition.RANK_ORDER) within one member: tests/bot/test_ranking_sql.py checks it.
    IF NEW.hinted = 0 THEN
        INSERT INTO best_results (guild_id, variant, mode, user_id, game_id, score, seconds_used, finished_at)
        VALUES (NEW.guild_id, NEW.variant, NEW.mode, NEW.user_id, NEW.id, NEW.score, NEW.seconds_used, NEW.finished_at)
        ON CONFLICT (guild_id, variant, mode, user_id) DO UPDATE SET
            game_id = excluded.game_id,
            score = excluded.score,
            seconds_used = excluded.seconds_used,
            finished_at = excluded.finished_at
        WHERE (-excluded.score, excluded.seconds_used, excluded.finished_at)
            < (-best_results.score, best_results.seconds_used, best_results.finished_at);
    END IF;
    RETURN NULL;
END;
$$;

-- Today's and this week's casual boards skip hinted games: the covering index carries the flag.
DROP INDEX games_casual_time;
CREATE INDEX games_casual_time
    ON games (guild_id, variant, finished_at, user_id, score, seconds_used, mode, status, hinted)
    WHERE mode = 'casual' AND status <> 'playing';
