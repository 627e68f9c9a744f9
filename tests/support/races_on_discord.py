"""Races on SimCord: the bot dealing the easy deck, a lobby, a racer's board, a win by clicks.

``simcord_bot`` overrides the bot of ``tests/conftest.py`` in the test modules that import it, and only there.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.decks import EASY_NUMBER


@pytest.fixture
def simcord_bot(make_bot):  # type: ignore[no-untyped-def]
    """The test bot, dealing the easy deck (won by All up, then 8 x Draw and All up) to every race."""
    make_bot.numbers = lambda: EASY_NUMBER
    return make_bot()


def text(message: Any) -> str:
    embed = message.embeds[0]
    return f"{embed.title}\n{embed.description}"


async def advance(env: Any, seconds: float) -> None:
    """Advance the virtual clock in steps (each step of SimCord's has its own real-time budget)."""
    while seconds > 0:
        step = min(seconds, 20.0)
        await env.advance_time(step)
        seconds -= step


async def open_race(host: Any, channel: Any, **options: Any) -> Any:
    result = await host.slash(channel, "solitaire race", **options)
    assert result.response is not None and not result.response.ephemeral, result
    return result.response


async def click(actor: Any, message: Any, label: str) -> Any:
    result = await actor.click(message, label=label)
    return result.response


async def open_board(actor: Any, lobby: Any) -> Any:
    board = await click(actor, lobby, "Open my board")
    assert board.ephemeral and [a.filename for a in board.attachments] == ["board.png"], board.content
    return board


async def win_by_clicks(actor: Any, board: Any) -> None:
    await actor.click(board, label="All up")
    for _ in range(8):
        await actor.click(board, label="Draw")
        await actor.click(board, label="All up")
    assert "**won**" in board.content
