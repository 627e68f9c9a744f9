"""What the boards show: leaderboards, a member's stats and stats card, race ratings and first places.

A read-only service for the commands that show them; the SQL is :mod:`bot.storage.competition` and
:mod:`bot.storage.races`, the card is built by :func:`bot.compete.stats_card.stats_card`.
"""

from __future__ import annotations

from datetime import date

from bot.compete.stats_card import stats_card
from bot.rules.calendar import Period
from bot.rules.ranking import Leaderboard
from bot.rules.stats import MemberStats
from bot.storage import Database
from bot.storage import competition as competition_db
from bot.storage import races as races_db
from bot.storage.games import Mode
from bot.storage.races import RatingRecord
from render.stats_data import StatsCard


class Standings:
    """A server's leaderboards and rating boards, and each member's stats, ratings and first places."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def leaderboard(
        self, guild_id: int, variant: str, mode: Mode, period: Period, *, today: date, timezone: str, caller_id: int
    ) -> Leaderboard:
        """The top 10 of a daily or casual board over ``period`` (days of ``timezone``), and the caller's rank."""
        return await competition_db.leaderboard(
            self._db,
            guild_id=guild_id,
            variant=variant,
            mode=mode,
            period=period,
            today=today,
            timezone=timezone,
            caller_id=caller_id,
        )

    async def member_stats(self, guild_id: int, user_id: int, today: date) -> MemberStats:
        """A member's public games, wins and scores per variant in a server, and daily streaks as of ``today``."""
        return await competition_db.member_stats(self._db, guild_id, user_id, today)

    async def stats_card(self, guild_id: int, stats: MemberStats, *, name: str, today: date) -> StatsCard:
        """The stats card of the member of ``stats``, named ``name``."""
        return await stats_card(self._db, guild_id, stats, name=name, today=today)

    async def member_ratings(self, guild_id: int, user_id: int) -> tuple[list[RatingRecord], dict[str, int]]:
        """A member's race ratings in a server (one per variant raced) and first places per variant."""
        ratings = await races_db.member_ratings(self._db, guild_id, user_id)
        return ratings, await races_db.first_places(self._db, guild_id, user_id)

    async def rating_board(self, guild_id: int, variant: str) -> list[RatingRecord]:
        """Every race rating of a server and variant (unordered)."""
        return await races_db.rating_board(self._db, guild_id, variant)
