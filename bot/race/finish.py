"""The end of a race: the clock runs out or every game is over, then places, ratings and results (once)."""

from __future__ import annotations

import asyncio

from bot.competition import Ranked, RankKey, rank_key
from bot.race.model import END_GRACE, LiveRace
from bot.race.standings import RaceStandings, final_standing
from bot.ratings import Skill, newcomer, rate
from bot.sessions import FinishSource, Session
from bot.storage import games as games_db
from bot.storage import races as races_db
from bot.storage.games import GameRecord
from bot.storage.races import Placing, RaceRecord, RacerRecord, RatingRecord


class RaceFinish(RaceStandings):
    """Ends races: expires what is left at the end, ranks as the dailies do, rates, posts the results once."""

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
        if record.mode != "race" or source == "restart":
            return
        race_id = self._games.get(record.id) or await races_db.race_of_game(self.db, record.id)
        if race_id is None:
            return
        live = self._live.get(race_id)
        if live is not None:
            live.finals[record.id] = final_standing(record.user_id, record, session.game)
            self._touch(race_id)
        self._spawn(self._try_finish(race_id), f"race-finish-{race_id}")

    async def _try_finish(self, race_id: int) -> None:
        """Finish the race once every racer's game is over: places, ratings, then the results (once)."""
        async with self._lock(race_id):
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
            placings, ratings = await self._rank(race, members, games)
            if not await races_db.finish_race(self.db, race_id, now=self.now(), placings=placings, ratings=ratings):
                return
        await self._post_results(race_id)

    async def _rank(
        self, race: RaceRecord, members: list[RacerRecord], games: dict[int, GameRecord]
    ) -> tuple[list[Placing], list[RatingRecord]]:
        """Order the racers as the dailies do (racers who left or never played last) and rate that order."""

        def key(racer: RacerRecord) -> tuple[bool, RankKey, int]:
            record = games.get(racer.user_id)
            if record is None:
                return True, rank_key(Ranked(0, racer.user_id, 0, None, float("inf"))), racer.user_id
            absent = racer.left_at is not None or record.version == 0
            entry = Ranked(0, racer.user_id, record.score, record.seconds_used, record.finished_at or 0.0)
            return absent, rank_key(entry), racer.user_id

        order = sorted(members, key=key)
        stored = await races_db.ratings_of(self.db, race.guild_id, race.variant, [r.user_id for r in order])
        before = [_skill(stored.get(r.user_id)) for r in order]
        after = rate(before)
        placings = [
            Placing(r.user_id, place, old.display, new.display)
            for place, (r, old, new) in enumerate(zip(order, before, after, strict=True), start=1)
        ]
        ratings = [
            RatingRecord(race.guild_id, race.variant, r.user_id, new.mu, new.sigma, new.races)
            for r, new in zip(order, after, strict=True)
        ]
        return placings, ratings

    async def _post_results(self, race_id: int) -> None:
        """Publish the final results if nobody did yet (claimed in the database), then forget the race."""
        live = self._live.pop(race_id, None)
        if live is not None:
            for task in (live.task, live.flush):
                if task is not None and task is not asyncio.current_task():
                    task.cancel()
        if not await races_db.claim_results_post(self.db, race_id, self.now()):
            return
        snapshot = await self.snapshot(race_id)
        await self._publish(live or LiveRace(snapshot.race), snapshot)


def _skill(record: RatingRecord | None) -> Skill:
    return Skill(record.mu, record.sigma, record.races) if record is not None else newcomer()
