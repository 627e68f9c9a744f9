"""The browser tests' fixtures: one Chromium per module, a page inside the fake Discord client, the server."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote, urlsplit
from typing import Any

import pytest
import pytest_asyncio

from tests.bot.activity.browser.standin import Table, serve

CHROMIUM = Path("/usr/bin/chromium")
HERE = Path(__file__).resolve().parent
CLIENT_PATH = "fake-discord/client.html"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

try:
    from playwright.async_api import Browser, BrowserContext, Frame, Page, Route, async_playwright
except ImportError:  # pragma: no cover - the test extra brings it
    async_playwright = None

if async_playwright is None:
    pytest.skip("playwright is not installed (pip install -e '.[test]')", allow_module_level=True)
if not (CHROMIUM.exists() or shutil.which("chromium")):
    pytest.skip("no Chromium at /usr/bin/chromium for the browser tests", allow_module_level=True)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    """One headless Chromium for the module's tests."""
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        await launched.close()


async def open_in_discord(
    browser: Browser, base: str, *, width: int = 1280, height: int = 800, touch: bool = False, **place: str
) -> tuple[BrowserContext, Page, Frame]:
    """The Activity at ``base`` inside the fake Discord client page (served on the Activity's own origin)."""
    context = await browser.new_context(viewport={"width": width, "height": height}, has_touch=touch)
    page = await context.new_page()
    page.on("pageerror", lambda error: print("page error:", error))

    async def fake_client(route: Route) -> None:
        name = urlsplit(route.request.url).path.rsplit("/", 1)[-1]
        kind = "text/html" if name.endswith(".html") else "text/javascript"
        body = (HERE / ("fake_client.html" if name == "client.html" else "fake_client.js")).read_text()
        await route.fulfill(status=200, content_type=kind, body=body)

    await page.route(lambda url: url.startswith(f"{base}fake-discord/"), fake_client)
    query = "".join(f"&{key}={quote(value)}" for key, value in place.items())
    await page.goto(f"{base}{CLIENT_PATH}?target={quote(base)}{query}")
    frame = await activity_frame(page)
    return context, page, frame


async def activity_frame(page: Page) -> Frame:
    """The iframe holding the Activity, once its page has loaded."""
    element = await page.wait_for_selector("iframe")
    frame = await element.content_frame()
    assert frame is not None
    await frame.wait_for_load_state()
    return frame


async def state_of(frame: Frame, expression: str) -> Any:
    """Evaluate ``expression`` over the page's State (``s``) in the Activity's frame."""
    return await frame.evaluate(f"(() => {{ const s = window.solitaireRush.state; return {expression}; }})()")


class StandInServer:
    """The server the page talks to in these tests (the stand-in: the pure core behind the protocol)."""

    def __init__(self, table: Table, base: str) -> None:
        self.table = table
        self.base = base

    def played(self) -> list[str]:
        """The commands the running game accepted, in order."""
        game = self.table.game
        return [command for command, _ in game.log] if game else []

    def frames(self, kind: str) -> list[dict[str, Any]]:
        """The frames of ``kind`` the page sent."""
        return [frame for frame in self.table.received if frame["type"] == kind]

    async def drop_sockets(self) -> None:
        """Close every open socket from the server's side."""
        for socket in list(self.table.sockets):
            await socket.close()


@pytest_asyncio.fixture(loop_scope="module")
async def server() -> AsyncIterator[StandInServer]:
    """A fresh server for one test."""
    table = Table()
    async with serve(table) as base:
        yield StandInServer(table, base)
