"""The PostgreSQL backend: an asyncpg pool; a transaction holds one connection until it ends.

Statements are the storage modules' own texts: :func:`to_postgres` turns their ``?`` (and
``?NNN``) placeholders into ``$n`` once per text (cached); asyncpg then prepares and caches
each statement per connection. asyncpg's errors leave as the DB-API errors of
:mod:`sqlite3` (see :func:`storage_error`), so callers catch one set of types on both backends.
Migrations run under ``pg_advisory_xact_lock``: processes starting together apply each once.
"""

from __future__ import annotations

import functools
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage import (
    Changed,
    Database,
    Migration,
    MigrationError,
    Params,
    Queries,
    Row,
    Transaction,
    load_migrations,
    packaged_migrations,
)

MIGRATION_LOCK = 0x5011_7A12_E000_0001
"""The advisory lock key every process takes while it checks and applies migrations."""
POOL_SIZE = 8
"""Connections per process at most (PostgreSQL's default allows 100 in all)."""
SERVER_SETTINGS = {"lock_timeout": "1000"}
"""A statement waits at most 1 s for a row lock (like SQLite's busy_timeout): answers stay inside 3 s."""
_LOCKED = frozenset({"40001", "40P01", "55P03", "55006"})
"""serialization_failure, deadlock_detected, lock_not_available, object_in_use."""
_CONNECTION_LOST = frozenset({"57P01", "57P02", "57P03"})
"""admin_shutdown, crash_shutdown, cannot_connect_now (plus every class 08 connection exception)."""
_SCHEMA_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT             NOT NULL,
    applied_at DOUBLE PRECISION NOT NULL
)
"""


@functools.lru_cache(maxsize=2048)
def to_postgres(sql: str) -> str:
    """Turn ``?`` and ``?NNN`` placeholders into ``$n`` (quoted text and comments are left alone).

    >>> to_postgres("SELECT 'a?' FROM t WHERE a = ? AND b = ?")
    "SELECT 'a?' FROM t WHERE a = $1 AND b = $2"
    >>> to_postgres("UPDATE t SET a = ?1 WHERE ?1 IS NOT NULL AND b = ?2")
    'UPDATE t SET a = $1 WHERE $1 IS NOT NULL AND b = $2'
    """
    out: list[str] = []
    count, i, n = 0, 0, len(sql)
    while i < n:
        char = sql[i]
        if char in "'\"":
            end = sql.find(char, i + 1)
            while end != -1 and sql[end + 1 : end + 2] == char:  # a doubled quote inside
                end = sql.find(char, end + 2)
            end = n if end == -1 else end + 1
            out.append(sql[i:end])
            i = end
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end == -1 else end
            out.append(sql[i:end])
            i = end
        elif char == "?":
            j = i + 1
            while j < n and sql[j].isdigit():
                j += 1
            if j > i + 1:
                out.append("$" + sql[i + 1 : j])
            else:
                count += 1
                out.append(f"${count}")
            i = j
        else:
            out.append(char)
            i += 1
    return "".join(out)


def storage_error(error: BaseException) -> sqlite3.Error:
    """The DB-API error the bot handles for an asyncpg (or socket) error: locked, disk full, lost, refused."""
    state = getattr(error, "sqlstate", None) or ""
    detail = getattr(error, "detail", None)
    text = f"{error}" + (f" ({detail})" if detail else "")
    if isinstance(error, asyncpg.ClientConfigurationError):
        return sqlite3.OperationalError(f"the database URL is refused: {text}")
    if state in _LOCKED:
        return sqlite3.OperationalError(f"database is locked: {text}")
    if state == "53100":
        return sqlite3.OperationalError(f"database or disk is full: {text}")
    if state.startswith("08") or state in _CONNECTION_LOST or not isinstance(error, asyncpg.PostgresError):
        return sqlite3.OperationalError(f"database connection lost: {text or type(error).__name__}")
    if state.startswith("23"):
        constraint = getattr(error, "constraint_name", None)
        kind = "UNIQUE" if state == "23505" else "CHECK" if state == "23514" else "constraint"
        return sqlite3.IntegrityError(f"{kind} constraint failed: {constraint}: {text}")
    if state.startswith("53"):
        return sqlite3.OperationalError(f"database out of resources: {text}")
    return sqlite3.DatabaseError(text)


@contextmanager
def translated() -> Iterator[None]:
    """Raise asyncpg's errors (and a lost socket) as :func:`storage_error` gives them."""
    try:
        yield
    except (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError) as error:
        raise storage_error(error) from error


def _args(params: Params) -> Sequence[Any]:
    if isinstance(params, dict):
        raise TypeError("the PostgreSQL backend takes positional parameters (?), not named ones")
    return params


def _rowcount(status: str) -> int:
    """The row count of a command tag such as ``UPDATE 1`` or ``INSERT 0 3`` (-1 if it has none)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


async def _nothing_to_reset(connection: Any) -> None:
    """Skip the pool's reset query on release (one round trip per statement or transaction).

    The bot leaves no session state behind: no ``SET``, ``LISTEN``, open cursor or session-level
    advisory lock (its only lock is ``pg_advisory_xact_lock``). asyncpg still rolls back a
    transaction left open before the connection goes back to the pool.
    """


class PostgresQueries(Queries):
    """Statements on one asyncpg connection."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    async def _execute(self, sql: str, params: Params = ()) -> Changed:
        with translated():
            status = await self._connection.execute(to_postgres(sql), *_args(params))
        return Changed(_rowcount(str(status)), None)

    async def _executemany(self, sql: str, rows: Iterable[Params]) -> Changed:
        batch = [tuple(_args(row)) for row in rows]
        if batch:
            with translated():
                await self._connection.executemany(to_postgres(sql), batch)
        return Changed(-1, None)  # asyncpg gives no count for a batch

    async def _fetchone(self, sql: str, params: Params = ()) -> Row | None:
        with translated():
            row: Row | None = await self._connection.fetchrow(to_postgres(sql), *_args(params))
        return row

    async def _fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        with translated():
            rows: list[Row] = await self._connection.fetch(to_postgres(sql), *_args(params))
        return rows


class PostgresTransaction(PostgresQueries, Transaction):
    """The statements of one open PostgreSQL transaction (on the connection it holds)."""


class PostgresDatabase(Database):
    """An open PostgreSQL database (an asyncpg pool) with its migrations applied."""

    dialect = "postgres"
    clock = "CAST(extract(epoch FROM clock_timestamp()) AS DOUBLE PRECISION)"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        self._closed = False

    @classmethod
    async def open(
        cls, target: str | Path, *, migrations: Traversable | Path | None = None, pool_size: int = POOL_SIZE
    ) -> PostgresDatabase:
        """Connect to the URL ``target`` and apply pending migrations (the packaged PostgreSQL ones by default)."""
        with translated():
            pool = await asyncpg.create_pool(
                str(target),
                min_size=1,
                max_size=pool_size,
                server_settings=dict(SERVER_SETTINGS),
                reset=_nothing_to_reset,
                max_inactive_connection_lifetime=0,  # a few idle connections cost nothing; a reconnect costs a click
            )
        database = cls(pool, str(target))
        try:
            folder = migrations if migrations is not None else packaged_migrations("postgres")
            await database.migrate(load_migrations(folder))
        except BaseException:
            await pool.close()
            raise
        return database

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    async def close(self) -> None:
        """Wait for the connections in use to come back, then close them (safe to call twice)."""
        if self._closed:
            return
        self._closed = True
        await self._pool.close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[PostgresQueries]:
        with translated():
            async with self._pool.acquire() as connection:
                yield PostgresQueries(connection)

    # -- migrations ------------------------------------------------------------
    async def applied_migrations(self) -> list[int]:
        """The numbers of the migrations already applied, in order."""
        async with self._connection() as queries:
            found = await queries._fetchone("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")
            if found is None or not found["present"]:
                return []
            rows = await queries._fetchall("SELECT version FROM schema_migrations ORDER BY version")
        return [int(row["version"]) for row in rows]

    async def migrate(self, migrations: Sequence[Migration]) -> list[Migration]:
        """Apply the ``migrations`` not yet recorded, in order, each under the advisory lock; return those applied.

        :raises MigrationError: when one fails (it is rolled back; earlier ones stay).
        """
        done = set(await self.applied_migrations())  # the usual start: nothing pending, no lock taken
        applied = []
        for migration in sorted(migrations, key=lambda m: m.version):
            if migration.version not in done and await self._apply(migration):
                applied.append(migration)
        return applied

    async def _apply(self, migration: Migration) -> bool:
        """Apply one migration unless recorded (checked again under the lock, which another process may hold)."""
        async with self._connection() as queries:
            connection = queries._connection
            try:
                async with connection.transaction():
                    await connection.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                    await connection.execute(_SCHEMA_TABLE)
                    done = await connection.fetchval(
                        "SELECT count(*) FROM schema_migrations WHERE version = $1", migration.version
                    )
                    if done:
                        return False
                    await connection.execute(migration.sql)
                    await connection.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                        migration.version,
                        migration.name,
                        time.time(),
                    )
            except asyncpg.PostgresError as error:
                raise MigrationError(f"migration {migration.filename} failed: {error}") from error
        return True

    # -- statements -------------------------------------------------------------
    async def execute(self, sql: str, params: Params = ()) -> Changed:
        """Run one write statement (committed at once)."""
        async with self._connection() as queries:
            return await queries._execute(sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Return the first row of a query, or ``None``."""
        async with self._connection() as queries:
            return await queries._fetchone(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Return every row of a query."""
        async with self._connection() as queries:
            return await queries._fetchall(sql, params)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """Open a transaction on one connection: committed when the block ends, rolled back if it raises."""
        async with self._connection() as queries:
            with translated():
                async with queries._connection.transaction():
                    yield PostgresTransaction(queries._connection)
