"""The outbox's own delivering loop: it posts what is queued, retries on its own clock, wakes when told, stops."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.compete.onboarding import admin_notes, outbox_warning
from bot.outbox.announcements import NOTHING_DUE, PARK_AFTER, Announcement, Announcements, Delivery, retry_delay
from bot.shards import ONE_PROCESS
from bot.storage import Database, claims
from bot.storage import competition as competition_db
from bot.storage.onboarding import OUTBOX_PROBLEM
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


def raising_for(db: Database, timer: Timer, listener: Listener, bad: str) -> Announcements:
    """An outbox whose composer raises for the post ``bad`` (a bug) and writes the others out."""
    outbox = Announcements(db, now=timer.now, sleep=timer.sleep)

    async def compose(pending: Pending) -> Announcement:
        if pending.subject == bad:
            raise KeyError(f"no such game: {bad}")
        return Announcement(pending.guild_id, CHANNEL, "result", f"post {pending.subject}", False, pending.subject)

    outbox.register("result", compose)
    outbox.add_listener(listener)
    return outbox


async def test_a_post_whose_composer_raises_does_not_hold_back_the_posts_behind_it(db):
    timer, listener = Timer(), Listener()
    outbox = raising_for(db, timer, listener, "bad")
    await queue(db, "bad", timer.at)
    await queue(db, "good", timer.at)
    wait = await outbox.deliver_due()
    assert listener.tries == ["good"] and await states(db) == {"bad": "waiting", "good": "posted"}
    row = await db.fetchone("SELECT attempts, failures, due_at FROM announcements WHERE subject = 'bad'")
    assert row is not None and (row["attempts"], row["failures"]) == (1, 1)  # counted: tried again with backoff
    assert row["due_at"] == timer.at + retry_delay(0) and wait == retry_delay(0)


async def test_a_post_that_keeps_raising_is_parked_once_logged_counted_and_shown_to_its_admins(db, caplog):
    timer, listener = Timer(), Listener()
    outbox = raising_for(db, timer, listener, "bad")
    await queue(db, "bad", timer.at)
    caplog.set_level(logging.WARNING, logger="bot.outbox.announcements")
    for attempt in range(PARK_AFTER):
        assert (await states(db))["bad"] == "waiting", attempt
        await outbox.deliver_due()
        timer.advance(retry_delay(attempt))
    assert (await states(db))["bad"] == "parked"
    parked = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert parked == [f"parked result bad of server {GUILD} after {PARK_AFTER} errors: it is not tried again"]
    assert outbox.parked == {"result": 1}
    config = await competition_db.guild_config(db, GUILD)
    assert (config.outbox_problem, config.outbox_problem_at) == ("a daily's result line (game bad)", timer.at - 480)
    warning = outbox_warning(config)
    assert warning is not None and "a daily's result line (game bad)" in warning
    assert (f"{OUTBOX_PROBLEM}:{int(timer.at - 480)}", warning) in admin_notes(config)

    restarted = raising_for(db, timer, listener, "bad")  # a restart takes its claims back, not a parked post
    restarted.start()
    await until(lambda: len(timer.naps) == 1)
    timer.advance(NOTHING_DUE)
    await restarted.close()
    assert (await states(db))["bad"] == "parked" and restarted.parked == {}
    row = await db.fetchone("SELECT failures, claimed_by FROM announcements WHERE subject = 'bad'")
    assert row is not None and (row["failures"], row["claimed_by"]) == (PARK_AFTER, None)
