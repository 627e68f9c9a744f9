"""The way in: notes given once (a player's first-board tip, an admin's notes of what to configure or fix).

"Once" is a row in ``onboarding_notes`` (V015), so it survives restarts; a note already given is
also remembered in memory, so asking again costs no query. Nothing here knows Discord: the cog
decides where the words go.
"""

from __future__ import annotations

import logging

from bot.outbox.announcements import PARK_AFTER
from bot.play.session import Clock
from bot.rules.calendar import DEFAULT_TIMEZONE
from bot.storage import Database, StorageError
from bot.storage.competition import GuildConfig
from bot.storage.onboarding import (
    CHAMPION_PROBLEM,
    EVERY_SERVER,
    FIRST_BOARD,
    OUTBOX_PROBLEM,
    SERVER_SETUP,
    give_note,
)

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


def champion_warning(config: GuildConfig) -> str | None:
    """Why the champion role could not be given or taken back lately, for the admins (``None``: nothing wrong)."""
    if config.champion_problem is None:
        return None
    since = f" <t:{int(config.champion_problem_at)}:R>" if config.champion_problem_at is not None else ""
    role = f" <@&{config.champion_role_id}>" if config.champion_role_id is not None else ""
    return (
        f"⚠️ I could not give or take back the champion role{role}{since} ({config.champion_problem}): "
        "the change waits and is tried again. Fix it in Server Settings → Roles, or choose another role "
        "with `/solitaire config champion_role`."
    )


def outbox_warning(config: GuildConfig) -> str | None:
    """The last post of the server given up after repeated errors on the bot's side, for the admins (else ``None``)."""
    if config.outbox_problem is None:
        return None
    since = f" <t:{int(config.outbox_problem_at)}:R>" if config.outbox_problem_at is not None else ""
    return (
        f"⚠️ I gave up {config.outbox_problem}{since}: it failed {PARK_AFTER} times with an error on my side, "
        "so it will not be posted. Nothing here needs fixing by you; the bot's operator has the error in the log."
    )


def admin_notes(config: GuildConfig) -> list[tuple[str, str]]:
    """The notes an admin of a server with ``config`` is due, each once: ``(note, text)``.

    What to configure is one note per admin and server; each champion-role problem is another (its key
    holds the time the problem began, so a new problem is told again), and so is each post given up.
    """
    notes = []
    if (setup := setup_note(config)) is not None:
        notes.append((SERVER_SETUP, setup))
    if (warning := champion_warning(config)) is not None:
        notes.append((f"{CHAMPION_PROBLEM}:{int(config.champion_problem_at or 0)}", warning))
    if (given_up := outbox_warning(config)) is not None:
        notes.append((f"{OUTBOX_PROBLEM}:{int(config.outbox_problem_at or 0)}", given_up))
    return notes


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

    async def first_board(self, user_id: int) -> bool:
        """Record the first-board tip as given to ``user_id``; return whether this is their first board."""
        return await self.first_time(FIRST_BOARD, user_id)
