"""The PostgreSQL test harness: a real server, a database per test, concurrent connections, advisory locks."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

import asyncpg
import pytest

from tests.support.postgres_server import PostgresServer, PostgresStartError, find_binaries, require_binaries

pytestmark = pytest.mark.postgres  # the test PostgreSQL server itself


async def test_a_test_database_is_empty_and_takes_a_table(postgres_dsn: str) -> None:
    conn = await asyncpg.connect(postgres_dsn)
    try:
        assert await conn.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
        await conn.execute("CREATE TABLE moves (id bigserial PRIMARY KEY, notation text NOT NULL)")
        await conn.executemany("INSERT INTO moves (notation) VALUES ($1)", [("3-f",), ("w-7",)])
        assert [r["notation"] for r in await conn.fetch("SELECT notation FROM moves ORDER BY id")] == ["3-f", "w-7"]
        assert (await conn.fetchval("SHOW server_version")).startswith("15")
    finally:
        await conn.close()


async def test_each_test_gets_its_own_empty_schema(postgres_server: PostgresServer, postgres_dsn: str) -> None:
    conn = await asyncpg.connect(postgres_dsn)
    try:
        schema = postgres_dsn.rsplit("search_path=", 1)[1]
        assert await conn.fetchval("SELECT current_schema()") == schema
        assert await conn.fetchval("SELECT to_regclass('moves')") is None  # the other test's table is not here
        await conn.execute("CREATE TABLE moves (id int)")
        assert await conn.fetchval("SELECT to_regclass('moves')::text") == "moves"
    finally:
        await conn.close()
    assert postgres_server.root is not None
    assert postgres_server.root.stat().st_mode & 0o777 == 0o700


async def test_the_server_listens_on_loopback_only(postgres_server: PostgresServer) -> None:
    conn = await asyncpg.connect(postgres_server.dsn())
    try:
        assert await conn.fetchval("SHOW listen_addresses") == "127.0.0.1"
        assert await conn.fetchval("SHOW unix_socket_directories") == str(postgres_server.root)
        assert await conn.fetchval("SELECT inet_server_addr()::text") == "127.0.0.1/32"
    finally:
        await conn.close()


async def test_concurrent_connections_each_see_committed_rows(postgres_dsn: str) -> None:
    setup = await asyncpg.connect(postgres_dsn)
    await setup.execute("CREATE TABLE clicks (worker int NOT NULL, n int NOT NULL, PRIMARY KEY (worker, n))")
    await setup.close()

    async def worker(index: int) -> None:
        conn = await asyncpg.connect(postgres_dsn)
        try:
            for n in range(20):
                await conn.execute("INSERT INTO clicks VALUES ($1, $2)", index, n)
                await asyncio.sleep(0)
        finally:
            await conn.close()

    await asyncio.gather(*(worker(i) for i in range(8)))
    check = await asyncpg.connect(postgres_dsn)
    try:
        assert await check.fetchval("SELECT count(*) FROM clicks") == 160
        assert await check.fetchval("SELECT count(DISTINCT worker) FROM clicks") == 8
    finally:
        await check.close()


async def test_an_advisory_lock_held_by_one_connection_blocks_another(postgres_dsn: str) -> None:
    first, second = await asyncpg.connect(postgres_dsn), await asyncpg.connect(postgres_dsn)
    key = 15_000_001
    try:
        assert await first.fetchval("SELECT pg_try_advisory_lock($1)", key) is True
        assert await second.fetchval("SELECT pg_try_advisory_lock($1)", key) is False
        assert await second.fetchval("SELECT pg_try_advisory_lock($1)", key + 1) is True  # other keys are free
        waiting = asyncio.create_task(second.fetchval("SELECT pg_advisory_lock($1)", key))
        await asyncio.sleep(0.1)
        assert not waiting.done()  # the blocking form waits for the holder
        assert await first.fetchval("SELECT pg_advisory_unlock($1)", key) is True
        await asyncio.wait_for(waiting, timeout=10)
        assert await first.fetchval("SELECT pg_try_advisory_lock($1)", key) is False  # now second holds it
    finally:
        await first.close()
        await second.close()


async def test_a_lock_is_released_when_its_connection_dies(postgres_dsn: str) -> None:
    holder, other = await asyncpg.connect(postgres_dsn), await asyncpg.connect(postgres_dsn)
    try:
        assert await holder.fetchval("SELECT pg_try_advisory_lock(42)") is True
        holder.terminate()  # a process that dies leaves nothing claimed
        for _ in range(100):
            if await other.fetchval("SELECT pg_try_advisory_lock(42)"):
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the lock of a dead connection was never released")
    finally:
        await other.close()


def test_missing_binaries_skip_and_say_so(tmp_path: Path) -> None:
    assert find_binaries(tmp_path) is None
    with pytest.raises(pytest.skip.Exception, match=r"PostgreSQL binaries not found: no initdb/pg_ctl in "):
        require_binaries(tmp_path)


def test_an_initdb_that_makes_no_cluster_is_a_start_error(postgres_server: PostgresServer) -> None:
    broken = Path(tempfile.mkdtemp(prefix="solitaire-pgbin-"))  # a real pg_ctl, and an initdb that does nothing
    try:
        broken.chmod(0o755)  # PostgreSQL's user may read it
        (broken / "initdb").symlink_to("/bin/true")
        (broken / "pg_ctl").symlink_to(postgres_server.bin_dir / "pg_ctl")
        server = PostgresServer(require_binaries(broken))
        with pytest.raises(PostgresStartError, match="initdb made no cluster"):
            server.start()
        assert server.root is None  # its folder was removed
        server.stop()  # and stopping again is harmless
    finally:
        shutil.rmtree(broken)


def test_a_program_that_cannot_run_is_a_start_error(tmp_path: Path) -> None:
    (tmp_path / "initdb").write_text("not a program")
    (tmp_path / "pg_ctl").write_text("not a program")
    for name in ("initdb", "pg_ctl"):
        (tmp_path / name).chmod(0o755)
    server = PostgresServer(require_binaries(tmp_path))
    with pytest.raises(PostgresStartError, match="cannot run .*initdb"):
        server.start()
    assert server.root is None
