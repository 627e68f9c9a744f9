"""``/solitaire daily|leaderboard|stats|config``, the public daily line and the midnight podium.

A mixin of :class:`cogs.solitaire.Solitaire`: the rules are in :mod:`bot.competition`,
the SQL in :mod:`bot.storage.competition`; this module only talks to Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import competition as rules
from bot import errors
from bot.sessions import Session
from bot.storage import competition as store
from bot.storage import games as games_store
from bot.storage.games import GameRecord, Mode
from cogs.base import SolitaireCogBase
from cogs.buttons import offer_view
from cogs.errors import answer_privately, refusals
from cogs.game_commands import VARIANT_CHOICES
from solitaire import VARIANTS
from solitaire.deals import DealRequest, ProvenDeal, solve_request

log = logging.getLogger(__name__)

SECRET_NAME = "daily"
"""The ``secrets`` row holding the daily-deal key when the settings give none."""
NO_PINGS = discord.AllowedMentions.none()
MAX_WAIT = 3600.0
"""The rollover task wakes at least this often (seconds), even with no server to post to."""
ZONE_CHOICES = 25
ANNOUNCE_WITHIN = 24 * 3600.0
"""At start, results of the last day whose public line was never posted are posted (older ones are news no more)."""
PRESOLVE_LIMIT = 200
"""Deals waiting to be solved ahead, at most: the rest wait for a later wake-up (or are solved when asked)."""

DealKey = tuple[int, str, str]
"""A day's deal: ``(guild_id, variant, 'YYYY-MM-DD')``."""

PERIOD_CHOICES = [
    app_commands.Choice(name="Today", value="today"),
    app_commands.Choice(name="This week (from Monday)", value="week"),
    app_commands.Choice(name="All time", value="all"),
]
GAMES_CHOICES = [
    app_commands.Choice(name="Daily competition", value="daily"),
    app_commands.Choice(name="Casual games", value="casual"),
]
NOT_MANAGER = "Only members with the **Manage Server** permission can change the competition settings."


solve_daily: Callable[[DealRequest], ProvenDeal] = solve_request
"""Finds the day's proven deal: CPU-bound, so it runs in the deal bank's worker processes.

(``solitaire.deals.solve_request`` itself, so a worker unpickles it without importing Discord;
tests replace it with an instant stand-in.)"""


def require_guild(interaction: discord.Interaction) -> int:
    """The server the command was used in; :raises NotInServerError: in DMs."""
    if interaction.guild_id is None:
        raise errors.NotInServerError()
    return interaction.guild_id


class CompetitionCommands(SolitaireCogBase):
    """The competition half of the ``/solitaire`` group (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    config = app_commands.Group(
        name="config",
        description="Competition settings for this server (Manage Server permission)",
        default_permissions=discord.Permissions(manage_guild=True),  # a hint only: Discord ignores it on subgroups
    )

    _deal_tasks: dict[DealKey, asyncio.Task[ProvenDeal]]
    _presolve_queue: deque[DealKey]
    _presolve_seen: set[DealKey]
    """Deals queued or solved ahead (never queued twice)."""
    _presolved: set[DealKey]
    """Deals solved ahead and stored: a player's ``/solitaire daily`` reads them without deferring."""
    _presolver: asyncio.Task[None] | None
    _secret: str | None
    _sleeper: asyncio.Task[object] | None
    """The rollover task while it sleeps until the next midnight (so a settings change may restart it)."""
    _competition_task: asyncio.Task[None] | None

    if TYPE_CHECKING:  # provided by GameCommands, the other mixin

        async def send_board(self, interaction: discord.Interaction, session: Session, *, ephemeral: bool) -> None:
            """Answer with the board of ``session`` and remember the message."""

    # -- lifecycle ---------------------------------------------------------------------
    async def load_competition_commands(self) -> None:
        """Start the task that posts podiums at each server's midnight and the lines a crash left unposted."""
        self._deal_tasks = {}
        self._presolve_queue = deque()
        self._presolve_seen = set()
        self._presolved = set()
        self._presolver = None
        self._secret = None
        self._sleeper = None
        self._competition_task = asyncio.get_running_loop().create_task(self._competition_loop(), name="competition")

    async def unload_competition_commands(self) -> None:
        """Stop the rollover task and the deals being solved ahead."""
        for task in (self._competition_task, self._presolver):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._competition_task = self._presolver = None

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.bot.now(), UTC)

    # -- /solitaire daily ----------------------------------------------------------------
    @app_commands.command(name="daily", description="Play today's server deal: one ranked try per day")
    @app_commands.describe(variant="Which game (default: draw 3)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def daily(self, interaction: discord.Interaction, variant: str = "draw3") -> None:
        """Start today's daily deal privately, or show the result of today's attempt."""
        async with refusals(interaction):
            guild_id = require_guild(interaction)
            config = await store.guild_config(self.db, guild_id)
            today = rules.server_date(config.timezone, self._now())
            if await self._refuse_second_try(interaction, guild_id, variant, today):
                return
            running = self.sessions.active_for(guild_id, interaction.user.id)
            if running is not None:
                await interaction.response.send_message(
                    f"You already have a **{running.game.rules.title}** game running here "
                    f"(time runs out <t:{int(running.deadline)}:R>): finish it first.",
                    view=offer_view(running.id),
                    ephemeral=True,
                )
                return
            deal = self._deal_task(guild_id, variant, today)
            if not deal.done() and (guild_id, variant, today.isoformat()) not in self._presolved:
                await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                session = await self.sessions.start(
                    guild_id=guild_id,
                    channel_id=interaction.channel_id or 0,
                    user_id=interaction.user.id,
                    variant=variant,
                    mode="daily",
                    deal=await asyncio.shield(deal),
                    deal_number=None,
                    daily_date=today.isoformat(),
                )
            except errors.AlreadyPlayedError:  # a second try raced the first
                if await self._refuse_second_try(interaction, guild_id, variant, today):
                    return
                raise
            await self.send_board(interaction, session, ephemeral=True)

    async def _refuse_second_try(
        self, interaction: discord.Interaction, guild_id: int, variant: str, today: date
    ) -> bool:
        """Answer with the earlier attempt's result and rank if today's daily was played; return whether it was."""
        result = await store.daily_result(self.db, guild_id, interaction.user.id, variant, today.isoformat())
        if result is None:
            return False
        await answer_privately(interaction, rules.already_played_line(result, today))
        return True

    def _deal_task(self, guild_id: int, variant: str, day: date) -> asyncio.Task[ProvenDeal]:
        """The (shared) task that finds the day's deal for a server and variant."""
        key = (guild_id, variant, day.isoformat())
        task = self._deal_tasks.get(key)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = asyncio.get_running_loop().create_task(self._find_deal(*key), name=f"daily-deal-{key}")
            self._deal_tasks[key] = task
        return task

    async def _find_deal(self, guild_id: int, variant: str, daily_date: str) -> ProvenDeal:
        """The stored deal of the day, or a new one solved in a worker from the secret-keyed source."""
        cached = await store.cached_deal(self.db, guild_id, variant, daily_date)
        if cached is not None:
            return rules.deal_from_json(cached)
        source = rules.daily_source(await self._daily_secret(), guild_id, date.fromisoformat(daily_date), variant)
        request = DealRequest(variant, source)
        if self.deals.executor is None:  # tests: an instant solver on the event loop
            deal = solve_daily(request)
        else:
            deal = await asyncio.get_running_loop().run_in_executor(self.deals.executor, solve_daily, request)
        await store.store_deal(self.db, guild_id, variant, daily_date, rules.deal_to_json(deal))
        return deal

    async def _daily_secret(self) -> str:
        """The key of the daily deals: from the settings, else generated into the database once."""
        if self._secret is None:
            configured = self.settings.daily_secret
            if configured is not None:
                self._secret = configured.get_secret_value()
            else:
                self._secret = await store.get_or_create_secret(self.db, SECRET_NAME, rules.new_secret)
        return self._secret

    # -- /solitaire leaderboard and stats ----------------------------------------------------
    @app_commands.command(name="leaderboard", description="This server's best results")
    @app_commands.describe(variant="Which game", period="Which days", games="Daily competition or casual games")
    @app_commands.choices(variant=VARIANT_CHOICES, period=PERIOD_CHOICES, games=GAMES_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction, variant: str = "draw3", period: str = "today", games: str = "daily"
    ) -> None:
        """Show the top 10 and the caller's own rank."""
        async with refusals(interaction):
            guild_id = require_guild(interaction)
            config = await store.guild_config(self.db, guild_id)
            today = rules.server_date(config.timezone, self._now())
            mode: Mode = "casual" if games == "casual" else "daily"
            board = await store.leaderboard(
                self.db,
                guild_id=guild_id,
                variant=variant,
                mode=mode,
                period=rules.Period(period),
                today=today,
                timezone=config.timezone,
                caller_id=interaction.user.id,
            )
            embed = discord.Embed(
                title=f"{rules.variant_title(variant)} · {'daily' if mode == 'daily' else 'casual'} · "
                + _period_words(board.period, today),
                description="\n".join(rules.leaderboard_lines(board, interaction.user.id)),
            )
            await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)

    @app_commands.command(name="stats", description="Games, wins, scores and daily streaks")
    @app_commands.describe(member="Whose stats (default: yours)")
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        """Show a player's stats in this server (any user: former members keep their results)."""
        async with refusals(interaction):
            guild_id = require_guild(interaction)
            who = member or interaction.user
            config = await store.guild_config(self.db, guild_id)
            today = rules.server_date(config.timezone, self._now())
            found = await store.member_stats(self.db, guild_id, who.id, today)
            lines = rules.stats_lines(found) if found.games else [f"<@{who.id}> has not finished a game here yet."]
            embed = discord.Embed(title=f"Solitaire stats: {who.display_name}", description="\n".join(lines))
            await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)

    # -- /solitaire config ---------------------------------------------------------------------
    @config.command(name="channel", description="Where the daily podium is posted at midnight (empty: nowhere)")
    @app_commands.describe(channel="The competition channel (leave empty to stop posting podiums)")
    async def config_channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        """Set or clear the server's competition channel (Manage Server only)."""
        async with refusals(interaction):
            guild_id = await self._manager_guild(interaction)
            if guild_id is None:
                return
            config = await store.guild_config(self.db, guild_id)
            today = rules.server_date(config.timezone, self._now())
            yesterday = (today - timedelta(days=1)).isoformat()
            await store.set_channel(self.db, guild_id, channel.id if channel else None, podium_after=yesterday)
            self._settings_changed()
            if channel is None:
                text = "Daily podiums will no longer be posted."
            else:
                rollover = rules.next_rollover(config.timezone, self._now())
                text = (
                    f"Daily results and podiums will be posted in {channel.mention}: the next podium "
                    f"<t:{int(rollover.timestamp())}:R> (00:00 {config.timezone})."
                )
            await interaction.response.send_message(text, ephemeral=True)

    @config.command(name="timezone", description="The server's time zone: the day rolls over at 00:00 there")
    @app_commands.describe(timezone="An IANA time zone such as Europe/Paris or America/New_York")
    async def config_timezone(self, interaction: discord.Interaction, timezone: str) -> None:
        """Set the server's time zone (Manage Server only); unknown names get a suggestion."""
        async with refusals(interaction):
            guild_id = await self._manager_guild(interaction)
            if guild_id is None:
                return
            try:
                zone = rules.validate_timezone(timezone)
            except rules.InvalidTimezoneError as error:
                await answer_privately(interaction, f"{error}.")
                return
            await store.set_timezone(self.db, guild_id, zone)
            self._settings_changed()
            rollover = rules.next_rollover(zone, self._now())
            await interaction.response.send_message(
                f"Time zone set to **{zone}**: the day rolls over at 00:00 there "
                f"(next <t:{int(rollover.timestamp())}:R>).",
                ephemeral=True,
            )

    @config_timezone.autocomplete("timezone")
    async def _zone_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=zone, value=zone) for zone in rules.zone_suggestions(current, ZONE_CHOICES)]

    async def _manager_guild(self, interaction: discord.Interaction) -> int | None:
        """The guild id if the caller may change its settings; otherwise answer with the refusal."""
        guild_id = require_guild(interaction)
        if not interaction.permissions.manage_guild:
            await answer_privately(interaction, NOT_MANAGER)
            return None
        return guild_id

    # -- the public daily line -------------------------------------------------------------------
    @commands.Cog.listener("on_solitaire_game_finished")
    async def _daily_finished(self, record: GameRecord) -> None:
        """Announce a finished daily (score and rank, never the board)."""
        if record.mode == "daily":
            await self._announce(record.id)

    async def _announce(self, game_id: int) -> bool:
        """Post a finished daily's public line once: claim it, post it, give the claim back if posting failed."""
        if not await store.claim_announcement(self.db, game_id, self.bot.now()):
            return False
        record = await games_store.get_game(self.db, game_id)
        result = await store.daily_result_of(self.db, game_id)
        if record is None or result is None:
            return False
        config = await store.guild_config(self.db, record.guild_id)
        today = rules.server_date(config.timezone, self._now())
        channel = self.bot.get_partial_messageable(config.channel_id or record.channel_id)
        try:
            await channel.send(rules.daily_line(result, today), allowed_mentions=NO_PINGS)
        except discord.HTTPException as error:
            log.warning("could not post the result of daily game %s: %s", game_id, error)
            await store.release_announcement(self.db, game_id)
            return False
        return True

    # -- midnight: podiums ---------------------------------------------------------------------------
    async def _competition_loop(self, *, sweep: bool = True) -> None:
        """Post lines a crash left unposted, then each server's podium at its 00:00, forever."""
        await self.bot.wait_until_ready()
        if sweep:
            for game_id in await store.unannounced(self.db, since=self.bot.now() - ANNOUNCE_WITHIN):
                await self._announce(game_id)
        while True:
            try:
                wait = await self.post_due_podiums()
            except Exception:
                log.exception("posting the daily podiums failed")
                wait = 60.0
            try:
                wait = min(wait, await self.queue_daily_deals())
            except Exception:
                log.exception("queueing the day's daily deals failed")
            self._sleeper = asyncio.current_task()
            try:
                await asyncio.sleep(wait)
            finally:
                if self._sleeper is asyncio.current_task():
                    self._sleeper = None

    def _settings_changed(self) -> None:
        """Recompute the next rollover now (a zone or channel changed): restart the task if it is asleep."""
        task = self._competition_task
        if task is not None and task is self._sleeper:
            task.cancel()
            self._sleeper = None
            self._competition_task = asyncio.get_running_loop().create_task(
                self._competition_loop(sweep=False), name="competition"
            )

    async def post_due_podiums(self) -> float:
        """Post yesterday's podium in every server whose day rolled over; return seconds until the next rollover."""
        now = self._now()
        wait = MAX_WAIT
        for config in await store.podium_guilds(self.db):
            today = rules.server_date(config.timezone, now)
            yesterday = (today - timedelta(days=1)).isoformat()
            if config.last_podium_date is None or config.last_podium_date < yesterday:
                await self._post_podium(config, yesterday)
            wait = min(wait, (rules.next_rollover(config.timezone, now) - now).total_seconds())
        await self._forget_old_deals(now)
        return max(wait, 0.0)

    async def _post_podium(self, config: store.GuildConfig, daily_date: str) -> None:
        if config.channel_id is None or not await store.claim_podium(self.db, config.guild_id, daily_date):
            return
        podium = await store.podium(self.db, config.guild_id, daily_date, VARIANTS)
        if podium.empty:
            return
        channel = self.bot.get_partial_messageable(config.channel_id)
        try:
            await channel.send("\n".join(rules.podium_lines(podium)), allowed_mentions=NO_PINGS)
        except discord.HTTPException as error:
            log.warning("could not post the %s podium of server %s: %s", daily_date, config.guild_id, error)

    async def _forget_old_deals(self, now: datetime) -> None:
        """Drop the deals of days that ended everywhere (before yesterday in UTC), in memory and stored."""
        cutoff = (now.date() - timedelta(days=1)).isoformat()
        for key in [key for key in self._deal_tasks if key[2] < cutoff]:
            del self._deal_tasks[key]
        self._presolve_seen = {key for key in self._presolve_seen if key[2] >= cutoff}
        self._presolved = {key for key in self._presolved if key[2] >= cutoff}
        await store.forget_deals_before(self.db, cutoff)

    # -- deals solved ahead ----------------------------------------------------------------------------
    async def queue_daily_deals(self) -> float:
        """Queue today's deal of each variant a server played daily lately; return seconds until a server's next day.

        Runs at start and at each rollover (the midnight task). The deals are solved one at a time,
        after any casual bank refill (:meth:`DealBank.wait_idle`), and at most :data:`PRESOLVE_LIMIT`
        wait at once; the others are queued at a later wake-up, or solved when a player asks.
        """
        now = self._now()
        since = (now.date() - timedelta(days=rules.PRESOLVE_DAYS + 1)).isoformat()  # every zone's window, and more
        activity = await store.recent_daily_activity(self.db, since)
        skipped = 0
        for guild_id, variant, today in rules.due_daily_deals(activity, now):
            key = (guild_id, variant, today.isoformat())
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
        rollover = rules.first_rollover((entry.timezone for entry in activity), now)
        return MAX_WAIT if rollover is None else max((rollover - now).total_seconds(), 0.0)

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
        task = self._deal_task(guild_id, variant, date.fromisoformat(daily_date))
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


def _period_words(period: rules.Period, today: date) -> str:
    days = period.days(today)
    if period is rules.Period.TODAY:
        return f"today ({today.isoformat()})"
    if days is not None:
        return f"this week (since Monday {days[0].isoformat()})"
    return "all time"
