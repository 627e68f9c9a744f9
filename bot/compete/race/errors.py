"""Race refusals: each is answered privately with its message.

Each is raised in the task of the member's command or click, so its message is said in the member's language.
"""

from __future__ import annotations

from bot import errors
from bot.compete.race.model import MIN_RACERS
from solitaire.speech import _, n_


class RaceError(errors.BotError):
    """A race refusal, answered privately with ``str(error)``."""


class UnknownRaceError(RaceError):
    """A button names a race that does not exist."""

    def __init__(self) -> None:
        super().__init__(_("That race does not exist any more."))


class LobbyClosedError(RaceError):
    """Joining, starting or cancelling a race that is no longer a lobby."""

    def __init__(self, status: str) -> None:
        if status == "running":
            super().__init__(_("This race has already started."))
        elif status == "finished":
            super().__init__(_("This race is over."))
        elif status == "cancelled":
            super().__init__(_("This race was cancelled."))
        else:
            super().__init__(_("This race lobby has expired."))


class LobbyFullError(RaceError):
    """No room left in a lobby."""

    def __init__(self) -> None:
        super().__init__(_("This race is full."))


class AlreadyRacingError(RaceError):
    """A member already in this race (or another open one here)."""

    def __init__(self, here: bool) -> None:
        super().__init__(_("You are already in this race.") if here else _("You are already in another race here."))


class NotRacerError(RaceError):
    """A member who is not in the race."""

    def __init__(self) -> None:
        super().__init__(_("You are not in this race: join it first."))


class HostOnlyError(RaceError):
    """Only the host may start or cancel."""

    def __init__(self, action: str) -> None:
        if action == "cancel":
            super().__init__(_("Only the host can cancel the race."))
        else:
            super().__init__(_("Only the host can start the race."))


class TooFewRacersError(RaceError):
    """Starting with fewer than two racers."""

    def __init__(self) -> None:
        super().__init__(
            n_("A race needs at least {count} racer.", "A race needs at least {count} racers.", MIN_RACERS)
        )


class NotStartedError(RaceError):
    """Opening a board before the common start instant."""

    def __init__(self, start_at: float) -> None:
        super().__init__(_("The race starts <t:{start}:R>: open your board then.", start=int(start_at)))


class NotStartedYetError(RaceError):
    """Opening a board while the race is still a lobby."""

    def __init__(self) -> None:
        super().__init__(_("The race has not started yet."))


class GameOverLeaveError(RaceError):
    """Leaving a running race after one's own game is over: the result stands."""

    def __init__(self) -> None:
        super().__init__(_("Your game is over, so your result stands: the race ends when the others finish."))


class RaceOverError(RaceError):
    """Opening a board of a race that is over for this racer."""

    def __init__(self) -> None:
        super().__init__(_("Your race is over: the results are on the race message."))
