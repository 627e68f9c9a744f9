"""Time the first daily of a day right after start-up: from the request to the board's PNG.

Usage: .venv/bin/python benchmarks/bench_daily.py [--runs 15] [--variant draw3] [--workers 1] [--bank 4]

Each run is a fresh start-up: a new database, a new deal bank with its worker processes
(``spawn``, like the bot) told to fill ``--bank`` deals of every variant, and at that same
instant one player asks for the day's daily of a server with no deal stored yet. Measured, like
the bot's ``/solitaire daily``: the daily service finds the deal (solved in the bank's workers,
behind whatever the bank queued first), the session starts, the board is rendered. Then, once
the bank is idle, a second server's first daily is timed on the same warm workers: the solve
and the render alone, nothing queued ahead. The difference is the wait behind the bank's refills.

The figures are the median, 95th percentile and max in seconds. The last line is ``key=value`` pairs.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from bot.daily import DailyService
from bot.deal_bank import DealBank, solve_numbered
from bot.sessions import SessionManager
from bot.storage import Database
from render import render_board
from solitaire import VARIANTS

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC).timestamp()


async def first_board(service: DailyService, sessions: SessionManager, guild_id: int, variant: str) -> float:
    """Seconds from a player's request to their board's PNG, the deal not stored yet."""
    started = time.perf_counter()
    today = await service.today(guild_id)
    async with service.attempt(guild_id, today):
        deal = await service.deal(guild_id, variant, today)
        session = await sessions.start(
            guild_id=guild_id,
            channel_id=1,
            user_id=guild_id,
            variant=variant,
            mode="daily",
            deal=deal,
            daily_date=today.isoformat(),
        )
    await asyncio.to_thread(render_board, session.view(), time_left=session.game.rules.time_limit)
    return time.perf_counter() - started


async def one_run(run: int, args: argparse.Namespace, folder: Path) -> tuple[float, float]:
    """One start-up: the first daily while the bank fills, then one on the idle, warm bank."""
    db = await Database.open(folder / f"daily-{run}.sqlite")
    executor = ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn"))
    bank: DealBank[object] = DealBank(solve_numbered, variants=VARIANTS, size=args.bank, executor=executor)
    service = DailyService(db, bank, now=lambda: NOW, secret=lambda: f"bench-{run}")
    sessions = SessionManager(db, now=lambda: NOW)
    try:
        bank.start()  # start-up: the refills are queued first, as in SolitaireBot.setup_hook
        cold = await first_board(service, sessions, 2 * run + 1, args.variant)
        await bank.wait_idle()
        warm = await first_board(service, sessions, 2 * run + 2, args.variant)
    finally:
        await sessions.close()
        await bank.close()
        await db.close()
    return cold, warm


def summary(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{name:<28} {statistics.median(ordered):8.3f} {p95:8.3f} {ordered[-1]:8.3f}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--variant", default="draw3", choices=VARIANTS)
    parser.add_argument("--workers", type=int, default=1, help="deal workers (the bot's default: 1)")
    parser.add_argument("--bank", type=int, default=4, help="deals banked per variant (the bot's default: 4)")
    args = parser.parse_args()
    cold: list[float] = []
    warm: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(args.runs):
            first, idle = await one_run(run, args, Path(folder))
            cold.append(first)
            warm.append(idle)
            print(f"run {run + 1:>2}: first daily after start-up {first:6.3f} s, on an idle bank {idle:6.3f} s")
    print(f"{args.variant}, {args.workers} worker(s), bank {args.bank} per variant, {args.runs} runs")
    print(f"{'seconds':<28} {'median':>8} {'p95':>8} {'max':>8}")
    print(summary("first daily after start-up", cold))
    print(summary("first daily, idle bank", warm))
    ordered = sorted(cold)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"variant={args.variant} runs={args.runs} workers={args.workers} bank={args.bank}"
        f" startup_median_s={statistics.median(cold):.3f} startup_p95_s={p95:.3f} startup_max_s={ordered[-1]:.3f}"
        f" idle_median_s={statistics.median(warm):.3f} idle_max_s={max(warm):.3f} under_1s_p95={p95 < 1.0}"
    )


if __name__ == "__main__":
    asyncio.run(main())
