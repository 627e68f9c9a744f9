"""Two challenges, or a race and a challenge, that close at one instant in two processes (two connections) both
move the ratings.

Each close reads the pair counts and the ratings and then writes; here each one, right after reading the
pair counts, waits (a moment at most) for the other to read them too. Were the read and the write not one step,
both would read the same ratings and the second write would undo the first; they are one step (the server's
ratings are locked in the closing transaction), so the second close reads what the first one wrote.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.compete import race as races
from bot.compete.placing import PAIR_RATED_PER_DAY
from bot.compete.ratings import newcomer
from bot.storage import Database
from bot.storage import challenges as challenges_db
from bot.storage import races as races_db
from tests.support.challenges import ALICE, BOB, CAROL, DAN, GUILD, HOUR, World, challenge, play
from tests.support.fake_time import START, FakeTime, counted_database
from tests.support.races import World as RaceWorld
from tests.support.races import started

WAIT = 0.4
"""Seconds a close waits, after reading the ratings, for the other close to read them too (real time)."""


class ReadTogether:
    """Makes each close wait, right after it reads the pair counts, until the other one has read them too."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads = 0
        self.both = asyncio.Event()
        self.read = races_db.rated_together
        monkeypatch.setattr(races_db, "rated_together", self)

    async def __call__(self, *args: Any, **kwargs: Any) -> dict[tuple[int, int], int]:
        found = await self.read(*args, **kwargs)
        self.reads += 1
        if self.reads >= 2:
            self.both.set()
        with contextlib.suppress(TimeoutError):  # a close that holds the ratings waits for nobody
            await asyncio.wait_for(self.both.wait(), WAIT)
        return found


@pytest_asyncio.fixture
async def worlds(database_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[list[World]]:
    """Two challenge services, each on its own connection to one database (two processes), on one clock."""
    clock = FakeTime()
    async with (
        counted_database(database_target, monkeypatch) as first,
        counted_database(database_target, monkeypatch) as second,
    ):
        built = [World(first, clock), World(second, clock)]
        yield built
        for world in built:
            await world.close()


async def played(world: World, *members: int) -> int:
    """A challenge of ALICE's naming ``members`` and DAN (who never answers: it closes at its deadline), played."""
    challenge_id = await challenge(world, *members, DAN, hours=1)
    for member in (ALICE, *members):
        await play(world, challenge_id, member)
    return challenge_id


async def close_together(worlds: Sequence[World], challenge_ids: Sequence[int], race_id: int | None = None) -> None:
    """Reach the challenges' common deadline (the race's end too), then wait until every one of them is over."""
    await worlds[0].clock.advance(START + HOUR - worlds[0].clock.now)
    for _ in range(200):
        statuses = [(await challenges_db.get_challenge(worlds[0].db, c)).status for c in challenge_ids]
        if race_id is not None:
            statuses.append("closed" if (await races_db.get_race(worlds[0].db, race_id)).status == "finished" else "")
        if set(statuses) == {"closed"}:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not over: {statuses}")


async def test_two_challenges_closing_at_one_instant_both_move_the_shared_members_rating(worlds, monkeypatch):
    first = await played(worlds[0], BOB)
    second = await played(worlds[1], CAROL)
    together = ReadTogether(monkeypatch)
    await close_together(worlds, [first, second])
    assert together.reads == 2
    db: Database = worlds[0].db
    [rating] = (await races_db.ratings_of(db, GUILD, "draw3", [ALICE])).values()
    assert rating.races == 2  # both closes counted
    alices = [next(p for p in await challenges_db.players(db, c) if p.user_id == ALICE) for c in (first, second)]
    assert all(p.rated for p in alices)
    earlier, later = sorted(alices, key=lambda p: abs(p.rating_before - newcomer().display))
    assert earlier.rating_before == newcomer().display
    assert later.rating_before == earlier.rating_after  # the second close read what the first one wrote


async def test_a_race_and_a_challenge_closing_at_one_instant_both_move_the_shared_members_rating(
    database_target, monkeypatch
):
    clock = FakeTime()
    async with (
        counted_database(database_target, monkeypatch) as first,
        counted_database(database_target, monkeypatch) as second,
    ):
        challenges, racing = World(first, clock), RaceWorld(second, clock)
        try:
            challenge_id = await played(challenges, CAROL)  # closes at START + HOUR
            race_end = races.COUNTDOWN_SECONDS + 300 + races.END_GRACE
            await clock.advance(START + HOUR - race_end - clock.now)
            race_id = await started(racing, ALICE, BOB)  # its clock runs out at START + HOUR too
            for member in (ALICE, BOB):
                await racing.sessions.play_all_to_foundations(await racing.races.board(race_id, member))
            together = ReadTogether(monkeypatch)
            await close_together([challenges], [challenge_id], race_id)
            assert together.reads == 2
            [rating] = (await races_db.ratings_of(first, GUILD, "draw3", [ALICE])).values()
            assert rating.races == 2  # both closes counted
            in_challenge = next(p for p in await challenges_db.players(first, challenge_id) if p.user_id == ALICE)
            in_race = next(r for r in await races_db.racers(first, race_id) if r.user_id == ALICE)
            assert in_challenge.rated and in_race.rated
            chained = {
                (in_challenge.rating_before, in_race.rating_before, in_challenge.rating_after),
                (in_race.rating_before, in_challenge.rating_before, in_race.rating_after),
            }  # (first's before, second's before, first's after), whichever closed first
            assert any(one == newcomer().display and two == after for one, two, after in chained)
        finally:
            await racing.close()
            await challenges.close()


async def test_two_challenges_closing_at_one_instant_keep_the_daily_cap_of_a_pair(worlds, monkeypatch):
    for _ in range(PAIR_RATED_PER_DAY - 1):  # the pair's rated games today, but one
        challenge_id = await challenge(worlds[0], BOB)
        await play(worlds[0], challenge_id, BOB)
        await play(worlds[0], challenge_id, ALICE)
    first = await played(worlds[0], BOB)
    second = await played(worlds[1], BOB)
    together = ReadTogether(monkeypatch)
    await close_together(worlds, [first, second])
    assert together.reads == 2
    db: Database = worlds[0].db
    closed = [await challenges_db.get_challenge(db, c) for c in (first, second)]
    assert sorted(c.unrated_reason is None for c in closed) == [False, True]  # one rated, one over the cap
    [rating] = (await races_db.ratings_of(db, GUILD, "draw3", [ALICE])).values()
    assert rating.races == PAIR_RATED_PER_DAY
    pairs = await races_db.rated_together(db, GUILD, [ALICE, BOB], since=START - HOUR, until=START + 2 * HOUR)
    assert pairs == {(ALICE, BOB): PAIR_RATED_PER_DAY}
