"""What the race message shows, and the live standings handed to it at most once per interval.

Every snapshot is handed to the publisher in its server's language (whoever's task changed the race).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from bot.background import BackgroundTasks
from bot.coalesce import Coalescer
from bot.compete.race.errors import UnknownRaceError
from bot.compete.race.model import STANDINGS_INTERVAL, LiveRace, Publisher, RaceResult, RaceSnapshot, Standing
from bot.compete.ratings import Skill
from bot.outbox.announcements import EnglishReaders, Readers
from bot.play.session import Clock, Session, Sleep
from bot.play.sessions import SessionManager
from bot.storage import Database
from bot.storage import games as games_db
from bot.storage import races as races_db
from bot.storage.games import GameRecord
from bot.storage.races import RaceRecord, RacerRecord
from languages import speaking_language
from solitaire import Game, game_from_json

log = logging.getLogger(__name__)


async def load_race(db: Database, race_id: int) -> RaceRecord:
    """The stored race; :raises UnknownRaceError: there is none."""
    race = await races_db.get_race(db, race_id)
    if race is None:
        raise UnknownRaceError()
    return race


@dataclass(eq=False)
class RaceStandings:
    """The live races of this process: snapshots of their message and the coalesced standings updates."""

    db: Database
    sessions: SessionManager
    now: Clock
    sleep: Sleep
    publish: Publisher | None
    """Shows the lobby and the live standings on the race message (the cog sets it)."""
    speakers: Readers = field(default_factory=EnglishReaders)
    """The language of each server's race messages."""
    publish_count: dict[int, int] = field(default_factory=dict)
    """Standings and results handed to ``publish``, per race (for tests and benchmarks)."""
    live: dict[int, LiveRace] = field(default_factory=dict)
    """Every open race this process runs, by id."""
    listeners: list[Callable[[int], None]] = field(default_factory=list)
    """Told the id of a race that changed, whatever surface changed it (another surface's pages follow races)."""
    start_listeners: list[Callable[[int], None]] = field(default_factory=list)
    """Told the id of a race at its common start instant (its boards may be shown from then on)."""
    _tasks: BackgroundTasks = field(default_factory=lambda: BackgroundTasks("race"))
    _updates: Coalescer[int] = field(init=False)
    """The standings' updates: at most one per :data:`STANDINGS_INTERVAL` per race."""

    def __post_init__(self) -> None:
        self._updates = Coalescer(
            self._publish_standings,
            interval=STANDINGS_INTERVAL,
            now=lambda: self.now(),
            sleep=lambda seconds: self.sleep(seconds),
            tasks=self._tasks,
            name="race-standings",
            since=lambda race_id: live.last_publish if (live := self.live.get(race_id)) is not None else None,
        )

    async def snapshot(self, race_id: int) -> RaceSnapshot:
        """What the race message should show now."""
        race, members = await self._rows(race_id)
        ids = tuple(r.user_id for r in members)
        if race.status == "running":
            return RaceSnapshot(race, ids, standings=await self._standings(race, members))
        if race.status == "finished":
            return RaceSnapshot(race, ids, results=await self._results(race, members))
        return RaceSnapshot(race, ids)

    async def _rows(self, race_id: int) -> tuple[RaceRecord, list[RacerRecord]]:
        """The race and its racers: a running race's as last read (kept until the service writes them), else read."""
        live = self.live.get(race_id)
        if live is not None and live.rows is not None:
            return live.rows
        generation = live.generation if live is not None else 0
        race = await load_race(self.db, race_id)
        members = await races_db.racers(self.db, race_id)
        if live is not None and race.status == "running" and live.generation == generation:
            live.rows = (race, members)
        return race, members

    def stale(self, race_id: int) -> None:
        """Forget the race's rows as last read: the service just wrote the race or its racers."""
        live = self.live.get(race_id)
        if live is not None:
            live.rows = None
            live.generation += 1

    async def _standings(self, race: RaceRecord, members: list[RacerRecord]) -> tuple[Standing, ...]:
        live = self.live.get(race.id)
        finals = live.finals if live is not None else {}
        waiting = race.start_at is not None and self.now() < race.start_at
        rows = []
        for racer in members:
            rows.append(await self._standing(racer, finals, waiting=waiting))
        return tuple(sorted(rows, key=_standing_key))

    async def _standing(self, racer: RacerRecord, finals: dict[int, Standing], *, waiting: bool) -> Standing:
        left = racer.left_at is not None
        if racer.game_id is None:
            return Standing(racer.user_id, "left", 0, 0)
        session = self.sessions.get(racer.game_id)
        if session is not None:
            game = session.game
            status = "left" if left else "waiting" if waiting else "playing"
            return Standing(racer.user_id, status, game.placed_count(), game.score, moves=game.version)
        final = finals.get(racer.game_id)
        if final is None:
            record = await games_db.get_game(self.db, racer.game_id)
            if record is None:
                return Standing(racer.user_id, "left", 0, 0)
            final = final_standing(racer.user_id, record)
            finals[racer.game_id] = final
        return replace(final, status="left") if left else final

    async def _results(self, race: RaceRecord, members: list[RacerRecord]) -> tuple[RaceResult, ...]:
        skills = await races_db.ratings_of(self.db, race.guild_id, race.variant, [r.user_id for r in members])
        rows = []
        for racer in members:
            if racer.place is None:
                continue
            record = await games_db.get_game(self.db, racer.game_id) if racer.game_id is not None else None
            skill = skills.get(racer.user_id)
            races = skill.races if skill is not None else 0
            rows.append(
                RaceResult(
                    place=racer.place,
                    user_id=racer.user_id,
                    score=record.score if record is not None else 0,
                    seconds_used=record.seconds_used if record is not None else None,
                    status=_final_status(racer, record),
                    rating_before=racer.rating_before or 0.0,
                    rating_after=racer.rating_after if racer.rated else None,
                    races=races,
                    provisional=Skill(0.0, 0.0, races).provisional,
                )
            )
        return tuple(sorted(rows, key=lambda r: r.place))

    def note_final(self, race_id: int, session: Session, record: GameRecord) -> None:
        """Note a racer's final line (their game just finished) and update the standings."""
        live = self.live.get(race_id)
        if live is not None:
            live.finals[record.id] = final_standing(record.user_id, record, session.game)
            self.touch(race_id)

    def forget(self, race_id: int) -> float:
        """Stop updating a finished race; return how long its results post waits (the interval after the last edit)."""
        self.changed(race_id)
        live = self.live.pop(race_id, None)
        if live is None:
            return 0.0
        self._updates.forget(race_id)
        if live.task is not None and live.task is not asyncio.current_task():
            live.task.cancel()
        return live.last_publish + STANDINGS_INTERVAL - self.now() if live.last_publish is not None else 0.0

    async def stop(self) -> None:
        """Stop every standings update and forget the live races (they stay stored)."""
        await self._tasks.cancel_all()
        self._updates.forget_all()
        self.live.clear()

    def changed(self, race_id: int) -> None:
        """Note that the service changed the race (its rows are read again), and tell every listener."""
        self.stale(race_id)
        self._tell(race_id)

    def started(self, race_id: int) -> None:
        """The race's common start instant came: tell the start listeners."""
        self._tell(race_id, self.start_listeners)

    def _tell(self, race_id: int, listeners: list[Callable[[int], None]] | None = None) -> None:
        """Tell every listener that the race changed (a listener's failure is logged, never raised)."""
        for listener in list(self.listeners if listeners is None else listeners):
            try:
                listener(race_id)
            except Exception:
                log.exception("a listener of race %s failed", race_id)

    def refresh(self, race_id: int) -> None:
        """Show the race as it stands on its message soon, throttled like the standings (a change made elsewhere)."""
        self._tasks.spawn(self._refresh(race_id), f"race-message-{race_id}")

    async def _refresh(self, race_id: int) -> None:
        live = self.live.get(race_id)
        if live is None:  # a closed lobby: its last edit
            await self._publish(await self.snapshot(race_id))
            return
        while live.last_publish is not None and (wait := live.last_publish + STANDINGS_INTERVAL - self.now()) > 0:
            await self.sleep(wait)
        snapshot = await self.snapshot(race_id)
        if snapshot.standings:
            live.shown = snapshot.standings
        await self.show(live, snapshot)

    def touch(self, race_id: int) -> None:
        """Note that the standings changed: update them now, or as soon as the interval allows (coalesced)."""
        self._tell(race_id)
        if race_id in self.live:
            self._updates.mark(race_id)

    async def _publish_standings(self, race_id: int) -> None:
        live = self.live.get(race_id)
        if live is None or live.race.status != "running":
            return
        snapshot = await self.snapshot(race_id)
        if snapshot.standings == live.shown:
            return
        live.shown = snapshot.standings
        await self.show(live, snapshot)

    async def show(self, live: LiveRace, snapshot: RaceSnapshot) -> None:
        """Hand a snapshot to the publisher, never sooner than the interval after the previous one."""
        while live.last_publish is not None and (wait := live.last_publish + STANDINGS_INTERVAL - self.now()) > 0:
            await self.sleep(wait)
        live.last_publish = self.now()
        self.publish_count[live.race.id] = self.publish_count.get(live.race.id, 0) + 1
        await self._publish(snapshot)

    async def _publish(self, snapshot: RaceSnapshot) -> None:
        """Hand a snapshot to the publisher in its server's language (a failure is logged, never raised)."""
        if self.publish is None:
            return
        try:
            with speaking_language(await self.speakers.server(snapshot.race.guild_id)):
                await self.publish(snapshot)
        except Exception:
            log.exception("could not publish race %s", snapshot.race.id)


def final_standing(user_id: int, record: GameRecord, game: Game | None = None) -> Standing:
    """A finished game's line in the standings (replaying its stored log when no game is at hand)."""
    if game is None:
        game = game_from_json(json.loads(record.state))
    return Standing(
        user_id,
        record.status,
        game.placed_count(),
        record.score,
        seconds_used=record.seconds_used,
        finished_at=record.finished_at,
        moves=record.version,
    )


def _final_status(racer: RacerRecord, record: GameRecord | None) -> str:
    """A racer's ending in the results: their game's, or ``left`` if they left before it ended."""
    if record is None:
        return "left"
    if racer.left_at is not None and (record.finished_at is None or racer.left_at <= record.finished_at):
        return "left"
    return record.status


def _standing_key(standing: Standing) -> tuple[bool, int, int, int]:
    """Live order: racers still in first, then by score and cards home."""
    return standing.status == "left", -standing.score, -standing.placed, standing.user_id
