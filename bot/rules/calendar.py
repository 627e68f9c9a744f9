"""Server days: time zones, dates and rollovers, a server's day clock, and the periods a leaderboard covers.

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
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from enum import Enum
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from solitaire.speech import _

DEFAULT_TIMEZONE = "UTC"
_SECOND = timedelta(seconds=1)


class InvalidTimezoneError(ValueError):
    """A time zone name that is not in the IANA database; the message suggests one."""


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
    bot.rules.calendar.InvalidTimezoneError: unknown time zone 'Paris': did you mean Europe/Paris?
    """
    cleaned = name.strip().replace(" ", "_")
    canonical = _zone_names().get(cleaned.lower())
    if canonical is not None:
        return canonical
    hint = _suggest(cleaned)
    if hint:
        raise InvalidTimezoneError(
            _("unknown time zone {name}: did you mean {zone}?", name=repr(name.strip()), zone=hint)
        )
    raise InvalidTimezoneError(
        _(
            "unknown time zone {name}: use an IANA name such as Europe/Paris or America/New_York",
            name=repr(name.strip()),
        )
    )


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
