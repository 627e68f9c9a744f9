"""The daily service without Discord: an injected clock, a list for a channel, games started and finished by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.compete.daily import DailyService
from bot.outbox.announcements import Announcement, Announcements, Delivery
from bot.storage import Database
from bot.storage import games as games_db
from solitaire.deals import DealRequest, ProvenDeal
from tests.conftest import make_deal_bank
from tests.support.decks import EASY_KLONDIKE

GUILD = 7
CHANNEL = 70


@dataclass
class Clock:
    """The injected clock: tests set ``at``."""

    at: datetime

    def __call__(self) -> float:
        return self.at.timestamp()


@dataclass
class Channel:
    """A listener standing in for Discord: records posts, answers with the next scripted outcome."""

    script: list[Delivery] = field(default_factory=list)
    posts: list[Announcement] = field(default_factory=list)
    tries: int = 0

    async def __call__(self, announcement: Announcement) -> Delivery:
        self.tries += 1
        outcome = self.script.pop(0) if self.script else Delivery.POSTED
        if outcome is Delivery.POSTED:
            self.posts.append(announcement)
        return outcome

    def podiums(self) -> list[str]:
        return [post.text for post in self.posts if post.kind == "podium"]


def solve(request: DealRequest) -> ProvenDeal:
    return ProvenDeal(request.variant, 0, EASY_KLONDIKE, ())


@pytest.fixture
async def db(database_target: str | Path) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


def make_service(db: Database, clock: Clock, channel: Channel) -> DailyService:
    service = DailyService(
        db,
        make_deal_bank(),
        announcements=Announcements(db, now=clock),
        now=clock,
        secret=lambda: "s3cret",
        solve=solve,
    )
    service.add_listener(channel)
    return service


async def start_daily(db: Database, user: int, day: date, started: datetime) -> int:
    game = await games_db.insert_game(
        db,
        games_db.NewGame(
            GUILD,
            1,
            user,
            "draw3",
            "daily",
            None,
            day.isoformat(),
            "{}",
            started.timestamp(),
            started.timestamp() + 300,
        ),
    )
    return game.id


async def finish(db: Database, service: DailyService, game_id: int, score: int, at: datetime) -> None:
    game = await games_db.get_game(db, game_id)
    assert game is not None
    seconds = int(at.timestamp() - game.started_at)
    result = games_db.Result("{}", "ended", score, seconds, at.timestamp(), 2)
    record = await games_db.finish_game(db, game_id, result, saved_version=game.version)
    assert record is not None
    await service.game_finished(record)


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)
