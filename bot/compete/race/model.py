"""A race's figures and what its public message shows: the limits, standings, results and snapshots."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.storage.races import RaceRecord, RacerRecord

MIN_RACERS = 2
MAX_RACERS = 8
LOBBY_SECONDS = 600.0
"""A lobby expires this long after it opened without a start."""
COUNTDOWN_SECONDS = 10.0
"""The common start instant is this far after the start click (time to open the boards)."""
STANDINGS_INTERVAL = 2.0
"""At most one standings update per race in this many seconds (Discord's edit rate limits)."""
END_GRACE = 1.0
"""After the race's end, wait this long for the racers' clocks before ending what is left."""


@dataclass(frozen=True)
class Standing:
    """One racer's place in the live standings."""

    user_id: int
    status: str
    """``waiting`` (before the start), ``playing``, ``left``, or the game's final status."""
    placed: int
    """Cards home."""
    score: int
    seconds_used: int | None = None
    finished_at: float | None = None
    moves: int = 0


@dataclass(frozen=True)
class RaceResult:
    """One racer's final line: place, score, time and rating change."""

    place: int
    user_id: int
    score: int
    seconds_used: int | None
    status: str
    rating_before: float
    rating_after: float | None
    """``None``: this race did not move the racer's rating (see the race's ``unrated_reason``)."""
    races: int
    provisional: bool


@dataclass(frozen=True)
class RaceSnapshot:
    """What the public race message shows now."""

    race: RaceRecord
    racers: tuple[int, ...]
    """User ids in joining order (racers who left a lobby are gone)."""
    standings: tuple[Standing, ...] = ()
    results: tuple[RaceResult, ...] = ()


Publisher = Callable[[RaceSnapshot], Awaitable[None]]
"""Shows a snapshot on the public race message (the cog edits it); must not raise."""


@dataclass
class LiveRace:
    """In-memory state of one open race."""

    race: RaceRecord
    task: asyncio.Task[None] | None = None
    """The lobby's expiry, or the running race's end."""
    shown: tuple[Standing, ...] | None = None
    last_publish: float | None = None
    finals: dict[int, Standing] = field(default_factory=dict)
    """Final standings of finished games, by game id."""
    rows: tuple[RaceRecord, list[RacerRecord]] | None = None
    """A running race's row and racers as last read (standings are built from them without a read per update);
    dropped whenever the service writes either."""
    generation: int = 0
    """Counts the drops of :attr:`rows` (a read begun before a drop is not kept)."""
