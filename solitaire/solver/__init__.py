"""Thoughtful solving (every card known) for every variant, judged by the engine.

>>> from solitaire import shuffled_deck
>>> result = solve("draw1", shuffled_deck(3), max_nodes=20_000)
>>> result.result, len(result.moves) > 0
('winnable', True)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from solitaire.cards import Card, check_deck
from solitaire.errors import SolitaireError
from solitaire.games import new_game
from solitaire.solver.friday13 import Friday13Search
from solitaire.solver.klondike import KlondikeSearch
from solitaire.status import Status
from solitaire.variants import Family, Rules, find_variant

WINNABLE, UNWINNABLE, UNKNOWN = "winnable", "unwinnable", "unknown"
SEARCHES: dict[Family, type[KlondikeSearch] | type[Friday13Search]] = {
    Family.KLONDIKE: KlondikeSearch,
    Family.FRIDAY13: Friday13Search,
}
"""The deal search of every family: the solver's one registration point for deals."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SolveResult:
    """What a solve found: ``winnable`` (with ``moves``), ``unwinnable`` or ``unknown``."""

    result: str
    moves: tuple[str, ...]
    """The full solution in the engine's notation (it replays to a win); ``()`` otherwise."""
    nodes: int
    """Positions the search entered."""
    ms: float
    """Wall-clock milliseconds spent, verification included."""


def solve(
    variant: str | Rules,
    deck: Sequence[Card],
    *,
    budget_ms: float | None = None,
    max_nodes: int | None = None,
) -> SolveResult:
    """Solve the deal ``deck`` of ``variant`` within the budgets (``None``: unlimited).

    ``unwinnable`` only when the search was exhaustive, ``unknown`` when a budget ran out.
    A node budget makes the answer deterministic; a time budget does not.

    :raises UnknownVariantError: for an unknown variant name.
    :raises InvalidDeckError: unless ``deck`` is the 52 distinct cards.
    """
    rules = find_variant(variant) if isinstance(variant, str) else variant
    cards = check_deck(deck)
    start = time.perf_counter()
    deadline = None if budget_ms is None else start + budget_ms / 1000
    search = SEARCHES[rules.family](rules, cards)
    search.run(max_nodes, deadline)
    moves: tuple[str, ...] = ()
    if search.solution is not None:
        moves = replay_to_win(rules, cards, search.solution)
        result = WINNABLE if moves else UNKNOWN
    else:
        result = UNWINNABLE if search.exhausted else UNKNOWN
    return SolveResult(result, moves, search.nodes, (time.perf_counter() - start) * 1000)


def replay_to_win(rules: Rules, deck: Sequence[Card], moves: Sequence[str]) -> tuple[str, ...]:
    """Replay ``moves`` through the engine; return the prefix that wins, or ``()`` if none does."""
    game = new_game(rules, deck=deck)
    for index, text in enumerate(moves):
        try:
            game.play(text)
        except SolitaireError as error:
            log.error("solver bug: %s move %d %r refused: %s", rules.name, index, text, error)
            return ()
        if game.status is Status.WON:
            return tuple(moves[: index + 1])
        if game.is_over:
            break
    log.error("solver bug: %s solution did not win (%s)", rules.name, game.status.value)
    return ()


__all__ = ["SEARCHES", "UNKNOWN", "UNWINNABLE", "WINNABLE", "SolveResult", "replay_to_win", "solve"]
