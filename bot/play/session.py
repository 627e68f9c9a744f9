"""One running game (:class:`Session`), and the values a command or a press hands back.

:class:`~bot.play.sessions.SessionManager` keeps every running game; this module holds what it and its
callers pass around: the session itself (the engine object, its row, its lock and clock task), what an
accepted command did (:class:`Outcome`), a board press as the cog hands it over (:class:`BoardPress`)
and what the press showed (:class:`Selection` or :class:`Played`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from bot.play.clicks import BoardClick, Origin
from bot.storage.games import GameRecord
from solitaire import Game
from solitaire.view import BoardView, view_of

Clock = Callable[[], float]
"""Returns the current time in unix seconds (injected so tests drive it)."""

Sleep = Callable[[float], Awaitable[None]]
"""Waits that many seconds of the clock's time (``asyncio.sleep`` unless a test speeds it up)."""

FinishSource = Literal["command", "page", "clock", "restart"]
"""What ended a game: a player's command (a button or a slash command, answered with the board), a command
from the Activity's page (the board message, if any, shows it only once redrawn), the clock task, or the
restart check."""


FinishListener = Callable[["Session", GameRecord, FinishSource], Awaitable[None]]
MoveListener = Callable[["Session"], None]
"""Told (synchronously, after the save) that a running game accepted a command."""


@dataclass(frozen=True)
class Attempt:
    """A write whose outcome could not be checked: the version and status it would have stored."""

    version: int
    status: str

    def landed(self, stored: GameRecord | None) -> bool:
        """Whether ``stored`` (the row read back) holds this write."""
        return stored is not None and (stored.version, stored.status) == (self.version, self.status)


@dataclass(frozen=True)
class Outcome:
    """What an accepted command did, seen under the lock (safe to render afterwards)."""

    moves: tuple[str, ...]
    """The commands applied, in notation (several for "everything to the foundations")."""
    view: BoardView
    version: int
    finished: GameRecord | None
    """The final row when this command ended the game."""


@dataclass(frozen=True)
class BoardPress:
    """A press of a board button, as the cog hands it over: the click, where it was made and when."""

    click: BoardClick
    origin: Origin
    created: float
    """When Discord created the press (unix seconds, from its id)."""


@dataclass(frozen=True)
class Selection:
    """A press that selects a source (or cancels the selection): the board again, the source's targets lit."""

    session: Session
    view: BoardView
    version: int
    source: str | None


@dataclass(frozen=True)
class Played:
    """A press that played one command (or every card that can go up): what the engine did."""

    session: Session
    outcome: Outcome
    words: str | None = None
    """What the move did, in words, when asked for (the Activity's answer says it)."""


Pressed = Selection | Played
Answer = Callable[[Pressed], Awaitable[float]]
"""Shows a press's result to the player; returns when that answer went out (the press's credit counts to then)."""


class Session:
    """A running game: the engine object, its row, its lock, its clock task and the player's display choice."""

    def __init__(self, record: GameRecord, game: Game, *, four_colour: bool = False) -> None:
        self.record = record
        self.game = game
        self.four_colour = four_colour
        """Draw this game's boards with the four-colour deck (the player's setting, loaded once)."""
        self.lock = asyncio.Lock()
        self.timer: asyncio.Task[None] | None = None
        self.unsure: Attempt | None = None
        """A write that may or may not have landed: checked before the game's next command."""
        self.answered = record.started_at
        """When the bot last answered a press on this game (the earliest a next press can count from)."""
        self.stored_deadline = record.deadline
        """The deadline the database holds (clock credits since are written with the next save)."""
        self.last_played: tuple[int, str] | None = None
        """The last move played on a board: the version it was asked at and its notation (a resend is not replayed)."""

    @property
    def id(self) -> int:
        """The game id (``games.id``)."""
        return self.record.id

    @property
    def owner_id(self) -> int:
        """The player's user id."""
        return self.record.user_id

    @property
    def deadline(self) -> float:
        """When the clock runs out (unix seconds)."""
        return self.record.deadline

    def view(self) -> BoardView:
        """The player's view of the game now."""
        return view_of(self.game)

    @property
    def credit(self) -> float:
        """Seconds of the bot's own work given back to the player: the deadline moved out by as much."""
        return max(self.record.deadline - self.record.started_at - self.game.rules.time_limit, 0.0)

    def seconds_at(self, now: float) -> float:
        """The clock reading at ``now``: seconds since the start, less the clock credits."""
        return max(now - self.record.started_at - self.credit, 0.0)

    def __repr__(self) -> str:
        return f"<Session {self.id} user={self.owner_id} {self.game!r} v{self.game.version}>"
