"""Benchmark the solver on a fixed set of random deals per variant.

Runs ``solve`` with a time budget on ``shuffled_deck(seed)`` for ``--count`` seeds from
``--first-seed`` (the same seeds for every variant), one deal at a time in this process.
Prints, per variant, the proven-winnable rate, the unwinnable and unknown counts, and
the median / p90 time and nodes of the proven deals (engine verification included),
then ONE line of ``key=value`` figures.

    .venv/bin/python benchmarks/bench_solver.py                       # defaults: 100 deals x 4 variants, 1 s
    .venv/bin/python benchmarks/bench_solver.py --variants draw3 --count 300 --budget-ms 1000
    .venv/bin/python benchmarks/bench_solver.py --variants draw3 --count 300 --recheck-nodes 1500000

``--recheck-nodes N`` solves the deals left unknown again with a budget of N nodes, to show
how many of them were winnable after all (the headroom) and how many unwinnable.

``--max-nodes N`` gives every deal a budget of N nodes instead of time: results and node counts
are then the same on every run, so ``us_per_node`` (time over all deals / their nodes) compares
two versions of the solver that should search alike (run each a few times in turn, e.g. under
``/usr/bin/time -v``, and compare the medians).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from solitaire.deals import DEAL_MAX_NODES, candidate_seed, winnable_deal
from solitaire.shuffle import shuffled_deck
from solitaire.solver import UNKNOWN, UNWINNABLE, WINNABLE, SolveResult, solve
from solitaire.variants import VARIANTS


def percentile(values: list[float], fraction: float) -> float:
    """Return the nearest-rank percentile of ``values`` (0 for an empty list)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def run_variant(
    variant: str, seeds: range, budget_ms: float | None, max_nodes: int | None = None
) -> tuple[dict[str, float], list[int]]:
    """Solve every seed's deal; print a summary and return the figures and the seeds left unknown."""
    results: list[SolveResult] = []
    started = time.perf_counter()
    for seed in seeds:
        results.append(solve(variant, shuffled_deck(seed), budget_ms=budget_ms, max_nodes=max_nodes))
    unknown_seeds = [seed for seed, result in zip(seeds, results, strict=True) if result.result == UNKNOWN]
    wall = time.perf_counter() - started
    proven = [result for result in results if result.result == WINNABLE]
    unwinnable = sum(result.result == UNWINNABLE for result in results)
    unknown = len(results) - len(proven) - unwinnable
    ms = [result.ms for result in proven]
    nodes = [float(result.nodes) for result in proven]
    figures = {
        "proven": len(proven) / len(results),
        "unwinnable": unwinnable,
        "unknown": unknown,
        "median_ms": statistics.median(ms) if ms else 0.0,
        "p90_ms": percentile(ms, 0.9),
        "median_nodes": statistics.median(nodes) if nodes else 0.0,
        "p90_nodes": percentile(nodes, 0.9),
        "us_per_node": 1000 * sum(result.ms for result in results) / max(1, sum(result.nodes for result in results)),
    }
    print(
        f"{variant:9} deals={len(results)} proven={len(proven)} ({figures['proven']:.1%}) "
        f"unwinnable={unwinnable} unknown={unknown} | proven deals: "
        f"median {figures['median_ms']:.1f} ms / {figures['median_nodes']:.0f} nodes, "
        f"p90 {figures['p90_ms']:.1f} ms / {figures['p90_nodes']:.0f} nodes | "
        f"all deals: {sum(result.nodes for result in results)} nodes, {figures['us_per_node']:.2f} us/node | "
        f"wall {wall:.1f} s",
        flush=True,
    )
    return figures, unknown_seeds


def recheck(variant: str, seeds: list[int], max_nodes: int) -> dict[str, float]:
    """Solve the deals left unknown again with ``max_nodes``; print and return what they turned out to be."""
    results = [solve(variant, shuffled_deck(seed), max_nodes=max_nodes) for seed in seeds]
    figures: dict[str, float] = {
        f"recheck_{name}": sum(result.result == name for result in results) for name in (WINNABLE, UNWINNABLE, UNKNOWN)
    }
    found = [result.nodes for result in results if result.result == WINNABLE]
    print(
        f"{variant:9} recheck of the {len(seeds)} unknown deals at {max_nodes} nodes: "
        f"{figures['recheck_winnable']} winnable (nodes {sorted(found)}), "
        f"{figures['recheck_unwinnable']} unwinnable, {figures['recheck_unknown']} still unknown",
        flush=True,
    )
    return figures


def run_deal_supply(variant: str, keys: int) -> dict[str, float]:
    """Time ``winnable_deal`` (default node budget) for ``keys`` keys; print a summary and return the figures."""
    seconds: list[float] = []
    tried: list[int] = []
    for number in range(keys):
        source = f"bench:{variant}:{number}"
        started = time.perf_counter()
        deal = winnable_deal(variant, source)
        seconds.append(time.perf_counter() - started)
        tried.append(next(index for index in range(10_000) if candidate_seed(source, index) == deal.seed) + 1)
    figures = {
        "deal_mean_s": statistics.fmean(seconds),
        "deal_max_s": max(seconds),
        "deal_mean_candidates": statistics.fmean(tried),
    }
    print(
        f"{variant:9} winnable_deal x{keys} (max_nodes={DEAL_MAX_NODES}): mean {figures['deal_mean_s']:.2f} s, "
        f"max {figures['deal_max_s']:.2f} s, mean {figures['deal_mean_candidates']:.1f} candidates per deal",
        flush=True,
    )
    return figures


def main() -> None:
    """Parse the arguments, run the variants and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--count", type=int, default=100, help="deals per variant")
    parser.add_argument("--first-seed", type=int, default=10_000, help="first shuffle seed")
    parser.add_argument("--budget-ms", type=float, default=1000.0, help="time budget per deal")
    parser.add_argument(
        "--max-nodes", type=int, default=0, help="a node budget per deal instead of the time budget (0: time)"
    )
    parser.add_argument("--deal-keys", type=int, default=10, help="winnable_deal keys timed per variant (0: skip)")
    parser.add_argument(
        "--recheck-nodes", type=int, default=0, help="solve the unknown deals again with this node budget (0: skip)"
    )
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    budget = f"{args.max_nodes} nodes" if args.max_nodes else f"{args.budget_ms:g} ms"
    print(
        f"python {platform.python_version()} on {os.cpu_count()} cores, load {load:.2f}; "
        f"seeds {args.first_seed}..{args.first_seed + args.count - 1}, budget {budget} per deal",
        flush=True,
    )
    seeds = range(args.first_seed, args.first_seed + args.count)
    pairs = [f"deals={args.count}", f"budget_ms={args.budget_ms:g}"]
    if args.max_nodes:
        pairs[-1] = f"max_nodes={args.max_nodes}"
    for variant in args.variants:
        if args.max_nodes:
            figures, unknown_seeds = run_variant(variant, seeds, None, args.max_nodes)
        else:
            figures, unknown_seeds = run_variant(variant, seeds, args.budget_ms)
        if args.recheck_nodes:
            figures |= recheck(variant, unknown_seeds, args.recheck_nodes)
        if args.deal_keys:
            figures |= run_deal_supply(variant, args.deal_keys)
        pairs += [
            f"{variant}_{key}={value:.3f}" if isinstance(value, float) else f"{variant}_{key}={value}"
            for key, value in figures.items()
        ]
    print(" ".join(pairs))


if __name__ == "__main__":
    main()
