"""Fixtures of the bot's tests: a real pool of worker processes."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest_asyncio

from bot.heavy import Scheduler


@contextlib.asynccontextmanager
async def running(workers: int) -> AsyncIterator[Scheduler]:
    """A real pool of ``workers`` spawned workers, closed at the end of the block."""
    jobs = Scheduler(workers)
    jobs.start()
    try:
        yield jobs
    finally:
        await jobs.close()


@pytest_asyncio.fixture
async def one_worker() -> AsyncIterator[Scheduler]:
    """A real pool of one spawned worker, closed afterwards."""
    async with running(1) as jobs:
        yield jobs
