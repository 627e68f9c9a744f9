"""Claims on public posts that several processes sharing one database could both make.

A post (a row of ``announcements``) is made by the one process that claims it: the claim is a
conditional ``UPDATE`` that only one writer can win, and it is a **lease**: it names its holder
(the process's shard set, :attr:`bot.shards.Ownership.label`) and runs out :data:`LEASE` seconds
after it was taken. A process that dies while posting blocks the post for at most the lease;
the same shard set, restarted, takes its own claims back at once (:func:`release_own`).
Times are unix seconds passed in from Python; the SQL is the subset SQLite and PostgreSQL share.
"""

from __future__ import annotations

from typing import Literal

from bot.shards import Ownership
from bot.storage import Database
from bot.storage.competition import Pending

LEASE = 300.0
"""Seconds a claim holds a post; a post takes a few seconds, so only a dead holder's claim runs out."""


async def due_announcements(
    db: Database, now: float, ownership: Ownership, *, lease: float = LEASE, limit: int = 50
) -> list[Pending]:
    """Return the owned servers' waiting posts due by ``now`` that nobody holds a live claim on, oldest first."""
    owned, shards = ownership.sql()
    rows = await db.fetchall(
        "SELECT id, guild_id, kind, subject, channel_id, created_at, attempts FROM announcements"
        f" WHERE state = 'waiting' AND due_at <= ? AND (claimed_at IS NULL OR claimed_at <= ?) AND {owned}"
        " ORDER BY due_at, id LIMIT ?",
        (now, now - lease, *shards, limit),
    )
    return [Pending(*row) for row in rows]


async def next_due(db: Database, ownership: Ownership, *, lease: float = LEASE) -> float | None:
    """Return when the owned servers' next waiting post may be claimed (``None``: nothing waits)."""
    owned, shards = ownership.sql()
    row = await db.fetchone(
        "SELECT min(CASE WHEN claimed_at IS NULL OR claimed_at + ? <= due_at THEN due_at ELSE claimed_at + ? END)"
        f" AS due FROM announcements WHERE state = 'waiting' AND {owned}",
        (lease, lease, *shards),
    )
    return float(row["due"]) if row is not None and row["due"] is not None else None


async def claim(db: Database, announcement_id: int, holder: str, now: float, *, lease: float = LEASE) -> bool:
    """Claim a waiting post for ``holder``; ``False`` if a live claim holds it or it is done."""
    changed = await db.execute(
        "UPDATE announcements SET claimed_at = ?, claimed_by = ?"
        " WHERE id = ? AND state = 'waiting' AND (claimed_at IS NULL OR claimed_at <= ?)",
        (now, holder, announcement_id, now - lease),
    )
    return changed.rowcount == 1


async def finish(db: Database, announcement_id: int, holder: str, state: Literal["posted", "dropped"]) -> bool:
    """Mark a post ``holder`` claimed as posted (or dropped).

    ``False`` if another holder took it over meanwhile, or if it was queued again while ``holder``
    delivered it (a row queued again is due after its claim: see
    :func:`bot.storage.competition.queue_champion_change`); give the latter back with :func:`give_back`.
    """
    changed = await db.execute(
        "UPDATE announcements SET state = ?, claimed_at = NULL, claimed_by = NULL"
        " WHERE id = ? AND claimed_by = ? AND due_at <= claimed_at",
        (state, announcement_id, holder),
    )
    return changed.rowcount == 1


async def give_back(db: Database, announcement_id: int, holder: str) -> bool:
    """Give back a claim ``holder`` holds without marking the post done (it was queued again meanwhile)."""
    changed = await db.execute(
        "UPDATE announcements SET claimed_at = NULL, claimed_by = NULL WHERE id = ? AND claimed_by = ?",
        (announcement_id, holder),
    )
    return changed.rowcount == 1


async def retry(db: Database, announcement_id: int, holder: str, due_at: float) -> bool:
    """Give back a failed post ``holder`` claimed, to be tried again at ``due_at``."""
    changed = await db.execute(
        "UPDATE announcements SET claimed_at = NULL, claimed_by = NULL, attempts = attempts + 1, due_at = ?"
        " WHERE id = ? AND claimed_by = ?",
        (due_at, announcement_id, holder),
    )
    return changed.rowcount == 1


async def release_own(db: Database, holder: str) -> int:
    """Give back every claim ``holder`` holds (at start: its posts in flight when it stopped are tried again)."""
    changed = await db.execute(
        "UPDATE announcements SET claimed_at = NULL, claimed_by = NULL WHERE claimed_by = ?", (holder,)
    )
    return changed.rowcount
