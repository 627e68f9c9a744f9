"""The end of a race: the clock runs out or every game is over, then places, ratings and results (once)."""

from __future__ import annotations

import asyncio

from bot.modes import RACE, mode_of
from bot.outbox.announcements import Announcement
from bot.race.model import END_GRACE, STANDINGS_INTERVAL
from bot.race.standings import RaceStandings, final_standing
from bot.results import entry, rate_results
from bot.sessions import FinishSource, Session
from bot.storage import games as games_db
from bot.storage import races as races_db
from bot.storage.games import GameRecord
from bot.storage.outbox import Pending
from bot.storage.races import RaceRecord, RacerRecord, Rate


class RaceFinish(RaceStandings):
    """Ends races: expires what is left at the end, places the racers, rates those who played, posts the results."""

    async def _run(self, race_id: int) -> None:
        """Sleep until the race's end, then end the games still running and finish the race."""
        live = self._live[race_id]
        end_at = live.race.end_at
        assert end_at is not None
        while (remaining := end_at + END_GRACE - self.now()) > 0:
            await self.sleep(remaining)
        live.task = None
        await self._expire_games(race_id)
        await self._try_finish(race_id)

    async def _expire_games(self, race_id: int) -> None:
        for racer in await races_db.racers(self.db, race_id):
            session = self.sessions.get(racer.game_id) if racer.game_id is not None else None
            if session is not None:
                await self.sessions.expire(session, source="clock")

    async def _on_game_finished(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        """Note a racer's final line and finish the race if it was the last game running.

        A game finished at a restart (``source == "restart"``) is left to :meth:`resume`, which runs
        next and tries to finish each race it re-arms: a finish started here would race it (and
        :meth:`resume` would then list the race or not depending on which came first).
        """
        if mode_of(record.mode) is not RACE or source == "restart":
            return
        race_id = self._games.get(record.id) or await races_db.race_of_game(self.db, record.id)
        if race_id is None:
            return
        live = self._live.get(race_id)
        if live is not None:
            live.finals[record.id] = final_standing(record.user_id, record, session.game)
            self._touch(race_id)
        self._tasks.spawn(self._try_finish(race_id), f"race-finish-{race_id}")

    async def _try_finish(self, race_id: int) -> None:
        """Finish the race once every racer's game is over: places, ratings and the results post, in one write."""
        async with self._locks.lock(race_id):
            race = await self._race(race_id)
            if race.status != "running":
                return
            members = await races_db.racers(self.db, race_id)
            games: dict[int, GameRecord] = {}
            for racer in members:
                if racer.game_id is not None:
                    record = await games_db.get_game(self.db, racer.game_id)
                    if record is not None:
                        if record.is_playing:
                            return
                        games[racer.user_id] = record
            finished = await races_db.finish_race(
                self.db, race_id, now=self.now(), rate=await self._rank(race, members, games)
            )
            if not finished:
                return
        await self._post_results(race_id)

    async def _rank(self, race: RaceRecord, members: list[RacerRecord], games: dict[int, GameRecord]) -> Rate:
        """How to place every racer and rate those who played, if the race may be rated (:mod:`bot.placing`)."""
        entries = [entry(r.user_id, games.get(r.user_id), left_at=r.left_at) for r in members]
        return await rate_results(
            self.db, guild_id=race.guild_id, variant=race.variant, entries=entries, now=self.now()
        )

    async def _post_results(self, race_id: int) -> None:
        """Forget the finished race and deliver its queued results post (retried later if it fails).

        The post waits for the standings interval after the last standings edit, as the standings do.
        """
        live = self._live.pop(race_id, None)
        wait = 0.0
        if live is not None:
            for task in (live.task, live.flush):
                if task is not None and task is not asyncio.current_task():
                    task.cancel()
            if live.last_publish is not None:
                wait = live.last_publish + STANDINGS_INTERVAL - self.now()
        if wait > 0:
            self._tasks.spawn(self._deliver_after(wait), f"race-results-{race_id}")
        else:
            await self._deliver_after(0.0)

    async def _deliver_after(self, wait: float) -> None:
        """Deliver the due posts after ``wait`` seconds; the delivering loop looks again (for retries)."""
        if wait > 0:
            await self.sleep(wait)
        await self.announcements.deliver_due()
        self.announcements.queued()

    async def _compose_results(self, pending: Pending) -> Announcement | None:
        """The results post of a finished race, as of now (``None``: no such finished race)."""
        race = await races_db.get_race(self.db, int(pending.subject))
        if race is None or race.status != "finished":
            return None
        snapshot = await self.snapshot(race.id)
        return Announcement(
            race.guild_id, race.channel_id, "race", "", False, subject=pending.subject, payload=snapshot
        )
