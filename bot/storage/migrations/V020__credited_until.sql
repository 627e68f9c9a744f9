-- The end of a running game's last clock credit (unix seconds; 0 before any), written with the deadline
-- it moved out, so that after a restart the bot's busy time is not given back twice (bot/play/credits.py).
ALTER TABLE games ADD COLUMN credited_until REAL NOT NULL DEFAULT 0;
