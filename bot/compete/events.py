"""One lifecycle for group events (races and challenges): who plays, when one closes, places, ratings, results once.

A race and a challenge differ in how members come in and when they play, not in how they end: each
plays one private deal, closes once every game of it is over (or at its deadline), places its members,
moves the ratings (:func:`bot.compete.results.rate_results`), stores all of it in one write and posts the
results once through the announcements. :class:`GroupEvents` runs that end for any kind of event; the
kind fills in the named hooks of :class:`EventRules`. A service holds one :class:`GroupEvents` and hands
it its rules (composition: nothing here reads the service's own state). An event is closed in its server's
language, whoever's task closes it: the words stored with its results (why it was not rated) are its posts'.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from bot.background import BackgroundTasks, KeyedLocks
from bot.compete.placing import Entry
from bot.compete.results import rate_results
from bot.outbox.announcements import Announcement, Announcements
from bot.play.session import Clock, FinishSource, Session, Sleep
from bot.play.sessions import SessionManager
from bot.rules.modes import mode_of
from bot.rules.visibility import EventKind, EventState
from bot.storage import Database
from bot.storage import games as games_db
from bot.storage.games import GameRecord
from bot.storage.outbox import Pending
from bot.storage.races import Rate
from languages import speaking_language


class EventRecord(Protocol):
    """A stored race or challenge, as the shared lifecycle reads it."""

    @property
    def id(self) -> int:
        """Its id."""

    @property
    def guild_id(self) -> int:
        """Its server."""

    @property
    def channel_id(self) -> int:
        """Where its message and its results go."""

    @property
    def variant(self) -> str:
        """The rules its deal is played by."""

    @property
    def status(self) -> str:
        """Where it stands (``running``, ``open``, ``finished``, ``closed`` ...)."""


class MemberRecord(Protocol):
    """A stored racer or challenge player, as the shared lifecycle reads it."""

    @property
    def user_id(self) -> int:
        """The member."""

    @property
    def game_id(self) -> int | None:
        """Their game in the event (``None``: never dealt one)."""


EventT = TypeVar("EventT", bound=EventRecord)
MemberT = TypeVar("MemberT", bound=MemberRecord)


@dataclass(frozen=True)
class EventTables(Generic[EventT, MemberT]):
    """Where one kind of group event is stored, and the statuses the close reads and writes."""

    kind: EventKind
    """Its name: its games' mode, its announcements' kind, its tasks' prefix."""
    open_status: str
    """The status of an event that may still close (``running`` for a race)."""
    closed_status: str
    """The status a close stores (``finished`` for a race)."""
    find: Callable[[Database, int], Awaitable[EventT | None]]
    """The stored event, or ``None``."""
    unknown: Callable[[], Exception]
    """The refusal for an event that does not exist."""
    members: Callable[[Database, int], Awaitable[list[MemberT]]]
    """The event's members in their stored order."""
    event_of_game: Callable[[Database, int], Awaitable[int | None]]
    """The event a game belongs to, or ``None``."""


class EventRules(Protocol[EventT, MemberT]):
    """What one kind of group event answers for itself (the hooks); :class:`GroupEvents` runs everything else."""

    tables: EventTables[EventT, MemberT]
    restarts_wait_for_resume: bool
    """A game ended by a restart is left to the service's resume, which tries to close each event it re-arms."""

    async def may_close(self, event: EventT, members: Sequence[MemberT]) -> bool:
        """Whether the event may close now, every game of it being over (it may end it otherwise, under its lock)."""

    def entries(self, members: Sequence[MemberT], games: dict[int, GameRecord]) -> list[Entry]:
        """What the placing rules read: the members' finished games (``games``, by member)."""

    async def store(self, event: EventT, rate: Rate) -> bool:
        """Store the places, the ratings and the queued results post in one write; whether this call did it."""

    def heard(self, event_id: int, session: Session, record: GameRecord) -> None:
        """Note one of the event's games finishing (its message changed)."""

    def closed(self, event_id: int) -> float:
        """Forget a closed event's timers and updates; return how long its results post must wait (seconds)."""

    async def results(self, event_id: int) -> object:
        """What the results post of a closed event shows (its announcement's payload)."""


@dataclass(eq=False)
class GroupEvents(Generic[EventT, MemberT]):
    """The shared lifecycle: the games of every event, its lock and tasks, what its games' finishes do, one close.

    Built, it hears the finishes of its kind's games on ``sessions`` and composes its results posts.
    """

    rules: EventRules[EventT, MemberT]
    db: Database
    sessions: SessionManager
    announcements: Announcements
    now: Clock
    sleep: Sleep = asyncio.sleep
    games: dict[int, int] = field(default_factory=dict)
    """The event of each game this process dealt or resumed, by game id (until the game is over)."""
    locks: KeyedLocks = field(default_factory=KeyedLocks)
    """One lock per event: joins, answers, starts and the close take it."""

    def __post_init__(self) -> None:
        self.tables = self.rules.tables
        self.kind = self.tables.kind
        self.tasks = BackgroundTasks(self.kind)
        self.sessions.add_finish_listener(self._on_game_finished, mode=mode_of(self.kind))
        self.announcements.register(self.kind, self._compose_results)

    async def event(self, event_id: int) -> EventT:
        """The stored event; :raises: the rules' refusal for an unknown one."""
        event = await self.tables.find(self.db, event_id)
        if event is None:
            raise self.tables.unknown()
        return event

    async def track(self, event_id: int) -> None:
        """Note the games of an event already dealt (after a restart), so their finishes find it at once."""
        for member in await self.tables.members(self.db, event_id):
            if member.game_id is not None:
                self.games[member.game_id] = event_id

    async def over_for_game(self, game_id: int) -> bool:
        """Whether the event of one of its games is over: nobody can still gain from its deal or its scores."""
        event_id = await self.tables.event_of_game(self.db, game_id)
        event = await self.tables.find(self.db, event_id) if event_id is not None else None
        return event is not None and EventState(self.kind, event.status).over

    async def over_for_record(self, record: GameRecord) -> bool:
        """:meth:`over_for_game` for a finished game's record (the mode's answer, see :mod:`bot.compete.over`)."""
        return await self.over_for_game(record.id)

    async def _on_game_finished(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        """Note a game of an event ending and close the event if it was the last game running."""
        if source == "restart" and self.rules.restarts_wait_for_resume:
            return
        event_id = self.games.pop(record.id, None) or await self.tables.event_of_game(self.db, record.id)
        if event_id is None:
            return
        self.rules.heard(event_id, session, record)
        self.tasks.spawn(self.try_close(event_id), f"{self.kind}-close-{event_id}")

    async def try_close(self, event_id: int) -> None:
        """Close the event if no more results can come: places, ratings, results post in one write; post once."""
        async with self.locks.lock(event_id):
            event = await self.event(event_id)
            if event.status != self.tables.open_status:
                return
            members = await self.tables.members(self.db, event_id)
            games = await _finished_games(self.db, members)
            if games is None or not await self.rules.may_close(event, members):
                return
            entries = self.rules.entries(members, games)
            with speaking_language(await self.announcements.speakers.server(event.guild_id)):
                rate = await rate_results(
                    self.db, guild_id=event.guild_id, variant=event.variant, entries=entries, now=self.now()
                )
                if not await self.rules.store(event, rate):
                    return
        wait = self.rules.closed(event_id)
        if wait > 0:
            self.tasks.spawn(self._deliver_after(wait), f"{self.kind}-results-{event_id}")
        else:
            await self._deliver_after(0.0)

    async def _deliver_after(self, wait: float) -> None:
        """Deliver the due posts after ``wait`` seconds; the delivering loop looks again (a failed post's retry)."""
        if wait > 0:
            await self.sleep(wait)
        await self.announcements.flush()

    async def _compose_results(self, pending: Pending) -> Announcement | None:
        """The results post of a closed event, as of now (``None``: no such closed event)."""
        event = await self.tables.find(self.db, int(pending.subject))
        if event is None or event.status != self.tables.closed_status:
            return None
        payload = await self.rules.results(event.id)
        return Announcement(
            event.guild_id, event.channel_id, self.kind, "", False, subject=pending.subject, payload=payload
        )

    async def stop(self) -> None:
        """Stop every task of these events (they stay stored, to resume at the next start)."""
        await self.tasks.cancel_all()

    async def settle(self, *, results: bool = False) -> None:
        """Wait for the closes already under way (tests and benchmarks); with ``results``, their delayed posts too."""
        names = (f"{self.kind}-close", f"{self.kind}-results") if results else (f"{self.kind}-close",)
        await self.tasks.settle(*names)


async def _finished_games(db: Database, members: Sequence[MemberRecord]) -> dict[int, GameRecord] | None:
    """Every member's stored game by member, once all are over (``None``: one is still playing)."""
    games: dict[int, GameRecord] = {}
    for member in members:
        record = await games_db.get_game(db, member.game_id) if member.game_id is not None else None
        if record is not None:
            if record.is_playing:
                return None
            games[member.user_id] = record
    return games
