"""Storage that fails on cue: the n-th write statement raises the error a full or locked disk gives."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

import pytest

from bot.storage import Changed, Params, Queries, Row
from bot.storage.postgres import PostgresQueries
from bot.storage.sqlite import SqliteQueries

DISK_FULL = "database or disk is full"
LOCKED = "database is locked"
WRITES = ("INSERT", "UPDATE", "DELETE")


class WriteFaults:
    """Counts the write statements of every :class:`Database` (either backend) and makes chosen ones raise.

    ``fail(at=n)`` makes the n-th write from now (on ``tables``) raise ``sqlite3.OperationalError``: the
    error type both backends raise for a refused write (PostgreSQL's own errors are translated into it).
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch, tables: Iterable[str] = ("games", "game_moves")) -> None:
        self.tables = tuple(tables)
        self.writes = 0
        self._fail_at: int | None = None
        self._message = DISK_FULL
        self.raised = 0
        for backend in (SqliteQueries, PostgresQueries):
            self._hook(monkeypatch, backend)

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
