"""Multiplayer ratings from finishing orders: a thin wrapper over openskill's Plackett-Luce model.

A member's skill is openskill's ``(mu, sigma)``; what players see is one number,
``1000 + 40 * (mu - 3 * sigma)`` (1000 for a newcomer), which only grows as the
uncertainty shrinks. Members with fewer than :data:`PROVISIONAL_RACES` races are provisional.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

PROVISIONAL_RACES = 5
"""Below this many races a rating is marked provisional."""
_BASE = 1000.0
_SCALE = 40.0
_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    """One member's rating in a server and variant."""

    mu: float
    sigma: float
    races: int = 0

    @property
    def display(self) -> float:
        """The rating players see.

        >>> round(Skill(25.0, 25 / 3).display)
        1000
        """
        return _BASE + _SCALE * (self.mu - 3 * self.sigma)

    @property
    def provisional(self) -> bool:
        """Whether too few races back this rating."""
        return self.races < PROVISIONAL_RACES

    @property
    def text(self) -> str:
        """The rating as players see it (:func:`rating_text`)."""
        return rating_text(self.display, provisional=self.provisional)


def rating_text(display: float, *, provisional: bool) -> str:
    """A rating as every message writes it: rounded, with ``?`` while provisional.

    >>> rating_text(1155.6, provisional=True), rating_text(1000.2, provisional=False)
    ('1156?', '1000')
    """
    return f"{round(display)}{'?' if provisional else ''}"


def rating_change_text(before: float, after: float, *, provisional: bool) -> str:
    """A rating after a race or challenge and its change, as the results write it.

    >>> rating_change_text(1032.4, 1155.6, provisional=True)
    '1156? (+124)'
    """
    return f"{rating_text(after, provisional=provisional)} ({round(after) - round(before):+d})"


def newcomer() -> Skill:
    """The rating of a member who never raced."""
    rating = _MODEL.rating()
    return Skill(rating.mu, rating.sigma, 0)


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Return the new ratings of racers who finished at ``places`` (1 = winner; equal places tie), one race more each.

    >>> winner, loser = rate([newcomer(), newcomer()], [1, 2])
    >>> winner.display > 1000 > loser.display, winner.races
    (True, 1)
    >>> first, second = rate([newcomer(), newcomer()], [1, 1])
    >>> round(first.display) == round(second.display)
    True
    """
    if len(skills) != len(places):
        raise ValueError(f"{len(skills)} ratings for {len(places)} places")
    if len(skills) < 2:
        return [Skill(s.mu, s.sigma, s.races + 1) for s in skills]
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma, s.races + 1) for team, s in zip(rated, skills, strict=True)]
