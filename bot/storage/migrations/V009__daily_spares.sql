-- Spare daily deals: proven deals kept ready per variant (secret-keyed sources with a random nonce),
-- so a server's day deal that nobody solved ahead is taken from here instead of making a player wait
-- for the solver. A spare is used once: it moves into daily_deals in the same transaction.
CREATE TABLE daily_spares (
    id      INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    deal    TEXT NOT NULL -- JSON of bot.competition.deal_to_json
);
CREATE INDEX daily_spares_variant ON daily_spares (variant, id);
