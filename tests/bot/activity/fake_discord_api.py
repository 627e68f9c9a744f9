"""A stand-in for the parts of Discord's REST API the Activity asks: the code exchange, the player, the instance.

It answers as Discord does: a code is good once, a token it did not issue is 401, an instance that is not
live is 404, and the instance's call needs the bot's token. Tests add players and instances.
"""

from __future__ import annotations

import itertools
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


@dataclass
class FakeDiscordApi:
    """Discord's OAuth2 token exchange, ``/users/@me`` and the activity instances, on a local port."""

    players: dict[str, FakePlayer] = field(default_factory=dict)
    """By token."""
    codes: dict[str, FakePlayer] = field(default_factory=dict)
    """Codes not yet exchanged."""
    instances: dict[str, dict[str, Any]] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    """Every call, as ``METHOD path`` (no token, no secret)."""
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

    def add_player(self, user_id: int, name: str = "Player") -> FakePlayer:
        """A user with a fresh code (``authorize``'s answer) and the token that code exchanges for."""
        n = next(self._ids)
        player = FakePlayer(user_id, name, f"code-{n}-{user_id}", f"token-{n}-{user_id}")
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
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self._token)
        app.router.add_get("/api/v10/users/@me", self._me)
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

    def _failure(self) -> web.Response | None:
        if self.failing is not None:
            return web.json_response({"message": "Discord is having a moment"}, status=self.failing)
        return None

    async def _token(self, request: web.Request) -> web.Response:
        self.requests.append("POST /oauth2/token")
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
        self.requests.append("GET /users/@me")
        if (failure := self._failure()) is not None:
            return failure
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        player = self.players.get(token)
        if player is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(
            {"id": str(player.user_id), "username": player.name.lower(), "global_name": player.name, "avatar": None}
        )

    async def _instance(self, request: web.Request) -> web.Response:
        self.requests.append("GET /applications/activity-instances")
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
