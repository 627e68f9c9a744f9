"""The pseudo-language of the tests: every English sentence 40 % longer and every letter accented.

A picture or a message said in it shows at once a sentence that escaped the catalogue (plain ASCII letters) and
a box too small for a long translation (German is often 30-40 % longer than English). Named fields (``{time}``)
Discord's tags (``<t:...>``, ``<@...>``), code spans (a ```/solitaire start``` in backticks) and links are
kept as they are.
"""

from __future__ import annotations

import math
import re
from functools import cache

from babel.numbers import format_decimal

from languages.catalogues import Language

ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ",
)
"""Each ASCII letter and its accented twin (DejaVu draws them all)."""
LONGER = 0.4
"""How much longer than the English every pseudo sentence is."""
KEPT = re.compile(r"\{[^{}]*\}|<[^<>]*>|`[^`]*`|https?://\S+")
"""What is not accented: named fields, Discord's tags, code spans (commands, notation), links."""
FILLER = "ẍ"


def pseudo(message: str) -> str:
    """``message`` accented and 40 % longer, its fields and tags untouched.

    >>> pseudo("You won in {time}")
    'Ýóú ŵóñ íñ {time} ẍẍẍẍẍẍ'
    """
    pieces: list[str] = []
    end = 0
    for kept in KEPT.finditer(message):
        pieces.append(message[end : kept.start()].translate(ACCENTED))
        pieces.append(kept.group())
        end = kept.end()
    pieces.append(message[end:].translate(ACCENTED))
    text = "".join(pieces)
    if not message.strip():
        return text
    extra = max(1, math.ceil(len(message) * LONGER) - 1)
    trailing = len(text) - len(text.rstrip())
    return text[: len(text) - trailing] + " " + FILLER * extra + text[len(text) - trailing :]


class PseudoSentences:
    """The pseudo-language's catalogue: every sentence made from its English source."""

    language_code = "pseudo"

    @cache  # noqa: B019 - one catalogue lives as long as the process
    def gettext(self, message: str, /) -> str:
        """The pseudo sentence of ``message``."""
        return pseudo(message)

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        """The pseudo sentence of the English form ``count`` takes."""
        return self.gettext(singular if count == 1 else plural)

    def number(self, value: int, /) -> str:
        """``value`` grouped as German does (``1.234``): the pseudo-language is not English."""
        return format_decimal(value, locale="de")


class _Pseudo(Language):
    def catalogue(self) -> PseudoSentences:
        """The pseudo sentences."""
        return _SENTENCES


_SENTENCES = PseudoSentences()
PSEUDO = _Pseudo("pseudo", "Ƥšéúðó", ("pseudo",), babel_locale="de")
"""The tests' language (never offered to players): formats like German, says English accented and longer."""
