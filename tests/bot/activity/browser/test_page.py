"""The Activity page in a real Chromium, inside the fake Discord client, against the server: sign-in, drags, taps."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Browser, BrowserContext, Frame, Page

from tests.bot.activity.browser.conftest import StandInServer, open_in_discord, state_of

pytestmark = pytest.mark.asyncio(loop_scope="module")
PHONE = {"width": 360, "height": 740}


async def until(check: Callable[[], Awaitable[bool] | bool], what: str, seconds: float = 5.0) -> None:
    """Wait until ``check`` holds (polled), or fail saying ``what`` never happened."""
    for _ in range(int(seconds / 0.05)):
        result = check()
        if result if isinstance(result, bool) else await result:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def start_game(browser: Browser, server: StandInServer, variant: str = "draw3", **size: int) -> tuple[BrowserContext, Page, Frame]:
    """Open the page in the fake client and start a casual game of ``variant`` from the menu."""
    context, page, frame = await open_in_discord(browser, server.base, **size)
    await frame.click(f'button[data-variant="{variant}"][data-kind="casual"]')
    await frame.wait_for_selector(".table .card")
    return context, page, frame


async def card_move(frame: Frame) -> str:
    """A legal card move on the board (drawing until there is one), as the server lists it."""
    for _ in range(30):
        moves = await state_of(frame, "s.game.legal_moves.filter((m) => /^([1-7]|w)-([1-7]|f)$/.test(m))")
        if moves:
            return str(moves[0])
        version = await state_of(frame, "s.game.version")
        await frame.click("#btn-draw")
        await until(lambda: state_of(frame, f"s.game.version > {version}"), "a draw")
    raise AssertionError("no card move in 30 draws")


async def points(frame: Frame, move: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where to press a move's card and where to let it go (the centres of its card and of its target's top)."""
    source, target = move.split("-")
    if target == "f":
        card = await state_of(frame, f"(s.game.waste.concat(s.game.tableau.map((p) => p.up).flat())).length && "
                              f"({source!r} === 'w' ? s.game.waste.at(-1) : s.game.tableau[{source!r} - 1].up.at(-1))")
        target = f"f{str(card)[-1].lower()}"
    press = f'[data-slot="{source}"] .card.face' + (":last-child" if source == "w" else "")
    drop = f'[data-slot="{target}"]'
    start = await centre(frame, press, first=source != "w")
    tops = await frame.query_selector_all(f"{drop} .card")
    end = await centre(frame, drop) if not tops else await box_centre(tops[-1])
    return start, end


async def centre(frame: Frame, selector: str, *, first: bool = True) -> tuple[float, float]:
    """The centre of the first (or last) element matching ``selector``, in the page's coordinates."""
    found = await frame.query_selector_all(selector)
    assert found, selector
    return await box_centre(found[0] if first else found[-1])


async def box_centre(element: object) -> tuple[float, float]:
    """The centre of an element's box (its top part for a card under others)."""
    box = await element.bounding_box()  # type: ignore[attr-defined]
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 14)


async def mouse_drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Press, move in steps and release the mouse."""
    await page.mouse.move(*start)
    await page.mouse.down()
    await page.mouse.move(start[0] + 8, start[1] + 8, steps=2)
    await page.mouse.move(*end, steps=8)
    await page.mouse.up()


async def touch_drag(context: BrowserContext, page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger on the glass: touchStart, touchMoves, touchEnd (Chromium's own touch input)."""
    cdp = await context.new_cdp_session(page)
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for step in range(1, 11):
        x = start[0] + (end[0] - start[0]) * step / 10
        y = start[1] + (end[1] - start[1]) * step / 10
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        await asyncio.sleep(0.016)
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


async def test_signs_in_through_the_discord_client_and_plays(browser: Browser, server: StandInServer) -> None:
    context, page, frame = await open_in_discord(browser, server.base, guild_id="555", channel_id="666")
    await frame.wait_for_selector(".menu button")
    seen = await page.evaluate("window.fakeDiscord")
    assert seen["handshake"]["client_id"] == "1234567890"
    assert [c["cmd"] for c in seen["commands"]] == ["AUTHORIZE", "AUTHENTICATE"]
    assert seen["commands"][0]["args"]["scope"] == ["identify", "guilds"]
    assert seen["commands"][1]["args"]["access_token"] == "token-code-1"
    [hello] = server.frames("hello")
    assert hello == {
        "type": "hello",
        "access_token": "token-code-1",
        "instance_id": "i-1",
        "guild_id": "555",
        "channel_id": "666",
    }
    await frame.click('button[data-variant="draw3"][data-kind="casual"]')
    await frame.click("#btn-draw")
    await until(lambda: server.played() == ["draw"], "the draw to be played")
    assert await frame.text_content("#words") == "You played draw."
    await context.close()


async def test_a_mouse_drag_plays_a_move(browser: Browser, server: StandInServer) -> None:
    context, page, frame = await start_game(browser, server)
    move = await card_move(frame)
    before = len(server.played())
    await mouse_drag(page, *await points(frame, move))
    await until(lambda: server.played()[before:] == [move], f"{move} to be played")
    await until(lambda: state_of(frame, f"s.game.version === {before + 1} && !s.drag"), "the page to show it")
    await context.close()


async def test_a_touch_drag_on_a_phone_plays_a_move(browser: Browser, server: StandInServer) -> None:
    context, page, frame = await start_game(browser, server, touch=True, **PHONE)  # type: ignore[arg-type]
    move = await card_move(frame)
    before = len(server.played())
    await touch_drag(context, page, *await points(frame, move))
    await until(lambda: server.played()[before:] == [move], f"{move} to be played")
    await context.close()


async def test_an_illegal_drop_is_refused_in_the_engines_words_and_flies_back(
    browser: Browser, server: StandInServer
) -> None:
    context, page, frame = await start_game(browser, server)
    legal = await state_of(frame, "s.game.legal_moves")
    source, target = next(
        (str(a), str(b)) for a in range(1, 8) for b in range(1, 8) if a != b and f"{a}-{b}" not in legal
    )
    card = await state_of(frame, f"s.game.tableau[{int(source) - 1}].up[0]")
    start = await centre(frame, f'[data-slot="{source}"] .card.face')
    end = await centre(frame, f'[data-slot="{target}"] .card', first=False)
    await mouse_drag(page, start, end)
    await frame.wait_for_selector(".toast:not([hidden])")
    assert server.frames("move")[-1]["move"] == f"{source}-{target}"
    words = await frame.text_content(".toast")
    assert words and words != "That board has changed."
    assert server.played() == []
    await until(
        lambda: frame.evaluate(
            f"(() => {{ const el = document.querySelector('[data-card=\"{card}\"]');"
            f" return el.parentElement.dataset.slot === {source!r} && el.style.transform === ''"
            " && !el.classList.contains('dragging'); })()"
        ),
        "the card to fly back to its pile",
    )
    await context.close()


async def test_a_drop_off_the_table_flies_back_and_sends_nothing(browser: Browser, server: StandInServer) -> None:
    context, page, frame = await start_game(browser, server)
    start = await centre(frame, '[data-slot="1"] .card.face')
    await mouse_drag(page, start, (start[0] + 20, 780))
    await until(lambda: frame.evaluate("!document.querySelector('.card.dragging')"), "the card to come back")
    assert server.frames("move") == []
    await context.close()


async def test_a_dragged_card_lights_the_servers_targets(browser: Browser, server: StandInServer) -> None:
    context, page, frame = await start_game(browser, server)
    move = await card_move(frame)
    start, end = await points(frame, move)
    await page.mouse.move(*start)
    await page.mouse.down()
    await page.mouse.move(start[0] + 30, start[1] + 40, steps=4)
    lit = await frame.evaluate("[...document.querySelectorAll('.slot.lit')].map((el) => el.dataset.slot)")
    expected = await state_of(frame, f"[...s.lit]")
    assert lit and sorted(lit) == sorted(expected)
    await page.mouse.move(*end, steps=4)
    await page.mouse.up()
    await until(lambda: frame.evaluate("!document.querySelector('.slot.lit')"), "the lights to go out")
    await context.close()


async def test_a_closed_socket_reconnects_says_hello_again_and_resumes(browser: Browser, server: StandInServer) -> None:
    context, page, frame = await start_game(browser, server)
    await frame.click("#btn-draw")
    await until(lambda: server.played() == ["draw"], "the draw")
    await server.drop_sockets()
    await until(lambda: len(server.frames("hello")) == 2 and len(server.frames("resume")) == 1, "hello and resume")
    await until(lambda: frame.evaluate("document.getElementById('status').hidden"), "the reconnect notice to go")
    await frame.click("#btn-draw")
    await until(lambda: server.played() == ["draw", "draw"], "a draw on the new socket")
    await context.close()


async def test_a_move_made_while_the_socket_is_down_is_played_once_after_the_reconnect(
    browser: Browser, server: StandInServer
) -> None:
    context, page, frame = await start_game(browser, server)
    await frame.evaluate("window.solitaireRush.connection.socket.close()")
    await frame.click("#btn-draw")
    await until(lambda: len(server.frames("hello")) == 2, "the second hello")
    await until(lambda: server.played() == ["draw"], "the draw sent on the new socket")
    await asyncio.sleep(0.3)
    assert server.played() == ["draw"]
    assert await state_of(frame, "s.game.version") == 1
    await context.close()


async def test_a_tap_that_has_a_choice_lights_the_places_and_a_tap_there_plays(
    browser: Browser, server: StandInServer
) -> None:
    context, page, frame = await start_game(browser, server, "friday13")
    targets: list[str] = []
    while len(targets) < 2:
        draws = len(server.played())
        assert draws < 40, "no waste card with two places in 40 draws"
        await frame.click('[data-slot="stock"]')
        await until(lambda: len(server.played()) == draws + 1, "a draw")
        await until(lambda: state_of(frame, f"s.game.version === {draws + 1}"), "the page to show it")
        targets = await state_of(frame, "s.game.legal_moves.filter((m) => m.startsWith('w-'))")
    await frame.click('[data-slot="w"] .card:last-child')
    await until(lambda: frame.evaluate("document.querySelectorAll('.slot.lit').length === " + str(len(targets))), "lit places")
    label = targets[-1].split("-")[1]
    await frame.click(f'[data-slot="{label}"]')
    await until(lambda: server.played()[-1:] == [targets[-1]], f"{targets[-1]} to be played")
    await context.close()
