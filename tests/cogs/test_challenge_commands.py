"""Challenges on (simulated) Discord: the public message, answers, private attempts, the close, restarts."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.compete.challenges import MAX_OPEN_PER_MEMBER, MESSAGE_WRITES
from bot.play.clicks import parse_challenge_click
from bot.storage import challenges as challenges_db
from cogs import challenge_commands
from tests.conftest import virtual_sleep
from tests.support.challenges import failing_message_writes
from tests.support.challenges_on_discord import attempt, open_challenge, text
from tests.support.decks import EASY_NUMBER
from tests.support.flows import labels, raw_clicks, slash_burst

pytestmark = pytest.mark.usefixtures("no_error_logs")
HOUR = 3600.0


@pytest.fixture
def simcord_bot(make_bot):  # type: ignore[no-untyped-def]
    """The test bot, dealing the easy deck (won by All up, then 8 x Draw and All up) to every challenge."""
    make_bot.numbers = lambda: EASY_NUMBER
    return make_bot()


@pytest.fixture
def dave(simcord_env, guild):  # type: ignore[no-untyped-def]
    return guild.add_member(simcord_env.create_user("dave"))


async def advance(env: Any, seconds: float) -> None:
    while seconds > 0:
        step = min(seconds, 6 * HOUR)
        await env.advance_time(step)
        seconds -= step


@pytest.mark.both_backends  # a main flow, on PostgreSQL too
async def test_three_members_one_declines_one_plays_late_a_restart_and_the_close_at_the_deadline(
    simcord_env, make_bot, channel, alice, bob, carol, dave
):
    message = await open_challenge(alice, channel, bob, carol, dave)
    shown = text(message)
    assert f"<@{alice.id}> challenges <@{bob.id}>, <@{carol.id}>, <@{dave.id}>" in shown
    assert "Scores stay hidden until it closes." in shown and str(EASY_NUMBER) not in shown
    assert set(labels(message)) == {"Play", "Accept", "Decline"}
    await bob.click(message, label="Accept")
    await carol.click(message, label="Decline")
    assert f"<@{carol.id}> · declined" in text(message) and f"<@{bob.id}> · accepted" in text(message)
    bob_board = await attempt(bob, message)
    assert "challenge deal" in bob_board.content and str(EASY_NUMBER) not in bob_board.content
    early = await bob.click(bob_board, label="Analyze")
    assert early.response.ephemeral and "opens when the challenge closes" in early.response.content
    await simcord_env.advance_time(3)
    assert f"<@{bob.id}> · ✅ played" in text(message) and "pts" not in text(message)  # the score stays hidden
    await simcord_env.restart_bot(make_bot())  # a restart in the middle
    await advance(simcord_env, 20 * HOUR)
    await attempt(alice, message, clicks=("All up", "Draw", "All up", "End game"))  # the challenger plays late
    await simcord_env.advance_time(3)
    assert "Challenge results" not in text(message)  # dave has not answered: it stays open to the deadline
    assert f"<@{alice.id}> challenges <@{bob.id}>, <@{carol.id}>, <@{dave.id}>:" in text(message)
    await advance(simcord_env, 4 * HOUR)
    results = text(message)
    assert "Challenge results" in results and not message.components
    lines = message.embeds[0].description.splitlines()
    assert lines[0].startswith(f"🥇 <@{alice.id}> · **") and lines[1].startswith(f"🥈 <@{bob.id}> · **")
    assert f"Did not play: <@{dave.id}>" in results and f"Declined: <@{carol.id}>" in results
    assert f"seed:{EASY_NUMBER}`" in results
    later = await bob.click(bob_board, label="Analyze")
    assert later.response.ephemeral and "Analysis" in later.response.content
    posts = await simcord_env.bot.db.fetchall("SELECT state FROM announcements WHERE kind = 'challenge'")
    assert [row["state"] for row in posts] == ["posted"]


async def test_open_scores_show_as_they_come_and_it_closes_once_everyone_played(simcord_env, channel, alice, bob):
    message = await open_challenge(alice, channel, bob, open=True)
    assert "Scores show as they come, so it is not rated." in text(message)
    await attempt(bob, message)
    await simcord_env.advance_time(3)
    assert f"<@{bob.id}> · **" in text(message) and "pts" in text(message)
    await attempt(alice, message)
    await simcord_env.advance_time(3)
    assert "Challenge results" in text(message)


async def test_bad_challenges_are_refused_privately(simcord_env, guild, channel, alice, bob):
    itself = await alice.slash(channel, "solitaire challenge", opponent=alice)
    assert itself.response.ephemeral and "yourself" in itself.response.content
    twice = await alice.slash(channel, "solitaire challenge", opponent=bob, opponent2=bob)
    assert twice.response.ephemeral and "twice" in twice.response.content
    plain = guild.create_text_channel(
        "plain", overwrites={guild.default_role: discord.PermissionOverwrite(embed_links=False)}
    )
    refused = await alice.slash(plain, "solitaire challenge", opponent=bob)
    assert refused.response.ephemeral and "**Embed Links**" in refused.response.content
    assert await challenges_db.open_challenges(simcord_env.bot.db) == []


async def test_forged_and_foreign_clicks_are_refused_privately(simcord_env, channel, alice, bob, carol):
    first = await open_challenge(alice, channel, bob)
    other = await open_challenge(bob, channel, carol)
    [forged] = await raw_clicks(simcord_env, carol, other, "chal:1:play")  # challenge 1's id on challenge 2's message
    assert forged.response.ephemeral and "not one I understand" in forged.response.content
    [junk] = await raw_clicks(simcord_env, carol, other, "chal:99999999999999999999:play")
    assert junk.response.ephemeral
    stranger = await carol.click(first, label="Accept")
    assert stranger.response.ephemeral and "does not name you" in stranger.response.content
    assert parse_challenge_click("chal:1:accept") is not None
    players = await challenges_db.players(simcord_env.bot.db, 1)
    assert [(p.user_id, p.answer, p.game_id) for p in players] == [
        (alice.id, "challenger", None),
        (bob.id, "invited", None),
    ]


async def test_a_challenge_game_is_the_members_one_running_game(simcord_env, channel, alice, bob):
    message = await open_challenge(alice, channel, bob)
    board = (await bob.click(message, label="Play")).response
    again = (await bob.click(message, label="Play")).response  # the same attempt, a fresh private board
    assert again.ephemeral and "challenge deal" in again.content
    other = await bob.slash(channel, "solitaire start")
    assert other.response.ephemeral and "already have" in other.response.content
    await bob.click(again, label="End game")
    third = await bob.click(message, label="Play")
    assert third.response.ephemeral and "one attempt" in third.response.content
    assert board is not None


async def test_a_member_name_made_of_markdown_never_shows_raw_in_the_challenge_or_its_results(
    simcord_env, guild, channel, bob
):
    mallory = guild.add_member(
        simcord_env.create_user("mallory"), nick="**@everyone** [Support](https://phish.example/login)"
    )
    message = await open_challenge(mallory, channel, bob, open=True)
    await attempt(bob, message)
    await attempt(mallory, message)
    await simcord_env.advance_time(3)
    shown = text(message)
    assert "Challenge results" in shown and f"<@{mallory.id}> · **" in shown  # members are named by mention
    posted = [m.content for m in channel.history()] + [text(m) for m in channel.history() if m.embeds]
    assert not any("phish.example" in post or "@everyone" in post for post in posted)


SLOW = 5.0
"""Seconds a slow step takes: past Discord's 3 s for a first answer."""


def slowed(monkeypatch: Any, owner: Any, name: str, seconds: float = SLOW) -> None:
    """Make ``owner.name`` (a coroutine function) take ``seconds`` before it runs: a deal solve, a slow post."""
    real = getattr(owner, name)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await virtual_sleep(seconds)  # on the test's clock: advance_time ends it
        return await real(*args, **kwargs)

    monkeypatch.setattr(owner, name, slow)


def empty_bank(monkeypatch: Any, deals: Any) -> None:
    """Make the deal bank empty: no deal ready, and taking one is a solve that outlasts Discord's 3 s."""
    monkeypatch.setattr(deals, "ready", lambda variant: False)
    slowed(monkeypatch, deals, "take")


RETRIES = 2.0
"""Seconds of the bot's clock that cover every retry of a message id's write (0.5 s, then 1 s)."""


async def stored_challenges(env: Any) -> list[tuple[int, str, int | None]]:
    rows = await env.bot.db.fetchall("SELECT id, status, message_id FROM challenges ORDER BY id")
    return [(row["id"], row["status"], row["message_id"]) for row in rows]


async def test_a_member_with_five_open_challenges_is_told_where_they_are_before_any_solve(
    simcord_env, channel, alice, bob, monkeypatch
):
    messages = [await open_challenge(alice, channel, bob) for _ in range(MAX_OPEN_PER_MEMBER)]
    solves = []
    monkeypatch.setattr(simcord_env.bot.challenges.deals, "take", lambda variant: solves.append(variant))
    refused = await alice.slash(channel, "solitaire challenge", opponent=bob)
    assert not refused.deferred and refused.response.ephemeral, refused
    shown = refused.response.content
    assert f"You have {MAX_OPEN_PER_MEMBER} open challenges in this server" in shown
    assert all(f"/{channel.id}/{message.id}" in shown for message in messages)
    assert solves == [] and len(await stored_challenges(simcord_env)) == MAX_OPEN_PER_MEMBER


async def test_a_challenge_waiting_for_its_deal_defers_and_its_message_works(
    simcord_env, channel, alice, bob, monkeypatch
):
    empty_bank(monkeypatch, simcord_env.bot.challenges.deals)  # the deal is solved now
    result = await alice.slash(channel, "solitaire challenge", variant="draw3", opponent=bob)
    assert result.deferred and not result.ephemeral
    await simcord_env.advance_time(SLOW)
    message = result.response
    assert "⚔️ Challenge" in text(message) and set(labels(message)) == {"Play", "Accept", "Decline"}
    accepted = await bob.click(message, label="Accept")
    assert accepted.acknowledged and f"<@{bob.id}> · accepted" in text(message)
    assert await stored_challenges(simcord_env) == [(1, "open", message.id)]


async def test_a_challenge_whose_message_could_not_be_posted_is_cancelled_and_posts_nothing(
    simcord_env, channel, alice, bob, monkeypatch, caplog
):
    empty_bank(monkeypatch, simcord_env.bot.challenges.deals)
    simcord_env.inject_error("PATCH", "/webhooks/*/messages/@original", status=500, times=None)
    result = await alice.slash(channel, "solitaire challenge", variant="draw3", opponent=bob)
    await simcord_env.advance_time(SLOW)
    assert await stored_challenges(simcord_env) == [(1, "cancelled", None)]
    assert "could not be posted, so it is cancelled" in caplog.text
    simcord_env.backend.faults.clear()
    await advance(simcord_env, 25 * HOUR)
    assert await simcord_env.bot.db.fetchall("SELECT id FROM announcements") == []  # no "Nobody played" later
    told = result.response  # the deferred answer's placeholder, filled by the one followup
    assert not told.embeds and "so it is cancelled" in told.content


async def test_a_message_id_not_stored_is_retried_then_the_message_says_cancelled(
    simcord_env, channel, alice, bob, monkeypatch
):
    failures = failing_message_writes(monkeypatch)
    failures[0] = MESSAGE_WRITES - 1  # fails, then lands on the last try: the buttons work
    kept = await open_challenge(alice, channel, bob)
    await simcord_env.advance_time(RETRIES)  # the retries wait on the bot's (virtual) clock
    accepted = await bob.click(kept, label="Accept")
    assert not accepted.ephemeral and f"<@{bob.id}> · accepted" in text(kept)
    failures[0] = MESSAGE_WRITES  # every try fails: cancelled, and the message says so
    result = await alice.slash(channel, "solitaire challenge", variant="draw3", opponent=bob)
    await simcord_env.advance_time(RETRIES)
    lost = result.response
    assert "Challenge cancelled" in text(lost) and not lost.components
    [told] = [message for message in result.followups if message.ephemeral]
    assert "could not be saved" in told.content and "cancelled" in told.content
    assert await stored_challenges(simcord_env) == [(1, "open", kept.id), (2, "cancelled", None)]
    await advance(simcord_env, 25 * HOUR)
    posts = await simcord_env.bot.db.fetchall("SELECT subject FROM announcements")
    assert [row["subject"] for row in posts] == ["1"]  # only the kept one's results
    assert "Challenge cancelled" in text(lost)


async def test_the_decline_that_closes_a_challenge_answers_the_click_before_the_results(
    simcord_env, channel, alice, bob, monkeypatch
):
    message = await open_challenge(alice, channel, bob)
    await attempt(alice, message)
    await simcord_env.advance_time(3)
    slowed(monkeypatch, challenge_commands, "show_results")  # Discord is slow on the results post
    declined = await bob.click(message, label="Decline")
    assert declined.acknowledged and not declined.ephemeral
    await simcord_env.advance_time(SLOW)
    assert "Challenge results" in text(message) and f"Declined: <@{bob.id}>" in text(message)


async def test_results_write_a_provisional_rating_as_the_ratings_command_does(simcord_env, channel, alice, bob):
    message = await open_challenge(alice, channel, bob)
    await attempt(alice, message, clicks=("All up", "Draw", "All up", "End game"))
    await attempt(bob, message)
    await simcord_env.advance_time(3)
    board = (await alice.slash(channel, "solitaire ratings", variant="draw3")).response.embeds[0].description
    for member in (alice, bob):
        [shown] = re.findall(rf"<@{member.id}> · (\d+\?) · 1 race", board)  # one race: provisional
        assert re.search(rf"<@{member.id}> · .* · {re.escape(shown)} \([+-]\d+\)", text(message)), text(message)
    assert "? = provisional" in message.embeds[0].footer.text


async def test_an_open_challenge_is_not_rated_and_says_so(simcord_env, channel, alice, bob):
    message = await open_challenge(alice, channel, bob, open=True)
    assert "so it is not rated" in text(message)
    await attempt(bob, message)
    await attempt(alice, message, clicks=("All up", "Draw", "All up", "End game"))
    await simcord_env.advance_time(3)
    assert "Not rated: the scores were shown as they came" in text(message)
    assert text(message).count("not rated") == 2
    assert await simcord_env.bot.db.fetchall("SELECT user_id FROM ratings") == []


async def test_opens_past_the_cap_sent_at_once_refuse_the_extra_ones_privately(simcord_env, channel, alice, bob):
    for _ in range(MAX_OPEN_PER_MEMBER - 1):
        await open_challenge(alice, channel, bob)
    burst = await slash_burst(simcord_env, alice, channel, "solitaire challenge", 3, opponent=bob)
    [opened] = [result.response for result in burst if not result.response.ephemeral]
    assert "⚔️ Challenge" in text(opened)
    refused = [result.response for result in burst if result.response.ephemeral]
    assert len(refused) == 2 and all(r.ephemeral and "5 open challenges in this server" in r.content for r in refused)
    assert len(await stored_challenges(simcord_env)) == MAX_OPEN_PER_MEMBER
