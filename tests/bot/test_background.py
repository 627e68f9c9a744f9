"""The per-key locks races and challenges share: one holder at a time, and nothing kept once released."""

from __future__ import annotations

import asyncio

from bot.background import KeyedLocks


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
