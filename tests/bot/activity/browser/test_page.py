"""The Activity page in a real Chromium, inside the fake Discord client, against the real server into the database."""

from __future__ import annotations

import pytest

from tests.bot.activity.browser.conftest import (
    Activity,
    game_id,
    open_in_discord,
    shown_version,
    start_game,
    state_of,
    until,
)
from tests.support.activity_stack import CHANNEL, GUILD
from tests.support.browser_drags import box_centre, card_move, mouse_drag, points, touch_drag
from tests.support.fake_discord_api import APP_ID

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")
from playwright.async_api import Browser

pytestmark = pytest.mark.asyncio(loop_scope="session")
PHONE = {"width": 360, "height": 740}


async def test_signs_in_through_the_discord_client_and_plays(browser: Browser, server: Activity) -> None:
    opened = await open_in_discord(browser, server)
    frame = opened.frame
    await frame.wait_for_selector(".menu button")
    seen = await opened.page.evaluate("window.fakeDiscord")
    assert seen["handshake"]["client_id"] == str(APP_ID)
    assert [c["cmd"] for c in seen["commands"]] == ["AUTHORIZE", "AUTHENTICATE", "USER_SETTINGS_GET_LOCALE"]
    assert seen["commands"][0]["args"]["scope"] == ["identify", "guilds"]
    assert seen["commands"][1]["args"]["access_token"] == server.player.token
    assert opened.frames("hello") == [
        {
            "type": "hello",
            "access_token": server.player.token,
            "instance_id": "i-1",
            "guild_id": str(GUILD),
            "channel_id": str(CHANNEL),
        }
    ]
    assert await frame.text_content(".menu .hello") == "Hello, Tester"
    await frame.click('button[data-variant="draw3"][data-kind="casual"]')
    await frame.click("#btn-draw")
    game = await game_id(frame)
    await until(lambda: server.played(game), "the game to be saved")
    assert await server.played(game) == ["draw"]
    await until(lambda: shown_version(frame, 1), "the page to show the draw")
    assert (await frame.text_content("#words") or "").startswith("draw")
    await opened.context.close()


async def test_a_mouse_drag_plays_a_move_into_the_database(browser: Browser, server: Activity) -> None:
    opened = await start_game(browser, server)
    move = await card_move(opened.frame)
    game = await game_id(opened.frame)
    before = await server.played(game)
    await mouse_drag(opened, *await points(opened.frame, move))
    await until(lambda: shown_version(opened.frame, len(before) + 1), "the page to show the move")
    assert await server.played(game) == [*before, move]
    await opened.context.close()


async def test_a_touch_drag_on_a_phone_plays_a_move_into_the_database(browser: Browser, server: Activity) -> None:
    opened = await start_game(browser, server, touch=True, **PHONE)
    move = await card_move(opened.frame)
    game = await game_id(opened.frame)
    before = await server.played(game)
    await touch_drag(opened, *await points(opened.frame, move))
    await until(lambda: shown_version(opened.frame, len(before) + 1), "the page to show the move")
    assert await server.played(game) == [*before, move]
    await opened.context.close()


async def test_an_illegal_drop_is_refused_in_the_engines_words_and_flies_back(
    browser: Browser, server: Activity
) -> None:
    opened = await start_game(browser, server)
    frame = opened.frame
    legal = await state_of(frame, "s.game.legal_moves")
    source, target = next(
        (str(a), str(b)) for a in range(1, 8) for b in range(1, 8) if a != b and f"{a}-{b}" not in legal
    )
    card = await state_of(frame, f"s.game.tableau[{int(source) - 1}].up[0]")
    start, _ = await points(frame, f"{source}-1")
    end = await box_centre((await frame.query_selector_all(f'[data-slot="{target}"] .card'))[-1])
    await mouse_drag(opened, start, end)
    await frame.wait_for_selector(".toast:not([hidden])")
    dropped = opened.frames("drop")[-1]
    assert (dropped["source"], dropped["target"]) == (source, target)  # the server names the move
    [refused] = opened.answers("refused")
    assert await frame.text_content(".toast") == refused["reason"]
    assert f"{source}-{target}" in refused["reason"]
    assert await server.played(await game_id(frame)) == []
    back = (
        f"(() => {{ const el = document.querySelector('[data-card=\"{card}\"]');"
        f" return el.parentElement.dataset.slot === {source!r} && el.style.transform === ''"
        " && !el.classList.contains('dragging'); })()"
    )
    await until(lambda: frame.evaluate(back), "the card to fly back to its pile")
    await opened.context.close()


async def test_a_drop_off_the_table_flies_back_and_sends_nothing(browser: Browser, server: Activity) -> None:
    opened = await start_game(browser, server)
    start, _ = await points(opened.frame, "1-2")
    await mouse_drag(opened, start, (start[0] + 20, 790))
    await until(
        lambda: opened.frame.evaluate("!document.querySelector('.card.dragging, .card.gliding')"), "the card back"
    )
    assert opened.frames("move") == []
    await opened.context.close()


async def test_a_dragged_card_lights_the_servers_targets(browser: Browser, server: Activity) -> None:
    opened = await start_game(browser, server)
    frame = opened.frame
    move = await card_move(frame)
    start, end = await points(frame, move)
    await opened.page.mouse.move(*start)
    await opened.page.mouse.down()
    await opened.page.mouse.move(start[0] + 30, start[1] + 40, steps=4)
    lit = await frame.evaluate("[...document.querySelectorAll('.slot.lit')].map((el) => el.dataset.slot)")
    source = move.split("-")[0]
    targets = await state_of(frame, f"s.game.legal_moves.filter((m) => m.startsWith({source + '-'!r}))")
    assert len(lit) == len(targets) and lit
    assert sorted(lit) == sorted(await state_of(frame, f"s.game.dests[{source!r}]"))  # the server's dests, lit
    await opened.page.mouse.move(*end, steps=4)
    await opened.page.mouse.up()
    await until(lambda: frame.evaluate("!document.querySelector('.slot.lit')"), "the lights to go out")
    await opened.context.close()


async def test_a_closed_socket_reconnects_says_hello_again_and_resumes(browser: Browser, server: Activity) -> None:
    opened = await start_game(browser, server)
    frame = opened.frame
    game = await game_id(frame)
    await frame.click("#btn-draw")
    await until(lambda: shown_version(frame, 1), "the draw")
    await frame.evaluate("window.solitaireRush.dropSocket()")
    await until(lambda: len(opened.frames("hello")) == 2 and len(opened.frames("resume")) == 1, "hello and resume")
    await until(lambda: frame.evaluate("document.getElementById('status').hidden"), "the reconnect notice to go")
    assert await game_id(frame) == game
    await frame.click("#btn-draw")
    await until(lambda: shown_version(frame, 2), "a draw on the new socket")
    assert await server.played(game) == ["draw", "draw"]
    await opened.context.close()


async def test_a_move_made_while_the_socket_is_down_is_played_once_after_the_reconnect(
    browser: Browser, server: Activity
) -> None:
    opened = await start_game(browser, server)
    frame = opened.frame
    await frame.evaluate("window.solitaireRush.dropSocket()")
    await frame.click("#btn-draw")
    await until(lambda: shown_version(frame, 1), "the draw sent on the new socket")
    await until(lambda: state_of(frame, "s.pending === 0"), "every request answered (none left to send again)")
    assert await server.played(await game_id(frame)) == ["draw"]
    assert await state_of(frame, "s.game.version") == 1
    await opened.context.close()


async def test_a_tap_with_a_choice_lights_the_places_and_a_tap_there_plays(browser: Browser, server: Activity) -> None:
    opened = await start_game(browser, server, "friday13")
    frame = opened.frame
    game = await game_id(frame)
    targets: list[str] = []
    while len(targets) < 2:
        version = int(await state_of(frame, "s.game.version"))
        assert version < 40, "no waste card with two places in 40 draws"
        await frame.click('[data-slot="stock"]')
        await until(lambda v=version: shown_version(frame, v + 1), "a draw")
        targets = await state_of(frame, "s.game.legal_moves.filter((m) => m.startsWith('w-'))")
    await frame.click('[data-slot="w"] .card:last-child')
    await until(
        lambda: frame.evaluate(f"document.querySelectorAll('.slot.lit').length === {len(targets)}"), "lit places"
    )
    label = targets[-1].split("-")[1]
    await frame.click(f'[data-slot="{label}"]')
    await until(lambda: shown_version(frame, version + 2), "the waste card to be played")
    assert (await server.played(game))[-1] == targets[-1]
    await opened.context.close()
