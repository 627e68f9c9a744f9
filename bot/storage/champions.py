"""The champion role's SQL (V016): the server's role, the members the bot gave it to, and the queued changes.

A change of the role's holders is the server's one ``announcements`` row of kind ``champion``, queued
again (:func:`bot.storage.competition.queue_champion_change`) with each podium and each change of the
setting. Its one claim means one process at a time changes a server's roles, and each delivery brings the
holders to what is wanted *then* (:mod:`bot.compete.champions`), so a late or repeated one does no harm.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import Database
from bot.storage.competition import FINISHED, queue_champion_change


@dataclass(frozen=True)
class Holder:
    """A member the bot gave a champion role to (``given_at`` ``None``: Discord has not said yes yet)."""

    user_id: int
    role_id: int
    daily_date: str
    given_at: float | None


async def set_champion_role(db: Database, guild_id: int, role_id: int | None, *, podium_after: str, now: float) -> None:
    """Set (or clear) the server's champion role and queue the change of its holders, in one transaction.

    Like :func:`bot.storage.competition.set_channel`, a server's first setting starts its podiums with
    the day after ``podium_after``.
    """
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO guild_settings (guild_id, champion_role_id, last_podium_date) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET champion_role_id = excluded.champion_role_id,"
            " last_podium_date = coalesce(guild_settings.last_podium_date, excluded.last_podium_date),"
            " champion_problem = NULL, champion_problem_at = NULL",
            (guild_id, role_id, podium_after),
        )
        await queue_champion_change(tx, guild_id, now)


PROBLEM_SQL = (
    "UPDATE guild_settings SET champion_problem = ?1,"
    " champion_problem_at = CASE WHEN champion_problem = ?1 THEN champion_problem_at ELSE ?2 END"
    " WHERE guild_id = ?3 AND (CAST(?1 AS TEXT) IS NOT NULL OR champion_problem IS NOT NULL)"
)
"""Note (or clear) a problem: the same problem noted again keeps its first time."""


async def set_problem(db: Database, guild_id: int, problem: str | None, now: float) -> None:
    """Note (or clear, with ``None``) why the server's champion role could not be given or taken back.

    The same problem noted again keeps its first time: the admins are told of each problem once.
    """
    await db.execute(PROBLEM_SQL, (problem, now if problem is not None else None, guild_id))


async def recheck(db: Database, guild_id: int, problem: str | None, now: float) -> None:
    """Note (or clear) the champion role's problem found by a check outside a delivery, and queue a change.

    In one transaction, so the problem is never noted without the change that acts on it (the change takes
    the role back while the problem lasts, and gives it again once it is cleared).
    """
    async with db.transaction() as tx:
        await tx.execute(PROBLEM_SQL, (problem, now if problem is not None else None, guild_id))
        await queue_champion_change(tx, guild_id, now)


async def champion_day(db: Database, guild_id: int, last_podium_date: str | None) -> str | None:
    """The day whose winners are the champions: the last day with a podium that had results (``None``: none)."""
    if last_podium_date is None:
        return None
    row = await db.fetchone(
        f"SELECT max(daily_date) AS day FROM games WHERE guild_id = ? AND mode = 'daily' AND {FINISHED}"
        " AND daily_date <= ?",
        (guild_id, last_podium_date),
    )
    return str(row["day"]) if row is not None and row["day"] is not None else None


async def holders(db: Database, guild_id: int) -> list[Holder]:
    """The members the bot gave (or is giving) a champion role to in a server."""
    rows = await db.fetchall(
        "SELECT user_id, role_id, daily_date, given_at FROM champion_holders WHERE guild_id = ?"
        " ORDER BY user_id, role_id",
        (guild_id,),
    )
    return [Holder(row["user_id"], row["role_id"], row["daily_date"], row["given_at"]) for row in rows]


async def begin_giving(db: Database, guild_id: int, holder: Holder) -> None:
    """Write down that the bot is giving ``holder`` the role (before asking Discord); update the day if known."""
    await db.execute(
        "INSERT INTO champion_holders (guild_id, user_id, role_id, daily_date, given_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id, role_id) DO UPDATE SET daily_date = excluded.daily_date",
        (guild_id, holder.user_id, holder.role_id, holder.daily_date, holder.given_at),
    )


async def given(db: Database, guild_id: int, user_id: int, role_id: int, now: float) -> None:
    """Note that Discord gave the member the role."""
    await db.execute(
        "UPDATE champion_holders SET given_at = ? WHERE guild_id = ? AND user_id = ? AND role_id = ?",
        (now, guild_id, user_id, role_id),
    )


async def forget(db: Database, guild_id: int, user_id: int, role_id: int) -> None:
    """Forget a holder: the role was taken back (or never given, or the member left)."""
    await db.execute(
        "DELETE FROM champion_holders WHERE guild_id = ? AND user_id = ? AND role_id = ?",
        (guild_id, user_id, role_id),
    )
