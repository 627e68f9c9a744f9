"""Who finished where in a race or a challenge, and whether it may move ratings: the rules, as pure functions.

- A player **played** if they made at least one card move (a draw alone is not playing).
- Places follow the dailies' order (more points first, then less time used) among players who played and
  stayed; then players who played but left a race before their game ended (ranked after everyone who
  stayed); then everyone who never played, all sharing the last place. Equal results share a place
  ("1, 2, 2, 4"): a member's id never breaks a tie. All racers start at one instant, so the time used is
  the finishing order too.
- A race or challenge moves ratings only of the players who played, and only when at least two did. A
  forgotten member's stand-in (:mod:`bot.rules.stand_ins`) keeps its place but is never rated.
- The same two members count for at most :data:`PAIR_RATED_PER_DAY` rated races and challenges together
  per server day: one in which two of its players already reached that many that day is not rated at
  all. Three is a best-of-three between rivals: enough for honest play, while ten arranged races with an
  alt in a day no longer build a rating.

>>> a, b, c = Entry(1, True, True, 900, 80), Entry(2, True, True, 900, 80), Entry(3, False, True, 0, None)
>>> places([a, b, c])
{1: 1, 2: 1, 3: 3}
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.rules.stand_ins import is_stand_in
from solitaire.speech import _, n_

MIN_PLAYED = 2
"""Racers who must have played for a race to be rated."""
PAIR_RATED_PER_DAY = 3
"""Rated races the same two members may share per server day."""


@dataclass(frozen=True)
class Entry:
    """One racer's result as the rules read it."""

    user_id: int
    played: bool
    """Made at least one card move."""
    stayed: bool
    """Did not leave the race before their own game ended."""
    score: int
    seconds_used: int | None


def order_key(entry: Entry) -> tuple[int, int, float]:
    """The sort key of the finishing order: equal keys are equal results (a shared place)."""
    if not entry.played:
        return 2, 0, 0.0
    seconds = math.inf if entry.seconds_used is None else float(entry.seconds_used)
    return (0 if entry.stayed else 1), -entry.score, seconds


def places(entries: Iterable[Entry]) -> dict[int, int]:
    """Each racer's place (1 = winner); equal results share a place and the next place skips ("1, 2, 2, 4")."""
    ordered = sorted(entries, key=order_key)
    found: dict[int, int] = {}
    for index, entry in enumerate(ordered):
        same = index > 0 and order_key(ordered[index - 1]) == order_key(entry)
        found[entry.user_id] = found[ordered[index - 1].user_id] if same else index + 1
    return found


def rated_players(entries: Sequence[Entry], together: Mapping[tuple[int, int], int]) -> tuple[list[int], str | None]:
    """The players whose rating this race or challenge moves, or none and why (in words for its message).

    The words are said in the language spoken: the close speaks its server's (:mod:`bot.compete.events`).

    A stand-in never is, nor counts towards :data:`MIN_PLAYED`. ``together`` counts the rated races and
    challenges each pair ``(lower id, higher id)`` already shared this server day.
    """
    players = sorted(entry.user_id for entry in entries if entry.played and not is_stand_in(entry.user_id))
    if len(players) < MIN_PLAYED:
        # Translators: why a race's or a challenge's ratings did not move, after "Not rated:" on its results.
        return [], _("fewer than two players made a move")
    for first, second in itertools.combinations(players, 2):
        if together.get((first, second), 0) >= PAIR_RATED_PER_DAY:
            mentions = {"first": f"<@{first}>", "second": f"<@{second}>"}
            # Translators: why a race's or a challenge's ratings did not move, after "Not rated:" on its results.
            return [], n_(
                "{first} and {second} already had {count} rated game together today "
                "(the most for the same two members in a day)",
                "{first} and {second} already had {count} rated games together today "
                "(the most for the same two members in a day)",
                PAIR_RATED_PER_DAY,
                **mentions,
            )
    return players, None
