"""The browser tests' fixtures: one Chromium per worker process, a page inside the fake Discord client, the server."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote, urlsplit

import pytest
import pytest_asyncio

from bot.storage.games import game_state, get_game
from tests.support.activity_stack import CHANNEL, GUILD, Stack, activity_stack
from tests.support.fake_discord_api import FakePlayer

CHROMIUM = Path("/usr/bin/chromium")
HERE = Path(__file__).resolve().parent
CLIENT_PATH = "fake-discord/client.html"
USER = 31
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Frame, Page, Route, ViewportSize, WebSocket


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Browser]:
    """One headless Chromium for the worker's tests (skipped without playwright or without Chromium)."""
    if importlib.util.find_spec("playwright") is None:
        pytest.skip("playwright is not installed: pip install -e '.[test]'")
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt install chromium) for the browser tests")
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        await launched.close()


@dataclass
class Opened:
    """The page inside the fake Discord client: its browser context, the client's page, the Activity's frame."""

    context: BrowserContext
    page: Page
    frame: Frame
    sent: list[dict[str, Any]] = field(default_factory=list)
    """Every frame the Activity sent on its sockets."""
    received: list[dict[str, Any]] = field(default_factory=list)
    """Every frame the server sent it."""

    def frames(self, kind: str) -> list[dict[str, Any]]:
        """The frames of ``kind`` the Activity sent."""
        return [frame for frame in self.sent if frame.get("type") == kind]

    def answers(self, kind: str) -> list[dict[str, Any]]:
        """The frames of ``kind`` the server sent."""
        return [frame for frame in self.received if frame.get("type") == kind]


async def open_in_discord(
    browser: Browser,
    activity: Activity,
    *,
    width: int = 1280,
    height: int = 800,
    touch: bool = False,
    reduced_motion: Literal["reduce", "no-preference"] = "no-preference",
    guild_id: str = str(GUILD),
    channel_id: str = str(CHANNEL),
    locale: str | None = None,
) -> Opened:
    """The Activity inside the fake Discord client page (served on the Activity's own origin), as its player.

    ``locale``: the locale the fake client reports for its user (``None``: it does not say).
    """
    base = activity.base
    viewport: ViewportSize = {"width": width, "height": height}
    context = await browser.new_context(viewport=viewport, has_touch=touch, reduced_motion=reduced_motion)
    page = await context.new_page()
    page.on("pageerror", lambda error: print("page error:", error))
    opened = Opened(context, page, page.main_frame)

    def record(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: opened.sent.append(json.loads(payload)))
        socket.on("framereceived", lambda payload: opened.received.append(json.loads(payload)))

    page.on("websocket", record)

    async def fake_client(route: Route) -> None:
        name = urlsplit(route.request.url).path.rsplit("/", 1)[-1]
        kind = "text/html" if name.endswith(".html") else "text/javascript"
        body = (HERE / ("fake_client.html" if name == "client.html" else "fake_client.js")).read_text()
        await route.fulfill(status=200, content_type=kind, body=body)

    await page.route(lambda url: url.startswith(f"{base}fake-discord/"), fake_client)
    place = {"code": activity.player.code, "user_id": str(activity.player.user_id)}
    place |= {"guild_id": guild_id, "channel_id": channel_id, "instance_id": "i-1"}
    if locale is not None:
        place["locale"] = locale
    query = "".join(f"&{key}={quote(value)}" for key, value in place.items())
    await page.goto(f"{base}{CLIENT_PATH}?target={quote(base)}{query}")
    opened.frame = await activity_frame(page)
    return opened


async def activity_frame(page: Page) -> Frame:
    """The iframe holding the Activity, once its page has loaded."""
    element = await page.wait_for_selector("iframe")
    frame = await element.content_frame()
    assert frame is not None
    await frame.wait_for_load_state()
    return frame


async def state_of(frame: Frame, expression: str) -> Any:
    """Evaluate ``expression`` over a snapshot of what the page shows (``s``: api.js) in the Activity's frame."""
    return await frame.evaluate(f"(() => {{ const s = window.solitaireRush.snapshot(); return {expression}; }})()")


async def until(check: Callable[[], Awaitable[Any] | Any], what: str, seconds: float = 5.0) -> None:
    """Wait until ``check`` holds (polled), or fail saying ``what`` never happened."""
    for _ in range(int(seconds / 0.05)):
        result = check()
        if await result if isinstance(result, Awaitable) else result:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def start_game(browser: Browser, server: Activity, variant: str = "draw3", **size: Any) -> Opened:
    """Open the page in the fake client and start a casual game of ``variant`` from the menu."""
    opened = await open_in_discord(browser, server, **size)
    await opened.frame.click(f'button[data-variant="{variant}"][data-kind="casual"]')
    await opened.frame.wait_for_selector(".table .card")
    return opened


async def game_id(frame: Frame) -> int:
    """The id of the game on show."""
    return int(await state_of(frame, "s.game.id"))


async def shown_version(frame: Frame, version: int) -> bool:
    """Whether the page shows the game at ``version`` and no drag is in progress."""
    return bool(await state_of(frame, f"s.game.version === {version} && !s.dragging"))


class Activity:
    """The real Activity server over the real services (a temporary SQLite database), and its one player."""

    def __init__(self, stack: Stack, player: FakePlayer) -> None:
        self.stack = stack
        self.player = player
        self.base = stack.url + "/"

    async def played(self, game_id: int) -> list[str]:
        """The commands game ``game_id`` accepted, in order, as the database holds them."""
        record = await get_game(self.stack.services.db, game_id)
        assert record is not None
        return [str(command) for command, _ in json.loads(await game_state(self.stack.services.db, record))["log"]]


@pytest_asyncio.fixture(loop_scope="session")
async def server(tmp_path: Path, sqlite_migrated: Path) -> AsyncIterator[Activity]:
    """The Activity server for one test, with one player signed in to the fake Discord."""
    database = tmp_path / "activity.db"
    shutil.copyfile(sqlite_migrated, database)
    async with activity_stack(database) as stack:
        yield Activity(stack, stack.player(USER, name="Tester"))
