"""The Activity's web server: the page, the sign-in code exchange, and one socket per open Activity.

An aiohttp application on the bot's own loop, built and closed by the composition root. It is a
surface like the cogs: a frame from the page becomes one call of the bot's services (:class:`Table`),
and the answer becomes a frame. Who the player is and where they play is asked of Discord once, on
the socket's first frame (:class:`DiscordIdentity`); nothing the page says after that is believed
beyond what a button's id would be (the game, the board's version).

A game changed elsewhere (a button, the clock) is pushed to its player's open sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.activity.frames import game_frame
from bot.activity.identity import (
    DiscordIdentity,
    DiscordUnavailableError,
    Player,
    SignInRefusedError,
    VerificationError,
)
from bot.activity.limits import (
    REQUEST_BURST,
    REQUESTS_PER_SECOND,
    SOCKETS_PER_ADDRESS,
    SOCKETS_PER_MEMBER,
    STRIKES,
    TOKEN_EXCHANGES_PER_MINUTE,
    UNIDENTIFIED_SOCKETS,
    ActivityCounts,
    Bucket,
    Caps,
    Window,
)
from bot.activity.protocol import (
    IDENTIFY_SECONDS,
    MAX_FRAME_BYTES,
    BadFrameError,
    Close,
    Hello,
    MenuAsk,
    Ping,
    PlayFrame,
    RaceFrame,
    Resume,
    Start,
    parse_frame,
)
from bot.activity.races import RaceDesk
from bot.activity.table import REFUSALS, Seat, Table
from bot.play.session import Clock, FinishSource, Session
from bot.play.sessions import SessionManager
from bot.storage.games import GameRecord

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
UNEXPECTED = "Something went wrong on my side: nothing was changed. Try again in a moment."
SLOW_DOWN = "slow down: too many requests"
ASSET_HEADERS = {"Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff"}


def build_id(folder: Path = STATIC) -> str:
    """A short hash of every file of the page: its assets' names change whenever one of them does."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class Where:
    """What the server asks of the bot about a server: does this process run it, is the bot in it."""

    owns: Callable[[int], bool]
    """This process runs the server's games (a shard cluster splits the servers)."""
    has_bot: Callable[[int], bool]
    """The bot is a member of the server (its games rank there)."""
    name_of: Callable[[int, int], str | None] = lambda guild_id, user_id: None
    """A member's name as the server shows it (``None``: not known here): how a page names other players."""
    bot_may: Callable[[int, int, str], bool] = lambda guild_id, channel_id, flag: True
    """Whether the bot holds a permission (a ``discord.Permissions`` flag) in a channel (``True``: not known here)."""


@dataclass(eq=False)
class Socket:
    """One open page: its socket, its verified player, its rate and what it was last shown."""

    ws: web.WebSocketResponse
    address: str
    seat: Seat | None = None
    bucket: Bucket = field(default_factory=lambda: Bucket(REQUESTS_PER_SECOND, REQUEST_BURST, at=time.monotonic()))
    strikes: int = 0
    shown: dict[int, int] = field(default_factory=dict)
    """Per game, the newest version this page was sent (a push of an older one is skipped)."""

    @property
    def key(self) -> tuple[int, int] | None:
        """The player's games key (server, member), once verified."""
        return (self.seat.player.guild_id, self.seat.player.user_id) if self.seat is not None else None

    async def send(self, kind: str, **fields: Any) -> None:
        """Send one frame (a closed socket drops it)."""
        if not self.ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.send_str(json.dumps({"type": kind, **fields}, separators=(",", ":")))

    async def send_text(self, text: str) -> None:
        """Send one frame already written in JSON (a push built once for many pages)."""
        if not self.ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.send_str(text)

    async def send_game(self, game: dict[str, Any] | None, *, ref: int | None, words: str | None = None) -> None:
        """Send a GAME (and remember its version as shown)."""
        if game is not None:
            self.shown[game["id"]] = max(self.shown.get(game["id"], -1), game["version"])
        await self.send("game", ref=ref, game=game, words=words)

    async def bye(self, code: Close, reason: str) -> None:
        """Say why, then close."""
        await self.send("bye", reason=reason)
        await self.ws.close(code=int(code), message=reason[:120].encode())


class ActivityServer:
    """Serves the page and its sockets on ``host:port``, over the bot's sessions and services."""

    def __init__(
        self,
        *,
        table: Table,
        sessions: SessionManager,
        identity: DiscordIdentity,
        where: Where,
        now: Clock,
        client_id: int,
        races: RaceDesk | None = None,
    ) -> None:
        """Play through ``table``; hear ``sessions``' changes; verify with ``identity``; ``where`` knows the servers.

        ``races``: the race frames and the races pushed to the pages of their channel.
        """
        self.table = table
        self.races = races
        self.sessions = sessions
        self.identity = identity
        self.where = where
        self.now = now
        self.client_id = client_id
        self.build = build_id()
        self.counts = ActivityCounts()
        self._page = (STATIC / "index.html").read_text(encoding="utf-8") if (STATIC / "index.html").is_file() else ""
        self._by_address = Caps(SOCKETS_PER_ADDRESS)
        self._by_member = Caps(SOCKETS_PER_MEMBER)
        self._exchanges = Window(TOKEN_EXCHANGES_PER_MINUTE, 60.0)
        self._players: dict[tuple[int, int], set[Socket]] = {}
        self._sockets: set[Socket] = set()
        self._seated = 0
        """Sockets whose player is verified (the others are still saying who they are)."""
        self._busy: dict[Socket, int] = {}
        self._pushes: set[asyncio.Task[None]] = set()
        """Pushes under way (held here: the loop keeps only a weak reference to a task)."""
        """Sockets playing a request on a game: the game's own answer goes to them, not a push."""
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        sessions.add_move_listener(self._moved)
        sessions.add_finish_listener(self._finished)

    # -- the application ---------------------------------------------------------------
    def app(self) -> web.Application:
        """The aiohttp application: the page, its assets, the code exchange and the socket."""
        app = web.Application(client_max_size=4096)
        app.router.add_get("/", self._index)
        app.router.add_get("/assets/{build}/{path:.+}", self._asset)
        app.router.add_post("/api/token", self._token)
        app.router.add_get("/ws", self._socket)
        return app

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host:port`` (0: any free port); return the port."""
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        try:
            site = web.TCPSite(self._runner, host, port)
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            self._runner = None
            raise
        self.port = int(self._runner.addresses[0][1])
        log.info("Activity on http://%s:%d/ (build %s)", host, self.port, self.build)
        return self.port

    async def close(self) -> None:
        """Say goodbye to every page and stop listening (safe to call twice)."""
        for socket in list(self._sockets):
            await socket.bye(Close.SHUTTING_DOWN, "the bot is restarting: this page reconnects by itself")
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
        await self.identity.close()

    # -- HTTP ------------------------------------------------------------------------------
    async def _index(self, request: web.Request) -> web.Response:
        page = self._page.replace("{{build}}", self.build).replace("{{client_id}}", str(self.client_id))
        return web.Response(text=page, content_type="text/html", headers=PAGE_HEADERS)

    async def _asset(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["build"] != self.build:
            raise web.HTTPNotFound(text="this page was updated: reload it")
        path = (STATIC / request.match_info["path"]).resolve()
        if not path.is_relative_to(STATIC) or not path.is_file() or path.suffix not in TYPES:
            raise web.HTTPNotFound()
        return web.Response(body=path.read_bytes(), content_type=TYPES[path.suffix], headers=ASSET_HEADERS)

    async def _token(self, request: web.Request) -> web.Response:
        """Exchange the page's sign-in code for the player's token (stored nowhere, never logged)."""
        address = client_address(request)
        if not self._exchanges.allow(address, time.monotonic()):
            return web.json_response({"error": "too many sign-ins from here: wait a minute"}, status=429)
        try:
            body = await request.json()
        except ValueError:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not 0 < len(code) <= 200:
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
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME_BYTES, heartbeat=30.0, compress=False)
        await ws.prepare(request)
        socket = Socket(ws, client_address(request))
        if len(self._sockets) - self._seated >= UNIDENTIFIED_SOCKETS or not self._by_address.take(socket.address):
            self.counts.closed["caps"] += 1
            await socket.bye(Close.TOO_MANY, "too many Activity pages open from this address: close one")
            return ws
        self._sockets.add(socket)
        self.counts.sockets += 1
        self.counts.open_sockets += 1
        try:
            if await self._identify(socket):
                await self._serve(socket)
        finally:
            await self._leave(socket)
        return ws

    async def _identify(self, socket: Socket) -> bool:
        """Read the ``hello`` and ask Discord about it; whether the socket may play."""
        try:
            message = await socket.ws.receive(timeout=IDENTIFY_SECONDS)
        except TimeoutError:
            self.counts.closed["identify"] += 1
            await socket.bye(Close.IDENTIFY_TIMEOUT, "the page did not say who it is in time")
            return False
        if message.type is not WSMsgType.TEXT:
            return False
        try:
            hello = parse_frame(message.data)
        except BadFrameError as error:
            self.counts.closed["frame"] += 1
            await socket.bye(Close.BAD_FRAME, str(error))
            return False
        if not isinstance(hello, Hello):
            self.counts.closed["frame"] += 1
            await socket.bye(Close.BAD_FRAME, "the first frame must be hello")
            return False
        claimed = int(hello.guild_id) if hello.guild_id and hello.guild_id.isdecimal() else None
        try:
            player = await self.identity.verify(hello.access_token, hello.instance_id, claimed)
        except DiscordUnavailableError as error:
            await socket.bye(Close.SHUTTING_DOWN, str(error))
            return False
        except VerificationError as error:
            self.counts.verification_failures += 1
            self.counts.closed["verify"] += 1
            await socket.bye(
                Close.UNAUTHORIZED if isinstance(error, SignInRefusedError) else Close.FORBIDDEN, str(error)
            )
            return False
        return await self._seat(socket, player)

    async def _seat(self, socket: Socket, player: Player) -> bool:
        """Seat a verified player: this process must run their server, and each member has a few sockets."""
        if player.guild_id and not self.where.owns(player.guild_id):
            self.counts.closed["not_here"] += 1
            await socket.bye(Close.NOT_HERE, "this server's games are run by another process of the bot")
            return False
        if not self._by_member.take((player.guild_id, player.user_id)):
            self.counts.closed["caps"] += 1
            await socket.bye(Close.TOO_MANY, "you have too many Activity pages open: close one")
            return False
        ranked = not player.guild_id or self.where.has_bot(player.guild_id)
        socket.seat = Seat(player, ranked)
        self._seated += 1
        self._players.setdefault((player.guild_id, player.user_id), set()).add(socket)
        if self.races is not None:
            self.races.seat(socket)
        menu = await self._menu(socket.seat)
        user = {"id": str(player.user_id), "name": player.name}
        await socket.send("welcome", user=user, guild_id=str(player.guild_id), practice_only=not ranked, menu=menu)
        return True

    async def _serve(self, socket: Socket) -> None:
        """Answer the page's frames until it goes."""
        async for message in socket.ws:
            if message.type is not WSMsgType.TEXT:
                if message.type is WSMsgType.BINARY:
                    self.counts.closed["frame"] += 1
                    await socket.bye(Close.BAD_FRAME, "frames are JSON text")
                break
            if not socket.bucket.allow(time.monotonic()):
                self.counts.refusals += 1
                socket.strikes += 1
                if socket.strikes >= STRIKES:
                    self.counts.closed["rate"] += 1
                    await socket.bye(Close.TOO_MANY, "too many requests: reopen the Activity")
                    break
                await socket.send(
                    "refused", ref=_ref_of(message.data), reason="slow down: too many requests", game=None
                )
                continue
            try:
                frame = parse_frame(message.data)
            except BadFrameError as error:
                self.counts.closed["frame"] += 1
                await socket.bye(Close.BAD_FRAME, str(error))
                break
            try:
                await self._answer(socket, frame)
            except Exception:  # a bug must not end the page's socket: it is logged and the page told
                log.exception("the Activity could not answer a %s frame", type(frame).__name__)
                await socket.send("refused", ref=getattr(frame, "ref", None), reason=UNEXPECTED, game=None)

    async def _answer(self, socket: Socket, frame: Any) -> None:
        """One frame's answer."""
        seat = socket.seat
        assert seat is not None
        if isinstance(frame, Ping):
            await socket.send("pong")
        elif isinstance(frame, Hello):
            await socket.send("refused", ref=None, reason="already signed in", game=None)
        elif isinstance(frame, MenuAsk):
            await socket.send("menu", ref=frame.ref, menu=await self._menu(seat))
        elif isinstance(frame, Resume):
            await socket.send_game(await self.table.resume(seat), ref=frame.ref)
        elif isinstance(frame, Start):
            try:
                game = await self.table.start(seat, frame)
            except REFUSALS as error:
                self.counts.refusals += 1
                await socket.send("refused", ref=frame.ref, reason=str(error), game=None)
            else:
                await socket.send_game(game, ref=frame.ref)
        elif isinstance(frame, RaceFrame):
            await self._race(socket, frame)
        else:
            await self._play(socket, seat, frame)

    async def _menu(self, seat: Seat) -> dict[str, Any]:
        """The MENU, with the open races of the page's channel."""
        menu = await self.table.menu(seat)
        menu["races"] = await self.races.menu(seat) if self.races is not None else []
        return menu

    async def _race(self, socket: Socket, frame: RaceFrame) -> None:
        """A race frame: the race desk's answer (refused where races are not run by this server)."""
        if self.races is None:
            await socket.send("refused", ref=frame.ref, reason="Races are not run on this page.", game=None)
            return
        await self.races.answer(socket, frame)

    async def _play(self, socket: Socket, seat: Seat, frame: PlayFrame) -> None:
        """A move, a tap, all up or a hint: its GAME, its places to choose from, or its refusal with the board."""
        self._busy[socket] = frame.game
        try:
            try:
                answer = await self.table.play(seat, frame)
            except REFUSALS as error:
                self.counts.refusals += 1
                await socket.send("refused", ref=frame.ref, reason=str(error), game=self._current(seat, frame.game))
                return
            if isinstance(answer, list):
                await socket.send("choose", ref=frame.ref, source=getattr(frame, "source", None), targets=answer)
                return
            game, words = answer
            self.counts.moves += 1
            await socket.send_game(game, ref=frame.ref, words=words)
        finally:
            self._busy.pop(socket, None)

    def _current(self, seat: Seat, game_id: int) -> dict[str, Any] | None:
        """The GAME of ``game_id`` as it stands, if it is this player's running game."""
        session = self.sessions.get(game_id)
        if session is None or session.owner_id != seat.player.user_id:
            return None
        if session.record.guild_id != seat.player.guild_id or not self.table.started(session):
            return None
        return game_frame(session, now=self.now())

    async def _leave(self, socket: Socket) -> None:
        self._sockets.discard(socket)
        self._busy.pop(socket, None)
        self.counts.open_sockets -= 1
        self._by_address.give_back(socket.address)
        key = socket.key
        if key is not None:
            if self.races is not None:
                self.races.unseat(socket)
            self._seated -= 1
            self._by_member.give_back(key)
            sockets = self._players.get(key)
            if sockets is not None:
                sockets.discard(socket)
                if not sockets:
                    del self._players[key]
        if not socket.ws.closed:
            await socket.ws.close()

    # -- pushes -----------------------------------------------------------------------------
    def _moved(self, session: Session) -> None:
        """A game accepted a command (on any surface): show it on its player's other open pages."""
        sockets = self._players.get((session.record.guild_id, session.owner_id), ())
        if any(self._busy.get(socket) != session.id for socket in sockets):
            push = asyncio.get_running_loop().create_task(self._push(session, None), name=f"activity-push-{session.id}")
            self._pushes.add(push)
            push.add_done_callback(self._pushes.discard)

    async def _finished(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        """A game ended (the clock, a button, a page): show its result on its player's open pages."""
        self.table.forget(session.id)
        if (record.guild_id, record.user_id) in self._players:
            await self._push(session, record)

    async def _push(self, session: Session, record: GameRecord | None) -> None:
        if not self.table.started(session):
            return  # a race's game left during its countdown: its deal stays secret
        sockets = self._players.get((session.record.guild_id, session.owner_id), set())
        game = game_frame(session, now=self.now(), record=record)
        for socket in list(sockets):
            seen = socket.shown.get(session.id, -1) >= game["version"] and record is None
            if self._busy.get(socket) == session.id or seen:
                continue
            await socket.send_game(game, ref=None)


def client_address(request: web.Request) -> str:
    """The page's address: the first ``X-Forwarded-For`` hop when a front on this machine or network forwards it.

    Discord's proxy and the operator's HTTPS front stand between every page and the bot, so the peer is
    the front; a front on a loopback or private address is trusted to say who it forwards.
    """
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For", "")
    if not forwarded or not _is_local(peer):
        return peer
    return forwarded.split(",")[0].strip()[:64] or peer


def _is_local(address: str) -> bool:
    """Whether ``address`` is on this machine or a private network (where the operator's front runs)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private


def _ref_of(data: Any) -> int | None:
    """The ``ref`` of a frame refused before it was read (to tie the refusal to its request)."""
    try:
        ref = json.loads(data).get("ref")
    except (ValueError, AttributeError):
        return None
    return ref if isinstance(ref, int) else None
