"""The Activity's socket protocol: the frames the page may send, checked here (what it is sent: ``outgoing.py``).

Every frame is one JSON object with a ``type``; nothing the page says is trusted. The page sends at
most :data:`MAX_FRAME_BYTES` a frame; its first frame is ``hello``, within
:data:`IDENTIFY_SECONDS` of opening the socket, or the socket is closed.

Each frame is one model below, its meaning and its answer in its docstring. ``ref`` is the page's own
number for the request, echoed in the answer; ``game`` and ``version`` name the board the page shows, as a
button's id does. What the page is sent: :mod:`bot.activity.outgoing`.
"""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from bot.compete.race import MAX_RACERS, MIN_RACERS

MAX_FRAME_BYTES = 2048
"""The largest frame the page may send (a hello with a token is a few hundred bytes)."""
IDENTIFY_SECONDS = 5.0
"""A socket that has not said ``hello`` by then is closed."""
MAX_REF = 2**31
MAX_ID = 2**63
Text = Annotated[str, Field(max_length=200)]


class Close(IntEnum):
    """The codes the server closes a socket with (4000-4999 are the application's own)."""

    NORMAL = 1000
    BAD_FRAME = 4400
    UNAUTHORIZED = 4401
    FORBIDDEN = 4403
    IDENTIFY_TIMEOUT = 4408
    SILENT = 4410
    """The page sent nothing, not even a ping, for a long while (it reconnects)."""
    TOO_MANY = 4429
    NOT_HERE = 4421
    """This process does not serve that server (shard clusters)."""
    SHUTTING_DOWN = 1001
    TRY_LATER = 1013
    """Discord is not answering, or too many pages sign in at once: the page comes back after a pause."""


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Hello(_Frame):
    """The page's first frame: its player's token and the instance it runs in.

    The server asks Discord who owns the token and what the instance is; the page's ``guild_id`` must be the
    instance's. Answered by ``welcome`` (with the page's words in its player's language), or by ``bye`` and a
    close.
    """

    type: Literal["hello"]
    access_token: Annotated[str, Field(min_length=1, max_length=512, pattern=r"^[A-Za-z0-9._~+/=-]+$")]
    """An OAuth2 bearer token (RFC 6750's characters): it goes into a header to Discord, so nothing else."""
    instance_id: Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_-]+$")]
    """Discord's instance id (letters, digits, ``-`` and ``_``): it goes into a URL path, so nothing else."""
    guild_id: Annotated[str, Field(max_length=20, pattern=r"^[0-9]+$")] | None = None
    channel_id: Annotated[str, Field(max_length=20, pattern=r"^[0-9]+$")] | None = None
    locale: Annotated[str, Field(max_length=16)] | None = None
    """The locale the player's Discord client reports: a hint for the page's words, taken only if it is one of
    Discord's (:func:`~bot.activity.page_words.known_locale`), never for anything else."""


class MenuAsk(_Frame):
    """The menu again (after a game): answered by ``menu``."""

    type: Literal["menu"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]


class Start(_Frame):
    """A new game of ``variant``: ranked casual, today's daily, or practice on the numbered ``deal`` (never ranked).

    Answered by ``game`` (or ``refused``).
    """

    type: Literal["start"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    variant: Text
    kind: Literal["casual", "daily", "practice"] = "casual"
    deal: Annotated[int, Field(ge=1, lt=MAX_ID)] | None = None


class Resume(_Frame):
    """The player's running game here: answered by ``game`` (``game: null`` when there is none)."""

    type: Literal["resume"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]


class _OnBoard(_Frame):
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    game: Annotated[int, Field(ge=1, lt=MAX_ID)]
    version: Annotated[int, Field(ge=0, lt=MAX_REF)]


class MoveAsk(_OnBoard):
    """One command in the engine's notation (``3-5``, ``w-f``, ``fh-2``, ``w-J``, ``draw``, ``undo``, ``end``).

    A drop, or a button. Answered by ``game``, or by ``refused`` (the engine's words) with the board as it stands.
    """

    type: Literal["move"]
    move: Annotated[str, Field(min_length=1, max_length=12)]


class Drop(_OnBoard):
    """A card (or run) dropped from one slot on another (the GAME's slot ids): the server names the move and plays it.

    Answered as ``move`` is: ``game``, or ``refused`` (the engine's words, for an illegal drop) with the board.
    """

    type: Literal["drop"]
    source: Annotated[str, Field(min_length=1, max_length=5)]
    target: Annotated[str, Field(min_length=1, max_length=5)]  # a slot id, or "stock" (no place: refused in words)


class Tap(_OnBoard):
    """A tap on a card (``1``..``7``, ``w``, ``fs``/``fh``/``fd``/``fc``): what a press of its button means.

    Up if it can go up, its one place, or a choice (answered by ``choose`` with the places).
    """

    type: Literal["tap"]
    source: Annotated[str, Field(min_length=1, max_length=4)]


class AllUpAsk(_OnBoard):
    """Every card that can go up: answered by ``game``."""

    type: Literal["allup"]


class HintAsk(_OnBoard):
    """A hint, where the game's mode allows one (it costs points): answered by ``game`` with its words."""

    type: Literal["hint"]


class RaceOpen(_Frame):
    """Open a race lobby (2 to 8 racers) in the instance's channel, hosted by this player.

    Its public race message is posted in the channel. Answered by ``race`` (or ``refused``).
    """

    type: Literal["race_open"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    variant: Text
    racers: Annotated[int, Field(ge=MIN_RACERS, le=MAX_RACERS)]


class _OnRace(_Frame):
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    race: Annotated[int, Field(ge=1, lt=MAX_ID)]


class RaceJoin(_OnRace):
    """Join a lobby: answered by ``race`` (or ``refused``)."""

    type: Literal["race_join"]


class RaceLeave(_OnRace):
    """Leave a lobby or a running race (ranked last, as the buttons' confirmed Leave race): answered by ``race``."""

    type: Literal["race_leave"]


class RaceStart(_OnRace):
    """Start a lobby now (host only, two racers or more): answered by ``race`` (or ``refused``)."""

    type: Literal["race_start"]


class RaceCancel(_OnRace):
    """Cancel a lobby (host only): answered by ``race`` (or ``refused``)."""

    type: Literal["race_cancel"]


class ChallengeAnswer(_Frame):
    """Accept or decline a challenge of this server that names the player (as its buttons do).

    Answered by ``menu``, or by ``refused`` in the challenge service's words.
    """

    type: Literal["challenge_answer"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    challenge: Annotated[int, Field(ge=1, lt=MAX_ID)]
    accept: bool


class ChallengePlay(_Frame):
    """The player's one attempt at a challenge (started now, or the one running).

    Answered by ``game`` (then played by ``move`` frames as any game), or by ``refused`` (played already,
    declined, too late ...).
    """

    type: Literal["challenge_play"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    challenge: Annotated[int, Field(ge=1, lt=MAX_ID)]


class Ping(_Frame):
    """Keeps the socket open: answered by ``pong``."""

    type: Literal["ping"]


PlayFrame = MoveAsk | Drop | Tap | AllUpAsk | HintAsk
RaceFrame = RaceOpen | RaceJoin | RaceLeave | RaceStart | RaceCancel
Incoming = Annotated[
    Hello | MenuAsk | Start | Resume | PlayFrame | ChallengeAnswer | ChallengePlay | Ping | RaceFrame,
    Field(discriminator="type"),
]
"""Every frame the page may send, told apart by its ``type``."""
FRAMES: TypeAdapter[Incoming] = TypeAdapter(Incoming)


class BadFrameError(ValueError):
    """A frame that is not one of the protocol's: too big, not JSON, or not of a known shape."""


def parse_frame(text: str | bytes) -> Incoming:
    """Check one frame from the page; :raises BadFrameError: with a short reason (never the frame itself).

    >>> parse_frame('{"type": "move", "ref": 1, "game": 7, "version": 3, "move": "3-5"}').move
    '3-5'
    >>> parse_frame('{"type": "move", "ref": 1}')
    Traceback (most recent call last):
    ...
    bot.activity.protocol.BadFrameError: not a frame of this game's protocol (move)
    """
    if len(text) > MAX_FRAME_BYTES:
        raise BadFrameError(f"a frame may be at most {MAX_FRAME_BYTES} bytes")
    try:
        return FRAMES.validate_json(text)
    except ValueError as error:
        kind = _kind_of(text)
        raise BadFrameError(f"not a frame of this game's protocol{f' ({kind})' if kind else ''}") from error


def _kind_of(text: str | bytes) -> str | None:
    """The ``type`` a refused frame claimed, if it is one of the protocol's (to say which frame was wrong)."""
    try:
        claimed = json.loads(text)
    except (ValueError, RecursionError):
        return None
    kind = claimed.get("type") if isinstance(claimed, dict) else None
    return kind if kind in KINDS else None


KINDS = frozenset(
    kind for frame in get_args(get_args(Incoming)[0]) for kind in get_args(frame.model_fields["type"].annotation)
)
"""The ``type`` of every frame the page may send."""
