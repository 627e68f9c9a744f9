"""A player's preferences (the four-colour deck, streak reminders), kept across restarts.

The SQL is :mod:`bot.storage.players`; a new deck choice also reaches the player's running games
(their boards are redrawn by the cog).
"""

from __future__ import annotations

from bot.play.session import Session
from bot.play.sessions import SessionManager
from bot.storage import Database
from bot.storage import players as players_db
from bot.storage.players import PlayerSettings


class Preferences:
    """Each player's settings: read, and changed one at a time."""

    def __init__(self, db: Database, sessions: SessionManager) -> None:
        self._db = db
        self._sessions = sessions

    async def of(self, user_id: int) -> PlayerSettings:
        """A player's settings (the defaults if they never set any)."""
        return await players_db.player_settings(self._db, user_id)

    async def set_reminders(self, user_id: int, reminders: bool) -> None:
        """Turn a player's streak reminders on or off."""
        await players_db.set_reminders(self._db, user_id, reminders)

    async def set_four_colour(self, user_id: int, four_colour: bool) -> list[Session]:
        """Store a player's four-colour choice and apply it to their running games; return those games."""
        await players_db.set_four_colour(self._db, user_id, four_colour)
        return self._sessions.set_four_colour(user_id, four_colour)
