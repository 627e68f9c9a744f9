"""One open page of the Activity: its socket, its verified player, its rate, and its bounded outgoing queue.

Nothing is written to a page by the task that has something to say: every frame goes into the page's
own small queue, and one writer per page writes them in order. A newer board (or race) not yet written
replaces the older one in the queue, so a page that reads slowly is sent the latest state, not the
history. A page whose queue passes :data:`~bot.activity.limits.QUEUED_FRAMES`, or that takes longer than
:data:`~bot.activity.limits.WRITE_SECONDS` to take one frame, is closed (it does not read): no page can
slow another page, a race, a move's answer or the shutdown, and what waits for it in memory is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

from bot.activity.limits import CLOSE_SECONDS, QUEUED_FRAMES, REQUEST_BURST, REQUESTS_PER_SECOND, WRITE_SECONDS, Bucket
from bot.activity.outgoing import Bye, Outgoing
from bot.activity.protocol import Close
from bot.activity.seat import Seat
from languages import ENGLISH, Language

log = logging.getLogger(__name__)

SEND_BUFFER_BYTES = 64 * 1024
"""The kernel's send buffer of a page (frames are under 1 KB; the kernel doubles it for its own use)."""


@dataclass
class _Queued:
    """A frame waiting to be written; ``key`` names the state it shows (a newer one of that key replaces it)."""

    text: str
    key: str | None


@dataclass(eq=False)
class Socket:
    """One open page: its socket, its verified player, its rate and what it was last shown."""

    ws: web.WebSocketResponse
    address: str
    transport: asyncio.Transport | None = None
    """The connection under the socket (aborted when the page stops reading)."""
    on_slow: Callable[[Socket], None] = lambda socket: None
    """Told once when the page is closed for not reading."""
    seat: Seat | None = None
    access_token: str = field(default="", repr=False)
    """The player's token, kept in memory only to ask Discord again while the page stays open."""
    verified_at: float = 0.0
    """When Discord last vouched for the page's player (``time.monotonic``)."""
    bucket: Bucket = field(default_factory=lambda: Bucket(REQUESTS_PER_SECOND, REQUEST_BURST, at=time.monotonic()))
    strikes: int = 0
    shown: dict[int, int] = field(default_factory=dict)
    """Per game, the newest version this page was sent (a push of an older one is skipped)."""
    language: Language = ENGLISH
    """The language the page is spoken to in: its player's once signed in (before: its browser's, or its hint)."""
    told: str | None = None
    """The code of the language whose words the page was sent last (``None``: none yet)."""
    _queue: deque[_Queued] = field(default_factory=deque)
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _writer: asyncio.Task[None] | None = None
    _writing: bool = False
    """The writer is writing a frame (one sent now would pass it)."""
    _closing: bool = False
    _abandoned: bool = False
    _welcomed: bool = False
    """The welcome went out: pushes (held until then, so that it is the page's first frame) are written."""

    @property
    def key(self) -> tuple[int, int] | None:
        """The player's games key (server, member), once verified."""
        return (self.seat.player.guild_id, self.seat.player.user_id) if self.seat is not None else None

    @property
    def queued(self) -> int:
        """Frames waiting to be written."""
        return len(self._queue)

    # -- saying things ---------------------------------------------------------------------
    async def send(self, frame: Outgoing) -> None:
        """Send one frame (a closing page drops it); a GAME's version is remembered as shown, and a pushed
        GAME replaces its game's push not yet written."""
        replaces = None
        if frame["type"] == "game" and frame["game"] is not None:
            game = frame["game"]
            self.shown[game["id"]] = max(self.shown.get(game["id"], -1), game["version"])
            replaces = f"game:{game['id']}" if frame["ref"] is None else None
        await self.send_text(json.dumps(frame, separators=(",", ":")), replaces=replaces)

    async def send_text(self, text: str, *, replaces: str | None = None) -> None:
        """Send one frame already written in JSON (a push built once for many pages).

        Written at once when nothing waits and the connection has taken all it was given (then the write
        cannot wait: no task switch); else queued, see :meth:`put`.
        """
        if self._queue or self._writing or self._closing or self._abandoned or not self._idle() or self._held(replaces):
            self.put(text, replaces=replaces)
            return
        with contextlib.suppress(ConnectionError, RuntimeError):  # the page went while it was written to
            await self.ws.send_str(text)

    async def welcome(self, frame: Outgoing) -> None:
        """Send the page its first frame, before any push that came while it was built (those follow it)."""
        self._welcomed = True
        if not self._queue:
            await self.send(frame)
            return
        self._queue.appendleft(_Queued(json.dumps(frame, separators=(",", ":")), None))
        self._wake()

    def _held(self, replaces: str | None) -> bool:
        """Whether a frame is a push that must wait for the welcome."""
        return replaces is not None and not self._welcomed

    def _idle(self) -> bool:
        """Whether the connection holds nothing unwritten (a write now goes straight to the kernel)."""
        return self.transport is not None and not self.ws.closed and self.transport.get_write_buffer_size() == 0

    def put(self, text: str, *, replaces: str | None = None) -> None:
        """Queue ``text``: in place of the frame of key ``replaces`` not yet written, else last.

        A queue already full means the page does not read: it is closed.
        """
        if self._closing or self._abandoned:
            return
        if replaces is not None:
            for item in self._queue:
                if item.key == replaces:
                    item.text = text
                    return
        if len(self._queue) >= QUEUED_FRAMES:
            self.abandon()
            return
        self._queue.append(_Queued(text, replaces))
        if not self._held(replaces):
            self._wake()

    def _wake(self) -> None:
        """Have the writer write what is queued."""
        self._ready.set()
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write(), name="activity-page-writer")

    async def _write(self) -> None:
        """Write the queue in order until the page closes; a write past its deadline closes the page."""
        while True:
            if not self._queue:
                if self._closing:
                    return
                self._ready.clear()
                await self._ready.wait()
                continue
            text = self._queue.popleft().text
            if self.ws.closed:
                return
            self._writing = True
            try:
                async with asyncio.timeout(WRITE_SECONDS):
                    await self.ws.send_str(text)
            except TimeoutError:
                self.abandon()
                return
            except (ConnectionError, RuntimeError):
                return  # the page went while it was written to
            finally:
                self._writing = False

    # -- ending ------------------------------------------------------------------------------
    async def bye(
        self, code: Close, reason: str, *, route: str | None = None, final: bool = False, retry_in: int | None = None
    ) -> None:
        """Say why, and whether to come back (``final``: never; ``retry_in``: no sooner), then close.

        A page that reached the wrong process is given the ``route`` to the right one.

        The page has :data:`CLOSE_SECONDS` to take what was queued, the goodbye and the close; then its
        connection is cut.
        """
        if self._closing or self._abandoned:
            return
        bye: Bye = {"type": "bye", "reason": reason}
        if route is not None:
            bye["route"] = route
        if final:
            bye["final"] = True
        if retry_in is not None:
            bye["retry_in"] = retry_in
        await self.send(bye)
        self._closing = True
        self._ready.set()
        try:
            async with asyncio.timeout(CLOSE_SECONDS):
                if self._writer is not None:
                    await asyncio.shield(self._writer)
                await self.ws.close(code=int(code), message=_close_reason(reason))
        except TimeoutError:
            self._cut()

    def abandon(self) -> None:
        """Close a page that does not read: its queue dropped, its connection cut, :attr:`on_slow` told."""
        if self._abandoned:
            return
        self._abandoned = True
        self._queue.clear()
        log.info("closed an Activity page that stopped reading (%s)", self.address)
        self.on_slow(self)
        self._cut()

    def _cut(self) -> None:
        """Cut the connection at once (nothing more is written to it)."""
        if self._writer is not None and self._writer is not asyncio.current_task():
            self._writer.cancel()
        if self.transport is not None:
            self.transport.abort()

    async def finish(self) -> None:
        """Stop the writer and close the socket if it is still open (the page left), within the deadline."""
        self._closing = True
        self._ready.set()
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if not self.ws.closed:
            try:
                async with asyncio.timeout(CLOSE_SECONDS):
                    await self.ws.close()
            except TimeoutError:
                self._cut()


def _close_reason(reason: str) -> bytes:
    """``reason`` cut to what a close frame carries (123 bytes): whole characters of its UTF-8, at most 120 bytes.

    >>> _close_reason("é" * 100)[-2:].decode(), len(_close_reason("é" * 100))
    ('é', 120)
    """
    return reason.encode()[:120].decode(errors="ignore").encode()


def keep_send_buffer_small(transport: asyncio.Transport | None) -> None:
    """Hold at most :data:`SEND_BUFFER_BYTES` for a page in the kernel: one that stops reading fills it soon,
    and its writer's deadline closes it, instead of the kernel keeping megabytes for it."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
