"""An operator's HTTPS front in miniature: a reverse proxy that sends each path prefix to its process.

As the Caddy and nginx examples of ``docs/activity.md`` do for a shard cluster: ``/c1/...`` goes to the
process serving ``/c1``, anything else to the default process, with the path unchanged. Plain HTTP is
passed on (the page, its assets, ``POST /api/token``) and a WebSocket is joined to one opened upstream,
frame by frame, its close code and reason passed back as the process gave them.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

import aiohttp
from aiohttp import WSMsgType, web

PASSED_HEADERS = ("Content-Type", "Location", "Cache-Control")
"""The headers of a process's answer the front passes back."""


@dataclass
class Front:
    """Routes ``prefixes`` (``{"/c1": "http://127.0.0.1:8091"}``) to their process, the rest to ``default``."""

    default: str
    prefixes: dict[str, str] = field(default_factory=dict)
    hits: list[tuple[str, str]] = field(default_factory=list)
    """Every request as (the process's address, the path asked)."""
    port: int = 0
    _runner: web.AppRunner | None = None
    _http: aiohttp.ClientSession | None = None

    @property
    def url(self) -> str:
        """The front's address (where Discord's proxy would send the page's requests)."""
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> Front:
        """Listen on a free local port."""
        self._http = aiohttp.ClientSession(auto_decompress=False)
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self._pass)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = int(self._runner.addresses[0][1])
        return self

    async def stop(self) -> None:
        """Stop listening (open sockets are closed)."""
        if self._runner is not None:
            await self._runner.cleanup()
        if self._http is not None:
            await self._http.close()

    def upstream(self, path: str) -> str:
        """The process a path goes to: its prefix's, or the default one."""
        for prefix, address in self.prefixes.items():
            if path == prefix or path.startswith(prefix + "/"):
                return address
        return self.default

    async def _pass(self, request: web.Request) -> web.StreamResponse:
        address = self.upstream(request.path)
        self.hits.append((address, request.path))
        headers = {"X-Forwarded-For": request.remote or "127.0.0.1"}
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._join(request, address + request.path_qs, headers)
        assert self._http is not None
        if "Content-Type" in request.headers:
            headers["Content-Type"] = request.headers["Content-Type"]
        async with self._http.request(
            request.method, address + request.path_qs, data=await request.read(), headers=headers, allow_redirects=False
        ) as answer:
            passed = {name: answer.headers[name] for name in PASSED_HEADERS if name in answer.headers}
            return web.Response(status=answer.status, body=await answer.read(), headers=passed)

    async def _join(self, request: web.Request, url: str, headers: dict[str, str]) -> web.StreamResponse:
        """Open the socket upstream, then pass frames both ways until one side closes; its close is passed on."""
        assert self._http is not None
        try:
            process = await self._http.ws_connect(url.replace("http", "ws", 1), headers=headers)
        except aiohttp.WSServerHandshakeError as error:
            return web.Response(status=error.status, text="the process refused the socket")
        page = web.WebSocketResponse()
        await page.prepare(request)
        to_process = asyncio.create_task(_pump_page(page, process))
        try:
            reason = ""
            while True:
                message = await process.receive()
                if message.type is WSMsgType.TEXT:
                    await page.send_str(message.data)
                elif message.type is WSMsgType.BINARY:
                    await page.send_bytes(message.data)
                else:
                    reason = str(message.extra or "") if message.type is WSMsgType.CLOSE else ""
                    break
            await page.close(code=process.close_code or 1000, message=reason.encode())
        finally:
            to_process.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await to_process
            await process.close()
        return page


async def _pump_page(page: web.WebSocketResponse, process: aiohttp.ClientWebSocketResponse) -> None:
    """Pass the page's frames to the process; the page's close closes the process's socket."""
    async for message in page:
        if message.type is WSMsgType.TEXT:
            await process.send_str(message.data)
    await process.close()
