"""The outbox's stored rows: what kind of post a row of ``announcements`` is, and a post still to be made.

The claims on those rows (who delivers a post, its lease and its retries) are :mod:`bot.storage.claims`;
a competition queues its posts in the transaction that makes them due (:mod:`bot.storage.competition`,
:mod:`bot.storage.races`, :mod:`bot.storage.challenges`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

AnnouncementKind = Literal["result", "podium", "race", "challenge", "champion", "reminder"]

WHAT = {
    "result": "a daily's result line (game {subject})",
    "podium": "the podium of {subject}",
    "race": "the results of race {subject}",
    "challenge": "the results of challenge {subject}",
    "champion": "a change of the champion role's holders",
    "reminder": "a streak reminder",
}
"""Each kind of post in the admins' words, ``{subject}`` filled in."""


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
    failures: int = 0
    """Errors in a row delivering it (a composer or a listener that raised), V023: parked at a bound."""

    def what(self) -> str:
        """The post in the admins' words.

        >>> Pending(1, 7, "podium", "2026-05-01", 70, 0.0, 0).what()
        'the podium of 2026-05-01'
        """
        return WHAT[self.kind].format(subject=self.subject)
