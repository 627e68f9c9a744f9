"""``/solitaire settings``: a player's display preferences (the four-colour deck), kept across restarts."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.storage import players
from cogs.base import SolitaireCogBase
from cogs.errors import refusals

FOUR_COLOUR_ON = "clubs are green and diamonds blue"
FOUR_COLOUR_OFF = "clubs and spades are black, diamonds and hearts red"


def four_colour_text(four_colour: bool, *, changed: bool) -> str:
    """The private answer: the four-colour choice (just made, or as it stands) and how to change it."""
    state = "on" if four_colour else "off"
    colours = FOUR_COLOUR_ON if four_colour else FOUR_COLOUR_OFF
    if changed:
        return f"Four-colour cards are now **{state}**: {colours} on every board drawn for you."
    flip = "False" if four_colour else "True"
    return f"Four-colour cards are **{state}** ({colours}). Change it with `/solitaire settings four_colour: {flip}`."


class SettingsCommands(SolitaireCogBase):
    """The settings command of the ``/solitaire`` group (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    @app_commands.command(name="settings", description="Your display settings (no option: show them)")
    @app_commands.describe(four_colour="Colour-blind-friendly cards: clubs green, diamonds blue")
    async def settings_command(self, interaction: discord.Interaction, four_colour: bool | None = None) -> None:
        """Show the player's settings, or change them and redraw their running boards."""
        async with refusals(interaction):
            user_id = interaction.user.id
            if four_colour is None:
                current = await players.player_settings(self.db, user_id)
                await interaction.response.send_message(
                    four_colour_text(current.four_colour, changed=False), ephemeral=True
                )
                return
            await players.set_four_colour(self.db, user_id, four_colour)
            running = self.sessions.set_four_colour(user_id, four_colour)
            await interaction.response.send_message(four_colour_text(four_colour, changed=True), ephemeral=True)
            for session in running:
                await self.refresh_board(session)
