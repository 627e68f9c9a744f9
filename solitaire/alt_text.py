"""Alt text for a board picture: what the player can see, in words for a screen reader.

Built from the same :class:`BoardView` the renderer draws, so a hidden card is never named.

>>> from solitaire import new_game
>>> from solitaire.view import view_of
>>> text = describe_board(view_of(new_game("draw3", deck=" ".join(
...     f"{r}{s}" for s in "SHDC" for r in "A23456789TJQK"))))
>>> text.splitlines()[0]
'Solitaire Rush (draw 3), playing, score 0, 0 moves.'
>>> text.splitlines()[4]
'Pile 2: 1 face down, 3♠.'
"""

from __future__ import annotations

from solitaire.games import engine_for
from solitaire.view import BoardView, PileView
from solitaire.words import plural

MAX_LENGTH = 1024
"""Discord's limit for an attachment description."""


def describe_board(view: BoardView) -> str:
    """Describe foundations, stock, waste and every pile (face-up cards, face-down counts) in plain lines."""
    lines = [f"{view.title}, {view.status.value}, score {view.score}, {plural(view.move_count, 'move')}."]
    lines.append(_foundations(view))
    lines.append(_stock_and_waste(view))
    lines += [_pile(number, pile) for number, pile in enumerate(view.tableau, start=1)]
    text = "\n".join(lines)
    return text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 1] + "\u2026"


def _foundations(view: BoardView) -> str:
    words = engine_for(view.family).foundation_words
    parts = [words(foundation) for foundation in view.foundations]
    return "Foundations: " + ", ".join(parts) + "."


def _stock_and_waste(view: BoardView) -> str:
    stock = f"Stock {view.stock_count} card{'s' if view.stock_count != 1 else ''}"
    if view.max_passes is not None:
        stock += f", pass {view.pass_number} of {view.max_passes}"
    elif view.pass_number > 1:
        stock += f", pass {view.pass_number}"
    if not view.waste_count:
        return f"{stock}. Waste empty."
    shown = " ".join(card.label for card in view.waste_fan)
    return f"{stock}. Waste {view.waste_count}, top {view.waste_fan[-1].label}" + (
        f" (showing {shown})." if len(view.waste_fan) > 1 else "."
    )


def _pile(number: int, pile: PileView) -> str:
    if not pile.hidden and not pile.cards:
        return f"Pile {number}: empty."
    parts = [f"{pile.hidden} face down"] if pile.hidden else []
    if pile.cards:
        parts.append(" ".join(card.label for card in pile.cards))
    return f"Pile {number}: " + ", ".join(parts) + "."
