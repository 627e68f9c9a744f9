"""Where things go on the table: canvas size, card size, columns, tableau fans and the picture's height.

Sized for phones: Discord shows a board about :data:`PHONE_WIDTH` px wide there, so every size
below is chosen for what it becomes at that width (:func:`on_phone`).
"""

from __future__ import annotations

import math

WIDTH = 800
PHONE_WIDTH = 400
"""How wide Discord's phone clients show the picture."""
MARGIN = 13
GAP = 10
CARD_W = 102
CARD_H = 140
RADIUS = 8
HEADER_H = 72
TOP_Y = HEADER_H + 12
"""Top of the stock, waste and foundation row."""
TAB_H = 34
"""Height of a pile's number tab; the pile's first card covers its bottom :data:`TAB_TUCK` px."""
TAB_TUCK = 4
TAB_Y = TOP_Y + CARD_H + 20
"""Top of the pile-number tabs (well clear of the top row, attached to the piles)."""
TABLEAU_Y = TAB_Y + TAB_H - TAB_TUCK
BOTTOM_MARGIN = 12
UP_OFFSET = 46
"""Vertical step between face-up cards in a pile, when there is room."""
MIN_UP_OFFSET = 35
"""The tightest face-up step: the corner index (30 px of ink from 5 px down) stays whole."""
DOWN_OFFSET = 12
MIN_DOWN_OFFSET = 6
WASTE_FAN = 56
"""Horizontal step between the fanned waste cards: the widest index ("10", 55 px from the card's edge) and the
suit under the rank stay visible, and a full fan of three ends :data:`GAP` before the first foundation, like
any two columns (``waste_end``)."""
MIN_HEIGHT = 498
"""A fresh Klondike deal's height: the picture never gets shorter."""
HEIGHT_STEP = 96
"""Heights come in steps of this much, so a move rarely changes the picture's height."""
SNUG_UP_OFFSET = 40
SNUG_DOWN_OFFSET = 8
"""A pile may tighten to these steps before the picture grows a step."""
MAX_HEIGHT = MIN_HEIGHT + 4 * HEIGHT_STEP
"""The tallest board (882 px): the longest possible pile fits at the tightest steps."""


def column_x(column: int) -> int:
    """Return the left edge of column ``column`` (0..6).

    >>> column_x(0), column_x(6) + CARD_W + MARGIN == WIDTH
    (13, True)
    """
    return MARGIN + column * (CARD_W + GAP)


def waste_end(cards: int = 3) -> int:
    """Return the right edge of a waste fan of ``cards`` cards (from column 1).

    >>> column_x(3) - waste_end(3) == GAP
    True
    """
    return column_x(1) + (cards - 1) * WASTE_FAN + CARD_W


def on_phone(pixels: float) -> float:
    """Return how tall ``pixels`` of the picture look on a phone (shown :data:`PHONE_WIDTH` px wide).

    >>> on_phone(28)
    14.0
    """
    return pixels * PHONE_WIDTH / WIDTH


def natural_bottom(hidden: int, face_up: int, snug: bool = False) -> int:
    """Return the bottom edge of a pile fanned at the normal steps (or the snug ones)."""
    down, up = (SNUG_DOWN_OFFSET, SNUG_UP_OFFSET) if snug else (DOWN_OFFSET, UP_OFFSET)
    return TABLEAU_Y + hidden * down + max(face_up - 1, 0) * up + CARD_H


def board_height(piles: list[tuple[int, int]], *, steady: bool = True) -> int:
    """Return the picture's height for piles of (hidden, face-up) cards: the content, in steady steps.

    ``steady=False`` fits the content exactly (a finished game's one-off picture).

    >>> board_height([(i, 1) for i in range(7)])
    498
    >>> board_height([(6, 13)])
    882
    """
    bottom = max((natural_bottom(hidden, up, steady) for hidden, up in piles), default=TABLEAU_Y + CARD_H)
    extra = max(bottom + BOTTOM_MARGIN - MIN_HEIGHT, 0)
    steps = math.ceil(extra / HEIGHT_STEP) * HEIGHT_STEP if steady else extra
    return min(MIN_HEIGHT + steps, MAX_HEIGHT)


def fan_offsets(hidden: int, face_up: int, space: int) -> tuple[int, int]:
    """Return the (face-down, face-up) steps that fit a pile in ``space`` pixels of height.

    Face-down steps shrink first, then face-up steps, never below their minimums.

    >>> fan_offsets(3, 4, 400)
    (12, 46)
    >>> fan_offsets(6, 8, 450)
    (6, 39)
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


def pile_tops(hidden: int, face_up: int, height: int = MAX_HEIGHT) -> list[int]:
    """Return the y of every card in a pile, face-down first, on a board ``height`` px tall.

    >>> pile_tops(2, 2) == [TABLEAU_Y, TABLEAU_Y + 12, TABLEAU_Y + 24, TABLEAU_Y + 70]
    True
    """
    down, up = fan_offsets(hidden, face_up, height - BOTTOM_MARGIN - TABLEAU_Y)
    tops = [TABLEAU_Y + i * down for i in range(hidden)]
    first_up = TABLEAU_Y + hidden * down
    tops += [first_up + i * up for i in range(face_up)]
    return tops
