"""A day's rollover done by one process, then by a cluster of processes sharing one database.

Usage: .venv/bin/python benchmarks/bench_cluster.py [--servers N] [--players N] [--processes N ...]
       [--backend sqlite|postgres] [--database-url URL]

The database is a SQLite file, or (``--backend postgres``) a new schema on a throwaway PostgreSQL 15
server started like the tests' (or in the database at ``--database-url``).

The database holds SERVERS servers with a competition channel, each with PLAYERS dailies of
yesterday finished and their result lines waiting to be posted (as after an outage), so a start
of the daily service posts ``PLAYERS`` result lines and queues and posts one podium per server. Each process
is a real OS process running the bot's :class:`DailyService` (its recovery, then its rounds) with
its share of the shards (``SHARD_COUNT`` = the number of processes) and a listener that posts
nowhere; it stops when nothing is left for it. Figures: the wall time from the common start until
the last process is done, posts per second, and a check that every post was made exactly once.
The last line is ``key=value`` pairs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.postgres_target import postgres_url, scratch_schema
from bot.compete.daily import DailyService
from bot.outbox.announcements import Announcement, Announcements, Delivery
from bot.play.deal_bank import DealBank
from bot.shards import Ownership
from bot.storage import Database, claims
from bot.storage.deadlines import patience
from solitaire import VARIANTS
from solitaire.deals import DealRequest, ProvenDeal, shuffled_deck

DAY = "2026-05-01"
NOW = datetime(2026, 5, 2, 6, tzinfo=UTC).timestamp()
FINISHED_AT = datetime(2026, 5, 1, 20, tzinfo=UTC).timestamp()
ROOT = Path(__file__).resolve().parents[1]
INSERT = (
    "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, daily_date, state, status, score,"
    " seconds_used, started_at, deadline, finished_at, version) VALUES (?, ?, ?, 'draw3', 'daily', ?, '{}',"
    " 'ended', ?, 100, ?, ?, ?, 1)"
)


def solve(request: DealRequest) -> ProvenDeal:
    """An instant stand-in for the solver (only the rollover is measured)."""
    return ProvenDeal(request.variant, 0, shuffled_deck(0), ())


async def fill(path: str, servers: int, players: int) -> None:
    """Create the database: servers with a channel and yesterday's finished dailies, their lines waiting."""
    db = await Database.open(path)
    try:
        guilds = [(n + 1) << 22 for n in range(servers)]
        with patience(600.0):  # a bulk load, not a player's move: no 2 s deadline per statement (PostgreSQL)
            async with db.transaction() as tx:
                await tx.executemany(
                    "INSERT INTO guild_settings (guild_id, channel_id, last_podium_date) VALUES (?, ?, '2026-04-29')",
                    [(guild, guild + 1) for guild in guilds],
                )
                await tx.executemany(
                    INSERT,
                    [
                        (guild, guild + 1, user, DAY, 10 * user, FINISHED_AT - 100, NOW, FINISHED_AT)
                        for guild in guilds
                        for user in range(1, players + 1)
                    ],
                )
                await tx.execute(
                    "INSERT INTO announcements (guild_id, kind, subject, channel_id, created_at, due_at)"
                    " SELECT guild_id, 'result', id, channel_id, finished_at, finished_at FROM games"
                )
                await tx.execute("UPDATE games SET announced_at = finished_at")
    finally:
        await db.close()


async def work(path: str, count: int, shard: int, start_at: float) -> dict[str, float]:
    """One process of the cluster: the daily service on shard ``shard`` of ``count`` until it is idle."""
    ownership = Ownership(count, (shard,))
    db = await Database.open(path)
    posted = 0

    async def post(announcement: Announcement) -> Delivery:
        nonlocal posted
        posted += 1
        return Delivery.POSTED

    bank: DealBank[ProvenDeal] = DealBank(
        lambda variant, n: solve(DealRequest(variant, str(n))), variants=VARIANTS, size=0
    )
    service = DailyService(
        db,
        bank,
        announcements=Announcements(db, now=lambda: NOW, ownership=ownership),
        now=lambda: NOW,
        secret=lambda: "bench",
        solve=solve,
        ownership=ownership,
    )
    service.add_listener(post)
    time.sleep(max(0.0, start_at - time.time()))
    began = time.perf_counter()
    await service._recover()  # what the service's loop does first at a start
    while True:  # its rounds, without the sleeps (each posts up to 50)
        await service.run_once()
        due = await claims.next_due(db, ownership, NOW)
        if due is None or due > NOW:
            break
    seconds = time.perf_counter() - began
    await service.close()
    await db.close()
    return {"posted": posted, "seconds": seconds, "done_at": time.time()}


def run_cluster(path: str, count: int) -> tuple[float, int]:
    """Start ``count`` processes together; return the wall seconds from the start to the last one done, and posts."""
    start_at = time.time() + 1.0
    processes = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", path, str(count), str(shard), repr(start_at)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for shard in range(count)
    ]
    reports = []
    for process in processes:
        out, _ = process.communicate(timeout=600)
        if process.returncode != 0:
            raise SystemExit(f"a worker failed ({process.returncode})")
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return max(r["done_at"] for r in reports) - start_at, sum(int(r["posted"]) for r in reports)


async def check(path: str) -> tuple[int, int]:
    """Posts made and posts not made (every announcement must be posted once)."""
    db = await Database.open(path)
    try:
        rows = await db.fetchall("SELECT state, count(*) AS n FROM announcements GROUP BY state")
    finally:
        await db.close()
    counts = {row["state"]: int(row["n"]) for row in rows}
    return counts.get("posted", 0), sum(n for state, n in counts.items() if state != "posted")


def main(argv: Sequence[str]) -> None:
    """Measure the rollover for each cluster size."""
    if argv and argv[0] == "--worker":
        path, count, shard, start_at = argv[1], int(argv[2]), int(argv[3]), float(argv[4])
        print(json.dumps(asyncio.run(work(path, count, shard, start_at))), flush=True)
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--database-url", help="postgres: a database to make scratch schemas in (default: a server)")
    args = parser.parse_args(argv)
    expected = args.servers * (args.players + 1)
    where = "one SQLite file" if args.backend == "sqlite" else "one PostgreSQL database"
    print(f"{args.servers} servers x ({args.players} result lines + 1 podium) = {expected} posts, {where}")
    print(f"{'processes':>9} {'seconds':>8} {'posts/s':>8} {'posted':>7} {'left':>5}")
    figures = []
    with postgres_url(args.database_url) if args.backend == "postgres" else _no_server() as server:
        for count in args.processes:
            with _database(server, count) as path:
                asyncio.run(fill(path, args.servers, args.players))
                seconds, reported = run_cluster(path, count)
                posted, left = asyncio.run(check(path))
            if reported != expected or posted != expected or left:
                raise SystemExit(f"{count} processes: {reported} posts reported, {posted} stored, {left} left")
            print(f"{count:>9} {seconds:>8.2f} {expected / seconds:>8.0f} {posted:>7} {left:>5}")
            figures.append(f"posts_per_s_{count}p={expected / seconds:.0f}")
    print(
        f"backend={args.backend} servers={args.servers} posts={expected} "
        + " ".join(figures)
        + f" exactly_once=1 load={os.getloadavg()[0]:.2f}"
    )


@contextmanager
def _no_server() -> Iterator[None]:
    yield None


@contextmanager
def _database(server: str | None, count: int) -> Iterator[str]:
    """A new empty database for one cluster size: a SQLite file, or a scratch schema of the server's."""
    if server is None:
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "cluster.sqlite")
    else:
        with scratch_schema(server, f"bench_cluster_{count}") as url:
            yield url


if __name__ == "__main__":
    main(sys.argv[1:])
