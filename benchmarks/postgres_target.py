"""A PostgreSQL database for a benchmark: the one given, or a throwaway server like the tests' (stopped after)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support.postgres_server starts the server


@contextmanager
def postgres_url(given: str | None) -> Iterator[str]:
    """``given``, or the URL of a throwaway server started for this run (stopped and removed after it)."""
    if given:
        yield given
        return
    from tests.support.postgres_server import DEFAULT_BIN, PostgresServer, find_binaries

    bin_dir = find_binaries(Path(os.environ.get("PG_BIN", DEFAULT_BIN)))
    if bin_dir is None:
        raise SystemExit(f"no PostgreSQL binaries in {DEFAULT_BIN} (set PG_BIN, or give --database-url)")
    server = PostgresServer(bin_dir, settings={"shared_buffers": "'256MB'", "work_mem": "'16MB'"})
    server.start()
    try:
        yield server.dsn()
    finally:
        server.stop()


@contextmanager
def scratch_schema(url: str, name: str) -> Iterator[str]:
    """A new empty schema ``name`` in the database at ``url``; yields its URL (``search_path`` set), dropped after."""
    import asyncpg

    async def admin(statement: str) -> None:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(admin(f'DROP SCHEMA IF EXISTS "{name}" CASCADE; CREATE SCHEMA "{name}"'))
    parts = urlsplit(url)
    query = urlencode([*((k, v) for k, v in parse_qsl(parts.query) if k != "search_path"), ("search_path", name)])
    try:
        yield urlunsplit(parts._replace(query=query))
    finally:
        asyncio.run(admin(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
