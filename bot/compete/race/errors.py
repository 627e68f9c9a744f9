"""Race refusals: each is answered privately with its message."""

from __future__ import annotations

from bot import errors
from bot.compete.race.model import MIN_RACERS


class RaceError(errors.BotError):
    """A race refusal, answered privately with ``str(error)``."""


class UnknownRaceError(RaceError):
    """A button names a race that does not exist."""

    def __init__(self) -> None:
        super().__init__("That race does not exist any more.")


class LobbyClosedError(RaceError):
    """Joining, starting or cancelling a race that is no longer a lobby."""

    def __init__(self, status: str) -> None:
        words = {"running": "has already started", "finished": "is over", "cancelled": "was cancelled"}
        super().__init__(f"This race {words.get(status, 'lobby has expired')}.")


class LobbyFullError(RaceError):
    """No room left in a lobby."""

    def __init__(self) -> None:
        super().__init__("This race is full.")


class AlreadyRacingError(RaceError):
    """A member already in this race (or another open one here)."""

    def __init__(self, here: bool) -> None:
        super().__init__("You are already in this race." if here else "You are already in another race here.")


class NotRacerError(RaceError):
    """A member who is not in the race."""

    def __init__(self) -> None:
        super().__init__("You are not in this race: join it first.")


class HostOnlyError(RaceError):
    """Only the host may start or cancel."""

    def __init__(self, action: str) -> None:
        super().__init__(f"Only the host can {action} the race.")


class TooFewRacersError(RaceError):
    """Starting with fewer than two racers."""

    def __init__(self) -> None:
        super().__init__(f"A race needs at least {MIN_RACERS} racers.")


class NotStartedError(RaceError):
    """Opening a board before the common start instant."""

    def __init__(self, start_at: float) -> None:
        super().__init__(f"The race starts <t:{int(start_at)}:R>: open your board then.")


class NotStartedYetError(RaceError):
    """Opening a board while the race is still a lobby."""

    def __init__(self) -> None:
        super().__init__("The race has not started yet.")


class GameOverLeaveError(RaceError):
    """Leaving a running race after one's own game is over: the result stands."""

    def __init__(self) -> None:
        super().__init__("Your game is over, so your result stands: the race ends when the others finish.")


class RaceOverError(RaceError):
    """Opening a board of a race that is over for this racer."""

    def __init__(self) -> None:
        super().__init__("Your race is over: the results are on the race message.")
