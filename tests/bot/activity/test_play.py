"""Playing through the Activity's socket: the real server over the real sessions, into the database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage.games import get_game
from tests.support.activity_stack import GUILD, activity_stack
from tests.support.decks import EASY_NUMBER


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


async def test_a_tap_means_what_a_press_of_its_button_means(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, stack.page(stack.player(14)) as page:
        game = (await page.ask("start", variant="draw3", kind="practice", deal=EASY_NUMBER))["game"]
        up = await page.play(game, "tap", source="1")  # a card that can go up goes up
        assert up["type"] == "game" and up["words"] == "1 → f: A♠ starts the ♠ foundation"
        game = up["game"]
        assert game["foundations"][0]["top"] == "AS"
        choose = await page.play(game, "tap", source="fs")  # a foundation's card: the places to choose from
        assert choose == {"type": "choose", "ref": choose["ref"], "source": "fs", "targets": ["4"]}
        down = await page.play(game, move="fs-4")
        assert down["game"]["tableau"][3]["up"] == ["2D", "AS"]
        nowhere = await page.play(down["game"], "tap", source="7")
        assert nowhere["type"] == "refused" and nowhere["reason"] == "7: no card of that pile can move now"
        allup = await page.play(down["game"], "allup")
        assert allup["words"] == "every card that could go up"
        assert all(f["count"] >= 1 for f in allup["game"]["foundations"])  # the easy deal runs up far
        assert allup["game"]["version"] > down["game"]["version"] + 1


async def test_a_hint_is_charged_in_a_casual_game_and_refused_in_a_daily(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, stack.page(stack.player(15)) as page:
        game = (await page.ask("start", variant="draw3", kind="practice", deal=EASY_NUMBER))["game"]
        assert game["hints"] is True
        hinted = await page.play(game, "hint")
        assert hinted["type"] == "game" and hinted["words"].startswith("Hint: ")
        assert hinted["game"]["score"] == game["score"] - 50 and "**" not in hinted["words"]
        await page.play(hinted["game"], move="end")
        daily = (await page.ask("start", variant="draw3", kind="daily"))["game"]
        assert daily["hints"] is False
        refused = await page.play(daily, "hint")
        assert refused["type"] == "refused" and "hint" in refused["reason"].lower()


async def test_friday13_is_played_from_the_waste_onto_its_foundations(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, stack.page(stack.player(16)) as page:
        game = (await page.ask("start", variant="friday13", kind="practice", deal=8))["game"]
        assert game["family"] == "friday13" and len(game["foundations"]) == 13 and game["tableau"] == []
        refused = await page.play(game, "tap", source="1")
        assert refused["type"] == "refused" and "only the waste" in refused["reason"]
        for _ in range(48):
            game = (await page.play(game, move="draw"))["game"]
            legal = [move for move in game["legal_moves"] if move.startswith("w-")]
            if legal:
                played = await page.play(game, move=legal[0])
                assert played["type"] == "game" and played["game"]["version"] == game["version"] + 1
                return
        raise AssertionError("no waste card fitted a foundation in a whole pass")


async def test_a_game_of_another_server_is_not_played_from_this_one(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        stack.guilds.add(9002)
        player = stack.player(17)
        async with stack.page(player) as page:
            game = (await page.ask("start", variant="draw3", kind="practice", deal=EASY_NUMBER))["game"]
        stack.discord.add_instance("i-other", guild_id=9002, channel_id=1, users=[17])
        elsewhere = stack.discord.add_player(17)
        async with stack.page(elsewhere, instance="i-other", guild_id=9002) as page:
            assert page.welcome["menu"]["running"] is None
            refused = await page.play(game, move="draw")
            assert refused["type"] == "refused" and "another server" in refused["reason"]
            assert refused["game"] is None


async def test_a_failure_inside_the_bot_is_answered_and_the_socket_stays_open(
    tmp_path: Path, monkeypatch: Any, caplog: Any
) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, stack.page(stack.player(18)) as page:
        game = (await page.ask("start", variant="draw3", kind="practice", deal=EASY_NUMBER))["game"]

        async def broken(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("a bug")

        with monkeypatch.context() as patch:
            patch.setattr(stack.services.sessions, "play", broken)
            refused = await page.play(game, move="draw")
        assert refused["type"] == "refused" and refused["reason"].startswith("Something went wrong on my side")
        assert "could not answer a MoveAsk frame" in caplog.text
        moved = await page.play(game, move="draw")
        assert moved["type"] == "game" and moved["game"]["version"] == 1


async def test_a_practice_deal_past_the_last_number_is_refused_in_words(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, stack.page(stack.player(19)) as page:
        refused = await page.ask("start", variant="draw3", kind="practice", deal=10**12)
        assert refused["type"] == "refused" and refused["reason"].startswith("There is no deal #1000000000000")
        assert (await page.ask("resume"))["game"] is None


async def test_the_game_names_its_slots_and_a_drop_is_named_by_the_server_which_still_checks(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, stack.page(stack.player(17)) as page:
        game = (await page.ask("start", variant="draw3", kind="practice", deal=EASY_NUMBER))["game"]
        assert [pile["id"] for pile in game["tableau"]] == [str(n) for n in range(1, 8)]
        assert [(f["id"], f["source"]) for f in game["foundations"]] == [(s, True) for s in ("fs", "fh", "fd", "fc")]
        assert game["waste_id"] == "w" and game["all_up"] is True
        cards = [move for move in game["legal_moves"] if "-" in move]
        assert sum(len(targets) for targets in game["dests"].values()) == len(cards) and "plays" not in game
        assert "fs" in game["dests"]["1"]  # the ace goes to its own suit's foundation
        up = await page.play(game, "drop", source="1", target="fs")
        assert up["game"]["foundations"][0]["top"] == "AS" and "1" not in up["game"]["dests"]
        assert up["words"]  # what the move did, as for a named move
        illegal = await page.play(up["game"], "drop", source="2", target="7")
        assert illegal["type"] == "refused" and illegal["game"]["version"] == up["game"]["version"]
        for source, target in (("2", "stock"), ("2", "99"), ("9", "2"), ("2", "2")):  # no such place: checked
            nowhere = await page.play(up["game"], "drop", source=source, target=target)
            assert nowhere["type"] == "refused", nowhere
            assert nowhere["reason"].startswith("That is not a place on this board")
        forged = await page.play(up["game"], move="1-fs")  # a slot id is no move: the server checks what it is sent
        assert forged["type"] == "refused" and forged["game"]["version"] == up["game"]["version"]
        await page.play(forged["game"], move="end")
        friday = (await page.ask("start", variant="friday13", kind="practice", deal=8))["game"]
        assert friday["all_up"] is False and not any(f["source"] for f in friday["foundations"])
        assert [f["id"] for f in friday["foundations"]][:4] == ["J", "Q", "K", "A"]
