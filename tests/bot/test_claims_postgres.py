"""The claims' SQL and the ownership rule on a real PostgreSQL: the same statements SQLite runs.

Until the PostgreSQL backend lands, a tiny adapter runs ``bot/storage/claims.py`` on asyncpg
(``?`` becomes ``$n``) over a table shaped like ``announcements`` (V006) plus the PostgreSQL
twin of V010. Skipped, saying why, where no PostgreSQL binaries exist.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.shards import Ownership
from bot.storage import Changed, claims

V010 = Path(__file__).resolve().parents[2] / "bot/storage/migrations/postgres/V010__claim_leases.sql"
ANNOUNCEMENTS = """
CREATE TABLE announcements (
    id         BIGSERIAL PRIMARY KEY,
    guild_id   BIGINT           NOT NULL,
    kind       TEXT             NOT NULL,
    subject    TEXT             NOT NULL,
    channel_id BIGINT,
    created_at DOUBLE PRECISION NOT NULL,
    due_at     DOUBLE PRECISION NOT NULL,
    attempts   INTEGER          NOT NULL DEFAULT 0,
    claimed_at DOUBLE PRECISION,
    state      TEXT             NOT NULL DEFAULT 'waiting',
    UNIQUE (kind, guild_id, subject)
)
"""
GUILDS = [0, 1 << 22, 81384788765712384, 2**63 - 1, *range(3 << 22, 40 << 22, 1 << 22)]


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...``."""
    counter = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


class Postgres:
    """Just enough of :class:`bot.storage.Database` for ``bot/storage/claims.py``, on one asyncpg connection."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, params: Any = ()) -> Changed:
        status = await self.connection.execute(numbered(sql), *params)
        return Changed(int(status.rsplit(" ", 1)[-1]), None)

    async def fetchone(self, sql: str, params: Any = ()) -> Any:
        return await self.connection.fetchrow(numbered(sql), *params)

    async def fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        return list(await self.connection.fetch(numbered(sql), *params))


async def setup(dsn: str) -> None:
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(ANNOUNCEMENTS)
        await connection.execute(V010.read_text())
        await connection.executemany(
            "INSERT INTO announcements (guild_id, kind, subject, created_at, due_at) VALUES ($1, 'result', $2, 1, 1)",
            [(guild, str(n)) for n, guild in enumerate(GUILDS)],
        )
    finally:
        await connection.close()


async def test_eight_connections_claim_each_post_once(postgres_dsn: str) -> None:
    await setup(postgres_dsn)
    connections = [await asyncpg.connect(postgres_dsn) for _ in range(8)]
    try:
        dbs = [Postgres(connection) for connection in connections]

        async def worker(index: int) -> list[int]:
            won = []
            for pending in await claims.due_announcements(dbs[index], 5.0, Ownership(), limit=100):
                if await claims.claim(dbs[index], pending.id, f"p{index}", 5.0):
                    won.append(pending.id)
            return won

        results = await asyncio.gather(*(worker(index) for index in range(8)))
        claimed = [post for won in results for post in won]
        assert sorted(claimed) == sorted(set(claimed)) and len(claimed) == len(GUILDS)
        db = dbs[0]
        assert await claims.due_announcements(db, 6.0, Ownership()) == []
        assert await claims.next_due(db, Ownership()) == 5.0 + claims.LEASE
        later = 5.0 + claims.LEASE
        [first, *_] = await claims.due_announcements(db, later, Ownership(), limit=1)
        holder = f"p{next(i for i, won in enumerate(results) if first.id in won)}"
        assert await claims.claim(db, first.id, "taker", later)
        assert not await claims.finish(db, first.id, holder, "posted")
        assert await claims.finish(db, first.id, "taker", "posted")
        assert await claims.release_own(db, "p0") == len(results[0]) - (holder == "p0")
    finally:
        for connection in connections:
            await connection.close()


@pytest.mark.parametrize("ownership", [Ownership(), Ownership(4, (0, 1)), Ownership(4, (3,)), Ownership(7, (2, 5))])
async def test_the_ownership_rule_in_postgresql_agrees_with_python(postgres_dsn: str, ownership: Ownership) -> None:
    await setup(postgres_dsn)
    connection = await asyncpg.connect(postgres_dsn)
    try:
        clause, params = ownership.sql()
        rows = await connection.fetch(numbered(f"SELECT guild_id FROM announcements WHERE {clause}"), *params)
        assert sorted(row["guild_id"] for row in rows) == sorted(g for g in GUILDS if ownership.owns(g))
    finally:
        await connection.close()
