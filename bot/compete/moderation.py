"""Forgetting a member at their request, and a server's moderators taking a member's results off its boards.

The SQL and its rules are :mod:`bot.storage.privacy` and :mod:`bot.storage.moderation` (written for
admins in docs/admin.md); the cog asks first and answers.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.storage import Database, privacy
from bot.storage import moderation as moderation_db
from bot.storage.moderation import LogEntry
from bot.storage.privacy import Forgotten


class Moderation:
    """A member's right to be forgotten, and a server's moderation of results with its log."""

    def __init__(self, db: Database, *, now: Callable[[], float]) -> None:
        self._db = db
        self._now = now

    async def forget_member(self, user_id: int) -> Forgotten:
        """Forget a member in every server (their places in finished events stay, nameless; a day's daily
        try they used stays used until that day is over).

        :raises StillInPlayError: while they still play a game, or a race or challenge they entered is not over.
        """
        return await privacy.forget_member(self._db, user_id, now=self._now())

    async def remove_results(
        self, guild_id: int, user_id: int, *, moderator_id: int, reason: str, confirmation: str
    ) -> int:
        """Take a member's results off a server's boards and log it with ``reason``; return how many were removed.

        ``confirmation`` names the question the moderator confirmed: it acts once.

        :raises AlreadyDoneError: when that confirmation was used already (nothing is done again).
        """
        return await moderation_db.remove_results(
            self._db,
            guild_id,
            user_id,
            moderator_id=moderator_id,
            reason=reason,
            now=self._now(),
            confirmation=confirmation,
        )

    async def log(self, guild_id: int, *, limit: int) -> list[LogEntry]:
        """A server's latest ``limit`` moderation actions, the latest first."""
        return await moderation_db.moderation_log(self._db, guild_id, limit=limit)
