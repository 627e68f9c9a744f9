"""Drive many simulated players at once through the real bot (discord.py + SimCord's simulated Discord).

Usage: [RENDER_WORKERS=2] .venv/bin/python benchmarks/bench_bot.py [--games 200] [--rate 50] [--seconds 20]
       [--backend sqlite|postgres] [--database-url URL]

1. ``--games`` members each run ``/solitaire start`` (one game each, all running at once);
   Python memory per active game is measured with tracemalloc around those starts.
2. Paced phase: board-button "Draw" clicks arrive at ``--rate`` per second for ``--seconds``,
   spread round-robin over the games, each sent without waiting for earlier ones (a real
   INTERACTION_CREATE through the gateway, the current board's custom id). Latency is the
   time from sending the interaction to the bot's response reaching (simulated) Discord:
   parsing, the session lock, the save (SQLite, or PostgreSQL with ``--backend postgres``: a
   throwaway server like the tests', or ``--database-url``), the PNG render (in ``RENDER_WORKERS`` worker
   processes, read from the environment like the bot; 0: in a thread) and the edit.
3. Burst phase: one click for every game at the same instant; moves/s is how fast all are answered.

Everything runs in this one process on the machine's cores, SimCord included (its simulated
HTTP is part of the measured path). SimCord's own diagnostic logs are cleared as the run goes
and the setup heap is frozen (``gc.freeze``), so the harness's growth does not lengthen the
garbage collector's pauses. The last line is ``key=value`` pairs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's bot, not an installed one

import simcord

from benchmarks.postgres_target import postgres_url, scratch_schema
from benchmarks.sim_clicks import ANSWERED, OPEN_DECK, instant_daily, record_answers, send_click
from bot.play.deal_bank import DealBank
from bot.play.sessions import SessionManager
from bot.runtime.client import SolitaireBot
from bot.runtime.settings import load_settings
from bot.storage import Database
from solitaire import VARIANTS
from solitaire.deals import ProvenDeal


def _easy_deal(variant: str, number: int) -> ProvenDeal:
    return ProvenDeal(variant, number, OPEN_DECK, ())


def _bot(folder: Path, database_url: str | None) -> SolitaireBot:
    settings = load_settings(
        _env_file=None, discord_token="bench", database_path=folder / "bench.db", database_url=database_url
    )
    deals: DealBank[Any] = DealBank(_easy_deal, variants=VARIANTS, size=0, numbers=lambda: 777)
    return SolitaireBot(settings, deals=deals, daily_solve=instant_daily)


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


async def _wait_answered(ids: list[int], quiet: float) -> None:
    """Wait until every click is answered, or until no answer came for ``quiet`` seconds (a saturated bot
    lets Discord's 3-second answer deadline pass: those clicks are never answered and count as failed)."""
    last, answered = time.perf_counter(), 0
    while (count := sum(i in ANSWERED for i in ids)) < len(ids):
        if count > answered:
            last, answered = time.perf_counter(), count
        elif time.perf_counter() - last > quiet:
            return
        await asyncio.sleep(0.01)


def _latencies(sent: dict[int, float]) -> list[float]:
    """Milliseconds from each click to its answer; a click never answered counts as infinitely slow."""
    return [(ANSWERED[i] - t) * 1000 if i in ANSWERED else math.inf for i, t in sent.items()]


def _trim_harness(env: Any) -> None:
    """Drop SimCord's diagnostic logs (transcript, HTTP log): harness memory, not the bot's."""
    env.backend.transcript.clear()
    env.backend.http_requests.clear()


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def _session_memory(folder: Path, games: int) -> float:
    """Bytes of Python heap per running game held by the bot itself (session, engine, row, lock, clock task)."""
    db = await Database.open(folder / "memory.db")
    manager = SessionManager(db, now=time.time)
    deal = _easy_deal("draw3", 1)
    await manager.start(guild_id=1, channel_id=1, user_id=0, variant="draw3", deal=deal)  # warm caches
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for user in range(1, games + 1):
        session = await manager.start(guild_id=1, channel_id=1, user_id=user, variant="draw3", deal=deal)
        for _ in range(10):  # a game some way in: its move log and undo stack have grown
            await manager.play(session, "draw")
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    await manager.close()
    await db.close()
    return used / games


async def run(games: int, rate: float, seconds: float, database_url: str | None = None) -> dict[str, float]:
    """Start ``games`` games, then click at ``rate`` for ``seconds``, then all at once; SQLite unless a URL is given."""
    record_answers()
    with tempfile.TemporaryDirectory() as folder:
        bot = _bot(Path(folder), database_url)
        async with simcord.run(bot) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("games")
            members = [guild.add_member(env.create_user(f"player{i}")) for i in range(games)]

            gc.collect()
            rss_before = _rss_mb()
            boards = []
            start_clock = time.perf_counter()
            for member in members:
                result = await member.slash(channel, "solitaire start", variant="draw3")
                boards.append(result.response.id)
            start_seconds = time.perf_counter() - start_clock
            gc.collect()
            rss_after = _rss_mb()
            sessions = [bot.sessions.active_for(guild.id, m.id) for m in members]
            assert all(s is not None for s in sessions)
            _trim_harness(env)
            gc.freeze()  # the setup heap (SimCord's world, 200 starts) is not the bot's per-move work

            def board_id(index: int) -> str:
                session = sessions[index]
                assert session is not None
                return f"sol:{session.id}:{session.game.version}:-:draw"

            # paced phase
            sent: dict[int, float] = {}
            total = int(rate * seconds)
            begin, cpu_begin = time.perf_counter(), time.process_time()
            for n in range(total):
                due = begin + n / rate
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                index = n % games
                if index == 0:
                    _trim_harness(env)
                sent_at = time.perf_counter()
                sent[send_click(env, members[index], boards[index], channel.id, board_id(index))] = sent_at
            await _wait_answered(list(sent), 10)
            paced_elapsed = max((ANSWERED[i] for i in sent if i in ANSWERED), default=begin) - begin
            latencies = _latencies(sent)
            paced_cpu = time.process_time() - cpu_begin

            # burst phase: every game at once
            _trim_harness(env)
            burst: dict[int, float] = {}
            burst_begin = time.perf_counter()
            for index, member in enumerate(members):
                burst[send_click(env, member, boards[index], channel.id, board_id(index))] = time.perf_counter()
            await _wait_answered(list(burst), 10)
            burst_answered = [ANSWERED[i] for i in burst if i in ANSWERED]
            burst_elapsed = max(burst_answered, default=burst_begin) - burst_begin
            burst_latencies = _latencies(burst)

            await env.settle(timeout=30)
            gc.unfreeze()
            accepted = sum(s.record.version for s in sessions if s is not None)  # saved commands (the rows)
            errors = len(env.errors)
        await bot.close_services()
        session_bytes = await _session_memory(Path(folder), games)
    return {
        "games": games,
        "rate_target": rate,
        "clicks": total,
        "paced_p50_ms": statistics.median(latencies),
        "paced_p99_ms": _percentile(latencies, 0.99),
        "paced_max_ms": max(latencies),
        "paced_moves_per_s": sum(i in ANSWERED for i in sent) / paced_elapsed,
        "paced_unanswered": sum(i not in ANSWERED for i in sent),
        "paced_cpu_ms_per_move": paced_cpu * 1000 / max(sum(i in ANSWERED for i in sent), 1),
        "burst_clicks": games,
        "burst_p50_ms": statistics.median(burst_latencies),
        "burst_p99_ms": _percentile(burst_latencies, 0.99),
        "burst_moves_per_s": len(burst_answered) / burst_elapsed if burst_elapsed else 0.0,
        "burst_unanswered": games - len(burst_answered),
        "start_ms_per_game": start_seconds * 1000 / games,
        "session_kb_per_game": session_bytes / 1024,
        "rss_kb_per_game": (rss_after - rss_before) * 1024 / games,
        "moves_saved": accepted,
        "bot_errors": errors,
        "render_workers": bot.settings.render_workers,
        "render_fallbacks": bot.jobs.fallbacks,
        "workers_replaced": bot.jobs.replaced,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rate", type=float, default=50.0, help="clicks per second in the paced phase")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the paced phase")
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--database-url", help="postgres: a database to use (default: start a throwaway server)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    if args.backend == "postgres":
        with postgres_url(args.database_url) as url, scratch_schema(url, "bench_bot") as schema_url:
            figures = asyncio.run(run(args.games, args.rate, args.seconds, schema_url))
    else:
        figures = asyncio.run(run(args.games, args.rate, args.seconds))
    print(f"machine: {os.cpu_count()} cores, load average {load:.2f} at start; backend {args.backend}")
    print(f"{figures['games']} games running; start {figures['start_ms_per_game']:.1f} ms each (slash, serial)")
    print(
        f"paced {figures['clicks']} Draw clicks at {figures['rate_target']:.0f}/s: "
        f"p50 {figures['paced_p50_ms']:.1f} ms, p99 {figures['paced_p99_ms']:.1f} ms, "
        f"max {figures['paced_max_ms']:.1f} ms, achieved {figures['paced_moves_per_s']:.1f} moves/s, "
        f"{figures['paced_unanswered']} never answered; this process's CPU "
        f"{figures['paced_cpu_ms_per_move']:.2f} ms per move (SimCord included, render workers not)"
    )
    print(
        f"burst of {figures['burst_clicks']} simultaneous clicks: p50 {figures['burst_p50_ms']:.1f} ms, "
        f"p99 {figures['burst_p99_ms']:.1f} ms, {figures['burst_moves_per_s']:.1f} moves/s, "
        f"{figures['burst_unanswered']} never answered"
    )
    print(
        f"memory per active game: {figures['session_kb_per_game']:.1f} KiB held by the bot (tracemalloc, "
        f"10 moves in), {figures['rss_kb_per_game']:.1f} KiB process RSS growth (simulated Discord included)"
    )
    print(f"moves saved {figures['moves_saved']}, bot errors {figures['bot_errors']}")
    print(
        " ".join(
            f"{key}={value:.1f}" if isinstance(value, float) else f"{key}={value}"
            for key, value in {**figures, "backend": args.backend, "load": load}.items()
        )
    )


if __name__ == "__main__":
    main()
