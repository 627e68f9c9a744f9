"""How a race ends, as the shared group-event close asks it (:class:`~bot.compete.events.EventRules`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.compete.events import EventTables
from bot.compete.placing import Entry
from bot.compete.race.errors import UnknownRaceError
from bot.compete.race.model import RaceSnapshot
from bot.compete.race.standings import RaceStandings
from bot.compete.results import entry
from bot.play.session import Clock, Session
from bot.storage import Database
from bot.storage import races as races_db
from bot.storage.games import GameRecord
from bot.storage.races import RaceRecord, RacerRecord, Rate

RACES = EventTables(
    "race", "running", "finished", races_db.get_race, UnknownRaceError, races_db.racers, races_db.race_of_game
)
"""Where races are stored: a running race may finish, a finished one has its results."""


@dataclass(eq=False)
class RaceRules:
    """A race closes once every racer's game is over; it places every racer, those who left last."""

    db: Database
    standings: RaceStandings
    now: Clock
    tables: EventTables[RaceRecord, RacerRecord] = RACES
    restarts_wait_for_resume: bool = True
    """A race game ended by a restart is left to the resume, which tries to finish each race it re-arms."""

    async def may_close(self, event: RaceRecord, members: Sequence[RacerRecord]) -> bool:
        """A running race finishes as soon as every racer's game is over."""
        return True

    def entries(self, members: Sequence[RacerRecord], games: dict[int, GameRecord]) -> list[Entry]:
        """Every racer, with their game if they were dealt one and when they left, if they did."""
        return [entry(r.user_id, games.get(r.user_id), left_at=r.left_at) for r in members]

    async def store(self, event: RaceRecord, rate: Rate) -> bool:
        """Finish the race: places, ratings, seats given back and the results post, in one write."""
        return await races_db.finish_race(self.db, event.id, now=self.now(), rate=rate)

    def heard(self, event_id: int, session: Session, record: GameRecord) -> None:
        """A racer's game ended: their final line goes into the standings."""
        self.standings.note_final(event_id, session, record)

    def closed(self, event_id: int) -> float:
        """Stop the finished race's timers; its results post waits for the standings interval."""
        return self.standings.forget(event_id)

    async def results(self, event_id: int) -> RaceSnapshot:
        """The finished race's results post."""
        return await self.standings.snapshot(event_id)
