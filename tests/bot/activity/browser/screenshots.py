"""Pictures of the Activity page for the docs: each game at desktop and phone size, and a drag with lit targets.

Run ``python -m tests.bot.activity.browser.screenshots`` (the test extra, and Chromium at /usr/bin/chromium): it
plays a few moves of each game through the page, on the real server over a temporary database, and writes
``docs/images/activity-<variant>-<desktop|phone>.png``, ``docs/images/activity-drag-desktop.png`` and
``docs/images/activity-pip.png`` (a draw 3 game in a 280x200 picture-in-picture tile),
``docs/images/activity-challenges-<desktop|phone>.png`` (a menu listing three challenges: one to answer, one
waiting for the others, its score hidden, and one closed with its results), and a race between two pages
at desktop and phone size: ``docs/images/activity-race-<lobby|countdown|running|watching|results>-<desktop|phone>.png``
(watching: a third member's page, the standings without a board).

``python -m tests.bot.activity.browser.screenshots --language de`` instead pictures the page at phone size
(390x844) said in one language (a catalogue's code: ``de``, ``fr``, ``es_ES``, ``pt_BR``, or ``pseudo``, the
tests' long accented one, to see long words in their boxes): ``docs/images/activity-<code>-phone.png`` (the menu,
with a challenge to answer and a race open), ``activity-<code>-game-phone.png`` (a game a few moves in) and
``activity-<code>-race-phone.png`` (a racer's standings in a race); ``--out FOLDER`` writes them there instead.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import tempfile
from pathlib import Path

from PIL import Image
from playwright.async_api import Browser, Frame, Page, async_playwright

from bot.compete.race import RaceSnapshot
from languages import Language, find
from tests.bot.activity.browser.conftest import ARGS, CHROMIUM, Activity, Opened, open_in_discord
from tests.support.activity_stack import CHANNEL, GUILD, Stack, activity_stack

IMAGES = Path(__file__).resolve().parents[4] / "docs" / "images"
SIZES = {"desktop": (1280, 800), "phone": (360, 740), "pip": (280, 200), "language": (390, 844)}
"""The page's sizes; the pictures of every variant are at desktop and phone size, the tile's of draw 3 only."""
VARIANTS = ("draw3", "draw1", "goldrush", "friday13")
MOVES = 10
players = itertools.count(100)


async def game_on_show(browser: Browser, stack: Stack, variant: str, size: str) -> Opened:
    """A new player's page at ``size`` with a casual game of ``variant`` started and a few moves played."""
    activity = Activity(stack, stack.player(next(players), name="Tester"))
    opened = await open_in_discord(browser, activity, width=SIZES[size][0], height=SIZES[size][1])
    frame = opened.frame
    await frame.click(f'button[data-variant="{variant}"][data-kind="casual"]')
    await frame.wait_for_selector(".table .card")
    for _ in range(MOVES):
        await play_one(frame)
    await frame.evaluate("window.solitaireRush.hideToast()")
    return opened


async def play_one(frame: Frame) -> None:
    """Tap the first card that has a move (its lit place if the server asks), else the stock."""
    state = "window.solitaireRush.snapshot()"
    version = await frame.evaluate(f"{state}.game.version")
    move = await frame.evaluate(f"{state}.game.legal_moves.find((m) => m.includes('-') && !m.startsWith('f'))")
    if move is None:
        await frame.click('[data-slot="stock"]')
    else:
        source, target = move.split("-")
        await frame.click(f'[data-slot="{source}"] .card.face:last-child')
        await frame.wait_for_function(f"{state}.game.version > {version} || {state}.lit.length > 0")
        if await frame.evaluate(f"{state}.lit.length > 0"):
            await frame.click(f'[data-slot="{target}"]' if target != "f" else ".slot.lit")
    await frame.wait_for_function(f"{state}.game.version > {version}")
    await frame.wait_for_timeout(250)


async def play_up(opened: Opened) -> None:
    """A racer's move: a card up, else the waste's top card to a pile, else a pile's face-up run dragged where it
    turns up a hidden card, else a draw."""
    frame = opened.frame
    state = "window.solitaireRush.snapshot()"
    version = await frame.evaluate(f"{state}.game.version")
    moves = f"{state}.game.legal_moves"
    tap = await frame.evaluate(
        f"{moves}.find((m) => /^([1-7]|w)-f$/.test(m)) || {moves}.find((m) => /^w-[1-7]$/.test(m))"
    )
    turns = f"{moves}.find((m) => /^[1-7]-[1-7]$/.test(m) && {state}.game.tableau[m[0] - 1].hidden > 0)"
    run = None if tap else await frame.evaluate(turns)
    if tap:
        source, target = tap.split("-")
        await frame.click(f'[data-slot="{source}"] .card.face:last-child')
        await frame.wait_for_function(f"{state}.game.version > {version} || {state}.lit.length > 0")
        if await frame.evaluate(f"{state}.lit.length > 0"):
            await frame.click(f'[data-slot="{target}"]')
    elif run:
        source, target = run.split("-")
        first = await frame.query_selector(f'[data-slot="{source}"] .card.face')
        onto = await frame.query_selector(f'[data-slot="{target}"] .card.face:last-child')
        assert first is not None and onto is not None
        start, end = await first.bounding_box(), await onto.bounding_box()
        assert start is not None and end is not None
        mouse = opened.page.mouse
        await mouse.move(start["x"] + start["width"] / 2, start["y"] + 8)
        await mouse.down()
        await mouse.move(end["x"] + end["width"] / 2, end["y"] + 16, steps=6)
        await mouse.up()
        await frame.wait_for_timeout(400)
        if await frame.evaluate(f"{state}.game.version === {version}"):  # refused: flew back
            await frame.click('[data-slot="stock"]')
    else:
        await frame.click('[data-slot="stock"]')
    await frame.wait_for_function(f"{state}.game.version > {version}")


async def picture(page: Page, name: str, folder: Path = IMAGES) -> None:
    """Screenshot the page into ``folder/name`` (``docs/images``), in 256 colours (a tenth of the bytes of full
    colour)."""
    path = folder / name
    await page.screenshot(path=path)
    with Image.open(path) as shot:
        shot.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
            path, optimize=True
        )


async def drag_picture(browser: Browser, stack: Stack) -> None:
    """A card in hand over the table, its places lit."""
    opened = await game_on_show(browser, stack, "draw3", "desktop")
    frame = opened.frame
    move = await frame.evaluate(
        "window.solitaireRush.snapshot().game.legal_moves.find((m) => /^([1-7]|w)-/.test(m)) || ''"
    )
    source = move.split("-")[0] if move else "1"
    cards = await frame.query_selector_all(f'[data-slot="{source}"] .card.face')
    box = await cards[-1 if source == "w" else 0].bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + 12
    await opened.page.mouse.move(x, y)
    await opened.page.mouse.down()
    await opened.page.mouse.move(x + 60, y + 140, steps=6)
    await opened.page.wait_for_timeout(100)
    await picture(opened.page, "activity-drag-desktop.png")
    await opened.page.mouse.up()
    await opened.context.close()


async def challenge(stack: Stack, by: int, *named: int, variant: str = "draw3", hours: int = 24) -> int:
    """A challenge opened and shown (as ``/solitaire challenge`` does); its id."""
    service = stack.services.challenges
    snapshot = await service.open(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=by, variant=variant, opponents=list(named), hours=hours
    )
    await service.set_message(snapshot.challenge.id, 800 + snapshot.challenge.id)
    return snapshot.challenge.id


async def attempt(stack: Stack, challenge_id: int, user_id: int, moves: int) -> None:
    """``user_id`` plays their attempt: a few moves (a card move where there is one, else a draw), then End."""
    service, sessions = stack.services.challenges, stack.services.sessions
    session = await service.play(challenge_id, user_id)
    for _ in range(moves):
        cards = [str(move) for move in session.game.legal_moves() if "-" in str(move)]
        await sessions.play(session, cards[0] if cards else "draw", version=session.game.version)
        if session.view().is_over:
            return
    await sessions.play(session, "end", version=session.game.version)


async def challenges_picture(browser: Browser, stack: Stack, size: str) -> None:
    """The menu of a member in three challenges: one to answer, one of theirs played, one closed."""
    me, alice, bob, carol = next(players), next(players), next(players), next(players)
    stack.names.update({me: "Tester", alice: "Alice", bob: "Bob", carol: "Carol"})
    closed = await challenge(stack, bob, me, variant="goldrush")
    await attempt(stack, closed, bob, 12)
    await attempt(stack, closed, me, 4)
    await stack.services.challenges.settle()
    mine = await challenge(stack, me, alice, carol, variant="draw1", hours=6)
    await attempt(stack, mine, me, 2)
    await stack.services.challenges.answer(mine, carol, "accepted")
    await challenge(stack, alice, me, bob)
    activity = Activity(stack, stack.player(me, name="Tester"))
    opened = await open_in_discord(browser, activity, width=SIZES[size][0], height=SIZES[size][1])
    await opened.frame.wait_for_selector(".challenge.closed")
    await opened.page.wait_for_timeout(250)
    await picture(opened.page, f"activity-challenges-{size}.png")
    await opened.context.close()


async def race_message(snapshot: RaceSnapshot) -> int:
    """Stand in for the cog posting the race message (its id)."""
    return snapshot.race.id


async def race_pictures(browser: Browser, stack: Stack, size: str) -> None:
    """A race of two new players at ``size``, pictured on the host's page (lobby, countdown, running, results) and
    on a third member's page watching it."""
    width, height = SIZES[size]
    stack.services.races.post_message = race_message
    members = [Activity(stack, stack.player(next(players), name=name)) for name in ("Ada", "Grace", "Lin")]
    ada, grace, lin = await asyncio.gather(
        *(open_in_discord(browser, who, width=width, height=height) for who in members)
    )
    await ada.frame.select_option("#race-variant", "draw3")
    await ada.frame.select_option("#race-size", "4")
    await ada.frame.click('button[data-action="race-open"]')
    await grace.frame.click('#race-list button[data-action="race-join"]')
    await ada.frame.wait_for_selector("#race .lobby-racers li:nth-child(2)")
    await picture(ada.page, f"activity-race-lobby-{size}.png")
    await ada.frame.click('#race button[data-action="race-start"]')
    await ada.frame.wait_for_selector('#race[data-phase="countdown"]')
    await ada.page.wait_for_timeout(1200)
    await picture(ada.page, f"activity-race-countdown-{size}.png")
    for opened in (ada, grace):
        await opened.frame.wait_for_selector(".table .card", timeout=15000)
    for _ in range(2 * MOVES):
        await play_up(grace)
    for _ in range(MOVES):
        await play_up(ada)
    await ada.page.wait_for_timeout(1500)
    await ada.frame.evaluate("window.solitaireRush.hideToast()")
    await picture(ada.page, f"activity-race-running-{size}.png")
    await lin.frame.click('#race-list button[data-action="race-show"]')
    await lin.frame.wait_for_selector('#race[data-phase="running"] .standings')
    await picture(lin.page, f"activity-race-watching-{size}.png")
    for opened in (grace, ada):
        await opened.frame.click("#btn-end")
        await opened.frame.click("#confirm-yes")
    await ada.frame.wait_for_selector('#race[data-phase="results"]', timeout=15000)
    await picture(ada.page, f"activity-race-results-{size}.png")
    for opened in (ada, grace, lin):
        await opened.context.close()


async def language_pictures(browser: Browser, stack: Stack, language: Language, folder: Path) -> None:
    """The menu, a game and a race at phone size, said in ``language`` (each member here chose it)."""
    width, height = SIZES["language"]
    stack.services.races.post_message = race_message
    stack.services.races.starts.countdown = 2.0
    me, rival, other = next(players), next(players), next(players)
    stack.names.update({me: "Tester", rival: "Grace", other: "Lin"})
    for user_id in (me, rival):
        await stack.services.speakers.choose_for_member(user_id, language)
    await challenge(stack, rival, me)
    host, racer = (Activity(stack, stack.player(user_id, name=stack.names[user_id])) for user_id in (me, rival))
    mine, theirs = await asyncio.gather(
        *(open_in_discord(browser, who, width=width, height=height) for who in (host, racer))
    )
    await theirs.frame.click('button[data-action="race-open"]')
    await mine.frame.wait_for_selector(".challenge")
    await mine.frame.wait_for_selector("#race-list .race-item")
    await mine.page.wait_for_timeout(250)
    await picture(mine.page, f"activity-{language.code}-phone.png", folder)
    solo = Activity(stack, stack.player(other, name="Lin"))
    await stack.services.speakers.choose_for_member(other, language)
    lin = await open_in_discord(browser, solo, width=width, height=height)
    await lin.frame.click('button[data-variant="draw3"][data-kind="casual"]')
    await lin.frame.wait_for_selector(".table .card")
    for _ in range(MOVES):
        await play_one(lin.frame)
    await lin.frame.evaluate("window.solitaireRush.hideToast()")
    await picture(lin.page, f"activity-{language.code}-game-phone.png", folder)
    await mine.frame.click('#race-list button[data-action="race-join"]')
    for opened in (mine, theirs):
        await opened.frame.wait_for_selector(".table .card", timeout=15000)
    for _ in range(MOVES // 2):
        await play_up(theirs)
        await play_up(mine)
    await mine.frame.click("#opponents .rivals-open")
    await mine.frame.wait_for_selector('#race[data-phase="running"] .standings')
    await mine.page.wait_for_timeout(1500)
    await mine.frame.evaluate("window.solitaireRush.hideToast()")
    await picture(mine.page, f"activity-{language.code}-race-phone.png", folder)
    for opened in (mine, theirs, lin):
        await opened.context.close()


async def main() -> None:
    """Write every picture (``--language``: the pictures of one language)."""
    parser = argparse.ArgumentParser(description="Pictures of the Activity page for the docs.")
    parser.add_argument("--language", help="picture the page at phone size in this language (de, pseudo ...)")
    parser.add_argument("--out", type=Path, default=IMAGES, help="the folder to write into (docs/images)")
    arguments = parser.parse_args()
    if arguments.language is not None:
        language = find(arguments.language)
        if language is None:
            parser.error(f"no language {arguments.language!r}: a catalogue's code (de, fr, es_ES, pt_BR, pseudo)")
        arguments.out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as folder:
            async with activity_stack(Path(folder) / "activity.db") as stack, async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                await language_pictures(browser, stack, language, arguments.out)
                await browser.close()
        return
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        async with activity_stack(Path(folder) / "activity.db") as stack, async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            for variant in VARIANTS:
                for size in ("desktop", "phone"):
                    opened = await game_on_show(browser, stack, variant, size)
                    await picture(opened.page, f"activity-{variant}-{size}.png")
                    await opened.context.close()
            await drag_picture(browser, stack)
            opened = await game_on_show(browser, stack, "draw3", "pip")
            await picture(opened.page, "activity-pip.png")
            await opened.context.close()
            for size in ("desktop", "phone"):
                await challenges_picture(browser, stack, size)
                await race_pictures(browser, stack, size)
            await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
