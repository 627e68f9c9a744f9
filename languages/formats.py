"""Numbers, dates, times and places in the language being spoken, by Babel (English: as the bot always wrote them)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from babel import Locale
from babel.dates import format_date, format_datetime, format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal

from languages.catalogues import ENGLISH, find
from solitaire.speech import spoken


def spoken_locale() -> Locale | None:
    """Babel's locale of the language being spoken, or ``None`` for the English source."""
    catalogue = spoken()
    if catalogue is None:
        return None
    language = find(getattr(catalogue, "language_code", None))
    return None if language is None or language.is_source else language.locale


def number(value: int | float) -> str:
    """``value`` grouped the language's way: ``1,234`` in English, ``1.234`` in German.

    >>> number(12345)
    '12,345'
    """
    locale = spoken_locale()
    if locale is None:
        return f"{value:,}"
    return format_decimal(value, locale=locale)


def day(when: date) -> str:
    """A calendar day: ``2026-11-29`` in English (as the bot always wrote it), ``29.11.2026`` in German."""
    locale = spoken_locale()
    if locale is None:
        return when.isoformat()
    return format_date(when, format="medium", locale=locale)


def moment(when: datetime) -> str:
    """A date and time of day, in the language's usual short form."""
    locale = spoken_locale()
    return format_datetime(when, format="short", locale=locale or ENGLISH.locale)


def span(seconds: float) -> str:
    """A length of time in words: ``3 hours``, ``3 Stunden``."""
    locale = spoken_locale()
    return format_timedelta(timedelta(seconds=seconds), locale=locale or ENGLISH.locale)


_ORDINALS: dict[str, dict[str, str]] = {
    "en": {"one": "{n}st", "two": "{n}nd", "few": "{n}rd", "other": "{n}th"},
    "de": {"other": "{n}."},
    "fr": {"one": "{n}er", "other": "{n}e"},
    "es": {"other": "{n}.º"},
    "pt": {"other": "{n}º"},
}
"""Each language's ordinal suffixes, by CLDR's ordinal plural category (Babel tells the category)."""


def ordinal(place: int) -> str:
    """A place: ``1st`` / ``2nd`` in English, ``1.`` in German, ``1er`` / ``2e`` in French, ``1º`` in Portuguese.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '22nd']
    """
    locale = spoken_locale() or ENGLISH.locale
    forms = _ORDINALS.get(locale.language, _ORDINALS["en"])
    return forms.get(locale.ordinal_form(place), forms["other"]).format(n=place)


def listing(items: list[str]) -> str:
    """Items of a sentence as a list: ``a, b, c`` in English (as the bot always wrote it), ``a, b und c`` in German.

    >>> listing(["a game in progress", "an open challenge"])
    'a game in progress, an open challenge'
    """
    locale = spoken_locale()
    if locale is None or getattr(spoken(), "language_code", None) == "pseudo":
        return ", ".join(items)  # the pseudo-language has no "and" of its own (its numbers are German)
    return format_list(items, locale=locale)
