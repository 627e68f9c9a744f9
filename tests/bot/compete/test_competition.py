"""The pure competition rules: deal sources, server days and rollovers, periods, streaks and result lines."""

import doctest
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.compete.words
import bot.rules.calendar
import bot.rules.daily_deals
import bot.rules.ranking
import bot.rules.streaks
import bot.storage.ranking
from bot.compete.words import already_played_line, daily_line, leaderboard_lines, podium_lines, stats_lines
from bot.rules.calendar import (
    DayClock,
    InvalidTimezoneError,
    Period,
    day_bounds,
    day_start,
    next_rollover,
    server_date,
    validate_timezone,
)
from bot.rules.daily_deals import daily_source, new_secret
from bot.rules.ranking import DailyResult, Leaderboard, Podium, Ranked, best_first
from bot.rules.stats import MemberStats, VariantStats
from bot.rules.streaks import Streak, streak


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


@pytest.mark.parametrize(
    "module",
    [
        bot.rules.calendar,
        bot.rules.daily_deals,
        bot.rules.ranking,
        bot.rules.streaks,
        bot.compete.words,
        bot.storage.ranking,
    ],
)
def test_doctests_pass(module: object) -> None:
    assert doctest.testmod(module).failed == 0


# -- daily source --------------------------------------------------------------
BASE = ("secret", 42, date(2024, 5, 1), "draw3")


@pytest.mark.parametrize(
    "changed",
    [
        ("other", 42, date(2024, 5, 1), "draw3"),
        ("secret", 43, date(2024, 5, 1), "draw3"),
        ("secret", 42, date(2024, 5, 2), "draw3"),
        ("secret", 42, date(2024, 5, 1), "draw1"),
    ],
)
def test_daily_source_depends_on_every_field(changed: tuple[str, int, date, str]) -> None:
    assert daily_source(*changed) != daily_source(*BASE)


def test_daily_source_is_stable_hex() -> None:
    source = daily_source(*BASE)
    assert source == daily_source(*BASE)
    assert len(source) == 64
    int(source, 16)


def test_daily_source_fields_do_not_run_together() -> None:
    assert daily_source("s", 1, date(2024, 5, 1), "draw3") != daily_source("s", 12, date(2024, 5, 1), "draw3")


def test_new_secret_is_random_hex() -> None:
    first, second = new_secret(), new_secret()
    assert first != second
    assert len(first) == 64
    int(first, 16)


# -- time zones ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("Europe/Paris", "Europe/Paris"),
        ("europe/paris", "Europe/Paris"),
        ("  America/New York ", "America/New_York"),
        ("utc", "UTC"),
        ("Asia/Kathmandu", "Asia/Kathmandu"),
    ],
)
def test_validate_timezone_accepts_iana_names(given: str, canonical: str) -> None:
    assert validate_timezone(given) == canonical


@pytest.mark.parametrize(
    ("given", "hint"),
    [
        ("Europe/Pari", "did you mean Europe/Paris?"),
        ("Paris", "did you mean Europe/Paris?"),
        ("new york", "did you mean America/New_York?"),
        ("Kolkata", "did you mean Asia/Kolkata?"),
        ("Mars/Olympus_Mons", "use an IANA name such as Europe/Paris"),
        ("", "use an IANA name"),
        ("../../etc/passwd", "use an IANA name"),
    ],
)
def test_validate_timezone_refuses_with_a_suggestion(given: str, hint: str) -> None:
    with pytest.raises(InvalidTimezoneError, match="unknown time zone") as caught:
        validate_timezone(given)
    assert hint in str(caught.value)


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(ValueError, match="no time zone"):
        server_date("UTC", datetime(2024, 5, 1))


@pytest.mark.parametrize(
    ("zone", "now", "day"),
    [
        ("UTC", utc(2024, 5, 1, 23, 59), date(2024, 5, 1)),
        ("Europe/Paris", utc(2024, 5, 1, 22, 0), date(2024, 5, 2)),
        ("America/Los_Angeles", utc(2024, 5, 2, 6, 59), date(2024, 5, 1)),
        ("Asia/Kathmandu", utc(2024, 5, 1, 18, 15), date(2024, 5, 2)),
        ("Pacific/Apia", utc(2011, 12, 30, 10, 0), date(2011, 12, 31)),
    ],
)
def test_server_date(zone: str, now: datetime, day: date) -> None:
    assert server_date(zone, now) == day


# Expected instants checked by hand against the zone rules (tzdata).
@pytest.mark.parametrize(
    ("zone", "now", "rollover"),
    [
        ("UTC", utc(2024, 5, 1, 23, 59, 59), utc(2024, 5, 2)),
        ("UTC", utc(2024, 5, 2), utc(2024, 5, 3)),  # exactly at midnight: the next one
        ("Europe/Paris", utc(2024, 3, 30, 12), utc(2024, 3, 30, 23)),  # CET, +1
        ("Europe/Paris", utc(2024, 3, 31, 12), utc(2024, 3, 31, 22)),  # the day DST began: CEST, +2
        ("Europe/Paris", utc(2024, 10, 27, 12), utc(2024, 10, 27, 23)),  # the 25-hour day
        ("America/New_York", utc(2024, 11, 3, 12), utc(2024, 11, 4, 5)),
        ("Asia/Kathmandu", utc(2024, 5, 1), utc(2024, 5, 1, 18, 15)),  # +5:45
        ("Australia/Lord_Howe", utc(2024, 10, 5, 12), utc(2024, 10, 5, 13, 30)),  # +10:30
        ("America/Santiago", utc(2024, 9, 7, 12), utc(2024, 9, 8, 4)),  # 00:00 does not exist: 01:00 -03
        ("America/Havana", utc(2024, 3, 9, 12), utc(2024, 3, 10, 5)),  # clocks jump 00:00 -> 01:00
        ("America/Havana", utc(2024, 11, 3, 12), utc(2024, 11, 4, 5)),
        ("Asia/Beirut", utc(2023, 10, 28, 12), utc(2023, 10, 28, 22)),  # clocks go back at 00:00 to 23:00
        ("Pacific/Apia", utc(2011, 12, 29, 22), utc(2011, 12, 30, 10)),  # 30 December 2011 was skipped
    ],
)
def test_next_rollover(zone: str, now: datetime, rollover: datetime) -> None:
    got = next_rollover(zone, now)
    assert got == rollover
    assert server_date(zone, got) > server_date(zone, got - timedelta(microseconds=1))


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris", "America/Santiago", "Asia/Kathmandu", "Pacific/Chatham"])
def test_rollovers_step_through_a_year_one_day_at_a_time(zone: str) -> None:
    moment = utc(2024, 1, 1)
    for _ in range(366):
        before = server_date(zone, moment)
        moment = next_rollover(zone, moment)
        assert server_date(zone, moment) == before + timedelta(days=1)
        assert server_date(zone, moment - timedelta(microseconds=1)) == before


def test_bisection_agrees_with_the_fast_path() -> None:
    from bot.rules.calendar import _first_at_or_after

    now = utc(2024, 9, 7, 12)
    assert _first_at_or_after("America/Santiago", date(2024, 9, 8), now, now + timedelta(hours=50)) == utc(
        2024, 9, 8, 4
    )


def test_day_start_and_bounds() -> None:
    assert day_start("Europe/Paris", date(2024, 3, 31)) == utc(2024, 3, 30, 23)
    start, end = day_bounds("Europe/Paris", date(2024, 3, 31), date(2024, 3, 31))
    assert end - start == 23 * 3600
    start, end = day_bounds("UTC", date(2024, 4, 29), date(2024, 5, 5))
    assert (start, end) == (utc(2024, 4, 29).timestamp(), utc(2024, 5, 6).timestamp())


@pytest.mark.parametrize(
    ("period", "today", "days"),
    [
        (Period.TODAY, date(2024, 5, 1), (date(2024, 5, 1), date(2024, 5, 1))),
        (Period.WEEK, date(2024, 5, 1), (date(2024, 4, 29), date(2024, 5, 1))),  # Wednesday
        (Period.WEEK, date(2024, 4, 29), (date(2024, 4, 29), date(2024, 4, 29))),  # Monday
        (Period.WEEK, date(2024, 5, 5), (date(2024, 4, 29), date(2024, 5, 5))),  # Sunday
        (Period.ALL, date(2024, 5, 1), None),
    ],
)
def test_period_days(period: Period, today: date, days: tuple[date, date] | None) -> None:
    assert period.days(today) == days


# -- streaks -------------------------------------------------------------------
TODAY = date(2024, 5, 10)


def ago(*offsets: int) -> list[date]:
    return [TODAY - timedelta(days=n) for n in offsets]


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        ([], Streak(0, 0)),
        (ago(0), Streak(1, 1)),
        (ago(1), Streak(1, 1)),  # not played yet today: yesterday's streak is still alive
        (ago(2), Streak(0, 1)),
        (ago(0, 1, 2), Streak(3, 3)),
        (ago(0, 0, 1), Streak(2, 2)),  # two variants the same day count once
        (ago(1, 2, 5, 6, 7, 8), Streak(2, 4)),
        (ago(3, 4, 5), Streak(0, 3)),
        (ago(0, 2, 4), Streak(1, 1)),
        ([*ago(0, 1), date(2023, 12, 31), date(2024, 1, 1)], Streak(2, 2)),  # across a year end
    ],
)
def test_streak(days: list[date], expected: Streak) -> None:
    assert streak(days, TODAY) == expected


def test_streak_ignores_order() -> None:
    assert streak(reversed(ago(0, 1, 2)), TODAY) == Streak(3, 3)


# -- ranking and lines ---------------------------------------------------------
def ranked(rank: int, user: int, score: int, seconds: int | None = 100, finished: float = 0.0) -> Ranked:
    return Ranked(rank, user, score, seconds, finished)


def test_best_first_applies_the_tie_breaks() -> None:
    entries = [
        ranked(0, 1, 500, 200, 10.0),
        ranked(0, 2, 600, 250, 11.0),  # higher score wins
        ranked(0, 3, 500, 150, 12.0),  # same score, less time
        ranked(0, 4, 500, 200, 9.0),  # same score and time, finished first
        ranked(0, 5, 500, None, 1.0),  # unknown time ranks after known times
    ]
    assert [e.user_id for e in best_first(entries)] == [2, 3, 4, 1, 5]


def test_daily_line_has_score_and_rank_but_no_board() -> None:
    result = DailyResult(1, 7, "draw3", "2024-05-01", "won", 1234, 200, 2, 5)
    line = daily_line(result, date(2024, 5, 1))
    assert line == "<@7> scored 1234 on today's Solitaire Rush (draw 3) daily (won in 3:20) — rank 2 of 5"
    assert "the 2024-05-01 Solitaire Rush (draw 3) daily" in daily_line(result, date(2024, 5, 2))


@pytest.mark.parametrize(
    ("status", "seconds", "words"),
    [
        ("won", 95, "won in 1:35"),
        ("ended", 61, "ended after 1:01"),
        ("stuck", 240, "stuck after 4:00"),
        ("expired", 300, "out of time"),
    ],
)
def test_already_played_line_quotes_the_result(status: str, seconds: int, words: str) -> None:
    result = DailyResult(1, 7, "friday13", "2024-05-01", status, 80, seconds, 3, 4)
    line = already_played_line(result, date(2024, 5, 1))
    assert line.startswith("You already played today's Friday 13 daily: 80 points")
    assert words in line
    assert "rank 3 of 4" in line


def test_leaderboard_lines_show_the_caller_outside_the_top() -> None:
    top = tuple(ranked(n, 100 + n, 1000 - n) for n in range(1, 11))
    board = Leaderboard("draw1", "daily", Period.TODAY, top, ranked(14, 7, 500, 61), 20)
    lines = leaderboard_lines(board, 7)
    assert lines[0].startswith("🥇 <@101> — **999**")
    assert lines[3].startswith("` 4.` <@104>")
    assert lines[-3:] == ["…", "`14.` <@7> — **500** in 1:01", "20 ranked"]


def test_leaderboard_lines_without_the_caller_or_results() -> None:
    board = Leaderboard("draw1", "casual", Period.ALL, (ranked(1, 5, 10),), None, 1)
    assert leaderboard_lines(board, 7)[-2:] == ["<@7> has no result here yet.", "1 ranked"]
    empty = Leaderboard("draw1", "casual", Period.ALL, (), None, 0)
    assert leaderboard_lines(empty, 7) == ["No results yet."]


def test_podium_lines_skip_variants_nobody_played() -> None:
    podium = Podium("2024-05-01", {"draw1": (ranked(1, 1, 900, 120), ranked(2, 2, 800, 130)), "draw3": ()})
    assert podium_lines(podium) == [
        "**Daily podium for 2024-05-01**",
        "__Solitaire Rush (draw 1)__",
        "🥇 <@1> — **900** in 2:00",
        "🥈 <@2> — **800** in 2:10",
    ]
    assert Podium("2024-05-01", {"draw1": ()}).empty
    assert podium_lines(Podium("2024-05-01", {}))[-1] == "Nobody played the daily deals that day."


def test_stats_lines() -> None:
    stats = MemberStats(
        7,
        (VariantStats("draw1", 4, 1, 900, 2000), VariantStats("goldrush", 1, 1, 300, 300)),
        Streak(2, 5),
        Streak(0, 1),
    )
    assert stats.games == 5
    assert stats.wins == 2
    assert stats_lines(stats) == [
        "<@7>: 5 games, 2 wins (40%)",
        "Daily streak: 2 days (best 5) · winning streak: 0 days (best 1)",
        "Solitaire Rush (draw 1): 4 games, 1 win (25%), best 900, average 500",
        "Gold Rush: 1 game, 1 win (100%), best 300, average 300",
    ]


def test_empty_variant_stats() -> None:
    empty = VariantStats("draw1", 0, 0, 0, 0)
    assert (empty.win_rate, empty.average_score) == (0.0, 0.0)


ZONES = [
    "UTC",
    "Europe/Paris",
    "America/New_York",
    "Asia/Kolkata",
    "Pacific/Kiritimati",
    "Etc/GMT+12",
    "America/Santiago",
    "Australia/Lord_Howe",
    "Asia/Tokyo",
]
YEAR_2026 = datetime(2026, 1, 1, tzinfo=UTC)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(ZONES),
    st.lists(st.tuples(st.sampled_from(ZONES), st.integers(0, 360 * 24 * 60)), max_size=3),
    st.integers(0, 360 * 24 * 60),
)
def test_zone_changes_never_repeat_or_skip_back_a_date(first, changes, probe):
    """Whatever the admins choose and when: dates only move forward, one step at each rollover."""
    clock = DayClock(first)
    for zone, minute in sorted(changes, key=lambda change: change[1]):
        moment = YEAR_2026 + timedelta(minutes=minute)
        before = clock.date_at(moment)
        clock = clock.changed_to(zone, moment)
        assert clock.date_at(moment) == before  # the day an admin changes the zone goes on as it began
    moment = YEAR_2026 + timedelta(minutes=probe)
    today = clock.date_at(moment)
    rollover = clock.next_rollover(moment)
    assert rollover > moment
    assert clock.date_at(rollover - timedelta(seconds=1)) == today
    assert clock.date_at(rollover) > today
    assert clock.date_at(rollover) - today <= timedelta(days=2)  # only a 26-hour zone jump skips a date
