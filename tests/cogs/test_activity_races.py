"""A race opened in the Activity has its public message: joined with its button by a member outside the Activity."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.activity.races import NO_MESSAGE
from tests.support.activity_on_discord import discord_api, instant_daily_solver, page_of, settings
from tests.support.races_on_discord import text

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["discord_api", "instant_daily_solver", "settings"]


def race_message_of(channel: Any) -> Any:
    """The channel's race message (the newest message with an embed)."""
    return next(message for message in channel.history() if message.embeds)


async def test_a_page_opens_a_race_a_button_joins_it_and_the_message_shows_the_page_racers(
    simcord_env, guild, channel, alice, bob, carol, discord_api
):
    async with page_of(simcord_env, discord_api, guild, channel, alice) as page:
        opened = await page.ask("race_open", variant="draw3", racers=3)
        assert opened["type"] == "race" and opened["words"] is None
        race_id = opened["race"]["id"]
    message = race_message_of(channel)
    assert "Race lobby" in text(message) and f"<@{alice.id}> (host)" in text(message)
    assert await simcord_env.bot.races.message_of(race_id) == message.id

    joined = await bob.click(message, label="Join")
    assert not joined.response.ephemeral, joined.response.content
    async with page_of(simcord_env, discord_api, guild, channel, carol) as page:
        menu_race = page.welcome["menu"]["races"][0]
        assert [r["id"] for r in menu_race["racers"]] == [str(alice.id), str(bob.id)]
        started = await page.ask("race_join", race=race_id)
        assert started["race"]["status"] == "running"
    for _ in range(10):  # the page's join is shown on the message in the background (throttled as the standings)
        await simcord_env.advance_time(1)
        shown = text(race_message_of(channel))
        if f"<@{carol.id}>" in shown:
            break
    assert "🏁 Race" in shown and f"<@{carol.id}>" in shown and f"<@{bob.id}>" in shown


async def test_a_race_message_discord_refuses_leaves_the_race_on_the_page_and_says_so(
    simcord_env, guild, channel, alice, discord_api, caplog
):
    simcord_env.inject_error("POST", "/channels/*/messages", status=403, code=50013, times=None)
    with caplog.at_level(logging.WARNING):
        async with page_of(simcord_env, discord_api, guild, channel, alice) as page:
            opened = await page.ask("race_open", variant="draw3", racers=2)
            assert opened["type"] == "race" and opened["race"]["status"] == "lobby"
            assert opened["words"] == NO_MESSAGE
    assert await simcord_env.bot.races.message_of(opened["race"]["id"]) is None
    assert any("could not post the message of race" in record.getMessage() for record in caplog.records)
