"""Playing through the Activity's socket: the real server over the real sessions, into the database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage.games import get_game
from tests.bot.activity.harness import GUILD, activity_stack
from tests.bot.decks import EASY_NUMBER


async def test_a_practice_game_is_started_moved_and_saved(database_target: Path | str) -> None:
    async with activity_stack(database_target) as stack:
        player = stack.player(11)
        async with stack.page(player) as page:
            assert page.welcome["type"] == "welcome"
            assert page.welcome["user"] == {"id": "11", "name": "Player"}
            started = await page.ask("start", variant="draw3", kind="practice", deal=EASY_NUMBER)
            game = started["game"]
            assert started["type"] == "game" and game["kind"] == "practice" and game["version"] == 0
            assert all(isinstance(card, str) for pile in game["tableau"] for card in pile["up"])
            moved = await page.play(game, move="draw")
            assert moved["type"] == "game" and moved["game"]["version"] == 1
            assert moved["words"].startswith("draw")
        stored = await get_game(stack.services.db, game["id"])
        assert stored is not None and stored.version == 1 and stored.guild_id == GUILD and stored.user_id == 11


async def test_an_illegal_move_is_refused_in_the_engines_words_and_nothing_changes(database_target: Any) -> None:
    async with activity_stack(database_target) as stack:
        async with stack.page(stack.player(12)) as page:
            game = (await page.ask("start", variant="draw3", kind="practice", deal=EASY_NUMBER))["game"]
            refused = await page.play(game, move="1-2")
            assert refused["type"] == "refused"
            assert "1-2" in refused["reason"]
            assert refused["game"]["version"] == game["version"]
        stored = await get_game(stack.services.db, game["id"])
        assert stored is not None and stored.version == 0


async def test_a_move_sent_twice_is_played_once(database_target: Any) -> None:
    async with activity_stack(database_target) as stack:
        async with stack.page(stack.player(13)) as page:
            game = (await page.ask("start", variant="draw3", kind="practice", deal=EASY_NUMBER))["game"]
            first = await page.play(game, move="draw")
            again = await page.play(game, move="draw")
            assert first["game"]["version"] == 1
            assert again["type"] == "game" and again["game"]["version"] == 1
        stored = await get_game(stack.services.db, game["id"])
        assert stored is not None and stored.version == 1
