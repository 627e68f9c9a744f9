"""Who a page's player is and where they play, asked of Discord (never taken from the page).

The page hands the server an OAuth2 code (exchanged here for the player's token, with the client secret)
and then, on its socket, that token and its instance id. :meth:`DiscordIdentity.verify` asks Discord
whose token it is (``GET /users/@me``, the player's token) and what the instance is
(``GET /applications/{app}/activity-instances/{instance}``, the bot's token): its server, its channel and
who is in it. Once per socket, never per move. Tokens are never logged.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
TIMEOUT = aiohttp.ClientTimeout(total=10)


class VerificationError(Exception):
    """Discord did not vouch for the page's player or instance: the reason is shown to the page."""


class SignInRefusedError(VerificationError):
    """Discord refused the player's token or sign-in code: the page must sign in again."""


class DiscordUnavailableError(VerificationError):
    """Discord could not be asked (it answered 5xx or not at all): the page may try again."""


@dataclass(frozen=True)
class Player:
    """A verified player: who (from their token) and where (from the instance): server 0 for a DM or group DM."""

    user_id: int
    name: str
    guild_id: int
    channel_id: int
    instance_id: str


@dataclass(frozen=True)
class Instance:
    """An Activity instance as Discord describes it."""

    guild_id: int
    channel_id: int
    users: frozenset[int]


class DiscordIdentity:
    """Discord's OAuth2 and REST answers about a page's player, through one HTTP session."""

    def __init__(self, *, application_id: int, client_secret: str, bot_token: str, api_base: str | None) -> None:
        """Ask Discord (``api_base``: a proxy or a test's fake, else Discord) on behalf of the application."""
        self.application_id = application_id
        self._secret = client_secret
        self._bot_token = bot_token
        self.api = (api_base or DISCORD_API).rstrip("/")
        self._http: aiohttp.ClientSession | None = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    async def close(self) -> None:
        """Close the HTTP session."""
        if self._http is not None:
            await self._http.close()

    async def exchange(self, code: str) -> str:
        """The player's access token for an OAuth2 ``code`` the page got from ``authorize``.

        :raises SignInRefusedError: Discord refused the code.
        """
        form = {
            "client_id": str(self.application_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        data = await self._ask("POST", "/oauth2/token", data=form, what="the sign-in code", refused=SignInRefusedError)
        token = data.get("access_token")
        if not isinstance(token, str) or not token:
            raise SignInRefusedError("Discord gave no access token for that sign-in code")
        return token

    async def verify(self, access_token: str, instance_id: str, claimed_guild: int | None) -> Player:
        """The player behind ``access_token`` in instance ``instance_id``, checked against what Discord says.

        :raises VerificationError: the token is refused, the instance is not live, the player is not in it,
            or the page claims another server than the instance's.
        """
        me = await self._ask("GET", "/users/@me", bearer=access_token, what="your sign-in", refused=SignInRefusedError)
        user_id = _snowflake(me.get("id"))
        instance = await self.instance(instance_id)
        if user_id not in instance.users:
            raise VerificationError("you are not in this Activity's instance: open it again from Discord")
        if claimed_guild is not None and claimed_guild != instance.guild_id:
            raise VerificationError("this page names another server than the Activity's: open it again from Discord")
        name = me.get("global_name") or me.get("username") or "player"
        return Player(user_id, str(name)[:64], instance.guild_id, instance.channel_id, instance_id)

    async def instance(self, instance_id: str) -> Instance:
        """The live instance ``instance_id`` of this application; :raises VerificationError: if it is not live."""
        path = f"/applications/{self.application_id}/activity-instances/{instance_id}"
        data = await self._ask("GET", path, bot=True, what="this Activity's instance")
        location = data.get("location") or {}
        users = data.get("users") or []
        return Instance(
            guild_id=_snowflake(location.get("guild_id"), default=0),
            channel_id=_snowflake(location.get("channel_id"), default=0),
            users=frozenset(_snowflake(user) for user in users),
        )

    async def _ask(
        self,
        method: str,
        path: str,
        *,
        what: str,
        bearer: str | None = None,
        bot: bool = False,
        data: dict[str, str] | None = None,
        refused: type[VerificationError] = VerificationError,
    ) -> dict[str, Any]:
        """One call to Discord; 4xx: ``refused`` naming ``what``; 5xx or no answer: unavailable."""
        headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
        if bot:
            headers = {"Authorization": f"Bot {self._bot_token}"}
        try:
            async with self._session().request(method, self.api + path, headers=headers, data=data) as answer:
                if answer.status >= 500 or answer.status == 429:
                    raise DiscordUnavailableError("Discord is not answering just now: try again in a moment")
                if answer.status >= 400:
                    raise refused(f"Discord refused {what} ({answer.status}): open the Activity again")
                body = await answer.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            log.warning("could not ask Discord about %s: %s", what, type(error).__name__)
            raise DiscordUnavailableError("Discord is not answering just now: try again in a moment") from None
        if not isinstance(body, dict):
            raise VerificationError(f"Discord's answer about {what} was not understood")
        return body


def _snowflake(value: object, *, default: int | None = None) -> int:
    """A Discord id from JSON (a string of digits); :raises VerificationError: for anything else."""
    if value is None and default is not None:
        return default
    if isinstance(value, str) and value.isdecimal() and len(value) <= 20:
        return int(value)
    raise VerificationError("Discord's answer named no valid id")
