"""Whether a finished game's competition is over (nobody can still gain from its deal): each mode's service answers.

The runtime registers, per mode, the service that answers for it (the daily for dailies, the race service
for races, the challenge service for challenges); a mode nobody answers for is over when its game is
(:attr:`bot.rules.modes.GameMode.opens_when` is ``None``) or never.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from bot.rules.modes import GameMode, mode_of
from bot.storage.games import GameRecord

OverCheck = Callable[[GameRecord], Awaitable[bool]]
"""Answers, for a finished game of its mode, whether its competition is over."""


class CompetitionsOver:
    """The service that answers for each mode whether a finished game's competition is over."""

    def __init__(self, checks: Mapping[GameMode, OverCheck] | None = None) -> None:
        """Start with ``checks``, the answering service of each mode."""
        self._checks: dict[GameMode, OverCheck] = dict(checks or {})

    def answer(self, mode: GameMode, check: OverCheck) -> None:
        """Let ``check`` answer for the games of ``mode``."""
        self._checks[mode] = check

    async def over(self, record: GameRecord) -> bool:
        """Whether nobody can still gain from the deal of ``record``, a finished game (asks its mode's service)."""
        mode = mode_of(record.mode)
        check = self._checks.get(mode)
        return await check(record) if check is not None else mode.opens_when is None
