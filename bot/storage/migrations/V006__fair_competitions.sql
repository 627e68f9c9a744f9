-- Fair competitions on real clocks (issue 11). All their SQL is in bot/storage/competition.py.

-- A time-zone change waits for the end of the current day (bot.competition.DayClock).
ALTER TABLE guild_settings ADD COLUMN day_floor TEXT;            -- no server date before this one
ALTER TABLE guild_settings ADD COLUMN next_timezone TEXT;        -- the zone chosen, in effect from next_timezone_from
ALTER TABLE guild_settings ADD COLUMN next_timezone_from REAL;   -- unix seconds: the end of the day it was chosen on
ALTER TABLE guild_settings ADD COLUMN next_day_floor TEXT;       -- the day_floor it brings
-- Why the last post in the competition channel failed for lack of access (shown by /solitaire config).
ALTER TABLE guild_settings ADD COLUMN channel_problem TEXT;
ALTER TABLE guild_settings ADD COLUMN channel_problem_at REAL;

-- Every public post (a daily's result line, a day's podium), kept until it is posted: a failed post is
-- retried with backoff (due_at), restarts included. claimed_at marks a post in flight.
CREATE TABLE announcements (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL,   -- 'result' | 'podium'
    subject    TEXT    NOT NULL,   -- the game id of a result line, the 'YYYY-MM-DD' of a podium
    channel_id INTEGER,            -- a result line's fallback: the channel its game was played in
    created_at REAL    NOT NULL,
    due_at     REAL    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    claimed_at REAL,
    state      TEXT    NOT NULL DEFAULT 'waiting',  -- 'waiting' | 'posted' | 'dropped'
    UNIQUE (kind, guild_id, subject)
);
CREATE INDEX announcements_due ON announcements (due_at) WHERE state = 'waiting';

-- Results: the two copied triggers of V002 become one definition. A finished game always has its time
-- used (bot.sessions records it), so no stand-in number is needed: a finished row without one is refused.
DROP TRIGGER games_result_recorded;
DROP TRIGGER games_result_inserted;

CREATE VIEW finished_results AS
SELECT id AS game_id, guild_id, user_id, variant, mode, status, score, seconds_used, finished_at FROM games WHERE 0;

CREATE TRIGGER finished_results_count INSTEAD OF INSERT ON finished_results
BEGIN
    SELECT RAISE(ABORT, 'a finished game needs seconds_used and finished_at')
    WHERE NEW.seconds_used IS NULL OR NEW.finished_at IS NULL;
    INSERT INTO member_stats (guild_id, user_id, variant, mode, games, wins, total_score, best_score)
    VALUES (NEW.guild_id, NEW.user_id, NEW.variant, NEW.mode, 1, NEW.status = 'won', NEW.score, NEW.score)
    ON CONFLICT (guild_id, user_id, variant, mode) DO UPDATE SET
        games = games + 1,
        wins = wins + excluded.wins,
        total_score = total_score + excluded.total_score,
        best_score = max(best_score, excluded.best_score);
    -- Ranking rule (bot.competition.RANK_ORDER) within one member: tests/bot/test_ranking_sql.py checks it.
    INSERT INTO best_results (guild_id, variant, mode, user_id, game_id, score, seconds_used, finished_at)
    VALUES (NEW.guild_id, NEW.variant, NEW.mode, NEW.user_id, NEW.game_id, NEW.score, NEW.seconds_used,
            NEW.finished_at)
    ON CONFLICT (guild_id, variant, mode, user_id) DO UPDATE SET
        game_id = excluded.game_id,
        score = excluded.score,
        seconds_used = excluded.seconds_used,
        finished_at = excluded.finished_at
    WHERE (-excluded.score, excluded.seconds_used, excluded.finished_at)
        < (-best_results.score, best_results.seconds_used, best_results.finished_at);
END;

-- A game closed as 'broken' (V005: its state could not be rebuilt) is no result.
CREATE TRIGGER games_result_recorded AFTER UPDATE OF status ON games
WHEN OLD.status = 'playing' AND NEW.status NOT IN ('playing', 'broken')
BEGIN
    INSERT INTO finished_results SELECT NEW.id, NEW.guild_id, NEW.user_id, NEW.variant, NEW.mode, NEW.status,
        NEW.score, NEW.seconds_used, NEW.finished_at;
END;

CREATE TRIGGER games_result_inserted AFTER INSERT ON games
WHEN NEW.status NOT IN ('playing', 'broken')
BEGIN
    INSERT INTO finished_results SELECT NEW.id, NEW.guild_id, NEW.user_id, NEW.variant, NEW.mode, NEW.status,
        NEW.score, NEW.seconds_used, NEW.finished_at;
END;

-- Finished dailies whose public line is not yet queued (after V002 they were posted already).
-- games.announced_at now means "queued in announcements"; games_unannounced (V002) still finds the rest.
