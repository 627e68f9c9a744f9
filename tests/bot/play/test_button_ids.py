"""Every custom-id format the bot's buttons are written in: one value each, ids of live messages unchanged."""

from __future__ import annotations

import re

import pytest

from bot.errors import BotError
from bot.play.clicks import (
    FORMATS,
    AfterGameClick,
    BoardClick,
    ChallengeClick,
    ConfirmClick,
    LaunchClick,
    OfferClick,
    Origin,
    Owner,
    RaceClick,
)

LIVE_IDS = [
    ("sol:12:3:-:draw", BoardClick(12, 3, None, "draw")),
    ("sol:12:3:7:f", BoardClick(12, 3, "7", "f")),
    ("sol:1:0:fh:2", BoardClick(1, 0, "fh", "2")),
    ("sol:1:0:-:t10", BoardClick(1, 0, None, "t10")),
    ("solr:5:resume", OfferClick(5, "resume")),
    ("solr:5:end", OfferClick(5, "end")),
    ("solag:7:analyze", AfterGameClick(7, "analyze")),
    ("solag:7:replay", AfterGameClick(7, "replay")),
    ("solag:7:hint:12", AfterGameClick(7, "hint", 12)),
    *[(f"race:12:{action}", RaceClick(12, action)) for action in ("join", "leave", "quit", "start", "cancel", "board")],
    *[(f"chal:3:{action}", ChallengeClick(3, action)) for action in ("accept", "decline", "play")],
    ("solc:0123456789abcdef:yes", ConfirmClick("0123456789abcdef", "yes")),
    ("solc:0123456789abcdef:no", ConfirmClick("0123456789abcdef", "no")),
    ("solact:play", LaunchClick()),
]
"""An id of every kind of button on live messages, as the code before the one button factory wrote it."""


@pytest.mark.parametrize(("custom_id", "click"), LIVE_IDS)
def test_every_live_id_is_routed_by_one_format_and_parses_and_rebuilds_byte_identically(custom_id, click):
    routed = [form for form in FORMATS if re.fullmatch(form.route, custom_id)]
    assert len(routed) == 1 and routed[0].prefix == custom_id.split(":")[0]
    assert routed[0].parse(custom_id) == click
    assert click.custom_id == custom_id


def test_every_format_has_a_live_id_and_a_malformed_one_reaches_its_handler_as_none():
    assert {form.prefix for form in FORMATS} == {custom_id.split(":")[0] for custom_id, _ in LIVE_IDS}
    for form in FORMATS:
        junk = f"{form.prefix}:{'9' * 40}:fly"
        assert form.parse(junk) is None
        assert bool(re.fullmatch(form.route, junk)) == form.catch_all  # a stale confirmation id only if valid


@pytest.mark.parametrize(
    ("click", "origin", "owner", "refusal"),
    [
        (BoardClick(1, 0, None, "draw"), Origin(7, 5, 9, carries=True), Owner(7, 5, 9), None),
        (BoardClick(1, 0, None, "draw"), Origin(8, 5, 9, carries=True), Owner(7, 5, 9), "<@7>'s game"),
        (BoardClick(1, 0, None, "draw"), Origin(7, 6, 9, carries=True), Owner(7, 5, 9), "does not belong"),
        (BoardClick(1, 0, None, "draw"), Origin(7, 5, 9), Owner(7, 5, 9), "does not belong"),
        (BoardClick(1, 0, None, "draw"), Origin(7, 5, 8, carries=True), Owner(7, 5, 9), "out of date"),
        (OfferClick(1, "end"), Origin(7, 5, 3, carries=True, ephemeral=True), Owner(7, 5, 9), None),
        (OfferClick(1, "end"), Origin(7, 5, 3, carries=True), Owner(7, 5, 9), "does not belong"),
        (AfterGameClick(1, "replay"), Origin(8, 5), Owner(7), "<@7>'s game"),
        (RaceClick(1, "join"), Origin(7, 5, 3), Owner(message_id=4), "not one I understand"),
        (RaceClick(1, "join"), Origin(7, 5, 4), Owner(message_id=4), None),
        (RaceClick(1, "quit"), Origin(7, 5, 3), Owner(), "not one I understand"),
        (RaceClick(1, "quit"), Origin(7, 5, 3, ephemeral=True), Owner(), None),
        (RaceClick(1, "board"), Origin(7, 5, 3), Owner(), None),
        (ChallengeClick(1, "play"), Origin(7, 5), Owner(message_id=4), "not one I understand"),
        (ChallengeClick(1, "play"), Origin(7, 5, 4), Owner(message_id=4), None),
    ],
)
def test_each_format_checks_whose_press_it_is(click, origin, owner, refusal):
    if refusal is None:
        click.check(origin, owner)
    else:
        with pytest.raises(BotError, match=refusal):
            click.check(origin, owner)
