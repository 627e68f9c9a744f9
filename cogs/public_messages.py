"""What the public competition messages (a race's, a challenge's) share: the channel check and the results post."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord

from bot.errors import BotError
from bot.outbox.announcements import Delivery

log = logging.getLogger(__name__)

CHANNEL_PERMISSIONS = ("view_channel", "send_messages", "embed_links")
"""What the bot needs in a channel to run a public competition message there: the message (an embed) is edited
past the interaction's own token, and its results are posted anew if it was deleted."""


class ChannelPermissionsError(BotError):
    """The bot lacks what it needs in the channel to run a public competition message there."""

    def __init__(self, what: str, missing: list[str]) -> None:
        names = ", ".join(f"**{flag.replace('_', ' ').title()}**" for flag in missing)
        super().__init__(
            f"I can't run a {what} in this channel: I lack the {names} permission here (its message is updated "
            f"as it goes and gets the results). Give it to me (or my role), or use another channel."
        )


def check_channel(interaction: discord.Interaction, what: str) -> None:
    """:raises ChannelPermissionsError: the bot lacks one of :data:`CHANNEL_PERMISSIONS` in this channel."""
    granted = interaction.app_permissions
    if missing := [flag for flag in CHANNEL_PERMISSIONS if not getattr(granted, flag)]:
        raise ChannelPermissionsError(what, missing)


async def show_results(
    client: discord.Client, channel_id: int, message_id: int | None, shown: dict[str, Any], *, what: str
) -> Delivery:
    """Show results on their public message (a new message if that one is gone); say how it went."""
    channel = client.get_partial_messageable(channel_id)
    try:
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(**shown)
                return Delivery.POSTED
            except discord.NotFound:
                log.info("the message of %s is gone: posting its results anew", what)
        await channel.send(**shown)
    except discord.Forbidden as error:
        log.warning("may not show the results of %s: %s", what, error)
        return Delivery.FORBIDDEN
    except (TimeoutError, discord.HTTPException, aiohttp.ClientError) as error:
        log.warning("could not show the results of %s: %s", what, error)
        return Delivery.FAILED
    return Delivery.POSTED
