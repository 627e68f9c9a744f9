"""The race service: lobbies, starts, standings, results and ratings, re-armed after a restart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.deal_bank import Deal, DealBank
from bot.outbox.announcements import Announcements
from bot.race.lobby import RaceLobby
from bot.race.model import LiveRace, Publisher
from bot.sessions import Clock, SessionManager, Sleep
from bot.storage import Database
from bot.storage import races as races_db
from bot.visibility import EventState


class RaceService(RaceLobby):
    """Lobbies, starts, standings, results and ratings of races."""

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
        """Keep races in ``db``, played on ``sessions`` with deals from ``deals``; results go via ``announcements``."""
        super().__init__(db, sessions, deals, now=now, sleep=sleep, publish=publish, announcements=announcements)
        sessions.add_finish_listener(self._on_game_finished)
        sessions.add_move_listener(self._on_move)
        self.announcements.register("race", self._compose_results)

    async def resume(self, *, owns: Callable[[int], bool] = lambda guild_id: True) -> list[int]:
        """Re-arm every open race of a server ``owns`` accepts (run after the sessions resumed); return their ids."""
        resumed = []
        for race in await races_db.open_races(self.db):
            if race.id in self._live or not owns(race.guild_id):  # another process runs its shard
                continue
            live = self._live[race.id] = LiveRace(race)
            resumed.append(race.id)
            if race.status == "lobby":
                live.task = self._tasks.spawn(self._expire_lobby(race.id), f"race-lobby-{race.id}")
                continue
            for racer in await races_db.racers(self.db, race.id):
                if racer.game_id is not None:
                    self._games[racer.game_id] = race.id
            if race.end_at is not None and self.now() < race.end_at:
                await self._deal_all(race, await self._shared_deal(race))
            live.task = self._tasks.spawn(self._run(race.id), f"race-{race.id}")
            self._touch(race.id)
            await self._try_finish(race.id)
        return resumed

    async def over_for_game(self, game_id: int) -> bool:
        """Whether the race of a race game is over (its every racer's game ended): its deal is public then."""
        race_id = await races_db.race_of_game(self.db, game_id)
        race = await races_db.get_race(self.db, race_id) if race_id is not None else None
        return race is not None and EventState("race", race.status).over

    async def close(self) -> None:
        """Stop every race task (races stay stored, to resume at the next start)."""
        await self._tasks.cancel_all()
        self._live.clear()

    async def settle(self, *, results: bool = False) -> None:
        """Wait for the race finishes already under way (tests and benchmarks); with ``results``, their posts too.

        A results post waits for the standings interval on the clock: advance it before waiting for it.
        """
        names = ("race-finish", "race-results") if results else ("race-finish",)
        await self._tasks.settle(*names)
