"""The claims and the ownership rule on a real PostgreSQL, through the bot's own backend: the same SQL SQLite runs.

Eight pools race for the same posts (each is claimed once); the ownership rule's SQL agrees with
Python on the server's own integer arithmetic. Skipped, saying why, where no PostgreSQL binaries exist.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.shards import Ownership
from bot.storage import Database, claims

GUILDS = [0, 1 << 22, 81384788765712384, 2**63 - 1, *range(3 << 22, 40 << 22, 1 << 22)]


@pytest_asyncio.fixture
async def db(postgres_bot_dsn: str) -> AsyncIterator[Database]:
    """A migrated schema with one waiting post per server of :data:`GUILDS`, due at 1.0."""
    database = await Database.open(postgres_bot_dsn)
    await database.executemany(
        "INSERT INTO announcements (guild_id, kind, subject, created_at, due_at) VALUES (?, 'result', ?, 1, 1)",
        [(guild, str(n)) for n, guild in enumerate(GUILDS)],
    )
    yield database
    await database.close()


async def test_eight_pools_claim_each_post_once(db: Database, postgres_bot_dsn: str) -> None:
    pools = [await Database.open(postgres_bot_dsn) for _ in range(8)]
    try:

        async def worker(index: int) -> list[int]:
            won = []
            for pending in await claims.due_announcements(pools[index], 5.0, Ownership(), limit=100):
                if await claims.claim(pools[index], pending.id, f"p{index}"):
                    won.append(pending.id)
            return won

        results = await asyncio.gather(*(worker(index) for index in range(8)))
    finally:
        for pool in pools:
            await pool.close()
    claimed = [post for won in results for post in won]
    assert sorted(claimed) == sorted(set(claimed)) and len(claimed) == len(GUILDS)
    assert await claims.due_announcements(db, 6.0, Ownership()) == []
    due = await claims.next_due(db, Ownership(), 5.0)
    assert due is not None and 5.0 + claims.LEASE - 60 < due <= 5.0 + claims.LEASE  # the database's clock ends it
    first = claimed[0]
    holder = f"p{next(i for i, won in enumerate(results) if first in won)}"
    assert not await claims.claim(db, first, "taker")  # the lease holds, whatever the caller's clock says
    assert await claims.finish(db, first, holder, "posted")
    assert not await claims.finish(db, first, holder, "posted")


@pytest.mark.parametrize("ownership", [Ownership(), Ownership(4, (0, 1)), Ownership(4, (3,)), Ownership(7, (2, 5))])
async def test_the_ownership_rule_in_postgresql_agrees_with_python(db: Database, ownership: Ownership) -> None:
    clause, params = ownership.sql()
    rows = await db.fetchall(f"SELECT guild_id FROM announcements WHERE {clause}", params)
    assert sorted(row["guild_id"] for row in rows) == sorted(g for g in GUILDS if ownership.owns(g))
