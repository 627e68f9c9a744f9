"""Ranked deals nobody can look up: private casual deals, practice on public ones, gates on after-game tools."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from bot.compete import race as races
from bot.storage import games as games_db
from solitaire.deals import ProvenDeal, numbered_deal, seeded_deal
from tests.support.decks import EASY_KLONDIKE, EASY_NUMBER
from tests.support.flows import labels, raw_clicks

pytestmark = pytest.mark.usefixtures("no_error_logs")


@pytest.fixture(autouse=True)
def instant_daily_solver(make_bot: Any) -> None:
    make_bot.daily_solve = lambda request: ProvenDeal(request.variant, 0, EASY_KLONDIKE, ())


async def start(actor: Any, channel: Any, **options: Any) -> Any:
    result = await actor.slash(channel, "solitaire start", **options)
    assert result.response is not None, result
    return result.response


async def end(actor: Any, channel: Any) -> None:
    result = await actor.slash(channel, "solitaire end")
    assert result.response.ephemeral and "game is over" in result.response.content, result.response.content


async def record(env: Any, game_id: int) -> games_db.GameRecord:
    found = await games_db.get_game(env.bot.db, game_id)
    assert found is not None
    return found


async def casual_board(actor: Any, channel: Any) -> str:
    result = await actor.slash(channel, "solitaire leaderboard", variant="draw3", period="all", games="casual")
    return result.response.embeds[0].description or ""


async def test_a_plain_start_is_ranked_and_shows_its_seed_only_once_over(simcord_env, channel, alice):
    board = await start(alice, channel)
    game = await record(simcord_env, 1)
    assert not game.practice and game.deal_number is None and game.deal_seed is not None
    assert "ranked deal" in board.content and game.deal_seed not in board.content and "#" not in board.content
    await end(alice, channel)
    assert f"ranked deal (seed `{game.deal_seed}`)" in board.content
    assert (await casual_board(alice, channel)).startswith(f"🥇 <@{alice.id}>")


async def test_a_numbered_deal_is_practice_and_never_ranked(simcord_env, channel, alice, bob):
    board = await start(alice, channel, deal=EASY_NUMBER)
    assert f"practice, not ranked: deal #{EASY_NUMBER}" in board.content
    await alice.slash(channel, "solitaire draw")
    await end(alice, channel)
    assert (await record(simcord_env, 1)).practice
    assert await casual_board(alice, channel) == "No results yet."
    today = await bob.slash(channel, "solitaire leaderboard", variant="draw3", period="today", games="casual")
    assert today.response.embeds[0].description == "No results yet."
    stats = await bob.slash(channel, "solitaire stats", member=alice)
    assert "1 game" in stats.response.embeds[0].description  # practice still counts in stats


async def test_a_finished_games_seed_replays_its_deal_as_practice(simcord_env, channel, alice, bob):
    proven = numbered_deal("draw3", 1)  # any proven deal: its seed proves again
    result = await bob.slash(channel, "solitaire start", seed=f" {proven.seed} ")
    assert result.response.ephemeral and "your board is below" in result.response.content
    [board] = [message for message in result.followups if not message.ephemeral]
    assert f"practice, not ranked: seed `{proven.seed}`" in board.content
    assert tuple(simcord_env.bot.sessions.get(1).game.deck) == proven.deck
    await bob.click(board, label="Draw")  # the public board is the game's board
    assert (await record(simcord_env, 1)).version == 1


@pytest.mark.parametrize(
    ("options", "answer"),
    [
        ({"seed": "12x"}, "is not a deal seed"),
        ({"seed": str(2**64)}, "is not a deal seed"),
        ({"seed": "5", "deal": 5}, "not both"),
    ],
)
async def test_a_bad_seed_is_refused_privately(simcord_env, channel, alice, options, answer):
    result = await alice.slash(channel, "solitaire start", **options)
    assert result.response.ephemeral and answer in result.response.content
    assert await games_db.get_game(simcord_env.bot.db, 1) is None


async def test_a_seed_that_cannot_be_proven_is_refused_privately_and_leaves_no_public_trace(
    simcord_env, channel, alice
):
    def unprovable(variant: str, seed: int) -> ProvenDeal:
        return seeded_deal(variant, seed, max_nodes=1)  # no shuffle proves in one node

    simcord_env.bot.deals.seeded_solver = unprovable
    result = await alice.slash(channel, "solitaire start", seed="42")
    assert result.response.ephemeral and "can prove winnable" in result.response.content
    assert list(channel.history()) == []  # nothing public
    assert await games_db.get_game(simcord_env.bot.db, 1) is None


async def test_a_daily_opens_analysis_only_when_every_daily_of_its_day_is_over(simcord_env, channel, alice, bob):
    await advance(simcord_env, datetime(2026, 1, 1, 23, 0, tzinfo=UTC))
    board = (await alice.slash(channel, "solitaire daily", variant="draw3")).response
    await end(alice, channel)
    await advance(simcord_env, datetime(2026, 1, 1, 23, 59, tzinfo=UTC))
    await bob.slash(channel, "solitaire daily", variant="draw3")  # bob starts at 23:59: he plays past midnight
    await advance(simcord_env, datetime(2026, 1, 2, 0, 1, tzinfo=UTC))
    for name in ("Analyze", "Share replay"):
        early = await alice.click(board, label=name)
        assert early.response.ephemeral and "every daily of that day is finished" in early.response.content
    await end(bob, channel)
    later = await alice.click(board, label="Analyze")
    assert later.response.ephemeral and "The deal was winnable." in later.response.content


async def advance(env: Any, moment: datetime) -> None:
    while (left := (moment - env.now()).total_seconds()) > 0:
        await env.advance_time(min(left, 6 * 3600))


async def race_lobby(host: Any, channel: Any, players: int = 2) -> Any:
    result = await host.slash(channel, "solitaire race", variant="draw3", players=players)
    assert result.response is not None and not result.response.ephemeral, result
    return result.response


@pytest.mark.both_backends  # its statements run on PostgreSQL nowhere else
async def test_a_race_opens_analysis_only_when_the_race_is_over(simcord_env, channel, alice, bob):
    lobby = await race_lobby(alice, channel)
    await bob.click(lobby, label="Join")
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    alice_board = (await alice.click(lobby, label="Open my board")).response
    bob_board = (await bob.click(lobby, label="Open my board")).response
    await bob.click(bob_board, label="All up")
    await alice.click(alice_board, label="End game")  # alice is done; bob still races
    early = await alice.click(alice_board, label="Analyze")
    assert early.response.ephemeral and "when the race ends" in early.response.content
    await bob.click(bob_board, label="End game")
    later = await alice.click(alice_board, label="Analyze")
    assert later.response.ephemeral and "Analysis" in later.response.content


async def test_a_member_in_a_lobby_starts_nothing_else_there_until_they_leave(simcord_env, guild, channel, alice, bob):
    lobby = await race_lobby(alice, channel, players=3)
    await bob.click(lobby, label="Join")
    for command, options in (("solitaire start", {}), ("solitaire daily", {"variant": "draw3"})):
        refused = await bob.slash(channel, command, **options)
        assert refused.response.ephemeral and "race lobby here: leave it first" in refused.response.content
    assert await games_db.active_game(simcord_env.bot.db, guild.id, bob.id) is None
    await bob.click(lobby, label="Leave")
    assert not (await bob.slash(channel, "solitaire start")).response.ephemeral


async def test_leave_race_asks_first_and_a_finished_racer_keeps_the_result(simcord_env, guild, channel, alice, bob):
    lobby = await race_lobby(alice, channel)
    await bob.click(lobby, label="Join")
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    alice_board = (await alice.click(lobby, label="Open my board")).response
    await alice.click(alice_board, label="All up")
    await alice.click(alice_board, label="End game")
    kept = await alice.click(lobby, label="Leave race")
    assert kept.response.ephemeral and "your result stands" in kept.response.content
    question = (await bob.click(lobby, label="Leave race")).response
    assert question.ephemeral and question.content.startswith("Leave the race?")
    assert set(labels(question)) == {"Leave the race"}
    assert simcord_env.bot.sessions.active_for(guild.id, bob.id) is not None  # nothing happened yet
    [forged] = await raw_clicks(simcord_env, bob, lobby, "race:1:quit")  # the confirmation's id on the public message
    assert forged.response.ephemeral and "not one I understand" in forged.response.content
    confirmed = await bob.click(question, label="Leave the race")
    assert "You left the race" in confirmed.response.content
    await simcord_env.advance_time(3)
    lines = lobby.embeds[0].description.splitlines()
    assert lines[0].startswith(f"🥇 <@{alice.id}>") and lines[1].startswith(f"🥈 <@{bob.id}>")
    assert "· left ·" in lines[1] or "· left" in lines[1]


async def test_a_race_needs_the_bot_to_post_and_edit_embeds_in_its_channel(simcord_env, guild, channel, alice):
    plain = guild.create_text_channel(
        "plain", overwrites={guild.default_role: discord.PermissionOverwrite(embed_links=False)}
    )
    refused = await alice.slash(plain, "solitaire race", variant="draw3")
    assert refused.response.ephemeral and "**Embed Links**" in refused.response.content
    assert await simcord_env.bot.db.fetchone("SELECT id FROM races") is None


async def test_race_results_refused_by_discord_are_retried_until_shown(simcord_env, make_bot, channel, alice, bob):
    lobby = await race_lobby(alice, channel)
    await bob.click(lobby, label="Join")
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    for actor in (alice, bob):
        board = (await actor.click(lobby, label="Open my board")).response
        await actor.click(board, label="All up")
    simcord_env.inject_error("PATCH", f"/channels/{channel.id}/messages/{lobby.id}", status=503, times=2)
    for actor in (alice, bob):
        await actor.slash(channel, "solitaire end")
    await simcord_env.advance_time(3)
    assert "Race results" not in lobby.embeds[0].title  # Discord refused the edit: still waiting
    await simcord_env.restart_bot(make_bot())  # the post survives a restart
    for _ in range(4):
        await simcord_env.advance_time(120)
    assert "Race results" in lobby.embeds[0].title
    posts = await simcord_env.bot.db.fetchall("SELECT state, attempts FROM announcements WHERE kind = 'race'")
    assert [(row["state"], row["attempts"] >= 1) for row in posts] == [("posted", True)]
