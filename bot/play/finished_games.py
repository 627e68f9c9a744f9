"""A player's finished games after the game: read for analysis and replays, and each replay shared once.

Nothing here knows Discord: the cog draws and posts. This service says whose game it is and whether
nobody can still gain from it (:func:`bot.play.after_game.check_after_game`), and keeps each game's one
public replay: claimed before it is drawn (a second click is refused), given back if its post fails.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot import errors
from bot.play.after_game import AfterGame, CompetitionOver, ReplayPostedError, check_after_game
from bot.play.session import Clock
from bot.storage import Database, StorageError
from bot.storage import games as games_db
from bot.storage import replays as replays_db
from bot.storage.games import GameRecord

log = logging.getLogger(__name__)

PostReplay = Callable[[], Awaitable[int]]
"""Draws and posts a replay; answers the id of the message it posted."""


class FinishedGames:
    """A member's own finished games, opened once their competition is over; their public replays, once each."""

    def __init__(self, db: Database, *, over: CompetitionOver, now: Clock) -> None:
        self._db = db
        self._over = over
        self._now = now

    async def own(self, game_id: int, user_id: int, what: AfterGame) -> GameRecord:
        """``user_id``'s finished game ``game_id``, once nobody can gain from ``what`` (analysis, the replay).

        :raises UnknownGameError: no such game.
        :raises NotYourGameError: another member's game.
        :raises NotFinishedError: the game is running.
        :raises NotYetError: its competition is not over.
        """
        record = await games_db.get_game(self._db, game_id)
        if record is None:
            raise errors.UnknownGameError()
        if record.user_id != user_id:
            raise errors.NotYourGameError(record.user_id)
        check_after_game(record, what, over=await self._over(record))
        return record

    async def share_replay(self, record: GameRecord, *, guild_id: int, channel_id: int, post: PostReplay) -> None:
        """Post the game's one public replay with ``post``, claimed first and given back if the post fails.

        :raises ReplayPostedError: it is posted already, or being posted.
        """
        game_id = record.id
        claimed = await replays_db.claim_replay(
            self._db, game_id, guild_id=guild_id, channel_id=channel_id, now=self._now()
        )
        if not claimed:
            raise ReplayPostedError(await replays_db.shared_replay(self._db, game_id))
        try:
            message_id = await post()
        except BaseException:
            with contextlib.suppress(StorageError):
                await replays_db.release_replay(self._db, game_id)
            raise
        try:
            await replays_db.replay_posted(self._db, game_id, message_id)
        except StorageError as error:  # posted all the same; its claim runs out after replays_db.LEASE
            log.warning("could not record the replay post of game %s: %s", game_id, error)
