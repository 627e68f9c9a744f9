"""The Activity's socket protocol: the frames the page may send (checked here) and the frames it is sent.

Every frame is one JSON object with a ``type``; nothing the page says is trusted. The page sends at
most :data:`MAX_FRAME_BYTES` a frame; its first frame is ``hello``, within
:data:`IDENTIFY_SECONDS` of opening the socket, or the socket is closed.

From the page (``ref`` is the page's own number for the request, echoed in the answer; ``game`` and
``version`` name the board the page shows, as a button's id does):

``{"type": "hello", "access_token": str, "instance_id": str, "guild_id": str | null, "channel_id": str | null}``
    Who and where. The server asks Discord who owns the token and what the instance is; the page's
    ``guild_id`` must be the instance's. Answered by ``welcome`` or by ``bye`` and a close.
``{"type": "menu", "ref": int}``
    The menu again (after a game): answered by ``menu``.
``{"type": "start", "ref": int, "variant": str, "kind": "casual" | "daily" | "practice", "deal": int | null}``
    A new game (``practice``: the numbered ``deal``, never ranked). Answered by ``game`` (or ``refused``).
``{"type": "resume", "ref": int}``
    The player's running game here, answered by ``game`` (``game: null`` when there is none).
``{"type": "move", "ref": int, "game": int, "version": int, "move": str}``
    One command in the engine's notation (``3-5``, ``w-f``, ``fh-2``, ``w-J``, ``draw``, ``undo``, ``end``):
    a drop, or a button. Answered by ``game``, or by ``refused`` (the engine's words) with the board as it stands.
``{"type": "tap", "ref": int, "game": int, "version": int, "source": str}``
    A tap on a card (``1``..``7``, ``w``, ``fs``/``fh``/``fd``/``fc``), meaning what a press of its button
    means: up if it can go up, its one place, or a choice (answered by ``choose`` with the places).
``{"type": "allup" | "hint", "ref": int, "game": int, "version": int}``
    Every card that can go up; a hint (where the game's mode allows one, it costs points).
``{"type": "challenge_answer", "ref": int, "challenge": int, "accept": bool}``
    Accept or decline a challenge of this server that names the player (as its buttons do): answered by
    ``menu``, or by ``refused`` in the challenge service's words.
``{"type": "challenge_play", "ref": int, "challenge": int}``
    The player's one attempt at a challenge (started now, or the one running): answered by ``game``
    (then played by ``move`` frames as any game), or by ``refused`` (played already, declined, too late ...).
``{"type": "ping"}``
    Keeps the socket open; answered by ``pong``.
``{"type": "race_open", "ref": int, "variant": str, "racers": int}``
    Open a race lobby (2 to 8 racers) in the instance's channel, hosted by this player; its public race
    message is posted in the channel. Answered by ``race`` (or ``refused``).
``{"type": "race_join" | "race_leave" | "race_start" | "race_cancel", "ref": int, "race": int}``
    Join a lobby; leave a lobby or a running race (ranked last, as the buttons' confirmed Leave race); start
    (host only, two racers or more) or cancel (host only). Answered by ``race`` (or ``refused``).

To the page:

``welcome``  ``{"user": {"id", "name"}, "guild_id", "practice_only": bool, "menu": MENU}``
``menu``     ``{"ref", "menu": MENU}``; MENU is ``{"running": GAME | null, "variants": [{"name", "title"}],
             "daily": {"date", "played": [variant, ...]} | null, "challenges": [CHALLENGE, ...]}``
             (``daily`` ``null``: no daily here, e.g. in a DM; ``challenges`` empty there); a ``menu`` with
             ``ref`` ``null`` is pushed when one of the listed challenges changed (an answer, an attempt, its close)
``game``     ``{"ref": int | null, "game": GAME | null, "words": str | null}``; ``ref`` is ``null`` when the
             game changed elsewhere (a button, the clock) and is pushed; ``words`` say the move played.
``choose``   ``{"ref", "source", "targets": [target, ...]}``: the tapped card may go to several places.
``refused``  ``{"ref", "reason": str, "game": GAME | null}``: nothing changed; the page shows the game as it is.
``race``     ``{"ref": int | null, "race": RACE, "words": str | null}``: ``ref`` ``null`` is a push, to every
             page of the race's channel on every change (coalesced: at most one a second per race). RACE is
             ``{"id", "variant", "title", "status", "host": PLAYER, "capacity", "you": "racer" | "watcher",
             "starts_in", "ends_in", "racers": [RACER, ...], "results": [RESULT, ...]}`` (see
             :mod:`bot.activity.races`): counts only, never a card. MENU's ``races``: the channel's open races.
``pong``     ``{}``
``bye``      ``{"reason": str}``: the server closes the socket next (with a code of :class:`Close`). Closing
             with ``NOT_HERE`` in a cluster with ``ACTIVITY_ROUTES``, it adds ``"route": "/c1"``: the path
             prefix of the process that runs the page's server, whose socket is ``<route>/ws`` from the root.

CHALLENGE is one challenge of this server the player is in (open ones, newest first, then those closed in
the last day): ``{"id", "variant", "title", "challenger": {"id", "name"}, "closes_in": seconds, "open": bool
(scores shown as they come), "closed": bool, "me": "challenger" | "named" | "accepted" | "declined" |
"playing" | "played", "can_answer": bool, "can_play": bool, "players": [{"id", "name", "state", "played":
bool, "score": int | null, "place": int | null}]}``; a ``score`` is ``null`` while it is hidden (every score
of a hidden challenge, the player's own included, until it closes), ``state`` is the public message's
(``challenger``, ``invited``, ``accepted``, ``declined``, ``playing``, ``played``).

GAME is the board as the pictures are drawn from it (:func:`bot.activity.frames.game_frame`): never a
face-down card, never a deal's name before the game is over.
"""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Annotated, Literal

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
    """The page's first frame: its player's token and the instance it runs in."""

    type: Literal["hello"]
    access_token: Annotated[str, Field(min_length=1, max_length=512, pattern=r"^[A-Za-z0-9._~+/=-]+$")]
    """An OAuth2 bearer token (RFC 6750's characters): it goes into a header to Discord, so nothing else."""
    instance_id: Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_-]+$")]
    """Discord's instance id (letters, digits, ``-`` and ``_``): it goes into a URL path, so nothing else."""
    guild_id: Annotated[str, Field(max_length=20, pattern=r"^[0-9]+$")] | None = None
    channel_id: Annotated[str, Field(max_length=20, pattern=r"^[0-9]+$")] | None = None


class MenuAsk(_Frame):
    """Ask for the menu again."""

    type: Literal["menu"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]


class Start(_Frame):
    """Start a game of ``variant``: ranked casual, today's daily, or practice on a numbered deal."""

    type: Literal["start"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    variant: Text
    kind: Literal["casual", "daily", "practice"] = "casual"
    deal: Annotated[int, Field(ge=1, lt=MAX_ID)] | None = None


class Resume(_Frame):
    """Show the player's running game."""

    type: Literal["resume"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]


class _OnBoard(_Frame):
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    game: Annotated[int, Field(ge=1, lt=MAX_ID)]
    version: Annotated[int, Field(ge=0, lt=MAX_REF)]


class MoveAsk(_OnBoard):
    """Play one command in notation on the board at ``version``."""

    type: Literal["move"]
    move: Annotated[str, Field(min_length=1, max_length=12)]


class Tap(_OnBoard):
    """A tap on a card: what a press of its button does."""

    type: Literal["tap"]
    source: Annotated[str, Field(min_length=1, max_length=4)]


class AllUpAsk(_OnBoard):
    """Every card that can go up."""

    type: Literal["allup"]


class HintAsk(_OnBoard):
    """Ask for a hint (charged)."""

    type: Literal["hint"]


class RaceOpen(_Frame):
    """Open a race lobby in the instance's channel."""

    type: Literal["race_open"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    variant: Text
    racers: Annotated[int, Field(ge=MIN_RACERS, le=MAX_RACERS)]


class _OnRace(_Frame):
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    race: Annotated[int, Field(ge=1, lt=MAX_ID)]


class RaceJoin(_OnRace):
    """Join a lobby."""

    type: Literal["race_join"]


class RaceLeave(_OnRace):
    """Leave a lobby or a running race."""

    type: Literal["race_leave"]


class RaceStart(_OnRace):
    """Start a lobby now (host only)."""

    type: Literal["race_start"]


class RaceCancel(_OnRace):
    """Cancel a lobby (host only)."""

    type: Literal["race_cancel"]


class ChallengeAnswer(_Frame):
    """Accept or decline a challenge that names the player."""

    type: Literal["challenge_answer"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    challenge: Annotated[int, Field(ge=1, lt=MAX_ID)]
    accept: bool


class ChallengePlay(_Frame):
    """Play the player's one attempt at a challenge."""

    type: Literal["challenge_play"]
    ref: Annotated[int, Field(ge=0, lt=MAX_REF)]
    challenge: Annotated[int, Field(ge=1, lt=MAX_ID)]


class Ping(_Frame):
    """Keep the socket open."""

    type: Literal["ping"]


PlayFrame = MoveAsk | Tap | AllUpAsk | HintAsk
RaceFrame = RaceOpen | RaceJoin | RaceLeave | RaceStart | RaceCancel
RACE_FRAMES = (RaceOpen, RaceJoin, RaceLeave, RaceStart, RaceCancel)
Frame = Annotated[
    Hello
    | MenuAsk
    | Start
    | Resume
    | MoveAsk
    | Tap
    | AllUpAsk
    | HintAsk
    | ChallengeAnswer
    | ChallengePlay
    | Ping
    | RaceOpen
    | RaceJoin
    | RaceLeave
    | RaceStart
    | RaceCancel,
    Field(discriminator="type"),
]
FRAMES: TypeAdapter[Frame] = TypeAdapter(Frame)


class BadFrameError(ValueError):
    """A frame that is not one of the protocol's: too big, not JSON, or not of a known shape."""


def parse_frame(text: str | bytes) -> Frame:
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
    (
        *("hello", "menu", "start", "resume", "move", "tap", "allup", "hint", "challenge_answer", "challenge_play"),
        *("ping", "race_open", "race_join", "race_leave", "race_start", "race_cancel"),
    )
)
