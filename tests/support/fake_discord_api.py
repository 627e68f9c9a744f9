"""A stand-in for the parts of Discord's REST API the Activity asks: the code exchange, the player, the instance.

It answers as Discord does: a code is good once, a token it did not issue is 401, ``/oauth2/@me`` names
the application a token was given to (another application's token is answered as well, with that
application's id: Discord answers any token), an instance that is not live is 404, and the instance's
call needs the bot's token. Tests add players and instances.
"""

from __future__ import annotations

import bisect
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

APP_ID = 4242
BOT_TOKEN = "fake-bot-token"
CLIENT_SECRET = "fake-client-secret"


@dataclass
class FakePlayer:
    """A Discord user who can sign in to the Activity: their one-time code and the token it gives."""

    user_id: int
    name: str
    code: str
    token: str
    application_id: int = APP_ID
    """The application Discord gave the token to (another one's: a token a stranger could hold)."""
    scopes: tuple[str, ...] = ("identify", "guilds")
    locale: str | None = None
    """The locale of the user's client, as their user object says it (``None``: it says none)."""


@dataclass
class FakeDiscordApi:
    """Discord's OAuth2 token exchange, ``/oauth2/@me``, ``/users/@me`` and the activity instances, on a local port."""

    players: dict[str, FakePlayer] = field(default_factory=dict)
    """By token."""
    codes: dict[str, FakePlayer] = field(default_factory=dict)
    """Codes not yet exchanged."""
    instances: dict[str, dict[str, Any]] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    """Every call, as ``METHOD path`` (no token, no secret)."""
    stamps: list[float] = field(default_factory=list)
    """When each call came (``time.monotonic``), in the order of :attr:`requests`."""
    failing: int | None = None
    """Answer every call with this status (500: Discord is down)."""
    application_id: int = APP_ID
    bot_token: str = BOT_TOKEN
    port: int = 0
    _runner: web.AppRunner | None = None
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def api_base(self) -> str:
        """What ``DISCORD_API_BASE`` is set to."""
        return f"http://127.0.0.1:{self.port}/api/v10"

    def add_player(
        self,
        user_id: int,
        name: str = "Player",
        *,
        application_id: int | None = None,
        scopes: tuple[str, ...] = ("identify", "guilds"),
    ) -> FakePlayer:
        """A user with a fresh code (``authorize``'s answer) and the token that code exchanges for.

        ``application_id``: the token was given to that application, not to the bot's (``None``: the bot's).
        """
        n = next(self._ids)
        given_to = self.application_id if application_id is None else application_id
        player = FakePlayer(user_id, name, f"code-{n}-{user_id}", f"token-{n}-{user_id}", given_to, scopes)
        self.players[player.token] = player
        self.codes[player.code] = player
        return player

    def add_instance(self, instance_id: str, *, guild_id: int | None, channel_id: int, users: list[int]) -> None:
        """A live instance of the Activity in a server's channel (``guild_id=None``: a DM)."""
        location = {"id": f"gc-{channel_id}", "kind": "gc" if guild_id else "pc", "channel_id": str(channel_id)}
        if guild_id:
            location["guild_id"] = str(guild_id)
        self.instances[instance_id] = {
            "application_id": str(self.application_id),
            "instance_id": instance_id,
            "launch_id": "1",
            "location": location,
            "users": [str(user) for user in users],
        }

    async def start(self) -> None:
        """Listen on a free local port."""
        app = web.Application(middlewares=[_one_call_a_connection])
        app.router.add_post("/api/v10/oauth2/token", self._token)
        app.router.add_get("/api/v10/users/@me", self._me)
        app.router.add_get("/api/v10/oauth2/@me", self._authorization)
        app.router.add_get("/api/v10/applications/{app}/activity-instances/{instance}", self._instance)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()

    def _heard(self, call: str) -> None:
        """Note a call and when it came."""
        self.requests.append(call)
        self.stamps.append(time.monotonic())

    def busiest_second(self) -> int:
        """The most calls heard in any one second."""
        return max((bisect.bisect_left(self.stamps, at + 1.0) - n for n, at in enumerate(self.stamps)), default=0)

    def _failure(self) -> web.Response | None:
        if self.failing is not None:
            return web.json_response({"message": "Discord is having a moment"}, status=self.failing)
        return None

    async def _token(self, request: web.Request) -> web.Response:
        self._heard("POST /oauth2/token")
        if (failure := self._failure()) is not None:
            return failure
        form = await request.post()
        if form.get("client_id") != str(self.application_id) or form.get("client_secret") != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        player = self.codes.pop(str(form.get("code")), None)
        if form.get("grant_type") != "authorization_code" or player is None:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response(
            {"access_token": player.token, "token_type": "Bearer", "expires_in": 604800, "scope": "identify guilds"}
        )

    async def _me(self, request: web.Request) -> web.Response:
        self._heard("GET /users/@me")
        if (failure := self._failure()) is not None:
            return failure
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        player = self.players.get(token)
        if player is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(_user(player))

    async def _authorization(self, request: web.Request) -> web.Response:
        """``GET /oauth2/@me``: the token's application, scopes and user (for any application's token)."""
        self._heard("GET /oauth2/@me")
        if (failure := self._failure()) is not None:
            return failure
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        player = self.players.get(token)
        if player is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        application = {"id": str(player.application_id), "name": "Some App", "bot_public": True}
        answer: dict[str, Any] = {
            "application": application,
            "scopes": list(player.scopes),
            "expires": "2030-01-01T00:00:00+00:00",
        }
        if "identify" in player.scopes:
            answer["user"] = _user(player)
        return web.json_response(answer)

    async def _instance(self, request: web.Request) -> web.Response:
        self._heard(f"GET {request.path.removeprefix('/api/v10')}")
        if (failure := self._failure()) is not None:
            return failure
        if request.headers.get("Authorization") != f"Bot {self.bot_token}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        if request.match_info["app"] != str(self.application_id):
            return web.json_response({"message": "Unknown Application", "code": 10002}, status=404)
        instance = self.instances.get(request.match_info["instance"])
        if instance is None:
            return web.json_response({"message": "Unknown Activity Instance", "code": 10000}, status=404)
        return web.json_response(instance)


def _user(player: FakePlayer) -> dict[str, Any]:
    """The player as Discord's user object."""
    user = {"id": str(player.user_id), "username": player.name.lower(), "global_name": player.name, "avatar": None}
    return user | ({"locale": player.locale} if player.locale is not None else {})


@web.middleware
async def _one_call_a_connection(request: web.Request, handler: Any) -> web.StreamResponse:
    """Close each connection after its answer: no idle keep-alive connection outlives a test's calls.

    A kept-alive connection's server task waits for the client's pool to drop it (15 s): a simulated
    Discord that settles the bot's tasks would wait for it too.
    """
    response: web.StreamResponse = await handler(request)
    response.force_close()
    return response
