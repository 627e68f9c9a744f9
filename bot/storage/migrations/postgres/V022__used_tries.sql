-- Forgetting never reopens a competition. PostgreSQL translation of ../V020__used_tries.sql.
-- A forgotten member's daily try of a day that is not over yet for the server: forgetting deletes the game,
-- and this anonymous mark keeps the try used, so the same deal is not played again; purged once that day is
-- over for the server. ``mark`` is a keyed hash (HMAC-SHA256 under this database's own secret, in secrets)
-- of the server, the member, the variant and the day: the member's id is not kept.
CREATE TABLE used_tries (
    mark       TEXT   PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    daily_date TEXT   NOT NULL
);
CREATE INDEX used_tries_day ON used_tries (guild_id, daily_date);
-- A forgotten member's stand-in is never rated: drop the rating rows an earlier version gave some.
DELETE FROM ratings WHERE user_id < 0;
