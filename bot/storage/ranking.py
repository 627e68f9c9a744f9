"""The ranking rule, defined once as data, and the SQL written from it.

:data:`RANK_ORDER` is the one definition; the SQL ``ORDER BY`` lists and "ranks before" conditions below
and :func:`bot.compete.ranking.rank_key` are both built from it, and ``tests/bot/test_ranking_sql.py``
proves them equal on random results with ties.
"""

from __future__ import annotations

from typing import Protocol

RANK_ORDER: tuple[tuple[str, bool], ...] = (
    ("score", True),
    ("seconds_used", False),
    ("finished_at", False),
    ("user_id", False),
)
"""The ranking rule, the one definition: ``(column, higher first)`` pairs, most important first.

Score (higher first), then time used (less first), then who finished first, then user id (so
the order is total). :func:`bot.compete.ranking.rank_key` and the SQL below are both built from it.
"""


class RankedResult(Protocol):
    """A finished result as the rule reads it (:class:`bot.compete.ranking.Ranked` is one)."""

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


def sql_rank_params(entry: RankedResult) -> list[tuple[object, ...]]:
    """Return the parameters of each term of :func:`sql_ranks_before_terms` for ``entry``, in order."""
    values = {
        "score": entry.score,
        "seconds_used": entry.seconds_used,
        "finished_at": entry.finished_at,
        "user_id": entry.user_id,
    }
    ordered = tuple(values[column] for column, _ in RANK_ORDER)
    return [ordered[: i + 1] for i in range(len(ordered))]
