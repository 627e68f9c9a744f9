"""``solitaire-bot backup``: a consistent copy of the SQLite database while something writes to it."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from datetime import datetime
from pathlib import Path

import pytest

from bot.storage import load_migrations, open_database
from bot.storage.backup import BackupError, backup_sqlite
from tests.support.bot_command import run

NOW = datetime(2026, 11, 24, 14, 2, 5)
LATEST = max(migration.version for migration in load_migrations())


@pytest.fixture
async def database(tmp_path: Path) -> Path:
    """A migrated SQLite file (as the bot leaves it: WAL mode) with a scratch table to write to."""
    path = tmp_path / "solitaire.db"
    db = await open_database(path)
    await db.execute("CREATE TABLE scratch (n INTEGER NOT NULL)")
    await db.close()
    return path


def count(path: Path, table: str = "scratch") -> int:
    with closing(sqlite3.connect(path)) as connection:
        return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


async def test_a_backup_while_another_connection_writes_is_a_whole_checked_database(database, tmp_path):
    stop = threading.Event()

    def write() -> None:
        with closing(sqlite3.connect(database, timeout=10)) as connection:
            while not stop.is_set():
                with connection:  # one transaction per batch of rows, like the bot's saves
                    connection.executemany("INSERT INTO scratch (n) VALUES (?)", [(n,) for n in range(50)])

    writer = threading.Thread(target=write)
    writer.start()
    try:
        copies = [backup_sqlite(database, tmp_path / f"copy{i}.db", now=NOW) for i in range(5)]
    finally:
        stop.set()
        writer.join()
    sizes = [count(copy.path) for copy in copies]
    assert all(size % 50 == 0 for size in sizes)  # whole transactions only: a moment of the database
    assert sizes == sorted(sizes) and sizes[-1] <= count(database)
    for copy in copies:
        assert copy.schema == LATEST and copy.games == 0 and copy.size == copy.path.stat().st_size
        with closing(sqlite3.connect(copy.path)) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
    restored = await open_database(copies[-1].path)  # the bot opens a restored copy as it is: nothing to migrate
    try:
        assert await restored.applied_migrations() == [m.version for m in load_migrations()]
    finally:
        await restored.close()


async def test_a_folder_gets_a_dated_file_and_backups_in_the_same_second_get_numbered_ones(database, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "mine.db").write_text("a file of the admin's")
    paths = [backup_sqlite(database, folder, now=NOW).path for _ in range(3)]
    assert [path.name for path in paths] == [
        "solitaire-20261124-140205.db",
        "solitaire-20261124-140205-2.db",
        "solitaire-20261124-140205-3.db",
    ]
    assert sorted(path.name for path in folder.iterdir()) == sorted([*(path.name for path in paths), "mine.db"])
    assert (folder / "mine.db").read_text() == "a file of the admin's"
    with pytest.raises(BackupError, match="exists: a backup never overwrites a file"):
        backup_sqlite(database, folder / "mine.db", now=NOW)


@pytest.mark.processes
async def test_a_destination_ending_in_a_slash_is_a_folder_created_once_and_reused(database, tmp_path):
    for _ in range(2):  # a nightly job: the second run finds the folder the first made
        done = run(tmp_path, "backup", "bk/", DATABASE_PATH=str(database))
        assert done.returncode == 0 and " to bk/solitaire-20" in done.stdout, done.stderr
    assert (tmp_path / "bk").is_dir() and len(list((tmp_path / "bk").glob("solitaire-*.db"))) == 2
    assert not list((tmp_path / "bk").glob(".*"))


async def test_a_folder_destination_that_is_a_file_or_deep_in_missing_folders_is_refused(database, tmp_path):
    (tmp_path / "bk").write_text("")
    with pytest.raises(BackupError, match="'.*bk' is a file, not a folder"):
        backup_sqlite(database, tmp_path / "bk", now=NOW, folder=True)
    with pytest.raises(BackupError, match="the folder '.*no/such' does not exist"):
        backup_sqlite(database, tmp_path / "no" / "such", now=NOW, folder=True)
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize(
    ("source", "destination", "words"),
    [
        ("missing.db", "copy.db", "no SQLite database at"),
        ("solitaire.db", "no/such/folder/copy.db", "does not exist"),
        ("text.db", "copy.db", "could not back up"),
        ("empty.db", "copy.db", "not the bot's database"),
        ("other.db", "copy.db", "not the bot's database"),
    ],
)
async def test_a_backup_that_cannot_be_made_says_why_and_leaves_nothing(database, tmp_path, source, destination, words):
    (tmp_path / "text.db").write_text("not a database, only text long enough to look like a file header" * 20)
    (tmp_path / "empty.db").write_bytes(b"")
    with closing(sqlite3.connect(tmp_path / "other.db")) as other:
        other.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(BackupError, match=words):
        backup_sqlite(tmp_path / source, tmp_path / destination, now=NOW)
    assert not (tmp_path / "copy.db").exists() and not list(tmp_path.glob(".*.partial"))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["empty.db", "other.db", "solitaire.db", "text.db"]


@pytest.mark.processes
async def test_the_command_copies_database_path_without_a_token(database, tmp_path):
    done = run(tmp_path, "backup", "copy.db", DATABASE_PATH=str(database))
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.startswith(f"backed up {database} to copy.db: ")
        and f"migrations up to V{LATEST:03d}" in done.stdout
    )
    assert count(tmp_path / "copy.db") == 0


@pytest.mark.processes
async def test_the_command_refuses_in_one_line(database, tmp_path):
    refused = run(tmp_path, "backup", "copy.db", DATABASE_URL="postgresql://solitaire:secret@localhost/solitaire")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("error: DATABASE_URL is set: the data is in PostgreSQL, back it up with pg_dump")
    again = run(tmp_path, "backup", str(database), "--database", str(database))
    assert again.returncode == 2 and "a backup never overwrites a file" in again.stderr
