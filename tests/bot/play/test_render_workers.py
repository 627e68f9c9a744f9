"""Boards drawn by a real worker process on (simulated) Discord: a worker that dies or stops mid-game, and the close."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import time
from typing import Any

import pytest
from PIL import Image

from bot.runtime.settings import Settings
from tests.support.alive import alive
from tests.support.decks import EASY_NUMBER

pytestmark = [pytest.mark.usefixtures("no_error_logs"), pytest.mark.processes]  # real worker processes


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The test settings with one real worker process, kept for pictures."""
    return settings.model_copy(update={"render_workers": 1})


async def picture(env: Any, message: Any) -> Image.Image:
    [attachment] = message.attachments
    data = env.backend.cdn.get(attachment.url)
    assert data is not None
    return Image.open(io.BytesIO(data))


def worker_pids(env: Any) -> set[int]:
    return set(env.bot.jobs.pids)


async def test_clicks_are_answered_with_boards_after_the_render_worker_dies(simcord_env, channel, alice):
    started = await alice.slash(channel, "solitaire start", variant="draw3", deal=EASY_NUMBER)
    board = started.response
    assert (await picture(simcord_env, board)).format == "PNG"
    drawn = await alice.click(board, label="Draw")
    assert not drawn.response.ephemeral and "score" in drawn.response.content
    [worker] = worker_pids(simcord_env)
    os.kill(worker, signal.SIGKILL)
    after = await alice.click(drawn.response, label="Draw")  # by a fresh worker, or here while it starts
    assert not after.response.ephemeral and "score" in after.response.content
    assert (await picture(simcord_env, after.response)).size == (await picture(simcord_env, board)).size
    assert simcord_env.bot.jobs.replaced == 1 and worker not in worker_pids(simcord_env)
    again = await alice.click(after.response, label="Draw")
    assert "score" in again.response.content and len(worker_pids(simcord_env)) == 1


async def test_a_stopped_render_worker_is_replaced_and_the_click_still_answered_in_time(simcord_env, channel, alice):
    started = await alice.slash(channel, "solitaire start", variant="draw3", deal=EASY_NUMBER)
    drawn = await alice.click(started.response, label="Draw")  # the worker is warm and answering
    [worker] = worker_pids(simcord_env)
    os.kill(worker, signal.SIGSTOP)  # alive, but it will never answer
    clicked = time.perf_counter()
    after = await alice.click(drawn.response, label="Draw")
    waited = time.perf_counter() - clicked  # real time: the picture's deadline is a real timer
    assert not after.response.ephemeral and "score" in after.response.content
    assert (await picture(simcord_env, after.response)).format == "PNG"  # drawn here, past its deadline
    assert waited < 3.0, f"answered after {waited:.2f} s"
    for _ in range(500):  # the worker is killed once it has held the picture for the picture's time
        if simcord_env.bot.jobs.stuck and not alive(worker):  # (its end takes a moment on a busy machine)
            break
        await asyncio.sleep(0.01)
    assert simcord_env.bot.jobs.stuck == 1 and worker not in worker_pids(simcord_env) and not alive(worker)
    again = await alice.click(after.response, label="Draw")
    assert "score" in again.response.content and len(worker_pids(simcord_env)) == 1


async def test_closing_the_bot_stops_its_render_workers(simcord_env, channel, alice):
    await alice.slash(channel, "solitaire start", variant="draw3", deal=EASY_NUMBER)
    pids = worker_pids(simcord_env)
    assert pids and all(alive(pid) for pid in pids)
    await simcord_env.bot.close_services()
    assert not simcord_env.bot.jobs.running and not any(alive(pid) for pid in pids)
