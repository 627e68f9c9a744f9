"""What a member reads said in the pseudo-language: the English words left in it (a sentence that escaped ``_``).

Mentions, Discord timestamps, links, code spans (``/solitaire ...`` commands, move notation, seeds), card names and
numbers are not words; neither are the names given (a member's). Every other run of two ASCII letters is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import pytest

import languages.catalogues
from languages.pseudo import PSEUDO

TAGS = re.compile(r"<(?:@[!&]?\d+|#\d+|t:-?\d+(?::[tTdDfFR])?|a?:\w+:\d+)>")
"""Discord's mentions, channel links, timestamps and custom emoji."""
CODE = re.compile(r"`[^`\n]*`")
"""Code spans: the bot writes commands, options, notation and seeds in them."""
COMMAND = re.compile(r"/solitaire(?: [a-z_-]+)*(?: [a-z_0-9]+:\s?\S+)*")
"""A ``/solitaire ...`` command written outside a code span."""
NOTATION = re.compile(r"\b(?:[1-7w]|f[hscd]?|t\d{1,2})-(?:[1-7f]|f[hscd]?)\b|(?<![\w(])(?:draw|undo|end)(?=[.,;])")
"""Moves as the player types them (``3-5``, ``w-f``, ``draw``), quoted back in a sentence."""
LINK = re.compile(r"https?://\S+")
CARD = re.compile(r"(?<![A-Za-z])(?:10|[2-9AJQK])[♠♥♦♣]")
WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str, *, names: Iterable[str] = ()) -> list[str]:
    """The English words left in ``text`` once its tags, code, commands, notation, cards and ``names`` are out."""
    for kept in sorted(names, key=len, reverse=True):
        if kept:
            text = text.replace(kept, " ")
    for pattern in (TAGS, LINK, CODE, COMMAND, NOTATION, CARD):
        text = pattern.sub(" ", text)
    return WORD.findall(text)


def escaped(text: str, *values: object) -> list[str]:
    """The English words left in ``text`` once the values put into it are out (a sentence that escaped ``_``)."""
    return english_words(text, names=[str(value) for value in values])


def german_looking(text: str, *, names: Iterable[str] = ()) -> bool:
    """Whether ``text`` reads as said in the pseudo-language (it stands in for German while German is empty)."""
    return bool(text.strip()) and not english_words(text, names=names)


def message_texts(message: Any) -> Iterator[tuple[str, str]]:
    """``(where, text)`` of every text a member reads on a message: content, embed parts, button labels."""
    if message.content:
        yield "content", message.content
    for embed in message.embeds:
        for where, text in (
            ("embed title", embed.title),
            ("embed description", embed.description),
            ("embed footer", embed.footer.text),
            ("embed author", embed.author.name),
        ):
            if text:
                yield where, text
        for field in embed.fields:
            yield "field name", field.name
            yield "field value", field.value
    for row in message.components:
        for component in row.get("components", []):
            if component.get("label"):
                yield "button label", component["label"]
            for option in component.get("options", []):
                yield "option", option["label"]
            if component.get("placeholder"):
                yield "placeholder", component["placeholder"]


def make_german_pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make German's catalogue say the pseudo sentences (no German translation exists yet)."""
    real = languages.catalogues._catalogue
    monkeypatch.setattr(
        languages.catalogues, "_catalogue", lambda code: PSEUDO.catalogue() if code == "de" else real(code)
    )
