"""Drive the Activity's sockets from many open pages, the bot in a process of its own.

Usage: .venv/bin/python benchmarks/bench_activity.py [--sockets 200] [--rate 1000] [--seconds 10]
       [--warmup 2] [--no-compress] [--profile FILE]
       .venv/bin/python benchmarks/bench_activity.py --pieces
       .venv/bin/python benchmarks/bench_activity.py --races 50 [--rate 1000] [--seconds 10] [--warmup 2]
       .venv/bin/python benchmarks/bench_activity.py --engine-moves 3000

Two processes, so the bot's CPU is measured alone. The child (``--serve``, started by this script)
runs the bot's services from the composition root with ``ACTIVITY_PORT`` set, as ``python -m bot``
does, over SQLite in a temporary folder, with instant deals (a numbered deal is its shuffle, not
solved). This process runs the stand-in for Discord's REST API the tests use (the player, the
instance) and the load: ``--sockets`` aiohttp WebSockets, one per player (as many to a source address,
``127.0.0.2`` and up, as the server allows one address).

1. The bot's memory (``VmRSS`` of ``/proc/<pid>/status``) is read before the sockets open and after
   every one has said ``hello`` and been welcomed (Discord asked about each): MB added by the open sockets.
   The pages sign in as the bot lets them: ``PER_ADDRESS`` to a source address, and a sign-in the bot sheds
   (its budget of calls to Discord: two a page here, about 20 a second) comes back after its ``retry_in``,
   so opening 200 pages takes about 20 s.
2. Each page starts a practice game of draw3 on its own numbered deal.
3. Warm-up (``--warmup`` seconds, not measured), then the paced phase: ``--rate`` moves a second in
   all, spread evenly over the sockets, for ``--seconds``. A page sends its next move at its planned
   time, or as soon as the answer to its previous one came if that was later (one request in flight
   per socket). The move is legal: a card from the waste after a draw when one can go somewhere
   (from the GAME frame's ``legal_moves``), else ``draw``, else any legal move, else ``undo``; at the
   version of the last answer; a game that ends (stuck or won) is followed by a new one on another
   deal (counted; that start's CPU is in the figure). Latency is from sending the frame to reading its ``game`` (or
   ``refused``) answer. The bot's CPU is its user + system time from ``/proc/<pid>/stat`` (every
   thread: the event loop and the database's) over the paced phase, divided by the moves answered.

The pages offer permessage-deflate, as a browser (Discord's client) does; ``--no-compress``: plain
frames. ``--pieces``: instead, time each piece of a move's work in this one process, without sockets (the
frame's parse, the engine's move, the board view and its legal moves, the GAME frame, its JSON, its
deflate, and the whole ``SessionManager.play`` with its save to SQLite), in microseconds.

``--races N``: instead, N races of 4 racers (``4 N`` sockets, plain frames): each race's four pages sign in
in an instance and channel of their own, the first opens a race for 4 and the three others join (the last
join starts it); after the countdown each page has its board (pushed at the common start) and the pages
play paced as above, a race's racers spread evenly over each page's interval (not all four at once).
Measured: from sending a move to the moment EVERY opponent's page has read a ``race`` frame whose line
for the mover shows at least the mover's new version (the coalesced standings push included), per move,
and the same from the move's answer; the race frames pushed per move; the bot's CPU per move. Then the
same number of sockets play solo practice games at the same rate in a fresh bot: the difference in CPU
per move is what the races cost (their games, standings, pushes and fan-out).

``--engine-moves N``: play N of the pages' moves on the engine alone (the board view and the GAME's
JSON included; no sockets, no saves), in this process: CPU a move, or instructions under callgrind.

``--profile FILE``: the child runs cProfile over the paced phase only and writes its stats to FILE
(``python -m pstats FILE``). The last line is ``key=value`` pairs.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import cProfile
import json
import logging
import math
import os
import random
import socket
import statistics
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's bot, not an installed one

import aiohttp

from bot.activity.frames import game_frame
from bot.activity.limits import UNIDENTIFIED_PER_ADDRESS
from bot.activity.protocol import parse_frame
from bot.compete.race import COUNTDOWN_SECONDS
from bot.play.deal_bank import DealBank
from bot.play.session import FinishSource, Session
from bot.play.sessions import SessionManager
from bot.runtime.heap import settle_heap
from bot.runtime.metrics import Sources
from bot.runtime.services import DiscordFacts, Needs, Services
from bot.runtime.settings import load_settings
from bot.storage import open_database
from bot.storage.games import GameRecord
from solitaire import VARIANTS, SolitaireError, new_game
from solitaire.deals import DealRequest, ProvenDeal
from solitaire.shuffle import shuffled_deck
from solitaire.view import view_of
from tests.support.fake_discord_api import APP_ID, BOT_TOKEN, CLIENT_SECRET, FakeDiscordApi, FakePlayer

GUILD = 5001
CHANNEL = 6001
PER_ADDRESS = UNIDENTIFIED_PER_ADDRESS
"""Sockets opened from one source address (as many as the server lets one address sign in at once)."""
SIGN_IN_ATTEMPTS = 30
"""Sign-ins of a page the bot may shed before the benchmark gives up."""
ANSWER_SECONDS = 10.0
"""A request not answered by then counts as never answered."""


# -- the bot's side (the child) ------------------------------------------------------------------
def _shuffle_deal(variant: str, number: int) -> ProvenDeal:
    """Deal number ``number`` as its shuffle, without a solve (the bot solves in worker processes)."""
    return ProvenDeal(variant, number, shuffled_deck(number), ())


def _instant_daily(request: DealRequest) -> ProvenDeal:
    """The day's deals without a solve (none is played here; the bot solves them in worker processes)."""
    return _shuffle_deal(request.variant, 1)


async def _nobody(session: Session, record: GameRecord, source: FinishSource) -> None:
    """The root's finish listener (the client's event in the bot)."""


async def _answers() -> bool:
    """The metrics' database check: it answers."""
    return True


async def serve(api_base: str, profile: str | None) -> None:
    """Run the services and their Activity server until stdin closes; say the port on stdout, obey commands."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(
            _env_file=None,
            discord_token=BOT_TOKEN,
            database_path=Path(folder) / "activity.db",
            deal_bank_size=0,
            deal_workers=0,
            render_workers=0,
            daily_spares=0,
            discord_api_base=api_base,
            activity_port=_free_port(),
            discord_client_secret=CLIENT_SECRET,
        )
        deals: DealBank[Any] = DealBank(_shuffle_deal, variants=VARIANTS, size=0, numbers=lambda: 777)
        services = Services(settings, Needs(now=time.time, deals=deals, daily_solve=_instant_daily))

        def sources() -> Sources:
            return Sources(
                game_guilds=lambda: [],
                deal_levels=services.deals.levels,
                solver_queue=lambda: 0,
                shard_count=lambda: 1,
                shard_ids=lambda: [0],
                connected=lambda: True,
                database_answers=_answers,
            )

        await services.open(
            finished=_nobody, sources=sources, discord=DiscordFacts(APP_ID, lambda guild_id: guild_id == GUILD)
        )
        try:
            assert services.activity is not None
            settle_heap()  # as ``python -m bot`` does once connected
            _say({"port": services.activity.port})
            await _obey(profile)
        finally:
            await services.close()


async def _obey(profile: str | None) -> None:
    """Answer the load's commands on stdin (``profile``, ``stop``) until it closes."""
    loop = asyncio.get_running_loop()
    profiler = cProfile.Profile()
    while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
        if line == "profile" and profile:
            profiler.enable()
        elif line == "stop" and profile:
            profiler.disable()
            profiler.dump_stats(profile)
        _say({"done": line})


def _say(message: dict[str, Any]) -> None:
    """One line of JSON to the load's process."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _free_port() -> int:
    """A local port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- the bot process, seen from outside ---------------------------------------------------------
@dataclass
class Bot:
    """The child running the bot: its pid, and its control lines."""

    process: asyncio.subprocess.Process

    @property
    def pid(self) -> int:
        """The bot's process id."""
        return self.process.pid

    async def tell(self, command: str) -> None:
        """Send a command and wait for it to be done."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{command}\n".encode())
        await self.process.stdin.drain()
        await self.read()

    async def read(self) -> dict[str, Any]:
        """The child's next line of JSON."""
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        if not line:
            raise RuntimeError("the bot's process ended early (its stderr is above)")
        return dict(json.loads(line))

    def cpu_seconds(self) -> float:
        """User + system time of the bot's process so far, all its threads."""
        return _cpu_seconds(f"/proc/{self.pid}/stat")

    def loop_cpu_seconds(self) -> float:
        """User + system time of the bot's main thread (its event loop) so far."""
        return _cpu_seconds(f"/proc/{self.pid}/task/{self.pid}/stat")

    def rss_mb(self) -> float:
        """The bot's resident memory now (MB)."""
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")


def _cpu_seconds(path: str) -> float:
    """User + system time in a ``/proc`` stat file, in seconds."""
    with open(path) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def start_bot(api_base: str, profile: str | None) -> tuple[Bot, int]:
    """Start the bot's process; it and the Activity's port."""
    options = ["--profile", profile] if profile else []
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--serve",
        "--api-base",
        api_base,
        *options,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    bot = Bot(process)
    return bot, int((await bot.read())["port"])


# -- the load (this process) ----------------------------------------------------------------------
@dataclass
class Page:
    """One open Activity page: its socket, its game as last shown, and what it measured."""

    ws: aiohttp.ClientWebSocketResponse
    number: int
    deals: int = 0
    restarts: int = 0
    game: dict[str, Any] = field(default_factory=dict)
    refs: int = 0
    drew: bool = False
    latencies: list[float] = field(default_factory=list)
    refusals: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    unanswered: int = 0
    last_answer: float = 0.0

    async def ask(self, frame_type: str, **fields: Any) -> dict[str, Any] | None:
        """Send a request; its answer (``None``: none in time; frames of other refs are skipped)."""
        self.refs += 1
        await self.ws.send_str(json.dumps({"type": frame_type, "ref": self.refs, **fields}))
        try:
            async with asyncio.timeout(ANSWER_SECONDS):
                while True:
                    message = await self.ws.receive()
                    if message.type is not aiohttp.WSMsgType.TEXT:
                        raise RuntimeError(f"the socket closed: {message.type} {self.ws.close_code}")
                    frame = json.loads(message.data)
                    if frame.get("ref") == self.refs:
                        return dict(frame)
        except TimeoutError:
            return None

    def next_move(self) -> str:
        """A legal move on the game as shown: a card off the waste after a draw, else draw, else any, else undo."""
        legal: list[str] = self.game["legal_moves"]
        from_waste = [move for move in legal if move.startswith("w-")]
        if self.drew and from_waste:
            return from_waste[0]
        if "draw" in legal:
            return "draw"
        return next((move for move in legal if move != "undo"), "undo")

    async def play_one(self, measure: bool) -> tuple[dict[str, Any], float, float] | None:
        """Send the next move and read its answer: (the answer, when sent, when answered), the game and the
        counts updated (refusals counted if ``measure``); ``None``: no answer in time."""
        move = self.next_move()
        sent = time.perf_counter()
        answer = await self.ask("move", game=self.game["id"], version=self.game["version"], move=move)
        answered = time.perf_counter()
        self.drew = move == "draw"
        if answer is None:
            self.unanswered += measure
            return None
        if answer.get("game") is not None:
            self.game = answer["game"]
        if measure:
            self.last_answer = answered
            if answer["type"] == "refused":
                self.refusals += 1
                self.reasons[answer["reason"]] = self.reasons.get(answer["reason"], 0) + 1
        return answer, sent, answered

    async def move(self, measure: bool) -> None:
        """Play one move and wait for its answer (timed if ``measure``); a game over is followed by a new one."""
        played = await self.play_one(measure)
        if played is None:
            return
        _, sent, answered = played
        if measure:
            self.latencies.append((answered - sent) * 1000)
        if self.game["over"]:
            await self.start(measure)

    async def start(self, measure: bool = False) -> None:
        """Start a practice game of draw3 on the next deal of this page's own."""
        self.deals += 1
        answer = await self.ask("start", variant="draw3", kind="practice", deal=self.number + 1_000 * self.deals)
        if answer is None or answer["type"] != "game":
            raise RuntimeError(f"page {self.number} could not start a game: {answer}")
        self.game = answer["game"]
        self.restarts += measure


def _address(index: int) -> str:
    """The source address of page ``index`` (as many pages to an address as the server allows)."""
    return f"127.0.0.{2 + index // PER_ADDRESS}"


async def sign_in(
    http: aiohttp.ClientSession, url: str, hello: dict[str, Any], *, compress: bool = False
) -> aiohttp.ClientWebSocketResponse:
    """A socket signed in with ``hello``; a sign-in the bot sheds (``retry_in``: its budget of calls to Discord,
    its waiting room) comes back when told, as the page does."""
    for _ in range(SIGN_IN_ATTEMPTS):
        ws = await http.ws_connect(url + "/ws", compress=15 if compress else 0)
        await ws.send_str(json.dumps(hello))
        answer = json.loads((await ws.receive(timeout=30)).data)
        if answer["type"] == "welcome":
            return ws
        await ws.close()
        if answer.get("retry_in") is None:
            raise RuntimeError(f"{hello['instance_id']} not welcomed: {answer}")
        await asyncio.sleep(answer["retry_in"] * (1 + random.random()))
    raise RuntimeError(f"{hello['instance_id']} not welcomed after {SIGN_IN_ATTEMPTS} sign-ins")


async def open_pages(
    url: str, players: Sequence[FakePlayer], http: list[aiohttp.ClientSession], *, compress: bool
) -> list[Page]:
    """Open a signed-in socket for every player, all at once (offering permessage-deflate if ``compress``)."""

    async def one(index: int, player: FakePlayer) -> Page:
        hello = {"type": "hello", "access_token": player.token, "instance_id": f"i-{index}"}
        hello |= {"guild_id": str(GUILD), "channel_id": str(CHANNEL)}
        return Page(await sign_in(http[index // PER_ADDRESS], url, hello, compress=compress), index + 1)

    return list(await asyncio.gather(*(one(index, player) for index, player in enumerate(players))))


async def start_games(pages: Sequence[Page]) -> None:
    """Start a practice game of draw3 on each page, each on its own numbered deal."""
    await asyncio.gather(*(page.start() for page in pages))


async def paced(pages: Sequence[Page], rate: float, seconds: float, *, measure: bool) -> float:
    """Play ``rate`` moves a second over ``pages`` for ``seconds``; the phase's start (perf_counter)."""
    begin = time.perf_counter()
    count = len(pages)

    async def play(index: int, page: Page) -> None:
        for planned in range(index, int(rate * seconds), count):
            await asyncio.sleep(max(0.0, begin + planned / rate - time.perf_counter()))
            await page.move(measure)

    await asyncio.gather(*(play(index, page) for index, page in enumerate(pages)))
    return begin


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))] if ordered else math.inf


async def run(
    sockets: int, rate: float, seconds: float, warmup: float, profile: str | None, *, compress: bool
) -> tuple[dict[str, float], Counter[str]]:
    """Open ``sockets`` pages on a bot in its own process, start a game on each, play paced; figures, refusals."""
    discord = FakeDiscordApi()
    await discord.start()
    players = [discord.add_player(10_000 + index, f"player{index}") for index in range(sockets)]
    for index, player in enumerate(players):
        discord.add_instance(f"i-{index}", guild_id=GUILD, channel_id=CHANNEL, users=[player.user_id])
    bot, port = await start_bot(discord.api_base, profile)
    connectors = [
        aiohttp.TCPConnector(limit=0, local_addr=(_address(first), 0)) for first in range(0, sockets, PER_ADDRESS)
    ]
    http = [aiohttp.ClientSession(connector=connector) for connector in connectors]
    try:
        await asyncio.sleep(1.0)  # the child's start-up settles
        rss_before = bot.rss_mb()
        opened = time.perf_counter()
        pages = await open_pages(f"http://127.0.0.1:{port}", players, http, compress=compress)
        open_seconds = time.perf_counter() - opened
        await asyncio.sleep(0.5)
        rss_open = bot.rss_mb()
        await start_games(pages)
        rss_games = bot.rss_mb()
        if warmup > 0:
            await paced(pages, rate, warmup, measure=False)
        await bot.tell("profile")
        cpu_before, loop_before, load_cpu_before = bot.cpu_seconds(), bot.loop_cpu_seconds(), time.process_time()
        begin = await paced(pages, rate, seconds, measure=True)
        cpu, loop_cpu = bot.cpu_seconds() - cpu_before, bot.loop_cpu_seconds() - loop_before
        load_cpu = time.process_time() - load_cpu_before
        await bot.tell("stop")
        rss_after = bot.rss_mb()
        for page in pages:
            await page.ws.close()
    finally:
        await shut_down(bot, http, discord)
    latencies = [ms for page in pages for ms in page.latencies]
    answered = len(latencies)
    elapsed = max(page.last_answer for page in pages) - begin
    reasons: Counter[str] = Counter()
    for page in pages:
        reasons.update(page.reasons)
    figures = {
        "sockets": sockets,
        "rate_target": rate,
        "moves": answered,
        "p50_ms": statistics.median(latencies),
        "p99_ms": _percentile(latencies, 0.99),
        "max_ms": max(latencies),
        "moves_per_s": answered / elapsed,
        "refusals": sum(page.refusals for page in pages),
        "unanswered": sum(page.unanswered for page in pages),
        "restarts": sum(page.restarts for page in pages),
        "cpu_ms_per_move": cpu * 1000 / max(answered, 1),
        "loop_cpu_ms_per_move": loop_cpu * 1000 / max(answered, 1),
        "bot_cpu_share": cpu / elapsed,
        "load_cpu_share": load_cpu / elapsed,
        "socket_mb": rss_open - rss_before,
        "games_mb": rss_games - rss_open,
        "bot_rss_mb": rss_after,
        "open_s": open_seconds,
        "compress": int(compress),
    }
    return figures, reasons


# -- races (``--races N``): N races of RACERS pages each, the standings pushed to every opponent ---------------
RACERS = 4
"""Pages (racers) per race, one instance and channel each."""
SETTLE_SECONDS = 2.5
"""After the paced phase, how long the last moves' standings may take to reach the opponents."""


@dataclass
class Racer(Page):
    """A racing page: one reader of its socket, answers by ref, and when each opponent's moves were seen."""

    user_id: str = ""
    answers: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    board: asyncio.Event = field(default_factory=asyncio.Event)
    race_frames: int = 0
    seen: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    """Per opponent: (their moves, when this page first saw that many), growing."""
    sent: list[tuple[int, float, float]] = field(default_factory=list)
    """Per measured move: (the game's version after it, when it was sent, when its answer came)."""
    reader: asyncio.Task[None] | None = None

    def listen(self) -> None:
        """Read the socket in the background from now on."""
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(message.data)
            ref = frame.get("ref")
            if ref is not None and ref in self.answers:
                self.answers.pop(ref).set_result(frame)
            elif frame["type"] == "race":
                self._saw(frame["race"], time.perf_counter())
            elif frame["type"] == "game" and frame.get("game") is not None:
                self.game = frame["game"]
                self.board.set()

    def _saw(self, race: dict[str, Any], at: float) -> None:
        """Note a pushed RACE: each opponent's moves, when they grew."""
        self.race_frames += 1
        for racer in race["racers"]:
            if racer["id"] != self.user_id:
                seen = self.seen.setdefault(racer["id"], [])
                if not seen or racer["moves"] > seen[-1][0]:
                    seen.append((racer["moves"], at))

    async def ask(self, frame_type: str, **fields: Any) -> dict[str, Any] | None:
        """Send a request; its answer, read by the reader (``None``: none in time)."""
        self.refs += 1
        ref = self.refs
        answer = self.answers[ref] = asyncio.get_running_loop().create_future()
        await self.ws.send_str(json.dumps({"type": frame_type, "ref": ref, **fields}))
        try:
            return await asyncio.wait_for(answer, ANSWER_SECONDS)
        except TimeoutError:
            self.answers.pop(ref, None)
            return None

    async def move(self, measure: bool) -> None:
        """Play one move on the race's board (a racer whose game is over waits for the end)."""
        if not self.game or self.game["over"]:
            return
        played = await self.play_one(measure)
        if played is None or not measure:
            return
        answer, sent, answered = played
        if answer["type"] == "refused":
            return
        self.latencies.append((answered - sent) * 1000)
        self.sent.append((self.game["version"], sent, answered))

    def first_seen(self, mover: str, version: int) -> float | None:
        """When this page first saw ``mover`` at ``version`` moves or more (``None``: never)."""
        seen = self.seen.get(mover, [])
        index = bisect.bisect_left([moves for moves, _ in seen], version)
        return seen[index][1] if index < len(seen) else None


async def open_racers(url: str, races: int, discord: FakeDiscordApi, http: list[aiohttp.ClientSession]) -> list[Racer]:
    """Sign in RACERS pages per race, each race's in an instance and channel of its own."""
    players = [discord.add_player(20_000 + index, f"racer{index}") for index in range(races * RACERS)]
    for race in range(races):
        group = players[race * RACERS : (race + 1) * RACERS]
        discord.add_instance(
            f"r-{race}", guild_id=GUILD, channel_id=CHANNEL + 1 + race, users=[p.user_id for p in group]
        )

    async def one(index: int, player: FakePlayer) -> Racer:
        race = index // RACERS
        hello = {"type": "hello", "access_token": player.token, "instance_id": f"r-{race}"}
        hello |= {"guild_id": str(GUILD), "channel_id": str(CHANNEL + 1 + race)}
        racer = Racer(await sign_in(http[index // PER_ADDRESS], url, hello), index + 1, user_id=str(player.user_id))
        racer.listen()
        return racer

    return list(await asyncio.gather(*(one(index, player) for index, player in enumerate(players))))


async def line_up(group: Sequence[Racer]) -> None:
    """The first racer opens a race for RACERS, the others join (the last join starts it)."""
    opened = await group[0].ask("race_open", variant="draw3", racers=RACERS)
    if opened is None or opened["type"] != "race":
        raise RuntimeError(f"no race opened: {opened}")
    for racer in group[1:]:
        joined = await racer.ask("race_join", race=opened["race"]["id"])
        if joined is None or joined["type"] != "race":
            raise RuntimeError(f"racer {racer.number} could not join: {joined}")


def to_every_opponent(groups: Sequence[Sequence[Racer]]) -> tuple[list[float], list[float], int]:
    """Per measured move, ms until every opponent's page showed it: from its sending, and from its answer; and
    how many moves were never shown to all."""
    delays, pushes, unseen = [], [], 0
    for group in groups:
        for mover in group:
            for version, sent, answered in mover.sent:
                seen = [page.first_seen(mover.user_id, version) for page in group if page is not mover]
                if any(at is None for at in seen):
                    unseen += 1
                    continue
                last = max(at for at in seen if at is not None)
                delays.append((last - sent) * 1000)
                pushes.append((last - answered) * 1000)
    return delays, pushes, unseen


async def run_races(races: int, rate: float, seconds: float, warmup: float, profile: str | None) -> dict[str, float]:
    """``races`` races of RACERS pages on a bot in its own process: moves paced, standings timed to the opponents."""
    discord = FakeDiscordApi()
    await discord.start()
    bot, port = await start_bot(discord.api_base, profile)
    sockets = races * RACERS
    connectors = [
        aiohttp.TCPConnector(limit=0, local_addr=(_address(first), 0)) for first in range(0, sockets, PER_ADDRESS)
    ]
    http = [aiohttp.ClientSession(connector=connector) for connector in connectors]
    try:
        await asyncio.sleep(1.0)
        pages = await open_racers(f"http://127.0.0.1:{port}", races, discord, http)
        groups = [pages[n * RACERS : (n + 1) * RACERS] for n in range(races)]
        spread = [group[k] for k in range(RACERS) for group in groups]  # a race's racers move a quarter second apart
        await asyncio.gather(*(line_up(group) for group in groups))
        async with asyncio.timeout(COUNTDOWN_SECONDS + 20):
            await asyncio.gather(*(page.board.wait() for page in pages))
        if warmup > 0:
            await paced(spread, rate, warmup, measure=False)
        frames_before = sum(page.race_frames for page in pages)
        await bot.tell("profile")
        cpu_before, loop_before, load_before = bot.cpu_seconds(), bot.loop_cpu_seconds(), time.process_time()
        begin = await paced(spread, rate, seconds, measure=True)
        cpu, loop_cpu = bot.cpu_seconds() - cpu_before, bot.loop_cpu_seconds() - loop_before
        load_cpu = time.process_time() - load_before
        await bot.tell("stop")
        frames = sum(page.race_frames for page in pages) - frames_before
        await asyncio.sleep(SETTLE_SECONDS)
        for page in pages:
            await page.ws.close()
    finally:
        await shut_down(bot, http, discord)
    moves = sum(len(page.sent) for page in pages)
    delays, pushes, unseen = to_every_opponent(groups)
    answers = [ms for page in pages for ms in page.latencies]
    elapsed = max(page.last_answer for page in pages) - begin
    return {
        "races": races,
        "sockets": sockets,
        "rate_target": rate,
        "moves": moves,
        "moves_per_s": moves / elapsed,
        "answer_p50_ms": statistics.median(answers),
        "answer_p99_ms": _percentile(answers, 0.99),
        "opponents_p50_ms": statistics.median(delays),
        "opponents_p99_ms": _percentile(delays, 0.99),
        "opponents_max_ms": max(delays),
        "after_answer_p50_ms": statistics.median(pushes),
        "after_answer_p99_ms": _percentile(pushes, 0.99),
        "unseen": unseen,
        "refusals": sum(page.refusals for page in pages),
        "unanswered": sum(page.unanswered for page in pages),
        "race_frames_per_move": frames / max(moves, 1),
        "cpu_ms_per_move": cpu * 1000 / max(moves, 1),
        "loop_cpu_ms_per_move": loop_cpu * 1000 / max(moves, 1),
        "bot_cpu_share": cpu / elapsed,
        "load_cpu_share": load_cpu / elapsed,
    }


def report_races(figures: dict[str, float], solo: dict[str, float], load: float) -> None:
    """Print the races' figures beside the same load of solo games, and the key=value line."""
    fanout = figures["cpu_ms_per_move"] - solo["cpu_ms_per_move"]
    print(f"machine: {os.cpu_count()} cores, load average {load:.2f} at start; SQLite; the bot in its own process")
    print(
        f"{figures['races']:.0f} races of {RACERS} racers ({figures['sockets']:.0f} sockets): {figures['moves']:.0f} "
        f"moves at {figures['rate_target']:.0f}/s (achieved {figures['moves_per_s']:.0f}/s); a move's answer "
        f"p50 {figures['answer_p50_ms']:.1f} ms, p99 {figures['answer_p99_ms']:.1f} ms"
    )
    print(
        f"from a move to every opponent's race frame: p50 {figures['opponents_p50_ms']:.0f} ms, "
        f"p99 {figures['opponents_p99_ms']:.0f} ms, max {figures['opponents_max_ms']:.0f} ms "
        f"({figures['unseen']:.0f} moves not seen by every opponent); from the mover's answer: "
        f"p50 {figures['after_answer_p50_ms']:.0f} ms, p99 {figures['after_answer_p99_ms']:.0f} ms; "
        f"{figures['race_frames_per_move']:.2f} race frames pushed per move"
    )
    print(
        f"bot CPU {figures['cpu_ms_per_move']:.3f} ms per move with races, {solo['cpu_ms_per_move']:.3f} ms per "
        f"move of solo games at the same rate over as many sockets: the races' cost {fanout:.3f} ms per move"
    )
    print(
        f"solo games: achieved {solo['moves_per_s']:.0f} moves/s, a move's answer p50 {solo['p50_ms']:.1f} ms, "
        f"p99 {solo['p99_ms']:.1f} ms"
    )
    line = {
        **figures,
        "solo_moves_per_s": solo["moves_per_s"],
        "solo_answer_p99_ms": solo["p99_ms"],
        "solo_cpu_ms_per_move": solo["cpu_ms_per_move"],
        "race_cost_ms_per_move": fanout,
        "load": load,
    }
    pairs = (f"{key}={value:.3f}" if isinstance(value, float) else f"{key}={value}" for key, value in line.items())
    print(" ".join(pairs))


# -- the pieces of one move, in one process -----------------------------------------------------
def _micros(work: Callable[[], object], repeat: int) -> float:
    """Median of five runs of ``repeat`` calls of ``work``: microseconds a call."""
    runs = []
    for _ in range(5):
        begin = time.perf_counter()
        for _ in range(repeat):
            work()
        runs.append((time.perf_counter() - begin) * 1e6 / repeat)
    return statistics.median(runs)


async def pieces(moves: int = 2_000) -> dict[str, float]:
    """Microseconds of each piece of a move's work on a draw3 game some moves in."""
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "pieces.db")
        manager = SessionManager(db, now=time.time)
        try:
            session = await manager.start(
                guild_id=GUILD, channel_id=CHANNEL, user_id=1, variant="draw3", deal=_shuffle_deal("draw3", 7)
            )
            for _ in range(30):
                await manager.play(session, "draw")
            game, draw = session.game, session.game.parse_move("draw")
            view = session.view()
            frame = game_frame(session, now=time.time(), view=view)
            text = json.dumps({"type": "game", "ref": 1, "game": frame, "words": "draw"}, separators=(",", ":"))
            deflate = zlib.compressobj(wbits=-15)
            ask = json.dumps({"type": "move", "ref": 1, "game": session.id, "version": 3, "move": "draw"})
            figures = {
                "frame_bytes": float(len(text)),
                "deflated_bytes": float(len(deflate.compress(text.encode()) + deflate.flush(zlib.Z_SYNC_FLUSH))),
                "parse_us": _micros(lambda: parse_frame(ask), moves),
                "view_us": _micros(session.view, moves),
                "legal_moves_us": _micros(game.legal_moves, moves),
                "game_frame_us": _micros(lambda: game_frame(session, now=time.time(), view=view), moves),
                "json_us": _micros(lambda: json.dumps(frame, separators=(",", ":")), moves),
                "deflate_us": _micros(
                    lambda: deflate.compress(text.encode()) + deflate.flush(zlib.Z_SYNC_FLUSH), moves
                ),
            }
            engine = new_game("draw3", deck=shuffled_deck(7))
            begin = time.perf_counter()
            for _ in range(moves):
                engine.push(draw)
            figures["engine_push_us"] = (time.perf_counter() - begin) * 1e6 / moves
            begin, cpu = time.perf_counter(), time.process_time()
            for _ in range(moves):
                await manager.play(session, "draw", version=session.game.version)
            figures["session_play_us"] = (time.perf_counter() - begin) * 1e6 / moves
            figures["session_play_cpu_us"] = (time.process_time() - cpu) * 1e6 / moves
        finally:
            await manager.close()
            await db.close()
    return figures


def engine_moves(moves: int) -> float:
    """Play ``moves`` moves of the pages' choice on the engine alone (its view and JSON too); µs of CPU a move.

    New draw3 deals in turn, each for at most 300 moves (about a 5-minute game), no sockets and no saves:
    under ``valgrind --tool=callgrind`` two runs' difference is the instructions a move costs the engine.
    """
    played, number = 0, 0
    begin = time.process_time()
    while played < moves:
        number += 1
        game = new_game("draw3", deck=shuffled_deck(number))
        page = Page(ws=None, number=number, game=view_of(game).to_dict())  # type: ignore[arg-type]  # its choice only
        for _ in range(min(300, moves - played)):
            move = page.next_move()
            page.drew = move == "draw"
            with contextlib.suppress(SolitaireError):
                game.play(move, seconds=1)
            page.game = view_of(game).to_dict()
            json.dumps({"type": "game", "game": page.game}, separators=(",", ":"))
            played += 1
            if game.is_over:
                break
    return (time.process_time() - begin) * 1e6 / max(moves, 1)


async def shut_down(bot: Bot, http: Sequence[aiohttp.ClientSession], discord: FakeDiscordApi) -> None:
    """Close the load's HTTP sessions, stop the bot's process (its stdin closed) and the stand-in for Discord."""
    for session in http:
        await session.close()
    assert bot.process.stdin is not None
    bot.process.stdin.close()
    await bot.process.wait()
    await discord.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--rate", type=float, default=1000.0, help="moves a second, over all the sockets")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of the paced phase")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds played at the rate before measuring")
    parser.add_argument(
        "--compress",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="offer permessage-deflate as a browser does (default; --no-compress: plain frames)",
    )
    parser.add_argument("--profile", help="write the bot's cProfile stats of the paced phase to this file")
    parser.add_argument("--pieces", action="store_true", help="time each piece of a move in this process instead")
    parser.add_argument(
        "--races", type=int, default=0, help=f"instead: this many races of {RACERS} pages, then solo games to compare"
    )
    parser.add_argument(
        "--engine-moves", type=int, metavar="N", help="play N of the pages' moves on the engine alone in this process"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--api-base", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.api_base, args.profile and str(Path(args.profile).resolve())))
        return
    load = os.getloadavg()[0]
    if args.engine_moves is not None:
        micros = engine_moves(args.engine_moves)
        print(f"engine_moves={args.engine_moves} cpu_us_per_move={micros:.1f} load={load:.2f}")
        return
    if args.pieces:
        parts = asyncio.run(pieces())
        print(f"machine: {os.cpu_count()} cores, load average {load:.2f} at start; one move's pieces, in µs")
        print(" ".join(f"{key}={value:.1f}" for key, value in {**parts, "load": load}.items()))
        return
    if args.races:
        profile = str(Path(args.profile).resolve()) if args.profile else None
        raced = asyncio.run(run_races(args.races, args.rate, args.seconds, args.warmup, profile))
        solo, _ = asyncio.run(run(args.races * RACERS, args.rate, args.seconds, args.warmup, None, compress=False))
        report_races(raced, solo, load)
        return
    profile = str(Path(args.profile).resolve()) if args.profile else None
    figures, reasons = asyncio.run(
        run(args.sockets, args.rate, args.seconds, args.warmup, profile, compress=args.compress)
    )
    deflate = "permessage-deflate offered, as a browser does" if args.compress else "no compression"
    print(
        f"machine: {os.cpu_count()} cores, load average {load:.2f} at start; SQLite; "
        f"the bot in its own process; {deflate}"
    )
    print(
        f"{figures['sockets']} sockets opened and welcomed in {figures['open_s']:.1f} s: "
        f"the bot's RSS +{figures['socket_mb']:.1f} MB; their {figures['sockets']} games +{figures['games_mb']:.1f} MB"
    )
    print(
        f"paced {figures['moves']} moves at {figures['rate_target']:.0f}/s: p50 {figures['p50_ms']:.1f} ms, "
        f"p99 {figures['p99_ms']:.1f} ms, max {figures['max_ms']:.1f} ms; achieved {figures['moves_per_s']:.0f} "
        f"moves/s, {figures['refusals']} refused, {figures['unanswered']} never answered; "
        f"{figures['restarts']} games over (stuck or won) and a new one started"
    )
    for reason, count in reasons.most_common():
        print(f"  refused {count}x: {reason}")
    print(
        f"bot CPU {figures['cpu_ms_per_move']:.3f} ms per move ({figures['bot_cpu_share']:.0%} of a core; "
        f"its event loop's thread {figures['loop_cpu_ms_per_move']:.3f} ms, the rest the database's thread); "
        f"this load process {figures['load_cpu_share']:.0%} of a core; bot RSS {figures['bot_rss_mb']:.0f} MB"
    )
    print(
        " ".join(
            f"{key}={value:.3f}" if isinstance(value, float) else f"{key}={value}"
            for key, value in {**figures, "load": load}.items()
        )
    )


if __name__ == "__main__":
    main()
