"""Card faces, the card back, empty slots, badges and text, drawn once and kept on the shared palette."""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render import palette as pal
from render.fonts import Face, font
from render.layout import CARD_H, CARD_W, RADIUS
from solitaire.cards import SUIT_SYMBOLS, Card

SUPERSAMPLE = 3
"""Shapes are drawn this many times larger, then scaled down, for smooth edges."""
LOCK = threading.RLock()
"""Held while drawing: FreeType faces and the sprite caches are shared between threads."""
SHADOW = (2, 3)
"""How far a card's shadow falls right and down (it only ever lands on the felt)."""


@dataclass(frozen=True)
class Sprite:
    """A palette image and the mask of its opaque pixels (``None``: a full rectangle)."""

    image: Image.Image
    mask: Image.Image | None

    @property
    def size(self) -> tuple[int, int]:
        """Return the sprite's (width, height)."""
        return self.image.size

    def paste_on(self, canvas: Image.Image, x: int, y: int) -> None:
        """Paste the sprite onto ``canvas`` with its top-left corner at (x, y)."""
        canvas.paste(self.image, (x, y), self.mask)


def ink(suit: str, four_colour: bool) -> pal.RGB:
    """Return the ink colour of ``suit`` (four-colour: clubs green, diamonds blue)."""
    if four_colour:
        return {"C": pal.INK_GREEN, "D": pal.INK_BLUE, "H": pal.INK_RED, "S": pal.INK_BLACK}[suit]
    return pal.INK_RED if suit in "DH" else pal.INK_BLACK


def _from_rgba(image: Image.Image) -> Sprite:
    """Quantize an RGBA drawing to the palette, keeping a hard mask of its opaque half."""
    mask = image.getchannel("A").point(lambda alpha: 255 if alpha >= 128 else 0).convert("1")
    flat = Image.new("RGB", image.size, pal.FELT)
    flat.paste(image, (0, 0), image)
    return Sprite(pal.to_palette(flat), mask)


def _with_shadow(card: Image.Image) -> tuple[Image.Image, Image.Image]:
    """Put a soft shadow under a card drawing; return it flattened on the felt (RGB) and its mask."""
    dx, dy = SHADOW
    width, height = card.size
    alpha = card.getchannel("A")
    shade = Image.new("L", (width + dx + 2, height + dy + 2), 0)
    shade.paste(alpha.point(lambda a: a * 110 // 255), (dx, dy))
    shade = shade.filter(ImageFilter.GaussianBlur(1.5)).crop((0, 0, width + dx, height + dy))
    image = Image.new("RGBA", shade.size, (0, 0, 0, 0))
    image.putalpha(shade)
    image.alpha_composite(card)
    flat = Image.new("RGB", image.size, pal.FELT)
    flat.paste(image, (0, 0), image)
    solid = Image.new("L", image.size, 0)
    solid.paste(alpha.point(lambda a: 255 if a >= 128 else 0), (0, 0))
    mask = ImageChops.lighter(solid, shade.point(lambda a: 255 if a >= 16 else 0))
    return flat, mask.convert("1")


def _scaled(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Scale a supersampled drawing down to ``size`` (box-averaging each SUPERSAMPLE square: fast and smooth)."""
    reduced = image.reduce(SUPERSAMPLE)
    return reduced if reduced.size == size else reduced.resize(size, Image.Resampling.BOX)


def _card_base(fill: pal.RGB, edge: pal.RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """Return a supersampled transparent canvas holding a rounded card shape."""
    s = SUPERSAMPLE
    image = Image.new("RGBA", (CARD_W * s, CARD_H * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, CARD_W * s - 1, CARD_H * s - 1), RADIUS * s, fill=fill, outline=edge, width=2 * s)
    return image, draw


def _centred_text(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, face: Face, size: int, fill: pal.RGB
) -> None:
    """Draw ``text`` with its ink box centred on ``centre``."""
    draw.text(centre, text, font=font(face, size), fill=fill, anchor="mm")


INDEX_SIZES = {False: (33, 30, 7), True: (25, 23, 4)}
"""Corner index (rank size, suit size, inset) for normal faces and for compact ones in tight fans."""


def _index(draw: ImageDraw.ImageDraw, card: Card, colour: pal.RGB, compact: bool) -> None:
    """Draw the corner index (rank then suit on one line) near the top-left corner."""
    rank_size, suit_size, inset = INDEX_SIZES[compact]
    x, y = inset, inset
    rank_font = font(Face.CONDENSED, rank_size)
    suit_font = font(Face.BOLD, suit_size)
    left, top, right, _ = rank_font.getbbox(card.rank_name)
    draw.text((x - left, y - top), card.rank_name, font=rank_font, fill=colour)
    s_left, s_top, _, _ = suit_font.getbbox(SUIT_SYMBOLS[card.suit])
    draw.text((x + right - left + 1 - s_left, y - s_top + 1), SUIT_SYMBOLS[card.suit], font=suit_font, fill=colour)


@functools.cache
def _blank_face() -> tuple[Image.Image, Image.Image]:
    """Return a blank card face with its shadow, flattened on the felt (RGB), and its mask."""
    image, _ = _card_base(pal.CARD, pal.CARD_EDGE)
    return _with_shadow(_scaled(image, (CARD_W, CARD_H)))


@functools.cache
def _court_frame(colour: pal.RGB) -> Image.Image:
    """Return the smooth rounded frame a court card's letter sits in (RGBA, card-sized)."""
    s = SUPERSAMPLE
    frame = Image.new("RGBA", (CARD_W * s, CARD_H * s), (0, 0, 0, 0))
    box = (18 * s, 44 * s, (CARD_W - 18) * s, (CARD_H - 12) * s)
    ImageDraw.Draw(frame).rounded_rectangle(box, 6 * s, outline=colour, width=2 * s)
    return _scaled(frame, (CARD_W, CARD_H))


def card_face(card: Card, four_colour: bool = False, compact: bool = False) -> Sprite:
    """Return the face of ``card``: a big corner index (smaller if ``compact``), a centre pip or court letter."""
    return _card_face(card, ink(card.suit, four_colour), compact)


@functools.cache
def _card_face(card: Card, colour: pal.RGB, compact: bool) -> Sprite:
    """Draw the face of ``card`` in ``colour`` (cached per card, ink and index size)."""
    blank, mask = _blank_face()
    image = blank.copy()
    draw = ImageDraw.Draw(image)
    _index(draw, card, colour, compact)
    symbol = SUIT_SYMBOLS[card.suit]
    centre = (CARD_W / 2, CARD_H * 0.6)
    if card.rank > 10:
        frame = _court_frame(colour)
        image.paste(frame, (0, 0), frame)
        _centred_text(draw, (centre[0], centre[1] - 14), card.rank_name, Face.BOLD, 58, colour)
        _centred_text(draw, (centre[0], centre[1] + 34), symbol, Face.BOLD, 34, colour)
    else:
        _centred_text(draw, centre, symbol, Face.BOLD, 96 if card.rank == 1 else 70, colour)
    return Sprite(pal.to_palette(image), mask)


@functools.cache
def card_back() -> Sprite:
    """Return the card back: a navy lattice inside a white border."""
    s = SUPERSAMPLE
    image, draw = _card_base(pal.CARD, pal.CARD_EDGE)
    inset = 7 * s
    inner = (inset, inset, CARD_W * s - inset - 1, CARD_H * s - inset - 1)
    draw.rounded_rectangle(inner, (RADIUS - 4) * s, fill=pal.BACK)
    lattice = Image.new("RGBA", image.size, (0, 0, 0, 0))
    ldraw = ImageDraw.Draw(lattice)
    step = 14 * s
    height = CARD_H * s
    for x in range(-height, CARD_W * s + height, step):
        ldraw.line((x, 0, x + height, height), fill=pal.BACK_LIGHT, width=s)
        ldraw.line((x, height, x + height, 0), fill=pal.BACK_LIGHT, width=s)
    shape = Image.new("L", image.size, 0)
    ImageDraw.Draw(shape).rounded_rectangle(inner, (RADIUS - 4) * s, fill=255)
    image.paste(lattice, (0, 0), Image.composite(lattice.getchannel("A"), shape, shape))
    emblem = (CARD_W * s / 2, CARD_H * s / 2)
    r = 22 * s
    draw.ellipse(
        (emblem[0] - r, emblem[1] - r, emblem[0] + r, emblem[1] + r), fill=pal.BACK_DARK, outline=pal.CARD, width=2 * s
    )
    _centred_text(draw, emblem, "\u2660", Face.BOLD, 30 * s, pal.CARD)
    draw.rounded_rectangle(inner, (RADIUS - 4) * s, outline=pal.BACK_DARK, width=s)
    flat, mask = _with_shadow(_scaled(image, (CARD_W, CARD_H)))
    return Sprite(pal.to_palette(flat), mask)


@functools.cache
def slot(mark: str, colour: pal.RGB = pal.FELT_LINE) -> Sprite:
    """Return an empty place on the felt: a rounded outline with a faint ``mark`` inside."""
    s = SUPERSAMPLE
    image = Image.new("RGBA", (CARD_W * s, CARD_H * s), (*pal.FELT, 255))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((s, s, CARD_W * s - s - 1, CARD_H * s - s - 1), RADIUS * s, outline=colour, width=3 * s)
    if mark:
        size = 64 if len(mark) == 1 else 50
        _centred_text(draw, (CARD_W * s / 2, CARD_H * s / 2), mark, Face.BOLD, size * s, colour)
    rgb = _scaled(image, (CARD_W, CARD_H)).convert("RGB")
    return Sprite(pal.to_palette(rgb), None)


@functools.lru_cache(maxsize=4096)
def text(value: str, face: Face, size: int, fg: pal.RGB, bg: pal.RGB) -> Sprite:
    """Return ``value`` drawn in ``fg`` on a tight ``bg`` rectangle (its height fits the font's line)."""
    typeface = font(face, size)
    ascent, descent = typeface.getmetrics()
    width = max(1, int(typeface.getlength(value)) + 2)
    image = Image.new("RGB", (width, ascent + descent), bg)
    ImageDraw.Draw(image).text((1, 0), value, font=typeface, fill=fg)
    return Sprite(pal.to_palette(image), None)


@functools.lru_cache(maxsize=1024)
def badge(value: str, size: int, fg: pal.RGB, bg: pal.RGB, min_width: int = 0) -> Sprite:
    """Return a pill-shaped label: ``value`` in ``fg`` on ``bg``."""
    s = SUPERSAMPLE
    typeface = font(Face.BOLD, size * s)
    left, _, right, _ = typeface.getbbox(value, anchor="mm")
    height = size + 12
    width = max(min_width, int(right - left) // s + 20, height)
    image = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, width * s - 1, height * s - 1), height * s // 2, fill=bg)
    draw.text((width * s / 2, height * s / 2), value, font=typeface, fill=fg, anchor="mm")
    return _from_rgba(_scaled(image, (width, height)))


def warm_up() -> None:
    """Build every card sprite in both colour schemes now (e.g. at bot start-up, off the event loop)."""
    with LOCK:
        card_back()
        for four_colour in (False, True):
            for suit in "CDHS":
                for rank in range(1, 14):
                    card_face(Card(rank, suit), four_colour)
