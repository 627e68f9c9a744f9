"""What a player may see of a game (:func:`view_of`): no face-down or unseen card's identity is in a view.

The view's types live in :mod:`solitaire.seen`, below the engine that names them; they are offered here too.
"""

from __future__ import annotations

from solitaire.game import Game
from solitaire.seen import BoardView, FoundationView, PileView

__all__ = ["BoardView", "FoundationView", "PileView", "view_of"]


def view_of(game: Game) -> BoardView:
    """Build the player's view of ``game``."""
    stock, waste, draw = game.stock, game.waste, game.draw_count
    fan = tuple(waste[-draw:]) if waste else ()
    return BoardView(
        variant=game.rules.name,
        title=game.rules.title,
        family=game.rules.family,
        status=game.status,
        sheet=game.sheet,
        move_count=game.move_count,
        tableau=game.view_piles(),
        foundations=game.view_foundations(),
        stock_count=len(stock),
        waste_count=len(waste),
        waste_fan=fan,
        draw_count=draw,
        pass_number=game.recycles + 1,
        max_passes=game.rules.max_passes,
        can_undo=game.can_undo,
        seconds_used=game.seconds_used,
        legal_moves=tuple(game.legal_moves()),
    )
