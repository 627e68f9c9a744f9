"""The slash commands as Discord shows them in each member's language: synced with valid localized names."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from languages import LANGUAGES

NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for a command's or option's name (``\\w`` with lower case checked apart)."""
TRANSLATED = [locale for language in LANGUAGES if not language.is_source for locale in language.discord_locales]


def _levels(command: dict[str, Any]) -> Iterator[list[dict[str, Any]]]:
    """Each list of siblings under a command: its subcommands or options, and theirs."""
    options = command.get("options") or []
    if options:
        yield options
    for option in options:
        yield from _levels(option)


def _everything(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield command
    for option in command.get("options") or []:
        yield from _everything(option)


def _said(item: dict[str, Any], key: str, locale: str) -> str:
    """What a member of ``locale`` sees: the localization, or the English where a word is the same in both."""
    return str((item.get(f"{key}_localizations") or {}).get(locale, item[key]))


def _solitaire(env: Any) -> dict[str, Any]:
    """The ``/solitaire`` group as the bot synced it."""
    (solitaire,) = [command for command in env.backend.commands[None].values() if command["name"] == "solitaire"]
    return solitaire


def test_every_name_and_description_is_synced_in_each_language_and_follows_discords_rules(simcord_env) -> None:
    solitaire = _solitaire(simcord_env)
    for locale in TRANSLATED:
        for level in [[solitaire], *_levels(solitaire)]:
            names = [_said(item, "name", locale) for item in level]
            assert len(set(names)) == len(names), (locale, names)
        for item in _everything(solitaire):
            name = _said(item, "name", locale)
            assert NAME.match(name) and name == name.lower(), (locale, name)
            description = _said(item, "description", locale)
            assert 1 <= len(description) <= 100, (locale, description)
            for choice in item.get("choices") or []:
                assert 1 <= len(_said(choice, "name", locale)) <= 100, (locale, choice)


def test_names_are_translated_not_copied(simcord_env) -> None:
    """Most names differ from the English in every language (a few, like ``stats``, may be the same word)."""
    solitaire = _solitaire(simcord_env)
    for locale in TRANSLATED:
        items = list(_everything(solitaire))
        same = [item["name"] for item in items if _said(item, "name", locale) == item["name"]]
        assert len(same) < len(items) / 2, (locale, same)
