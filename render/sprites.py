"""Card faces, the card back, empty slots, badges and text, drawn once and kept on the shared palette."""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render import palette as pal
from render.fonts import MIN_SIZE, Face, fit, font
from render.layout import CARD_H, CARD_W, RADIUS, TAB_H, TAB_TUCK, UP_OFFSET
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


INDEX_RANK_SIZE = 40
"""Corner rank size: 30 px of ink, 15 px on a phone."""
INDEX_SUIT_SIZE = 32
SIDE_SUIT_SIZE = 28
"""The suit under the rank, readable where a fan covers the right of a card (the waste)."""
INDEX_INSET = 5
SIDE_SUIT_Y = UP_OFFSET + 3
"""The side suit starts below a fanned card's visible strip, so a pile shows only the index line."""


def index_ink_height() -> int:
    """Return the height in pixels of the corner rank's ink (a capital letter)."""
    _, top, _, bottom = font(Face.CONDENSED, INDEX_RANK_SIZE).getbbox("A")
    return int(bottom - top)


def _index(draw: ImageDraw.ImageDraw, card: Card, colour: pal.RGB) -> None:
    """Draw the corner index: rank then suit on one line, and the suit again under the rank."""
    x = y = INDEX_INSET
    rank_font = font(Face.CONDENSED, INDEX_RANK_SIZE)
    suit_font = font(Face.BOLD, INDEX_SUIT_SIZE)
    symbol = SUIT_SYMBOLS[card.suit]
    left, _, right, _ = rank_font.getbbox(card.rank_name)
    cap_top = rank_font.getbbox("A")[1]
    draw.text((x - left, y - cap_top), card.rank_name, font=rank_font, fill=colour)
    s_left, s_top, _, s_bottom = suit_font.getbbox(symbol)
    cap = index_ink_height()
    draw.text(
        (x + right - left + 2 - s_left, y + (cap - (s_bottom - s_top)) // 2 - s_top),
        symbol,
        font=suit_font,
        fill=colour,
    )
    side_font = font(Face.BOLD, SIDE_SUIT_SIZE)
    l2, t2, _, _ = side_font.getbbox(symbol)
    draw.text((x - l2, SIDE_SUIT_Y - t2), symbol, font=side_font, fill=colour)


@functools.cache
def _blank_face() -> tuple[Image.Image, Image.Image]:
    """Return a blank card face with its shadow, flattened on the felt (RGB), and its mask."""
    image, _ = _card_base(pal.CARD, pal.CARD_EDGE)
    return _with_shadow(_scaled(image, (CARD_W, CARD_H)))


COURT_BOX = (36, UP_OFFSET + 3, CARD_W - 8, CARD_H - 8)
"""Where a court card's framed letter sits (right of the side suit, below the index)."""


@functools.cache
def _court_frame(colour: pal.RGB) -> Image.Image:
    """Return the smooth rounded frame a court card's letter sits in (RGBA, card-sized)."""
    s = SUPERSAMPLE
    frame = Image.new("RGBA", (CARD_W * s, CARD_H * s), (0, 0, 0, 0))
    box = tuple(v * s for v in COURT_BOX)
    ImageDraw.Draw(frame).rounded_rectangle(box, 6 * s, outline=colour, width=2 * s)
    return _scaled(frame, (CARD_W, CARD_H))


def card_face(card: Card, four_colour: bool = False) -> Sprite:
    """Return the face of ``card``: a big corner index, a centre pip or a framed court letter."""
    return _card_face(card, ink(card.suit, four_colour))


@functools.cache
def _card_face(card: Card, colour: pal.RGB) -> Sprite:
    """Draw the face of ``card`` in ``colour`` (cached per card and ink)."""
    blank, mask = _blank_face()
    image = blank.copy()
    draw = ImageDraw.Draw(image)
    _index(draw, card, colour)
    symbol = SUIT_SYMBOLS[card.suit]
    left, top, right, bottom = COURT_BOX
    centre = ((left + right) / 2, (top + bottom) / 2)
    if card.rank > 10:
        frame = _court_frame(colour)
        image.paste(frame, (0, 0), frame)
        _centred_text(draw, (centre[0], centre[1] - 12), card.rank_name, Face.BOLD, 50, colour)
        _centred_text(draw, (centre[0], centre[1] + 30), symbol, Face.BOLD, 28, colour)
    else:
        _centred_text(draw, centre, symbol, Face.BOLD, 76 if card.rank == 1 else 58, colour)
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


def badge(value: str, size: int, fg: pal.RGB, bg: pal.RGB, min_width: int = 0, room: float = math.inf) -> Sprite:
    """Return a pill-shaped label: ``value`` in ``fg`` on ``bg`` (its words fitted to ``room`` px)."""
    fitted = fit(value, Face.BOLD, size, room)
    if _watches:
        _note(fitted.value, Face.BOLD, fitted.size, fitted.width, room)
    return _badge(fitted.value, fitted.size, fg, bg, min_width)


@functools.lru_cache(maxsize=1024)
def _badge(value: str, size: int, fg: pal.RGB, bg: pal.RGB, min_width: int) -> Sprite:
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


TAB_ROOM = CARD_W - 12
"""How wide the words on a tab may be."""


def tab(value: str, size: int, fg: pal.RGB, bg: pal.RGB) -> Sprite:
    """Return a card-wide tab with rounded top corners and ``value`` centred: a pile's or foundation's name."""
    face = Face.BOLD
    fitted = fit(value, face, size, TAB_ROOM)
    if fitted.value != value:  # a long word (DÉFAUSSE) is written narrower before it is cut
        face = Face.CONDENSED
        fitted = fit(value, face, size, TAB_ROOM, MIN_SIZE)
    if _watches:
        _note(fitted.value, face, fitted.size, fitted.width, TAB_ROOM)
    return _tab(fitted.value, fitted.size, fg, bg, face)


@functools.lru_cache(maxsize=256)
def _tab(value: str, size: int, fg: pal.RGB, bg: pal.RGB, face: Face = Face.BOLD) -> Sprite:
    s = SUPERSAMPLE
    image = Image.new("RGBA", (CARD_W * s, TAB_H * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, CARD_W * s - 1, (TAB_H + RADIUS) * s), RADIUS * s, fill=bg)
    draw.text((CARD_W * s / 2, (TAB_H - TAB_TUCK) * s / 2), value, font=font(face, size * s), fill=fg, anchor="mm")
    return _from_rgba(_scaled(image, (CARD_W, TAB_H)))


# -- words written into a picture, each fitted to its box ----------------------------------------------
Box = tuple[float, float, float, float]


def write(
    canvas: Image.Image,
    xy: tuple[float, float],
    value: str,
    face: Face,
    size: int,
    fg: pal.RGB,
    bg: pal.RGB,
    room: float,
    anchor: str = "la",
    floor: int | None = None,
) -> int:
    """Write ``value`` on ``bg`` at ``xy``, fitted to ``room`` px (:func:`render.fonts.fit`); return its width.

    ``anchor``: l/m/r across, then a (top)/m (middle)/s (baseline); ``floor``: the smallest size it may shrink to
    (:func:`render.fonts.smallest` by default; its own size: cut, never shrunk). Every word of a picture is written here
    (or on a :func:`tab` or a :func:`badge`), so none is wider than the room its box leaves it.
    """
    fitted = fit(value, face, size, room, floor)
    sprite = text(fitted.value, face, fitted.size, fg, bg)
    width, height = sprite.size
    across = 0 if anchor[0] == "l" else width // 2 if anchor[0] == "m" else width
    down = 0 if anchor[1] == "a" else height // 2 if anchor[1] == "m" else font(face, fitted.size).getmetrics()[0]
    x, y = round(xy[0] - across), round(xy[1] - down)
    sprite.paste_on(canvas, x, y)
    if _watches:
        left, top, right, bottom = font(face, fitted.size).getbbox(fitted.value)
        start = xy[0] - {"l": 0.0, "m": room / 2, "r": room}[anchor[0]]
        ink = (x + 1 + left, y + top, x + 1 + right, y + bottom)
        _note(fitted.value, face, fitted.size, fitted.width, room, ink, (start, 0, start + room, canvas.size[1]))
    return width


def line_height(face: Face, size: int) -> int:
    """How tall a line of ``face`` at ``size`` is (a text sprite's height)."""
    ascent, descent = font(face, size).getmetrics()
    return int(ascent + descent)


@dataclass(frozen=True)
class Written:
    """A text drawn into a picture, as a test watching sees it (:func:`watching`)."""

    value: str
    """The words drawn (cut with an ellipsis if they had to be)."""
    face: Face
    size: int
    width: int
    room: float
    """How wide it was allowed to be."""
    ink: Box | None = None
    """Where its ink landed on the canvas (``None``: on a tab or a badge, whose own size holds it)."""
    box: Box | None = None
    """The strip of the canvas it was given (from its anchor, ``room`` wide)."""


_watches: list[list[Written]] = []


@contextmanager
def watching() -> Iterator[list[Written]]:
    """Note every text drawn into a picture inside the block (what the tests check fits its box)."""
    seen: list[Written] = []
    _watches.append(seen)
    try:
        yield seen
    finally:
        _watches.remove(seen)


def _note(
    value: str, face: Face, size: int, width: int, room: float, ink: Box | None = None, box: Box | None = None
) -> None:
    """Tell the watches (if any) that ``value`` was drawn."""
    for seen in _watches:
        seen.append(Written(value, face, size, width, room, ink, box))


def warm_up() -> None:
    """Build every card sprite in both colour schemes now (e.g. at bot start-up, off the event loop)."""
    with LOCK:
        card_back()
        for four_colour in (False, True):
            for suit in "CDHS":
                for rank in range(1, 14):
                    card_face(Card(rank, suit), four_colour)
