"""A shard cluster's Activity: two real bot processes behind one front, a page reaching the wrong one first.

Each process is ``python -m tests.bot.cluster_worker activity`` (the composition root's Activity server over
the real services, shards ``0`` or ``1`` of 2, ``ACTIVITY_ROUTES=0=/c0,1=/c1``) on one SQLite file, asking
one fake Discord API served by the test. The front (``tests/support/front.py``) routes ``/c1/...`` to
the second process and everything else (``/`` included) to the first, as the operator's Caddy would.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.activity.protocol import Close
from bot.shards import Ownership
from bot.storage import Database
from bot.storage import games as games_db
from tests.support.activity_stack import CHANNEL, Page, open_page
from tests.support.cluster import Cluster
from tests.support.fake_discord_api import FakeDiscordApi
from tests.support.front import Front

pytestmark = pytest.mark.processes  # real processes: left out of the fast loop

ROUTES = "0=/c0,1=/c1"
ON_SHARD_1 = 1 << 22
"""A server on shard 1 of 2: the second process runs it."""
READY_SECONDS = 30.0


@dataclass
class ActivityCluster:
    """The two processes, the front before them, the fake Discord they ask and the file that stops them."""

    cluster: Cluster
    processes: dict[str, subprocess.Popen[str]]
    front: Front
    discord: FakeDiscordApi
    database: Path
    stop: Path

    def reports(self) -> dict[str, dict[str, Any]]:
        """Stop both processes and return their reports, by tag."""
        self.stop.touch()
        return {tag: self.cluster.report(process) for tag, process in self.processes.items()}


async def ready_port(process: subprocess.Popen[str]) -> int:
    """The Activity port a worker prints once it serves (failing with its stderr if it died first)."""
    assert process.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), READY_SECONDS)
    if not line.startswith("ready "):
        process.kill()
        raise AssertionError(f"the worker did not start:\n{process.communicate()[1]}")
    return int(line.split()[1])


@pytest_asyncio.fixture
async def activity_cluster(tmp_path: Path, sqlite_migrated: Path) -> AsyncIterator[ActivityCluster]:
    """Two processes serving the Activity (shards 0 and 1 of 2) and a front routing by prefix."""
    database = tmp_path / "cluster.db"
    shutil.copyfile(sqlite_migrated, database)
    discord = FakeDiscordApi()
    await discord.start()
    cluster = Cluster(str(database), tmp_path / "posts.txt")
    stop = tmp_path / "stop"
    options = {"discord_port": discord.port, "routes": ROUTES, "stop_when": stop, "start_at": 0}
    processes = {
        tag: cluster.start("activity", tag, Ownership(2, (shard,)), **options)
        for shard, tag in enumerate(("first", "second"))
    }
    front: Front | None = None
    try:
        ports = [await ready_port(process) for process in processes.values()]
        front = await Front(f"http://127.0.0.1:{ports[0]}", {"/c1": f"http://127.0.0.1:{ports[1]}"}).start()
        yield ActivityCluster(cluster, processes, front, discord, database, stop)
    finally:
        stop.touch()
        if front is not None:
            await front.stop()
        cluster.close()
        await discord.stop()


async def test_a_page_sent_to_the_wrong_process_reconnects_through_the_front_and_plays_on_the_owner(
    activity_cluster: ActivityCluster,
) -> None:
    front, discord = activity_cluster.front, activity_cluster.discord
    player = discord.add_player(51, "Routed")
    discord.add_instance("i-9", guild_id=ON_SHARD_1, channel_id=CHANNEL, users=[51])
    async with aiohttp.ClientSession() as http:  # any process exchanges the sign-in code: here the first
        async with http.post(front.url + "/api/token", json={"code": player.code}) as answer:
            assert (await answer.json())["access_token"] == player.token
        async with http.ws_connect(front.url + "/ws") as ws:  # the page's first socket reaches the first process
            page = Page(ws)
            await page.send(type="hello", access_token=player.token, instance_id="i-9", guild_id=str(ON_SHARD_1))
            bye = await page.next()
            assert bye == {
                "type": "bye",
                "reason": "this server's games are run by another process of the bot",
                "route": "/c1",
            }
            assert (await page.next())["type"] == "closed" and ws.close_code == Close.NOT_HERE
    async with open_page(front.url + bye["route"], player, instance="i-9", guild_id=ON_SHARD_1) as page:
        assert page.welcome["type"] == "welcome" and page.welcome["user"]["id"] == "51"
        game = (await page.ask("start", variant="draw3", kind="practice", deal=7))["game"]
        moved = await page.play(game, move="draw")
        assert moved["type"] == "game" and moved["game"]["version"] == 1
    reports = activity_cluster.reports()
    assert reports["first"] == {"tag": "first", "prefix": "/c0", "moves": 0, "not_here": 1, "running": {}}
    assert reports["second"] == {
        "tag": "second",
        "prefix": "/c1",
        "moves": 1,
        "not_here": 0,
        "running": {str(game["id"]): 1},
    }
    assert [path for address, path in front.hits if path.endswith("/ws")] == ["/ws", "/c1/ws"]
    assert discord.requests.count("POST /oauth2/token") == 1  # one sign-in, used on both sockets
    db = await Database.open(activity_cluster.database)
    try:
        record = await games_db.get_game(db, game["id"])
        assert record is not None and record.guild_id == ON_SHARD_1 and record.user_id == 51
        assert record.is_playing and record.version == 1
        assert json.loads(await games_db.game_state(db, record))["log"][0][0] == "draw"
    finally:
        await db.close()
