-- Daily competitions, leaderboards and stats (issue 6): PostgreSQL translation of ../V002__competition.sql.

-- One ranked attempt per member, server, day and variant (a second daily insert fails on this index).
CREATE UNIQUE INDEX games_one_daily ON games (guild_id, user_id, variant, daily_date) WHERE mode = 'daily';

-- When the public line for a finished daily was claimed; set once, so the line is posted once.
ALTER TABLE games ADD COLUMN announced_at DOUBLE PRECISION;
UPDATE games SET announced_at = finished_at WHERE status <> 'playing';

-- A day's daily results in ranking order: today's and this week's daily boards, ranks, podiums.
CREATE INDEX games_daily_rank
    ON games (guild_id, variant, daily_date, score DESC, seconds_used, finished_at, user_id, mode, status)
    WHERE mode = 'daily' AND status <> 'playing';

-- Casual results by finishing time: today's and this week's casual boards.
CREATE INDEX games_casual_time
    ON games (guild_id, variant, finished_at, user_id, score, seconds_used, mode, status)
    WHERE mode = 'casual' AND status <> 'playing';

-- A member's dailies by date: streaks.
CREATE INDEX games_member_daily ON games (guild_id, user_id, daily_date, status, mode)
    WHERE mode = 'daily' AND status <> 'playing';

-- Finished dailies whose public line was never claimed (a crash between finishing and posting).
CREATE INDEX games_unannounced ON games (finished_at)
    WHERE mode = 'daily' AND status <> 'playing' AND announced_at IS NULL;

-- Each member's best result per server, variant and mode: the all-time boards.
CREATE TABLE best_results (
    guild_id     BIGINT           NOT NULL,
    variant      TEXT             NOT NULL,
    mode         TEXT             NOT NULL,
    user_id      BIGINT           NOT NULL,
    game_id      BIGINT           NOT NULL,
    score        INTEGER          NOT NULL,
    seconds_used INTEGER          NOT NULL,
    finished_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, variant, mode, user_id)
);
CREATE INDEX best_results_rank ON best_results (guild_id, variant, mode, score DESC, seconds_used, finished_at);

-- Each member's totals per server, variant and mode: stats.
CREATE TABLE member_stats (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    variant     TEXT    NOT NULL,
    mode        TEXT    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    total_score INTEGER NOT NULL,
    best_score  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, variant, mode)
);

-- A result counts once: when a row turns from playing to finished (or arrives finished).
CREATE FUNCTION games_count_result() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO member_stats (guild_id, user_id, variant, mode, games, wins, total_score, best_score)
    VALUES (NEW.guild_id, NEW.user_id, NEW.variant, NEW.mode, 1, (NEW.status = 'won')::integer, NEW.score, NEW.score)
    ON CONFLICT (guild_id, user_id, variant, mode) DO UPDATE SET
        games = member_stats.games + 1,
        wins = member_stats.wins + excluded.wins,
        total_score = member_stats.total_score + excluded.total_score,
        best_score = greatest(member_stats.best_score, excluded.best_score);
    INSERT INTO best_results (guild_id, variant, mode, user_id, game_id, score, seconds_used, finished_at)
    VALUES (NEW.guild_id, NEW.variant, NEW.mode, NEW.user_id, NEW.id, NEW.score,
            coalesce(NEW.seconds_used, 1073741824), coalesce(NEW.finished_at, 0))
    ON CONFLICT (guild_id, variant, mode, user_id) DO UPDATE SET
        game_id = excluded.game_id,
        score = excluded.score,
        seconds_used = excluded.seconds_used,
        finished_at = excluded.finished_at
    WHERE (-excluded.score, excluded.seconds_used, excluded.finished_at, excluded.game_id)
        < (-best_results.score, best_results.seconds_used, best_results.finished_at, best_results.game_id);
    RETURN NULL;
END;
$$;

CREATE TRIGGER games_result_recorded AFTER UPDATE OF status ON games
FOR EACH ROW WHEN (OLD.status = 'playing' AND NEW.status <> 'playing')
EXECUTE FUNCTION games_count_result();

CREATE TRIGGER games_result_inserted AFTER INSERT ON games
FOR EACH ROW WHEN (NEW.status <> 'playing')
EXECUTE FUNCTION games_count_result();

-- Results stored before this migration.
INSERT INTO member_stats (guild_id, user_id, variant, mode, games, wins, total_score, best_score)
SELECT guild_id, user_id, variant, mode, count(*), count(*) FILTER (WHERE status = 'won'), sum(score), max(score)
FROM games WHERE status <> 'playing'
GROUP BY guild_id, user_id, variant, mode;

INSERT INTO best_results (guild_id, variant, mode, user_id, game_id, score, seconds_used, finished_at)
SELECT guild_id, variant, mode, user_id, id, score, seconds, finished
FROM (
    SELECT guild_id, variant, mode, user_id, id, score,
           coalesce(seconds_used, 1073741824) AS seconds, coalesce(finished_at, 0) AS finished,
           row_number() OVER (
               PARTITION BY guild_id, variant, mode, user_id
               ORDER BY score DESC, coalesce(seconds_used, 1073741824), coalesce(finished_at, 0), id
           ) AS nth
    FROM games WHERE status <> 'playing'
) AS ranked
WHERE nth = 1;

-- Per-server settings: the competition channel, the time zone, the last day whose podium was posted.
CREATE TABLE guild_settings (
    guild_id         BIGINT PRIMARY KEY,
    channel_id       BIGINT,
    timezone         TEXT NOT NULL DEFAULT 'UTC',
    last_podium_date TEXT
);

-- Secrets generated on first start (the daily-deal key when the settings give none).
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- The day's proven deal per server and variant, so only the first player waits for the solver.
CREATE TABLE daily_deals (
    guild_id   BIGINT NOT NULL,
    variant    TEXT   NOT NULL,
    daily_date TEXT   NOT NULL,
    deal       TEXT   NOT NULL, -- JSON: seed, deck, solution
    PRIMARY KEY (guild_id, variant, daily_date)
);
