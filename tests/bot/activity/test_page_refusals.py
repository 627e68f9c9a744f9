"""What a page may not learn or cause by asking: whose game an id is, another process's game loaded, a public
message per request, a race built for a stranger, a menu read a dozen times a second."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.activity.game import NotYourGameHereError, OtherServerGameError
from bot.activity.limits import RACE_OPENS_PER_CHANNEL, RACE_OPENS_PER_MEMBER
from bot.activity.refusals import SlowDownError
from bot.compete.starts import Place
from tests.support.activity_stack import CHANNEL, activity_stack, players

ON_SHARD_1 = 1 << 22
"""A server on shard 1 of 2 (``GUILD`` is on shard 0)."""


async def test_a_guessed_game_id_names_nobody(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob = players(stack, 21, 22)
        async with stack.page(ann) as a, stack.page(bob) as b:
            bobs = (await b.ask("start", variant="draw3", kind="practice", deal=4))["game"]
            guessed = await a.play(bobs, move="draw")
            unknown = await a.play({"id": bobs["id"] + 1000, "version": 0}, move="draw")
            assert guessed["type"] == unknown["type"] == "refused"
            assert guessed["reason"] == unknown["reason"] == str(NotYourGameHereError())
            assert "22" not in guessed["reason"] and "<@" not in guessed["reason"]
            assert guessed["game"] is None


async def test_a_page_never_loads_a_game_of_a_server_another_process_runs(tmp_path: Path) -> None:
    database = tmp_path / "cluster.db"
    async with (
        activity_stack(database, shard_count=2, shard_ids=(0,)) as here,
        activity_stack(database, shard_count=2, shard_ids=(1,)) as there,
    ):
        elsewhere = await there.services.starts.casual(Place(ON_SHARD_1, CHANNEL, 71), "draw3", deal=3)
        async with here.page(here.player(71)) as page:
            answer = await page.play({"id": elsewhere.id, "version": 0}, move="draw")
        assert answer["type"] == "refused" and answer["reason"] == str(OtherServerGameError())
        assert here.services.sessions.get(elsewhere.id) is None  # neither loaded nor clocked here
        assert there.services.sessions.get(elsewhere.id) is not None


async def test_a_member_opens_a_few_races_from_the_page_not_one_per_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        posts: list[int] = []

        async def post(race_id: int) -> bool:
            posts.append(race_id)
            return False

        monkeypatch.setattr(stack.services.races, "post", post)
        [ann] = players(stack, 21)
        async with stack.page(ann) as a:
            answers = []
            for _ in range(12):
                opened = await a.ask("race_open", variant="draw3", racers=2)
                answers.append(opened)
                if opened["type"] == "race":
                    await a.ask("race_cancel", race=opened["race"]["id"])
        assert [answer["type"] for answer in answers] == ["race"] * RACE_OPENS_PER_MEMBER + ["refused"] * (
            12 - RACE_OPENS_PER_MEMBER
        )
        assert "Too many races were opened by you" in answers[-1]["reason"]
        assert len(posts) == RACE_OPENS_PER_MEMBER


async def test_a_channel_opens_a_few_races_from_its_pages(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        opened = []
        for user_id in range(40, 40 + RACE_OPENS_PER_CHANNEL + 1):
            async with stack.page(stack.player(user_id)) as page:
                answer = await page.ask("race_open", variant="draw3", racers=2)
                opened.append(answer)
                if answer["type"] == "race":
                    await page.ask("race_cancel", race=answer["race"]["id"])
        assert [answer["type"] for answer in opened] == ["race"] * RACE_OPENS_PER_CHANNEL + ["refused"]
        assert "Too many races were opened in this channel" in opened[-1]["reason"]


async def test_a_race_of_another_channel_is_refused_before_it_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        [ann] = players(stack, 21)
        stranger = stack.player(29, instance="i-2")
        stack.discord.instances["i-2"]["location"]["channel_id"] = str(CHANNEL + 1)
        async with stack.page(ann) as a, stack.page(stranger, instance="i-2") as s:
            race = (await a.ask("race_open", variant="draw3", racers=2))["race"]
            built: list[int] = []
            snapshot = stack.services.races.snapshot

            async def counted(race_id: int) -> Any:
                built.append(race_id)
                return await snapshot(race_id)

            monkeypatch.setattr(stack.services.races, "snapshot", counted)
            answer = await s.ask("race_join", race=race["id"])
            missing = await s.ask("race_join", race=race["id"] + 100)
        assert answer["type"] == "refused" and "another channel" in answer["reason"]
        assert missing["type"] == "refused"
        assert built == []


async def test_a_menu_costs_more_of_the_rate_and_reads_the_daily_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        reads: list[str] = []
        daily_played = stack.services.starts.daily_played

        async def counted(place: Place, variant: str) -> Any:
            reads.append(variant)
            return await daily_played(place, variant)

        monkeypatch.setattr(stack.services.starts, "daily_played", counted)
        async with stack.page(stack.player(30)) as page:
            reads.clear()
            answers = [await page.ask("menu") for _ in range(12)]
        menus = [answer for answer in answers if answer["type"] == "menu"]
        refused = [answer for answer in answers if answer["type"] == "refused"]
        assert len(menus) <= 7 and refused and all(answer["reason"] == str(SlowDownError()) for answer in refused)
        assert reads == []  # the welcome's menu read the daily: kept for the menus right after
        assert all(menu["menu"]["daily"] == menus[0]["menu"]["daily"] for menu in menus)
