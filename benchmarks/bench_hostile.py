"""Soak the Activity with hostile pages while signed-in pages play, the bot in a process of its own.

Usage: .venv/bin/python benchmarks/bench_hostile.py [--sockets 200] [--rate 1000] [--seconds 60] [--warmup 2]
       [--calm 10] [--mirrors 20] [--flooders 20] [--garbage 20] [--garbage-rate 100] [--sign-ins 50] [--token-posts 3]
       .venv/bin/python benchmarks/bench_hostile.py --seconds 5 --sockets 40 --rate 200     (a quick check)

The bot runs as ``bench_activity.py --serve`` does (its services from the composition root, SQLite in a
temporary folder, instant deals), its stderr (its log) kept in a temporary file. This process runs the
stand-in for Discord's REST API (``FakeDiscordApi``) and every page, from ``127.0.0.x`` only: at most
``PAGES_PER_ADDRESS`` playing pages to a source address (``127.0.0.2`` and up), each hostile kind from an
address of its own after those.

1. ``--sockets`` playing pages sign in (one member and instance each; a few at a time, as the bot's budget
   of calls to Discord allows; a ``bye`` that says to come back, by its ``retry_in``, its code ``1013`` or
   its words, is said ``hello`` again after that pause, SIGN_IN_ATTEMPTS times at most), start a practice
   game of draw3 each and warm up (``--warmup`` s) at ``--rate`` moves a second in all, as
   ``bench_activity.py`` plays (one move in flight a page, paced). Then the reference: ``--calm`` s of the
   same play measured with no hostile page (by default a sixth of ``--seconds``, 2 to 10 s): its p99 and the
   bot's RSS growth a minute, to compare with.
2. The hostile phase: the bot's RSS is read, then these start and run through the whole measured time:

   a) ``--mirrors`` pages that never read: each signs in as the member of a playing page (a second page of
      that member: every move of theirs is pushed to it) over a bare TCP socket with a small ``SO_RCVBUF``
      (the WebSocket upgrade by hand), reads its ``welcome`` and never reads again. Its TCP state is watched
      (a FIN or RST seen without reading); after the phase it is drained: the pushes it had been sent,
      and the close frame (code, reason) if the server closed it.
   b) ``--flooders`` pages of their own members send pings and moves without waiting for answers, at 0.95
      of the per-socket limit (``REQUESTS_PER_SECOND``), and at twice it for 3 s in every 10: the answers
      ``slow down`` are counted, and the closes (a closed flooder signs in again after a second).
   c) ``--garbage`` loops, ``--garbage-rate`` connections a second in all: connect, send one frame before
      any ``hello`` (not JSON, binary, 3 KB, ~1,000 nested ``[``, or a ``hello`` whose instance id walks a
      path such as ``../../users/@me``), read until the server closes it: its close code and ``bye``.
   d) ``--sign-ins`` sign-ins a second, each from a new public-looking address (``X-Forwarded-For``; the
      bot trusts a loopback peer as its front): a token of a member of a live instance, a new token Discord
      never issued, or a token issued to another application (where the stand-in can issue one; its member
      is in the live instance); each is welcomed (and closed) or said ``bye`` to. And ``--token-posts``
      ``POST /api/token`` a second from rotating addresses (a good code, an unknown code, a body that is no
      code).

3. Measured over the hostile phase: the playing pages' move latency (sent to answered; p50, p99, max;
   target p99 < 50 ms), refusals, pages lost; the bot's RSS at the phase's start and end (target under
   +50 MB), its growth a minute, and after the hostile pages are gone; the calls reaching the stand-in for
   Discord (``len(discord.requests)`` sampled every 0.1 s: the busiest window of a second and the mean;
   target never above 25 a second; every HTTP request to it is counted too, and listed when it is none of
   the calls the bot should make, e.g. an instance id that walked to another path with the bot's token;
   the busiest second by the stand-in's own time stamps where it keeps them); the bytes waiting in the bot's
   kernel send queues for the never-reading pages; each hostile kind's outcomes (close codes and reasons);
   the bot's log: lines by level, ``Traceback`` lines (the first traceback printed). A kind is left out with
   its option at 0. Every loop ends with the phase (or a bound of its own); the soak stops by itself. The
   last line is ``key=value`` pairs.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import bisect
import contextlib
import inspect
import ipaddress
import itertools
import json
import math
import os
import random
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's bot, not an installed one

import aiohttp
from aiohttp import web

from benchmarks import bench_activity
from benchmarks.bench_activity import CHANNEL, GUILD, Bot, Page, _percentile, paced, start_games
from bot.activity.limits import REQUESTS_PER_SECOND
from tests.support.fake_discord_api import APP_ID, FakeDiscordApi, FakePlayer

T = TypeVar("T")

PAGES_PER_ADDRESS = 10
"""Playing pages, never-reading pages or flooders opened from one source address (well under the bot's caps of
sockets and of sign-ins an address, room left for sign-ins retried)."""
SIGN_IN_ATTEMPTS = 20
"""Times a page says ``hello`` before it gives up (a ``bye`` that says to try again or wait is retried)."""
RETRY_PAUSE, MOST_PAUSE = 1.0, 5.0
"""Seconds before a refused ``hello`` is said again: RETRY_PAUSE times the attempt, at most MOST_PAUSE (jittered)."""
OPENING_AT_ONCE = 12
"""The soak's own pages saying ``hello`` at the same time (about what the bot's budget of calls to Discord lets
it verify in a second or two)."""
SIGNING_PER_ADDRESS = 4
"""The soak's own pages of one address saying ``hello`` at the same time."""
ANSWER_SECONDS = 10.0
"""A hello, a frame of garbage or a drain not answered by then counts as never answered."""
OTHER_APP = 777_000
"""The application id the stand-in issues the other application's tokens for."""
FLOOD_BASE = 0.95 * REQUESTS_PER_SECOND
"""A flooder's requests a second most of the time: just under the per-socket limit."""
FLOOD_SURGE = 2.0 * REQUESTS_PER_SECOND
"""A flooder's requests a second in its surges: twice the limit."""
FLOOD_CYCLE, SURGE_SECONDS = 10.0, 3.0
"""Each flooder surges for the last SURGE_SECONDS of every FLOOD_CYCLE (staggered among flooders)."""
FLOOD_SIGN_INS = 10
"""Sign-ins a flooder makes at most (it signs in again after the bot closes it)."""
SIGN_INS_IN_FLIGHT = 200
"""Sign-ins of kind d) waiting for their answer at once, at most (more are skipped and counted)."""
MIRROR_RECEIVE_BUFFER = 4096
"""``SO_RCVBUF`` of a page that never reads (the kernel doubles it)."""
DRAIN_BYTES = 16 << 20
"""A drained never-reading page reads at most this much."""
SAMPLE_SECONDS = 0.1
"""How often the calls to the stand-in for Discord are counted."""
P99_TARGET_MS, RSS_TARGET_MB, CALLS_TARGET = 50.0, 50.0, 25.0
BAD_INSTANCES = (
    "../../users/@me",
    "%2e%2e/x",
    "../../../users/@me",
    "..%2f..%2fusers%2f@me",
    "x/../../../../oauth2/@me",
)
"""Instance ids that walk out of the instance's path of Discord's API."""
GARBAGE_KINDS = ("not JSON", "binary", "3 KB frame", "1,000 nested [", "bad instance id")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
"""The log's levels (``bench_activity.py --serve`` logs ``LEVEL:logger:message``)."""
TCP_STATES = {1: "established", 7: "closed (reset)", 8: "close-wait (the server's FIN)", 11: "closing"}


# -- the bot's process, its log kept ----------------------------------------------------------------
async def start_logged_bot(api_base: str, log: IO[bytes]) -> tuple[Bot, int]:
    """Start ``bench_activity.py --serve`` with its stderr (the bot's log) into ``log``; it and the Activity's port."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        bench_activity.__file__,
        "--serve",
        "--api-base",
        api_base,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=log,
    )
    bot = Bot(process)
    return bot, int((await bot.read())["port"])


async def stop_bot(bot: Bot) -> bool:
    """Close the bot's stdin and wait for it to end (killed after 30 s); whether it ended by itself."""
    assert bot.process.stdin is not None
    bot.process.stdin.close()
    try:
        async with asyncio.timeout(30):
            await bot.process.wait()
    except TimeoutError:
        bot.process.kill()
        await bot.process.wait()
        return False
    return True


def read_log(path: Path) -> tuple[int, str, Counter[str], Counter[str]]:
    """The bot's log: tracebacks in it, the first one, lines by level, and its most frequent ERROR/WARNING lines."""
    lines = path.read_text(errors="replace").splitlines()
    tracebacks = sum(line.startswith("Traceback (most recent call last)") for line in lines)
    first = ""
    at = next((n for n, line in enumerate(lines) if line.startswith("Traceback (most recent call last)")), None)
    if at is not None:  # from the log line it follows to the next log line (its chained exceptions included)
        end = at + 1
        while end < len(lines) and lines[end].split(":", 1)[0] not in LEVELS:
            end += 1
        first = "\n".join(lines[max(0, at - 1) : min(end, at + 60)])
    levels: Counter[str] = Counter()
    messages: Counter[str] = Counter()
    for line in lines:
        level = line.split(":", 1)[0]
        if level in LEVELS:
            levels[level] += 1
            if level in ("WARNING", "ERROR", "CRITICAL"):
                messages[line[:140]] += 1
    return tracebacks, first, levels, messages


# -- the calls reaching the stand-in for Discord ------------------------------------------------------
@dataclass
class CallLog:
    """Every HTTP request reaching the stand-in for Discord (a path no route matches included), by route."""

    count: int = 0
    paths: Counter[str] = field(default_factory=Counter)
    watched: bool = False

    def watch(self, discord: FakeDiscordApi) -> None:
        """Count the stand-in's requests as its server hands them to its application (before any routing)."""
        runner = getattr(discord, "_runner", None)
        server = runner.server if isinstance(runner, web.AppRunner) else None
        if server is None:
            return
        handler = server.request_handler

        async def counted(request: web.BaseRequest) -> web.StreamResponse:
            self.count += 1
            self.paths[_route_of(request)] += 1
            return await handler(request)

        server.request_handler = counted
        self.watched = True

    def strays(self) -> Counter[str]:
        """Requests that are none of the calls the bot should make (a route with the wrong credentials included)."""
        return Counter({path: n for path, n in self.paths.items() if not path.startswith("route ")})


def _route_of(request: web.BaseRequest) -> str:
    """A request as the call it should be (``route ...``), or as it came (with its kind of credentials) if none."""
    path, auth = request.raw_path, request.headers.get("Authorization", "").partition(" ")[0] or "no credentials"
    head = path.rpartition("/")[0]
    if (request.method, path) == ("POST", "/api/v10/oauth2/token") and auth in ("no credentials", "Basic"):
        return f"route POST {path}"
    if request.method == "GET" and path in ("/api/v10/users/@me", "/api/v10/oauth2/@me") and auth == "Bearer":
        return f"route GET {path}"
    if request.method == "GET" and auth == "Bot" and head == f"/api/v10/applications/{APP_ID}/activity-instances":
        return "route GET /api/v10/applications/{app}/activity-instances/{instance}"
    return f"{request.method} {path[:90]} ({auth})"


@dataclass
class Samples:
    """``len(discord.requests)`` and every HTTP request to the stand-in, counted every SAMPLE_SECONDS; the bot's
    RSS every second (once ``bot`` is set)."""

    at: list[float] = field(default_factory=list)
    requests: list[int] = field(default_factory=list)
    http: list[int] = field(default_factory=list)
    rss: list[tuple[float, float]] = field(default_factory=list)
    bot: Bot | None = None

    async def run(self, discord: FakeDiscordApi, calls: CallLog, stop: asyncio.Event, limit: float) -> None:
        """Sample until ``stop`` is set (or ``limit`` seconds went by)."""
        end = time.perf_counter() + limit
        while not stop.is_set() and time.perf_counter() < end:
            self.at.append(time.perf_counter())
            self.requests.append(len(discord.requests))
            self.http.append(calls.count)
            if self.bot is not None and len(self.at) % round(1 / SAMPLE_SECONDS) == 0:
                with contextlib.suppress(OSError, RuntimeError):
                    self.rss.append((self.at[-1], self.bot.rss_mb()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), SAMPLE_SECONDS)

    def rates(self, counts: list[int], begin: float, end: float) -> tuple[float, float]:
        """Between ``begin`` and ``end``: the busiest window of a second (from one sample to the first a second or
        more before it: its calls over its length), and the mean a second."""
        chosen = [(at, n) for at, n in zip(self.at, counts, strict=True) if begin <= at <= end]
        if len(chosen) < 2:
            return 0.0, 0.0
        busiest, back = 0.0, 0
        for at, n in chosen:
            while back + 1 < len(chosen) and chosen[back + 1][0] <= at - 1.0:
                back += 1
            then, before = chosen[back]
            if at - then >= 1.0:
                busiest = max(busiest, (n - before) / (at - then))
        if busiest == 0.0:  # shorter than a second: the whole stretch
            busiest = (chosen[-1][1] - chosen[0][1]) / (chosen[-1][0] - chosen[0][0])
        return busiest, (chosen[-1][1] - chosen[0][1]) / (chosen[-1][0] - chosen[0][0])

    def rss_trend(self, begin: float, end: float, *, late: bool = False) -> tuple[float, float]:
        """The bot's highest RSS between ``begin`` and ``end``, and its growth in MB a minute (``late``: over the
        second half only)."""
        chosen = [(at, mb) for at, mb in self.rss if begin <= at <= end]
        part = [(at, mb) for at, mb in chosen if at >= (begin + end) / 2] if late else chosen
        highest = max((mb for _, mb in chosen), default=0.0)
        if len(part) < 2:
            return highest, 0.0
        return highest, (part[-1][1] - part[0][1]) / (part[-1][0] - part[0][0]) * 60


def exact_busiest(discord: FakeDiscordApi, begin: float, end: float) -> int | None:
    """The most calls the stand-in heard in any one second between ``begin`` and ``end`` (``time.monotonic``), from
    its own time stamps (``None``: it keeps none)."""
    stamps = getattr(discord, "stamps", None)
    if not isinstance(stamps, list):
        return None
    chosen = [at for at in stamps if begin <= at <= end]
    return max((bisect.bisect_left(chosen, at + 1.0) - n for n, at in enumerate(chosen)), default=0)


def _queues(local: tuple[str, int], remote: tuple[str, int]) -> tuple[int, int] | None:
    """The kernel's send and receive queues (bytes) of the socket from ``local`` to ``remote`` (``/proc/net/tcp``)."""

    def hexed(address: tuple[str, int]) -> str:
        return f"{socket.inet_aton(address[0])[::-1].hex().upper()}:{address[1]:04X}"

    wanted = (hexed(local), hexed(remote))
    with open("/proc/net/tcp") as table:
        for line in table:
            fields = line.split()
            if len(fields) > 4 and (fields[1], fields[2]) == wanted:
                send, receive = fields[4].split(":")
                return int(send, 16), int(receive, 16)
    return None


# -- signing in ---------------------------------------------------------------------------------------
def _outcome(code: object, reason: str) -> str:
    """A close as counted: its code and the first words of its reason."""
    words = " ".join(reason.split())[:72]
    return f"{code if code is not None else 'no code'}{' ' + words if words else ''}"


@dataclass(frozen=True)
class Answer:
    """A hello's answer: ``welcome``, or how the socket was closed; ``retry_in``: seconds to come back after
    (``None``: not to come back; 0: when it says to without saying when)."""

    outcome: str
    retry_in: float | None = None


WELCOME = Answer("welcome")


def _refusal(code: object, bye: dict[str, Any], fallback: str) -> Answer:
    """A refused hello as counted, and whether to come back: never after a ``final`` bye, after its ``retry_in``,
    or when its code or words say to (``1013``, ``1001``, "try again", "wait": a bye without ``retry_in``)."""
    reason = str(bye.get("reason", "")) or fallback
    outcome = _outcome(code, reason)
    if bye.get("final"):
        return Answer(outcome)
    if isinstance(bye.get("retry_in"), int | float):
        return Answer(outcome, float(bye["retry_in"]))
    words = reason.lower()
    if code in (1001, 1013) or any(hint in words for hint in ("try again", "wait", "in a moment")):
        return Answer(outcome, 0.0)
    return Answer(outcome)


async def first_answer(ws: aiohttp.ClientWebSocketResponse) -> Answer:
    """Read a hello's answer: welcomed, or how the socket was closed (code and ``bye`` reason)."""
    bye: dict[str, Any] = {}
    try:
        async with asyncio.timeout(ANSWER_SECONDS):
            while True:
                message = await ws.receive()
                if message.type is aiohttp.WSMsgType.TEXT:
                    frame = json.loads(message.data)
                    if frame.get("type") == "welcome":
                        return WELCOME
                    if frame.get("type") == "bye":
                        bye = frame
                    continue
                if message.type is aiohttp.WSMsgType.CLOSE:
                    return _refusal(message.data, bye, str(message.extra or ""))
                return _refusal(ws.close_code, bye, message.type.name.lower())
    except TimeoutError:
        return Answer("no answer in time", 0.0)


async def with_retries(
    attempt: Callable[[], Awaitable[tuple[T | None, Answer]]], notes: Counter[str], until: float = math.inf
) -> T | None:
    """Sign in by ``attempt`` until it is welcomed, coming back when a refusal says to (not past ``until``, a
    ``perf_counter``; SIGN_IN_ATTEMPTS times at most); ``None``: gave up."""
    for tries in range(1, SIGN_IN_ATTEMPTS + 1):
        got, answer = await attempt()
        if got is not None:
            return got
        if answer.retry_in is None or tries == SIGN_IN_ATTEMPTS:
            notes[f"gave up: {answer.outcome}"] += 1
            return None
        if answer.retry_in > 0:
            pause = answer.retry_in + random.uniform(0.0, 2.0)
        else:
            pause = min(RETRY_PAUSE * tries, MOST_PAUSE) * random.uniform(0.5, 1.5)
        if time.perf_counter() + pause > until:
            notes[f"gave up: {answer.outcome}"] += 1
            return None
        notes[f"retried: {answer.outcome}"] += 1
        await asyncio.sleep(pause)
    return None


class Door:
    """The soak's own pages sign in OPENING_AT_ONCE at a time, SIGNING_PER_ADDRESS of one address at a time (the
    bot lets an address keep only a few sockets waiting to sign in)."""

    def __init__(self) -> None:
        """No one at the door yet."""
        self._all = asyncio.Semaphore(OPENING_AT_ONCE)
        self._by_address: dict[Hashable, asyncio.Semaphore] = {}

    @contextlib.asynccontextmanager
    async def turn(self, address: Hashable) -> AsyncIterator[None]:
        """Wait for a turn to sign in from ``address``."""
        mine = self._by_address.setdefault(address, asyncio.Semaphore(SIGNING_PER_ADDRESS))
        async with mine, self._all:
            yield


def _hello(player: FakePlayer, instance: str) -> str:
    """A page's first frame."""
    return json.dumps(
        {
            "type": "hello",
            "access_token": player.token,
            "instance_id": instance,
            "guild_id": str(GUILD),
            "channel_id": str(CHANNEL),
        }
    )


async def ws_sign_in(
    http: aiohttp.ClientSession, url: str, hello: str, *, compress: int = 0, headers: dict[str, str] | None = None
) -> tuple[aiohttp.ClientWebSocketResponse | None, Answer]:
    """Open a socket and say ``hello``: the socket if welcomed, else ``None``; and the answer."""
    try:
        async with asyncio.timeout(ANSWER_SECONDS):
            ws = await http.ws_connect(url + "/ws", compress=compress, headers=headers)
    except TimeoutError:
        return None, Answer("could not connect: no upgrade in time", 0.0)
    except aiohttp.WSServerHandshakeError as error:
        return None, Answer(f"could not connect: HTTP {error.status}", 0.0)
    except (aiohttp.ClientError, OSError) as error:
        return None, Answer(f"could not connect: {type(error).__name__}", 0.0)
    try:
        await ws.send_str(hello)
        answer = await first_answer(ws)
    except (aiohttp.ClientError, ConnectionError) as error:
        answer = Answer(f"could not connect: {type(error).__name__}", 0.0)
    if answer is WELCOME:
        return ws, answer
    await ws.close()
    return None, answer


# -- the playing pages --------------------------------------------------------------------------------
@dataclass
class SoakPage(Page):
    """A playing page that notes how it was lost instead of stopping the soak."""

    lost: str = ""

    async def move(self, measure: bool) -> None:
        """Play one move as ``Page`` does (nothing once the page is lost)."""
        if self.lost:
            return
        try:
            await super().move(measure)
        except (RuntimeError, ConnectionError, aiohttp.ClientError) as error:
            self.lost = _outcome(self.ws.close_code, str(error))


def _local(offset: int) -> str:
    """Source address number ``offset`` (``127.0.0.2`` is 0)."""
    if not 0 <= offset < 250:
        raise ValueError("out of 127.0.0.x addresses")
    return f"127.0.0.{2 + offset}"


async def open_playing(
    url: str, players: Sequence[FakePlayer], http: Sequence[aiohttp.ClientSession], door: Door, notes: Counter[str]
) -> list[SoakPage]:
    """Sign in a page for every player (PAGES_PER_ADDRESS to an address), retrying a hello told to wait."""

    async def one(index: int, player: FakePlayer) -> SoakPage | None:
        async def attempt() -> tuple[aiohttp.ClientWebSocketResponse | None, Answer]:
            client = http[index // PAGES_PER_ADDRESS]
            async with door.turn(client):
                return await ws_sign_in(client, url, _hello(player, f"i-{index}"), compress=15)

        ws = await with_retries(attempt, notes)
        return SoakPage(ws, index + 1) if ws is not None else None

    opened = await asyncio.gather(*(one(index, player) for index, player in enumerate(players)))
    return [page for page in opened if page is not None]


# -- a) pages that never read -----------------------------------------------------------------------------
class RawSocket:
    """A WebSocket on a bare TCP socket (the upgrade by hand): bytes are read only when asked for."""

    def __init__(self, sock: socket.socket) -> None:
        """Wrap a connected, non-blocking socket."""
        self.sock = sock
        self.buffer = bytearray()
        self.received = 0

    @classmethod
    async def connect(cls, port: int, local: str, *, receive_buffer: int | None = None) -> RawSocket:
        """Connect from ``local`` to the Activity's ``/ws`` and upgrade (``receive_buffer``: a small SO_RCVBUF)."""
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            if receive_buffer is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            sock.bind((local, 0))
            sock.setblocking(False)
            async with asyncio.timeout(ANSWER_SECONDS):
                await loop.sock_connect(sock, ("127.0.0.1", port))
            key = base64.b64encode(os.urandom(16)).decode()
            upgrade = (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            await loop.sock_sendall(sock, upgrade.encode())
            raw = cls(sock)
            head = await raw._until(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 101"):
                raise ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace"))
            return raw
        except BaseException:
            sock.close()
            raise

    async def _more(self) -> None:
        data = await asyncio.get_running_loop().sock_recv(self.sock, 65536)
        if not data:
            raise EOFError
        self.buffer += data
        self.received += len(data)

    async def _until(self, marker: bytes) -> bytes:
        while (at := self.buffer.find(marker)) < 0:
            await self._more()
        head = bytes(self.buffer[:at])
        del self.buffer[: at + len(marker)]
        return head

    async def send_text(self, text: str) -> None:
        """Send one text frame, masked as a client's are."""
        payload = text.encode()
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            head = bytes((0x81, 0x80 | size))
        elif size < 1 << 16:
            head = bytes((0x81, 0x80 | 126)) + size.to_bytes(2, "big")
        else:
            head = bytes((0x81, 0x80 | 127)) + size.to_bytes(8, "big")
        masked = bytes(byte ^ mask[n % 4] for n, byte in enumerate(payload))
        await asyncio.get_running_loop().sock_sendall(self.sock, head + mask + masked)

    async def frame(self) -> tuple[int, bytes]:
        """The next frame from the server (unmasked, whole): its opcode and payload."""
        while len(self.buffer) < 2:
            await self._more()
        opcode, size, start = self.buffer[0] & 0x0F, self.buffer[1] & 0x7F, 2
        if size >= 126:
            start = 4 if size == 126 else 10
            while len(self.buffer) < start:
                await self._more()
            size = int.from_bytes(self.buffer[2:start], "big")
        while len(self.buffer) < start + size:
            await self._more()
        payload = bytes(self.buffer[start : start + size])
        del self.buffer[: start + size]
        return opcode, payload

    def tcp_state(self) -> str:
        """The socket's TCP state, read without reading its bytes (a FIN or a RST from the server shows here)."""
        state = struct.unpack("B", self.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[:1])[0]
        return TCP_STATES.get(state, f"state {state}")

    def close(self) -> None:
        """Close the socket (unread bytes make it a reset)."""
        self.sock.close()


@dataclass
class Mirror:
    """A page that signed in as a playing page's member and never read again: what was seen of it."""

    raw: RawSocket
    member: int
    state: str = "established"
    changed_at: float | None = None
    """Seconds into the hostile phase when its TCP state left ``established`` (seen without reading)."""
    pushes: int = 0
    drained: int = 0
    queued: int = 0
    """Bytes in the bot's kernel send queue for it at the phase's end (the bot's own buffers not included)."""
    unread: int = 0
    """Bytes in its own kernel receive queue then (never read)."""
    close: str = ""
    end: str = ""


async def sign_in_mirror(port: int, local: str, player: FakePlayer, instance: str) -> tuple[RawSocket | None, Answer]:
    """Sign in over a bare socket with a small receive buffer; the socket once welcomed (never read after)."""
    try:
        raw = await RawSocket.connect(port, local, receive_buffer=MIRROR_RECEIVE_BUFFER)
    except (OSError, EOFError, TimeoutError) as error:
        return None, Answer(f"could not connect: {type(error).__name__} {error}", 0.0)
    bye: dict[str, Any] = {}
    try:
        await raw.send_text(_hello(player, instance))
        async with asyncio.timeout(ANSWER_SECONDS):
            while True:
                opcode, payload = await raw.frame()
                if opcode == 0x1:
                    frame = json.loads(payload)
                    if frame.get("type") == "welcome":
                        return raw, WELCOME
                    bye = frame if frame.get("type") == "bye" else bye
                elif opcode == 0x8:
                    code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
                    raw.close()
                    return None, _refusal(code, bye, payload[2:].decode(errors="replace"))
    except (TimeoutError, OSError, EOFError) as error:
        raw.close()
        return None, Answer(f"could not connect: {type(error).__name__}", 0.0)


async def watch_mirrors(mirrors: Sequence[Mirror], begin: float, stop: asyncio.Event, limit: float) -> None:
    """Note when a never-reading page's TCP state changes (the server's FIN or RST), every half second."""
    end = time.perf_counter() + limit
    while not stop.is_set() and time.perf_counter() < end:
        for mirror in mirrors:
            if mirror.changed_at is None:
                try:
                    state = mirror.raw.tcp_state()
                except OSError:
                    state = "gone"
                if state != "established":
                    mirror.state, mirror.changed_at = state, time.perf_counter() - begin
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.5)


async def drain(mirror: Mirror) -> None:
    """Read what a never-reading page was sent (until the close, EOF, a pause of 2 s or ANSWER_SECONDS)."""
    raw, reason = mirror.raw, ""
    before = raw.received
    end = time.perf_counter() + ANSWER_SECONDS
    try:
        while raw.received - before < DRAIN_BYTES:
            async with asyncio.timeout(min(2.0, max(0.0, end - time.perf_counter()))):
                opcode, payload = await raw.frame()
            if opcode == 0x1:
                frame = json.loads(payload)
                mirror.pushes += frame.get("type") == "game"
                if frame.get("type") == "bye":
                    reason = str(frame.get("reason", ""))
            elif opcode == 0x8:
                code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
                mirror.close = _outcome(code, reason or payload[2:].decode(errors="replace"))
                mirror.end = "closed by the server"
                break
        else:
            mirror.end = "still sending after the drain's limit"
    except TimeoutError:
        mirror.end = "still open at the end"
    except EOFError:
        mirror.end = "closed by the server without a close frame (EOF)"
    except OSError as error:
        mirror.end = f"reset ({type(error).__name__})"
    mirror.drained = raw.received - before
    raw.close()


# -- b) pages that flood ------------------------------------------------------------------------------
async def flood(
    index: int,
    count: int,
    sign_in: Callable[[], Awaitable[tuple[aiohttp.ClientWebSocketResponse | None, Answer]]],
    stop: asyncio.Event,
    tally: Counter[str],
    closes: Counter[str],
    notes: Counter[str],
    limit: float,
) -> None:
    """Sign in, start a game, then send pings and moves at about the limit (a surge past it), signing in again
    after a close; until ``stop`` (or ``limit`` seconds, FLOOD_SIGN_INS sign-ins)."""
    end = time.perf_counter() + limit
    stagger = FLOOD_CYCLE * index / max(count, 1)
    for signing in range(FLOOD_SIGN_INS):
        if stop.is_set() or time.perf_counter() >= end:
            return
        ws = await with_retries(sign_in, notes, end)
        if ws is None:
            tally["sign-ins given up"] += 1
            await asyncio.sleep(1.0)
            continue
        tally["signed in"] += 1
        page = Page(ws, 900_000 + index)
        outcome = ""
        try:
            with contextlib.suppress(TimeoutError, RuntimeError):  # refused or unanswered: the sender starts one
                async with asyncio.timeout(ANSWER_SECONDS):
                    running = await page.ask("resume")  # its game from before a close, if it runs still
                    if running is not None and isinstance(running.get("game"), dict) and not running["game"]["over"]:
                        page.game = running["game"]
                    else:
                        await page.start()
            reader = asyncio.get_running_loop().create_task(_read_flood(page, tally))
            await _send_flood(page, stagger, stop, end, reader, tally, signing)
            if reader.done():
                outcome = reader.result()
            else:
                await ws.close()
                outcome = ""
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reader, 5.0)
        except (RuntimeError, ConnectionError, aiohttp.ClientError) as error:
            outcome = _outcome(ws.close_code, str(error))
        await _close(ws)
        if outcome and not stop.is_set():
            closes[outcome] += 1
            await asyncio.sleep(1.0)
        elif outcome:
            closes[outcome] += 1


async def _read_flood(page: Page, tally: Counter[str]) -> str:
    """Read a flooder's answers until its socket closes: the close's code and ``bye`` reason."""
    reason = ""
    async for message in page.ws:
        if message.type is not aiohttp.WSMsgType.TEXT:
            break
        frame = json.loads(message.data)
        kind = frame.get("type")
        if kind == "refused":
            words = str(frame.get("reason", ""))
            tally["slow down" if "slow down" in words else f"refused: {' '.join(words.split())[:70]}"] += 1
        elif kind == "bye":
            reason = str(frame.get("reason", ""))
        else:
            tally[str(kind)] += 1
        if isinstance(frame.get("game"), dict):
            page.game = frame["game"]
    return _outcome(page.ws.close_code, reason)


async def _send_flood(
    page: Page,
    stagger: float,
    stop: asyncio.Event,
    end: float,
    reader: asyncio.Task[str],
    tally: Counter[str],
    signing: int,
) -> None:
    """Send pings and moves, not waiting for answers, at FLOOD_BASE a second (FLOOD_SURGE in a surge)."""
    begin = time.perf_counter()
    due, sent = begin, 0
    while not stop.is_set() and not reader.done() and not page.ws.closed and due < end:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if stop.is_set() or reader.done() or page.ws.closed:
            return
        if sent % 2 == 0:
            frame: dict[str, Any] = {"type": "ping"}
        elif not page.game or page.game.get("over"):
            page.refs += 1
            page.deals += 1
            deal = 500_000 + 10_000 * signing + 100 * page.deals + page.number % 100
            frame = {"type": "start", "ref": page.refs, "variant": "draw3", "kind": "practice", "deal": deal}
        else:
            page.refs += 1
            move = page.next_move()
            page.drew = move == "draw"
            frame = {"type": "move", "ref": page.refs, "game": page.game["id"], "version": page.game["version"]}
            frame["move"] = move
        await page.ws.send_str(json.dumps(frame))
        tally[f"sent {frame['type']}"] += 1
        sent += 1
        surging = (time.perf_counter() - begin + stagger) % FLOOD_CYCLE >= FLOOD_CYCLE - SURGE_SECONDS
        due += 1.0 / (FLOOD_SURGE if surging else FLOOD_BASE)


# -- c) garbage before sign-in ----------------------------------------------------------------------------
def _garbage(kind: str, number: int, token: str) -> str | bytes:
    """The frame of garbage of ``kind`` (its ``number`` varies it)."""
    if kind == "not JSON":
        return f"this is not JSON {{{number}"
    if kind == "binary":
        return bytes(range(256)) * 2
    if kind == "3 KB frame":
        return json.dumps({"type": "hello", "access_token": "t" * 3000, "instance_id": "x"})
    if kind == "1,000 nested [":
        depth = 960 + number % 60
        return "[" * depth + "]" * depth
    instance = BAD_INSTANCES[number // len(GARBAGE_KINDS) % len(BAD_INSTANCES)]
    return json.dumps({"type": "hello", "access_token": token, "instance_id": instance, "guild_id": str(GUILD)})


async def garbage_once(http: aiohttp.ClientSession, url: str, payload: str | bytes) -> str:
    """Connect, send ``payload`` as the first frame, read until closed: how it was closed."""
    try:
        async with asyncio.timeout(ANSWER_SECONDS):
            ws = await http.ws_connect(url + "/ws")
    except TimeoutError:
        return "could not connect: no upgrade in time"
    except aiohttp.WSServerHandshakeError as error:
        return f"could not connect: HTTP {error.status}"
    except (aiohttp.ClientError, OSError) as error:
        return f"could not connect: {type(error).__name__}"
    reason = ""
    try:
        if isinstance(payload, bytes):
            await ws.send_bytes(payload)
        else:
            await ws.send_str(payload)
        async with asyncio.timeout(ANSWER_SECONDS):
            while True:
                message = await ws.receive()
                if message.type is aiohttp.WSMsgType.TEXT:
                    frame = json.loads(message.data)
                    if frame.get("type") == "welcome":
                        return "WELCOMED"
                    reason = str(frame.get("reason", ""))
                    continue
                if message.type is aiohttp.WSMsgType.CLOSE:
                    return _outcome(message.data, reason or str(message.extra or ""))
                return _outcome(ws.close_code, reason or message.type.name.lower())
    except TimeoutError:
        return "not closed in time"
    except (aiohttp.ClientError, ConnectionError) as error:
        return _outcome(ws.close_code, f"{reason} ({type(error).__name__})")
    finally:
        await ws.close()


async def garbage_loop(
    index: int,
    loops: int,
    http: aiohttp.ClientSession,
    url: str,
    token: str,
    rate: float,
    stop: asyncio.Event,
    tally: Counter[str],
    limit: float,
) -> None:
    """Send garbage on one new socket after another, ``rate`` a second in all the loops, until ``stop``."""
    if rate <= 0 or loops <= 0:
        return
    begin = time.perf_counter()
    each = rate / loops
    for number in range(int(each * limit) + 1):
        due = begin + (number + index / loops) / each
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), max(0.0, due - time.perf_counter()))
        if stop.is_set():
            return
        kind = GARBAGE_KINDS[(index + number) % len(GARBAGE_KINDS)]
        payload = _garbage(kind, number + index, token)
        outcome = await garbage_once(http, url, payload)
        label = f"hello with instance {json.loads(payload)['instance_id']!r}" if kind == "bad instance id" else kind
        tally[f"{label}: {outcome}"] += 1


# -- d) sign-ins from rotating addresses ------------------------------------------------------------------
def _public_address(rng: random.Random) -> str:
    """A random address that looks public (not private, loopback, reserved or multicast)."""
    while True:
        address = ipaddress.IPv4Address(rng.getrandbits(32))
        if address.is_global and not address.is_multicast:
            return str(address)


@dataclass
class Storm:
    """Kind d)'s sign-ins: one (kind of token, token, instance) per sign-in in turn, and their outcomes."""

    tokens: list[tuple[str, str, str]]
    outcomes: Counter[str] = field(default_factory=Counter)
    in_flight: set[asyncio.Task[None]] = field(default_factory=set)


async def sign_in_storm(
    storm: Storm, http: aiohttp.ClientSession, url: str, rate: float, stop: asyncio.Event, limit: float, seed: int
) -> None:
    """``rate`` sign-ins a second, each from a new forwarded address, welcomed ones closed at once."""
    rng = random.Random(seed)
    begin = time.perf_counter()

    async def one(kind: str, token: str, instance: str, address: str) -> None:
        hello = json.dumps({"type": "hello", "access_token": token, "instance_id": instance, "guild_id": str(GUILD)})
        ws, answer = await ws_sign_in(http, url, hello, headers={"X-Forwarded-For": address})
        if ws is not None:
            await ws.close()
        storm.outcomes[f"{kind}: {answer.outcome}"] += 1

    for number in range(int(rate * limit) + 1):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), max(0.0, begin + number / rate - time.perf_counter()))
        if stop.is_set():
            return
        if len(storm.in_flight) >= SIGN_INS_IN_FLIGHT:
            storm.outcomes["skipped: too many sign-ins in flight"] += 1
            continue
        kind, token, instance = storm.tokens[number % len(storm.tokens)]
        token = token or f"token-never-issued-{rng.getrandbits(64):x}"  # a new one each time, as an attacker's
        task = asyncio.get_running_loop().create_task(one(kind, token, instance, _public_address(rng)))
        storm.in_flight.add(task)
        task.add_done_callback(storm.in_flight.discard)


async def token_posts(
    discord: FakeDiscordApi,
    http: aiohttp.ClientSession,
    url: str,
    rate: float,
    stop: asyncio.Event,
    outcomes: Counter[str],
    in_flight: set[asyncio.Task[None]],
    limit: float,
    seed: int,
) -> None:
    """``rate`` ``POST /api/token`` a second from rotating addresses (a good code, an unknown one, no code), not
    waiting for the answers (held in ``in_flight``)."""
    rng = random.Random(seed)
    begin = time.perf_counter()

    async def post(kind: str, body: object, address: str) -> None:
        try:
            async with (
                asyncio.timeout(ANSWER_SECONDS),
                http.post(url + "/api/token", json=body, headers={"X-Forwarded-For": address}) as answer,
            ):
                data = await answer.json(content_type=None)
                error = data.get("error", "") if isinstance(data, dict) else ""
                outcomes[f"{kind}: {answer.status} {' '.join(str(error).split())[:72]}".rstrip()] += 1
        except TimeoutError:
            outcomes[f"{kind}: no answer in time"] += 1
        except (aiohttp.ClientError, ValueError) as error:
            outcomes[f"{kind}: {type(error).__name__}"] += 1

    for number in range(int(rate * limit) + 1):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), max(0.0, begin + number / rate - time.perf_counter()))
        if stop.is_set():
            return
        kind = ("good code", "unknown code", "no code")[number % 3]
        if kind == "good code":
            body: object = {"code": discord.add_player(70_000 + number, f"poster{number}").code}
        elif kind == "unknown code":
            body = {"code": f"code-never-issued-{rng.getrandbits(64):x}"}
        else:
            body = ["code"]
        if len(in_flight) >= SIGN_INS_IN_FLIGHT:
            outcomes["skipped: too many in flight"] += 1
            continue
        task = asyncio.get_running_loop().create_task(post(kind, body, _public_address(rng)))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)


# -- the soak ---------------------------------------------------------------------------------------------
@dataclass
class Options:
    """The soak's sizes."""

    sockets: int = 200
    rate: float = 1000.0
    seconds: float = 60.0
    warmup: float = 2.0
    calm: float | None = None
    """``None``: a sixth of ``seconds``, 2 to 10 s."""
    mirrors: int = 20
    flooders: int = 20
    garbage: int = 20
    garbage_rate: float = 100.0
    sign_ins: float = 50.0
    token_posts: float = 3.0


@dataclass
class Hostiles:
    """What the hostile pages saw, by kind."""

    mirrors: list[Mirror] = field(default_factory=list)
    mirror_notes: Counter[str] = field(default_factory=Counter)
    flood: Counter[str] = field(default_factory=Counter)
    flood_closes: Counter[str] = field(default_factory=Counter)
    flood_notes: Counter[str] = field(default_factory=Counter)
    garbage: Counter[str] = field(default_factory=Counter)
    storm: Counter[str] = field(default_factory=Counter)
    tokens: Counter[str] = field(default_factory=Counter)
    other_app: str = ""
    """How the tokens of another application were made ("" : by the stand-in)."""


def _other_app_player(discord: FakeDiscordApi, user_id: int, name: str) -> tuple[FakePlayer, str]:
    """A player whose token was issued to another application, if the stand-in can issue one; how it was made."""
    if "application_id" in inspect.signature(discord.add_player).parameters:
        add: Callable[..., FakePlayer] = discord.add_player
        return add(user_id, name, application_id=OTHER_APP), ""
    # TODO: once FakeDiscordApi.add_player takes application_id, these are real tokens of another application
    # (the branch above); until then they are tokens Discord never issued, and the report says so.
    return FakePlayer(user_id, name, f"code-other-{user_id}", f"token-other-app-{user_id}"), " (stand-in: unknown)"


@dataclass
class Cast:
    """The members the soak signs in, by part."""

    playing: list[FakePlayer]
    flooders: list[FakePlayer]
    garbage: FakePlayer
    storm: list[tuple[str, str, str]]


def cast(discord: FakeDiscordApi, options: Options, hostiles: Hostiles) -> Cast:
    """Add every member and live instance to the stand-in for Discord."""
    playing = [discord.add_player(10_000 + n, f"player{n}") for n in range(options.sockets)]
    for n, player in enumerate(playing):
        discord.add_instance(f"i-{n}", guild_id=GUILD, channel_id=CHANNEL, users=[player.user_id])
    flooders = [discord.add_player(30_000 + n, f"flooder{n}") for n in range(options.flooders)]
    discord.add_instance("flood", guild_id=GUILD, channel_id=CHANNEL, users=[p.user_id for p in flooders])
    garbage = discord.add_player(40_000, "garbage")
    discord.add_instance("garbage", guild_id=GUILD, channel_id=CHANNEL, users=[garbage.user_id])
    members = [discord.add_player(50_000 + n, f"storm{n}") for n in range(50)]
    others = []
    for n in range(50):
        other, hostiles.other_app = _other_app_player(discord, 60_000 + n, f"elsewhere{n}")
        others.append(other)
    for group in range(5):
        users = [p.user_id for p in members[group::5]] + [p.user_id for p in others[group::5]]
        discord.add_instance(f"storm-{group}", guild_id=GUILD, channel_id=CHANNEL, users=users)
    storm = []
    for n in range(150):
        if n % 3 == 0:
            storm.append(("valid token", members[n // 3 % 50].token, f"storm-{n // 3 % 5}"))
        elif n % 3 == 1:
            storm.append(("token never issued", "", f"storm-{n % 5}"))
        else:
            storm.append((f"other app's token{hostiles.other_app}", others[n // 3 % 50].token, f"storm-{n // 3 % 5}"))
    return Cast(playing, flooders, garbage, storm)


@dataclass
class Figures:
    """The soak's measures."""

    values: dict[str, float | int | str] = field(default_factory=dict)
    opening: Counter[str] = field(default_factory=Counter)
    lost: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    strays: Counter[str] = field(default_factory=Counter)


async def soak(options: Options, log_path: Path) -> tuple[Figures, Hostiles]:
    """Open the playing pages, then play them paced through the hostile phase; the figures and what hostiles saw."""
    figures, hostiles = Figures(), Hostiles()
    values = figures.values
    discord = FakeDiscordApi()
    await discord.start()
    calls = CallLog()
    calls.watch(discord)
    people = cast(discord, options, hostiles)
    addresses = itertools.count()

    def at(pages: int) -> list[str]:
        """Source addresses of their own for ``pages`` pages (one at least)."""
        return [_local(next(addresses)) for _ in range(max(1, math.ceil(pages / PAGES_PER_ADDRESS)))]

    def client(address: str) -> aiohttp.ClientSession:
        """An HTTP client whose connections come from ``address``."""
        return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(address, 0)))

    sessions = [client(address) for address in at(options.sockets)]
    mirror_at = at(options.mirrors)
    flood_http = [client(address) for address in at(options.flooders)]
    garbage_http, storm_http = client(at(1)[0]), client(at(1)[0])
    http = [*sessions, *flood_http, garbage_http, storm_http]
    samples, sampling = Samples(), asyncio.Event()
    limit = 120.0 + options.seconds * 2
    sampler = asyncio.get_running_loop().create_task(samples.run(discord, calls, sampling, limit + 60))
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    storm = Storm(people.storm)
    pages: list[SoakPage] = []
    with open(log_path, "wb") as log:
        bot, port = await start_logged_bot(discord.api_base, log)
    url = f"http://127.0.0.1:{port}"
    samples.bot = bot
    try:
        await asyncio.sleep(1.0)  # the child's start-up settles
        opened, calls_before = time.perf_counter(), len(discord.requests)
        door = Door()
        pages = await open_playing(url, people.playing, sessions, door, figures.opening)
        values["open_s"] = time.perf_counter() - opened
        values["welcomed"] = len(pages)
        opening_end = max(time.perf_counter(), opened + 1.0) + SAMPLE_SECONDS  # a second at least
        values["discord_open_calls"] = len(discord.requests) - calls_before
        await start_games(pages)
        rate = options.rate * len(pages) / max(options.sockets, 1)  # each page at the rate it would have had
        values["rate"] = rate
        if options.warmup > 0 and pages:
            await paced(pages, rate, options.warmup, measure=False)
        if options.calm and pages:  # the reference: the same play, no hostile page
            values["calm_rss_start_mb"] = bot.rss_mb()
            calm = await paced(pages, rate, options.calm, measure=True)
            values["calm_rss_end_mb"] = bot.rss_mb()
            calm_latencies = [ms for page in pages for ms in page.latencies]
            values["calm_moves"] = len(calm_latencies)
            values["calm_p99_ms"] = _percentile(calm_latencies, 0.99)
            values["calm_max_ms"] = max(calm_latencies, default=math.inf)
            values["calm_rss_mb_per_min"] = samples.rss_trend(calm, time.perf_counter())[1]
            for page in pages:
                page.latencies, page.refusals, page.unanswered, page.reasons = [], 0, 0, {}

        # the hostile phase
        values["rss_start_mb"] = bot.rss_mb()
        hostile, hostile_clock = time.perf_counter(), time.monotonic()
        count = min(options.mirrors, len(pages))
        mirrored = [pages[n * len(pages) // count] for n in range(count)]

        async def mirror(number: int, page: SoakPage) -> Mirror | None:
            index = page.number - 1

            async def attempt() -> tuple[RawSocket | None, Answer]:
                local = mirror_at[number // PAGES_PER_ADDRESS]
                async with door.turn(local):
                    return await sign_in_mirror(port, local, people.playing[index], f"i-{index}")

            raw = await with_retries(attempt, hostiles.mirror_notes)
            return Mirror(raw, people.playing[index].user_id) if raw is not None else None

        signed = await asyncio.gather(*(mirror(number, page) for number, page in enumerate(mirrored)))
        hostiles.mirrors = [one for one in signed if one is not None]
        values["mirrors_s"] = time.perf_counter() - hostile
        spawn = asyncio.get_running_loop().create_task
        tasks.append(spawn(watch_mirrors(hostiles.mirrors, hostile, stop, limit)))
        for n, flooder in enumerate(people.flooders):

            async def flood_sign_in(
                flooder: FakePlayer = flooder, http: aiohttp.ClientSession = flood_http[n // PAGES_PER_ADDRESS]
            ) -> tuple[aiohttp.ClientWebSocketResponse | None, Answer]:
                async with door.turn(http):
                    return await ws_sign_in(http, url, _hello(flooder, "flood"))

            task = flood(
                n,
                options.flooders,
                flood_sign_in,
                stop,
                hostiles.flood,
                hostiles.flood_closes,
                hostiles.flood_notes,
                limit,
            )
            tasks.append(spawn(task))
        for n in range(options.garbage):
            garbage = garbage_loop(
                n,
                options.garbage,
                garbage_http,
                url,
                people.garbage.token,
                options.garbage_rate,
                stop,
                hostiles.garbage,
                limit,
            )
            tasks.append(spawn(garbage))
        if options.sign_ins > 0:
            tasks.append(spawn(sign_in_storm(storm, storm_http, url, options.sign_ins, stop, limit, 1)))
        if options.token_posts > 0:
            posts = token_posts(
                discord, storm_http, url, options.token_posts, stop, hostiles.tokens, storm.in_flight, limit, 2
            )
            tasks.append(spawn(posts))
        await asyncio.sleep(1.0)  # every kind under way

        cpu_before, load_before = bot.cpu_seconds(), time.process_time()
        begin = await paced(pages, rate, options.seconds, measure=True)
        measured_end, measured_clock = time.perf_counter(), time.monotonic()
        values["bot_cpu_share"] = (bot.cpu_seconds() - cpu_before) / (measured_end - begin)
        values["load_cpu_share"] = (time.process_time() - load_before) / (measured_end - begin)
        values["rss_end_mb"] = bot.rss_mb()
        values["rss_max_mb"], values["rss_mb_per_min"] = samples.rss_trend(hostile, measured_end)
        values["rss_late_mb_per_min"] = samples.rss_trend(hostile, measured_end, late=True)[1]
        for mirror_page in hostiles.mirrors:
            with contextlib.suppress(OSError):
                near, far = mirror_page.raw.sock.getsockname(), mirror_page.raw.sock.getpeername()
                mirror_page.queued = (_queues(far, near) or (0, 0))[0]
                mirror_page.unread = (_queues(near, far) or (0, 0))[1]
        values["hostile_s"] = measured_end - hostile
        stop.set()
        await _finish(tasks, storm)
        await asyncio.gather(*(drain(mirror) for mirror in hostiles.mirrors))
        await asyncio.gather(*(_close(page.ws) for page in pages))
        await asyncio.sleep(1.0)
        values["rss_closed_mb"] = bot.rss_mb()
        sampling.set()
        await sampler
        figures.strays = calls.strays()
        values["discord_http_watched"] = int(calls.watched)
        busiest, mean = samples.rates(samples.requests, hostile, measured_end)
        values["discord_max_per_s"], values["discord_mean_per_s"] = busiest, mean
        values["discord_http_max_per_s"], values["discord_http_mean_per_s"] = samples.rates(
            samples.http, hostile, measured_end
        )
        exact = exact_busiest(discord, hostile_clock, measured_clock)
        if exact is not None:
            values["discord_exact_max_per_s"] = exact
        values["discord_open_max_per_s"] = samples.rates(samples.requests, opened, opening_end)[0]
    finally:
        stop.set()
        sampling.set()
        await _finish(tasks, storm)
        for mirror_page in hostiles.mirrors:
            mirror_page.raw.close()
        for session in http:
            await session.close()
        values["bot_stopped_by_itself"] = int(await stop_bot(bot))
        await discord.stop()
        with contextlib.suppress(asyncio.CancelledError):
            sampler.cancel()
            await sampler
    hostiles.storm = storm.outcomes
    latencies = [ms for page in pages for ms in page.latencies]
    elapsed = max((page.last_answer for page in pages), default=begin) - begin
    for page in pages:
        figures.reasons.update(page.reasons)
        if page.lost:
            figures.lost[page.lost] += 1
    values.update(
        moves=len(latencies),
        moves_per_s=len(latencies) / elapsed if elapsed > 0 else 0.0,
        p50_ms=statistics.median(latencies) if latencies else math.inf,
        p99_ms=_percentile(latencies, 0.99),
        max_ms=max(latencies, default=math.inf),
        refusals=sum(page.refusals for page in pages),
        unanswered=sum(page.unanswered for page in pages),
        lost_pages=sum(figures.lost.values()),
        discord_requests=len(discord.requests),
        discord_http=calls.count,
    )
    return figures, hostiles


async def _finish(tasks: list[asyncio.Task[None]], storm: Storm) -> None:
    """Let the hostile loops end by themselves (they watch ``stop``), then cancel what is left after 15 s."""
    waiting = [*tasks, *storm.in_flight]
    if not waiting:
        return
    _, pending = await asyncio.wait(waiting, timeout=15.0)
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending, timeout=5.0)
    tasks.clear()


async def _close(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Close a page's socket (at most 5 s)."""
    with contextlib.suppress(TimeoutError, aiohttp.ClientError, ConnectionError):
        async with asyncio.timeout(5.0):
            await ws.close()


# -- the report -------------------------------------------------------------------------------------------
def _commit() -> str:
    """The commit of the tree under test (``-dirty`` when it has changes)."""
    root = Path(__file__).resolve().parents[1]
    found = subprocess.run(
        ["git", "-C", str(root), "describe", "--always", "--dirty", "--abbrev=10"],
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.strip() or "unknown"


def _counts(title: str, counts: Counter[str], indent: str = "  ") -> None:
    """Print ``counts``, most frequent first, under ``title``."""
    print(f"{title}: {sum(counts.values())}" + ("" if counts else " (none)"))
    for what, n in counts.most_common(12):
        print(f"{indent}{n:6d}x {what}")
    if len(counts) > 12:
        print(f"{indent}... and {len(counts) - 12} other outcomes")


def report(options: Options, figures: Figures, hostiles: Hostiles, log_path: Path, load: float) -> None:
    """Print the soak's figures and outcomes, then the ``key=value`` line."""
    values = figures.values
    commit = _commit()
    tracebacks, first, levels, messages = read_log(log_path)
    load_end = os.getloadavg()[0]
    print(
        f"machine: {os.cpu_count()} cores, load average {load:.2f} at start, {load_end:.2f} at the end (with this "
        "soak's two processes); SQLite; the bot in its own process"
    )
    print(f"code under test: {commit}")
    print(
        f"playing pages: {values['welcomed']} of {options.sockets} welcomed in {values['open_s']:.1f} s "
        f"({values['discord_open_calls']} calls to Discord, {values['discord_open_max_per_s']:.0f} in the busiest "
        "second)"
    )
    if figures.opening:
        _counts("  sign-ins refused while opening", figures.opening, "    ")
    p99 = float(values["p99_ms"])
    print(
        f"hostile phase {values['hostile_s']:.1f} s; playing pages paced {values['moves']} moves at "
        f"{values['rate']:.0f}/s: p50 {values['p50_ms']:.1f} ms, p99 {p99:.1f} ms, max {values['max_ms']:.1f} ms "
        f"({'met' if p99 < P99_TARGET_MS else 'NOT met'}: p99 < {P99_TARGET_MS:.0f} ms); achieved "
        f"{values['moves_per_s']:.0f} moves/s, {values['refusals']} refused, {values['unanswered']} never answered, "
        f"{values['lost_pages']} pages lost"
    )
    for reason, n in figures.reasons.most_common(5):
        print(f"  refused {n}x: {reason}")
    for reason, n in figures.lost.most_common(5):
        print(f"  lost {n}x: {reason}")
    growth = float(values["rss_end_mb"]) - float(values["rss_start_mb"])
    print(
        f"bot RSS {values['rss_start_mb']:.0f} MB at the hostile phase's start, {values['rss_end_mb']:.0f} MB at its "
        f"end ({growth:+.1f} MB: {'met' if growth < RSS_TARGET_MB else 'NOT met'}, < +{RSS_TARGET_MB:.0f} MB), "
        f"{values['rss_closed_mb']:.0f} MB once every page closed; during the phase at most "
        f"{values['rss_max_mb']:.0f} MB; {values['rss_mb_per_min']:+.0f} MB a minute ("
        f"{values['rss_late_mb_per_min']:+.0f} over its second half)"
    )
    if "calm_moves" in values:
        print(
            f"the reference, {options.calm:.0f} s of the same play just before with no hostile page: "
            f"{values['calm_moves']} moves, p99 {values['calm_p99_ms']:.1f} ms, max {values['calm_max_ms']:.1f} ms; "
            f"bot RSS {values['calm_rss_start_mb']:.0f} to {values['calm_rss_end_mb']:.0f} MB, "
            f"{values['calm_rss_mb_per_min']:+.0f} MB a minute"
        )
    print(f"bot CPU {values['bot_cpu_share']:.0%} of a core, this load process {values['load_cpu_share']:.0%}")
    busiest = float(values["discord_max_per_s"])
    print(
        f"calls to Discord (discord.requests) in the hostile phase: busiest second {busiest:.0f}, mean "
        f"{values['discord_mean_per_s']:.1f}/s ({'met' if busiest <= CALLS_TARGET else 'NOT met'}: never above "
        f"{CALLS_TARGET:.0f}/s); every HTTP request to the stand-in: busiest second "
        f"{values['discord_http_max_per_s']:.0f}, mean {values['discord_http_mean_per_s']:.1f}/s"
        + ("" if values["discord_http_watched"] else " (NOT counted: the stand-in's server could not be watched)")
        + (
            f"; the busiest second by the stand-in's own time stamps: {values['discord_exact_max_per_s']} calls"
            if "discord_exact_max_per_s" in values
            else ""
        )
    )
    if figures.strays:
        _counts("  requests to a path outside Discord's routes the bot asks", figures.strays, "    ")
    mirrors = hostiles.mirrors
    closed = [m for m in mirrors if m.end.startswith(("closed", "reset"))]
    seen = sorted(m.changed_at for m in mirrors if m.changed_at is not None)
    print(
        f"a) never-reading pages: {len(mirrors)} of {min(options.mirrors, int(values['welcomed']))} signed in as a "
        f"playing page's member; {len(closed)} closed by the server; TCP state changed during the soak for "
        f"{len(seen)}" + (f" (from +{seen[0]:.1f} s to +{seen[-1]:.1f} s)" if seen else "")
    )
    print(
        f"  on the drain after the phase: {sum(m.pushes for m in mirrors)} pushed GAME frames, "
        f"{sum(m.drained for m in mirrors) / 1024:.0f} KB in all; at the phase's end "
        f"{sum(m.queued for m in mirrors) / 1024:.0f} KB waited in the bot's kernel send queues for them, "
        f"{sum(m.unread for m in mirrors) / 1024:.0f} KB unread in theirs"
    )
    _counts("  how they ended", Counter(f"{m.end}{': ' + m.close if m.close else ''}" for m in mirrors), "    ")
    _counts("  TCP states seen without reading", Counter(m.state for m in mirrors), "    ")
    if hostiles.mirror_notes:
        _counts("  their sign-ins refused", hostiles.mirror_notes, "    ")
    flood = hostiles.flood
    sent = sum(n for what, n in flood.items() if what.startswith("sent "))
    refused = Counter({what.removeprefix("refused: "): n for what, n in flood.items() if what.startswith("refused: ")})
    print(
        f"b) flooding pages: {options.flooders}, {flood['signed in']} sign-ins, {sent} frames sent "
        f"({flood['sent ping']} pings, {flood['sent move']} moves, {flood['sent start']} starts); answers: "
        f"{flood['pong']} pongs, {flood['game']} games, {flood['slow down']} 'slow down', "
        f"{sum(refused.values())} other refusals"
    )
    for reason, n in refused.most_common(3):
        print(f"  refused {n}x: {reason}")
    _counts("  closed by the server", hostiles.flood_closes, "    ")
    if hostiles.flood_notes:
        _counts("  their sign-ins refused", hostiles.flood_notes, "    ")
    _counts("c) garbage before sign-in, connections", hostiles.garbage)
    _counts("d) sign-ins from rotating addresses", hostiles.storm)
    _counts("   POST /api/token from rotating addresses", hostiles.tokens)
    print(
        f"the bot's log: {tracebacks} 'Traceback' lines; lines by level: "
        + (", ".join(f"{level} {n}" for level, n in levels.most_common()) or "none")
        + ("" if values["bot_stopped_by_itself"] else "; the bot did NOT stop within 30 s of its stdin closing")
    )
    for message, n in messages.most_common(6):
        print(f"  {n:6d}x {message}")
    if first:
        print("the first traceback:")
        print("\n".join(f"  | {line}" for line in first.splitlines()))
    welcomed = {
        kind: sum(n for what, n in hostiles.storm.items() if what.startswith(kind) and what.endswith(": welcome"))
        for kind in ("valid token", "token never issued", "other app's token")
    }
    line: dict[str, float | int | str] = {
        "sockets": options.sockets,
        "seconds": options.seconds,
        **{key: value for key, value in values.items() if key not in ("open_s", "mirrors_s")},
        "open_s": values["open_s"],
        "rss_growth_mb": growth,
        "mirrors": len(mirrors),
        "mirrors_closed": len(closed),
        "mirror_pushes": sum(m.pushes for m in mirrors),
        "mirror_queued_kb": sum(m.queued for m in mirrors) / 1024,
        "flood_sent": sent,
        "flood_slow_downs": flood["slow down"],
        "flood_closes": sum(hostiles.flood_closes.values()),
        "garbage": sum(hostiles.garbage.values()),
        "garbage_welcomed": sum(n for what, n in hostiles.garbage.items() if what.endswith("WELCOMED")),
        "sign_ins": sum(hostiles.storm.values()),
        "sign_ins_valid_welcomed": welcomed["valid token"],
        "sign_ins_unknown_welcomed": welcomed["token never issued"],
        "sign_ins_other_app_welcomed": welcomed["other app's token"],
        "other_app_tokens_real": int(not hostiles.other_app),
        "token_posts": sum(hostiles.tokens.values()),
        "stray_discord_calls": sum(figures.strays.values()),
        "tracebacks": tracebacks,
        "log_errors": levels["ERROR"] + levels["CRITICAL"],
        "load": load,
        "load_end": load_end,
        "commit": commit,
    }
    print(
        " ".join(f"{key}={value:.3f}" if isinstance(value, float) else f"{key}={value}" for key, value in line.items())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = Options()
    parser.add_argument("--sockets", type=int, default=defaults.sockets, help="playing pages")
    parser.add_argument("--rate", type=float, default=defaults.rate, help="moves a second, over the playing pages")
    parser.add_argument("--seconds", type=float, default=defaults.seconds, help="length of the measured hostile phase")
    parser.add_argument("--warmup", type=float, default=defaults.warmup, help="seconds played before the hostile phase")
    parser.add_argument(
        "--calm", type=float, help="seconds measured without hostile pages first, as a reference (default: 2 to 10)"
    )
    parser.add_argument("--mirrors", type=int, default=defaults.mirrors, help="a) pages that never read")
    parser.add_argument("--flooders", type=int, default=defaults.flooders, help="b) pages flooding at their limit")
    parser.add_argument("--garbage", type=int, default=defaults.garbage, help="c) loops sending garbage")
    parser.add_argument("--garbage-rate", type=float, default=defaults.garbage_rate, help="c) connections a second")
    parser.add_argument("--sign-ins", type=float, default=defaults.sign_ins, help="d) sign-ins a second")
    parser.add_argument("--token-posts", type=float, default=defaults.token_posts, help="d) POST /api/token a second")
    args = parser.parse_args()
    options = Options(
        sockets=args.sockets,
        rate=args.rate,
        seconds=args.seconds,
        warmup=args.warmup,
        calm=args.calm if args.calm is not None else min(10.0, max(2.0, args.seconds / 6)),
        mirrors=args.mirrors,
        flooders=args.flooders,
        garbage=args.garbage,
        garbage_rate=args.garbage_rate,
        sign_ins=args.sign_ins,
        token_posts=args.token_posts,
    )
    if options.sockets < 1 or options.sockets > PAGES_PER_ADDRESS * 200:
        parser.error(f"--sockets: 1 to {PAGES_PER_ADDRESS * 200} (from 127.0.0.x, {PAGES_PER_ADDRESS} an address)")
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        log_path = Path(folder) / "bot.log"
        figures, hostiles = asyncio.run(soak(options, log_path))
        report(options, figures, hostiles, log_path, load)


if __name__ == "__main__":
    main()
