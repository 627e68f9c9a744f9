"""The ``games`` table (one row per game) and its ``game_moves`` log, written by the games' saves (``bot.play.saving``).

A running game's row holds its deck and the start of its log (``state``); each accepted command
appends one ``game_moves`` row (:func:`save_progress`), so a save costs the same at move 10 and
move 5,000. :func:`game_state` joins the two; :func:`finish_game` writes the whole log into
``state`` once (a V005 trigger then drops the move rows). ``player_notices`` holds what to tell a player at their
next command.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from typing import Literal

from bot.rules.modes import DAILY, mode_of
from bot.storage import ConstraintError, Database, Row, Transaction, Write

Mode = Literal["casual", "daily", "race", "challenge"]
PLAYING = "playing"
BROKEN = "broken"
"""The status of a game whose stored state could not be rebuilt: closed, not a result (no win, loss or score)."""
REMOVED = "removed"
"""The status of a finished game whose result an admin removed from the boards (:mod:`bot.storage.moderation`)."""

_COLUMNS = (
    "id, guild_id, channel_id, user_id, variant, mode, deal_number, daily_date, state, status, score, "
    "seconds_used, started_at, deadline, finished_at, message_id, webhook_token, version, practice, deal_seed, "
    "credited_until"
)
_SEATED_IN_LOBBY = (
    "EXISTS (SELECT 1 FROM race_seats AS s JOIN races AS r ON r.id = s.race_id"
    " WHERE s.guild_id = ?1 AND s.user_id = ?2 AND r.status = 'lobby')"
)
"""Whether member ``?2`` of server ``?1`` sits in an open race lobby there (V011)."""


class DuplicateGameError(Exception):
    """An insert hit a unique index: ``kind`` is ``"active"`` or ``"daily"``."""

    def __init__(self, kind: Literal["active", "daily"]) -> None:
        super().__init__(f"duplicate {kind} game")
        self.kind: Literal["active", "daily"] = kind


class InLobbyError(Exception):
    """A casual game or a daily refused: the member sits in an open race lobby of that server."""


class LinkRefusedError(Exception):
    """The competition a new game belongs to refused to take it (its ``link`` said no): nothing was written."""


Link = Callable[[Transaction, int], Awaitable[bool]]
"""Ties a new game (its id) to what it belongs to, in the insert's own transaction; ``False`` undoes both."""


@dataclass(frozen=True)
class GameRecord:
    """One row of ``games``; ``state`` is the JSON of :func:`solitaire.game_to_json`."""

    id: int
    guild_id: int
    channel_id: int
    user_id: int
    variant: str
    mode: Mode
    deal_number: int | None
    daily_date: str | None
    state: str
    status: str
    score: int
    seconds_used: int | None
    started_at: float
    deadline: float
    finished_at: float | None
    message_id: int | None
    webhook_token: str | None
    version: int
    practice: bool = False
    """A game on a chosen public deal (a deal number or a seed): never ranked (V011)."""
    deal_seed: str | None = None
    """The deal's shuffle seed (decimal): public for practice games, shown for ranked ones once over."""
    credited_until: float = 0.0
    """The end of the last clock credit the deadline carries (0 before any): never credited again (V020)."""

    @property
    def is_playing(self) -> bool:
        """Whether the game was still running when this row was read."""
        return self.status == PLAYING

    @classmethod
    def from_row(cls, row: Row) -> GameRecord:
        """Build a record from a ``SELECT`` of every column."""
        values = {field.name: row[field.name] for field in fields(cls)}
        values["practice"] = bool(values["practice"])
        return cls(**values)


@dataclass(frozen=True)
class NewGame:
    """What a new row needs; the database assigns ``id``."""

    guild_id: int
    channel_id: int
    user_id: int
    variant: str
    mode: Mode
    deal_number: int | None
    daily_date: str | None
    state: str
    started_at: float
    deadline: float
    practice: bool = False
    deal_seed: str | None = None


@dataclass(frozen=True)
class Result:
    """A finished game's final state, written once."""

    state: str
    status: str
    score: int
    seconds_used: int
    finished_at: float
    version: int
    hinted: bool = False
    """The player took a hint: the game stays off the casual leaderboards (V008)."""


async def insert_game(db: Database, game: NewGame, *, link: Link | None = None) -> GameRecord:
    """Insert a playing game and return its row.

    A casual game or a daily is refused while the member sits in an open race lobby of the server
    (checked in the same statement). ``link`` ties the game to its competition in the same transaction
    (a challenge's attempt), so a crash never leaves one without the other.

    :raises DuplicateGameError: if the player already has a game running in this
        guild (``"active"``) or already played this daily (``"daily"``).
    :raises InLobbyError: a casual game or daily of a member in an open race lobby there.
    :raises LinkRefusedError: ``link`` refused the game.
    """
    lobby = "0 = 1" if mode_of(game.mode).from_lobby else _SEATED_IN_LOBBY
    try:
        async with db.transaction() as tx:
            row = await tx.fetchone(
                "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, deal_number, daily_date, state,"
                " status, score, started_at, deadline, version, practice, deal_seed)"
                " SELECT CAST(?1 AS BIGINT), CAST(?3 AS BIGINT), CAST(?2 AS BIGINT), CAST(?4 AS TEXT),"
                " CAST(?5 AS TEXT), CAST(?6 AS BIGINT), CAST(?7 AS TEXT), CAST(?8 AS TEXT), 'playing', 0,"
                " CAST(?9 AS DOUBLE PRECISION),"
                " CAST(?10 AS DOUBLE PRECISION), 0, CAST(?11 AS INTEGER), CAST(?12 AS TEXT)"
                f" WHERE NOT {lobby} RETURNING {_COLUMNS}",
                (
                    game.guild_id,
                    game.user_id,
                    game.channel_id,
                    game.variant,
                    game.mode,
                    game.deal_number,
                    game.daily_date,
                    game.state,
                    game.started_at,
                    game.deadline,
                    int(game.practice),
                    game.deal_seed,
                ),
            )
            if row is not None and link is not None and not await link(tx, int(row["id"])):
                raise LinkRefusedError()
    except ConstraintError as error:
        if "UNIQUE" not in str(error):
            raise
        raise DuplicateGameError("daily" if await _played_daily(db, game) else "active") from error
    if row is None:
        raise InLobbyError()
    return GameRecord.from_row(row)


async def _played_daily(db: Database, game: NewGame) -> bool:
    """Whether the player already has this daily: asked after a refused insert, so the answer does not
    depend on which unique index a backend checks first (a running daily breaks both)."""
    if mode_of(game.mode) is not DAILY:
        return False
    row = await db.fetchone(
        "SELECT 1 FROM games WHERE guild_id = ? AND user_id = ? AND variant = ? AND daily_date = ? AND mode = 'daily'",
        (game.guild_id, game.user_id, game.variant, game.daily_date),
    )
    return row is not None


async def get_game(db: Database, game_id: int) -> GameRecord | None:
    """Return game ``game_id``, or ``None``."""
    row = await db.fetchone(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,))
    return GameRecord.from_row(row) if row is not None else None


async def active_game(db: Database, guild_id: int, user_id: int) -> GameRecord | None:
    """Return the player's running game in this guild (0 for DMs), or ``None``."""
    row = await db.fetchone(
        f"SELECT {_COLUMNS} FROM games WHERE guild_id = ? AND user_id = ? AND status = 'playing'",
        (guild_id, user_id),
    )
    return GameRecord.from_row(row) if row is not None else None


async def playing_games(db: Database) -> list[GameRecord]:
    """Every game still marked as running, oldest first (to resume after a restart)."""
    rows = await db.fetchall(f"SELECT {_COLUMNS} FROM games WHERE status = 'playing' ORDER BY id")
    return [GameRecord.from_row(row) for row in rows]


async def save_progress(
    db: Database,
    game_id: int,
    *,
    first: int,
    moves: tuple[tuple[str, int], ...],
    score: int,
    version: int,
    deadline: float,
    credited_until: float = 0.0,
) -> bool:
    """Append a running game's new log entries in one transaction (constant size).

    ``moves`` are the ``(notation, seconds)`` log entries played since ``first`` (the saved version), the
    first at position ``first``; ``score`` and ``version`` are the game's after them; ``deadline`` is moved
    out by the clock credits so far, the last ending at ``credited_until`` (:attr:`GameRecord.credited_until`).
    Returns ``False`` (and writes nothing) if the game is no longer running or its stored version is not
    ``first`` (the caller's game and the row disagree).
    """
    guard = Write(
        "UPDATE games SET score = ?, version = ?, deadline = ?, credited_until = ?"
        " WHERE id = ? AND status = 'playing' AND version = ?",
        [(score, version, deadline, credited_until, game_id, first)],
        exactly_one=True,
    )
    rows = Write(
        "INSERT INTO game_moves (game_id, seq, move, seconds) VALUES (?, ?, ?, ?)",
        [(game_id, first + index, move, seconds) for index, (move, seconds) in enumerate(moves)],
    )
    return await db.write_batch([guard, rows]) is not None


async def move_deadline(db: Database, game_id: int, deadline: float, credited_until: float) -> None:
    """Move a running game's deadline out to ``deadline`` (its clock credits, the last ending at ``credited_until``).

    Never in, never once it ended.
    """
    await db.execute(
        "UPDATE games SET deadline = ?, credited_until = ? WHERE id = ? AND status = 'playing' AND deadline < ?",
        (deadline, credited_until, game_id, deadline),
    )


async def game_state(db: Database, record: GameRecord) -> str:
    """The game JSON of a row (``state``) with the moves saved since in ``game_moves`` appended to its log.

    :raises ValueError: if ``state`` is not a game's JSON.
    """
    data = json.loads(record.state)
    if not isinstance(data, dict) or not isinstance(data.get("log"), list):
        raise ValueError(f"game {record.id}: its state is not a saved game")
    rows = await db.fetchall(
        "SELECT move, seconds FROM game_moves WHERE game_id = ? AND seq >= ? ORDER BY seq",
        (record.id, len(data["log"])),
    )
    data["log"].extend([row["move"], row["seconds"]] for row in rows)
    return json.dumps(data, separators=(",", ":"))


async def finish_game(db: Database, game_id: int, result: Result, *, saved_version: int) -> GameRecord | None:
    """Record a result (whole log in ``state``) in one transaction; return the row.

    Guarded by the game's stored version: ``None``, with nothing written, unless the game is still
    running at ``saved_version`` (the version the caller last saved). A process holding a stale copy
    of the game (another one saved moves since, or finished it) never writes its result.
    """
    async with db.transaction() as tx:
        changed = await tx.execute(
            "UPDATE games SET state = ?, status = ?, score = ?, seconds_used = ?, finished_at = ?, version = ?,"
            " hinted = ? WHERE id = ? AND status = 'playing' AND finished_at IS NULL AND version = ?",
            (
                result.state,
                result.status,
                result.score,
                result.seconds_used,
                result.finished_at,
                result.version,
                int(result.hinted),
                game_id,
                saved_version,
            ),
        )
        if changed.rowcount != 1:
            return None
        row = await tx.fetchone(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,))
    return GameRecord.from_row(row) if row is not None else None


async def set_board(db: Database, game_id: int, *, channel_id: int, message_id: int | None, token: str | None) -> None:
    """Remember where a game's board is (its message and, for ephemeral boards, the interaction token)."""
    await db.execute(
        "UPDATE games SET channel_id = ?, message_id = ?, webhook_token = ? WHERE id = ?",
        (channel_id, message_id, token, game_id),
    )


async def close_broken(db: Database, record: GameRecord, *, finished_at: float, notice: str) -> bool:
    """Close a running game whose state cannot be rebuilt (status ``broken``) and queue ``notice`` for its player.

    Returns ``False`` if the game was no longer running (nothing written).
    """
    async with db.transaction() as tx:
        changed = await tx.execute(
            "UPDATE games SET status = ?, score = 0, seconds_used = 0, finished_at = ?"
            " WHERE id = ? AND status = 'playing' AND finished_at IS NULL",
            (BROKEN, finished_at, record.id),
        )
        if changed.rowcount != 1:
            return False
        await _insert_notice(tx, record.guild_id, record.user_id, record.id, notice, finished_at)
    return True


async def add_notice(db: Database, guild_id: int, user_id: int, game_id: int, text: str, *, now: float) -> None:
    """Queue ``text`` for the player's next command in this guild (0 for DMs)."""
    async with db.transaction() as tx:
        await _insert_notice(tx, guild_id, user_id, game_id, text, now)


async def _insert_notice(tx: Transaction, guild_id: int, user_id: int, game_id: int, text: str, now: float) -> None:
    await tx.execute(
        "INSERT INTO player_notices (guild_id, user_id, game_id, text, created_at) VALUES (?, ?, ?, ?, ?)",
        (guild_id, user_id, game_id, text, now),
    )


async def noticed_players(db: Database) -> set[tuple[int, int]]:
    """Every ``(guild_id, user_id)`` with a notice waiting."""
    rows = await db.fetchall("SELECT DISTINCT guild_id, user_id FROM player_notices")
    return {(int(row["guild_id"]), int(row["user_id"])) for row in rows}


async def pending_notices(db: Database, guild_id: int, user_id: int) -> list[tuple[int, str]]:
    """The player's waiting notices as ``(notice id, text)``, oldest first."""
    rows = await db.fetchall(
        "SELECT id, text FROM player_notices WHERE guild_id = ? AND user_id = ? ORDER BY id", (guild_id, user_id)
    )
    return [(int(row["id"]), str(row["text"])) for row in rows]


async def drop_notices(db: Database, notice_ids: list[int]) -> None:
    """Forget notices once they were shown."""
    await db.executemany("DELETE FROM player_notices WHERE id = ?", [(notice_id,) for notice_id in notice_ids])
