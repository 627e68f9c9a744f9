"""Every text the cogs compose, said in the pseudo-language: no English word is left in any (a sentence that
escaped ``_``), whatever its case; the game's titles (said by the games' definitions) are names here."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date

import discord
import pytest

from bot.compete.challenges import ChallengeSnapshot, Line
from bot.compete.race import RaceResult, RaceSnapshot, Standing
from bot.compete.words import variant_title
from bot.rules.calendar import Period
from bot.storage.challenges import ChallengeRecord
from bot.storage.competition import GuildConfig
from bot.storage.moderation import LogEntry
from bot.storage.privacy import Forgotten, StillInPlayError
from bot.storage.races import RaceRecord, RatingRecord
from cogs import challenge_commands, competition_commands, moderation_commands, race_commands, settings_commands
from cogs.board import ending_word
from languages import ENGLISH, find, speaking_language
from languages.pseudo import PSEUDO
from solitaire import Status
from solitaire.words import number
from tests.support.pseudo_words import english_words

NAMES = (variant_title("draw3"), "English", "Deutsch", "used a solver", "the deal was replayed")
"""What the texts below quote as given: a game's title, a language's own name, a moderator's reason."""


@pytest.fixture(autouse=True)
def pseudo() -> Iterator[None]:
    """Every test here speaks the pseudo-language."""
    with speaking_language(PSEUDO):
        yield


def said(*texts: str | None) -> None:
    """Assert every text is said in the pseudo-language (no English word left but the names)."""
    for text in texts:
        assert text, "nothing said"
        assert not english_words(text, names=NAMES), text


def embed_said(embed: discord.Embed) -> None:
    said(embed.title, embed.description)
    if embed.footer.text:
        said(embed.footer.text)


def labels_said(view: discord.ui.View | None) -> None:
    assert view is not None
    said(*(getattr(getattr(item, "item", item), "label", None) for item in view.children))


RACE = RaceRecord(
    id=1,
    guild_id=10,
    channel_id=11,
    message_id=12,
    host_id=100,
    variant="draw3",
    capacity=4,
    status="lobby",
    created_at=0.0,
    lobby_deadline=600.0,
    start_at=None,
    end_at=None,
    deal_number=None,
    finished_at=None,
    results_posted_at=None,
)


def test_a_race_message_in_each_of_its_states():
    lobby = race_commands.race_message(RaceSnapshot(RACE, (100, 101)), now=0.0)
    embed_said(lobby["embed"])
    labels_said(lobby["view"])
    running = replace(RACE, status="running", start_at=100.0, end_at=400.0)
    standings = (
        Standing(100, "waiting", 0, 0),
        Standing(101, "playing", 1, 20),
        Standing(102, "left", 3, 30),
        Standing(103, "won", 52, 1234, seconds_used=187),
        Standing(104, "expired", 12, 99, seconds_used=300),
    )
    for now in (0.0, 200.0):
        shown = race_commands.race_message(RaceSnapshot(running, (100, 101), standings), now=now)
        embed_said(shown["embed"])
        labels_said(shown["view"])
    results = (
        RaceResult(1, 100, 1234, 187, "won", 1000.0, 1100.0, 1, True),
        RaceResult(2, 101, 20, 300, "stuck", 1000.0, None, 1, True),
    )
    for finished in (
        replace(RACE, status="finished", deal_seed="123", deal_number=7, unrated_reason="the deal was replayed"),
        replace(RACE, status="finished"),
    ):
        embed_said(race_commands.race_message(RaceSnapshot(finished, (100, 101), (), results), now=0.0)["embed"])
    embed_said(race_commands.race_message(RaceSnapshot(replace(RACE, status="finished"), ()), now=0.0)["embed"])
    for closed in ("cancelled", "expired"):
        embed_said(race_commands.race_message(RaceSnapshot(replace(RACE, status=closed), ()), now=0.0)["embed"])


def test_the_race_ratings():
    rows = [RatingRecord(10, "draw3", 100 + n, 30.0 - n, 2.0, n + 1) for n in range(12)]
    embed_said(race_commands.rating_board_embed("draw3", rows, caller=999, note="x"))
    embed_said(race_commands.rating_board_embed("draw3", [], caller=999))
    embed_said(race_commands.member_ratings_embed(100, rows[:2], {"draw3": 1}))
    embed_said(race_commands.member_ratings_embed(100, [], {}))
    said(*race_commands.race_stats_lines(rows[:2], {"draw3": 1}))
    said(race_commands._(race_commands.LEAVE_QUESTION))


CHALLENGE = ChallengeRecord(
    id=1,
    guild_id=10,
    channel_id=11,
    message_id=12,
    challenger_id=100,
    variant="draw3",
    show_scores=False,
    status="open",
    created_at=0.0,
    deadline=3600.0,
    deal="{}",
    deal_seed="123",
    closed_at=None,
    unrated_reason=None,
)
LINES = (
    Line(100, "challenger"),
    Line(101, "invited"),
    Line(102, "accepted"),
    Line(103, "declined"),
    Line(104, "playing"),
    Line(105, "played", 1234, 187, "won"),
)


def test_a_challenge_message_in_each_of_its_states():
    for challenge, now in ((CHALLENGE, 0.0), (replace(CHALLENGE, show_scores=True), 0.0), (CHALLENGE, 7200.0)):
        shown = challenge_commands.challenge_message(ChallengeSnapshot(challenge, LINES, now))
        embed_said(shown["embed"])
        if shown["view"] is not None:
            labels_said(shown["view"])
    placed = (
        Line(100, "played", 1234, 187, "won", place=1, rating_before=1000.0, rating_after=1100.0),
        Line(101, "played", 20, 300, "expired", place=2),
        Line(102, "accepted"),
        Line(103, "declined"),
    )
    closed = replace(CHALLENGE, status="closed", unrated_reason="the deal was replayed")
    embed_said(challenge_commands.challenge_message(ChallengeSnapshot(closed, placed, 0.0))["embed"])
    embed_said(challenge_commands.challenge_message(ChallengeSnapshot(closed, LINES[:1], 0.0))["embed"])
    embed_said(challenge_commands.cancelled_message(ChallengeSnapshot(CHALLENGE, LINES, 0.0))["embed"])
    said(*(challenge_commands._(why) for why in (challenge_commands.NOT_POSTED, challenge_commands.NOT_SAVED)))


def test_the_moderation_answers():
    said(*(moderation_commands.not_now(StillInPlayError(["x"], until)) for until in (None, 9.0)))
    said(*(moderation_commands.forgotten_text(Forgotten(games, entries, 1)) for games, entries in ((3, 0), (1, 2))))
    for moderator in (7, None):
        for member in (8, None):
            entry = LogEntry(1, member, moderator, "remove-results", "used a solver", 3, 0.0)
            said(moderation_commands.log_line(entry))
    constants = ("NOTHING_CHANGED", "NOT_ANSWERED", "EXPIRED", "ALREADY_DONE", "NO_LOG", "NOT_MODERATOR")
    said(*(moderation_commands._(getattr(moderation_commands, name)) for name in (*constants, "FORGET_ME_ASK")))


def test_the_settings_answers():
    for on in (True, False):
        for changed in (True, False):
            said(settings_commands.four_colour_text(on, changed=changed))
            said(settings_commands.reminders_text(on, changed=changed))
    for chosen in (find("de"), None):
        for changed in (True, False):
            said(settings_commands.language_text(chosen, chosen or ENGLISH, changed=changed))
            said(competition_commands.server_language_text(chosen, chosen or ENGLISH, changed=changed))
    said(settings_commands._(settings_commands.LANGUAGE_NOT_SAVED))


def test_the_competition_words():
    today = date(2026, 11, 29)
    for period in Period:
        said(competition_commands._period_words(period, today))
    assert competition_commands._period_words(Period.TODAY, today) != "today (2026-11-29)"  # the language's date
    config = GuildConfig(10, channel_id=11, channel_problem="403 Forbidden")
    said(competition_commands._channel_warning(config).replace("403 Forbidden", ""))
    said(competition_commands._channel_warning(replace(config, channel_problem_at=5.0)).replace("403 Forbidden", ""))
    said(*(competition_commands._(mode) for mode in competition_commands.MODES.values()))
    for constant in ("PERIOD_NOT_FOR_RATINGS", "NOT_MANAGER", "SERVER_LANGUAGE_NOT_SAVED"):
        said(competition_commands._(getattr(competition_commands, constant)))


def test_the_endings_and_numbers():
    said(*(ending_word(status) for status in (Status.WON, Status.ENDED, Status.STUCK, Status.EXPIRED)))
    assert number(12345) == "12.345"  # as the pseudo-language (German) groups it
    with speaking_language(ENGLISH):
        assert number(12345) == "12345"  # as the bot always wrote it
