"""Fixtures that build the real bot on a temporary database, for SimCord and plain async tests.

``simcord_env`` (from SimCord's pytest plugin) runs the bot built by ``simcord_bot``;
``make_bot()`` builds another bot on the same database (for ``env.restart_bot(make_bot())``).
On SimCord, the bots' own timers (game clocks, the daily loop, race and challenge intervals) run on
SimCord's clock alone: time passes for them only when the test advances it, however busy the machine is.
Deals come from an instant test solver (no worker processes): deal number
``EASY_NUMBER`` is a Klondike deck with a known short win (see ``tests/support/decks.py``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import shutil
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio
from simcord import Env, SetupError

from bot.play.deal_bank import DealBank
from bot.runtime.client import SolitaireBot
from bot.runtime.client import make_bot as build_bot
from bot.runtime.settings import Settings, load_settings
from bot.storage import open_database
from solitaire import VARIANTS
from solitaire.deals import DealRequest, ProvenDeal, solve_request
from tests.support.decks import EASY_KLONDIKE, EASY_NUMBER, seeded

pytest_plugins = [
    "tests.support.postgres_server",  # postgres_server, postgres_dsn: a real PostgreSQL server
    "tests.support.processes",  # a test that starts a process says so with a marker
    "tests.support.locales",  # member_locales: each member's Discord locale on SimCord
]


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--every-backend``: run every database test on PostgreSQL too, not only the storage contract and main flows."""
    parser.addoption(
        "--every-backend",
        action="store_true",
        help="run every test that opens a database on both backends (default: storage tests and main flows only)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark what each test needs, keep PostgreSQL runs to the storage contract, and run the install test first.

    A test that opens a database runs on SQLite; it runs on PostgreSQL too when it is part of the storage
    contract (``tests/bot/storage/``, the processes sharing one database) or marked ``both_backends`` (the main
    flows), or with ``--every-backend``. The slowest tests are handed out first (:func:`slow_first`).
    """
    every = config.getoption("every_backend")
    kept: list[pytest.Item] = []
    for item in items:
        if "simcord_env" in getattr(item, "fixturenames", ()) and item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_TIMEOUT))  # options of SimCord's Env
        for marker in needs(item):
            item.add_marker(marker)
        if every or not on_postgres(item) or in_contract(item):
            kept.append(item)
    kept.sort(key=slow_first)
    items[:] = kept


def slow_first(item: pytest.Item) -> int:
    """The order tests are handed out in: the install test, then those that wait on processes, a browser or
    PostgreSQL, then the rest, so that no worker is left with a long test at the end while the others idle."""
    return next((rank for rank, name in enumerate(SLOW) if item.get_closest_marker(name)), len(SLOW))


SLOW = ("install", "processes", "browser", "postgres")
"""Markers of the tests that take longest, longest first."""


def on_postgres(item: pytest.Item) -> bool:
    """Whether ``item`` is the PostgreSQL run of a test."""
    callspec = getattr(item, "callspec", None)
    return callspec is not None and any(value == "postgres" for value in callspec.params.values())


def in_contract(item: pytest.Item) -> bool:
    """Whether ``item`` proves storage behaviour, so runs on both backends."""
    path = Path(str(item.path)).resolve().relative_to(ROOT).as_posix()
    return path.startswith(CONTRACT_PATHS) or item.get_closest_marker("both_backends") is not None


def needs(item: pytest.Item) -> list[pytest.MarkDecorator]:
    """The markers of what ``item`` needs beyond Python, known from its fixtures: PostgreSQL, a browser, workers."""
    fixtures = getattr(item, "fixturenames", ())
    found = []
    if on_postgres(item) or any(name.startswith("postgres") for name in fixtures):
        found.append(pytest.mark.postgres)
    if "browser" in fixtures:
        found.append(pytest.mark.browser)
    if PROCESS_FIXTURES.intersection(fixtures):
        found.append(pytest.mark.processes)
    return found


PROCESS_FIXTURES = frozenset({"one_worker"})
"""Fixtures that start worker processes."""
ROOT = Path(__file__).resolve().parents[1]
CONTRACT_PATHS = (
    "tests/bot/storage/",
    "tests/bot/test_two_processes.py",
    "tests/bot/runtime/test_database_url.py",
    "tests/bot/compete/",
    "tests/bot/outbox/",
    "tests/bot/play/test_sessions.py",
)
"""Tests that prove storage behaviour, each on both backends: the storage contract, and the services whose
statements no storage test runs (an analysis with coverage over ``--every-backend`` found them)."""


def instant_solver(variant: str, number: int) -> ProvenDeal:
    """Instant stand-in for the solver: the easy deck for ``EASY_NUMBER`` (Klondike), else a plain shuffle.

    The plain shuffles are not proven winnable: tests that need a proof call ``numbered_deal``.
    """
    if number == EASY_NUMBER and variant in ("draw3", "draw1", "goldrush"):
        return ProvenDeal(variant, number, EASY_KLONDIKE, ())
    return ProvenDeal(variant, number, seeded(number), ())


SETTLE_POLL = 0.005
"""Seconds between SimCord's looks at a bot that is still busy (its default, 0.05 s, is paid in full at each
step in which a long-lived task of the bot, such as the daily loop, waits for the database)."""

SETTLE_TIMEOUT = 30.0
"""Real seconds a click or a step of ``advance_time`` may take before SimCord gives up on the bot (its default: 5).

Only a hang runs into it: the bot's own timers are virtual (:func:`virtual_sleep`), so no settle waits one out.
"""

SIMCORD_ENVS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Env] = weakref.WeakKeyDictionary()
"""The running SimCord environment of each test's event loop (see the ``simcord_env`` fixture below)."""


async def virtual_sleep(seconds: float) -> None:
    """Wait ``seconds`` of the test's clock: on SimCord, only as the test advances time, never in real time.

    SimCord gives a bot's timer a real-time fallback: one that falls due while the test is busy (on a
    loaded machine, a click can take longer than a race's standings interval) moves the clock by itself,
    in the middle of the test, and each wait then races the wall clock. Declared as an external wait,
    the timer is virtual only: the bot settles as soon as its work is done, and the wait ends when the
    test's ``advance_time`` reaches it. Off SimCord (or outside the bot's own work), a plain sleep.
    """
    env = SIMCORD_ENVS.get(asyncio.get_running_loop())
    if env is not None:
        try:
            await env.external_wait(asyncio.sleep(seconds), reason="the bot's timer: advance_time moves it")
        except SetupError:  # not the bot's own work (a test calling a service directly)
            pass
        else:
            return
    await asyncio.sleep(seconds)


def make_deal_bank(*, size: int = 0, numbers: Callable[[], int] | None = None) -> DealBank[ProvenDeal]:
    """A deal bank with the instant test solver, solving on the event loop."""
    counter = iter(range(1000, 10**9))
    return DealBank(instant_solver, variants=VARIANTS, size=size, numbers=numbers or (lambda: next(counter)))


BACKENDS = ("sqlite", "postgres")
"""The storage backends every database test runs on (PostgreSQL: a real server, tests/support/postgres_server.py)."""


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend of this run of the test: ``"sqlite"`` or ``"postgres"``."""
    return str(request.param)


@pytest.fixture(scope="session")
def sqlite_migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every packaged migration applied, made once per session (each test gets a copy).

    Migrating a new file costs 0.08-0.13 s here; copying the migrated one, a few ms.
    """
    path = tmp_path_factory.mktemp("sqlite") / "migrated.db"

    async def migrate() -> None:
        await (await open_database(path)).close()

    with ThreadPoolExecutor(1) as thread:  # a loop of its own: a test's loop may be running
        thread.submit(asyncio.run, migrate()).result()
    return path


@pytest.fixture
def database_target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """What to open for this test: a new migrated SQLite file, or an emptied, migrated PostgreSQL schema (its URL)."""
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_bot_dsn"))
    path = tmp_path / "solitaire.db"
    shutil.copyfile(request.getfixturevalue("sqlite_migrated"), path)
    return path


@pytest.fixture
def empty_database_target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """An empty database of this test's backend, no migration applied (for tests of the migrations)."""
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_dsn"))
    return tmp_path / "empty.db"


def migrations_folder(backend: str) -> Path:
    """The packaged migrations of ``backend`` (SQLite's, or PostgreSQL's translations of them)."""
    folder = Path(__file__).resolve().parents[1] / "bot" / "storage" / "migrations"
    return folder if backend == "sqlite" else folder / backend


@pytest.fixture
def settings(tmp_path: Path, database_target: str | Path) -> Settings:
    """Settings for a test bot: a temporary database (SQLite file or PostgreSQL schema), no .env file read.

    No worker processes: heavy jobs (pictures, analyses, GIFs) run in threads of the test process.
    """
    url = database_target if isinstance(database_target, str) else None
    return load_settings(
        _env_file=None,
        discord_token="test-token",
        database_path=tmp_path / "solitaire.db",
        database_url=url,
        deal_bank_size=0,
        deal_workers=0,
        render_workers=0,
        daily_spares=0,
    )


@dataclass
class BotFactory:
    """Builds bots that share one settings object (so one database) and closes them at teardown."""

    settings: Settings
    numbers: Callable[[], int] | None = None
    built: list[SolitaireBot] | None = None
    daily_solve: Callable[[DealRequest], ProvenDeal] = solve_request
    """How the bots find the daily deals (competition tests give an instant stand-in)."""

    def __call__(self) -> SolitaireBot:
        deals = make_deal_bank(numbers=self.numbers)
        bot = build_bot(self.settings, deals=deals, sleep=virtual_sleep, daily_solve=self.daily_solve)
        if self.built is None:
            self.built = []
        self.built.append(bot)
        return bot


@pytest_asyncio.fixture
async def make_bot(settings: Settings) -> AsyncIterator[BotFactory]:
    """A factory of test bots on the test database; every bot's services are closed afterwards."""
    factory = BotFactory(settings)
    yield factory
    for bot in factory.built or []:
        await bot.close_services()


@pytest.fixture
def no_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail the test if the bot logged an error (button callbacks log bugs instead of raising them)."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, "the bot logged errors:\n" + "\n".join(r.getMessage() for r in errors)


@pytest_asyncio.fixture
async def simcord_env(simcord_env: Env) -> AsyncIterator[Env]:
    """SimCord's running environment (its plugin's fixture), known to :func:`virtual_sleep` while it runs.

    It looks whether the bot is idle every :data:`SETTLE_POLL` seconds (SimCord 3.2's ``_settle_internal``,
    whose ``idle`` every click and every step of ``advance_time`` leaves at its default).
    """
    simcord_env._settle_internal = functools.partial(Env._settle_internal, simcord_env, idle=SETTLE_POLL)
    loop = asyncio.get_running_loop()
    SIMCORD_ENVS[loop] = simcord_env
    try:
        yield simcord_env
    finally:
        SIMCORD_ENVS.pop(loop, None)


@pytest.fixture
def simcord_bot(make_bot: BotFactory) -> SolitaireBot:
    """The bot SimCord runs in ``simcord_env``."""
    return make_bot()


@pytest.fixture
def guild(simcord_env):  # type: ignore[no-untyped-def]
    """A guild with a #games channel."""
    guild = simcord_env.create_guild("Solitaire Club")
    guild.create_text_channel("games")
    return guild


@pytest.fixture
def channel(guild):  # type: ignore[no-untyped-def]
    """The #games channel."""
    return guild.channels["games"]


@pytest.fixture
def alice(simcord_env, guild):  # type: ignore[no-untyped-def]
    """A member who plays."""
    return guild.add_member(simcord_env.create_user("alice"))


@pytest.fixture
def bob(simcord_env, guild):  # type: ignore[no-untyped-def]
    """Another member."""
    return guild.add_member(simcord_env.create_user("bob"))
