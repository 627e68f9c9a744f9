"""Races: a lobby, then one proven deal for every racer on a shared clock, live standings, results and ratings.

Nothing here knows Discord. Each racer's game is an ordinary session of the
:class:`~bot.sessions.SessionManager` (mode ``"race"``): every move goes through the
engine and is saved with its log, and the game's clock is the race's (it starts at the
common start instant and ends at the race's end). The service keeps the race rows,
decides when a race starts and ends, ranks the racers as the dailies do, updates their
ratings once (claimed in the database) and hands what the public race message should
show to ``publish``: at most one standings update per race every :data:`STANDINGS_INTERVAL`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from bot import errors
from bot.competition import Ranked, RankKey, rank_key
from bot.deal_bank import Deal, DealBank
from bot.ratings import Skill, newcomer, rate
from bot.sessions import Clock, FinishSource, Session, SessionManager, Sleep
from bot.storage import Database
from bot.storage import games as games_db
from bot.storage import races as races_db
from bot.storage.games import GameRecord
from bot.storage.races import Placing, RaceRecord, RacerRecord, RatingRecord
from solitaire import END, Game, find_variant, game_from_json

log = logging.getLogger(__name__)

MIN_RACERS = 2
MAX_RACERS = 8
LOBBY_SECONDS = 600.0
"""A lobby expires this long after it opened without a start."""
COUNTDOWN_SECONDS = 10.0
"""The common start instant is this far after the start click (time to open the boards)."""
STANDINGS_INTERVAL = 2.0
"""At most one standings update per race in this many seconds (Discord's edit rate limits)."""
END_GRACE = 1.0
"""After the race's end, wait this long for the racers' clocks before ending what is left."""


class RaceError(errors.BotError):
    """A race refusal, answered privately with ``str(error)``."""


class UnknownRaceError(RaceError):
    """A button names a race that does not exist."""

    def __init__(self) -> None:
        super().__init__("That race does not exist any more.")


class LobbyClosedError(RaceError):
    """Joining, starting or cancelling a race that is no longer a lobby."""

    def __init__(self, status: str) -> None:
        words = {"running": "has already started", "finished": "is over", "cancelled": "was cancelled"}
        super().__init__(f"This race {words.get(status, 'lobby has expired')}.")


class LobbyFullError(RaceError):
    """No room left in a lobby."""

    def __init__(self) -> None:
        super().__init__("This race is full.")


class AlreadyRacingError(RaceError):
    """A member already in this race (or another open one here)."""

    def __init__(self, here: bool) -> None:
        super().__init__("You are already in this race." if here else "You are already in another race here.")


class NotRacerError(RaceError):
    """A member who is not in the race."""

    def __init__(self) -> None:
        super().__init__("You are not in this race: join it first.")


class HostOnlyError(RaceError):
    """Only the host may start or cancel."""

    def __init__(self, action: str) -> None:
        super().__init__(f"Only the host can {action} the race.")


class TooFewRacersError(RaceError):
    """Starting with fewer than two racers."""

    def __init__(self) -> None:
        super().__init__(f"A race needs at least {MIN_RACERS} racers.")


class NotStartedError(RaceError):
    """Opening a board before the common start instant."""

    def __init__(self, start_at: float) -> None:
        super().__init__(f"The race starts <t:{int(start_at)}:R>: open your board then.")


class NotStartedYetError(RaceError):
    """Opening a board while the race is still a lobby."""

    def __init__(self) -> None:
        super().__init__("The race has not started yet.")


class RaceOverError(RaceError):
    """Opening a board of a race that is over for this racer."""

    def __init__(self) -> None:
        super().__init__("Your race is over: the results are on the race message.")


@dataclass(frozen=True)
class Standing:
    """One racer's place in the live standings."""

    user_id: int
    status: str
    """``waiting`` (before the start), ``playing``, ``left``, or the game's final status."""
    placed: int
    """Cards home."""
    score: int
    seconds_used: int | None = None
    finished_at: float | None = None
    moves: int = 0


@dataclass(frozen=True)
class RaceResult:
    """One racer's final line: place, score, time and rating change."""

    place: int
    user_id: int
    score: int
    seconds_used: int | None
    status: str
    rating_before: float
    rating_after: float
    races: int
    provisional: bool


@dataclass(frozen=True)
class RaceSnapshot:
    """What the public race message shows now."""

    race: RaceRecord
    racers: tuple[int, ...]
    """User ids in joining order (racers who left a lobby are gone)."""
    standings: tuple[Standing, ...] = ()
    results: tuple[RaceResult, ...] = ()


Publisher = Callable[[RaceSnapshot], Awaitable[None]]
"""Shows a snapshot on the public race message (the cog edits it); must not raise."""


@dataclass
class _Live:
    """In-memory state of one open race."""

    race: RaceRecord
    task: asyncio.Task[None] | None = None
    """The lobby's expiry, or the running race's end."""
    flush: asyncio.Task[None] | None = None
    """The standings update waiting for its turn."""
    dirty: bool = False
    shown: tuple[Standing, ...] | None = None
    last_publish: float | None = None
    finals: dict[int, Standing] = field(default_factory=dict)
    """Final standings of finished games, by game id."""


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
    ) -> None:
        """Keep races in ``db`` and play them on ``sessions`` with deals from ``deals``."""
        self.db = db
        self.sessions = sessions
        self.deals = deals
        self.now = now
        self.sleep = sleep
        self.publish: Publisher | None = publish
        self.publish_count: dict[int, int] = {}
        """Standings and results handed to ``publish``, per race (for tests and benchmarks)."""
        self._live: dict[int, _Live] = {}
        self._games: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._background: set[asyncio.Task[None]] = set()
        sessions.add_finish_listener(self._on_game_finished)
        sessions.add_move_listener(self._on_move)

    # -- lobby -----------------------------------------------------------------------
    async def open(self, *, guild_id: int, channel_id: int, host_id: int, variant: str, capacity: int) -> RaceSnapshot:
        """Open a lobby with its host as the first racer.

        :raises ActiveGameError: the host has a game running here.
        :raises AlreadyRacingError: the host is in another open race here.
        """
        find_variant(variant)
        if not MIN_RACERS <= capacity <= MAX_RACERS:
            raise ValueError(f"a race has {MIN_RACERS} to {MAX_RACERS} racers, not {capacity}")
        await self._check_free(guild_id, host_id)
        now = self.now()
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
        live = self._live[race.id] = _Live(race)
        live.task = self._spawn(self._expire_lobby(race.id), f"race-lobby-{race.id}")
        return await self.snapshot(race.id)

    async def set_message(self, race_id: int, message_id: int) -> None:
        """Remember the public race message."""
        await races_db.set_message(self.db, race_id, message_id)
        live = self._live.get(race_id)
        if live is not None:
            live.race = await self._race(race_id)

    async def join(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Add a racer; a lobby that becomes full starts at once."""
        async with self._lock(race_id):
            race = await self._lobby(race_id)
            members = await races_db.racers(self.db, race_id)
            if any(r.user_id == user_id for r in members):
                raise AlreadyRacingError(here=True)
            await self._check_free(race.guild_id, user_id)
            if not await races_db.add_racer(self.db, race_id, user_id, self.now()):
                raise LobbyFullError()
            if len(members) + 1 >= race.capacity:
                await self._start(race)
        return await self.snapshot(race_id)

    async def leave(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Take a racer out: from a lobby (a leaving host hands it on), or out of a running race (ranked last)."""
        async with self._lock(race_id):
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
        async with self._lock(race_id):
            race = await self._lobby(race_id)
            if race.host_id != user_id:
                raise HostOnlyError("start")
            if len(await races_db.racers(self.db, race_id)) < MIN_RACERS:
                raise TooFewRacersError()
            await self._start(race)
        return await self.snapshot(race_id)

    async def cancel(self, race_id: int, user_id: int) -> RaceSnapshot:
        """Cancel a lobby (host only)."""
        async with self._lock(race_id):
            race = await self._lobby(race_id)
            if race.host_id != user_id:
                raise HostOnlyError("cancel")
            await self._close_lobby(race_id, "cancelled")
        return await self.snapshot(race_id)

    async def board(self, race_id: int, user_id: int) -> Session:
        """The racer's running game, once the race has started.

        :raises NotStartedError: before the common start instant.
        :raises RaceOverError: the racer's game is over.
        """
        race = await self._race(race_id)
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

    # -- snapshots -------------------------------------------------------------------
    async def snapshot(self, race_id: int) -> RaceSnapshot:
        """What the race message should show now."""
        race = await self._race(race_id)
        members = await races_db.racers(self.db, race_id)
        ids = tuple(r.user_id for r in members)
        if race.status == "running":
            return RaceSnapshot(race, ids, standings=await self._standings(race, members))
        if race.status == "finished":
            return RaceSnapshot(race, ids, results=await self._results(race, members))
        return RaceSnapshot(race, ids)

    async def _standings(self, race: RaceRecord, members: list[RacerRecord]) -> tuple[Standing, ...]:
        live = self._live.get(race.id)
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
            final = _final_standing(racer.user_id, record)
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
                    status="left" if racer.left_at is not None or record is None else record.status,
                    rating_before=racer.rating_before or 0.0,
                    rating_after=racer.rating_after or 0.0,
                    races=races,
                    provisional=Skill(0.0, 0.0, races).provisional,
                )
            )
        return tuple(sorted(rows, key=lambda r: r.place))

    # -- starting --------------------------------------------------------------------
    async def _start(self, race: RaceRecord) -> None:
        """Deal one proven deal to every racer on one clock (the caller holds the race's lock)."""
        numbered = await self.deals.take(race.variant)
        start_at = self.now() + COUNTDOWN_SECONDS
        end_at = start_at + find_variant(race.variant).time_limit
        if not await races_db.claim_start(
            self.db, race.id, start_at=start_at, end_at=end_at, deal_number=numbered.number
        ):
            raise LobbyClosedError((await self._race(race.id)).status)
        live = self._live.setdefault(race.id, _Live(race))
        if live.task is not None:
            live.task.cancel()
        live.race = await self._race(race.id)
        await self._deal_all(live.race, numbered.deal)
        live.task = self._spawn(self._run(race.id), f"race-{race.id}")

    async def _deal_all(self, race: RaceRecord, deal: Deal) -> None:
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
            self._games[session.id] = race.id

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
            if running is not None and running.record.mode == "race" and running.record.started_at == race.start_at:
                return running  # stored before a restart cut the start short
            log.info("racer %s of race %s has another game running: left out", user_id, race.id)
            return None

    # -- running ---------------------------------------------------------------------
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

    def _on_move(self, session: Session) -> None:
        if session.record.mode == "race" and (race_id := self._games.get(session.id)) is not None:
            self._touch(race_id)

    def _touch(self, race_id: int) -> None:
        """Note that the standings changed: update them now, or as soon as the interval allows (coalesced)."""
        live = self._live.get(race_id)
        if live is None:
            return
        live.dirty = True
        if live.flush is None or live.flush.done():
            live.flush = self._spawn(self._flush(race_id), f"race-standings-{race_id}")

    async def _flush(self, race_id: int) -> None:
        live = self._live.get(race_id)
        while live is not None and live.dirty and race_id in self._live:
            if live.last_publish is not None and (wait := live.last_publish + STANDINGS_INTERVAL - self.now()) > 0:
                await self.sleep(wait)
            live.dirty = False
            await self._publish_standings(race_id)

    async def _publish_standings(self, race_id: int) -> None:
        live = self._live.get(race_id)
        if live is None or live.race.status != "running":
            return
        snapshot = await self.snapshot(race_id)
        if snapshot.standings == live.shown:
            return
        live.shown = snapshot.standings
        await self._publish(live, snapshot)

    async def _publish(self, live: _Live, snapshot: RaceSnapshot) -> None:
        """Hand a snapshot to the publisher, never sooner than the interval after the previous one."""
        while live.last_publish is not None and (wait := live.last_publish + STANDINGS_INTERVAL - self.now()) > 0:
            await self.sleep(wait)
        live.last_publish = self.now()
        self.publish_count[live.race.id] = self.publish_count.get(live.race.id, 0) + 1
        if self.publish is not None:
            try:
                await self.publish(snapshot)
            except Exception:
                log.exception("could not publish race %s", live.race.id)

    async def _leave_running(self, race: RaceRecord, user_id: int) -> None:
        racer = next((r for r in await races_db.racers(self.db, race.id) if r.user_id == user_id), None)
        if racer is None:
            raise NotRacerError()
        if racer.left_at is not None:
            raise RaceOverError()
        await races_db.mark_left(self.db, race.id, user_id, self.now())
        session = self.sessions.get(racer.game_id) if racer.game_id is not None else None
        if session is not None:
            with contextlib.suppress(errors.BotError):
                await self.sessions.play(session, END)

    async def _expire_games(self, race_id: int) -> None:
        for racer in await races_db.racers(self.db, race_id):
            session = self.sessions.get(racer.game_id) if racer.game_id is not None else None
            if session is not None:
                await self.sessions.expire(session, source="clock")

    async def _on_game_finished(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        if record.mode != "race":
            return
        race_id = self._games.get(record.id) or await races_db.race_of_game(self.db, record.id)
        if race_id is None:
            return
        live = self._live.get(race_id)
        if live is not None:
            live.finals[record.id] = _final_standing(record.user_id, record, session.game)
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
        await self._publish(live or _Live(snapshot.race), snapshot)

    # -- lobbies that end ------------------------------------------------------------
    async def _expire_lobby(self, race_id: int) -> None:
        live = self._live[race_id]
        while (remaining := live.race.lobby_deadline - self.now()) > 0:
            await self.sleep(remaining)
        async with self._lock(race_id):
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

    # -- restarts --------------------------------------------------------------------
    async def resume(self, *, owns: Callable[[int], bool] = lambda guild_id: True) -> list[int]:
        """Re-arm every open race of a server ``owns`` accepts (run after the sessions resumed); return their ids."""
        resumed = []
        for race in await races_db.open_races(self.db):
            if race.id in self._live or not owns(race.guild_id):  # another process runs its shard
                continue
            live = self._live[race.id] = _Live(race)
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
            await self._try_finish(race.id)
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

    # -- helpers ---------------------------------------------------------------------
    def _lock(self, race_id: int) -> asyncio.Lock:
        return self._locks.setdefault(race_id, asyncio.Lock())

    def _spawn(self, work: Awaitable[None], name: str) -> asyncio.Task[None]:
        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("race task %s failed", name)

        task = asyncio.get_running_loop().create_task(run(), name=name)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _race(self, race_id: int) -> RaceRecord:
        race = await races_db.get_race(self.db, race_id)
        if race is None:
            raise UnknownRaceError()
        return race

    async def _lobby(self, race_id: int) -> RaceRecord:
        race = await self._race(race_id)
        if race.status != "lobby":
            raise LobbyClosedError(race.status)
        return race

    async def _check_free(self, guild_id: int, user_id: int) -> None:
        if self.sessions.active_for(guild_id, user_id) is not None:
            raise errors.ActiveGameError(0)
        if await races_db.open_race_of(self.db, guild_id, user_id) is not None:
            raise AlreadyRacingError(here=False)


def _skill(record: RatingRecord | None) -> Skill:
    return Skill(record.mu, record.sigma, record.races) if record is not None else newcomer()


def _final_standing(user_id: int, record: GameRecord, game: Game | None = None) -> Standing:
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


def _standing_key(standing: Standing) -> tuple[bool, int, int, int]:
    """Live order: racers still in first, then by score and cards home."""
    return standing.status == "left", -standing.score, -standing.placed, standing.user_id
