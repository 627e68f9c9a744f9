"""The SQL written from the ranking rule.

:data:`bot.rules.ranking.RANK_ORDER` is the one definition; the SQL ``ORDER BY`` lists and "ranks before"
conditions below and :func:`bot.rules.ranking.rank_key` are both built from it, and
``tests/bot/storage/test_ranking_sql.py`` proves them equal on random results with ties.
"""

from __future__ import annotations

from bot.rules.ranking import RANK_ORDER, RankedResult


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
