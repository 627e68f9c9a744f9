"""A fake clock for service tests without Discord, and a database that counts its statements in flight.

:class:`FakeTime` moves only when a test advances it; :func:`settle` lets every task run until it waits on
that clock (6 ms in a row with no statement running, on either backend: on a busy machine one SQLite call in
its thread can take longer than that), which needs the database of :func:`counted_database`.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Database
from bot.storage.postgres import PostgresDatabase
from bot.storage.sqlite import SqliteQueries

START = 1_800_000_000.0


class FakeTime:
    """A clock and a sleep that only move when the test advances them."""

    def __init__(self) -> None:
        self.now = START
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (self.now + max(seconds, 0.0), next(self._order), future))
        await future

    async def advance(self, seconds: float) -> None:
        target = self.now + seconds
        await settle()
        while self._waiting and self._waiting[0][0] <= target:
            when, _, future = heapq.heappop(self._waiting)
            self.now = max(self.now, when)
            if not future.done():
                future.set_result(None)
            await settle()
        self.now = target
        await settle()


IN_FLIGHT = [0]
"""Statements running right now: PostgreSQL connections held, SQLite calls in their thread (counted by the ``db``
fixture)."""


async def settle() -> None:
    """Let every task run until it waits on the fake clock: 6 ms in a row with no statement running."""
    quiet = 0
    while quiet < 6:
        await asyncio.sleep(0.001)
        quiet = quiet + 1 if IN_FLIGHT[0] == 0 else 0


@asynccontextmanager
async def counted_database(target: str | Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Database]:
    """Open ``target`` with its statements counted in :data:`IN_FLIGHT` (for :func:`settle`), on either backend."""
    held, call = PostgresDatabase._held, SqliteQueries._call

    @asynccontextmanager
    async def counted(self: PostgresDatabase, timeout: float | None) -> AsyncIterator[Any]:
        IN_FLIGHT[0] += 1
        try:
            async with held(self, timeout) as connection:
                yield connection
        finally:
            IN_FLIGHT[0] -= 1

    async def counted_call(self: SqliteQueries, work: Any) -> Any:
        IN_FLIGHT[0] += 1
        try:
            return await call(self, work)
        finally:
            IN_FLIGHT[0] -= 1

    monkeypatch.setattr(PostgresDatabase, "_held", counted)
    monkeypatch.setattr(SqliteQueries, "_call", counted_call)
    database = await Database.open(target)
    try:
        yield database
    finally:
        await database.close()
