"""The race service: lobbies, starts, standings, results and ratings, re-armed after a restart.

It is composed of parts, none built on another: :class:`~bot.compete.race.standings.RaceStandings` (what the race
message shows), :class:`~bot.compete.race.start.RaceStart` (the common start, boards, the clock to the end), and
one :class:`~bot.compete.events.GroupEvents` run by :class:`~bot.compete.race.finish.RaceRules` (the end: places,
ratings and the results post, once), the lifecycle races share with challenges.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

from bot import errors
from bot.compete.events import GroupEvents
from bot.compete.race.errors import (
    AlreadyRacingError,
    HostOnlyError,
    LobbyClosedError,
    LobbyFullError,
    NotRacerError,
    RaceOverError,
    TooFewRacersError,
)
from bot.compete.race.finish import RaceRules
from bot.compete.race.model import LOBBY_SECONDS, MAX_RACERS, MIN_RACERS, LiveRace, Publisher, RaceSnapshot
from bot.compete.race.standings import RaceStandings, load_race
from bot.compete.race.start import RaceStart
from bot.outbox.announcements import Announcements
from bot.play.deal_bank import Deal, DealBank
from bot.play.session import Clock, Session, Sleep
from bot.play.sessions import SessionManager
from bot.rules.modes import RACE
from bot.storage import Database
from bot.storage import races as races_db
from bot.storage.races import RaceRecord
from solitaire import find_variant

log = logging.getLogger(__name__)

MessagePoster = Callable[[RaceSnapshot], Awaitable[int | None]]
"""Posts a race's public message in its channel and returns its id (``None``: it could not be posted); never raises."""

_JOIN_REFUSALS: dict[str, Callable[[], Exception]] = {
    "full": LobbyFullError,
    "closed": lambda: LobbyClosedError("closed"),
    "playing": lambda: errors.ActiveGameError(0),
    "seated": lambda: AlreadyRacingError(here=False),
}
"""The refusal for each way :func:`bot.storage.races.add_racer` can say no."""


class RaceService:
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
        announcements: Announcements,
        countdown: float | None = None,
    ) -> None:
        """Keep races in ``db``, played on ``sessions`` with deals from ``deals``; results go via ``announcements``.

        ``publish`` shows the lobby and the live standings; the final results go through
        ``announcements`` (stored and retried until the race message shows them). Both are said in the language
        of the race's server (``announcements.speakers``). ``countdown``: the seconds
        from a start to the common deal (``None``: the bot's ``COUNTDOWN_SECONDS``; tests shorten it).
        """
        self.db = db
        self.sessions = sessions
        self.deals = deals
        self.now = now
        self.announcements = announcements
        self.standings = RaceStandings(db, sessions, now, sleep, publish, announcements.speakers)
        self.events = GroupEvents(
            RaceRules(db, self.standings, now), db, sessions, self.announcements, now=now, sleep=sleep
        )
        self.starts = RaceStart(db, sessions, deals, self.standings, self.events, now, sleep, countdown)
        self.publish_count = self.standings.publish_count
        """Standings and results handed to ``publish``, per race (for tests and benchmarks)."""
        self._live = self.standings.live
        self._locks = self.events.locks
        self.post_message: MessagePoster | None = None
        """Posts the race message of a race opened on another surface than a command (the cog sets it)."""
        sessions.add_move_listener(self._on_move, mode=RACE)

    def add_listener(self, listener: Callable[[int], None]) -> None:
        """Tell ``listener`` the id of every race that changes: lobby, start, standings, end (on any surface)."""
        self.standings.listeners.append(listener)

    def add_start_listener(self, listener: Callable[[int], None]) -> None:
        """Tell ``listener`` the id of every race this process runs at its common start instant."""
        self.standings.start_listeners.append(listener)

    def remove_listener(self, listener: Callable[[int], None]) -> None:
        """Stop telling ``listener`` (of changes and of starts)."""
        for listeners in (self.standings.listeners, self.standings.start_listeners):
            if listener in listeners:
                listeners.remove(listener)

    def is_open(self, race_id: int) -> bool:
        """Whether this process runs the race (a lobby or a running race)."""
        return race_id in self._live

    def open_in(self, guild_id: int, channel_id: int) -> list[int]:
        """The ids of the open races (lobby or running) this process runs in a channel, oldest first."""
        return sorted(
            race_id
            for race_id, live in self._live.items()
            if live.race.guild_id == guild_id and live.race.channel_id == channel_id
        )

    async def post(self, race_id: int) -> bool:
        """Post the public race message of a race opened elsewhere and remember it; whether it was posted."""
        if self.post_message is None:
            return False
        message_id = await self.post_message(await self.snapshot(race_id))
        if message_id is None:
            log.warning("the message of race %s could not be posted: it runs without one", race_id)
            return False
        await self.set_message(race_id, message_id)
        return True

    def refresh_message(self, race_id: int) -> None:
        """Show a change made off the race message's buttons on the message (throttled, in the background)."""
        self.standings.refresh(race_id)

    @property
    def publish(self) -> Publisher | None:
        """Shows the lobby and the live standings on the race message (the cog sets it)."""
        return self.standings.publish

    @publish.setter
    def publish(self, publish: Publisher | None) -> None:
        self.standings.publish = publish

    @property
    def sleep(self) -> Sleep:
        """How every part of the service waits (the standings throttle, the clocks, the delayed results post)."""
        return self.standings.sleep

    @sleep.setter
    def sleep(self, sleep: Sleep) -> None:
        self.standings.sleep = self.starts.sleep = self.events.sleep = sleep

    async def where(self, race_id: int) -> tuple[int, int]:
        """The server and channel of race ``race_id`` (an open one from memory, else one read).

        :raises RaceError: there is no such race.
        """
        live = self._live.get(race_id)
        race = live.race if live is not None else await self._race(race_id)
        return race.guild_id, race.channel_id

    async def snapshot(self, race_id: int) -> RaceSnapshot:
        """What the race message should show now."""
        return await self.standings.snapshot(race_id)

    async def board(self, race_id: int, user_id: int) -> Session:
        """The racer's running game, once the race has started (see :meth:`RaceStart.board`)."""
        return await self.starts.board(race_id, user_id)

    async def open(self, *, guild_id: int, channel_id: int, host_id: int, variant: str, capacity: int) -> RaceSnapshot:
        """Open a lobby with its host as the first racer.

        :raises ActiveGameError: the host has a game running here.
        :raises AlreadyRacingError: the host is in another open race here.
        """
        find_variant(variant)
        if not MIN_RACERS <= capacity <= MAX_RACERS:
            raise ValueError(f"a race has {MIN_RACERS} to {MAX_RACERS} racers, not {capacity}")
        async with self.sessions.hold(guild_id, host_id):
            await self._check_free(guild_id, host_id)
            now = self.now()
            try:
                race = await races_db.create_race(
                    self.db,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    variant=variant,
                    capacity=capacity,
                    now=now,
                    lobby_deadline=now + LOBBY_SECONDS,
                )
            except races_db.SeatTakenError:
                raise AlreadyRacingError(here=False) from None
        live = self._live[race.id] = LiveRace(race)
        self._expire_lobby_at_deadline(live)
        self.standings.changed(race.id)
        return await self.snapshot(race.id)

    async def set_message(self, race_id: int, message_id: int) -> None:
        """Remember the public race message."""
        await races_db.set_message(self.db, race_id, message_id)
        self.standings.stale(race_id)
        live = self._live.get(race_id)
        if live is not None:
            live.race = await self._race(race_id)

    async def join(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Seat a racer (in one lobby of the server at most); a lobby that becomes full starts at once.

        :raises AlreadyRacingError: the member is in this race, or sits in another open race here.
        :raises ActiveGameError: the member has a game running here.
        :raises MemberBusyError: a start or another join of this member is under way.
        """
        async with self._locks.lock(race_id):
            race = await self._lobby(race_id)
            members = await races_db.racers(self.db, race_id)
            if any(r.user_id == user_id for r in members):
                raise AlreadyRacingError(here=True)
            async with self.sessions.hold(race.guild_id, user_id):
                await self._check_free(race.guild_id, user_id)
                outcome = await races_db.add_racer(self.db, race_id, user_id, self.now())
            if outcome != "joined":
                raise _JOIN_REFUSALS[outcome]()
            if len(members) + 1 >= race.capacity:
                await self.starts.start(race)
        self.standings.changed(race_id)
        return await self.snapshot(race_id)

    async def leaving_ends_a_game(self, race_id: int, user_id: int) -> bool:
        """Whether leaving now would end the member's running race game (so the cog asks first).

        :raises NotRacerError, RaceOverError, GameOverLeaveError: leaving a running race is refused.
        """
        race = await self._race(race_id)
        if race.status != "running":
            return False
        await self.starts.leaver(race, user_id)
        return True

    async def leave_running(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Leave a running race (the confirmed Leave race): refused if it is no longer running.

        :raises RaceOverError: the race is over, or the member already left.
        """
        async with self._locks.lock(race_id):
            race = await self._race(race_id)
            if race.status != "running":
                raise RaceOverError()
            await self.starts.leave_running(race, user_id)
        self.standings.changed(race_id)
        return await self.snapshot(race_id)

    async def leave(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Take a racer out: from a lobby (a leaving host hands it on), or out of a running race (ranked last)."""
        async with self._locks.lock(race_id):
            race = await self._race(race_id)
            if race.status == "running":
                await self.starts.leave_running(race, user_id)
                self.standings.changed(race_id)
                return await self.snapshot(race_id)
            if race.status != "lobby":
                raise LobbyClosedError(race.status)
            if not await races_db.remove_racer(self.db, race_id, user_id):
                raise NotRacerError()
            rest = await races_db.racers(self.db, race_id)
            if not rest:
                await self._close_lobby(race_id, "cancelled")
            elif race.host_id == user_id:
                await races_db.set_host(self.db, race_id, rest[0].user_id)
        self.standings.changed(race_id)
        return await self.snapshot(race_id)

    async def start(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Start a lobby now (host only, two racers or more)."""
        async with self._locks.lock(race_id):
            race = await self._hosted_lobby(race_id, user_id, "start")
            if len(await races_db.racers(self.db, race_id)) < MIN_RACERS:
                raise TooFewRacersError()
            await self.starts.start(race)
        self.standings.changed(race_id)
        return await self.snapshot(race_id)

    async def cancel(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Cancel a lobby (host only)."""
        async with self._locks.lock(race_id):
            await self._hosted_lobby(race_id, user_id, "cancel")
            await self._close_lobby(race_id, "cancelled")
        self.standings.changed(race_id)
        return await self.snapshot(race_id)

    async def may_solve(self, race_id: int, user_id: int, action: Literal["join", "start"]) -> bool:
        """Whether this join or start would start the race and wait for the solver (answer Discord first)."""
        race = await self._race(race_id)
        if race.status != "lobby" or self.deals.ready(race.variant):
            return False
        count = len(await races_db.racers(self.db, race_id))
        if action == "start":
            return race.host_id == user_id and count >= MIN_RACERS
        return count + 1 >= race.capacity

    async def message_of(self, race_id: int) -> int | None:
        """The public race message's id (``None`` until it is stored)."""
        return (await self._race(race_id)).message_id

    async def _expire_lobby(self, race_id: int) -> None:
        live = self._live[race_id]
        while (remaining := live.race.lobby_deadline - self.now()) > 0:
            await self.sleep(remaining)
        async with self._locks.lock(race_id):
            if (await self._race(race_id)).status != "lobby":
                return
            live.task = None
            await self._close_lobby(race_id, "expired")
        self.standings.changed(race_id)
        snapshot = await self.snapshot(race_id)
        await self.standings.show(live, snapshot)

    async def _close_lobby(self, race_id: int, status: Literal["cancelled", "expired"]) -> None:
        await races_db.close_lobby(self.db, race_id, status, self.now())
        live = self._live.pop(race_id, None)
        if live is not None and live.task is not None and live.task is not asyncio.current_task():
            live.task.cancel()

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

    def _expire_lobby_at_deadline(self, live: LiveRace) -> None:
        """Close the lobby at its deadline unless it started."""
        live.task = self.events.tasks.spawn(self._expire_lobby(live.race.id), f"race-lobby-{live.race.id}")

    def _on_move(self, session: Session) -> None:
        if (race_id := self.events.games.get(session.id)) is not None:
            self.standings.touch(race_id)

    async def resume(self, *, owns: Callable[[int], bool] = lambda guild_id: True) -> list[int]:
        """Re-arm every open race of a server ``owns`` accepts (run after the sessions resumed); return their ids."""
        resumed = []
        for race in await races_db.open_races(self.db):
            if race.id in self._live or not owns(race.guild_id):  # another process runs its shard
                continue
            live = self._live[race.id] = LiveRace(race)
            resumed.append(race.id)
            if race.status == "lobby":
                self._expire_lobby_at_deadline(live)
                continue
            await self.events.track(race.id)
            if race.end_at is not None and self.now() < race.end_at:
                await self.starts.deal_all(race, await self.starts.shared_deal(race))
            self.starts.run(live)
            self.standings.touch(race.id)
            await self.events.try_close(race.id)
        return resumed

    async def close(self) -> None:
        """Stop every race task (races stay stored, to resume at the next start)."""
        await self.events.stop()
        await self.standings.stop()

    async def settle(self, *, results: bool = False) -> None:
        """Wait for the race finishes already under way (tests and benchmarks); with ``results``, their posts too.

        A results post waits for the standings interval on the clock: advance it before waiting for it.
        """
        await self.events.settle(results=results)

    async def _race(self, race_id: int) -> RaceRecord:
        return await load_race(self.db, race_id)

    async def _lobby(self, race_id: int) -> RaceRecord:
        race = await self._race(race_id)
        if race.status != "lobby":
            raise LobbyClosedError(race.status)
        return race

    async def _hosted_lobby(self, race_id: int, user_id: int, action: str) -> RaceRecord:
        """The open lobby, if ``user_id`` hosts it; :raises HostOnlyError: another member asks to ``action`` it."""
        race = await self._lobby(race_id)
        if race.host_id != user_id:
            raise HostOnlyError(action)
        return race
