"""Button ids without Discord: every custom-id format the bot posts, and what a board click means.

Each format is defined once, as an :class:`IdFormat` value beside its click type: the id's
prefix and strict pattern, its builder (the click's ``custom_id``), its parser (a typed click, or
``None`` for a malformed id) and its ownership check (the click's ``check``: which member, server
or message it belongs to). The cogs make one persistent button type per format from these values
(``cogs/buttons.py``); each routes every id of its namespace (:attr:`IdFormat.route`), so even a
malformed one gets a private answer. Ids of buttons already posted never change.

A board button's custom id is ``sol:<game>:<version>:<selected>:<action>``: the game
id, the game's version when the board was drawn (``Game.version``), the selected
move source shown on that board (``-`` for none; ``ch`` while a Klondike board waits for the card
**Choose** selects, whose own action is ``pick``) and the button's action. The
whole state of a selection (a source with several places to go) lives in the ids, so
it survives restarts, and a click from an older board (another version) is recognised
as stale. The others: ``solr:<game>:resume|end`` (the running-game offer),
``solag:<game>:<action>[:<version>]`` (Analyze, Share replay, Hint), ``race:<race>:<action>``,
``chal:<challenge>:<action>``, ``solc:<nonce>:yes|no`` (a confirmation) and ``solact:play`` (**Play here**,
which opens the Activity).
Custom ids are untrusted: numbers beyond SQLite's 64-bit range parse as ``None``.

>>> click = BoardClick(12, 3, "7", "f")
>>> click.custom_id
'sol:12:3:7:f'
>>> parse_board_click("sol:12:3:7:f") == click
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar, cast, get_args

from bot import errors
from bot.play.pads import (
    AFTER_SELECTION,
    ALL_ACTIONS,
    COMMANDS,
    AllUp,
    Click,
    Play,
    Select,
    pad_for,
)
from solitaire.cards import SUIT_SYMBOLS
from solitaire.moves import FOUNDATION_SOURCES
from solitaire.speech import _
from solitaire.view import BoardView

MAX_GAME_ID = 2**63 - 1
"""The largest id SQLite can store: a bigger number in a custom id is forged."""
MAX_CUSTOM_ID = 100
"""Discord's limit on a custom id's length."""
OfferAction = Literal["resume", "end"]
AfterAction = Literal["analyze", "replay", "hint"]
RaceAction = Literal["join", "leave", "quit", "start", "cancel", "board"]
"""``leave`` on a running race asks first; ``quit`` (the private confirmation's button) leaves."""
ChallengeAction = Literal["accept", "decline", "play"]
ConfirmAnswer = Literal["yes", "no"]
__all__ = [
    "AFTER_GAME",
    "BOARD",
    "BOARD_ROUTE",
    "CHALLENGE",
    "CONFIRM",
    "FORMATS",
    "LAUNCH",
    "OFFER",
    "OFFER_ROUTE",
    "RACE",
    "AllUp",
    "BoardClick",
    "Click",
    "IdFormat",
    "LaunchClick",
    "OfferClick",
    "Origin",
    "Owner",
    "Play",
    "Select",
    "parse_board_click",
    "parse_offer_click",
    "resolve_click",
    "selection_line",
    "source_name",
]


class ButtonClick(Protocol):
    """What every format's click offers: the custom id it is written as."""

    @property
    def custom_id(self) -> str:
        """The button's custom id."""
        ...


C = TypeVar("C", bound=ButtonClick)


@dataclass(frozen=True)
class IdFormat(Generic[C]):
    """One custom-id format: its prefix, its strict pattern and its parser (its click type writes the id)."""

    prefix: str
    pattern: re.Pattern[str]
    """Exactly the valid ids (the parser also range-checks the numbers)."""
    parse: Callable[[str], C | None]
    """Read an untrusted id: its typed click, or ``None`` if it is malformed."""
    catch_all: bool = True
    """Route every id in the namespace (a malformed one too, to answer it); else only the valid ones."""

    @property
    def route(self) -> str:
        """The template its persistent buttons register (``DynamicItem``)."""
        if not self.catch_all:
            return self.pattern.pattern
        return rf"{self.prefix}:\S{{0,{MAX_CUSTOM_ID - len(self.prefix) - 1}}}"


@dataclass(frozen=True)
class Origin:
    """Where a press was made: by whom, in which server (0 in DMs), on which message and what that message is."""

    user_id: int
    guild_id: int
    message_id: int | None = None
    carries: bool = False
    """Whether that message carries the pressed id (an id pasted onto another message does not)."""
    ephemeral: bool = False


@dataclass(frozen=True)
class Owner:
    """What a pressed id names, as stored: its player, its server and the message that shows it."""

    user_id: int | None = None
    guild_id: int | None = None
    message_id: int | None = None


def _check_player(origin: Origin, owner: Owner) -> None:
    """:raises NotYourGameError: the game belongs to another member."""
    if owner.user_id is not None and owner.user_id != origin.user_id:
        raise errors.NotYourGameError(owner.user_id)


def _check_message(origin: Origin, owner: Owner, *, private: bool) -> None:
    """:raises ForeignClickError: another server's game, or a message that does not carry the id (or not private)."""
    if owner.guild_id != origin.guild_id or origin.message_id is None or not origin.carries:
        raise errors.ForeignClickError()
    if private and not origin.ephemeral:
        raise errors.ForeignClickError()


# -- board buttons: sol:<game>:<version>:<selected>:<action> -------------------------------
BOARD_ID = re.compile(
    r"^sol:(?P<game>\d{1,19}):(?P<version>\d{1,9}):(?P<selected>[a-z0-9]{1,2}|-):(?P<action>\w{1,5})$"
)


@dataclass(frozen=True)
class BoardClick:
    """A board button: which game, at which version, with which source selected, doing what."""

    game_id: int
    version: int
    selected: str | None
    action: str

    @property
    def custom_id(self) -> str:
        """The button's custom id."""
        return f"{BOARD.prefix}:{self.game_id}:{self.version}:{self.selected or '-'}:{self.action}"

    def check(self, origin: Origin, owner: Owner) -> None:
        """Let a press through only from its player, in its server, on the message stored as its game's board.

        :raises NotYourGameError: another member's game.
        :raises ForeignClickError: another server's game, or a message that does not carry this button.
        :raises StaleBoardError: the message is not the game's current board.
        """
        _check_player(origin, owner)
        _check_message(origin, owner, private=False)
        if origin.message_id != owner.message_id:
            raise errors.StaleBoardError()


def parse_board_click(custom_id: str) -> BoardClick | None:
    """Read a board button's custom id; ``None`` if it is malformed."""
    match = BOARD_ID.match(custom_id)
    if match is None or int(match["game"]) > MAX_GAME_ID:
        return None
    selected = None if match["selected"] == "-" else match["selected"]
    action = match["action"]
    if action not in ALL_ACTIONS:
        return None
    if selected is not None and action not in AFTER_SELECTION.get(selected, ()):
        return None
    return BoardClick(int(match["game"]), int(match["version"]), selected, action)


BOARD = IdFormat("sol", BOARD_ID, parse_board_click)
BOARD_ROUTE = BOARD.route
"""Every id in the board buttons' namespace; :data:`BOARD_ID` says which are valid."""


# -- the running-game offer: solr:<game>:resume|end ----------------------------------------
OFFER_ID = re.compile(r"^solr:(?P<game>\d{1,19}):(?P<action>resume|end)$")


@dataclass(frozen=True)
class OfferClick:
    """A button of the "you already have a game running" offer."""

    game_id: int
    action: OfferAction

    @property
    def custom_id(self) -> str:
        """The button's custom id."""
        return f"{OFFER.prefix}:{self.game_id}:{self.action}"

    def check(self, origin: Origin, owner: Owner) -> None:
        """Let a press through only from its player, in its server, on the private offer carrying it.

        :raises NotYourGameError: another member's game.
        :raises ForeignClickError: another server's game, or not the private offer that carries this button.
        """
        _check_player(origin, owner)
        _check_message(origin, owner, private=True)


def parse_offer_click(custom_id: str) -> OfferClick | None:
    """Read an offer button's custom id; ``None`` if it is malformed."""
    match = OFFER_ID.match(custom_id)
    if match is None or int(match["game"]) > MAX_GAME_ID:
        return None
    action: OfferAction = "resume" if match["action"] == "resume" else "end"
    return OfferClick(int(match["game"]), action)


OFFER = IdFormat("solr", OFFER_ID, parse_offer_click)
OFFER_ROUTE = OFFER.route
"""Every id in the offer buttons' namespace; :data:`OFFER_ID` says which are valid."""


# -- after the game: solag:<game>:<action>[:<version>] -------------------------------------
AFTER_ID = re.compile(r"^solag:(?P<game>\d{1,19}):(?P<action>analyze|replay|hint)(?::(?P<version>\d{1,9}))?$")


@dataclass(frozen=True)
class AfterGameClick:
    """An Analyze / Share replay button of a finished game, or the Hint button of a running one (with its version)."""

    game_id: int
    action: AfterAction
    version: int | None = None

    @property
    def custom_id(self) -> str:
        """The button's custom id: ``solag:<game>:<action>[:<version>]``."""
        tail = f":{self.version}" if self.version is not None else ""
        return f"{AFTER_GAME.prefix}:{self.game_id}:{self.action}{tail}"

    def check(self, origin: Origin, owner: Owner) -> None:
        """Let a press through only from the game's player. :raises NotYourGameError: another member's game."""
        _check_player(origin, owner)


def parse_after_game_click(custom_id: str) -> AfterGameClick | None:
    """Read an after-game button's custom id; ``None`` if malformed (a hint needs its version, the others none).

    Custom ids are untrusted: a game number beyond SQLite's 64-bit range is malformed too.
    """
    match = AFTER_ID.match(custom_id)
    if match is None or int(match["game"]) > MAX_GAME_ID:
        return None
    action: AfterAction = (
        "analyze" if match["action"] == "analyze" else "replay" if match["action"] == "replay" else "hint"
    )
    version = int(match["version"]) if match["version"] is not None else None
    if (action == "hint") != (version is not None):
        return None
    return AfterGameClick(int(match["game"]), action, version)


AFTER_GAME = IdFormat("solag", AFTER_ID, parse_after_game_click)


# -- the race message: race:<race>:<action> ------------------------------------------------
RACE_ID = re.compile(r"race:(?P<race>[1-9][0-9]{0,17}):(?P<action>[a-z]{1,8})")


@dataclass(frozen=True)
class RaceClick:
    """A race button: ``race:<race id>:<action>``."""

    race_id: int
    action: RaceAction

    @property
    def custom_id(self) -> str:
        """The button's custom id."""
        return f"{RACE.prefix}:{self.race_id}:{self.action}"

    @property
    def on_race_message(self) -> bool:
        """Whether the button belongs on the public race message (``board`` and ``quit`` do not have to)."""
        return self.action not in ("board", "quit")

    def check(self, origin: Origin, owner: Owner) -> None:
        """Let a press through only from its race's message (``owner``), or ``quit`` from its private question.

        :raises BadRaceClickError: a race id pasted onto another message.
        """
        if self.action == "quit" and (origin.message_id is None or not origin.ephemeral):
            raise errors.BadRaceClickError()
        if self.on_race_message and origin.message_id is not None and origin.message_id != owner.message_id:
            raise errors.BadRaceClickError()


def parse_race_click(custom_id: str) -> RaceClick | None:
    """Read a race button id (untrusted), or ``None``.

    >>> parse_race_click("race:12:join"), parse_race_click("race:12:fly"), parse_race_click("race:0:join")
    (RaceClick(race_id=12, action='join'), None, None)
    """
    match = RACE_ID.fullmatch(custom_id)
    if match is None or match["action"] not in get_args(RaceAction):
        return None
    return RaceClick(int(match["race"]), cast(RaceAction, match["action"]))


RACE = IdFormat("race", RACE_ID, parse_race_click)


# -- the challenge message: chal:<challenge>:<action> --------------------------------------
CHALLENGE_ID = re.compile(r"chal:(?P<challenge>[1-9][0-9]{0,17}):(?P<action>[a-z]{1,8})")


@dataclass(frozen=True)
class ChallengeClick:
    """A challenge button: ``chal:<challenge id>:<action>``."""

    challenge_id: int
    action: ChallengeAction

    @property
    def custom_id(self) -> str:
        """The button's custom id."""
        return f"{CHALLENGE.prefix}:{self.challenge_id}:{self.action}"

    def check(self, origin: Origin, owner: Owner) -> None:
        """Let a press through only from its challenge's message (``owner``).

        :raises BadChallengeClickError: a challenge id pasted onto another message.
        """
        if origin.message_id is None or origin.message_id != owner.message_id:
            raise errors.BadChallengeClickError()


def parse_challenge_click(custom_id: str) -> ChallengeClick | None:
    """Read a challenge button id (untrusted), or ``None``.

    >>> parse_challenge_click("chal:3:play"), parse_challenge_click("chal:3:fly"), parse_challenge_click("chal:0:play")
    (ChallengeClick(challenge_id=3, action='play'), None, None)
    """
    match = CHALLENGE_ID.fullmatch(custom_id)
    if match is None or match["action"] not in get_args(ChallengeAction):
        return None
    return ChallengeClick(int(match["challenge"]), cast(ChallengeAction, match["action"]))


CHALLENGE = IdFormat("chal", CHALLENGE_ID, parse_challenge_click)


# -- a confirmation: solc:<nonce>:yes|no ---------------------------------------------------
CONFIRM_ID = re.compile(r"solc:(?P<nonce>[0-9a-f]{16}):(?P<answer>yes|no)")


@dataclass(frozen=True)
class ConfirmClick:
    """A confirmation's button: the random nonce of its question and the answer.

    Its owner is the question asked in this run, whose live view checks the member; the button of a
    question asked before a restart is answered as expired.
    """

    nonce: str
    answer: ConfirmAnswer

    @property
    def custom_id(self) -> str:
        """The button's custom id."""
        return f"{CONFIRM.prefix}:{self.nonce}:{self.answer}"


def parse_confirm_click(custom_id: str) -> ConfirmClick | None:
    """Read a confirmation button's id, or ``None``.

    >>> parse_confirm_click("solc:0123456789abcdef:yes")
    ConfirmClick(nonce='0123456789abcdef', answer='yes')
    """
    match = CONFIRM_ID.fullmatch(custom_id)
    if match is None:
        return None
    return ConfirmClick(match["nonce"], "yes" if match["answer"] == "yes" else "no")


CONFIRM = IdFormat("solc", CONFIRM_ID, parse_confirm_click, catch_all=False)
"""Only valid ids are routed: a click on a question of this run is its live view's to answer."""

# -- Play here: solact:play -----------------------------------------------------------------
LAUNCH_ID = re.compile(r"solact:play")


@dataclass(frozen=True)
class LaunchClick:
    """**Play here**: opens the Activity for whoever presses it.

    It carries no game and has no owner: any member may press it, for themselves (the Activity shows
    the presser's own games), so there is nothing to check.
    """

    @property
    def custom_id(self) -> str:
        """The button's custom id."""
        return f"{LAUNCH.prefix}:play"


def parse_launch_click(custom_id: str) -> LaunchClick | None:
    """Read a Play here button's id, or ``None``.

    >>> parse_launch_click("solact:play"), parse_launch_click("solact:fly")
    (LaunchClick(), None)
    """
    return LaunchClick() if LAUNCH_ID.fullmatch(custom_id) else None


LAUNCH = IdFormat("solact", LAUNCH_ID, parse_launch_click)

FORMATS: tuple[IdFormat[Any], ...] = (BOARD, OFFER, AFTER_GAME, RACE, CHALLENGE, CONFIRM, LAUNCH)
"""Every format the bot's buttons are written in."""


# -- what a board click means ----------------------------------------------------------------
def resolve_click(view: BoardView, selected: str | None, action: str) -> Click:
    """What clicking ``action`` means on a board showing ``view`` with ``selected`` highlighted.

    :raises IllegalMoveError: when the click cannot mean anything here (e.g. picking an empty pile).
    """
    if action in COMMANDS:
        return Play(COMMANDS[action])
    return pad_for(view.family).resolve(view, selected, action)


def source_name(source: str) -> str:
    """A move source in words: ``pile 3``, ``the waste``, ``the ♥ foundation``."""
    if source == "w":
        # Translators: a move source, on its own.
        return _("the waste")
    if source in FOUNDATION_SOURCES:
        # Translators: a move source, on its own: the foundation of that suit.
        return _("the {suit} foundation", suit=SUIT_SYMBOLS[FOUNDATION_SOURCES[source]])
    # Translators: a move source, on its own: the tableau pile of that number.
    return _("pile {pile}", pile=source)


def selection_line(source: str) -> str:
    """The board's line while ``source`` is selected, one whole sentence for each kind of source.

    >>> selection_line("w")
    'Selected **the waste**: click a green button where it goes (or it, to cancel).'
    """
    if source == "w":
        return _("Selected **the waste**: click a green button where it goes (or it, to cancel).")
    if source in FOUNDATION_SOURCES:
        return _(
            "Selected **the {suit} foundation**: click a green button where it goes (or it, to cancel).",
            suit=SUIT_SYMBOLS[FOUNDATION_SOURCES[source]],
        )
    return _("Selected **pile {pile}**: click a green button where it goes (or it, to cancel).", pile=source)
