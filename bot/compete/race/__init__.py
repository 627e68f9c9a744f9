"""Races: a lobby, then one proven deal for every racer on a shared clock, live standings, results and ratings.

Nothing here knows Discord. Each racer's game is an ordinary session of the
:class:`~bot.play.sessions.SessionManager` (mode ``"race"``): every move goes through the
engine and is saved with its log, and the game's clock is the race's (it starts at the
common start instant and ends at the race's end). The service keeps the race rows,
decides when a race starts and ends, ranks the racers as the dailies do, updates their
ratings once (claimed in the database) and hands what the public race message should
show to ``publish``: at most one standings update per race every :data:`STANDINGS_INTERVAL`.

The service is composed of parts, none built on another: :mod:`~bot.compete.race.standings` (what the
message shows), :mod:`~bot.compete.race.start` (the common start, boards, the clock to the end) and
:mod:`~bot.compete.race.finish` (the race's hooks of the close it shares with challenges,
:mod:`bot.compete.events`); :mod:`~bot.compete.race.service` holds the lobbies and resumes races after a restart.
"""

from bot.compete.race.errors import (
    AlreadyRacingError,
    GameOverLeaveError,
    HostOnlyError,
    LobbyClosedError,
    LobbyFullError,
    NotRacerError,
    NotStartedError,
    NotStartedYetError,
    RaceError,
    RaceOverError,
    TooFewRacersError,
    UnknownRaceError,
)
from bot.compete.race.model import (
    COUNTDOWN_SECONDS,
    END_GRACE,
    LOBBY_SECONDS,
    MAX_RACERS,
    MIN_RACERS,
    STANDINGS_INTERVAL,
    Publisher,
    RaceResult,
    RaceSnapshot,
    Standing,
)
from bot.compete.race.service import MessagePoster, RaceService

__all__ = [
    "COUNTDOWN_SECONDS",
    "END_GRACE",
    "LOBBY_SECONDS",
    "MAX_RACERS",
    "MIN_RACERS",
    "STANDINGS_INTERVAL",
    "AlreadyRacingError",
    "GameOverLeaveError",
    "HostOnlyError",
    "LobbyClosedError",
    "LobbyFullError",
    "MessagePoster",
    "NotRacerError",
    "NotStartedError",
    "NotStartedYetError",
    "Publisher",
    "RaceError",
    "RaceOverError",
    "RaceResult",
    "RaceService",
    "RaceSnapshot",
    "Standing",
    "TooFewRacersError",
    "UnknownRaceError",
]
