"""The outbox's stored rows: what kind of post a row of ``announcements`` is, and a post still to be made.

The claims on those rows (who delivers a post, its lease and its retries) are :mod:`bot.storage.claims`;
a competition queues its posts in the transaction that makes them due (:mod:`bot.storage.competition`,
:mod:`bot.storage.races`, :mod:`bot.storage.challenges`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

AnnouncementKind = Literal["result", "podium", "race", "challenge", "champion", "reminder"]


@dataclass(frozen=True)
class Pending:
    """A public post still to be made (a row of ``announcements``)."""

    id: int
    guild_id: int
    kind: AnnouncementKind
    subject: str
    channel_id: int | None
    created_at: float
    attempts: int
