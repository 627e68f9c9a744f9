"""Which language a cog speaks outside the member's own answers: the server's, or another member's.

A command's or a button's answer is already said in the member's language (the tree and the buttons speak it
for the whole task). A post the whole channel shares (a race's or a challenge's message, a shared replay) is
said in the server's language (:func:`speaking_publicly`); what is drawn or sent for one member outside their
own interaction (a board the clock redraws, a notice, a direct message) in theirs (:func:`speaking_to`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.runtime.client import SolitaireBot
from bot.storage import StorageError
from languages import ENGLISH, Language, for_discord, speaking_language

log = logging.getLogger(__name__)


async def public_language(bot: SolitaireBot, guild_id: int | None) -> Language:
    """The language of a server's public posts; a database that fails here costs the admins' choice, not the post."""
    try:
        return await bot.speakers.server(guild_id)
    except StorageError as error:
        log.warning("the language of server %s is not known now (%s): its preferred locale is used", guild_id, error)
        return for_discord(bot.server_locale(guild_id)) if guild_id else ENGLISH


@asynccontextmanager
async def speaking_publicly(bot: SolitaireBot, guild_id: int | None) -> AsyncIterator[None]:
    """Say everything in the block in the language of the server's public posts."""
    with speaking_language(await public_language(bot, guild_id)):
        yield


@asynccontextmanager
async def speaking_to(bot: SolitaireBot, user_id: int) -> AsyncIterator[None]:
    """Say everything in the block in a member's language (their choice, else the locale Discord last reported)."""
    with speaking_language(await bot.speakers.member(user_id)):
        yield
