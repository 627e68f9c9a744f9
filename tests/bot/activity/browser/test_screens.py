"""The page's screens and ways to play in a real Chromium: the daily's one try, the keys, the result, a small tile."""

from __future__ import annotations

import re

import pytest

from bot.compete.starts import DailyPlayedError, Place
from tests.bot.activity.browser.conftest import (
    USER,
    Activity,
    Opened,
    game_id,
    open_in_discord,
    shown_version,
    start_game,
    state_of,
    until,
)
from tests.support.activity_stack import CHANNEL, GUILD

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")
from playwright.async_api import Browser, Frame

pytestmark = pytest.mark.asyncio(loop_scope="session")
PIP = {"width": 280, "height": 200}
QUIET_SOURCE = (
    "['w', '1', '2', '3', '4', '5', '6', '7'].find((source) => s.game.legal_moves.filter((m) =>"
    " m.startsWith(source + '-')).length === 1 && (source === 'w' || s.game.tableau[source - 1].hidden === 0))"
    " ?? null"
)
"""A source with one move that turns up no unseen card (so it can be undone): the waste, or a pile hiding none."""
RANKS_CLEAR = """[...document.querySelectorAll('.pile')].every((pile) => {
  const card = pile.querySelector('.card.face');
  if (!card) return true;
  const rank = card.querySelector('.corner b').getBoundingClientRect();
  return rank.bottom - card.getBoundingClientRect().top <= parseFloat(pile.style.getPropertyValue('--up-px'));
})"""
"""Whether a face-up card's rank fits above the card a run puts on it (a pile's step down)."""
FOCUS_RING = "(el) => { const s = getComputedStyle(el); return [s.outlineStyle, s.boxShadow]; }"


def daily_button(variant: str) -> str:
    """The menu's button for today's daily of ``variant``."""
    return f'.menu button[data-kind="daily"][data-variant="{variant}"]'


async def another_page(browser: Browser, server: Activity) -> Opened:
    """The same player's Activity opened a second time (another window or device), at its menu."""
    opened = await open_in_discord(browser, Activity(server.stack, server.stack.player(USER, name="Tester")))
    await opened.frame.wait_for_selector(".menu button")
    return opened


async def end_from_page(frame: Frame) -> None:
    """End the game on show with End and its confirm step; wait for the result."""
    await frame.click("#btn-end")
    await frame.wait_for_selector("#confirm:not([hidden])")
    await frame.click("#confirm-yes")
    await frame.wait_for_selector("#result:not([hidden])")


async def refused_start(opened: Opened, variant: str) -> str:
    """Press the daily of ``variant`` on a menu that still offers it; the server's refusal, as the page shows it."""
    frame = opened.frame
    await frame.click(daily_button(variant))
    await frame.wait_for_selector(".toast:not([hidden])")
    [refused] = opened.answers("refused")
    assert await frame.text_content(".toast") == refused["reason"]
    assert await state_of(frame, "s.screen") == "menu"
    return str(refused["reason"])


async def test_a_daily_ended_on_the_page_is_its_one_try_on_every_surface(browser: Browser, server: Activity) -> None:
    stale = await another_page(browser, server)
    opened = await open_in_discord(browser, server)
    frame = opened.frame
    await frame.click(daily_button("draw3"))
    await frame.wait_for_selector(".table .card")
    assert await state_of(frame, "s.game.kind") == "daily"
    await end_from_page(frame)
    await frame.click('#result button[data-action="menu"]')
    await frame.wait_for_selector(f"{daily_button('draw3')}[disabled]", timeout=5_000)
    assert "played" in (await frame.text_content(daily_button("draw3")) or "")
    assert await frame.is_enabled(daily_button("draw1"))
    reason = await refused_start(stale, "draw3")
    assert reason.startswith("You already played today's")
    await stale.frame.wait_for_selector(f"{daily_button('draw3')}[disabled]", timeout=5_000)
    with pytest.raises(DailyPlayedError):
        await server.stack.services.starts.daily_game(Place(GUILD, CHANNEL, USER), "draw3")
    await stale.context.close()
    await opened.context.close()


async def test_a_daily_ended_with_the_command_is_played_on_the_page(browser: Browser, server: Activity) -> None:
    opened = await open_in_discord(browser, server)
    frame = opened.frame
    assert await frame.is_enabled(daily_button("draw1"))
    services = server.stack.services
    session = await services.starts.daily_game(Place(GUILD, CHANNEL, USER), "draw1")
    await services.sessions.play(session, "end")
    reason = await refused_start(opened, "draw1")
    assert reason.startswith("You already played today's")
    await frame.wait_for_selector(f"{daily_button('draw1')}[disabled]", timeout=5_000)
    assert "played" in (await frame.text_content(daily_button("draw1")) or "")
    fresh = await another_page(browser, server)
    assert await fresh.frame.is_disabled(daily_button("draw1"))
    assert await fresh.frame.is_enabled(daily_button("draw3"))
    await fresh.context.close()
    await opened.context.close()


async def focus_slot(frame: Frame, slot: str) -> None:
    """Move the focus with the arrow keys from the stock to ``slot``."""
    await frame.focus('[data-slot="stock"]')
    for _ in range(14):
        if await frame.evaluate(f"document.activeElement.dataset.slot === {slot!r}"):
            return
        await frame.page.keyboard.press("ArrowRight")
    raise AssertionError(f"the arrows never reached {slot}")


async def focus_shows(frame: Frame, slot: str) -> bool:
    """Whether the top card of ``slot`` looks different once the arrow keys focus its slot (a focus ring)."""
    card = await frame.query_selector(f'[data-slot="{slot}"] > .card.face:last-child')
    assert card is not None, f"no card on {slot}"
    await frame.focus("#btn-draw")
    before = await card.evaluate(FOCUS_RING)
    await focus_slot(frame, slot)
    assert await frame.query_selector(f'[data-slot="{slot}"]:focus-visible'), f"{slot} is not focused"
    return bool(await card.evaluate(FOCUS_RING) != before)


async def test_keys_draw_tap_the_focused_card_and_undo(browser: Browser, server: Activity) -> None:
    opened = await start_game(browser, server)
    frame, keys = opened.frame, opened.page.keyboard
    game = await game_id(frame)
    source = None
    version = 0
    while source is None:
        assert version < 30, "no card with one quiet move in 30 draws"
        await keys.press("d")
        version += 1
        await until(lambda v=version: shown_version(frame, v), "D to draw")
        source = await state_of(frame, QUIET_SOURCE)
    assert await server.played(game) == ["draw"] * version
    assert await frame.locator('[data-slot="w"] .card.face').count() > 0
    for slot in ("w", "1", source):
        assert await focus_shows(frame, slot), f"the focused card on {slot} shows no focus"
    await keys.press("Enter")
    await until(lambda: shown_version(frame, version + 1), "Enter to tap the card")
    assert [tap["source"] for tap in opened.frames("tap")] == [source]
    move = (await server.played(game))[-1]
    assert move.startswith(f"{source}-")
    await keys.press("u")
    await until(lambda: shown_version(frame, version + 2), "U to undo")
    assert move in await state_of(frame, "s.game.legal_moves")
    assert opened.frames("move")[-1]["move"] == "undo"
    await opened.context.close()


async def test_the_result_shows_the_score_and_the_deal_and_goes_back_to_the_menu(
    browser: Browser, server: Activity
) -> None:
    server.stack.guilds.discard(GUILD)
    opened = await open_in_discord(browser, server)
    frame = opened.frame
    await frame.fill("#practice-deal", "7")
    await frame.click('.menu button[data-variant="draw1"][data-kind="practice"]')
    await frame.wait_for_selector(".table .card")
    await frame.click("#btn-draw")
    await until(lambda: shown_version(frame, 1), "the draw")
    await end_from_page(frame)
    assert opened.frames("move")[-1]["move"] == "end"
    game = await state_of(frame, "s.game")
    assert game["over"] and game["status"] == "ended"
    assert await frame.text_content("#result h2") == "Game ended"
    assert await frame.text_content("#result .final-score b") == str(game["score"])
    assert await frame.text_content("#result .deal-words") == f"{game['title']}: practice, not ranked: deal #7"
    await frame.click('#result button[data-action="menu"]')
    await frame.wait_for_selector('.menu button[data-kind="practice"]')
    assert await frame.is_hidden("#result")
    assert await state_of(frame, "s.screen") == "menu"
    await opened.context.close()


async def test_a_picture_in_picture_tile_shows_the_clock_and_the_score(browser: Browser, server: Activity) -> None:
    opened = await start_game(browser, server, **PIP)
    frame = opened.frame
    await frame.click('[data-slot="stock"]')
    await until(lambda: shown_version(frame, 1), "the draw")
    for selector in ("#clock", "#score"):
        element = await frame.query_selector(selector)
        assert element is not None and await element.is_visible()
        box = await element.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["y"] >= 0, selector
        assert box["x"] + box["width"] <= PIP["width"] and box["y"] + box["height"] <= PIP["height"], selector
        size = await element.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
        assert size >= 11, f"{selector} in {size}px type"
        middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        on_top = await element.evaluate("(el, [x, y]) => el.contains(document.elementFromPoint(x, y))", middle)
        assert on_top, f"{selector} is covered"
    assert re.fullmatch(r"\d+:\d\d", await frame.text_content("#clock") or "")
    assert await frame.text_content("#score") == str(await state_of(frame, "s.game.score"))
    assert await frame.evaluate(RANKS_CLEAR), "a card in a run would hide the rank of the card under it"
    await opened.context.close()


async def test_with_reduced_motion_a_refused_drop_goes_back_without_moving(browser: Browser, server: Activity) -> None:
    opened = await start_game(browser, server, reduced_motion="reduce")
    frame = opened.frame
    legal = await state_of(frame, "s.game.legal_moves")
    source, target = next(
        (str(a), str(b)) for a in range(1, 8) for b in range(1, 8) if a != b and f"{a}-{b}" not in legal
    )
    card = await state_of(frame, f"s.game.tableau[{int(source) - 1}].up[0]")
    held = await frame.query_selector(f'[data-card="{card}"]')
    dropped_on = await frame.query_selector(f'[data-slot="{target}"] .card:last-child')
    assert held is not None and dropped_on is not None
    start, end = await held.bounding_box(), await dropped_on.bounding_box()
    assert start is not None and end is not None
    mouse = opened.page.mouse
    await mouse.move(start["x"] + start["width"] / 2, start["y"] + 12)
    await mouse.down()
    await mouse.move(start["x"] + start["width"] / 2 + 8, start["y"] + 20, steps=2)
    await mouse.move(end["x"] + end["width"] / 2, end["y"] + 12, steps=8)
    await mouse.up()
    await frame.wait_for_selector(".toast:not([hidden])")
    still = await held.evaluate(
        "(el) => ({animations: el.getAnimations().length, transform: el.style.transform,"
        " slot: el.parentElement.dataset.slot, gliding: el.classList.contains('gliding'),"
        " dragging: el.classList.contains('dragging')})"
    )
    assert still == {"animations": 0, "transform": "", "slot": source, "gliding": False, "dragging": False}
    await opened.context.close()
