import sqlite3
from pathlib import Path

import pytest

from bot.storage import Database, MigrationError, load_migrations


async def test_open_applies_migrations_once(empty_database_target: str | Path):
    db = await Database.open(empty_database_target)
    try:
        assert await db.applied_migrations() == [m.version for m in load_migrations()]
        if db.dialect == "sqlite":
            row = await db.fetchone("PRAGMA journal_mode")
            assert row is not None and row[0] == "wal"
    finally:
        await db.close()
    again = await Database.open(empty_database_target)
    try:
        assert await again.migrate(load_migrations()) == []
    finally:
        await again.close()


async def test_migrations_apply_in_number_order(tmp_path: Path, empty_database_target: str | Path):
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "V002__more.sql").write_text("ALTER TABLE t ADD COLUMN b INTEGER;")
    (folder / "V001__first.sql").write_text("CREATE TABLE t (a INTEGER);")
    db = await Database.open(empty_database_target, migrations=folder)
    try:
        assert await db.applied_migrations() == [1, 2]
        await db.execute("INSERT INTO t (a, b) VALUES (1, 2)")
        assert [tuple(r) for r in await db.fetchall("SELECT a, b FROM t")] == [(1, 2)]
    finally:
        await db.close()


async def test_failed_migration_rolls_back_and_says_which(tmp_path: Path, empty_database_target: str | Path):
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "V001__ok.sql").write_text("CREATE TABLE t (a INTEGER);")
    (folder / "V002__bad.sql").write_text("CREATE TABLE u (a INTEGER); INSERT INTO nowhere VALUES (1);")
    with pytest.raises(MigrationError, match="V002__bad.sql"):
        await Database.open(empty_database_target, migrations=folder)
    (folder / "V002__bad.sql").unlink()
    db = await Database.open(empty_database_target, migrations=folder)
    try:
        assert await db.applied_migrations() == [1]
        with pytest.raises(sqlite3.Error):  # u was rolled back with the failed migration
            await db.fetchall("SELECT a FROM u")
    finally:
        await db.close()


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["V1__x.sql"], "bad migration file name"),
        (["V001__a.sql", "V001__b.sql"], "two migrations numbered 1"),
        (["V001__Bad-Name.sql"], "bad migration file name"),
    ],
)
def test_bad_migration_files_are_refused(tmp_path: Path, names: list[str], message: str):
    for name in names:
        (tmp_path / name).write_text("SELECT 1;")
    with pytest.raises(MigrationError, match=message):
        load_migrations(tmp_path)


async def test_transaction_rolls_back_on_error(database_target: str | Path):
    db = await Database.open(database_target)
    try:
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, state, status, started_at,"
                    " deadline) VALUES (1, 1, 1, 'draw3', 'casual', '{}', 'playing', 0, 300)"
                )
                raise RuntimeError("boom")
        row = await db.fetchone("SELECT COUNT(*) FROM games")
        assert row is not None and row[0] == 0
    finally:
        await db.close()
