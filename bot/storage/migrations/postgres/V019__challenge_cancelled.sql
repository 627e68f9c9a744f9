-- A cancelled challenge: PostgreSQL translation of ../V019__challenge_cancelled.sql.
ALTER TABLE challenges DROP CONSTRAINT challenges_status_check;
ALTER TABLE challenges ADD CONSTRAINT challenges_status_check CHECK (status IN ('open', 'closed', 'cancelled'));

CREATE INDEX challenges_open_by_member ON challenges (guild_id, challenger_id) WHERE status = 'open';
