"""Starting a player's own game, on any surface: a ranked casual deal, a practice deal, or today's daily.

The slash commands and the Activity's page both start games here, so the checks run in one order
everywhere: one start at a time per member, the start rate, a race lobby seat, the one daily try
(kept across surfaces: the daily's row is the try, whichever surface made it), then the deal and the save.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot import errors
from bot.compete.daily import DailyService
from bot.compete.race import RaceService
from bot.compete.words import already_played_line, forgotten_try_line
from bot.play.deal_bank import Deal, DealBank
from bot.play.session import Session
from bot.play.sessions import SessionManager
from bot.rules.ranking import DailyResult

Wait = Callable[[], Awaitable[None]]
"""Called once before a start waits for a deal to be solved (a surface says "dealing…")."""


@dataclass(frozen=True)
class Place:
    """Where a member starts a game: the server (0 in a DM), the channel, the member."""

    guild_id: int
    channel_id: int
    user_id: int


class DailyPlayedError(errors.BotError):
    """Today's daily of this variant was played already (on any surface): the earlier result, not a second try.

    ``result`` is ``None`` where the try's game was deleted at the member's request (forget-me): the try stays used.
    """

    def __init__(self, text: str, result: DailyResult | None) -> None:
        super().__init__(text)
        self.result = result


async def _no_wait() -> None:
    """A surface that shows nothing while a deal is solved."""


class GameStarts:
    """Deals a member's own game (casual, practice or daily) through the sessions."""

    def __init__(
        self, sessions: SessionManager, deals: DealBank[Deal], daily: DailyService, races: RaceService
    ) -> None:
        """Start games in ``sessions`` from ``deals`` (casual, practice) or the ``daily`` service's deals."""
        self.sessions = sessions
        self.deals = deals
        self.daily = daily
        self.races = races

    async def casual(
        self,
        place: Place,
        variant: str,
        *,
        deal: int | None = None,
        seed: int | None = None,
        waiting: Wait = _no_wait,
    ) -> Session:
        """A ranked game on a secret proven deal, or practice on deal number ``deal`` or shuffle ``seed``.

        :raises DealAndSeedError: both a deal and a seed.
        :raises ActiveGameError: a game of this member runs here already.
        :raises InLobbyError: the member sits in an open race lobby here.
        """
        if deal is not None and seed is not None:
            raise errors.DealAndSeedError()
        self._refuse_running(place)
        async with self.sessions.reserve_start(place.guild_id, place.user_id):
            await self.races.refuse_lobby_member(place.guild_id, place.user_id)
            if deal is not None or seed is not None or not self.deals.ready(variant):
                await waiting()
            if deal is not None:
                dealt = (await self.deals.numbered(variant, deal)).deal
            elif seed is not None:
                dealt = await self.deals.seeded(variant, seed)
            else:
                dealt = (await self.deals.take(variant)).deal
            return await self.sessions.start(
                guild_id=place.guild_id,
                channel_id=place.channel_id,
                user_id=place.user_id,
                variant=variant,
                deal=dealt,
                deal_number=deal,
                practice=deal is not None or seed is not None,
            )

    async def daily_played(self, place: Place, variant: str) -> DailyPlayedError | None:
        """Today's earlier try of this member at ``variant`` as a refusal, or ``None`` when the try is still theirs."""
        today = await self.daily.today(place.guild_id)
        result = await self.daily.result(place.guild_id, place.user_id, variant, today)
        if result is not None:
            return DailyPlayedError(already_played_line(result, today), result)
        if await self.daily.forgotten_try(place.guild_id, place.user_id, variant, today):
            return DailyPlayedError(forgotten_try_line(variant, today.isoformat(), today), None)
        return None

    async def daily_game(self, place: Place, variant: str, *, waiting: Wait = _no_wait) -> Session:
        """Today's daily deal of ``variant`` for this member: their one ranked try of the day, on any surface.

        :raises NotInServerError: in a DM (the daily is a server's).
        :raises DailyPlayedError: the member played it today (the earlier result).
        :raises ActiveGameError: a game of this member runs here already.
        :raises InLobbyError: the member sits in an open race lobby here.
        """
        if not place.guild_id:
            raise errors.NotInServerError()
        today = await self.daily.today(place.guild_id)
        if (played := await self.daily_played(place, variant)) is not None:
            raise played
        self._refuse_running(place)
        async with (
            self.daily.attempt(place.guild_id, today),
            self.sessions.hold(place.guild_id, place.user_id, "start"),
        ):
            await self.races.refuse_lobby_member(place.guild_id, place.user_id)
            if not self.daily.deal_ready(place.guild_id, variant, today):
                await waiting()
            try:
                return await self.sessions.start(
                    guild_id=place.guild_id,
                    channel_id=place.channel_id,
                    user_id=place.user_id,
                    variant=variant,
                    mode="daily",
                    deal=await self.daily.deal(place.guild_id, variant, today),
                    deal_number=None,
                    daily_date=today.isoformat(),
                )
            except errors.AlreadyPlayedError:  # a second try raced the first
                if (played := await self.daily_played(place, variant)) is not None:
                    raise played from None
                raise

    def _refuse_running(self, place: Place) -> None:
        """:raises ActiveGameError: the member has a game running in this server."""
        running = self.sessions.active_for(place.guild_id, place.user_id)
        if running is not None:
            raise errors.ActiveGameError(running.id)
