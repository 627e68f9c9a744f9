"""Which language a message is written in, told by the catalogues themselves: the language whose sentences
(their fixed words, between the fields) cover most of the text."""

from __future__ import annotations

import re
from functools import cache

from babel.messages.pofile import read_po

from languages import LANGUAGES
from languages.catalogues import LOCALES

FIELD_OR_MARKUP = re.compile(r"\{[^{}]*\}|<[^<>]*>|\*\*|`|\n")
MIN_LENGTH = 5


def _words(text: str) -> str:
    """``text`` as lower-case words between single spaces (and one at each end), for whole-word matching."""
    return " " + " ".join(re.findall(r"\w+", text.lower())) + " "


def _pieces(sentence: str) -> set[str]:
    """The fixed words of a sentence long enough to tell a language by (each as :func:`_words` writes it)."""
    pieces = (_words(piece) for piece in FIELD_OR_MARKUP.split(sentence))
    return {piece for piece in pieces if len(piece.strip()) >= MIN_LENGTH}


@cache
def _fixed_words() -> dict[str, frozenset[str]]:
    """Each language's fixed words, those no other language's sentences share."""
    template = read_po((LOCALES / "messages.pot").open("rb"))
    words: dict[str, set[str]] = {"en": set()}
    for message in template:
        for source in [message.id] if isinstance(message.id, str) else message.id:
            if source:
                words["en"] |= _pieces(source)
    for language in LANGUAGES:
        if language.is_source:
            continue
        catalogue = read_po((LOCALES / language.code / "LC_MESSAGES" / "messages.po").open("rb"))
        found: set[str] = set()
        for message in catalogue:
            if message.id:
                for translation in [message.string] if isinstance(message.string, str) else message.string:
                    found |= _pieces(translation or "")
        words[language.code] = found
    shared = {
        word
        for code, found in words.items()
        for word in found
        if any(word in other for other_code, other in words.items() if other_code != code)
    }
    return {code: frozenset(found - shared) for code, found in words.items()}


def scores(text: str) -> dict[str, int]:
    """How many characters of ``text`` each language's fixed words cover."""
    words = _words(text)
    return {code: sum(len(piece) - 2 for piece in found if piece in words) for code, found in _fixed_words().items()}


def language_of(text: str) -> str | None:
    """The catalogue code of the language ``text`` is written in (``None``: no sentence of any language in it)."""
    found = scores(text)
    best = max(found, key=lambda code: found[code])
    return best if found[best] > 0 else None
