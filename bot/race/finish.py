"""The end of a race: the clock runs out or every game is over, then places, ratings and results (once)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

from bot.announcements import Announcement
from bot.competition import day_bounds
from bot.race.model import END_GRACE, STANDINGS_INTERVAL
from bot.race.placing import Entry, places, rated_players
from bot.race.standings import RaceStandings, final_standing
from bot.ratings import Skill, newcomer, rate
from bot.sessions import FinishSource, Session
from bot.storage import competition as competition_db
from bot.storage import games as games_db
from bot.storage import races as races_db
from bot.storage.competition import Pending
from bot.storage.games import GameRecord
from bot.storage.races import Placing, RaceRecord, RacerRecord, RatingRecord
from solitaire.moves import is_card_move


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
        """Finish the race once every racer's game is over: places, ratings and the results post, in one write."""
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
            placings, ratings, unrated = await self._rank(race, members, games)
            finished = await races_db.finish_race(
                self.db, race_id, now=self.now(), placings=placings, ratings=ratings, unrated_reason=unrated
            )
            if not finished:
                return
        await self._post_results(race_id)

    async def _rank(
        self, race: RaceRecord, members: list[RacerRecord], games: dict[int, GameRecord]
    ) -> tuple[list[Placing], list[RatingRecord], str | None]:
        """Place every racer (:mod:`bot.race.placing`) and rate those who played, if the race may be rated."""
        entries = [_entry(racer, games.get(racer.user_id)) for racer in members]
        placed = places(entries)
        since, until = await self._today(race.guild_id)
        players = [entry.user_id for entry in entries if entry.played]
        together = await races_db.rated_together(self.db, race.guild_id, players, since=since, until=until)
        rated, unrated = rated_players(entries, together)
        stored = await races_db.ratings_of(self.db, race.guild_id, race.variant, [r.user_id for r in members])
        before = {r.user_id: _skill(stored.get(r.user_id)) for r in members}
        after = dict(zip(rated, rate([before[u] for u in rated], [placed[u] for u in rated]), strict=True))
        placings = [
            Placing(
                r.user_id,
                placed[r.user_id],
                before[r.user_id].display,
                after[r.user_id].display if r.user_id in after else None,
            )
            for r in members
        ]
        ratings = [
            RatingRecord(race.guild_id, race.variant, user, new.mu, new.sigma, new.races) for user, new in after.items()
        ]
        return placings, ratings, unrated

    async def _today(self, guild_id: int) -> tuple[float, float]:
        """The server's day now, as unix bounds ``[since, until)`` (for counting rated races)."""
        clock = (await competition_db.guild_config(self.db, guild_id)).clock
        moment = datetime.fromtimestamp(self.now(), UTC)
        today = clock.date_at(moment)
        return day_bounds(clock.zone_at(moment), today, today)

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
            self._spawn(self._deliver_after(wait), f"race-results-{race_id}")
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


def _entry(racer: RacerRecord, record: GameRecord | None) -> Entry:
    """A racer's result as the placing rules read it (no game: never played)."""
    if record is None:
        return Entry(racer.user_id, False, racer.left_at is None, 0, None)
    log = json.loads(record.state).get("log", [])
    played = any(is_card_move(str(entry[0])) for entry in log)
    ended = record.finished_at if record.finished_at is not None else float("inf")
    stayed = racer.left_at is None or racer.left_at > ended  # leaving after one's game ended changes nothing
    return Entry(racer.user_id, played, stayed, record.score, record.seconds_used)


def _skill(record: RatingRecord | None) -> Skill:
    return Skill(record.mu, record.sigma, record.races) if record is not None else newcomer()
