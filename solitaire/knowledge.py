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

from solitaire.game import Game
from solitaire.games import engine_for
from solitaire.seen import Knowledge
from solitaire.shuffle import SplitMix64
from solitaire.variants import find_variant
from solitaire.view import view_of

__all__ = ["Knowledge", "guess", "knowledge_of"]


def knowledge_of(game: Game) -> Knowledge:
    """What the player of ``game`` has seen: its view, the stock and waste cards turned so far, the positions passed."""
    talon = (*game.waste, *reversed(game.stock))
    seen = tuple(card if card in game.seen else None for card in talon)
    return Knowledge(view_of(game), seen, dict(game.visited))


def guess(knowledge: Knowledge, rng: SplitMix64) -> Game:
    """A game that looks exactly as ``knowledge`` says, each card the player has not seen dealt at random."""
    rules = find_variant(knowledge.view.variant)
    return engine_for(rules.family).guess(rules, knowledge, rng)
