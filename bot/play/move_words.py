"""Moves in words for ``/solitaire move`` suggestions: ``3 → 5: 7♥ onto 8♠``."""

from __future__ import annotations

from solitaire import Game, Move, MoveKind
from solitaire.speech import _, n_

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
    words = game.describe_play(move)
    return f"{head}: {words}" if words else head


def move_places(game: Game, move: Move) -> tuple[str | None, str | None]:
    """Where ``move`` starts and ends, to mark it on a picture of ``game``: ``(None, None)`` for draw or undo.

    Each family says where its targets lie (:meth:`solitaire.game.Game.move_places`): a Klondike
    foundation target names the foundation of the moving card's suit.

    >>> from solitaire import new_game
    >>> game = new_game("draw3", deck="AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H TH "
    ...     "JH QH KH AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC")
    >>> move_places(game, Move.play("1", "f")), move_places(game, Move.play("1", "4"))
    (('1', 'fs'), ('1', '4'))
    """
    if move.kind is not MoveKind.PLAY:
        return None, None
    return game.move_places(move)


def _describe_draw(game: Game) -> str:
    if not game.stock:
        # Translators: a move suggestion; "draw" is the move as typed (notation): keep it as it is.
        return _("draw: turn the waste over")
    count = min(game.draw_count, len(game.stock))
    # Translators: a move suggestion; "draw" is the move as typed (notation): keep it as it is.
    return n_("draw: turn {count} card", "draw: turn {count} cards", count)
