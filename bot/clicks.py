"""Board buttons without Discord: their custom ids, and what a click means (source, target or command).

A board button's custom id is ``sol:<game>:<version>:<selected>:<action>``: the game
id, the game's version when the board was drawn (``Game.version``), the selected
move source shown on that board (``-`` for none) and the button's action. The
whole state of a selection (a source with several places to go) lives in the ids, so
it survives restarts, and a click from an older board (another version) is recognised
as stale. An offer button's
id is ``solr:<game>:resume|end``.

This module is the one definition of both formats: the ``*_ID`` regexes below parse
them, :attr:`BoardClick.custom_id` writes them, and the ``*_ROUTE`` templates the
buttons register (``cogs/buttons.py``) are built from the same prefixes, catching
every id in the bot's namespace so that even a malformed one gets a private answer.
Custom ids are untrusted: numbers beyond SQLite's 64-bit range parse as ``None``.

>>> click = BoardClick(12, 3, "7", "f")
>>> click.custom_id
'sol:12:3:7:f'
>>> parse_board_click("sol:12:3:7:f") == click
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from bot.pads import (
    AFTER_SELECTION,
    ALL_ACTIONS,
    COMMANDS,
    TO_FOUNDATION,
    AllUp,
    Click,
    Play,
    Select,
    pad_for,
)
from solitaire.cards import SUIT_SYMBOLS
from solitaire.moves import FOUNDATION_SOURCES
from solitaire.view import BoardView

BOARD_PREFIX = "sol"
OFFER_PREFIX = "solr"
MAX_GAME_ID = 2**63 - 1
"""The largest id SQLite can store: a bigger number in a custom id is forged."""
MAX_CUSTOM_ID = 100
"""Discord's limit on a custom id's length."""
BOARD_ID = re.compile(
    rf"^{BOARD_PREFIX}:(?P<game>\d{{1,19}}):(?P<version>\d{{1,9}}):(?P<selected>[a-z0-9]{{1,2}}|-):(?P<action>\w{{1,5}})$"
)
OFFER_ID = re.compile(rf"^{OFFER_PREFIX}:(?P<game>\d{{1,19}}):(?P<action>resume|end)$")
BOARD_ROUTE = rf"{BOARD_PREFIX}:\S{{0,{MAX_CUSTOM_ID - len(BOARD_PREFIX) - 1}}}"
"""Every id in the board buttons' namespace (the ``DynamicItem`` template); :data:`BOARD_ID` says which are valid."""
OFFER_ROUTE = rf"{OFFER_PREFIX}:\S{{0,{MAX_CUSTOM_ID - len(OFFER_PREFIX) - 1}}}"
"""Every id in the offer buttons' namespace (the ``DynamicItem`` template); :data:`OFFER_ID` says which are valid."""

OfferAction = Literal["resume", "end"]
__all__ = [
    "BOARD_ID",
    "BOARD_ROUTE",
    "COMMANDS",
    "OFFER_ID",
    "OFFER_ROUTE",
    "TO_FOUNDATION",
    "AllUp",
    "BoardClick",
    "Click",
    "OfferClick",
    "Play",
    "Select",
    "parse_board_click",
    "parse_offer_click",
    "resolve_click",
    "source_name",
]


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
        return f"{BOARD_PREFIX}:{self.game_id}:{self.version}:{self.selected or '-'}:{self.action}"


@dataclass(frozen=True)
class OfferClick:
    """A button of the "you already have a game running" offer."""

    game_id: int
    action: OfferAction

    @property
    def custom_id(self) -> str:
        """The button's custom id."""
        return f"{OFFER_PREFIX}:{self.game_id}:{self.action}"


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


def parse_offer_click(custom_id: str) -> OfferClick | None:
    """Read an offer button's custom id; ``None`` if it is malformed."""
    match = OFFER_ID.match(custom_id)
    if match is None or int(match["game"]) > MAX_GAME_ID:
        return None
    action: OfferAction = "resume" if match["action"] == "resume" else "end"
    return OfferClick(int(match["game"]), action)


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
        return "the waste"
    if source in FOUNDATION_SOURCES:
        return f"the {SUIT_SYMBOLS[FOUNDATION_SOURCES[source]]} foundation"
    return f"pile {source}"
