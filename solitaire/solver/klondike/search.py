"""The Klondike search: depth-first rounds with a transposition table and a dead set, greedy rollouts for draw 1.

The position lives in :mod:`.model`, the move order in :mod:`.movegen`; a found line is written
back in the engine's notation here.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from solitaire.cards import Card
from solitaire.shuffle import SplitMix64
from solitaire.solver.klondike.deadlock import buried_deadlock
from solitaire.solver.klondike.model import (
    AUTO_FROM_PILE,
    HOME_PILE,
    PILE_HOME,
    RUN,
    TALON_HOME,
    TALON_PILE,
    Auto,
    SolverMove,
    Undo,
)
from solitaire.solver.klondike.movegen import MoveGenerator
from solitaire.solver.klondike.tables import JITTERS, P_SLOT, ZOBRIST
from solitaire.variants import Rules

FOUNDATION_NAMES = ("fc", "fd", "fs", "fh")
"""The notation of each solver suit's foundation (suits ordered ``C D S H``)."""

# Search tuning (measured with benchmarks/bench_solver.py).
FIRST_ROUND = 300
"""Nodes in the first round; each later round gets GROWTH times more, with its own move order."""
GROWTH = 1.1
ROLLOUT_SHARE = 3.0
"""Draw 1: after each restart round, greedy rollouts get this many times that round's nodes."""
ROLLOUT_DEPTH = 250
"""Moves in one greedy rollout at most."""
ROLLOUT_NOISE = 200
"""Rollouts add a pseudo-random 0..ROLLOUT_NOISE-1 to each child's score (32 per score point)."""


class KlondikeSearch(MoveGenerator):
    """One solve of one Klondike deal; create, call :meth:`run`, read the results."""

    from_deal = True
    """Whether the search starts from a deal (the buried-deadlock test is sound only there)."""

    def __init__(self, rules: Rules, deck: Sequence[Card]) -> None:
        super().__init__(rules, deck)
        self.solution: list[str] | None = None
        self.exhausted = False
        self.dead: set[int] = set()
        """Positions proven unable to win under the current pruning (kept across rounds)."""

    # -- the search ----------------------------------------------------------
    def run(self, max_nodes: int | None, deadline: float | None) -> None:
        """Search in rounds of growing size, each with its own move order, until an answer or the budget.

        A round that exhausts its tree without pruning proves the deal unwinnable; one that
        exhausts a pruned tree switches the later rounds to complete searches.
        """
        if self.solved():
            self.solution = self.notation([])
            return
        if self.from_deal and buried_deadlock(self.piles):
            self.exhausted = True  # provably unwinnable: no search needed
            return
        cap = FIRST_ROUND
        restart = 0
        rng = SplitMix64(0x0B1A_5EED)
        while True:
            limit = self.nodes + cap
            if max_nodes is not None:
                limit = min(limit, max_nodes)
            self.jitter = JITTERS[restart % len(JITTERS)] if restart else ()
            self._search(limit, deadline)
            if self.solution is not None:
                return
            if self.exhausted:
                if not self.pruned or not self.prune:
                    return
                self.exhausted = False
                self.prune = False
                self.dead.clear()
            if self.nodes == max_nodes or (deadline is not None and time.perf_counter() >= deadline):
                return
            if restart and self.talon_free:  # measured: helps draw 1, not draw 3
                limit = self.nodes + int(cap * ROLLOUT_SHARE)
                if max_nodes is not None:
                    limit = min(limit, max_nodes)
                self._rollouts(limit, deadline, rng)
                if self.solution is not None:
                    return
                if self.nodes == max_nodes or (deadline is not None and time.perf_counter() >= deadline):
                    return
            cap = int(cap * GROWTH)
            restart += 1

    def _search(self, limit: int, deadline: float | None) -> None:
        """Search depth first until a solution, exhaustion, ``limit`` nodes in all, or ``deadline``.

        Positions are numbered as entered and kept on a stack as in Tarjan's algorithm: when
        a strongly connected component closes, none of its positions can reach a win, whatever
        order later rounds use, so they join :attr:`dead` for good. Positions that only failed
        because a move led back to a position still being searched stay unproven.
        """
        if self.nodes >= limit:
            return
        dead = self.dead
        number = {self.hash: 0}
        """Positions entered in this round and not proven dead, with their entry numbers."""
        stack = [self.hash]
        entered = 1
        path: list[Undo] = []
        frames = [iter(self.moves())]
        ids, lows, hashes = [0], [0], [self.hash]
        do, undo, moves, child_hash = self.do, self.undo, self.moves, self.child_hash
        check_dominance = not self.talon_free
        while frames:
            move = next(frames[-1], None)
            if move is None:
                frames.pop()
                low, own, h = lows.pop(), ids.pop(), hashes.pop()
                if low == own:  # the root of a closed component
                    while True:
                        member = stack.pop()
                        del number[member]
                        dead.add(member)
                        if member == h:
                            break
                elif low < lows[-1]:
                    lows[-1] = low
                if path:
                    undo(path.pop())
                continue
            h = child_hash(move)
            if check_dominance and TALON_PILE <= move[0] <= TALON_HOME:
                h = self.dominator(move, h, number, dead)
            if h in dead:
                continue
            known = number.get(h)
            if known is not None:
                if known < lows[-1]:
                    lows[-1] = known
                continue
            token = do(move, h)  # h is still the child hash: a dominating position would have been skipped
            h = self.hash
            if h in dead:
                undo(token)
                continue
            known = number.get(h)
            if known is not None:
                if known < lows[-1]:
                    lows[-1] = known
                undo(token)
                continue
            number[h] = entered
            stack.append(h)
            ids.append(entered)
            lows.append(entered)
            hashes.append(h)
            entered += 1
            self.nodes += 1
            path.append(token)
            if self.solved():
                self.solution = self.notation(path)
                break
            if self.nodes >= limit:
                break
            if deadline is not None and not self.nodes & 255 and time.perf_counter() >= deadline:
                break
            frames.append(iter(moves()))
        else:
            self.exhausted = True
        while path:
            undo(path.pop())

    def _rollouts(self, limit: int, deadline: float | None, rng: SplitMix64) -> None:
        """Play greedy rollouts (best-scored child, with noise) until a solution, ``limit`` nodes or ``deadline``.

        Every child tried counts as a node. A rollout never revisits a position of its own
        line and skips positions proven dead; it proves nothing when it fails.
        """
        dead = self.dead
        do, undo, moves, child_hash, score = self.do, self.undo, self.moves, self.child_hash, self.score
        jitter, self.jitter = self.jitter, ()
        while self.nodes < limit:
            path: list[Undo] = []
            seen = {self.hash}
            while len(path) < ROLLOUT_DEPTH and self.nodes < limit:
                best: SolverMove | None = None
                best_hash = 0
                best_value = -1 << 30
                for rank, move in enumerate(moves()):
                    if self.nodes >= limit:
                        best = None
                        break
                    child = child_hash(move)
                    if child in seen:
                        continue
                    token = do(move, child)
                    self.nodes += 1
                    h = self.hash
                    if h in dead or h in seen:
                        undo(token)
                        continue
                    if self.solved():
                        path.append(token)
                        self.solution = self.notation(path)
                        break
                    value = score() * 32 - rank + rng.below(ROLLOUT_NOISE)
                    undo(token)
                    if value > best_value:
                        best, best_value, best_hash = move, value, child
                if self.solution is not None or best is None:
                    break
                path.append(do(best, best_hash))
                seen.add(self.hash)
            while path:
                undo(path.pop())
            if self.solution is not None or (deadline is not None and time.perf_counter() >= deadline):
                break
        self.jitter = jitter

    def score(self) -> int:
        """A rollout's value of the position: cards home, minus face-down cards, minus talon cards."""
        return 2 * sum(self.found) - 5 * sum(self.hidden) - len(self.talon)

    def dominator(self, move: SolverMove, h: int, number: dict[int, int], dead: set[int]) -> int:
        """Return the hash of a searched position that dominates the talon move's result, else ``h``.

        Drawing takes position ``p`` to ``p + k`` (same pass), so every move from the latter is
        a move from the former. Gold Rush only while no empty pile stops the deal.
        """
        p, pass_index = move[1], move[2]
        if self.max_passes is None:
            step = self.counts[0]
            if p % step == 0 or p == len(self.talon) - 1:
                return h  # hashed as the position drawing cycles through
            earlier = range(p - step, 0, -step)
        else:
            if self.deal_blocked():
                return h
            step = self.counts[min(pass_index, len(self.counts) - 1)]
            earlier = range(p - step, -1, -step)
        base = h ^ ZOBRIST[P_SLOT << 6 | p]
        for q in earlier:
            other = base ^ ZOBRIST[P_SLOT << 6 | q]
            if other in dead or other in number:
                return other
        return h

    # -- the answer in notation -----------------------------------------------
    def notation(self, path: list[Undo]) -> list[str]:
        """Write the opening safe moves and the moves of ``path`` in the engine's notation."""
        out: list[str] = []
        self._write_autos(self.opening, out)
        for move, _, _, _, _, autos, _ in path:
            kind = move[0]
            if kind == RUN:
                out.append(f"{move[1] + 1}-{move[3] + 1}")  # the engine finds the run itself
            elif kind == PILE_HOME:
                out.append(f"{move[1] + 1}-f")
            elif kind == HOME_PILE:
                out.append(f"{FOUNDATION_NAMES[move[1]]}-{move[2] + 1}")
            else:
                out.extend(["draw"] * move[3])
                out.append("w-f" if kind == TALON_HOME else f"w-{move[4] + 1}")
            self._write_autos(autos, out)
        return out

    @staticmethod
    def _write_autos(autos: list[Auto], out: list[str]) -> None:
        for auto in autos:
            if auto[0] == AUTO_FROM_PILE:
                out.append(f"{auto[1] + 1}-f")
            else:
                out.extend(["draw"] * auto[2])
                out.append("w-f")
