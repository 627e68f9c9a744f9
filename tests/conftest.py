"""Fixtures that build the real bot on a temporary database, for SimCord and plain async tests.

``simcord_env`` (from SimCord's pytest plugin) runs the bot built by ``simcord_bot``;
``make_bot()`` builds another bot on the same database (for ``env.restart_bot(make_bot())``).
Deals come from an instant test solver (no worker processes): deal number
``EASY_NUMBER`` is a Klondike deck with a known short win (see ``tests/bot/decks.py``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from bot.client import SolitaireBot
from bot.client import make_bot as build_bot
from bot.deal_bank import DealBank
from bot.settings import Settings, load_settings
from solitaire import VARIANTS
from solitaire.deals import DealRequest, ProvenDeal, solve_request
from tests.bot.decks import EASY_KLONDIKE, EASY_NUMBER, seeded

pytest_plugins = ["tests.postgres_server"]  # postgres_server, postgres_dsn: a real PostgreSQL server


def instant_solver(variant: str, number: int) -> ProvenDeal:
    """Instant stand-in for the solver: the easy deck for ``EASY_NUMBER`` (Klondike), else a plain shuffle.

    The plain shuffles are not proven winnable: tests that need a proof call ``numbered_deal``.
    """
    if number == EASY_NUMBER and variant in ("draw3", "draw1", "goldrush"):
        return ProvenDeal(variant, number, EASY_KLONDIKE, ())
    return ProvenDeal(variant, number, seeded(number), ())


def make_deal_bank(*, size: int = 0, numbers: Callable[[], int] | None = None) -> DealBank[ProvenDeal]:
    """A deal bank with the instant test solver, solving on the event loop."""
    counter = iter(range(1000, 10**9))
    return DealBank(instant_solver, variants=VARIANTS, size=size, numbers=numbers or (lambda: next(counter)))


BACKENDS = ("sqlite", "postgres")
"""The storage backends every database test runs on (PostgreSQL on the real server of tests/postgres_server.py)."""


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend of this run of the test: ``"sqlite"`` or ``"postgres"``."""
    return str(request.param)


@pytest.fixture
def database_target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """What to open for this test: a new SQLite file, or an emptied, migrated PostgreSQL schema (its URL)."""
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_bot_dsn"))
    return tmp_path / "solitaire.db"


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
        bot = build_bot(self.settings, deals=make_deal_bank(numbers=self.numbers), daily_solve=self.daily_solve)
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
