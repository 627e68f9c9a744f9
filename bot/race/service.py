"""The race service: lobbies, starts, standings, results and ratings, re-armed after a restart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.deal_bank import Deal, DealBank
from bot.race.lobby import RaceLobby
from bot.race.model import LiveRace, Publisher
from bot.sessions import Clock, SessionManager, Sleep
from bot.storage import Database
from bot.storage import races as races_db


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
    ) -> None:
        """Keep races in ``db`` and play them on ``sessions`` with deals from ``deals``."""
        super().__init__(db, sessions, deals, now=now, sleep=sleep, publish=publish)
        sessions.add_finish_listener(self._on_game_finished)
        sessions.add_move_listener(self._on_move)

    async def resume(self, *, owns: Callable[[int], bool] = lambda guild_id: True) -> list[int]:
        """Re-arm every open race of a server ``owns`` accepts (run after the sessions resumed); return their ids.

        A race whose games all ended while the bot was down is finished in the background (its
        results may wait for the standings' edit interval): the start is not held up.
        """
        resumed = []
        for race in await races_db.open_races(self.db):
            if race.id in self._live or not owns(race.guild_id):  # another process runs its shard
                continue
            live = self._live[race.id] = LiveRace(race)
            resumed.append(race.id)
            if race.status == "lobby":
                live.task = self._spawn(self._expire_lobby(race.id), f"race-lobby-{race.id}")
                continue
            for racer in await races_db.racers(self.db, race.id):
                if racer.game_id is not None:
                    self._games[racer.game_id] = race.id
            if race.end_at is not None and self.now() < race.end_at:
                numbered = await self.deals.numbered(race.variant, race.deal_number or 0)
                await self._deal_all(race, numbered.deal)
            live.task = self._spawn(self._run(race.id), f"race-{race.id}")
            self._touch(race.id)
            self._spawn(self._try_finish(race.id), f"race-finish-{race.id}")  # its games may all be over
        for race in await races_db.unposted_races(self.db):
            if owns(race.guild_id):
                await self._post_results(race.id)
        return resumed

    async def close(self) -> None:
        """Stop every race task (races stay stored, to resume at the next start)."""
        tasks = list(self._background)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._live.clear()

    async def settle(self) -> None:
        """Wait for the race finishes already under way (tests and benchmarks)."""
        while pending := [t for t in self._background if not t.done() and t.get_name().startswith("race-finish")]:
            await asyncio.gather(*pending, return_exceptions=True)
