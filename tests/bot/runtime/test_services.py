"""The composition root: every service built in one order, closed in reverse, even after a start that failed."""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.compete.challenges import ChallengeService
from bot.compete.daily import DailyService
from bot.compete.race import RaceService
from bot.heavy import Scheduler
from bot.outbox.announcements import Announcements
from bot.play.deal_bank import DealBank
from bot.play.session import FinishSource, Session
from bot.play.sessions import SessionManager
from bot.runtime.metrics import BotMetrics, MetricsPortError, Sources
from bot.runtime.services import Needs, Services
from bot.runtime.settings import Settings
from bot.storage import Database
from bot.storage.games import GameRecord
from tests.conftest import make_deal_bank

CLOSING = {
    "challenges": ChallengeService,
    "races": RaceService,
    "daily": DailyService,
    "outbox": Announcements,
    "metrics": BotMetrics,
    "sessions": SessionManager,
    "deals": DealBank,
    "jobs": Scheduler,
}
"""The services whose class closes them, in the order they must close (the reverse of their build)."""


async def nobody_listens(session: Session, record: GameRecord, source: FinishSource) -> None:
    """A finish listener that does nothing."""


async def answers() -> bool:
    """The database answers (the endpoint is never scraped here)."""
    return True


def no_sources(services: Services) -> Callable[[], Sources]:
    def sources() -> Sources:
        return Sources(
            game_guilds=lambda: [],
            deal_levels=services.deals.levels,
            solver_queue=lambda: 0,
            shard_count=lambda: 1,
            shard_ids=lambda: [0],
            connected=lambda: True,
            database_answers=answers,
        )

    return sources


def record_closes(monkeypatch: pytest.MonkeyPatch, closed: list[str]) -> None:
    """Note each service's name as it closes (and close it)."""
    for name, kind in CLOSING.items():
        close = kind.close

        def noted(self: Any, _close: Callable[[Any], Awaitable[None]] = close, _name: str = name) -> Awaitable[None]:
            closed.append(_name)
            return _close(self)

        monkeypatch.setattr(kind, "close", noted)


async def test_services_are_closed_in_the_reverse_of_their_build(
    settings: Settings, database_target: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[str] = []
    record_closes(monkeypatch, closed)
    db = await Database.open(database_target)
    services = Services(settings, Needs(now=lambda: 1.0e9, deals=make_deal_bank(), db=db))
    await services.open(finished=nobody_listens, sources=no_sources(services))
    assert services.daily.announcements is services.outbox and services.db is db
    await services.close()
    assert closed == [*CLOSING] and db.closed
    await services.close()  # safe twice: nothing is closed again
    assert closed == [*CLOSING]


async def test_a_start_that_fails_half_way_closes_what_was_built(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[str] = []
    record_closes(monkeypatch, closed)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = settings.model_copy(update={"metrics_port": port, "metrics_host": "127.0.0.1"})
        services = Services(busy, Needs(now=lambda: 1.0e9, deals=make_deal_bank()))
        with pytest.raises(MetricsPortError):
            await services.open(finished=nobody_listens, sources=no_sources(services))
    await services.close()
    assert closed == ["metrics", "sessions", "deals", "jobs"] and services.db.closed
