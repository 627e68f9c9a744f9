"""The start of a race: one proven deal for every racer on one clock, to its end; boards and leaving mid-race."""

from __future__ import annotations

import contextlib
import json
import logging
from dataclasses import dataclass

from bot import errors
from bot.compete.events import GroupEvents
from bot.compete.race.errors import (
    GameOverLeaveError,
    LobbyClosedError,
    NotRacerError,
    NotStartedError,
    NotStartedYetError,
    RaceOverError,
)
from bot.compete.race.model import COUNTDOWN_SECONDS, END_GRACE, LiveRace
from bot.compete.race.standings import RaceStandings, load_race
from bot.play.deal_bank import Deal, DealBank
from bot.play.session import Clock, Session, Sleep
from bot.play.sessions import SessionManager
from bot.rules.daily_deals import deal_from_json, deal_to_json
from bot.rules.modes import RACE, mode_of
from bot.storage import Database
from bot.storage import races as races_db
from bot.storage.races import RaceRecord, RacerRecord
from solitaire import END, find_variant
from solitaire.deals import ProvenDeal

log = logging.getLogger(__name__)


@dataclass(eq=False)
class RaceStart:
    """Starts races and runs them to their end, hands racers their boards, and takes racers out of a running race."""

    db: Database
    sessions: SessionManager
    deals: DealBank[Deal]
    standings: RaceStandings
    """Holds the live races (each race's clock is its task there)."""
    events: GroupEvents[RaceRecord, RacerRecord]
    """Where a race's games go, and what finishes it at its end."""
    now: Clock
    sleep: Sleep
    countdown: float | None = None
    """Seconds from a start to the common deal (``None``: :data:`~bot.compete.race.model.COUNTDOWN_SECONDS`)."""

    async def start(self, race: RaceRecord) -> None:
        """Deal one private proven deal to every racer on one clock (the caller holds the race's lock).

        The deal comes from the private bank like a ranked casual game's: nobody can compute it, and
        its seed is shown only once the race is over.
        """
        deal = (await self.deals.take(race.variant)).deal
        start_at = self.now() + (COUNTDOWN_SECONDS if self.countdown is None else self.countdown)
        end_at = start_at + find_variant(race.variant).time_limit
        stored = json.dumps(deal_to_json(ProvenDeal(deal.variant, deal.seed, tuple(deal.deck), ())))
        if not await races_db.claim_start(
            self.db, race.id, start_at=start_at, end_at=end_at, deal=stored, seed=str(deal.seed)
        ):
            raise LobbyClosedError((await load_race(self.db, race.id)).status)
        live = self.standings.live.setdefault(race.id, LiveRace(race))
        if live.task is not None:
            live.task.cancel()
        live.race = await load_race(self.db, race.id)
        await self.deal_all(live.race, deal)
        self.run(live)

    def run(self, live: LiveRace) -> None:
        """Run a started race to its end (its clock: the task the race keeps)."""
        live.task = self.events.tasks.spawn(self._run(live.race.id), f"race-{live.race.id}")

    async def _run(self, race_id: int) -> None:
        """Say the start at its instant (unless it is past already), then at the race's end, end the games still
        running and finish the race."""
        live = self.standings.live[race_id]
        start_at, end_at = live.race.start_at, live.race.end_at
        assert end_at is not None
        if start_at is not None and start_at > self.now():
            while (until_start := start_at - self.now()) > 0:
                await self.sleep(until_start)
            self.standings.started(race_id)
        while (remaining := end_at + END_GRACE - self.now()) > 0:
            await self.sleep(remaining)
        live.task = None
        await self._expire_games(race_id)
        await self.events.try_close(race_id)

    async def _expire_games(self, race_id: int) -> None:
        for racer in await races_db.racers(self.db, race_id):
            session = self.sessions.get(racer.game_id) if racer.game_id is not None else None
            if session is not None:
                await self.sessions.expire(session, source="clock")

    async def shared_deal(self, race: RaceRecord) -> Deal:
        """The race's deal as stored at its start (a race before private deals: its public number)."""
        if race.deal is not None:
            return deal_from_json(json.loads(race.deal))
        return (await self.deals.numbered(race.variant, race.deal_number or 0)).deal

    async def deal_all(self, race: RaceRecord, deal: Deal) -> None:
        """Start the game of every racer without one (at the start, or after a restart mid-start)."""
        assert race.start_at is not None
        for racer in await races_db.racers(self.db, race.id):
            if racer.game_id is not None or racer.left_at is not None:
                continue
            session = await self._start_game(race, racer.user_id, deal)
            if session is None:
                await races_db.mark_left(self.db, race.id, racer.user_id, self.now())
                continue
            await races_db.set_game(self.db, race.id, racer.user_id, session.id)
            self.events.games[session.id] = race.id
        self.standings.stale(race.id)

    async def _start_game(self, race: RaceRecord, user_id: int, deal: Deal) -> Session | None:
        try:
            return await self.sessions.start(
                guild_id=race.guild_id,
                channel_id=race.channel_id,
                user_id=user_id,
                variant=race.variant,
                deal=deal,
                mode="race",
                deal_number=race.deal_number,
                started_at=race.start_at,
            )
        except errors.ActiveGameError:
            running = self.sessions.active_for(race.guild_id, user_id)
            if (
                running is not None
                and mode_of(running.record.mode) is RACE
                and running.record.started_at == race.start_at
            ):
                return running  # stored before a restart cut the start short
            log.info("racer %s of race %s has another game running: left out", user_id, race.id)
            return None

    async def board(self, race_id: int, user_id: int) -> Session:
        """The racer's running game, once the race has started.

        :raises NotStartedError: before the common start instant.
        :raises RaceOverError: the racer's game is over.
        """
        race = await load_race(self.db, race_id)
        if race.status == "lobby":
            raise NotStartedYetError()
        racer = next((r for r in await races_db.racers(self.db, race_id) if r.user_id == user_id), None)
        if racer is None:
            raise NotRacerError()
        if race.status != "running" or racer.game_id is None or racer.left_at is not None:
            raise RaceOverError()
        assert race.start_at is not None
        if self.now() < race.start_at:
            raise NotStartedError(race.start_at)
        session = self.sessions.get(racer.game_id)
        if session is None:
            raise RaceOverError()
        return session

    async def leaver(self, race: RaceRecord, user_id: int) -> Session | None:
        """The running game of a racer who may leave this running race (``None`` if they were never dealt one).

        :raises NotRacerError: not in the race. :raises RaceOverError: already left.
        :raises GameOverLeaveError: their game is over (their result stands).
        """
        racer = next((r for r in await races_db.racers(self.db, race.id) if r.user_id == user_id), None)
        if racer is None:
            raise NotRacerError()
        if racer.left_at is not None:
            raise RaceOverError()
        session = self.sessions.get(racer.game_id) if racer.game_id is not None else None
        if racer.game_id is not None and session is None:
            raise GameOverLeaveError()
        return session

    async def leave_running(self, race: RaceRecord, user_id: int) -> None:
        """End a racer's game and rank them after everyone who stayed; a racer whose game is over keeps their result.

        :raises GameOverLeaveError: the racer's game is already over (nothing changes).
        """
        session = await self.leaver(race, user_id)
        await races_db.mark_left(self.db, race.id, user_id, self.now())
        self.standings.stale(race.id)
        if session is not None:
            with contextlib.suppress(errors.BotError):
                await self.sessions.play(session, END)
