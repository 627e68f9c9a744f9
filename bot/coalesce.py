"""Mark dirty, wait out the interval, publish: one coalescing loop per key (a race's standings, a challenge's
message, a race's pushes to the pages), so many changes close together become one publish."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from bot.background import BackgroundTasks

K = TypeVar("K", bound=Hashable)


class Coalescer(Generic[K]):
    """Publishes a changed key at most once per interval; the changes made while it waits join that publish."""

    def __init__(
        self,
        publish: Callable[[K], Awaitable[None]],
        *,
        interval: float,
        now: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]],
        tasks: BackgroundTasks,
        name: str,
        since: Callable[[K], float | None] | None = None,
        settled: Callable[[K], None] | None = None,
    ) -> None:
        """``publish`` a key no sooner than ``interval`` after its last publish; its task runs in ``tasks``.

        ``since`` says when a key was last published where its publisher keeps that itself (else it is noted
        here, as each publish begins); ``settled`` is told a key whose loop ended with nothing left to publish.
        """
        self.publish = publish
        self.interval = interval
        self.now = now
        self.sleep = sleep
        self.tasks = tasks
        self.name = name
        self.last: dict[K, float] = {}
        """When each key was last published (noted here; ``since`` may read another record)."""
        self.since = since or self.last.get
        self.settled = settled
        self._dirty: set[K] = set()
        self._loops: dict[K, asyncio.Task[None]] = {}

    def mark(self, key: K) -> None:
        """``key`` changed: publish it now, or once its interval allows (one loop per key)."""
        self._dirty.add(key)
        loop = self._loops.get(key)
        if loop is None or loop.done():
            self._loops[key] = self.tasks.spawn(self._run(key), f"{self.name}-{key}")

    def forget(self, key: K) -> None:
        """Stop publishing ``key``: its change dropped, its loop cancelled (unless it is the caller)."""
        self._dirty.discard(key)
        self.last.pop(key, None)
        loop = self._loops.pop(key, None)
        if loop is not None and loop is not asyncio.current_task():
            loop.cancel()

    def forget_all(self) -> None:
        """Forget every key (the service closes)."""
        for key in list(self._dirty | self._loops.keys() | self.last.keys()):
            self.forget(key)

    def __len__(self) -> int:
        """How many keys are held here (waiting, publishing, or remembered since their last publish)."""
        return len(self._dirty | self._loops.keys() | self.last.keys())

    def pending(self, key: K) -> bool:
        """Whether a change of ``key`` waits to be published."""
        return key in self._dirty

    async def _run(self, key: K) -> None:
        while key in self._dirty:
            last = self.since(key)
            if last is not None and (wait := last + self.interval - self.now()) > 0:
                await self.sleep(wait)
                if key not in self._dirty:
                    break  # forgotten while it waited
            self._dirty.discard(key)
            self.last[key] = self.now()
            await self.publish(key)
        if self._loops.get(key) is asyncio.current_task():
            del self._loops[key]
        if self.settled is not None:
            self.settled(key)
