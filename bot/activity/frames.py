"""The frames the Activity's page is sent: the board as the pictures are drawn from it, and nothing more.

A game frame is built from the player's :class:`~solitaire.view.BoardView` (no face-down card's identity is
in it) and the game's row; its deal is named as the board message names it (:func:`deal_words`), so a
ranked deal's seed appears only once the game is over.
"""

from __future__ import annotations

from typing import Any

from bot.play.after_game import hints_allowed
from bot.play.deal_words import deal_words
from bot.play.session import Session
from bot.storage.games import GameRecord
from solitaire.view import BoardView

GameFrame = dict[str, Any]


def game_frame(
    session: Session,
    *,
    now: float,
    record: GameRecord | None = None,
    view: BoardView | None = None,
    version: int | None = None,
) -> GameFrame:
    """The page's GAME: the board, the clock (deadline and the server's time), the score and what may be played.

    ``record``, ``view`` and ``version`` replace the session's own (a finished game's final row; what a
    command saw under the lock: :class:`~bot.play.session.Outcome`).
    """
    record = record or session.record
    view = view or session.view()
    over = view.is_over
    board = view.to_dict()
    return {
        "id": record.id,
        "version": session.game.version if version is None else version,
        "variant": view.variant,
        "title": view.title,
        "family": view.family.value,
        "kind": "practice" if record.practice else record.mode,
        "deal": deal_words(record, over=over),
        "status": view.status.value,
        "over": over,
        "score": view.score,
        "sheet": view.sheet.lines(),
        "moves": view.move_count,
        "deadline": record.deadline,
        "now": now,
        "seconds_used": view.seconds_used,
        "draw": view.draw_count,
        "hints": hints_allowed(record) and not over,
        "four_colour": session.four_colour,
        **board,
        "foundations": [
            {"label": f.label, "top": str(f.top) if f.top else None, "count": f.count, "takes": f.takes}
            for f in view.foundations
        ],
    }
