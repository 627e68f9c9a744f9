"""The Activity's web server: the page, the sign-in code exchange, and one socket per open Activity.

An aiohttp application on the bot's own loop, built and closed by the composition root. It is a
surface like the cogs: a frame from the page becomes one call of the bot's services (:class:`Table`),
and the answer becomes a frame. Who the player is and where they play is asked of Discord on the
socket's first frame (:class:`~bot.activity.sign_in.SignIns`), and again now and then while it stays
open; nothing the page says after that is believed beyond what a button's id would be (the game, the
board's version). Every frame to a page goes through that page's own bounded queue
(:class:`~bot.activity.page.Socket`): a page that does not read slows nobody but itself.

A game changed elsewhere (a button, the clock) is pushed to its player's open sockets.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot import errors
from bot.activity.addresses import LOCAL_NETWORKS, Network, client_address
from bot.activity.frames import game_frame
from bot.activity.identity import (
    DiscordIdentity,
    DiscordUnavailableError,
    Player,
    SignInRefusedError,
    VerificationError,
)
from bot.activity.limits import (
    CLOSE_SECONDS,
    MENU_COST,
    REVERIFY_SECONDS,
    SOCKETS_PER_ADDRESS,
    SOCKETS_PER_MEMBER,
    STRIKES,
    TOKEN_EXCHANGES_PER_MINUTE,
    Caps,
    Window,
)
from bot.activity.page import Socket, keep_send_buffer_small
from bot.activity.protocol import (
    IDENTIFY_SECONDS,
    MAX_FRAME_BYTES,
    BadFrameError,
    ChallengeAnswer,
    ChallengePlay,
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
from bot.activity.sign_in import Refusal, SignIns
from bot.activity.table import REFUSALS, Seat, Table
from bot.background import BackgroundTasks
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
SIGN_IN_CODE = re.compile(r"[A-Za-z0-9._~+/=-]{1,200}")
"""The shape of an OAuth2 code (RFC 6749's characters, fewer of them): anything else is not sent to Discord."""
IDLE_SECONDS = 75.0
"""A signed-in page that sends nothing for this long is closed (the page pings every 25 s)."""
REVERIFY_EVERY = 60.0
"""How often the open pages are looked over for one due to be checked again."""


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
    route_of: Callable[[int], str | None] = lambda guild_id: None
    """The path prefix of the process that runs the server (``ACTIVITY_ROUTES``; ``None``: no routes)."""


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
        prefix: str = "",
        trusted: Sequence[Network] = LOCAL_NETWORKS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Play through ``table``; hear ``sessions``' changes; verify with ``identity``; ``where`` knows the servers.

        ``races``: the race frames and the races pushed to the pages of their channel. ``prefix`` (a cluster's
        ``ACTIVITY_ROUTES``): the path this process serves the Activity under, besides ``/``. ``trusted``: the
        fronts believed to name a page's address. ``clock`` (monotonic seconds) times the rates and checks.
        """
        self.table = table
        self.races = races
        self.sessions = sessions
        self.identity = identity
        self.where = where
        self.now = now
        self.client_id = client_id
        self.prefix = prefix
        self.trusted = tuple(trusted)
        self.clock = clock
        self.build = build_id()
        self.counts = identity.counts
        self.sign_ins = SignIns(identity, clock)
        self._page = (STATIC / "index.html").read_text(encoding="utf-8") if (STATIC / "index.html").is_file() else ""
        self._by_address = Caps(SOCKETS_PER_ADDRESS)
        self._by_member = Caps(SOCKETS_PER_MEMBER)
        self._exchanges = Window(TOKEN_EXCHANGES_PER_MINUTE, 60.0)
        self._players: dict[tuple[int, int], set[Socket]] = {}
        self._sockets: set[Socket] = set()
        self._busy: dict[Socket, int] = {}
        """Sockets playing a request on a game: the game's own answer goes to them, not a push."""
        self._pushing: set[int] = set()
        """Games whose push is on its way (later moves join it)."""
        self._tasks = BackgroundTasks("activity")
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        sessions.add_move_listener(self._moved)
        sessions.add_finish_listener(self._finished)
        if table.challenges is not None:
            table.challenges.watch(self._menus)

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
        self._tasks.spawn(self._reverify_forever(), "activity-reverify")
        log.info("Activity on http://%s:%d/ (build %s)", host, self.port, self.build)
        return self.port

    async def close(self) -> None:
        """Say goodbye to every page at once, within :data:`CLOSE_SECONDS`, and stop listening (safe twice)."""
        await self._tasks.cancel_all()
        reason = "the bot is restarting: this page reconnects by itself"
        await asyncio.gather(*(socket.bye(Close.SHUTTING_DOWN, reason) for socket in list(self._sockets)))
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
        await self.identity.close()

    # -- HTTP ------------------------------------------------------------------------------
    async def _index(self, request: web.Request) -> web.Response:
        page = self._page.replace("{{build}}", self.build).replace("{{client_id}}", str(self.client_id))
        page = page.replace("{{route}}", self.prefix if self.prefix and request.path == f"{self.prefix}/" else "")
        return web.Response(text=page, content_type="text/html", headers=PAGE_HEADERS)

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
        if not self._by_address.take(address):
            self.counts.closed["caps"] += 1
            await socket.bye(Close.TOO_MANY, "too many Activity pages open from this address: close one", final=True)
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
        """Wait in the room for the ``hello``, and sign it in; whether the socket may play."""
        refusal = self.sign_ins.enter(socket.address)
        if refusal is not None:
            await self._refuse(socket, refusal)
            return False
        try:
            outcome = await self._hello(socket)
        finally:
            self.sign_ins.leave(socket.address)
        if outcome is None:
            return False
        if isinstance(outcome, Refusal):
            await self._refuse(socket, outcome)
            return False
        return await self._seat(socket, outcome)

    async def _hello(self, socket: Socket) -> Player | Refusal | None:
        """The page's ``hello`` signed in (a player, or a refusal); ``None``: the page was closed already."""
        try:
            message = await socket.ws.receive(timeout=IDENTIFY_SECONDS)
        except TimeoutError:
            self.counts.closed["identify"] += 1
            await socket.bye(Close.IDENTIFY_TIMEOUT, "the page did not say who it is in time")
            return None
        if message.type is not WSMsgType.TEXT:
            if message.type is WSMsgType.BINARY:
                self.counts.closed["frame"] += 1
                await socket.bye(Close.BAD_FRAME, "frames are JSON text", final=True)
            return None
        try:
            hello = parse_frame(message.data)
        except BadFrameError as error:
            self.counts.closed["frame"] += 1
            await socket.bye(Close.BAD_FRAME, str(error), final=True)
            return None
        if not isinstance(hello, Hello):
            self.counts.closed["frame"] += 1
            await socket.bye(Close.BAD_FRAME, "the first frame must be hello", final=True)
            return None
        socket.access_token = hello.access_token
        claimed = int(hello.guild_id) if hello.guild_id else None
        return await self.sign_ins.sign_in(socket.address, hello.access_token, hello.instance_id, claimed)

    async def _refuse(self, socket: Socket, refusal: Refusal) -> None:
        """Close a page that may not sign in, saying why and whether (or when) to come back."""
        if refusal.counted_as == "verify":
            self.counts.verification_failures += 1
        self.counts.closed[refusal.counted_as] += 1
        await socket.bye(refusal.code, refusal.reason, final=refusal.final, retry_in=refusal.retry_in)

    async def _seat(self, socket: Socket, player: Player) -> bool:
        """Seat a verified player: this process must run their server, and each member has a few sockets."""
        if player.guild_id and not self.where.owns(player.guild_id):
            self.counts.closed["not_here"] += 1
            route = self.where.route_of(player.guild_id)
            words = "this server's games are run by another process of the bot"
            await socket.bye(Close.NOT_HERE, words, route=route if route != self.prefix else None)
            return False
        if not self._by_member.take((player.guild_id, player.user_id)):
            self.counts.closed["caps"] += 1
            await socket.bye(Close.TOO_MANY, "you have too many Activity pages open: close one", final=True)
            return False
        ranked = not player.guild_id or self.where.has_bot(player.guild_id)
        socket.seat = Seat(player, ranked)
        socket.verified_at = self.clock()
        self._players.setdefault((player.guild_id, player.user_id), set()).add(socket)
        if self.races is not None:
            self.races.seat(socket)
        menu = await self._menu(socket.seat)
        user = {"id": str(player.user_id), "name": player.name}
        await socket.send("welcome", user=user, guild_id=str(player.guild_id), practice_only=not ranked, menu=menu)
        return True

    async def _serve(self, socket: Socket) -> None:
        """Answer the page's frames until it goes."""
        while True:
            try:
                message = await socket.ws.receive(timeout=IDLE_SECONDS)
            except TimeoutError:
                self.counts.closed["idle"] += 1
                await socket.bye(Close.SILENT, "this page said nothing for too long: it reconnects by itself")
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
            if isinstance(frame, MenuAsk) and not await self._within_rate(socket, message.data, MENU_COST - 1):
                if socket.strikes >= STRIKES:
                    break
                continue
            try:
                await self._answer(socket, frame)
            except Exception:  # a bug must not end the page's socket: it is logged and the page told
                log.exception("the Activity could not answer a %s frame", type(frame).__name__)
                await socket.send("refused", ref=getattr(frame, "ref", None), reason=UNEXPECTED, game=None)

    async def _within_rate(self, socket: Socket, data: Any, cost: float) -> bool:
        """Whether a request worth ``cost`` is within the page's rate; else it is refused (and struck)."""
        if socket.bucket.allow(self.clock(), cost):
            return True
        self.counts.refusals += 1
        socket.strikes += 1
        if socket.strikes >= STRIKES:
            self.counts.closed["rate"] += 1
            await socket.bye(Close.TOO_MANY, "too many requests: reopen the Activity", final=True)
        else:
            await socket.send("refused", ref=_ref_of(data), reason=SLOW_DOWN, game=None)
        return False

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
        elif isinstance(frame, ChallengeAnswer | ChallengePlay):
            await self._challenge(socket, seat, frame)
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

    async def _challenge(self, socket: Socket, seat: Seat, frame: ChallengeAnswer | ChallengePlay) -> None:
        """A challenge answered (the menu after it) or played (its attempt's GAME), or refused in its words."""
        desk = self.table.challenges
        try:
            if desk is None:
                raise errors.NotInServerError("Challenges")
            if isinstance(frame, ChallengePlay):
                await socket.send_game(await desk.play(seat, frame.challenge), ref=frame.ref)
                return
            await desk.answer(seat, frame.challenge, accept=frame.accept)
        except REFUSALS as error:
            self.counts.refusals += 1
            await socket.send("refused", ref=frame.ref, reason=str(error), game=None)
            return
        await socket.send("menu", ref=frame.ref, menu=await self._menu(seat))

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
            self._by_member.give_back(key)
            sockets = self._players.get(key)
            if sockets is not None:
                sockets.discard(socket)
                if not sockets:
                    del self._players[key]
        await socket.finish()

    def _stopped_reading(self, socket: Socket) -> None:
        """A page's queue or write outlasted its bound: it was closed (counted)."""
        self.counts.closed["slow"] += 1

    # -- who may stay -----------------------------------------------------------------------
    async def member_gone(self, guild_id: int, user_id: int, reason: str) -> None:
        """Close the pages of a member who is no longer in the server (banned, removed), saying ``reason``."""
        pages = list(self._players.get((guild_id, user_id), ()))
        self.counts.closed["left"] += len(pages)
        await asyncio.gather(*(socket.bye(Close.FORBIDDEN, reason, final=True) for socket in pages))

    async def server_gone(self, guild_id: int) -> None:
        """Close every page of a server the bot left: its games are not ranked there any more."""
        reason = "the bot left this server: open the Activity again"
        pages = [page for page in self._sockets if page.seat is not None and page.seat.player.guild_id == guild_id]
        self.counts.closed["left"] += len(pages)
        await asyncio.gather(*(socket.bye(Close.FORBIDDEN, reason, final=True) for socket in pages))

    async def reverify_due(self) -> None:
        """Ask Discord again about every page open longer than :data:`REVERIFY_SECONDS` since it last vouched.

        A page whose token Discord no longer takes, or whose member left the instance, is closed; while
        Discord cannot be asked (down, or the budget spent) the pages stay and are asked at the next round.
        """
        due = [
            socket
            for socket in list(self._sockets)
            if socket.seat is not None and socket.verified_at + REVERIFY_SECONDS <= self.clock()
        ]
        refused: list[tuple[Socket, Refusal]] = []
        for socket in due:
            assert socket.seat is not None
            player = socket.seat.player
            try:
                await self.identity.verify(socket.access_token, player.instance_id, player.guild_id or None)
            except DiscordUnavailableError:
                break
            except SignInRefusedError as error:
                refused.append((socket, Refusal(str(error), Close.UNAUTHORIZED, final=True, counted_as="left")))
            except VerificationError as error:
                refused.append((socket, Refusal(str(error), Close.FORBIDDEN, final=True, counted_as="left")))
            else:
                socket.verified_at = self.clock()
        await asyncio.gather(*(self._refuse(socket, refusal) for socket, refusal in refused))

    async def _reverify_forever(self) -> None:
        """Look the pages over every :data:`REVERIFY_EVERY` seconds."""
        while True:
            await asyncio.sleep(REVERIFY_EVERY)
            await self.reverify_due()

    # -- pushes -----------------------------------------------------------------------------
    def _moved(self, session: Session) -> None:
        """A game accepted a command (on any surface): show it on its player's other open pages, soon.

        One push per game is on its way at a time; the moves made before it goes are shown by it.
        """
        sockets = self._players.get((session.record.guild_id, session.owner_id), ())
        if session.id in self._pushing or all(self._busy.get(socket) == session.id for socket in sockets):
            return
        self._pushing.add(session.id)
        self._tasks.spawn(self._push_soon(session), f"activity-push-{session.id}")

    async def _push_soon(self, session: Session) -> None:
        """The push of a moved game, once the move's own work is done."""
        try:
            await self._push(session, None)
        finally:
            self._pushing.discard(session.id)

    async def _finished(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        """A game ended (the clock, a button, a page): show its result on its player's open pages."""
        self.table.forget(session.id)
        self.table.forget_daily(record.guild_id, record.user_id)
        if (record.guild_id, record.user_id) in self._players:
            await self._push(session, record)

    async def _menus(self, guild_id: int, user_ids: Sequence[int]) -> None:
        """A challenge changed: send its members' open pages in that server their menu again (``ref`` ``null``)."""
        for user_id in user_ids:
            for socket in list(self._players.get((guild_id, user_id), ())):
                if socket.seat is not None:
                    await socket.send("menu", ref=None, menu=await self._menu(socket.seat))

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


def _ref_of(data: Any) -> int | None:
    """The ``ref`` of a frame refused before it was read (to tie the refusal to its request)."""
    try:
        ref = json.loads(data).get("ref")
    except (ValueError, AttributeError, RecursionError):
        return None
    return ref if isinstance(ref, int) else None
