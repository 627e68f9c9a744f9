"""``/solitaire settings``: a player's preferences (the four-colour deck, streak reminders, their language), kept
across restarts."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.compete.reminders import MIN_STREAK, REMIND_BEFORE
from bot.storage import StorageError
from cogs.base import SolitaireCogBase
from cogs.errors import answer_privately, refusals
from languages import LANGUAGES, Language, for_discord
from solitaire.speech import N_, _

log = logging.getLogger(__name__)

AUTOMATIC = "auto"
"""The ``language:`` value of the automatic choice (a member's Discord language, a server's preferred locale)."""
LANGUAGE_NOT_SAVED = N_(
    "Your language was not saved (a storage problem on my side): nothing changed, please try again."
)


def language_choices(automatic: str) -> list[app_commands.Choice[str]]:
    """The ``language:`` option's choices: ``automatic`` (its English name), then each language by its own name."""
    return [app_commands.Choice(name=automatic, value=AUTOMATIC)] + [
        app_commands.Choice(name=language.name, value=language.code) for language in LANGUAGES
    ]


def chosen_language(value: str) -> Language | None:
    """The language a ``language:`` value names among those offered (``None``: automatic, also for a forged value
    no offered language has: the tests' pseudo-language is never a member's or a server's to choose).

    >>> chosen_language("de").name, chosen_language("pseudo"), chosen_language(AUTOMATIC)
    ('Deutsch', None, None)
    """
    return None if value == AUTOMATIC else next((language for language in LANGUAGES if language.code == value), None)


def four_colour_text(four_colour: bool, *, changed: bool) -> str:
    """The private answer: the four-colour choice (just made, or as it stands) and how to change it."""
    if changed and four_colour:
        return _("Four-colour cards are now **on**: clubs are green and diamonds blue on every board drawn for you.")
    if changed:
        return _(
            "Four-colour cards are now **off**: clubs and spades are black, diamonds and hearts red on every board "
            "drawn for you."
        )
    if four_colour:
        return _(
            "Four-colour cards are **on** (clubs are green and diamonds blue). "
            "Change it with `/solitaire settings four_colour: False`."
        )
    return _(
        "Four-colour cards are **off** (clubs and spades are black, diamonds and hearts red). "
        "Change it with `/solitaire settings four_colour: True`."
    )


def reminders_text(reminders: bool, *, changed: bool) -> str:
    """The private answer: the streak reminders (just turned on or off, or as they stand), what they do, how to change.

    >>> reminders_text(False, changed=True)
    'Streak reminders are now **off**.'
    """
    fields = {"days": MIN_STREAK, "hours": round(REMIND_BEFORE.total_seconds() / 3600)}
    if changed and not reminders:
        return _("Streak reminders are now **off**.")
    if changed:
        # Translators: {days} and {hours} are always more than one.
        return _(
            "Streak reminders are now **on**: when your daily streak in a server is {days} days or more and you have "
            "not played its daily yet, I send you one direct message {hours} hours before that server's day ends. "
            "Discord only lets me if you allow direct messages from the server's members.",
            **fields,
        )
    if reminders:
        # Translators: {days} and {hours} are always more than one.
        return _(
            "Streak reminders are **on** (when your daily streak in a server is {days} days or more and you have not "
            "played its daily yet, I send you one direct message {hours} hours before that server's day ends). "
            "Stop them with `/solitaire settings reminders: False`.",
            **fields,
        )
    # Translators: {days} and {hours} are always more than one.
    return _(
        "Streak reminders are **off**. Turn them on with `/solitaire settings reminders: True`: when your daily "
        "streak in a server is {days} days or more and you have not played its daily yet, I send you one direct "
        "message {hours} hours before that server's day ends.",
        **fields,
    )


def language_text(chosen: Language | None, spoken: Language, *, changed: bool) -> str:
    """The private answer: the member's language (just chosen, or as it stands), ``spoken`` the one they get now.

    >>> from languages import ENGLISH
    >>> language_text(None, ENGLISH, changed=True)
    'Language: **automatic**, your Discord language (now **English**).'
    """
    name = spoken.name
    if changed and chosen is not None:
        return _("Language: **{language}** from now on, in my answers to you.", language=name)
    if changed:
        return _("Language: **automatic**, your Discord language (now **{language}**).", language=name)
    if chosen is not None:
        return _(
            "Language: **{language}** (your choice). Change it with `/solitaire settings language:`.", language=name
        )
    return _(
        "Language: **automatic**, your Discord language (now **{language}**). "
        "Choose one with `/solitaire settings language:`.",
        language=name,
    )


class SettingsCommands(SolitaireCogBase):
    """The settings command of the ``/solitaire`` group (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    @app_commands.command(name="settings", description="Your settings (no option: show them)")
    @app_commands.describe(
        four_colour="Colour-blind-friendly cards: clubs green, diamonds blue",
        reminders="A direct message before your daily streak breaks (off unless you turn it on)",
        language="The language of my answers to you (automatic: your Discord language)",
    )
    @app_commands.choices(language=language_choices("Automatic (your Discord language)"))
    async def settings_command(
        self,
        interaction: discord.Interaction,
        four_colour: bool | None = None,
        reminders: bool | None = None,
        language: str | None = None,
    ) -> None:
        """Show the player's settings, or change them (redrawing their running boards for the deck).

        A new language is stored first (if the database refuses it, nothing else changes) and the answer is said in it.
        """
        async with refusals(interaction):
            user_id = interaction.user.id
            if four_colour is None and reminders is None and language is None:
                current = await self.bot.preferences.of(user_id)
                chosen = await self.bot.speakers.member_choice(user_id)
                text = "\n".join(
                    (
                        four_colour_text(current.four_colour, changed=False),
                        reminders_text(current.reminders, changed=False),
                        language_text(chosen, chosen or for_discord(interaction.locale), changed=False),
                    )
                )
                await interaction.response.send_message(text, ephemeral=True)
                return
            said_in: Language | None = None  # the new language, once stored: the answer is said in it
            chosen = chosen_language(language) if language is not None else None
            if language is not None:
                try:
                    await self.bot.speakers.choose_for_member(user_id, chosen)
                except StorageError as error:
                    log.warning("could not store the language of user %s: %s", user_id, error)
                    await answer_privately(interaction, _(LANGUAGE_NOT_SAVED))
                    return
                said_in = await self.bot.speakers.speak_to_member(user_id, interaction.locale)
            lines = []
            if reminders is not None:
                await self.bot.preferences.set_reminders(user_id, reminders)
                lines.append(reminders_text(reminders, changed=True))
            running = []
            if four_colour is not None:
                running = await self.bot.preferences.set_four_colour(user_id, four_colour)
                lines.insert(0, four_colour_text(four_colour, changed=True))
            if said_in is not None:
                lines.append(language_text(chosen, said_in, changed=True))
            await interaction.response.send_message("\n".join(lines), ephemeral=True)
            for session in running:
                await self.refresh_board(session)
