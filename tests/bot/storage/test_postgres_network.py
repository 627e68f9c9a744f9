"""A PostgreSQL server that vanishes from the network (a NAT's idle timeout: packets lost, no reset), and a
connection lost during a commit, through a TCP proxy between the bot and a real PostgreSQL 15
(``tests/support/tcp_proxy.py``).

Nothing may hang: a move gets its "not saved" inside Discord's 3 s and the game is free again,
other players' statements fail as fast, ``/health`` answers 503 within its own timeout, and
everything works again once the server is reachable. A commit whose answer was lost is read back:
kept if it landed, undone if not.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot import errors
from bot.play.session import Session
from bot.play.sessions import SessionManager
from bot.runtime.metrics import BotMetrics, Sources
from bot.storage import Database, StorageError
from bot.storage import games as games_db
from bot.storage import postgres as backend
from bot.storage.health import database_answers
from solitaire import DRAW
from solitaire.deals import ProvenDeal
from tests.support.decks import EASY_KLONDIKE
from tests.support.postgres_server import _admin
from tests.support.tcp_proxy import TcpProxy

DISCORD_DEADLINE = 3.0
"""Seconds within which Discord wants a first answer."""
HANG = 20.0
"""A statement still running after this long is hanging (the test fails instead of waiting for ever)."""


@pytest_asyncio.fixture
async def proxy(postgres_bot_dsn: str) -> AsyncIterator[TcpProxy]:
    """A proxy to the test server, forwarding for now."""
    started = await TcpProxy.to(postgres_bot_dsn).start()
    yield started
    await started.close()


@pytest_asyncio.fixture
async def db(proxy: TcpProxy, postgres_bot_dsn: str) -> AsyncIterator[Database]:
    """The bot's PostgreSQL backend, reaching the server through the proxy."""
    database = await Database.open(proxy.url(postgres_bot_dsn))
    yield database
    closing = asyncio.ensure_future(database.close())
    if not (await asyncio.wait({closing}, timeout=HANG))[0]:  # it hangs: cut the connections, fail
        database._pool.terminate()  # type: ignore[attr-defined]
        pytest.fail("closing the database hung")


@pytest_asyncio.fixture
async def sessions(db: Database) -> AsyncIterator[SessionManager]:
    manager = SessionManager(db, now=time.time)
    yield manager
    await manager.close()


async def start(sessions: SessionManager, user_id: int) -> Session:
    """A running game of the easy deck for ``user_id``."""
    deal = ProvenDeal("draw3", 0, EASY_KLONDIKE, ())
    return await sessions.start(guild_id=1, channel_id=2, user_id=user_id, variant="draw3", deal=deal)


async def timed(work: Any) -> tuple[float, Any]:
    """Seconds ``work`` took and what it returned or raised (a hang fails the test).

    (Not ``asyncio.wait_for``: a cancellation that never completes, the very fault here, would hang it too.)
    """
    began = time.monotonic()
    task = asyncio.ensure_future(work)
    if not (await asyncio.wait({task}, timeout=HANG))[0]:
        pytest.fail(f"still waiting after {HANG:.0f} s")
    try:
        result: Any = task.result()
    except (errors.BotError, StorageError) as error:
        result = error
    return time.monotonic() - began, result


async def played(work: Any) -> Any:
    """What ``work`` returned (failing the test if it raised or hung)."""
    _, result = await timed(work)
    assert not isinstance(result, Exception), result
    return result


async def stored_version(postgres_bot_dsn: str, game_id: int) -> int:
    """The game's version as the server holds it (read directly, not through the proxy)."""
    direct = await Database.open(postgres_bot_dsn)
    try:
        record = await games_db.get_game(direct, game_id)
    finally:
        await direct.close()
    assert record is not None
    return record.version


# -- a server that vanishes ------------------------------------------------------------------
async def test_a_move_into_a_vanished_server_is_refused_in_time_and_the_game_plays_on_once_it_is_back(
    proxy, sessions, postgres_bot_dsn
):
    alice, bob = await start(sessions, 11), await start(sessions, 12)
    await sessions.play(alice, DRAW)
    proxy.blackhole()
    seconds, refused = await timed(sessions.play(alice, DRAW))
    assert isinstance(refused, errors.NotSavedError) and seconds < DISCORD_DEADLINE, (seconds, refused)
    assert alice.game.version == 1 and not alice.lock.locked()  # as saved, and free for the next move
    seconds, other = await timed(sessions.play(bob, DRAW))  # another player is not held up either
    assert isinstance(other, errors.NotSavedError) and seconds < DISCORD_DEADLINE, (seconds, other)

    proxy.heal()
    outcome = await played(sessions.play(alice, DRAW))
    assert outcome.version == alice.game.version == 2 == await stored_version(postgres_bot_dsn, alice.id)
    assert (await played(sessions.play(bob, DRAW))).version == 1


async def test_health_says_no_within_its_own_timeout_when_the_server_vanishes(proxy, db):
    assert await database_answers(db)
    proxy.blackhole()
    for timeout in (0.5, backend.TIMEOUT + 1):  # its own deadline (shorter), and the backend's (shorter)
        seconds, answer = await timed(database_answers(db, timeout=timeout))
        assert answer is False and seconds < min(timeout, backend.TIMEOUT) + 0.5, (timeout, seconds)
    proxy.heal()
    assert (await timed(database_answers(db)))[1] is True


async def test_the_health_endpoint_answers_503_in_time_when_the_server_vanishes(proxy, db):
    sources = Sources(
        game_guilds=list,
        deal_levels=dict,
        solver_queue=lambda: 0,
        shard_count=lambda: 1,
        shard_ids=lambda: [0],
        connected=lambda: True,
        database_answers=lambda: database_answers(db),
    )
    metrics = BotMetrics(sources)
    server = await metrics.serve(0)
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=HANG)) as http:
            url = f"http://127.0.0.1:{server.port}/health"
            async with http.get(url) as response:
                assert response.status == 200
            proxy.blackhole()
            began = time.monotonic()
            async with http.get(url) as response:
                assert response.status == 503 and (await response.json())["database"] is False
            assert time.monotonic() - began < 2.5
    finally:
        await metrics.close()


async def test_the_pools_sockets_keep_tcp_keepalives_and_a_user_timeout(db):
    async with db._connection() as queries:  # type: ignore[attr-defined]
        sock = queries._connection._transport.get_extra_info("socket")
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == backend.KEEPALIVE_IDLE
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL) == backend.KEEPALIVE_INTERVAL
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == backend.KEEPALIVE_COUNT
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == backend.USER_TIMEOUT_MS
        settings = await queries._fetchone(
            "SELECT current_setting('idle_in_transaction_session_timeout') AS idle,"
            " current_setting('tcp_keepalives_idle') AS keepalive"
        )
    assert settings is not None and (settings["idle"], settings["keepalive"]) == ("10s", "30")


# -- a commit whose answer is lost --------------------------------------------------------------
async def test_a_move_whose_commit_landed_but_whose_answer_was_lost_is_kept(proxy, sessions, postgres_bot_dsn):
    alice = await start(sessions, 11)
    proxy.cut_after(b"COMMIT")
    outcome = await played(sessions.play(alice, DRAW))  # answered as played: it is stored
    assert proxy.cuts == 1
    assert outcome.version == alice.game.version == 1 == await stored_version(postgres_bot_dsn, alice.id)
    assert (await played(sessions.play(alice, DRAW))).version == 2  # and the game goes on


async def test_a_move_whose_commit_never_arrived_is_not_saved_and_the_game_goes_on(proxy, sessions, postgres_bot_dsn):
    alice = await start(sessions, 11)
    proxy.cut_before(b"COMMIT")
    seconds, refused = await timed(sessions.play(alice, DRAW))
    assert isinstance(refused, errors.NotSavedError) and seconds < DISCORD_DEADLINE
    assert proxy.cuts == 1 and alice.game.version == 0 == await stored_version(postgres_bot_dsn, alice.id)
    assert (await played(sessions.play(alice, DRAW))).version == 1


async def test_a_finish_whose_answer_was_lost_is_kept_and_announced_once(proxy, sessions, postgres_bot_dsn):
    alice = await start(sessions, 11)
    announced = []

    async def listener(session: Session, record: games_db.GameRecord, source: str) -> None:
        announced.append((record.id, record.status, source))

    sessions.add_finish_listener(listener)
    proxy.cut_after(b"COMMIT")
    outcome = await played(sessions.play(alice, "end"))
    assert outcome.finished is not None and outcome.finished.status == "ended"
    assert announced == [(alice.id, "ended", "command")] and sessions.get(alice.id) is None


SLOW_COMMIT = (
    "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.15); RETURN NULL; "
    "END $$; CREATE CONSTRAINT TRIGGER slow_commit AFTER UPDATE ON games DEFERRABLE INITIALLY DEFERRED "
    "FOR EACH ROW EXECUTE FUNCTION slow_commit();"
)
"""A commit that takes the server 0.15 s (a deferred trigger runs at the commit): long enough to be read too early."""


async def test_a_commit_still_running_on_the_server_when_its_answer_was_lost_is_read_once_decided(
    proxy, sessions, postgres_bot_dsn
):
    alice = await start(sessions, 12)
    _admin(postgres_bot_dsn, SLOW_COMMIT)
    try:
        proxy.cut_after(b"COMMIT")
        outcome = await played(sessions.play(alice, DRAW))
        assert outcome.version == 1 and alice.game.version == 1
        assert await stored_version(postgres_bot_dsn, alice.id) == 1  # memory and database agree
    finally:
        _admin(postgres_bot_dsn, "DROP TRIGGER slow_commit ON games; DROP FUNCTION slow_commit();")


async def test_a_connection_idle_for_longer_than_its_lifetime_is_replaced_before_it_is_used(db, monkeypatch):
    async def server_pid() -> int:
        row = await db.fetchone("SELECT pg_backend_pid() AS pid")
        assert row is not None
        return int(row["pid"])

    first = await server_pid()
    assert await server_pid() == first  # the pool's one idle connection, reused
    monkeypatch.setattr(backend, "IDLE_LIFETIME", 0.05)
    await asyncio.sleep(0.1)  # idle past its lifetime: a NAT might have forgotten it
    replaced = await server_pid()
    monkeypatch.setattr(backend, "IDLE_LIFETIME", 3600.0)  # on a busy machine the next use may come 0.05 s later
    assert replaced != first and await server_pid() == replaced
