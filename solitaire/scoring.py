"""The Rush scoring table, the time bonus and a score sheet that itemises both."""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter

from solitaire.speech import N_, _

REVEAL_POINTS = 10
WASTE_MOVE_POINTS = 10
FOUNDATION_RETURN_PENALTY = 10
FRIDAY13_CARD_POINTS = 10
FRIDAY13_START_POINTS = 20
HINT_PENALTY = 50
"""Points each hint costs (casual games only)."""


def foundation_points(rank: int) -> int:
    """Points a card of ``rank`` earns the first time it reaches a foundation (A 50 .. 9 10, else 5).

    >>> [foundation_points(rank) for rank in (1, 2, 9, 10, 13)]
    [50, 45, 10, 5, 5]
    """
    return 55 - 5 * rank if rank <= 9 else 5


def time_bonus(limit: int, seconds: int, placed: int, total: int) -> int:
    """Return ``floor((limit - T) * placed / total)`` with T clamped to ``0..limit``.

    >>> time_bonus(300, 100, 26, 52)
    100
    """
    used = min(max(seconds, 0), limit)
    return (limit - used) * placed // total


@dataclass(frozen=True)
class ScoreSheet:
    """A score broken into its lines; ``total`` is what the player sees."""

    cards: int = 0
    """Card values on reaching a foundation (Friday 13: +10 per card played)."""
    reveals: int = 0
    waste_moves: int = 0
    starts: int = 0
    """Friday 13: +20 per foundation started."""
    foundation_returns: int = 0
    """Negative: -10 per foundation-to-tableau move."""
    recycles: int = 0
    """Negative: penalties for returning the waste to the stock."""
    time_bonus: int = 0
    hints: int = 0
    """Negative: -50 per hint taken (the game is then hinted)."""

    @property
    def total(self) -> int:
        """The sum of every line."""
        return sum(_lines_of(self))

    def lines(self) -> list[tuple[str, int]]:
        """The non-zero lines as ``(label, points)``, for a final picture or a summary (said in the spoken language)."""
        return [(_(LABELS[name]), points) for name, points in zip(LINES, _lines_of(self), strict=True) if points]

    def points(self) -> tuple[int, ...]:
        """The points on each line, in the order of the fields (``ScoreSheet(*sheet.points())`` is ``sheet``)."""
        return _lines_of(self)

    def to_dict(self) -> dict[str, int]:
        """The lines and the total as a JSON-ready dict."""
        data = dict(zip(LINES, _lines_of(self), strict=True))
        data["total"] = self.total
        return data


LINES = tuple(field.name for field in fields(ScoreSheet))
"""The names of a score sheet's lines, in order."""
_lines_of = attrgetter(*LINES)
"""A sheet's points on each line, in :data:`LINES`' order."""
LABELS = {
    # Translators: a line of a game's score breakdown: points for cards placed on the foundations
    "cards": N_("Cards to foundations"),
    # Translators: a line of a game's score breakdown: points for face-down cards turned face up
    "reveals": N_("Cards turned up"),
    # Translators: a line of a game's score breakdown: points for cards played from the waste
    "waste_moves": N_("Moves from the waste"),
    # Translators: a line of a game's score breakdown (Friday 13): points for empty foundations started
    "starts": N_("Foundations started"),
    # Translators: a line of a game's score breakdown: penalties for cards taken back down from a foundation
    "foundation_returns": N_("Foundation returns"),
    # Translators: a line of a game's score breakdown: penalties for turning the waste back into the stock
    "recycles": N_("Stock returns"),
    # Translators: a line of a game's score breakdown: the bonus for the seconds left on the clock
    "time_bonus": N_("Time bonus"),
    # Translators: a line of a game's score breakdown: penalties for hints taken
    "hints": N_("Hints"),
}
"""The label of each line (English, marked for the catalogue: :meth:`ScoreSheet.lines` says it)."""
