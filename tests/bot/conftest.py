"""Fixtures of the bot's tests: a real pool of worker processes."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from bot.heavy import Scheduler


@pytest_asyncio.fixture
async def one_worker() -> AsyncIterator[Scheduler]:
    """A real pool of one spawned worker, closed afterwards."""
    jobs = Scheduler(1)
    jobs.start()
    yield jobs
    await jobs.close()
