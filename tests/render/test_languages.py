"""Pictures in another language: every word said through the catalogue, fitted to its box, in glyphs DejaVu has.

The pseudo-language says every English sentence accented and 40 % longer (German is often 30-40 % longer), so
a word that escaped the catalogue shows as plain ASCII, and a box too small for a long translation shows as
text crossing it. Each picture kind is drawn in it while :func:`render.sprites.watching` notes every text
written, where its ink landed and the room it had.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from PIL import Image, ImageDraw

from languages import speaking_language
from languages.pseudo import ACCENTED, FILLER, PSEUDO
from render import fonts, sprites
from render.animate import animate
from render.board import draw_board, render_board
from render.fonts import Face, fit, font, smallest, text_width
from render.samples import STATES, sample_game, sample_stats_card
from render.sprites import Written, watching
from render.stats_card import draw_stats_card
from render.stats_data import DailyScore, RatingSeries, StatsCard, VariantRecord, describe_stats_card
from solitaire.view import view_of

VARIANTS = ("draw1", "draw3", "goldrush", "friday13")
NAMES = ("Ada the Unbeatable", "newcomer", "Wilhelmina Bartholomew-Featherstonehaugh")
"""Members' names on the cards: theirs, never translated."""
TAKES = {"draw1": "3", "draw3": "3", "goldrush": "f", "friday13": "J"}
"""A move target each family can mark (the analysis picture marks the losing move's source and target)."""


NAME_WORDS = {word for name in NAMES for word in re.findall(r"[A-Za-z]+", name)}


def escaped(text: str) -> list[str]:
    """The English words left in ``text`` (said outside the catalogue): runs of two ASCII letters or more that
    are not (the start of, when cut) a word of a member's name."""
    words = re.findall(r"[A-Za-z]{2,}", text)
    return [word for word in words if not any(name.startswith(word) for name in NAME_WORDS)]


def long_card() -> StatsCard:
    """A veteran's card with every figure as long as it gets, and a long name."""
    card = sample_stats_card("veteran")
    today = card.today
    scores = tuple(DailyScore(today - timedelta(days=n), "goldrush", 98_765 + n, True) for n in range(30, 0, -1))
    return dataclasses.replace(
        card,
        name=NAMES[2],
        scores=scores,
        streak=1234,
        best_streak=5678,
        variants=tuple(VariantRecord(v, 123_456, 98_765, 1_234_567) for v in VARIANTS),
        ratings=(RatingSeries("draw1", (12_345.6, 12_999.5)), RatingSeries("friday13", (9_876.5, 11_111.1))),
    )


def _boards() -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    """Every family's board in every state, and the analysis picture (a move marked), each viewed when drawn
    (a view says the variant's title in the language spoken when it is made)."""
    for variant in VARIANTS:
        for state in STATES:
            game = sample_game(variant, state)
            yield f"{variant}-{state}", lambda game=game: draw_board(view_of(game), time_left=12.0)
        mid = sample_game(variant, "mid")
        yield (
            f"{variant}-analysis",
            lambda mid=mid, v=variant: draw_board(view_of(mid), selected="w", target=TAKES[v]),
        )


def _cards() -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    for kind in ("new", "veteran"):
        yield f"card-{kind}", lambda kind=kind: draw_stats_card(sample_stats_card(kind))
    yield "card-long", lambda: draw_stats_card(long_card())
    one = StatsCard(name="newcomer", today=date(2026, 3, 12), scores=(DailyScore(date(2026, 3, 12), "draw3", 5, True),))
    yield "card-one-daily", lambda: draw_stats_card(one)


PICTURES = [*_boards(), *_cards()]


def _overlaps(a: sprites.Box, b: sprites.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_fits(image: Image.Image, seen: list[Written]) -> None:
    """Every text no wider than its room, its ink inside its box and the picture, touching no other text's ink."""
    assert seen, "no text was written"
    width, height = image.size
    for written in seen:
        assert written.width <= written.room, written
        if written.ink is None or written.box is None:
            continue
        left, top, right, bottom = written.ink
        assert written.box[0] - 1 <= left and right <= written.box[2] + 1, written
        assert left >= 0 and right <= width and top >= 0 and bottom <= height, written
    placed = [written for written in seen if written.ink is not None]
    for i, first in enumerate(placed):
        for second in placed[i + 1 :]:
            assert first.ink is not None and second.ink is not None
            assert not _overlaps(first.ink, second.ink), (first, second)


@pytest.mark.parametrize(("name", "draw"), PICTURES, ids=[name for name, _ in PICTURES])
def test_every_word_of_every_picture_fits_its_box_in_a_long_language(name: str, draw: Callable[[], Image.Image]):
    with speaking_language(PSEUDO), watching() as seen:
        image = draw()
    check_fits(image, seen)
    assert not escaped(" ".join(written.value for written in seen)), name
    assert any(FILLER in written.value or "…" in written.value for written in seen)  # it did speak pseudo


@pytest.mark.parametrize(("name", "draw"), PICTURES, ids=[name for name, _ in PICTURES])
def test_in_english_the_words_fit_too(name: str, draw: Callable[[], Image.Image]):
    with watching() as seen:
        image = draw()
    check_fits(image, seen)


def test_every_frame_of_a_replay_gif_says_its_words_in_the_language_spoken():
    game = sample_game("goldrush", "expired")
    with speaking_language(PSEUDO), watching() as seen:
        gif = animate(game.rules, game.deck, game.log, max_frames=4)
    assert gif.frames == 4 and Image.open(io.BytesIO(gif.data)).n_frames == 4
    assert all(written.width <= written.room for written in seen) and len(seen) > 4 * 8
    words = " ".join(written.value for written in seen)
    assert not escaped(words) and "Ţíɱé'š úþ" in words  # the last frame's result panel


@pytest.fixture
def every_text_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string Pillow draws from here on (the sprite caches emptied, so no word is drawn from a cache)."""
    drawn: list[str] = []
    plain = ImageDraw.ImageDraw.text

    def noted(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **options: Any) -> None:
        drawn.append(str(text))
        plain(self, xy, text, *args, **options)

    for cached in (sprites.text, sprites._tab, sprites._badge, sprites.slot):
        cached.cache_clear()
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", noted)
    return drawn


def test_no_word_drawn_anywhere_escaped_the_catalogue(every_text_drawn: list[str]):
    with speaking_language(PSEUDO):
        for _name, draw in PICTURES:
            draw()
    assert len(every_text_drawn) > 100
    assert not escaped(" ".join(every_text_drawn))


def test_the_stats_cards_description_is_said_in_the_language_spoken():
    with speaking_language(PSEUDO):
        words = describe_stats_card(long_card())
    assert not escaped(words) and "1.234.567" in words  # numbers the language's way too
    assert describe_stats_card(long_card()).count("1,234,567") == 4  # English as always


def test_a_png_board_in_a_long_language_stays_within_the_size_budget():
    with speaking_language(PSEUDO):
        for variant in VARIANTS:
            assert len(render_board(view_of(sample_game(variant, "mid")), time_left=99.0)) <= 40_000


# -- the fitting ---------------------------------------------------------------------------------------
def test_words_that_fit_are_measured_once_and_kept_at_their_size(monkeypatch: pytest.MonkeyPatch):
    fonts.text_width.cache_clear()
    fonts.fit.cache_clear()
    monkeypatch.setattr(fonts, "_shrunk", None)  # never asked for: the words fit
    assert fit("MOVES", Face.CONDENSED, 28, 200) == ("MOVES", 28, text_width("MOVES", Face.CONDENSED, 28))
    assert fonts.text_width.cache_info().misses == 1
    fit("MOVES", Face.CONDENSED, 28, 200)
    assert fonts.text_width.cache_info().misses == 1 and fonts.fit.cache_info().hits == 1  # kept for good


def test_words_too_wide_shrink_step_by_step_then_are_cut_at_the_floor():
    words = "Stuck: no moves left"
    full = text_width(words, Face.BOLD, 36)
    shrunk = fit(words, Face.BOLD, 36, full - 30)
    assert shrunk.value == words and smallest(36) <= shrunk.size < 36 and shrunk.width <= full - 30
    assert text_width(words, Face.BOLD, shrunk.size + 1) > full - 30  # the largest size that fits
    cut = fit(words, Face.BOLD, 36, full // 2)
    assert cut.size == smallest(36) and cut.value.endswith("…") and words.startswith(cut.value[:-1])
    assert cut.width <= full // 2 < text_width(cut.value[:-1] + words[len(cut.value) - 1] + "…", Face.BOLD, cut.size)
    assert fit(words, Face.BOLD, 36, 5).value == "…"
    assert fit(words, Face.BOLD, 36, full // 2, floor=36).size == 36  # a name is cut, never shrunk


# -- the glyphs ----------------------------------------------------------------------------------------
PSEUDO_LETTERS = "".join(sorted(set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".translate(ACCENTED))))
LANGUAGE_LETTERS = "äöüÄÖÜßéèêëàâçœîïôùûÿÉÈÀÇñÑáíóúÁÍÓÚ¿¡ãõÃÕâêôÂÊÔºª«»"
SIGNS = FILLER + "…·−↻%:+"


def _missing(face: Face, char: str) -> bool:
    """Whether DejaVu draws ``char`` as its missing-glyph box (the same ink as U+FFFF, which it has no glyph for)."""
    typeface = font(face, 24)
    drawn, tofu = typeface.getmask(char), typeface.getmask("\uffff")
    return drawn.size == tofu.size and bytes(drawn) == bytes(tofu)


@pytest.mark.parametrize("face", list(Face))
def test_dejavu_has_every_letter_the_languages_and_the_pseudo_language_use(face: Face):
    assert _missing(face, "\u4e00")  # the check sees a missing glyph
    assert [char for char in PSEUDO_LETTERS + LANGUAGE_LETTERS + SIGNS if _missing(face, char)] == []
