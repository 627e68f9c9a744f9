"""The SQL twins of the rules of competing: which modes a condition picks, and when a finished game's score is public.

Written from the rules themselves (:mod:`bot.rules.modes`, :mod:`bot.rules.visibility`), so Python and SQL
cannot disagree; ``tests/bot/rules/test_visibility.py`` checks the score rule on both backends.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.rules.modes import MODES, GameMode
from bot.rules.visibility import CHALLENGE_OVER, RACE_OVER


def sql_modes(which: Callable[[GameMode], bool]) -> str:
    """A SQL condition on ``mode`` holding for the modes ``which`` picks (literals, so partial indexes apply).

    >>> sql_modes(lambda mode: mode.on_boards)
    "mode IN ('casual', 'daily')"
    """
    names = ", ".join(f"'{mode.name}'" for mode in MODES.values() if which(mode))
    return f"mode IN ({names})"


def sql_score_public(game_id: str = "games.id") -> str:
    """The SQL twin of :func:`score_public` for the game whose id is the column ``game_id``."""
    races = ", ".join(f"'{status}'" for status in RACE_OVER)
    challenges = ", ".join(f"'{status}'" for status in CHALLENGE_OVER)
    return (
        "(NOT EXISTS (SELECT 1 FROM race_racers AS hidden_racer JOIN races AS hidden_race"
        f" ON hidden_race.id = hidden_racer.race_id WHERE hidden_racer.game_id = {game_id}"
        f" AND hidden_race.status NOT IN ({races}))"
        " AND NOT EXISTS (SELECT 1 FROM challenge_players AS hidden_player JOIN challenges AS hidden_challenge"
        f" ON hidden_challenge.id = hidden_player.challenge_id WHERE hidden_player.game_id = {game_id}"
        f" AND hidden_challenge.status NOT IN ({challenges}) AND hidden_challenge.show_scores = 0))"
    )
