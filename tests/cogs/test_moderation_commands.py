"""``/solitaire forget-me`` and ``/solitaire moderate remove-results`` on (simulated) Discord."""

from __future__ import annotations

import asyncio
import math
from datetime import UTC, datetime
from typing import Any

import discord
import pytest
from simcord.actors import _component_interaction

from bot.storage import moderation
from cogs.moderation_commands import ALREADY_DONE, EXPIRED
from tests.support.competition import advance_to
from tests.support.easy_daily import instant_daily
from tests.support.privacy import rows_holding

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["instant_daily"]  # the way-in tests' daily, solved at once (an easy deck)


@pytest.fixture
def admin(simcord_env, guild):
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("root"), roles=[admins])


async def play_daily(actor: Any, channel: Any) -> None:
    started = await actor.slash(channel, "solitaire daily", variant="draw3")
    assert started.response is not None and started.response.ephemeral, started
    ended = await actor.slash(channel, "solitaire end")
    assert "game is over" in ended.response.content


async def private(actor: Any, channel: Any, name: str, **options: Any) -> Any:
    result = await actor.slash(channel, name, **options)
    assert result.response is not None and result.response.ephemeral, result
    return result.response


async def board_lines(actor: Any, channel: Any) -> list[str]:
    result = await actor.slash(channel, "solitaire leaderboard", variant="draw3", period="today")
    lines = (result.response.embeds[0].description or "").splitlines()
    return [line for line in lines if "<@" in line]


# -- forget-me ---------------------------------------------------------------------------
async def test_forget_me_asks_then_deletes_everything_of_the_member_only(simcord_env, channel, alice, bob):
    await play_daily(alice, channel)
    await play_daily(bob, channel)
    await alice.slash(channel, "solitaire settings", four_colour=True)
    bob_held = await rows_holding(simcord_env.bot.db, bob.id)

    ask = await private(alice, channel, "solitaire forget-me")
    assert "cannot be undone" in ask.content
    assert await rows_holding(simcord_env.bot.db, alice.id) != []  # nothing happens before the click
    done = (await alice.click(ask, label="Forget me")).response

    assert done.content.startswith("Done: I deleted your 1 game(s)")
    assert await rows_holding(simcord_env.bot.db, alice.id) == []
    assert await rows_holding(simcord_env.bot.db, bob.id) == bob_held
    assert await board_lines(bob, channel) == [f"🥇 <@{bob.id}> — **0** in 0:00"]


async def test_forget_me_cancelled_changes_nothing(simcord_env, channel, alice):
    await play_daily(alice, channel)
    held = await rows_holding(simcord_env.bot.db, alice.id)
    ask = await private(alice, channel, "solitaire forget-me")
    assert (await alice.click(ask, label="Cancel")).response.content == "Nothing was changed."
    assert await rows_holding(simcord_env.bot.db, alice.id) == held


async def test_an_unanswered_ask_closes_after_two_minutes(simcord_env, channel, alice):
    await play_daily(alice, channel)
    held = await rows_holding(simcord_env.bot.db, alice.id)
    ask = await private(alice, channel, "solitaire forget-me")
    await simcord_env.advance_time(121)
    assert ask.content == "Nothing was changed: no answer within 2 minutes." and not ask.components
    assert await rows_holding(simcord_env.bot.db, alice.id) == held


async def test_a_confirmation_asked_before_a_restart_says_it_expired_and_changes_nothing(
    simcord_env, channel, alice, make_bot
):
    await play_daily(alice, channel)
    held = await rows_holding(simcord_env.bot.db, alice.id)
    ask = await private(alice, channel, "solitaire forget-me")
    await simcord_env.restart_bot(make_bot())
    clicked = await alice.click(ask, label="Forget me")
    assert clicked.acknowledged and ask.content == EXPIRED and not ask.components
    assert await rows_holding(simcord_env.bot.db, alice.id) == held
    again = await private(alice, channel, "solitaire forget-me")  # a question of this run still works
    assert (await alice.click(again, label="Cancel")).response.content == "Nothing was changed."


async def test_forget_me_waits_for_a_game_in_progress(simcord_env, channel, alice):
    started = await alice.slash(channel, "solitaire daily", variant="draw3")
    assert started.response.ephemeral
    ask = await private(alice, channel, "solitaire forget-me")
    answer = (await alice.click(ask, label="Forget me")).response.content
    deadline = simcord_env.bot.sessions.active_for(channel.guild.id, alice.id).deadline
    assert answer == (
        f"Not now: you still have a game in progress. Ask again once it is over (<t:{math.ceil(deadline)}:R>): "
        "nothing was deleted."
    )
    assert await rows_holding(simcord_env.bot.db, alice.id) != []


# -- moderate remove-results ------------------------------------------------------------------
async def test_a_member_without_manage_server_is_refused_privately(simcord_env, channel, alice, bob):
    await play_daily(alice, channel)
    refused = await private(bob, channel, "solitaire moderate remove-results", member=alice, reason="cheating")
    assert refused.content == "Only members with the **Manage Server** permission can moderate this server's results."
    assert not refused.components
    assert f"<@{alice.id}>" in "\n".join(await board_lines(bob, channel))
    assert await moderation.moderation_log(simcord_env.bot.db, channel.guild.id) == []
    log = await private(bob, channel, "solitaire moderate log")
    assert log.content == refused.content


async def test_an_admin_removes_a_members_results_with_a_logged_reason(simcord_env, guild, channel, alice, bob, admin):
    await play_daily(alice, channel)
    await play_daily(bob, channel)
    assert len(await board_lines(bob, channel)) == 2

    ask = await private(admin, channel, "solitaire moderate remove-results", member=alice, reason="used a solver")
    assert "Reason: used a solver" in ask.content
    assert len(await board_lines(bob, channel)) == 2  # nothing before the click
    done = (await admin.click(ask, label="Remove results")).response

    assert done.content.startswith(f"Removed 1 result(s) of <@{alice.id}> from this server's leaderboards")
    assert await board_lines(bob, channel) == [f"🥇 <@{bob.id}> — **0** in 0:00"]
    [entry] = await moderation.moderation_log(simcord_env.bot.db, guild.id)
    assert (entry.user_id, entry.moderator_id, entry.action, entry.reason, entry.results) == (
        alice.id,
        admin.id,
        "remove-results",
        "used a solver",
        1,
    )
    shown = await private(admin, channel, "solitaire moderate log")
    assert (
        shown.content
        == f"<t:{int(entry.created_at)}:d> <@{admin.id}> removed 1 result(s) of <@{alice.id}>: used a solver"
    )
    again = await alice.slash(channel, "solitaire daily", variant="draw3")  # the day's try stays used
    assert again.response.ephemeral and "already" in again.response.content.lower()


async def click_as_shown(env: Any, actor: Any, message: Any, custom_id: str) -> Any:
    """A click on a button the member's client still shows (it had not redrawn the message after a click yet)."""
    stored = env.backend.get_message(message.channel_id, message.id)
    return await _component_interaction(actor, stored, {"custom_id": custom_id, "component_type": 2})


@pytest.mark.parametrize("clicks", ["together", "one after the other"])
async def test_a_double_click_on_remove_results_acts_once_and_the_second_click_is_told_so(
    simcord_env, guild, channel, alice, bob, admin, clicks
):
    await play_daily(alice, channel)
    ask = await private(admin, channel, "solitaire moderate remove-results", member=alice, reason="used a solver")
    [confirm] = [
        button["custom_id"] for row in ask.components for button in row["components"] if "Remove" in button["label"]
    ]
    if clicks == "together":
        first, second = await asyncio.gather(
            admin.click(ask, label="Remove results"), click_as_shown(simcord_env, admin, ask, confirm)
        )
    else:
        first = await admin.click(ask, label="Remove results")
        second = await click_as_shown(simcord_env, admin, ask, confirm)
    answers = sorted([first.response.content, second.response.content], key=lambda text: text != ALREADY_DONE)
    assert answers[0] == ALREADY_DONE and answers[1].startswith(f"Removed 1 result(s) of <@{alice.id}>")
    assert [first.response.ephemeral, second.response.ephemeral] == [True, True]
    [entry] = await moderation.moderation_log(simcord_env.bot.db, guild.id)
    assert entry.results == 1
    assert ask.content.startswith(f"Removed 1 result(s) of <@{alice.id}>")  # the question shows the one answer


@pytest.mark.both_backends  # its statements run on PostgreSQL nowhere else
async def test_a_confirmation_acts_once_in_storage_too(simcord_env, guild, channel, alice, admin):
    await play_daily(alice, channel)
    remove = simcord_env.bot.moderation.remove_results
    first, again = await asyncio.gather(
        remove(guild.id, alice.id, moderator_id=admin.id, reason="used a solver", confirmation="0123456789abcdef"),
        remove(guild.id, alice.id, moderator_id=admin.id, reason="used a solver", confirmation="0123456789abcdef"),
        return_exceptions=True,
    )
    assert sorted([type(first).__name__, type(again).__name__]) == ["AlreadyDoneError", "int"]
    assert len(await moderation.moderation_log(simcord_env.bot.db, guild.id)) == 1


async def test_forgetting_keeps_the_days_daily_try_used_until_the_day_is_over(simcord_env, guild, channel, alice):
    await play_daily(alice, channel)
    ask = await private(alice, channel, "solitaire forget-me")
    assert (await alice.click(ask, label="Forget me")).response.content.startswith("Done: I deleted your 1 game(s)")

    again = await private(alice, channel, "solitaire daily", variant="draw3")  # the same deal, seen: refused

    assert again.content == (
        "You already played today's Solitaire Rush (draw 3) daily: its result was deleted when you asked me to "
        "forget you, and the day's try stays used. Come back after the day rolls over."
    )
    assert not again.attachments
    assert await rows_holding(simcord_env.bot.db, alice.id) == []  # the mark keeps no id in clear
    other = await private(alice, channel, "solitaire daily", variant="draw1")  # another variant's try was not used
    assert [a.filename for a in other.attachments] == ["board.png"]
    await alice.slash(channel, "solitaire end")
    await advance_to(simcord_env, datetime(2026, 1, 2, 0, 0, 1, tzinfo=UTC))  # the server's day rolled over
    tomorrow = await private(alice, channel, "solitaire daily", variant="draw3")
    assert "daily 2026-01-02" in tomorrow.content
    marks = await simcord_env.bot.db.fetchall("SELECT daily_date FROM used_tries WHERE guild_id = ?", (guild.id,))
    assert [row["daily_date"] for row in marks] == []  # purged once the day was over
