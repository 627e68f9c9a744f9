"""Races in the Activity, in real Chromium pages inside the fake Discord client, against the real server.

Two members of one instance race from their pages (the race's countdown shortened to a few seconds); a third
page of the instance watches. The race message is the stand-ins the cog would be: the poster of the message,
the publisher of its live standings and the outbox's listener that edits in its results.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.compete.race import RaceSnapshot
from bot.outbox.announcements import Announcement, Delivery
from tests.bot.activity.browser.conftest import Activity, Opened, open_in_discord, shown_version, state_of, until
from tests.support.browser_drags import card_move, mouse_drag, points

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")
from playwright.async_api import Browser, Frame

pytestmark = pytest.mark.asyncio(loop_scope="session")
COUNTDOWN = 3.0
"""The race's countdown in these tests (10 s in the bot): time enough for a coalesced push to every page."""
PUSH_WITHIN = 2.0
"""A move shows on the other racers' pages within this many seconds."""
RIVAL = 32
"""The first other member's user id (the next ones follow)."""


class RaceMessage:
    """What the cog would do with the race message: post it, edit the live standings in, then the results."""

    def __init__(self) -> None:
        self.posted: list[RaceSnapshot] = []
        self.shown: list[RaceSnapshot] = []
        self.results: list[Announcement] = []

    async def post(self, snapshot: RaceSnapshot) -> int:
        """Post the race message (its id)."""
        self.posted.append(snapshot)
        return 900 + snapshot.race.id

    async def publish(self, snapshot: RaceSnapshot) -> None:
        """Edit the lobby or the standings in."""
        self.shown.append(snapshot)

    async def deliver(self, announcement: Announcement) -> Delivery:
        """Edit the results in (the outbox's race post)."""
        self.results.append(announcement)
        return Delivery.POSTED


@pytest.fixture
def short_countdown(server: Activity) -> None:
    """The common start a few seconds after the start, not ten (the race service's countdown)."""
    server.stack.services.races.starts.countdown = COUNTDOWN


def message_of(server: Activity) -> RaceMessage:
    """Stand in for the race message's cog on the server's services; the outbox delivers its results."""
    message = RaceMessage()
    services = server.stack.services
    services.races.post_message = message.post
    services.races.publish = message.publish
    services.outbox.add_listener(message.deliver, kinds=("race",))
    services.outbox.start()
    return message


async def pages(browser: Browser, server: Activity, *names: str, **size: Any) -> list[Opened]:
    """The pages of the server's player and of a member per name (ids from 32 on) in one instance, at their menus."""
    members = [Activity(server.stack, server.stack.player(RIVAL + i, name=name)) for i, name in enumerate(names)]
    opened = await asyncio.gather(*(open_in_discord(browser, who, **size) for who in (server, *members)))
    for each in opened:
        await each.frame.wait_for_selector("#race-list")
    return list(opened)


async def phase(frame: Frame) -> str | None:
    """The race screen's phase (lobby, countdown, running, results, closed), or None off the race screen."""
    shown = "document.getElementById('app').dataset.screen === 'race'"
    value = await frame.evaluate(f"{shown} ? document.getElementById('race').dataset.phase : null")
    return None if value is None else str(value)


async def phase_is(frame: Frame, expected: str) -> bool:
    """Whether the race screen shows ``expected``."""
    return await phase(frame) == expected


async def text_is(frame: Frame, selector: str, expected: str) -> bool:
    """Whether the element at ``selector`` says ``expected``."""
    return await frame.text_content(selector) == expected


async def strip_shows(frame: Frame, user_id: int, score: int) -> bool:
    """Whether the strip beside the board shows ``score`` for racer ``user_id``."""
    shown = await frame.evaluate(
        f"(() => {{ const el = document.querySelector('#opponents [data-racer=\"{user_id}\"] .pts');"
        " return el && !document.getElementById('opponents').hidden ? el.textContent : null; })()"
    )
    return bool(shown == str(score))


async def tap_move(opened: Opened, move: str) -> None:
    """Tap the move's card, then its lit place if the server offers a choice."""
    frame = opened.frame
    source, target = move.split("-")
    version = int(await state_of(frame, "s.game.version"))
    await frame.click(f'[data-slot="{source}"] .card.face:last-child')
    await until(lambda: state_of(frame, f"s.game.version > {version} || s.lit.length > 0"), "a tap's answer")
    if await state_of(frame, "s.lit.length > 0"):
        await frame.click(f'[data-slot="{target}"]' if target != "f" else ".slot.lit")


async def score_by_moves(opened: Opened, how: str) -> int:
    """Play card moves (by mouse drag or by tap) until the score changes; the new score."""
    frame = opened.frame
    before = int(await state_of(frame, "s.game.score"))
    for _ in range(30):
        move = await card_move(frame)
        version = int(await state_of(frame, "s.game.version"))
        if how == "drag":
            await mouse_drag(opened, *await points(frame, move))
        else:
            await tap_move(opened, move)
        await until(lambda v=version: shown_version(frame, v + 1), f"the {how} to be played")
        score = int(await state_of(frame, "s.game.score"))
        if score != before:
            return score
    raise AssertionError("no move changed the score in 30 moves")


async def seen_within(frame: Frame, user_id: int, score: int) -> float:
    """Seconds until ``frame`` shows ``score`` for racer ``user_id`` beside its board."""
    began = time.monotonic()
    await until(lambda: strip_shows(frame, user_id, score), f"score {score} of {user_id}", 5.0)
    return time.monotonic() - began


async def end_game(frame: Frame) -> None:
    """End the racer's game with the End button, confirmed."""
    await frame.click("#btn-end")
    await frame.click("#confirm-yes")


def strings_in(value: Any) -> set[str]:
    """Every string (values and keys) inside a frame."""
    if isinstance(value, dict):
        return {str(key) for key in value} | {s for item in value.values() for s in strings_in(item)}
    if isinstance(value, list):
        return {s for item in value for s in strings_in(item)}
    return {value} if isinstance(value, str) else set()


def without_words(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame without the page's words (a welcome's, a menu's: the page's whole vocabulary, "waste" included)."""
    return {
        key: value for key, value in frame.items() if not (key in ("words", "ordinals") and isinstance(value, dict))
    }


def cards_of(frames: list[dict[str, Any]]) -> set[str]:
    """Every card code in the GAME frames a racer's page received."""
    codes: set[str] = set()
    for frame in frames:
        game = frame.get("game")
        if not game:
            continue
        codes.update(game["waste"])
        codes.update(f["top"] for f in game["foundations"] if f["top"])
        for pile in game["tableau"]:
            codes.update(pile["up"])
    return codes


async def test_two_members_race_and_a_third_watches_without_a_card(
    browser: Browser, server: Activity, short_countdown: None
) -> None:
    message = message_of(server)
    host, rival, watcher = await pages(browser, server, "Rival", "Watcher")

    await host.frame.select_option("#race-variant", "draw3")
    await host.frame.select_option("#race-size", "3")
    await host.frame.click('button[data-action="race-open"]')
    await until(lambda: phase_is(host.frame, "lobby"), "the host's lobby")
    [opened] = host.frames("race_open")
    assert (opened["variant"], opened["racers"]) == ("draw3", 3)
    assert await host.frame.text_content("#race .capacity") == "1/3 racers"

    join = 'button[data-action="race-join"]'
    await rival.frame.wait_for_selector(f"#race-list {join}")
    await rival.frame.click(f"#race-list {join}")  # one tap
    await until(lambda: phase_is(rival.frame, "lobby"), "the rival's lobby")
    await watcher.frame.wait_for_selector('#race-list button[data-action="race-show"]')
    await watcher.frame.click('#race-list button[data-action="race-show"]')
    await until(lambda: host.frame.evaluate("document.querySelectorAll('#race .lobby-racers li').length === 2"), "2")
    assert await host.frame.text_content("#race .capacity") == "2/3 racers"

    await host.frame.click('#race button[data-action="race-start"]')
    for page in (host, rival, watcher):
        await until(lambda p=page: phase_is(p.frame, "countdown"), "the countdown on every page")
        digits = await page.frame.text_content("#race .countdown")
        assert digits is not None and 1 <= int(digits) <= COUNTDOWN
    for page in (host, rival):
        await page.frame.wait_for_selector(".table .card", timeout=(COUNTDOWN + 3) * 1000)
        await page.frame.wait_for_selector("#opponents .rival")
    deal = "[s.game.kind, s.game.tableau.map((p) => p.up), s.game.tableau.map((p) => p.hidden)]"
    host_deal, rival_deal = await state_of(host.frame, deal), await state_of(rival.frame, deal)
    assert host_deal == rival_deal and host_deal[0] == "race"
    assert await phase(watcher.frame) == "running"
    assert not await watcher.frame.evaluate("document.querySelector('#table .card')")

    score = await score_by_moves(host, "drag")
    assert await seen_within(rival.frame, server.player.user_id, score) < PUSH_WITHIN
    score = await score_by_moves(rival, "tap")
    assert await seen_within(host.frame, RIVAL, score) < PUSH_WITHIN
    watched = f'#race tr[data-racer="{RIVAL}"] .pts'
    await until(lambda: text_is(watcher.frame, watched, str(score)), "the watcher's standings")

    await end_game(host.frame)
    await end_game(rival.frame)
    for page in (host, rival, watcher):
        await until(lambda p=page: phase_is(p.frame, "results"), "the results on every page", 10.0)
    rows = "[...document.querySelectorAll('#race .results tbody tr')].map((tr) => tr.innerText)"
    shown = [await page.frame.evaluate(rows) for page in (host, rival, watcher)]
    assert shown[0] == shown[1] == shown[2] and len(shown[0]) == 2

    await until(lambda: bool(message.results), "the results on the race message", 10.0)
    [post] = message.results
    assert isinstance(post.payload, RaceSnapshot)
    race = await host.frame.evaluate("window.solitaireRush.snapshot().race")
    assert [(r.place, str(r.user_id), r.score) for r in post.payload.results] == [
        (r["place"], r["id"], r["score"]) for r in race["results"]
    ]
    assert message.posted and message.posted[0].race.id == race["id"]
    assert any(snapshot.standings for snapshot in message.shown)

    assert watcher.answers("game") == []
    seen = {s for frame in watcher.received for s in strings_in(without_words(frame))}
    boards = cards_of(host.answers("game")) | cards_of(rival.answers("game"))
    assert boards and not seen & boards
    assert not seen & {"tableau", "waste", "foundations", "legal_moves"}
    for page in (host, rival, watcher):
        await page.context.close()


async def tab_to(frame: Frame, selector: str) -> None:
    """Press Tab until the element at ``selector`` has the keyboard's focus."""
    for _ in range(40):
        await frame.page.keyboard.press("Tab")
        if await frame.evaluate(f"document.activeElement && document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


async def race_list(frame: Frame) -> list[str]:
    """The menu's open races as their buttons say."""
    items = "[...document.querySelectorAll('#race-list .race-item')]"
    return list(
        await frame.evaluate(
            f"{items}.map((li) => [...li.querySelectorAll('button')].map((b) => b.textContent).join(' '))"
        )
    )


async def test_a_lobby_without_its_message_joined_by_keyboard_left_refused_and_cancelled(
    browser: Browser, server: Activity
) -> None:
    host, rival = await pages(browser, server, "Rival")  # and no cog to post the race message
    await host.frame.select_option("#race-size", "4")
    await host.frame.click('button[data-action="race-open"]')
    await until(lambda: phase_is(host.frame, "lobby"), "the host's lobby")
    [opened] = [frame for frame in host.answers("race") if frame["ref"] is not None]
    assert opened["words"] and await host.frame.text_content(".toast") == opened["words"]

    join = '#race-list button[data-action="race-join"]'
    await rival.frame.wait_for_selector(join)
    await tab_to(rival.frame, join)
    assert await rival.frame.evaluate("document.activeElement.matches(':focus-visible')")
    await rival.page.keyboard.press("Enter")
    await until(lambda: phase_is(rival.frame, "lobby"), "the rival's lobby")
    await until(lambda: text_is(host.frame, "#race .capacity", "2/4 racers"), "the rival in the host's lobby")
    focused = "document.activeElement.dataset.action"
    assert await rival.frame.evaluate(focused) == "menu"  # never a Leave that one more Enter would press

    await rival.frame.click('#race button[data-action="race-leave"]')
    await until(lambda: rival.frame.evaluate("window.solitaireRush.snapshot().screen === 'menu'"), "the rival's menu")
    await until(lambda: text_is(host.frame, "#race .capacity", "1/4 racers"), "the rival gone from the lobby")
    assert await race_list(rival.frame) == ["Join Watch"]

    await host.frame.click('#race button[data-action="menu"]')
    await until(lambda: host.frame.evaluate("window.solitaireRush.snapshot().screen === 'menu'"), "the host's menu")
    assert await race_list(host.frame) == ["Open"]
    await host.frame.click('button[data-action="race-open"]')
    await until(lambda: host.answers("refused"), "the second open refused")  # the first open's toast may still show
    [refused] = host.answers("refused")
    await until(lambda: text_is(host.frame, ".toast", refused["reason"]), "the refusal in words")
    assert await host.frame.evaluate("window.solitaireRush.snapshot().screen") == "menu"

    await host.frame.click('#race-list button[data-action="race-show"]')
    await until(lambda: phase_is(host.frame, "lobby"), "the host's lobby again")
    await host.frame.click('#race button[data-action="race-cancel"]')
    await until(lambda: host.frame.evaluate("window.solitaireRush.snapshot().screen === 'menu'"), "the host's menu")
    await until(
        lambda: text_is(rival.frame, "#race-list", "No race open here. Open one and the others join with a tap."),
        "no race",
    )
    assert await race_list(host.frame) == []
    words = await host.frame.evaluate(
        """(async () => {
          const main = document.querySelector('script[type="module"]').src;
          const race = await import(new URL("app/views/standings.js", main).href);
          const places = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(race.placeWords);
          const ratings = [[1000, 1016.4], [1000, 969.6], [1000, 1000], [1000, null]].map(
            ([before, after]) => race.ratingWords({ rating_before: before, rating_after: after }));
          return { places, ratings };
        })()"""
    )
    assert words["places"] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "23rd",
        "101st",
        "111th",
    ]
    assert words["ratings"] == [
        '1016 <small class="gain">+16</small>',
        '970 <small class="loss">−30</small>',
        '1000 <small class="gain">±0</small>',
        "1000 <small>unrated</small>",
    ]
    for page in (host, rival):
        await page.context.close()


async def test_on_a_phone_a_race_joined_from_the_race_message_keeps_the_piles_on_screen_and_a_racer_leaves_it(
    browser: Browser, server: Activity, short_countdown: None
) -> None:
    message_of(server)
    host, rival = await pages(browser, server, "Rival", width=360, height=740)
    await host.frame.click('button[data-action="race-open"]')  # two racers
    await until(lambda: phase_is(host.frame, "lobby"), "the host's lobby")
    race_id = int(await state_of(host.frame, "s.race.id"))
    await server.stack.services.races.join(race_id, RIVAL)  # the race message's Join button
    for page in (host, rival):
        await until(lambda p=page: phase_is(p.frame, "countdown"), "the countdown")
    for page in (host, rival):
        await page.frame.wait_for_selector(".table .card", timeout=(COUNTDOWN + 3) * 1000)
        await page.frame.wait_for_selector("#opponents .rival")
    used = f'#opponents [data-racer="{RIVAL}"] .used'
    await until(lambda: text_is(host.frame, used, "0:01"), "the rival's time used counted from the start, no move yet")
    layout = await host.frame.evaluate(
        """(() => {
          const box = (el) => el.getBoundingClientRect();
          const strip = box(document.getElementById("opponents"));
          const piles = [...document.querySelectorAll(".pile")].map(box);
          const buttons = box(document.getElementById("toolbar"));
          return {strip: [strip.top, strip.bottom, strip.height], width: innerWidth, height: innerHeight,
                  piles: piles.map((p) => [p.left, p.right, p.top]), toolbar: buttons.bottom,
                  table: box(document.getElementById("table")).top};
        })()"""
    )
    assert layout["strip"][2] < 60 and layout["strip"][1] <= layout["table"]  # two lines at most
    assert len(layout["piles"]) == 7
    assert all(left >= 0 and right <= layout["width"] for left, right, _ in layout["piles"])
    assert all(top < layout["height"] / 2 for _, _, top in layout["piles"])
    assert layout["toolbar"] <= layout["height"]
    signed_again = Activity(server.stack, server.stack.player(server.player.user_id, name="Tester"))  # a new code
    again = await open_in_discord(browser, signed_again, width=360, height=740)  # the racer's page opened again
    await again.frame.click("button.resume")
    await again.frame.wait_for_selector("#opponents .rival")
    assert await state_of(again.frame, "s.game.id") == await state_of(host.frame, "s.game.id")
    await again.context.close()
    chips = await host.frame.evaluate(
        "[...document.querySelectorAll('#opponents .rival .who')].map((el) => el.textContent)"
    )
    assert sorted(chips) == ["Rival", "You"]
    await tab_to(host.frame, "#opponents .rivals-open")  # the standings by keyboard, and back to the board
    await host.page.keyboard.press("Enter")
    await until(lambda: phase_is(host.frame, "running"), "the host's standings")
    assert await host.frame.evaluate("document.activeElement.dataset.action") == "resume"
    await host.page.keyboard.press("Enter")
    await host.frame.wait_for_selector("#opponents .rival")

    await rival.frame.click("#opponents .rival")  # anywhere on the line
    await until(lambda: phase_is(rival.frame, "running"), "the rival's standings")
    await rival.frame.click('#race button[data-action="race-leave-ask"]')
    await rival.frame.wait_for_selector("#race .leave-words")
    await rival.frame.click('#race button[data-action="race-leave"]')
    left = f'#opponents [data-racer="{RIVAL}"] .tag'
    await until(lambda: text_is(host.frame, left, "left"), "the rival gone from the host's line")
    assert await phase(rival.frame) == "running" and rival.frames("race_leave")
    await end_game(host.frame)
    for page in (host, rival):
        await until(lambda p=page: phase_is(p.frame, "results"), "the results", 10.0)
    places = "[...document.querySelectorAll('#race .results tbody tr')].map((tr) => tr.dataset.racer)"
    assert await host.frame.evaluate(places) == [str(server.player.user_id), str(RIVAL)]
    assert await rival.frame.evaluate(places) == [str(server.player.user_id), str(RIVAL)]
    for page in (host, rival):
        await page.context.close()
