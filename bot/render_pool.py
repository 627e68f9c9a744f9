"""Board pictures: what a worker needs to draw one, and the one way the bot asks for it.

A :class:`BoardPicture` holds a :class:`~solitaire.view.BoardView` (only what the player may see)
and the drawing options; :class:`Pictures` hands it to the heavy-work scheduler as its most urgent
job, with a short deadline: a picture its worker does not answer in time (stuck, dead, or none free)
is drawn in this process instead, so the click is still answered within Discord's 3 s.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.heavy import Priority, Scheduler
from render import render_board
from solitaire.view import BoardView


@dataclass(frozen=True)
class BoardPicture:
    """What a worker needs to draw a board: the player's view (no hidden card in it) and the options."""

    view: BoardView
    time_left: float | None = None
    selected: str | None = None
    target: str | None = None
    four_colour: bool = False


def draw(picture: BoardPicture) -> bytes:
    """Render ``picture`` as PNG bytes (in a worker process, or in a thread here)."""
    return render_board(
        picture.view,
        time_left=picture.time_left,
        selected=picture.selected,
        target=picture.target,
        four_colour=picture.four_colour,
    )


class Pictures:
    """Board pictures through ``jobs``: first in line, and drawn here when no worker answers in time."""

    def __init__(self, jobs: Scheduler) -> None:
        self.jobs = jobs

    async def render(self, picture: BoardPicture) -> bytes:
        """Return ``picture`` as PNG bytes."""
        return await self.jobs.submit(draw, picture, priority=Priority.PICTURE, fallback=True)
