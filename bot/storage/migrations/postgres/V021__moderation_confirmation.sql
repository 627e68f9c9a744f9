-- A moderation action names the confirmation that asked for it, once. PostgreSQL translation of
-- ../V020__moderation_confirmation.sql.
ALTER TABLE moderation_log ADD COLUMN confirmation TEXT;
CREATE UNIQUE INDEX moderation_log_confirmation ON moderation_log (confirmation);
