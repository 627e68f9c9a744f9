"""A depth-first Friday 13 solver: only ranks matter, and equal foundations are interchangeable."""

from __future__ import annotations

import time
from collections.abc import Sequence

from solitaire.cards import ACE, KING, Card
from solitaire.friday13 import LABEL_RANKS, STARTER_RANKS
from solitaire.moves import FRIDAY13_LABELS
from solitaire.variants import Rules

DRAW_CARD = -1
"""The search's move ``draw``: draw a card (or turn the waste over); any other move is a foundation index.

An int, not :data:`solitaire.moves.DRAW`."""
ALLOWANCES = (0, 1, 2, 3, 4, 5, 6, 8, 1_000)
"""Draws-instead-of-plays allowed per round; the last never prunes (a path has under 100 draws),
so only its exhaustion proves a deal unwinnable."""


class Friday13Search:
    """One solve of one Friday 13 deal; create, call :meth:`run`, read the results."""

    def __init__(self, rules: Rules, deck: Sequence[Card]) -> None:
        starters: list[Card] = [next(card for card in deck if card.rank == rank) for rank in STARTER_RANKS]
        self.stock = [card.rank for card in reversed(deck) if card not in starters]
        """Ranks still to draw; the next is the last."""
        self.waste: list[int] = []
        self.tops = [card.rank for card in starters] + [0] * (len(LABEL_RANKS) - len(starters))
        """Top rank of each foundation (0 when empty); filled left to right."""
        self.filled = len(starters)
        self.redeals = (rules.max_passes or 2) - 1
        self.nodes = 0
        self.solution: list[str] | None = None
        self.exhausted = False
        self.allowance = 0
        """Draws allowed on a path while the waste top could be played (playing at once is
        usually right, but not provably so): rounds allow 0, 1, 2, ... then any number."""
        self.pruned = False

    def key(self) -> tuple[object, ...]:
        """The position, with foundations of equal top rank merged."""
        return (
            self.redeals,
            bytes(self.stock),
            bytes(self.waste),
            self.filled,
            bytes(sorted(self.tops[: self.filled])),
        )

    def moves(self) -> list[int]:
        """Foundations worth playing the waste top to (one per distinct top rank), then a draw."""
        out: list[int] = []
        if self.waste:
            rank = self.waste[-1]
            wanted = KING if rank == ACE else rank - 1
            tops = self.tops[: self.filled]
            if wanted in tops:
                out.append(tops.index(wanted))
            if self.filled < len(LABEL_RANKS) and LABEL_RANKS[self.filled] == rank:
                out.append(self.filled)
        if self.stock or (self.waste and self.redeals):
            out.append(DRAW_CARD)
        return out

    def do(self, move: int) -> tuple[int, int]:
        """Make ``move``; return what :meth:`undo` needs."""
        if move == DRAW_CARD:
            if self.stock:
                self.waste.append(self.stock.pop())
                return (move, 0)
            self.stock, self.waste = self.waste[::-1], []
            self.redeals -= 1
            return (move, 1)
        old = self.tops[move]
        self.tops[move] = self.waste.pop()
        if not old:
            self.filled += 1
        return (move, old)

    def undo(self, token: tuple[int, int]) -> None:
        """Take back a move made by :meth:`do`."""
        move, info = token
        if move == DRAW_CARD:
            if info:
                self.waste, self.stock = self.stock[::-1], []
                self.redeals += 1
            else:
                self.stock.append(self.waste.pop())
            return
        self.waste.append(self.tops[move])
        self.tops[move] = info
        if not info:
            self.filled -= 1

    def run(self, max_nodes: int | None, deadline: float | None) -> None:
        """Search in rounds allowing more and more draws instead of plays, until an answer or the budget."""
        for allowance in ALLOWANCES:
            self.allowance = allowance
            self.exhausted = self.pruned = False
            self._search(max_nodes, deadline)
            if self.solution is not None or not self.exhausted or not self.pruned:
                return

    def _search(self, max_nodes: int | None, deadline: float | None) -> None:
        """Search depth first until a solution, exhaustion or the budget (nodes count across calls).

        The table keeps, per position, the most draws-instead-of-plays it had left when entered:
        arriving with no more left adds nothing.
        """
        if self.nodes == max_nodes:
            return
        best = {self.key(): self.allowance}
        path: list[tuple[int, int]] = []
        first = self.moves()
        frames = [iter(first)]
        frame_info = [(self.allowance, first[0] != DRAW_CARD if first else False)]
        """Per frame: the allowance left, and whether the waste top could be played there."""
        limit = max_nodes if max_nodes is not None else -1
        while frames:
            move = next(frames[-1], None)
            if move is None:
                frames.pop()
                frame_info.pop()
                if path:
                    self.undo(path.pop())
                continue
            left, can_play = frame_info[-1]
            if move == DRAW_CARD and can_play:
                if not left:
                    self.pruned = True
                    continue
                left -= 1
            token = self.do(move)
            key = self.key()
            if best.get(key, -1) >= left:
                self.undo(token)
                continue
            best[key] = left
            self.nodes += 1
            path.append(token)
            if not self.stock and not self.waste:
                self.solution = ["draw" if move == DRAW_CARD else f"w-{FRIDAY13_LABELS[move]}" for move, _ in path]
                return
            if self.nodes == limit:
                return
            if deadline is not None and not self.nodes & 255 and time.perf_counter() >= deadline:
                return
            following = self.moves()
            frames.append(iter(following))
            frame_info.append((left, bool(following) and following[0] != DRAW_CARD))
        self.exhausted = True
