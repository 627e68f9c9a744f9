"""Which language the bot speaks to whom: a member privately, a server publicly.

- A member: their own choice (``/solitaire settings language:``), else the locale of their Discord client
  (``interaction.locale``); a direct message, sent outside any interaction, uses the last locale Discord reported.
- A server's public posts: the admins' choice (``/solitaire config language:``), else the server's preferred
  locale (``guild.preferred_locale``), else English.

Choices are read from the database once a minute at most (:data:`FRESH_FOR`), so a click costs a dictionary
look-up; a choice made in this process is seen at once.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.background import BackgroundTasks
from bot.storage import Database, StorageError
from bot.storage import languages as stored
from languages import ENGLISH, Language, find, for_discord
from solitaire.speech import speak

log = logging.getLogger(__name__)

KEPT = 50_000
"""Members whose language is kept in memory at most (the least recently seen are forgotten first, read again)."""
FRESH_FOR = 60.0
"""Seconds a member's or a server's stored choice is trusted before it is read again."""


@dataclass
class _Known:
    member: stored.MemberLanguage
    read_at: float


class Speakers:
    """The language of each member and of each server's public posts."""

    def __init__(
        self, db: Database, *, now: Callable[[], float], server_locale: Callable[[int], object | None]
    ) -> None:
        """``server_locale``: a server's preferred locale as Discord last told it (``None`` when unknown)."""
        self._db = db
        self._now = now
        self._server_locale = server_locale
        self._members: OrderedDict[int, _Known] = OrderedDict()
        self._servers: dict[int, tuple[str | None, float]] = {}
        self._writes = BackgroundTasks("speakers")
        """The locales remembered: written after the answer, never before it."""

    async def _member(self, user_id: int) -> stored.MemberLanguage:
        known = self._members.get(user_id)
        if known is None or self._now() - known.read_at > FRESH_FOR:
            known = _Known(await stored.member_language(self._db, user_id), self._now())
            self._keep(user_id, known)
        else:
            self._members.move_to_end(user_id)
        return known.member

    def _keep(self, user_id: int, known: _Known) -> None:
        """Keep what is known of a member, forgetting the least recently seen beyond :data:`KEPT`."""
        self._members[user_id] = known
        self._members.move_to_end(user_id)
        while len(self._members) > KEPT:
            self._members.popitem(last=False)

    async def member(self, user_id: int, discord_locale: object | None = None) -> Language:
        """The language a member reads privately; ``discord_locale`` (their client's, if known) is remembered.

        The remembering is written in the background: a member's answer never waits for it. A database that
        fails here costs the member their stored choice for this answer, never the answer: their client's
        locale is used.
        """
        locale = str(getattr(discord_locale, "value", discord_locale) or "") or None
        try:
            member = await self._member(user_id)
        except StorageError as error:
            log.warning("member %d's language is not known now (%s): their client's locale is used", user_id, error)
            return for_discord(locale)
        if locale is not None and for_discord(locale) != for_discord(member.discord_locale):
            # a new language (en-US after nothing known is still English: nothing to write)
            member = stored.MemberLanguage(member.choice, locale)
            self._keep(user_id, _Known(member, self._now()))
            self._writes.spawn(self._remember(user_id, locale), name=f"remember-locale-{user_id}")
        return find(member.choice) or for_discord(member.discord_locale)

    async def _remember(self, user_id: int, locale: str) -> None:
        try:
            await stored.remember_locale(self._db, user_id, locale)
        except StorageError as error:
            log.warning("member %d's locale %s is not remembered (%s): it is asked again later", user_id, locale, error)
            self._members.pop(user_id, None)

    async def settled(self) -> None:
        """Wait until every locale being remembered is written."""
        await self._writes.settle("remember-locale-")

    async def close(self) -> None:
        """Finish writing the locales being remembered."""
        await self.settled()

    async def speak_to_member(self, user_id: int, discord_locale: object | None) -> Language:
        """Speak a member's language for the rest of this task (an interaction's); return it."""
        language = await self.member(user_id, discord_locale)
        speak(language.catalogue())
        return language

    async def member_choice(self, user_id: int) -> Language | None:
        """The language a member chose (``None``: automatic)."""
        return find((await self._member(user_id)).choice)

    async def choose_for_member(self, user_id: int, language: Language | None) -> None:
        """Store a member's choice (``None``: automatic)."""
        await stored.set_member_choice(self._db, user_id, language.code if language else None)
        self._members.pop(user_id, None)

    async def _server_choice(self, guild_id: int) -> str | None:
        known = self._servers.get(guild_id)
        if known is None or self._now() - known[1] > FRESH_FOR:
            known = (await stored.server_choice(self._db, guild_id), self._now())
            self._servers[guild_id] = known
        return known[0]

    async def server(self, guild_id: int | None) -> Language:
        """The language of a server's public posts (English outside a server)."""
        if guild_id is None:
            return ENGLISH
        return find(await self._server_choice(guild_id)) or for_discord(self._server_locale(guild_id))

    async def server_choice(self, guild_id: int) -> Language | None:
        """The language a server's admins chose (``None``: the server's preferred locale)."""
        return find(await self._server_choice(guild_id))

    async def choose_for_server(self, guild_id: int, language: Language | None) -> None:
        """Store a server's choice (``None``: automatic)."""
        await stored.set_server_choice(self._db, guild_id, language.code if language else None)
        self._servers.pop(guild_id, None)
