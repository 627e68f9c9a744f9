"""Compose a board view into a palette PNG: cached background, pasted sprites, no hidden card ever drawn."""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable
from typing import NamedTuple

from PIL import (
    Image,
    ImageDraw,
    PngImagePlugin,  # noqa: F401  (loaded at import, not on the first frame)
)

from render import palette as pal
from render.fonts import Face, fit, text_width
from render.layout import (
    CARD_H,
    CARD_W,
    GAP,
    HEADER_H,
    MARGIN,
    RADIUS,
    TAB_H,
    TAB_TUCK,
    TAB_Y,
    TABLEAU_Y,
    TOP_Y,
    WASTE_FAN,
    WIDTH,
    board_height,
    column_x,
    pile_tops,
)
from render.sprites import LOCK, Sprite, badge, card_back, card_face, line_height, slot, tab, write
from solitaire.cards import SUIT_SYMBOLS
from solitaire.moves import FOUNDATION_SOURCES, PILES
from solitaire.speech import N_, _, n_
from solitaire.status import Status
from solitaire.variants import Family, find_variant
from solitaire.view import BoardView, FoundationView, PileView
from solitaire.words import number

COMPRESS_LEVEL = 3
"""zlib level for boards in play; see ``benchmarks/bench_render.py`` for the time/size trade-off."""
FINAL_COMPRESS_LEVEL = 6
"""zlib level for a finished game's picture, drawn once, so smaller at a little more time."""
SIZE_BUDGET = 40_000
"""A board whose PNG comes out bigger than this at :data:`COMPRESS_LEVEL` is encoded again at :data:`RETRY_LEVEL`."""
RETRY_LEVEL = 5
HIGHLIGHT_WIDTH = 4
TARGET_WIDTH = 6
"""A marked move target's outline: wider than the source's gold, in :data:`TARGET_COLOUR` (3 px on a phone)."""
TARGET_COLOUR = pal.ALERT
TITLE_SIZE = 30
TITLE_FLOOR = 22
"""The title shrinks down to this size to fit beside the header figures (then it is cut)."""
TITLE_WANTS = 340
"""The room the title keeps beside long header labels (they narrow first), if it needs that much at its smallest."""
LABEL_SIZE = 28
"""Header labels (PASS, MOVES, SCORE, TIME): capitals 10 px tall on a phone."""
LABEL_ROOM = 130
"""How wide a header label may be when its figure is narrower (a translation may be long: ``DURCHGANG``)."""
VALUE_SIZE = 30
VALUE_ROOM = 200
"""How wide a header figure may be (``1 of 3``, a score, the clock)."""
TAB_TEXT_SIZE = 28
"""Pile numbers and foundation names on their tabs: digits 10 px tall on a phone."""


def render_board(
    view: BoardView,
    *,
    time_left: float | None = None,
    selected: str | None = None,
    target: str | None = None,
    four_colour: bool = False,
) -> bytes:
    """Draw ``view`` as PNG bytes; ``selected`` is a highlighted move source (``"3"``, ``"w"``, ``"fh"``).

    ``target`` marks where a move goes, in red: a pile (``"2"``), a Klondike foundation (``"fh"``, or
    ``"f"`` for all four) or a Friday 13 foundation (``"J"``, ``"10"``).

    Safe to call from several threads (``asyncio.to_thread``): composing holds a lock, encoding does not.
    """
    with LOCK:
        canvas = draw_board(view, time_left=time_left, selected=selected, target=target, four_colour=four_colour)
    if view.status is not Status.PLAYING:
        return encode(canvas, FINAL_COMPRESS_LEVEL)
    data = encode(canvas, COMPRESS_LEVEL)
    return data if len(data) <= SIZE_BUDGET else encode(canvas, RETRY_LEVEL)


def table_height(view: BoardView) -> int:
    """Return the height of the table part of the picture (the result panel, if any, goes below it)."""
    return _LAYOUTS[view.family].height(view)


def draw_board(
    view: BoardView,
    *,
    time_left: float | None = None,
    selected: str | None = None,
    target: str | None = None,
    four_colour: bool = False,
) -> Image.Image:
    """Compose ``view`` into a palette image (see :func:`render_board`)."""
    height = table_height(view)
    panel = _result_height(view) if view.is_over else 0
    legend = LEGEND_H if target is not None and target in _LAYOUTS[view.family].targets(view) else 0
    canvas = _background(height + panel + legend).copy()
    _draw_header(canvas, view, time_left)
    _LAYOUTS[view.family].draw(canvas, view, selected, target, four_colour, height)
    if view.is_over:
        _draw_result(canvas, view, height)
    if legend:
        _draw_legend(canvas, height + panel)
    return canvas


def encode(canvas: Image.Image, level: int = COMPRESS_LEVEL) -> bytes:
    """Encode a palette image as PNG bytes at zlib ``level``."""
    buffer = io.BytesIO()
    canvas.save(buffer, format="PNG", optimize=False, compress_level=level)
    return buffer.getvalue()


# -- background and header ------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _background(height: int) -> Image.Image:
    """Return the felt with the header bar, ``height`` px tall (cached per height)."""
    image = Image.new("P", (WIDTH, height), pal.index(pal.FELT))
    image.putpalette(pal.palette_image().getpalette() or [])
    ImageDraw.Draw(image).rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=pal.index(pal.HEADER))
    return image


def _clock(seconds: float) -> str:
    """Format seconds left as ``m:ss``, rounding up so 0:00 means time is really up."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _header_items(view: BoardView, time_left: float | None) -> list[tuple[str, str, pal.RGB]]:
    """Return the header's (label, value, value colour) items, left to right."""
    items: list[tuple[str, str, pal.RGB]] = []
    # Translators: a label in capitals above the board's pass through the stock ("1 of 3"); keep it short.
    pass_label = _("PASS")
    if view.max_passes is not None:
        # Translators: the pass through the stock under the PASS label: pass 1 of 3 passes allowed.
        passes = _("{number} of {passes}", number=view.pass_number, passes=view.max_passes)
        items.append((pass_label, passes, pal.HEADER_TEXT))
        if len(find_variant(view.variant).draw_counts) > 1:  # the draw count changes from pass to pass
            # Translators: a label in capitals above how many cards one draw turns over; keep it short.
            items.append((_("DRAW"), str(view.draw_count), pal.HEADER_TEXT))
    elif view.pass_number > 1:
        items.append((pass_label, str(view.pass_number), pal.HEADER_TEXT))
    # Translators: a label in capitals above the number of moves made; keep it short.
    items.append((_("MOVES"), number(view.move_count), pal.HEADER_TEXT))
    # Translators: a label in capitals above the game's score; keep it short.
    items.append((_("SCORE"), number(view.score), pal.GOLD))
    if time_left is not None and view.status is Status.PLAYING:
        # Translators: a label in capitals above the clock (the time left, m:ss); keep it short.
        items.append((_("TIME"), _clock(time_left), pal.ALERT if time_left < 30 else pal.HEADER_TEXT))
    return items


ITEM_GAP = 22
LABEL_Y = 2
VALUE_Y = 32


def _draw_header(canvas: Image.Image, view: BoardView, time_left: float | None) -> None:
    """Paste the figures right-aligned (each label above its value) and the title in the room left."""
    title = view.title  # said when the view was made
    items = list(reversed(_header_items(view, time_left)))
    widths = _column_widths(items, WIDTH - 2 * MARGIN - min(text_width(title, Face.BOLD, TITLE_FLOOR), TITLE_WANTS))
    x = WIDTH - MARGIN
    for (label, value, colour), column in zip(items, widths, strict=True):
        write(canvas, (x, LABEL_Y), label, Face.CONDENSED, LABEL_SIZE, pal.HEADER_DIM, pal.HEADER, column, "ra")
        write(canvas, (x, VALUE_Y), value, Face.BOLD, VALUE_SIZE, colour, pal.HEADER, column, "ra")
        x -= column + ITEM_GAP
    room = x - MARGIN
    fitted = fit(title, Face.BOLD, TITLE_SIZE, room, TITLE_FLOOR)
    top = (HEADER_H - line_height(Face.BOLD, fitted.size)) // 2
    write(canvas, (MARGIN, top), fitted.value, Face.BOLD, fitted.size, pal.HEADER_TEXT, pal.HEADER, room)


def _column_widths(items: list[tuple[str, str, pal.RGB]], room: int) -> list[int]:
    """The width of each header figure's column: its label's or its value's, whichever is wider; when together
    they take more than ``room``, the labels wider than their values narrow alike (never below their values)."""
    values = [fit(value, Face.BOLD, VALUE_SIZE, VALUE_ROOM).width for _label, value, _colour in items]
    labels = [
        fit(label, Face.CONDENSED, LABEL_SIZE, max(value, LABEL_ROOM)).width
        for (label, _value, _colour), value in zip(items, values, strict=True)
    ]
    widths = [max(label, value) for label, value in zip(labels, values, strict=True)]
    over = sum(widths) + ITEM_GAP * len(items) - room
    spare = sum(width - value for width, value in zip(widths, values, strict=True))
    if over <= 0 or spare <= 0:
        return widths
    cut = min(over / spare, 1.0)
    return [math.floor(width - (width - value) * cut) for width, value in zip(widths, values, strict=True)]


# -- pieces shared by the families --------------------------------------------
def _highlight(
    canvas: Image.Image, box: tuple[int, int, int, int], colour: pal.RGB = pal.GOLD, width: int = HIGHLIGHT_WIDTH
) -> None:
    """Outline ``box`` (a card area) in gold to mark the selected source (or in ``colour``, ``width`` px)."""
    pad = width
    left, top, right, bottom = box
    ImageDraw.Draw(canvas).rounded_rectangle(
        (left - pad, top - pad, right + pad - 1, bottom + pad - 1),
        RADIUS + pad,
        outline=pal.index(colour),
        width=width,
    )


def _mark_target(canvas: Image.Image, x: int, y: int) -> None:
    """Outline the card area at (x, y) in red to mark where a move goes."""
    _highlight(canvas, (x, y, x + CARD_W, y + CARD_H), TARGET_COLOUR, TARGET_WIDTH)


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
def _klondike_height(view: BoardView) -> int:
    """The table grows with the longest pile (and never shrinks while the game runs)."""
    return board_height([(pile.hidden, len(pile.cards)) for pile in view.tableau], steady=not view.is_over)


def _pile_tab(
    canvas: Image.Image, label: str, x: int, y: int, selected: bool, size: int = TAB_TEXT_SIZE, marked: bool = False
) -> None:
    """Paste a pile's or foundation's name tab at (x, y), gold for the selected source, red for a marked target."""
    colours = (pal.BADGE, pal.GOLD) if selected else (pal.HEADER_TEXT, pal.BADGE)
    if marked:
        colours = (pal.BADGE, TARGET_COLOUR)
    tab(label, size, *colours).paste_on(canvas, x, y)


def _draw_klondike(
    canvas: Image.Image, view: BoardView, selected: str | None, target: str | None, four_colour: bool, height: int
) -> None:
    """Draw stock, waste, the four foundations and the seven numbered piles (``target`` marked in red)."""
    _draw_stock(canvas, view, column_x(0), TOP_Y)
    waste_x = _draw_waste(canvas, view, column_x(1), TOP_Y, four_colour)
    waste_box = (waste_x, TOP_Y, waste_x + CARD_W, TOP_Y + CARD_H)
    if selected == "w" and view.waste_fan:
        _highlight(canvas, waste_box)
    for i, (source, foundation) in enumerate(zip(FOUNDATION_SOURCES, view.foundations, strict=True)):
        x = column_x(3 + i)
        _draw_suit_foundation(canvas, foundation, x, four_colour)
        if selected == source and foundation.top is not None:
            _highlight(canvas, (x, TOP_Y, x + CARD_W, TOP_Y + CARD_H))
        if target in (source, "f"):
            _mark_target(canvas, x, TOP_Y)
    for i, pile in enumerate(view.tableau):
        number, x = str(i + 1), column_x(i)
        top_y = (pile_tops(pile.hidden, len(pile.cards), height) or [TABLEAU_Y])[-1] if target == number else None
        if top_y == TABLEAU_Y:
            _mark_target(canvas, x, top_y)  # under the tab, so the mark never covers the pile's number
        _pile_tab(canvas, number, x, TAB_Y, selected == number, marked=target == number)
        _draw_pile(canvas, pile, x, four_colour, selected == number, height, view.status is Status.WON)
        if top_y is not None and top_y != TABLEAU_Y:
            _mark_target(canvas, x, top_y)


def _draw_suit_foundation(canvas: Image.Image, foundation: FoundationView, x: int, four_colour: bool) -> None:
    """Draw a suit foundation: its top card, or a slot marked with the suit."""
    if foundation.top is None:
        slot(SUIT_SYMBOLS[foundation.label]).paste_on(canvas, x, TOP_Y)
    else:
        card_face(foundation.top, four_colour).paste_on(canvas, x, TOP_Y)


def _draw_pile(
    canvas: Image.Image, pile: PileView, x: int, four_colour: bool, selected: bool, height: int, won: bool
) -> None:
    """Draw one tableau pile: backs for the hidden count, then the face-up run fanned to fit ``height``.

    An empty pile shows a ``K`` (only a king may fill it), except in a won game, where nothing is left to play.
    """
    tops = pile_tops(pile.hidden, len(pile.cards), height)
    if not tops:
        slot("" if won else "K").paste_on(canvas, x, TABLEAU_Y)
        if selected:
            _highlight(canvas, (x, TABLEAU_Y, x + CARD_W, TABLEAU_Y + CARD_H))
        return
    back = card_back()
    for y in tops[: pile.hidden]:
        back.paste_on(canvas, x, y)
    for card, y in zip(pile.cards, tops[pile.hidden :], strict=True):
        card_face(card, four_colour).paste_on(canvas, x, y)
    if selected and pile.cards:
        _highlight(canvas, (x, tops[pile.hidden], x + CARD_W, tops[-1] + CARD_H))


# -- Friday 13 ------------------------------------------------------------------
F13_ROW_STEP = TAB_H - TAB_TUCK + CARD_H + 16
F13_TAB_Y = (TOP_Y, TOP_Y + F13_ROW_STEP, TOP_Y + 2 * F13_ROW_STEP)
"""Tops of the tabs of the two foundation rows (J..4 and 5..10) and of the stock row."""
F13_HEIGHT = F13_TAB_Y[2] + TAB_H - TAB_TUCK + CARD_H + 14


def _f13_slot_xy(index: int) -> tuple[int, int]:
    """Return the top-left of Friday 13 foundation ``index`` (0..12): seven on top, six centred below."""
    row, column = divmod(index, 7)
    return column_x(column) + row * (CARD_W + GAP) // 2, F13_TAB_Y[row] + TAB_H - TAB_TUCK


NEXT_SIZE = 20
"""The "next Q" badge on a Friday 13 foundation's top card: 10 px on a phone, like the header labels."""
NEXT_Y = CARD_H - 22
"""Centre of that badge: low on the card, below the corner index and the centre pip."""
NEXT_ROOM = CARD_W + GAP - 24
"""How wide the badge's words may be: the badge (20 px more) stays clear of the next card's badge."""
NOTE_SIZE = 26


def _draw_friday13(
    canvas: Image.Image, view: BoardView, selected: str | None, target: str | None, four_colour: bool
) -> None:
    """Draw the thirteen named foundations, the stock, the waste and the passes left.

    A foundation with cards shows the rank it takes next on its top card; the empty one that may be
    filled next shows its rank brightly, the locked ones dimly. (A finished game's table is drawn as
    it stood, so it shows them too.)
    """
    for i, foundation in enumerate(view.foundations):
        x, y = _f13_slot_xy(i)
        marked = foundation.label == target
        if marked:
            _mark_target(canvas, x, y)  # under the tab, so the mark never covers the foundation's name
        _pile_tab(canvas, foundation.label, x, y - TAB_H + TAB_TUCK, False, marked=marked)
        if foundation.top is None:
            slot(foundation.label, pal.FELT_TEXT if foundation.takes else pal.FELT_LINE).paste_on(canvas, x, y)
            continue
        card_face(foundation.top, four_colour).paste_on(canvas, x, y)
        if foundation.takes:
            # Translators: on a Friday 13 foundation's top card, the rank it takes next ("next Q"); very short.
            words = _("next {rank}", rank=foundation.takes)
            next_badge = badge(words, NEXT_SIZE, pal.HEADER_TEXT, pal.BADGE, room=NEXT_ROOM)
            _paste_centred(canvas, next_badge, x + CARD_W // 2, y + NEXT_Y)
    _draw_f13_hand(canvas, view, selected, four_colour)


def _draw_f13_hand(canvas: Image.Image, view: BoardView, selected: str | None, four_colour: bool) -> None:
    """Draw the stock and the waste top below the foundations, with the passes left beside them."""
    y = F13_TAB_Y[2] + TAB_H - TAB_TUCK
    # Translators: tabs in capitals above Friday 13's stock (cards not yet turned) and waste (cards turned over).
    for column, name, waste in ((1, _("STOCK"), False), (2, _("WASTE"), True)):
        _pile_tab(canvas, name, column_x(column), y - TAB_H + TAB_TUCK, selected == "w" and waste, 22)
    _draw_stock(canvas, view, column_x(1), y)
    waste_x = _draw_waste(canvas, view, column_x(2), y, four_colour)
    if selected == "w" and view.waste_fan:
        _highlight(canvas, (waste_x, y, waste_x + CARD_W, y + CARD_H))
    left = (view.max_passes or 1) - view.pass_number
    # Translators: beside Friday 13's stock: no more turning the waste over after this pass.
    note = _("last pass") if left <= 0 else n_("{count} redeal left", "{count} redeals left", left)
    # Translators: beside Friday 13's stock: how many cards lie in the waste.
    in_waste = n_("{count} in waste", "{count} in waste", view.waste_count)
    x = column_x(3) + 16
    for row, line in enumerate((note, in_waste)):
        write(canvas, (x, y + 30 + row * 44), line, Face.BOLD, NOTE_SIZE, pal.FELT_TEXT, pal.FELT, WIDTH - MARGIN - x)


# -- the legend of a marked move: what the gold and the red outlines mean ---------------
LEGEND_H = 52
"""Height of the legend strip below a picture with a marked move target."""
LEGEND = (
    # Translators: the legend of the gold outline on a picture of a move: where the card was taken from.
    (N_("moved from"), pal.GOLD, HIGHLIGHT_WIDTH),
    # Translators: the legend of the red outline on a picture of a move: where the card went.
    (N_("moved to"), TARGET_COLOUR, TARGET_WIDTH),
)
"""Each mark's words, colour and outline width, as the table draws them."""
SWATCH = (40, 28)
LEGEND_SIZE = 24
LEGEND_INK = (pal.FELT_TEXT, pal.FELT)


def _draw_legend(canvas: Image.Image, top: int) -> None:
    """Explain the marks in a strip below the table: a small outline in each colour, then its words."""
    x, middle = MARGIN + HIGHLIGHT_WIDTH, top + LEGEND_H // 2
    share = (WIDTH - MARGIN - x) // len(LEGEND)
    draw = ImageDraw.Draw(canvas)
    for words, colour, width in LEGEND:
        box = (x, middle - SWATCH[1] // 2, x + SWATCH[0], middle + SWATCH[1] // 2)
        draw.rounded_rectangle(box, RADIUS, outline=pal.index(colour), width=width)
        room = share - SWATCH[0] - 10 - 36
        label = write(canvas, (x + SWATCH[0] + 10, middle), _(words), Face.BOLD, LEGEND_SIZE, *LEGEND_INK, room, "lm")
        x += SWATCH[0] + 10 + label + 36


# -- the final picture: the table, and the result stacked below it -------------------
RESULT_TITLES = {
    # Translators: the title of a finished game's picture.
    Status.WON: (N_("You won!"), pal.WIN),
    # Translators: the title of the picture of a game the player ended.
    Status.ENDED: (N_("Game ended"), pal.PANEL_TEXT),
    # Translators: the title of the picture of a game with no move left to play.
    Status.STUCK: (N_("Stuck: no moves left"), pal.INK_RED),
    # Translators: the title of the picture of a game whose clock ran out.
    Status.EXPIRED: (N_("Time's up"), pal.INK_RED),
}
PANEL_TOP = 64
"""Panel space above the score lines (the outcome and the total)."""
PANEL_ROW = 36
PANEL_BOTTOM = 54
"""Panel space below the score lines (time and moves)."""
LINE_SIZE = 22
TITLE_GAP = 24
PANEL_INK = (pal.PANEL_TEXT, pal.PANEL)
"""The least room between the panel's title and its total."""
TOTAL_ROOM = 320
"""How wide the panel's total (``1234 points``) may be."""


def _points(value: int) -> str:
    """Write points with an explicit sign (a real minus sign for penalties)."""
    return f"+{number(value)}" if value >= 0 else f"\u2212{number(-value)}"


def _result_lines(view: BoardView) -> list[tuple[str, int]]:
    """Return the score lines the panel lists, in words."""
    # Translators: the only line of a finished game's score sheet when it scored nothing.
    return view.sheet.lines() or [(_("No points scored"), 0)]


def _result_height(view: BoardView) -> int:
    """Return the height the result panel adds below the table (score lines in two columns)."""
    rows = (len(_result_lines(view)) + 1) // 2
    return PANEL_TOP + rows * PANEL_ROW + PANEL_BOTTOM + 8


def _draw_result(canvas: Image.Image, view: BoardView, top: int) -> None:
    """Draw the result panel below the table: outcome and total, each score line, time and moves."""
    title, colour = RESULT_TITLES.get(view.status, RESULT_TITLES[Status.ENDED])
    lines = _result_lines(view)
    left, right, bottom = MARGIN, WIDTH - MARGIN - 1, canvas.size[1] - 10
    draw = ImageDraw.Draw(canvas)
    draw.rounded_rectangle((left, top, right, bottom), RADIUS + 6, fill=pal.index(pal.PANEL_EDGE))
    draw.rounded_rectangle((left + 3, top + 3, right - 3, bottom - 3), RADIUS + 4, fill=pal.index(pal.PANEL))
    # Translators: a finished game's total in big figures at the top right of its picture.
    total = n_("{count} point", "{count} points", view.score)
    total_width = write(canvas, (right - 24, top + 12), total, Face.BOLD, 36, pal.WIN, pal.PANEL, TOTAL_ROOM, "ra")
    title_room = right - 24 - total_width - TITLE_GAP - (left + 24)
    write(canvas, (left + 24, top + 12), _(title), Face.BOLD, 36, colour, pal.PANEL, title_room)
    half = (right - left) // 2
    for i, (label, points) in enumerate(lines):
        row, column = divmod(i, 2)
        x, y = left + 24 + column * half, top + PANEL_TOP + row * PANEL_ROW
        value = write(canvas, (x + half - 40, y), _points(points), Face.BOLD, LINE_SIZE, *PANEL_INK, half / 3, "ra")
        write(canvas, (x, y), label, Face.REGULAR, LINE_SIZE, *PANEL_INK, half - 40 - value - 12)
    if view.seconds_used is None:
        footer = n_("{count} move", "{count} moves", view.move_count)
    else:
        # Translators: the last line of a finished game's picture: the time it took (m:ss) and its moves.
        footer = n_(
            "time {time} \u00b7 {count} move",
            "time {time} \u00b7 {count} moves",
            view.move_count,
            time=_clock(view.seconds_used),
        )
    y = top + PANEL_TOP + ((len(lines) + 1) // 2) * PANEL_ROW + 6
    draw.line((left + 24, y, right - 24, y), fill=pal.index(pal.PANEL_EDGE), width=2)
    write(canvas, (left + 24, y + 10), footer, Face.REGULAR, LINE_SIZE, *PANEL_INK, right - 24 - (left + 24))


# -- the families' tables ----------------------------------------------------------
DrawTable = Callable[[Image.Image, BoardView, str | None, str | None, bool, int], None]


class _Layout(NamedTuple):
    """How one family's table is measured and drawn (canvas, view, selected, target, four colours, height)."""

    height: Callable[[BoardView], int]
    draw: DrawTable
    targets: Callable[[BoardView], frozenset[str]]
    """The move targets the table can mark (anything else draws no mark and no legend)."""


def _friday13_table(
    canvas: Image.Image, view: BoardView, selected: str | None, target: str | None, four_colour: bool, height: int
) -> None:
    _draw_friday13(canvas, view, selected, target, four_colour)


_KLONDIKE_TARGETS = frozenset((*PILES, *FOUNDATION_SOURCES, "f"))

_LAYOUTS: dict[Family, _Layout] = {
    Family.KLONDIKE: _Layout(_klondike_height, _draw_klondike, lambda view: _KLONDIKE_TARGETS),
    Family.FRIDAY13: _Layout(
        lambda view: F13_HEIGHT, _friday13_table, lambda view: frozenset(f.label for f in view.foundations)
    ),
}
"""Every family's table: the renderer's one registration point for a new family."""
