"""The stats card: a new member and a veteran, legible on a phone, on the board's palette, described in words."""

from __future__ import annotations

import dataclasses
import doctest
import io
from datetime import date, timedelta

import pytest
from PIL import Image

import render.stats_card
import render.stats_data
from render import palette
from render.fonts import Face, font
from render.layout import WIDTH, on_phone
from render.samples import CARDS, sample_stats_card
from render.stats_card import GRID, LINE, SERIES, SMALL_SIZE, card_height, render_stats_card
from render.stats_data import WEEKS, DailyScore, RatingSeries, StatsCard, describe_stats_card


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_doctests_pass() -> None:
    assert doctest.testmod(render.stats_card).failed == 0
    assert doctest.testmod(render.stats_data).failed == 0


@pytest.mark.parametrize("kind", CARDS)
def test_each_card_is_an_800_px_palette_png_as_tall_as_its_sections(kind):
    card = sample_stats_card(kind)
    image = _image(render_stats_card(card))
    assert image.format == "PNG" and image.mode == "P"
    assert image.size == (WIDTH, card_height(card))
    assert render_stats_card(card) == render_stats_card(card)  # the same card, the same bytes


def test_a_racer_gets_the_rating_chart_and_a_new_member_gets_no_empty_one():
    veteran, newcomer = sample_stats_card("veteran"), sample_stats_card("new")
    assert card_height(veteran) - card_height(dataclasses.replace(veteran, ratings=())) > 200
    assert card_height(newcomer) < card_height(veteran)


def test_every_colour_the_card_names_is_in_the_shared_palette():
    colours = palette.palette_colours()
    for colour in (GRID, LINE, *SERIES):
        assert colour in colours


def test_the_smallest_text_is_legible_on_a_phone():
    top = font(Face.REGULAR, SMALL_SIZE).getbbox("0123456789", anchor="ls")[1]
    assert on_phone(-top) >= 8.5  # digits' ink on a 400 px wide phone (the board's header labels: 10 px capitals)
    assert on_phone(SMALL_SIZE) >= 12


def test_the_calendar_shows_twelve_weeks_ending_with_todays_week():
    card = StatsCard(name="x", today=date(2026, 3, 12))  # a Thursday
    assert card.first_day == date(2025, 12, 22) and card.first_day.weekday() == 0
    assert card.days_shown == 7 * (WEEKS - 1) + 4


def test_days_played_count_only_the_calendars_days():
    today = date(2026, 3, 12)
    card = StatsCard(name="x", today=today, played=frozenset({today, today - timedelta(days=200)}))
    assert card.days_played == 1


def test_a_long_or_strange_name_is_cut_to_fit_on_one_line():
    card = StatsCard(name="a\nvery   long name " * 6, today=date(2026, 3, 12))
    assert describe_stats_card(card).startswith("Stats card of a very long name a very…. ")
    render_stats_card(card)  # draws without error


def test_the_alt_text_says_what_the_card_shows():
    words = describe_stats_card(sample_stats_card("veteran"))
    assert words.startswith("Stats card of Ada the Unbeatable. Daily streak 9 days (best 17 days); dailies played on ")
    assert "Last 30 daily scores from " in words and "Rush draw 3: 61 games, 38% won, best " in words
    assert "Rush draw 3 race rating " in words and len(words) < 1024
    assert describe_stats_card(sample_stats_card("new")) == (
        "Stats card of newcomer. Daily streak 0 days (best 0 days); dailies played on 0 of the last 81 days. "
        "No daily finished yet."
    )


def test_one_daily_and_one_race_draw_single_points():
    today = date(2026, 3, 12)
    card = StatsCard(
        name="once",
        today=today,
        scores=(DailyScore(today, "goldrush", 0, False),),
        played=frozenset({today}),
        ratings=(RatingSeries("draw3", (1000.0, 1012.0)),),
    )
    assert _image(render_stats_card(card)).size == (WIDTH, card_height(card))
