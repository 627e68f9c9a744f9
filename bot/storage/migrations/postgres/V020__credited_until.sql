-- The end of a game's last clock credit: PostgreSQL translation of ../V020__credited_until.sql.
ALTER TABLE games ADD COLUMN credited_until DOUBLE PRECISION NOT NULL DEFAULT 0;
