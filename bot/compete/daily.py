"""The daily competition's runtime: the day's deals, solving ahead, rollovers and podiums.

One :class:`DailyService` per bot. Nothing here knows Discord. Its public posts (a finished
daily's line, a day's podium) go through the outbox the runtime lends it
(:class:`bot.outbox.announcements.Announcements`, whose own loop delivers them and retries them). Time
comes from the injected clock; :meth:`DailyService.run_once` does one round of the time-driven work, so
tests drive rollovers without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bot.background import Alarm, run_rounds
from bot.compete.champions import ChampionRoles
from bot.compete.reminders import Reminders
from bot.compete.words import daily_line, podium_lines
from bot.outbox.announcements import Announcement, Announcements, Listener
from bot.play.deal_bank import DealBank
from bot.play.session import Sleep
from bot.rules.calendar import DayClock
from bot.rules.daily_deals import PRESOLVE_DAYS, daily_source, deal_from_json, deal_to_json, new_secret, spare_source
from bot.rules.modes import DAILY, mode_of
from bot.rules.ranking import DailyResult
from bot.rules.streaks import milestone
from bot.shards import ONE_PROCESS, Ownership
from bot.storage import Database, privacy
from bot.storage import competition as competition_db
from bot.storage.games import GameRecord
from bot.storage.outbox import Pending
from solitaire import VARIANTS
from solitaire.deals import DealRequest, ProvenDeal, solve_request

log = logging.getLogger(__name__)

Clock = Callable[[], float]
"""Returns the current time in unix seconds."""
Solve = Callable[[DealRequest], ProvenDeal]
"""Finds a day's proven deal; CPU-bound and picklable (it runs in the deal bank's worker processes)."""
DealKey = tuple[int, str, str]
"""A day's deal: ``(guild_id, variant, 'YYYY-MM-DD')``."""

SECRET_NAME = "daily"
"""The ``secrets`` row holding the daily-deal key when the settings give none."""
MAX_WAIT = 3600.0
"""The service wakes at least this often (seconds), even with nothing due."""
ANNOUNCE_WITHIN = 24 * 3600.0
"""At start, results of the last day whose public line was never queued are queued (older ones are news no more)."""
PRESOLVE_LIMIT = 200
"""Deals waiting to be solved ahead, at most: the rest wait for a later wake-up (or are solved when asked)."""
OVERDUE = 120.0
"""A daily still playing this long after its deadline is stuck (its clock task is gone): the podium stops waiting."""
SETTLE = 1.0
"""Seconds after the last open daily's deadline before its day is checked again (its clock task finishes it)."""


class DailyService:
    """Owns the daily runtime: deals per server-day, presolving, rollovers, podiums and posts."""

    def __init__(
        self,
        db: Database,
        deals: DealBank[Any],
        *,
        announcements: Announcements,
        now: Clock,
        sleep: Sleep = asyncio.sleep,
        secret: Callable[[], str | None] = lambda: None,
        solve: Solve = solve_request,
        variants: Iterable[str] = VARIANTS,
        spares: int = 0,
        ownership: Ownership = ONE_PROCESS,
    ) -> None:
        """Serve dailies from ``db``, solving in ``deals``'s executor; ``secret()`` keys the deals (else stored).

        ``spares``: proven deals kept ready per variant (in the database) for a day deal nobody solved
        ahead, so the first daily of a new server never waits for the solver. ``ownership``: the servers
        whose deals and podiums this process handles (the others belong to other processes).
        ``announcements``: the outbox every post goes through (its loop delivers them). ``sleep``: how
        the loop waits for what is due next (woken sooner by :meth:`wake`).
        """
        self.db = db
        self.deals = deals
        self.now = now
        self.sleep = sleep
        self.solve = solve
        self.variants = tuple(variants)
        self._configured_secret = secret
        self._secret: str | None = None
        self.announcements = announcements
        """The outbox this service's posts go through (the runtime's one instance)."""
        announcements.register("result", self._compose)
        announcements.register("podium", self._compose)
        self.champions = ChampionRoles(db, self.announcements, now=now, variants=self.variants)
        """The champion role's changes, due with each podium (the cog gives it its Discord calls)."""
        self.reminders = Reminders(db, self.announcements, now=now, ownership=ownership)
        """The streak reminders, queued in this service's rounds (the cog sends them)."""
        self._deal_tasks: dict[DealKey, asyncio.Task[ProvenDeal]] = {}
        self._presolve_queue: deque[DealKey] = deque()
        self._presolve_seen: set[DealKey] = set()
        self._presolved: set[DealKey] = set()
        self._presolver: asyncio.Task[None] | None = None
        self._starting: Counter[tuple[int, str]] = Counter()
        self._round = asyncio.Lock()
        self._alarm = Alarm(sleep, "daily-sleep")
        self._closed = False
        self._task: asyncio.Task[None] | None = None
        self.spares = spares
        self.ownership = ownership
        self._spare_refills: dict[str, asyncio.Task[None]] = {}

    # -- listeners and lifecycle ----------------------------------------------------------
    def add_listener(self, listener: Listener) -> None:
        """Post the daily announcements (result lines, podiums) through ``listener``."""
        self.announcements.add_listener(listener, kinds=("result", "podium"))

    def remove_listener(self, listener: Listener) -> None:
        """Stop posting through ``listener``."""
        self.announcements.remove_listener(listener)

    def start(self) -> None:
        """Start the loop: it first queues the lines a crash left out (the outbox retries the posts in flight)."""
        if self._closed or self._task is not None:
            return
        loop = run_rounds(self._recover, self.run_once, self._alarm, "the daily service")
        self._task = asyncio.get_running_loop().create_task(loop, name="daily-service")
        for variant in self.variants:
            self._refill_spares_soon(variant)

    async def close(self) -> None:
        """Stop the loop, the deals being solved ahead and those being found (safe to call twice)."""
        self._closed = True
        for task in (self._task, self._presolver, *self._spare_refills.values()):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._presolver = None
        finding = list(self._deal_tasks.values())
        for deal_task in finding:
            deal_task.cancel()
        await asyncio.gather(*finding, return_exceptions=True)  # a waiting player's ask has its answer or its error

    async def _recover(self) -> None:
        """Queue the lines of dailies a crash left unqueued (the outbox posts them)."""
        since = self.now() - ANNOUNCE_WITHIN
        for game_id in await competition_db.unannounced(self.db, since=since, ownership=self.ownership):
            await competition_db.queue_result(self.db, game_id, self.now())
        self.announcements.queued()

    def wake(self) -> None:
        """Recompute what is due now (a setting changed, a game finished): end the loop's sleep."""
        self._alarm.wake()

    # -- the server's day ------------------------------------------------------------------
    def moment(self) -> datetime:
        """The clock's time as an aware UTC datetime."""
        return datetime.fromtimestamp(self.now(), UTC)

    async def today(self, guild_id: int) -> date:
        """The server's date now."""
        return (await competition_db.guild_config(self.db, guild_id)).clock.date_at(self.moment())

    async def server_config(self, guild_id: int) -> competition_db.GuildConfig:
        """A server's competition settings (the defaults if it has none)."""
        return await competition_db.guild_config(self.db, guild_id)

    async def result(self, guild_id: int, user_id: int, variant: str, day: date) -> DailyResult | None:
        """A member's finished daily of ``day`` and ``variant`` with its rank, or ``None`` (not played, or running)."""
        return await competition_db.daily_result(self.db, guild_id, user_id, variant, day.isoformat())

    async def forgotten_try(self, guild_id: int, user_id: int, variant: str, day: date) -> bool:
        """Whether the member used this daily's try before asking to be forgotten (the game is gone, the try not)."""
        return await privacy.daily_try_used(self.db, guild_id, user_id, variant, day.isoformat())

    async def set_channel(self, guild_id: int, channel_id: int | None, *, podium_after: str) -> None:
        """Set (or clear) the competition channel; a first one's podiums begin with the day after ``podium_after``."""
        await competition_db.set_channel(self.db, guild_id, channel_id, podium_after=podium_after)
        self.wake()

    async def set_champion_role(self, guild_id: int, role_id: int | None, *, podium_after: str) -> None:
        """Set (or clear) the champion role, its holders changed with the next round (first podium as above)."""
        await self.champions.choose(guild_id, role_id, podium_after=podium_after)
        self.wake()

    async def change_zone(self, guild_id: int, zone: str) -> DayClock:
        """Choose the server's time zone (a validated IANA name): it applies from the next day."""
        config = await competition_db.guild_config(self.db, guild_id)
        clock = config.clock.changed_to(zone, self.moment())
        await competition_db.set_day_clock(self.db, guild_id, clock)
        self.wake()
        return clock

    # -- the day's deal ----------------------------------------------------------------------
    def deal_ready(self, guild_id: int, variant: str, day: date) -> bool:
        """Whether :meth:`deal` would answer without waiting for a solve."""
        key = (guild_id, variant, day.isoformat())
        task = self._deal_tasks.get(key)
        return key in self._presolved or (task is not None and task.done() and not task.cancelled())

    async def deal(self, guild_id: int, variant: str, day: date) -> ProvenDeal:
        """Return the day's deal of a server and variant (stored, being solved, or solved now)."""
        return await asyncio.shield(self._deal_task(guild_id, variant, day, urgent=True))

    @contextlib.asynccontextmanager
    async def attempt(self, guild_id: int, day: date) -> AsyncIterator[None]:
        """Hold the day's podium while a player's daily of ``day`` is being dealt (it waits for their result)."""
        key = (guild_id, day.isoformat())
        self._starting[key] += 1
        try:
            yield
        finally:
            self._starting[key] -= 1
            if self._starting[key] <= 0:
                del self._starting[key]
                if day < await self.today(guild_id):
                    self.wake()  # that day's podium was waiting for this player

    def _deal_task(self, guild_id: int, variant: str, day: date, *, urgent: bool) -> asyncio.Task[ProvenDeal]:
        """The (shared) task that finds the day's deal for a server and variant.

        ``urgent``: a player is waiting (the deal workers serve it before background work); a deal
        solved ahead is not.
        """
        key = (guild_id, variant, day.isoformat())
        task = self._deal_tasks.get(key)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = asyncio.get_running_loop().create_task(self._find_deal(*key, urgent), name=f"daily-deal-{key}")
            self._deal_tasks[key] = task
        return task

    async def _find_deal(self, guild_id: int, variant: str, daily_date: str, urgent: bool) -> ProvenDeal:
        """The stored deal of the day; else, for a waiting player, a spare; else one solved from the day's source.

        The first deal stored for the day stays: every caller returns the stored one.
        """
        cached = await competition_db.cached_deal(self.db, guild_id, variant, daily_date)
        if cached is None and urgent and self.spares:
            cached = await competition_db.use_spare(self.db, guild_id, variant, daily_date)
            self._refill_spares_soon(variant)
        if cached is not None:
            return deal_from_json(cached)
        source = daily_source(await self._daily_secret(), guild_id, date.fromisoformat(daily_date), variant)
        request = DealRequest(variant, source)
        deal = await self.deals.run(self.solve, request, urgent=urgent)
        await competition_db.store_deal(self.db, guild_id, variant, daily_date, deal_to_json(deal))
        stored = await competition_db.cached_deal(self.db, guild_id, variant, daily_date)
        return deal_from_json(stored) if stored is not None else deal

    async def fill_spares(self) -> None:
        """Solve spare deals until every variant has :attr:`spares` ready (the service also does it by itself)."""
        for variant in self.variants:
            self._refill_spares_soon(variant)
        await asyncio.gather(*self._spare_refills.values())

    def _refill_spares_soon(self, variant: str) -> None:
        """Solve spare deals of ``variant`` in the background until :attr:`spares` are ready."""
        task = self._spare_refills.get(variant)
        if self._closed or not self.spares or (task is not None and not task.done()):
            return
        self._spare_refills[variant] = asyncio.get_running_loop().create_task(
            self._refill_spares(variant), name=f"daily-spares-{variant}"
        )

    async def _refill_spares(self, variant: str) -> None:
        try:
            while not self._closed and await competition_db.spare_count(self.db, variant) < self.spares:
                source = spare_source(await self._daily_secret(), secrets.token_hex(16))
                deal = await self.deals.run(self.solve, DealRequest(variant, source), urgent=False)
                await competition_db.add_spare(self.db, variant, deal_to_json(deal))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not keep a spare %s daily deal ready", variant)

    async def _daily_secret(self) -> str:
        """The key of the daily deals: given, else generated into the database once."""
        if self._secret is None:
            self._secret = self._configured_secret() or await competition_db.get_or_create_secret(
                self.db, SECRET_NAME, new_secret
            )
        return self._secret

    # -- results -----------------------------------------------------------------------------
    async def game_finished(self, record: GameRecord) -> None:
        """Queue a finished daily's public line and post it; post its day's podium too if that day is over."""
        if mode_of(record.mode) is not DAILY:
            return
        await competition_db.queue_result(self.db, record.id, self.now())
        async with self._round:
            await self.announcements.flush()
            config = await competition_db.guild_config(self.db, record.guild_id)
            if config.has_podium and await self._queue_podium(config, self.moment()) is None:
                await self.announcements.flush()

    # -- one round of the time-driven work ----------------------------------------------------
    async def run_once(self) -> float:
        """Queue due podiums and reminders and post them at once, queue deals to solve ahead; return seconds to more.

        What is not posted at once (a failed post's retry) is the outbox's: its own loop delivers it.
        """
        async with self._round:
            now = self.moment()
            wait = await self._queue_podiums(now)
            try:
                wait = min(wait, await self.reminders.queue_due(now))
            except Exception:
                log.exception("queueing the streak reminders failed")
            await self.announcements.flush()
            try:
                wait = min(wait, await self._queue_daily_deals(now))
            except Exception:
                log.exception("queueing the day's daily deals failed")
            await self._forget_old_deals(now)
            wait = min(wait, await self._purge_used_tries(now))
        return max(wait, 0.0)

    async def _queue_podiums(self, now: datetime) -> float:
        """Queue yesterday's podium of every server whose day closed; return seconds until more may be due."""
        wait = MAX_WAIT
        for config in await competition_db.podium_guilds(self.db):
            if not self.ownership.owns(config.guild_id):
                continue  # another process of the cluster runs its shard
            held = await self._queue_podium(config, now)
            if held is not None:
                wait = min(wait, held)
            wait = min(wait, (config.clock.next_rollover(now) - now).total_seconds())
        return wait

    async def _queue_podium(self, config: competition_db.GuildConfig, now: datetime) -> float | None:
        """Queue a server's podium of yesterday if that day's dailies are all over; else seconds to look again."""
        yesterday = (config.clock.date_at(now) - timedelta(days=1)).isoformat()
        if config.last_podium_date is not None and config.last_podium_date >= yesterday:
            return None
        held_until = await self._day_open_until(config.guild_id, yesterday)
        if held_until is not None:
            return held_until - now.timestamp()
        await competition_db.claim_podium(self.db, config.guild_id, yesterday, now.timestamp())
        return None

    async def _day_open_until(self, guild_id: int, daily_date: str) -> float | None:
        """When a day's dailies will all be over: ``None`` if they are, else a time to look again."""
        if self._starting.get((guild_id, daily_date)):
            return self.now() + MAX_WAIT  # woken when the start is done
        deadline = await competition_db.open_dailies(self.db, guild_id, daily_date)
        if deadline is None or deadline + OVERDUE < self.now():
            return None
        return max(deadline, self.now()) + SETTLE

    async def _compose(self, pending: Pending) -> Announcement | None:
        """Write an announcement's text now (ranks as of now); ``None`` when there is nothing to post."""
        config = await competition_db.guild_config(self.db, pending.guild_id)
        if pending.kind == "podium":
            if config.channel_id is None:
                return None
            podium = await competition_db.podium(self.db, pending.guild_id, pending.subject, self.variants)
            if podium.empty:
                return None
            return Announcement(pending.guild_id, config.channel_id, "podium", "\n".join(podium_lines(podium)), True)
        result = await competition_db.daily_result_of(self.db, int(pending.subject))
        channel_id = config.channel_id or pending.channel_id
        if result is None or channel_id is None:
            return None
        today = config.clock.date_at(self.moment())
        final = await self._day_over(config, result.daily_date, today)
        milestone = await self._milestone(pending.guild_id, result)
        text = daily_line(result, today, final=final, milestone=milestone)
        return Announcement(pending.guild_id, channel_id, "result", text, config.channel_id is not None)

    async def _milestone(self, guild_id: int, result: DailyResult) -> int | None:
        """The streak milestone a daily reaches: only the member's first finished daily of its day names it."""
        if (
            await competition_db.first_daily_of_day(self.db, guild_id, result.user_id, result.daily_date)
            != result.game_id
        ):
            return None
        days = await competition_db.daily_days(self.db, guild_id, result.user_id, until=result.daily_date)
        return milestone(days, date.fromisoformat(result.daily_date))

    async def day_over(self, guild_id: int, daily_date: str) -> bool:
        """Whether a server's day of dailies is over: the day has ended and its every daily is finished or expired."""
        config = await competition_db.guild_config(self.db, guild_id)
        return await self._day_over(config, daily_date, config.clock.date_at(self.moment()))

    async def over_for_record(self, record: GameRecord) -> bool:
        """Whether the day of a finished daily game is over (its deal is public then)."""
        return record.daily_date is not None and await self.day_over(record.guild_id, record.daily_date)

    async def _day_over(self, config: competition_db.GuildConfig, daily_date: str, today: date) -> bool:
        """Whether no more results can come for ``daily_date`` (so a rank is final)."""
        if daily_date >= today.isoformat():
            return False
        return await self._day_open_until(config.guild_id, daily_date) is None

    # -- deals solved ahead ----------------------------------------------------------------------
    async def _queue_daily_deals(self, now: datetime) -> float:
        """Queue today's and tomorrow's deal of each variant a server played lately; return seconds to a next day.

        The deals are solved one at a time, after any casual bank refill (:meth:`DealBank.wait_idle`),
        and at most :data:`PRESOLVE_LIMIT` wait at once; the others are queued at a later wake-up,
        or solved when a player asks.
        """
        since = (now.date() - timedelta(days=PRESOLVE_DAYS + 2)).isoformat()  # every zone's window, and more
        activity = [
            entry
            for entry in await competition_db.recent_daily_activity(self.db, since)
            if self.ownership.owns(entry.guild_id)  # the others are solved ahead by their shard's process
        ]
        clocks = await competition_db.day_clocks(self.db, {entry.guild_id for entry in activity})
        skipped = 0
        wanted = []
        for entry in activity:
            clock = clocks[entry.guild_id]
            today = clock.date_at(now)
            if (today - date.fromisoformat(entry.last_date)).days <= PRESOLVE_DAYS:
                wanted.append((entry.guild_id, entry.variant, today.isoformat()))
        for entry in activity:  # then tomorrow's, so the first player after midnight finds it stored
            clock = clocks[entry.guild_id]
            tomorrow = clock.date_at(clock.next_rollover(now))
            if (tomorrow - date.fromisoformat(entry.last_date)).days <= PRESOLVE_DAYS:
                wanted.append((entry.guild_id, entry.variant, tomorrow.isoformat()))
        for key in wanted:
            if key in self._presolve_seen:
                continue
            if len(self._presolve_queue) >= PRESOLVE_LIMIT:
                skipped += 1
                continue
            self._presolve_seen.add(key)
            self._presolve_queue.append(key)
        if skipped:
            log.info("%d daily deals not queued to solve ahead (%d already waiting)", skipped, PRESOLVE_LIMIT)
        if self._presolve_queue and (self._presolver is None or self._presolver.done()):
            self._presolver = asyncio.get_running_loop().create_task(self._presolve_all(), name="daily-presolve")
        rollovers = [clock.next_rollover(now) for clock in clocks.values()]
        return MAX_WAIT if not rollovers else (min(rollovers) - now).total_seconds()

    async def _presolve_all(self) -> None:
        """Solve the queued deals one by one, each after the casual bank's refills."""
        while self._presolve_queue:
            key = self._presolve_queue.popleft()
            await self.deals.wait_idle()
            await self._presolve(key)

    async def _presolve(self, key: DealKey) -> None:
        """Solve and store one day's deal through the shared task (so a player asking meanwhile waits for it)."""
        guild_id, variant, daily_date = key
        fresh = key not in self._deal_tasks
        task = self._deal_task(guild_id, variant, date.fromisoformat(daily_date), urgent=False)
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not solve the %s daily deal of server %s for %s ahead", variant, guild_id, daily_date)
            return
        self._presolved.add(key)
        if fresh and self._deal_tasks.get(key) is task:
            del self._deal_tasks[key]  # stored in daily_deals: players read it from there, memory stays small

    async def _purge_used_tries(self, now: datetime) -> float:
        """Drop the used-try marks of days over for their server; return seconds until the next such day ends."""
        try:
            wait = await privacy.purge_used_tries(self.db, now)
        except Exception:
            log.exception("purging the used daily tries of forgotten members failed")
            return MAX_WAIT
        return MAX_WAIT if wait is None else wait + 1.0

    async def _forget_old_deals(self, now: datetime) -> None:
        """Drop the deals of days that ended everywhere (before yesterday in UTC), in memory and stored."""
        cutoff = (now.date() - timedelta(days=1)).isoformat()
        for key in [key for key in self._deal_tasks if key[2] < cutoff]:
            del self._deal_tasks[key]
        self._presolve_seen = {key for key in self._presolve_seen if key[2] >= cutoff}
        self._presolved = {key for key in self._presolved if key[2] >= cutoff}
        await competition_db.forget_deals_before(self.db, cutoff)
