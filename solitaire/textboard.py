"""The board drawn in text with suit symbols, for the terminal."""

from __future__ import annotations

from solitaire.cards import SUIT_SYMBOLS, Card
from solitaire.variants import Family
from solitaire.view import BoardView

_WIDTH = 5


def _cell(card: Card | None, empty: str = "[  ]") -> str:
    return f"{card.label:>4}" if card else empty


def draw_board(view: BoardView, *, time_left: float | None = None) -> str:
    """Return a multi-line picture of ``view`` (face-down cards as ``##``), with the clock if given."""
    header = f"{view.title} | score {view.score} | moves {view.move_count} | {view.status.value}"
    if time_left is not None and not view.is_over:
        seconds = max(int(time_left), 0)
        header += f" | {seconds // 60}:{seconds % 60:02d} left"
    stock = f"stock {view.stock_count:>2}"
    waste = " ".join(card.label for card in view.waste_fan) or "--"
    passes = f"pass {view.pass_number}" + (f"/{view.max_passes}" if view.max_passes else "")
    lines = [header]
    if view.family is Family.FRIDAY13:
        lines += _friday13_rows(view)
    else:
        lines.append("  ".join(f"f{f.label.lower()}:{_cell(f.top)}" for f in view.foundations))
        lines += _tableau_rows(view)
    lines.append(f"{stock} | waste ({view.waste_count}): {waste} | {passes} | draw {view.draw_count}")
    return "\n".join(lines)


def _friday13_rows(view: BoardView) -> list[str]:
    cells = [f"{f.label:>2}:{_cell(f.top)} ({f.count})" for f in view.foundations]
    return ["  ".join(cells[:7]), "  ".join(cells[7:])]


def _tableau_rows(view: BoardView) -> list[str]:
    columns = [["##"] * pile.hidden + [card.label for card in pile.cards] for pile in view.tableau]
    depth = max((len(column) for column in columns), default=0)
    rows = ["".join(f"{number:>{_WIDTH}}" for number in range(1, 8))]
    for row in range(max(depth, 1)):
        cells = [column[row] if row < len(column) else ("." if row == 0 else "") for column in columns]
        rows.append("".join(f"{cell:>{_WIDTH}}" for cell in cells).rstrip())
    return rows


LEGEND = "suits: " + " ".join(f"{letter}={symbol}" for letter, symbol in SUIT_SYMBOLS.items())
