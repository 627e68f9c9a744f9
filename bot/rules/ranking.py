"""Standings: ranked results, leaderboards, a day's podium, and the ranking rule applied in Python.

The rule itself is defined once, as data (:data:`bot.rules.ranking.RANK_ORDER`): the SQL that ranks
and :func:`rank_key` are both built from it. Nothing here touches Discord or SQL.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.rules.calendar import Period

UNKNOWN_SECONDS = 1 << 30
"""Stands in for a missing time used when ranking (ranks after every real time)."""

RANK_ORDER: tuple[tuple[str, bool], ...] = (
    ("score", True),
    ("seconds_used", False),
    ("finished_at", False),
    ("user_id", False),
)
"""The ranking rule, the one definition: ``(column, higher first)`` pairs, most important first.

Score (higher first), then time used (less first), then who finished first, then user id (so
the order is total). :func:`bot.rules.ranking.rank_key` and the SQL below are both built from it.
"""


class RankedResult(Protocol):
    """A finished result as the rule reads it (:class:`bot.rules.ranking.Ranked` is one)."""

    @property
    def user_id(self) -> int:
        """Who played it."""

    @property
    def score(self) -> int:
        """Its score."""

    @property
    def seconds_used(self) -> int | None:
        """The time it took (never ``None`` for a finished result in SQL)."""

    @property
    def finished_at(self) -> float:
        """When it finished (unix seconds)."""


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


RankRow = tuple[int, int, int | None, float]
"""A finished game for ranking: ``(user_id, score, seconds_used, finished_at)``."""


RankKey = tuple[float, ...]
"""The sort key of a result: the columns of :data:`RANK_ORDER` in order, negated where higher ranks first."""


def _row_key(user_id: int, score: int, seconds_used: int | None, finished_at: float) -> RankKey:
    """Return the key of the ranking rule for one result (smaller ranks first); an unknown time ranks last.

    :data:`RANK_ORDER` written out as a plain tuple (the fastest key Python has); the tests hold it to the
    rule, as they hold the SQL built from it (``tests/bot/storage/test_ranking_sql.py``).

    >>> _row_key(7, 1200, None, 5.0) > _row_key(8, 1200, 300, 9.0) > _row_key(9, 1300, 900, 9.0)
    True
    """
    return (-score, UNKNOWN_SECONDS if seconds_used is None else seconds_used, finished_at, user_id)


def rank_key(entry: Ranked) -> RankKey:
    """Return the sort key of the ranking rule (smaller ranks first); unknown times rank last."""
    return _row_key(entry.user_id, entry.score, entry.seconds_used, entry.finished_at)


def rank_bests(results: Iterable[RankRow], caller_id: int, limit: int) -> tuple[tuple[Ranked, ...], Ranked | None, int]:
    """Keep each member's best result and rank them: return the top ``limit``, the caller's entry and the count.

    >>> top, me, total = rank_bests([(1, 50, 90, 1.0), (2, 70, 80, 2.0), (1, 70, 60, 3.0)], caller_id=2, limit=1)
    >>> [(e.rank, e.user_id, e.score) for e in top], (me.rank, me.user_id), total
    ([(1, 1, 70)], (2, 2), 2)
    """
    best: dict[int, tuple[RankKey, RankRow]] = {}
    for row in results:
        key = _row_key(*row)
        held = best.get(row[0])
        if held is None or key < held[0]:
            best[row[0]] = (key, row)
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
