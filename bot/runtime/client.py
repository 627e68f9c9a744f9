"""The Discord client: owns the database, the sessions and the deal bank, and loads the cog."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar, overload

import aiohttp
import discord
import yarl
from discord.ext import commands

from bot import errors
from bot.compete.challenges import ChallengeService
from bot.compete.daily import DailyService, Solve
from bot.compete.moderation import Moderation
from bot.compete.onboarding import Onboarding
from bot.compete.over import CompetitionsOver
from bot.compete.race import RaceService
from bot.compete.standings import Standings
from bot.compete.starts import GameStarts
from bot.heavy import Scheduler
from bot.invite import SCOPES, Permission, invite_lines, required
from bot.play.deal_bank import Deal, DealBank
from bot.play.finished_games import FinishedGames
from bot.play.hints import Hints
from bot.play.preferences import Preferences
from bot.play.render_pool import Pictures
from bot.play.session import Clock, FinishSource, Session, Sleep
from bot.play.sessions import SessionManager
from bot.runtime.command_words import CommandWords
from bot.runtime.metrics import BotMetrics, Sources
from bot.runtime.services import DiscordFacts, Needs, Services
from bot.runtime.settings import Settings
from bot.runtime.startup import cause, run_step, step_failed, sync_step
from bot.shards import Ownership
from bot.speakers import Speakers
from bot.storage import Database, dev_guilds
from bot.storage.deadlines import patience
from bot.storage.games import GameRecord
from bot.storage.health import database_answers
from bot.version import version_line
from languages.catalogues import read_every_catalogue
from solitaire.deals import solve_request
from solitaire.speech import N_, _

log = logging.getLogger(__name__)
T = TypeVar("T")

EXTENSIONS = ("cogs.solitaire",)
GLOBAL_SYNC = (
    "commands are synced to every server: Discord may take a while to show new or changed ones; "
    "set DEV_GUILD_ID to a server's id to see them there at once"
)
NO_SERVER = "I am in no server: open the invite link above as a member with Manage Server to add me to one"
UNEXPECTED = N_("Something went wrong on my side; please try again.")
"""The answer to a bug (marked: say it with ``_(UNEXPECTED)``)."""
INVALID_FORM_BODY = 50035
"""Discord's error code for a payload it refuses (discord.py's own sync raises ``CommandSyncFailure`` for it)."""
STARTUP_PATIENCE = 60.0
"""Seconds each database statement of the start may take (a player's move gets 2 s on PostgreSQL)."""
FINISHED_EVENT = "solitaire_game_finished"
"""Dispatched with the final :class:`GameRecord` of every game (listen with ``on_solitaire_game_finished``)."""


def utc_now() -> float:
    """The current time in unix seconds from discord.py's clock (SimCord's virtual clock in tests)."""
    return discord.utils.utcnow().timestamp()


def invite_url(application_id: int, permissions: Sequence[Permission]) -> str:
    """The OAuth2 link that adds the bot to a server with ``permissions`` (and the scopes it needs)."""
    granted = discord.Permissions(**{permission.flag: True for permission in permissions})
    return discord.utils.oauth_url(application_id, permissions=granted, scopes=SCOPES)


def use_api_base(base: str) -> None:
    """Send every REST call (webhooks and interaction responses included) to ``base``, e.g. ``.../api/v10``."""
    discord.http.Route.BASE = base.rstrip("/")


class GatewayRedirect:
    """Wraps ``HTTPClient.ws_connect`` so every gateway connection (first and resumed) goes to one URL.

    discord.py builds gateway URLs from ``wss://gateway.discord.gg`` and, later, the
    ``resume_gateway_url`` Discord sends; this keeps their query (version, encoding,
    compression) and replaces scheme, host and path with the proxy's.
    """

    def __init__(self, connect: Callable[..., Awaitable[Any]], url: str) -> None:
        self._connect = connect
        self.url = yarl.URL(url)

    def target(self, requested: str) -> str:
        """The URL to connect to instead of ``requested``."""
        return str(self.url.with_query(yarl.URL(requested).query))

    async def __call__(self, url: str, **kwargs: Any) -> Any:
        """Connect to the proxy instead of ``url``."""
        return await self._connect(self.target(url), **kwargs)


class GatewayUnreachableError(Exception):
    """The first connection to the gateway failed (discord.py would retry it forever, with a traceback each time)."""


class FirstGatewayConnection:
    """Wraps ``HTTPClient.ws_connect``: until one connection succeeded, a failure ends the start.

    Later connections (resumes, reconnects) fail the usual way, and discord.py retries them.
    """

    def __init__(self, connect: Callable[..., Awaitable[Any]]) -> None:
        self._connect = connect
        self.connected = False
        self.failure: GatewayUnreachableError | None = None
        """Why the first connection failed (a sharded bot's shards would retry it: the start stops instead)."""
        self.failed = asyncio.Event()

    async def __call__(self, url: str, **kwargs: Any) -> Any:
        """Connect; :raises GatewayUnreachableError: if the first connection fails."""
        if self.connected:
            return await self._connect(url, **kwargs)
        try:
            socket = await self._connect(url, **kwargs)
        except (OSError, aiohttp.ClientError) as error:
            self.failure = GatewayUnreachableError(cause(error))
            self.failed.set()
            raise self.failure from error
        self.connected = True
        return socket

    async def wait_failed(self) -> None:
        """Wait until the first connection failed; :raises GatewayUnreachableError: then."""
        await self.failed.wait()
        assert self.failure is not None
        raise self.failure


class ReportedByTheStart(logging.Filter):
    """Drops discord.py's traceback of a failed first gateway connection: the start reports it in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record but those carrying a :class:`GatewayUnreachableError`."""
        return not (record.exc_info and isinstance(record.exc_info[1], GatewayUnreachableError))


REPORTED_BY_THE_START = ReportedByTheStart()
DISCORD_RETRY_LOGGERS = ("discord.client", "discord.shard")
"""The discord.py loggers that log a failed connection with its traceback before retrying it."""


class Service(Generic[T]):
    """A service of the bot, read from its composition root (:class:`Services`) under the same name."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, bot: None, owner: type) -> Service[T]: ...

    @overload
    def __get__(self, bot: SolitaireBot, owner: type) -> T: ...

    def __get__(self, bot: SolitaireBot | None, owner: type) -> Service[T] | T:
        """The service of ``bot`` (this descriptor itself, read on the class)."""
        if bot is None:
            return self
        service: T = getattr(bot.services, self.name)
        return service


ENTRY_POINT = 4
"""The application command type ``PRIMARY_ENTRY_POINT`` (discord.py has no name for it): the command that launches
an app's Activity from Discord's App Launcher. Discord creates it when Activities are enabled for the app."""
SERVER_FIELDS = ("application_id", "version")
"""Fields of a command Discord sets itself, left out when a fetched command is sent back."""


def entry_points(commands: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The Entry Point commands among ``commands`` (as Discord lists them), to send back in a bulk overwrite."""
    return [
        {key: value for key, value in command.items() if key not in SERVER_FIELDS}
        for command in commands
        if command.get("type") == ENTRY_POINT
    ]


def is_entry_point(interaction: discord.Interaction[Any]) -> bool:
    """Whether ``interaction`` is a member's use of the app's Entry Point command (its handler is the app)."""
    data: Mapping[str, Any] = interaction.data or {}
    return interaction.type is discord.InteractionType.application_command and data.get("type") == ENTRY_POINT


async def launch_activity(interaction: discord.Interaction[Any], *, served: bool) -> None:
    """Open the Activity for the member who asked (``served``: this process serves it).

    :raises ActivityOffError: this process serves no Activity.
    :raises ActivityRefusedError: Discord would not launch it (the interaction is still unanswered).
    """
    if not served:
        raise errors.ActivityOffError()
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        log.warning("Discord would not launch the Activity (are Activities enabled for the application?): %s", error)
        raise errors.ActivityRefusedError() from error


class SolitaireTree(discord.app_commands.CommandTree["SolitaireBot"]):
    """The command tree: an unexpected error is logged and the player told something went wrong.

    Its global sync keeps the app's Entry Point command, which discord.py cannot declare and Discord
    refuses to see dropped by a bulk overwrite (HTTP 400, error code 50240); a use of that command (when
    its handler is the app) is answered by opening the Activity.
    """

    async def interaction_check(self, interaction: discord.Interaction[SolitaireBot], /) -> bool:
        """Speak the member's language; answer the Entry Point command here, by opening the Activity."""
        await interaction.client.speakers.speak_to_member(interaction.user.id, interaction.locale)
        if not is_entry_point(interaction):
            return True
        try:
            await launch_activity(interaction, served=interaction.client.settings.serves_activity)
        except errors.BotError as refusal:
            try:
                await interaction.response.send_message(str(refusal), ephemeral=True)
            except discord.HTTPException as error:
                log.warning("could not answer the Entry Point command: %s", error)
        return False

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[discord.app_commands.AppCommand]:
        """Sync the commands; globally, send the app's Entry Point command back with them (as Discord listed it)."""
        application_id = self.client.application_id
        if guild is not None or application_id is None:
            return await super().sync(guild=guild)
        kept = entry_points(await self.client.http.get_global_commands(application_id))
        if not kept:
            return await super().sync()
        commands = self.get_commands()
        translator = self.translator
        payload = [
            await command.get_translated_payload(self, translator) if translator else command.to_dict(self)
            for command in commands
        ]
        payload += kept
        try:
            data = await self.client.http.bulk_upsert_global_commands(application_id, payload=payload)
        except discord.HTTPException as error:
            if error.status == 400 and error.code == INVALID_FORM_BODY:
                raise discord.app_commands.CommandSyncFailure(error, commands) from None
            raise
        return [discord.app_commands.AppCommand(data=command, state=self.client._connection) for command in data]

    async def on_error(
        self, interaction: discord.Interaction[SolitaireBot], error: discord.app_commands.AppCommandError
    ) -> None:
        """Log the bug and answer privately if the interaction is still unanswered."""
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error("/%s failed", command, exc_info=error)
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(_(UNEXPECTED), ephemeral=True)
            else:
                await interaction.followup.send(_(UNEXPECTED), ephemeral=True)
        except discord.HTTPException:
            pass


class SolitaireBot(commands.Bot):
    """The bot: one :class:`commands.Bot` with the ``/solitaire`` command group.

    Its services are built in :meth:`setup_hook` by the composition root (:class:`Services`) and read
    here under their usual names (``db``, ``jobs``, ``sessions``, ``deals``, ``daily``, ...); tests pass
    their own ``deals`` (pre-solved, no processes), read time from ``now`` and wait with ``sleep``
    (the game clocks, the daily loop, the outbox, the race and challenge timers).
    """

    db = Service[Database]()
    jobs = Service[Scheduler]()
    """The one door for heavy work: pictures, solves, hints, analyses and GIFs (:mod:`bot.heavy`)."""
    renders = Service[Pictures]()
    deals = Service[DealBank[Deal]]()
    sessions = Service[SessionManager]()
    metrics = Service[BotMetrics]()
    daily = Service[DailyService]()
    races = Service[RaceService]()
    challenges = Service[ChallengeService]()
    hints = Service[Hints]()
    starts = Service[GameStarts]()
    over = Service[CompetitionsOver]()
    finished = Service[FinishedGames]()
    preferences = Service[Preferences]()
    standings = Service[Standings]()
    moderation = Service[Moderation]()
    onboarding = Service[Onboarding]()
    speakers = Service[Speakers]()

    def __init__(
        self,
        settings: Settings,
        *,
        deals: DealBank[Deal] | None = None,
        now: Clock = utc_now,
        sleep: Sleep = asyncio.sleep,
        daily_solve: Solve = solve_request,
        db: Database | None = None,
    ) -> None:
        """``db``: the database, already opened (``python -m bot`` opens it before logging in); else opened here."""
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # no voice here: no warning
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True, moderation=True),
            help_command=None,
            tree_cls=SolitaireTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **self._shard_options(settings),
        )
        self.settings = settings
        self.ownership: Ownership = settings.ownership
        """The servers whose clocks, dailies and races this process runs."""
        self.now = now
        self.sleep = sleep
        self.services = Services(settings, Needs(now=now, sleep=sleep, deals=deals, daily_solve=daily_solve, db=db))
        """Every service, built in :meth:`setup_hook` and closed by :meth:`close_services` (the composition root)."""
        self._ready_logged = False
        self.command_count = 0
        self.setting_up = asyncio.Event()
        """Set when :meth:`setup_hook` begins: the login itself is done."""
        if settings.gateway_url:
            self.http.ws_connect = GatewayRedirect(self.http.ws_connect, settings.gateway_url)  # type: ignore[method-assign]
        self.gateway = FirstGatewayConnection(self.http.ws_connect)
        self.http.ws_connect = self.gateway  # type: ignore[method-assign]
        for name in DISCORD_RETRY_LOGGERS:
            logging.getLogger(name).addFilter(REPORTED_BY_THE_START)

    async def setup_hook(self) -> None:
        """Open the database, load the cog, resume running games, fill the deal bank, sync commands.

        The database work of the start (and of the tasks it starts, for a while) is not held to a
        player's deadline: a slow query then must not stop the bot.
        """
        self.setting_up.set()
        read_every_catalogue()  # before any member is answered: a first German answer never waits for its reading
        await self.tree.set_translator(CommandWords())
        with patience(STARTUP_PATIENCE):
            await self._set_up()

    async def _set_up(self) -> None:
        owns = self.ownership.owns
        facts = DiscordFacts(
            self.application_id or 0,
            lambda guild_id: self.get_guild(guild_id) is not None,
            self.member_name,
            self.bot_may,
            self.server_locale,
        )
        await self.services.open(finished=self._announce_finished, sources=self.metrics_sources, discord=facts)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        resumed, finished = await self.sessions.resume_all(owns=owns)
        if resumed or finished:
            log.info("resumed %d running games, finished %d that ran out of time", len(resumed), len(finished))
        if races := await self.races.resume(owns=owns):
            log.info("resumed %d open races", len(races))
        if challenges := await self.challenges.resume(owns=owns):
            log.info("resumed %d open challenges", len(challenges))
        self.deals.start()
        self.services.start_when(self.wait_until_ready)
        await self._sync_step()

    async def _sync_step(self) -> None:
        """Sync the commands as a start-up step: logged, with a time limit, a failure named in one line."""
        where = f"to server {self.settings.dev_guild_id}" if self.settings.dev_guild_id else "to every server"
        step = sync_step(self.settings.startup_timeout, where)
        try:
            await run_step(step, self._sync_commands())
        except (OSError, aiohttp.ClientError, discord.HTTPException) as error:
            raise step_failed(step, error) from error

    def metrics_sources(self) -> Sources:
        """What the metrics endpoint reads at scrape time (the services must be open)."""
        return Sources(
            game_guilds=lambda: [session.record.guild_id for session in self.sessions.running],
            deal_levels=self.deals.levels,
            solver_queue=lambda: self.deals.solving,
            shard_count=lambda: self.shard_count or 1,
            shard_ids=self.running_shards,
            connected=lambda: self.is_ready() and not self.is_closed(),
            database_answers=lambda: database_answers(self.db),
            activity=lambda: self.services.activity.counts if self.services.activity is not None else None,
            parked_posts=lambda: self.daily.announcements.parked,
        )

    @staticmethod
    def _shard_options(settings: Settings) -> dict[str, Any]:
        """The client's shard options (a plain bot has none; see :class:`ShardedSolitaireBot`)."""
        return {}

    def member_name(self, guild_id: int, user_id: int) -> str | None:
        """A member's name as their server shows it, from the cache (``None``: not cached here)."""
        guild = self.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        return member.display_name if member is not None else None

    def server_locale(self, guild_id: int) -> discord.Locale | None:
        """A server's preferred locale, if this process knows the server."""
        guild = self.get_guild(guild_id)
        return guild.preferred_locale if guild is not None else None

    def bot_may(self, guild_id: int, channel_id: int, flag: str) -> bool:
        """Whether the bot holds permission ``flag`` in a channel, from the cache (``True``: not cached here)."""
        guild = self.get_guild(guild_id)
        channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
        if guild is None or channel is None:
            return True
        return bool(getattr(channel.permissions_for(guild.me), flag))

    def running_shards(self) -> list[int]:
        """The shard ids this process runs (``[0]`` unsharded)."""
        return [self.shard_id or 0]

    async def competition_over(self, record: GameRecord) -> bool:
        """Whether nobody can still gain from a finished game's deal (after-game gates, see ``bot.play.after_game``)."""
        return await self.over.over(record)

    async def _sync_commands(self) -> None:
        """Sync the commands (to DEV_GUILD_ID's server only, if set); clear a former development server's copies."""
        dev_guild = self.settings.dev_guild_id
        if dev_guild:
            guild = discord.Object(id=dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        former = await dev_guilds.remembered(self.db)
        if former is not None and former != dev_guild:
            await self._clear_guild_commands(former)
        if former != dev_guild:
            await dev_guilds.remember(self.db, dev_guild)
        self.command_count = sum(1 for _ in self.tree.walk_commands() if not isinstance(_, discord.app_commands.Group))

    async def _clear_guild_commands(self, guild_id: int) -> None:
        """Remove the commands copied to a server that is no longer ``DEV_GUILD_ID`` (they would show twice)."""
        guild = discord.Object(id=guild_id)
        self.tree.clear_commands(guild=guild)
        try:
            await self.tree.sync(guild=guild)
        except (discord.Forbidden, discord.NotFound):
            log.info("server %d, the former DEV_GUILD_ID, is out of reach: nothing to clear there", guild_id)
            return
        log.info("removed the commands copied to server %d, the former DEV_GUILD_ID", guild_id)

    async def on_ready(self) -> None:
        """Log the versions, the ready line and how to invite the bot, the first time it is connected."""
        if self._ready_logged:
            return
        self._ready_logged = True
        log.info(version_line(discord.__version__))
        log.info(
            "ready as %s: %d servers, %d commands%s",
            self.user,
            len(self.guilds),
            self.command_count,
            f" (synced to server {self.settings.dev_guild_id})" if self.settings.dev_guild_id else "",
        )
        if not self.settings.dev_guild_id:
            log.info(GLOBAL_SYNC)
        self._log_invite()

    def invite_lines(self) -> list[str]:
        """The links that invite this bot with the permissions it uses (none before it has logged in)."""
        if self.application_id is None:
            return []
        return invite_lines(functools.partial(invite_url, self.application_id))

    def _log_invite(self) -> None:
        """Log the invite links; warn while the bot is in no server."""
        for line in self.invite_lines():
            log.info(line)
        if not self.guilds:
            log.warning(NO_SERVER)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Log the new server, and any permission the bot uses that its role there lacks."""
        log.info("joined server %s (%d): %d servers", guild.name, guild.id, len(self.guilds))
        granted = guild.me.guild_permissions if guild.me is not None else discord.Permissions.none()
        if missing := [permission.name for permission in required() if not getattr(granted, permission.flag)]:
            log.warning(
                "in server %s (%d) my role lacks %s: grant it, or invite me again with the link logged at start",
                guild.name,
                guild.id,
                ", ".join(missing),
            )

    async def on_member_ban(self, guild: discord.Guild, user: discord.User | discord.Member) -> None:
        """A member banned from a server plays no more there: their open Activity pages are closed."""
        if self.services.activity is not None:
            await self.services.activity.member_gone(guild.id, user.id, N_("you were banned from this server"))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Log the server left (its open Activity pages closed); after the last one, how to invite the bot again."""
        log.info("left server %s (%d): %d servers", guild.name, guild.id, len(self.guilds))
        if self.services.activity is not None:
            await self.services.activity.server_gone(guild.id)
        if not self.guilds:
            self._log_invite()

    async def _announce_finished(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        self.dispatch(FINISHED_EVENT, record)

    async def close_services(self) -> None:
        """Stop the clocks, the loops and the solvers and close the database: every service, in reverse (safe twice)."""
        await self.services.close()

    async def close(self) -> None:
        """Disconnect, then stop the clocks and solvers and close the database (moves are already saved)."""
        try:
            await super().close()
        finally:
            await self.close_services()


class ShardedSolitaireBot(SolitaireBot, commands.AutoShardedBot):
    """The bot as discord.py's ``AutoShardedBot``: the shards ``SHARD_IDS`` of ``SHARD_COUNT``."""

    @staticmethod
    def _shard_options(settings: Settings) -> dict[str, Any]:
        """``shard_count`` and ``shard_ids`` from the settings (all shards when ``SHARD_IDS`` is unset)."""
        ownership = settings.ownership
        return {"shard_count": ownership.shard_count, "shard_ids": list(ownership.shard_ids)}

    def running_shards(self) -> list[int]:
        """The shard ids this process runs: those it connected, else those it was given."""
        return sorted(self.shards) or sorted(self.shard_ids or self.ownership.shard_ids)


def make_bot(settings: Settings, **options: Any) -> SolitaireBot:
    """The bot for ``settings``: sharded when ``SHARD_COUNT`` is set, else a plain one-shard bot."""
    kind = ShardedSolitaireBot if settings.shard_count is not None else SolitaireBot
    return kind(settings, **options)
