"""The competition's edges on (simulated) Discord: late finishers, failed posts, channel permissions, zone changes."""

from __future__ import annotations

from datetime import UTC, datetime

import discord
import pytest

from bot.storage import competition as competition_db
from tests.support.competition import START_DAY, advance_to, attempt, daily, end, instant_daily_solver, public

__all__ = ["instant_daily_solver"]  # the command tests' instant daily solver, used here too

pytestmark = pytest.mark.usefixtures("no_error_logs")


def podiums_in(channel) -> list[str]:
    return [line for line in public(channel) if line.startswith("**Daily podium")]


async def test_a_late_finisher_is_on_the_one_podium_of_their_day(simcord_env, guild, channel, admin, alice, bob):
    podiums = guild.create_text_channel("podium")
    await admin.slash(channel, "solitaire config channel", channel=podiums)
    await daily(bob, channel)
    await simcord_env.advance_time(42)
    await end(bob, channel)  # 0 points in 0:42
    await advance_to(simcord_env, datetime(2026, 1, 1, 23, 58, tzinfo=UTC))
    board = await daily(alice, channel)
    assert f"daily {START_DAY}" in board.content
    await alice.click(board, label="All up")
    await advance_to(simcord_env, datetime(2026, 1, 2, 0, 0, 30, tzinfo=UTC))
    assert podiums_in(podiums) == []  # alice is still playing the 1 January deal
    await end(alice, channel)
    score = (await attempt(simcord_env, guild, alice)).score
    assert score > 0
    await advance_to(simcord_env, datetime(2026, 1, 2, 1, 0, tzinfo=UTC))
    [podium] = podiums_in(podiums)
    assert podium.splitlines() == [
        f"**Daily podium for {START_DAY}**",
        "__Solitaire Rush (draw 3)__",
        f"🥇 <@{alice.id}> — **{score}** in 2:30",
        f"🥈 <@{bob.id}> — **0** in 0:42",
    ]
    alice_line = next(line for line in public(podiums) if line.startswith(f"<@{alice.id}> scored"))
    assert alice_line.endswith("rank 1 of 2")  # the line and the podium agree


async def test_a_failed_podium_post_is_retried_and_posted_once(simcord_env, guild, channel, admin, alice, make_bot):
    podiums = guild.create_text_channel("podium")
    await admin.slash(channel, "solitaire config channel", channel=podiums)
    await daily(alice, channel)
    await end(alice, channel)
    await advance_to(simcord_env, datetime(2026, 1, 1, 23, 59, tzinfo=UTC))
    simcord_env.inject_error("POST", f"/channels/{podiums.id}/messages", status=503, times=2)
    await advance_to(simcord_env, datetime(2026, 1, 2, 0, 0, 1, tzinfo=UTC))
    assert podiums_in(podiums) == []
    await simcord_env.restart_bot(make_bot())  # the retry survives a restart
    await advance_to(simcord_env, datetime(2026, 1, 2, 1, 0, tzinfo=UTC))
    assert len(podiums_in(podiums)) == 1
    await advance_to(simcord_env, datetime(2026, 1, 2, 6, 0, tzinfo=UTC))
    assert len(podiums_in(podiums)) == 1


async def test_a_channel_the_bot_cannot_send_to_is_refused_naming_the_permission(simcord_env, guild, channel, admin):
    locked = guild.create_text_channel(
        "locked", overwrites={guild.default_role: discord.PermissionOverwrite(send_messages=False)}
    )
    refused = await admin.slash(channel, "solitaire config channel", channel=locked)
    assert refused.response.ephemeral
    assert "Send Messages" in refused.response.content
    assert (await competition_db.guild_config(simcord_env.bot.db, guild.id)).channel_id is None


async def test_a_forbidden_post_marks_the_channel_and_the_next_config_shows_it(
    simcord_env, guild, channel, admin, alice
):
    podiums = guild.create_text_channel("podium")
    await admin.slash(channel, "solitaire config channel", channel=podiums)
    simcord_env.inject_error("POST", f"/channels/{podiums.id}/messages", status=403, code=50013, times=None)
    await daily(alice, channel)
    await end(alice, channel)
    shown = await admin.slash(channel, "solitaire config timezone", timezone="UTC")
    assert shown.response.ephemeral
    assert f"could not post in <#{podiums.id}>" in shown.response.content


async def test_a_time_zone_change_mid_day_gives_nobody_a_second_daily(simcord_env, guild, channel, admin, alice, bob):
    await advance_to(simcord_env, datetime(2026, 1, 1, 20, 0, tzinfo=UTC))
    await daily(alice, channel)
    await end(alice, channel)
    await admin.slash(channel, "solitaire config timezone", timezone="Asia/Tokyo")  # 05:00 on 2 January there
    again = await daily(alice, channel)
    assert again.ephemeral and again.content.startswith("You already played today's")
    bob_board = await daily(bob, channel)  # bob still gets his 1 January daily
    assert f"daily {START_DAY}" in bob_board.content
    await end(bob, channel)
    await advance_to(simcord_env, datetime(2026, 1, 2, 0, 0, 1, tzinfo=UTC))  # UTC midnight: the new zone applies
    tomorrow = await daily(alice, channel)
    assert "daily 2026-01-02" in tomorrow.content
    await end(alice, channel)
    await advance_to(simcord_env, datetime(2026, 1, 2, 14, 59, tzinfo=UTC))  # 23:59 in Tokyo: still 2 January
    refused = await daily(alice, channel)
    assert refused.content.startswith("You already played today's")
    await advance_to(simcord_env, datetime(2026, 1, 2, 15, 0, 1, tzinfo=UTC))
    assert "daily 2026-01-03" in (await daily(alice, channel)).content
