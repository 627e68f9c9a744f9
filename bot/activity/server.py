"""The Activity's web server: the page, the sign-in code exchange, and one socket per open Activity.

An aiohttp application on the bot's own loop, built and closed by the composition root. It is a
transport: it serves the page, signs each socket in (:class:`~bot.activity.sign_in.SignIns`: who the
player is and where they play is asked of Discord on the socket's first frame, and again now and then while
it stays open), keeps the trust limits (caps, rates, sizes, idleness), and hands every frame to
:class:`~bot.activity.routes.Routes`, which answers it through the desks. Every frame to a page goes through
that page's own bounded queue (:class:`~bot.activity.page.Socket`): a page that does not read slows nobody
but itself.

The page holds no words of its own: it is served those of the language its browser asks for
(:func:`~bot.activity.page_words.accepted_language`), and its socket's ``welcome`` brings those of its
player's (:class:`~bot.activity.door.Door`).
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import json
import logging
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.activity.addresses import LOCAL_NETWORKS, Network, client_address
from bot.activity.door import Door, Where, said
from bot.activity.identity import DiscordIdentity
from bot.activity.limits import (
    CLOSE_SECONDS,
    MENU_COST,
    SOCKETS_PER_ADDRESS,
    STRIKES,
    TOKEN_EXCHANGES_PER_MINUTE,
    Caps,
    Window,
)
from bot.activity.page import Socket, keep_send_buffer_small
from bot.activity.page_words import accepted_language, speech_of
from bot.activity.protocol import MAX_FRAME_BYTES, BadFrameError, Close, MenuAsk, parse_frame
from bot.activity.refusals import SlowDownError, refusals
from bot.activity.routes import Routes
from bot.activity.verified import DiscordUnavailableError, VerificationError
from bot.background import BackgroundTasks
from bot.speakers import Speakers
from languages import ENGLISH, Language
from solitaire.speech import N_, _, speak

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
"""The page: plain JavaScript modules and CSS, served as they are."""
TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".md": "text/plain",
    ".svg": "image/svg+xml",
}
PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
ASSET_HEADERS = {"Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff"}
SIGN_IN_CODE = re.compile(r"[A-Za-z0-9._~+/=-]{1,200}")
"""The shape of an OAuth2 code (RFC 6749's characters, fewer of them): anything else is not sent to Discord."""
IDLE_SECONDS = 75.0
"""A signed-in page that sends nothing for this long is closed (the page pings every 25 s)."""
RESTARTING = N_("the bot is restarting: this page reconnects by itself")


def build_id(folder: Path = STATIC) -> str:
    """A short hash of every file of the page: its assets' names change whenever one of them does."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class ActivityServer:
    """Serves the page and its sockets on ``host:port``, over the bot's sessions and services."""

    def __init__(
        self,
        *,
        routes: Routes,
        identity: DiscordIdentity,
        where: Where,
        speakers: Speakers,
        client_id: int,
        prefix: str = "",
        trusted: Sequence[Network] = LOCAL_NETWORKS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Answer frames through ``routes`` (its pages are this server's); verify with ``identity``; ``where``
        knows the servers; ``speakers`` the language each player reads.

        ``prefix`` (a cluster's ``ACTIVITY_ROUTES``): the path this process serves the Activity under, besides
        ``/``. ``trusted``: the fronts believed to name a page's address. ``clock`` (monotonic seconds) times the
        rates and checks.
        """
        self.routes = routes
        self.pages = routes.pages
        self.identity = identity
        self.client_id = client_id
        self.prefix = prefix
        self.trusted = tuple(trusted)
        self.clock = clock
        self.build = build_id()
        self.counts = identity.counts
        self.door = Door(identity, where, self.pages, routes.menu, speakers=speakers, prefix=prefix, clock=clock)
        self._page = (STATIC / "index.html").read_text(encoding="utf-8") if (STATIC / "index.html").is_file() else ""
        self._pages: dict[str, str] = {}
        """The page with its words, by language (made once each)."""
        self._by_address = Caps(SOCKETS_PER_ADDRESS)
        self._exchanges = Window(TOKEN_EXCHANGES_PER_MINUTE, 60.0)
        self._tasks = BackgroundTasks("activity")
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    # -- the application ---------------------------------------------------------------
    def app(self) -> web.Application:
        """The aiohttp application: the page, its assets, the code exchange and the socket."""
        app = web.Application(client_max_size=4096)
        for root in ("", self.prefix) if self.prefix else ("",):
            app.router.add_get(f"{root}/", self._index)
            app.router.add_get(f"{root}/assets/{{build}}/{{path:.+}}", self._asset)
            app.router.add_post(f"{root}/api/token", self._token)
            app.router.add_get(f"{root}/ws", self._socket)
        if self.prefix:
            app.router.add_get(self.prefix, self._into_prefix)
        return app

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host:port`` (0: any free port); return the port."""
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=CLOSE_SECONDS)
        await self._runner.setup()
        try:
            site = web.TCPSite(self._runner, host, port)
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            self._runner = None
            raise
        self.port = int(self._runner.addresses[0][1])
        self._page_in(ENGLISH)  # the words of the first pages made now, not while a page waits for them
        self._tasks.spawn(self.door.reverify_forever(), "activity-reverify")
        log.info("Activity on http://%s:%d/ (build %s)", host, self.port, self.build)
        return self.port

    async def close(self) -> None:
        """Say goodbye to every page at once, within :data:`CLOSE_SECONDS`, and stop listening (safe twice)."""
        await self._tasks.cancel_all()
        await asyncio.gather(*(socket.bye(Close.SHUTTING_DOWN, said(socket, RESTARTING)) for socket in self.pages))
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
        await self.routes.close()
        await self.identity.close()

    # -- HTTP ------------------------------------------------------------------------------
    async def _index(self, request: web.Request) -> web.Response:
        page = self._page_in(accepted_language(request.headers.get("Accept-Language")))
        page = page.replace("{{route}}", self.prefix if self.prefix and request.path == f"{self.prefix}/" else "")
        return web.Response(text=page, content_type="text/html", headers=PAGE_HEADERS | {"Vary": "Accept-Language"})

    def _page_in(self, language: Language) -> str:
        """The page with its words in ``language`` (until its welcome brings its player's), its build and client."""
        page = self._pages.get(language.code)
        if page is None:
            speech = speech_of(language)
            title = str(speech["words"]["app_name"])
            script = json.dumps(speech, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
            page = self._page.replace("{{build}}", self.build).replace("{{client_id}}", str(self.client_id))
            page = page.replace("{{lang}}", speech["locale"]).replace("{{title}}", html.escape(title))
            page = self._pages[language.code] = page.replace("{{speech}}", script)
        return page

    async def _into_prefix(self, request: web.Request) -> web.Response:
        """``/c1`` is the page at ``/c1/``: sent there by a relative address (it works behind any proxy's prefix)."""
        query = f"?{request.query_string}" if request.query_string else ""
        raise web.HTTPPermanentRedirect(f"{self.prefix.rsplit('/', 1)[-1]}/{query}")

    async def _asset(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["build"] != self.build:
            raise web.HTTPNotFound(text="this page was updated: reload it")
        path = (STATIC / request.match_info["path"]).resolve()
        if not path.is_relative_to(STATIC) or not path.is_file() or path.suffix not in TYPES:
            raise web.HTTPNotFound()
        return web.Response(body=path.read_bytes(), content_type=TYPES[path.suffix], headers=ASSET_HEADERS)

    async def _token(self, request: web.Request) -> web.Response:
        """Exchange the page's sign-in code for the player's token (stored nowhere, never logged)."""
        address = client_address(request, self.trusted)
        if not self._exchanges.allow(address, self.clock()):
            return web.json_response({"error": "too many sign-ins from here: wait a minute"}, status=429)
        try:
            body = await request.json()
        except (ValueError, RecursionError):
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not SIGN_IN_CODE.fullmatch(code):
            return web.json_response({"error": 'send the sign-in code as {"code": ...}'}, status=400)
        try:
            token = await self.identity.exchange(code)
        except DiscordUnavailableError as error:
            return web.json_response({"error": str(error)}, status=503)
        except VerificationError as error:
            self.counts.verification_failures += 1
            return web.json_response({"error": str(error)}, status=401)
        return web.json_response({"access_token": token}, headers={"Cache-Control": "no-store"})

    # -- the socket --------------------------------------------------------------------------
    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        # No permessage-deflate: a GAME is under 1 KB, and each compressed socket keeps about 100 KB of state.
        # No aiohttp heartbeat: its timer keeps every closed socket in memory for its interval (at 100 bad
        # sockets a second, 20 MB); a page that says nothing for IDLE_SECONDS is closed instead (it pings).
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME_BYTES, heartbeat=None, compress=False)
        await ws.prepare(request)
        address = client_address(request, self.trusted)
        keep_send_buffer_small(request.transport)
        socket = Socket(ws, address, transport=request.transport, on_slow=self._stopped_reading)
        socket.language = accepted_language(request.headers.get("Accept-Language"))  # until its player is known
        speak(socket.language.catalogue())
        if not self._by_address.take(address):
            self.counts.closed["caps"] += 1
            words = _("too many Activity pages open from this address: close one")
            await socket.bye(Close.TOO_MANY, words, final=True)
            return ws
        self.pages.open(socket)
        self.counts.sockets += 1
        self.counts.open_sockets += 1
        try:
            if await self.door.identify(socket):
                await self._serve(socket)
        finally:
            await self._leave(socket)
        return ws

    async def _serve(self, socket: Socket) -> None:
        """Answer the page's frames until it goes."""
        while True:
            try:
                message = await socket.ws.receive(timeout=IDLE_SECONDS)
            except TimeoutError:
                self.counts.closed["idle"] += 1
                await socket.bye(Close.SILENT, _("this page said nothing for too long: it reconnects by itself"))
                break
            if message.type is not WSMsgType.TEXT:
                if message.type is WSMsgType.BINARY:
                    self.counts.closed["frame"] += 1
                    await socket.bye(Close.BAD_FRAME, "frames are JSON text", final=True)
                break
            if not await self._within_rate(socket, message.data, 1.0):
                if socket.strikes >= STRIKES:
                    break
                continue
            try:
                frame = parse_frame(message.data)
            except BadFrameError as error:
                self.counts.closed["frame"] += 1
                await socket.bye(Close.BAD_FRAME, str(error), final=True)
                break
            if isinstance(frame, MenuAsk):
                if not await self._within_rate(socket, message.data, MENU_COST - 1):
                    if socket.strikes >= STRIKES:
                        break
                    continue
                await self.door.listen_again(socket)  # the player may have chosen another language
            await self.routes.answer(socket, frame)

    async def _within_rate(self, socket: Socket, data: Any, cost: float) -> bool:
        """Whether a request worth ``cost`` is within the page's rate; else it is refused (and struck)."""
        if socket.bucket.allow(self.clock(), cost):
            return True
        socket.strikes += 1
        if socket.strikes >= STRIKES:
            self.counts.refusals += 1
            self.counts.closed["rate"] += 1
            await socket.bye(Close.TOO_MANY, _("too many requests: reopen the Activity"), final=True)
        else:
            async with refusals(socket, _ref_of(data), self.counts):
                raise SlowDownError()
        return False

    async def _leave(self, socket: Socket) -> None:
        self.pages.close(socket)
        self.counts.open_sockets -= 1
        self._by_address.give_back(socket.address)
        self.door.leave(socket)
        await socket.finish()

    def _stopped_reading(self, socket: Socket) -> None:
        """A page's queue or write outlasted its bound: it was closed (counted)."""
        self.counts.closed["slow"] += 1

    # -- who may stay (the door's) ------------------------------------------------------------
    async def member_gone(self, guild_id: int, user_id: int, reason: str) -> None:
        """Close the pages of a member who is no longer in the server (banned, removed), saying ``reason`` (a
        sentence marked with ``N_``: said in each page's language)."""
        await self.door.member_gone(guild_id, user_id, reason)

    async def server_gone(self, guild_id: int) -> None:
        """Close every page of a server the bot left: its games are not ranked there any more."""
        await self.door.server_gone(guild_id)

    async def reverify_due(self) -> None:
        """Ask Discord again about the pages due to be checked (see :meth:`Door.reverify_due`)."""
        await self.door.reverify_due()


def _ref_of(data: Any) -> int | None:
    """The ``ref`` of a frame refused before it was read (to tie the refusal to its request)."""
    try:
        ref = json.loads(data).get("ref")
    except (ValueError, AttributeError, RecursionError):
        return None
    return ref if isinstance(ref, int) else None
