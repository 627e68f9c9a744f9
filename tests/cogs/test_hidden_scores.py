"""A hidden score stays hidden everywhere (stats, the stats card's alt text, the boards) until its competition ends."""

from __future__ import annotations

from typing import Any

import pytest

from bot.compete import race as races
from tests.support.challenges_on_discord import attempt, open_challenge
from tests.support.challenges_on_discord import text as challenge_text
from tests.support.races_on_discord import advance, click, open_board, open_race, simcord_bot, win_by_clicks
from tests.support.races_on_discord import text as race_text

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["simcord_bot"]  # the race tests' bot: the easy deck to every race and challenge


async def shown_of(viewer: Any, channel: Any, member: Any) -> str:
    """What ``/solitaire stats member:`` and the casual and daily boards show, the stats card's alt text included."""
    stats = (await viewer.slash(channel, "solitaire stats", member=member)).response
    parts = [stats.embeds[0].description, stats.attachments[0].description]
    for games in ("casual", "daily"):
        board = await viewer.slash(channel, "solitaire leaderboard", variant="draw3", period="all", games=games)
        parts.append(board.response.embeds[0].description)
    return "\n".join(parts)


def shows_nothing_of(shown: str, member: Any) -> bool:
    """Whether ``shown`` tells nothing of ``member``'s games: no game counted, no score, not on a board."""
    return (
        f"<@{member.id}> has not finished a game here yet." in shown
        and "1 game" not in shown
        and "% won, best" not in shown
        and f"<@{member.id}> ·" not in shown
    )


async def test_a_hidden_challenge_score_shows_nowhere_until_the_challenge_closes(
    simcord_env, channel, alice, bob, carol
):
    message = await open_challenge(alice, channel, bob)
    await attempt(bob, message)
    await simcord_env.advance_time(3)
    assert f"<@{bob.id}> · ✅ played" in challenge_text(message)  # the challenge itself hides the score
    assert shows_nothing_of(await shown_of(carol, channel, bob), bob)
    assert shows_nothing_of(await shown_of(bob, channel, bob), bob)  # not even to the player, in public stats
    await attempt(alice, message)  # the last attempt: the challenge closes
    await simcord_env.advance_time(3)
    assert "Challenge results" in challenge_text(message)
    shown = await shown_of(carol, channel, bob)
    assert f"<@{bob.id}>: 1 game, 0 wins (0%)" in shown and "1 game, 0% won, best 1,351." in shown


async def test_an_open_challenge_shows_its_scores_as_they_come(simcord_env, channel, alice, bob, carol):
    message = await open_challenge(alice, channel, bob, open=True)
    await attempt(bob, message)
    await simcord_env.advance_time(3)
    assert "pts" in challenge_text(message)
    assert "1 game, 0% won, best 1,351." in await shown_of(carol, channel, bob)


async def test_a_running_races_games_show_nowhere_until_the_race_is_over(simcord_env, channel, alice, bob, carol):
    simcord_env.settle_timeout = 1.5
    lobby = await open_race(alice, channel, variant="draw3", players=2)
    await click(bob, lobby, "Join")
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    bob_board = await open_board(bob, lobby)
    await win_by_clicks(alice, await open_board(alice, lobby))  # alice's game is over, the race runs on
    await simcord_env.advance_time(3)
    assert "Race results" not in race_text(lobby)
    assert shows_nothing_of(await shown_of(carol, channel, alice), alice)
    await bob.click(bob_board, label="All up")
    await bob.click(bob_board, label="End game")  # the last game ends: the race is over
    await advance(simcord_env, 10)
    assert "Race results" in race_text(lobby)
    shown = await shown_of(carol, channel, alice)
    assert f"<@{alice.id}>: 1 game, 1 win (100%)" in shown and "1 game, 100% won, best " in shown
