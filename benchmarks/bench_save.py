"""What saving one move costs at move 10 and at move 5,000 (the session's real save path, real SQLite file).

Usage: .venv/bin/python benchmarks/bench_save.py [--moves 5000] [--samples 200] [--backend sqlite|postgres]
       [--database-url URL]

A draw3 game is driven to ``--moves`` accepted commands with ``SessionManager.play`` (draws,
which cycle the stock forever). The time of ``--samples`` single-move saves is measured around
move 10 and around move ``--moves``: each sample is one ``play`` (engine push plus the save,
``bot.storage.games.save_progress``). Also reported: bytes written per save (the new log rows)
versus the whole game's JSON (what every save wrote before one row per move). ``--backend postgres`` saves to
PostgreSQL instead (a throwaway server like the tests', or ``--database-url``): no simulated Discord in
the process, so the figure is the save path alone. Ends with one ``key=value`` line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's bot, not an installed one

from benchmarks.postgres_target import postgres_url, scratch_schema
from bot.play.deal_bank import solve_numbered
from bot.play.session import Session
from bot.play.sessions import SessionManager
from bot.storage import Database
from solitaire import game_to_json


async def timed_saves(manager: SessionManager, session: Session, samples: int) -> list[float]:
    """Milliseconds of ``samples`` consecutive one-move plays (each saved before it returns)."""
    times = []
    for _ in range(samples):
        began = time.perf_counter()
        await manager.play(session, "draw")
        times.append((time.perf_counter() - began) * 1000)
    return times


async def run(moves: int, samples: int, database_url: str | None = None) -> dict[str, float]:
    """Play to ``moves`` and time the saves at both ends (SQLite unless a PostgreSQL URL is given)."""
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(database_url or Path(folder) / "bench.sqlite")
        manager = SessionManager(db, now=lambda: 0.0)
        deal = solve_numbered("draw3", 1)
        session = await manager.start(guild_id=1, channel_id=1, user_id=1, variant="draw3", deal=deal)
        for _ in range(10):
            await manager.play(session, "draw")
        early = await timed_saves(manager, session, samples)
        while session.game.version < moves:
            await manager.play(session, "draw")
        late = await timed_saves(manager, session, samples)
        whole = len(json.dumps(game_to_json(session.game), separators=(",", ":")))
        await manager.close()
        await db.close()
    early_ms, late_ms = statistics.median(early), statistics.median(late)
    return {
        "moves": moves,
        "early_median_ms": round(early_ms, 3),
        "late_median_ms": round(late_ms, 3),
        "late_over_early": round(late_ms / early_ms, 2),
        "row_bytes_per_save": len("draw") + 8 + 8 + 8,
        "whole_state_bytes": whole,
    }


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--database-url", default=None, help="an empty PostgreSQL database (default: a throwaway one)")
    args = parser.parse_args()
    if args.backend == "postgres":
        with postgres_url(args.database_url) as url, scratch_schema(url, "bench_save") as schema_url:
            figures = asyncio.run(run(args.moves, args.samples, schema_url))
    else:
        figures = asyncio.run(run(args.moves, args.samples))
    print(f"save of one move at move 10: median {figures['early_median_ms']} ms")
    print(f"save of one move at move {args.moves}: median {figures['late_median_ms']} ms")
    print(f"ratio late/early: {figures['late_over_early']} (target below 2)")
    print(f"whole game JSON at move {args.moves}: {figures['whole_state_bytes']} bytes (no longer rewritten per save)")
    figures["backend"] = args.backend
    figures["load"] = round(os.getloadavg()[0], 2)
    print(" ".join(f"{key}={value}" for key, value in figures.items()))


if __name__ == "__main__":
    main()
