"""The catalogues: which language a Discord locale gets, plural rules, formats, the pseudo-language."""

from __future__ import annotations

import re
from datetime import date

import pytest

from languages import ENGLISH, LANGUAGES, find, for_discord, speaking_language
from languages.catalogues import LOCALES
from languages.formats import day, number, ordinal
from languages.pseudo import PSEUDO, pseudo
from solitaire.speech import _, n_, spoken

DISCORD_LOCALES = {
    "de": "de",
    "fr": "fr",
    "es-ES": "es_ES",
    "es-419": "es_ES",
    "pt-BR": "pt_BR",
    "en-US": "en",
    "en-GB": "en",
    "ja": "en",
    "pt-PT": "en",
    "": "en",
}


@pytest.mark.parametrize(("locale", "code"), DISCORD_LOCALES.items())
def test_each_discord_locale_gets_its_language_and_any_other_english(locale: str, code: str) -> None:
    assert for_discord(locale).code == code


def test_a_discord_locale_enum_is_read_by_its_value() -> None:
    import discord

    assert for_discord(discord.Locale.brazil_portuguese).code == "pt_BR"
    assert for_discord(discord.Locale.latin_american_spanish).code == "es_ES"


def test_every_language_but_english_has_its_catalogue_file() -> None:
    for language in LANGUAGES:
        path = LOCALES / language.code / "LC_MESSAGES" / "messages.po"
        assert path.exists() or language.is_source, language.code
    assert find("pseudo") is PSEUDO
    assert find("xx") is None and find(None) is None


def test_english_is_the_source_and_looks_nothing_up() -> None:
    with speaking_language(ENGLISH):
        assert spoken() is None
        assert _("You won in {time}", time="3:07") == "You won in 3:07"
        assert n_("{count} move", "{count} moves", 1234) == "1234 moves"


@pytest.mark.parametrize(
    ("code", "counts"),
    [
        ("de", {0: "other", 1: "one", 2: "other"}),
        ("fr", {0: "one", 1: "one", 2: "other"}),
        ("es_ES", {0: "other", 1: "one", 2: "other"}),
        ("pt_BR", {0: "one", 1: "one", 2: "other"}),
    ],
)
def test_each_catalogue_picks_its_own_plural_form(code: str, counts: dict[int, str]) -> None:
    """French and Brazilian Portuguese say "0 partie" (singular), German and Spanish "0 Spiele"."""
    language = find(code)
    assert language is not None
    catalogue = language.catalogue()
    assert catalogue is not None
    for count, form in counts.items():
        assert catalogue.plural(count) == (0 if form == "one" else 1), (code, count)  # type: ignore[attr-defined]


def test_formats_follow_the_spoken_language() -> None:
    assert (number(12345), day(date(2026, 11, 29)), ordinal(2)) == ("12,345", "2026-11-29", "2nd")
    german = find("de")
    assert german is not None
    with speaking_language(german):
        assert (number(12345), day(date(2026, 11, 29)), ordinal(2)) == ("12.345", "29.11.2026", "2.")
    french = find("fr")
    assert french is not None
    with speaking_language(french):
        assert (ordinal(1), ordinal(2)) == ("1er", "2e")
        assert n_("{count} move", "{count} moves", 12345).startswith("12\u202f345")


def test_the_pseudo_language_is_longer_accented_and_keeps_fields_and_tags() -> None:
    source = "**{name}** won <t:1764000000:R> with `/solitaire start` in {time}"
    text = pseudo(source)
    assert len(text) >= 1.4 * len(source) - 1
    assert "{name}" in text and "{time}" in text and "<t:1764000000:R>" in text
    assert "`/solitaire start`" in text  # a command stays one the member can type
    assert not re.search(r"[A-Za-z]", re.sub(r"\{\w+\}|<[^>]*>|`[^`]*`", "", text))
    with speaking_language(PSEUDO):
        said = _("You won in {time}", time="3:07")
        assert "3:07" in said and said.startswith("Ýóú")
        assert n_("{count} move", "{count} moves", 2500).startswith("2.500 ɱóṽéš")


def test_a_command_in_a_translation_is_written_as_the_members_discord_shows_it() -> None:
    """Translators keep ``/solitaire settings`` in English; a member of the language sees its translated names."""
    language = find("pt_BR")
    assert language is not None
    catalogue = language.catalogue()
    assert catalogue is not None
    name = catalogue.pgettext  # type: ignore[attr-defined]
    with speaking_language(language):
        said = _(
            "Language: **{language}** (your choice). Change it with `/solitaire settings language:`.", language="x"
        )
    path = (
        f"/{name('command name', 'solitaire')} {name('command name', 'settings')} {name('command name', 'language')}:"
    )
    assert f"`{path}`" in said and "/solitaire" not in said


def test_every_catalogue_is_read_once_at_start_up() -> None:
    """The bot reads them all before answering anyone; a sentence said later is a dictionary look-up."""
    from languages.catalogues import _catalogue, read_every_catalogue

    read_every_catalogue()
    before = _catalogue.cache_info()
    assert before.currsize == len(LANGUAGES) - 1  # English, the source, has none
    with speaking_language(find("de")):  # type: ignore[arg-type]
        _("Undo")
    assert _catalogue.cache_info().misses == before.misses
