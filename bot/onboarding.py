"""The way in: notes given once (a player's first-board tip, an admin's note of what to configure).

"Once" is a row in ``onboarding_notes`` (V015), so it survives restarts; a note already given is
also remembered in memory, so asking again costs no query. Nothing here knows Discord: the cog
decides where the words go.
"""

from __future__ import annotations

import logging

from bot.competition import DEFAULT_TIMEZONE
from bot.sessions import Clock
from bot.storage import Database, StorageError
from bot.storage.competition import GuildConfig
from bot.storage.onboarding import EVERY_SERVER, give_note

log = logging.getLogger(__name__)

SETUP_HEAD = "**Setting up this server** (I say this once to each member who can manage it):"
NO_CHANNEL = "daily results and podiums are posted nowhere until you choose a channel with `/solitaire config channel:`"
DAY_IN_UTC = "the server's day runs from midnight UTC until you set `/solitaire config timezone:` (e.g. Europe/Paris)"


def setup_note(config: GuildConfig) -> str | None:
    """What an admin of a server with ``config`` should still set, or ``None`` when nothing is missing."""
    missing = []
    if config.channel_id is None:
        missing.append(NO_CHANNEL)
    if config.timezone == DEFAULT_TIMEZONE and config.clock.next_zone is None:
        missing.append(DAY_IN_UTC)
    if not missing:
        return None
    return f"{SETUP_HEAD} {'; '.join(missing)}."


class Onboarding:
    """Which once-only notes were given: in the database, and in memory once known."""

    def __init__(self, db: Database, *, now: Clock) -> None:
        self._db = db
        self._now = now
        self._given: set[tuple[str, int, int]] = set()

    def known(self, note: str, user_id: int, guild_id: int = EVERY_SERVER) -> bool:
        """Whether this process already knows ``note`` was given (no query)."""
        return (note, user_id, guild_id) in self._given

    def remember(self, note: str, user_id: int, guild_id: int = EVERY_SERVER) -> None:
        """Treat ``note`` as given in this process (nothing needed saying), without writing it."""
        self._given.add((note, user_id, guild_id))

    async def first_time(self, note: str, user_id: int, guild_id: int = EVERY_SERVER) -> bool:
        """Record ``note`` as given to ``user_id`` and return whether this is the first time.

        A refused write answers ``False`` (the note is simply not given now; a later call tries again).
        """
        if self.known(note, user_id, guild_id):
            return False
        try:
            first = await give_note(self._db, note, user_id, guild_id=guild_id, now=self._now())
        except StorageError as error:
            log.warning("could not record the %s note of user %s: %s", note, user_id, error)
            return False
        self.remember(note, user_id, guild_id)
        return first
