"""A shard cluster in a real Chromium: the page follows a route to the process running its server, once.

Two Activity servers over their own services (shards 0 and 1 of 2, one SQLite file, one fake Discord) stand
behind a front (``tests/support/front.py``) that sends ``/c1/...`` to the second and the rest to the
first, as the operator's Caddy would. The page is opened through the front, in the fake Discord client.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.bot.activity.browser.conftest import (
    Activity,
    Opened,
    game_id,
    open_in_discord,
    shown_version,
    state_of,
    until,
)
from tests.support.activity_stack import Stack, activity_stack
from tests.support.fake_discord_api import FakeDiscordApi
from tests.support.front import Front

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")
from playwright.async_api import Browser

pytestmark = pytest.mark.asyncio(loop_scope="session")
ON_SHARD_1 = 1 << 22
"""The player's server: on shard 1 of 2."""
NOT_HERE = "this server's games are run by another process of the bot"
ROUTED = {"shard_count": 2, "activity_routes": "0=/c0,1=/c1"}


@dataclass
class Cluster:
    """The two servers, the front before them, and the player's page as the front serves it."""

    first: Stack
    second: Stack
    front: Front
    activity: Activity

    def sockets(self) -> list[str]:
        """The paths of the sockets the front passed on, in order."""
        return [path for _, path in self.front.hits if path.endswith("/ws")]


@contextlib.asynccontextmanager
async def cluster(
    folder: Path, migrated: Path, first: dict[str, Any], second: dict[str, Any]
) -> AsyncIterator[Cluster]:
    """Two Activity servers with the settings ``first`` and ``second``, the front routing ``/c1`` to the second."""
    database = folder / "activity.db"
    shutil.copyfile(migrated, database)
    discord = FakeDiscordApi()
    await discord.start()
    try:
        async with (
            activity_stack(database, discord=discord, **first) as one,
            activity_stack(database, discord=discord, **second) as two,
        ):
            one.guilds.add(ON_SHARD_1)
            two.guilds.add(ON_SHARD_1)
            front = await Front(one.url, {"/c1": two.url}).start()
            try:
                activity = Activity(two, two.player(61, guild_id=ON_SHARD_1, name="Routed"))
                activity.base = front.url + "/"
                yield Cluster(one, two, front, activity)
            finally:
                await front.stop()
    finally:
        await discord.stop()


async def open_page(browser: Browser, where: Cluster) -> Opened:
    """The page opened through the front, inside the fake Discord client, in the player's server."""
    return await open_in_discord(browser, where.activity, guild_id=str(ON_SHARD_1))


@pytest.mark.parametrize("served", ["/", "/c0/"])  # the URL mapping's root, or the first process's own prefix
async def test_the_page_follows_the_route_to_its_servers_process_and_plays_there(
    browser: Browser, tmp_path: Path, sqlite_migrated: Path, served: str
) -> None:
    async with cluster(
        tmp_path, sqlite_migrated, {**ROUTED, "shard_ids": (0,)}, {**ROUTED, "shard_ids": (1,)}
    ) as where:
        where.activity.base = where.front.url + served
        opened = await open_page(browser, where)
        frame = opened.frame
        await frame.click('button[data-variant="draw3"][data-kind="casual"]')
        await frame.click("#btn-draw")
        game = await game_id(frame)
        await until(lambda: shown_version(frame, 1), "the draw, played on the second process")
        assert await where.activity.played(game) == ["draw"]
        assert [session.id for session in where.second.services.sessions.running] == [game]
        assert where.first.services.sessions.running == []
        assert opened.answers("bye") == [{"type": "bye", "reason": NOT_HERE, "route": "/c1"}]
        hellos = opened.frames("hello")
        assert len(hellos) == 2 and hellos[0] == hellos[1]  # the same sign-in on both sockets
        assert where.activity.stack.discord.requests.count("POST /oauth2/token") == 1
        assert where.sockets() == [f"{served}ws", "/c1/ws"]
        assert await frame.evaluate("document.querySelector('meta[name=activity-route]').content") == served[:-1]
        await frame.evaluate("window.solitaireRush.dropSocket()")  # a dropped socket: back to the owner
        await until(lambda: len(opened.frames("hello")) == 3, "hello again")
        await frame.click("#btn-draw")
        await until(lambda: shown_version(frame, 2), "a draw on the new socket")
        assert where.sockets() == [f"{served}ws", "/c1/ws", "/c1/ws"]
        await opened.context.close()


async def test_a_second_route_before_a_welcome_is_an_error_in_words_never_a_loop(
    browser: Browser, tmp_path: Path, sqlite_migrated: Path
) -> None:
    crossed = {"shard_count": 2, "shard_ids": (0,), "activity_routes": "0=/c1,1=/c0"}  # a process set up wrong
    async with cluster(tmp_path, sqlite_migrated, {**ROUTED, "shard_ids": (0,)}, crossed) as where:
        opened = await open_page(browser, where)
        frame = opened.frame
        await until(lambda: state_of(frame, "s.status.includes('could not reach it')"), "the error in words")
        assert await state_of(frame, "s.stopped")  # closed for good: no reconnect is scheduled
        assert where.sockets() == ["/ws", "/c1/ws"]
        assert [bye["route"] for bye in opened.answers("bye")] == ["/c1", "/c0"]
        assert await frame.text_content("#status") == (
            f"{NOT_HERE}, and this page could not reach it: tell the bot's operator."
        )
        await opened.context.close()


async def test_without_routes_a_page_of_another_process_says_so_and_does_not_retry(
    browser: Browser, tmp_path: Path, sqlite_migrated: Path
) -> None:
    unrouted = {"shard_count": 2, "shard_ids": (0,)}
    async with cluster(tmp_path, sqlite_migrated, unrouted, {"shard_count": 2, "shard_ids": (1,)}) as where:
        opened = await open_page(browser, where)
        frame = opened.frame
        await until(lambda: state_of(frame, "s.status.includes('could not reach it')"), "the error in words")
        assert await state_of(frame, "s.stopped")  # closed for good: no reconnect is scheduled
        assert where.sockets() == ["/ws"] and len(opened.frames("hello")) == 1
        await opened.context.close()
