"""Solitaire Rush's pure game core: cards, variants, the rules engine, scoring and deals.

>>> from solitaire import new_game
>>> game = new_game("draw3", seed=42)
>>> _ = game.play("draw", seconds=3)
>>> game.move_count, game.status.value
(1, 'playing')
"""

from solitaire.cards import FULL_DECK, Card, format_deck, parse_deck
from solitaire.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidCardError,
    InvalidDeckError,
    InvalidMoveError,
    SolitaireError,
    UnknownVariantError,
)
from solitaire.game import Game
from solitaire.games import game_from_json, game_to_json, new_game, parse_move
from solitaire.moves import DRAW, END, UNDO, Move, MoveKind
from solitaire.scoring import ScoreSheet
from solitaire.shuffle import shuffled_deck
from solitaire.status import Status
from solitaire.variants import VARIANTS, Family, Rules, find_variant
from solitaire.view import BoardView, FoundationView, PileView, view_of

__all__ = [
    "DRAW",
    "END",
    "FULL_DECK",
    "UNDO",
    "VARIANTS",
    "BoardView",
    "Card",
    "Family",
    "FoundationView",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidMoveError",
    "Move",
    "MoveKind",
    "PileView",
    "Rules",
    "ScoreSheet",
    "SolitaireError",
    "Status",
    "UnknownVariantError",
    "find_variant",
    "format_deck",
    "game_from_json",
    "game_to_json",
    "new_game",
    "parse_deck",
    "parse_move",
    "shuffled_deck",
    "view_of",
]
