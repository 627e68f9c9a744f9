"""The bundled DejaVu fonts (free licence in ``render/fonts/LICENSE-DejaVu.txt``), loaded once per size, and
words fitted to the box they are drawn in (a translation may be far longer than the English)."""

from __future__ import annotations

import functools
import math
from enum import Enum
from pathlib import Path
from typing import NamedTuple

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"


class Face(Enum):
    """The typefaces the renderer uses."""

    REGULAR = "DejaVuSans.ttf"
    BOLD = "DejaVuSans-Bold.ttf"
    CONDENSED = "DejaVuSansCondensed-Bold.ttf"


@functools.cache
def font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    """Return the bundled ``face`` at ``size`` pixels (cached)."""
    return ImageFont.truetype(str(FONT_DIR / face.value), size)


SMALLEST = 0.8
"""A text too long for its box shrinks to at most this share of its size before it is cut."""
MIN_SIZE = 16
"""No text shrinks below this size (8 px on a phone)."""
ELLIPSIS = "…"


@functools.lru_cache(maxsize=8192)
def text_width(value: str, face: Face, size: int) -> int:
    """How wide ``value`` is drawn as a text sprite (measured once per words, face and size: measuring is slow)."""
    return max(1, int(font(face, size).getlength(value)) + 2)


class Fitted(NamedTuple):
    """Words fitted to a box: the words drawn (cut if they had to be), their size and their width."""

    value: str
    size: int
    width: int


@functools.lru_cache(maxsize=8192)
def fit(value: str, face: Face, size: int, room: float, floor: int | None = None) -> Fitted:
    """``value`` at ``size`` if it is at most ``room`` px wide, else smaller, step by step, down to ``floor``
    (default: :data:`SMALLEST` of ``size``), and cut with an ellipsis if it is still too wide.

    One measurement when the words fit, and none the next time (each answer is kept): a translation longer
    than the English shrinks only where it must.

    >>> fit("Score", Face.BOLD, 30, 200)
    Fitted(value='Score', size=30, width=97)
    >>> fit("Stuck: no moves left", Face.BOLD, 36, 380), fit("Stuck: no moves left", Face.BOLD, 36, 300)
    (Fitted(value='Stuck: no moves left', size=32, width=373), Fitted(value='Stuck: no move…', size=29, width=283))
    """
    measured = text_width(value, face, size)
    if measured <= room:
        return Fitted(value, size, measured)
    return _shrunk(value, face, size, room, smallest(size) if floor is None else min(floor, size))


def smallest(size: int) -> int:
    """The smallest a text of ``size`` shrinks to.

    >>> smallest(30), smallest(24), smallest(20)
    (24, 20, 16)
    """
    return min(size, max(MIN_SIZE, math.ceil(size * SMALLEST)))


def _shrunk(value: str, face: Face, size: int, room: float, floor: int) -> Fitted:
    """``value`` shrunk to fit ``room`` (one size at a time, from about where it fits), else cut at ``floor``."""
    guess = math.floor(size * room / text_width(value, face, size))
    for candidate in range(min(size - 1, guess + 1), floor - 1, -1):
        if (measured := text_width(value, face, candidate)) <= room:
            return Fitted(value, candidate, measured)
    cut = value
    while cut and text_width(cut + ELLIPSIS, face, floor) > room:
        cut = cut[:-1]
    return Fitted(cut + ELLIPSIS, floor, text_width(cut + ELLIPSIS, face, floor))
