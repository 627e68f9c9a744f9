"""The server the commands were last copied to (``DEV_GUILD_ID``) is remembered in the database, on both backends."""

from __future__ import annotations

import pytest

from bot.storage import dev_guilds, open_database


@pytest.mark.both_backends  # its statements run on PostgreSQL nowhere else
async def test_the_dev_guild_is_remembered_changed_and_forgotten(database_target):
    db = await open_database(database_target)
    try:
        assert await dev_guilds.remembered(db) is None
        await dev_guilds.remember(db, 111)
        await dev_guilds.remember(db, 222)
        assert await dev_guilds.remembered(db) == 222
        await dev_guilds.remember(db, None)
        assert await dev_guilds.remembered(db) is None
    finally:
        await db.close()
