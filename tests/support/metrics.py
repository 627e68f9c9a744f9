"""The operations endpoint on a real port, over a fake bot whose readings each test sets."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
import pytest_asyncio

from bot.runtime.metrics import BotMetrics, Sources


@dataclass
class FakeBot:
    """What the endpoint reads, set by each test."""

    guilds: list[int] = field(default_factory=list)
    levels: dict[str, int] = field(default_factory=lambda: {"draw1": 4, "draw3": 2})
    queue: int = 0
    shard_count: int = 1
    shard_ids: list[int] = field(default_factory=lambda: [0])
    connected: bool = True
    database: bool = True
    parked: dict[str, int] = field(default_factory=dict)

    async def database_answers(self) -> bool:
        return self.database

    def sources(self) -> Sources:
        return Sources(
            game_guilds=lambda: self.guilds,
            deal_levels=lambda: self.levels,
            solver_queue=lambda: self.queue,
            shard_count=lambda: self.shard_count,
            shard_ids=lambda: self.shard_ids,
            connected=lambda: self.connected,
            database_answers=self.database_answers,
            parked_posts=lambda: self.parked,
        )


@pytest.fixture
def fake() -> FakeBot:
    return FakeBot()


@pytest_asyncio.fixture
async def metrics(fake: FakeBot) -> AsyncIterator[BotMetrics]:
    metrics = BotMetrics(fake.sources())
    await metrics.serve(0)
    yield metrics
    await metrics.close()
