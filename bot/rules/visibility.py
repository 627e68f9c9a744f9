"""When a finished game's score is public: one rule, in Python here and in SQL (:mod:`bot.storage.conditions`).

A casual game's or a daily's score is public as soon as the game ends. A race's or a challenge's is public
once its race or challenge is over; while it runs, only a challenge opened with scores shown as they come
(``open:``) shows it. Stats, stats cards and boards read only public scores; ``tests/bot/rules/test_visibility.py``
proves the SQL and the Python rule agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EventKind = Literal["race", "challenge"]

RACE_OVER = ("finished", "cancelled", "expired")
"""The statuses of a race that is over (any other, and its games' scores and deal stay private)."""
CHALLENGE_OVER = ("closed", "cancelled")
"""The statuses of a challenge that is over."""
_OVER: dict[EventKind, tuple[str, ...]] = {"race": RACE_OVER, "challenge": CHALLENGE_OVER}


@dataclass(frozen=True)
class EventState:
    """Where the race or challenge a game belongs to stands."""

    kind: EventKind
    status: str
    show_scores: bool = False
    """A challenge opened with ``open:``: its scores show as they come."""

    @property
    def over(self) -> bool:
        """Whether the race or challenge is over: nobody can still gain from its deal or its scores.

        >>> EventState("race", "running").over, EventState("challenge", "closed").over
        (False, True)
        """
        return self.status in _OVER[self.kind]


def score_public(event: EventState | None) -> bool:
    """Whether a finished game's score may be shown: ``event`` is its race or challenge (``None``: it has none).

    >>> score_public(None), score_public(EventState("challenge", "open")), score_public(EventState("race", "finished"))
    (True, False, True)
    >>> score_public(EventState("challenge", "open", show_scores=True))
    True
    """
    return event is None or event.over or (event.kind == "challenge" and event.show_scores)
