"""Each language's catalogue, read once from its ``.po`` file, and the Discord locales it answers."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from gettext import GNUTranslations
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from solitaire.speech import Catalogue, speaking

LOCALES = Path(__file__).parent / "locales"
"""``locales/<code>/LC_MESSAGES/messages.po`` per language, and ``messages.pot``, the English source."""
DOMAIN = "messages"


@dataclass(frozen=True)
class Language:
    """A language the bot speaks: its code, its name in itself, the Discord locales it answers."""

    code: str
    """The catalogue's code: ``en``, ``de``, ``fr``, ``es_ES``, ``pt_BR`` (and ``pseudo`` in tests)."""
    name: str
    """Its name in its own words, as the settings list it: ``Deutsch``."""
    discord_locales: tuple[str, ...]
    """Discord's locales it serves: ``("es-ES", "es-419")``."""
    babel_locale: str = field(default="")
    """The locale Babel formats its numbers and dates in (the code, unless said)."""

    @property
    def locale(self) -> Locale:
        """Babel's locale of this language."""
        return Locale.parse(self.babel_locale or self.code)

    @property
    def discord_locale(self) -> str:
        """The Discord locale this language is first for (``pt-BR``)."""
        return self.discord_locales[0]

    @property
    def is_source(self) -> bool:
        """English: the sentences as written, nothing looked up."""
        return self.code == ENGLISH.code

    def catalogue(self) -> Catalogue | None:
        """The sentences of this language (``None`` for the English source)."""
        return None if self.is_source else _catalogue(self.code)


ENGLISH = Language("en", "English", ("en-US", "en-GB"))
LANGUAGES: tuple[Language, ...] = (
    ENGLISH,
    Language("de", "Deutsch", ("de",)),
    Language("fr", "Français", ("fr",)),
    Language("es_ES", "Español", ("es-ES", "es-419")),
    Language("pt_BR", "Português do Brasil", ("pt-BR",)),
)
"""Every language with a complete catalogue, English (the source) first."""

_BY_CODE = {language.code: language for language in LANGUAGES}
_BY_DISCORD = {locale.lower(): language for language in LANGUAGES for locale in language.discord_locales}


def find(code: str | None) -> Language | None:
    """The language of a catalogue code (``pt_BR``), or ``None`` for an unknown one."""
    if code is None:
        return None
    if code == "pseudo":
        from languages.pseudo import PSEUDO

        return PSEUDO
    return _BY_CODE.get(code)


def for_discord(locale: object) -> Language:
    """The language that answers a Discord locale (``discord.Locale`` or its value, ``"pt-BR"``); else English.

    >>> for_discord("pt-BR").code, for_discord("es-419").code, for_discord("ja").code, for_discord(None).code
    ('pt_BR', 'es_ES', 'en', 'en')
    """
    value = str(getattr(locale, "value", locale) or "").lower()
    return _BY_DISCORD.get(value, ENGLISH)


class Sentences(GNUTranslations):
    """A compiled catalogue: a translation is a dictionary look-up; numbers in the language's way."""

    language_code: str = "en"

    def number(self, value: int, /) -> str:
        """``value`` with the language's digit grouping."""
        return format_decimal(value, locale=_babel_locale(self.language_code))


@cache
def _babel_locale(code: str) -> Locale:
    language = find(code)
    return language.locale if language is not None else ENGLISH.locale


@cache
def _catalogue(code: str) -> Sentences:
    """Read ``code``'s ``.po`` once and compile it in memory (no compiled file to fall out of date)."""
    with (LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as source:
        parsed = read_po(source, locale=code, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, parsed, use_fuzzy=False)
    compiled.seek(0)
    sentences = Sentences(compiled)
    sentences.language_code = code
    _name_commands(sentences)
    return sentences


COMMAND_NAME = "command name"
"""The catalogue's context of the slash commands' names (their translations are what members type)."""
COMMAND_PATH = re.compile(r"/solitaire(?: [a-z0-9_-]+:?)*")


def _name_commands(sentences: Sentences) -> None:
    """Write every ``/solitaire start``-like command in a translation the way a member of the language sees it.

    Translators keep the commands in English; Discord shows a member each command's translated name, so the
    sentences name them so too (done once, when the catalogue is read).
    """
    catalog: dict[object, str] = sentences._catalog  # type: ignore[attr-defined]

    def named(word: str) -> str | None:
        said = catalog.get(f"{COMMAND_NAME}\x04{word}")
        return said if said else None

    def localized(match: re.Match[str]) -> str:
        words = match.group().split(" ")
        out = [f"/{named('solitaire') or 'solitaire'}"]
        for index, word in enumerate(words[1:], start=1):
            option = word.endswith(":")
            said = named(word.rstrip(":"))
            if said is None:
                out.extend(words[index:])
                break
            out.append(said + (":" if option else ""))
            if option:
                out.extend(words[index + 1 :])
                break
        return " ".join(out)

    for key, text in catalog.items():
        if isinstance(key, str) and "\x04" in key:
            continue
        if "/solitaire" in text:
            catalog[key] = COMMAND_PATH.sub(localized, text)


def read_every_catalogue() -> None:
    """Read every language's catalogue now (at start-up), not on the first sentence said in it (15-30 ms each)."""
    for language in LANGUAGES:
        language.catalogue()


@contextmanager
def speaking_language(language: Language) -> Iterator[None]:
    """Say everything in the block in ``language``."""
    with speaking(language.catalogue()):
        yield
