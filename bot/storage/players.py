"""The ``player_settings`` table (V003): each player's display preferences, keyed by user id."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import Database


@dataclass(frozen=True)
class PlayerSettings:
    """A player's preferences (the defaults when they never set any)."""

    four_colour: bool = False
    """Draw clubs green and diamonds blue (the colour-blind-friendly deck)."""


async def player_settings(db: Database, user_id: int) -> PlayerSettings:
    """Return a player's settings (the defaults if they have none)."""
    row = await db.fetchone("SELECT four_colour FROM player_settings WHERE user_id = ?", (user_id,))
    return PlayerSettings(four_colour=bool(row["four_colour"])) if row is not None else PlayerSettings()


async def set_four_colour(db: Database, user_id: int, four_colour: bool) -> None:
    """Turn a player's four-colour deck on or off."""
    await db.execute(
        "INSERT INTO player_settings (user_id, four_colour) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET four_colour = excluded.four_colour",
        (user_id, int(four_colour)),
    )
