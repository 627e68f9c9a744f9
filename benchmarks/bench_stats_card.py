"""Time drawing the stats card (compose + PNG) for a new member and for veterans; ends with one key=value line.

Every veteran card is a different one (its own seeded months of play: other scores, dates and ratings),
so the text sprites of its figures are drawn afresh as in the bot, not read from the cache. The
``pool`` figures go through a real worker process of the heavy-work scheduler (``bot.heavy.Scheduler(1)``
through ``bot.play.render_pool.Pictures``): the card is pickled to the worker, drawn there and its PNG sent
back, as ``/solitaire stats`` does.

Run: ``.venv/bin/python benchmarks/bench_stats_card.py`` (``--cards N``, ``--cold-runs N``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.heavy import Scheduler  # noqa: E402
from bot.play.render_pool import Pictures  # noqa: E402
from render.samples import sample_stats_card  # noqa: E402
from render.stats_card import render_stats_card  # noqa: E402
from render.stats_data import StatsCard  # noqa: E402

TARGET_P95_MS = 50.0
COLD_SNIPPET = """
import time
from render.samples import sample_stats_card
from render.stats_card import render_stats_card
card = sample_stats_card("veteran")
start = time.perf_counter()
render_stats_card(card)
print((time.perf_counter() - start) * 1000)
"""


def _ms(samples: list[float]) -> tuple[float, float, float]:
    """Median, p95 and max of ``samples`` (seconds), in ms."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p95 * 1000, ordered[-1] * 1000


def time_cards(cards: list[StatsCard]) -> tuple[list[float], list[int]]:
    """Draw each card once; return the wall times and the PNG sizes."""
    times, sizes = [], []
    for card in cards:
        start = time.perf_counter()
        data = render_stats_card(card)
        times.append(time.perf_counter() - start)
        sizes.append(len(data))
    return times, sizes


async def time_pool(cards: list[StatsCard]) -> list[float]:
    """Draw each card once through a real render worker process (pickle, draw, PNG back)."""
    jobs = Scheduler(1)
    jobs.start()
    pool = Pictures(jobs)
    try:
        await pool.render(cards[0])  # the worker has started and loaded its fonts
        times = []
        for card in cards:
            start = time.perf_counter()
            await pool.render(card)
            times.append(time.perf_counter() - start)
        return times
    finally:
        await jobs.close()


def cold(runs: int) -> float:
    """The median time of a fresh process's first card (fonts and the palette loaded on demand), in ms."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    firsts = [
        float(
            subprocess.run(
                [sys.executable, "-c", COLD_SNIPPET], capture_output=True, text=True, check=True, env=env
            ).stdout
        )
        for _ in range(runs)
    ]
    return statistics.median(firsts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=200, help="veteran cards, each a different one")
    parser.add_argument("--cold-runs", type=int, default=5)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"cpus={os.cpu_count()} load1={load:.2f} python={sys.version.split()[0]}")
    render_stats_card(sample_stats_card("veteran", seed=0))  # fonts loaded, the labels' sprites cached
    newcomer = sample_stats_card("new")
    new_times, new_sizes = time_cards([newcomer] * args.cards)
    veterans = [sample_stats_card("veteran", seed=seed) for seed in range(1, args.cards + 1)]
    vet_times, vet_sizes = time_cards(veterans)
    pool_times = asyncio.run(time_pool(veterans[: max(20, args.cards // 4)]))
    figures: dict[str, str] = {}
    for name, times, sizes in (("new", new_times, new_sizes), ("veteran", vet_times, vet_sizes)):
        median, p95, worst = _ms(times)
        print(
            f"{name:8} {len(times)} cards: median {median:5.1f} ms  p95 {p95:5.1f} ms  max {worst:5.1f} ms  "
            f"png {statistics.median(sizes) / 1000:5.1f} KB"
        )
        figures |= {f"{name}_median_ms": f"{median:.1f}", f"{name}_p95_ms": f"{p95:.1f}"}
    median, p95, worst = _ms(pool_times)
    print(f"pool     {len(pool_times)} cards through a render worker: median {median:5.1f} ms  p95 {p95:5.1f} ms")
    first = cold(args.cold_runs)
    print(f"cold start: a fresh process's first card {first:.1f} ms")
    worst_p95 = max(float(figures["new_p95_ms"]), float(figures["veteran_p95_ms"]))
    print(f"p95 target {TARGET_P95_MS:.0f} ms: {'met' if worst_p95 < TARGET_P95_MS else 'NOT met'}")
    figures |= {
        "pool_p95_ms": f"{p95:.1f}",
        "cold_ms": f"{first:.1f}",
        "png_kb": f"{statistics.median(vet_sizes) / 1000:.1f}",
    }
    figures["load1"] = f"{load:.2f}"
    print(" ".join(f"{key}={value}" for key, value in figures.items()))


if __name__ == "__main__":
    main()
