"""The board drawn in text with suit symbols, for the terminal (red suits in colour on request)."""

from __future__ import annotations

from solitaire.cards import SUIT_SYMBOLS, Card
from solitaire.games import engine_for
from solitaire.view import BoardView

_WIDTH = 5
RED = "\x1b[31m"
"""ANSI red, for hearts and diamonds on a colour terminal."""
RESET = "\x1b[0m"


def paint(card: Card, text: str, colour: bool) -> str:
    """Return ``text`` (the card's label, maybe padded) in red if ``colour`` and the card is red."""
    if not colour or card.suit not in "DH":
        return text
    return text.replace(card.label, f"{RED}{card.label}{RESET}")


def _cell(card: Card | None, colour: bool, empty: str = "[  ]") -> str:
    return paint(card, f"{card.label:>4}", colour) if card else empty


def _waste(view: BoardView, colour: bool) -> str:
    """Return the waste fan with its playable top card in brackets: ``8♠ 6♦ [K♦]``."""
    if not view.waste_fan:
        return "--"
    *under, top = view.waste_fan
    return " ".join([*(paint(card, card.label, colour) for card in under), f"[{paint(top, top.label, colour)}]"])


def draw_board(view: BoardView, *, time_left: float | None = None, colour: bool = False) -> str:
    """Return a multi-line picture of ``view`` (face-down cards as ``##``), with the clock if given."""
    header = f"{view.title} | score {view.score} | moves {view.move_count} | {view.status.value}"
    if time_left is not None and not view.is_over:
        seconds = max(int(time_left), 0)
        header += f" | {seconds // 60}:{seconds % 60:02d} left"
    stock = f"stock {view.stock_count:>2}"
    passes = f"pass {view.pass_number}" + (f"/{view.max_passes}" if view.max_passes else "")
    lines = [header]
    lines += engine_for(view.family).text_foundations(view, lambda card: _cell(card, colour))
    if view.tableau:
        lines += _tableau_rows(view, colour)
    waste = _waste(view, colour)
    lines.append(f"{stock} | waste ({view.waste_count}): {waste} | {passes} | draw {view.draw_count}")
    return "\n".join(lines)


def _tableau_rows(view: BoardView, colour: bool) -> list[str]:
    columns: list[list[tuple[str, Card | None]]] = [
        [("##", None)] * pile.hidden + [(card.label, card) for card in pile.cards] for pile in view.tableau
    ]
    depth = max((len(column) for column in columns), default=0)
    rows = ["".join(f"{number:>{_WIDTH}}" for number in range(1, 8))]
    for row in range(max(depth, 1)):
        cells = []
        for column in columns:
            text, card = column[row] if row < len(column) else ("." if row == 0 else "", None)
            cells.append(paint(card, f"{text:>{_WIDTH}}", colour) if card else f"{text:>{_WIDTH}}")
        rows.append("".join(cells).rstrip())
    return rows


LEGEND = "suits: " + " ".join(f"{letter}={symbol}" for letter, symbol in SUIT_SYMBOLS.items())
