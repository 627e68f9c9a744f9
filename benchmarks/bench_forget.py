"""How long forgetting one member holds the database's write lock, on a SQLite file of many finished games.

Usage: .venv/bin/python benchmarks/bench_forget.py [--games 200000] [--members 5000] [--forgets 5]

Fills a new SQLite file (through the real migrations) with ``--games`` finished casual games spread over
``--members`` members and 50 servers, then times :func:`bot.storage.privacy.forget_member` (one transaction:
every other write waits for it) for ``--forgets`` members. Ends with one ``key=value`` line.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.storage import Database, open_database, privacy  # noqa: E402

FIRST_MEMBER = 10_000
INSERT = (
    "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, deal_number, state, status, score,"
    " seconds_used, started_at, deadline, finished_at) VALUES (?, 1, ?, 'draw3', 'casual', ?, '{}', 'ended', 10,"
    " 100, 0, 300, ?)"
)


async def fill(db: Database, games: int, members: int) -> float:
    """Insert the finished games in one transaction; return the seconds it took."""
    rows = [(n % 50, FIRST_MEMBER + n % members, n, 1.0 + n) for n in range(games)]
    started = time.perf_counter()
    await db.executemany(INSERT, rows)
    return time.perf_counter() - started


async def run(args: argparse.Namespace) -> None:
    """Fill, then forget members one by one, printing each time."""
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "forget.db")
        try:
            filled = await fill(db, args.games, args.members)
            print(f"filled {args.games:,} games of {args.members:,} members in {filled:.1f} s")
            times = []
            for member in range(FIRST_MEMBER + 1, FIRST_MEMBER + 1 + args.forgets):
                started = time.perf_counter()
                done = await privacy.forget_member(db, member, now=time.time())
                times.append(1000 * (time.perf_counter() - started))
                print(f"member {member}: {times[-1]:.1f} ms, {done.games} games deleted")
        finally:
            await db.close()
    print(
        f"games={args.games} forgets={args.forgets} median_ms={statistics.median(times):.1f}"
        f" max_ms={max(times):.1f} load={os.getloadavg()[0]:.2f}"
    )


def main() -> None:
    """Read the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--members", type=int, default=5_000)
    parser.add_argument("--forgets", type=int, default=5)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
