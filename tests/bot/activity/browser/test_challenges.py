"""A challenge in a real Chromium: listed on the menu, accepted and played from the page, the other score hidden."""

from __future__ import annotations

from typing import Any

import pytest

from bot.compete.challenges import ChallengeService
from tests.bot.activity.browser.conftest import USER, Activity, open_in_discord, state_of, until
from tests.support.activity_stack import CHANNEL, GUILD

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")
from playwright.async_api import Browser

pytestmark = pytest.mark.asyncio(loop_scope="session")
ALICE = 77


async def alice_challenges(server: Activity, *, show_scores: bool = False) -> int:
    """Alice challenges the page's player (as ``/solitaire challenge`` does, its message shown); the id."""
    service = server.stack.services.challenges
    server.stack.names[ALICE] = "Alice"
    server.stack.names[USER] = "Tester"
    snapshot = await service.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        variant="draw3",
        opponents=[USER],
        show_scores=show_scores,
    )
    await service.set_message(snapshot.challenge.id, 900)
    return snapshot.challenge.id


async def alice_plays(service: ChallengeService, challenge_id: int) -> int:
    """Alice plays her attempt on the buttons' side: one draw, then End; her score."""
    session = await service.play(challenge_id, ALICE)
    sessions = service.sessions
    await sessions.play(session, "draw", version=0)
    outcome = await sessions.play(session, "end", version=1)
    assert outcome.finished is not None
    return outcome.finished.score


def alices_scores(frames: list[dict[str, Any]], challenge_id: int) -> list[tuple[bool, int | None]]:
    """Whether the challenge was closed, and Alice's score on it, in every menu the page received."""
    menus = [frame["menu"] for frame in frames if frame.get("type") in ("welcome", "menu")]
    return [
        (item["closed"], player["score"])
        for menu in menus
        for item in menu["challenges"]
        if item["id"] == challenge_id
        for player in item["players"]
        if player["id"] == str(ALICE)
    ]


async def test_a_challenge_is_accepted_and_played_from_the_page_the_other_score_hidden_until_the_close(
    browser: Browser, server: Activity
) -> None:
    challenge_id = await alice_challenges(server)
    opened = await open_in_discord(browser, server)
    frame = opened.frame
    card = f'.challenge[data-challenge="{challenge_id}"]'
    await frame.wait_for_selector(card)
    assert "from Alice" in await frame.inner_text(card)
    await frame.click(f'{card} button[data-what="accept"]')
    await frame.wait_for_selector(f'{card} li.you >> text="accepted · not played yet"')
    assert await frame.locator(f'{card} button[data-what="accept"]').count() == 0  # accepted: Play and Decline
    await frame.click(f'{card} button[data-what="play"]')
    await frame.wait_for_selector(".table .card")
    assert await state_of(frame, "s.game.kind") == "challenge"
    await frame.click("#btn-draw")
    await until(lambda: state_of(frame, "s.game.version === 1"), "the draw played")
    await frame.click("#btn-end")
    await frame.click("#confirm-yes")
    await frame.wait_for_selector("#result:not([hidden])")
    mine = int(await state_of(frame, "s.game.score"))
    await frame.click('#result button[data-action="menu"]')
    await frame.wait_for_selector(f'{card} li.you >> text="✓ played · score hidden"')
    assert await frame.locator(f"{card} button").count() == 0  # the one attempt is played
    alice = await alice_plays(server.stack.services.challenges, challenge_id)
    await server.stack.services.challenges.settle()
    await frame.wait_for_selector(f"{card}.closed", timeout=5000)  # the close is pushed to the open menu
    shown = await frame.inner_text(card)
    assert f"{alice} pts" in shown and f"{mine} pts" in shown
    scores = alices_scores(opened.received, challenge_id)
    assert all(score is None for closed, score in scores if not closed) and len(scores) >= 4
    assert scores[-1] == (True, alice)
    await opened.context.close()


async def test_a_second_play_from_the_page_is_refused_in_the_services_words(browser: Browser, server: Activity) -> None:
    challenge_id = await alice_challenges(server)
    opened = await open_in_discord(browser, server, width=360, height=740)
    frame = opened.frame
    card = f'.challenge[data-challenge="{challenge_id}"]'
    await frame.click(f'{card} button[data-what="play"]')  # Play accepts the invitation too
    await frame.wait_for_selector(".table .card")
    sessions = server.stack.services.sessions
    session = sessions.get(int(await state_of(frame, "s.game.id")))
    assert session is not None
    await sessions.play(session, "end")  # ended elsewhere (the buttons' End)
    await frame.wait_for_selector("#result:not([hidden])")
    await frame.evaluate(f"window.solitaireRush.request({{type: 'challenge_play', challenge: {challenge_id}}})")
    await until(lambda: bool(opened.answers("refused")), "the refusal")
    assert opened.answers("refused")[-1]["reason"].startswith("You have played your one attempt")
    await opened.context.close()


async def test_a_refusal_reads_without_discords_markup(browser: Browser, server: Activity) -> None:
    service = server.stack.services.challenges
    snapshot = await service.open(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=USER, variant="draw3", opponents=[ALICE]
    )
    await service.set_message(snapshot.challenge.id, 901)
    opened = await open_in_discord(browser, server)
    frame = opened.frame
    card = f'.challenge[data-challenge="{snapshot.challenge.id}"]'
    await frame.wait_for_selector(card)
    assert await frame.locator(f'{card} button[data-what="accept"]').count() == 0  # the challenger's: Play alone
    await frame.evaluate(  # an Accept the page does not offer the challenger (a forged click) is sent anyway
        f"""document.querySelector('{card} .challenge-buttons').insertAdjacentHTML('beforeend',
        '<button type="button" data-action="challenge" data-what="accept" data-challenge="{snapshot.challenge.id}"'
        + ' id="forged">Accept</button>')"""
    )
    await frame.click("#forged")
    await frame.wait_for_selector("#toast:not([hidden])")
    assert await frame.inner_text("#toast") == "You made this challenge: press Play when you are ready."
    assert opened.answers("refused")[-1]["reason"] == "You made this challenge: press **Play** when you are ready."
    await opened.context.close()
