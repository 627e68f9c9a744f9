"""Counted nouns for every message and picture ("1 move", "2 moves")."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """Return ``count`` with ``word``, plural unless the count is one.

    >>> plural(1, "game"), plural(2, "day"), plural(0, "win"), plural(-1, "point")
    ('1 game', '2 days', '0 wins', '-1 points')
    """
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
