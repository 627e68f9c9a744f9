"""A server admin's moderation: a member's results taken off the server's boards, each action logged with its reason.

A removal changes the member's finished daily and casual games of that server to status ``removed``
(``FINISHED`` of :mod:`bot.storage.competition` leaves them out of every board, rank, podium and
streak), keeping the status they had in ``removed_results``; it deletes their kept best results
and totals of those modes there and their race ratings there (others' ratings stay as they were).
Their race and challenge places stay: others saw them. A game still in progress is not touched.

Each removal names the confirmation that asked for it (V021): a confirmation acts once, so a double
click (even two clicks in flight together, or on two processes) logs and removes once.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import Database
from bot.storage.competition import FINISHED
from bot.storage.conditions import sql_modes
from bot.storage.games import REMOVED

BOARD_MODES = sql_modes(lambda mode: mode.on_boards)
"""The games the leaderboards rank."""


class AlreadyDoneError(Exception):
    """The confirmation was used already: its action was done (or is being done) once."""

    def __init__(self, confirmation: str) -> None:
        super().__init__(f"confirmation {confirmation!r} was already used")
        self.confirmation = confirmation


@dataclass(frozen=True)
class LogEntry:
    """One row of a server's moderation log."""

    id: int
    user_id: int | None
    moderator_id: int | None
    action: str
    reason: str
    results: int
    created_at: float


async def remove_results(
    db: Database, guild_id: int, user_id: int, *, moderator_id: int, reason: str, now: float, confirmation: str
) -> int:
    """Take a member's finished results off a server's boards and log it; return how many games it took off.

    :raises AlreadyDoneError: when ``confirmation`` was used before (nothing is done again).
    """
    async with db.transaction() as tx:
        logged = await tx.fetchone(
            "INSERT INTO moderation_log"
            " (guild_id, user_id, moderator_id, action, reason, results, created_at, confirmation)"
            " VALUES (?, ?, ?, 'remove-results', ?, 0, ?, ?) ON CONFLICT (confirmation) DO NOTHING RETURNING id",
            (guild_id, user_id, moderator_id, reason, now, confirmation),
        )
        if logged is None:
            raise AlreadyDoneError(confirmation)
        key = (guild_id, user_id)
        kept = await tx.execute(
            "INSERT INTO removed_results (game_id, status, log_id) SELECT id, status, ? FROM games"
            f" WHERE guild_id = ? AND user_id = ? AND {BOARD_MODES} AND {FINISHED}",
            (logged["id"], *key),
        )
        await tx.execute(
            "UPDATE games SET status = ? WHERE id IN (SELECT game_id FROM removed_results WHERE log_id = ?)",
            (REMOVED, logged["id"]),
        )
        for table in ("best_results", "member_stats"):
            await tx.execute(f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ? AND {BOARD_MODES}", key)
        await tx.execute("DELETE FROM ratings WHERE guild_id = ? AND user_id = ?", key)
        await tx.execute("UPDATE moderation_log SET results = ? WHERE id = ?", (kept.rowcount, logged["id"]))
    return kept.rowcount


async def moderation_log(db: Database, guild_id: int, *, limit: int = 20) -> list[LogEntry]:
    """A server's moderation actions, the latest first."""
    rows = await db.fetchall(
        "SELECT id, user_id, moderator_id, action, reason, results, created_at FROM moderation_log"
        " WHERE guild_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
        (guild_id, limit),
    )
    return [LogEntry(*row) for row in rows]
