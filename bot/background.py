"""What a service runs on its own: tasks whose failures are logged, never lost, and one lock per thing it guards."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Hashable

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


class KeyedLocks:
    """One :class:`asyncio.Lock` per key (a race, a challenge), made when first asked for."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, asyncio.Lock] = {}

    def lock(self, key: Hashable) -> asyncio.Lock:
        """The lock of ``key``."""
        return self._locks.setdefault(key, asyncio.Lock())
