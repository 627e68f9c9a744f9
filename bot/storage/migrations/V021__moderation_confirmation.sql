-- A moderation action names the confirmation that asked for it (the random nonce of its buttons), once:
-- a second click of the same confirmation (a double click, two in flight) finds it taken and does
-- nothing. Older rows have none (NULL: a unique index lets any number of them be). All its SQL is in
-- bot/storage/moderation.py.
ALTER TABLE moderation_log ADD COLUMN confirmation TEXT;
CREATE UNIQUE INDEX moderation_log_confirmation ON moderation_log (confirmation);
