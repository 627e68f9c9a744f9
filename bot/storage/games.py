"""The ``games`` table: one row per game, written by the session manager."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, fields
from typing import Literal

from bot.storage import Database, Row

Mode = Literal["casual", "daily", "race"]
PLAYING = "playing"

_COLUMNS = (
    "id, guild_id, channel_id, user_id, variant, mode, deal_number, daily_date, state, status, score, "
    "seconds_used, started_at, deadline, finished_at, message_id, webhook_token, version"
)


class DuplicateGameError(Exception):
    """An insert hit a unique index: ``kind`` is ``"active"`` or ``"daily"``."""

    def __init__(self, kind: Literal["active", "daily"]) -> None:
        super().__init__(f"duplicate {kind} game")
        self.kind: Literal["active", "daily"] = kind


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

    @property
    def is_playing(self) -> bool:
        """Whether the game was still running when this row was read."""
        return self.status == PLAYING

    @classmethod
    def from_row(cls, row: Row) -> GameRecord:
        """Build a record from a ``SELECT`` of every column."""
        return cls(**{field.name: row[field.name] for field in fields(cls)})


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


@dataclass(frozen=True)
class Progress:
    """A running game's state after an accepted command."""

    state: str
    score: int
    version: int


@dataclass(frozen=True)
class Result:
    """A finished game's final state, written once."""

    state: str
    status: str
    score: int
    seconds_used: int
    finished_at: float
    version: int


async def insert_game(db: Database, game: NewGame) -> GameRecord:
    """Insert a playing game and return its row.

    :raises DuplicateGameError: if the player already has a game running in this
        guild (``"active"``) or already played this daily (``"daily"``).
    """
    try:
        async with db.transaction() as tx:
            changed = await tx.execute(
                "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, deal_number, daily_date, state,"
                " status, score, started_at, deadline, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'playing', 0, ?, ?, 0)",
                (
                    game.guild_id,
                    game.channel_id,
                    game.user_id,
                    game.variant,
                    game.mode,
                    game.deal_number,
                    game.daily_date,
                    game.state,
                    game.started_at,
                    game.deadline,
                ),
            )
            row = await tx.fetchone(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (changed.lastrowid,))
    except sqlite3.IntegrityError as error:
        if "UNIQUE" not in str(error):
            raise
        raise DuplicateGameError("daily" if "daily_date" in str(error) else "active") from error
    assert row is not None
    return GameRecord.from_row(row)


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


async def save_progress(db: Database, game_id: int, progress: Progress) -> bool:
    """Store a running game's state; return ``False`` if it is no longer running."""
    changed = await db.execute(
        "UPDATE games SET state = ?, score = ?, version = ? WHERE id = ? AND status = 'playing'",
        (progress.state, progress.score, progress.version, game_id),
    )
    return changed.rowcount == 1


async def finish_game(db: Database, game_id: int, result: Result) -> GameRecord | None:
    """Record a result in one transaction; return the final row, or ``None`` if it was already finished."""
    async with db.transaction() as tx:
        changed = await tx.execute(
            "UPDATE games SET state = ?, status = ?, score = ?, seconds_used = ?, finished_at = ?, version = ?"
            " WHERE id = ? AND status = 'playing' AND finished_at IS NULL",
            (
                result.state,
                result.status,
                result.score,
                result.seconds_used,
                result.finished_at,
                result.version,
                game_id,
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
