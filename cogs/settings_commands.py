"""``/solitaire settings``: a player's preferences (the four-colour deck, streak reminders), kept across restarts."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.compete.reminders import MIN_STREAK, REMIND_BEFORE
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


def reminders_text(reminders: bool, *, changed: bool) -> str:
    """The private answer: the streak reminders (just turned on or off, or as they stand), what they do, how to change.

    >>> reminders_text(False, changed=True)
    'Streak reminders are now **off**.'
    """
    hours = round(REMIND_BEFORE.total_seconds() / 3600)
    what = (
        f"when your daily streak in a server is {MIN_STREAK} days or more and you have not played its daily yet, "
        f"I send you one direct message {hours} hours before that server's day ends"
    )
    if changed:
        if not reminders:
            return "Streak reminders are now **off**."
        return (
            f"Streak reminders are now **on**: {what}. Discord only lets me if you allow direct messages from "
            "the server's members."
        )
    if reminders:
        return f"Streak reminders are **on** ({what}). Stop them with `/solitaire settings reminders: False`."
    return f"Streak reminders are **off**. Turn them on with `/solitaire settings reminders: True`: {what}."


class SettingsCommands(SolitaireCogBase):
    """The settings command of the ``/solitaire`` group (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    @app_commands.command(name="settings", description="Your settings (no option: show them)")
    @app_commands.describe(
        four_colour="Colour-blind-friendly cards: clubs green, diamonds blue",
        reminders="A direct message before your daily streak breaks (off unless you turn it on)",
    )
    async def settings_command(
        self, interaction: discord.Interaction, four_colour: bool | None = None, reminders: bool | None = None
    ) -> None:
        """Show the player's settings, or change them (redrawing their running boards for the deck)."""
        async with refusals(interaction):
            user_id = interaction.user.id
            if four_colour is None and reminders is None:
                current = await self.bot.preferences.of(user_id)
                text = "\n".join(
                    (
                        four_colour_text(current.four_colour, changed=False),
                        reminders_text(current.reminders, changed=False),
                    )
                )
                await interaction.response.send_message(text, ephemeral=True)
                return
            lines = []
            if reminders is not None:
                await self.bot.preferences.set_reminders(user_id, reminders)
                lines.append(reminders_text(reminders, changed=True))
            running = []
            if four_colour is not None:
                running = await self.bot.preferences.set_four_colour(user_id, four_colour)
                lines.insert(0, four_colour_text(four_colour, changed=True))
            await interaction.response.send_message("\n".join(lines), ephemeral=True)
            for session in running:
                await self.refresh_board(session)
