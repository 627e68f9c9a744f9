"""The player_settings table (V003): defaults, changes, one row per player."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.storage import Database, players
from bot.storage.players import PlayerSettings


@pytest_asyncio.fixture
async def db(database_target: str | Path) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


async def test_a_player_without_a_row_gets_the_defaults(db):
    assert await players.player_settings(db, 42) == PlayerSettings(four_colour=False)


async def test_four_colour_is_stored_per_player_and_can_be_turned_off(db):
    await players.set_four_colour(db, 1, True)
    assert await players.player_settings(db, 1) == PlayerSettings(four_colour=True)
    assert await players.player_settings(db, 2) == PlayerSettings()
    await players.set_four_colour(db, 1, False)
    assert await players.player_settings(db, 1) == PlayerSettings(four_colour=False)
    rows = await db.fetchall("SELECT user_id, four_colour FROM player_settings")
    assert [tuple(row) for row in rows] == [(1, 0)]


async def test_the_setting_survives_reopening_the_database(database_target: str | Path):
    first = await Database.open(database_target)
    await players.set_four_colour(first, 7, True)
    await first.close()
    second = await Database.open(database_target)
    try:
        assert (await players.player_settings(second, 7)).four_colour
    finally:
        await second.close()
