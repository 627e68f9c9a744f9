"""Players' waits for the deal workers while one user spams numbered starts, and the first daily after start-up.

Usage: .venv/bin/python benchmarks/bench_spam.py [--workers 2] [--seconds 20] [--dailies 5] [--legacy]

Real solver, real worker processes (spawn), the bot's start path without Discord: the player's
start reservation and limit (``SessionManager.reserve_start``), the deal bank (4 per variant)
with its numbered-deal cache on a SQLite file, and ``SessionManager.start``.

1. Spam: user A sends ``start variant:goldrush deal:N`` (a new N each time) every 50 ms for
   ``--seconds``; meanwhile other players run a plain ``start`` (draw 3), one every 250 ms (each
   ended at once). The figure is their time from asking to having the game (before the board is
   drawn), p50 / p95 / max.
2. First daily after start-up, ``--dailies`` times: a fresh bank starts filling (16 solves), and at
   once a daily deal is asked for the way the daily service does (``DealBank.run(solve_request,
   request, urgent=True)``); the figure is that wait, p50 / p95 / max: the queue plus the solve of a
   day's source that nothing solved ahead. The bot itself hands such a player a spare deal kept
   ready (``benchmarks/bench_daily.py`` times that path); this case is what remains without one.

``--legacy`` replays the old behaviour for comparison: no reservation or limit, no cache, and every
solve queued first come, first served for every worker. Ends with one ``key=value`` line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from bot import errors
from bot.heavy import Priority, Scheduler
from bot.play.deal_bank import SOLVER_VERSION, DealBank, solve_numbered
from bot.play.sessions import SessionManager
from bot.storage import Database
from bot.storage.deals import StoredDeals
from solitaire import END, VARIANTS
from solitaire.deals import DealRequest, solve_request

BANK_SIZE = 4


class Legacy(DealBank[Any]):
    """The deal bank before players came first: every solve straight to a worker, first come first served."""

    async def run(self, job: Callable[..., Any], *args: Any, urgent: bool = True) -> Any:
        """Queue ``job`` with every other, in one line."""
        assert self.jobs is not None
        return await self.jobs.submit(job, *args, priority=Priority.START)


def _bank(jobs: Scheduler, legacy: bool, db: Database | None) -> DealBank[Any]:
    kind = Legacy if legacy else DealBank
    bank: DealBank[Any] = kind(solve_numbered, variants=VARIANTS, size=BANK_SIZE, jobs=jobs)
    if db is not None and not legacy:
        bank.use_cache(StoredDeals(db, SOLVER_VERSION))
    return bank


async def _drain(jobs: Scheduler) -> None:
    """Wait until every worker is ready and idle (jobs left by a closed bank finish first)."""
    while jobs.ready < jobs.workers or jobs.holding or jobs.waiting:
        await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def _reserved(manager: SessionManager, user: int, legacy: bool) -> AsyncIterator[None]:
    if legacy:
        yield
    else:
        async with manager.reserve_start(1, user):
            yield


async def spam(jobs: Scheduler, seconds: float, legacy: bool, folder: Path) -> list[float]:
    """User B's start latencies (s) while user A spams numbered goldrush starts."""
    db = await Database.open(folder / "spam.sqlite")
    manager = SessionManager(db, now=time.time)
    bank = _bank(jobs, legacy, db)
    bank.start()
    await bank.wait_idle()  # a full bank, as on a server that has been up a while
    stop = time.perf_counter() + seconds
    numbers = itertools.count(100_000)
    spam_tasks: list[asyncio.Task[None]] = []

    async def spam_one(number: int) -> None:
        with contextlib.suppress(errors.BotError):
            async with _reserved(manager, 1, legacy):
                await bank.numbered("goldrush", number)

    async def spammer() -> None:
        while time.perf_counter() < stop:
            spam_tasks.append(asyncio.create_task(spam_one(next(numbers))))
            await asyncio.sleep(0.05)

    waits: list[float] = []

    async def player() -> None:
        for user in itertools.count(1000):  # other players, each starting one game
            if time.perf_counter() >= stop:
                return
            began = time.perf_counter()
            async with _reserved(manager, user, legacy):
                deal = await bank.take("draw3")
                session = await manager.start(guild_id=1, channel_id=1, user_id=user, variant="draw3", deal=deal.deal)
            waits.append(time.perf_counter() - began)
            await manager.play(session, END)
            await asyncio.sleep(0.25)

    await asyncio.gather(spammer(), player())
    for task in spam_tasks:
        task.cancel()
    await asyncio.gather(*spam_tasks, return_exceptions=True)
    await bank.close()
    await manager.close()
    await db.close()
    await _drain(jobs)
    return waits


async def first_daily(jobs: Scheduler, legacy: bool) -> float:
    """Seconds to get a daily deal asked for just after a fresh bank starts filling."""
    bank = _bank(jobs, legacy, None)
    bank.start()
    await asyncio.sleep(0.05)  # the start-up refills are queued and running
    began = time.perf_counter()
    await bank.run(solve_request, DealRequest("draw3", f"bench-daily-{began}"), urgent=True)
    wait = time.perf_counter() - began
    await bank.close()
    await _drain(jobs)
    return wait


def _summary(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p95 * 1000, ordered[-1] * 1000


async def main_async(args: argparse.Namespace) -> None:
    """Run both phases and print their figures."""
    # the bot's pool without its render worker; the legacy line: one queue, every worker for every solve
    jobs = Scheduler(args.workers) if args.legacy else Scheduler.for_workers(0, args.workers)
    jobs.start()
    try:
        await _drain(jobs)  # spawn the processes before timing anything
        with tempfile.TemporaryDirectory() as folder:
            waits = await spam(jobs, args.seconds, args.legacy, Path(folder))
        dailies = [await first_daily(jobs, args.legacy) for _ in range(args.dailies)]
    finally:
        await jobs.close()
    start_p50, start_p95, start_max = _summary(waits)
    daily_p50, daily_p95, daily_max = _summary(dailies)
    mode = "legacy (before players first)" if args.legacy else "players first"
    print(f"{mode}, {args.workers} worker processes")
    print(
        f"plain start while another user spams: p50 {start_p50:.0f} ms, p95 {start_p95:.0f} ms, max {start_max:.0f} ms"
    )
    print(f"first daily after start-up: p50 {daily_p50:.0f} ms, p95 {daily_p95:.0f} ms, max {daily_max:.0f} ms")
    print(
        f"legacy={int(args.legacy)} workers={args.workers} starts={len(waits)} start_p50_ms={start_p50:.0f}"
        f" start_p95_ms={start_p95:.0f} start_max_ms={start_max:.0f} dailies={len(dailies)}"
        f" daily_p50_ms={daily_p50:.0f} daily_p95_ms={daily_p95:.0f} daily_max_ms={daily_max:.0f}"
        f" load={os.getloadavg()[0]:.2f}"
    )


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--dailies", type=int, default=5)
    parser.add_argument("--legacy", action="store_true")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
