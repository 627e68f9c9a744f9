"""The SQLite backend (the default): one aiosqlite connection in WAL mode, serialised by an asyncio lock.

A transaction opened by one coroutine never picks up another coroutine's statements: every
statement, and every transaction as a whole, holds the lock.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
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
    "PRAGMA busy_timeout = 1000",  # a write waits at most 1 s for another process: answers stay inside 3 s
    "PRAGMA journal_mode = WAL",  # first: switching a new file to WAL may meet another process doing it
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
)
THREAD_STOP_WAIT = 5.0
"""Seconds to wait for aiosqlite's thread to stop after a failed connection."""
THREAD_POLL = 0.005
"""Seconds between two looks at whether that thread stopped (its last answer needs the event loop)."""
START_WAIT = 60.0
"""Seconds a starting process keeps retrying while another one holds the file's write lock (its migrations)."""
_RETRY_PAUSE = 0.05
_TABLE = ("schema_migrations",)
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
        done = _writes(connection, writes)
    except BaseException:
        connection.rollback()
        raise
    if done is None:
        connection.rollback()
        return None
    connection.commit()
    return done


def _batches(
    connection: sqlite3.Connection, group: Sequence[Sequence[Write]]
) -> list[list[Changed] | Exception | None]:
    """Run several :meth:`Database.write_batch` calls in one transaction, each in a savepoint of its own.

    Each gets what it alone would have: its changes, ``None`` (its guard failed: it is undone, the others
    stay) or the error one of its statements raised (likewise undone). A failed BEGIN or COMMIT raises:
    then none of them was written.
    """
    connection.execute("BEGIN IMMEDIATE")
    try:
        results: list[list[Changed] | Exception | None] = []
        for writes in group:
            connection.execute("SAVEPOINT batch")
            done: list[Changed] | Exception | None
            try:
                done = _writes(connection, writes)
            except Exception as error:  # this batch's own failure: undone, handed to its caller
                if not connection.in_transaction:  # SQLite undid the whole transaction (a full disk): none stands
                    raise
                connection.execute("ROLLBACK TO batch")
                done = error
            if done is None:
                connection.execute("ROLLBACK TO batch")
            connection.execute("RELEASE batch")
            results.append(done)
    except BaseException:
        connection.rollback()
        raise
    connection.commit()
    return results


def _writes(connection: sqlite3.Connection, writes: Sequence[Write]) -> list[Changed] | None:
    """Run one batch's statements in the open transaction; ``None`` as soon as a guard fails."""
    done = []
    for write in writes:
        if len(write.rows) == 1:
            changed = _changed(connection, write.sql, write.rows[0])
        else:
            changed = _changed_many(connection, write.sql, write.rows)
        if write.exactly_one and changed.rowcount != 1:
            return None
        done.append(changed)
    return done


def statements(script: str) -> Iterator[str]:
    r"""The statements of a SQL script, each whole as SQLite reads it (a trigger's ``BEGIN ... END;`` included).

    >>> list(statements("CREATE TABLE t (a); -- a; comment\nCREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT 1; END;"))
    ['CREATE TABLE t (a);', ' -- a; comment\nCREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT 1; END;']
    """
    buffer = ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if _code(buffer):
                yield buffer
            buffer = ""


def _code(statement: str) -> str:
    """A statement without its comment lines and semicolons (empty: nothing to run, e.g. a comment then ``;``)."""
    return "\n".join(line for line in statement.splitlines() if not line.lstrip().startswith("--")).strip(" \n;")


def _apply(connection: sqlite3.Connection, migration: Migration, applied_at: float) -> bool:
    """Apply one migration under the file's write lock unless recorded, checked inside the same transaction.

    Another process may have applied it since this one looked: ``BEGIN IMMEDIATE`` takes the
    write lock first, so the check and the migration see (and make) one state.
    """
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.execute(_SCHEMA_TABLE)
        found = connection.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,))
        if found.fetchone() is not None:
            connection.rollback()
            return False
        for statement in statements(migration.sql):
            connection.execute(statement).close()
        connection.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.name, applied_at),
        ).close()
    except BaseException:
        connection.rollback()
        raise
    connection.commit()
    return True


def _is_locked(error: sqlite3.Error) -> bool:
    """Whether ``error`` says another connection holds the lock (worth waiting for at start)."""
    text = str(error).lower()
    return "locked" in text or "busy" in text


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

    async def _lock(self, name: str) -> None:
        """Nothing more to take: ``BEGIN IMMEDIATE`` holds the database's one write lock for the whole transaction
        (other processes' writers wait for it; this process's, for the connection's lock)."""


class SqliteDatabase(SqliteQueries, Database):
    """An open SQLite database (aiosqlite, WAL mode) with its migrations applied."""

    dialect = "sqlite"
    clock = "((julianday('now') - 2440587.5) * 86400.0)"

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        super().__init__(connection)
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False
        self._waiting: list[tuple[Sequence[Write], asyncio.Future[list[Changed] | None]]] = []
        """Batches waiting for the next group commit, each with its caller's answer."""
        self._commits: set[asyncio.Task[None]] = set()
        """Group commits under way (held here: the loop keeps only a weak reference to a task)."""

    @classmethod
    async def open(cls, target: str | Path, *, migrations: Traversable | Path | None = None) -> SqliteDatabase:
        """Connect to ``target`` (``":memory:"`` works), switch to WAL and apply pending migrations."""
        connection = await _connect(str(target))
        connection.row_factory = sqlite3.Row
        database = cls(connection, str(target))
        try:
            for pragma in _PRAGMAS:
                await database._patiently(functools.partial(_every, sql=pragma, params=()))
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

    async def _patiently(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` under the lock, again while another process holds the file (at most :data:`START_WAIT` s)."""
        deadline = time.monotonic() + START_WAIT
        while True:
            try:
                async with self._lock:
                    return await self._call(work)
            except sqlite3.OperationalError as error:
                if not _is_locked(error) or time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(_RETRY_PAUSE)

    # -- migrations ------------------------------------------------------------
    async def applied_migrations(self) -> list[int]:
        """The numbers of the migrations already applied, in order (none while ``schema_migrations`` is missing)."""
        async with self._lock:
            present = await self._fetchone("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", _TABLE)
            rows = await self._fetchall("SELECT version FROM schema_migrations ORDER BY version") if present else []
        return [int(row["version"]) for row in rows]

    async def migrate(self, migrations: Sequence[Migration]) -> list[Migration]:
        """Apply the ``migrations`` not yet recorded, in order; return those applied.

        Safe for processes starting together on one file: each migration is checked again, and
        applied, under the file's write lock (a process waits up to :data:`START_WAIT` s for another's).

        :raises MigrationError: when one fails (it is rolled back; earlier ones stay).
        """
        done = set(await self.applied_migrations())  # the usual start: nothing pending, no write lock taken
        applied = []
        for migration in sorted(migrations, key=lambda m: m.version):
            if migration.version not in done and await self._apply(migration):
                applied.append(migration)
        return applied

    async def _apply(self, migration: Migration) -> bool:
        """Apply one migration unless another process did first; ``False`` if it was already recorded."""
        try:
            return await self._patiently(lambda connection: _apply(connection, migration, time.time()))
        except sqlite3.Error as error:
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
        """Run ``writes`` in order in one transaction; ``None``, with nothing written, when a guard fails.

        BEGIN to COMMIT in one hop to the connection's thread: at once while the connection is free;
        batches asked for while it is busy are committed together in the next hop, each in a savepoint
        of its own (:func:`_batches`). Each caller is answered only once the commit holding its batch is done.
        """
        if not self._waiting and not self._lock.locked():  # free: taken at once (no other task, no wait)
            async with self._lock:
                return await self._call(lambda connection: _batch(connection, writes))
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[list[Changed] | None] = loop.create_future()
        self._waiting.append((writes, answer))
        if len(self._waiting) == 1:  # the first of a group: its commit waits for the connection
            commit = loop.create_task(self._commit_group(), name="sqlite-group-commit")
            self._commits.add(commit)
            commit.add_done_callback(self._commits.discard)
        return await answer

    async def _commit_group(self) -> None:
        """Commit every batch waiting once the connection is free, and answer each of their callers."""
        async with self._lock:
            group, self._waiting = self._waiting, []
            batches = [writes for writes, _ in group]
            try:
                if len(batches) == 1:
                    results: list[list[Changed] | Exception | None] = [
                        await self._call(lambda connection: _batch(connection, batches[0]))
                    ]
                else:
                    results = await self._call(lambda connection: _batches(connection, batches))
            except BaseException as error:  # BEGIN or COMMIT failed: none of them was written
                for _, answer in group:
                    if answer.done():
                        continue
                    if isinstance(error, asyncio.CancelledError):
                        answer.cancel()
                    else:
                        answer.set_exception(error)
                if not isinstance(error, Exception):
                    raise
                return
        for (_, answer), result in zip(group, results, strict=True):
            if answer.done():  # its caller gave up waiting: the batch stands, as any write that reached the thread
                continue
            if isinstance(result, Exception):
                answer.set_exception(result)
            else:
                answer.set_result(result)


async def _connect(target: str) -> aiosqlite.Connection:
    """Connect to the SQLite file ``target``; if that fails, wait for aiosqlite's thread to stop.

    The thread would otherwise answer after the event loop closed, and print a traceback of its own.
    """
    connection = aiosqlite.connect(target, isolation_level=None)
    try:
        return await connection
    except BaseException:
        deadline = time.monotonic() + THREAD_STOP_WAIT
        while connection._thread.is_alive() and time.monotonic() < deadline:
            await asyncio.sleep(THREAD_POLL)
        raise
