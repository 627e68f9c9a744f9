"""Notes given once (V015): per player (and server), kept across restarts, none for players who played before."""

from __future__ import annotations

import shutil

import pytest

from bot.compete.onboarding import DAY_IN_UTC, NO_CHANNEL, SETUP_HEAD, Onboarding, setup_note
from bot.rules.calendar import DayClock
from bot.storage import open_database
from bot.storage.competition import GuildConfig
from bot.storage.onboarding import FIRST_BOARD, SERVER_SETUP, give_note
from tests.conftest import migrations_folder


async def test_a_note_is_given_once_per_player_and_server_and_the_record_survives_a_reopen(database_target):
    db = await open_database(database_target)
    try:
        assert await give_note(db, FIRST_BOARD, 7, now=1.0)
        assert not await give_note(db, FIRST_BOARD, 7, now=2.0)
        assert await give_note(db, SERVER_SETUP, 7, guild_id=1, now=3.0)
        assert await give_note(db, SERVER_SETUP, 7, guild_id=2, now=3.0)  # another server: its own note
        assert await give_note(db, FIRST_BOARD, 8, now=4.0)
    finally:
        await db.close()
    db = await open_database(database_target)
    try:
        onboarding = Onboarding(db, now=lambda: 5.0)
        assert not await onboarding.first_time(FIRST_BOARD, 7)
        assert not onboarding.known(SERVER_SETUP, 7, 3) and await onboarding.first_time(SERVER_SETUP, 7, 3)
        assert onboarding.known(SERVER_SETUP, 7, 3)  # now answered from memory
        rows = await db.fetchall("SELECT note, user_id, guild_id, given_at FROM onboarding_notes ORDER BY given_at")
        assert tuple(rows[0]) == (FIRST_BOARD, 7, 0, 1.0) and len(rows) == 5
    finally:
        await db.close()


async def test_players_who_played_before_the_migration_get_no_first_board_tip(backend, empty_database_target, tmp_path):
    before = tmp_path / "before"
    before.mkdir()
    for sql in migrations_folder(backend).glob("V*.sql"):
        if int(sql.name[1:4]) < 15:
            shutil.copy(sql, before / sql.name)
    db = await open_database(empty_database_target, migrations=before)
    try:
        for guild_id, user_id in ((1, 11), (2, 11), (1, 12)):  # one running game per member and server
            await db.execute(
                "INSERT INTO games (guild_id, channel_id, user_id, variant, mode, state, status, started_at, deadline)"
                " VALUES (?, 2, ?, 'draw3', 'casual', '{}', 'playing', 0, 300)",
                (guild_id, user_id),
            )
    finally:
        await db.close()
    db = await open_database(empty_database_target)  # every migration: V015 now
    try:
        rows = await db.fetchall("SELECT note, user_id, guild_id, given_at FROM onboarding_notes ORDER BY user_id")
        assert [tuple(row) for row in rows] == [(FIRST_BOARD, 11, 0, 0.0), (FIRST_BOARD, 12, 0, 0.0)]
        assert await give_note(db, FIRST_BOARD, 13, now=1.0) and not await give_note(db, FIRST_BOARD, 12, now=1.0)
    finally:
        await db.close()


@pytest.mark.parametrize(
    ("config", "note"),
    [
        (GuildConfig(1), f"{SETUP_HEAD} {NO_CHANNEL}; {DAY_IN_UTC}."),
        (GuildConfig(1, channel_id=5), f"{SETUP_HEAD} {DAY_IN_UTC}."),
        (GuildConfig(1, timezone="Europe/Paris", clock=DayClock("Europe/Paris")), f"{SETUP_HEAD} {NO_CHANNEL}."),
        (GuildConfig(1, clock=DayClock(next_zone="Asia/Tokyo")), f"{SETUP_HEAD} {NO_CHANNEL}."),  # from tomorrow
        (GuildConfig(1, channel_id=5, timezone="Asia/Tokyo", clock=DayClock("Asia/Tokyo")), None),
    ],
)
def test_the_setup_note_names_only_what_is_missing(config, note):
    assert setup_note(config) == note


def test_the_notes_name_the_commands_that_fix_them():
    assert "`/solitaire config channel:`" in NO_CHANNEL and "`/solitaire config timezone:`" in DAY_IN_UTC
    assert "posted nowhere" in NO_CHANNEL and "UTC" in DAY_IN_UTC
