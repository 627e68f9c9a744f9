"""A page's refused request, in one place (the Activity's twin of :mod:`cogs.errors`).

``async with refusals(page, ref, counts):`` around a desk's call: a service's or the engine's refusal
(:class:`~bot.errors.BotError`, :class:`~solitaire.SolitaireError`) becomes one ``refused`` frame in its
own words (said in the page's language: the socket's task speaks it), counted; anything else is a bug:
logged, and the page told that nothing was changed. The socket stays open either way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.activity.limits import ActivityCounts
from bot.activity.outgoing import GAME, refused
from bot.activity.page import Socket
from bot.errors import BotError
from solitaire import SolitaireError
from solitaire.speech import N_, _

log = logging.getLogger(__name__)

UNEXPECTED = N_("Something went wrong on my side: nothing was changed. Try again in a moment.")


class SlowDownError(BotError):
    """A request past the page's rate (it is struck; a page struck too often is closed)."""

    def __init__(self) -> None:
        super().__init__(_("slow down: too many requests"))


class AlreadySignedInError(BotError):
    """A second ``hello`` on a signed-in page."""

    def __init__(self) -> None:
        super().__init__(_("already signed in"))


class refusals:  # noqa: N801 - used as a context manager, like cogs.errors.refusals
    """``async with refusals(page, ref, counts):`` answers a refusal with one ``refused`` frame and swallows it.

    ``board`` says what the refused request's board is as it stands (a move's, its game's), sent with the refusal.
    """

    def __init__(
        self,
        page: Socket,
        ref: int | None,
        counts: ActivityCounts,
        board: Callable[[], GAME | None] = lambda: None,
        what: str = "request",
    ) -> None:
        self.page = page
        self.ref = ref
        self.counts = counts
        self.board = board
        self.what = what

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> bool:
        if error is None:
            return False
        if isinstance(error, BotError | SolitaireError):
            self.counts.refusals += 1
            await self.page.send(refused(self.ref, str(error), self.board()))
            return True
        if isinstance(error, Exception):  # a bug must not end the page's socket: logged, and the page told
            log.error("the Activity could not answer a %s frame", self.what, exc_info=error)
            await self.page.send(refused(self.ref, _(UNEXPECTED)))
            return True
        return False
