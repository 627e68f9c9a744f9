"""The coalescing loop: a first change published at once, the changes within the interval joined into one."""

from __future__ import annotations

import asyncio

from bot.background import BackgroundTasks
from bot.coalesce import Coalescer


class Clock:
    """Virtual seconds: a sleep moves the clock and yields once."""

    def __init__(self) -> None:
        self.at = 100.0
        self.slept: list[float] = []

    def now(self) -> float:
        return self.at

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        await asyncio.sleep(0)
        self.at += seconds


def coalescer(clock: Clock, published: list[tuple[str, float]], **kwargs: object) -> Coalescer[str]:
    async def publish(key: str) -> None:
        published.append((key, clock.now()))

    return Coalescer(
        publish,
        interval=2.0,
        now=clock.now,
        sleep=clock.sleep,
        tasks=BackgroundTasks("test"),
        name="test",
        **kwargs,  # type: ignore[arg-type]
    )


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_the_first_change_is_published_at_once_and_later_ones_wait_out_the_interval_together() -> None:
    clock, published = Clock(), []
    updates = coalescer(clock, published)
    updates.mark("race-1")
    await settle()
    assert published == [("race-1", 100.0)]
    clock.at += 0.5
    for _ in range(5):  # five changes within the interval: one publish, 2 s after the first
        updates.mark("race-1")
    await settle()
    assert published == [("race-1", 100.0), ("race-1", 102.0)] and clock.slept == [1.5]
    assert not updates.pending("race-1")


async def test_keys_are_published_on_their_own_clocks() -> None:
    clock, published = Clock(), []
    updates = coalescer(clock, published)
    updates.mark("a")
    updates.mark("b")
    await settle()
    assert sorted(published) == [("a", 100.0), ("b", 100.0)]


async def test_a_forgotten_key_is_not_published_and_leaves_nothing_behind() -> None:
    clock, published = Clock(), []
    gate = asyncio.Event()

    async def slow_sleep(seconds: float) -> None:
        await gate.wait()

    updates = coalescer(clock, published)
    updates.sleep = slow_sleep
    updates.mark("a")
    await settle()
    updates.mark("a")  # waits for its turn
    await settle()
    updates.forget("a")
    gate.set()
    await settle()
    assert published == [("a", 100.0)] and len(updates) == 0


async def test_a_publisher_that_keeps_its_own_last_time_is_asked_and_a_settled_key_is_told() -> None:
    clock, published, settled = Clock(), [], []
    updates = coalescer(clock, published, since=lambda key: 99.0, settled=settled.append)
    updates.mark("a")
    await settle()
    assert published == [("a", 101.0)] and clock.slept == [1.0] and settled == ["a"]
