"""The composition root: every service of the bot, built in one visible order and closed in reverse.

:meth:`Services.open` builds the database, the heavy-work scheduler, the pictures, the deal bank, the
sessions, the metrics, the languages (speakers: the outbox says each post in its server's language), the
outbox, the daily service, races and challenges, then the services the cogs ask (after-game,
preferences, standings, moderation, onboarding), each after what it uses;
each one's close is kept as it is built (an :class:`contextlib.AsyncExitStack`), so :meth:`Services.close`
closes exactly what was built, in reverse, even after a start that failed half-way. The client keeps its
Discord parts and reads its services from here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.activity.challenges import ChallengeDesk
from bot.activity.door import Where
from bot.activity.game import GameDesk
from bot.activity.identity import DiscordIdentity
from bot.activity.pages import Pages
from bot.activity.races import RaceDesk
from bot.activity.routes import Routes
from bot.activity.server import ActivityServer
from bot.compete.challenges import ChallengeService
from bot.compete.daily import DailyService, Solve
from bot.compete.moderation import Moderation
from bot.compete.onboarding import Onboarding
from bot.compete.over import CompetitionsOver
from bot.compete.race import RaceService
from bot.compete.standings import Standings
from bot.compete.starts import GameStarts
from bot.heavy import Scheduler
from bot.outbox.announcements import Announcements
from bot.play.deal_bank import SOLVER_VERSION, Deal, DealBank, solve_numbered
from bot.play.finished_games import FinishedGames
from bot.play.hints import Hints
from bot.play.preferences import Preferences
from bot.play.render_pool import Pictures
from bot.play.session import Clock, FinishListener, Sleep
from bot.play.sessions import SessionManager
from bot.rules.modes import CHALLENGE, DAILY, RACE
from bot.runtime.metrics import BotMetrics, Sources
from bot.runtime.settings import Settings
from bot.speakers import Speakers
from bot.storage import Database, open_database
from bot.storage.deals import StoredDeals
from solitaire import VARIANTS
from solitaire.deals import solve_request


@dataclass(frozen=True)
class Needs:
    """What the services are built from besides the settings (tests give a clock, a sleep and instant solvers)."""

    now: Clock
    sleep: Sleep = asyncio.sleep
    deals: DealBank[Deal] | None = None
    """A deal bank to use instead of one solving in worker processes."""
    daily_solve: Solve = solve_request
    db: Database | None = None
    """The database, already opened (``python -m bot`` opens it before logging in); else opened here."""


@dataclass(frozen=True)
class DiscordFacts:
    """What the services learn from Discord once logged in: the application, and whether the bot is in a server."""

    application_id: int
    has_guild: Callable[[int], bool]
    name_of: Callable[[int, int], str | None] = lambda guild_id, user_id: None
    """A member's name as the server shows it (``None``: not known to this process)."""
    bot_may: Callable[[int, int, str], bool] = lambda guild_id, channel_id, flag: True
    """Whether the bot holds a permission flag in a channel (``True``: not known to this process)."""
    server_locale: Callable[[int], object | None] = lambda guild_id: None
    """A server's preferred locale as Discord told it (``None``: not known to this process)."""


@dataclass
class Services:
    """The bot's services: :meth:`open` builds them, :meth:`close` closes what was built, in reverse."""

    settings: Settings
    needs: Needs
    _stack: contextlib.AsyncExitStack = field(default_factory=contextlib.AsyncExitStack, init=False, repr=False)

    db: Database = field(init=False)
    jobs: Scheduler = field(init=False)
    """The one door for heavy work: pictures, solves, hints, analyses and GIFs (:mod:`bot.heavy`)."""
    renders: Pictures = field(init=False)
    deals: DealBank[Deal] = field(init=False)
    sessions: SessionManager = field(init=False)
    metrics: BotMetrics = field(init=False)
    outbox: Announcements = field(init=False)
    """The one outbox every competition posts through (daily, races, challenges, champions, reminders)."""
    daily: DailyService = field(init=False)
    races: RaceService = field(init=False)
    challenges: ChallengeService = field(init=False)
    hints: Hints = field(init=False)
    """Hints on running games, found by the heavy workers and charged through the sessions."""
    starts: GameStarts = field(init=False)
    """A member's own games (casual, practice, daily) started one way on every surface."""
    over: CompetitionsOver = field(init=False)
    """Whether a finished game's competition is over, asked of its mode's service (after-game gates)."""
    finished: FinishedGames = field(init=False)
    preferences: Preferences = field(init=False)
    standings: Standings = field(init=False)
    moderation: Moderation = field(init=False)
    onboarding: Onboarding = field(init=False)
    speakers: Speakers = field(init=False)
    """The language of each member (privately) and of each server's public posts."""
    activity: ActivityServer | None = field(default=None, init=False)
    """The Activity's web server (``ACTIVITY_PORT``), a surface over the same services as the cogs."""

    def __post_init__(self) -> None:
        """Take a database opened already: it is the bot's from now on (closed with the services)."""
        if self.needs.db is not None:
            self._keep_database(self.needs.db)

    def _keep_database(self, db: Database) -> None:
        self.db = db
        self._stack.push_async_callback(db.close)

    async def open(
        self, *, finished: FinishListener, sources: Callable[[], Sources], discord: DiscordFacts | None = None
    ) -> None:
        """Build every service in order; ``finished`` hears every finished game, ``sources`` feed the metrics.

        ``discord``: what the Activity's server needs to know of Discord (the Activity runs only with it and
        ``ACTIVITY_PORT``).
        """
        settings, needs, stack = self.settings, self.needs, self._stack
        if needs.db is None:
            self._keep_database(await open_database(settings.database_target))
        self.jobs = Scheduler.for_workers(settings.render_workers, settings.deal_workers)
        self.jobs.start()
        stack.push_async_callback(self.jobs.close)
        self.renders = Pictures(self.jobs)
        self.deals = needs.deals or DealBank(
            solve_numbered, variants=VARIANTS, size=settings.deal_bank_size, jobs=self.jobs
        )
        stack.push_async_callback(self.deals.close)
        if self.deals.cache is None:
            self.deals.use_cache(StoredDeals(self.db, SOLVER_VERSION))
        self.speakers = Speakers(
            self.db,
            now=needs.now,
            server_locale=discord.server_locale if discord is not None else lambda guild_id: None,
        )
        stack.push_async_callback(self.speakers.close)
        self.sessions = SessionManager(self.db, now=needs.now, sleep=needs.sleep, language_of=self.speakers.member)
        stack.push_async_callback(self.sessions.close)
        self.sessions.add_finish_listener(finished)
        self.metrics = BotMetrics(sources())
        stack.push_async_callback(self.metrics.close)
        if settings.metrics_port is not None:
            await self.metrics.serve(settings.metrics_port, host=settings.metrics_host)
        self.outbox = Announcements(
            self.db, now=needs.now, sleep=needs.sleep, ownership=settings.ownership, speakers=self.speakers
        )
        stack.push_async_callback(self.outbox.close)
        self.daily = DailyService(
            self.db,
            self.deals,
            announcements=self.outbox,
            now=needs.now,
            sleep=needs.sleep,
            secret=self.daily_secret,
            solve=needs.daily_solve,
            spares=settings.daily_spares,
            ownership=settings.ownership,
        )
        stack.push_async_callback(self.daily.close)
        self.races = RaceService(
            self.db, self.sessions, self.deals, now=needs.now, sleep=needs.sleep, announcements=self.outbox
        )
        stack.push_async_callback(self.races.close)
        self.challenges = ChallengeService(
            self.db,
            self.sessions,
            self.deals,
            now=needs.now,
            sleep=needs.sleep,
            announcements=self.outbox,
            ownership=settings.ownership,
        )
        stack.push_async_callback(self.challenges.close)
        self.hints = Hints(self.sessions, self.jobs)
        self.starts = GameStarts(self.sessions, self.deals, self.daily, self.races)
        self.over = CompetitionsOver(
            {
                DAILY: self.daily.over_for_record,
                RACE: self.races.events.over_for_record,
                CHALLENGE: self.challenges.events.over_for_record,
            }
        )
        self.finished = FinishedGames(self.db, over=self.over.over, now=needs.now)
        self.preferences = Preferences(self.db, self.sessions)
        self.standings = Standings(self.db)
        self.moderation = Moderation(self.db, now=needs.now)
        self.onboarding = Onboarding(self.db, now=needs.now)
        if settings.activity_port is not None and discord is not None:
            await self._open_activity(settings.activity_port, discord)

    async def _open_activity(self, port: int, discord: DiscordFacts) -> None:
        """Serve the Activity's page and sockets on ``port``, over the services just built."""
        settings, needs = self.settings, self.needs
        secret = settings.discord_client_secret
        identity = DiscordIdentity(
            application_id=discord.application_id,
            client_secret=secret.get_secret_value() if secret is not None else "",
            bot_token=settings.discord_token.get_secret_value(),
            api_base=settings.api_base,
        )
        pages = Pages()
        routes = Routes(
            pages,
            GameDesk(self.sessions, self.starts, self.hints, pages, now=needs.now, daily=self.daily),
            RaceDesk(self.races, pages, now=needs.now, name_of=discord.name_of, bot_may=discord.bot_may),
            ChallengeDesk(self.challenges, self.sessions, now=needs.now, name_of=discord.name_of),
            identity.counts,
        )
        routes_of = settings.activity_routes
        self.activity = ActivityServer(
            routes=routes,
            identity=identity,
            where=Where(
                owns=settings.ownership.owns,
                has_bot=discord.has_guild,
                name_of=discord.name_of,
                bot_may=discord.bot_may,
                route_of=routes_of.prefix_of if routes_of is not None else lambda guild_id: None,
            ),
            speakers=self.speakers,
            client_id=discord.application_id,
            prefix=settings.activity_prefix,
            trusted=settings.activity_trusted_proxies,
        )
        self._stack.push_async_callback(self.activity.close)
        await self.activity.start(settings.activity_host, port)

    def start_when(self, ready: Callable[[], Awaitable[None]]) -> None:
        """Start the outbox's loop and the daily service once ``ready`` returns (connected: they post)."""
        starter = asyncio.get_running_loop().create_task(self._start_after(ready), name="daily-start")
        self._stack.callback(starter.cancel)

    async def _start_after(self, ready: Callable[[], Awaitable[None]]) -> None:
        await ready()
        self.outbox.start()
        self.daily.start()

    def daily_secret(self) -> str | None:
        """The daily deals' key from the settings (``None``: one is kept in the database)."""
        secret = self.settings.daily_secret
        return secret.get_secret_value() if secret is not None else None

    async def close(self) -> None:
        """Close every service built, last built first (safe to call twice, and after a failed start)."""
        await self._stack.aclose()
