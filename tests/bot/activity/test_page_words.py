"""The page is spoken to in its player's language: their choice, else the locale Discord reports for them, else the
one their page's client reports (only if it is one of Discord's); its words, its refusals and what is pushed to it
(each page in its own language), and the words it is served before its sign-in (its browser's language)."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord

from bot.activity.door import BOT_LEFT
from bot.activity.page_words import COUNTED, DISCORD_LOCALES, WORDS, accepted_language, known_locale, speech_of
from bot.activity.race_cards import SOMEONE
from bot.storage import languages as stored
from languages import ENGLISH, find
from languages.pseudo import PSEUDO
from solitaire.deals import MAX_DEAL_NUMBER
from tests.support.activity_stack import CHANNEL, GUILD, Page, Stack, activity_stack, players, until
from tests.support.fake_discord_api import FakePlayer

NAMES = re.compile(r"\{\w+\}|<[^>]*>|#?\d[\d.,]*|\bAnn\b|\bBob\b")
"""What a translated sentence keeps as it is: its fields, tags, numbers, and the players' names."""


def english_left(text: str) -> list[str]:
    """ASCII words left in ``text`` once its fields and names are taken out: a sentence that escaped ``_``."""
    return re.findall(r"[A-Za-z]{2,}", NAMES.sub(" ", text))


@contextlib.asynccontextmanager
async def page_of(stack: Stack, player: FakePlayer, locale: str | None = None) -> AsyncIterator[Page]:
    """A page of ``player`` signed in with its client's ``locale`` in its ``hello``, after its ``welcome``."""
    async with aiohttp.ClientSession() as http, http.ws_connect(stack.url + "/ws") as ws:
        page = Page(ws)
        hello: dict[str, Any] = {"access_token": player.token, "instance_id": "i-1", "guild_id": str(GUILD)}
        await page.send(type="hello", channel_id=str(CHANNEL), **hello, **({"locale": locale} if locale else {}))
        page.welcome = await page.next()
        yield page


def test_every_word_of_the_page_is_said_in_each_language_and_its_counted_ones_in_each_form() -> None:
    english, pseudo = speech_of(ENGLISH), speech_of(PSEUDO)
    assert set(english["words"]) == set(pseudo["words"]) == set(WORDS) | set(COUNTED)
    assert english["words"]["new_game"] == "New game" and english["locale"] == "en"
    assert english["words"]["racer_count"] == {"one": "{count} racer", "other": "{count} racers"}
    assert english["ordinals"] == {"one": "{n}st", "two": "{n}nd", "few": "{n}rd", "other": "{n}th"}
    assert pseudo["locale"] == "de" and pseudo["ordinals"] == {"other": "{n}."}
    for word in pseudo["words"].values():
        for form in word.values() if isinstance(word, dict) else [word]:
            assert english_left(form) == [], form
    for key in COUNTED:
        forms = english["words"][key]
        assert isinstance(forms, dict) and all("{count}" in form for form in forms.values()), key
    assert speech_of(PSEUDO) is pseudo  # made once


def test_a_page_names_a_locale_only_if_it_is_discords_and_a_browser_asks_among_the_bots_languages() -> None:
    assert sorted(DISCORD_LOCALES.values()) == sorted(locale.value for locale in discord.Locale)
    assert [known_locale(value) for value in ("de", "PT-br", "es-419", "xx-YY", "", None, 7, "de" * 9)] == [
        "de",
        "pt-BR",
        "es-419",
        None,
        None,
        None,
        None,
        None,
    ]
    assert accepted_language("fr-CA,fr;q=0.9,en;q=0.8").code == "fr"
    assert accepted_language("ja,pt;q=0.5,de;q=0.7").code == "de"
    assert accepted_language("es-MX").code == "es_ES"
    assert accepted_language("ja, ko;q=0.9, *;q=0.1") is ENGLISH
    assert accepted_language("de;q=0, fr;q=bad") is ENGLISH
    assert accepted_language(None) is ENGLISH


async def test_a_page_of_a_german_or_brazilian_client_is_spoken_to_in_its_language(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob = players(stack, 21, 22)
        bob.locale = "pt-BR"  # Discord says Bob's client is in Brazilian Portuguese: it beats his page's word
        async with page_of(stack, ann, "de") as a, page_of(stack, bob, "de") as b:
            german, brazilian = find("de"), find("pt_BR")
            assert german is not None and brazilian is not None
            assert a.welcome["type"] == "welcome" and a.welcome["locale"] == "de"
            assert a.welcome["words"] == speech_of(german)["words"]
            assert b.welcome["locale"] == "pt-BR" and b.welcome["words"] == speech_of(brazilian)["words"]
        known = await stored.member_language(stack.services.db, 21)
        assert known.discord_locale == "de"  # remembered, as an interaction's locale is


async def test_a_locale_that_is_not_discords_is_ignored_and_the_page_is_spoken_to_in_english(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob = players(stack, 21, 22)
        async with page_of(stack, ann, "xx-YY") as a, page_of(stack, bob, "ja") as b:
            for page in (a, b):
                assert page.welcome["locale"] == "en" and page.welcome["words"] == speech_of(ENGLISH)["words"]
                refused = await page.ask("start", variant="draw3", kind="practice", deal=MAX_DEAL_NUMBER + 1)
                assert refused["reason"].startswith("There is no deal #")
        assert (await stored.member_language(stack.services.db, 21)).discord_locale is None  # never remembered


async def test_a_members_choice_beats_every_locale_and_their_refusals_are_said_in_it(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        [ann] = players(stack, 21)
        ann.locale = "de"
        await stack.services.speakers.choose_for_member(21, PSEUDO)
        async with page_of(stack, ann, "fr") as a:
            assert a.welcome["locale"] == "de" and a.welcome["words"] == speech_of(PSEUDO)["words"]
            too_far = await a.ask("start", variant="draw3", kind="practice", deal=MAX_DEAL_NUMBER + 1)
            not_mine = await a.ask("move", game=987654, version=0, move="draw")
            for refused in (too_far, not_mine):
                assert refused["type"] == "refused" and english_left(refused["reason"]) == [], refused["reason"]
            assert f"#{MAX_DEAL_NUMBER + 1}" in too_far["reason"]
            assert (await a.ask("race_join", race=1234))["type"] == "refused"


async def test_a_menu_brings_the_words_again_once_the_member_chose_another_language(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        [ann] = players(stack, 21)
        async with page_of(stack, ann) as a:
            assert a.welcome["locale"] == "en"
            assert "words" not in await a.ask("menu")
            await stack.services.speakers.choose_for_member(21, PSEUDO)
            menu = await a.ask("menu")
            assert menu["locale"] == "de" and menu["words"] == speech_of(PSEUDO)["words"]
            assert "words" not in await a.ask("menu")  # told once
            refused = await a.ask("move", game=987654, version=0, move="draw")
            assert english_left(refused["reason"]) == []


async def test_each_page_is_pushed_a_race_and_told_goodbye_in_its_own_language(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob = players(stack, 21, 22)
        await stack.services.speakers.choose_for_member(22, PSEUDO)
        async with page_of(stack, ann) as a, page_of(stack, bob) as b:
            await stack.services.races.open(guild_id=GUILD, channel_id=CHANNEL, host_id=99, variant="draw3", capacity=2)
            english = await until(a, lambda frame: frame["type"] == "race")
            pseudo = await until(b, lambda frame: frame["type"] == "race")
            assert english["race"]["host"]["name"] == SOMEONE  # a host whose name is known nowhere here
            assert pseudo["race"]["host"]["name"] != SOMEONE and english_left(pseudo["race"]["host"]["name"]) == []
            assert stack.services.activity is not None
            await stack.services.activity.server_gone(GUILD)
            assert (await until(a, lambda frame: frame["type"] == "bye"))["reason"] == BOT_LEFT
            bye = await until(b, lambda frame: frame["type"] == "bye")
            assert english_left(bye["reason"]) == [] and bye["final"]


async def test_the_page_is_served_with_the_words_of_the_language_its_browser_asks_for(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, aiohttp.ClientSession() as http:
        for asked, language in (("de-AT,de;q=0.9", "de"), ("ja", "en"), (None, "en")):
            headers = {"Accept-Language": asked} if asked else {}
            async with http.get(stack.url + "/", headers=headers) as answer:
                page = await answer.text()
                assert answer.headers["Vary"] == "Accept-Language"
            assert f'<html lang="{language}">' in page and "{{" not in page
            script = re.search(r'<script type="application/json" id="speech">(.*?)</script>', page)
            assert script is not None and "<" not in script.group(1)
            found = find(language)
            assert found is not None and json.loads(script.group(1)) == speech_of(found)
