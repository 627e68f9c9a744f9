"""Every public post, kept until it goes through: queued in ``announcements``, claimed once, retried with backoff.

A post is queued by the transaction that makes it due (a finished daily, a closed day, a finished
race) and written out only when it is delivered, by the composer registered for its kind (so a
rank or a result is as of the moment it is posted). Listeners (the cog) turn each
:class:`Announcement` into a Discord message and say how it went (:class:`Delivery`). A post is
claimed by one process of a cluster (:mod:`bot.storage.claims`: a lease in the database's clock, named
after the process, :class:`bot.shards.Holder`), marked posted once, and a failure
is retried with backoff, restarts included, for :data:`RETRY_FOR`. A post whose composer or listener
*raises* (a bug, not Discord saying no) is tried again with the same backoff, never holding back the
posts behind it; after :data:`PARK_AFTER` errors in a row it is **parked**: never tried again (restarts
included), logged once with its kind, server and subject, counted (:attr:`Announcements.parked`, the
metrics' ``solitaire_outbox_parked_posts``) and noted for its server's admins (``/solitaire config``).
Nothing here knows Discord.

Each post is written and handed to its listeners in its server's language (``speakers``, :class:`Readers`):
its composer and its listeners say their sentences in it, whatever task delivers it (a member's click that
flushed it, or the delivering loop). A listener that sends a member a direct message says it in the member's
language itself (:meth:`Readers.member`).

The runtime builds one :class:`Announcements` and lends it to every competition (the daily, races,
challenges, the champion role, the reminders); it starts its delivering loop (:meth:`Announcements.start`)
once connected and stops it (:meth:`Announcements.close`) before the database closes. The same
machinery delivers what must happen once but is no post: a champion role's change
(:mod:`bot.compete.champions`) and a streak reminder (:mod:`bot.compete.reminders`), whose listeners live in ``bot/``
and call the cog's Discord code.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Literal, Protocol

from bot.background import Alarm, run_rounds
from bot.shards import ONE_PROCESS, Holder, Ownership
from bot.storage import Database, StorageError, claims
from bot.storage import competition as competition_db
from bot.storage.outbox import AnnouncementKind, Pending
from languages import ENGLISH, Language, speaking_language

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
RETRY_FIRST = 30.0
"""Seconds before the first retry of a failed post; each further retry waits twice as long ..."""
RETRY_MAX = 600.0
"""... but never more than this."""
RETRY_FOR = 6 * 3600.0
"""A post is retried for this long after it was queued, then dropped (with a warning in the log)."""
NOTHING_DUE = 3600.0
"""What :meth:`Announcements.deliver_due` returns when nothing waits (seconds)."""
PARK_AFTER = 5
"""Errors in a row (a composer or a listener that raised) after which a post is parked (given up for good)."""
AFTER_FAILURE = 60.0
"""Seconds the delivering loop waits after a round that failed (the database was out of reach, say)."""


class Delivery(Enum):
    """How posting an announcement went."""

    POSTED = "posted"
    FAILED = "failed"
    """Try again later (a server error, a timeout)."""
    FORBIDDEN = "forbidden"
    """The bot may not post there (403): shown to the admins, and tried again later."""
    DECLINED = "declined"
    """The recipient refuses it for good (a member's closed DMs): dropped at once, never tried again."""


@dataclass(frozen=True)
class Announcement:
    """Something delivered once: a post (a daily's line, a podium, a race's results), a role change, a reminder."""

    guild_id: int
    channel_id: int
    """Where a post goes (0 for a kind that is not a post in a channel: a role change, a reminder)."""
    kind: AnnouncementKind
    text: str
    competition_channel: bool
    """Whether ``channel_id`` is the server's configured competition channel (its refusals are shown to admins)."""
    subject: str = ""
    """What it is about: a game id, a date, a race id (as stored in ``announcements``)."""
    payload: object = None
    """What a kind carries besides text (a race's results: its ``RaceSnapshot``; a role change; a reminder)."""


Composer = Callable[[Pending], Awaitable[Announcement | None]]
"""Writes a claimed post out now; ``None`` when there is nothing to post any more (it is dropped)."""
Listener = Callable[[Announcement], Awaitable[Delivery]]


class Readers(Protocol):
    """Who reads what in which language: a server's public posts, a member's direct messages (``bot.speakers``)."""

    async def server(self, guild_id: int | None) -> Language:
        """The language of a server's public posts."""
        ...

    async def member(self, user_id: int, discord_locale: object | None = None) -> Language:
        """The language a member reads privately (their choice, else their client's last known locale)."""
        ...


class EnglishReaders:
    """Every server and every member reads English (what the outbox speaks when it is given no speakers)."""

    async def server(self, guild_id: int | None) -> Language:
        """English."""
        return ENGLISH

    async def member(self, user_id: int, discord_locale: object | None = None) -> Language:
        """English."""
        return ENGLISH


def retry_delay(attempts: int) -> float:
    """Return the wait before retrying a post that failed ``attempts + 1`` times.

    >>> [retry_delay(n) for n in range(6)]
    [30.0, 60.0, 120.0, 240.0, 480.0, 600.0]
    """
    return min(RETRY_FIRST * 2.0**attempts, RETRY_MAX)


class Announcements:
    """Delivers the queued posts of the servers this process owns, each once, retrying failures."""

    def __init__(
        self,
        db: Database,
        *,
        now: Clock,
        sleep: Sleep = asyncio.sleep,
        ownership: Ownership = ONE_PROCESS,
        lease: float = claims.LEASE,
        speakers: Readers | None = None,
    ) -> None:
        """Deliver the posts of the servers ``ownership`` owns; a claim on one holds ``lease`` seconds.

        ``sleep``: how the delivering loop waits for the next post due (woken sooner by :meth:`queued`).
        ``speakers``: the language of each server's posts and each member's messages (``None``: English).
        """
        self.db = db
        self.now = now
        self.ownership = ownership
        self.holder = Holder.of_this_process(ownership)
        """This process's name on its claims (unique, even among processes given the same shards)."""
        self.lease = lease
        self.speakers: Readers = speakers if speakers is not None else EnglishReaders()
        """The language each server's posts are said in (the competitions' live messages use it too)."""
        self._composers: dict[str, Composer] = {}
        self._listeners: list[tuple[Listener, frozenset[str] | None]] = []
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._alarm = Alarm(sleep, "outbox-sleep")
        self._closed = False
        self.parked: Counter[str] = Counter()
        """The posts this process parked, by kind (read by the metrics at scrape time)."""

    def register(self, kind: AnnouncementKind, composer: Composer) -> None:
        """Write the posts of ``kind`` with ``composer`` (one composer per kind)."""
        self._composers[kind] = composer

    def add_listener(self, listener: Listener, *, kinds: Iterable[AnnouncementKind] | None = None) -> None:
        """Post every announcement (or those of ``kinds``) through ``listener``."""
        self._listeners.append((listener, frozenset(kinds) if kinds is not None else None))

    def remove_listener(self, listener: Listener) -> None:
        """Stop posting through ``listener``."""
        self._listeners = [(known, kinds) for known, kinds in self._listeners if known != listener]

    def queued(self) -> None:
        """Say that a post was queued (by a race's finish, say): the delivering loop wakes for it."""
        self._alarm.wake()

    async def flush(self) -> None:
        """Post at once what is due (a caller that just queued a post); the loop then looks again for the rest."""
        await self.deliver_due()
        self.queued()

    # -- the delivering loop ------------------------------------------------------------------
    def start(self) -> None:
        """Start the delivering loop: it first takes back the claims this process's earlier run held."""
        if self._closed or self._task is not None:
            return
        loop = run_rounds(self.release_own, self.deliver_due, self._alarm, "the outbox", after_failure=AFTER_FAILURE)
        self._task = asyncio.get_running_loop().create_task(loop, name="outbox")

    async def close(self) -> None:
        """Stop the delivering loop (safe to call twice); what is still queued waits in the database."""
        self._closed = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def release_own(self) -> None:
        """Give back the claims this shard set's earlier runs on this machine held (their posts are tried again)."""
        await claims.release_own(self.db, self.holder)

    async def deliver_due(self) -> float:
        """Post every due announcement once; return seconds until the next one is due."""
        async with self._lock:
            for pending in await claims.due_announcements(self.db, self.now(), self.ownership, lease=self.lease):
                if await claims.claim(self.db, pending.id, self.holder.name, lease=self.lease):
                    await self._deliver(pending)
            due = await claims.next_due(self.db, self.ownership, self.now(), lease=self.lease)
        return NOTHING_DUE if due is None else due - self.now()

    async def _deliver(self, pending: Pending) -> None:
        """Post one claimed announcement; mark it posted, give it back to be retried later, or park it."""
        try:
            attempt = await self._attempt(pending)
        except StorageError:
            raise  # the database, not this post: the round fails and is tried again
        except Exception:
            log.exception("could not deliver %s %s of server %s", pending.kind, pending.subject, pending.guild_id)
            await self._erred(pending)
            return
        if attempt is None:
            await self._finish(pending, "dropped")
            return
        await self._settled(pending, *attempt)

    async def _attempt(self, pending: Pending) -> tuple[Announcement, Delivery] | None:
        """Write a claimed post out and hand it on, in its server's language (``None``: nothing to post any more)."""
        composer = self._composers.get(pending.kind)
        if composer is None:
            return None
        with speaking_language(await self.speakers.server(pending.guild_id)):
            announcement = await composer(pending)
            return None if announcement is None else (announcement, await self._post(announcement))

    async def _erred(self, pending: Pending) -> None:
        """Count an error of a claimed post: tried again with backoff, or parked at the :data:`PARK_AFTER`-th."""
        if pending.failures + 1 < PARK_AFTER:
            await claims.erred(self.db, pending.id, self.holder.name, self.now() + retry_delay(pending.attempts))
        elif await claims.park(self.db, pending, self.holder.name, self.now()):
            self.parked[pending.kind] += 1
            log.warning(
                "parked %s %s of server %s after %d errors: it is not tried again",
                pending.kind,
                pending.subject,
                pending.guild_id,
                PARK_AFTER,
            )

    async def _settled(self, pending: Pending, announcement: Announcement, outcome: Delivery) -> None:
        """Record how delivering a claimed post went: posted, dropped, or given back to be retried."""
        if announcement.competition_channel and outcome is not Delivery.FAILED:
            problem = "missing access (HTTP 403)" if outcome is Delivery.FORBIDDEN else None
            await competition_db.set_channel_problem(
                self.db, announcement.guild_id, announcement.channel_id, problem, self.now()
            )
        if outcome is Delivery.POSTED:
            await self._finish(pending, "posted")
        elif outcome is Delivery.DECLINED:
            await self._finish(pending, "dropped")
        elif self.now() - pending.created_at >= RETRY_FOR:
            log.warning("gave up posting %s %s of server %s", pending.kind, pending.subject, pending.guild_id)
            await self._finish(pending, "dropped")
        else:
            await claims.retry(self.db, pending.id, self.holder.name, self.now() + retry_delay(pending.attempts))

    async def _finish(self, pending: Pending, state: Literal["posted", "dropped"]) -> None:
        """Mark a claimed post done; one queued again after its delivery read its inputs waits instead (due again)."""
        holder = self.holder.name
        if not await claims.finish(self.db, pending.id, holder, state):
            await claims.give_back(self.db, pending.id, holder)

    async def _post(self, announcement: Announcement) -> Delivery:
        """Hand ``announcement`` to every listener of its kind: posted only if each of them posted it."""
        listeners = [listener for listener, kinds in self._listeners if kinds is None or announcement.kind in kinds]
        if not listeners:
            return Delivery.FAILED
        outcome = Delivery.POSTED
        for listener in listeners:
            result = await listener(announcement)  # one that raises: an error of the post (see _deliver)
            if result is not Delivery.POSTED:
                outcome = result
        return outcome
