"""Races on (simulated) Discord: lobby buttons, private boards, live standings, results, ratings and restarts."""

from __future__ import annotations

import itertools
import math
import time
from typing import Any

import pytest

from bot.compete import race as races
from bot.compete.ratings import Skill
from bot.play.clicks import parse_race_click
from bot.storage import games as games_db
from bot.storage import races as races_db
from cogs.race_commands import rating_board_embed
from tests.support.decks import EASY_NUMBER
from tests.support.flows import labels, raw_clicks
from tests.support.races_on_discord import advance, click, open_board, open_race, simcord_bot, text, win_by_clicks

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["simcord_bot"]  # the bot dealing the easy deck to every race


class Edits:
    """Records when the race service asked for the race message to be edited (virtual time)."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.times: list[float] = []
        self.inner = env.bot.races.publish
        env.bot.races.publish = self

    async def __call__(self, snapshot: races.RaceSnapshot) -> None:
        self.times.append(self.env.now().timestamp())
        await self.inner(snapshot)


@pytest.mark.both_backends  # a main flow, on PostgreSQL too
async def test_three_racers_a_tie_and_a_racer_who_never_opens_the_board(simcord_env, channel, alice, bob, carol):
    edits = Edits(simcord_env)
    lobby = await open_race(alice, channel, variant="draw3", players=3)
    assert "Race lobby" in text(lobby) and f"<@{alice.id}> (host)" in text(lobby)
    assert set(labels(lobby)) == {"Join", "Leave", "Start (host)", "Cancel (host)"}
    await click(bob, lobby, "Join")
    await click(carol, lobby, "Join")  # full: starts by itself
    race = await races_db.get_race(simcord_env.bot.db, 1)
    assert race.status == "running" and f"<t:{int(race.start_at)}:R>" in text(lobby)
    assert set(labels(lobby)) == {"Open my board", "Leave race"}
    early = await click(alice, lobby, "Open my board")
    assert early.ephemeral and "starts" in early.content
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    alice_board = await open_board(alice, lobby)
    assert "race deal" in alice_board.content and str(EASY_NUMBER) not in alice_board.content  # no seed mid-race
    assert str(EASY_NUMBER) not in text(lobby) and "deal #" not in text(lobby)
    await alice.click(alice_board, label="All up")
    await simcord_env.advance_time(30)
    bob_board = await open_board(bob, lobby)  # opened late: lost that time, not gained it
    assert bob_board.content.endswith(f"time runs out <t:{int(race.end_at)}:R>")
    await bob.click(bob_board, label="All up")
    await advance(simcord_env, 300)
    assert "Race results" in text(lobby) and not lobby.components
    rows = await simcord_env.bot.db.fetchall("SELECT user_id, score, seconds_used, status FROM games ORDER BY id")
    assert [tuple(r) for r in rows][:2] == [
        (alice.id, rows[0]["score"], 300, "expired"),
        (bob.id, rows[0]["score"], 300, "expired"),
    ]
    assert rows[0]["score"] > 0 and tuple(rows[2])[1:] == (0, 300, "expired")
    lines = lobby.embeds[0].description.splitlines()
    # a tie in score and time shares first place (no member id breaks it)
    assert {lines[0][:24], lines[1][:24]} == {f"🥇 <@{alice.id}>"[:24], f"🥇 <@{bob.id}>"[:24]}
    assert all(f"**{rows[0]['score']}** pts · 5:00 · ⏱ time up" in line for line in lines[:2])
    assert lines[2].startswith(f"🥉 <@{carol.id}> · **0** pts") and lines[2].endswith("· not rated")  # never played
    assert all("?" in line and ("(+" in line or "(-" in line) for line in lines[:2])
    assert f"seed:{EASY_NUMBER}`" in lines[-1]  # the deal is public once the race is over
    assert all(b - a >= races.STANDINGS_INTERVAL for a, b in itertools.pairwise(edits.times))
    # race games count in stats, not on the casual board
    stats = await simcord_env.bot.db.fetchall("SELECT mode FROM member_stats WHERE user_id = ?", (alice.id,))
    assert [row["mode"] for row in stats] == ["race"]
    ratings = await alice.slash(channel, "solitaire ratings")
    assert f"`1.` <@{alice.id}>" in ratings.response.embeds[0].description
    mine = await alice.slash(channel, "solitaire ratings", member=bob)
    assert "Solitaire Rush (draw 3): rating " in mine.response.embeds[0].description
    assert "? · 1 race, 1 won" in mine.response.embeds[0].description  # a shared first place is a win
    carols = await alice.slash(channel, "solitaire ratings", member=carol)
    assert carols.response.embeds[0].description.endswith("No races yet.")


async def test_a_lobby_expires_after_ten_minutes(simcord_env, channel, alice, bob):
    lobby = await open_race(alice, channel, variant="draw1", players=4)
    await click(bob, lobby, "Join")
    await advance(simcord_env, races.LOBBY_SECONDS)
    assert "closed" in lobby.embeds[0].title and "Expired" in lobby.embeds[0].description
    assert not lobby.components
    other = await open_race(bob, channel)  # nobody is held by an expired lobby
    assert "Race lobby" in text(other)


async def test_a_host_who_leaves_hands_the_lobby_on(simcord_env, channel, alice, bob, carol):
    lobby = await open_race(alice, channel, players=4)
    await click(bob, lobby, "Join")
    await click(carol, lobby, "Join")
    await click(alice, lobby, "Leave")
    assert f"Host <@{bob.id}>" in text(lobby) and f"<@{alice.id}>" not in text(lobby)
    refused = await click(carol, lobby, "Start (host)")
    assert refused.ephemeral and "Only the host" in refused.content
    await click(bob, lobby, "Start (host)")
    race = await races_db.get_race(simcord_env.bot.db, 1)
    assert race.status == "running"
    assert [r.user_id for r in await races_db.racers(simcord_env.bot.db, 1)] == [bob.id, carol.id]


@pytest.mark.both_backends  # a main flow, on PostgreSQL too
async def test_a_restart_mid_race_resumes_it(simcord_env, make_bot, channel, alice, bob):
    lobby = await open_race(alice, channel, players=2)
    await click(bob, lobby, "Join")
    before = await races_db.get_race(simcord_env.bot.db, 1)
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    board = await open_board(alice, lobby)
    await alice.click(board, label="Draw")
    await advance(simcord_env, 60)
    await simcord_env.restart_bot(make_bot())
    after = await races_db.get_race(simcord_env.bot.db, 1)
    assert (after.status, after.start_at, after.end_at) == ("running", before.start_at, before.end_at)
    await alice.click(board, label="Draw")  # the old private board still plays
    record = await games_db.get_game(simcord_env.bot.db, 1)
    assert record.version == 2 and record.deadline == before.end_at
    assert simcord_env.bot.races.publish_count.get(1)  # the standings are updated again
    edits = Edits(simcord_env)
    await advance(simcord_env, 300)
    assert "Race results" in text(lobby) and len(edits.times) >= 1
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(5)
    assert simcord_env.bot.races.publish_count.get(1, 0) == 0  # the results were posted once, before
    posts = await simcord_env.bot.db.fetchall("SELECT state FROM announcements WHERE kind = 'race'")
    assert [row["state"] for row in posts] == ["posted"]


@pytest.mark.parametrize("backend", ["sqlite"])  # the throttle is in memory: the database plays no part here
async def test_standings_edit_rate_under_fast_play(simcord_env, channel, alice, bob, carol):
    # The bot's timers run on SimCord's clock alone (tests/conftest.py, virtual_sleep): a click returns as soon
    # as the bot is idle, and the standings interval passes only as the test advances time, however slow a click.
    edits = Edits(simcord_env)
    lobby = await open_race(alice, channel, players=3)
    await click(bob, lobby, "Join")
    await click(carol, lobby, "Join")
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    boards = [await open_board(actor, lobby) for actor in (alice, bob, carol)]
    for _ in range(20):  # every racer clicks Draw every 0.25 s
        for actor, board in zip((alice, bob, carol), boards, strict=True):
            await actor.click(board, label="Draw")
        await simcord_env.advance_time(0.25)
    window = [t for t in edits.times]
    assert len(window) >= 2
    assert all(b - a >= races.STANDINGS_INTERVAL for a, b in itertools.pairwise(window))
    assert "playing" in text(lobby)


@pytest.mark.parametrize("backend", ["sqlite"])  # SimCord's clock against the wall clock: no database part
async def test_a_busy_machine_passes_no_race_time(simcord_env, channel, alice, bob):
    # Real seconds spent elsewhere (a loaded machine, a slow click) must not move the race's clock: the next
    # standings edit waits for the test to advance time, not for the wall clock (tests/conftest.py, virtual_sleep).
    edits = Edits(simcord_env)
    lobby = await open_race(alice, channel, players=2)
    await click(bob, lobby, "Join")
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    board = await open_board(alice, lobby)
    await alice.click(board, label="Draw")
    before, shown = simcord_env.now(), len(edits.times)
    await alice.click(board, label="Draw")  # within the interval: its edit waits for it
    assert (simcord_env.now(), len(edits.times)) == (before, shown)  # the click did not wait the interval out
    time.sleep(races.STANDINGS_INTERVAL + 0.5)  # the event loop gets no turn for longer than the interval
    await simcord_env.settle()
    assert (simcord_env.now(), len(edits.times)) == (before, shown)
    await simcord_env.advance_time(races.STANDINGS_INTERVAL)
    assert len(edits.times) == shown + 1


async def test_forged_and_stale_race_clicks_are_refused_privately(simcord_env, channel, alice, bob):
    lobby = await open_race(alice, channel, players=3)
    other = await open_race(bob, channel, players=3)
    [forged] = await raw_clicks(simcord_env, bob, other, "race:1:cancel")  # race 1's id on race 2's message
    assert forged.response.ephemeral and "not one I understand" in forged.response.content
    [junk] = await raw_clicks(simcord_env, bob, other, "race:99999999999999999999:join")
    assert junk.response.ephemeral
    assert parse_race_click("race:1:cancel") is not None
    assert (await races_db.get_race(simcord_env.bot.db, 1)).status == "lobby"
    refused = await click(bob, lobby, "Join")
    assert refused.ephemeral and "another race" in refused.content


async def finish_a_race_won_by(env: Any, channel: Any, winner: Any, loser: Any) -> Any:
    """A two-racer draw 3 race: ``winner`` clears the easy deck, ``loser`` plays one click of All up and stops."""
    lobby = await open_race(winner, channel, variant="draw3", players=2)
    await click(loser, lobby, "Join")
    await env.advance_time(races.COUNTDOWN_SECONDS)
    await loser.click(await open_board(loser, lobby), label="All up")
    await win_by_clicks(winner, await open_board(winner, lobby))
    await advance(env, 300)
    for _ in range(10):  # the results wait for the standings interval after the last edit
        if "Race results" in text(lobby):
            break
        await env.advance_time(1)
    assert "Race results" in text(lobby)
    return lobby


async def test_the_leaderboard_shows_the_rating_board(simcord_env, channel, alice, bob, carol):
    await finish_a_race_won_by(simcord_env, channel, alice, bob)
    result = await carol.slash(channel, "solitaire leaderboard", variant="draw3", games="ratings")
    shown = result.response
    assert not shown.ephemeral and shown.embeds[0].title == "🏁 Race ratings · Solitaire Rush (draw 3)"
    lines = shown.embeds[0].description.splitlines()
    assert lines[0].startswith(f"`1.` <@{alice.id}> · ") and lines[0].endswith("? · 1 race")
    assert lines[1].startswith(f"`2.` <@{bob.id}> · ") and lines[1].endswith("? · 1 race")
    assert lines[2] == f"<@{carol.id}> has no rating here yet: race with `/solitaire race`."
    assert shown.embeds[0].footer.text == "2 members rated · ? = provisional (under 5 races)"
    # the same board as /solitaire ratings, which stays
    alias = await carol.slash(channel, "solitaire ratings", variant="draw3")
    assert alias.response.embeds[0].description == shown.embeds[0].description
    # a period does not apply to ratings: the answer says so, and the board is the same
    week = await bob.slash(channel, "solitaire leaderboard", variant="draw3", period="week", games="ratings")
    described = week.response.embeds[0].description.splitlines()
    assert described[0] == "Ratings count every race ever played here: `period:` does not apply to them."
    assert described[2:4] == lines[:2]
    empty = await bob.slash(channel, "solitaire leaderboard", variant="goldrush", games="ratings")
    assert empty.response.embeds[0].description == "No races yet: start one with `/solitaire race`."
    # the other boards are unchanged: race games are not on the daily or casual boards
    casual = await alice.slash(channel, "solitaire leaderboard", variant="draw3", period="all", games="casual")
    assert casual.response.embeds[0].description == "No results yet."


async def test_stats_show_ratings_and_races(simcord_env, guild, channel, alice, bob, carol):
    await finish_a_race_won_by(simcord_env, channel, alice, bob)
    await finish_a_race_won_by(simcord_env, channel, alice, bob)
    [alice_rating] = await races_db.member_ratings(simcord_env.bot.db, guild.id, alice.id)
    result = await carol.slash(channel, "solitaire stats", member=alice)
    lines = result.response.embeds[0].description.splitlines()
    assert lines[0] == f"<@{alice.id}>: 2 games, 2 wins (100%)"  # the existing stats, unchanged
    assert lines[2].startswith("Solitaire Rush (draw 3): 2 games, 2 wins (100%)")
    assert lines[3:] == [
        "**Races** (rating; ? = provisional, under 5 races)",
        f"Solitaire Rush (draw 3): rating {round(Skill(alice_rating.mu, alice_rating.sigma).display)}?"
        " · 2 races, 2 won",
    ]
    loser = await carol.slash(channel, "solitaire stats", member=bob)
    assert loser.response.embeds[0].description.splitlines()[-1].endswith("? · 2 races, 0 won")
    nobody = await carol.slash(channel, "solitaire stats")
    assert nobody.response.embeds[0].description == f"<@{carol.id}> has not finished a game here yet."


def test_the_rating_board_shows_the_top_ten_then_the_caller():
    records = [races_db.RatingRecord(1, "draw1", user, 25.0 - user, 2.0, 6) for user in range(1, 13)]
    embed = rating_board_embed("draw1", records, 12)
    lines = embed.description.splitlines()
    assert [line.split(" · ")[0] for line in lines] == [f"`{n}.` <@{n}>" for n in range(1, 11)] + ["…", "`12.` <@12>"]
    assert "?" not in embed.description and len(embed.description) < 2000  # 6 races: not provisional


async def test_a_racer_who_left_is_forgotten_only_once_the_race_is_over_and_never_rated_as_a_stand_in(
    simcord_env, channel, alice, bob
):
    lobby = await open_race(alice, channel, variant="draw3", players=2)
    await click(bob, lobby, "Join")  # full: starts by itself
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    await alice.click(await open_board(alice, lobby), label="All up")
    await bob.click(await open_board(bob, lobby), label="All up")
    question = await click(bob, lobby, "Leave race")
    assert "You left the race" in (await bob.click(question, label="Leave the race")).response.content
    race = await races_db.get_race(simcord_env.bot.db, 1)
    assert race.status == "running"

    ask = (await bob.slash(channel, "solitaire forget-me")).response
    refused = (await bob.click(ask, label="Forget me")).response

    assert refused.content == (
        "Not now: you still have an entry in a race that is not over. Ask again once it is over "
        f"(<t:{math.ceil(race.end_at)}:R>): nothing was deleted."
    )
    assert [r.user_id for r in await races_db.racers(simcord_env.bot.db, 1)] == [alice.id, bob.id]
    await advance(simcord_env, race.end_at - simcord_env.now().timestamp() + 5)
    assert "Race results" in text(lobby)
    ask = (await bob.slash(channel, "solitaire forget-me")).response
    assert (await bob.click(ask, label="Forget me")).response.content.startswith("Done:")
    board = (await alice.slash(channel, "solitaire ratings")).response.embeds[0].description
    assert f"<@{alice.id}>" in board and "<@-" not in board
    rows = await simcord_env.bot.db.fetchall("SELECT user_id FROM ratings")
    assert [row["user_id"] for row in rows] == [alice.id]
