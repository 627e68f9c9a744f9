"""Compose a board view into a palette PNG: cached background, pasted sprites, no hidden card ever drawn."""

from __future__ import annotations

import functools
import io
import math

from PIL import (
    Image,
    ImageDraw,
    PngImagePlugin,  # noqa: F401  (loaded at import, not on the first frame)
)

from render import palette as pal
from render.fonts import Face
from render.layout import (
    CARD_H,
    CARD_W,
    GAP,
    HEADER_H,
    HEIGHT,
    LABEL_Y,
    MARGIN,
    RADIUS,
    TABLEAU_Y,
    TOP_Y,
    WASTE_FAN,
    WIDTH,
    column_x,
    pile_tops,
)
from render.sprites import LOCK, Sprite, badge, card_back, card_face, slot, text
from solitaire.cards import SUIT_SYMBOLS
from solitaire.game import Status
from solitaire.variants import Family
from solitaire.view import BoardView, FoundationView, PileView

COMPRESS_LEVEL = 3
"""zlib level for boards in play; see ``benchmarks/bench_render.py`` for the time/size trade-off."""
FINAL_COMPRESS_LEVEL = 6
"""zlib level for a finished game's picture, drawn once, so smaller at a little more time."""
SIZE_BUDGET = 40_000
"""A board whose PNG comes out bigger than this at :data:`COMPRESS_LEVEL` is encoded again at :data:`RETRY_LEVEL`."""
RETRY_LEVEL = 5
HIGHLIGHT_WIDTH = 5
COMPACT_BELOW = 32
"""Face-up steps smaller than this use cards with the smaller corner index, so it is never cut."""
FOUNDATION_SOURCES = ("fs", "fh", "fd", "fc")
"""Move-notation sources of the Klondike foundations, in view order (S H D C)."""


def render_board(
    view: BoardView, *, time_left: float | None = None, selected: str | None = None, four_colour: bool = False
) -> bytes:
    """Draw ``view`` as PNG bytes; ``selected`` is a highlighted move source (``"3"``, ``"w"``, ``"fh"``).

    Safe to call from several threads (``asyncio.to_thread``): composing holds a lock, encoding does not.
    """
    with LOCK:
        canvas = draw_board(view, time_left=time_left, selected=selected, four_colour=four_colour)
    if view.status is not Status.PLAYING:
        return encode(canvas, FINAL_COMPRESS_LEVEL)
    data = encode(canvas, COMPRESS_LEVEL)
    return data if len(data) <= SIZE_BUDGET else encode(canvas, RETRY_LEVEL)


def draw_board(
    view: BoardView, *, time_left: float | None = None, selected: str | None = None, four_colour: bool = False
) -> Image.Image:
    """Compose ``view`` into a palette image (see :func:`render_board`)."""
    canvas = _background(view.title).copy()
    _draw_header(canvas, view, time_left)
    if view.family is Family.FRIDAY13:
        _draw_friday13(canvas, view, selected, four_colour)
    else:
        _draw_klondike(canvas, view, selected, four_colour)
    if view.status is not Status.PLAYING:
        _draw_result(canvas, view)
    return canvas


def encode(canvas: Image.Image, level: int = COMPRESS_LEVEL) -> bytes:
    """Encode a palette image as PNG bytes at zlib ``level``."""
    buffer = io.BytesIO()
    canvas.save(buffer, format="PNG", optimize=False, compress_level=level)
    return buffer.getvalue()


# -- background and header ------------------------------------------------------
@functools.cache
def _background(title: str) -> Image.Image:
    """Return the felt with the header bar and the variant's title (cached per title)."""
    image = Image.new("P", (WIDTH, HEIGHT), pal.index(pal.FELT))
    image.putpalette(pal.palette_image().getpalette() or [])
    ImageDraw.Draw(image).rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=pal.index(pal.HEADER))
    title_sprite = text(title, Face.BOLD, 28, pal.HEADER_TEXT, pal.HEADER)
    title_sprite.paste_on(image, MARGIN, (HEADER_H - title_sprite.size[1]) // 2)
    return image


def _clock(seconds: float) -> str:
    """Format seconds left as ``m:ss``, rounding up so 0:00 means time is really up."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _header_items(view: BoardView, time_left: float | None) -> list[tuple[str, str, pal.RGB]]:
    """Return the header's (label, value, value colour) items, left to right."""
    items: list[tuple[str, str, pal.RGB]] = []
    if view.max_passes is not None:
        items.append(("PASS", f"{view.pass_number} of {view.max_passes}", pal.HEADER_TEXT))
        if view.family is Family.KLONDIKE:
            items.append(("DRAW", str(view.draw_count), pal.HEADER_TEXT))
    elif view.pass_number > 1:
        items.append(("PASS", str(view.pass_number), pal.HEADER_TEXT))
    items.append(("MOVES", str(view.move_count), pal.HEADER_TEXT))
    items.append(("SCORE", str(view.score), pal.GOLD))
    if time_left is not None and view.status is Status.PLAYING:
        items.append(("TIME", _clock(time_left), pal.ALERT if time_left < 30 else pal.HEADER_TEXT))
    return items


def _draw_header(canvas: Image.Image, view: BoardView, time_left: float | None) -> None:
    """Paste the score, moves, passes and clock, right-aligned in the header bar."""
    x = WIDTH - MARGIN
    for label, value, colour in reversed(_header_items(view, time_left)):
        value_sprite = text(value, Face.BOLD, 28, colour, pal.HEADER)
        label_sprite = text(label, Face.BOLD, 14, pal.HEADER_DIM, pal.HEADER)
        x -= value_sprite.size[0]
        value_sprite.paste_on(canvas, x, (HEADER_H - value_sprite.size[1]) // 2)
        x -= label_sprite.size[0] + 6
        label_sprite.paste_on(canvas, x, (HEADER_H - value_sprite.size[1]) // 2 + 10)
        x -= 26


# -- pieces shared by the families --------------------------------------------
def _highlight(canvas: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Outline ``box`` (a card area) in gold to mark the selected source."""
    pad = HIGHLIGHT_WIDTH
    left, top, right, bottom = box
    ImageDraw.Draw(canvas).rounded_rectangle(
        (left - pad, top - pad, right + pad - 1, bottom + pad - 1),
        RADIUS + pad,
        outline=pal.index(pal.GOLD),
        width=HIGHLIGHT_WIDTH,
    )


def _paste_centred(canvas: Image.Image, sprite: Sprite, cx: int, cy: int) -> None:
    """Paste ``sprite`` centred on (cx, cy)."""
    width, height = sprite.size
    sprite.paste_on(canvas, cx - width // 2, cy - height // 2)


def _stock_mark(view: BoardView) -> str:
    """Return what an empty stock shows: a redeal arrow if the waste can go back, else nothing."""
    passes_left = view.max_passes is None or view.pass_number < view.max_passes
    return "\u21bb" if view.waste_count and passes_left else ""


def _draw_stock(canvas: Image.Image, view: BoardView, x: int, y: int) -> None:
    """Draw the stock (a back with its count, or an empty slot) at (x, y)."""
    if view.stock_count:
        card_back().paste_on(canvas, x, y)
        count = badge(str(view.stock_count), 20, pal.HEADER_TEXT, pal.BADGE)
        _paste_centred(canvas, count, x + CARD_W // 2, y + CARD_H - 24)
    else:
        slot(_stock_mark(view)).paste_on(canvas, x, y)


def _draw_waste(canvas: Image.Image, view: BoardView, x: int, y: int, four_colour: bool) -> int:
    """Draw the waste fan from (x, y); return the left edge of its playable top card."""
    if not view.waste_fan:
        slot("").paste_on(canvas, x, y)
        return x
    for i, card in enumerate(view.waste_fan):
        card_face(card, four_colour).paste_on(canvas, x + i * WASTE_FAN, y)
    return x + (len(view.waste_fan) - 1) * WASTE_FAN


# -- Klondike and Gold Rush ---------------------------------------------------
def _draw_klondike(canvas: Image.Image, view: BoardView, selected: str | None, four_colour: bool) -> None:
    """Draw stock, waste, the four foundations and the seven piles."""
    _draw_stock(canvas, view, column_x(0), TOP_Y)
    waste_x = _draw_waste(canvas, view, column_x(1), TOP_Y, four_colour)
    if selected == "w" and view.waste_fan:
        _highlight(canvas, (waste_x, TOP_Y, waste_x + CARD_W, TOP_Y + CARD_H))
    for i, (source, foundation) in enumerate(zip(FOUNDATION_SOURCES, view.foundations, strict=True)):
        x = column_x(3 + i)
        _draw_suit_foundation(canvas, foundation, x, four_colour)
        if selected == source and foundation.top is not None:
            _highlight(canvas, (x, TOP_Y, x + CARD_W, TOP_Y + CARD_H))
    for i, pile in enumerate(view.tableau):
        _draw_pile(canvas, pile, column_x(i), four_colour, selected == str(i + 1))
        number = str(i + 1)
        colours = (pal.BADGE, pal.GOLD) if selected == number else (pal.HEADER_TEXT, pal.BADGE)
        _paste_centred(canvas, badge(number, 20, *colours), column_x(i) + CARD_W // 2, LABEL_Y)


def _draw_suit_foundation(canvas: Image.Image, foundation: FoundationView, x: int, four_colour: bool) -> None:
    """Draw a suit foundation: its top card, or a slot marked with the suit."""
    if foundation.top is None:
        slot(SUIT_SYMBOLS[foundation.label]).paste_on(canvas, x, TOP_Y)
    else:
        card_face(foundation.top, four_colour).paste_on(canvas, x, TOP_Y)


def _draw_pile(canvas: Image.Image, pile: PileView, x: int, four_colour: bool, selected: bool) -> None:
    """Draw one tableau pile: backs for the hidden count, then the face-up run fanned."""
    tops = pile_tops(pile.hidden, len(pile.cards))
    if not tops:
        slot("K").paste_on(canvas, x, TABLEAU_Y)
        if selected:
            _highlight(canvas, (x, TABLEAU_Y, x + CARD_W, TABLEAU_Y + CARD_H))
        return
    back = card_back()
    for y in tops[: pile.hidden]:
        back.paste_on(canvas, x, y)
    up_tops = tops[pile.hidden :]
    compact = len(up_tops) > 1 and up_tops[1] - up_tops[0] < COMPACT_BELOW
    for card, y in zip(pile.cards, up_tops, strict=True):
        card_face(card, four_colour, compact and y != up_tops[-1]).paste_on(canvas, x, y)
    if selected and pile.cards:
        _highlight(canvas, (x, tops[pile.hidden], x + CARD_W, tops[-1] + CARD_H))


# -- Friday 13 ------------------------------------------------------------------
F13_ROW_Y = (TOP_Y + 34, TOP_Y + 34 + CARD_H + 56)
"""Tops of the two foundation rows (J..4 and 5..10)."""
F13_STOCK_Y = F13_ROW_Y[1] + CARD_H + 40


def _f13_slot_xy(index: int) -> tuple[int, int]:
    """Return the top-left of Friday 13 foundation ``index`` (0..12): seven on top, six centred below."""
    row, column = divmod(index, 7)
    return column_x(column) + row * (CARD_W + GAP) // 2, F13_ROW_Y[row]


def _draw_friday13(canvas: Image.Image, view: BoardView, selected: str | None, four_colour: bool) -> None:
    """Draw the thirteen labelled foundations, the stock, the waste top and the passes left."""
    for i, foundation in enumerate(view.foundations):
        x, y = _f13_slot_xy(i)
        label = badge(foundation.label, 20, pal.HEADER_TEXT, pal.BADGE, min_width=44)
        _paste_centred(canvas, label, x + CARD_W // 2, y - 20)
        if foundation.top is None:
            slot(foundation.label).paste_on(canvas, x, y)
            continue
        card_face(foundation.top, four_colour).paste_on(canvas, x, y)
        count = text(f"\u00d7{foundation.count}", Face.BOLD, 16, pal.FELT_TEXT, pal.FELT)
        count.paste_on(canvas, x + CARD_W - count.size[0], y - 20 - count.size[1] // 2)
    if view.status is Status.PLAYING:  # a finished game's result panel takes the hand's place
        _draw_f13_hand(canvas, view, selected, four_colour)


def _draw_f13_hand(canvas: Image.Image, view: BoardView, selected: str | None, four_colour: bool) -> None:
    """Draw the stock and the waste top below the foundations, with the passes left beside them."""
    y = F13_STOCK_Y
    for column, name in ((2, "STOCK"), (3, "WASTE")):
        _paste_centred(canvas, badge(name, 16, pal.HEADER_TEXT, pal.BADGE), column_x(column) + CARD_W // 2, y - 20)
    _draw_stock(canvas, view, column_x(2), y)
    waste_x = _draw_waste(canvas, view, column_x(3), y, four_colour)
    if selected == "w" and view.waste_fan:
        _highlight(canvas, (waste_x, y, waste_x + CARD_W, y + CARD_H))
    left = (view.max_passes or 1) - view.pass_number
    note = "last pass" if left <= 0 else ("1 redeal left" if left == 1 else f"{left} redeals left")
    for row, line in enumerate((note, f"{view.waste_count} in waste")):
        sprite = text(line, Face.BOLD, 24, pal.FELT_TEXT, pal.FELT)
        sprite.paste_on(canvas, column_x(4) + 4, y + 40 + row * 40)


# -- the final picture ------------------------------------------------------------
RESULT_TITLES = {
    Status.WON: ("You won!", pal.WIN),
    Status.ENDED: ("Game ended", pal.PANEL_TEXT),
    Status.STUCK: ("Stuck: no moves left", pal.INK_RED),
    Status.EXPIRED: ("Time's up", pal.INK_RED),
}


def _points(value: int) -> str:
    """Write points with an explicit sign (a real minus sign for penalties)."""
    return f"+{value}" if value >= 0 else f"\u2212{-value}"


PANEL_W = 560
PANEL_ROW = 34


def _panel_top(view: BoardView, height: int) -> int:
    """Return where the result panel starts: over the tableau, or over Friday 13's stock row."""
    if view.family is Family.FRIDAY13:
        return (F13_STOCK_Y - 40 + HEIGHT - height) // 2
    return TABLEAU_Y + 10


def _draw_result(canvas: Image.Image, view: BoardView) -> None:
    """Draw the result panel: outcome, each score line, the total, time and moves."""
    title, colour = RESULT_TITLES.get(view.status, (view.status.value, pal.PANEL_TEXT))
    lines = view.sheet.lines() or [("No points scored", 0)]
    height = 68 + PANEL_ROW * len(lines) + 96
    left, top = (WIDTH - PANEL_W) // 2, _panel_top(view, height)
    draw = ImageDraw.Draw(canvas)
    draw.rounded_rectangle(
        (left - 4, top - 4, left + PANEL_W + 3, top + height + 3), 18, fill=pal.index(pal.PANEL_EDGE)
    )
    draw.rounded_rectangle((left, top, left + PANEL_W - 1, top + height - 1), 14, fill=pal.index(pal.PANEL))
    _paste_centred(canvas, text(title, Face.BOLD, 38, colour, pal.PANEL), WIDTH // 2, top + 34)
    y = top + 66
    for label, points in lines:
        _panel_row(canvas, left, y, label, _points(points), Face.REGULAR, 24, pal.PANEL_TEXT)
        y += PANEL_ROW
    draw.line((left + 24, y + 4, left + PANEL_W - 25, y + 4), fill=pal.index(pal.PANEL_EDGE), width=2)
    _panel_row(canvas, left, y + 10, "Total", str(view.score), Face.BOLD, 30, pal.WIN)
    footer = f"{view.move_count} moves"
    if view.seconds_used is not None:
        footer = f"time {_clock(view.seconds_used)} \u00b7 " + footer
    _paste_centred(canvas, text(footer, Face.REGULAR, 20, pal.PANEL_TEXT, pal.PANEL), WIDTH // 2, y + 68)


def _panel_row(
    canvas: Image.Image, left: int, y: int, label: str, value: str, face: Face, size: int, value_colour: pal.RGB
) -> None:
    """Paste one panel row: ``label`` on the left, ``value`` right-aligned."""
    text(label, face, size, pal.PANEL_TEXT, pal.PANEL).paste_on(canvas, left + 30, y)
    value_sprite = text(value, Face.BOLD, size, value_colour if face is Face.BOLD else pal.PANEL_TEXT, pal.PANEL)
    value_sprite.paste_on(canvas, left + PANEL_W - 30 - value_sprite.size[0], y)
