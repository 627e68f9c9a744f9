"""The real Activity server over the real services, on a temporary database, with a fake Discord API.

:func:`activity_stack` builds the services through the composition root (``ACTIVITY_PORT`` set, so the
root builds the Activity's server as it does for ``python -m bot``), on real time, with instant deals.
:class:`Page` is a page's socket, spoken to in the protocol's frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.play.session import FinishSource, Session
from bot.runtime.metrics import Sources
from bot.runtime.services import DiscordFacts, Needs, Services
from bot.runtime.settings import load_settings
from bot.storage.games import GameRecord
from solitaire.deals import DealRequest, ProvenDeal, candidate_seed, shuffled_deck
from tests.conftest import make_deal_bank
from tests.support.decks import EASY_KLONDIKE
from tests.support.fake_discord_api import APP_ID, BOT_TOKEN, CLIENT_SECRET, FakeDiscordApi, FakePlayer

GUILD = 5001
CHANNEL = 6001


def instant_daily(request: DealRequest) -> ProvenDeal:
    """The easy deck for draw3's daily, else the day's first candidate shuffle (no solving)."""
    if request.variant == "draw3":
        return ProvenDeal("draw3", 0, EASY_KLONDIKE, ())
    seed = candidate_seed(request.source, 0)
    return ProvenDeal(request.variant, seed, shuffled_deck(seed), ())


def free_port() -> int:
    """A local port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Stack:
    """The services, their Activity server and the fake Discord it asks."""

    services: Services
    discord: FakeDiscordApi
    guilds: set[int]
    """The servers the bot is in."""
    finished: list[GameRecord] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)
    """Members' names as the bot's cache knows them (``Where.name_of``); the others are not known."""

    @property
    def url(self) -> str:
        """The Activity's address."""
        assert self.services.activity is not None and self.services.activity.port is not None
        return f"http://127.0.0.1:{self.services.activity.port}"

    def player(
        self, user_id: int, *, guild_id: int | None = GUILD, instance: str = "i-1", name: str = "Player"
    ) -> FakePlayer:
        """A player signed in to Discord and in instance ``instance`` (made live in ``guild_id`` if new)."""
        signed = self.discord.add_player(user_id, name)
        live = self.discord.instances.get(instance)
        if live is None:
            self.discord.add_instance(instance, guild_id=guild_id, channel_id=CHANNEL, users=[user_id])
        else:
            live["users"].append(str(user_id))
        return signed

    def page(
        self, player: FakePlayer, *, instance: str = "i-1", guild_id: int | None = GUILD
    ) -> contextlib.AbstractAsyncContextManager[Page]:
        """A page signed in as ``player``: its socket, after the ``welcome``."""
        return open_page(self.url, player, instance=instance, guild_id=guild_id)


@contextlib.asynccontextmanager
async def open_page(url: str, player: FakePlayer, *, instance: str, guild_id: int | None) -> AsyncIterator[Page]:
    """A page of the Activity at ``url`` signed in as ``player`` in ``instance``, after its ``welcome``."""
    async with aiohttp.ClientSession() as http, http.ws_connect(url + "/ws") as ws:
        page = Page(ws)
        await page.send(
            type="hello",
            access_token=player.token,
            instance_id=instance,
            guild_id=str(guild_id) if guild_id else None,
            channel_id=str(CHANNEL),
        )
        page.welcome = await page.next()
        yield page


@dataclass
class Page:
    """A page's socket: send frames, read the server's."""

    ws: aiohttp.ClientWebSocketResponse
    welcome: dict[str, Any] = field(default_factory=dict)
    refs: int = 0
    pushed: list[dict[str, Any]] = field(default_factory=list)
    """Frames read while waiting for another one (pushes)."""

    async def send(self, **frame: Any) -> None:
        """Send one frame."""
        await self.ws.send_str(json.dumps(frame))

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next frame from the server (a close is ``{"type": "closed", "code": ...}``)."""
        message = await self.ws.receive(timeout=timeout)
        if message.type is aiohttp.WSMsgType.TEXT:
            return dict(json.loads(message.data))
        return {"type": "closed", "code": self.ws.close_code}

    async def ask(self, frame_type: str, **fields: Any) -> dict[str, Any]:
        """Send a request and return its answer (frames without its ref are kept in :attr:`pushed`)."""
        self.refs += 1
        ref = self.refs
        await self.send(type=frame_type, ref=ref, **fields)
        while True:
            frame = await self.next()
            if frame.get("ref") == ref or frame["type"] in ("bye", "closed"):
                return frame
            self.pushed.append(frame)

    async def play(self, game: dict[str, Any], frame_type: str = "move", **fields: Any) -> dict[str, Any]:
        """A request on ``game`` (its id and version) answered."""
        return await self.ask(frame_type, game=game["id"], version=game["version"], **fields)


async def _nobody(session: Session, record: GameRecord, source: FinishSource) -> None:
    """The root's finish listener (the client's event in the bot)."""


async def _answers() -> bool:
    return True


@contextlib.asynccontextmanager
async def activity_stack(
    database: Path | str,
    *,
    now: Callable[[], float] = time.time,
    discord: FakeDiscordApi | None = None,
    **settings: Any,
) -> AsyncIterator[Stack]:
    """The services with their Activity server on a free port, asking a fake Discord; closed afterwards.

    ``discord``: a fake Discord already listening (shared by several stacks, or another process's: only its
    address is used); else one of its own, started and stopped with the stack.
    """
    own_discord = discord is None
    if discord is None:
        discord = FakeDiscordApi()
        await discord.start()
    path = database if isinstance(database, Path) else None
    url = database if isinstance(database, str) else None
    loaded = load_settings(
        _env_file=None,
        discord_token=BOT_TOKEN,
        database_path=path or Path("unused.db"),
        database_url=url,
        deal_bank_size=0,
        deal_workers=0,
        render_workers=0,
        daily_spares=0,
        discord_api_base=discord.api_base,
        activity_port=free_port(),
        discord_client_secret=CLIENT_SECRET,
        **settings,
    )
    services = Services(loaded, Needs(now=now, deals=make_deal_bank(), daily_solve=instant_daily))
    guilds = {GUILD}
    stack = Stack(services, discord, guilds)

    def sources() -> Sources:
        return Sources(
            game_guilds=lambda: [],
            deal_levels=services.deals.levels,
            solver_queue=lambda: 0,
            shard_count=lambda: 1,
            shard_ids=lambda: [0],
            connected=lambda: True,
            database_answers=_answers,
            activity=lambda: services.activity.counts if services.activity is not None else None,
        )

    try:
        await services.open(
            finished=_nobody,
            sources=sources,
            discord=DiscordFacts(
                APP_ID, lambda guild_id: guild_id in guilds, lambda guild_id, user_id: stack.names.get(user_id)
            ),
        )
        yield stack
    finally:
        await services.close()
        if own_discord:
            await discord.stop()
        await asyncio.sleep(0)


async def hello_answer(url: str, **hello: Any) -> tuple[dict[str, Any], int | None]:
    """The server's first frame after ``hello`` and the code the socket was closed with (``None``: open)."""
    async with aiohttp.ClientSession() as http, http.ws_connect(url + "/ws") as ws:
        await ws.send_str(json.dumps({"type": "hello", **hello}))
        first = json.loads((await ws.receive(timeout=5)).data)
        if first["type"] == "bye":
            await ws.receive(timeout=5)
        return first, ws.close_code


async def until(page: Page, wanted: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> dict[str, Any]:
    """Read frames (kept in ``page.pushed``) until one is ``wanted``; return it."""
    deadline = time.monotonic() + timeout
    while True:
        frame = await page.next(timeout=max(deadline - time.monotonic(), 0.01))
        page.pushed.append(frame)
        if frame["type"] == "closed":
            raise AssertionError(f"the page closed waiting: {page.pushed[-5:]}")
        if wanted(frame):
            return frame


def race_push(status: str) -> Callable[[dict[str, Any]], bool]:
    """A pushed ``race`` frame with the race in ``status``."""
    return lambda frame: frame["type"] == "race" and frame["ref"] is None and frame["race"]["status"] == status


def players(stack: Stack, *ids: int) -> list[Any]:
    """Players of instance i-1 (the same server and channel)."""
    names = {21: "Ann", 22: "Bob", 23: "Cat", 24: "Dan"}
    return [stack.player(user_id, name=names.get(user_id, "Eve")) for user_id in ids]
