"""What a member's stats card shows, as plain data and in words (its alt text): no drawing here.

A :class:`StatsCard` is a plain picklable record with no Discord in it: the bot builds one from its
database (``bot/compete/stats_card.py``), the render workers draw it (:mod:`render.stats_card`), and
:func:`describe_stats_card` says the same in words. It holds scores, dates, records and ratings, never
a deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from solitaire.variants import find_variant
from solitaire.words import plural

SCORES_SHOWN = 30
"""The chart of daily scores shows this many of the member's last dailies."""
WEEKS = 12
"""The calendar shows this many weeks (Monday to Sunday), the current one last."""
RACE_POINTS = 40
"""The rating chart shows at most this many of a variant's last rated races."""
NAME_LIMIT = 24
"""A longer member name is cut (with an ellipsis) to fit the header."""


@dataclass(frozen=True)
class DailyScore:
    """One finished daily of the member: its server date, variant, score and whether it was won."""

    day: date
    variant: str
    score: int
    won: bool


@dataclass(frozen=True)
class VariantRecord:
    """The member's finished games of one variant in the server."""

    variant: str
    games: int
    wins: int
    best: int

    @property
    def win_rate(self) -> float:
        """Wins as a fraction of games (0 when none)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class RatingSeries:
    """A racer's displayed rating in one variant: before their first rated race shown, then after each."""

    variant: str
    ratings: tuple[float, ...]


@dataclass(frozen=True)
class StatsCard:
    """Everything the card shows, for one member of one server (picklable: it goes to a render worker)."""

    name: str
    today: date
    """The server's date: the calendar's last day."""
    scores: tuple[DailyScore, ...] = ()
    """The member's last finished dailies, oldest first (the chart shows the last :data:`SCORES_SHOWN`)."""
    played: frozenset[date] = field(default_factory=frozenset)
    """Server days with a finished daily (any variant)."""
    won: frozenset[date] = field(default_factory=frozenset)
    """Server days with a won daily."""
    streak: int = 0
    best_streak: int = 0
    variants: tuple[VariantRecord, ...] = ()
    ratings: tuple[RatingSeries, ...] = ()
    """Empty for a member who never raced: the card then has no rating chart."""

    @property
    def shown_scores(self) -> tuple[DailyScore, ...]:
        """The dailies the chart shows."""
        return self.scores[-SCORES_SHOWN:]

    @property
    def first_day(self) -> date:
        """The calendar's first day: the Monday :data:`WEEKS` weeks back."""
        return self.today - timedelta(days=self.today.weekday() + 7 * (WEEKS - 1))

    @property
    def days_shown(self) -> int:
        """Days in the calendar up to today."""
        return (self.today - self.first_day).days + 1

    @property
    def days_played(self) -> int:
        """Days of the calendar with a finished daily."""
        return sum(1 for day in self.played if self.first_day <= day <= self.today)


def short_title(variant: str) -> str:
    """The variant's name where room is short."""
    rules = find_variant(variant)
    return rules.short_title or rules.title


def clean_name(name: str) -> str:
    """The member's name on one line, at most :data:`NAME_LIMIT` characters."""
    flat = " ".join(name.split()) or "?"
    return flat if len(flat) <= NAME_LIMIT else flat[: NAME_LIMIT - 1] + "…"


def day_label(day: date, today: date) -> str:
    """``today``, ``yesterday`` or ``3 Mar``.

    >>> day_label(date(2026, 3, 3), date(2026, 3, 9)), day_label(date(2026, 3, 8), date(2026, 3, 9))
    ('3 Mar', 'yesterday')
    """
    if day == today:
        return "today"
    if day == today - timedelta(days=1):
        return "yesterday"
    return f"{day.day} {day:%b}"


def describe_stats_card(card: StatsCard) -> str:
    """The card in words, for its alt text (what a screen reader says instead of the picture)."""
    parts = [
        f"Stats card of {clean_name(card.name)}.",
        f"Daily streak {plural(card.streak, 'day')} (best {plural(card.best_streak, 'day')}); "
        f"dailies played on {card.days_played} of the last {card.days_shown} days.",
    ]
    shown = card.shown_scores
    if shown:
        scores = [s.score for s in shown]
        parts.append(
            f"Last {plural(len(shown), 'daily score')} from {day_label(shown[0].day, card.today)} to "
            f"{day_label(shown[-1].day, card.today)}: lowest {min(scores):,}, highest {max(scores):,}, "
            f"latest {scores[-1]:,}."
        )
    else:
        parts.append("No daily finished yet.")
    for record in card.variants:
        parts.append(
            f"{short_title(record.variant)}: {plural(record.games, 'game')}, {record.win_rate:.0%} won, "
            f"best {record.best:,}."
        )
    for s in card.ratings:
        if s.ratings:
            parts.append(
                f"{short_title(s.variant)} race rating {s.ratings[-1]:,.0f} "
                f"after {plural(len(s.ratings) - 1, 'rated race')} shown (from {s.ratings[0]:,.0f})."
            )
    return " ".join(parts)
