"""The SQLite backend (the default): one aiosqlite connection in WAL mode, serialised by an asyncio lock.

A transaction opened by one coroutine never picks up another coroutine's statements: every
statement, and every transaction as a whole, holds the lock.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TypeVar, cast

import aiosqlite

from bot.storage import (
    Changed,
    Database,
    Migration,
    MigrationError,
    Params,
    Queries,
    Row,
    Transaction,
    Write,
    load_migrations,
    packaged_migrations,
)

_T = TypeVar("_T")
_PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 1000",  # a write waits at most 1 s for another process: answers stay inside 3 s
)
_SCHEMA_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at REAL    NOT NULL
)
"""


def _changed(connection: sqlite3.Connection, sql: str, params: Params) -> Changed:
    cursor = connection.execute(sql, params)
    try:
        return Changed(cursor.rowcount, cursor.lastrowid)
    finally:
        cursor.close()


def _changed_many(connection: sqlite3.Connection, sql: str, rows: Iterable[Params]) -> Changed:
    cursor = connection.executemany(sql, rows)
    try:
        return Changed(cursor.rowcount, cursor.lastrowid)
    finally:
        cursor.close()


def _first(connection: sqlite3.Connection, sql: str, params: Params) -> Row | None:
    cursor = connection.execute(sql, params)
    try:
        row: sqlite3.Row | None = cursor.fetchone()
        return row
    finally:
        cursor.close()


def _every(connection: sqlite3.Connection, sql: str, params: Params) -> list[Row]:
    cursor = connection.execute(sql, params)
    try:
        return list(cursor.fetchall())
    finally:
        cursor.close()


def _batch(connection: sqlite3.Connection, writes: Sequence[Write]) -> list[Changed] | None:
    """Run a whole :meth:`Database.write_batch` on the connection's thread: BEGIN to COMMIT in one call."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        done = []
        for write in writes:
            if len(write.rows) == 1:
                changed = _changed(connection, write.sql, write.rows[0])
            else:
                changed = _changed_many(connection, write.sql, write.rows)
            if write.exactly_one and changed.rowcount != 1:
                connection.rollback()
                return None
            done.append(changed)
    except BaseException:
        connection.rollback()
        raise
    connection.commit()
    return done


class SqliteQueries(Queries):
    """Statements on an aiosqlite connection, each in one hop to the connection's thread.

    aiosqlite's cursor methods take two or three hops per statement (execute, fetch, close), and
    every hop waits for a turn of the event loop: under load that multiplies the time a write
    holds the lock. Each statement here is one function run on aiosqlite's thread instead.
    """

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def _call(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` on the connection's own thread (aiosqlite's queue) and wait for its result."""
        connection = self._connection
        enqueue = cast(Callable[[Callable[[], _T]], Awaitable[_T]], connection._execute)  # aiosqlite leaves it untyped
        return await enqueue(lambda: work(connection._conn))

    async def _execute(self, sql: str, params: Params = ()) -> Changed:
        return await self._call(lambda connection: _changed(connection, sql, params))

    async def _executemany(self, sql: str, rows: Iterable[Params]) -> Changed:
        return await self._call(lambda connection: _changed_many(connection, sql, rows))

    async def _fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await self._call(lambda connection: _first(connection, sql, params))

    async def _fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._call(lambda connection: _every(connection, sql, params))


class SqliteTransaction(SqliteQueries, Transaction):
    """The statements of one open SQLite transaction."""


class SqliteDatabase(SqliteQueries, Database):
    """An open SQLite database (aiosqlite, WAL mode) with its migrations applied."""

    dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        super().__init__(connection)
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(cls, target: str | Path, *, migrations: Traversable | Path | None = None) -> SqliteDatabase:
        """Connect to ``target`` (``":memory:"`` works), switch to WAL and apply pending migrations."""
        connection = await aiosqlite.connect(str(target), isolation_level=None)
        connection.row_factory = sqlite3.Row
        database = cls(connection, str(target))
        try:
            for pragma in _PRAGMAS:
                await database._fetchall(pragma)
            await database.migrate(load_migrations(migrations if migrations is not None else packaged_migrations()))
        except BaseException:
            await connection.close()
            raise
        return database

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    async def close(self) -> None:
        """Wait for running statements, then close the connection (safe to call twice)."""
        if self._closed:
            return
        async with self._lock:
            self._closed = True
            await self._connection.close()

    # -- migrations ------------------------------------------------------------
    async def applied_migrations(self) -> list[int]:
        """The numbers of the migrations already applied, in order."""
        async with self._lock:
            await self._execute(_SCHEMA_TABLE)
            rows = await self._fetchall("SELECT version FROM schema_migrations ORDER BY version")
        return [int(row["version"]) for row in rows]

    async def migrate(self, migrations: Sequence[Migration]) -> list[Migration]:
        """Apply the ``migrations`` not yet recorded, in order; return those applied.

        :raises MigrationError: when one fails (it is rolled back; earlier ones stay).
        """
        done = set(await self.applied_migrations())
        applied = []
        for migration in sorted(migrations, key=lambda m: m.version):
            if migration.version in done:
                continue
            await self._apply(migration)
            applied.append(migration)
        return applied

    async def _apply(self, migration: Migration) -> None:
        script = (
            f"BEGIN IMMEDIATE;\n{migration.sql}\n;\n"
            "INSERT INTO schema_migrations (version, name, applied_at) "
            f"VALUES ({migration.version:d}, '{migration.name}', {time.time()!r});\n"
            "COMMIT;"
        )
        async with self._lock:
            try:
                await self._connection.executescript(script)
            except sqlite3.Error as error:
                if self._connection.in_transaction:
                    await self._connection.rollback()
                raise MigrationError(f"migration {migration.filename} failed: {error}") from error

    # -- statements -------------------------------------------------------------
    async def execute(self, sql: str, params: Params = ()) -> Changed:
        """Run one write statement (committed at once)."""
        async with self._lock:
            return await self._execute(sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Return the first row of a query, or ``None``."""
        async with self._lock:
            return await self._fetchone(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Return every row of a query."""
        async with self._lock:
            return await self._fetchall(sql, params)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """Open a write transaction: committed when the block ends, rolled back if it raises."""
        async with self._lock:
            await self._call(lambda connection: connection.execute("BEGIN IMMEDIATE").close())
            try:
                yield SqliteTransaction(self._connection)
            except BaseException:
                await self._call(lambda connection: connection.rollback())
                raise
            await self._call(lambda connection: connection.commit())

    async def write_batch(self, writes: Sequence[Write]) -> list[Changed] | None:
        """Run ``writes`` in order in one transaction, BEGIN to COMMIT in one hop to the connection's thread;
        ``None``, with nothing written, when a guard fails."""
        async with self._lock:
            return await self._call(lambda connection: _batch(connection, writes))
