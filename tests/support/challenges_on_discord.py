"""Challenges on SimCord: open one, read its message, play an attempt."""

from __future__ import annotations

from typing import Any


def text(message: Any) -> str:
    embed = message.embeds[0]
    return f"{embed.title}\n{embed.description}"


async def open_challenge(host: Any, channel: Any, *opponents: Any, **options: Any) -> Any:
    named = {"opponent" if n == 0 else f"opponent{n + 1}": member for n, member in enumerate(opponents)}
    result = await host.slash(channel, "solitaire challenge", variant="draw3", **named, **options)
    assert result.response is not None and not result.response.ephemeral, result
    return result.response


async def attempt(actor: Any, message: Any, *, clicks: tuple[str, ...] = ("All up", "End game")) -> Any:
    board = (await actor.click(message, label="Play")).response
    assert board.ephemeral and [a.filename for a in board.attachments] == ["board.png"], board.content
    for label in clicks:
        await actor.click(board, label=label)
    return board
