"""A member's statistics in one server: games, wins and scores per variant, and their daily streaks."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.streaks import Streak


@dataclass(frozen=True)
class VariantStats:
    """A member's finished games of one variant in one server."""

    variant: str
    games: int
    wins: int
    best_score: int
    total_score: int

    @property
    def win_rate(self) -> float:
        """Wins as a fraction of games (0 when none)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def average_score(self) -> float:
        """The mean score (0 when none)."""
        return self.total_score / self.games if self.games else 0.0


@dataclass(frozen=True)
class MemberStats:
    """Everything `/solitaire stats` shows for one member of one server."""

    user_id: int
    variants: tuple[VariantStats, ...]
    played: Streak
    won: Streak

    @property
    def games(self) -> int:
        """Finished games over every variant."""
        return sum(v.games for v in self.variants)

    @property
    def wins(self) -> int:
        """Won games over every variant."""
        return sum(v.wins for v in self.variants)
