"""Solve from the middle of a game: a position with every card known, searched by the deal solvers.

A position is plain data (cards where they lie), built from a real game for the analysis or
from a guess of the hidden cards for a hint (:func:`solitaire.knowledge.guess`); the searches
start from it instead of from a deal.

>>> from solitaire import new_game
>>> game = new_game("draw1", seed=3)
>>> result = solve_position(game.rules, position_of(game), max_nodes=20_000)
>>> result.result
'winnable'
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import cast

from solitaire.cards import FULL_DECK, Card
from solitaire.friday13 import Friday13Game
from solitaire.game import Game
from solitaire.klondike import KlondikeGame
from solitaire.solver import UNKNOWN, UNWINNABLE, WINNABLE, SolveResult
from solitaire.solver.friday13 import Friday13Search
from solitaire.solver.klondike.search import KlondikeSearch
from solitaire.solver.klondike.tables import (
    FACE_DOWN,
    IN_TALON,
    ON_EMPTY,
    ON_FOUNDATION,
    P_SLOT,
    R_SLOT,
    SUIT_CODES,
    ZOBRIST,
    encode,
)
from solitaire.variants import Family, Rules


@dataclass(frozen=True)
class KlondikePosition:
    """A Klondike board with every card known."""

    piles: tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...]
    """Per pile: the face-down cards (bottom first) and the face-up cards (bottom first)."""
    foundations: tuple[tuple[str, int], ...]
    """Top rank per suit letter (0 when empty)."""
    talon: tuple[Card, ...]
    """The waste bottom to top, then the stock in the order it will be drawn."""
    turned: int
    """How many talon cards are on the waste."""
    recycles: int

    @classmethod
    def of_game(cls, game: Game) -> KlondikePosition:
        """The position of a real Klondike game (registered for :data:`Family.KLONDIKE` only)."""
        board = cast(KlondikeGame, game)
        piles = tuple((tuple(p[: board.hidden[i]]), tuple(p[board.hidden[i] :])) for i, p in enumerate(board.piles))
        talon = tuple(board.waste) + tuple(reversed(board.stock))
        return cls(piles, tuple(board.foundations.items()), talon, len(board.waste), board.recycles)

    def search(self, rules: Rules) -> KlondikePositionSearch:
        """A search that starts here."""
        return KlondikePositionSearch(rules, self)


@dataclass(frozen=True)
class Friday13Position:
    """A Friday 13 board: only ranks matter."""

    tops: tuple[int, ...]
    """Top rank of each foundation, left to right (0 when empty)."""
    stock: tuple[int, ...]
    """Ranks still to draw; the next is the last."""
    waste: tuple[int, ...]
    """Ranks on the waste; the playable one is the last."""
    recycles: int

    @classmethod
    def of_game(cls, game: Game) -> Friday13Position:
        """The position of a real Friday 13 game (registered for :data:`Family.FRIDAY13` only)."""
        friday = cast(Friday13Game, game)
        tops = tuple(pile[-1].rank if pile else 0 for pile in friday.foundations)
        ranks = (tuple(card.rank for card in friday.stock), tuple(card.rank for card in friday.waste))
        return cls(tops, ranks[0], ranks[1], friday.recycles)

    def search(self, rules: Rules) -> Friday13PositionSearch:
        """A search that starts here."""
        return Friday13PositionSearch(rules, self)


Position = KlondikePosition | Friday13Position
POSITIONS: dict[Family, type[KlondikePosition] | type[Friday13Position]] = {
    Family.KLONDIKE: KlondikePosition,
    Family.FRIDAY13: Friday13Position,
}
"""The position type (and so the search) of every family: the solver's one registration point for positions."""


def position_of(game: Game) -> Position:
    """Return the position of a game with every card known: a real game once it is over, or a guess of one."""
    return POSITIONS[game.family].of_game(game)


class KlondikePositionSearch(KlondikeSearch):
    """A Klondike search that starts from a :class:`KlondikePosition`."""

    from_deal = False

    def __init__(self, rules: Rules, position: KlondikePosition) -> None:
        super().__init__(rules, FULL_DECK)  # every field made; the board is replaced below
        loc, pile_of = bytearray(56), bytearray(56)
        self.piles, self.hidden = [], []
        for i, (down, up) in enumerate(position.piles):
            pile = [encode(card) for card in down + up]
            self.piles.append(pile)
            self.hidden.append(len(down))
            for height, card in enumerate(pile):
                pile_of[card] = i
                if height < len(down):
                    loc[card] = FACE_DOWN
                else:
                    loc[card] = pile[height - 1] if height else ON_EMPTY
        self.found = [0, 0, 0, 0]
        for suit, rank in position.foundations:
            self.found[SUIT_CODES[suit]] = rank
            for below in range(1, rank + 1):
                loc[encode(Card(below, suit))] = ON_FOUNDATION
        self.talon = [encode(card) for card in position.talon]
        for card in self.talon:
            loc[card] = IN_TALON
        self.loc, self.pile_of = loc, pile_of
        self.p = position.turned
        self.r = 0 if rules.max_passes is None else position.recycles
        self.reach_memo = {}
        self.hash = ZOBRIST[P_SLOT << 6 | self.p_class(self.p, len(self.talon))] ^ ZOBRIST[R_SLOT << 6 | self.r]
        for card in range(4, 56):
            self.hash ^= ZOBRIST[card << 6 | loc[card]]
        self.opening = self._auto(range(7))


class Friday13PositionSearch(Friday13Search):
    """A Friday 13 search that starts from a :class:`Friday13Position`."""

    def __init__(self, rules: Rules, position: Friday13Position) -> None:
        super().__init__(rules, FULL_DECK)
        self.stock, self.waste = list(position.stock), list(position.waste)
        self.tops = list(position.tops)
        self.filled = sum(1 for top in position.tops if top)
        self.redeals = (rules.max_passes or 2) - 1 - position.recycles


def solve_position(
    rules: Rules, position: Position, *, budget_ms: float | None = None, max_nodes: int | None = None
) -> SolveResult:
    """Search ``position`` within the budgets; ``moves`` win from it when the result is ``winnable``.

    The line is the solver's own (not yet replayed through the engine): callers with a real
    game check it with :func:`solitaire.analysis.wins_from`.
    """
    start = time.perf_counter()
    deadline = None if budget_ms is None else start + budget_ms / 1000
    search = position.search(rules)
    search.run(max_nodes, deadline)
    if search.solution is not None:
        return SolveResult(WINNABLE, tuple(search.solution), search.nodes, (time.perf_counter() - start) * 1000)
    result = UNWINNABLE if search.exhausted else UNKNOWN
    return SolveResult(result, (), search.nodes, (time.perf_counter() - start) * 1000)


__all__ = [
    "POSITIONS",
    "Friday13Position",
    "KlondikePosition",
    "Position",
    "position_of",
    "solve_position",
]
