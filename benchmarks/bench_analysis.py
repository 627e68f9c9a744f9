"""Time ``analyze`` on lost games of up to 150 moves (budget per position as the bot uses); ends with key=value.

Run: ``.venv/bin/python benchmarks/bench_analysis.py`` (``--games N`` per variant, ``--moves M``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.after_game_games import played_game  # noqa: E402
from solitaire.analysis import DEFAULT_BUDGET_MS, analyze  # noqa: E402

VARIANTS = ("draw3", "draw1", "goldrush", "friday13")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=8, help="games per variant")
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    args = parser.parse_args()
    times: list[float] = []
    decided = lost = 0
    lengths: list[int] = []
    for variant in VARIANTS:
        for number in range(1, args.games + 1):
            game = played_game(variant, number, args.moves)
            moves = [move for move, _ in game.log]
            start = time.perf_counter()
            result = analyze(game.rules, game.deck, moves, budget_ms=args.budget_ms)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
            lengths.append(len(moves))
            decided += result.decided
            lost += result.lost_by is not None
            print(
                f"{variant:9} deal {number:3}: {len(moves):3} moves, {len(result.solved)} solves, "
                f"{elapsed * 1000:7.0f} ms, decided={result.decided}, last_winnable={result.last_winnable}, "
                f"lost_by={result.lost_by}"
            )
    times.sort()
    p95 = times[max(0, int(len(times) * 0.95) - 1)] if len(times) < 20 else statistics.quantiles(times, n=20)[-1]
    load = os.getloadavg()[0]
    print(
        f"{len(times)} games, {statistics.mean(lengths):.0f} moves on average: "
        f"median {statistics.median(times):.2f} s, "
        f"p95 {p95:.2f} s, max {times[-1]:.2f} s; decided {decided}, losing move found {lost} (load {load:.2f})"
    )
    print(
        f"games={len(times)} median_s={statistics.median(times):.2f} p95_s={p95:.2f} max_s={times[-1]:.2f} "
        f"decided={decided} lost_by_found={lost} budget_ms={args.budget_ms:.0f} load1={load:.2f}"
    )


if __name__ == "__main__":
    main()
