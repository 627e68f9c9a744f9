"""The fixed 256-colour palette every sprite and frame shares, and the theme colours in it."""

from __future__ import annotations

import functools
from itertools import combinations

from PIL import Image

RGB = tuple[int, int, int]

FELT: RGB = (24, 104, 60)
FELT_LINE: RGB = (70, 150, 100)
"""Empty-slot outlines and watermarks on the felt."""
FELT_TEXT: RGB = (214, 236, 220)
FELT_SHADOW: RGB = (6, 44, 22)
"""What a card's shadow darkens the felt towards (at most about half way)."""
HEADER: RGB = (12, 46, 28)
HEADER_TEXT: RGB = (244, 246, 240)
HEADER_DIM: RGB = (150, 190, 160)
GOLD: RGB = (255, 196, 40)
ALERT: RGB = (255, 92, 80)
CARD: RGB = (252, 252, 248)
CARD_EDGE: RGB = (96, 104, 100)
INK_BLACK: RGB = (22, 22, 28)
INK_RED: RGB = (204, 24, 36)
INK_GREEN: RGB = (16, 128, 52)
INK_BLUE: RGB = (24, 84, 210)
BACK: RGB = (30, 62, 150)
BACK_LIGHT: RGB = (86, 126, 214)
BACK_DARK: RGB = (18, 36, 96)
BADGE: RGB = (16, 40, 26)
PANEL: RGB = (250, 246, 232)
PANEL_TEXT: RGB = (32, 36, 34)
PANEL_EDGE: RGB = (180, 140, 40)
WIN: RGB = (20, 120, 60)

_RAMPS: tuple[tuple[RGB, RGB], ...] = (
    (CARD, INK_BLACK),
    (CARD, INK_RED),
    (CARD, INK_GREEN),
    (CARD, INK_BLUE),
    (CARD, CARD_EDGE),
    (CARD, BACK),
    (FELT, CARD),
    (FELT, FELT_SHADOW),
    (FELT, CARD_EDGE),
    (FELT, FELT_LINE),
    (FELT, FELT_TEXT),
    (FELT, GOLD),
    (FELT, BADGE),
    (BADGE, HEADER_TEXT),
    (BADGE, GOLD),
    (HEADER, HEADER_TEXT),
    (HEADER, HEADER_DIM),
    (HEADER, GOLD),
    (HEADER, ALERT),
    (BACK, BACK_LIGHT),
    (BACK, BACK_DARK),
    (BACK_DARK, BACK_LIGHT),
    (BACK_DARK, CARD),
    (PANEL, PANEL_TEXT),
    (PANEL, PANEL_EDGE),
    (PANEL, INK_RED),
    (PANEL, WIN),
    (CARD_EDGE, INK_BLACK),
)
_STEPS = 5


def _ramp(start: RGB, end: RGB, steps: int) -> list[RGB]:
    """Return ``steps`` colours from ``start`` to ``end`` inclusive."""
    return [
        (
            start[0] + (end[0] - start[0]) * i // (steps - 1),
            start[1] + (end[1] - start[1]) * i // (steps - 1),
            start[2] + (end[2] - start[2]) * i // (steps - 1),
        )
        for i in range(steps)
    ]


@functools.cache
def palette_colours() -> tuple[RGB, ...]:
    """Return the palette: every theme colour and the anti-aliasing ramps between pairs of them."""
    colours: list[RGB] = []
    for start, end in _RAMPS:
        colours.extend(c for c in _ramp(start, end, _STEPS) if c not in colours)
    base = sorted({c for pair in _RAMPS for c in pair})
    spare = 256 - len(colours)
    extra = [mid for a, b in combinations(base, 2) if (mid := _ramp(a, b, 3)[1]) not in colours]
    colours.extend(extra[:spare])
    return tuple(colours[:256])


@functools.cache
def palette_image() -> Image.Image:
    """Return a 1x1 ``P`` image carrying the shared palette (for ``quantize``)."""
    colours = palette_colours()
    flat = [channel for colour in colours for channel in colour]
    flat += [0] * (768 - len(flat))
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


@functools.cache
def index(colour: RGB) -> int:
    """Return the palette index of a theme colour."""
    return palette_colours().index(colour)


def to_palette(image: Image.Image) -> Image.Image:
    """Map an RGB image onto the shared palette without dithering."""
    return image.convert("RGB").quantize(palette=palette_image(), dither=Image.Dither.NONE)
