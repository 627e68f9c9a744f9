"""Time ``/solitaire stats``' totals for a member with many finished races (read from ``games``, each checked public).

A race's or a challenge's games count in the stats only once their score is public (``bot.rules.visibility``), so
the stats read them one by one instead of from the kept totals; this fills one member's finished races (all
over, plus one running race whose game is hidden) and times ``member_stats``. Ends with one key=value line.

Run: ``.venv/bin/python benchmarks/bench_event_stats.py`` (``--races N``, ``--runs N``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.storage import Database, Write  # noqa: E402
from bot.storage import competition as competition_db  # noqa: E402

GUILD, MEMBER = 1, 7


def fill(races: int) -> list[Write]:
    """One member's ``races`` finished races (the last one still running), each with its finished game."""
    ids = range(1, races + 1)
    return [
        Write(
            "INSERT INTO races (id, guild_id, channel_id, host_id, variant, capacity, status, created_at,"
            " lobby_deadline) VALUES (?, ?, 1, ?, 'draw3', 2, ?, 0, 0)",
            [(n, GUILD, MEMBER, "running" if n == races else "finished") for n in ids],
        ),
        Write(
            "INSERT INTO games (id, guild_id, channel_id, user_id, variant, mode, state, status, score,"
            " seconds_used, started_at, deadline, finished_at, version) VALUES (?, ?, 1, ?, 'draw3', 'race', '{}',"
            " 'ended', ?, 30, 0, 300, 40, 1)",
            [(n, GUILD, MEMBER, n % 5000) for n in ids],
        ),
        Write(
            "INSERT INTO race_racers (race_id, user_id, joined_at, game_id) VALUES (?, ?, 0, ?)",
            [(n, MEMBER, n) for n in ids],
        ),
    ]


async def run(races: int, runs: int) -> tuple[int, list[float]]:
    """Fill a temporary SQLite database and time ``member_stats`` ``runs`` times; the games counted and times."""
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "stats.db")
        try:
            await db.write_batch(fill(races))
            times = []
            for _ in range(runs):
                began = time.perf_counter()
                stats = await competition_db.member_stats(db, GUILD, MEMBER, date(2026, 1, 1))
                times.append((time.perf_counter() - began) * 1000)
        finally:
            await db.close()
    return stats.games, times


def main() -> None:
    """Parse the options, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    games, times = asyncio.run(run(args.races, args.runs))
    assert games == args.races - 1, games  # the running race's game is hidden
    median, p95 = statistics.median(times), sorted(times)[int(len(times) * 0.95) - 1]
    print(f"races={args.races} counted={games} stats_median_ms={median:.3f} stats_p95_ms={p95:.3f}")


if __name__ == "__main__":
    main()
