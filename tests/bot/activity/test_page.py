"""One page's outgoing frames: the welcome is its first frame, whatever was pushed while it was built."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.activity.page import Socket


class FakeSocket:
    """The part of aiohttp's websocket a page writes to: it keeps every frame written."""

    closed = False

    def __init__(self) -> None:
        self.written: list[dict[str, Any]] = []

    async def send_str(self, text: str) -> None:
        await asyncio.sleep(0)
        self.written.append(json.loads(text))


async def test_a_push_that_comes_while_the_welcome_is_built_follows_the_welcome() -> None:
    ws = FakeSocket()
    page = Socket(ws, "203.0.113.5")  # type: ignore[arg-type]
    await page.send_text(json.dumps({"type": "race", "race": {"id": 1, "status": "lobby"}}), replaces="race:1")
    await page.send_text(json.dumps({"type": "race", "race": {"id": 1, "status": "running"}}), replaces="race:1")
    await asyncio.sleep(0.01)
    assert ws.written == []  # held: the page has not been welcomed
    await page.welcome({"type": "welcome", "menu": {"races": []}})  # type: ignore[typeddict-item]
    for _ in range(10):
        await asyncio.sleep(0)
    assert [frame["type"] for frame in ws.written] == ["welcome", "race"]
    assert ws.written[1]["race"]["status"] == "running"  # the newer push replaced the older one
    await page.send_text(json.dumps({"type": "race", "race": {"id": 1, "status": "finished"}}), replaces="race:1")
    for _ in range(10):
        await asyncio.sleep(0)
    assert [frame["race"]["status"] for frame in ws.written[1:]] == ["running", "finished"]
