"""``/solitaire settings language:`` and ``/solitaire config language`` on (simulated) Discord.

No catalogue holds a translation yet, so German is made to say the pseudo-language here (every sentence
accented): a German answer is one with no English word left in it.
"""

from __future__ import annotations

from typing import Any

import pytest

import cogs.competition_commands
import cogs.settings_commands
from bot.compete.words import variant_title
from languages import find
from languages.pseudo import PSEUDO
from tests.support.faults import WriteFaults
from tests.support.pseudo_words import english_words, german_looking, make_german_pseudo
from tests.support.races_on_discord import open_race, simcord_bot, text

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["simcord_bot"]  # the bot dealing the easy deck to every race

GERMAN = find("de")
NAMES = ("Deutsch",)
"""A language's name is its own, in every language."""


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> None:
    """German says the pseudo sentences."""
    make_german_pseudo(monkeypatch)


async def private(actor: Any, channel: Any, command: str, **options: Any) -> str:
    result = await actor.slash(channel, command, **options)
    assert result.response is not None and result.response.ephemeral, result
    return str(result.response.content)


async def test_german_is_stored_and_every_private_answer_after_it_is_german(simcord_env, channel, alice, german):
    assert (await private(alice, channel, "solitaire settings")).endswith(
        "Language: **automatic**, your Discord language (now **English**). "
        "Choose one with `/solitaire settings language:`."
    )
    answer = await private(alice, channel, "solitaire settings", language="de")
    assert "**Deutsch**" in answer and german_looking(answer, names=NAMES), answer  # said in the new language
    assert await simcord_env.bot.speakers.member_choice(alice.id) == GERMAN
    summary = await private(alice, channel, "solitaire settings")
    assert "**Deutsch**" in summary and german_looking(summary, names=NAMES), english_words(summary, names=NAMES)


async def test_a_chosen_language_speaks_in_her_answers_and_buttons_and_nobody_elses(simcord_env, channel, alice, bob):
    await simcord_env.bot.speakers.choose_for_member(alice.id, PSEUDO)
    ask = (await alice.slash(channel, "solitaire forget-me")).response
    assert german_looking(ask.content), english_words(ask.content)
    labels = [c["label"] for row in ask.components for c in row["components"]]
    assert len(labels) == 2 and all(german_looking(label) for label in labels), labels
    cancelled = await alice.click(ask, custom_id=ask.components[0]["components"][1]["custom_id"])
    assert german_looking(cancelled.response.content), cancelled.response.content  # the question's language
    assert (await bob.slash(channel, "solitaire forget-me")).response.content.startswith("This deletes everything")


async def test_automatic_speaks_the_language_of_the_members_discord(
    simcord_env, channel, alice, german, member_locales
):
    await simcord_env.bot.speakers.choose_for_member(alice.id, PSEUDO)
    answer = await private(alice, channel, "solitaire settings", language=cogs.settings_commands.AUTOMATIC)
    assert answer == "Language: **automatic**, your Discord language (now **English**)."  # the new one: English
    assert await simcord_env.bot.speakers.member_choice(alice.id) is None
    member_locales[alice.id] = "de"  # her Discord client
    summary = await private(alice, channel, "solitaire settings")
    assert "**Deutsch**" in summary and german_looking(summary, names=NAMES), english_words(summary, names=NAMES)


async def test_the_servers_language_says_its_public_posts_and_the_admins_answer_stays_theirs(
    simcord_env, guild, channel, admin, alice, german
):
    shown = await private(admin, channel, "solitaire config language")
    assert shown == (
        "This server's public posts are in its own language (now **English**). "
        "Choose one with `/solitaire config language`."
    )
    answer = await private(admin, channel, "solitaire config language", language="de")
    assert answer == "This server's races, challenges and results are now posted in **Deutsch**."  # admin's English
    assert await simcord_env.bot.speakers.server_choice(guild.id) == GERMAN
    lobby = await open_race(alice, channel, variant="draw3", players=2)
    title = variant_title("draw3")  # the game's own words: translated by the game's definitions
    assert german_looking(text(lobby), names=[title]), english_words(text(lobby), names=[title])
    labels = [c["label"] for row in lobby.components for c in row["components"]]
    assert all(german_looking(label) for label in labels), labels
    assert (await private(alice, channel, "solitaire settings")).startswith("Four-colour cards are **off**")  # hers
    board = (await alice.slash(channel, "solitaire leaderboard", games="casual")).response  # the channel's
    assert not board.ephemeral and german_looking(board.embeds[0].title, names=[title]), board.embeds[0].title
    shown = await private(admin, channel, "solitaire config language")
    assert shown == "This server's public posts are in **Deutsch**. Change it with `/solitaire config language`."
    await private(admin, channel, "solitaire config language", language=cogs.settings_commands.AUTOMATIC)
    assert await simcord_env.bot.speakers.server_choice(guild.id) is None


async def test_the_servers_language_is_refused_without_manage_server(simcord_env, guild, channel, bob):
    refused = await private(bob, channel, "solitaire config language", language="de")
    assert refused == cogs.competition_commands.NOT_MANAGER
    assert await simcord_env.bot.speakers.server_choice(guild.id) is None


async def test_a_refused_write_of_a_members_language_says_so_and_changes_nothing(
    simcord_env, channel, alice, monkeypatch
):
    faults = WriteFaults(monkeypatch, tables=("player_settings",))
    await private(alice, channel, "solitaire settings")  # her client's locale is stored: no write is left but ours
    faults.fail(at=1)
    answer = await private(alice, channel, "solitaire settings", language="de", four_colour=True)
    assert answer == cogs.settings_commands.LANGUAGE_NOT_SAVED and faults.raised == 1
    assert await simcord_env.bot.speakers.member_choice(alice.id) is None
    assert not (await simcord_env.bot.preferences.of(alice.id)).four_colour  # nothing else changed either
    assert (await private(alice, channel, "solitaire settings")).startswith("Four-colour cards are **off**")


async def test_a_refused_write_of_the_servers_language_says_so_and_changes_nothing(
    simcord_env, guild, channel, admin, monkeypatch
):
    faults = WriteFaults(monkeypatch, tables=("guild_settings",))
    faults.fail(at=1)
    answer = await private(admin, channel, "solitaire config language", language="de")
    assert answer == cogs.competition_commands.SERVER_LANGUAGE_NOT_SAVED and faults.raised == 1
    assert await simcord_env.bot.speakers.server_choice(guild.id) is None


def test_the_language_choices_are_valid_for_discord():
    for command in (
        cogs.settings_commands.SettingsCommands.settings_command,
        cogs.competition_commands.CompetitionCommands.config_language,
    ):
        [option] = [p for p in command.parameters if p.name == "language"]
        assert [choice.value for choice in option.choices] == ["auto", "en", "de", "fr", "es_ES", "pt_BR"]
        assert all(len(choice.name) <= 100 for choice in option.choices)
        assert option.choices[0].name.startswith("Automatic (")


def test_a_forged_language_value_is_automatic_never_the_tests_pseudo_language():
    assert cogs.settings_commands.chosen_language("pseudo") is None
    assert cogs.settings_commands.chosen_language("xx") is None
    assert cogs.settings_commands.chosen_language("pt_BR") == find("pt_BR")
