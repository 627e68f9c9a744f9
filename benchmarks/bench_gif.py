"""Time and size of the replay GIF for a 300-move game (and a typical one); ends with one key=value line.

Run: ``.venv/bin/python benchmarks/bench_gif.py`` (``--runs N``).
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
from render.animate import MAX_BYTES, animate  # noqa: E402
from solitaire import new_game  # noqa: E402
from solitaire.deals import numbered_deal  # noqa: E402


def long_log() -> tuple[object, list[tuple[str, int]]]:
    """A won draw-1 game of 301 moves: three idle turns of the stock, then the proven solution."""
    deal = numbered_deal("draw1", 1)
    moves = ["draw"] * 75 + list(deal.solution)
    return deal, [(move, 0) for move in moves]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    deal, log = long_log()
    game = new_game("draw1", deck=deal.deck)  # type: ignore[attr-defined]
    times, size, frames = [], 0, 0
    for _ in range(args.runs):
        start = time.perf_counter()
        animation = animate(game.rules, game.deck, log)
        times.append(time.perf_counter() - start)
        size, frames = len(animation.data), animation.frames
    typical = played_game("draw3", 3, 150)
    start = time.perf_counter()
    small = animate(typical.rules, typical.deck, typical.log)
    typical_s = time.perf_counter() - start
    load = os.getloadavg()[0]
    print(
        f"{len(log)}-move game: {frames} frames, {size / 1e6:.2f} MB (limit {MAX_BYTES / 1e6:.0f} MB), "
        f"median {statistics.median(times):.2f} s, max {max(times):.2f} s over {args.runs} runs (load {load:.2f})"
    )
    size_mb = len(small.data) / 1e6
    print(f"a {len(typical.log)}-move draw-3 game: {small.frames} frames, {size_mb:.2f} MB, {typical_s:.2f} s")
    print(
        f"moves={len(log)} frames={frames} mb={size / 1e6:.2f} median_s={statistics.median(times):.2f} "
        f"max_s={max(times):.2f} typical_mb={len(small.data) / 1e6:.2f} load1={load:.2f}"
    )


if __name__ == "__main__":
    main()
