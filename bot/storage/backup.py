"""A consistent copy of the SQLite database while the bot runs (``solitaire-bot backup``): SQLite's online backup API.

The copy is made in one step of :meth:`sqlite3.Connection.backup`, inside one read transaction of
the source: it is the database as it stood at one moment, and in WAL mode the bot's writes go on
meanwhile (a reader never blocks a writer). It goes to a hidden temporary file beside the
destination, is checked (``PRAGMA quick_check``), switched to a self-contained rollback journal,
and only then renamed into place: a backup that failed never leaves a file that looks whole.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

BUSY_MS = 10_000
"""How long the copy waits for a writer's lock (the bot's writes take milliseconds)."""


class BackupError(Exception):
    """The backup could not be made; the message is one line saying why."""


@dataclass(frozen=True)
class Backup:
    """A finished backup: where it is and what it holds."""

    path: Path
    size: int
    """Bytes in the file."""
    schema: int
    """The newest migration applied in it (0: none)."""
    games: int


def backup_target(destination: Path, now: datetime) -> Path:
    """The file to write: ``destination`` itself, or a dated file in it if it is a folder.

    >>> backup_target(Path("/"), datetime(2026, 11, 24, 14, 2, 5)).name
    'solitaire-20261124-140205.db'
    """
    if destination.is_dir():
        return destination / f"solitaire-{now:%Y%m%d-%H%M%S}.db"
    return destination


def backup_sqlite(source: Path, destination: Path, *, now: datetime) -> Backup:
    """Copy the SQLite database ``source`` to ``destination`` (a new file, or a folder for a dated one).

    :raises BackupError: no database at ``source``, ``destination`` exists or its folder does not,
        or the copy failed (nothing is left behind then).
    """
    if not source.is_file():
        raise BackupError(f"no SQLite database at {str(source)!r}")
    target = backup_target(destination, now)
    if target.exists():
        raise BackupError(f"{str(target)!r} exists: a backup never overwrites a file, choose a new name")
    if not target.parent.is_dir():
        raise BackupError(f"the folder {str(target.parent)!r} does not exist")
    partial = target.with_name(f".{target.name}.partial")
    try:
        _copy(source, partial)
        os.replace(partial, target)
    except (sqlite3.Error, OSError) as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"could not back up {str(source)!r}: {error}") from error
    return _describe(target)


def _copy(source: Path, partial: Path) -> None:
    """Copy ``source`` into the new file ``partial`` in one step, check it, and make it one self-contained file."""
    with closing(sqlite3.connect(source, timeout=BUSY_MS / 1000)) as reader:
        reader.execute("PRAGMA query_only = 1")
        with closing(sqlite3.connect(partial)) as copy:
            reader.backup(copy)
            verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"the copy failed its check: {verdict}")
            copy.execute("PRAGMA journal_mode = DELETE")  # no -wal beside it: the backup is one file


def _describe(path: Path) -> Backup:
    """What the finished backup holds (read-only)."""
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as copy:
        tables = {row[0] for row in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        schema = (
            copy.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
            if "schema_migrations" in tables
            else 0
        )
        games = copy.execute("SELECT count(*) FROM games").fetchone()[0] if "games" in tables else 0
    return Backup(path, path.stat().st_size, int(schema or 0), int(games))
