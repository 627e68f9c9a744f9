"""Time and size of the replay GIF for a 300-move game, a typical one and a 3,000-command one; one key=value line.

Run: ``.venv/bin/python benchmarks/bench_gif.py`` (``--runs N``, ``--long COMMANDS``). The 3,000-command game
(idle turns of the stock, then a solution) runs once, last: the process's peak memory is its.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def very_long_log(commands: int) -> tuple[object, list[tuple[str, int]]]:
    """A won draw-1 game of at least ``commands`` commands: idle turns of the stock (25 commands each), then a win."""
    deal = numbered_deal("draw1", 1)
    turns = max(commands - len(deal.solution), 0) // 25 + 1
    return deal, [(move, 0) for move in ["draw"] * 25 * turns + list(deal.solution)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--long", type=int, default=3000, help="commands of the longest game")
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
    huge_deal, huge_log = very_long_log(args.long)
    huge_game = new_game("draw1", deck=huge_deal.deck)  # type: ignore[attr-defined]
    start = time.perf_counter()
    huge = animate(huge_game.rules, huge_game.deck, huge_log)
    huge_s = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    load = os.getloadavg()[0]
    print(
        f"{len(log)}-move game: {frames} frames, {size / 1e6:.2f} MB (limit {MAX_BYTES / 1e6:.0f} MB), "
        f"median {statistics.median(times):.2f} s, max {max(times):.2f} s over {args.runs} runs (load {load:.2f})"
    )
    size_mb = len(small.data) / 1e6
    print(f"a {len(typical.log)}-move draw-3 game: {small.frames} frames, {size_mb:.2f} MB, {typical_s:.2f} s")
    print(
        f"a {len(huge_log)}-command game: {huge.frames} frames, {len(huge.data) / 2**20:.2f} MiB, {huge_s:.2f} s; "
        f"process peak memory {peak_mb:.0f} MiB"
    )
    print(
        f"moves={len(log)} frames={frames} mb={size / 1e6:.2f} median_s={statistics.median(times):.2f} "
        f"max_s={max(times):.2f} typical_mb={len(small.data) / 1e6:.2f} long={len(huge_log)} "
        f"long_frames={huge.frames} long_mib={len(huge.data) / 2**20:.2f} long_s={huge_s:.2f} "
        f"peak_mib={peak_mb:.0f} load1={load:.2f}"
    )


if __name__ == "__main__":
    main()
