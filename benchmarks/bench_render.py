"""Time render+encode of fixed seeded boards, their PNG sizes, and the cold start; ends with one key=value line.

Run: ``.venv/bin/python benchmarks/bench_render.py`` (``--frames N``, ``--levels 1 3 4 6`` to compare zlib levels).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render import board as board_module  # noqa: E402
from render import render_board  # noqa: E402
from render.board import draw_board, encode  # noqa: E402
from render.layout import WIDTH  # noqa: E402
from render.samples import SEEDS, STUCK_SEEDS, WON_SEEDS, greedy_move, sample_game  # noqa: E402
from solitaire import BoardView, new_game, view_of  # noqa: E402

CASES = [("draw3", "mid"), ("draw1", "mid"), ("goldrush", "mid"), ("friday13", "mid"), ("draw3", "stuck")]
HEADLINE = ("draw3", "mid")

COLD_SNIPPET = """
import time
from render import render_board, warm_up
from render.samples import sample_game
from solitaire import view_of
view = view_of(sample_game("draw3", "mid"))
start = time.perf_counter()
render_board(view, time_left=250.0)
first = time.perf_counter() - start
start = time.perf_counter()
warm_up()
rest = time.perf_counter() - start
print(first * 1000, (first + rest) * 1000)
"""


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _p90_ms(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=10)[-1] * 1000


def time_frames(view: BoardView, frames: int) -> tuple[list[float], list[float], list[float], list[float], int]:
    """Render ``frames`` times with a ticking clock; return wall, CPU, compose and encode times and the size."""
    totals, cpus, draws, encodes, size = [], [], [], [], 0
    for frame in range(frames):
        time_left = 300.0 - frame * 0.7
        start, cpu = time.perf_counter(), time.thread_time()
        data = render_board(view, time_left=time_left)
        totals.append(time.perf_counter() - start)
        cpus.append(time.thread_time() - cpu)
        size = len(data)
        start = time.perf_counter()
        canvas = draw_board(view, time_left=time_left)
        middle = time.perf_counter()
        encode(canvas)
        encodes.append(time.perf_counter() - middle)
        draws.append(middle - start)
    return totals, cpus, draws, encodes, size


def sweep() -> tuple[list[int], list[float]]:
    """Render every position of greedy games (3 seeds per variant); return PNG sizes and CPU times."""
    sizes, cpus = [], []
    for variant in SEEDS:
        for seed in (SEEDS[variant], WON_SEEDS[variant], STUCK_SEEDS[variant]):
            game, clock = new_game(variant, seed=seed), 0
            while not game.is_over and (move := greedy_move(game)) is not None and clock < 290:
                clock += 1
                game.push(move, seconds=clock)
                view = view_of(game)
                start = time.thread_time()
                sizes.append(len(render_board(view, time_left=300.0 - clock, selected="w")))
                cpus.append(time.thread_time() - start)
    return sizes, cpus


def cold_start(runs: int) -> tuple[float, float]:
    """Return the median first-frame time (sprites built on demand) and full warm-up time, in fresh processes."""
    firsts, fulls = [], []
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", COLD_SNIPPET], capture_output=True, text=True, check=True, env=env
        ).stdout
        first, full = map(float, out.split())
        firsts.append(first)
        fulls.append(full)
    return statistics.median(firsts), statistics.median(fulls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--levels", type=int, nargs="*", default=[], help="also compare these zlib levels")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"cpus={os.cpu_count()} load1={load:.2f} python={sys.version.split()[0]} level={board_module.COMPRESS_LEVEL}")
    headline: dict[str, float] = {}
    for variant, state in CASES:
        view = view_of(sample_game(variant, state))
        render_board(view, time_left=300.0)
        totals, cpus, draws, encodes, size = time_frames(view, args.frames)
        print(
            f"{variant:9} {state:6} median {_median_ms(totals):5.2f} ms  p90 {_p90_ms(totals):5.2f} ms  "
            f"cpu {_median_ms(cpus):4.2f} ms  (compose {_median_ms(draws):4.2f} + encode {_median_ms(encodes):4.2f})  "
            f"png {size / 1000:5.1f} KB"
        )
        if (variant, state) == HEADLINE:
            headline = {
                "median_ms": _median_ms(totals),
                "p90_ms": _p90_ms(totals),
                "cpu_ms": _median_ms(cpus),
                "png_kb": size / 1000,
            }
    if args.levels:
        canvas = draw_board(view_of(sample_game(*HEADLINE)), time_left=200.0)
        for level in args.levels:
            times = []
            for _ in range(args.frames // 3):
                start = time.perf_counter()
                data = encode(canvas, level)
                times.append(time.perf_counter() - start)
            print(f"zlib level {level}: encode median {_median_ms(times):5.2f} ms  png {len(data) / 1000:5.1f} KB")
    sizes, cpus = sweep()
    sizes.sort()
    print(
        f"sweep of {len(sizes)} positions: png mean {statistics.mean(sizes) / 1000:.1f} KB, "
        f"p99 {sizes[int(len(sizes) * 0.99)] / 1000:.1f} KB, max {sizes[-1] / 1000:.1f} KB; "
        f"cpu median {_median_ms(cpus):.2f} ms, p90 {_p90_ms(cpus):.2f} ms"
    )
    first, full = cold_start(args.cold_runs)
    print(
        f"cold start: first frame {first:.1f} ms (sprites on demand), "
        f"every card sprite in both colour schemes {full:.1f} ms"
    )
    figures = {key: f"{value:.2f}" for key, value in headline.items()}
    figures |= {"sweep_max_kb": f"{sizes[-1] / 1000:.1f}", "sweep_cpu_ms": f"{_median_ms(cpus):.2f}"}
    figures |= {"cold_ms": f"{first:.1f}", "warm_up_ms": f"{full:.1f}", "width": str(WIDTH), "load1": f"{load:.2f}"}
    print(" ".join(f"{key}={value}" for key, value in figures.items()))


if __name__ == "__main__":
    main()
