"""The bundled DejaVu fonts (free licence in ``render/fonts/LICENSE-DejaVu.txt``), loaded once per size."""

from __future__ import annotations

import functools
from enum import Enum
from pathlib import Path

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
