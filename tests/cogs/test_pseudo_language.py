"""A member who speaks the pseudo-language plays the casual flow: no English word reaches them, nothing overflows.

Every message content, embed text and button label the member receives is checked: no word escaped the
catalogue (:mod:`tests.support.pseudo_words`), no button label is longer than Discord takes, no embed is either.
"""

from __future__ import annotations

from typing import Any

import pytest

from languages.pseudo import PSEUDO
from render.sprites import watching
from tests.support.decks import EASY_NUMBER
from tests.support.pseudo_words import english_words, message_texts

pytestmark = pytest.mark.usefixtures("no_error_logs")

LABEL = 80
"""Discord's limits: a button's label, and an embed's parts and whole."""
EMBED = {"title": 256, "description": 4096, "field name": 256, "field value": 1024, "footer": 2048, "total": 6000}


def check(message: Any, names: tuple[str, ...], seen: list[str]) -> None:
    """Assert nothing English is left on ``message`` and that Discord takes each of its parts."""
    for where, text in message_texts(message):
        left = english_words(text, names=names)
        assert not left, f"English in the {where}: {left}\n{text}"
        if where == "button label":
            assert len(text) <= LABEL, text
        seen.append(text)
    for attachment in message.attachments:
        alt = attachment.description or ""
        assert alt and not english_words(alt, names=names), f"English in a picture's alt text: {alt}"
        seen.append(alt)
    for embed in message.embeds:
        assert len(embed.title or "") <= EMBED["title"]
        assert len(embed.description or "") <= EMBED["description"]
        assert len(embed.footer.text or "") <= EMBED["footer"]
        for field in embed.fields:
            assert len(field.name) <= EMBED["field name"] and len(field.value) <= EMBED["field value"], field
        assert len(embed) <= EMBED["total"], len(embed)


def by_action(message: Any, action: str) -> str:
    """The custom id of the button of ``message`` that does ``action`` (a part of its id)."""
    for row in message.components:
        for component in row["components"]:
            if action in component.get("custom_id", "").split(":"):
                return str(component["custom_id"])
    raise AssertionError(f"no {action} button on the board")


async def test_the_casual_flow_in_the_pseudo_language(simcord_env, guild, channel, alice):
    await simcord_env.bot.speakers.choose_for_member(alice.id, PSEUDO)
    await simcord_env.bot.speakers.choose_for_server(guild.id, PSEUDO)  # what the channel sees: stats
    names = (alice.name, guild.name)
    seen: list[str] = []

    async def command(name: str, **options: Any) -> Any:
        result = await alice.slash(channel, name, **options)
        for message in [result.response, *result.followups]:
            if message is not None:
                check(message, names, seen)
        return result.response

    async def click(message: Any, action: str) -> Any:
        result = await alice.click(message, custom_id=by_action(message, action))
        for shown in [result.response, *result.followups]:
            if shown is not None:
                check(shown, names, seen)
        check(message, names, seen)  # the message as the click left it
        return result

    with watching() as drawn:
        await play(command, click)
    assert len(seen) > 40, seen
    assert len(drawn) > 20, drawn  # the words drawn on every board and the stats card
    for written in drawn:
        assert not english_words(written.value, names=names), f"English drawn on a picture: {written.value!r}"
        assert written.width <= written.room + 0.5, f"{written.value!r} crosses its box"


async def play(command: Any, click: Any) -> None:
    """The casual flow: help, two games (one resumed), the buttons, settings, rules and stats."""
    await command("solitaire help")
    await command("solitaire start", variant="draw3", deal=EASY_NUMBER)
    offer = await command("solitaire start", variant="draw3")  # one running already: resume or end it
    [board] = (await click(offer, "resume")).followups  # a fresh board
    await click(board, "draw")
    await click(board, "pick")  # Choose: the board waits for a card
    await click(board, "pick")  # and cancels
    await command("solitaire draw")
    await click(board, "hint")
    await click(board, "end")
    await command("solitaire settings")
    await command("solitaire settings", four_colour=True)
    await command("solitaire rules", variant="draw3")
    await command("solitaire stats")
