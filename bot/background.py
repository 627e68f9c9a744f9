"""What a service runs on its own: tasks whose failures are logged, never lost, one lock per thing it guards,
and a loop's sleep that can be cut short."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

log = logging.getLogger(__name__)


class BackgroundTasks:
    """A service's own tasks: kept until done (so never collected mid-way), a failure logged, stopped together."""

    def __init__(self, what: str) -> None:
        self._what = what
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Awaitable[None], name: str) -> asyncio.Task[None]:
        """Run ``work`` as the task ``name``; an exception is logged with the name, a cancellation passes."""

        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s task %s failed", self._what, name)

        task = asyncio.get_running_loop().create_task(run(), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def cancel_all(self) -> None:
        """Cancel every task and wait until each has ended."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def settle(self, *prefixes: str) -> None:
        """Wait until no task whose name starts with one of ``prefixes`` is running (those they start included)."""
        while pending := [t for t in self._tasks if not t.done() and t.get_name().startswith(prefixes)]:
            await asyncio.gather(*pending, return_exceptions=True)


@dataclass
class _Held:
    """A key's lock and how many hold or wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class KeyedLocks:
    """One :class:`asyncio.Lock` per key (a race, a challenge), kept only while someone holds or waits for it.

    So nothing outlives what it guards: a closed race or challenge leaves no lock behind.
    """

    def __init__(self) -> None:
        self._locks: dict[Hashable, _Held] = {}

    def __len__(self) -> int:
        """How many keys have a lock now (held or awaited)."""
        return len(self._locks)

    @asynccontextmanager
    async def lock(self, key: Hashable) -> AsyncIterator[None]:
        """Hold the lock of ``key`` for the ``async with`` block; forget it once nobody holds or waits for it."""
        held = self._locks.setdefault(key, _Held())
        held.users += 1
        try:
            async with held.lock:
                yield
        finally:
            held.users -= 1
            if held.users == 0:
                del self._locks[key]


class Alarm:
    """A service loop's sleep between rounds, which :meth:`wake` cuts short (a post queued, a setting changed).

    A wake while the loop is busy (between two naps) is kept: the next :meth:`nap` returns at once, so the
    loop looks again instead of sleeping past what was just asked of it.
    """

    def __init__(self, sleep: Callable[[float], Awaitable[None]], name: str) -> None:
        """Sleep with ``sleep`` (the injected one: tests move a virtual clock); ``name`` names the sleeping task."""
        self._sleep = sleep
        self._name = name
        self._sleeper: asyncio.Task[None] | None = None
        self._woken = False

    def wake(self) -> None:
        """End the current nap now, or the next one as soon as it begins."""
        self._woken = True
        if self._sleeper is not None and not self._sleeper.done():
            self._sleeper.cancel()

    async def nap(self, seconds: float) -> None:
        """Sleep ``seconds`` unless woken meanwhile; the caller's own cancellation (the loop closing) passes."""
        try:
            if self._woken:
                return
            self._sleeper = asyncio.get_running_loop().create_task(self._sleep_for(seconds), name=self._name)
            try:
                await self._sleeper
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # the loop is closing (not woken)
        finally:
            self._woken = False

    async def _sleep_for(self, seconds: float) -> None:
        await self._sleep(seconds)


async def run_rounds(
    first: Callable[[], Awaitable[object]],
    one_round: Callable[[], Awaitable[float]],
    alarm: Alarm,
    what: str,
    *,
    after_failure: float = 60.0,
) -> None:
    """Run a service's loop until cancelled: ``first`` once, then rounds, each followed by a nap of what it returns.

    A failure is logged with ``what`` and never ends the loop (a failed round naps ``after_failure`` seconds).
    """
    try:
        await first()
    except Exception:
        log.exception("%s: its first step failed", what)
    while True:
        try:
            wait = await one_round()
        except Exception:
            log.exception("%s's round failed", what)
            wait = after_failure
        await alarm.nap(max(wait, 0.0))
