"""SQLite's group commit: batches asked for together are committed in one hop, each as if alone.

Each caller learns its own outcome (written, its guard missed, its statement refused) and is answered only
once the commit holding its batch is done: a save answered is on disk for any other connection to read.
"""

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import ConstraintError, Write
from bot.storage.sqlite import SqliteDatabase, SqliteQueries


async def open_scratch(path: Path) -> SqliteDatabase:
    db = await SqliteDatabase.open(path)
    await db.execute("CREATE TABLE batch_t (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
    await db.execute("INSERT INTO batch_t (k, v) VALUES (1, 0)")
    return db


def rows_on_disk(path: Path) -> list[tuple[int, int]]:
    """The table as another connection (another process) reads it: committed rows only."""
    with sqlite3.connect(path) as other:
        return [tuple(row) for row in other.execute("SELECT k, v FROM batch_t ORDER BY k")]


def insert(key: int, value: int) -> list[Write]:
    return [Write("INSERT INTO batch_t (k, v) VALUES (?, ?)", [(key, value)])]


def count_hops(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the calls run on the connection's thread."""
    hops: list[int] = []
    call = SqliteQueries._call

    async def counted(self, work):  # type: ignore[no-untyped-def]
        hops.append(1)
        return await call(self, work)

    monkeypatch.setattr(SqliteQueries, "_call", counted)
    return hops


async def test_batches_asked_together_are_committed_in_one_hop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    db = await open_scratch(tmp_path / "group.db")
    try:
        hops = count_hops(monkeypatch)
        results = await asyncio.gather(*(db.write_batch(insert(key, key * 10)) for key in (2, 3, 4, 5, 6)))
        assert [result is not None and result[0].rowcount for result in results] == [1, 1, 1, 1, 1]
        assert len(hops) == 2  # the first at once, alone; one BEGIN ... COMMIT for the four asked meanwhile
        assert rows_on_disk(tmp_path / "group.db") == [(1, 0), (2, 20), (3, 30), (4, 40), (5, 50), (6, 60)]
    finally:
        await db.close()


async def test_a_guard_that_misses_undoes_only_its_own_batch(tmp_path: Path):
    db = await open_scratch(tmp_path / "group.db")
    try:
        missed = [*insert(6, 60), Write("UPDATE batch_t SET v = 9 WHERE k = ?", [(404,)], exactly_one=True)]
        bump = [Write("UPDATE batch_t SET v = v + 1 WHERE k = ?", [(1,)], exactly_one=True)]
        results = await asyncio.gather(db.write_batch(insert(2, 20)), db.write_batch(missed), db.write_batch(bump))
        assert results[0] is not None and results[1] is None and results[2] is not None
        assert rows_on_disk(tmp_path / "group.db") == [(1, 1), (2, 20)]  # 6 undone with its missed guard
    finally:
        await db.close()


async def test_a_statement_refused_fails_only_its_own_caller(tmp_path: Path):
    db = await open_scratch(tmp_path / "group.db")
    try:
        duplicate = [*insert(7, 70), Write("INSERT INTO batch_t (k, v) VALUES (?, ?)", [(1, 5)])]
        results = await asyncio.gather(
            db.write_batch(insert(2, 20)),
            db.write_batch(duplicate),
            db.write_batch(insert(3, 30)),
            return_exceptions=True,
        )
        assert isinstance(results[1], ConstraintError)
        assert results[0] is not None and results[2] is not None
        assert rows_on_disk(tmp_path / "group.db") == [(1, 0), (2, 20), (3, 30)]
        assert await db.write_batch(insert(8, 80)) is not None  # the connection is usable afterwards
    finally:
        await db.close()


async def test_each_caller_is_answered_only_once_its_batch_is_committed(tmp_path: Path):
    db = await open_scratch(tmp_path / "group.db")
    try:
        missing: list[int] = []

        async def save(key: int) -> None:
            await db.write_batch(insert(key, key))
            if key not in {k for k, _ in rows_on_disk(tmp_path / "group.db")}:
                missing.append(key)

        await asyncio.gather(*(save(key) for key in (2, 3, 4)))
        assert missing == []
    finally:
        await db.close()


async def test_a_commit_that_fails_answers_every_caller_and_writes_nothing(tmp_path: Path):
    db = await open_scratch(tmp_path / "group.db")
    holder = sqlite3.connect(tmp_path / "group.db", isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock past the bot's 1 s wait
        results = await asyncio.gather(
            db.write_batch(insert(2, 20)), db.write_batch(insert(3, 30)), return_exceptions=True
        )
        assert all(isinstance(result, sqlite3.OperationalError) and "locked" in str(result) for result in results)
        holder.execute("ROLLBACK")
        assert rows_on_disk(tmp_path / "group.db") == [(1, 0)]
        assert await db.write_batch(insert(4, 40)) is not None
    finally:
        holder.close()
        await db.close()


async def test_batches_asked_while_a_commit_runs_go_in_the_next_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    db = await open_scratch(tmp_path / "group.db")
    try:
        hops = count_hops(monkeypatch)
        assert await db.write_batch(insert(9, 90)) is not None  # alone on a free connection: one hop, no group
        assert len(hops) == 1
        hops.clear()
        first = asyncio.ensure_future(db.write_batch(insert(2, 20)))
        await asyncio.sleep(0)  # its commit is under way
        later = [asyncio.ensure_future(db.write_batch(insert(key, key))) for key in (3, 4, 5)]
        assert await first is not None
        assert all(result is not None for result in await asyncio.gather(*later))
        assert len(hops) == 2
    finally:
        await db.close()
