"""Moves in words for ``/solitaire move`` suggestions: ``3 → 5: 7♥ onto 8♠``."""

from __future__ import annotations

from solitaire import Card, Game, Move, MoveKind
from solitaire.cards import SUIT_SYMBOLS
from solitaire.friday13 import Friday13Game
from solitaire.klondike import KlondikeGame
from solitaire.moves import FOUNDATION_SOURCES, FRIDAY13_LABELS

ARROW = "\u2192"


def describe_move(game: Game, move: Move) -> str:
    """Say what ``move`` would do in ``game`` now (a legal move; only seen cards are named).

    >>> from solitaire import new_game
    >>> game = new_game("draw3", deck="AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H TH "
    ...     "JH QH KH AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC")
    >>> describe_move(game, Move.play("1", "f"))
    '1 → f: A♠ starts the ♠ foundation'
    >>> describe_move(game, Move(MoveKind.DRAW))
    'draw: turn 3 cards'
    """
    if move.kind is MoveKind.DRAW:
        return _describe_draw(game)
    if move.kind is not MoveKind.PLAY:
        return str(move)
    head = f"{move.source} {ARROW} {move.target}"
    if isinstance(game, KlondikeGame):
        card = _moving_card(game, move)
        return f"{head}: {_klondike_words(game, move, card)}" if card is not None else head
    if isinstance(game, Friday13Game) and game.waste:
        return f"{head}: {game.waste[-1].label} {_friday13_words(game, move.target)}"
    return head


def move_places(game: Game, move: Move) -> tuple[str | None, str | None]:
    """Where ``move`` starts and ends, to mark it on a picture of ``game``: ``(None, None)`` for draw or undo.

    A Klondike foundation target names the foundation of the moving card's suit.

    >>> from solitaire import new_game
    >>> game = new_game("draw3", deck="AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H TH "
    ...     "JH QH KH AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC")
    >>> move_places(game, Move.play("1", "f")), move_places(game, Move.play("1", "4"))
    (('1', 'fs'), ('1', '4'))
    """
    if move.kind is not MoveKind.PLAY:
        return None, None
    if move.target == "f" and isinstance(game, KlondikeGame) and (card := _moving_card(game, move)) is not None:
        return move.source, _FOUNDATION_OF_SUIT[card.suit]
    return move.source, move.target


_FOUNDATION_OF_SUIT = {suit: source for source, suit in FOUNDATION_SOURCES.items()}


def _describe_draw(game: Game) -> str:
    if not isinstance(game, KlondikeGame | Friday13Game):
        return "draw"
    if not game.stock:
        return "draw: turn the waste over"
    count = min(game.draw_count, len(game.stock))
    return f"draw: turn {count} card{'s' if count != 1 else ''}"


def _klondike_words(game: KlondikeGame, move: Move, card: Card) -> str:
    if move.target == "f":
        if game.foundations[card.suit]:
            return f"{card.label} to the foundation"
        return f"{card.label} starts the {SUIT_SYMBOLS[card.suit]} foundation"
    pile = game.piles[int(move.target) - 1]
    if not pile:
        return f"{card.label} onto empty pile {move.target}"
    back = " back" if move.source in FOUNDATION_SOURCES else ""
    return f"{card.label}{back} onto {pile[-1].label}"


def _moving_card(game: KlondikeGame, move: Move) -> Card | None:
    """The card (or the head of the run) that ``move`` would move."""
    if move.source == "w":
        return game.waste[-1] if game.waste else None
    if move.source in FOUNDATION_SOURCES:
        suit = FOUNDATION_SOURCES[move.source]
        rank = game.foundations[suit]
        return Card(rank, suit) if rank else None
    face_up = game.face_up(int(move.source) - 1)
    if not face_up:
        return None
    if move.target == "f":
        return face_up[-1]
    target = int(move.target) - 1
    return next((card for card in face_up if game.fits_pile(card, target)), face_up[0])


def _friday13_words(game: Friday13Game, label: str) -> str:
    pile = game.foundations[FRIDAY13_LABELS.index(label)]
    return f"onto {pile[-1].label}" if pile else f"starts the {label} foundation"
