"""The race service without Discord: a world of sessions and races on one fake clock, lobbies and starts."""

from __future__ import annotations

from bot.compete import race as races
from bot.compete.race import RaceService, RaceSnapshot
from bot.outbox.announcements import Announcement, Announcements, Delivery, Readers
from bot.play.sessions import SessionManager
from bot.storage import Database
from tests.conftest import make_deal_bank
from tests.support.decks import EASY_NUMBER
from tests.support.fake_time import FakeTime

GUILD, CHANNEL = 1, 5


class Published:
    def __init__(self) -> None:
        self.snapshots: list[tuple[float, RaceSnapshot]] = []

    async def __call__(self, snapshot: RaceSnapshot) -> None:
        self.snapshots.append((snapshot.race.end_at or 0.0, snapshot))

    def statuses(self) -> list[str]:
        return [s.race.status for _, s in self.snapshots]


class World:
    """A session manager and a race service on one database and one fake clock (rebuilt at a restart).

    The results go through the stored announcements, to :meth:`post` (``outcomes`` scripts failures).
    """

    def __init__(self, db: Database, clock: FakeTime, *, speakers: Readers | None = None) -> None:
        """``speakers``: the servers' languages its posts are said in (none: English)."""
        self.db, self.clock, self.speakers = db, clock, speakers
        self.published = Published()
        self.times: list[float] = []
        self.outcomes: list[Delivery] = []
        self.build()

    def build(self) -> None:
        self.sessions = SessionManager(self.db, now=self.clock, sleep=self.clock.sleep)
        self.announcements = Announcements(self.db, now=self.clock, speakers=self.speakers)
        self.announcements.add_listener(self.post, kinds=("race",))
        self.races = RaceService(
            self.db,
            self.sessions,
            make_deal_bank(numbers=lambda: EASY_NUMBER),
            now=self.clock,
            sleep=self.clock.sleep,
            publish=self.publish,
            announcements=self.announcements,
        )

    async def publish(self, snapshot: RaceSnapshot) -> None:
        self.times.append(self.clock.now)
        await self.published(snapshot)

    async def post(self, announcement: Announcement) -> Delivery:
        outcome = self.outcomes.pop(0) if self.outcomes else Delivery.POSTED
        if outcome is Delivery.POSTED:
            assert isinstance(announcement.payload, RaceSnapshot)
            await self.published(announcement.payload)
        return outcome

    async def results_post(self, race_id: int) -> str | None:
        row = await self.db.fetchone(
            "SELECT state FROM announcements WHERE kind = 'race' AND subject = ?", (str(race_id),)
        )
        return None if row is None else str(row["state"])

    async def restart(self) -> None:
        await self.races.close()
        await self.sessions.close()
        self.build()
        await self.sessions.resume_all()
        await self.races.resume()

    async def close(self) -> None:
        await self.races.close()
        await self.sessions.close()


async def lobby(world: World, *members: int, capacity: int = 8) -> int:
    snapshot = await world.races.open(
        guild_id=GUILD, channel_id=CHANNEL, host_id=members[0], variant="draw3", capacity=capacity
    )
    for member in members[1:]:
        await world.races.join(snapshot.race.id, member)
    return snapshot.race.id


async def started(world: World, *members: int) -> int:
    race_id = await lobby(world, *members)
    await world.races.start(race_id, members[0])
    await world.clock.advance(races.COUNTDOWN_SECONDS)
    return race_id
