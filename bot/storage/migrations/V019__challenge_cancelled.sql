-- A challenge whose public message could not be shown is cancelled: status 'cancelled' (never rated,
-- never posted). All its SQL is in bot/storage/challenges.py.

-- The CHECK widened by editing the stored SQL, as V007 and V012 did (every stored row still passes).
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (status IN (''open'', ''closed''))',
                  'CHECK (status IN (''open'', ''closed'', ''cancelled''))')
WHERE type = 'table' AND name = 'challenges';
PRAGMA writable_schema = RESET;
-- Fail the migration (and roll it back) if the constraint was not found and widened.
CREATE TEMP TABLE v019_check (widened INTEGER NOT NULL CHECK (widened));
INSERT INTO v019_check SELECT instr(sql, '''closed'', ''cancelled''') > 0 FROM sqlite_schema
WHERE type = 'table' AND name = 'challenges';
DROP TABLE v019_check;

-- The open challenges of one member in one server (the cap on open challenges counts them).
CREATE INDEX challenges_open_by_member ON challenges (guild_id, challenger_id) WHERE status = 'open';
