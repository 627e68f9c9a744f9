"""Turn refusals into short private answers; log anything unexpected."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.client import UNEXPECTED
from bot.errors import BotError
from solitaire import SolitaireError

log = logging.getLogger(__name__)


def unwrap(error: BaseException) -> BaseException:
    """The error a command or button raised, without discord.py's wrappers."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        original = getattr(error, "original", None) or error.__cause__
        if original is None:
            break
        error = original
    return error


def user_message(error: BaseException) -> str | None:
    """The private answer for a refusal, or ``None`` when the error is a bug."""
    error = unwrap(error)
    if isinstance(error, BotError | SolitaireError):
        return str(error)
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f}s."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You can't use that here."
    return None


async def answer_privately(interaction: discord.Interaction, text: str) -> None:
    """Reply (or follow up) with an ephemeral message."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed interaction privately: the refusal, or a generic line after logging a bug."""
    text = user_message(error)
    if text is None:
        log.error("interaction failed", exc_info=unwrap(error))
        text = UNEXPECTED
    try:
        await answer_privately(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell the player about: %s", text)


class refusals:  # noqa: N801 - used as a context manager, like contextlib's lower-case helpers
    """``async with refusals(interaction):`` answers a refusal privately and swallows it.

    Player mistakes never reach discord.py's error handlers (which log them as bugs);
    anything else propagates.
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
