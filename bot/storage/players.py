"""The ``player_settings`` table (V003, V016): each player's preferences, keyed by user id."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import Database


@dataclass(frozen=True)
class PlayerSettings:
    """A player's preferences (the defaults when they never set any)."""

    four_colour: bool = False
    """Draw clubs green and diamonds blue (the colour-blind-friendly deck)."""
    reminders: bool = False
    """Send a direct message when a daily streak of 2 days or more is about to break (opt-in)."""


async def player_settings(db: Database, user_id: int) -> PlayerSettings:
    """Return a player's settings (the defaults if they have none)."""
    row = await db.fetchone("SELECT four_colour, reminders FROM player_settings WHERE user_id = ?", (user_id,))
    if row is None:
        return PlayerSettings()
    return PlayerSettings(four_colour=bool(row["four_colour"]), reminders=bool(row["reminders"]))


async def set_four_colour(db: Database, user_id: int, four_colour: bool) -> None:
    """Turn a player's four-colour deck on or off."""
    await db.execute(
        "INSERT INTO player_settings (user_id, four_colour) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET four_colour = excluded.four_colour",
        (user_id, int(four_colour)),
    )


async def set_reminders(db: Database, user_id: int, reminders: bool) -> None:
    """Turn a player's streak reminders on or off (either way, a refusal not yet told is forgotten)."""
    await db.execute(
        "INSERT INTO player_settings (user_id, reminders) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET reminders = excluded.reminders, reminders_refused_at = NULL",
        (user_id, int(reminders)),
    )


async def refuse_reminders(db: Database, user_id: int, now: float) -> None:
    """Turn a player's reminders off because Discord refused one (closed DMs), to be told at their next command."""
    await db.execute(
        "UPDATE player_settings SET reminders = 0, reminders_refused_at = ? WHERE user_id = ? AND reminders = 1",
        (now, user_id),
    )


async def refusal_waiting(db: Database, user_id: int) -> bool:
    """Whether a closed DM turned the player's reminders off and they were not told yet (a read, for every command)."""
    row = await db.fetchone(
        "SELECT 1 AS one FROM player_settings WHERE user_id = ? AND reminders_refused_at IS NOT NULL", (user_id,)
    )
    return row is not None


async def take_refusal(db: Database, user_id: int) -> bool:
    """Clear a refusal the player was not told of yet; return whether there was one (so it is told once)."""
    changed = await db.execute(
        "UPDATE player_settings SET reminders_refused_at = NULL WHERE user_id = ? AND reminders_refused_at IS NOT NULL",
        (user_id,),
    )
    return changed.rowcount == 1


async def restore_refusal(db: Database, user_id: int, refused_at: float) -> None:
    """Put back a refusal whose telling failed (it is told at the next command instead)."""
    await db.execute(
        "UPDATE player_settings SET reminders_refused_at = ? WHERE user_id = ? AND reminders = 0",
        (refused_at, user_id),
    )
