"""Who a page's player is and where they play, asked of Discord (never taken from the page).

The page hands the server an OAuth2 code (exchanged here for the player's token, with the client secret)
and then, on its socket, that token and its instance id. :meth:`DiscordIdentity.verify` asks Discord
whose token it is and for which application (``GET /oauth2/@me``, the player's token: a token Discord
gave another application is refused) and what the instance is
(``GET /applications/{app}/activity-instances/{instance}``, the bot's token): its server, its channel and
who is in it. Tokens are never logged.

Every call spends the Activity's share of the bot's budget at Discord (:class:`~bot.activity.limits.Budget`):
past it, sign-ins are shed with "try again in a moment" and the bot's own requests keep their room. A
verified token and an instance are kept a short while, and a refused token longer, so a burst of pages
(a reload, a call full of players) costs one call, and nobody can make the bot ask Discord the same
refused question again and again (Discord bans an address that earns too many 401, 403 and 429).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import quote

import aiohttp

from bot.activity.limits import (
    DISCORD_BUDGET_WAIT_SECONDS,
    DISCORD_CALL_BURST,
    DISCORD_CALLS_IN_ANY_SECOND,
    DISCORD_CALLS_PER_SECOND,
    INSTANCE_KEPT_SECONDS,
    REFUSED_TOKEN_KEPT_SECONDS,
    TOKEN_KEPT_SECONDS,
    ActivityCounts,
    Budget,
)
from bot.activity.page_words import known_locale
from bot.activity.verified import (
    DiscordUnavailableError,
    Holder,
    Instance,
    Player,
    SignInRefusedError,
    VerificationError,
)
from solitaire.speech import N_, _

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
TIMEOUT = aiohttp.ClientTimeout(total=10)
INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
"""The shape of Discord's instance ids (``i-1234…-gc-…``): nothing else reaches a URL."""
KEPT = 10_000
"""Tokens and instances remembered at most (the oldest are forgotten first)."""
NOT_ANSWERING = N_("Discord is not answering just now: try again in a moment")
BUSY = N_("Too many players are signing in just now: try again in a moment")
OTHER_APPLICATION = N_("that sign-in was given to another application: open the Activity again")
ASKED: dict[str, tuple[str, str]] = {
    "the sign-in code": (
        N_("Discord refused the sign-in code: open the Activity again"),
        N_("Discord's answer about the sign-in code was not understood"),
    ),
    "your sign-in": (
        N_("Discord refused your sign-in: open the Activity again"),
        N_("Discord's answer about your sign-in was not understood"),
    ),
    "this Activity's instance": (
        N_("Discord refused this Activity's instance: open the Activity again"),
        N_("Discord's answer about this Activity's instance was not understood"),
    ),
}
"""What Discord is asked about (the logs' words), and the page's sentences when it refuses or is not understood."""

T = TypeVar("T")


class DiscordIdentity:
    """Discord's OAuth2 and REST answers about a page's player, through one HTTP session, within a budget."""

    def __init__(
        self,
        *,
        application_id: int,
        client_secret: str,
        bot_token: str,
        api_base: str | None,
        clock: Callable[[], float] = time.monotonic,
        counts: ActivityCounts | None = None,
    ) -> None:
        """Ask Discord (``api_base``: a proxy or a test's fake, else Discord) on behalf of the application.

        ``clock`` (monotonic seconds) times the budget and what is kept; ``counts``: where calls are counted.
        """
        self.application_id = application_id
        self._secret = client_secret
        self._bot_token = bot_token
        self.api = (api_base or DISCORD_API).rstrip("/")
        self.clock = clock
        self.budget = Budget(DISCORD_CALLS_PER_SECOND, DISCORD_CALL_BURST, at=clock())
        self.counts = counts or ActivityCounts()
        """Where the calls made and the sign-ins shed are counted (the Activity's metrics)."""
        self._http: aiohttp.ClientSession | None = None
        self._holders: OrderedDict[str, tuple[float, Holder | str]] = OrderedDict()
        """Per token's hash, until when: whom Discord gave it to, or the words it was refused in."""
        self._sent: deque[float] = deque()
        """When the calls of the last second were sent."""
        self._instances: OrderedDict[str, tuple[float, Instance]] = OrderedDict()
        self._asking: dict[str, asyncio.Future[Any]] = {}

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
            raise SignInRefusedError(_("Discord gave no access token for that sign-in code"))
        return token

    async def verify(self, access_token: str, instance_id: str, claimed_guild: int | None) -> Player:
        """The player behind ``access_token`` in instance ``instance_id``, checked against what Discord says.

        :raises VerificationError: the token is refused or another application's, the instance is not live,
            the player is not in it, or the page claims another server than the instance's.
        """
        holder = await self.holder(access_token)
        instance = await self.instance(instance_id, member=holder.user_id)
        if holder.user_id not in instance.users:
            raise VerificationError(_("you are not in this Activity's instance: open it again from Discord"))
        if claimed_guild is not None and claimed_guild != instance.guild_id:
            raise VerificationError(_("this page names another server than the Activity's: open it again from Discord"))
        return Player(
            holder.user_id, holder.name, instance.guild_id, instance.channel_id, instance_id, locale=holder.locale
        )

    async def holder(self, access_token: str) -> Holder:
        """Whom Discord gave ``access_token`` to, if it was given to this application with ``identify``.

        A verified token is remembered for :data:`TOKEN_KEPT_SECONDS`, a refused one for
        :data:`REFUSED_TOKEN_KEPT_SECONDS` (asked again, Discord would refuse it again).
        :raises SignInRefusedError: refused, expired, another application's, or without ``identify``.
        """
        key = hashlib.sha256(access_token.encode()).hexdigest()
        kept = _recall(self._holders, key, self.clock())
        if kept is not None:
            if isinstance(kept[1], str):
                raise SignInRefusedError(kept[1])
            return kept[1]
        try:
            holder = await self._once(f"token:{key}", lambda: self._ask_holder(access_token))
        except SignInRefusedError as error:
            _keep(self._holders, key, (self.clock() + REFUSED_TOKEN_KEPT_SECONDS, str(error)))
            raise
        _keep(self._holders, key, (self.clock() + TOKEN_KEPT_SECONDS, holder))
        return holder

    async def _ask_holder(self, access_token: str) -> Holder:
        """``GET /oauth2/@me``: the token's application, scopes and user."""
        me = await self._ask("GET", "/oauth2/@me", bearer=access_token, what="your sign-in", refused=SignInRefusedError)
        application = me.get("application")
        scopes = me.get("scopes")
        user = me.get("user")
        if not isinstance(application, dict) or str(application.get("id")) != str(self.application_id):
            raise SignInRefusedError(_(OTHER_APPLICATION))
        if not isinstance(scopes, list) or "identify" not in scopes or not isinstance(user, dict):
            raise SignInRefusedError(_("that sign-in does not say who you are: open the Activity again"))
        name = user.get("global_name") or user.get("username") or "player"
        return Holder(_snowflake(user.get("id")), str(name)[:64], known_locale(user.get("locale")))

    async def instance(self, instance_id: str, *, member: int | None = None) -> Instance:
        """The live instance ``instance_id`` of this application; :raises VerificationError: if it is not live.

        An instance asked about in the last :data:`INSTANCE_KEPT_SECONDS` is answered from memory, unless
        ``member`` is not in it (they may just have joined: Discord is asked again).
        """
        if not INSTANCE_ID.fullmatch(instance_id):
            raise VerificationError(_("that is not an Activity instance: open it again from Discord"))
        kept = _recall(self._instances, instance_id, self.clock())
        if kept is not None and (member is None or member in kept[1].users):
            return kept[1]
        instance = await self._once(f"instance:{instance_id}", lambda: self._ask_instance(instance_id))
        _keep(self._instances, instance_id, (self.clock() + INSTANCE_KEPT_SECONDS, instance))
        return instance

    async def _ask_instance(self, instance_id: str) -> Instance:
        """``GET /applications/{app}/activity-instances/{instance}`` with the bot's token."""
        path = f"/applications/{self.application_id}/activity-instances/{quote(instance_id, safe='')}"
        data = await self._ask("GET", path, bot=True, what="this Activity's instance")
        location = data.get("location") or {}
        users = data.get("users") or []
        if not isinstance(location, dict) or not isinstance(users, list):
            raise VerificationError(_(ASKED["this Activity's instance"][1]))
        return Instance(
            guild_id=_snowflake(location.get("guild_id"), default=0),
            channel_id=_snowflake(location.get("channel_id"), default=0),
            users=frozenset(_snowflake(user) for user in users),
        )

    async def _once(self, key: str, ask: Callable[[], Awaitable[T]]) -> T:
        """One call for ``key`` at a time: pages asking the same while it runs share its answer."""
        running = self._asking.get(key)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._asking[key] = future
        try:
            answer = await ask()
        except BaseException as error:  # the asker's page went (cancelled): the others are told to try again
            future.set_exception(error if isinstance(error, Exception) else DiscordUnavailableError(_(NOT_ANSWERING)))
            future.exception()  # retrieved: nobody else may be waiting
            raise
        else:
            future.set_result(answer)
            return answer
        finally:
            del self._asking[key]

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
        """One call to Discord within the budget about ``what`` (one of :data:`ASKED`); 4xx: ``refused`` in its
        words; 5xx or no answer: unavailable.

        Discord's status is never shown to the page (it would make the bot a probe of Discord's API).
        """
        wait = self.budget.reserve(self.clock(), DISCORD_BUDGET_WAIT_SECONDS)
        if wait is None:
            self.counts.shed += 1
            raise DiscordUnavailableError(_(BUSY))
        if wait > 0:
            await asyncio.sleep(wait)
        await self._in_turn()
        headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
        if bot:
            headers = {"Authorization": f"Bot {self._bot_token}"}
        self.counts.discord_calls += 1
        try:
            async with self._session().request(method, self.api + path, headers=headers, data=data) as answer:
                if answer.status >= 500 or answer.status == 429:
                    raise DiscordUnavailableError(_(NOT_ANSWERING))
                if answer.status >= 400:
                    raise refused(_(ASKED[what][0]))
                body = await answer.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError, RecursionError) as error:
            log.warning("could not ask Discord about %s: %s", what, type(error).__name__)
            raise DiscordUnavailableError(_(NOT_ANSWERING)) from None
        if not isinstance(body, dict):
            raise VerificationError(_(ASKED[what][1]))
        return body

    async def _in_turn(self) -> None:
        """Wait while :data:`DISCORD_CALLS_IN_ANY_SECOND` calls went in the last second (a late loop may bunch
        calls the budget spaced out), then count this one as sent."""
        while True:
            now = self.clock()
            while self._sent and self._sent[0] <= now - 1.0:
                self._sent.popleft()
            if len(self._sent) < DISCORD_CALLS_IN_ANY_SECOND:
                self._sent.append(now)
                return
            await asyncio.sleep(self._sent[0] + 1.0 - now)


def _recall(kept: OrderedDict[str, tuple[float, T]], key: str, now: float) -> tuple[float, T] | None:
    """What is kept for ``key`` if it has not expired."""
    entry = kept.get(key)
    if entry is None or entry[0] <= now:
        return None
    return entry


def _keep(kept: OrderedDict[str, tuple[float, T]], key: str, entry: tuple[float, T]) -> None:
    """Remember ``entry`` (until its time) for ``key``, forgetting the oldest past :data:`KEPT`."""
    kept[key] = entry
    kept.move_to_end(key)
    while len(kept) > KEPT:
        kept.popitem(last=False)


def _snowflake(value: object, *, default: int | None = None) -> int:
    """A Discord id from JSON (a string of digits); :raises VerificationError: for anything else."""
    if value is None and default is not None:
        return default
    if isinstance(value, str) and value.isascii() and value.isdecimal() and len(value) <= 20:
        return int(value)
    raise VerificationError(_("Discord's answer named no valid id"))
