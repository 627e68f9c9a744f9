"""Where a game stands: playing, or how it ended (the engine sets it, a view shows it)."""

from __future__ import annotations

from enum import Enum


class Status(Enum):
    """Where a game stands."""

    PLAYING = "playing"
    WON = "won"
    ENDED = "ended"
    STUCK = "stuck"
    EXPIRED = "expired"
