"""A consistent copy of the SQLite database while the bot runs (``solitaire-bot backup``): SQLite's online backup API.

The copy is made in one step of :meth:`sqlite3.Connection.backup`, inside one read transaction of
the source: it is the database as it stood at one moment, and in WAL mode the bot's writes go on
meanwhile (a reader never blocks a writer). It goes to a hidden temporary file beside the
destination, is checked (``PRAGMA quick_check``, and it must be the bot's database), switched to a
self-contained rollback journal, and only then linked into place under a name nothing has: a backup
that failed never leaves a file that looks whole, and a backup never overwrites a file.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Iterator
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


FOLDER_ENDINGS = ("/", os.sep)
"""A destination written with one of these at its end is a folder, whether or not it exists yet."""
SAME_SECOND_TRIES = 100
"""How many names a folder backup tries when others were made in the same second (``-2``, ``-3``, ...)."""


def names_a_folder(destination: str) -> bool:
    """Whether ``destination`` as typed is a folder: it ends with a slash.

    >>> names_a_folder("/var/backups/solitaire/"), names_a_folder("/var/backups/solitaire.db")
    (True, False)
    """
    return destination.endswith(FOLDER_ENDINGS)


def dated_names(now: datetime) -> Iterator[str]:
    """The file names a folder backup tries at ``now``: dated, then numbered within the same second.

    >>> from itertools import islice
    >>> list(islice(dated_names(datetime(2026, 11, 24, 14, 2, 5)), 2))
    ['solitaire-20261124-140205.db', 'solitaire-20261124-140205-2.db']
    """
    yield f"solitaire-{now:%Y%m%d-%H%M%S}.db"
    for number in range(2, SAME_SECOND_TRIES + 1):
        yield f"solitaire-{now:%Y%m%d-%H%M%S}-{number}.db"


def backup_targets(destination: Path, now: datetime, *, folder: bool = False) -> list[Path]:
    """The files a backup may write, first free one wins: ``destination`` itself, or dated files in it if a folder.

    :raises BackupError: ``folder`` was asked for and ``destination`` is a file.
    """
    if folder and destination.exists() and not destination.is_dir():
        raise BackupError(f"{str(destination)!r} is a file, not a folder: name another folder, or a new file")
    if folder or destination.is_dir():
        return [destination / name for name in dated_names(now)]
    return [destination]


def backup_sqlite(source: Path, destination: Path, *, now: datetime, folder: bool = False) -> Backup:
    """Copy the bot's SQLite database ``source`` to ``destination`` (a new file, or a folder for a dated one).

    ``folder``: ``destination`` is a folder even if it does not exist yet (it is created; its parent
    must exist). Backups made in the same second get numbered names; nothing is ever overwritten.

    :raises BackupError: no bot database at ``source``, ``destination`` exists or its folder does not,
        or the copy failed (nothing is left behind then).
    """
    if not source.is_file():
        raise BackupError(f"no SQLite database at {str(source)!r}")
    targets = backup_targets(destination, now, folder=folder)
    folder_path = targets[0].parent
    if len(targets) == 1 and targets[0].exists():
        raise BackupError(f"{str(targets[0])!r} exists: a backup never overwrites a file, choose a new name")
    if folder and not folder_path.is_dir() and folder_path.parent.is_dir():
        _make_folder(folder_path)
    if not folder_path.is_dir():
        raise BackupError(f"the folder {str(folder_path)!r} does not exist")
    try:
        partial = _partial_file(folder_path)
    except OSError as error:
        raise BackupError(f"cannot write in {str(folder_path)!r}: {error}") from error
    try:
        _copy(source, partial)
        target = _claim(partial, targets)
    except (sqlite3.Error, OSError) as error:
        raise BackupError(f"could not back up {str(source)!r}: {error}") from error
    finally:
        partial.unlink(missing_ok=True)
    return _describe(target)


def _make_folder(folder: Path) -> None:
    """Create the backup folder ``folder`` (its parent exists); :raises BackupError: when it cannot be."""
    try:
        folder.mkdir(exist_ok=True)
    except OSError as error:
        raise BackupError(f"cannot create the folder {str(folder)!r}: {error}") from error


def _partial_file(folder: Path) -> Path:
    """A new hidden file in ``folder`` for the copy in progress (unique, so two backups never share one)."""
    handle, name = tempfile.mkstemp(prefix=".solitaire-", suffix=".partial", dir=folder)
    os.close(handle)
    return Path(name)


def _claim(partial: Path, targets: list[Path]) -> Path:
    """Give the finished copy the first of ``targets`` that does not exist (a hard link: never overwrites)."""
    for target in targets:
        try:
            os.link(partial, target)
        except FileExistsError:
            continue
        return target
    raise BackupError(f"{str(targets[-1])!r} exists: a backup never overwrites a file, choose a new name")


def _copy(source: Path, partial: Path) -> None:
    """Copy ``source`` into the new file ``partial`` in one step, check it, and make it one self-contained file."""
    with closing(sqlite3.connect(source, timeout=BUSY_MS / 1000)) as reader:
        reader.execute("PRAGMA query_only = 1")
        with closing(sqlite3.connect(partial)) as copy:
            reader.backup(copy)
            verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"the copy failed its check: {verdict}")
            if "schema_migrations" not in _tables(copy):
                raise sqlite3.DatabaseError("it is not the bot's database (no schema_migrations table)")
            copy.execute("PRAGMA journal_mode = DELETE")  # no -wal beside it: the backup is one file


def _tables(connection: sqlite3.Connection) -> set[str]:
    """The names of the tables in ``connection``'s database."""
    return {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _describe(path: Path) -> Backup:
    """What the finished backup holds (read-only)."""
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as copy:
        tables = _tables(copy)
        schema = (
            copy.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
            if "schema_migrations" in tables
            else 0
        )
        games = copy.execute("SELECT count(*) FROM games").fetchone()[0] if "games" in tables else 0
    return Backup(path, path.stat().st_size, int(schema or 0), int(games))
