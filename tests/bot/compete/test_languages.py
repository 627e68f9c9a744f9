"""The competitions' words in other languages: whole sentences in the pseudo-language, each said to its reader.

A server's public posts (result lines, podiums, race and challenge messages, their results) are said in the
server's language whatever task makes them; a direct message in its member's; a refusal in the language of the
member's own task. English stays as it was.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import date, timedelta
from pathlib import Path

import discord
import pytest
import pytest_asyncio

from bot.compete import challenges as challenge_module
from bot.compete import race as races
from bot.compete.challenges import (
    AlreadyAnsweredError,
    ChallengerAnswerError,
    ChallengeSnapshot,
    DeclinedError,
    NoMoreAttemptsError,
    NotNamedError,
    OpponentsError,
    PlayedError,
    TooManyChallengesError,
    UnknownChallengeError,
)
from bot.compete.champions import (
    PROBLEMS,
    ChannelFacts,
    Overwrite,
    RoleChange,
    RoleFacts,
    ServerRole,
    Setter,
    champion_role_refusals,
    rule_refusal,
)
from bot.compete.channels import ChannelPermissionsError
from bot.compete.daily import DailyService
from bot.compete.onboarding import champion_warning, outbox_warning, setup_note
from bot.compete.placing import Entry, rated_players
from bot.compete.race import RaceSnapshot
from bot.compete.reminders import DmOutcome, Reminder, Reminders
from bot.compete.words import (
    already_played_line,
    daily_line,
    forgotten_try_line,
    leaderboard_lines,
    podium_lines,
    reminder_text,
    stats_lines,
)
from bot.outbox.announcements import PARK_AFTER, Announcement, Announcements, Delivery
from bot.rules.calendar import DayClock, Period
from bot.rules.ranking import DailyResult, Leaderboard, Podium, Ranked
from bot.rules.stats import MemberStats, VariantStats
from bot.rules.streaks import Streak
from bot.speakers import Speakers
from bot.storage import Database
from bot.storage import competition as competition_db
from bot.storage import races as races_db
from bot.storage.competition import GuildConfig
from bot.storage.outbox import WHAT, Pending
from languages import find, speaking_language
from languages.pseudo import PSEUDO
from solitaire import VARIANTS
from solitaire.speech import spoken
from solitaire.words import number
from tests.conftest import make_deal_bank
from tests.support import challenges as challenge_world
from tests.support import races as race_world
from tests.support.daily import CHANNEL, GUILD, Channel, Clock, finish, solve, start_daily, utc
from tests.support.fake_time import FakeTime, counted_database
from tests.support.pseudo_words import escaped

GERMAN = find("de")
assert GERMAN is not None
"""What is no sentence: Discord's tags (mentions, timestamps), code (commands), links."""
BIG = 10**18 + 1
"""A member id as long as Discord's."""


def spoken_code() -> str:
    """The code of the language spoken now, ``en`` outside any."""
    return str(getattr(spoken(), "language_code", "en"))


@pytest.fixture
def pseudo() -> Iterator[None]:
    with speaking_language(PSEUDO):
        yield


# -- the words --------------------------------------------------------------------------------
STATUSES = ("won", "ended", "stuck", "expired")


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("today", [date(2024, 5, 1), date(2024, 5, 2), None])
@pytest.mark.parametrize(("final", "milestone"), [(True, None), (False, 7), (True, 30)])
def test_every_result_line_and_refusal_is_a_whole_pseudo_sentence(
    pseudo: None, status: str, today: date | None, final: bool, milestone: int | None
) -> None:
    result = DailyResult(1, 7, "draw3", "2024-05-01", status, 1234, 200, 2, 5)
    for text in (
        daily_line(result, today, final=final, milestone=milestone),
        already_played_line(result, today),
        forgotten_try_line("goldrush", "2024-05-01", today),
    ):
        assert escaped(text) == [], text


def test_scores_counts_and_dates_are_written_the_languages_way() -> None:
    result = DailyResult(1, 7, "draw3", "2024-05-01", "won", 12345, 200, 1002, 3456)
    assert "scored 12345 on the 2024-05-01 " in daily_line(result, date(2024, 5, 2))
    assert "rank 1002 of 3456" in daily_line(result)
    assert number(12345) == "12345"
    with speaking_language(PSEUDO):
        line = daily_line(result, date(2024, 5, 2))
        refusal = already_played_line(result, date(2024, 5, 2))
        podium = podium_lines(Podium("2024-05-01", {"draw3": (Ranked(1, 7, 12345, 61, 0.0),)}))
        assert number(12345) == "12.345"
    assert "12.345" in line and "01.05.2024" in line and "1.002" in line and "3.456" in line
    assert "12.345" in refusal and "01.05.2024" in refusal
    assert "01.05.2024" in podium[0] and "**12.345**" in podium[2]


def long_board(top: int = 10) -> Leaderboard:
    """A full leaderboard of members with the longest ids, big scores, and the caller far below."""
    entries = tuple(Ranked(n, BIG + n, 10**6 - n, 299, 0.0) for n in range(1, top + 1))
    return Leaderboard("friday13", "daily", Period.ALL, entries, Ranked(123456, BIG, 1, 300, 0.0), 999999)


def long_stats() -> MemberStats:
    variants = tuple(VariantStats(variant, 99999, 88888, 10**6, 10**7) for variant in VARIANTS)
    return MemberStats(BIG, variants, Streak(1234, 5678), Streak(999, 1000))


def test_the_boards_are_pseudo(pseudo: None) -> None:
    for lines in (
        leaderboard_lines(long_board(), BIG),
        leaderboard_lines(Leaderboard("draw1", "casual", Period.ALL, (Ranked(1, 5, 10, 1, 0.0),), None, 1), 7),
        leaderboard_lines(Leaderboard("draw1", "casual", Period.ALL, (), None, 0), 7),
        podium_lines(Podium("2024-05-01", {v: (Ranked(1, 1, 9, 1, 0.0),) for v in VARIANTS})),
        podium_lines(Podium("2024-05-01", {})),
        stats_lines(long_stats()),
        stats_lines(MemberStats(7, (VariantStats("draw1", 1, 1, 5, 5),), Streak(1, 1), Streak(1, 1))),
    ):
        for line in lines:
            assert escaped(line) == [], line
    assert escaped(reminder_text(5, "Solitaire Club", 1767225600), "Solitaire Club") == []


def test_a_full_board_and_every_post_stay_within_discords_limits_in_a_longer_language(pseudo: None) -> None:
    board = "\n".join(leaderboard_lines(long_board(), BIG))
    embed = discord.Embed(title="T" * 256, description=board)
    embed.set_footer(text="F" * 2048)
    assert len(board) <= 4096 and len(embed) <= 6000
    stats = "\n".join(stats_lines(long_stats()))
    assert len(stats) <= 4096
    podium = Podium("2024-05-01", {v: tuple(Ranked(n, BIG + n, 10**6, 299, 0.0) for n in (1, 2, 3)) for v in VARIANTS})
    assert len("\n".join(podium_lines(podium))) <= 2000
    result = DailyResult(1, BIG, "friday13", "2024-05-01", "stuck", 10**6, 299, 123456, 999999)
    assert len(daily_line(result, date(2024, 5, 2), final=False, milestone=365)) <= 2000
    assert len(reminder_text(365, "S" * 100, 1767225600)) <= 2000
    assert len(forgotten_try_line("friday13", "2024-05-01")) <= 2000


# -- refusals and notes --------------------------------------------------------------------------
def refusals() -> list[Exception]:
    return [
        races.UnknownRaceError(),
        *(races.LobbyClosedError(status) for status in ("running", "finished", "cancelled", "expired")),
        races.LobbyFullError(),
        races.AlreadyRacingError(here=True),
        races.AlreadyRacingError(here=False),
        races.NotRacerError(),
        races.HostOnlyError("start"),
        races.HostOnlyError("cancel"),
        races.TooFewRacersError(),
        races.NotStartedError(1767225600.0),
        races.NotStartedYetError(),
        races.GameOverLeaveError(),
        races.RaceOverError(),
        UnknownChallengeError(),
        TooManyChallengesError([], 2),
        NotNamedError(),
        ChallengerAnswerError(),
        NoMoreAttemptsError(1767225600.0),
        DeclinedError(),
        *(AlreadyAnsweredError(answer) for answer in ("accepted", "declined", "played")),
        PlayedError(),
        ChannelPermissionsError("race", ["embed_links"]),
        ChannelPermissionsError("challenge", ["view_channel", "send_messages"]),
    ]


def test_every_refusal_is_said_in_the_members_language() -> None:
    with speaking_language(PSEUDO):
        said = [str(error) for error in refusals()]
    for text in said:
        assert escaped(text, "**Embed Links**", "**View Channel**", "**Send Messages**") == [], text
    assert [str(error) for error in refusals()][:2] == [
        "That race does not exist any more.",
        "This race has already started.",
    ]


async def test_a_challenges_own_refusals_are_pseudo(world_db: Database, clock: FakeTime) -> None:
    world = challenge_world.World(world_db, clock)
    try:
        for opponents in ([], [1], [2, 2], list(range(2, 10))):
            with speaking_language(PSEUDO), pytest.raises(OpponentsError) as refused:
                await world.challenges.open(
                    guild_id=GUILD, channel_id=CHANNEL, challenger_id=1, variant="draw3", opponents=opponents
                )
            assert escaped(str(refused.value)) == [], refused.value
    finally:
        await world.close()


def test_the_champion_roles_refusals_are_pseudo_but_stored_in_english() -> None:
    view = frozenset({"view_channel"})
    opens = tuple(ChannelFacts(11 + n, Overwrite(allow=view), Overwrite(deny=view)) for n in range(7))
    roles = [
        RoleFacts(5, 3, frozenset(), everyone=True),
        RoleFacts(5, 3, frozenset(), managed=True),
        RoleFacts(5, 3, frozenset({"kick_members"}), channels=opens),
        RoleFacts(5, 3, frozenset(), channels=opens[:2]),
    ]
    with speaking_language(PSEUDO):
        said = [refusal for role in roles for refusal in champion_role_refusals(role, frozenset(), Setter(2))]
        stored = rule_refusal(ServerRole(roles[2], frozenset()))
    assert len(said) == 7
    for text in said:
        assert escaped(text, "@everyone", "**Kick Members**", "**View Channel**") == [], text
    assert stored is not None and stored.startswith("<@&5> grants **Kick Members** beyond what @everyone has")
    assert "and 2 more channels beyond" in stored


def test_the_admins_notes_are_pseudo() -> None:
    configs = [
        GuildConfig(1),
        GuildConfig(1, channel_id=5),
        GuildConfig(1, timezone="Europe/Paris", clock=DayClock("Europe/Paris")),
    ]
    refused = GuildConfig(
        1, champion_role_id=9, champion_problem=PROBLEMS[RoleChange.REFUSED], champion_problem_at=1767225600.0
    )
    with speaking_language(PSEUDO):
        notes = [setup_note(config) for config in configs]
        warning = champion_warning(refused)
        ruled = champion_warning(GuildConfig(1, champion_problem="<@&9> is everyone's role"))
    for note in [*notes, warning]:
        assert note is not None and escaped(note) == [], note
    assert ruled is not None and escaped(ruled, "is everyone's role") == []  # a rule's refusal is stored in English


@pytest.mark.parametrize("kind", sorted(WHAT))
def test_a_post_given_up_is_named_whole_in_the_admins_language(kind: str) -> None:
    subject = "2026-01-02" if kind == "podium" else "42"
    what = Pending(1, 7, kind, subject, 70, 0.0, 0).what()  # type: ignore[arg-type]
    config = GuildConfig(1, outbox_problem=what, outbox_problem_at=1767225600.0)
    assert outbox_warning(config) == (
        f"⚠️ I gave up {what} <t:1767225600:R>: it failed {PARK_AFTER} times with an error on my side, "
        "so it will not be posted. Nothing here needs fixing by you; the bot's operator has the error in the log."
    )
    with speaking_language(PSEUDO):
        warning = outbox_warning(config)
    assert warning is not None and escaped(warning) == [], warning
    assert kind != "podium" or "02.01.2026" in warning


def test_a_post_given_up_unknown_to_this_version_is_still_named() -> None:
    config = GuildConfig(1, outbox_problem="a post of a kind to come", outbox_problem_at=None)
    with speaking_language(PSEUDO):
        warning = outbox_warning(config)
    assert warning is not None and escaped(warning, "a post of a kind to come") == []


def test_why_a_race_is_not_rated_is_said_in_the_language_spoken() -> None:
    alone = [Entry(1, True, True, 10, 5), Entry(2, False, True, 0, None)]
    pair = [Entry(1, True, True, 10, 5), Entry(2, True, True, 9, 5)]
    with speaking_language(PSEUDO):
        reasons = [rated_players(alone, {})[1], rated_players(pair, {(1, 2): 3})[1]]
    for reason in reasons:
        assert reason is not None and escaped(reason) == [], reason


# -- who reads what ------------------------------------------------------------------------------
@pytest_asyncio.fixture
async def world_db(database_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Database]:
    async with counted_database(database_target, monkeypatch) as database:
        yield database


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


def speakers_of(db: Database, now: object) -> Speakers:
    return Speakers(db, now=now, server_locale=lambda guild_id: None)  # type: ignore[arg-type]


class Heard:
    """A listener or a publisher that records what it was handed and the language spoken when it was."""

    def __init__(self) -> None:
        self.languages: list[str] = []
        self.items: list[object] = []

    async def post(self, announcement: Announcement) -> Delivery:
        self.languages.append(spoken_code())
        self.items.append(announcement.payload if announcement.payload is not None else announcement)
        return Delivery.POSTED

    async def publish(self, snapshot: object) -> None:
        self.languages.append(spoken_code())
        self.items.append(snapshot)


async def test_a_daily_line_and_the_podium_are_posted_in_the_servers_language(world_db: Database) -> None:
    db = world_db
    await competition_db.set_day_clock(db, GUILD, DayClock("UTC"))
    await competition_db.set_channel(db, GUILD, CHANNEL, podium_after="2000-01-01")
    clock = Clock(utc(2026, 1, 1, 12))
    speakers = speakers_of(db, clock)
    await speakers.choose_for_server(GUILD, PSEUDO)
    channel, heard = Channel(), Heard()
    service = DailyService(
        db,
        make_deal_bank(),
        announcements=Announcements(db, now=clock, speakers=speakers),
        now=clock,
        secret=lambda: "s3cret",
        solve=solve,
    )
    service.add_listener(channel)
    service.add_listener(heard.post)
    day = date(2026, 1, 1)
    with speaking_language(GERMAN):  # the member who finished speaks German: the post is the server's
        await finish(db, service, await start_daily(db, 1, day, clock.at), 1234, clock.at + timedelta(seconds=40))
    clock.at = utc(2026, 1, 2, 0, 0, 1)
    with speaking_language(GERMAN):
        await service.run_once()
    [line, podium] = [post.text for post in channel.posts]
    assert "1.234" in line and escaped(line) == [], line
    assert "01.01.2026" in podium and escaped(podium) == [], podium
    assert heard.languages == ["pseudo", "pseudo"]
    await service.close()


async def test_a_reminder_is_sent_in_its_members_language(world_db: Database) -> None:
    db = world_db
    clock = Clock(utc(2026, 1, 1, 20))
    speakers = speakers_of(db, clock)
    chose, remembered, unknown = 1, 2, 3
    await speakers.choose_for_member(chose, PSEUDO)
    await speakers.member(remembered, discord.Locale.german)  # their client's locale, as last reported
    sent: list[tuple[int, str, str]] = []

    async def send(reminder: Reminder) -> DmOutcome:
        sent.append(
            (reminder.user_id, spoken_code(), reminder_text(reminder.streak, "Solitaire Club", reminder.ends_at))
        )
        return DmOutcome.SENT

    reminders = Reminders(db, Announcements(db, now=clock, speakers=speakers), now=clock)
    reminders.use(send)
    with speaking_language(PSEUDO):  # the outbox speaks the server's language around its listeners
        for user in (chose, remembered, unknown):
            payload = Reminder(GUILD, user, 3, "2026-01-01", 1767312000.0)
            await reminders.deliver(Announcement(GUILD, 0, "reminder", "", False, f"{user}", payload))
    assert [(user, language) for user, language, _ in sent] == [(chose, "pseudo"), (remembered, "de"), (unknown, "en")]
    assert escaped(sent[0][2], "Solitaire Club") == []
    assert sent[2][2].startswith("Your 3-day daily streak in **Solitaire Club** ends <t:1767312000:R>")


class RaceWorld(race_world.World):
    """The races' world speaking the servers' languages, what it publishes and posts heard with the language."""

    def __init__(self, db: Database, clock: FakeTime, speakers: Speakers) -> None:
        self.heard = Heard()
        super().__init__(db, clock, speakers=speakers)

    async def publish(self, snapshot: RaceSnapshot) -> None:
        await self.heard.publish(snapshot)
        await super().publish(snapshot)

    async def post(self, announcement: Announcement) -> Delivery:
        await self.heard.post(announcement)
        return await super().post(announcement)


async def test_a_races_message_and_results_are_said_in_its_servers_language(
    world_db: Database, clock: FakeTime
) -> None:
    speakers = speakers_of(world_db, clock)
    await speakers.choose_for_server(race_world.GUILD, PSEUDO)
    world = RaceWorld(world_db, clock, speakers)
    alice, bob = 11, 12
    try:
        with speaking_language(GERMAN):  # every click and move is a German-speaking member's
            race_id = await race_world.started(world, alice, bob)
            session = await world.races.board(race_id, alice)
            await world.sessions.play_all_to_foundations(session)  # bob never moves: not rated
            await clock.advance(400)
            await world.races.settle(results=True)
    finally:
        await world.close()
    statuses = [item.race.status for item in world.heard.items]  # type: ignore[attr-defined]
    assert "running" in statuses and statuses[-1] == "finished"
    assert set(world.heard.languages) == {"pseudo"}
    race = await races_db.get_race(world_db, race_id)
    assert race is not None and race.unrated_reason is not None
    assert escaped(race.unrated_reason) == [], race.unrated_reason


class ChallengeWorld(challenge_world.World):
    """The challenges' world speaking the servers' languages, what it publishes and posts heard with the language."""

    def __init__(self, db: Database, clock: FakeTime, speakers: Speakers) -> None:
        self.heard = Heard()
        super().__init__(db, clock, speakers=speakers)

    async def publish(self, snapshot: ChallengeSnapshot) -> None:
        await self.heard.publish(snapshot)
        await super().publish(snapshot)

    async def post(self, announcement: Announcement) -> Delivery:
        await self.heard.post(announcement)
        return await super().post(announcement)


async def test_a_challenges_message_and_results_are_said_in_its_servers_language(
    world_db: Database, clock: FakeTime
) -> None:
    speakers = speakers_of(world_db, clock)
    await speakers.choose_for_server(challenge_world.GUILD, PSEUDO)
    world = ChallengeWorld(world_db, clock, speakers)
    try:
        with speaking_language(GERMAN):
            challenge_id = await challenge_world.challenge(world, challenge_world.BOB, show_scores=True)
            await world.challenges.answer(challenge_id, challenge_world.BOB, "accepted")
            await challenge_world.play(world, challenge_id, challenge_world.BOB)
            await challenge_world.play(world, challenge_id, challenge_world.ALICE, win=True)
            await clock.advance(challenge_module.UPDATE_INTERVAL)
            await world.challenges.settle()
    finally:
        await world.close()
    assert len(world.heard.items) >= 2 and set(world.heard.languages) == {"pseudo"}
    final = world.heard.items[-1]
    assert isinstance(final, challenge_module.ChallengeSnapshot) and final.closed
    assert final.challenge.unrated_reason is not None and escaped(final.challenge.unrated_reason) == []
