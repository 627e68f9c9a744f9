"""Which language the bot speaks to a member and to a server, and what it remembers of it."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.speakers import FRESH_FOR, Speakers
from bot.storage import Database
from languages import ENGLISH, find
from languages.pseudo import PSEUDO
from solitaire.speech import _, spoken
from tests.support.faults import LOCKED, WriteFaults

GERMAN, FRENCH = find("de"), find("fr")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def db(database_target: str | Path) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


@pytest.fixture
def locales() -> dict[int, object]:
    return {}


@pytest.fixture
def speakers(db: Database, locales: dict[int, object]) -> Speakers:
    return Speakers(db, now=Clock(), server_locale=locales.get)


async def test_a_member_reads_their_clients_locale_until_they_choose_their_own(speakers: Speakers) -> None:
    assert await speakers.member(7, "de") is GERMAN
    assert await speakers.member(7, "ja") is ENGLISH
    await speakers.choose_for_member(7, FRENCH)
    assert await speakers.member(7, "de") is FRENCH
    assert await speakers.member_choice(7) is FRENCH
    await speakers.choose_for_member(7, None)
    assert await speakers.member(7, "pt-BR") == find("pt_BR")


async def test_a_direct_message_is_written_in_the_last_locale_discord_reported(db: Database) -> None:
    """Outside an interaction (a reminder), the member's last locale is the one stored, even after a restart."""
    before = Speakers(db, now=Clock(), server_locale=lambda guild_id: None)
    await before.member(7, "es-419")
    await before.close()
    restarted = Speakers(db, now=Clock(), server_locale=lambda guild_id: None)
    assert (await restarted.member(7)).code == "es_ES"
    assert await restarted.member(8) is ENGLISH


async def test_a_servers_posts_follow_its_preferred_locale_unless_its_admins_chose(
    speakers: Speakers, locales: dict[int, object]
) -> None:
    locales[1] = "pt-BR"
    assert (await speakers.server(1)).code == "pt_BR"
    assert await speakers.server(2) is ENGLISH  # not known to this process
    assert await speakers.server(None) is ENGLISH  # a direct message's channel
    await speakers.choose_for_server(1, GERMAN)
    assert await speakers.server(1) is GERMAN and await speakers.server_choice(1) is GERMAN
    await speakers.choose_for_server(1, None)
    assert (await speakers.server(1)).code == "pt_BR"


async def test_another_process_choice_is_seen_within_a_minute(db: Database) -> None:
    clock = Clock()
    here = Speakers(db, now=clock, server_locale=lambda guild_id: None)
    elsewhere = Speakers(db, now=clock, server_locale=lambda guild_id: None)
    assert await here.member(7, "de") is GERMAN
    await elsewhere.choose_for_member(7, FRENCH)
    assert await here.member(7, "de") is GERMAN  # trusted for FRESH_FOR seconds
    clock.now += FRESH_FOR + 1
    assert await here.member(7, "de") is FRENCH


async def test_a_click_costs_no_database_statement_once_the_member_is_known(speakers: Speakers, db: Database) -> None:
    await speakers.member(7, "de")
    calls = 0
    fetchone = db.fetchone

    async def counted(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        return await fetchone(*args, **kwargs)  # type: ignore[arg-type]

    db.fetchone = counted  # type: ignore[method-assign]
    for _click in range(10):
        await speakers.member(7, "de")
    assert calls == 0


async def test_a_locked_database_costs_the_stored_choice_not_the_answer(
    speakers: Speakers, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    faults = WriteFaults(monkeypatch, tables=("player_settings",))
    faults.fail(at=1, message=LOCKED)
    assert await speakers.member(7, "de") is GERMAN  # answered before the locale is written
    await speakers.settled()
    assert "is not remembered" in caplog.text
    assert await speakers.member(7, "de") is GERMAN  # asked again: written this time
    await speakers.settled()
    assert (await Speakers(speakers._db, now=Clock(), server_locale=lambda guild_id: None).member(7)) is GERMAN
    faults.fail(at=1, message=LOCKED)
    with pytest.raises(sqlite3.OperationalError):
        await speakers.choose_for_member(7, FRENCH)
    assert await speakers.member_choice(7) is None


async def test_speaking_to_a_member_lasts_for_the_rest_of_the_task(speakers: Speakers) -> None:
    await speakers.choose_for_member(7, PSEUDO)
    assert await speakers.speak_to_member(7, "de") is PSEUDO
    assert spoken() is not None and _("Undo").startswith("Úñđó")


async def test_a_locale_that_changes_no_language_is_not_written(speakers: Speakers, db: Database) -> None:
    """An English client's first click writes nothing: English is what an unknown member reads anyway."""
    assert await speakers.member(7, "en-GB") is ENGLISH
    await speakers.settled()
    assert await db.fetchone("SELECT 1 FROM player_settings WHERE user_id = 7") is None
    assert await speakers.member(7, "de") is GERMAN
    await speakers.settled()
    assert await db.fetchone("SELECT discord_locale FROM player_settings WHERE user_id = 7") is not None


async def test_the_members_kept_in_memory_are_bounded(speakers: Speakers, monkeypatch: pytest.MonkeyPatch) -> None:
    """One process meets any number of members: the least recently seen are forgotten (and read again if back)."""
    monkeypatch.setattr("bot.speakers.KEPT", 3)
    for user_id in (1, 2, 3):
        await speakers.member(user_id, "de")
    await speakers.member(1, "de")  # seen again: kept
    await speakers.member(4, "fr")
    assert list(speakers._members) == [3, 1, 4]
    await speakers.settled()
    assert await speakers.member(2) is GERMAN  # read again from the database
