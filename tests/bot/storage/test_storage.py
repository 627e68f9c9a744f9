import sqlite3
from pathlib import Path

import pytest

from bot.storage import ConstraintError, Database, MigrationError, Write, load_migrations


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


async def _scratch_table(db: Database) -> None:
    await db.execute("DROP TABLE IF EXISTS batch_t")  # PostgreSQL's test schema outlives one test
    await db.execute("CREATE TABLE batch_t (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
    await db.execute("INSERT INTO batch_t (k, v) VALUES (1, 0)")


async def _rows(db: Database) -> list[tuple[int, int]]:
    return [(row[0], row[1]) for row in await db.fetchall("SELECT k, v FROM batch_t ORDER BY k")]


async def test_write_batch_runs_every_statement_in_one_transaction(database_target: str | Path):
    db = await Database.open(database_target)
    try:
        await _scratch_table(db)
        bump = Write("UPDATE batch_t SET v = v + 1 WHERE k = ?", [(1,)], exactly_one=True)
        more = Write("INSERT INTO batch_t (k, v) VALUES (?, ?)", [(2, 20), (3, 30)])
        changed = await db.write_batch([bump, more])
        assert changed is not None and changed[0].rowcount == 1
        assert await _rows(db) == [(1, 1), (2, 20), (3, 30)]
    finally:
        await db.close()


async def test_write_batch_guard_that_misses_writes_nothing(database_target: str | Path):
    db = await Database.open(database_target)
    try:
        await _scratch_table(db)
        first = Write("INSERT INTO batch_t (k, v) VALUES (?, ?)", [(5, 50)])
        missed = Write("UPDATE batch_t SET v = 9 WHERE k = ?", [(404,)], exactly_one=True)
        assert await db.write_batch([first, missed, first]) is None
        assert await _rows(db) == [(1, 0)]  # the insert before the guard was undone too
    finally:
        await db.close()


async def test_write_batch_statement_that_fails_undoes_the_batch(database_target: str | Path):
    db = await Database.open(database_target)
    try:
        await _scratch_table(db)
        bump = Write("UPDATE batch_t SET v = v + 1 WHERE k = ?", [(1,)])
        duplicate = Write("INSERT INTO batch_t (k, v) VALUES (?, ?)", [(7, 1), (7, 2)])
        with pytest.raises(ConstraintError):
            await db.write_batch([bump, duplicate])
        assert await _rows(db) == [(1, 0)]
        assert await db.write_batch([bump]) is not None  # the connection is usable afterwards
        assert await _rows(db) == [(1, 1)]
    finally:
        await db.close()


def test_a_guard_takes_one_row_of_parameters():
    with pytest.raises(ValueError, match="one row of parameters, not 2"):
        Write("UPDATE batch_t SET v = 1 WHERE k = ?", [(1,), (2,)], exactly_one=True)


def test_sqlite_migrations_run_statement_by_statement_build_the_same_schema_as_a_script():
    """A migration runs one statement at a time inside the transaction that checked it was not applied yet."""
    from bot.storage.sqlite import statements

    scripted, split = sqlite3.connect(":memory:"), sqlite3.connect(":memory:", isolation_level=None)
    for migration in load_migrations():
        scripted.executescript(migration.sql)
        split.execute("BEGIN IMMEDIATE")
        for statement in statements(migration.sql):
            split.execute(statement)
        split.execute("COMMIT")
    schema = "SELECT type, name, sql FROM sqlite_schema ORDER BY type, name"
    assert scripted.execute(schema).fetchall() == split.execute(schema).fetchall()
    assert list(statements("-- nothing; here\n;")) == []
    assert list(statements("CREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT ';'; SELECT 2; END;")) == [
        "CREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT ';'; SELECT 2; END;"
    ]


async def test_a_migration_another_process_applied_meanwhile_is_not_applied_again(tmp_path: Path):
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "V001__first.sql").write_text("CREATE TABLE t (a INTEGER);")
    first = await Database.open(tmp_path / "shared.db", migrations=folder)
    second = await Database.open(tmp_path / "shared.db", migrations=folder)
    try:
        (folder / "V002__more.sql").write_text("ALTER TABLE t ADD COLUMN b INTEGER;")
        migrations = load_migrations(folder)
        assert await first.migrate(migrations) == migrations[1:]
        # the second process looked before the first applied V002: it checks again under the write lock
        assert await second._apply(migrations[1]) is False  # type: ignore[attr-defined]
        assert await second.applied_migrations() == [1, 2]
    finally:
        await first.close()
        await second.close()
