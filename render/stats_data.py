"""What a member's stats card shows, as plain data and in words (its alt text): no drawing here.

A :class:`StatsCard` is a plain picklable record with no Discord in it: the bot builds one from its
database (``bot/compete/stats_card.py``), the render workers draw it (:mod:`render.stats_card`), and
:func:`describe_stats_card` says the same in words. It holds scores, dates, records and ratings, never
a deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from languages import formats
from solitaire.speech import _, n_
from solitaire.variants import find_variant

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
    """The variant's name where room is short (in the language spoken: the rules say their names)."""
    rules = find_variant(variant)
    return rules.short_title or rules.title


def clean_name(name: str) -> str:
    """The member's name on one line, at most :data:`NAME_LIMIT` characters."""
    flat = " ".join(name.split()) or "?"
    return flat if len(flat) <= NAME_LIMIT else flat[: NAME_LIMIT - 1] + "…"


def day_label(day: date, today: date) -> str:
    """``today``, ``yesterday`` or ``3 Mar`` (another language: its date, :func:`languages.formats.day`).

    >>> day_label(date(2026, 3, 3), date(2026, 3, 9)), day_label(date(2026, 3, 8), date(2026, 3, 9))
    ('3 Mar', 'yesterday')
    """
    if day == today:
        # Translators: a day on the stats card's chart (and in its description).
        return _("today")
    if day == today - timedelta(days=1):
        # Translators: a day on the stats card's chart (and in its description).
        return _("yesterday")
    if formats.spoken_locale() is None:
        return f"{day.day} {day:%b}"
    return formats.day(day)


def _days(count: int) -> str:
    """``count`` days, in words."""
    return n_("{count} day", "{count} days", count)


def describe_stats_card(card: StatsCard) -> str:
    """The card in words, for its alt text (what a screen reader says instead of the picture)."""
    parts = [
        # Translators: the first sentence of the stats card's description (alt text); {name} is a member's name.
        _("Stats card of {name}.", name=clean_name(card.name)),
        # Translators: the stats card's description; {streak} and {best} are "9 days", {played} of {days} are counts.
        _(
            "Daily streak {streak} (best {best}); dailies played on {played} of the last {days} days.",
            streak=_days(card.streak),
            best=_days(card.best_streak),
            played=card.days_played,
            days=card.days_shown,
        ),
    ]
    shown = card.shown_scores
    if shown:
        scores = [s.score for s in shown]
        parts.append(
            n_(
                "Last {count} daily score from {first} to {last}: lowest {lowest}, highest {highest}, latest {latest}.",
                "Last {count} daily scores from {first} to {last}: "
                "lowest {lowest}, highest {highest}, latest {latest}.",
                len(shown),
                first=day_label(shown[0].day, card.today),
                last=day_label(shown[-1].day, card.today),
                lowest=formats.number(min(scores)),
                highest=formats.number(max(scores)),
                latest=formats.number(scores[-1]),
            )
        )
    else:
        parts.append(_("No daily finished yet."))
    for record in card.variants:
        parts.append(
            # Translators: a line of the stats card's description: a game, its games played, the share won, the best.
            n_(
                "{variant}: {count} game, {percent}% won, best {best}.",
                "{variant}: {count} games, {percent}% won, best {best}.",
                record.games,
                variant=short_title(record.variant),
                percent=percent(record.win_rate),
                best=formats.number(record.best),
            )
        )
    for s in card.ratings:
        if s.ratings:
            parts.append(
                n_(
                    "{variant} race rating {rating} after {count} rated race shown (from {first}).",
                    "{variant} race rating {rating} after {count} rated races shown (from {first}).",
                    len(s.ratings) - 1,
                    variant=short_title(s.variant),
                    rating=formats.number(round(s.ratings[-1])),
                    first=formats.number(round(s.ratings[0])),
                )
            )
    return " ".join(parts)


def percent(share: float) -> int:
    """A share as a whole percentage (``0.375`` is 38, rounded as ``f"{share:.0%}"`` rounds).

    >>> percent(0.375), percent(0.29), percent(1.0)
    (38, 29, 100)
    """
    return round(share * 100)
