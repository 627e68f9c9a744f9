"""Time ``hint_for`` on positions of seeded games (every variant, early to late); ends with one key=value line.

Run: ``.venv/bin/python benchmarks/bench_hint.py`` (``--games N`` per variant).
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
from solitaire.hint import DEFAULT_MAX_NODES, DEFAULT_SAMPLES, hint_for  # noqa: E402
from solitaire.knowledge import knowledge_of  # noqa: E402

VARIANTS = ("draw3", "draw1", "goldrush", "friday13")
DEPTHS = (0, 15, 40, 80)
"""Moves played before the hint is asked."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4, help="games per variant")
    args = parser.parse_args()
    times: list[float] = []
    found = 0
    for variant in VARIANTS:
        per_variant: list[float] = []
        for number in range(1, args.games + 1):
            for depth in DEPTHS:
                game = played_game(variant, number, depth)
                if game.is_over:
                    continue
                knowledge = knowledge_of(game)
                start = time.perf_counter()
                hint = hint_for(knowledge, number=1, salt=number)
                per_variant.append(time.perf_counter() - start)
                found += hint.move is not None
        times += per_variant
        print(
            f"{variant:9} {len(per_variant)} hints: median {statistics.median(per_variant) * 1000:.0f} ms, "
            f"max {max(per_variant) * 1000:.0f} ms"
        )
    p95 = statistics.quantiles(times, n=20)[-1]
    load = os.getloadavg()[0]
    print(
        f"{len(times)} hints ({DEFAULT_SAMPLES} samples of {DEFAULT_MAX_NODES} nodes): median "
        f"{statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {max(times) * 1000:.0f} ms; "
        f"a move suggested in {found} (load {load:.2f})"
    )
    print(
        f"hints={len(times)} median_ms={statistics.median(times) * 1000:.0f} p95_ms={p95 * 1000:.0f} "
        f"max_ms={max(times) * 1000:.0f} suggested={found} load1={load:.2f}"
    )


if __name__ == "__main__":
    main()
