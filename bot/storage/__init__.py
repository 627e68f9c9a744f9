"""The one storage package: an aiosqlite connection in WAL mode and its numbered migrations.

Every SQL statement of the bot lives in this package. :class:`Database` serialises
access to its single connection with an :class:`asyncio.Lock`, so a transaction
opened by one coroutine never picks up another coroutine's statements.
Migrations are the files ``migrations/V<NNN>__<name>.sql``, applied in number order
at start, each in its own transaction, and recorded in ``schema_migrations``.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import aiosqlite

__all__ = ["Changed", "Database", "Migration", "MigrationError", "Queries", "Row", "load_migrations"]

Row = sqlite3.Row
"""What the fetch methods return: columns by name (``row["score"]``) or position."""

Params = Sequence[Any] | dict[str, Any]

_MIGRATION_NAME = re.compile(r"^V(?P<version>\d{3,})__(?P<name>[a-z0-9_]+)\.sql$")
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


class MigrationError(RuntimeError):
    """A migration file is misnamed, duplicated, or failed to apply."""


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str

    @property
    def filename(self) -> str:
        """The file name it came from, e.g. ``V001__games.sql``."""
        return f"V{self.version:03d}__{self.name}.sql"


@dataclass(frozen=True)
class Changed:
    """What a write statement did."""

    rowcount: int
    lastrowid: int | None


def load_migrations(folder: Traversable | Path | None = None) -> list[Migration]:
    """Read the ``V<NNN>__<name>.sql`` files of ``folder`` (default: the packaged ones) in order.

    :raises MigrationError: for a ``.sql`` file with a bad name or two files with one number.
    """
    source = folder if folder is not None else resources.files(__name__).joinpath("migrations")
    found: dict[int, Migration] = {}
    for entry in source.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            raise MigrationError(f"bad migration file name {entry.name!r}: use V<NNN>__<name>.sql")
        version = int(match["version"])
        if version in found:
            raise MigrationError(f"two migrations numbered {version}: {found[version].filename} and {entry.name}")
        found[version] = Migration(version, match["name"], entry.read_text(encoding="utf-8"))
    return [found[version] for version in sorted(found)]


class Queries:
    """Statements on a connection; :class:`Database` and its transactions share these."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def _execute(self, sql: str, params: Params = ()) -> Changed:
        cursor = await self._connection.execute(sql, params)
        try:
            return Changed(cursor.rowcount, cursor.lastrowid)
        finally:
            await cursor.close()

    async def _executemany(self, sql: str, rows: Iterable[Params]) -> Changed:
        cursor = await self._connection.executemany(sql, rows)
        try:
            return Changed(cursor.rowcount, cursor.lastrowid)
        finally:
            await cursor.close()

    async def _fetchone(self, sql: str, params: Params = ()) -> Row | None:
        cursor = await self._connection.execute(sql, params)
        try:
            row: Row | None = await cursor.fetchone()
            return row
        finally:
            await cursor.close()

    async def _fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        cursor = await self._connection.execute(sql, params)
        try:
            return list(await cursor.fetchall())
        finally:
            await cursor.close()


class Transaction(Queries):
    """The statements of one open transaction (from :meth:`Database.transaction`)."""

    async def execute(self, sql: str, params: Params = ()) -> Changed:
        """Run one write statement inside the transaction."""
        return await self._execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> Changed:
        """Run one statement for each row of parameters inside the transaction."""
        return await self._executemany(sql, rows)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Return the first row of a query inside the transaction, or ``None``."""
        return await self._fetchone(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Return every row of a query inside the transaction."""
        return await self._fetchall(sql, params)


class Database(Queries):
    """An open SQLite database (aiosqlite, WAL mode) with its migrations applied.

    Use :meth:`open` to get one and :meth:`close` when done. Single statements
    (:meth:`execute`, :meth:`fetchone`, ...) run on their own; group writes that
    must land together in :meth:`transaction`.
    """

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        super().__init__(connection)
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(cls, path: str | Path, *, migrations: Traversable | Path | None = None) -> Database:
        """Connect to ``path`` (``":memory:"`` works), switch to WAL and apply pending migrations."""
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = sqlite3.Row
        database = cls(connection, str(path))
        try:
            for pragma in _PRAGMAS:
                await database._fetchall(pragma)
            await database.migrate(load_migrations(migrations))
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

    async def executemany(self, sql: str, rows: Iterable[Params]) -> Changed:
        """Run one statement for each row of parameters, all in one transaction."""
        async with self.transaction() as tx:
            return await tx.executemany(sql, rows)

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
            await self._execute("BEGIN IMMEDIATE")
            try:
                yield Transaction(self._connection)
            except BaseException:
                await self._connection.rollback()
                raise
            await self._connection.commit()
