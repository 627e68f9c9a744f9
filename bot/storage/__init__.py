"""The one storage package: one :class:`Database` interface, two backends, numbered migrations for each.

Every SQL statement of the bot lives in this package. :func:`open_database` (or
:meth:`Database.open`) picks the backend from its target: a file path (or ``":memory:"``)
opens SQLite (:mod:`bot.storage.sqlite`, the embedded default), a ``postgresql://`` URL
opens PostgreSQL (:mod:`bot.storage.postgres`, asyncpg, the ``postgres`` extra).

Storage modules write one SQL text for both: ``?`` (or ``?NNN``) placeholders, which the
PostgreSQL backend turns into ``$n``; ``INSERT ... ON CONFLICT`` instead of ``INSERT OR ...``;
``RETURNING`` instead of ``lastrowid``; ``CAST(? AS DOUBLE PRECISION)`` where a parameter's
type cannot be inferred. Both backends raise the standard library's DB-API errors
(:class:`sqlite3.Error` and its children, named here :data:`StorageError` and
:data:`ConstraintError` so callers need not know the backend): PostgreSQL's own errors are translated into them
(a lock or serialization failure reads "database is locked", disk full "database or disk is
full"), so the bot answers players the same way on either. A commit cut off by a lost connection
raises :class:`OutcomeUnknownError` (an ``OperationalError``): the write may have landed.

Migrations are the files ``migrations/V<NNN>__<name>.sql`` (SQLite) and
``migrations/postgres/V<NNN>__<name>.sql`` (the same numbers and names, in PostgreSQL's
dialect), applied in number order at start, each in its own transaction, and recorded in
``schema_migrations``.
"""

from __future__ import annotations

import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Protocol

__all__ = [
    "Changed",
    "ConstraintError",
    "Database",
    "Migration",
    "MigrationError",
    "OutcomeUnknownError",
    "Queries",
    "Row",
    "StorageError",
    "Transaction",
    "Write",
    "is_postgres_url",
    "load_migrations",
    "open_database",
    "packaged_migrations",
]

Params = Sequence[Any] | dict[str, Any]

StorageError = sqlite3.Error
"""A statement either backend refused (the DB-API base class; PostgreSQL's errors are translated into it)."""
ConstraintError = sqlite3.IntegrityError
"""A statement that broke a constraint (a unique index, a check), on either backend."""

_MIGRATION_NAME = re.compile(r"^V(?P<version>\d{3,})__(?P<name>[a-z0-9_]+)\.sql$")
_POSTGRES_SCHEMES = ("postgresql://", "postgres://")
POSTGRES_INSTALL = "./scripts/install-once -e '.[postgres]' (outside the project's folder: pip install '.[postgres]')"
"""How to install the PostgreSQL driver: the one instruction the README, ``.env.example`` and the error give."""


class OutcomeUnknownError(sqlite3.OperationalError):
    """The connection was lost (or timed out) while a commit was under way: the write may or may not be stored.

    Only what the database holds can tell: read it again before answering (the session manager does).
    """


class Row(Protocol):
    """What the fetch methods return (``sqlite3.Row`` or ``asyncpg.Record``): columns by name or position."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


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
    """What a write statement did (``lastrowid`` is SQLite's only: write ``RETURNING id`` instead)."""

    rowcount: int
    lastrowid: int | None


@dataclass(frozen=True)
class Write:
    """One statement of :meth:`Database.write_batch`, run once for each row of parameters in ``rows``."""

    sql: str
    rows: Sequence[Params]
    exactly_one: bool = False
    """A guard: unless this statement changes exactly one row, the whole batch is undone."""

    def __post_init__(self) -> None:
        if self.exactly_one and len(self.rows) != 1:
            raise ValueError(f"a guard runs once, with one row of parameters, not {len(self.rows)}")


class _GuardFailedError(Exception):
    """A guard of a batch failed: roll its transaction back."""


def packaged_migrations(dialect: str = "sqlite") -> Traversable:
    """The folder of the packaged migrations of ``dialect`` (``"sqlite"`` or ``"postgres"``)."""
    folder = resources.files(__name__).joinpath("migrations")
    return folder if dialect == "sqlite" else folder.joinpath(dialect)


def load_migrations(folder: Traversable | Path | None = None) -> list[Migration]:
    """Read the ``V<NNN>__<name>.sql`` files of ``folder`` (default: the packaged SQLite ones) in order.

    :raises MigrationError: for a ``.sql`` file with a bad name or two files with one number.
    """
    source = folder if folder is not None else packaged_migrations()
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


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database (a ``postgresql://`` URL) rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(_POSTGRES_SCHEMES)


class Queries(ABC):
    """Statements on one connection; each backend implements these four."""

    @abstractmethod
    async def _execute(self, sql: str, params: Params = ()) -> Changed: ...

    @abstractmethod
    async def _executemany(self, sql: str, rows: Iterable[Params]) -> Changed: ...

    @abstractmethod
    async def _fetchone(self, sql: str, params: Params = ()) -> Row | None: ...

    @abstractmethod
    async def _fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...


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

    async def lock(self, name: str) -> None:
        """Hold the lock ``name`` until the transaction ends: another transaction locking it waits until then.

        What is read after it is what the last holder committed, so a read and the write that follows it are one
        step for every holder (two processes included).
        """
        await self._lock(name)

    @abstractmethod
    async def _lock(self, name: str) -> None: ...


class Database(ABC):
    """An open database with its migrations applied: SQLite or PostgreSQL, the same statements on both.

    Use :meth:`open` (or :func:`open_database`) to get one and :meth:`close` when done. Single
    statements (:meth:`execute`, :meth:`fetchone`, ...) run on their own; group writes that
    must land together in :meth:`transaction`.
    """

    dialect: str
    """``"sqlite"`` or ``"postgres"``."""
    clock: str
    """A SQL expression for the database's own time in unix seconds (one clock for every process using it)."""

    @classmethod
    async def open(cls, target: str | Path, *, migrations: Traversable | Path | None = None) -> Database:
        """Open ``target`` (a SQLite path, ``":memory:"``, or a ``postgresql://`` URL) and apply pending migrations."""
        return await open_database(target, migrations=migrations)

    @property
    @abstractmethod
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""

    @abstractmethod
    async def close(self) -> None:
        """Wait for running statements, then close (safe to call twice)."""

    @abstractmethod
    async def applied_migrations(self) -> list[int]:
        """The numbers of the migrations already applied, in order."""

    @abstractmethod
    async def migrate(self, migrations: Sequence[Migration]) -> list[Migration]:
        """Apply the ``migrations`` not yet recorded, in order; return those applied.

        :raises MigrationError: when one fails (it is rolled back; earlier ones stay).
        """

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> Changed:
        """Run one write statement (committed at once)."""

    async def executemany(self, sql: str, rows: Iterable[Params]) -> Changed:
        """Run one statement for each row of parameters, all in one transaction."""
        async with self.transaction() as tx:
            return await tx.executemany(sql, rows)

    @abstractmethod
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Return the first row of a query, or ``None``."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Return every row of a query."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """Open a write transaction: committed when the block ends, rolled back if it raises."""

    async def write_batch(self, writes: Sequence[Write]) -> list[Changed] | None:
        """Run ``writes`` in order in one transaction; ``None``, with nothing written, when a guard fails.

        A backend may run the whole batch in one round trip (SQLite does: one hop to its thread).
        """
        try:
            async with self.transaction() as tx:
                done = []
                for write in writes:
                    if len(write.rows) == 1:
                        changed = await tx.execute(write.sql, write.rows[0])
                    else:
                        changed = await tx.executemany(write.sql, write.rows)
                    if write.exactly_one and changed.rowcount != 1:
                        raise _GuardFailedError
                    done.append(changed)
                return done
        except _GuardFailedError:
            return None


async def open_database(target: str | Path, *, migrations: Traversable | Path | None = None) -> Database:
    """Open a SQLite file (a path or ``":memory:"``) or a PostgreSQL database (a ``postgresql://`` URL).

    ``migrations`` replaces the packaged folder of the backend's dialect (tests use it).
    """
    if is_postgres_url(target):
        try:
            from bot.storage.postgres import PostgresDatabase
        except ModuleNotFoundError as error:
            raise sqlite3.OperationalError(
                f"PostgreSQL needs the asyncpg driver ({error}): install the postgres extra: {POSTGRES_INSTALL}"
            ) from error

        return await PostgresDatabase.open(str(target), migrations=migrations)
    from bot.storage.sqlite import SqliteDatabase

    return await SqliteDatabase.open(target, migrations=migrations)
