"""Player mistakes get a short private answer and never reach discord.py's error handlers."""

from __future__ import annotations

import discord

from bot.errors import BotError, fit_reply
from solitaire import SolitaireError


async def answer_privately(interaction: discord.Interaction, text: str) -> None:
    """Reply (or follow up, if already answered or deferred) with an ephemeral message (cut to Discord's limit)."""
    text = fit_reply(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class refusals:  # noqa: N801 - used as a context manager, like contextlib's lower-case helpers
    """``async with refusals(interaction):`` answers a refusal privately and swallows it.

    Refusals are :class:`BotError` (no game, someone else's game, stale board, ...) and the
    engine's :class:`SolitaireError` (the message quotes the move). Anything else propagates:
    discord.py's handlers log it as a bug (``SolitaireTree.on_error`` also tells the player).
    A refusal's text is said where it is raised, inside the member's interaction, so in their language.
    """

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> bool:
        if error is None or not isinstance(error, BotError | SolitaireError):
            return False
        await answer_privately(self.interaction, str(error))
        return True
