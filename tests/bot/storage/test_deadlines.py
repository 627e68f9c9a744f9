"""The database's deadlines: one watchdog task cancels work past its deadline, which then raises TimeoutError."""

from __future__ import annotations

import asyncio
import doctest
import time

import pytest

from bot.storage import deadlines as module
from bot.storage.deadlines import Deadlines, allowed, patience


def test_the_example_in_the_module_holds():
    assert doctest.testmod(module).failed == 0


async def test_work_past_its_deadline_raises_timeout_within_a_tick_and_the_task_is_not_left_cancelling():
    deadlines = Deadlines(tick=0.02)
    began = time.monotonic()
    with pytest.raises(TimeoutError), deadlines.within(0.1):
        await asyncio.Event().wait()  # work that never ends by itself
    assert 0.1 <= time.monotonic() - began < 2.0
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0
    await asyncio.sleep(0)  # no cancellation left pending either
    await deadlines.close()


async def test_work_on_time_is_untouched_and_the_watchdog_stops_when_idle():
    deadlines = Deadlines(tick=0.01)
    for _ in range(3):
        with deadlines.within(1.0):
            await asyncio.sleep(0.005)
    await asyncio.sleep(0.05)
    assert deadlines._timer is None  # nothing in flight: no timer armed
    with deadlines.within(None):  # no deadline: not watched at all
        await asyncio.sleep(0.02)
    assert deadlines._timer is None


async def test_a_cancellation_from_outside_stays_a_cancellation():
    deadlines = Deadlines(tick=0.01)

    async def work() -> None:
        with deadlines.within(10.0):
            await asyncio.Event().wait()  # work that never ends by itself

    task = asyncio.ensure_future(work())
    await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await deadlines.close()


async def test_many_tasks_each_meet_their_own_deadline():
    deadlines = Deadlines(tick=0.01)

    async def work(seconds: float, limit: float) -> str:
        try:
            with deadlines.within(limit):
                await asyncio.sleep(seconds)
        except TimeoutError:
            return "timed out"
        return "done"

    results = await asyncio.gather(work(0.01, 0.2), work(0.5, 0.05), work(0.02, 0.2), work(0.5, 0.1))
    assert results == ["done", "timed out", "done", "timed out"]
    await deadlines.close()


async def test_patience_gives_a_start_longer_and_runs_out_for_the_tasks_it_started():
    assert allowed(2.0) == 2.0 and allowed(None) is None
    with patience(0.3):
        assert 0.25 < allowed(2.0 - 1.9) <= 0.3  # a longer wait than the work's own 0.1 s
        assert allowed(5.0) == 5.0  # never shorter
        inherited = asyncio.ensure_future(asyncio.sleep(0.35, result=None))
        started_inside = asyncio.get_running_loop().create_task(_allowed_after(0.35))
    assert allowed(0.1) == 0.1  # the block is over
    await inherited
    assert await started_inside == 0.1  # a task it started keeps the patience only while it lasts


async def _allowed_after(seconds: float) -> float | None:
    await asyncio.sleep(seconds)
    return allowed(0.1)
