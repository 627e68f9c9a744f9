"""``/solitaire start|move|draw|undo|end|rules``: playing your own game."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.rules_text import rules_text
from cogs.base import SolitaireCogBase
from cogs.errors import refusals

VARIANT_CHOICES = [
    app_commands.Choice(name="Solitaire Rush, draw 1", value="draw1"),
    app_commands.Choice(name="Solitaire Rush, draw 3", value="draw3"),
    app_commands.Choice(name="Gold Rush", value="goldrush"),
    app_commands.Choice(name="Friday 13", value="friday13"),
]


class GameCommands(SolitaireCogBase):
    """The game half of the ``/solitaire`` group."""

    async def load_game_commands(self) -> None:
        """Hook run when the cog loads."""

    async def unload_game_commands(self) -> None:
        """Hook run when the cog unloads."""

    @app_commands.command(name="rules", description="How a game is played and scored")
    @app_commands.describe(variant="Which game (default: draw 3)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str = "draw3") -> None:
        """Explain a variant privately."""
        async with refusals(interaction):
            await interaction.response.send_message(rules_text(variant), ephemeral=True)
