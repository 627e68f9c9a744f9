"""The page in its player's language, in a real Chromium at phone size: in the tests' pseudo-language (every word
accented and 40 % longer) the menu, a game and a race show no English word of the page's own, and nothing
overflows its box; a client's locale reaches the server as a hint."""

from __future__ import annotations

from typing import Any

import pytest

from languages.pseudo import PSEUDO
from tests.bot.activity.browser.conftest import Activity, Opened, open_in_discord, state_of, until

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")
from playwright.async_api import Browser, Frame

pytestmark = pytest.mark.asyncio(loop_scope="session")

PHONE = {"width": 390, "height": 844}
ENGLISH_LEFT = """([selector, kept]) => {
  const root = document.querySelector(selector);
  const shown = (el) => el.getClientRects().length > 0;
  const said = [root.innerText];
  for (const el of root.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (!shown(el)) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      if (el.hasAttribute(name)) said.push(el.getAttribute(name));
    }
  }
  let text = said.join(" ");
  for (const value of kept) text = text.split(value).join(" ");
  return text.match(/[A-Za-z]{2,}/g) || [];
}"""
"""The ASCII words a reader sees (or hears) in ``selector``, once the server's values (``kept``) are taken out."""
OVERFLOWS = """() => {
  const wide = [];
  const boxes = "button, label, select, input, h1, h2, h3, p, li, th, td, small, .pass, .clock, .score";
  for (const el of document.querySelectorAll(boxes)) {
    if (!el.getClientRects().length || getComputedStyle(el).display === "inline") continue;
    const box = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 || box.right > innerWidth + 1 || box.left < -1) {
      wide.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${el.textContent.trim().slice(0, 40)}`);
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) wide.push("the page scrolls sideways");
  return wide;
}"""
"""Every box whose words do not fit it, or that sticks out of the screen, at the page's size."""


async def in_pseudo(browser: Browser, server: Activity, user_id: int | None = None, name: str = "Tester") -> Opened:
    """A member who chose the pseudo-language opens the page at phone size."""
    activity = server if user_id is None else Activity(server.stack, server.stack.player(user_id, name=name))
    await server.stack.services.speakers.choose_for_member(activity.player.user_id, PSEUDO)
    opened = await open_in_discord(browser, activity, **PHONE)
    await opened.frame.wait_for_selector(".menu .hello")
    return opened


def server_words(opened: Opened) -> list[str]:
    """What the server says that other parts of the bot put in words (games' titles, names): kept as they come."""
    welcome = opened.answers("welcome")[0]
    kept = [variant["title"] for variant in welcome["menu"]["variants"]] + [welcome["user"]["name"]]
    for frame in opened.received:
        game = frame.get("game") or {}
        race = frame.get("race") or {}
        kept += [str(game.get("title", "")), str(game.get("deal", "")), str(frame.get("words") or "")]
        kept += [str(label) for label, _ in game.get("sheet", [])] + [str(race.get("title", ""))]
        kept += [str(r.get("name", "")) for r in race.get("racers", [])] + [str(race.get("host", {}).get("name", ""))]
    return sorted({value for value in kept if value}, key=len, reverse=True)


async def english_left(opened: Opened, selector: str) -> list[str]:
    """The page's own ASCII words left in ``selector``."""
    words: list[str] = await opened.frame.evaluate(ENGLISH_LEFT, [selector, server_words(opened)])
    return words


async def overflows(frame: Frame) -> list[str]:
    """The boxes whose words do not fit."""
    wide: list[str] = await frame.evaluate(OVERFLOWS)
    return wide


async def test_the_menu_and_a_game_are_said_in_the_pseudo_language_and_fit_a_phone(
    browser: Browser, server: Activity
) -> None:
    opened = await in_pseudo(browser, server)
    frame = opened.frame
    assert await state_of(frame, "s.locale") == "de"
    assert (await frame.text_content(".menu .hello") or "").startswith("Ĥéĺĺó, Tester")
    assert await english_left(opened, "#menu") == []
    assert await overflows(frame) == []
    await frame.click('button[data-variant="draw3"][data-kind="casual"]')
    await frame.wait_for_selector(".table .card")
    await frame.click("#btn-draw")
    await until(lambda: state_of(frame, "s.game.version >= 1"), "the draw")
    for selector in ("#toolbar", "#table", ".topbar"):
        assert await english_left(opened, selector) == [], selector
    assert (await frame.get_attribute('[data-slot="stock"]', "aria-label") or "").startswith("šţóçķ")
    assert await overflows(frame) == []
    await frame.click("#btn-end")
    assert await english_left(opened, "#confirm") == []
    await frame.click("#confirm-yes")
    await frame.wait_for_selector("#result:not([hidden])")
    assert await english_left(opened, "#result") == []
    assert await overflows(frame) == []
    await opened.context.close()


async def test_a_race_is_said_in_each_pages_language_and_fits_a_phone(browser: Browser, server: Activity) -> None:
    server.stack.services.races.starts.countdown = 2.0  # the common start soon, not in ten seconds
    host = await in_pseudo(browser, server)
    rival = await open_in_discord(browser, Activity(server.stack, server.stack.player(32, name="Rival")), **PHONE)
    await rival.frame.wait_for_selector(".menu .hello")
    await host.frame.click('button[data-action="race-open"]')
    await host.frame.wait_for_selector('#race[data-phase="lobby"]')
    assert await english_left(host, "#race") == []
    assert await overflows(host.frame) == []
    await rival.frame.click('#race-list button[data-action="race-join"]')
    await rival.frame.wait_for_selector('#race[data-phase="countdown"], .table .card', timeout=15000)
    await host.frame.wait_for_selector(".table .card", timeout=15000)
    await until(lambda: state_of(host.frame, "s.race && s.race.status === 'running'"), "the race on the host's page")
    assert await english_left(host, "#opponents") == []
    assert await overflows(host.frame) == []
    await host.frame.click("#opponents .rivals-open")
    await host.frame.wait_for_selector('#race[data-phase="running"] .standings')
    assert await english_left(host, "#race") == []
    assert await overflows(host.frame) == []
    english: Any = await rival.frame.evaluate("document.querySelector('#opponents .open-words').textContent")
    assert english.strip() == "Race"  # the rival's page is in English all along
    for page in (host, rival):
        await page.context.close()


async def test_the_clients_locale_reaches_the_server_as_a_hint(browser: Browser, server: Activity) -> None:
    opened = await open_in_discord(browser, server, locale="de")
    await opened.frame.wait_for_selector(".menu .hello")
    assert opened.frames("hello")[0]["locale"] == "de"
    assert opened.answers("welcome")[0]["locale"] == "de"
    assert await opened.frame.evaluate("document.documentElement.lang") == "de"
    await opened.context.close()
