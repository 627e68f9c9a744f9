"""A page that never reads slows nobody: not another page, not a race, not a move's answer, not the shutdown;
and what waits for it in the bot's memory is bounded."""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.activity import page as activity_page
from bot.activity import server as activity_server
from bot.activity.limits import CLOSE_SECONDS, QUEUED_FRAMES
from bot.activity.page import Socket
from bot.activity.protocol import Close
from bot.compete.race import start as race_start
from tests.support.activity_stack import GUILD, Stack, activity_stack, players, race_push, until


@pytest.fixture(autouse=True)
def short_countdown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A race counts down for 1 s, not 10 (real time)."""
    monkeypatch.setattr(race_start, "COUNTDOWN_SECONDS", 1.0)


def server_socket(stack: Stack, user_id: int) -> Socket:
    """The bot's side of a member's one open page."""
    activity = stack.services.activity
    assert activity is not None
    [page] = [socket for socket in activity.pages if socket.key == (GUILD, user_id)]
    return page


def stop_reading(socket: Socket) -> list[str]:
    """Make the page behind ``socket`` stop reading: its connection holds unsent bytes and every write to it
    waits forever (as once the kernel's and the transport's buffers are full). The frames it was sent."""
    tried: list[str] = []

    async def never(text: str, *args: Any, **kwargs: Any) -> None:
        tried.append(text)
        await asyncio.Event().wait()

    socket.ws.send_str = never  # type: ignore[method-assign]
    assert socket.transport is not None
    socket.transport.get_write_buffer_size = lambda: 1 << 20  # type: ignore[method-assign]
    return tried


async def test_a_page_that_never_reads_freezes_no_race(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob, cat = players(stack, 21, 22, 23)
        async with stack.page(cat), stack.page(ann) as a, stack.page(bob) as b:
            stop_reading(server_socket(stack, 23))
            race = (await a.ask("race_open", variant="draw3", racers=2))["race"]
            await until(b, race_push("lobby"))
            await b.ask("race_join", race=race["id"])
            await until(a, race_push("running"), timeout=3)
            started = await until(a, lambda frame: frame["type"] == "game" and frame["ref"] is None, timeout=4)
            await a.play(started["game"], move="draw")
            await until(b, lambda frame: frame["type"] == "race" and frame["race"]["racers"][0]["moves"] >= 1)


async def test_a_page_that_never_reads_is_sent_the_latest_board_not_the_history(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(31)
        async with stack.page(player):
            stuck = server_socket(stack, 31)
            tried = stop_reading(stuck)
            async with stack.page(player) as playing:
                game = (await playing.ask("start", variant="draw3", kind="practice", deal=5))["game"]
                tasks_before = len(asyncio.all_tasks())
                for _ in range(40):  # at 20 a second: within the page's rate
                    answer = await playing.play(game, move="draw")
                    game = answer["game"]
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.05)
                assert len(asyncio.all_tasks()) <= tasks_before + 2  # no task waits per move
                assert stuck.queued <= 1 and len(tried) <= 2  # one board in the queue, one stuck being written
                assert playing.pushed == []


async def test_a_page_that_does_not_take_a_frame_in_time_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(activity_page, "WRITE_SECONDS", 0.2)
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(32)
        async with stack.page(player) as stuck_page:
            stop_reading(server_socket(stack, 32))
            async with stack.page(player) as playing:
                game = (await playing.ask("start", variant="draw3", kind="practice", deal=5))["game"]
                await playing.play(game, move="draw")
                assert (await stuck_page.next(timeout=3))["type"] == "closed"  # cut, it was not reading
                activity = stack.services.activity
                assert activity is not None and activity.counts.closed["slow"] == 1
                assert len(activity.pages) == 1


async def test_a_page_whose_queue_overflows_is_closed(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, stack.page(stack.player(33)) as page:
        socket = server_socket(stack, 33)
        stop_reading(socket)
        for n in range(QUEUED_FRAMES + 2):
            await socket.send({"type": "refused", "ref": n, "reason": "no", "game": None})  # answers are never replaced
        assert (await page.next(timeout=3))["type"] == "closed"
        activity = stack.services.activity
        assert activity is not None and activity.counts.closed["slow"] == 1


async def test_a_page_that_never_reads_does_not_hold_up_the_shutdown(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(34)
        async with stack.page(player) as reading, stack.page(stack.player(35)):
            stop_reading(server_socket(stack, 35))
            activity = stack.services.activity
            assert activity is not None
            began = time.monotonic()
            await asyncio.wait_for(activity.close(), timeout=CLOSE_SECONDS + 3)
            assert time.monotonic() - began < CLOSE_SECONDS + 1
            bye = await reading.next()
            assert bye["type"] == "bye" and "restarting" in bye["reason"]


async def test_a_move_is_answered_while_another_page_of_the_player_never_reads(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(36)
        async with stack.page(player):
            stop_reading(server_socket(stack, 36))
            async with stack.page(player) as playing:
                game = (await playing.ask("start", variant="draw3", kind="practice", deal=5))["game"]
                began = time.monotonic()
                for _ in range(10):
                    game = (await playing.play(game, move="draw"))["game"]
                assert time.monotonic() - began < 2.0


async def test_a_page_that_says_nothing_for_too_long_is_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(activity_server, "IDLE_SECONDS", 0.3)
    async with activity_stack(tmp_path / "a.db") as stack, stack.page(stack.player(37)) as page:
        bye = await page.next(timeout=3)
        assert bye["type"] == "bye" and "said nothing" in bye["reason"] and "final" not in bye
        assert (await page.next())["type"] == "closed" and page.ws.close_code == Close.SILENT


async def test_a_closed_socket_is_not_kept_in_memory(tmp_path: Path) -> None:
    """Bad sockets by the hundred leave nothing behind (aiohttp's heartbeat timer kept each for 30 s)."""
    async with activity_stack(tmp_path / "a.db") as stack, aiohttp.ClientSession() as http:
        for _ in range(50):
            async with http.ws_connect(stack.url + "/ws") as ws:
                await ws.send_str("not a frame")
                async for _message in ws:
                    pass
        await asyncio.sleep(0.1)
        gc.collect()
        kept = [obj for obj in gc.get_objects() if isinstance(obj, web.WebSocketResponse) and obj.closed]
        assert len(kept) <= 2
