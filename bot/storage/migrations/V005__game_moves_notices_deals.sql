-- Issue 10: constant-size saves, notices for the player's next command, numbered deals solved once.

-- One row per accepted command of a running game: a save appends rows, it never rewrites the log.
-- games.state holds the deck and the log up to the first row here (an empty log for new games; the
-- whole log for rows saved before V005 and for finished games, whose rows here are then deleted).
CREATE TABLE game_moves (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq     INTEGER NOT NULL, -- 0-based position in the game's log (games.version counts them)
    move    TEXT    NOT NULL, -- move notation, or 'expire'
    seconds INTEGER NOT NULL, -- clock reading when it was played
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- A finished game's state holds its whole log: its move rows are no longer needed.
CREATE TRIGGER games_finished_drop_moves AFTER UPDATE OF status ON games
WHEN OLD.status = 'playing' AND NEW.status <> 'playing'
BEGIN
    DELETE FROM game_moves WHERE game_id = NEW.id;
END;

-- What to tell a player privately at their next command in that server: a damaged game closed at a
-- restart, or a result their board could not show (Discord no longer lets the bot edit it).
CREATE TABLE player_notices (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL, -- 0 in DMs
    user_id    INTEGER NOT NULL,
    game_id    INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    created_at REAL    NOT NULL
);
CREATE INDEX player_notices_player ON player_notices (guild_id, user_id);

-- Numbered deals (/solitaire start deal:N) solved once and kept: a repeated number costs no solve.
CREATE TABLE numbered_deals (
    variant TEXT    NOT NULL,
    number  INTEGER NOT NULL,
    solver  TEXT    NOT NULL, -- the solver version that found it (a new solver solves again)
    deal    TEXT    NOT NULL, -- JSON of bot.competition.deal_to_json
    PRIMARY KEY (variant, number, solver)
) WITHOUT ROWID;

-- A game closed as 'broken' (its state could not be rebuilt) is no result: V006's result triggers skip it.
