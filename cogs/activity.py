"""**Play here**: the button that opens the Activity (the game as a web page inside Discord) for whoever presses it.

A mixin of :class:`cogs.solitaire.Solitaire`. The button is on the running boards of the games the Activity plays
too and on ``/solitaire help``, only where this process serves the Activity (``ACTIVITY_PORT``); its id
carries no game (:class:`bot.play.clicks.LaunchClick`). The app's Entry Point command opens it the same way
(:class:`bot.runtime.client.SolitaireTree`).
"""

from __future__ import annotations

import discord

from bot import errors
from bot.play.clicks import LaunchClick
from bot.runtime.client import launch_activity
from cogs.base import SolitaireCogBase
from cogs.errors import refusals


class ActivityCommands(SolitaireCogBase):
    """The Play here button's answer (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    async def handle_launch_click(self, interaction: discord.Interaction, click: LaunchClick | None) -> None:
        """Open the Activity for the member who pressed Play here; a forged id gets the usual private answer."""
        async with refusals(interaction):
            if click is None:
                raise errors.BadClickError()
            await launch_activity(interaction, served=self.play_here)
