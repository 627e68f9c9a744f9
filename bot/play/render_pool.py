"""Pictures: what a worker needs to draw one, and the one way the bot asks for it.

A :data:`Picture` is a :class:`BoardPicture` (a :class:`~solitaire.view.BoardView`, which holds
only what the player may see, plus the drawing options) or a member's
:class:`~render.stats_data.StatsCard`; :class:`Pictures` hands it to the heavy-work scheduler as its
most urgent job, with a short deadline: a picture its worker does not answer in time (stuck, dead,
or none free) is drawn in this process instead, so the click is still answered within Discord's 3 s.
Its words are in the language spoken when it is asked for: the scheduler carries that language to the
worker (or the thread) that draws it (:meth:`bot.heavy.Scheduler.submit`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.heavy import Priority, Scheduler
from render import render_board
from render.stats_card import render_stats_card
from render.stats_data import StatsCard
from solitaire.view import BoardView


@dataclass(frozen=True)
class BoardPicture:
    """What a worker needs to draw a board: the player's view (no hidden card in it) and the options."""

    view: BoardView
    time_left: float | None = None
    selected: str | None = None
    target: str | None = None
    four_colour: bool = False


Picture = BoardPicture | StatsCard
"""What the workers draw: a board, or a member's stats card."""


def draw(picture: Picture) -> bytes:
    """Render ``picture`` as PNG bytes (in a worker process, or in a thread here), in the language spoken."""
    if isinstance(picture, StatsCard):
        return render_stats_card(picture)
    return render_board(
        picture.view,
        time_left=picture.time_left,
        selected=picture.selected,
        target=picture.target,
        four_colour=picture.four_colour,
    )


class Pictures:
    """Pictures through ``jobs``: first in line, and drawn here when no worker answers in time."""

    def __init__(self, jobs: Scheduler) -> None:
        self.jobs = jobs

    async def render(self, picture: Picture) -> bytes:
        """Return ``picture`` as PNG bytes."""
        return await self.jobs.submit(draw, picture, priority=Priority.PICTURE, fallback=True)
