"""What every part of the race service shares: its services, the live races, locks and tasks."""

from __future__ import annotations

import asyncio
import logging

from bot import errors
from bot.background import BackgroundTasks, KeyedLocks
from bot.deal_bank import Deal, DealBank
from bot.outbox.announcements import Announcements
from bot.race.errors import AlreadyRacingError, LobbyClosedError, UnknownRaceError
from bot.race.model import LiveRace, Publisher
from bot.sessions import Clock, SessionManager, Sleep
from bot.storage import Database
from bot.storage import races as races_db
from bot.storage.races import RaceRecord

log = logging.getLogger(__name__)


class RaceCore:
    """The race service's state and helpers (the parts in :mod:`bot.race` build on it)."""

    def __init__(
        self,
        db: Database,
        sessions: SessionManager,
        deals: DealBank[Deal],
        *,
        now: Clock,
        sleep: Sleep = asyncio.sleep,
        publish: Publisher | None = None,
        announcements: Announcements | None = None,
    ) -> None:
        """Keep races in ``db`` and play them on ``sessions`` with deals from ``deals``.

        ``publish`` shows the lobby and the live standings; the final results go through
        ``announcements`` (stored and retried until the race message shows them).
        """
        self.db = db
        self.sessions = sessions
        self.deals = deals
        self.now = now
        self.sleep = sleep
        self.publish: Publisher | None = publish
        self.announcements = announcements or Announcements(db, now=now)
        self.publish_count: dict[int, int] = {}
        """Standings and results handed to ``publish``, per race (for tests and benchmarks)."""
        self._live: dict[int, LiveRace] = {}
        self._games: dict[int, int] = {}
        self._locks = KeyedLocks()
        self._tasks = BackgroundTasks("race")

    async def _race(self, race_id: int) -> RaceRecord:
        race = await races_db.get_race(self.db, race_id)
        if race is None:
            raise UnknownRaceError()
        return race

    async def _lobby(self, race_id: int) -> RaceRecord:
        race = await self._race(race_id)
        if race.status != "lobby":
            raise LobbyClosedError(race.status)
        return race

    async def refuse_lobby_member(self, guild_id: int, user_id: int) -> None:
        """:raises InLobbyError: the member sits in an open race lobby of this server (checked before a game starts;
        the game's insert checks it again in the same statement)."""
        race_id = await races_db.seated_race(self.db, guild_id, user_id)
        if race_id is not None and (await self._race(race_id)).status == "lobby":
            raise errors.InLobbyError()

    async def _check_free(self, guild_id: int, user_id: int) -> None:
        """Refuse a member with a game running here or a seat in another open race here (before any write)."""
        if self.sessions.active_for(guild_id, user_id) is not None:
            raise errors.ActiveGameError(0)
        if await races_db.seated_race(self.db, guild_id, user_id) is not None:
            raise AlreadyRacingError(here=False)
