"""Every SQL statement of the daily competitions: attempts, ranks, leaderboards, stats, settings, secrets.

Results themselves are written by :func:`bot.storage.games.finish_game`; the triggers of
``V006__fair_competitions.sql`` keep ``best_results`` and ``member_stats`` up to date in that
same transaction, so each result counts exactly once. Every ranking clause is built from
:data:`bot.rules.ranking.RANK_ORDER`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from bot.rules.calendar import DEFAULT_TIMEZONE, DayClock, Period, day_bounds
from bot.rules.daily_deals import DailyActivity
from bot.rules.modes import mode_of
from bot.rules.ranking import DailyResult, Leaderboard, Podium, Ranked, rank_bests
from bot.rules.stats import MemberStats, VariantStats
from bot.rules.streaks import streak
from bot.shards import ONE_PROCESS, Ownership
from bot.storage import Database, Row, Transaction
from bot.storage.conditions import sql_modes, sql_score_public
from bot.storage.games import BROKEN, REMOVED, Mode
from bot.storage.ranking import sql_rank_order, sql_rank_params, sql_ranks_before, sql_ranks_before_terms

FINISHED = f"status <> 'playing' AND status <> '{BROKEN}' AND status <> '{REMOVED}'"
"""A finished game that counts: its first term is the condition every partial index of V002 uses (keep its
wording); a game closed as ``broken`` (V005) is no result, nor one an admin removed from the boards
(``removed``, :mod:`bot.storage.moderation`)."""

_RANK_ORDER = sql_rank_order()
_EVENT_MODES = sql_modes(lambda mode: mode.event)
"""The modes whose games belong to a race or a challenge: their scores are public only by its rule."""


@dataclass(frozen=True)
class GuildConfig:
    """A server's competition settings (defaults when it never set any)."""

    guild_id: int
    channel_id: int | None = None
    timezone: str = DEFAULT_TIMEZONE
    last_podium_date: str | None = None
    clock: DayClock = field(default_factory=DayClock)
    """When the server's days begin (``timezone`` plus a change waiting for the end of the day)."""
    channel_problem: str | None = None
    """Why the last post in the competition channel was refused (``None``: no problem seen)."""
    channel_problem_at: float | None = None
    champion_role_id: int | None = None
    """The role each variant's daily winner gets (``None``: none), V016."""
    champion_problem: str | None = None
    """Why Discord last refused to give or take back the champion role (``None``: no problem seen)."""
    champion_problem_at: float | None = None
    outbox_problem: str | None = None
    """The last post given up after repeated errors (``'the podium of 2026-05-01'``), V023; ``None``: none."""
    outbox_problem_at: float | None = None

    @property
    def has_podium(self) -> bool:
        """Whether the server's days end with a podium: it has a competition channel or a champion role."""
        return self.channel_id is not None or self.champion_role_id is not None


# -- secrets ---------------------------------------------------------------------
async def get_or_create_secret(db: Database, name: str, make: Callable[[], str]) -> str:
    """Return the stored secret ``name``, storing ``make()`` first if there is none."""
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", (name, make())
        )
        row = await tx.fetchone("SELECT value FROM secrets WHERE name = ?", (name,))
    assert row is not None
    return str(row["value"])


# -- server settings -------------------------------------------------------------
_CONFIG_COLUMNS = (
    "guild_id, channel_id, timezone, last_podium_date, day_floor, next_timezone, next_timezone_from,"
    " next_day_floor, channel_problem, channel_problem_at, champion_role_id, champion_problem, champion_problem_at,"
    " outbox_problem, outbox_problem_at"
)


def _day(text: str | None) -> date | None:
    return date.fromisoformat(text) if text is not None else None


def _config(row: Row) -> GuildConfig:
    since = row["next_timezone_from"]
    clock = DayClock(
        zone=row["timezone"],
        floor=_day(row["day_floor"]),
        next_zone=row["next_timezone"],
        next_from=datetime.fromtimestamp(since, UTC) if since is not None else None,
        next_floor=_day(row["next_day_floor"]),
    )
    return GuildConfig(
        row["guild_id"],
        row["channel_id"],
        row["timezone"],
        row["last_podium_date"],
        clock,
        row["channel_problem"],
        row["channel_problem_at"],
        row["champion_role_id"],
        row["champion_problem"],
        row["champion_problem_at"],
        row["outbox_problem"],
        row["outbox_problem_at"],
    )


async def guild_config(db: Database | Transaction, guild_id: int) -> GuildConfig:
    """Return a server's settings (the defaults if it has none)."""
    row = await db.fetchone(f"SELECT {_CONFIG_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return _config(row) if row is not None else GuildConfig(guild_id)


async def set_channel(db: Database, guild_id: int, channel_id: int | None, *, podium_after: str) -> None:
    """Set (or clear) the competition channel; the first podium posted there is for a day after ``podium_after``."""
    await db.execute(
        "INSERT INTO guild_settings (guild_id, channel_id, last_podium_date) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id,"
        " last_podium_date = coalesce(guild_settings.last_podium_date, excluded.last_podium_date),"
        " channel_problem = NULL, channel_problem_at = NULL",
        (guild_id, channel_id, podium_after),
    )


async def set_day_clock(db: Database, guild_id: int, clock: DayClock) -> None:
    """Store when a server's days begin (its zone and any change waiting for the end of the day)."""
    since = clock.next_from.timestamp() if clock.next_from is not None else None
    values = (
        clock.zone,
        clock.floor.isoformat() if clock.floor else None,
        clock.next_zone,
        since,
        clock.next_floor.isoformat() if clock.next_floor else None,
    )
    await db.execute(
        "INSERT INTO guild_settings (guild_id, timezone, day_floor, next_timezone, next_timezone_from, next_day_floor)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET timezone = excluded.timezone,"
        " day_floor = excluded.day_floor, next_timezone = excluded.next_timezone,"
        " next_timezone_from = excluded.next_timezone_from, next_day_floor = excluded.next_day_floor",
        (guild_id, *values),
    )


async def set_channel_problem(db: Database, guild_id: int, channel_id: int, problem: str | None, now: float) -> None:
    """Note (or clear, with ``None``) why posting in the server's competition channel ``channel_id`` failed."""
    await db.execute(
        "UPDATE guild_settings SET channel_problem = ?1, channel_problem_at = ?2"
        " WHERE guild_id = ?3 AND channel_id = ?4 AND (CAST(?1 AS TEXT) IS NOT NULL OR channel_problem IS NOT NULL)",
        (problem, now if problem is not None else None, guild_id, channel_id),
    )


async def podium_guilds(db: Database) -> list[GuildConfig]:
    """Return every server whose days end with a podium: those with a competition channel or a champion role."""
    rows = await db.fetchall(
        f"SELECT {_CONFIG_COLUMNS} FROM guild_settings"
        " WHERE channel_id IS NOT NULL OR champion_role_id IS NOT NULL ORDER BY guild_id"
    )
    return [_config(row) for row in rows]


async def day_clocks(db: Database, guild_ids: Iterable[int]) -> dict[int, DayClock]:
    """Return the day clock of each of ``guild_ids`` (the default clock for a server without settings)."""
    wanted = set(guild_ids)
    clocks = dict.fromkeys(wanted, DayClock())
    if wanted:
        rows = await db.fetchall(f"SELECT {_CONFIG_COLUMNS} FROM guild_settings")
        clocks.update((row["guild_id"], _config(row).clock) for row in rows if row["guild_id"] in wanted)
    return clocks


async def claim_podium(db: Database, guild_id: int, daily_date: str, now: float) -> bool:
    """Queue ``daily_date``'s podium (and, with a champion role, the role's change); ``False`` if done before."""
    async with db.transaction() as tx:
        changed = await tx.execute(
            "UPDATE guild_settings SET last_podium_date = ?"
            " WHERE guild_id = ? AND (last_podium_date IS NULL OR last_podium_date < ?)",
            (daily_date, guild_id, daily_date),
        )
        if changed.rowcount != 1:
            return False
        await tx.execute(
            "INSERT INTO announcements (guild_id, kind, subject, created_at, due_at) VALUES (?, 'podium', ?, ?, ?)"
            " ON CONFLICT (kind, guild_id, subject) DO NOTHING",
            (guild_id, daily_date, now, now),
        )
        role = await tx.fetchone("SELECT champion_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if role is not None and role["champion_role_id"] is not None:
            await queue_champion_change(tx, guild_id, now)
    return True


CHAMPION_SUBJECT = "roles"
"""The subject of a server's one ``champion`` announcement: every change of its holders is this row, queued again."""


async def queue_champion_change(tx: Transaction, guild_id: int, now: float) -> None:
    """Queue the server's champion role change, due now: its one row, queued again if it was done before.

    A claim on the row stays (so one process at a time changes a server's roles). If the row is being
    delivered and its delivery read the settings before this (:func:`champion_settings`), the row is not
    marked done afterwards (:func:`bot.storage.claims.finish`) but waits again: the newer change, composed
    from what is wanted by then. A delivery that read them after this already makes it, and is the only one.
    """
    await tx.execute(
        "INSERT INTO announcements (guild_id, kind, subject, created_at, due_at) VALUES (?, 'champion', ?, ?, ?)"
        " ON CONFLICT (kind, guild_id, subject) DO UPDATE SET state = 'waiting', created_at = excluded.created_at,"
        " due_at = excluded.due_at, attempts = 0, failures = 0, queued_again = 1",
        (guild_id, CHAMPION_SUBJECT, now, now),
    )


async def champion_settings(db: Database, announcement_id: int, guild_id: int) -> GuildConfig:
    """Read a server's settings for the champion change ``announcement_id`` being delivered: it takes in each queueing.

    One transaction clears the row's ``queued_again`` mark, then reads: every queueing committed before the
    mark was cleared is in what is read (it wrote the settings and the mark together), and one after it waits
    for the row (its lock) and marks it again, so it is delivered after this one. Nothing is made twice.
    """
    async with db.transaction() as tx:
        await tx.execute("UPDATE announcements SET queued_again = 0 WHERE id = ?", (announcement_id,))
        row = await tx.fetchone(f"SELECT {_CONFIG_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return _config(row) if row is not None else GuildConfig(guild_id)


async def open_dailies(db: Database, guild_id: int, daily_date: str) -> float | None:
    """Return the latest deadline of the server's dailies of ``daily_date`` still being played (``None``: none)."""
    row = await db.fetchone(
        "SELECT max(deadline) AS last FROM games"
        " WHERE guild_id = ? AND daily_date = ? AND mode = 'daily' AND status = 'playing'",
        (guild_id, daily_date),
    )
    return float(row["last"]) if row is not None and row["last"] is not None else None


# -- the day's deal ----------------------------------------------------------------
async def cached_deal(db: Database, guild_id: int, variant: str, daily_date: str) -> dict[str, Any] | None:
    """Return the day's stored deal (its JSON data) for a server and variant, if any."""
    row = await db.fetchone(
        "SELECT deal FROM daily_deals WHERE guild_id = ? AND variant = ? AND daily_date = ?",
        (guild_id, variant, daily_date),
    )
    if row is None:
        return None
    data: dict[str, Any] = json.loads(row["deal"])
    return data


async def store_deal(db: Database, guild_id: int, variant: str, daily_date: str, deal: dict[str, Any]) -> None:
    """Keep the day's deal (JSON-ready data) for a server and variant; the first one stored stays."""
    await db.execute(
        "INSERT INTO daily_deals (guild_id, variant, daily_date, deal) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, variant, daily_date) DO NOTHING",
        (guild_id, variant, daily_date, json.dumps(deal, separators=(",", ":"))),
    )


async def add_spare(db: Database, variant: str, deal: dict[str, Any]) -> None:
    """Keep a proven deal (JSON-ready data) as a spare daily deal of ``variant``."""
    await db.execute(
        "INSERT INTO daily_spares (variant, deal) VALUES (?, ?)", (variant, json.dumps(deal, separators=(",", ":")))
    )


async def spare_count(db: Database, variant: str) -> int:
    """How many spare daily deals of ``variant`` are ready."""
    row = await db.fetchone("SELECT count(*) AS n FROM daily_spares WHERE variant = ?", (variant,))
    return int(row["n"]) if row is not None else 0


async def use_spare(db: Database, guild_id: int, variant: str, daily_date: str) -> dict[str, Any] | None:
    """Make the oldest spare deal of ``variant`` the day's deal of a server, in one transaction.

    Returns the day's stored deal (the spare, or a deal stored first by someone else, which leaves
    the spare unused), or ``None`` when no spare was ready and no deal is stored. The spare is taken
    by a ``DELETE ... RETURNING`` first, so two processes never hand one spare to two servers.
    """
    async with db.transaction() as tx:
        spare = await tx.fetchone(  # taken at once: a server asking at the same time cannot take it too
            "DELETE FROM daily_spares WHERE id = (SELECT id FROM daily_spares WHERE variant = ? ORDER BY id LIMIT 1)"
            " RETURNING id, deal",
            (variant,),
        )
        if spare is not None:
            stored = await tx.execute(
                "INSERT INTO daily_deals (guild_id, variant, daily_date, deal) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, variant, daily_date) DO NOTHING",
                (guild_id, variant, daily_date, spare["deal"]),
            )
            if stored.rowcount != 1:  # the day's deal was stored first: the spare stays for another
                await tx.execute(
                    "INSERT INTO daily_spares (id, variant, deal) VALUES (?, ?, ?)",
                    (spare["id"], variant, spare["deal"]),
                )
    return await cached_deal(db, guild_id, variant, daily_date)


async def recent_daily_activity(db: Database, since: str) -> list[DailyActivity]:
    """Return each server and variant whose daily was last started on ``since`` or later, most recent first."""
    rows = await db.fetchall(
        "SELECT a.guild_id, a.variant, a.last_date, coalesce(s.timezone, ?) AS timezone"
        " FROM daily_activity AS a LEFT JOIN guild_settings AS s ON s.guild_id = a.guild_id"
        " WHERE a.last_date >= ? ORDER BY a.last_date DESC, a.guild_id, a.variant",
        (DEFAULT_TIMEZONE, since),
    )
    return [DailyActivity(row["guild_id"], row["variant"], row["timezone"], row["last_date"]) for row in rows]


async def forget_deals_before(db: Database, daily_date: str) -> int:
    """Delete cached deals of days before ``daily_date``; return how many went."""
    changed = await db.execute("DELETE FROM daily_deals WHERE daily_date < ?", (daily_date,))
    return changed.rowcount


# -- daily attempts and their ranks ------------------------------------------------
_DAILY_COLUMNS = "id, guild_id, user_id, variant, daily_date, status, score, seconds_used, finished_at"


async def _with_rank(db: Database, row: Row) -> DailyResult:
    """Rank a finished daily among the results of its server, variant and day."""
    entry = Ranked(0, row["user_id"], row["score"], row["seconds_used"], row["finished_at"])
    counts = await db.fetchone(
        f"SELECT count(*) AS total, coalesce(sum(CASE WHEN {sql_ranks_before()} THEN 1 ELSE 0 END), 0) AS better"
        f" FROM games WHERE guild_id = ? AND variant = ? AND daily_date = ? AND mode = 'daily' AND {FINISHED}",
        (*_flat(sql_rank_params(entry)), row["guild_id"], row["variant"], row["daily_date"]),
    )
    assert counts is not None
    return DailyResult(
        game_id=row["id"],
        user_id=row["user_id"],
        variant=row["variant"],
        daily_date=row["daily_date"],
        status=row["status"],
        score=row["score"],
        seconds_used=row["seconds_used"],
        rank=int(counts["better"]) + 1,
        total=int(counts["total"]),
    )


def _flat(groups: Iterable[tuple[object, ...]]) -> tuple[object, ...]:
    return tuple(value for group in groups for value in group)


async def daily_attempt(db: Database, guild_id: int, user_id: int, variant: str, daily_date: str) -> Row | None:
    """Return a member's daily game for that day and variant (finished or not), if any."""
    return await db.fetchone(
        f"SELECT {_DAILY_COLUMNS} FROM games"
        " WHERE guild_id = ? AND user_id = ? AND variant = ? AND daily_date = ? AND mode = 'daily'",
        (guild_id, user_id, variant, daily_date),
    )


async def daily_result(db: Database, guild_id: int, user_id: int, variant: str, daily_date: str) -> DailyResult | None:
    """Return a member's finished daily result for that day and variant with its rank, if any."""
    row = await daily_attempt(db, guild_id, user_id, variant, daily_date)
    if row is None or row["status"] == "playing":
        return None
    return await _with_rank(db, row)


async def daily_result_of(db: Database, game_id: int) -> DailyResult | None:
    """Return game ``game_id``'s result and rank if it is a finished daily."""
    row = await db.fetchone(
        f"SELECT {_DAILY_COLUMNS} FROM games WHERE id = ? AND mode = 'daily' AND {FINISHED}", (game_id,)
    )
    return await _with_rank(db, row) if row is not None else None


# -- announcements: a finished daily's line, queued once (the outbox: bot.storage.outbox) ------------
async def queue_result(db: Database, game_id: int, now: float) -> bool:
    """Queue a finished daily's public line, once; ``False`` if it was queued (or posted) before."""
    async with db.transaction() as tx:
        changed = await tx.execute(
            f"UPDATE games SET announced_at = ? WHERE id = ? AND mode = 'daily' AND {FINISHED}"
            " AND announced_at IS NULL",
            (now, game_id),
        )
        if changed.rowcount != 1:
            return False
        await tx.execute(
            "INSERT INTO announcements (guild_id, kind, subject, channel_id, created_at, due_at)"
            " SELECT guild_id, 'result', CAST(id AS TEXT), channel_id, CAST(? AS DOUBLE PRECISION),"
            " CAST(? AS DOUBLE PRECISION) FROM games WHERE id = ?"
            " ON CONFLICT (kind, guild_id, subject) DO NOTHING",
            (now, now, game_id),
        )
    return True


async def unannounced(
    db: Database, *, since: float = 0.0, limit: int = 100, ownership: Ownership = ONE_PROCESS
) -> list[int]:
    """Return dailies finished after ``since`` in owned servers whose line was never queued, oldest first."""
    owned, shards = ownership.sql()
    rows = await db.fetchall(
        f"SELECT id FROM games WHERE mode = 'daily' AND {FINISHED} AND announced_at IS NULL AND finished_at > ?"
        f" AND {owned} ORDER BY finished_at LIMIT ?",
        (since, *shards, limit),
    )
    return [int(row["id"]) for row in rows]


# -- leaderboards -------------------------------------------------------------------
def _mode_is(mode: Mode) -> str:
    """Return the mode condition as a literal, so SQLite can use the partial indexes."""
    if not mode_of(mode).on_boards:
        raise ValueError(f"no leaderboard for mode {mode!r}")
    return f"mode = '{mode}'"


def _ranked(row: Row) -> Ranked:
    return Ranked(int(row["rank"]), row["user_id"], row["score"], row["seconds_used"], row["finished_at"])


async def leaderboard(
    db: Database,
    *,
    guild_id: int,
    variant: str,
    mode: Mode,
    period: Period,
    today: date,
    timezone: str,
    caller_id: int,
    limit: int = 10,
) -> Leaderboard:
    """Rank each member's best result: the top ``limit``, the caller's own entry and how many are ranked.

    Daily boards count days by ``daily_date``; casual boards count local days of ``timezone``
    by finishing time. Ranked by score (higher first), time used (less first), finished first.
    """
    days = period.days(today)
    if days is None:
        top, caller, total = await _all_time(db, guild_id, variant, mode, caller_id, limit)
    else:
        if mode_of(mode).by_daily_date:
            where = "daily_date BETWEEN ? AND ?"
            span: tuple[Any, Any] = (days[0].isoformat(), days[1].isoformat())
        else:
            where = "finished_at >= ? AND finished_at < ? AND hinted = 0 AND practice = 0"  # neither ranks
            span = day_bounds(timezone, *days)
        top, caller, total = await _over_span(db, guild_id, variant, mode, where, span, caller_id, limit)
    return Leaderboard(variant=variant, mode=mode, period=period, top=top, caller=caller, total=total)


async def _over_span(
    db: Database,
    guild_id: int,
    variant: str,
    mode: Mode,
    where: str,
    span: tuple[Any, Any],
    caller_id: int,
    limit: int,
) -> tuple[tuple[Ranked, ...], Ranked | None, int]:
    """Rank each member's best among the games of a span of days (read from a covering index)."""
    rows = await db.fetchall(
        "SELECT user_id, score, seconds_used, finished_at FROM games"
        f" WHERE guild_id = ? AND variant = ? AND {_mode_is(mode)} AND {FINISHED} AND {where}",
        (guild_id, variant, *span),
    )
    return rank_bests(rows, caller_id, limit)  # type: ignore[arg-type]  # a Row unpacks like the tuple


async def _all_time(
    db: Database, guild_id: int, variant: str, mode: Mode, caller_id: int, limit: int
) -> tuple[tuple[Ranked, ...], Ranked | None, int]:
    """Rank the kept best results (``best_results``) of a server, variant and mode."""
    key = (guild_id, variant, mode)
    rows = await db.fetchall(
        "SELECT user_id, score, seconds_used, finished_at FROM best_results"
        f" WHERE guild_id = ? AND variant = ? AND mode = ? ORDER BY {_RANK_ORDER} LIMIT ?",
        (*key, limit),
    )
    top = tuple(
        Ranked(n, row["user_id"], row["score"], row["seconds_used"], row["finished_at"])
        for n, row in enumerate(rows, start=1)
    )
    counted = await db.fetchone(
        "SELECT count(*) AS total FROM best_results WHERE guild_id = ? AND variant = ? AND mode = ?", key
    )
    total = int(counted["total"]) if counted is not None else 0
    caller = next((entry for entry in top if entry.user_id == caller_id), None)
    if caller is None:
        caller = await _all_time_rank(db, key, caller_id)
    return top, caller, total


async def _all_time_rank(db: Database, key: tuple[int, str, str], caller_id: int) -> Ranked | None:
    """Return a member's all-time entry with its rank, or ``None`` without a result."""
    mine = await db.fetchone(
        "SELECT user_id, score, seconds_used, finished_at FROM best_results"
        " WHERE guild_id = ? AND variant = ? AND mode = ? AND user_id = ?",
        (*key, caller_id),
    )
    if mine is None:
        return None
    entry = Ranked(0, caller_id, mine["score"], mine["seconds_used"], mine["finished_at"])
    counts = " + ".join(
        f"(SELECT count(*) FROM best_results WHERE guild_id = ? AND variant = ? AND mode = ? AND {term})"
        for term in sql_ranks_before_terms()
    )  # one index range per term: the terms exclude each other
    params = [value for values in sql_rank_params(entry) for value in (*key, *values)]
    better = await db.fetchone(f"SELECT {counts} AS better", params)
    assert better is not None
    return Ranked(int(better["better"]) + 1, caller_id, mine["score"], mine["seconds_used"], mine["finished_at"])


# -- stats --------------------------------------------------------------------------
async def member_stats(db: Database, guild_id: int, user_id: int, today: date) -> MemberStats:
    """Return a member's games, wins, best and average score per variant, and daily streaks as of ``today``.

    Only public scores count (:func:`bot.rules.visibility.score_public`): a race's or a challenge's games are read from
    ``games`` with that rule (a member has few), the other modes from the ``member_stats`` totals.
    """
    rows = await db.fetchall(
        "SELECT variant, sum(games) AS games, sum(wins) AS wins, max(best) AS best, sum(total) AS total FROM ("
        "SELECT variant, games, wins, best_score AS best, total_score AS total FROM member_stats"
        f" WHERE guild_id = ?1 AND user_id = ?2 AND NOT {_EVENT_MODES}"
        " UNION ALL SELECT variant, 1, CASE WHEN status = 'won' THEN 1 ELSE 0 END, score, score FROM games"
        " WHERE id IN (SELECT game_id FROM race_racers WHERE user_id = ?2"
        " UNION ALL SELECT game_id FROM challenge_players WHERE user_id = ?2)"
        f" AND guild_id = ?1 AND {_EVENT_MODES} AND {FINISHED} AND {sql_score_public()}"
        ") AS shown GROUP BY variant ORDER BY variant",
        (guild_id, user_id),
    )
    variants = tuple(VariantStats(r["variant"], r["games"], r["wins"], r["best"], r["total"]) for r in rows)
    days = await daily_days(db, guild_id, user_id)
    played = list(days)
    won = [day for day, won in days.items() if won]
    return MemberStats(user_id, variants, streak(played, today), streak(won, today))


async def daily_days(db: Database, guild_id: int, user_id: int, *, until: str | None = None) -> dict[date, bool]:
    """Return the server days a member finished a daily on (up to ``until``), each with whether one was won."""
    days = await db.fetchall(
        "SELECT daily_date, max(CASE WHEN status = 'won' THEN 1 ELSE 0 END) AS won FROM games"
        f" WHERE guild_id = ? AND user_id = ? AND mode = 'daily' AND {FINISHED} AND daily_date <= ?"
        " GROUP BY daily_date",
        (guild_id, user_id, until or "9999-12-31"),
    )
    return {date.fromisoformat(row["daily_date"]): bool(row["won"]) for row in days}


async def first_daily_of_day(db: Database, guild_id: int, user_id: int, daily_date: str) -> int | None:
    """Return the id of the member's first finished daily of ``daily_date`` (any variant), if any."""
    row = await db.fetchone(
        "SELECT id FROM games"
        f" WHERE guild_id = ? AND user_id = ? AND daily_date = ? AND mode = 'daily' AND {FINISHED}"
        " ORDER BY finished_at, id LIMIT 1",
        (guild_id, user_id, daily_date),
    )
    return int(row["id"]) if row is not None else None


async def last_dailies(db: Database, guild_id: int, user_id: int, limit: int) -> list[Row]:
    """Return the member's last ``limit`` finished dailies (``daily_date, variant, score, status``), oldest first."""
    rows = await db.fetchall(
        "SELECT daily_date, variant, score, status FROM games"
        f" WHERE guild_id = ? AND user_id = ? AND mode = 'daily' AND {FINISHED}"
        " ORDER BY daily_date DESC, finished_at DESC, id DESC LIMIT ?",
        (guild_id, user_id, limit),
    )
    return rows[::-1]


# -- podiums ------------------------------------------------------------------------
async def podium(db: Database, guild_id: int, daily_date: str, variants: Iterable[str], places: int = 3) -> Podium:
    """Return a day's best daily results per variant in a server (at most ``places`` each)."""
    found: dict[str, tuple[Ranked, ...]] = {}
    for variant in variants:
        rows = await db.fetchall(
            "SELECT user_id, score, seconds_used, finished_at FROM games"
            f" WHERE guild_id = ? AND variant = ? AND daily_date = ? AND mode = 'daily' AND {FINISHED}"
            f" ORDER BY {_RANK_ORDER} LIMIT ?",
            (guild_id, variant, daily_date, places),
        )
        found[variant] = tuple(
            Ranked(n, row["user_id"], row["score"], row["seconds_used"], row["finished_at"])
            for n, row in enumerate(rows, start=1)
        )
    return Podium(daily_date, found)
