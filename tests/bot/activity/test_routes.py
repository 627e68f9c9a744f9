"""Shard clusters: a page that reached a process not running its server is told the prefix of the one that does.

Each process serves the Activity at ``/`` and under its own prefix (``ACTIVITY_ROUTES``); the route it gives
comes from its settings only. Two real processes behind a front: ``tests/bot/test_two_processes_activity.py``.
"""

from __future__ import annotations

import re
from typing import Any

import aiohttp

from bot.activity.door import Where
from bot.activity.protocol import Close
from bot.shards import ACTIVITY_PATHS
from tests.support.activity_stack import GUILD, Stack, activity_stack, hello_answer, open_page

ROUTES = "0=/c0,1=/c1"
"""Two processes: shard 0 (``GUILD``'s) behind ``/c0``, shard 1 behind ``/c1``."""
ON_SHARD_1 = 1 << 22
"""A server on shard 1 of 2."""


def second_process(stack_settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The settings of the process running shard 1 of 2, with the cluster's routes."""
    return {"shard_count": 2, "shard_ids": (1,), "activity_routes": ROUTES, **(stack_settings or {})}


async def hello_of(stack: Stack, user_id: int, guild_id: int = GUILD, instance: str = "i-1") -> dict[str, Any]:
    """A signed-in player's ``hello`` fields in a live instance of ``guild_id``."""
    player = stack.player(user_id, guild_id=guild_id, instance=instance)
    return {"access_token": player.token, "instance_id": instance, "guild_id": str(guild_id)}


async def test_a_page_of_a_server_run_elsewhere_is_told_the_owners_prefix(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db", **second_process()) as stack:
        first, code = await hello_answer(stack.url, **await hello_of(stack, 41))
        assert first == {
            "type": "bye",
            "reason": "this server's games are run by another process of the bot",
            "route": "/c0",
        }
        assert code == Close.NOT_HERE
        assert stack.services.activity is not None and stack.services.activity.counts.closed["not_here"] == 1


async def test_without_routes_a_page_of_a_server_run_elsewhere_is_given_no_route(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db", shard_count=2, shard_ids=(1,)) as stack:
        first, code = await hello_answer(stack.url, **await hello_of(stack, 42))
        assert first["type"] == "bye" and "route" not in first and code == Close.NOT_HERE


async def test_a_process_never_routes_a_page_to_itself(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db", **second_process()) as stack:
        server = stack.services.activity
        assert server is not None
        server.door.where = Where(owns=lambda guild_id: False, has_bot=lambda guild_id: True, route_of=lambda g: "/c1")
        first, code = await hello_answer(stack.url, **await hello_of(stack, 43))
        assert first["type"] == "bye" and "route" not in first and code == Close.NOT_HERE


async def test_the_route_comes_from_the_settings_never_from_the_page(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db", **second_process()) as stack:
        hello = await hello_of(stack, 44)
        first, code = await hello_answer(stack.url, **hello, route="/evil")
        assert first["type"] == "bye" and "route" not in first and code == Close.BAD_FRAME
        claimed = {**hello, "guild_id": str(ON_SHARD_1)}  # a server this process runs, claimed: not believed
        first, code = await hello_answer(stack.url, **claimed)
        assert first["type"] == "bye" and "route" not in first and code == Close.FORBIDDEN
        first, code = await hello_answer(stack.url, **hello)
        assert first["route"] == "/c0"


async def test_a_process_serves_the_page_under_its_prefix_as_at_the_root(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db", **second_process()) as stack, aiohttp.ClientSession() as http:
        server = stack.services.activity
        assert server is not None
        pages = {}
        for path in ("/", "/c1/"):
            async with http.get(stack.url + path) as answer:
                assert answer.status == 200
                pages[path] = await answer.text()
        assert '<meta name="activity-route" content="">' in pages["/"]
        assert '<meta name="activity-route" content="/c1">' in pages["/c1/"]
        for page in pages.values():  # relative: they work under a prefix and behind Discord's proxy
            assert re.findall(r'(?:src|href)="([^"]+)"', page) == [
                f"assets/{server.build}/style.css",
                f"assets/{server.build}/main.js",
            ]
        async with http.get(f"{stack.url}/c1/assets/{server.build}/socket.js") as answer:
            assert answer.status == 200 and "export class Connection" in await answer.text()
        async with http.get(stack.url + "/c1?instance_id=i-1&frame_id=f", allow_redirects=False) as answer:
            assert answer.status == 308 and answer.headers["Location"] == "c1/?instance_id=i-1&frame_id=f"
        for foreign in ("/c0/", "/c0/ws", f"/c0/assets/{server.build}/main.js"):  # another process's prefix
            async with http.get(stack.url + foreign) as answer:
                assert answer.status == 404, foreign


async def test_a_page_plays_through_its_processs_prefix_and_signs_in_there_too(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db", **second_process()) as stack:
        player = stack.player(45, guild_id=ON_SHARD_1)
        async with (
            aiohttp.ClientSession() as http,
            http.post(stack.url + "/c1/api/token", json={"code": player.code}) as answer,
        ):
            assert answer.status == 200 and (await answer.json())["access_token"] == player.token
        async with open_page(stack.url + "/c1", player, instance="i-1", guild_id=ON_SHARD_1) as page:
            assert page.welcome["type"] == "welcome" and page.welcome["guild_id"] == str(ON_SHARD_1)
            game = (await page.ask("start", variant="draw3", kind="practice", deal=3))["game"]
            answer = await page.play(game, move="draw")
            assert answer["type"] == "game" and answer["game"]["version"] == 1


def test_no_prefix_can_shadow_an_address_of_the_activity(tmp_path: Any) -> None:
    from bot.activity.server import ActivityServer

    server = ActivityServer.__new__(ActivityServer)
    server.prefix = ""
    firsts = {route.resource.canonical.split("/")[1] for route in server.app().router.routes() if route.resource}
    assert firsts - {""} == ACTIVITY_PATHS


async def test_a_prefix_of_several_segments_is_served_and_reached_without_its_slash(tmp_path: Any) -> None:
    nested = {"shard_count": 2, "shard_ids": (1,), "activity_routes": "0=/play/c0,1=/play/c1"}
    async with activity_stack(tmp_path / "a.db", **nested) as stack, aiohttp.ClientSession() as http:
        async with http.get(stack.url + "/play/c1", allow_redirects=False) as answer:
            assert answer.status == 308 and answer.headers["Location"] == "c1/"
        async with http.get(stack.url + "/play/c1") as answer:  # followed: /play/c1/
            assert answer.status == 200 and '<meta name="activity-route" content="/play/c1">' in await answer.text()
        first, _ = await hello_answer(stack.url + "/play/c1", **await hello_of(stack, 46))
        assert first["route"] == "/play/c0"
