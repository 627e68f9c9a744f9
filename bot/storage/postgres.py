"""The PostgreSQL backend: an asyncpg pool; a transaction holds one connection until it ends.

Statements are the storage modules' own texts: :func:`to_postgres` turns their ``?`` (and
``?NNN``) placeholders into ``$n`` once per text (cached); asyncpg then prepares and caches
each statement per connection. asyncpg's errors leave as the DB-API errors of
:mod:`sqlite3` (see :func:`storage_error`), so callers catch one set of types on both backends.
Migrations run under ``pg_advisory_xact_lock``: processes starting together apply each once.

A database that stops answering (a NAT that forgot the connection: packets vanish, no reset)
must not hang anyone: every statement or transaction has a deadline (:data:`TIMEOUT`, from
asking the pool for a connection to its end, kept by :class:`~bot.storage.deadlines.Deadlines`);
a connection cut short by it (or by any cancellation, such as ``/health``'s own timeout) is
**terminated**, never handed back to the pool. (asyncpg answers a cancelled query by sending a
cancel request on a new connection and waiting for the server's acknowledgement on the old one;
``Pool.release`` waits for that, shielded from cancellation and with no deadline of its own, so
through a blackhole the caller never came back.) The sockets keep TCP keepalives and a user
timeout (:func:`keep_alive`), so the kernel finds dead idle connections too, and a connection idle
for longer than :data:`IDLE_LIFETIME` is replaced before it is used. A commit cut off raises
:class:`~bot.storage.OutcomeUnknownError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import socket
import sqlite3
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
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
    OutcomeUnknownError,
    Params,
    Queries,
    Row,
    Transaction,
    load_migrations,
    packaged_migrations,
)
from bot.storage.deadlines import Deadlines, allowed

log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x5011_7A12_E000_0001
"""The advisory lock key every process takes while it checks and applies migrations."""
POOL_SIZE = 8
"""Connections per process at most (PostgreSQL's default allows 100 in all)."""
TIMEOUT = 2.0
"""Seconds a statement or a transaction may take, waiting for a connection included (then: not saved, try
again). A row lock is waited for 1 s at most; a save takes milliseconds (a burst of 200 saves queued for the
pool's 8 connections, about 1 s on this 2-core machine); a player's answer stays inside 3 s."""
CONNECT_TIMEOUT = 2.0
"""Seconds to open a connection (TCP, TLS, authentication) for the pool."""
CLOSE_TIMEOUT = 5.0
"""Seconds :meth:`PostgresDatabase.close` waits for the connections to close politely before cutting them."""
IDLE_LIFETIME = 300.0
"""Seconds a connection may have sat idle and still be used: an older one is replaced when next taken (a
NAT may have forgotten it; checked at use, so no timer is armed per statement)."""
KEEPALIVE_IDLE, KEEPALIVE_INTERVAL, KEEPALIVE_COUNT = 30, 10, 3
"""TCP keepalive: the first probe after 30 s of silence, then every 10 s; 3 unanswered probes end the connection
(a dead idle connection is found within 60 s; the probes also keep a NAT from forgetting a quiet one)."""
USER_TIMEOUT_MS = 10_000
"""TCP_USER_TIMEOUT: data the server has not acknowledged for 10 s ends the connection."""
SERVER_SETTINGS = {
    "lock_timeout": "1000",
    "idle_in_transaction_session_timeout": "10000",
    "tcp_keepalives_idle": str(KEEPALIVE_IDLE),
    "tcp_keepalives_interval": str(KEEPALIVE_INTERVAL),
    "tcp_keepalives_count": str(KEEPALIVE_COUNT),
    "tcp_user_timeout": str(USER_TIMEOUT_MS),
}
"""Per connection, on the server's side: a statement waits at most 1 s for a row lock (like SQLite's
busy_timeout); a transaction whose bot vanished mid-way is ended after 10 s idle (its row locks freed); the
server probes and times out the connection as the bot does. A setting in the URL's query wins over these."""
SETTLE_SECONDS = 0.3
"""At most this long to wait, after a commit's answer was lost, for the server to decide it (twice, at worst)."""
SETTLE_POLL = 0.01
_IN_TRANSACTION = "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state <> 'idle'"
"""Whether a server process still holds a transaction (running a statement, or idle inside one)."""
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


def storage_error(error: BaseException, *, committing: bool = False) -> sqlite3.Error:
    """The DB-API error the bot handles for an asyncpg (or socket) error: locked, disk full, lost, refused.

    ``committing``: the error cut a commit off; unless the server itself refused it, the outcome is unknown.
    """
    state = getattr(error, "sqlstate", None) or ""
    detail = getattr(error, "detail", None)
    text = f"{error}" + (f" ({detail})" if detail else "")
    if committing and _lost(error):
        return OutcomeUnknownError(f"database connection lost during the commit: {text or type(error).__name__}")
    if isinstance(error, TimeoutError):
        return sqlite3.OperationalError(f"database did not answer in time: {text or 'timeout'}")
    if isinstance(error, asyncpg.ClientConfigurationError):
        return sqlite3.OperationalError(f"the database URL is refused: {text}")
    if state in _LOCKED:
        return sqlite3.OperationalError(f"database is locked: {text}")
    if state == "53100":
        return sqlite3.OperationalError(f"database or disk is full: {text}")
    if _lost(error):
        return sqlite3.OperationalError(f"database connection lost: {text or type(error).__name__}")
    if state.startswith("23"):
        constraint = getattr(error, "constraint_name", None)
        kind = "UNIQUE" if state == "23505" else "CHECK" if state == "23514" else "constraint"
        return sqlite3.IntegrityError(f"{kind} constraint failed: {constraint}: {text}")
    if state.startswith("53"):
        return sqlite3.OperationalError(f"database out of resources: {text}")
    return sqlite3.DatabaseError(text)


_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)
"""What asyncpg raises (``OSError`` covers a lost socket and ``TimeoutError``)."""


def _lost(error: BaseException) -> bool:
    """Whether ``error`` means the connection is gone (not the server refusing a statement on a sound one)."""
    if not isinstance(error, asyncpg.PostgresError):
        return True
    state = getattr(error, "sqlstate", None) or ""
    return isinstance(error, asyncpg.PostgresConnectionError) or state.startswith("08") or state in _CONNECTION_LOST


@contextmanager
def translated(committing: Callable[[], bool] = lambda: False) -> Iterator[None]:
    """Raise asyncpg's errors (and a lost socket, a timeout) as :func:`storage_error` gives them."""
    try:
        yield
    except _DRIVER_ERRORS as error:
        raise storage_error(error, committing=committing()) from error


def _leaves_connection_sound(error: BaseException) -> bool:
    """Whether a connection can go back to the pool as is after ``error`` (the server answered, or no
    statement was running): not after a timeout, a cancellation or a lost socket."""
    cause = error.__cause__ if isinstance(error, sqlite3.Error) and error.__cause__ is not None else error
    if isinstance(cause, asyncpg.PostgresError):
        return not _lost(cause)
    return not isinstance(cause, (asyncio.CancelledError, *_DRIVER_ERRORS))


def keep_alive(sock: socket.socket) -> None:
    """Turn on TCP keepalives and the user timeout on a TCP socket (:data:`KEEPALIVE_IDLE` ...); others are left."""
    if sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    options = {
        "TCP_KEEPIDLE": KEEPALIVE_IDLE,
        "TCP_KEEPINTVL": KEEPALIVE_INTERVAL,
        "TCP_KEEPCNT": KEEPALIVE_COUNT,
        "TCP_USER_TIMEOUT": USER_TIMEOUT_MS,
    }
    for name, value in options.items():
        if hasattr(socket, name):  # Linux has all four; other systems some
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)


async def _prepare_connection(connection: asyncpg.Connection) -> None:
    """Set up a connection the pool has just opened: keepalives on its socket.

    asyncpg gives no public way to its socket (nor a socket factory); it keeps its transport as
    ``Connection._transport``, the asyncio transport whose ``socket`` it sets TCP_NODELAY on itself.
    """
    transport = getattr(connection, "_transport", None)
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        keep_alive(sock)


def _server_settings(url: str) -> dict[str, str]:
    """:data:`SERVER_SETTINGS` but those the URL's query sets itself (asyncpg would let ours win)."""
    query = urllib.parse.urlsplit(url).query
    given = {key for key, _ in urllib.parse.parse_qsl(query)} if query else set()
    return {key: value for key, value in SERVER_SETTINGS.items() if key not in given}


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

    async def _lock(self, name: str) -> None:
        """Take the advisory lock of ``name`` (a 64-bit hash of it), released when the transaction ends.

        At read committed, every statement after it reads what the previous holder committed.
        """
        await self._fetchone("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (name,))


def _cut(connection: asyncpg.Connection) -> None:
    """Terminate a connection at once (a lost one the pool took back already is left alone)."""
    with contextlib.suppress(asyncpg.InterfaceError):
        connection.terminate()


class _Held:
    """A connection held from the pool for one statement or transaction, and whether its commit is under way."""

    def __init__(self) -> None:
        self.connection: asyncpg.Connection | None = None
        self.pid = 0
        """Its server process (read at once: a lost connection may be taken back by the pool)."""
        self.committing = False


class PostgresDatabase(Database):
    """An open PostgreSQL database (an asyncpg pool) with its migrations applied."""

    dialect = "postgres"
    clock = "CAST(extract(epoch FROM clock_timestamp()) AS DOUBLE PRECISION)"

    def __init__(self, pool: asyncpg.Pool, url: str, *, timeout: float | None = TIMEOUT) -> None:
        self._pool = pool
        self.url = url
        self.timeout = timeout
        """Seconds each statement or transaction may take (``None``: no deadline, e.g. for a bulk load)."""
        self._deadlines = Deadlines()
        self._idle_since: dict[int, float] = {}
        """When each idle connection (by its server process id) was handed back."""
        self._closed = False

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        migrations: Traversable | Path | None = None,
        pool_size: int = POOL_SIZE,
        timeout: float | None = TIMEOUT,
    ) -> PostgresDatabase:
        """Connect to the URL ``target`` and apply pending migrations (the packaged PostgreSQL ones by default)."""
        with translated():
            pool = await asyncpg.create_pool(
                str(target),
                min_size=1,
                max_size=pool_size,
                server_settings=_server_settings(str(target)),
                reset=_nothing_to_reset,
                init=_prepare_connection,
                max_inactive_connection_lifetime=0,  # idle connections are replaced when next taken (_acquire)
                timeout=CONNECT_TIMEOUT,
            )
        database = cls(pool, str(target), timeout=timeout)
        try:
            folder = migrations if migrations is not None else packaged_migrations("postgres")
            await database.migrate(load_migrations(folder))
        except BaseException:
            pool.terminate()
            raise
        return database

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    async def close(self) -> None:
        """Wait for the connections in use to come back, then close them (safe to call twice).

        Connections that do not close within :data:`CLOSE_TIMEOUT` (a vanished server) are cut.
        """
        if self._closed:
            return
        self._closed = True
        await self._deadlines.close()
        try:
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await self._pool.close()
        except (TimeoutError, *_DRIVER_ERRORS) as error:
            log.warning("the database's connections did not close politely (%s): cut", error)
            self._pool.terminate()

    @asynccontextmanager
    async def _held(self, timeout: float | None) -> AsyncIterator[_Held]:
        """Hold a connection for one statement or transaction, all of it within ``timeout`` seconds.

        A connection the work was cut short on (timeout, cancellation, lost socket) is terminated,
        not handed back: its state is unknown, and asyncpg would wait for its cancellation forever.
        """
        held = _Held()
        sound = True
        try:
            with translated(lambda: held.committing), self._deadlines.within(allowed(timeout)):
                held.connection = await self._acquire()
                held.pid = held.connection.get_server_pid()
                yield held
        except BaseException as error:
            sound = _leaves_connection_sound(error)
            if held.connection is not None and not sound:
                _cut(held.connection)
                if isinstance(error, OutcomeUnknownError):
                    await self._settle(held.pid)
            raise
        finally:
            if held.connection is not None and sound:
                await self._release(held.connection)

    async def _settle(self, pid: int) -> None:
        """Wait until the server has decided the commit whose answer was lost: its transaction ended, or never will.

        The ``COMMIT`` may still be on its way to the server, or running there, when the client learns the
        connection died; a read made then could see the row as it was and call a landed write lost. So
        wait while the lost connection's server process still holds its transaction open (it ends it once
        the ``COMMIT`` arrives, or rolls back once it sees the connection closed), at most
        :data:`SETTLE_SECONDS`; one still holding it then is ended (a ``COMMIT`` that late never lands)
        and awaited as long again. Past that the caller's read-back decides, as before.
        """
        try:
            connection = await asyncio.wait_for(self._pool.acquire(), SETTLE_SECONDS)
        except (TimeoutError, *_DRIVER_ERRORS) as error:
            log.warning("the commit of a lost connection (pid %s) was not seen decided: %s", pid, error or "timeout")
            return
        settled = False
        try:
            if not await self._transaction_ends(connection, pid):
                await connection.execute("SELECT pg_terminate_backend($1)", pid)
                if not await self._transaction_ends(connection, pid):
                    log.warning("the commit of a lost connection (pid %s) was not seen decided in time", pid)
            settled = True
        except _DRIVER_ERRORS as error:
            log.warning("the commit of a lost connection (pid %s) was not seen decided: %s", pid, error)
        finally:
            if settled:
                await self._pool.release(connection)
            else:  # cut short: its state is unknown (see _held)
                _cut(connection)

    @staticmethod
    async def _transaction_ends(connection: asyncpg.Connection, pid: int) -> bool:
        """Whether server process ``pid`` holds no open transaction (idle, or gone) within :data:`SETTLE_SECONDS`."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while await connection.fetchval(_IN_TRANSACTION, pid):
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(SETTLE_POLL)
        return True

    async def _acquire(self) -> asyncpg.Connection:
        """A connection from the pool; one idle for longer than :data:`IDLE_LIFETIME` is replaced first."""
        while True:
            connection = await self._pool.acquire()
            idle_since = self._idle_since.pop(connection.get_server_pid(), None)
            if idle_since is None or time.monotonic() - idle_since <= IDLE_LIFETIME:
                return connection
            log.info("a database connection idle for %.0f s is replaced", time.monotonic() - idle_since)
            _cut(connection)

    async def _release(self, connection: asyncpg.Connection) -> None:
        """Hand a sound connection back to the pool, noting when it went idle."""
        pid = connection.get_server_pid()
        try:
            await self._pool.release(connection)
        except _DRIVER_ERRORS as error:
            log.warning("a database connection could not be handed back (%s): cut", error)
            _cut(connection)
            return
        if len(self._idle_since) > 4 * POOL_SIZE:  # connections closed while idle leave their entries
            self._idle_since.pop(next(iter(self._idle_since)))
        self._idle_since[pid] = time.monotonic()

    @asynccontextmanager
    async def _connection(self, timeout: float | None = None) -> AsyncIterator[PostgresQueries]:
        """A connection for a few statements within :attr:`timeout` (``timeout`` instead, when given)."""
        async with self._held(self.timeout if timeout is None else timeout) as held:
            assert held.connection is not None
            yield PostgresQueries(held.connection)

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
        async with self._held(None) as held:  # a migration (or the wait for another process's) takes its time
            assert held.connection is not None
            queries = PostgresQueries(held.connection)
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
        """Open a transaction on one connection: committed when the block ends, rolled back if it raises.

        :raises OutcomeUnknownError: the connection was lost (or the deadline passed) during the commit.
        """
        async with self._held(self.timeout) as held:
            connection = held.connection
            assert connection is not None
            transaction = connection.transaction()
            await transaction.start()
            try:
                yield PostgresTransaction(connection)
            except BaseException as error:
                if _leaves_connection_sound(error):  # else the connection is terminated: the server rolls back
                    await transaction.rollback()
                raise
            held.committing = True
            await transaction.commit()
            held.committing = False
