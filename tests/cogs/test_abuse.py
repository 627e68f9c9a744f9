"""A hostile player: forged button ids, ids from other messages or servers, huge numbers, long text, spam."""

from __future__ import annotations

import json
from typing import Any

import pytest
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult

from bot.play.clicks import MAX_GAME_ID, BoardClick, OfferClick
from tests.support.decks import EASY_NUMBER
from tests.support.flows import raw_clicks, row, slash_burst, start

pytestmark = pytest.mark.usefixtures("no_error_logs")


async def click_from(
    env: Any, actor: Any, message: Any, custom_id: str, *, guild_id: int | None = None, channel_id: int | None = None
) -> Any:
    """Send ``custom_id`` as a click on ``message``, the id written into the message's first button.

    (A modified client's forgery: discord.py itself drops a click whose id is not on the message.)
    """
    stored = env.backend.get_message(message.channel_id, message.id)
    snapshot = json.loads(json.dumps(serializers.message_payload(env.backend, stored)))
    snapshot["components"][0]["components"][0]["custom_id"] = custom_id
    record, payload = sim_interactions.base_payload(
        env.backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=channel_id or message.channel_id,
        guild_id=guild_id if guild_id is not None else actor.guild.id,
        user_id=actor.id,
        data={"custom_id": custom_id, "component_type": ComponentType.BUTTON},
    )
    payload["message"] = snapshot
    record.source_message_id = stored.id
    env.backend.emit("INTERACTION_CREATE", payload)
    await env.settle()
    return InteractionResult(env, record)


async def test_a_valid_id_for_my_game_sent_from_another_players_board_edits_nothing(simcord_env, channel, alice, bob):
    bobs = await start(bob, channel, variant="draw3", deal=EASY_NUMBER)
    alices = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    before = (bobs.content, json.dumps(bobs.components))
    for action in ("draw", "1", "end"):
        forged = BoardClick(2, 0, None, action).custom_id  # alice's game 2, current version
        answer = await click_from(simcord_env, alice, bobs, forged)
        assert answer.response.ephemeral and "out of date" in answer.response.content
    assert (bobs.content, json.dumps(bobs.components)) == before  # bob's board untouched
    assert (await row(simcord_env, 2)).version == 0 and (await row(simcord_env, 2)).message_id == alices.id
    ended = await click_from(simcord_env, alice, bobs, OfferClick(2, "end").custom_id)
    assert "does not belong" in ended.response.content and (await row(simcord_env, 2)).status == "playing"


async def test_a_resume_forged_in_another_server_is_refused(simcord_env, channel, alice):
    await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    offer = (await alice.slash(channel, "solitaire start")).response
    other = simcord_env.create_guild("Elsewhere")
    elsewhere = other.create_text_channel("games")
    other.add_member(alice.user)
    forged = OfferClick(1, "resume").custom_id
    answer = await click_from(simcord_env, alice, offer, forged, guild_id=other.id, channel_id=elsewhere.id)
    assert answer.response.ephemeral and "does not belong" in answer.response.content
    record = await row(simcord_env)
    assert record.guild_id == alice.guild.id and record.channel_id == channel.id


@pytest.mark.parametrize(
    "custom_id",
    [
        f"sol:{MAX_GAME_ID + 1}:0:-:draw",
        "sol:9999999999999999999:0:-:draw",
        f"solr:{MAX_GAME_ID + 1}:resume",
        "sol:1:999999999:-:draw",
    ],
)
async def test_out_of_range_numbers_get_a_private_refusal(simcord_env, channel, alice, custom_id):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    (answer,) = await raw_clicks(simcord_env, alice, board, custom_id)
    assert answer.ephemeral
    assert any(words in answer.response.content for words in ("not one I understand", "out of date"))
    assert (await row(simcord_env)).version == 0


async def test_a_huge_move_gets_a_short_private_answer(simcord_env, channel, alice, caplog):
    await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    for text in ("3-" + "5" * 3000, "`" * 2500, "x\n" * 1500):
        answer = await alice.slash(channel, "solitaire move", move=text)
        content = answer.response.content
        assert answer.response.ephemeral and "is not a move" in content and len(content) < 200, content
    assert "ERROR" not in caplog.text
    assert (await row(simcord_env)).version == 0


async def test_a_reply_never_exceeds_discords_limit():
    from bot.errors import MAX_REPLY, excerpt, fit_reply

    assert len(fit_reply("x" * 5000)) == MAX_REPLY and fit_reply("ok") == "ok"
    assert excerpt("a\n`b`" + "c" * 100) == "a 'b'" + "c" * 18 + "…"


async def test_stats_of_a_former_member(simcord_env, guild, channel, alice, bob):
    await start(bob, channel, variant="draw3", deal=EASY_NUMBER)
    await bob.slash(channel, "solitaire end")
    guild.remove_member(bob)
    result = await alice.slash(channel, "solitaire stats", member=bob.user)
    assert result.response is not None and not result.response.ephemeral
    assert "bob" in json.dumps(result.response.message.embeds[0].to_dict())


async def test_twenty_simultaneous_numbered_starts_solve_once(simcord_env, channel, alice, monkeypatch):
    deals = simcord_env.bot.deals
    solved: list[tuple[str, int]] = []
    solver = deals.solver

    def counting(variant: str, number: int) -> Any:
        solved.append((variant, number))
        return solver(variant, number)

    monkeypatch.setattr(deals, "solver", counting)
    results = await slash_burst(simcord_env, alice, channel, "solitaire start", 20, variant="goldrush", deal=4242)
    boards = [r for r in results if r.response is not None and "deal #4242" in r.response.content]
    assert len(boards) == 1 and solved == [("goldrush", 4242)]
    answers = " ".join(r.response.content for r in results if r.response is not None and r.response.ephemeral)
    assert "already have a game" in answers
    await alice.slash(channel, "solitaire end")
    again = await alice.slash(channel, "solitaire start", variant="goldrush", deal=4242)
    assert "deal #4242" in again.response.content and solved == [("goldrush", 4242)]  # the cache, no solve


async def test_starts_are_limited_per_player(simcord_env, channel, alice):
    for _ in range(4):
        board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
        assert "deal #777" in board.content
        await alice.slash(channel, "solitaire end")
    refused = await alice.slash(channel, "solitaire start", variant="draw3", deal=EASY_NUMBER)
    assert refused.response.ephemeral and "Too many starts" in refused.response.content
    await simcord_env.advance_time(31)
    assert "deal #777" in (await start(alice, channel, variant="draw3", deal=EASY_NUMBER)).content
