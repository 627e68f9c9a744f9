"""The server the slash commands were last copied to (``DEV_GUILD_ID``), so its copies are cleared when it changes.

Kept in the ``secrets`` table, the bot's own name-value store (the value is no secret: a server id).
"""

from __future__ import annotations

from bot.storage import Database

NAME = "dev_guild_id"
"""The row's name in the ``secrets`` table."""


async def remembered(db: Database) -> int | None:
    """The server the commands were last copied to (``None``: none, or they were cleared)."""
    row = await db.fetchone("SELECT value FROM secrets WHERE name = ?", (NAME,))
    return int(row["value"]) if row is not None and row["value"] else None


async def remember(db: Database, guild_id: int | None) -> None:
    """Remember that the commands are now copied to ``guild_id`` (``None``: to no server)."""
    if guild_id is None:
        await db.execute("DELETE FROM secrets WHERE name = ?", (NAME,))
        return
    await db.execute(
        "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        (NAME, str(guild_id)),
    )
