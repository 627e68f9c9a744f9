"""The after-game buttons (persistent ``DynamicItem``): Analyze, Share replay and Hint.

Their state is in the custom id (``solag:<game>:<action>[:<version>]``, see :mod:`bot.after_game`),
so they work after restarts; like the board buttons, they hand a click to the cog
(:func:`cogs.buttons.click_handler`), whose :mod:`cogs.after_game` mixin answers it.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.after_game import AfterGameClick, hints_allowed, parse_after_game_click
from bot.pads import pad_for
from bot.storage.games import GameRecord
from cogs.buttons import click_handler
from solitaire.scoring import HINT_PENALTY
from solitaire.variants import Family

Button = discord.ui.Button[discord.ui.View]


class AfterGameButton(discord.ui.DynamicItem[Button], template=r"solag:\S{0,96}"):
    """Analyze / Share replay / Hint; a malformed id still gets a private answer."""

    def __init__(self, click: AfterGameClick | None, item: Button, *, custom_id: str | None = None) -> None:
        item.custom_id = click.custom_id if click is not None else (custom_id or "solag:?")
        super().__init__(item)
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AfterGameButton:
        """Rebuild the button from a clicked id."""
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button()
        return cls(parse_after_game_click(match.string), button, custom_id=match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the cog."""
        await click_handler(interaction).handle_after_game_click(interaction, self.click)


def finished_buttons(record: GameRecord) -> discord.ui.View:
    """Analyze and Share replay for a finished game's board."""
    view = discord.ui.View(timeout=None)
    analyze = discord.ui.Button[discord.ui.View](label="Analyze", style=discord.ButtonStyle.primary)
    share = discord.ui.Button[discord.ui.View](label="Share replay", style=discord.ButtonStyle.secondary)
    view.add_item(AfterGameButton(AfterGameClick(record.id, "analyze"), analyze))
    view.add_item(AfterGameButton(AfterGameClick(record.id, "replay"), share))
    return view


def add_hint_button(buttons: discord.ui.View, record: GameRecord, version: int, family: Family) -> None:
    """Add the Hint button to a running casual game's board (never in dailies or races)."""
    if not hints_allowed(record):
        return
    button = discord.ui.Button[discord.ui.View](label=f"Hint (−{HINT_PENALTY})", style=discord.ButtonStyle.secondary)
    button.row = pad_for(family).hint_row
    buttons.add_item(AfterGameButton(AfterGameClick(record.id, "hint", version), button))
