"""The one close races and challenges share: every close that collides with another places, rates and posts once."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot import errors
from bot.compete import events as events_module
from bot.compete import race as races
from bot.play.session import Session
from bot.play.sessions import SessionManager
from bot.storage import Database
from bot.storage import challenges as challenges_db
from bot.storage import races as races_db
from solitaire import END
from tests.support.challenges import ALICE, BOB, HOUR, challenge, play
from tests.support.challenges import World as ChallengeWorld
from tests.support.fake_time import FakeTime, counted_database
from tests.support.races import World as RaceWorld
from tests.support.races import started

COLLIDING = 3
"""Closes asked for by hand on top of the game's own finish and the deadline."""


@pytest_asyncio.fixture
async def db(database_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Database]:
    async with counted_database(database_target, monkeypatch) as database:
        yield database


class CountedRates:
    """Counts the rating steps the shared close works out, per server (one per close that went through)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        self.rate = events_module.rate_results
        monkeypatch.setattr(events_module, "rate_results", self)

    async def __call__(self, *args: Any, **kwargs: Any) -> races_db.Rate:
        self.calls += 1
        return await self.rate(*args, **kwargs)


async def end(sessions: SessionManager, session: Session) -> None:
    """End a game by hand, unless its clock ended it first (the two collide here on purpose)."""
    with contextlib.suppress(errors.GameEndedError, errors.TimeUpError):
        await sessions.play(session, END)


async def test_a_challenge_whose_last_attempt_ends_at_its_deadline_closes_and_posts_once(db, monkeypatch):
    clock = FakeTime()
    world = ChallengeWorld(db, clock)
    rates = CountedRates(monkeypatch)
    try:
        challenge_id = await challenge(world, BOB, hours=1)
        await play(world, challenge_id, BOB)
        await clock.advance(HOUR - 60)
        last = await world.challenges.play(challenge_id, ALICE)  # still running when the deadline comes
        closes = (world.challenges.close_if_over(challenge_id) for _ in range(COLLIDING))
        await asyncio.gather(clock.advance(60), end(world.sessions, last), *closes)
        await world.challenges.settle()
        assert (await challenges_db.get_challenge(db, challenge_id)).status == "closed"
        assert (rates.calls, len(world.results)) == (1, 1)
        assert len(world.challenges.events.locks) == 0
    finally:
        await world.close()


async def test_a_race_whose_last_game_ends_with_its_clock_finishes_and_posts_once(db, monkeypatch):
    clock = FakeTime()
    world = RaceWorld(db, clock)
    rates = CountedRates(monkeypatch)
    try:
        race_id = await started(world, ALICE, BOB)
        await world.sessions.play(await world.races.board(race_id, BOB), END)
        race = await races_db.get_race(db, race_id)
        assert race.end_at is not None
        await clock.advance(race.end_at - clock.now - 1)
        last = await world.races.board(race_id, ALICE)
        closes = (world.races.events.try_close(race_id) for _ in range(COLLIDING))
        await asyncio.gather(clock.advance(1 + races.END_GRACE), end(world.sessions, last), *closes)
        await clock.advance(races.STANDINGS_INTERVAL)
        await world.races.settle(results=True)
        assert (await races_db.get_race(db, race_id)).status == "finished"
        posted = [snapshot for _, snapshot in world.published.snapshots if snapshot.race.status == "finished"]
        assert (rates.calls, len(posted), await world.results_post(race_id)) == (1, 1, "posted")
        assert len(world.races.events.locks) == 0 and world.races.events.games == {}
    finally:
        await world.close()
