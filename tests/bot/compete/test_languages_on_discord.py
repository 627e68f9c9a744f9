"""A server that posts in another language on (simulated) Discord: its posts in its language, each member's in theirs.

The server speaks the pseudo-language (every sentence accented and longer); its members read English or the
pseudo-language privately, whatever the server's posts say.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import cogs.race_commands
from bot.compete import race as races
from bot.storage import races as races_db
from languages import ENGLISH
from languages.pseudo import PSEUDO, pseudo
from solitaire.speech import spoken
from tests.support.competition import advance_to, daily, instant_daily_solver, public
from tests.support.pseudo_words import escaped
from tests.support.races_on_discord import advance, click, open_race, simcord_bot

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["instant_daily_solver", "simcord_bot"]  # the instant daily deals; the easy deck dealt to every race

DAY_2 = datetime(2026, 1, 2, tzinfo=UTC)
DAY_3 = datetime(2026, 1, 3, tzinfo=UTC)


def dms(member: Any) -> list[str]:
    return [message.content for message in member.user.dm_channel.history()]


async def play(member: Any, channel: Any, *, score: bool) -> None:
    """Today's daily: all up (some points) or nothing, then the game ended."""
    board = await daily(member, channel)
    if score:
        await member.click(board, label="All up")
    ended = await member.slash(channel, "solitaire end")
    assert ended.response is not None and ended.response.ephemeral


async def test_a_servers_posts_are_in_its_language_and_each_members_words_in_theirs(
    simcord_env: Any, guild: Any, channel: Any, alice: Any, bob: Any
) -> None:
    speakers = simcord_env.bot.speakers
    await speakers.choose_for_server(guild.id, PSEUDO)
    await simcord_env.bot.daily.set_channel(guild.id, channel.id, podium_after="2026-01-01")  # as an admin sets it
    await speakers.choose_for_member(alice.id, ENGLISH)
    await speakers.choose_for_member(bob.id, PSEUDO)
    for member in (alice, bob):
        await member.slash(channel, "solitaire settings", reminders=True)
    await play(alice, channel, score=True)
    await play(bob, channel, score=False)
    lines = public(channel)
    assert len(lines) == 2 and all(escaped(line) == [] for line in lines), lines
    assert lines[0].startswith(f"<@{alice.id}> ") and lines[1].startswith(f"<@{bob.id}> ")

    again = await alice.slash(channel, "solitaire daily")  # her private answer: English, as she chose
    assert again.response.ephemeral and again.response.content.startswith("You already played today's")
    again = await bob.slash(channel, "solitaire daily")
    assert again.response.ephemeral and escaped(again.response.content) == [], again.response.content

    await advance_to(simcord_env, DAY_2 + timedelta(seconds=5))
    for member in (alice, bob):
        await play(member, channel, score=False)
    await advance_to(simcord_env, DAY_3 + timedelta(seconds=5))
    podium = public(channel)[4:]
    assert len(podium) == 1 and "02.01.2026" in podium[0] and escaped(podium[0]) == [], podium
    await advance_to(simcord_env, DAY_3 + timedelta(hours=20, seconds=1))
    [to_alice], [to_bob] = dms(alice), dms(bob)  # each member's direct message in their own language
    assert to_alice.startswith("Your 2-day daily streak in **Solitaire Club** ends"), to_alice
    assert escaped(to_bob, "Solitaire Club") == [], to_bob


async def test_a_races_updates_and_results_are_composed_in_its_servers_language(
    simcord_env: Any, guild: Any, channel: Any, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    await simcord_env.bot.speakers.choose_for_server(guild.id, PSEUDO)
    composed: list[tuple[str, str, str]] = []
    real = cogs.race_commands.race_message

    def recorded(snapshot: races.RaceSnapshot, *, now: float) -> dict[str, Any]:
        task = asyncio.current_task()
        language = str(getattr(spoken(), "language_code", "en"))
        composed.append((task.get_name() if task is not None else "", snapshot.race.status, language))
        return real(snapshot, now=now)

    monkeypatch.setattr(cogs.race_commands, "race_message", recorded)
    lobby = await open_race(alice, channel, players=2)
    await click(bob, lobby, pseudo("Join"))  # full: it starts (the race message's buttons are the server's words)
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    board = await click(alice, lobby, pseudo("Open my board"))
    await alice.click(board, label="All up")  # bob never moves: the race is not rated
    await advance(simcord_env, 320)
    race = await races_db.get_race(simcord_env.bot.db, 1)
    assert race is not None and race.status == "finished" and race.unrated_reason is not None
    assert escaped(race.unrated_reason) == [] and race.unrated_reason in lobby.embeds[0].description
    # What the race service shows by itself (the standings as they move, the results) is the server's; what a
    # member's command or click answers is composed in that member's task (the cogs speak the server's there).
    shown = [(status, language) for task, status, language in composed if task.startswith(("race-", "outbox"))]
    assert {status for status, _ in shown} == {"running", "finished"}
    assert {language for _, language in shown} == {"pseudo"}, composed
