"""The ``onboarding_notes`` table (V015): which once-only notes were given to whom, so "once" survives restarts."""

from __future__ import annotations

from bot.storage import Database

FIRST_BOARD = "first_board"
"""The one-line tip on a player's first board (given once, whatever the server: ``guild_id`` 0)."""
SERVER_SETUP = "server_setup"
"""What an admin of an unconfigured server should set (given once per admin and server)."""
CHAMPION_PROBLEM = "champion_problem"
"""Why the champion role is not given or taken back: once per admin, server and problem (``champion_problem:<t>``)."""
OUTBOX_PROBLEM = "outbox_problem"
"""A post given up after repeated errors: once per admin, server and post given up (``outbox_problem:<t>``)."""
EVERY_SERVER = 0
"""The ``guild_id`` of a note given once in all servers."""


async def give_note(db: Database, note: str, user_id: int, *, guild_id: int = EVERY_SERVER, now: float) -> bool:
    """Record that ``note`` is given to ``user_id`` (in ``guild_id``); return whether this is the first time."""
    changed = await db.execute(
        "INSERT INTO onboarding_notes (note, user_id, guild_id, given_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (note, user_id, guild_id) DO NOTHING",
        (note, user_id, guild_id, now),
    )
    return changed.rowcount == 1
