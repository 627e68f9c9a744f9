"""Streak reminders, opt-in: one direct message before a member's daily streak breaks.

A member who turned reminders on (``/solitaire settings reminders: True``), whose daily streak in a
server is :data:`MIN_STREAK` days or more and who has not played that server's daily today, gets one
direct message :data:`REMIND_BEFORE` before the server's day ends. Each is an announcement of kind
``reminder`` (one per member, server and day: :mod:`bot.storage.reminders`), queued by
:meth:`Reminders.queue_due` in the daily service's rounds, claimed by one process and retried like a
post. It is checked again when it is sent (the member may have played meanwhile, or turned them off).
A closed DM turns the member's reminders off (:data:`bot.outbox.announcements.Delivery.DECLINED`); they are
told at their next command. A member who left the server (or was banned) gets no message, and the
reminder is settled the same way, without turning their reminders off. Nothing here knows Discord:
the cog sends the message (:data:`SendReminder`), in the member's language (their choice, else the locale their
Discord client last reported): :meth:`Reminders.deliver` speaks it around the sending.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from enum import Enum

from bot.outbox.announcements import Announcement, Announcements, Delivery
from bot.rules.streaks import streak
from bot.shards import ONE_PROCESS, Ownership
from bot.storage import Database
from bot.storage import competition as competition_db
from bot.storage import players as players_db
from bot.storage import reminders as reminders_db
from bot.storage.outbox import Pending
from languages import speaking_language

Clock = Callable[[], float]
REMIND_BEFORE = timedelta(hours=4)
"""How long before the server's day ends a reminder goes out: at 20:00 on a day of 24 hours.

Late enough that a member who plays every evening has usually played (so the message reaches only
those who may have forgotten), and early enough to play a five-minute daily before midnight.
"""
MIN_STREAK = 2
"""The shortest streak worth a reminder."""
MAX_WAIT = 3600.0


@dataclass(frozen=True)
class Reminder:
    """A direct message to send: a member's streak in a server, and when the server's day ends."""

    guild_id: int
    user_id: int
    streak: int
    daily_date: str
    ends_at: float
    """Unix seconds: the end of the server's day (the streak breaks then)."""


class DmOutcome(Enum):
    """How sending a direct message went."""

    SENT = "sent"
    CLOSED = "closed"
    """Discord refused it for good (the member's DMs are closed to the bot): reminders are turned off."""
    NOT_MEMBER = "not a member"
    """The member left the server or was banned: no message, and it is settled (never tried again)."""
    FAILED = "failed"
    """A server error or a timeout: try again later."""


SendReminder = Callable[[Reminder], Awaitable[DmOutcome]]


class Reminders:
    """Queues the due reminders and composes and delivers the ``reminder`` announcements."""

    def __init__(
        self, db: Database, announcements: Announcements, *, now: Clock, ownership: Ownership = ONE_PROCESS
    ) -> None:
        self.db = db
        self.now = now
        self.ownership = ownership
        self.send: SendReminder | None = None
        self.speakers = announcements.speakers
        """The language each member reads their reminder in."""
        self._queued: set[tuple[int, date]] = set()
        announcements.register("reminder", self.compose)
        announcements.add_listener(self.deliver, kinds=("reminder",))

    def use(self, send: SendReminder | None) -> None:
        """Send the reminders with ``send`` (``None``: none now; they wait and are retried)."""
        self.send = send

    async def queue_due(self, now: datetime) -> float:
        """Queue the reminders of every owned server whose reminder time has come today; return seconds to the next."""
        since = (now.date() - timedelta(days=3)).isoformat()  # a streak alive anywhere started a daily since
        guilds = {a.guild_id for a in await competition_db.recent_daily_activity(self.db, since)}
        clocks = await competition_db.day_clocks(self.db, {g for g in guilds if self.ownership.owns(g)})
        wait = MAX_WAIT
        for guild_id, clock in clocks.items():
            today, ends = clock.date_at(now), clock.next_rollover(now)
            due = ends - REMIND_BEFORE
            if now < due:
                wait = min(wait, (due - now).total_seconds())
            elif (guild_id, today) not in self._queued:
                users = await reminders_db.candidates(self.db, guild_id, today)
                await reminders_db.queue(self.db, guild_id, users, today, now.timestamp())
                self._queued.add((guild_id, today))
        self._queued = {(g, day) for g, day in self._queued if day >= now.date() - timedelta(days=2)}
        return wait

    async def compose(self, pending: Pending) -> Announcement | None:
        """The reminder, if it is still wanted now: same day, reminders on, streak alive, today's daily not played."""
        user_id, day = reminders_db.parse_subject(pending.subject)
        moment = datetime.fromtimestamp(self.now(), UTC)
        clock = (await competition_db.guild_config(self.db, pending.guild_id)).clock
        if clock.date_at(moment) != day or not (await players_db.player_settings(self.db, user_id)).reminders:
            return None  # too late (the day is over), or turned off meanwhile
        if await reminders_db.played_on(self.db, pending.guild_id, user_id, day):
            return None
        current = streak(list(await competition_db.daily_days(self.db, pending.guild_id, user_id)), day).current
        if current < MIN_STREAK:
            return None
        ends = clock.next_rollover(moment).timestamp()
        reminder = Reminder(pending.guild_id, user_id, current, day.isoformat(), ends)
        text = f"streak reminder to {user_id}: {current} days"
        return Announcement(pending.guild_id, 0, "reminder", text, False, pending.subject, reminder)

    async def deliver(self, announcement: Announcement) -> Delivery:
        """Send one reminder in its member's language; a closed DM turns reminders off; it or a member gone is final."""
        reminder = announcement.payload
        if self.send is None or not isinstance(reminder, Reminder):
            return Delivery.FAILED
        with speaking_language(await self.speakers.member(reminder.user_id)):
            outcome = await self.send(reminder)
        if outcome is DmOutcome.NOT_MEMBER:
            return Delivery.DECLINED
        if outcome is DmOutcome.CLOSED:
            await players_db.refuse_reminders(self.db, reminder.user_id, self.now())
            return Delivery.DECLINED
        return Delivery.POSTED if outcome is DmOutcome.SENT else Delivery.FAILED

    async def take_refusal(self, user_id: int) -> bool:
        """Whether a closed DM turned the player's reminders off, not told yet; taken, so it is told once."""
        return await players_db.refusal_waiting(self.db, user_id) and await players_db.take_refusal(self.db, user_id)

    async def restore_refusal(self, user_id: int) -> None:
        """Put back a refusal whose telling failed (it is told at the player's next command instead)."""
        await players_db.restore_refusal(self.db, user_id, self.now())
