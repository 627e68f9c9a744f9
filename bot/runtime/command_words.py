"""The slash commands in each member's language: discord.py's :class:`~discord.app_commands.Translator` over the
catalogues, and the list of the commands' words for the catalogue's extraction.

A command's, group's or option's name is looked up under the context ``command name`` (its translation must be a
valid name: lower case, no spaces, 1-32 characters); a description or a choice's name is an ordinary sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from languages import for_discord

NAME_CONTEXT = "command name"
"""The catalogue's context of the words Discord takes as names."""
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})


class CommandWords(app_commands.Translator):
    """Names and descriptions of the commands, options and choices, from the catalogue of the member's language."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        """The translation of ``string`` for ``locale``; ``None`` (Discord shows the English) when it has none."""
        catalogue = for_discord(locale).catalogue()
        if catalogue is None:
            return None
        if context.location in NAMES:
            text = catalogue.pgettext(NAME_CONTEXT, string.message)  # type: ignore[attr-defined]
        else:
            text = catalogue.gettext(string.message)
        return text if isinstance(text, str) and text != string.message else None


def command_sentences(
    commands: Iterable[Any], group: tuple[str, str] | None = None
) -> Iterator[tuple[str | None, str]]:
    """Every (context, words) pair of a command tree: names under :data:`NAME_CONTEXT`, the rest without."""
    if group is not None:
        yield NAME_CONTEXT, group[0]
        yield None, group[1]
    for command in commands:
        yield NAME_CONTEXT, command.name
        yield None, command.description
        for parameter in getattr(command, "parameters", ()):
            yield NAME_CONTEXT, parameter.name
            yield None, parameter.description
            for choice in parameter.choices:
                yield None, choice.name
        yield from command_sentences(getattr(command, "commands", ()))
