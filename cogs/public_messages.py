"""What the public competition messages (a race's, a challenge's) share: the channel check and the results post."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord

from bot.compete.channels import CHANNEL_PERMISSIONS, ChannelPermissionsError, check_channel_permissions
from bot.outbox.announcements import Delivery

log = logging.getLogger(__name__)

__all__ = ["CHANNEL_PERMISSIONS", "ChannelPermissionsError", "check_channel", "show_results"]


def check_channel(interaction: discord.Interaction, what: str) -> None:
    """:raises ChannelPermissionsError: the bot lacks one of :data:`CHANNEL_PERMISSIONS` in this channel."""
    granted = interaction.app_permissions
    check_channel_permissions(what, lambda flag: bool(getattr(granted, flag)))


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
