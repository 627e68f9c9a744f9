"""Race lobbies: open, join, leave (a leaving host hands it on), start, cancel, expire."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Literal

from bot import errors
from bot.race.errors import (
    AlreadyRacingError,
    HostOnlyError,
    LobbyClosedError,
    LobbyFullError,
    NotRacerError,
    RaceOverError,
    TooFewRacersError,
)
from bot.race.model import LOBBY_SECONDS, MAX_RACERS, MIN_RACERS, LiveRace, RaceSnapshot
from bot.race.start import RaceStart
from bot.storage import races as races_db
from solitaire import find_variant

_JOIN_REFUSALS: dict[str, Callable[[], Exception]] = {
    "full": LobbyFullError,
    "closed": lambda: LobbyClosedError("closed"),
    "playing": lambda: errors.ActiveGameError(0),
    "seated": lambda: AlreadyRacingError(here=False),
}
"""The refusal for each way :func:`bot.storage.races.add_racer` can say no."""


class RaceLobby(RaceStart):
    """Lobbies until their race starts (a full lobby starts at once)."""

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
        live.task = self._tasks.spawn(self._expire_lobby(race.id), f"race-lobby-{race.id}")
        return await self.snapshot(race.id)

    async def set_message(self, race_id: int, message_id: int) -> None:
        """Remember the public race message."""
        await races_db.set_message(self.db, race_id, message_id)
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
                await self._start(race)
        return await self.snapshot(race_id)

    async def leaving_ends_a_game(self, race_id: int, user_id: int) -> bool:
        """Whether leaving now would end the member's running race game (so the cog asks first).

        :raises NotRacerError, RaceOverError, GameOverLeaveError: leaving a running race is refused.
        """
        race = await self._race(race_id)
        if race.status != "running":
            return False
        await self._leaver(race, user_id)
        return True

    async def leave_running(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Leave a running race (the confirmed Leave race): refused if it is no longer running.

        :raises RaceOverError: the race is over, or the member already left.
        """
        async with self._locks.lock(race_id):
            race = await self._race(race_id)
            if race.status != "running":
                raise RaceOverError()
            await self._leave_running(race, user_id)
        return await self.snapshot(race_id)

    async def leave(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Take a racer out: from a lobby (a leaving host hands it on), or out of a running race (ranked last)."""
        async with self._locks.lock(race_id):
            race = await self._race(race_id)
            if race.status == "running":
                await self._leave_running(race, user_id)
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
        return await self.snapshot(race_id)

    async def start(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Start a lobby now (host only, two racers or more)."""
        async with self._locks.lock(race_id):
            race = await self._lobby(race_id)
            if race.host_id != user_id:
                raise HostOnlyError("start")
            if len(await races_db.racers(self.db, race_id)) < MIN_RACERS:
                raise TooFewRacersError()
            await self._start(race)
        return await self.snapshot(race_id)

    async def cancel(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Cancel a lobby (host only)."""
        async with self._locks.lock(race_id):
            race = await self._lobby(race_id)
            if race.host_id != user_id:
                raise HostOnlyError("cancel")
            await self._close_lobby(race_id, "cancelled")
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
        snapshot = await self.snapshot(race_id)
        await self._publish(live, snapshot)

    async def _close_lobby(self, race_id: int, status: Literal["cancelled", "expired"]) -> None:
        await races_db.close_lobby(self.db, race_id, status, self.now())
        live = self._live.pop(race_id, None)
        if live is not None and live.task is not None and live.task is not asyncio.current_task():
            live.task.cancel()
