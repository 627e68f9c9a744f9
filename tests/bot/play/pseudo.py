"""What a sentence said in the pseudo-language may still hold in plain letters: only the values put into it."""

from __future__ import annotations

import re

WORD = re.compile(r"[A-Za-z]{2,}")
"""Two plain letters in a row: a word that escaped the catalogue (a card, a move or a suit is one letter)."""
TAGS = re.compile(r"<[^<>]*>|https?://\S+")


def escaped(text: str, *values: object) -> list[str]:
    """The plain words of ``text`` left once the named ``values`` put into it, Discord's tags and links are cut."""
    for value in sorted((str(value) for value in values), key=len, reverse=True):
        if value:
            text = text.replace(value, " ")
    return WORD.findall(TAGS.sub(" ", text))
