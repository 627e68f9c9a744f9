"""Persistent buttons (``DynamicItem``): their state is in the custom id, so they work after restarts.

The buttons only parse their id and hand the click to the cog (``COG_NAME``, through
:func:`click_handler`); a malformed id still reaches the cog (as ``None``) so the player gets an
answer. The id formats and the templates that route them here are defined once, in :mod:`bot.clicks`
(the after-game buttons' in :mod:`bot.after_game`).
"""

from __future__ import annotations

import re
from typing import Any, Protocol, cast, runtime_checkable

import discord

from bot.after_game import AfterGameClick
from bot.clicks import BOARD_ROUTE, OFFER_ROUTE, BoardClick, OfferClick, parse_board_click, parse_offer_click
from bot.client import SolitaireBot

COG_NAME = "Solitaire"

Button = discord.ui.Button[discord.ui.View]


@runtime_checkable
class ClickHandler(Protocol):
    """What the cog offers the buttons."""

    async def handle_board_click(self, interaction: discord.Interaction, click: BoardClick | None) -> None:
        """Answer a click on a board button (``None``: unreadable id)."""

    async def handle_offer_click(self, interaction: discord.Interaction, click: OfferClick | None) -> None:
        """Answer a click on a resume/end offer button (``None``: unreadable id)."""

    async def handle_after_game_click(self, interaction: discord.Interaction, click: AfterGameClick | None) -> None:
        """Answer Analyze, Share replay or Hint (``None``: unreadable id)."""


def click_handler(interaction: discord.Interaction) -> ClickHandler:
    """The cog that answers the bot's buttons."""
    cog = cast(Any, interaction.client).get_cog(COG_NAME)
    if not isinstance(cog, ClickHandler):
        raise RuntimeError(f"the {COG_NAME} cog is not loaded")
    return cog


class BoardButton(discord.ui.DynamicItem[Button], template=BOARD_ROUTE):
    """A button of a game board: ``sol:<game>:<version>:<selected>:<action>``."""

    def __init__(self, click: BoardClick | None, item: Button, *, custom_id: str | None = None) -> None:
        item.custom_id = click.custom_id if click is not None else (custom_id or "sol:?")
        super().__init__(item)
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BoardButton:
        """Rebuild the button from a clicked id (keeping the clicked component's look)."""
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button()
        return cls(parse_board_click(match.string), button, custom_id=match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the cog (counted and timed for the metrics endpoint)."""
        with cast(SolitaireBot, interaction.client).metrics.move_click(interaction.guild_id):
            await click_handler(interaction).handle_board_click(interaction, self.click)


class OfferButton(discord.ui.DynamicItem[Button], template=OFFER_ROUTE):
    """A button of the "you already have a game running" offer: ``solr:<game>:resume|end``."""

    def __init__(self, click: OfferClick | None, item: Button, *, custom_id: str | None = None) -> None:
        item.custom_id = click.custom_id if click is not None else (custom_id or "solr:?")
        super().__init__(item)
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OfferButton:
        """Rebuild the button from a clicked id."""
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button()
        return cls(parse_offer_click(match.string), button, custom_id=match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the cog."""
        await click_handler(interaction).handle_offer_click(interaction, self.click)


def offer_view(game_id: int) -> discord.ui.View:
    """Resume / End buttons for a player's running game."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        OfferButton(
            OfferClick(game_id, "resume"), discord.ui.Button(label="Resume it", style=discord.ButtonStyle.primary)
        )
    )
    view.add_item(
        OfferButton(OfferClick(game_id, "end"), discord.ui.Button(label="End it", style=discord.ButtonStyle.danger))
    )
    return view
