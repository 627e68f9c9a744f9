-- Competitions nobody can look up or farm. All their SQL is in bot/storage/games.py and bot/storage/races.py.

-- A casual game is ranked only on a deal from the bot's private bank (a secret-keyed deal nobody can compute).
-- A game on a chosen public deal (a deal number, or the seed of a finished game) is practice: never ranked.
ALTER TABLE games ADD COLUMN practice INTEGER NOT NULL DEFAULT 0 CHECK (practice IN (0, 1));
-- The shuffle seed of the deal (decimal text: up to 2**64 - 1), shown only once the competition is over.
ALTER TABLE games ADD COLUMN deal_seed TEXT;

-- Every casual game before this migration was dealt from the public numbers, which anyone can solve
-- ahead: they are practice now, and the casual boards start afresh (stats keep counting them).
UPDATE games SET practice = 1 WHERE mode = 'casual';
DELETE FROM best_results WHERE mode = 'casual';

-- The all-time boards (best_results) skip hinted and practice games (V008's trigger, widened).
DROP TRIGGER best_results_skip_hinted;
CREATE TRIGGER best_results_skip_unranked BEFORE INSERT ON best_results
WHEN (SELECT hinted OR practice FROM games WHERE id = NEW.game_id)
BEGIN
    SELECT RAISE(IGNORE);
END;

-- Today's and this week's casual boards skip them too: the covering index carries both flags.
DROP INDEX games_casual_time;
CREATE INDEX games_casual_time
    ON games (guild_id, variant, finished_at, user_id, score, seconds_used, mode, status, hinted, practice)
    WHERE mode = 'casual' AND status <> 'playing';

-- A race is dealt from the private bank too: its deal is stored (a restart deals it again to racers without a
-- game) and its seed is shown only once the race is over. deal_number stays for races before this migration.
ALTER TABLE races ADD COLUMN deal TEXT;       -- JSON of bot.competition.deal_to_json
ALTER TABLE races ADD COLUMN deal_seed TEXT;

-- Whether a racer's result moved their rating (bot.race: only racers who played, in a race two of them played,
-- at most PAIR_RATED_PER_DAY rated races a day for the same two members in a server).
ALTER TABLE race_racers ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
UPDATE race_racers SET rated = 1 WHERE place IS NOT NULL;
-- Why a finished race moved no rating (NULL: it was rated), shown with its results.
ALTER TABLE races ADD COLUMN unrated_reason TEXT;

-- A member's seat in an open race (lobby or running) of a server: at most one, whatever clicks arrive
-- together. Taken in the transaction that adds the racer; given back when they leave, the lobby closes
-- or the race finishes.
CREATE TABLE race_seats (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    race_id  INTEGER NOT NULL REFERENCES races (id),
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
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
