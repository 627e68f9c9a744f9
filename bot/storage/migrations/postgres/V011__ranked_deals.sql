-- Competitions nobody can look up or farm: PostgreSQL translation of ../V011__ranked_deals.sql.

-- A casual game is ranked only on a deal from the bot's private bank; a chosen public deal is practice.
ALTER TABLE games ADD COLUMN practice INTEGER NOT NULL DEFAULT 0 CHECK (practice IN (0, 1));
ALTER TABLE games ADD COLUMN deal_seed TEXT;  -- decimal text: up to 2**64 - 1, shown once the game is over

-- Every earlier casual game was on a public number: practice now; the casual boards start afresh.
UPDATE games SET practice = 1 WHERE mode = 'casual';
DELETE FROM best_results WHERE mode = 'casual';

-- The all-time boards skip hinted and practice games (V008's result function, widened).
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
    IF NEW.hinted = 0 AND NEW.practice = 0 THEN
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

DROP INDEX games_casual_time;
CREATE INDEX games_casual_time
    ON games (guild_id, variant, finished_at, user_id, score, seconds_used, mode, status, hinted, practice)
    WHERE mode = 'casual' AND status <> 'playing';

-- A race is dealt from the private bank too (its deal stored for a restart, its seed shown once it is over).
ALTER TABLE races ADD COLUMN deal TEXT;
ALTER TABLE races ADD COLUMN deal_seed TEXT;

-- Whether a racer's result moved their rating, and why a finished race moved none.
ALTER TABLE race_racers ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
UPDATE race_racers SET rated = 1 WHERE place IS NOT NULL;
ALTER TABLE races ADD COLUMN unrated_reason TEXT;

-- A member's seat in an open race of a server: at most one.
CREATE TABLE race_seats (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    race_id  BIGINT NOT NULL REFERENCES races (id),
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX race_seats_race ON race_seats (race_id);
INSERT INTO race_seats (guild_id, user_id, race_id)
SELECT r.guild_id, x.user_id, min(r.id) FROM race_racers AS x JOIN races AS r ON r.id = x.race_id
WHERE r.status IN ('lobby', 'running') AND x.left_at IS NULL
GROUP BY r.guild_id, x.user_id;

-- Race results are posted through announcements now (retried until the race message shows them):
-- queue those of finished races that were never posted.
INSERT INTO announcements (guild_id, kind, subject, channel_id, created_at, due_at)
SELECT guild_id, 'race', CAST(id AS TEXT), channel_id, finished_at, finished_at FROM races
WHERE status = 'finished' AND results_posted_at IS NULL AND finished_at IS NOT NULL
ON CONFLICT DO NOTHING;
