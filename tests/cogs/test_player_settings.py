"""``/solitaire settings four_colour:`` on (simulated) Discord: private answers, persistence, every board drawn."""

from __future__ import annotations

from typing import Any

import pytest

import bot.play.render_pool
from render import render_board
from solitaire.deals import DealRequest, ProvenDeal
from tests.support.decks import EASY_KLONDIKE, EASY_NUMBER

pytestmark = pytest.mark.usefixtures("no_error_logs")


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The ``four_colour`` choice of every board the bot renders (the real renderer still draws them)."""
    seen: list[bool] = []

    def spy(view: Any, **options: Any) -> bytes:
        seen.append(options.get("four_colour", False))
        return render_board(view, **options)

    monkeypatch.setattr(bot.play.render_pool, "render_board", spy)
    return seen


@pytest.fixture(autouse=True)
def instant_daily(make_bot) -> None:
    def solver(request: DealRequest) -> ProvenDeal:
        return ProvenDeal(request.variant, 0, EASY_KLONDIKE, ())

    make_bot.daily_solve = solver


async def settings(actor: Any, channel: Any, **options: Any) -> str:
    result = await actor.slash(channel, "solitaire settings", **options)
    assert result.response is not None and result.response.ephemeral, result
    return str(result.response.content)


async def board_png(message: Any) -> bytes:
    [attachment] = message.attachments
    return bytes(await attachment.read())


async def start(actor: Any, channel: Any) -> Any:
    result = await actor.slash(channel, "solitaire start", variant="draw3", deal=EASY_NUMBER)
    assert result.response is not None and not result.response.ephemeral, result
    return result.response


async def test_the_setting_is_off_by_default_persists_across_a_restart_and_changes_the_picture(
    simcord_env, channel, alice, make_bot
):
    assert (await settings(alice, channel)).startswith("Four-colour cards are **off**")
    plain = await board_png(await start(alice, channel))
    await alice.slash(channel, "solitaire end")

    answer = await settings(alice, channel, four_colour=True)
    assert answer.startswith("Four-colour cards are now **on**: clubs are green and diamonds blue")
    await simcord_env.restart_bot(make_bot())
    assert (await settings(alice, channel)).startswith("Four-colour cards are **on**")
    coloured = await board_png(await start(alice, channel))
    assert coloured.startswith(b"\x89PNG") and coloured != plain

    await alice.slash(channel, "solitaire end")
    await settings(alice, channel, four_colour=False)
    assert await board_png(await start(alice, channel)) == plain


async def test_every_board_of_the_player_uses_the_setting(simcord_env, channel, alice, bob, make_bot, renders):
    board = await start(alice, channel)
    assert renders == [False]
    await settings(alice, channel, four_colour=True)  # the running board is redrawn at once
    assert renders == [False, True]
    before = await board_png(board)

    await alice.click(board, label="Pile 1")  # a selection (no new picture), then a move
    await alice.click(board, label="♠")
    await alice.slash(channel, "solitaire draw")  # a slash move redraws the stored board
    await simcord_env.restart_bot(make_bot())  # the resumed game reads the setting again
    await alice.click(board, label="Draw")
    await simcord_env.advance_time(301)  # the clock's final picture
    assert "time is up" in board.content
    daily = await alice.slash(channel, "solitaire daily", variant="draw3")
    assert daily.response.ephemeral
    assert renders == [False] + [True] * 6
    assert await board_png(board) != before

    renders.clear()
    await start(bob, channel)  # another player's boards keep the default
    assert renders == [False]
