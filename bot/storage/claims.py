"""Claims on public posts that several processes sharing one database could both make.

A post (a row of ``announcements``) is made by the one process that claims it: the claim is a
conditional ``UPDATE`` that only one writer can win, and it is a **lease**: it names its holder
(:class:`bot.shards.Holder`: the shard set, the machine and the process) and runs out :data:`LEASE`
seconds after it was taken. A process that dies while posting blocks the post for at most the lease;
the same shard set restarted on the same machine takes its dead run's claims back at once
(:func:`release_own`), and never a live process's, even one given the same shards.

A lease is timed by **the database's clock** (:attr:`bot.storage.Database.clock`), never a process's:
processes on machines whose clocks disagree still agree on when a claim runs out. When a post is
*due* stays the bot's own schedule (``due_at``, unix seconds from the caller's clock, passed in).
"""

from __future__ import annotations

from typing import Literal

from bot.shards import Holder, Ownership
from bot.storage import Database
from bot.storage.outbox import Pending

LEASE = 300.0
"""Seconds a claim holds a post; a post takes a few seconds, so only a dead holder's claim runs out."""


async def due_announcements(
    db: Database, now: float, ownership: Ownership, *, lease: float = LEASE, limit: int = 50
) -> list[Pending]:
    """Return the owned servers' waiting posts due by ``now`` that nobody holds a live claim on, oldest first."""
    owned, shards = ownership.sql()
    rows = await db.fetchall(
        "SELECT id, guild_id, kind, subject, channel_id, created_at, attempts, failures FROM announcements"
        f" WHERE state = 'waiting' AND due_at <= ? AND (claimed_at IS NULL OR claimed_at <= {db.clock} - ?)"
        f" AND {owned} ORDER BY due_at, id LIMIT ?",
        (now, lease, *shards, limit),
    )
    return [Pending(*row) for row in rows]


async def next_due(db: Database, ownership: Ownership, now: float, *, lease: float = LEASE) -> float | None:
    """Return when (on the caller's clock, ``now`` being now) the owned servers' next waiting post may be claimed.

    ``None``: nothing waits. A held post may be claimed when its lease runs out on the database's clock,
    which is that many seconds from ``now``.
    """
    owned, shards = ownership.sql()
    expiry = f"? + claimed_at + ? - {db.clock}"
    row = await db.fetchone(
        f"SELECT min(CASE WHEN claimed_at IS NULL OR {expiry} <= due_at THEN due_at ELSE {expiry} END)"
        f" AS due FROM announcements WHERE state = 'waiting' AND {owned}",
        (now, lease, now, lease, *shards),
    )
    return float(row["due"]) if row is not None and row["due"] is not None else None


async def claim(db: Database, announcement_id: int, holder: str, *, lease: float = LEASE) -> bool:
    """Claim a waiting post for ``holder`` at the database's time; ``False`` if a live claim holds it or it is done."""
    changed = await db.execute(
        f"UPDATE announcements SET claimed_at = {db.clock}, claimed_by = ?, queued_again = 0"
        f" WHERE id = ? AND state = 'waiting' AND (claimed_at IS NULL OR claimed_at <= {db.clock} - ?)",
        (holder, announcement_id, lease),
    )
    return changed.rowcount == 1


async def finish(db: Database, announcement_id: int, holder: str, state: Literal["posted", "dropped"]) -> bool:
    """Mark a post ``holder`` claimed as posted (or dropped).

    ``False`` if another holder took it over meanwhile, or if it was queued again while ``holder``
    delivered it (``queued_again``, V016: see :func:`bot.storage.competition.queue_champion_change`);
    give the latter back with :func:`give_back`.
    """
    changed = await db.execute(
        "UPDATE announcements SET state = ?, claimed_at = NULL, claimed_by = NULL"
        " WHERE id = ? AND claimed_by = ? AND queued_again = 0",
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


async def erred(db: Database, announcement_id: int, holder: str, due_at: float) -> bool:
    """Give back a post ``holder`` claimed whose delivery raised: one more error and attempt, tried at ``due_at``."""
    changed = await db.execute(
        "UPDATE announcements SET claimed_at = NULL, claimed_by = NULL, attempts = attempts + 1,"
        " failures = failures + 1, due_at = ? WHERE id = ? AND claimed_by = ?",
        (due_at, announcement_id, holder),
    )
    return changed.rowcount == 1


async def park(db: Database, pending: Pending, holder: str, now: float) -> bool:
    """Give up a post ``holder`` claimed (state ``parked``: never tried again, restarts included), in one
    transaction noting it for its server's admins (``outbox_problem``, V023); ``False`` if not held."""
    async with db.transaction() as tx:
        changed = await tx.execute(
            "UPDATE announcements SET state = 'parked', claimed_at = NULL, claimed_by = NULL,"
            " attempts = attempts + 1, failures = failures + 1 WHERE id = ? AND claimed_by = ?",
            (pending.id, holder),
        )
        if changed.rowcount != 1:
            return False
        await tx.execute(
            "INSERT INTO guild_settings (guild_id, outbox_problem, outbox_problem_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET outbox_problem = excluded.outbox_problem,"
            " outbox_problem_at = excluded.outbox_problem_at",
            (pending.guild_id, pending.what(), now),
        )
    return True


async def release_own(db: Database, me: Holder) -> int:
    """Give back the claims of ``me``'s earlier runs (at start: its posts in flight when it stopped are tried again).

    An earlier run is a holder of the same shard set on the same machine whose process is gone
    (:meth:`Holder.is_previous_run_of`); a claim in the shard set's bare label (the name before
    holders named their process) counts too. A live process's claims are left to their lease, even
    when it runs the same shards. Returns how many claims were given back.
    """
    rows = await db.fetchall("SELECT id, claimed_by FROM announcements WHERE claimed_by IS NOT NULL")
    given = 0
    for row in rows:
        name = str(row["claimed_by"])
        holder = Holder.parse(name)
        if name == me.label or (holder is not None and holder.is_previous_run_of(me)):
            changed = await db.execute(
                "UPDATE announcements SET claimed_at = NULL, claimed_by = NULL WHERE id = ? AND claimed_by = ?",
                (row["id"], name),
            )
            given += changed.rowcount
    return given
