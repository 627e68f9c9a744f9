"""The challenge service without Discord: a world of sessions and challenges on one fake clock, and its moves."""

from __future__ import annotations

import sqlite3

import pytest

from bot.compete.challenges import ChallengeService, ChallengeSnapshot
from bot.outbox.announcements import Announcement, Announcements, Delivery, Readers
from bot.play.sessions import SessionManager
from bot.storage import Database
from bot.storage import challenges as challenges_db
from bot.storage import games as games_db
from solitaire import DRAW, END
from tests.conftest import make_deal_bank
from tests.support.decks import EASY_NUMBER
from tests.support.fake_time import FakeTime

GUILD, CHANNEL = 1, 5
ALICE, BOB, CAROL, DAN = 11, 12, 13, 14
HOUR = 3600.0
MESSAGE = 9000


class World:
    """A session manager and a challenge service on one database and one fake clock (rebuilt at a restart)."""

    def __init__(self, db: Database, clock: FakeTime, *, speakers: Readers | None = None) -> None:
        """``speakers``: the servers' languages its posts are said in (none: English)."""
        self.db, self.clock, self.speakers = db, clock, speakers
        self.results: list[ChallengeSnapshot] = []
        self.updates: list[ChallengeSnapshot] = []
        self.build()

    def build(self) -> None:
        self.sessions = SessionManager(self.db, now=self.clock, sleep=self.clock.sleep)
        self.announcements = Announcements(self.db, now=self.clock, speakers=self.speakers)
        self.announcements.add_listener(self.post, kinds=("challenge",))
        self.challenges = ChallengeService(
            self.db,
            self.sessions,
            make_deal_bank(numbers=lambda: EASY_NUMBER),
            now=self.clock,
            sleep=self.clock.sleep,
            announcements=self.announcements,
            publish=self.publish,
        )

    async def post(self, announcement: Announcement) -> Delivery:
        assert isinstance(announcement.payload, ChallengeSnapshot)
        self.results.append(announcement.payload)
        return Delivery.POSTED

    async def publish(self, snapshot: ChallengeSnapshot) -> None:
        self.updates.append(snapshot)

    async def restart(self) -> None:
        await self.challenges.close()
        await self.sessions.close()
        self.build()
        await self.sessions.resume_all()
        await self.challenges.resume()

    async def close(self) -> None:
        await self.challenges.close()
        await self.sessions.close()


async def challenge(world: World, *opponents: int, show_scores: bool = False, hours: int = 24) -> int:
    snapshot = await world.challenges.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        variant="draw3",
        opponents=opponents,
        hours=hours,
        show_scores=show_scores,
    )
    await world.challenges.set_message(snapshot.challenge.id, MESSAGE + snapshot.challenge.id)  # the cog posted it
    return snapshot.challenge.id


async def play(world: World, challenge_id: int, member: int, *, win: bool = False) -> games_db.GameRecord:
    """The member's attempt: All up (and the rest of the easy deck when ``win``), then end; its final row."""
    session = await world.challenges.play(challenge_id, member)
    await world.sessions.play_all_to_foundations(session)
    if win:
        for _ in range(8):
            await world.sessions.play(session, DRAW)
            await world.sessions.play_all_to_foundations(session)
    if not session.game.is_over:
        await world.sessions.play(session, END)
    await world.challenges.settle()
    record = await games_db.get_game(world.db, session.id)
    assert record is not None and not record.is_playing
    return record


def failing_message_writes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the next ``failures[0]`` writes of a challenge's message id fail (database locked); return ``failures``."""
    real, failures = challenges_db.set_message, [0]

    async def flaky(db: Database, challenge_id: int, message_id: int) -> None:
        if failures[0]:
            failures[0] -= 1
            raise sqlite3.OperationalError("database is locked")
        await real(db, challenge_id, message_id)

    monkeypatch.setattr(challenges_db, "set_message", flaky)
    return failures
