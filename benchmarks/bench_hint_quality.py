"""Does following the hint win? The hint follower and a blind greedy player on the same proven deals (key=value last).

A deal counts when ``solve --max-nodes 200000`` proves it winnable (seeds scanned from
``--start``). The follower plays only the hinted moves (hint numbers 1, 2, ..., salt 0) until the
game ends, no hint comes or ``--cap`` moves; the greedy player sees only what a player sees and
plays a foundation move first, then one that turns a face-down card, then waste to pile, else
draws, never repeating a position. ``most_visits`` is the most times a game stood at one board
(in any pass: a game going round in circles shows it). Both cores work (a process pool): say the
load when quoting.

Run: ``.venv/bin/python benchmarks/bench_hint_quality.py`` (``--deals N`` per variant, ``--workers W``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solitaire import Game, Move, MoveKind, new_game, shuffled_deck  # noqa: E402
from solitaire.hint import hint_for  # noqa: E402
from solitaire.klondike import KlondikeGame  # noqa: E402
from solitaire.knowledge import knowledge_of  # noqa: E402
from solitaire.solver import WINNABLE, solve  # noqa: E402

VARIANTS = ("draw3", "draw1", "goldrush", "friday13")
PROOF_NODES = 200_000
"""A deal counts when the solver proves it winnable within this many nodes."""


@dataclass
class Outcome:
    """How one player's game of one deal ended."""

    variant: str
    seed: int
    player: str
    end: str
    moves: int
    times: list[float] = field(default_factory=list)
    """Seconds per hint (the follower only)."""
    repeats: int = 0
    """Moves that led back to a position of the same pass (must stay 0)."""
    visits: Counter[str] = field(default_factory=Counter)
    """How often the game stood at each board, in any pass (a game going round in circles shows it)."""


def proven(job: tuple[str, int]) -> tuple[str, int, bool]:
    """Whether the deal ``seed`` of ``variant`` is proven winnable."""
    variant, seed = job
    return variant, seed, solve(variant, shuffled_deck(seed), max_nodes=PROOF_NODES).result == WINNABLE


def follow_hints(job: tuple[str, int, int]) -> Outcome:
    """Play only the hinted moves."""
    variant, seed, cap = job
    game = new_game(variant, seed=seed)
    outcome = Outcome(variant, seed, "hints", "", 0)
    number = 0
    while not game.is_over and game.move_count < cap:
        number += 1
        start = time.perf_counter()
        hint = hint_for(knowledge_of(game), number=number)
        outcome.times.append(time.perf_counter() - start)
        if hint.move is None:
            outcome.end = f"no hint ({hint.reason})"
            break
        outcome.repeats += _play(game, hint.move)
        outcome.visits[game.layout_key()] += 1
    return _ended(outcome, game, cap)


def play_greedy(job: tuple[str, int, int]) -> Outcome:
    """Play the blind greedy player."""
    variant, seed, cap = job
    game = new_game(variant, seed=seed)
    outcome = Outcome(variant, seed, "greedy", "", 0)
    while not game.is_over and game.move_count < cap:
        move = greedy_move(game)
        if move is None:
            outcome.end = "no move"
            break
        outcome.repeats += _play(game, str(move))
        outcome.visits[game.layout_key()] += 1
    return _ended(outcome, game, cap)


def greedy_move(game: Game) -> Move | None:
    """Foundation first, then a move turning a face-down card, then waste to pile, else draw; no repeats."""
    ranked = sorted(game.legal_moves(), key=lambda move: -_greedy_rank(game, move))
    ranked = [move for move in ranked if _greedy_rank(game, move) > 0]
    for strict in (True, False):
        for move in ranked:
            if not _repeats(game, move, strict=strict):
                return move
    return None


def _greedy_rank(game: Game, move: Move) -> int:
    if move.kind is MoveKind.DRAW:
        return 1
    if move.target == "f" or not isinstance(game, KlondikeGame):
        return 4  # Friday 13: every play is a foundation play
    if move.source == "w":
        return 2
    if move.source.isdigit() and game.hidden[int(move.source) - 1]:
        run = game.face_up(int(move.source) - 1)
        return 3 if game.fits_pile(run[0], int(move.target) - 1) else 0
    return 0


def _repeats(game: Game, move: Move, *, strict: bool) -> bool:
    """Whether ``move`` leads to a position of this pass (or, if ``strict``, a board seen knowing as much)."""
    branch = game.branch()
    branch.push(move)
    last = game.visited.get(branch.layout_key())
    return last is not None and (last[0] == branch.recycles or (strict and last[1] == branch.unseen()))


def _play(game: Game, text: str) -> int:
    """Play ``text``; return 1 if it led back to a position of the same pass."""
    before = dict(game.visited)
    game.play(text)
    last = before.get(game.layout_key())
    return int(last is not None and last[0] == game.recycles)


def _ended(outcome: Outcome, game: Game, cap: int) -> Outcome:
    if not outcome.end:
        outcome.end = game.status.value if game.is_over else f"cap {cap}"
    outcome.moves = game.move_count
    return outcome


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=24, help="proven deals per variant")
    parser.add_argument("--start", type=int, default=70_000, help="first seed scanned")
    parser.add_argument("--cap", type=int, default=600, help="moves per game at most")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--players", default="hints,greedy", help="who plays: hints, greedy or both")
    args = parser.parse_args()
    variants = args.variants.split(",")
    began = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        deals = _proven_deals(pool, variants, args.start, args.deals)
        jobs = [(variant, seed, args.cap) for variant in variants for seed in deals[variant]]
        print(" ".join(f"{variant}={seeds}" for variant, seeds in deals.items()), file=sys.stderr, flush=True)
        chosen = args.players.split(",")
        players: list[Callable[[tuple[str, int, int]], Outcome]] = [
            player for name, player in (("hints", follow_hints), ("greedy", play_greedy)) if name in chosen
        ]
        futures = [pool.submit(player, job) for player in players for job in jobs]
        results = []
        for future in as_completed(futures):
            outcome = future.result()
            results.append(outcome)
            print(
                f"{outcome.variant} {outcome.seed} {outcome.player}: {outcome.end} in {outcome.moves} moves",
                file=sys.stderr,
                flush=True,
            )
    line = {"deals": sum(len(seeds) for seeds in deals.values())}
    times = [seconds for outcome in results for seconds in outcome.times]
    for variant in variants:
        print(f"{variant}: {len(deals[variant])} proven deals from seed {args.start} (up to {max(deals[variant])})")
        for player in ("hints", "greedy"):
            games = [o for o in results if o.variant == variant and o.player == player]
            if not games:
                continue
            won = sum(o.end == "won" for o in games)
            ends = Counter(o.end for o in games)
            waits = [seconds for o in games for seconds in o.times]
            p50, p95 = _percentile(waits, 0.5), _percentile(waits, 0.95)
            timing = f"; hint p50 {p50:.2f} s, p95 {p95:.2f} s" if waits else ""
            print(f"  {player:6} won {won:2}/{len(games)} ({100 * won / len(games):.0f}%) {dict(ends)}{timing}")
            line[f"{variant}_{player}"] = won
        wins = [o.seed for o in results if o.variant == variant and o.player == "hints" and o.end == "won"]
        print(f"  deals the follower won: {wins}")
    repeats = sum(o.repeats for o in results)
    most = max((max(o.visits.values(), default=0) for o in results), default=0)
    load = os.getloadavg()[0]
    p50, p95 = _percentile(times, 0.5) * 1000, _percentile(times, 0.95) * 1000
    longest = max(times, default=0) * 1000
    print(
        f"{len(times)} hints: p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {longest:.0f} ms; positions repeated "
        f"{repeats}; one board at most {most} times in a game; "
        f"{time.perf_counter() - began:.0f} s with {args.workers} workers (load {load:.2f})"
    )
    line |= {
        "hints": len(times),
        "hint_p50_ms": round(p50),
        "hint_p95_ms": round(p95),
        "repeats": repeats,
        "most_visits": most,
    }
    print(" ".join(f"{key}={value}" for key, value in line.items()) + f" load1={load:.2f}")


def _proven_deals(pool: ProcessPoolExecutor, variants: list[str], start: int, count: int) -> dict[str, list[int]]:
    """The first ``count`` proven seeds from ``start`` of each variant (scanned in chunks on the pool)."""
    deals: dict[str, list[int]] = {variant: [] for variant in variants}
    seed = start
    while any(len(seeds) < count for seeds in deals.values()):
        chunk = [(variant, s) for variant in variants if len(deals[variant]) < count for s in range(seed, seed + 16)]
        for variant, s, ok in pool.map(proven, chunk):
            if ok and len(deals[variant]) < count:
                deals[variant].append(s)
        seed += 16
    return deals


if __name__ == "__main__":
    main()
