"""The Activity under faults: a write the database refuses (full or locked disk) during a page's move or race join.

The page gets a clear refusal, the database and the bot's memory agree on what stands, and the same
request sent again once the database answers is played once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.compete.race import start as race_start
from bot.storage import races as races_db
from bot.storage.games import get_game
from tests.support.activity_stack import activity_stack
from tests.support.decks import EASY_NUMBER
from tests.support.faults import DISK_FULL, LOCKED, WriteFaults

NOT_SAVED = (
    "Your move was not saved (a storage problem on my side): nothing changed, please try again.",
    "I am busy right now: your move was not saved, try again.",
)
"""What the sessions say of a move whose save was refused (a busy database, or another storage problem)."""


@pytest.mark.parametrize("message", [DISK_FULL, LOCKED], ids=["full", "locked"])
async def test_a_move_whose_save_is_refused_is_refused_to_the_page_and_nothing_is_half_done(
    database_target: Any, monkeypatch: pytest.MonkeyPatch, message: str
) -> None:
    faults = WriteFaults(monkeypatch)
    async with activity_stack(database_target) as stack, stack.page(stack.player(31)) as page:
        game = (await page.ask("start", variant="draw3", kind="practice", deal=EASY_NUMBER))["game"]
        faults.fail(message)
        refused = await page.play(game, move="draw")
        assert faults.raised == 1
        assert refused["type"] == "refused", refused
        assert refused["reason"] in NOT_SAVED
        session = stack.services.sessions.get(game["id"])
        stored = await get_game(stack.services.db, game["id"])
        assert stored is not None and session is not None
        assert session.game.version == stored.version == 0, "memory and the database disagree"
        if refused["game"] is not None:
            assert refused["game"]["version"] == 0  # the page is shown the board as it stands

        again = await page.play(game, move="draw")  # the database answers again: the move plays, once
        assert again["type"] == "game" and again["game"]["version"] == 1
        stored = await get_game(stack.services.db, game["id"])
        assert stored is not None and stored.version == 1 and session.game.version == 1


async def test_a_race_join_whose_write_is_refused_leaves_the_lobby_as_it_was_and_a_retry_joins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(race_start, "COUNTDOWN_SECONDS", 1.0)
    faults = WriteFaults(monkeypatch, tables=("race_racers", "races"))
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob = stack.player(41, name="Ann"), stack.player(42, name="Bob")
        async with stack.page(ann) as a, stack.page(bob) as b:
            race = (await a.ask("race_open", variant="draw3", racers=2))["race"]
            faults.fail(LOCKED)
            refused = await b.ask("race_join", race=race["id"])
            assert faults.raised == 1
            assert refused["type"] == "refused", refused
            assert refused["reason"] == "Something went wrong on my side: nothing was changed. Try again in a moment."
            stored = await races_db.racers(stack.services.db, race["id"])
            assert [r.user_id for r in stored] == [41], "a racer half-joined"
            assert (await races_db.get_race(stack.services.db, race["id"])).status == "lobby"  # type: ignore[union-attr]

            joined = await b.ask("race_join", race=race["id"])  # full now: it starts
            assert joined["type"] == "race" and joined["race"]["status"] == "running", joined
            stored = await races_db.racers(stack.services.db, race["id"])
            assert sorted(r.user_id for r in stored) == [41, 42]
