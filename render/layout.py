"""Where things go on the table: canvas size, card size, columns and tableau fans."""

from __future__ import annotations

WIDTH = 1044
HEIGHT = 800
HEADER_H = 58
MARGIN = 28
CARD_W = 124
CARD_H = 172
GAP = 20
RADIUS = 10
TOP_Y = HEADER_H + 16
"""Top of the stock, waste and foundation row."""
LABEL_Y = TOP_Y + CARD_H + 20
"""Centre line of the pile-number badges."""
TABLEAU_Y = TOP_Y + CARD_H + 40
BOTTOM = HEIGHT - 10
UP_OFFSET = 42
"""Vertical step between face-up cards in a pile, when there is room."""
MIN_UP_OFFSET = 22
DOWN_OFFSET = 14
MIN_DOWN_OFFSET = 6
WASTE_FAN = 72
"""Horizontal step between the fanned waste cards."""


def column_x(column: int) -> int:
    """Return the left edge of column ``column`` (0..6).

    >>> column_x(0), column_x(6) + CARD_W + MARGIN == WIDTH
    (28, True)
    """
    return MARGIN + column * (CARD_W + GAP)


def fan_offsets(hidden: int, face_up: int, space: int = BOTTOM - TABLEAU_Y) -> tuple[int, int]:
    """Return the (face-down, face-up) steps that fit a pile in ``space`` pixels of height.

    Face-down steps shrink first, then face-up steps, never below their minimums.

    >>> fan_offsets(3, 4)
    (14, 42)
    >>> fan_offsets(6, 8)
    (6, 42)
    >>> fan_offsets(6, 13)
    (6, 24)
    """
    room = space - CARD_H
    ups = max(face_up - 1, 0)
    down, up = DOWN_OFFSET, UP_OFFSET
    if hidden * down + ups * up <= room:
        return down, up
    if hidden:
        down = max(MIN_DOWN_OFFSET, min(DOWN_OFFSET, (room - ups * up) // hidden))
    if ups:
        up = max(MIN_UP_OFFSET, min(UP_OFFSET, (room - hidden * down) // ups))
    return down, up


def pile_tops(hidden: int, face_up: int) -> list[int]:
    """Return the y of every card in a pile, face-down first.

    >>> pile_tops(2, 2) == [TABLEAU_Y, TABLEAU_Y + 14, TABLEAU_Y + 28, TABLEAU_Y + 70]
    True
    """
    down, up = fan_offsets(hidden, face_up)
    tops = [TABLEAU_Y + i * down for i in range(hidden)]
    first_up = TABLEAU_Y + hidden * down
    tops += [first_up + i * up for i in range(face_up)]
    return tops
