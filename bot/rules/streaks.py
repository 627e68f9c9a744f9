"""Streaks of days: the run still alive and the longest, and the milestones a daily streak names.

>>> from datetime import date
>>> run_ending([date(2024, 5, 9), date(2024, 5, 10)], date(2024, 5, 10))
2
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta


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
