"""The streak reminders' SQL (V016): who may need one, and queueing them once per member and day.

A reminder is an ``announcements`` row of kind ``reminder`` with subject ``"<user id>:<YYYY-MM-DD>"``:
the table's ``UNIQUE (kind, guild_id, subject)`` makes it one per member, server and day, whatever
restarts or processes.
"""

from __future__ import annotations

from datetime import date, timedelta

from bot.storage import Database
from bot.storage.competition import FINISHED


def subject(user_id: int, day: date) -> str:
    """The subject of a member's reminder for ``day``.

    >>> subject(42, date(2026, 1, 2))
    '42:2026-01-02'
    """
    return f"{user_id}:{day.isoformat()}"


def parse_subject(text: str) -> tuple[int, date]:
    """The member and day of a reminder's subject (:func:`subject`)."""
    user, day = text.split(":", 1)
    return int(user), date.fromisoformat(day)


_FINISHED_ON = (
    "EXISTS (SELECT 1 FROM games AS g WHERE g.guild_id = ? AND g.user_id = p.user_id AND g.daily_date = ?"
    f" AND g.mode = 'daily' AND {FINISHED})"
)


async def candidates(db: Database, guild_id: int, today: date) -> list[int]:
    """Return the members with reminders on whose daily streak here (2 days or more) breaks at the end of ``today``.

    They finished a daily on each of the two days before ``today``, and have no daily (finished or
    not) of ``today``.
    """
    yesterday, before = today - timedelta(days=1), today - timedelta(days=2)
    rows = await db.fetchall(
        f"SELECT p.user_id FROM player_settings AS p WHERE p.reminders = 1 AND {_FINISHED_ON} AND {_FINISHED_ON}"
        " AND NOT EXISTS (SELECT 1 FROM games AS t WHERE t.guild_id = ? AND t.user_id = p.user_id"
        " AND t.daily_date = ? AND t.mode = 'daily') ORDER BY p.user_id",
        (guild_id, yesterday.isoformat(), guild_id, before.isoformat(), guild_id, today.isoformat()),
    )
    return [int(row["user_id"]) for row in rows]


async def played_on(db: Database, guild_id: int, user_id: int, day: date) -> bool:
    """Whether the member has a daily of ``day`` here, finished or still being played."""
    row = await db.fetchone(
        "SELECT 1 AS one FROM games WHERE guild_id = ? AND user_id = ? AND daily_date = ? AND mode = 'daily' LIMIT 1",
        (guild_id, user_id, day.isoformat()),
    )
    return row is not None


async def queue(db: Database, guild_id: int, user_ids: list[int], day: date, now: float) -> None:
    """Queue a reminder for each member for ``day``, due now (one already queued stays as it is)."""
    if not user_ids:
        return
    await db.executemany(
        "INSERT INTO announcements (guild_id, kind, subject, created_at, due_at) VALUES (?, 'reminder', ?, ?, ?)"
        " ON CONFLICT (kind, guild_id, subject) DO NOTHING",
        [(guild_id, subject(user_id, day), now, now) for user_id in user_ids],
    )
