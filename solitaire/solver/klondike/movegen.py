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
    SearchState,
    SolverMove,
)
from solitaire.solver.klondike.tables import CHILDREN, FACE_DOWN, IN_TALON, KINGS, ON_EMPTY, ON_FOUNDATION, PARENTS
from solitaire.variants import Rules

# -- The move order: a priority per kind of move, tried highest first ------------------------
# Rounds after the first add a jitter of 0..JITTER-1 (tables.py). "+ down": plus the face-down
# cards in the pile the move turns a card up in, so deeper piles open first. "- cost": minus the
# talon move's cost (see reach()). Plain int constants: the hot path adds and sorts them.
PRIORITY_HOME_REVEALING = 90  # + down: a pile's last face-up card goes home, turning up the card below
PRIORITY_RUN_REVEALING = 80  # + down: a run leaves a face-down card for another pile's top
PRIORITY_TALON_ENABLING = 76  # - cost: a talon card onto a pile lets a card lying on a face-down card build on it
PRIORITY_KING_REVEALING = 75  # + down: a king (and its run) leaves a face-down card for an empty pile
PRIORITY_TALON_HOME = 70  # - cost: a talon card goes home
PRIORITY_HOME = 60  # a pile's top card goes home, leaving a face-up card on top
PRIORITY_RUN_FREEING_HOME = 55  # a run leaves a card that can go home next
PRIORITY_TALON_KING = 45  # - cost: a talon king into an empty pile
PRIORITY_TALON_PILE = 40  # - cost: any other talon card onto a pile
PRIORITY_LAST_CARD_HOME = 35  # a pile's only card goes home, emptying the pile
PRIORITY_RUN_EMPTYING = 20  # a whole pile moves onto another's top, emptying it (pruned unless a king waits)
PRIORITY_SPLIT = 10  # a run leaves a face-up card that cannot go home (pruned unless its twin could use the gap)
PRIORITY_FROM_HOME = 0  # a foundation card comes back down (pruned unless a card waits to build on it)

PASS_COST = 100
"""A talon move's cost for each stock pass it uses up (limited passes: Gold Rush)."""
DRAW_COST_CAP = 12
"""A talon move's cost for its draws counts this many at most."""

Scored = list[tuple[int, SolverMove]]
"""Moves with their priorities, in the order generated (which breaks ties and indexes the jitter)."""
Reach = dict[int, tuple[tuple[int, int, int], ...]]
"""Talon index -> the ways drawing brings that card to the waste top: ``(pass, draws, cost)`` each."""

_first = itemgetter(0)


class MoveGenerator(SearchState):
    """A position that lists its moves, ordered by priority, pruned while :attr:`prune` holds."""

    def __init__(self, rules: Rules, deck: Sequence[Card]) -> None:
        super().__init__(rules, deck)
        self.reach_memo: dict[tuple[int, int, int, bool], Reach] = {}
        self.nodes = 0
        """Positions the search entered (the move order's jitter depends on it)."""
        self.prune = True
        """Skip moves that are very unlikely to help (an exhausted search then proves nothing)."""
        self.pruned = False
        """Whether a move was skipped by :attr:`prune` in this search."""
        self.jitter: tuple[int, ...] = ()
        """Added to the priorities by position in the generated order (empty: no jitter)."""

    def reach(self, blocked: bool) -> Reach:
        """Talon cards drawing can bring to the waste top: talon index -> ``(pass, draws, cost)`` ways.

        ``blocked`` tells whether an empty pile stops the deal (Gold Rush).

        The cost orders moves: draws, and far more for each pass used up when passes are limited.
        """
        key = (self.p, len(self.talon), self.r, blocked)
        found = self.reach_memo.get(key)
        if found is None:
            ways: dict[int, list[tuple[int, int, int]]] = {}
            for index, pass_index, draws in self._reach(*key):
                cost = 0 if self.talon_free else min(draws, DRAW_COST_CAP) + PASS_COST * (pass_index - self.r)
                ways.setdefault(index, []).append((pass_index, draws, cost))
            found = self.reach_memo[key] = {index: tuple(options) for index, options in ways.items()}
        return found

    def _reach(self, p: int, talon_len: int, pass_index: int, blocked: bool) -> list[tuple[int, int, int]]:
        """The ``(talon index, pass, draws)`` ways of bringing a talon card to the waste top, nearest first."""
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
        tops: dict[int, int] = {}
        """The top card of each pile that has one -> its pile."""
        empty = -1
        """The first empty pile, -1 if none."""
        for j, pile in enumerate(self.piles):
            if pile:
                tops[pile[-1]] = j
            elif empty < 0:
                empty = j
        reach = self.reach(self.full_tableau_to_deal and empty >= 0)
        scored: Scored = []
        self._moves_onto_tops(tops, reach, scored)
        if empty >= 0:
            self._kings_into_empty(empty, reach, scored)
        self._foundation_moves(tops, empty, reach, scored)
        jitter = self.jitter
        if jitter:
            start = self.nodes
            scored = [(score + jitter[(start + n) & 1023], move) for n, (score, move) in enumerate(scored)]
        scored.sort(key=_first, reverse=True)
        return [move for _, move in scored]

    def _moves_onto_tops(self, tops: dict[int, int], reach: Reach, scored: Scored) -> None:
        """Add, pile by pile, the move taking its top card home, then the moves of cards onto that top."""
        piles, hidden, found, talon, loc, pile_of = (
            self.piles,
            self.hidden,
            self.found,
            self.talon,
            self.loc,
            self.pile_of,
        )
        prune = self.prune
        append = scored.append
        for top, i in tops.items():
            if found[top & 3] == (top >> 2) - 1:  # the top card goes home
                down = hidden[i]
                if down and len(piles[i]) - 1 == down:
                    append((PRIORITY_HOME_REVEALING + down, (PILE_HOME, i)))
                elif len(piles[i]) == 1:
                    append((PRIORITY_LAST_CARD_HOME, (PILE_HOME, i)))
                else:
                    append((PRIORITY_HOME, (PILE_HOME, i)))
            for card in CHILDREN[top]:  # the two cards that build on the top, wherever they lie
                below = loc[card]
                if below >= 4:  # face up on another card: the run it heads moves
                    source = pile_of[card]
                    if loc[below] == FACE_DOWN:
                        append((PRIORITY_RUN_REVEALING + hidden[source], (RUN, source, card, i)))
                    elif found[below & 3] == (below >> 2) - 1:
                        append((PRIORITY_RUN_FREEING_HOME, (RUN, source, card, i)))
                    elif (
                        not prune
                        or (twin := loc[card ^ 2]) in (IN_TALON, ON_FOUNDATION)
                        or (twin >= 4 and loc[twin] == FACE_DOWN)
                    ):  # a split is worth it only if the card's twin could use the gap
                        append((PRIORITY_SPLIT, (RUN, source, card, i)))
                    else:
                        self.pruned = True
                elif below == IN_TALON:
                    index = talon.index(card)
                    ways = reach.get(index)
                    if ways:
                        base = PRIORITY_TALON_ENABLING if self._child_reveals(card) else PRIORITY_TALON_PILE
                        for pass_index, draws, cost in ways:
                            append((base - cost, (TALON_PILE, index, pass_index, draws, i)))
                elif below == ON_EMPTY:  # it heads a whole pile
                    if not prune or self._king_waits():
                        append((PRIORITY_RUN_EMPTYING, (RUN, pile_of[card], card, i)))
                    else:
                        self.pruned = True

    def _kings_into_empty(self, empty: int, reach: Reach, scored: Scored) -> None:
        """Add the moves of kings into the empty pile ``empty``: off a face-down card, or from the talon."""
        loc = self.loc
        append = scored.append
        for king in KINGS:
            below = loc[king]
            if below >= 4:  # a king lies on a card only if it was dealt there, face down
                source = self.pile_of[king]
                append((PRIORITY_KING_REVEALING + self.hidden[source], (RUN, source, king, empty)))
            elif below == IN_TALON:
                index = self.talon.index(king)
                for pass_index, draws, cost in reach.get(index, ()):
                    append((PRIORITY_TALON_KING - cost, (TALON_PILE, index, pass_index, draws, empty)))

    def _foundation_moves(self, tops: dict[int, int], empty: int, reach: Reach, scored: Scored) -> None:
        """Add, suit by suit, the moves of the next talon card home and of the foundation's top back down."""
        loc, home_to_pile = self.loc, self.home_to_pile
        for suit, rank in enumerate(self.found):
            if rank < KING and loc[(rank + 1) * 4 + suit] == IN_TALON:
                index = self.talon.index((rank + 1) * 4 + suit)
                for pass_index, draws, cost in reach.get(index, ()):
                    scored.append((PRIORITY_TALON_HOME - cost, (TALON_HOME, index, pass_index, draws)))
            if rank and home_to_pile:
                card = rank * 4 + suit
                parents = PARENTS[card]
                if (parents and (parents[0] in tops or parents[1] in tops)) or (empty >= 0 and rank == KING):
                    self._home_to_pile_moves(card, tops, empty, scored)

    def _home_to_pile_moves(self, card: int, tops: dict[int, int], empty: int, scored: Scored) -> None:
        """Add moves bringing foundation top ``card`` back down, if something could build on it."""
        targets = [tops[parent] for parent in PARENTS[card] if parent in tops]
        if empty >= 0 and card >> 2 == KING:
            targets.append(empty)
        if not targets:
            return
        if self.prune and not self._child_waits(card):
            self.pruned = True
            return
        scored.extend((PRIORITY_FROM_HOME, (HOME_PILE, card & 3, target)) for target in targets)

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
