"""A tiny stand-in for Discord's REST API and gateway (aiohttp), enough for a bot to log in and get READY.

Used to run ``python -m bot`` for real with ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL``
pointing here, and to check that every request came here. Like Discord, it keeps an application's
Entry Point command (an app with Activities enabled has one) and refuses a bulk overwrite of the
global commands that leaves it out.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = "4242"
ENTRY_POINT = 4
"""The application command type ``PRIMARY_ENTRY_POINT``: the command that launches the app's Activity."""
ENTRY_POINT_REMOVED = {
    "message": (
        "You cannot remove this app's Entry Point command in a bulk update operation. "
        "Please include the Entry Point command in your update request or delete it separately."
    ),
    "code": 50240,
}
"""Discord's answer (HTTP 400) to a bulk overwrite of the global commands without the Entry Point command."""
USER = {
    "id": APP_ID,
    "username": "SolitaireRush",
    "discriminator": "0",
    "avatar": None,
    "bot": True,
    "global_name": None,
}


def entry_point_command(handler: int = 2) -> dict[str, Any]:
    """The Entry Point command Discord creates when Activities are enabled (``handler`` 2: Discord launches it)."""
    return {
        "id": "900",
        "application_id": APP_ID,
        "version": "901",
        "default_member_permissions": None,
        "type": ENTRY_POINT,
        "name": "launch",
        "description": "",
        "dm_permission": True,
        "contexts": [0, 1, 2],
        "integration_types": [0, 1],
        "handler": handler,
        "nsfw": False,
    }


@dataclass
class FakeDiscord:
    """Records every REST call and gateway payload; answers just enough of them."""

    requests: list[str] = field(default_factory=list)
    gateway: list[dict[str, Any]] = field(default_factory=list)
    gateway_urls: list[str] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)
    """The global commands, as the last bulk overwrite left them (an Entry Point command may be given at start)."""
    refused: list[dict[str, Any]] = field(default_factory=list)
    """The bodies of the bulk overwrites refused for leaving the Entry Point command out."""
    guild_commands: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """The commands PUT to each server (by id), as the last sync left them."""
    silent: set[str] = field(default_factory=set)
    """REST paths (``/users/@me``) and ``/gateway`` that get no answer: the network swallows them."""
    port: int = 0
    _released: asyncio.Event = field(default_factory=asyncio.Event)
    """Set at :meth:`stop`: the requests held by ``silent`` end then (else the server waits a minute for them)."""
    _runner: web.AppRunner | None = None

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        self._released.set()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        self.requests.append(f"{request.method} {path}")
        if path in self.silent:
            await self._released.wait()
        if request.headers.get("Authorization") != "Bot fake-token":
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        if path == "/users/@me":
            return _json(USER)
        if path == "/oauth2/applications/@me":
            return _json(
                {
                    "id": APP_ID,
                    "name": "Solitaire Rush",
                    "description": "",
                    "icon": None,
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": USER,
                    "verify_key": "0" * 64,
                    "flags": 0,
                }
            )
        if path == f"/applications/{APP_ID}/commands" and request.method == "GET":
            return _json(self.commands)
        if path == f"/applications/{APP_ID}/commands" and request.method == "PUT":
            body = await request.json()
            if self._drops_entry_point(body):
                self.refused.append(body)
                return _json(ENTRY_POINT_REMOVED, status=400)
            self.commands = [
                {**command, "id": command.get("id", str(1000 + i)), "application_id": APP_ID, "version": "1"}
                for i, command in enumerate(body)
            ]
            return _json(self.commands)
        if path.startswith(f"/applications/{APP_ID}/guilds/") and request.method == "PUT":
            guild = path.split("/")[4]
            body = await request.json()
            self.guild_commands[guild] = body
            return _json(
                [
                    {**c, "id": str(2000 + i), "application_id": APP_ID, "guild_id": guild, "version": "1"}
                    for i, c in enumerate(body)
                ]
            )
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    def _drops_entry_point(self, body: list[dict[str, Any]]) -> bool:
        """Whether a bulk overwrite leaves out the Entry Point command the application has (Discord refuses it)."""
        kept = {command.get("id") for command in body if command.get("type") == ENTRY_POINT}
        return any(command["type"] == ENTRY_POINT and command["id"] not in kept for command in self.commands)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        self.gateway_urls.append(str(request.rel_url))
        if "/gateway" in self.silent:
            await self._released.wait()
            return web.Response(status=503)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}, "s": None, "t": None}))
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            self.gateway.append(payload)
            if payload.get("op") == 2:
                await ws.send_str(json.dumps(_ready(self.gateway_url)))
            elif payload.get("op") == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
        await asyncio.sleep(0)
        return ws


def _json(data: Any, status: int = 200) -> web.Response:
    """A JSON response with the exact content type discord.py looks for."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _ready(resume_url: str) -> dict[str, Any]:
    return {
        "op": 0,
        "s": 1,
        "t": "READY",
        "d": {
            "v": 10,
            "user": USER,
            "guilds": [],
            "session_id": "fake-session",
            "resume_gateway_url": "wss://elsewhere.invalid",
            "application": {"id": APP_ID, "flags": 0},
            "private_channels": [],
            "relationships": [],
        },
    }
