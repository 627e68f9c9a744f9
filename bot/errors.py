"""Errors the bot shows to players: each message is one short sentence, safe to send as is.

Each message is said when the error is raised (:func:`solitaire.speech._`): errors are raised inside the member's
own interaction, which speaks their language.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from languages.formats import day, number
from solitaire.speech import N_, _, n_


class BotError(Exception):
    """Base class: a refusal the cog answers privately with ``str(error)``."""


class NoActiveGameError(BotError):
    """The player has no game running in this server."""

    def __init__(self) -> None:
        super().__init__(_("You have no game running here: start one with `/solitaire start`."))


class ActiveGameError(BotError):
    """The player already has a game running in this server."""

    def __init__(self, game_id: int) -> None:
        super().__init__(_("You already have a game running here: resume it or end it first."))
        self.game_id = game_id


class AlreadyPlayedError(BotError):
    """The player already played this daily game."""

    def __init__(self, variant: str, daily_date: str | None) -> None:
        if daily_date is None:
            text = _("You already played the {variant} daily for today: one try per day.", variant=variant)
        else:
            text = _(
                "You already played the {variant} daily for {date}: one try per day.",
                variant=variant,
                date=_day(daily_date),
            )
        super().__init__(text)
        self.variant = variant
        self.daily_date = daily_date or "today"


def _day(iso: str) -> str:
    """A stored daily date (``2026-11-29``) as the language writes a day (as stored if it is not a date)."""
    try:
        return day(date.fromisoformat(iso))
    except ValueError:
        return iso


class UnknownGameError(BotError):
    """A button or command names a game that is not running (or never existed)."""

    def __init__(self) -> None:
        super().__init__(_("That game is not running any more."))


class NotYourGameError(BotError):
    """Someone clicked another player's board."""

    def __init__(self, owner_id: int) -> None:
        super().__init__(_("This is <@{owner}>'s game: start your own with `/solitaire start`.", owner=owner_id))
        self.owner_id = owner_id


class StaleBoardError(BotError):
    """A click on a board that no longer shows the game as it is."""

    def __init__(self) -> None:
        super().__init__(_("That board is out of date: use the latest one (your click changed nothing)."))


class NotStartedGameError(BotError):
    """A board asked for before its game's start (a race's, during the countdown: its deal is secret)."""

    def __init__(self) -> None:
        super().__init__(_("That game has not started yet: its board opens at the start."))


class GameEndedError(BotError):
    """A command for a game that has ended."""

    def __init__(self, status: str) -> None:
        known = _GAME_OVER.get(status)
        super().__init__(_(known) if known is not None else _("That game is over ({status}).", status=status))
        self.status = status


_GAME_OVER = {
    "won": N_("That game is over (won)."),
    "ended": N_("That game is over (ended)."),
    "stuck": N_("That game is over (stuck)."),
    "expired": N_("That game is over (expired)."),
    "broken": N_("That game is over (broken)."),
    "gone": N_("That game is over (gone)."),
}
"""The refusal for each way a game ends (its stored status); another status is quoted as it is."""


class TimeUpError(BotError):
    """A move arrived after the deadline: the game expired instead."""

    def __init__(self) -> None:
        super().__init__(_("Time is up: the game has ended."))


class BadClickError(BotError):
    """A button custom id the bot cannot read (malformed or from another bot version)."""

    def __init__(self) -> None:
        super().__init__(_("That button is not one I understand any more: start a new game."))


ServerThing = Literal["Daily competitions", "Races", "Challenges", "The daily"]
"""What belongs to a server (:class:`NotInServerError`): each has its own sentence."""
_NOT_IN_SERVER: dict[ServerThing, str] = {
    "Daily competitions": N_("Daily competitions belong to a server: use this command in one."),
    "Races": N_("Races belong to a server: use this command in one."),
    "Challenges": N_("Challenges belong to a server: use this command in one."),
    "The daily": N_("The daily belong to a server: use this command in one."),
}


class NotInServerError(BotError):
    """A competition command was used outside a server (in DMs): ``what`` belongs to a server."""

    def __init__(self, what: ServerThing = "Daily competitions") -> None:
        super().__init__(_(_NOT_IN_SERVER[what]))


EXCERPT_LENGTH = 24
"""Characters of a player's input quoted back at most (the rest is cut with an ellipsis)."""
MAX_REPLY = 2000
"""Discord's limit on a message's content."""


def excerpt(text: str, limit: int = EXCERPT_LENGTH) -> str:
    """``text`` on one line, cut to ``limit`` characters (``…`` marks a cut), for quoting input back.

    >>> excerpt("3-5")
    '3-5'
    >>> excerpt("x" * 100, 5)
    'xxxx…'
    """
    flat = " ".join(text.split()).replace("`", "'")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def fit_reply(text: str, limit: int = MAX_REPLY) -> str:
    """``text`` cut to fit one Discord message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


Unsaved = Literal["Your move", "Your new game", "The end of your game"]
"""What a refused write was (:class:`NotSavedError`, :class:`BusyError`): each has its own sentences."""
_NOT_SAVED: dict[Unsaved, str] = {
    "Your move": N_("Your move was not saved (a storage problem on my side): nothing changed, please try again."),
    "Your new game": N_(
        "Your new game was not saved (a storage problem on my side): nothing changed, please try again."
    ),
    "The end of your game": N_(
        "The end of your game was not saved (a storage problem on my side): nothing changed, please try again."
    ),
}
_BUSY: dict[Unsaved, str] = {
    "Your move": N_("I am busy right now: your move was not saved, try again."),
    "Your new game": N_("I am busy right now: your new game was not saved, try again."),
    "The end of your game": N_("I am busy right now: the end of your game was not saved, try again."),
}


class NotSavedError(BotError):
    """The database refused a write (disk full, damaged, ...): nothing changed, the board shown is the saved one."""

    def __init__(self, what: Unsaved = "Your move") -> None:
        super().__init__(_(_NOT_SAVED[what]))


class BusyError(NotSavedError):
    """The database stayed locked by another process past the wait the bot allows: nothing changed."""

    def __init__(self, what: Unsaved = "Your move") -> None:
        BotError.__init__(self, _(_BUSY[what]))


class ChangedElsewhereError(BotError):
    """Another process of the bot saved this game since this one loaded it: this process's copy was stale."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "That game changed meanwhile (another copy of the bot saved it): nothing was changed here."
                " Use `/solitaire start` to get its latest board."
            )
        )


class BadRaceClickError(BotError):
    """An unreadable race button id, or one pasted onto another message."""

    def __init__(self) -> None:
        super().__init__(_("That button is not one I understand: open a new race with `/solitaire race`."))


class BadChallengeClickError(BotError):
    """An unreadable challenge button id, or one pasted onto another message."""

    def __init__(self) -> None:
        super().__init__(_("That button is not one I understand: start a challenge with `/solitaire challenge`."))


class ForeignClickError(BotError):
    """A button id sent from a message (or a server) that is not its game's: nothing is edited."""

    def __init__(self) -> None:
        super().__init__(_("That button does not belong to this message: nothing was changed."))


class BadMoveTextError(BotError):
    """A move too long to be one: quoted back as a short excerpt."""

    def __init__(self, text: str) -> None:
        super().__init__(_("`{text}` is not a move: try `3-5`, `w-f`, `fh-2` or `draw`.", text=excerpt(text)))


class StartingError(BotError):
    """The player's previous start is still being dealt."""

    def __init__(self) -> None:
        super().__init__(_("You already have a game starting: wait for its board."))


class BadSeedError(BotError):
    """A deal seed that is not one: quoted back as a short excerpt."""

    def __init__(self, text: str) -> None:
        super().__init__(
            _(
                "`{text}` is not a deal seed: a seed is the whole number a finished board shows (`seed:1234567890`).",
                text=excerpt(text),
            )
        )


class DealAndSeedError(BotError):
    """Both ``deal:`` and ``seed:`` given to one start."""

    def __init__(self) -> None:
        super().__init__(_("Give a deal number or a seed, not both."))


class InLobbyError(BotError):
    """A casual game or daily asked for by a member who sits in an open race lobby of the server."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "You are in a race lobby here: leave it first (the race message's **Leave** button),"
                " or wait for the race."
            )
        )


class MemberBusyError(StartingError):
    """Another action of the same member in the same server (a start, a join) is still under way."""

    def __init__(self) -> None:
        BotError.__init__(self, _("Your last request here is still under way: wait a moment and try again."))


class TooManyStartsError(BotError):
    """The player started too many games lately."""

    def __init__(self, seconds: int) -> None:
        super().__init__(
            n_(
                "Too many starts: wait {count} s before starting another game.",
                "Too many starts: wait {count} s before starting another game.",
                seconds,
            )
        )
        self.seconds = seconds


class TooManyMovesError(BotError):
    """A game reached the most commands the bot keeps for one game."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            _("This game reached {limit} moves, the limit: end it with `/solitaire end`.", limit=number(limit))
        )
        self.limit = limit


class ActivityOffError(BotError):
    """Play here, or the Entry Point command, where this bot serves no Activity (``ACTIVITY_PORT`` unset)."""

    def __init__(self) -> None:
        super().__init__(_("The game's Activity is not open on this bot right now: play here with `/solitaire start`."))


class ActivityRefusedError(BotError):
    """Discord would not open the Activity (Activities not enabled for the application, or not here)."""

    def __init__(self) -> None:
        super().__init__(_("Discord would not open the game's Activity here: play with `/solitaire start` instead."))
