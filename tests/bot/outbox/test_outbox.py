"""The outbox's own delivering loop: it posts what is queued, retries on its own clock, wakes when told, stops."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.outbox.announcements import NOTHING_DUE, Announcement, Announcements, Delivery, retry_delay
from bot.shards import ONE_PROCESS
from bot.storage import Database, claims
from bot.storage.outbox import Pending

GUILD = 7
CHANNEL = 70


class Timer:
    """A clock that moves only when told, and a sleep that ends when the clock reaches its end."""

    def __init__(self) -> None:
        self.at = 1_000.0
        self.naps: list[float] = []
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self.at

    async def sleep(self, seconds: float) -> None:
        self.naps.append(seconds)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.at + seconds, done))
        await done

    def advance(self, seconds: float) -> None:
        self.at += seconds
        for end, done in self._sleepers:
            if end <= self.at and not done.done():
                done.set_result(None)


class Listener:
    """Posts what the outbox hands it, failing as scripted."""

    def __init__(self, *script: Delivery) -> None:
        self.script = list(script)
        self.tries: list[str] = []

    async def __call__(self, announcement: Announcement) -> Delivery:
        self.tries.append(announcement.subject)
        return self.script.pop(0) if self.script else Delivery.POSTED


async def until(check: Callable[[], bool]) -> None:
    """Wait (real time, briefly) until ``check()`` holds: the loop runs on its own task."""
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the outbox did not get there")


@pytest.fixture
async def db(database_target: str | Path) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


async def queue(db: Database, subject: str, at: float) -> None:
    await db.execute(
        "INSERT INTO announcements (guild_id, kind, subject, channel_id, created_at, due_at)"
        " VALUES (?, 'result', ?, ?, ?, ?)",
        (GUILD, subject, CHANNEL, at, at),
    )


def outbox_for(db: Database, timer: Timer, listener: Listener) -> Announcements:
    outbox = Announcements(db, now=timer.now, sleep=timer.sleep)

    async def compose(pending: Pending) -> Announcement:
        return Announcement(pending.guild_id, CHANNEL, "result", f"post {pending.subject}", False, pending.subject)

    outbox.register("result", compose)
    outbox.add_listener(listener)
    return outbox


async def states(db: Database) -> dict[str, str]:
    return {row["subject"]: row["state"] for row in await db.fetchall("SELECT subject, state FROM announcements")}


async def test_the_outbox_loop_posts_retries_on_its_own_clock_and_wakes_for_a_new_post(db):
    timer = Timer()
    listener = Listener(Delivery.FAILED)
    outbox = outbox_for(db, timer, listener)
    await queue(db, "first", timer.at)
    outbox.start()
    await until(lambda: timer.naps == [retry_delay(0)])  # tried once, failed: it sleeps until the retry
    assert listener.tries == ["first"] and (await states(db))["first"] == "waiting"

    timer.advance(retry_delay(0))
    await until(lambda: len(timer.naps) == 2)
    assert listener.tries == ["first", "first"] and timer.naps[-1] == NOTHING_DUE
    assert (await states(db))["first"] == "posted"

    await queue(db, "second", timer.at)
    outbox.queued()  # no time passes: the loop wakes for it
    await until(lambda: listener.tries[-1:] == ["second"])
    await until(lambda: len(timer.naps) == 3)
    assert await states(db) == {"first": "posted", "second": "posted"}

    await outbox.close()
    await outbox.close()  # safe twice
    await queue(db, "third", timer.at)
    timer.advance(NOTHING_DUE)
    await asyncio.sleep(0.05)
    assert listener.tries[-1] == "second"  # a closed outbox posts nothing more


async def test_a_started_outbox_first_takes_back_the_claims_of_its_earlier_run(db):
    timer = Timer()
    await queue(db, "held", timer.at)
    [pending] = await claims.due_announcements(db, timer.at, ONE_PROCESS)
    assert await claims.claim(db, pending.id, ONE_PROCESS.label)  # an earlier run of these shards, stopped mid-post
    listener = Listener()
    outbox = outbox_for(db, timer, listener)
    outbox.start()
    await until(lambda: listener.tries == ["held"])
    await outbox.close()
