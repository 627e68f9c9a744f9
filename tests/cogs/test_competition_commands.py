"""Daily competitions on (simulated) Discord: same deal, one try, public line, leaderboard, podium, config."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import pytest
from pydantic import SecretStr

import bot.compete.daily
import bot.outbox.announcements
import cogs.competition_commands
from bot.heavy import Scheduler
from bot.rules.daily_deals import daily_source
from bot.storage import competition as competition_db
from bot.storage import games as games_db
from solitaire import game_to_json, new_game
from tests.support.competition import (
    START_DAY,
    advance_to,
    attempt,
    daily,
    end,
    instant_daily_solver,
    public,
)

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["instant_daily_solver"]  # the easy daily deals, solved at once


def lines_of(response: Any) -> list[str]:
    return (response.embeds[0].description or "").splitlines()


# -- the daily deal ------------------------------------------------------------------
@pytest.mark.both_backends  # a main flow, on PostgreSQL too
async def test_members_play_the_same_private_deal_and_the_result_line_is_public(
    simcord_env, guild, channel, alice, bob, instant_daily_solver
):
    alice_board = await daily(alice, channel, "friday13")
    bob_board = await daily(bob, channel, "friday13")
    for board in (alice_board, bob_board):
        assert board.ephemeral and [a.filename for a in board.attachments] == ["board.png"]
        assert f"daily {START_DAY}" in board.content
    assert public(channel) == []  # nobody else sees a board
    alice_game, bob_game = (
        await attempt(simcord_env, guild, alice, "friday13"),
        await attempt(simcord_env, guild, bob, "friday13"),
    )
    assert json.loads(alice_game.state)["deck"] == json.loads(bob_game.state)["deck"]
    assert len(instant_daily_solver) == 1  # the second player got the stored deal

    other = simcord_env.create_guild("Other Club")
    elsewhere = other.create_text_channel("games")
    stranger = other.add_member(simcord_env.create_user("stranger"))
    await daily(stranger, elsewhere, "friday13")
    their_game = await attempt(simcord_env, other, stranger, "friday13")
    assert json.loads(their_game.state)["deck"] != json.loads(alice_game.state)["deck"]

    await end(alice, channel)
    [line] = public(channel)
    assert line.startswith(f"<@{alice.id}> scored 0 on today's Friday 13 daily (ended after 0:00)")
    assert line.endswith("rank 1 of 1 so far")  # the day is still open: the podium has the last word


async def test_the_deal_comes_from_the_stored_secret_and_survives_a_restart(
    simcord_env, guild, channel, alice, bob, make_bot, instant_daily_solver
):
    await daily(alice, channel, "draw1")
    secret = await competition_db.get_or_create_secret(simcord_env.bot.db, "daily", lambda: "not used")
    assert len(secret) == 64
    assert [r.source for r in instant_daily_solver] == [daily_source(secret, guild.id, date(2026, 1, 1), "draw1")]
    await simcord_env.restart_bot(make_bot())
    await daily(bob, channel, "draw1")
    decks = {json.loads((await attempt(simcord_env, guild, p, "draw1")).state)["deck"] for p in (alice, bob)}
    assert len(decks) == 1
    assert [r.source for r in instant_daily_solver] == [
        daily_source(secret, guild.id, date(2026, 1, 1), "draw1"),
        daily_source(secret, guild.id, date(2026, 1, 2), "draw1"),  # tomorrow's, solved ahead
    ]  # the new bot read the day's deal from the database: it was solved once


async def test_the_deal_is_solved_through_the_heavy_work_scheduler(
    simcord_env, guild, channel, alice, instant_daily_solver
):
    simcord_env.bot.deals.jobs = Scheduler(0)  # in a thread, not on the event loop
    board = await daily(alice, channel, "friday13")
    assert board.ephemeral and board.attachments
    assert len(instant_daily_solver) == 1


async def test_a_configured_secret_wins(simcord_env, guild, channel, alice, settings, instant_daily_solver):
    settings.daily_secret = SecretStr("from the settings")
    await daily(alice, channel, "goldrush")
    expected = daily_source("from the settings", guild.id, date(2026, 1, 1), "goldrush")
    assert [r.source for r in instant_daily_solver] == [expected]
    assert await simcord_env.bot.db.fetchone("SELECT value FROM secrets") is None


async def test_a_second_attempt_is_refused_with_the_result_and_rank(simcord_env, guild, channel, alice, bob):
    await daily(alice, channel)
    await daily(bob, channel)
    await simcord_env.advance_time(30)
    await end(alice, channel)
    await end(bob, channel)
    again = await daily(alice, channel)
    assert again.ephemeral
    assert again.content.startswith("You already played today's Solitaire Rush (draw 3) daily: 0 points")
    assert "rank 1 of 2" in again.content
    assert len(public(channel)) == 2
    other_variant = await daily(alice, channel, "draw1")  # another variant is another competition
    assert other_variant.ephemeral and other_variant.attachments


async def test_abandoning_by_the_clock_counts_as_the_attempt(simcord_env, guild, channel, alice):
    await daily(alice, channel)
    await simcord_env.advance_time(301)
    assert (await attempt(simcord_env, guild, alice)).status == "expired"
    [line] = public(channel)
    assert "(out of time)" in line
    again = await daily(alice, channel)
    assert again.content.startswith("You already played")


async def test_a_running_game_is_offered_instead_of_a_second_board(simcord_env, channel, alice):
    await daily(alice, channel)
    offer = await daily(alice, channel)
    assert offer.ephemeral and "already have a **Solitaire Rush (draw 3)** game running" in offer.content


# -- leaderboard -----------------------------------------------------------------------
async def test_leaderboard_ranks_by_score_then_time_then_who_finished_first(
    simcord_env, guild, channel, alice, bob, members
):
    carol, dave, erin = members["carol"], members["dave"], members["erin"]
    board = await daily(alice, channel)
    await alice.click(board, label="All up")  # scores points
    await simcord_env.advance_time(20)
    await end(alice, channel)
    await daily(bob, channel)
    await simcord_env.advance_time(10)
    await end(bob, channel)  # 0 points in 0:10
    await daily(carol, channel)
    await simcord_env.advance_time(10)
    await end(carol, channel)  # 0 points in 0:10, finished after bob
    await daily(dave, channel)
    await simcord_env.advance_time(5)
    await end(dave, channel)  # 0 points in 0:05
    alice_score = (await attempt(simcord_env, guild, alice)).score
    assert alice_score > 0

    result = await erin.slash(channel, "solitaire leaderboard", variant="draw3", period="today")
    shown = result.response
    assert not shown.ephemeral
    assert shown.embeds[0].title == f"Solitaire Rush (draw 3) · daily · today ({START_DAY})"
    assert lines_of(shown) == [
        f"🥇 <@{alice.id}> — **{alice_score}** in 0:20",
        f"🥈 <@{dave.id}> — **0** in 0:05",
        f"🥉 <@{bob.id}> — **0** in 0:10",
        f"` 4.` <@{carol.id}> — **0** in 0:10",
        f"<@{erin.id}> has no result here yet.",
        "4 ranked",
    ]
    week = await carol.slash(channel, "solitaire leaderboard", variant="draw3", period="week")
    assert lines_of(week.response)[:4] == lines_of(shown)[:4]
    casual = await carol.slash(channel, "solitaire leaderboard", variant="draw3", period="all", games="casual")
    assert lines_of(casual.response) == ["No results yet."]


async def test_stats_show_games_and_streaks(simcord_env, channel, alice, bob):
    await daily(alice, channel)
    await end(alice, channel)
    result = await bob.slash(channel, "solitaire stats", member=alice)
    text = result.response.embeds[0].description
    assert f"<@{alice.id}>: 1 game, 0 wins (0%)" in text
    assert "Daily streak: 1 day (best 1)" in text
    assert "Solitaire Rush (draw 3): 1 game, 0 wins" in text
    mine = await bob.slash(channel, "solitaire stats")
    assert "has not finished a game here yet" in mine.response.embeds[0].description


# -- settings -------------------------------------------------------------------------------
async def test_config_is_refused_without_manage_server(simcord_env, guild, channel, bob):
    for command, options in (
        ("solitaire config timezone", {"timezone": "Europe/Paris"}),
        ("solitaire config channel", {"channel": channel}),
    ):
        refused = await bob.slash(channel, command, **options)
        assert refused.response.ephemeral
        assert refused.response.content == cogs.competition_commands.NOT_MANAGER
    assert await competition_db.guild_config(simcord_env.bot.db, guild.id) == competition_db.GuildConfig(guild.id)


@pytest.mark.parametrize(
    ("given", "answer"),
    [
        ("Mars/Olympus_Mons", "unknown time zone 'Mars/Olympus_Mons': use an IANA name such as Europe/Paris"),
        ("Europe/Pari", "unknown time zone 'Europe/Pari': did you mean Europe/Paris?"),
    ],
)
async def test_a_bad_time_zone_gets_a_clear_error(simcord_env, guild, channel, admin, given, answer):
    refused = await admin.slash(channel, "solitaire config timezone", timezone=given)
    assert refused.response.ephemeral and refused.response.content.startswith(answer)
    assert (await competition_db.guild_config(simcord_env.bot.db, guild.id)).timezone == "UTC"


async def test_a_manager_sets_the_zone_with_autocomplete(simcord_env, guild, channel, admin):
    choices = await admin.autocomplete(channel, "solitaire config timezone", "timezone", "kolk")
    assert [c["value"] for c in choices] == ["Asia/Kolkata"]
    done = await admin.slash(channel, "solitaire config timezone", timezone="asia/kolkata")
    assert done.response.ephemeral and done.response.content.startswith("Time zone set to **Asia/Kolkata**")
    clock = (await competition_db.guild_config(simcord_env.bot.db, guild.id)).clock
    assert clock.zone_at(simcord_env.now()) == "UTC"  # today ends at 00:00 UTC as it began
    assert clock.zone_at(datetime(2026, 1, 2, tzinfo=UTC)) == "Asia/Kolkata"


# -- midnight ----------------------------------------------------------------------------------
@pytest.mark.both_backends  # a main flow, on PostgreSQL too
async def test_rollover_posts_the_podium_at_midnight_in_the_server_zone(simcord_env, guild, channel, admin, alice, bob):
    podiums = guild.create_text_channel("podium")
    await admin.slash(channel, "solitaire config timezone", timezone="Asia/Kolkata")  # UTC+5:30 from tomorrow
    await admin.slash(channel, "solitaire config channel", channel=podiums)
    await advance_to(simcord_env, datetime(2026, 1, 2, tzinfo=UTC))  # 05:30 on 2 January in Kolkata
    # 2 January ends at 18:30 UTC there.
    board = await daily(alice, channel)
    assert "daily 2026-01-02" in board.content
    await alice.click(board, label="All up")
    await end(alice, channel)
    await daily(bob, channel)
    await simcord_env.advance_time(42)
    await end(bob, channel)
    lines = public(podiums)
    assert len(lines) == 2 and "rank 1 of 1" in lines[0] and "rank 2 of 2" in lines[1]  # the results go there too

    await advance_to(simcord_env, datetime(2026, 1, 2, 18, 29, 59, tzinfo=UTC))  # 23:59:59 in Kolkata
    assert len(public(podiums)) == 2
    await advance_to(simcord_env, datetime(2026, 1, 2, 18, 30, tzinfo=UTC))  # 00:00 on 3 January in Kolkata
    podium = public(podiums)[2:]
    assert len(podium) == 1
    assert podium[0].splitlines() == [
        "**Daily podium for 2026-01-02**",
        "__Solitaire Rush (draw 3)__",
        f"🥇 <@{alice.id}> — **{(await attempt(simcord_env, guild, alice, day='2026-01-02')).score}** in 0:00",
        f"🥈 <@{bob.id}> — **0** in 0:42",
    ]
    await advance_to(simcord_env, datetime(2026, 1, 3, 18, 31, tzinfo=UTC))  # a day nobody played: no empty podium
    assert len(public(podiums)) == 3
    tomorrow = await daily(alice, channel)
    assert "daily 2026-01-04" in tomorrow.content


async def test_the_result_line_is_posted_once_after_a_failed_post_and_a_restart(
    simcord_env, guild, channel, alice, make_bot
):
    await daily(alice, channel)
    simcord_env.inject_error("POST", "/channels/*/messages", status=500, times=1)
    await end(alice, channel)
    assert public(channel) == []
    assert await competition_db.unannounced(simcord_env.bot.db) == []  # queued: it waits in announcements
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(bot.outbox.announcements.retry_delay(0))
    assert len(public(channel)) == 1 and public(channel)[0].startswith(f"<@{alice.id}> scored")
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(3600)
    assert len(public(channel)) == 1


async def test_a_line_a_crash_left_unqueued_is_posted_at_start(simcord_env, guild, channel, alice, make_bot):
    await daily(alice, channel)
    game = await attempt(simcord_env, guild, alice)
    await games_db.finish_game(
        simcord_env.bot.db,
        game.id,
        games_db.Result(game.state, "ended", 0, 12, simcord_env.now().timestamp(), 2),
        saved_version=game.version,
    )  # finished behind the bot's back, as if it crashed before the finish listener ran
    assert await competition_db.unannounced(simcord_env.bot.db) == [game.id]
    await simcord_env.restart_bot(make_bot())
    assert len(public(channel)) == 1
    assert await competition_db.unannounced(simcord_env.bot.db) == []


# -- deals solved ahead ------------------------------------------------------------------------
async def test_the_next_days_deal_of_a_variant_played_today_is_stored_before_midnight(
    simcord_env, guild, channel, alice, bob, instant_daily_solver
):
    await daily(alice, channel, "draw1")
    assert last_callback(simcord_env) == DEFERRED  # nothing solved ahead on the first day: it waits for the solver
    await end(alice, channel)
    assert [r.variant for r in instant_daily_solver] == ["draw1"]
    assert await competition_db.cached_deal(simcord_env.bot.db, guild.id, "draw1", "2026-01-02") is None
    await advance_to(simcord_env, datetime(2026, 1, 1, 23, 59, 59, tzinfo=UTC))
    stored = await competition_db.cached_deal(simcord_env.bot.db, guild.id, "draw1", "2026-01-02")
    assert stored is not None  # solved at the service's next wake-up (at most an hour later), before the day
    assert [(r.variant, r.source) for r in instant_daily_solver][1:] == [
        ("draw1", daily_source(secret := await cog_secret(simcord_env), guild.id, date(2026, 1, 2), "draw1"))
    ]  # only the variant played lately, for the new day

    await advance_to(simcord_env, datetime(2026, 1, 2, tzinfo=UTC))
    result = await bob.slash(channel, "solitaire daily", variant="draw1")
    assert result.response.ephemeral and last_callback(simcord_env) == MESSAGE  # ready: no "thinking…" first
    assert [r.source for r in instant_daily_solver].count(
        daily_source(secret, guild.id, date(2026, 1, 2), "draw1")
    ) == 1
    bob_game = await attempt(simcord_env, guild, bob, "draw1", "2026-01-02")
    assert json.loads(bob_game.state)["deck"] == stored["deck"]


async def test_at_start_up_today_is_solved_ahead_for_servers_that_played_this_week(
    simcord_env, guild, channel, make_bot, instant_daily_solver
):
    db = simcord_env.bot.db
    for user, variant, day in ((5, "goldrush", "2025-12-26"), (6, "friday13", "2025-12-24")):  # 6 and 8 days ago
        await games_db.insert_game(
            db, games_db.NewGame(guild.id, channel.id, user, variant, "daily", None, day, state(variant), 0.0, 1.0)
        )  # out of time: the restart finishes them
    await simcord_env.restart_bot(make_bot())
    db = simcord_env.bot.db
    assert await competition_db.cached_deal(db, guild.id, "goldrush", START_DAY) is not None
    assert await competition_db.cached_deal(db, guild.id, "friday13", START_DAY) is None
    assert [r.variant for r in instant_daily_solver] == ["goldrush", "goldrush"]  # today's and tomorrow's
    assert await competition_db.cached_deal(db, guild.id, "goldrush", "2026-01-02") is not None


async def test_solving_ahead_is_bounded_and_catches_up_at_a_later_wake_up(
    simcord_env, guild, channel, alice, instant_daily_solver, monkeypatch
):
    monkeypatch.setattr(bot.compete.daily, "PRESOLVE_LIMIT", 0)
    for variant in ("draw1", "goldrush"):
        await daily(alice, channel, variant)
        await end(alice, channel)
    await advance_to(simcord_env, datetime(2026, 1, 2, tzinfo=UTC))
    db = simcord_env.bot.db
    assert [await competition_db.cached_deal(db, guild.id, v, "2026-01-02") for v in ("draw1", "goldrush")] == [
        None,
        None,
    ]
    monkeypatch.setattr(bot.compete.daily, "PRESOLVE_LIMIT", 1)

    async def stored() -> int:
        return sum(
            [await competition_db.cached_deal(db, guild.id, v, "2026-01-02") is not None for v in ("draw1", "goldrush")]
        )

    await simcord_env.advance_time(3600)  # the task wakes at least hourly: one more deal each time
    assert await stored() == 1
    await simcord_env.advance_time(3600)
    assert await stored() == 2


DEFERRED, MESSAGE = 5, 4  # interaction callback types


def last_callback(env: Any) -> int:
    """The type of the bot's latest interaction callback (an answer at once, or deferred)."""
    callbacks = [r for r in env.http_requests if r.method == "POST" and r.path.endswith("/callback")]
    return int(callbacks[-1].json["type"])


def state(variant: str) -> str:
    return json.dumps(game_to_json(new_game(variant, seed=1)))


async def cog_secret(env: Any) -> str:
    return await competition_db.get_or_create_secret(env.bot.db, "daily", lambda: "not used")
