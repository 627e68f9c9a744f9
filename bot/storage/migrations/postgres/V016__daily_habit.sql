-- The daily habit: a champion role, streak reminders. PostgreSQL translation of ../V016__daily_habit.sql.

-- The role a server gives each variant's daily winner when the day's podium is due (NULL: none), and why
-- Discord last refused to give or take it back (shown by /solitaire config until a change goes through).
ALTER TABLE guild_settings ADD COLUMN champion_role_id BIGINT;
ALTER TABLE guild_settings ADD COLUMN champion_problem TEXT;
ALTER TABLE guild_settings ADD COLUMN champion_problem_at DOUBLE PRECISION;

-- The members the bot gave a champion role to: the only ones it ever takes a role back from. The row is
-- written before the role is given (given_at NULL until Discord said yes).
CREATE TABLE champion_holders (
    guild_id   BIGINT           NOT NULL,
    user_id    BIGINT           NOT NULL,
    role_id    BIGINT           NOT NULL,
    daily_date TEXT             NOT NULL,  -- the day they won ('YYYY-MM-DD', the server's date)
    given_at   DOUBLE PRECISION,           -- unix seconds; NULL while being given
    PRIMARY KEY (guild_id, user_id, role_id)
);

-- Streak reminders, opt-in (off by default): a direct message a few hours before the server's day ends.
ALTER TABLE player_settings ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0 CHECK (reminders IN (0, 1));
-- When Discord refused a reminder (closed DMs) and turned them off: the member is told at their next command.
ALTER TABLE player_settings ADD COLUMN reminders_refused_at DOUBLE PRECISION;
CREATE INDEX player_settings_reminders ON player_settings (user_id) WHERE reminders = 1;

-- A post queued again while a process delivers it (a server's champion row: bot/storage/competition.py
-- queue_champion_change) is given back, not marked done: the claim clears the mark, a new queueing sets it.
ALTER TABLE announcements ADD COLUMN queued_again INTEGER NOT NULL DEFAULT 0;
