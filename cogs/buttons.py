"""Persistent buttons (``DynamicItem``): their state is in the custom id, so they work after restarts.

One generic button, :class:`ClickButton`, and one subclass per custom-id format made from the format's
value (:func:`button_type`), since discord.py routes by each class's template. A button only parses
its id and hands the click to the cog (``COG_NAME``, through :func:`click_handler`); a malformed id
still reaches the cog (as ``None``) so the player gets an answer. The formats, their parsers and their
ownership checks are defined once, in :mod:`bot.play.clicks`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast, runtime_checkable

import discord

from bot.play.clicks import (
    AFTER_GAME,
    BOARD,
    CHALLENGE,
    CONFIRM,
    LAUNCH,
    OFFER,
    RACE,
    AfterGameClick,
    BoardClick,
    ButtonClick,
    ChallengeClick,
    ConfirmClick,
    IdFormat,
    LaunchClick,
    OfferClick,
    Origin,
    RaceClick,
)
from bot.runtime.client import SolitaireBot
from solitaire.speech import _

COG_NAME = "Solitaire"
"""The cog that answers every button of the bot."""

Button = discord.ui.Button[discord.ui.View]
C = TypeVar("C", bound=ButtonClick)


@runtime_checkable
class ClickHandler(Protocol):
    """What the cog offers the buttons (``None``: an unreadable id, answered privately)."""

    async def handle_board_click(self, interaction: discord.Interaction, click: BoardClick | None) -> None:
        """Answer a click on a board button."""

    async def handle_offer_click(self, interaction: discord.Interaction, click: OfferClick | None) -> None:
        """Answer a click on a resume/end offer button."""

    async def handle_after_game_click(self, interaction: discord.Interaction, click: AfterGameClick | None) -> None:
        """Answer Analyze, Share replay or Hint."""

    async def handle_race_click(self, interaction: discord.Interaction, click: RaceClick | None) -> None:
        """Answer a button of a race message."""

    async def handle_challenge_click(self, interaction: discord.Interaction, click: ChallengeClick | None) -> None:
        """Answer a button of a challenge message."""

    async def handle_confirm_click(self, interaction: discord.Interaction, click: ConfirmClick | None) -> None:
        """Answer a confirmation's button whose question may have been asked before a restart."""

    async def handle_launch_click(self, interaction: discord.Interaction, click: LaunchClick | None) -> None:
        """Answer Play here: open the Activity for the member who pressed it."""


Handle = Callable[[ClickHandler, discord.Interaction, C | None], Awaitable[None]]
"""Which of the cog's handlers a format's clicks go to."""


def click_handler(interaction: discord.Interaction) -> ClickHandler:
    """The cog that answers the bot's buttons."""
    cog = cast(Any, interaction.client).get_cog(COG_NAME)
    if not isinstance(cog, ClickHandler):
        raise RuntimeError(f"the {COG_NAME} cog is not loaded")
    return cog


def origin_of(interaction: discord.Interaction, custom_id: str) -> Origin:
    """Where a press of ``custom_id`` was made: member, server (0 in DMs), message and whether it carries the id."""
    message = interaction.message
    return Origin(
        user_id=interaction.user.id,
        guild_id=interaction.guild_id or 0,
        message_id=message.id if message is not None else None,
        carries=message is not None and _carries(message, custom_id),
        ephemeral=message is not None and message.flags.ephemeral,
    )


def _carries(message: discord.Message, custom_id: str) -> bool:
    """Whether ``message`` (as Discord sent it with the click) has a component with ``custom_id``."""
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False


class ClickButton(discord.ui.DynamicItem[Button], Generic[C], template=r"(?!)"):
    """A button written in one custom-id format; its subclasses (one per format) come from :func:`button_type`."""

    format: ClassVar[IdFormat[Any]]
    handle: ClassVar[Handle[Any]]

    def __init__(self, click: C | None, item: Button, *, custom_id: str | None = None) -> None:
        item.custom_id = click.custom_id if click is not None else (custom_id or f"{self.format.prefix}:?")
        super().__init__(item)
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ClickButton[C]:
        """Rebuild the button from a clicked id (keeping the clicked component's look); malformed: ``None``."""
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button()
        return cls(cls.format.parse(match.string), button, custom_id=match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Speak the member's language; hand the click to the cog's handler of this format."""
        await cast(SolitaireBot, interaction.client).speakers.speak_to_member(interaction.user.id, interaction.locale)
        await type(self).handle(click_handler(interaction), interaction, self.click)


def button_type(name: str, format: IdFormat[C], handle: Handle[C]) -> type[ClickButton[C]]:
    """The persistent button class of ``format``: routes every id of its namespace to ``handle``."""

    class FormatButton(ClickButton[C], template=format.route):
        __doc__ = f"A button written as ``{format.prefix}:…`` ({name})."

    FormatButton.format = format
    FormatButton.handle = staticmethod(handle)
    FormatButton.__name__ = FormatButton.__qualname__ = name
    return FormatButton


BoardButton = button_type("BoardButton", BOARD, lambda cog, i, click: cog.handle_board_click(i, click))
OfferButton = button_type("OfferButton", OFFER, lambda cog, i, click: cog.handle_offer_click(i, click))
AfterGameButton = button_type(
    "AfterGameButton", AFTER_GAME, lambda cog, i, click: cog.handle_after_game_click(i, click)
)
RaceButton = button_type("RaceButton", RACE, lambda cog, i, click: cog.handle_race_click(i, click))
ChallengeButton = button_type("ChallengeButton", CHALLENGE, lambda cog, i, click: cog.handle_challenge_click(i, click))
ConfirmButton = button_type("ConfirmButton", CONFIRM, lambda cog, i, click: cog.handle_confirm_click(i, click))
LaunchButton = button_type("LaunchButton", LAUNCH, lambda cog, i, click: cog.handle_launch_click(i, click))
BUTTON_TYPES = (BoardButton, OfferButton, AfterGameButton, RaceButton, ChallengeButton, ConfirmButton, LaunchButton)
"""Every persistent button type, registered once when the cog loads."""


def offer_view(game_id: int) -> discord.ui.View:
    """Resume / End buttons for a player's running game."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        OfferButton(
            OfferClick(game_id, "resume"), discord.ui.Button(label=_("Resume it"), style=discord.ButtonStyle.primary)
        )
    )
    view.add_item(
        OfferButton(OfferClick(game_id, "end"), discord.ui.Button(label=_("End it"), style=discord.ButtonStyle.danger))
    )
    return view


def add_play_here(view: discord.ui.View, row: int) -> None:
    """Add **Play here** (it opens the Activity for whoever presses it) to ``view``, on ``row``."""
    button = discord.ui.Button[discord.ui.View](label=_("Play here"), style=discord.ButtonStyle.secondary, row=row)
    view.add_item(LaunchButton(LaunchClick(), button))
