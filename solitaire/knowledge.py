"""What a player knows of a game: the view, every stock card seen, and the positions already played through.

A player may remember each card the stock has shown, where it lies in the stock and waste, and
the positions the game went through; a hint may use all of that and nothing else. A
:class:`Knowledge` is built from the game's own history (:func:`knowledge_of`) and holds no card
the player has not seen, so handing it to a worker process cannot leak one.

>>> from solitaire import new_game
>>> game = new_game("draw3", seed=1)
>>> _ = game.play("draw")
>>> knowledge = knowledge_of(game)
>>> sum(card is not None for card in knowledge.talon), len(knowledge.talon)
(3, 24)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solitaire.cards import Card
from solitaire.game import Game
from solitaire.games import engine_for
from solitaire.shuffle import SplitMix64
from solitaire.variants import find_variant
from solitaire.view import BoardView, view_of


@dataclass(frozen=True)
class Knowledge:
    """Everything a player has seen of a game."""

    view: BoardView
    talon: tuple[Card | None, ...]
    """The waste bottom to top, then the stock in draw order: each card the player saw there, else ``None``."""
    visited: dict[str, tuple[int, int]]
    """:meth:`Game.layout_key` of every position the game has been in: the last pass it was seen in, and
    how many cards the player had not seen then."""

    @property
    def known_talon(self) -> set[Card]:
        """The stock and waste cards the player has seen."""
        return {card for card in self.talon if card is not None}

    def to_dict(self) -> dict[str, Any]:
        """The knowledge as JSON-ready data (the view's, plus the talon with ``null`` for unseen cards)."""
        return {
            **self.view.to_dict(),
            "talon": [str(card) if card else None for card in self.talon],
            "visited": dict(sorted(self.visited.items())),
        }


def knowledge_of(game: Game) -> Knowledge:
    """What the player of ``game`` has seen: its view, the stock and waste cards turned so far, the positions passed."""
    talon = (*game.waste, *reversed(game.stock))
    seen = tuple(card if card in game.seen else None for card in talon)
    return Knowledge(view_of(game), seen, dict(game.visited))


def guess(knowledge: Knowledge, rng: SplitMix64) -> Game:
    """A game that looks exactly as ``knowledge`` says, each card the player has not seen dealt at random."""
    rules = find_variant(knowledge.view.variant)
    return engine_for(rules.family).guess(rules, knowledge, rng)
