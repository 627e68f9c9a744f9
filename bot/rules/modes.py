"""Each kind of game (casual, daily, race, challenge) as an object that answers for itself.

The one place a game's mode name is compared: everywhere else asks its :class:`GameMode`
(``mode_of(record.mode).credits_clock``), and the SQL conditions are written from the same objects
(:func:`bot.storage.conditions.sql_modes`), so Python and SQL cannot disagree. Practice is a casual game on a
chosen deal (``games.practice``), never ranked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from solitaire.speech import N_

ModeName = Literal["casual", "daily", "race", "challenge"]
"""The names stored in ``games.mode``."""


@dataclass(frozen=True, kw_only=True)
class GameMode:
    """What a kind of game allows and how it is shown (declared by keywords: each line says what it means)."""

    name: ModeName
    on_boards: bool
    """Ranked on the server's leaderboards (its finished results count there)."""
    event: bool
    """Played in a race or a challenge: its score and deal are public only by that event's rule."""
    hints: bool
    """A hint may be taken while it runs."""
    credits_clock: bool
    """The bot's own time on a press is given back to the player (not where all share one start and end)."""
    private_board: bool
    """Its board is shown to its player alone."""
    by_daily_date: bool
    """Its boards count days by the daily date, not by the finishing time."""
    opens_when: str | None
    """When its analysis and replay open, in words (``None``: as soon as the game is over); the refusal says it in
    a whole sentence of its own (:class:`bot.play.after_game.NotYetError`)."""
    deal_kind: str | None
    """How its board names its deal, marked with ``N_`` (``None``: ranked or practice, as the game says)."""
    from_lobby: bool = False
    """Started from a race lobby (so a seat in a lobby does not refuse it)."""
    offers_play_here: bool = False
    """Its running board offers Play here where the Activity is served (the Activity's menu starts and resumes
    casual, practice and daily games)."""


CASUAL = GameMode(
    name="casual",
    on_boards=True,
    event=False,
    hints=True,
    credits_clock=True,
    private_board=False,
    by_daily_date=False,
    opens_when=None,
    deal_kind=None,
    offers_play_here=True,
)
DAILY = GameMode(
    name="daily",
    on_boards=True,
    event=False,
    hints=False,
    credits_clock=True,
    private_board=True,
    by_daily_date=True,
    opens_when="once this server's day is over and every daily of that day is finished",
    # Translators: how a board names its deal: the daily deal (no day given).
    deal_kind=N_("daily"),
    offers_play_here=True,
)
RACE = GameMode(
    name="race",
    on_boards=False,
    event=True,
    hints=False,
    credits_clock=False,
    private_board=True,
    by_daily_date=False,
    opens_when="when the race ends",
    # Translators: how a board names its deal: a race's.
    deal_kind=N_("race deal"),
    from_lobby=True,
)
CHALLENGE = GameMode(
    name="challenge",
    on_boards=False,
    event=True,
    hints=False,
    credits_clock=True,
    private_board=True,
    by_daily_date=False,
    opens_when="when the challenge closes",
    # Translators: how a board names its deal: a challenge's.
    deal_kind=N_("challenge deal"),
)
MODES: dict[str, GameMode] = {mode.name: mode for mode in (CASUAL, DAILY, RACE, CHALLENGE)}
"""Every mode by its stored name."""


def mode_of(name: str) -> GameMode:
    """The mode stored as ``name``; :raises ValueError: for a name no mode has.

    >>> mode_of("race").credits_clock, mode_of("casual").hints
    (False, True)
    """
    try:
        return MODES[name]
    except KeyError:
        raise ValueError(f"unknown game mode {name!r}") from None
