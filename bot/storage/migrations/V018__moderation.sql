-- Moderation and forgetting. All their SQL is in bot/storage/moderation.py and bot/storage/privacy.py.
-- Every moderation action a server's admin took, with the reason they gave. A member who asks to be
-- forgotten leaves the row without their id (user_id or moderator_id NULL).
CREATE TABLE moderation_log (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER,           -- the member acted on (NULL once forgotten)
    moderator_id INTEGER,           -- the admin who acted (NULL once forgotten)
    action       TEXT    NOT NULL CHECK (action IN ('remove-results')),
    reason       TEXT    NOT NULL,
    results      INTEGER NOT NULL,  -- how many finished games it took off the boards
    created_at   REAL    NOT NULL   -- unix seconds
);
CREATE INDEX moderation_log_guild ON moderation_log (guild_id, created_at);
-- The games a removal took off the boards (their status became 'removed'), with the status they had,
-- so the record stays whole.
CREATE TABLE removed_results (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    status  TEXT    NOT NULL,
    log_id  INTEGER NOT NULL REFERENCES moderation_log (id)
);
-- A member's games wherever they played, found without reading every game: forgetting a member
-- (bot/storage/privacy.py) holds the write lock only for their own rows.
CREATE INDEX games_user ON games (user_id);
