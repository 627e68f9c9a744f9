"""The frames the page is sent, one type each (the frames it may send: :mod:`bot.activity.protocol`).

Every frame is one JSON object with a ``type``. ``ref`` is the number of the page's request it answers;
``null`` when it is pushed (a game changed elsewhere, a race or a challenge changed).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from bot.activity.frames import GameFrame
from bot.activity.page_words import Word

GAME = GameFrame
"""GAME: the board as the pictures are drawn from it (:func:`bot.activity.frames.game_frame`): never a face-down
card, never a deal's name before the game is over. Kept loose here: the board's own keys grow with the page."""


class Person(TypedDict):
    """PLAYER: a member's id and the name the server shows (a neutral one when it is not known here)."""

    id: str
    name: str


class Variant(TypedDict):
    """One variant on the menu."""

    name: str
    title: str


class Daily(TypedDict):
    """Today's daily on the menu: its date, and the variants the member played today."""

    date: str
    played: list[str]


class ChallengeLine(TypedDict):
    """One player of a challenge: their answer or attempt (``state``, the public message's), their score if seen."""

    id: str
    name: str
    state: str
    played: bool
    score: int | None
    """``null`` while it is hidden (every score of a hidden challenge, the player's own included, until it closes)."""
    place: int | None


class Challenge(TypedDict):
    """CHALLENGE: one challenge of this server the player is in (open ones newest first, then those closed in the
    last day); ``open``: its scores are shown as they come."""

    id: int
    variant: str
    title: str
    challenger: Person
    closes_in: int
    open: bool
    closed: bool
    me: Literal["challenger", "named", "accepted", "declined", "playing", "played"] | None
    can_answer: bool
    can_play: bool
    players: list[ChallengeLine]


class Racer(TypedDict):
    """One racer's counts (never a card): status, score, cards up, seconds used and moves."""

    id: str
    name: str
    status: str
    score: int
    up: int
    seconds: int | None
    moves: int


class RaceResult(TypedDict):
    """One line of a finished race's results."""

    place: int
    id: str
    name: str
    score: int
    seconds: int | None
    status: str
    rating_before: float
    rating_after: float | None


class Race(TypedDict):
    """RACE: a race as its channel's pages see it, counts only; ``you`` says what the page's player is to it."""

    id: int
    variant: str
    title: str
    status: str
    host: Person
    capacity: int
    starts_in: float | None
    ends_in: float | None
    racers: list[Racer]
    results: list[RaceResult]
    you: NotRequired[Literal["racer", "watcher"]]


class Menu(TypedDict):
    """MENU: the running game, the variants, today's daily (``null`` where there is none, e.g. a DM), the
    member's challenges here and the channel's open races; each desk fills its own part."""

    running: GAME | None
    variants: list[Variant]
    daily: Daily | None
    challenges: list[Challenge]
    races: list[Race]


class MenuPart(TypedDict, total=False):
    """The part of the MENU one desk fills."""

    running: GAME | None
    variants: list[Variant]
    daily: Daily | None
    challenges: list[Challenge]
    races: list[Race]


class Welcome(TypedDict):
    """The answer to ``hello``: who signed in, where, the menu, and every word of the page in the player's language
    (:func:`~bot.activity.page_words.speech_of`: ``locale``, ``words``, ``ordinals``)."""

    type: Literal["welcome"]
    user: Person
    guild_id: str
    practice_only: bool
    menu: Menu
    locale: str
    words: dict[str, Word]
    ordinals: dict[str, str]


class MenuFrame(TypedDict):
    """The menu again; pushed (``ref`` ``null``) when one of the listed challenges changed.

    An answer carries the page's words again (``locale``, ``words``, ``ordinals``) when its player's language
    changed since they were sent.
    """

    type: Literal["menu"]
    ref: int | None
    menu: Menu
    locale: NotRequired[str]
    words: NotRequired[dict[str, Word]]
    ordinals: NotRequired[dict[str, str]]


class GameOut(TypedDict):
    """A GAME (``null``: no running game); ``words`` say the move played."""

    type: Literal["game"]
    ref: int | None
    game: GAME | None
    words: str | None


class Choose(TypedDict):
    """The tapped card may go to several places: the page lets its player choose."""

    type: Literal["choose"]
    ref: int | None
    source: str
    targets: list[str]


class Refused(TypedDict):
    """Nothing changed, and why; ``game``: the board the request named, as it stands (else ``null``)."""

    type: Literal["refused"]
    ref: int | None
    reason: str
    game: GAME | None


class RaceOut(TypedDict):
    """A RACE; pushed to every page of its channel on every change (coalesced: at most one a second a race)."""

    type: Literal["race"]
    ref: int | None
    race: Race
    words: str | None


class Pong(TypedDict):
    """The answer to ``ping``."""

    type: Literal["pong"]


class Bye(TypedDict):
    """The server closes the socket next, with a code of :class:`~bot.activity.protocol.Close`.

    ``final``: do not come back; ``retry_in``: not sooner; ``route`` (a cluster with ``ACTIVITY_ROUTES``,
    closing with ``NOT_HERE``): the path prefix of the process that runs the page's server.
    """

    type: Literal["bye"]
    reason: str
    route: NotRequired[str]
    final: NotRequired[bool]
    retry_in: NotRequired[int]


Outgoing = Welcome | MenuFrame | GameOut | Choose | Refused | RaceOut | Pong | Bye


def refused(ref: int | None, reason: str, game: GAME | None = None) -> Refused:
    """A ``refused`` frame."""
    return {"type": "refused", "ref": ref, "reason": reason, "game": game}


def game_out(ref: int | None, game: GAME | None, words: str | None = None) -> GameOut:
    """A ``game`` frame."""
    return {"type": "game", "ref": ref, "game": game, "words": words}
