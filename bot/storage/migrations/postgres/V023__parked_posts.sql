-- Posts given up (parked): a post whose composing or delivering raised PARK_AFTER times in a row
-- (bot/outbox/announcements.py) is no longer tried: its announcements row's state becomes 'parked', which a
-- restart leaves alone. Its server's admins see the last one in /solitaire config and in a note.

-- Errors in a row (a composer or a listener that raised) of a post; failed deliveries count in attempts.
ALTER TABLE announcements ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
-- The last post of the server given up ('the podium of 2026-05-01') and when (unix seconds).
ALTER TABLE guild_settings ADD COLUMN outbox_problem TEXT;
ALTER TABLE guild_settings ADD COLUMN outbox_problem_at DOUBLE PRECISION;
