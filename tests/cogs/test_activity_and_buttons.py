"""The Activity and the buttons are two surfaces of the same games: one daily try, one game, moves seen on both."""

from __future__ import annotations

import pytest

from tests.support.activity_on_discord import discord_api, instant_daily_solver, page_of, settings
from tests.support.challenges_on_discord import open_challenge
from tests.support.challenges_on_discord import text as challenge_text
from tests.support.flows import row, start

__all__ = ["discord_api", "instant_daily_solver", "settings"]  # fixtures: the Activity on, instant dailies

pytestmark = pytest.mark.usefixtures("no_error_logs")


async def test_a_daily_played_on_the_page_is_not_played_again_with_the_command(
    simcord_env, guild, channel, alice, discord_api
):
    async with page_of(simcord_env, discord_api, guild, channel, alice) as page:
        assert page.welcome["menu"]["daily"]["played"] == []
        game = (await page.ask("start", variant="draw3", kind="daily"))["game"]
        assert game["kind"] == "daily" and game["deal"].startswith("daily ")
        await page.play(game, move="end")
        menu = (await page.ask("menu"))["menu"]
        assert menu["daily"]["played"] == ["draw3"]
    again = await alice.slash(channel, "solitaire daily", variant="draw3")
    assert again.response.ephemeral and again.response.content.startswith("You already played today's")
    await simcord_env.advance_time(1)
    [line] = [message.content for message in channel.history()]
    assert f"<@{alice.id}>" in line and "daily" in line.lower()  # the day's line is posted as for the buttons


async def test_a_daily_played_with_the_command_is_not_played_again_on_the_page(
    simcord_env, guild, channel, alice, discord_api
):
    await alice.slash(channel, "solitaire daily", variant="draw1")
    await alice.slash(channel, "solitaire end")
    async with page_of(simcord_env, discord_api, guild, channel, alice) as page:
        assert page.welcome["menu"]["daily"]["played"] == ["draw1"]
        refused = await page.ask("start", variant="draw1", kind="daily")
        assert refused["type"] == "refused" and refused["reason"].startswith("You already played today's")


async def test_a_game_started_with_buttons_continues_on_the_page_and_the_other_way_round(
    simcord_env, guild, channel, alice, discord_api
):
    board = await start(alice, channel, variant="draw3", deal=42)
    async with page_of(simcord_env, discord_api, guild, channel, alice) as page:
        running = page.welcome["menu"]["running"]
        assert running is not None and running["id"] == 1 and running["version"] == 0
        moved = await page.play(running, move="draw")
        assert moved["game"]["version"] == 1
    stale = await alice.click(board, label="Draw")  # the board message still shows version 0
    assert stale.response.ephemeral and "out of date" in stale.response.content
    assert (await row(simcord_env)).version == 1
    drawn = await alice.slash(channel, "solitaire draw")
    assert drawn.acknowledged
    async with page_of(simcord_env, discord_api, guild, channel, alice) as page:
        game = (await page.ask("resume"))["game"]
        assert game["version"] == 2
        stale_move = await page.play(running, move="undo")  # on the page's old board, version 0
        assert stale_move["type"] == "refused" and stale_move["game"]["version"] == 2
    assert (await row(simcord_env)).version == 2


async def test_a_move_made_elsewhere_is_pushed_to_the_open_page(simcord_env, guild, channel, alice, discord_api):
    await start(alice, channel, variant="draw3", deal=42)
    async with page_of(simcord_env, discord_api, guild, channel, alice) as page:
        session = simcord_env.bot.sessions.get(1)
        await simcord_env.bot.sessions.play(session, "draw")  # what a button does, without Discord's round trip
        pushed = await page.next()
        assert pushed["type"] == "game" and pushed["ref"] is None and pushed["game"]["version"] == 1
        await simcord_env.bot.sessions.expire(session)  # the clock
        ended = await page.next()
        assert ended["game"]["over"] is True and ended["game"]["status"] == "expired"
        assert "seed" in ended["game"]["deal"] or "deal #42" in ended["game"]["deal"]


async def test_a_game_ended_on_the_page_redraws_its_board_message(simcord_env, guild, channel, alice, discord_api):
    board = await start(alice, channel, variant="draw3", deal=42)
    async with page_of(simcord_env, discord_api, guild, channel, alice) as page:
        running = page.welcome["menu"]["running"]
        ended = await page.play(running, move="end")
        assert ended["game"]["over"] is True and ended["game"]["status"] == "ended"
    shown = simcord_env.backend.get_message(board.channel_id, board.id)
    assert "time runs out" not in shown.content and "deal #42" in shown.content


async def test_a_challenge_accepted_and_played_on_the_page_is_not_played_again_with_its_buttons(
    simcord_env, guild, channel, alice, bob, discord_api
):
    message = await open_challenge(alice, channel, bob)
    async with page_of(simcord_env, discord_api, guild, channel, bob) as page:
        [listed] = page.welcome["menu"]["challenges"]
        assert listed["id"] == 1 and listed["me"] == "named" and listed["challenger"]["id"] == str(alice.id)
        accepted = await page.ask("challenge_answer", challenge=1, accept=True)
        assert accepted["type"] == "menu" and accepted["menu"]["challenges"][0]["me"] == "accepted"
    await simcord_env.advance_time(3)
    assert f"<@{bob.id}> · accepted" in challenge_text(message)  # the public message shows the page's answer
    async with page_of(simcord_env, discord_api, guild, channel, bob) as page:
        game = (await page.ask("challenge_play", challenge=1))["game"]
        assert game["kind"] == "challenge" and game["deal"] == "challenge deal"
        ended = await page.play(game, move="end")
        assert ended["game"]["over"] is True
    again = await bob.click(message, label="Play")
    assert again.response.ephemeral
    assert again.response.content == "You have played your one attempt: the results come when the challenge closes."
    await simcord_env.advance_time(3)
    assert f"<@{bob.id}> · ✅ played" in challenge_text(message) and "pts" not in challenge_text(message)


async def test_a_challenge_played_with_its_buttons_is_not_played_again_on_the_page(
    simcord_env, guild, channel, alice, bob, discord_api
):
    message = await open_challenge(alice, channel, bob)
    board = (await bob.click(message, label="Play")).response
    await bob.click(board, label="End game")
    async with page_of(simcord_env, discord_api, guild, channel, bob) as page:
        [listed] = page.welcome["menu"]["challenges"]
        assert listed["me"] == "played" and listed["can_play"] is False
        assert [player["score"] for player in listed["players"]] == [None, None]  # hidden until it closes
        refused = await page.ask("challenge_play", challenge=1)
        assert refused["type"] == "refused" and refused["reason"].startswith("You have played your one attempt")
        declined = await page.ask("challenge_answer", challenge=1, accept=False)
        assert declined["type"] == "refused" and declined["reason"] == "You already played it."


async def test_a_member_banned_from_the_server_is_closed_out_of_the_activity(
    simcord_env, guild, channel, alice, bob, discord_api
):
    async with (
        page_of(simcord_env, discord_api, guild, channel, alice) as banned,
        page_of(simcord_env, discord_api, guild, channel, bob) as staying,
    ):
        simcord_env.backend.apply_ban(guild.id, alice.id, "cheating")
        bye = await banned.next()  # the page reads while the bot hears of the ban
        assert bye == {"type": "bye", "reason": "you were banned from this server", "final": True}
        assert (await banned.next())["type"] == "closed" and banned.ws.close_code == 4403
        assert (await staying.ask("menu"))["type"] == "menu"
