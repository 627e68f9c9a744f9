"""Fixtures of the bot's tests: a real pool of worker processes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest_asyncio

from bot.heavy import Scheduler


@contextlib.asynccontextmanager
async def running(workers: int) -> AsyncIterator[Scheduler]:
    """A real pool of ``workers`` spawned workers, each ready for a job, closed at the end of the block.

    A worker takes a second or more to start on a busy machine: a picture asked before then is rightly drawn in
    this process (its deadline is short), which is not what a test of the workers means to look at.
    """
    jobs = Scheduler(workers)
    jobs.start()
    try:
        await asyncio.wait_for(jobs.until(lambda pool: pool.ready == workers), 60)
        yield jobs
    finally:
        await jobs.close()


@pytest_asyncio.fixture
async def one_worker() -> AsyncIterator[Scheduler]:
    """A real pool of one spawned worker, ready, closed afterwards (its tests start processes)."""
    async with running(1) as jobs:
        yield jobs
