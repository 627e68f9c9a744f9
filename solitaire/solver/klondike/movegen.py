"""Move generation: every move worth trying in a position, best first."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from solitaire.cards import KING, Card
from solitaire.solver.klondike.model import (
    HOME_PILE,
    PILE_HOME,
    RUN,
    TALON_HOME,
    TALON_PILE,
    Position,
    SolverMove,
)
from solitaire.solver.klondike.tables import CHILDREN, FACE_DOWN, IN_TALON, KINGS, ON_EMPTY, ON_FOUNDATION, PARENTS
from solitaire.variants import Rules

ENABLING = 76
"""Priority of a talon-to-tableau move that lets a card lying on a face-down card move."""
PASS_COST = 100
"""Ordering cost of each stock pass a move uses up (Gold Rush)."""

Scored = list[tuple[int, SolverMove]]
"""Moves with their priorities, in the order generated (which breaks ties and indexes the jitter)."""

_first = itemgetter(0)


class MoveGenerator(Position):
    """A position that lists its moves, ordered by priority, pruned while :attr:`prune` holds."""

    def __init__(self, rules: Rules, deck: Sequence[Card]) -> None:
        super().__init__(rules, deck)
        self.reach_memo: dict[tuple[int, int, int, bool], dict[int, tuple[tuple[int, int, int], ...]]] = {}
        self.nodes = 0
        """Positions the search entered (the move order's jitter depends on it)."""
        self.prune = True
        """Skip moves that are very unlikely to help (an exhausted search then proves nothing)."""
        self.pruned = False
        """Whether a move was skipped by :attr:`prune` in this search."""
        self.jitter: tuple[int, ...] = ()

    def reach(self, blocked: bool) -> dict[int, tuple[tuple[int, int, int], ...]]:
        """Talon cards drawing can bring to the waste top: talon index -> ``(pass, draws, cost)`` ways.

        ``blocked`` tells whether an empty pile stops the deal (Gold Rush).

        The cost orders moves: draws, and far more for each pass used up when passes are limited.
        """
        key = (self.p, len(self.talon), self.r, blocked)
        found = self.reach_memo.get(key)
        if found is None:
            ways: dict[int, list[tuple[int, int, int]]] = {}
            for index, pass_index, draws in self._reach(*key):
                cost = 0 if self.talon_free else min(draws, 12) + PASS_COST * (pass_index - self.r)
                ways.setdefault(index, []).append((pass_index, draws, cost))
            found = self.reach_memo[key] = {index: tuple(options) for index, options in ways.items()}
        return found

    def _reach(self, p: int, talon_len: int, pass_index: int, blocked: bool) -> list[tuple[int, int, int]]:
        out = [(p - 1, pass_index, 0)] if p else []
        if not talon_len or blocked:
            return out
        draws, q = 0, p
        if self.max_passes is None:
            count = self.counts[0]
            while q < talon_len:
                q = min(q + count, talon_len)
                draws += 1
                out.append((q - 1, 0, draws))
            draws += 1  # the draw that turns the waste over
            q = 0
            while q < talon_len:
                q = min(q + count, talon_len)
                draws += 1
                if q == talon_len or (q >= p and (q - p) % count == 0):
                    break  # from here on the same cards as before the turn
                out.append((q - 1, 0, draws))
            return out
        while True:
            count = self.counts[min(pass_index, len(self.counts) - 1)]
            while q < talon_len:
                q = min(q + count, talon_len)
                draws += 1
                out.append((q - 1, pass_index, draws))
            if pass_index + 1 >= self.max_passes:
                return out
            draws, q, pass_index = draws + 1, 0, pass_index + 1

    def moves(self) -> list[SolverMove]:
        """Every move worth trying here, best first."""
        piles, hidden, found, talon, loc, pile_of = (
            self.piles,
            self.hidden,
            self.found,
            self.talon,
            self.loc,
            self.pile_of,
        )
        prune = self.prune
        tops: dict[int, int] = {}
        empty = -1
        for j in range(7):
            if piles[j]:
                tops[piles[j][-1]] = j
            elif empty < 0:
                empty = j
        reach = self.reach(self.full_tableau_to_deal and empty >= 0)
        scored: Scored = []
        append = scored.append
        for top, i in tops.items():
            if found[top & 3] == (top >> 2) - 1:
                down = hidden[i]
                if down and len(piles[i]) - 1 == down:
                    append((90 + down, (PILE_HOME, i)))
                else:
                    append((35 if len(piles[i]) == 1 else 60, (PILE_HOME, i)))
            for card in CHILDREN[top]:
                below = loc[card]
                if below >= 4:
                    source = pile_of[card]
                    if loc[below] == FACE_DOWN:
                        append((80 + hidden[source], (RUN, source, card, i)))
                    elif found[below & 3] == (below >> 2) - 1:
                        append((55, (RUN, source, card, i)))
                    elif (
                        not prune
                        or (twin := loc[card ^ 2]) in (IN_TALON, ON_FOUNDATION)
                        or (twin >= 4 and loc[twin] == FACE_DOWN)
                    ):
                        append((10, (RUN, source, card, i)))  # a split: the other such card could use the gap
                    else:
                        self.pruned = True
                elif below == IN_TALON:
                    index = talon.index(card)
                    ways = reach.get(index)
                    if ways:
                        base = ENABLING if self._child_reveals(card) else 40
                        for pass_index, draws, cost in ways:
                            append((base - cost, (TALON_PILE, index, pass_index, draws, i)))
                elif below == ON_EMPTY:
                    if not prune or self._king_waits():
                        append((20, (RUN, pile_of[card], card, i)))
                    else:
                        self.pruned = True
        if empty >= 0:
            for king in KINGS:
                below = loc[king]
                if below >= 4:  # a king always lies on a face-down card
                    source = pile_of[king]
                    append((75 + hidden[source], (RUN, source, king, empty)))
                elif below == IN_TALON:
                    index = talon.index(king)
                    for pass_index, draws, cost in reach.get(index, ()):
                        append((45 - cost, (TALON_PILE, index, pass_index, draws, empty)))
        for suit in range(4):
            rank = found[suit]
            if rank < KING and loc[(rank + 1) * 4 + suit] == IN_TALON:
                index = talon.index((rank + 1) * 4 + suit)
                for pass_index, draws, cost in reach.get(index, ()):
                    append((70 - cost, (TALON_HOME, index, pass_index, draws)))
            if rank and self.home_to_pile:
                card = rank * 4 + suit
                parents = PARENTS[card]
                if (parents and (parents[0] in tops or parents[1] in tops)) or (empty >= 0 and rank == KING):
                    self._home_to_pile_moves(card, tops, empty, scored)
        jitter = self.jitter
        if jitter:
            start = self.nodes
            scored = [(score + jitter[(start + n) & 1023], move) for n, (score, move) in enumerate(scored)]
        scored.sort(key=_first, reverse=True)
        return [move for _, move in scored]

    def _home_to_pile_moves(
        self, card: int, tops: dict[int, int], empty: int, scored: list[tuple[int, SolverMove]]
    ) -> None:
        """Add moves bringing foundation top ``card`` back down, if something could build on it."""
        targets = [tops[parent] for parent in PARENTS[card] if parent in tops]
        if empty >= 0 and card >> 2 == KING:
            targets.append(empty)
        if not targets:
            return
        if self.prune and not self._child_waits(card):
            self.pruned = True
            return
        scored.extend((0, (HOME_PILE, card & 3, target)) for target in targets)

    def _king_waits(self) -> bool:
        """Whether a king could still use an empty pile (from the talon, face down, or revealing).

        In Gold Rush an empty pile stops the deal, so only a king that can move in at once counts.
        """
        loc = self.loc
        if self.full_tableau_to_deal:
            top = self.talon[self.p - 1] if self.p else 0
            return any(loc[king] >= 4 or king == top for king in KINGS)
        for king in KINGS:
            where = loc[king]
            if where in (IN_TALON, FACE_DOWN) or (where >= 4 and loc[where] == FACE_DOWN):
                return True
        return False

    def _child_reveals(self, card: int) -> bool:
        """Whether a card that builds on ``card`` lies on a face-down card (moving it there reveals)."""
        loc = self.loc
        for child in CHILDREN[card]:
            where = loc[child]
            if where >= 4 and loc[where] == FACE_DOWN:
                return True
        return False

    def _child_waits(self, card: int) -> bool:
        """Whether a card that builds on ``card`` waits in the talon or on a face-down card."""
        loc = self.loc
        for child in CHILDREN[card]:
            where = loc[child]
            if where == IN_TALON or (where >= 4 and loc[where] == FACE_DOWN):
                return True
        return False
