"""What only the PostgreSQL backend has: its migration folder, placeholders, error translation, the migration lock.

Everything the two backends share runs on both through the ``backend`` fixture (tests/conftest.py);
these tests need the real server of tests/support/postgres_server.py (skipped, saying so, without its binaries).
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot import errors
from bot.play.saving import _refusal
from bot.runtime.settings import load_settings
from bot.storage import Database, load_migrations, open_database, packaged_migrations
from bot.storage.postgres import PostgresDatabase, storage_error, to_postgres
from bot.storage.sqlite import SqliteDatabase


def test_both_backends_have_the_same_numbered_migrations():
    sqlite = [(m.version, m.name) for m in load_migrations(packaged_migrations("sqlite"))]
    postgres = [(m.version, m.name) for m in load_migrations(packaged_migrations("postgres"))]
    assert sqlite == postgres
    versions = [version for version, _ in sqlite]
    # Numbers are reserved per change while several are made in parallel, so a branch may skip some:
    # they only have to start at 1 and go up (load_migrations refuses a number used twice).
    assert versions[0] == 1 and versions == sorted(versions)


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT ? , ?", "SELECT $1 , $2"),
        ("SELECT '?', \"a?\" -- ?\n, ?", "SELECT '?', \"a?\" -- ?\n, $1"),
        ("SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1"),
        ("UPDATE t SET a = ?1 WHERE ?1 IS NOT NULL AND b = ?2", "UPDATE t SET a = $1 WHERE $1 IS NOT NULL AND b = $2"),
    ],
)
def test_placeholders_become_numbered_outside_quotes_and_comments(sql: str, expected: str):
    assert to_postgres(sql) == expected


@pytest.mark.parametrize(
    ("error", "kind", "words", "answer"),
    [
        (
            asyncpg.DiskFullError("could not extend file"),
            sqlite3.OperationalError,
            "disk is full",
            errors.NotSavedError,
        ),
        (asyncpg.SerializationError("could not serialize"), sqlite3.OperationalError, "locked", errors.BusyError),
        (asyncpg.DeadlockDetectedError("deadlock detected"), sqlite3.OperationalError, "locked", errors.BusyError),
        (asyncpg.LockNotAvailableError("lock timeout"), sqlite3.OperationalError, "locked", errors.BusyError),
        (asyncpg.AdminShutdownError("terminating"), sqlite3.OperationalError, "connection lost", errors.NotSavedError),
        (
            asyncpg.ConnectionDoesNotExistError("closed"),
            sqlite3.OperationalError,
            "connection lost",
            errors.NotSavedError,
        ),
        (ConnectionRefusedError(111, "refused"), sqlite3.OperationalError, "connection lost", errors.NotSavedError),
        (asyncpg.UniqueViolationError("duplicate key"), sqlite3.IntegrityError, "UNIQUE", errors.NotSavedError),
        (asyncpg.UndefinedTableError("no such table"), sqlite3.DatabaseError, "no such table", errors.NotSavedError),
    ],
)
def test_postgres_errors_become_the_storage_errors_the_bot_answers(error, kind, words, answer):
    translated = storage_error(error)
    assert type(translated) is kind and words in str(translated)
    refusal = _refusal(translated, "Your move")
    assert type(refusal) is answer


def test_database_url_is_checked_and_its_password_never_shown(tmp_path: Path):
    settings = load_settings(
        _env_file=None, discord_token="t", database_url="postgresql://bot:s3cret@db.example:5432/solitaire"
    )
    assert settings.database_target == "postgresql://bot:s3cret@db.example:5432/solitaire"
    assert "s3cret" not in settings.database_label and "db.example:5432/solitaire" in settings.database_label
    plain = load_settings(_env_file=None, discord_token="t", database_path=tmp_path / "x.db", database_url=" ")
    assert plain.database_target == tmp_path / "x.db"
    with pytest.raises(Exception, match="DATABASE_URL is invalid"):
        load_settings(_env_file=None, discord_token="t", database_url="mysql://localhost/x")


async def test_the_url_picks_the_backend(tmp_path: Path, postgres_dsn: str):
    for target, kind in [(tmp_path / "a.db", SqliteDatabase), (postgres_dsn, PostgresDatabase)]:
        db = await open_database(target)
        try:
            assert isinstance(db, kind) and isinstance(db, Database)
        finally:
            await db.close()


async def test_processes_starting_together_apply_each_migration_once(postgres_dsn: str):
    opened = await asyncio.gather(*(open_database(postgres_dsn) for _ in range(3)))
    try:
        rows = await opened[0].fetchall("SELECT version FROM schema_migrations ORDER BY version")
        assert [row["version"] for row in rows] == [m.version for m in load_migrations(packaged_migrations("postgres"))]
    finally:
        for db in opened:
            await db.close()


async def test_a_write_waiting_on_a_lock_gives_up_within_a_second_as_busy(postgres_dsn: str):
    db = await open_database(postgres_dsn)
    other = await asyncpg.connect(postgres_dsn)
    try:
        await db.execute("INSERT INTO secrets (name, value) VALUES ('k', 'v')")
        async with other.transaction():
            await other.execute("SELECT * FROM secrets FOR UPDATE")
            loop = asyncio.get_running_loop()
            began = loop.time()
            with pytest.raises(sqlite3.OperationalError, match="locked") as caught:
                await db.execute("UPDATE secrets SET value = 'w' WHERE name = 'k'")
            assert loop.time() - began < 2.0
        assert isinstance(_refusal(caught.value, "Your move"), errors.BusyError)
        row = await db.fetchone("SELECT value FROM secrets WHERE name = 'k'")
        assert row is not None and row["value"] == "v"
    finally:
        await other.close()
        await db.close()


async def test_a_lost_connection_is_a_storage_error_and_a_later_statement_reconnects(postgres_dsn: str):
    db = await open_database(postgres_dsn)
    admin = await asyncpg.connect(postgres_dsn)
    try:
        assert (await db.fetchone("SELECT 1"))[0] == 1
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        # The pool may notice the closed socket first (and connect again), else the statement fails: as a
        # storage error the bot answers ("not saved"), never as asyncpg's own.
        failures: list[BaseException] = []
        for _ in range(2):
            try:
                await db.execute("INSERT INTO secrets (name, value) VALUES ('a', 'b') ON CONFLICT DO NOTHING")
            except Exception as error:
                failures.append(error)
        assert len(failures) <= 1 and all(isinstance(f, sqlite3.OperationalError) for f in failures), failures
        assert (await db.fetchone("SELECT value FROM secrets WHERE name = 'a'"))["value"] == "b"
    finally:
        await admin.close()
        await db.close()
