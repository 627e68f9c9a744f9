"""What services run on their own: the per-key locks of races and challenges, and a sleep a wake cuts short."""

from __future__ import annotations

import asyncio

import pytest

from bot.background import Alarm, KeyedLocks


async def test_a_keys_lock_lets_one_in_at_a_time_and_is_forgotten_once_released():
    locks, seen = KeyedLocks(), []

    async def hold(name: str) -> None:
        async with locks.lock("challenge-1"):
            seen.append(f"in {name}")
            await asyncio.sleep(0)
            seen.append(f"out {name}")

    await asyncio.gather(hold("a"), hold("b"), hold("c"))
    assert seen == ["in a", "out a", "in b", "out b", "in c", "out c"]
    assert len(locks) == 0


async def test_a_lock_is_kept_while_someone_waits_for_it():
    locks = KeyedLocks()
    async with locks.lock(7):
        waiting = asyncio.ensure_future(hold_briefly(locks, 7))
        await asyncio.sleep(0)
        assert len(locks) == 1
    await waiting
    assert len(locks) == 0


async def test_twenty_keys_leave_no_lock_behind():
    locks = KeyedLocks()
    for key in range(20):
        await hold_briefly(locks, key)
    assert len(locks) == 0


async def hold_briefly(locks: KeyedLocks, key: int) -> None:
    async with locks.lock(key):
        await asyncio.sleep(0)


async def test_an_alarm_woken_while_its_loop_is_busy_ends_the_next_nap_at_once() -> None:
    asked: list[float] = []
    never = asyncio.Event()

    async def sleep(seconds: float) -> None:
        asked.append(seconds)
        await never.wait()

    alarm = Alarm(sleep, "test-sleep")
    alarm.wake()  # between two naps: kept
    await asyncio.wait_for(alarm.nap(3600), 1)
    assert asked == []
    napping = asyncio.get_running_loop().create_task(alarm.nap(3600))
    while not asked:  # asleep
        await asyncio.sleep(0)
    alarm.wake()  # during a nap: ends it
    await asyncio.wait_for(napping, 1)
    assert asked == [3600]
    closing = asyncio.get_running_loop().create_task(alarm.nap(60))
    await asyncio.sleep(0)
    closing.cancel()  # the loop closing: the cancellation passes
    with pytest.raises(asyncio.CancelledError):
        await closing
