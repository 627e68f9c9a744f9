"""The stats card's picture: daily scores, the calendar of dailies played, each game's record, race ratings.

:func:`render_stats_card` is a pure function of a :class:`~render.stats_data.StatsCard` (what the card
shows, as data). The card is 800 px wide like a board and sized for phones (about 400 px wide there):
no text under 24 px, so nothing is smaller than 12 px on a phone. It is drawn on the board's palette,
its words pasted from the renderer's cached text sprites.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from PIL import Image, ImageDraw

from languages import formats
from render import palette as pal
from render.fonts import Face, fit, smallest, text_width
from render.layout import HEADER_H, MARGIN, WIDTH
from render.sprites import LOCK, write
from render.stats_data import RACE_POINTS, WEEKS, StatsCard, clean_name, day_label, percent, short_title
from solitaire.speech import N_, _, n_
from solitaire.variants import VARIANTS

TITLE_SIZE = 30
SECTION_SIZE = 28
TEXT_SIZE = 26
SMALL_SIZE = 24
"""The smallest text on the card: 12 px on a phone (digits about 9 px tall)."""
FIGURE_SIZE = 64

PANEL_RADIUS = 14
PAD = 16
SECTION_GAP = 18
SECTION_TITLE_H = 40
CHART_H = 190
CELL = 32
CELL_GAP = 6
ROW_H = 46
BAR_W = 150
BAR_H = 18

GRID: pal.RGB = (213, 215, 211)
"""Chart grid lines, days not played and the empty part of a bar (a colour of the shared palette)."""
LINE: pal.RGB = (86, 106, 94)
"""The line joining the daily scores (a colour of the shared palette)."""
SERIES: tuple[pal.RGB, ...] = (pal.PANEL_EDGE, pal.INK_BLUE, pal.INK_RED, pal.WIN, pal.BACK_LIGHT)
"""Each variant's colour, in the order of :data:`solitaire.variants.VARIANTS` (dark enough on the panel)."""
COMPRESS_LEVEL = 3
"""zlib level of the card's PNG (``benchmarks/bench_stats_card.py`` times it)."""


def series_colour(variant: str) -> pal.RGB:
    """The colour of ``variant``'s dots, lines and legend."""
    names = list(VARIANTS)
    return SERIES[(names.index(variant) if variant in names else len(names)) % len(SERIES)]


def render_stats_card(card: StatsCard) -> bytes:
    """Draw ``card`` as a PNG on the board's palette; safe in several threads (drawing holds the renderer's lock)."""
    with LOCK:
        image = draw_stats_card(card)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=COMPRESS_LEVEL)
    return buffer.getvalue()


def card_height(card: StatsCard) -> int:
    """The card's height: the header, then each section (the rating chart only for racers)."""
    sections = [_chart_panel_h(), _calendar_panel_h(), _table_panel_h(card)]
    if card.ratings:
        sections.append(_chart_panel_h())
    return HEADER_H + sum(SECTION_GAP + SECTION_TITLE_H + h for h in sections) + SECTION_GAP


def draw_stats_card(card: StatsCard) -> Image.Image:
    """Compose ``card`` into a palette image (see :func:`render_stats_card`)."""
    pen = _Pen(card_height(card))
    _header(pen, card)
    y = HEADER_H
    y = _section(pen, y, _scores_title(len(card.shown_scores)), _chart_panel_h())
    _score_chart(pen, y - _chart_panel_h(), card)
    # Translators: a section title of the stats card, above a calendar of the days a daily was played.
    played = n_("Dailies played · last {count} week", "Dailies played · last {count} weeks", WEEKS)
    y = _section(pen, y, played, _calendar_panel_h())
    _calendar(pen, y - _calendar_panel_h(), card)
    # Translators: a section title of the stats card, above a table with a row per game (variant) played.
    y = _section(pen, y, _("Each game"), _table_panel_h(card))
    _table(pen, y - _table_panel_h(card), card)
    if card.ratings:
        # Translators: a section title of the stats card, above a chart of the member's race rating.
        y = _section(pen, y, _("Race rating"), _chart_panel_h())
        _rating_chart(pen, y - _chart_panel_h(), card)
    return pen.canvas


def _scores_title(count: int) -> str:
    """The title of the daily scores chart.

    >>> _scores_title(0), _scores_title(1), _scores_title(30)
    ('Daily scores', 'Daily scores · the last daily', 'Daily scores · last 30 dailies')
    """
    if count == 0:
        # Translators: a section title of the stats card, above a chart of the member's daily scores.
        return _("Daily scores")
    # Translators: a section title of the stats card, above a chart of the member's last daily scores.
    return n_("Daily scores · the last daily", "Daily scores · last {count} dailies", count)


# -- drawing on the palette -------------------------------------------------------------------------------
Box = tuple[float, float, float, float]


class _Pen:
    """A palette canvas on the felt: shapes in theme colours, text pasted from the renderer's cached sprites."""

    def __init__(self, height: int) -> None:
        self.canvas = Image.new("P", (WIDTH, height), pal.index(pal.FELT))
        self.canvas.putpalette(pal.palette_image().getpalette() or [])
        self.draw = ImageDraw.Draw(self.canvas)

    def text(
        self,
        xy: tuple[float, float],
        value: str,
        size: int,
        fg: pal.RGB,
        room: float,
        bg: pal.RGB = pal.PANEL,
        face: Face = Face.REGULAR,
        anchor: str = "la",
        floor: int | None = None,
    ) -> int:
        """Write ``value`` on ``bg`` at ``xy``, fitted to ``room`` px (:func:`render.sprites.write`); return its width.

        ``anchor``: l/m/r across, then a (top)/m (middle)/s (baseline).
        """
        return write(self.canvas, xy, value, face, size, fg, bg, room, anchor, floor)

    def box(self, box: Box, colour: pal.RGB, radius: int = 0, outline: int = 0) -> None:
        """A (rounded) rectangle filled with ``colour``, or only outlined ``outline`` px wide."""
        index = pal.index(colour)
        if outline:
            self.draw.rounded_rectangle(box, radius, outline=index, width=outline)
        elif radius:
            self.draw.rounded_rectangle(box, radius, fill=index)
        else:
            self.draw.rectangle(box, fill=index)

    def dot(self, x: float, y: float, colour: pal.RGB, radius: int = 7) -> None:
        """A round dot centred on (x, y)."""
        self.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=pal.index(colour))

    def line(self, points: Sequence[tuple[float, float]], colour: pal.RGB, width: int) -> None:
        """A line through ``points`` with rounded joints."""
        self.draw.line(list(points), fill=pal.index(colour), width=width, joint="curve")


HEADER_LABEL_SIZE = 24
HEADER_VALUE_SIZE = 28
NAME_ROOM = 200
"""The room the member's name keeps however long the header's figures are in the language spoken."""


def _header(pen: _Pen, card: StatsCard) -> None:
    """The header bar: the member's name, then the streak figures right-aligned (each label above its value)."""
    pen.box((0, 0, WIDTH - 1, HEADER_H - 1), pal.HEADER)
    items = [
        # Translators: a label in capitals on the stats card, above the member's current daily streak ("9 days").
        (_("STREAK"), n_("{count} day", "{count} days", card.streak), pal.GOLD),
        # Translators: a label in capitals on the stats card, above the member's best daily streak ("17 days").
        (_("BEST"), n_("{count} day", "{count} days", card.best_streak), pal.HEADER_TEXT),
        # Translators: a label in capitals on the stats card, above how many games the member finished.
        (_("GAMES"), formats.number(sum(v.games for v in card.variants)), pal.HEADER_TEXT),
    ]
    room = (WIDTH - 2 * MARGIN - NAME_ROOM) // len(items) - 22
    x = WIDTH - MARGIN
    for label, value, colour in reversed(items):
        value_width = fit(value, Face.BOLD, HEADER_VALUE_SIZE, room).width
        width = max(fit(label, Face.CONDENSED, HEADER_LABEL_SIZE, max(value_width, room)).width, value_width)
        pen.text((x, 4), label, HEADER_LABEL_SIZE, pal.HEADER_DIM, width, pal.HEADER, Face.CONDENSED, "ra")
        pen.text((x, 34), value, HEADER_VALUE_SIZE, colour, width, pal.HEADER, Face.BOLD, "ra")
        x -= width + 22
    name, room = clean_name(card.name), x - 2 * MARGIN
    pen.text((MARGIN, HEADER_H // 2), name, TITLE_SIZE, pal.HEADER_TEXT, room, pal.HEADER, Face.BOLD, "lm", TITLE_SIZE)


def _section(pen: _Pen, top: int, title: str, panel_h: int) -> int:
    """Write a section's title on the felt and draw its panel below; return the panel's bottom."""
    y = top + SECTION_GAP
    room = WIDTH - 2 * MARGIN - 8
    pen.text(
        (MARGIN + 4, y + SECTION_TITLE_H // 2 - 4), title, SECTION_SIZE, pal.FELT_TEXT, room, pal.FELT, Face.BOLD, "lm"
    )
    y += SECTION_TITLE_H
    pen.box((MARGIN, y, WIDTH - MARGIN - 1, y + panel_h - 1), pal.PANEL, PANEL_RADIUS)
    return y + panel_h


LEGEND_MARK = 16 + 26
"""The room of a legend entry's dot and gaps."""


def _legend(pen: _Pen, left: float, right: int, y: int, entries: Sequence[tuple[str, str]]) -> None:
    """A dot, the short name and a figure (if any) of each variant, right-aligned at ``right`` on the line at ``y``
    (all narrowed alike if together they reach past ``left``)."""
    x = right
    lines = [f"{short_title(variant)} {figure}".strip() for variant, figure in entries]
    widths = [fit(words, Face.REGULAR, SMALL_SIZE, math.inf).width for words in lines]
    share = min(1.0, (right - left - LEGEND_MARK * len(lines)) / max(sum(widths), 1))
    for (variant, _figure), words, width in reversed(list(zip(entries, lines, widths, strict=True))):
        x -= pen.text((x, y), words, SMALL_SIZE, pal.PANEL_TEXT, width * share, anchor="rm") + 16
        pen.dot(x, y, series_colour(variant))
        x -= 26


# -- charts -----------------------------------------------------------------------------------------------
def _chart_panel_h() -> int:
    return CHART_H + 2 * PAD


@dataclass(frozen=True)
class _Plot:
    """A chart's drawing area and its value range."""

    left: int
    top: int
    right: int
    bottom: int
    low: float
    high: float

    def x(self, i: int, count: int) -> float:
        """The x of point ``i`` of ``count`` (one point sits in the middle)."""
        if count <= 1:
            return (self.left + self.right) / 2
        return self.left + (self.right - self.left) * i / (count - 1)

    def y(self, value: float) -> float:
        """The y of ``value``."""
        span = self.high - self.low or 1.0
        return self.bottom - (self.bottom - self.top) * (value - self.low) / span


def _nice_range(values: Sequence[float], *, from_zero: bool) -> tuple[int, int]:
    """A low and high bound round enough to label around ``values``, an even number of round steps apart.

    (So the middle grid line is round too.)

    >>> _nice_range([120, 1540], from_zero=True), _nice_range([990, 1043], from_zero=False)
    ((0, 2000), (980, 1060))
    >>> _nice_range([0, 0], from_zero=True), _nice_range([1000], from_zero=False), _nice_range([3, 17], from_zero=True)
    ((0, 2), (1000, 1002), (0, 20))
    """
    low, high = min(values), max(values)
    if from_zero:
        low, high = min(low, 0), max(high, 0)
    span = max(high - low, 1)
    magnitude = 10 ** (len(str(int(span))) - 1)
    step = next(m * magnitude for m in (1, 2, 5, 10) if span / (m * magnitude) <= 4)
    bottom, top = math.floor(low / step) * step, math.ceil(high / step) * step
    if top == bottom:
        top += 2 * step
    elif (top - bottom) // step % 2:
        top += step
    return int(bottom), int(top)


def _plot_frame(pen: _Pen, top: int, low: float, high: float, labels: tuple[str, str]) -> _Plot:
    """Draw a chart's grid (three lines with their values) and its two x labels; return its plot area."""
    panel_top = top + PAD
    plot = _Plot(MARGIN + 88, panel_top + 36, WIDTH - MARGIN - 28, panel_top + CHART_H - 34, low, high)
    for value in (low, (low + high) / 2, high):
        y = plot.y(value)
        pen.line(((plot.left - 8, y), (plot.right + 8, y)), GRID, 2)
        figure = formats.number(round(value))
        pen.text((plot.left - 16, y), figure, SMALL_SIZE, pal.PANEL_TEXT, plot.left - 16, anchor="rm")
    room = (plot.right - plot.left) / 2 - 10
    pen.text((plot.left, plot.bottom + 12), labels[0], SMALL_SIZE, pal.PANEL_TEXT, room)
    pen.text((plot.right, plot.bottom + 12), labels[1], SMALL_SIZE, pal.PANEL_TEXT, room, anchor="ra")
    return plot


def _empty_note(pen: _Pen, top: int, height: int, note: str) -> None:
    """Write ``note`` in the middle of an empty panel."""
    pen.text((WIDTH // 2, top + height // 2), note, TEXT_SIZE, pal.PANEL_TEXT, WIDTH - 2 * (MARGIN + PAD), anchor="mm")


def _score_chart(pen: _Pen, top: int, card: StatsCard) -> None:
    """The member's last daily scores as one line, each point a dot in its variant's colour."""
    shown = card.shown_scores
    if not shown:
        # Translators: in the stats card's empty chart of daily scores; keep /solitaire daily as it is.
        _empty_note(pen, top, _chart_panel_h(), _("No daily finished yet: play one with /solitaire daily"))
        return
    low, high = _nice_range([s.score for s in shown], from_zero=True)
    labels = (day_label(shown[0].day, card.today), day_label(shown[-1].day, card.today))
    plot = _plot_frame(pen, top, low, high, labels)
    points = [(plot.x(i, len(shown)), plot.y(s.score)) for i, s in enumerate(shown)]
    if len(points) > 1:
        pen.line(points, LINE, 3)
    for (x, y), score in zip(points, shown, strict=True):
        pen.dot(x, y, pal.PANEL, 9)
        pen.dot(x, y, series_colour(score.variant))
    entries = [(v, "") for v in _variants_in(s.variant for s in shown)]
    _legend(pen, MARGIN + PAD, WIDTH - MARGIN - PAD, top + PAD + 12, entries)


def _variants_in(names: Iterable[str]) -> list[str]:
    """The distinct variants among ``names``, in registry order."""
    seen = set(names)
    return [name for name in VARIANTS if name in seen] + sorted(seen - set(VARIANTS))


def _rating_chart(pen: _Pen, top: int, card: StatsCard) -> None:
    """Each variant's rating over the member's last rated races, a line each; the legend gives the rating now."""
    series = [(s.variant, s.ratings[-(RACE_POINTS + 1) :]) for s in card.ratings if s.ratings]
    low, high = _nice_range([value for _, shown in series for value in shown], from_zero=False)
    longest = max(len(shown) for _, shown in series)
    # Translators: under the stats card's rating chart: its left end (before the races shown) and its right end.
    ends = (_("before"), n_("{count} race later", "{count} races later", longest - 1))
    plot = _plot_frame(pen, top, low, high, ends)
    for variant, shown in series:
        offset = longest - len(shown)  # the last races line up on the right
        points = [(plot.x(offset + i, longest), plot.y(value)) for i, value in enumerate(shown)]
        if len(points) > 1:
            pen.line(points, series_colour(variant), 4)
        pen.dot(*points[-1], series_colour(variant))
    entries = [(variant, formats.number(round(shown[-1]))) for variant, shown in series]
    _legend(pen, MARGIN + PAD, WIDTH - MARGIN - PAD, top + PAD + 12, entries)


# -- the calendar -------------------------------------------------------------------------------------------
def _calendar_panel_h() -> int:
    return 7 * (CELL + CELL_GAP) - CELL_GAP + 2 * PAD


WEEKDAYS = (
    # Translators: Monday, abbreviated, beside a row of the stats card's calendar (3 letters or fewer if you can).
    N_("Mon"),
    "",
    # Translators: Wednesday, abbreviated, beside a row of the stats card's calendar.
    N_("Wed"),
    "",
    # Translators: Friday, abbreviated, beside a row of the stats card's calendar.
    N_("Fri"),
    "",
    # Translators: Sunday, abbreviated, beside a row of the stats card's calendar.
    N_("Sun"),
)


def _calendar(pen: _Pen, top: int, card: StatsCard) -> None:
    """A square per day of the last weeks (a column per week): green if played, gold if won, today outlined."""
    left = MARGIN + PAD + 56
    for row, name in enumerate(WEEKDAYS):
        if name:
            pen.text(
                (left - 12, top + PAD + row * (CELL + CELL_GAP) + CELL // 2),
                _(name),
                SMALL_SIZE,
                pal.PANEL_TEXT,
                left - 12 - MARGIN - 2,
                anchor="rm",
            )
    for offset in range(card.days_shown):
        day = card.first_day + timedelta(days=offset)
        column, row = divmod(offset, 7)
        x, y = left + column * (CELL + CELL_GAP), top + PAD + row * (CELL + CELL_GAP)
        fill = pal.GOLD if day in card.won else pal.FELT if day in card.played else GRID
        pen.box((x, y, x + CELL - 1, y + CELL - 1), fill, 5)
        if day == card.today:
            pen.box((x - 3, y - 3, x + CELL + 2, y + CELL + 2), pal.PANEL_TEXT, 7, outline=3)
    _calendar_figures(pen, left + WEEKS * (CELL + CELL_GAP) + 18, top + PAD, card)


def _calendar_figures(pen: _Pen, x: int, y: int, card: StatsCard) -> None:
    """Beside the calendar: the current streak in big figures, the best one, the days played, the key."""
    baseline, room = y + 52, WIDTH - MARGIN - 4 - x
    # Translators: beside the big figure of the member's current daily streak on the stats card ("9 day streak").
    words = n_("day streak", "day streak", card.streak)
    figure_room = max(room - text_width(words, Face.REGULAR, smallest(TEXT_SIZE)) - 8, room / 3)
    streak = formats.number(card.streak)
    width = pen.text((x, baseline), streak, FIGURE_SIZE, pal.WIN, figure_room, face=Face.BOLD, anchor="ls")
    pen.text((x + width + 8, baseline), words, TEXT_SIZE, pal.WIN, room - width - 8, anchor="ls")
    # Translators: on the stats card, under the current daily streak: the member's best one.
    best = n_("best {count} day", "best {count} days", card.best_streak)
    pen.text((x, y + 70), best, SMALL_SIZE, pal.PANEL_TEXT, room)
    # Translators: on the stats card: on how many of the calendar's days the member finished a daily.
    played = n_("on {played} of {count} day", "on {played} of {count} days", card.days_shown, played=card.days_played)
    pen.text((x, y + 104), played, SMALL_SIZE, pal.PANEL_TEXT, room)
    key = (
        # Translators: the key of the stats card's calendar: the colour of the days a daily was played.
        (_("played"), pal.FELT),
        # Translators: the key of the stats card's calendar: the colour of the days a daily was won.
        (_("won"), pal.GOLD),
    )
    for row, (words, fill) in enumerate(key):
        key_y = y + 170 + row * 36
        pen.box((x, key_y, x + 24, key_y + 24), fill, 5)
        pen.text((x + 34, key_y + 12), words, SMALL_SIZE, pal.PANEL_TEXT, room - 34, anchor="lm")


# -- each game's record -----------------------------------------------------------------------------------
def _table_panel_h(card: StatsCard) -> int:
    return max(len(card.variants), 1) * ROW_H + 2 * PAD - 6


COLUMNS = (
    (TEXT_SIZE, Face.BOLD, 260),
    (SMALL_SIZE, Face.REGULAR, 200),
    (SMALL_SIZE, Face.REGULAR, 200),
    (SMALL_SIZE, Face.REGULAR, 200),
)
"""The table's word columns (name, games, win rate, best score): each one's size, face and widest room."""
BAR_MIN = 40
"""The narrowest win-rate bar: long words narrow their columns (alike) rather than the bar below this."""
TABLE_GAPS = 24 + 20 + 20 + 10 + 20
"""The table's room that is not words: the dot, and the gaps between the columns."""


def _columns(rows: Sequence[tuple[str, str, str, str]]) -> list[float]:
    """The width of each word column (name, games, rate, best): its widest words, all narrowed alike when they
    leave the bar less than :data:`BAR_MIN`."""
    widths = [max(fit(row[i], face, size, room).width for row in rows) for i, (size, face, room) in enumerate(COLUMNS)]
    room = WIDTH - 2 * (MARGIN + PAD) - TABLE_GAPS - BAR_MIN
    total = sum(widths)
    return [float(width) for width in widths] if total <= room else [width * room / total for width in widths]


def _table(pen: _Pen, top: int, card: StatsCard) -> None:
    """A row per variant played: its name, games, a bar of the win rate, the best score (columns fit the words)."""
    if not card.variants:
        # Translators: in the stats card's empty table of games.
        _empty_note(pen, top, _table_panel_h(card), _("No finished game yet"))
        return
    records = card.variants
    rows = [
        (
            short_title(r.variant),
            n_("{count} game", "{count} games", r.games),
            # Translators: a row of the stats card's table: the share of the games won ("38% won").
            _("{percent}% won", percent=percent(r.win_rate)),
            # Translators: a row of the stats card's table: the best score in the game.
            _("best {score}", score=formats.number(r.best)),
        )
        for r in records
    ]
    names, games_room, rates, bests = _columns(rows)
    left = MARGIN + PAD
    names_end = left + 24 + names
    games_end = names_end + 20 + games_room
    bests_start = WIDTH - MARGIN - PAD - bests
    bar = games_end + 20
    bar_width = min(BAR_W, bests_start - 20 - rates - 10 - bar)
    for n, (record, (name, games, rate, best)) in enumerate(zip(records, rows, strict=True)):
        middle = top + PAD + n * ROW_H + (ROW_H - 6) // 2
        pen.dot(left + 7, middle, series_colour(record.variant))
        pen.text((left + 24, middle), name, TEXT_SIZE, pal.PANEL_TEXT, names, face=Face.BOLD, anchor="lm")
        pen.text((games_end, middle), games, SMALL_SIZE, pal.PANEL_TEXT, games_room, anchor="rm")
        box = (bar, middle - BAR_H // 2, bar + bar_width, middle + BAR_H // 2)
        pen.box(box, GRID, 6)
        if filled := round(bar_width * record.win_rate):
            pen.box((bar, box[1], bar + max(filled, 12), box[3]), pal.WIN, 6)
        pen.text((bar + bar_width + 10, middle), rate, SMALL_SIZE, pal.PANEL_TEXT, rates, anchor="lm")
        pen.text((WIDTH - MARGIN - PAD, middle), best, SMALL_SIZE, pal.PANEL_TEXT, bests, anchor="rm")
