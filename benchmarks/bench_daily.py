"""Time the first daily of a day right after start-up: from the request to the board's PNG.

Usage: .venv/bin/python benchmarks/bench_daily.py [--runs 12] [--variant draw3] [--workers 2] [--bank 4]

Each run is a fresh start-up: a new database, a new deal bank with its worker processes
(``spawn``, like the bot) told to fill ``--bank`` deals of every variant, and at that same
instant one player asks for the day's daily of a server with no deal stored yet. Measured, like
the bot's ``/solitaire daily``: the daily service finds the deal (solved in the bank's workers,
behind whatever the bank queued first), the session starts, the board is rendered. Then, once
the bank is idle, a second server's first daily is timed on the same warm workers: the solve
and the render alone, nothing queued ahead. The difference is the wait behind the bank's refills.
Then the bot fills its spare daily deals (``--spares`` per variant, stored in the database).
Last, the bot restarts (a new bank and its workers, filling again) and another member of that
second server asks: the day's deal is stored (as it is for every server that played a daily in its
last 7 days: the service solves today's and tomorrow's deal ahead), so no solve is waited for.
A server that never played a daily asks too: it gets a spare deal (proven ahead from a
secret-keyed random source), so no solve is waited for either.

The figures are the median, 95th percentile and max in seconds. The last line is ``key=value`` pairs.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bot.compete.daily import DailyService
from bot.heavy import Scheduler
from bot.outbox.announcements import Announcements
from bot.play.deal_bank import DealBank, solve_numbered
from bot.play.sessions import SessionManager
from bot.storage import Database
from render import render_board
from solitaire import VARIANTS

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC).timestamp()


async def first_board(
    service: DailyService, sessions: SessionManager, guild_id: int, variant: str, user_id: int = 1
) -> float:
    """Seconds from a player's request to their board's PNG."""
    started = time.perf_counter()
    today = await service.today(guild_id)
    async with service.attempt(guild_id, today):
        deal = await service.deal(guild_id, variant, today)
        session = await sessions.start(
            guild_id=guild_id,
            channel_id=1,
            user_id=user_id,
            variant=variant,
            mode="daily",
            deal=deal,
            daily_date=today.isoformat(),
        )
    await asyncio.to_thread(render_board, session.view(), time_left=session.game.rules.time_limit)
    await sessions.close()
    return time.perf_counter() - started


def start_up(db: Database, run: int, args: argparse.Namespace) -> tuple[DealBank[object], DailyService]:
    """A bot's start: a deal bank with fresh worker processes, filling at once, and the daily service."""
    jobs = Scheduler.for_workers(0, args.workers)  # the bot's pool without its render worker
    jobs.start()
    bank: DealBank[object] = DealBank(solve_numbered, variants=VARIANTS, size=args.bank, jobs=jobs)
    bank.start()  # the refills are queued first, as in SolitaireBot.setup_hook
    service = DailyService(
        db,
        bank,
        announcements=Announcements(db, now=lambda: NOW),
        now=lambda: NOW,
        secret=lambda: f"bench-{run}",
        spares=args.spares,
    )
    return bank, service


async def shut_down(bank: DealBank[object]) -> None:
    """Stop the bank and its worker processes."""
    await bank.close()
    if bank.jobs is not None:
        await bank.jobs.close()


async def one_run(run: int, args: argparse.Namespace, folder: Path) -> tuple[float, float, float, float]:
    """One start-up: the first daily while the bank fills, one on the idle bank, one stored after a restart."""
    db = await Database.open(folder / f"daily-{run}.sqlite")
    try:
        bank, service = start_up(db, run, args)
        try:
            cold = await first_board(service, SessionManager(db, now=lambda: NOW), 2 * run + 1, args.variant)
            await bank.wait_idle()
            warm = await first_board(service, SessionManager(db, now=lambda: NOW), 2 * run + 2, args.variant)
            await service.fill_spares()  # the spares a running bot keeps (stored: they outlive the restart)
        finally:
            await shut_down(bank)
        bank, service = start_up(db, run, args)
        try:
            sessions = SessionManager(db, now=lambda: NOW)
            stored = await first_board(service, sessions, 2 * run + 2, args.variant, user_id=2)
            spare = await first_board(service, sessions, 1_000_000 + run, args.variant) if args.spares else math.nan
        finally:
            await shut_down(bank)
    finally:
        await db.close()
    return cold, warm, stored, spare


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def summary(name: str, values: list[float]) -> str:
    return f"{name:<36} {statistics.median(values):8.3f} {p95(values):8.3f} {max(values):8.3f}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--variant", default="draw3", choices=VARIANTS)
    parser.add_argument("--workers", type=int, default=2, help="deal workers (the bot's default: 2)")
    parser.add_argument("--bank", type=int, default=4, help="deals banked per variant (the bot's default: 4)")
    parser.add_argument("--spares", type=int, default=1, help="spare daily deals per variant (the bot's default: 1)")
    args = parser.parse_args()
    cold: list[float] = []
    warm: list[float] = []
    stored: list[float] = []
    spares: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(args.runs):
            first, idle, ready, spare = await one_run(run, args, Path(folder))
            cold.append(first)
            warm.append(idle)
            stored.append(ready)
            spares.append(spare)
            print(
                f"run {run + 1:>2}: not stored, right after start-up {first:6.3f} s; on an idle bank {idle:6.3f} s;"
                f" stored, right after start-up {ready:6.3f} s; a new server with a spare ready {spare:6.3f} s"
            )
    print(f"{args.variant}, {args.workers} worker(s), bank {args.bank} per variant, {args.runs} runs")
    print(f"{'seconds':<36} {'median':>8} {'p95':>8} {'max':>8}")
    print(summary("not stored, right after start-up", cold))
    print(summary("not stored, idle bank (solve alone)", warm))
    print(summary("stored, right after start-up", stored))
    if args.spares:
        print(summary("new server, spare ready, after start-up", spares))
    print(
        f"variant={args.variant} runs={args.runs} workers={args.workers} bank={args.bank}"
        f" cold_median_s={statistics.median(cold):.3f} cold_p95_s={p95(cold):.3f}"
        f" idle_median_s={statistics.median(warm):.3f} idle_p95_s={p95(warm):.3f}"
        f" stored_median_s={statistics.median(stored):.3f} stored_p95_s={p95(stored):.3f}"
        f" stored_under_1s_p95={p95(stored) < 1.0}"
        + (f" spare_median_s={statistics.median(spares):.3f} spare_p95_s={p95(spares):.3f}" if args.spares else "")
    )


if __name__ == "__main__":
    asyncio.run(main())
