"""Storage that fails on cue: the n-th write statement raises the error a full or locked disk gives."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

import pytest

from bot.storage import Changed, OutcomeUnknownError, Params, Queries, Row
from bot.storage import games as games_db
from bot.storage import sqlite as sqlite_backend
from bot.storage.postgres import PostgresQueries

DISK_FULL = "database or disk is full"
LOCKED = "database is locked"
WRITES = ("INSERT", "UPDATE", "DELETE")


class WriteFaults:
    """Counts the write statements of every :class:`Database` (either backend) and makes chosen ones raise.

    A failure inside a batch (:meth:`Database.write_batch`) raises where that statement runs, so the
    batch is rolled back as a real failure would roll it back.

    ``fail(at=n)`` makes the n-th write from now (on ``tables``) raise ``sqlite3.OperationalError``: the
    error type both backends raise for a refused write (PostgreSQL's own errors are translated into it).
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch, tables: Iterable[str] = ("games", "game_moves")) -> None:
        self.tables = tuple(tables)
        self.writes = 0
        self._fail_at: int | None = None
        self._message = DISK_FULL
        self.raised = 0
        self._hook(monkeypatch, PostgresQueries)
        self._hook_sqlite(monkeypatch)

    def _hook_sqlite(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """SQLite runs each statement, and each whole batch, as a function on its connection's thread: hook those."""
        faults = self
        for name in ("_changed", "_changed_many", "_first"):
            statement = getattr(sqlite_backend, name)

            def checked(connection: sqlite3.Connection, sql: str, params: Any, _statement: Any = statement) -> Any:
                faults.check(sql)
                return _statement(connection, sql, params)

            monkeypatch.setattr(sqlite_backend, name, checked)

    def _hook(self, monkeypatch: pytest.MonkeyPatch, backend: type[Queries]) -> None:
        execute, executemany, fetchone = backend._execute, backend._executemany, backend._fetchone
        faults = self

        async def _execute(self: Queries, sql: str, params: Params = ()) -> Changed:
            faults.check(sql)
            return await execute(self, sql, params)

        async def _executemany(self: Queries, sql: str, rows: Iterable[Params]) -> Changed:
            faults.check(sql)
            return await executemany(self, sql, rows)

        async def _fetchone(self: Queries, sql: str, params: Params = ()) -> Row | None:
            faults.check(sql)  # INSERT ... RETURNING
            return await fetchone(self, sql, params)

        monkeypatch.setattr(backend, "_execute", _execute)
        monkeypatch.setattr(backend, "_executemany", _executemany)
        monkeypatch.setattr(backend, "_fetchone", _fetchone)

    def fail(self, message: str = DISK_FULL, *, at: int = 1) -> None:
        """Make the ``at``-th write from now raise ``OperationalError(message)`` (once)."""
        self._fail_at = self.writes + at
        self._message = message

    def check(self, sql: str) -> None:
        """Count ``sql`` if it writes a game table; raise if it is the one chosen."""
        words = sql.split()
        if not words or words[0].upper() not in WRITES or not any(f" {t} " in f" {sql} " for t in self.tables):
            return
        self.writes += 1
        if self.writes == self._fail_at:
            self._fail_at = None
            self.raised += 1
            raise sqlite3.OperationalError(self._message)


class LostAnswers:
    """Storage calls whose answer is lost on cue (the connection died during the commit), on either backend.

    ``lose(name, landed=True)`` makes the next call of ``bot.storage.games.<name>`` run for real and then
    raise :class:`OutcomeUnknownError`, as a commit that reached the database would; ``landed=False``
    raises it without running (the commit never arrived). ``unreadable(times)`` makes the next reads of a
    game (``get_game``) fail, as a database still out of reach would.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._lost: dict[str, bool] = {}
        self._unreadable = 0
        self.lost = 0
        for name in ("save_progress", "finish_game", "get_game"):
            self._hook(monkeypatch, name)

    def _hook(self, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
        real = getattr(games_db, name)
        faults = self

        async def call(*args: Any, **kwargs: Any) -> Any:
            if name == "get_game" and faults._unreadable:
                faults._unreadable -= 1
                raise sqlite3.OperationalError("database connection lost: unreadable on cue")
            landed = faults._lost.pop(name, None)
            if landed is None:
                return await real(*args, **kwargs)
            faults.lost += 1
            if landed:
                await real(*args, **kwargs)
            raise OutcomeUnknownError("database connection lost during the commit: on cue")

        monkeypatch.setattr(games_db, name, call)

    def lose(self, name: str, *, landed: bool = True) -> None:
        """Lose the answer of the next ``games_db.<name>`` call (after it ran, if ``landed``)."""
        self._lost[name] = landed

    def unreadable(self, times: int = 1) -> None:
        """Make the next ``times`` reads of a game fail."""
        self._unreadable = times
