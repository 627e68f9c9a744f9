"""Daily competitions, pure: deal sources, server dates and rollovers, periods, streaks and result lines.

Nothing here touches Discord or SQL; "now" always comes in as an argument (an aware datetime).

>>> from datetime import datetime, UTC
>>> now = datetime(2024, 3, 9, 23, 30, tzinfo=UTC)
>>> server_date("Europe/Paris", now).isoformat()
'2024-03-10'
>>> next_rollover("Europe/Paris", now).isoformat()
'2024-03-10T23:00:00+00:00'
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import heapq
import hmac
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from enum import Enum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from solitaire import find_variant, format_deck, parse_deck
from solitaire.deals import ProvenDeal
from solitaire.words import plural

DEFAULT_TIMEZONE = "UTC"
MEDALS = ("🥇", "🥈", "🥉")
UNKNOWN_SECONDS = 1 << 30
"""Stands in for a missing time used when ranking (ranks after every real time)."""
_SECOND = timedelta(seconds=1)


class InvalidTimezoneError(ValueError):
    """A time zone name that is not in the IANA database; the message suggests one."""


# -- the daily deal ------------------------------------------------------------
def new_secret() -> str:
    """Return a fresh random server secret (64 hex digits)."""
    return secrets.token_hex(32)


def daily_source(secret: str, guild_id: int, day: date, variant: str) -> str:
    """Return the day's deal source for a server and variant: an HMAC-SHA256 hex nobody can predict.

    >>> a = daily_source("s3cret", 42, date(2024, 5, 1), "draw3")
    >>> len(a), a == daily_source("s3cret", 42, date(2024, 5, 1), "draw3")
    (64, True)
    >>> a == daily_source("other", 42, date(2024, 5, 1), "draw3")
    False
    """
    message = f"solitaire-daily|{guild_id}|{day.isoformat()}|{variant}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def spare_source(secret: str, nonce: str) -> str:
    """Return the source of a spare daily deal: an HMAC of a random nonce, as unpredictable as a day's source.

    >>> len(spare_source("s3cret", "ab12")), spare_source("s3cret", "ab12") == spare_source("s3cret", "ab13")
    (64, False)
    """
    return hmac.new(secret.encode(), f"solitaire-daily-spare|{nonce}".encode(), hashlib.sha256).hexdigest()


def deal_to_json(deal: ProvenDeal) -> dict[str, Any]:
    """Save a proven deal as JSON-ready data (to cache the day's deal)."""
    return {"variant": deal.variant, "seed": deal.seed, "deck": format_deck(deal.deck), "solution": list(deal.solution)}


def deal_from_json(data: dict[str, Any]) -> ProvenDeal:
    """Rebuild a deal saved by :func:`deal_to_json`."""
    return ProvenDeal(
        variant=str(data["variant"]),
        seed=int(data["seed"]),
        deck=parse_deck(str(data["deck"])),
        solution=tuple(str(move) for move in data["solution"]),
    )


# -- time zones and the server's day -------------------------------------------
@functools.cache
def _zone_names() -> dict[str, str]:
    """Map every IANA zone name, lower-cased, to its canonical spelling."""
    return {name.lower(): name for name in available_timezones()}


def validate_timezone(name: str) -> str:
    """Return the canonical IANA name for ``name`` (case-insensitive); :raises InvalidTimezoneError:.

    >>> validate_timezone("europe/paris")
    'Europe/Paris'
    >>> validate_timezone("Paris")
    Traceback (most recent call last):
    ...
    bot.competition.InvalidTimezoneError: unknown time zone 'Paris': did you mean Europe/Paris?
    """
    cleaned = name.strip().replace(" ", "_")
    canonical = _zone_names().get(cleaned.lower())
    if canonical is not None:
        return canonical
    hint = _suggest(cleaned)
    advice = f"did you mean {hint}?" if hint else "use an IANA name such as Europe/Paris or America/New_York"
    raise InvalidTimezoneError(f"unknown time zone {name.strip()!r}: {advice}")


COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Kolkata",
    "Asia/Tokyo",
    "Australia/Sydney",
)


def zone_suggestions(typed: str, limit: int = 25) -> list[str]:
    """Return zone names matching what was typed so far (for autocomplete), best first.

    >>> zone_suggestions("paris")
    ['Europe/Paris']
    """
    wanted = typed.strip().replace(" ", "_").lower()
    if not wanted:
        return list(COMMON_ZONES[:limit])
    names = _zone_names()
    found = [canonical for key, canonical in names.items() if wanted in key]
    found.sort(key=lambda name: (not name.lower().rsplit("/", 1)[-1].startswith(wanted), len(name), name))
    return found[:limit]


def _suggest(name: str) -> str | None:
    """Return the zone name most like ``name``, if any is close."""
    wanted = name.lower()
    names = _zone_names()
    by_city = sorted(canonical for key, canonical in names.items() if key.rsplit("/", 1)[-1] == wanted)
    if by_city:
        return by_city[0]
    close = difflib.get_close_matches(wanted, list(names), n=1, cutoff=0.6)
    if close:
        return names[close[0]]
    cities = {key.rsplit("/", 1)[-1]: canonical for key, canonical in sorted(names.items())}
    close = difflib.get_close_matches(wanted, list(cities), n=1, cutoff=0.75)
    return cities[close[0]] if close else None


def _zone(tz_name: str) -> ZoneInfo:
    """Return the zone for a validated name; :raises InvalidTimezoneError:."""
    try:
        return ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidTimezoneError(f"unknown time zone {tz_name!r}") from None


def _check_aware(moment: datetime) -> None:
    if moment.tzinfo is None:
        raise ValueError(f"{moment.isoformat()} has no time zone: pass an aware datetime (UTC)")


def server_date(tz_name: str, now_utc: datetime) -> date:
    """Return the calendar date in the server's zone at the instant ``now_utc``."""
    _check_aware(now_utc)
    return now_utc.astimezone(_zone(tz_name)).date()


def day_start(tz_name: str, day: date) -> datetime:
    """Return the UTC instant when ``day`` begins in the zone (its first moment, DST gaps included)."""
    guess = datetime.combine(day, time(0), tzinfo=_zone(tz_name)).astimezone(UTC)
    if _begins(tz_name, guess, day):
        return guess
    return _first_at_or_after(tz_name, day, guess - timedelta(hours=30), guess + timedelta(hours=30))


def next_rollover(tz_name: str, now_utc: datetime) -> datetime:
    """Return the first UTC instant after ``now_utc`` at which the server's date changes (00:00 local)."""
    today = server_date(tz_name, now_utc)
    start = day_start(tz_name, today + timedelta(days=1))
    if start > now_utc:
        return start
    # The zone stepped back over midnight: find the next change from here.
    return _first_at_or_after(tz_name, today + timedelta(days=1), now_utc, now_utc + timedelta(hours=50))


@dataclass(frozen=True)
class DayClock:
    """When a server's days begin: its zone, and a zone change that waits for the end of the current day.

    A change takes effect at the next rollover of the old zone, and the day after it is never earlier
    than the day after the one that ended (``floor``), so no date comes twice and none is cut short.

    >>> paris = DayClock("Europe/Paris")
    >>> moment = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)
    >>> tokyo = paris.changed_to("Asia/Tokyo", moment)
    >>> tokyo.date_at(moment).isoformat(), tokyo.next_rollover(moment).isoformat()
    ('2026-01-01', '2026-01-01T23:00:00+00:00')
    >>> later = datetime(2026, 1, 1, 23, 0, tzinfo=UTC)
    >>> tokyo.date_at(later).isoformat(), tokyo.next_rollover(later).isoformat()
    ('2026-01-02', '2026-01-02T15:00:00+00:00')
    """

    zone: str = DEFAULT_TIMEZONE
    floor: date | None = None
    """No server date before this one (the day after the one that ended when the zone last changed)."""
    next_zone: str | None = None
    next_from: datetime | None = None
    """When ``next_zone`` takes effect: the end of the day it was chosen on (a UTC instant)."""
    next_floor: date | None = None

    def settled(self, now_utc: datetime) -> DayClock:
        """Return the clock in effect at ``now_utc`` with no change pending before it."""
        if self.next_zone is not None and self.next_from is not None and now_utc >= self.next_from:
            return DayClock(self.next_zone, self.next_floor)
        return self

    def zone_at(self, now_utc: datetime) -> str:
        """Return the zone whose midnights end the server's days at ``now_utc``."""
        return self.settled(now_utc).zone

    def date_at(self, now_utc: datetime) -> date:
        """Return the server's date at ``now_utc``."""
        clock = self.settled(now_utc)
        local = server_date(clock.zone, now_utc)
        return local if clock.floor is None else max(local, clock.floor)

    def next_rollover(self, now_utc: datetime) -> datetime:
        """Return the first instant after ``now_utc`` at which the server's date changes."""
        clock = self.settled(now_utc)
        today = clock.date_at(now_utc)
        if today > server_date(clock.zone, now_utc):  # a floored day: it ends when the zone reaches the next date
            rollover = day_start(clock.zone, today + timedelta(days=1))
        else:
            rollover = next_rollover(clock.zone, now_utc)
        if clock.next_from is not None:
            rollover = min(rollover, clock.next_from)
        return rollover

    def changed_to(self, zone: str, now_utc: datetime) -> DayClock:
        """Return this clock after an admin chose ``zone`` at ``now_utc``: it applies from the next day."""
        clock = self.settled(now_utc)
        base = DayClock(clock.zone, clock.floor)
        if zone == clock.zone:
            return base
        return replace(
            base,
            next_zone=zone,
            next_from=base.next_rollover(now_utc),
            next_floor=base.date_at(now_utc) + timedelta(days=1),
        )


PRESOLVE_DAYS = 7
"""A server's daily deal of a variant is solved ahead if the server played that daily within this many days."""


@dataclass(frozen=True)
class DailyActivity:
    """The last day a server started a variant's daily (``daily_activity``), with the server's zone."""

    guild_id: int
    variant: str
    timezone: str
    last_date: str


def _begins(tz_name: str, moment: datetime, day: date) -> bool:
    """Whether ``moment`` is the first instant whose local date is ``day`` or later."""
    return server_date(tz_name, moment) >= day > server_date(tz_name, moment - _SECOND)


def _first_at_or_after(tz_name: str, day: date, low: datetime, high: datetime) -> datetime:
    """Bisect whole seconds in (low, high] for the first instant whose local date reaches ``day``."""
    lo = int(low.timestamp())
    hi = int(high.timestamp())
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if server_date(tz_name, datetime.fromtimestamp(mid, UTC)) >= day:
            hi = mid
        else:
            lo = mid
    return datetime.fromtimestamp(hi, UTC)


def day_bounds(tz_name: str, first: date, last: date) -> tuple[float, float]:
    """Return unix seconds [start, end) covering the local days ``first`` .. ``last``."""
    return day_start(tz_name, first).timestamp(), day_start(tz_name, last + timedelta(days=1)).timestamp()


# -- leaderboard periods -------------------------------------------------------
class Period(Enum):
    """The stretch of days a leaderboard covers, in the server's zone."""

    TODAY = "today"
    WEEK = "week"
    ALL = "all"

    def days(self, today: date) -> tuple[date, date] | None:
        """Return the first and last day covered (``None``: all time); the week starts on Monday.

        >>> Period.WEEK.days(date(2024, 5, 1))
        (datetime.date(2024, 4, 29), datetime.date(2024, 5, 1))
        """
        if self is Period.TODAY:
            return today, today
        if self is Period.WEEK:
            return today - timedelta(days=today.weekday()), today
        return None


# -- streaks -------------------------------------------------------------------
@dataclass(frozen=True)
class Streak:
    """Consecutive days: the run still alive (today or yesterday counts) and the longest ever."""

    current: int = 0
    best: int = 0


def streak(days: Iterable[date], today: date) -> Streak:
    """Compute the current and best runs of consecutive ``days`` as of ``today``.

    >>> d = date(2024, 5, 10)
    >>> streak([d - timedelta(days=n) for n in (1, 2, 3, 7, 8)], d)
    Streak(current=3, best=3)
    """
    ordered = sorted(set(days))
    best = run = 0
    previous: date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and today - previous <= timedelta(days=1) and previous <= today
    return Streak(current=run if alive else 0, best=best)


# -- results, leaderboards, stats ----------------------------------------------
@dataclass(frozen=True)
class Ranked:
    """One player's best result on a leaderboard, with its rank (1 = best)."""

    rank: int
    user_id: int
    score: int
    seconds_used: int | None
    finished_at: float


@dataclass(frozen=True)
class Leaderboard:
    """The top of a leaderboard, the caller's own entry (even outside the top) and how many are ranked."""

    variant: str
    mode: str
    period: Period
    top: tuple[Ranked, ...]
    caller: Ranked | None
    total: int


@dataclass(frozen=True)
class VariantStats:
    """A member's finished games of one variant in one server."""

    variant: str
    games: int
    wins: int
    best_score: int
    total_score: int

    @property
    def win_rate(self) -> float:
        """Wins as a fraction of games (0 when none)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def average_score(self) -> float:
        """The mean score (0 when none)."""
        return self.total_score / self.games if self.games else 0.0


@dataclass(frozen=True)
class MemberStats:
    """Everything `/solitaire stats` shows for one member of one server."""

    user_id: int
    variants: tuple[VariantStats, ...]
    played: Streak
    won: Streak

    @property
    def games(self) -> int:
        """Finished games over every variant."""
        return sum(v.games for v in self.variants)

    @property
    def wins(self) -> int:
        """Won games over every variant."""
        return sum(v.wins for v in self.variants)


@dataclass(frozen=True)
class DailyResult:
    """A member's ranked attempt at a day's deal, with where it stands among that day's results."""

    game_id: int
    user_id: int
    variant: str
    daily_date: str
    status: str
    score: int
    seconds_used: int | None
    rank: int
    total: int


def format_time(seconds: int | None) -> str:
    """Format seconds as ``m:ss`` (``-`` when unknown).

    >>> format_time(187), format_time(None)
    ('3:07', '-')
    """
    if seconds is None:
        return "-"
    return f"{seconds // 60}:{seconds % 60:02d}"


def variant_title(variant: str) -> str:
    """Return the variant's display title."""
    return find_variant(variant).title


def outcome(status: str, seconds_used: int | None) -> str:
    """Describe how a game ended, e.g. ``won in 3:20`` or ``out of time``.

    >>> outcome("won", 200), outcome("ended", 61), outcome("expired", 300)
    ('won in 3:20', 'ended after 1:01', 'out of time')
    """
    if status == "won":
        return f"won in {format_time(seconds_used)}"
    if status == "expired":
        return "out of time"
    return f"{status} after {format_time(seconds_used)}"


def _day_words(daily_date: str, today: date | None) -> str:
    return "today's" if today is not None and daily_date == today.isoformat() else f"the {daily_date}"


def daily_line(
    result: DailyResult, today: date | None = None, *, final: bool = True, milestone: int | None = None
) -> str:
    """Return the public line announcing a finished daily: score and rank, never the board.

    While the day's dailies may still change the ranks (``final=False``) the rank is "so far":
    the podium, posted once they are all over, has the last word. A ``milestone`` (a daily streak
    of one of :data:`MILESTONES` days, reached with this daily) is named at the end.

    >>> r = DailyResult(1, 7, "draw3", "2024-05-01", "won", 1234, 200, 2, 5)
    >>> daily_line(r, date(2024, 5, 1), final=False)
    "<@7> scored 1234 on today's Solitaire Rush (draw 3) daily (won in 3:20) — rank 2 of 5 so far"
    >>> daily_line(r, date(2024, 5, 2), milestone=7)
    '<@7> scored 1234 on the 2024-05-01 Solitaire Rush (draw 3) daily (won in 3:20) — rank 2 of 5 · 🔥 7-day streak!'
    """
    line = (
        f"<@{result.user_id}> scored {result.score} on {_day_words(result.daily_date, today)} "
        f"{variant_title(result.variant)} daily ({outcome(result.status, result.seconds_used)}) "
        f"— rank {result.rank} of {result.total}{'' if final else ' so far'}"
    )
    return line if milestone is None else f"{line} · 🔥 {milestone}-day streak!"


MILESTONES = (7, 30, 100)
"""Daily streaks named in the public result line of the daily that reaches them."""


def run_ending(days: Iterable[date], day: date) -> int:
    """Return how many consecutive days of ``days`` end with ``day`` (0 if ``day`` is not one of them).

    >>> d = date(2024, 5, 10)
    >>> run_ending([d, d - timedelta(days=1), d - timedelta(days=2), d - timedelta(days=4)], d)
    3
    """
    played = set(days)
    run = 0
    while day - timedelta(days=run) in played:
        run += 1
    return run


def milestone(days: Iterable[date], day: date) -> int | None:
    """Return the streak ``day`` completes if it is one of :data:`MILESTONES` (``days``: the days played).

    >>> start = date(2024, 5, 1)
    >>> week = [start + timedelta(days=n) for n in range(7)]
    >>> milestone(week, week[-1]), milestone(week, week[-2])
    (7, None)
    """
    run = run_ending(days, day)
    return run if run in MILESTONES else None


def reminder_text(streak_days: int, server: str, ends_at: float) -> str:
    """Return the direct message sent before a daily streak breaks: the streak, when the day ends, the command.

    >>> reminder_text(5, "Solitaire Club", 1767225600)  # doctest: +NORMALIZE_WHITESPACE
    "Your 5-day daily streak in **Solitaire Club** ends <t:1767225600:R> unless you play today's daily:
    `/solitaire daily` there. (You asked for these reminders; stop them with `/solitaire settings reminders: False`.)"
    """
    return (
        f"Your {streak_days}-day daily streak in **{server}** ends <t:{int(ends_at)}:R> unless you play today's "
        "daily: `/solitaire daily` there. (You asked for these reminders; stop them with "
        "`/solitaire settings reminders: False`.)"
    )


def already_played_line(result: DailyResult, today: date | None = None) -> str:
    """Return the refusal for a second attempt, quoting the first one's result and rank."""
    return (
        f"You already played {_day_words(result.daily_date, today)} {variant_title(result.variant)} daily: "
        f"{plural(result.score, 'point')} ({outcome(result.status, result.seconds_used)}) — "
        f"rank {result.rank} of {result.total}. Come back after the day rolls over."
    )


def ranked_line(entry: Ranked) -> str:
    """Return one leaderboard line: rank (a medal on the podium), player, score and time used."""
    place = MEDALS[entry.rank - 1] if entry.rank <= len(MEDALS) else f"`{entry.rank:>2}.`"
    return f"{place} <@{entry.user_id}> — **{entry.score}** in {format_time(entry.seconds_used)}"


def leaderboard_lines(board: Leaderboard, caller_id: int) -> list[str]:
    """Return the leaderboard's lines: the top, then the caller's own rank when it is outside the top."""
    if not board.top:
        return ["No results yet."]
    lines = [ranked_line(entry) for entry in board.top]
    shown = {entry.user_id for entry in board.top}
    if board.caller is not None and board.caller.user_id not in shown:
        lines += ["…", ranked_line(board.caller)]
    elif board.caller is None:
        lines.append(f"<@{caller_id}> has no result here yet.")
    lines.append(f"{board.total} ranked")
    return lines


@dataclass(frozen=True)
class Podium:
    """A day's top three per variant in one server."""

    daily_date: str
    places: dict[str, tuple[Ranked, ...]]
    """Variant name -> its best results, best first (at most three)."""

    @property
    def empty(self) -> bool:
        """Whether nobody finished a daily that day."""
        return not any(self.places.values())


def podium_lines(podium: Podium) -> list[str]:
    """Return the podium post: a heading, then each variant's medals (variants nobody played are skipped)."""
    lines = [f"**Daily podium for {podium.daily_date}**"]
    for variant, entries in podium.places.items():
        if entries:
            lines.append(f"__{variant_title(variant)}__")
            lines += [ranked_line(entry) for entry in entries]
    if podium.empty:
        lines.append("Nobody played the daily deals that day.")
    return lines


def stats_lines(stats: MemberStats) -> list[str]:
    """Return the stats summary: totals, streaks, then one line per variant played."""
    rate = stats.wins / stats.games if stats.games else 0.0
    lines = [
        f"<@{stats.user_id}>: {plural(stats.games, 'game')}, {plural(stats.wins, 'win')} ({rate:.0%})",
        f"Daily streak: {plural(stats.played.current, 'day')} (best {stats.played.best}) · "
        f"winning streak: {plural(stats.won.current, 'day')} (best {stats.won.best})",
    ]
    for v in stats.variants:
        lines.append(
            f"{variant_title(v.variant)}: {plural(v.games, 'game')}, {plural(v.wins, 'win')} ({v.win_rate:.0%}), "
            f"best {v.best_score}, average {v.average_score:.0f}"
        )
    return lines


RankRow = tuple[int, int, int | None, float]
"""A finished game for ranking: ``(user_id, score, seconds_used, finished_at)``."""

RANK_ORDER: tuple[tuple[str, bool], ...] = (
    ("score", True),
    ("seconds_used", False),
    ("finished_at", False),
    ("user_id", False),
)
"""The ranking rule, the one definition: ``(column, higher first)`` pairs, most important first.

Score (higher first), then time used (less first), then who finished first, then user id (so
the order is total). :func:`rank_key` and the SQL of :mod:`bot.storage.competition` are both
built from it; ``tests/bot/test_ranking_sql.py`` proves them equal on random results with ties.
"""


RankKey = tuple[float, ...]


def _compile_rank_key() -> Callable[[int, int, int, float], RankKey]:
    """Build the key function of :data:`RANK_ORDER` once: as fast as a hand-written tuple, and never out of step."""
    parts = ", ".join(f"{'-' if higher_first else ''}{column}" for column, higher_first in RANK_ORDER)
    source = f"lambda user_id, score, seconds_used, finished_at: ({parts},)"
    key: Callable[[int, int, int, float], RankKey] = eval(source, {"__builtins__": {}})  # our constant, not input
    return key


_row_key = _compile_rank_key()


def rank_key(entry: Ranked) -> RankKey:
    """Return the sort key of the ranking rule (smaller ranks first); unknown times rank last."""
    seconds = UNKNOWN_SECONDS if entry.seconds_used is None else entry.seconds_used
    return _row_key(entry.user_id, entry.score, seconds, entry.finished_at)


def sql_rank_order(prefix: str = "") -> str:
    """Return the ranking rule as an SQL ``ORDER BY`` list (columns of a finished result, never NULL)."""
    return ", ".join(f"{prefix}{column}{' DESC' if higher else ''}" for column, higher in RANK_ORDER)


def sql_ranks_before_terms(prefix: str = "") -> list[str]:
    """Return SQL conditions "this row ranks before the given result", one per column of the rule.

    The terms exclude each other (term *i*: the first *i* columns equal, column *i+1* better), so
    their counts add up; each is an index range. Their parameters come from :func:`sql_rank_params`.

    >>> sql_ranks_before_terms()[:2]
    ['score > ?', 'score = ? AND seconds_used < ?']
    """
    terms = []
    for i, (column, higher_first) in enumerate(RANK_ORDER):
        equal = [f"{prefix}{name} = ?" for name, _ in RANK_ORDER[:i]]
        terms.append(" AND ".join([*equal, f"{prefix}{column} {'>' if higher_first else '<'} ?"]))
    return terms


def sql_ranks_before(prefix: str = "") -> str:
    """Return one SQL condition "this row ranks before the given result" (parameters: :func:`sql_rank_params`)."""
    return " OR ".join(f"({term})" for term in sql_ranks_before_terms(prefix))


def sql_rank_params(entry: Ranked) -> list[tuple[object, ...]]:
    """Return the parameters of each term of :func:`sql_ranks_before_terms` for ``entry``, in order."""
    values = {
        "score": entry.score,
        "seconds_used": entry.seconds_used,
        "finished_at": entry.finished_at,
        "user_id": entry.user_id,
    }
    ordered = tuple(values[column] for column, _ in RANK_ORDER)
    return [ordered[: i + 1] for i in range(len(ordered))]


def rank_bests(results: Iterable[RankRow], caller_id: int, limit: int) -> tuple[tuple[Ranked, ...], Ranked | None, int]:
    """Keep each member's best result and rank them: return the top ``limit``, the caller's entry and the count.

    >>> top, me, total = rank_bests([(1, 50, 90, 1.0), (2, 70, 80, 2.0), (1, 70, 60, 3.0)], caller_id=2, limit=1)
    >>> [(e.rank, e.user_id, e.score) for e in top], (me.rank, me.user_id), total
    ([(1, 1, 70)], (2, 2), 2)
    """
    best: dict[int, tuple[RankKey, RankRow]] = {}
    for row in results:
        user_id, score, seconds_used, finished_at = row
        key = _row_key(user_id, score, UNKNOWN_SECONDS if seconds_used is None else seconds_used, finished_at)
        held = best.get(user_id)
        if held is None or key < held[0]:
            best[user_id] = (key, row)
    ordered = heapq.nsmallest(limit, best.values(), key=lambda kept: kept[0])
    top = tuple(_ranked(rank, row) for rank, (_, row) in enumerate(ordered, start=1))
    caller = None
    mine = best.get(caller_id)
    if mine is not None:
        caller = _ranked(1 + sum(1 for key, _ in best.values() if key < mine[0]), mine[1])
    return top, caller, len(best)


def _ranked(rank: int, row: RankRow) -> Ranked:
    user_id, score, seconds_used, finished_at = row
    return Ranked(rank, user_id, score, seconds_used, finished_at)


def best_first(entries: Sequence[Ranked]) -> list[Ranked]:
    """Sort results by the ranking rule (:data:`RANK_ORDER`)."""
    return sorted(entries, key=rank_key)
