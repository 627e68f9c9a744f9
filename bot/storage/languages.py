"""The languages chosen (V024): a member's own and the last locale Discord reported for them, and a server's."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import Database


@dataclass(frozen=True)
class MemberLanguage:
    """What the bot knows of a member's language."""

    choice: str | None = None
    """The catalogue code they chose in their settings; ``None``: automatic."""
    discord_locale: str | None = None
    """The last locale Discord reported for them (their direct messages are written in it)."""


async def member_language(db: Database, user_id: int) -> MemberLanguage:
    """A member's choice and last locale (nothing known: automatic, unknown)."""
    row = await db.fetchone("SELECT language, discord_locale FROM player_settings WHERE user_id = ?", (user_id,))
    if row is None:
        return MemberLanguage()
    return MemberLanguage(row["language"], row["discord_locale"])


async def set_member_choice(db: Database, user_id: int, code: str | None) -> None:
    """Store a member's chosen language (``None``: automatic)."""
    await db.execute(
        "INSERT INTO player_settings (user_id, language) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
        (user_id, code),
    )


async def remember_locale(db: Database, user_id: int, discord_locale: str) -> None:
    """Remember the locale Discord last reported for a member."""
    await db.execute(
        "INSERT INTO player_settings (user_id, discord_locale) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET discord_locale = excluded.discord_locale",
        (user_id, discord_locale),
    )


async def server_choice(db: Database, guild_id: int) -> str | None:
    """The language a server's admins chose for its public posts (``None``: the server's preferred locale)."""
    row = await db.fetchone("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return None if row is None else row["language"]


async def set_server_choice(db: Database, guild_id: int, code: str | None) -> None:
    """Store the language of a server's public posts (``None``: automatic)."""
    await db.execute(
        "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
        (guild_id, code),
    )
