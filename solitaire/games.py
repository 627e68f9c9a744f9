"""The registry of game families: create any variant's game, and save or load it as JSON (deck plus move log).

A family is one :class:`~solitaire.game.Game` subclass in its own module; :data:`ENGINES` is where it is
registered. A variant of a registered family is one :class:`~solitaire.variants.Rules` entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solitaire.cards import Card, format_deck, parse_deck
from solitaire.errors import SolitaireError
from solitaire.friday13 import Friday13Game
from solitaire.game import EXPIRE, Game
from solitaire.klondike import KlondikeGame
from solitaire.moves import Move
from solitaire.shuffle import shuffled_deck
from solitaire.variants import Family, Rules, find_variant

ENGINES: dict[Family, type[Game]] = {engine.family: engine for engine in (KlondikeGame, Friday13Game)}
"""The game class of every family: registering a new family is one entry here."""


def engine_for(family: Family) -> type[Game]:
    """The game class that plays ``family``."""
    return ENGINES[family]


def parse_move(text: str, family: Family) -> Move:
    """Parse one move for a variant family; :raises InvalidMoveError: with the reason.

    >>> parse_move("W-F", Family.KLONDIKE)
    Move(kind=<MoveKind.PLAY: 'play'>, source='w', target='f')
    >>> str(parse_move("w-10", Family.FRIDAY13))
    'w-10'
    """
    return engine_for(family).parse_move(text)


def new_game(variant: str | Rules, *, seed: int | None = None, deck: Sequence[Card] | str | None = None) -> Game:
    """Start a game of ``variant`` from a ``seed`` or an explicit ``deck`` (exactly one).

    >>> new_game("draw1", seed=7).rules.name
    'draw1'
    """
    rules = find_variant(variant) if isinstance(variant, str) else variant
    if (seed is None) == (deck is None):
        raise SolitaireError("give exactly one of a seed or a deck")
    if seed is not None:
        cards = shuffled_deck(seed)
    elif isinstance(deck, str):
        cards = parse_deck(deck)
    else:
        cards = tuple(deck or ())
    return engine_for(rules.family)(rules, cards)


def game_to_json(game: Game) -> dict[str, Any]:
    """Save a game as ``{"variant", "deck", "log"}``; the log replays it exactly."""
    return {
        "variant": game.rules.name,
        "deck": format_deck(game.deck),
        "log": [[move, seconds] for move, seconds in game.log],
    }


def game_from_json(data: dict[str, Any]) -> Game:
    """Rebuild a game saved by :func:`game_to_json` by replaying its log through the engine."""
    game = new_game(str(data["variant"]), deck=str(data["deck"]))
    for move, seconds in data["log"]:
        if move == EXPIRE:
            game.expire()
        else:
            game.play(str(move), seconds=int(seconds))
    return game
