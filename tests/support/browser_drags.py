"""Moves made with the mouse or a finger on the Activity's page in Chromium (the browser tests' hands)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from tests.bot.activity.browser.conftest import Opened, shown_version, state_of, until

if TYPE_CHECKING:
    from playwright.async_api import ElementHandle, Frame

Point = tuple[float, float]
"""A point on the page, in CSS pixels."""


async def card_move(frame: Frame) -> str:
    """A legal card move on the board (drawing until there is one), as the server lists it."""
    for _ in range(30):
        moves = await state_of(frame, "s.game.legal_moves.filter((m) => /^([1-7]|w)-([1-7]|f)$/.test(m))")
        if moves:
            return str(moves[0])
        version = int(await state_of(frame, "s.game.version"))
        await frame.click("#btn-draw")
        await until(lambda v=version: shown_version(frame, v + 1), "a draw")
    raise AssertionError("no card move in 30 draws")


async def points(frame: Frame, move: str) -> tuple[Point, Point]:
    """Where to press a move's card (a pile's first face-up card) and where to let it go (its target's top).

    A move up (``w-f``) goes to the foundation slot its source's ``dests`` name (a suit's own), else the first.
    """
    source, token = move.split("-")[0], move.split("-")[1]
    target = token
    if token == "f":
        ups = [slot for slot in await state_of(frame, f"s.game.dests[{source!r}] || []") if str(slot).startswith("f")]
        target = str(ups[0]) if ups else "fs"
    cards = await frame.query_selector_all(f'[data-slot="{source}"] .card.face')
    start = await box_centre(cards[-1] if source == "w" else cards[0])
    tops = await frame.query_selector_all(f'[data-slot="{target}"] .card')
    end = await box_centre(tops[-1] if tops else await frame.query_selector(f'[data-slot="{target}"]'))
    return start, end


async def box_centre(element: ElementHandle | None) -> Point:
    """A point on an element (its top part, which shows even under other cards), in the page's coordinates."""
    assert element is not None
    box = await element.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 12)


async def mouse_drag(opened: Opened, start: Point, end: Point) -> None:
    """Press, move in steps and release the mouse."""
    mouse = opened.page.mouse
    await mouse.move(*start)
    await mouse.down()
    await mouse.move(start[0] + 8, start[1] + 8, steps=2)
    await mouse.move(*end, steps=8)
    await mouse.up()


async def touch_drag(opened: Opened, start: Point, end: Point) -> None:
    """A finger on the glass: Chromium's own touchStart, touchMoves and touchEnd."""
    cdp = await opened.context.new_cdp_session(opened.page)
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for step in range(1, 11):
        x = start[0] + (end[0] - start[0]) * step / 10
        y = start[1] + (end[1] - start[1]) * step / 10
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        await asyncio.sleep(0.016)
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
