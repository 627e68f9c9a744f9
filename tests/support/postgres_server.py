"""A real PostgreSQL server for the tests: started once per session in a temporary folder, removed at the end.

``postgres_server`` (session scope) runs PostgreSQL 15's own ``initdb`` and ``pg_ctl``
(``PG_BIN``, default ``/usr/lib/postgresql/15/bin``) on 127.0.0.1 at a free port, with
its unix socket in the temporary folder. PostgreSQL refuses to run as root, so as root
the folder is handed to the ``postgres`` user (or ``nobody``) and the programs run as it.
``postgres_database`` creates a database per test module, and ``postgres_dsn`` an empty
schema in it per test (the URL sets ``search_path``, which asyncpg passes on to the server);
each is dropped afterwards. The URLs use TCP, user ``postgres``, no password (trust).

No binaries: the tests that use these fixtures are skipped, and say so. Binaries that
fail to start a server: those tests fail with the server's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

DEFAULT_BIN = Path("/usr/lib/postgresql/15/bin")
SUPERUSER = "postgres"
SERVER_SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "max_connections": "60",
    "shared_buffers": "'32MB'",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "log_min_messages": "warning",
}
"""Test-only settings: nothing here needs to survive a power cut, so no syncs."""
INITDB_FAST = ("--no-locale", "--no-sync", "--no-instructions")
RUN_AS_CANDIDATES = ("postgres", "nobody")


class PostgresStartError(RuntimeError):
    """The PostgreSQL binaries are there but did not give a running server (the message has its log)."""


def find_binaries(bin_dir: Path) -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or ``None`` when either is missing."""
    ok = all(os.access(bin_dir / name, os.X_OK) for name in ("initdb", "pg_ctl"))
    return bin_dir if ok else None


def require_binaries(bin_dir: Path) -> Path:
    """Return ``bin_dir`` if it has PostgreSQL's programs; else skip the test, saying why."""
    found = find_binaries(bin_dir)
    if found is None:
        pytest.skip(
            f"PostgreSQL binaries not found: no initdb/pg_ctl in {bin_dir} (install postgresql-15 or set PG_BIN)"
        )
    return found


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def unprivileged_user() -> pwd.struct_passwd | None:
    """The user to run PostgreSQL as: ``None`` (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in RUN_AS_CANDIDATES:
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise PostgresStartError(f"running as root and none of the users {RUN_AS_CANDIDATES} exists to run PostgreSQL")


@dataclass
class PostgresServer:
    """One throwaway PostgreSQL cluster: :meth:`start` it, :meth:`dsn` to reach it, :meth:`stop` to remove it."""

    bin_dir: Path
    port: int = 0
    root: Path | None = None
    user: pwd.struct_passwd | None = None
    settings: dict[str, str] = field(default_factory=dict)
    """Server settings over :data:`SERVER_SETTINGS` (benchmarks give more memory)."""
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def data_dir(self) -> Path:
        """The cluster's data folder."""
        assert self.root is not None, "the server is not started"
        return self.root / "data"

    @property
    def log_file(self) -> Path:
        """The server's log (read it when something fails)."""
        assert self.root is not None, "the server is not started"
        return self.root / "server.log"

    def dsn(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this server (TCP on 127.0.0.1, the trusted superuser)."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def next_name(self, prefix: str) -> str:
        """A database or schema name not used before in this session."""
        return f"{prefix}_{next(self._names)}"

    def start(self) -> None:
        """Create the cluster in a new temporary folder and start it; :raises PostgresStartError:."""
        self.user = unprivileged_user()
        self.root = Path(tempfile.mkdtemp(prefix="solitaire-pg-"))
        try:
            if self.user is not None:
                os.chown(self.root, self.user.pw_uid, self.user.pw_gid)
            self._run("initdb", "-D", str(self.data_dir), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", *INITDB_FAST)
            if not (self.data_dir / "PG_VERSION").exists():
                raise PostgresStartError(f"initdb made no cluster in {self.data_dir}")
            self.port = self.port or free_port()
            self._configure()
            self._run("pg_ctl", "-D", str(self.data_dir), "-l", str(self.log_file), "-w", "-t", "60", "start")
        except BaseException:
            self.stop()
            raise

    def _configure(self) -> None:
        settings = {
            **SERVER_SETTINGS,
            **self.settings,
            "port": str(self.port),
            "unix_socket_directories": f"'{self.root}'",
        }
        lines = "".join(f"{name} = {value}\n" for name, value in settings.items())
        with (self.data_dir / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write("\n# tests/support/postgres_server.py\n" + lines)

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        extra: dict[str, object] = {}
        if self.user is not None:
            extra = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8", "TZ": "UTC"}
        try:
            done = subprocess.run(
                command,
                cwd=self.root,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
                **extra,
            )
        except (OSError, subprocess.SubprocessError) as error:
            raise PostgresStartError(f"cannot run {command[0]}: {error}") from error
        if done.returncode != 0:
            raise PostgresStartError(
                f"{program} {' '.join(args[:1])} failed ({done.returncode}):\n{done.stdout}{done.stderr}{self._log()}"
            )

    def _log(self) -> str:
        if self.root is None or not self.log_file.exists():
            return ""
        return "\n--- server log ---\n" + self.log_file.read_text(encoding="utf-8", errors="replace")[-4000:]

    def stop(self) -> None:
        """Stop the server at once and remove its folder (safe to call twice, or after a failed start)."""
        if self.root is None:
            return
        if (self.data_dir / "postmaster.pid").exists():
            with contextlib.suppress(PostgresStartError):
                self._run("pg_ctl", "-D", str(self.data_dir), "-m", "immediate", "-w", "-t", "30", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A running PostgreSQL server for the whole test session (skipped, saying so, without the binaries)."""
    server = PostgresServer(require_binaries(Path(os.environ.get("PG_BIN", DEFAULT_BIN))))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _admin(dsn: str, *statements: str) -> None:
    """Run ``statements`` on ``dsn`` in a thread with its own event loop (the test's loop is left alone)."""
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(dsn)
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, run()).result()


@pytest.fixture(scope="module")
def postgres_database(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new database for one test module, dropped after it (``CREATE DATABASE`` takes 0.6-0.8 s here)."""
    name = postgres_server.next_name("db")
    _admin(postgres_server.dsn(), f'CREATE DATABASE "{name}"')
    try:
        yield postgres_server.dsn(name)
    finally:
        _admin(postgres_server.dsn(), f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_dsn(postgres_server: PostgresServer, postgres_database: str) -> Iterator[str]:
    """The URL of an empty schema for one test (``search_path`` set in the URL), dropped after the test."""
    schema = postgres_server.next_name("t")
    _admin(postgres_database, f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{postgres_database}?search_path={schema}"
    finally:
        _admin(postgres_database, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _migrate(dsn: str) -> str:
    """Apply the packaged PostgreSQL migrations at ``dsn`` (in a thread of its own); return the SQL that empties it.

    That SQL deletes every row but the migrations' and restarts every identity at 1, in a few ms
    (``TRUNCATE`` of the 17 tables takes 70-90 ms here: it makes new files for each).
    """
    from bot.storage import open_database

    async def run() -> str:
        db = await open_database(dsn)
        try:
            tables = await db.fetchall(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                " AND tablename <> 'schema_migrations' ORDER BY tablename"
            )
            identities = await db.fetchall(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND is_identity = 'YES' ORDER BY table_name"
            )
        finally:
            await db.close()
        deletes = "".join(f'DELETE FROM "{row["tablename"]}";' for row in tables)
        restarts = "".join(
            f"SELECT setval(pg_get_serial_sequence('\"{row['table_name']}\"', '{row['column_name']}'), 1, false);"
            for row in identities
        )
        # replica role: no foreign key checks (the order of the deletes does not matter), no user triggers
        return f"SET session_replication_role = replica;{deletes}{restarts}RESET session_replication_role;"

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, run()).result()


@pytest.fixture(scope="session")
def postgres_shared_database(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of one database for the session's migrated schemas (a database per module would cost 0.6-0.8 s each)."""
    name = postgres_server.next_name("shared")
    _admin(postgres_server.dsn(), f'CREATE DATABASE "{name}"')
    try:
        yield postgres_server.dsn(name)
    finally:
        _admin(postgres_server.dsn(), f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def postgres_migrated(postgres_server: PostgresServer, postgres_shared_database: str) -> Iterator[tuple[str, str]]:
    """A schema with every packaged migration applied, once per test module: its URL and the SQL that empties it."""
    schema = postgres_server.next_name("m")
    _admin(postgres_shared_database, f'CREATE SCHEMA "{schema}"')
    dsn = f"{postgres_shared_database}?search_path={schema}"
    try:
        yield dsn, _migrate(dsn)
    finally:
        _admin(postgres_shared_database, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def postgres_bot_dsn(postgres_migrated: tuple[str, str]) -> str:
    """The URL of a migrated schema whose tables are emptied before the test (identities restarted).

    Migrating a new schema per test costs 0.1-0.15 s here; emptying the module's one costs a few ms.
    """
    dsn, empty = postgres_migrated
    _admin(dsn, empty)
    return dsn
