"""Time the leaderboard, rank, podium and stats queries over a database of 1,000,000 finished games.

Usage: .venv/bin/python benchmarks/bench_leaderboard.py [--backend sqlite|postgres] [--database-url URL]
       [--games N] [--runs N] [--keep PATH]

``--backend postgres`` starts a throwaway PostgreSQL 15 server (tests/support/postgres_server.py: initdb and
pg_ctl as an unprivileged user, fsync off) unless ``--database-url`` names an empty database to use;
after the fill it runs ``VACUUM ANALYZE`` (what autovacuum does to a table that grew) so the planner
knows the table and index-only scans need no heap visits.

The data is one busy server (the worst case for per-server queries): MEMBERS members,
four variants, a year of days, half daily results (one per member, variant and day),
half casual ones. Rows go in through the real migrations and triggers, a
transaction per 10,000. Each query runs through the bot's own storage functions (aiosqlite
or asyncpg included) for a random caller; the figures are the median and 95th percentile in ms.
The last line is ``key=value`` pairs.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.postgres_target import postgres_url
from bot.rules.calendar import Period
from bot.storage import Database, open_database
from bot.storage import competition as competition_db
from bot.storage.deadlines import patience

GUILD = 1
MEMBERS = 5_000
DAYS = 365
VARIANTS = ("draw1", "draw3", "goldrush", "friday13")
LAST_DAY = date(2026, 1, 4)  # a Sunday: "week" covers seven full days
STATUSES = ("won", "ended", "stuck", "expired")
BATCH = 10_000
"""Games inserted per transaction."""
FILL_PATIENCE = 3600.0
"""Seconds each transaction of the fill may take (the bot's own statements get 2 s on PostgreSQL)."""

INSERT = (
    "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, deal_number, daily_date, state, status,"
    " score, seconds_used, started_at, deadline, finished_at, version, announced_at)"
    " VALUES (?, 1, ?, ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, 1, ?)"
)


def rows(total: int, rng: random.Random) -> Iterator[tuple[Any, ...]]:
    """Yield ``total`` finished games: half dailies (unique per member/variant/day), half casual."""
    per_day_variant = max(total // 2 // (DAYS * len(VARIANTS)), 1)
    made = 0
    for back in range(DAYS - 1, -1, -1):
        day = LAST_DAY - timedelta(days=back)
        midnight = datetime.combine(day, datetime.min.time(), tzinfo=UTC).timestamp()
        for variant in VARIANTS:
            for user in rng.sample(range(1, MEMBERS + 1), per_day_variant):
                for mode in ("daily", "casual"):
                    if made >= total:
                        return
                    yield game(rng, user, variant, mode, day, midnight)
                    made += 1
    while made < total:  # rounding leftovers: casual games on the last day
        yield game(rng, rng.randint(1, MEMBERS), rng.choice(VARIANTS), "casual", LAST_DAY, midnight)
        made += 1


def game(rng: random.Random, user: int, variant: str, mode: str, day: date, midnight: float) -> tuple[Any, ...]:
    """Return one finished game's column values."""
    started = midnight + rng.uniform(0, 86_000)
    seconds = rng.randint(30, 300)
    finished = started + seconds
    status = rng.choice(STATUSES)
    return (
        GUILD,
        user,
        variant,
        mode,
        None if mode == "daily" else rng.randint(1, 10**6),
        day.isoformat() if mode == "daily" else None,
        status,
        rng.randint(0, 2_000),
        seconds,
        started,
        started + 300,
        finished,
        finished,
    )


async def fill(db: Database, total: int, rng: random.Random) -> float:
    """Insert the games, a transaction per ``BATCH``; return the seconds it took.

    Not one transaction for all: on PostgreSQL the triggers' upserts of the few ``daily_activity`` rows
    (one per variant) would pile up a million row versions that no one can prune before the commit.
    """
    begin = time.perf_counter()
    pending = rows(total, rng)
    with patience(FILL_PATIENCE):  # a bulk load, not a player's move: no 2 s deadline per transaction
        while batch := list(itertools.islice(pending, BATCH)):
            await db.executemany(INSERT, batch)
    return time.perf_counter() - begin


async def timed(runs: int, query: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """Run ``query`` ``runs`` times; return the median and 95th percentile in ms."""
    await query()  # warm the page cache and the statement cache
    samples = []
    for _ in range(runs):
        begin = time.perf_counter()
        await query()
        samples.append((time.perf_counter() - begin) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


async def measure(db: Database, runs: int, rng: random.Random) -> dict[str, tuple[float, float]]:
    """Time each query for random callers and variants."""

    def caller() -> int:
        return rng.randint(1, MEMBERS)

    def board(mode: competition_db.Mode, period: Period) -> Callable[[], Awaitable[object]]:
        return lambda: competition_db.leaderboard(
            db,
            guild_id=GUILD,
            variant=rng.choice(VARIANTS),
            mode=mode,
            period=period,
            today=LAST_DAY,
            timezone="Europe/Paris",
            caller_id=caller(),
        )

    queries: dict[str, Callable[[], Awaitable[object]]] = {
        f"{mode}_{period.value}": board(mode, period) for mode in ("daily", "casual") for period in Period
    }
    queries["stats"] = lambda: competition_db.member_stats(db, GUILD, caller(), LAST_DAY)
    played = await db.fetchall(
        "SELECT user_id, variant FROM games WHERE mode = 'daily' AND daily_date = ?", (LAST_DAY.isoformat(),)
    )

    async def daily_rank() -> object:
        user, variant = rng.choice(played)
        result = await competition_db.daily_result(db, GUILD, user, variant, LAST_DAY.isoformat())
        assert result is not None
        return result

    queries["daily_rank"] = daily_rank
    queries["podium"] = lambda: competition_db.podium(db, GUILD, LAST_DAY.isoformat(), VARIANTS)
    return {name: await timed(runs, query) for name, query in queries.items()}


async def run(target: str | Path, args: argparse.Namespace) -> tuple[int, float, dict[str, tuple[float, float]]]:
    """Open ``target``, fill it, time the queries; return the games stored, the fill time and the figures."""
    rng = random.Random(6)
    db = await open_database(target)
    try:
        fill_seconds = await fill(db, args.games, rng)
        if db.dialect == "postgres":
            await db.execute("VACUUM ANALYZE")
        counted = await db.fetchone("SELECT count(*) AS n FROM games")
        games = int(counted["n"]) if counted else 0
        print(f"{db.dialect}: filled {games} finished games ({MEMBERS} members, {DAYS} days) in {fill_seconds:.1f} s")
        return games, fill_seconds, await measure(db, args.runs, rng)
    finally:
        await db.close()


async def main() -> None:
    """Fill a database, time the queries and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--database-url", help="postgres: an empty database to fill (default: start a server)")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--keep", type=Path, help="sqlite: write the database here instead of a temporary folder")
    args = parser.parse_args()
    if args.backend == "postgres":
        with postgres_url(args.database_url) as url:
            games, fill_seconds, figures = await run(url, args)
    else:
        with tempfile.TemporaryDirectory() as folder:
            games, fill_seconds, figures = await run(args.keep or Path(folder) / "bench.sqlite", args)
    print(f"{'query':<14} {'median ms':>10} {'p95 ms':>8}   ({args.runs} runs each)")
    for name, (median, p95) in figures.items():
        print(f"{name:<14} {median:>10.3f} {p95:>8.3f}")
    worst = max(median for median, _ in figures.values())
    pairs = " ".join(f"{name}_ms={median:.3f}" for name, (median, _) in figures.items())
    print(
        f"backend={args.backend} games={games} fill_s={fill_seconds:.1f} {pairs}"
        f" worst_median_ms={worst:.3f} under_10ms={worst < 10}"
    )


if __name__ == "__main__":
    asyncio.run(main())
