"""Faults injected into the real flows (SimCord): a refused write, Discord errors, a restart, a damaged row.

For each, what the player saw, what the database holds (after a restart too), and that the game in
memory agrees with its row.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.runtime.settings import Settings
from bot.storage import games as games_db
from solitaire import game_to_json
from tests.support.decks import EASY_NUMBER
from tests.support.faults import DISK_FULL, LOCKED, LostAnswers, WriteFaults
from tests.support.flows import labels, raw_clicks, row, start

REFUSED = ("not saved", "busy")


@pytest.fixture
def faults(monkeypatch: pytest.MonkeyPatch) -> WriteFaults:
    """Writes to the game tables fail on cue."""
    return WriteFaults(monkeypatch)


async def agree(env: Any, user: Any) -> games_db.GameRecord | None:
    """Assert the player's running game in memory is exactly its stored row; return the row."""
    session = env.bot.sessions.active_for(user.guild.id, user.id)
    record = await games_db.active_game(env.bot.db, user.guild.id, user.id)
    assert (session is None) == (record is None)
    if session is None or record is None:
        return record
    assert session.game.version == record.version
    assert game_to_json(session.game) == json.loads(await games_db.game_state(env.bot.db, record))
    return record


def refused(result: Any) -> bool:
    """Whether the answer is the "not saved / busy" refusal (private, or filling a deferred start's placeholder)."""
    answers = [result.response, *result.followups] if result.response else result.followups
    return any(any(word in a.content for word in REFUSED) for a in answers)


# Every write of one game, in order: start (insert, board message), Draw click (row, move),
# slash draw (row, move), pile 1 to the foundation (row, move), End click (result).
FLOW_WRITES = 9


@pytest.mark.parametrize("message", [DISK_FULL, LOCKED])
@pytest.mark.parametrize("at", range(1, FLOW_WRITES + 1))
async def test_a_refused_write_anywhere_never_forks_the_game_from_its_row(
    simcord_env, channel, alice, make_bot, faults, message, at
):
    faults.fail(message, at=at)
    result = await alice.slash(channel, "solitaire start", variant="draw3", deal=EASY_NUMBER)
    if refused(result):
        assert "new game was not saved" in result.response.content or "busy" in result.response.content
        assert await agree(simcord_env, alice) is None
        result = await alice.slash(channel, "solitaire start", variant="draw3", deal=EASY_NUMBER)
    board = result.response
    assert board is not None and not board.ephemeral, (result, result.followups)

    async def step(kind: str, name: str) -> None:
        before = (await agree(simcord_env, alice)).version
        ids_before = {b["custom_id"] for b in labels(board).values()}
        for _attempt in range(2):
            answer = await (alice.click(board, label=name) if kind == "click" else alice.slash(channel, name))
            if not refused(answer):
                return
            assert answer.response.ephemeral
            assert faults.raised == 1, answer.response.content  # refused only by the fault
            record = await agree(simcord_env, alice)
            assert record is not None and record.version == before  # nothing half-applied
            assert {b["custom_id"] for b in labels(board).values()} == ids_before  # the board shows the saved game
        raise AssertionError(f"{name} refused twice")

    await step("click", "Draw")
    await step("slash", "solitaire draw")
    await step("click", "Pile 1")
    await step("click", "♠")
    assert (await agree(simcord_env, alice)).version == 3
    await step("click", "End game")
    assert faults.raised == 1
    assert await agree(simcord_env, alice) is None
    final = await row(simcord_env, ((await games_db.playing_games(simcord_env.bot.db)) and 0) or _last_id(simcord_env))
    assert final.status == "ended" and final.version == 4
    assert json.loads(final.state)["log"][-1][0] == "end"
    await simcord_env.restart_bot(make_bot())
    assert simcord_env.bot.sessions.running == []
    assert (await row(simcord_env, final.id)).status == "ended"


def _last_id(env: Any) -> int:
    return max(env.bot.sessions._sessions, default=0) or 1


async def test_a_win_whose_final_save_fails_stays_playable_and_is_won_after_a_restart(
    simcord_env, channel, alice, make_bot, faults
):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    await alice.click(board, label="All up")
    for _ in range(7):
        await alice.slash(channel, "solitaire draw")
        await alice.click(board, label="All up")
    await alice.slash(channel, "solitaire draw")
    faults.fail(DISK_FULL)  # the winning "All up" writes the result: refused
    answer = await alice.click(board, label="All up")
    assert refused(answer) and "Your move was not saved" in answer.response.content
    record = await agree(simcord_env, alice)
    assert record is not None and record.status == "playing"
    await simcord_env.restart_bot(make_bot())
    await alice.click(board, label="All up")
    won = await row(simcord_env)
    assert won.status == "won" and "**won**" in board.content


async def test_a_clock_expiry_the_database_refuses_is_retried_until_it_lands(
    simcord_env, channel, alice, faults, caplog
):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    faults.fail(LOCKED)
    await simcord_env.advance_time(300.5)
    assert "expiry not recorded" in caplog.text
    assert await agree(simcord_env, alice) is not None  # still running in memory and on disk, together
    await simcord_env.advance_time(2)  # the first retry comes one second later
    record = await row(simcord_env)
    assert record.status == "expired" and record.seconds_used == 300
    assert "expiry recorded after 1 failed attempts" in caplog.text
    assert "time is up" in board.content and await agree(simcord_env, alice) is None


async def test_a_restart_between_save_and_reply_leaves_the_saved_move_and_a_resumable_game(
    simcord_env, channel, alice, make_bot
):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    simcord_env.inject_error("POST", "/interactions/*/callback", status=500, times=None)
    await alice.click(board, label="Draw")  # saved; Discord refuses the answer
    assert (await row(simcord_env)).version == 1
    await simcord_env.restart_bot(make_bot())
    simcord_env.backend.faults.clear()
    await agree(simcord_env, alice)
    stale = await alice.click(board, label="Draw")
    assert stale.response.ephemeral and "out of date" in stale.response.content
    offer = await alice.slash(channel, "solitaire start")
    resumed = await alice.click(offer.response, label="Resume it")
    (fresh,) = resumed.followups
    assert all(":1:" in b["custom_id"] for b in labels(fresh).values())  # the board at the saved version
    assert (await row(simcord_env)).version == 1


@pytest.mark.parametrize("status", [500, 403])
async def test_discord_refusing_board_edits_and_follow_ups_loses_nothing(simcord_env, channel, alice, status, caplog):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    simcord_env.inject_error("PATCH", "/webhooks/*", status=status, times=None)
    simcord_env.inject_error("POST", "/webhooks/*", status=status, times=None)
    answer = await alice.slash(channel, "solitaire draw")
    assert answer.response.ephemeral and answer.response.content.startswith("Played draw")
    assert "could not update the board" in caplog.text
    assert (await agree(simcord_env, alice)).version == 1
    stale = await alice.click(board, label="Draw")  # the picture could not follow: it is refused, not replayed
    assert stale.response.ephemeral and "out of date" in stale.response.content
    assert (await agree(simcord_env, alice)).version == 1


@pytest.mark.both_backends  # its statements run on PostgreSQL nowhere else
@pytest.mark.parametrize(
    "damage",
    [
        "{not json",
        json.dumps({"variant": "draw3", "deck": "nonsense", "log": []}),
        None,  # a log the rules refuse: an illegal move saved in the moves table
        "version",  # a row whose version disagrees with its log
    ],
)
async def test_a_damaged_row_is_closed_once_and_never_locks_the_player_out(
    simcord_env, channel, alice, make_bot, caplog, damage
):
    await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    db = simcord_env.bot.db
    if damage is None:
        await db.execute("INSERT INTO game_moves (game_id, seq, move, seconds) VALUES (1, 0, '3-5', 1)")
        await db.execute("UPDATE games SET version = 1 WHERE id = 1")
    elif damage == "version":
        await db.execute("UPDATE games SET version = 3 WHERE id = 1")
    else:
        await db.execute("UPDATE games SET state = ? WHERE id = 1", (damage,))
    await simcord_env.restart_bot(make_bot())
    assert caplog.text.count("game 1 could not be rebuilt") == 1
    broken = await row(simcord_env)
    assert (broken.status, broken.score) == ("broken", 0)
    ended = await alice.slash(channel, "solitaire end")
    assert "no game running" in ended.response.content  # start and end agree
    (notice,) = ended.followups  # told at the next command, privately
    assert notice.ephemeral and "could not be reloaded" in notice.content and "#1" in notice.content
    result = await alice.slash(channel, "solitaire start", variant="draw3", deal=EASY_NUMBER)
    assert not result.response.ephemeral and "deal #777" in result.response.content
    assert not result.followups  # told once
    stats = await db.fetchone("SELECT count(*) AS n FROM member_stats WHERE user_id = ?", (alice.id,))
    assert stats["n"] == 0  # not a result
    await simcord_env.restart_bot(make_bot())
    assert "game 1 could not be rebuilt" not in caplog.text.split("game 1 could not be rebuilt", 1)[1]


async def test_a_game_that_ended_while_its_board_cannot_be_edited_reaches_the_player(
    simcord_env, channel, alice, make_bot
):
    await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    await simcord_env.bot.close_services()
    await simcord_env.advance_time(20 * 60)  # down longer than Discord lets the bot edit through the token
    simcord_env.inject_error("PATCH", "/channels/*/messages/*", status=403, times=None)
    simcord_env.inject_error("PATCH", "/webhooks/*", status=401, times=None)
    await simcord_env.restart_bot(make_bot())
    assert (await row(simcord_env)).status == "expired"
    simcord_env.backend.faults.clear()
    answer = await alice.slash(channel, "solitaire draw")
    assert "no game running" in answer.response.content
    (notice,) = answer.followups
    assert notice.ephemeral and "time is up" not in notice.content and "expired" in notice.content


@asynccontextmanager
async def another_writer(settings: Settings) -> AsyncIterator[None]:
    """Another process holding the games' write lock: SQLite's database lock, or PostgreSQL's lock on the table."""
    if settings.database_url is None:
        other = sqlite3.connect(settings.database_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            yield
            other.execute("ROLLBACK")
        finally:
            other.close()
        return
    import asyncpg

    connection = await asyncpg.connect(settings.database_url.get_secret_value())
    try:
        async with connection.transaction():
            await connection.execute("LOCK TABLE games IN EXCLUSIVE MODE")  # reads go on, writes wait
            yield
    finally:
        await connection.close()


async def test_a_busy_database_answers_inside_discords_window(simcord_env, channel, alice, settings):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    async with another_writer(settings):
        began = time.monotonic()
        (answer,) = await raw_clicks(simcord_env, alice, board, labels(board)["Draw"]["custom_id"])
        waited = time.monotonic() - began
        assert answer.ephemeral and "busy" in answer.response.content
        assert waited < 2.5, waited
    assert (await agree(simcord_env, alice)).version == 0
    await alice.click(board, label="Draw")
    assert (await agree(simcord_env, alice)).version == 1


# -- a save whose answer was lost (the connection died during the commit) ------------------------------
@pytest.fixture
def lost(monkeypatch: pytest.MonkeyPatch) -> LostAnswers:
    """Answers of game writes lost on cue."""
    return LostAnswers(monkeypatch)


async def test_a_click_whose_save_landed_but_whose_answer_was_lost_is_played_on_the_board(
    simcord_env, channel, alice, lost
):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    lost.lose("save_progress", landed=True)
    played = await alice.click(board, label="Draw")
    assert lost.lost == 1 and not refused(played) and not (played.response and played.response.ephemeral)
    assert all(":1:" in b["custom_id"] for b in labels(board).values())  # the board shows the stored move
    assert (await agree(simcord_env, alice)).version == 1
    await alice.click(board, label="Draw")  # and the game goes on, a daily's one try included
    assert (await agree(simcord_env, alice)).version == 2


async def test_a_click_whose_save_cannot_be_checked_is_refused_then_the_game_goes_on(simcord_env, channel, alice, lost):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    lost.lose("save_progress", landed=True)
    lost.unreadable()
    answer = await alice.click(board, label="Draw")
    assert refused(answer) and answer.response.ephemeral
    stale = await alice.click(board, label="Draw")  # checked first: the move was stored, the board is behind
    assert stale.response.ephemeral and "out of date" in stale.response.content
    assert (await agree(simcord_env, alice)).version == 1
    offer = await alice.slash(channel, "solitaire start")
    resumed = await alice.click(offer.response, label="Resume it")
    (fresh,) = resumed.followups
    await alice.click(fresh, label="Draw")
    assert (await agree(simcord_env, alice)).version == 2


async def test_a_click_on_a_game_this_process_dropped_loads_it_from_the_database(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    await alice.click(board, label="Draw")
    sessions = simcord_env.bot.sessions
    sessions._forget(sessions.active_for(alice.guild.id, alice.id))  # a stale copy dropped (another process saved)
    played = await alice.click(board, label="Draw")
    assert not (played.response and played.response.ephemeral), played.response.content
    assert (await agree(simcord_env, alice)).version == 2
