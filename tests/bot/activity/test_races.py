"""Races in the Activity: several pages of one instance open, join, count down, race, watch and see the results."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest

from bot.activity import races as activity_races
from bot.compete.race import start as race_start
from tests.support.activity_stack import CHANNEL, GUILD, activity_stack, players, race_push, until

COUNTDOWN = 1.5
CARD = re.compile(r"^(10|[2-9AJQKT])[SHDC]$")


@pytest.fixture(autouse=True)
def short_countdown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A race counts down for 1.5 s, not 10 (real time)."""
    monkeypatch.setattr(race_start, "COUNTDOWN_SECONDS", COUNTDOWN)


def strings_of(value: Any) -> list[str]:
    """Every string inside a frame."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_of(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings_of(v)]
    return []


async def test_a_race_from_the_pages_lobby_countdown_standings_and_results(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob, cat = players(stack, 21, 22, 23)
        async with stack.page(ann) as a, stack.page(bob) as b, stack.page(cat) as watcher:
            assert a.welcome["menu"]["races"] == []
            opened = await a.ask("race_open", variant="draw3", racers=2)
            race = opened["race"]
            assert opened["type"] == "race" and race["status"] == "lobby" and race["you"] == "racer"
            assert race["host"] == {"id": "21", "name": "Ann"} and race["capacity"] == 2
            assert [r["id"] for r in race["racers"]] == ["21"]
            assert opened["words"] == activity_races.NO_MESSAGE  # no cog here to post the race message

            lobby = await until(b, race_push("lobby"))
            assert lobby["race"]["id"] == race["id"] and lobby["race"]["you"] == "watcher"
            assert (await until(watcher, race_push("lobby")))["race"]["you"] == "watcher"

            joined = await b.ask("race_join", race=race["id"])  # full: it starts
            assert joined["race"]["status"] == "running" and joined["race"]["you"] == "racer"
            starts_in = joined["race"]["starts_in"]
            assert 0 < starts_in <= COUNTDOWN
            asked = time.monotonic()
            board = await until(a, lambda f: f["type"] == "game")
            assert time.monotonic() - asked >= starts_in - 0.2, "a board before the common start"
            assert not [f for f in a.pushed[:-1] if f["type"] == "game"]
            assert board["ref"] is None and board["game"]["kind"] == "race"
            bob_board = await until(b, lambda f: f["type"] == "game")
            assert bob_board["game"]["id"] != board["game"]["id"]
            assert bob_board["game"]["tableau"] == board["game"]["tableau"]  # the same deal

            moved = await a.play(board["game"], move="draw")
            version = moved["game"]["version"]
            sent = time.monotonic()
            seen = await until(
                b,
                lambda f: (
                    f["type"] == "race" and any(r["id"] == "21" and r["moves"] >= version for r in f["race"]["racers"])
                ),
            )
            assert time.monotonic() - sent < activity_races.PUSH_INTERVAL + 1.0
            assert seen["race"]["ends_in"] > 0 and seen["race"]["starts_in"] is None
            assert {r["id"]: r["status"] for r in seen["race"]["racers"]} == {"21": "playing", "22": "playing"}
            await until(
                watcher, lambda f: f["type"] == "race" and any(r["moves"] >= version for r in f["race"]["racers"])
            )

            await a.play(moved["game"], move="end")
            await b.play(bob_board["game"], move="end")
            finished = await until(watcher, race_push("finished"))
            results = finished["race"]["results"]
            assert len(results) == 2 and all(r["place"] in (1, 2) for r in results)  # equal results share a place
            assert {r["id"] for r in results} == {"21", "22"}
            assert all("rating_before" in r for r in results)
            await until(a, race_push("finished"))

        got = [f for f in watcher.pushed if f["type"] not in ("race",)]
        assert got == [], "a watcher gets race frames only"
        assert not [s for f in watcher.pushed for s in strings_of(f) if CARD.match(s)], "a card shown to a watcher"
        assert all("tableau" not in str(f) for f in watcher.pushed)


async def test_the_menu_lists_the_channels_open_races(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob = players(stack, 21, 22)
        async with stack.page(ann) as a:
            race = (await a.ask("race_open", variant="draw1", racers=4))["race"]
        async with stack.page(bob) as b:
            shown = b.welcome["menu"]["races"]
            assert [(r["id"], r["status"], r["you"]) for r in shown] == [(race["id"], "lobby", "watcher")]
            assert shown[0]["title"] and shown[0]["variant"] == "draw1"


async def test_refusals_forged_race_another_channel_host_only_and_full(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob, cat = players(stack, 21, 22, 23)
        elsewhere = stack.player(24, name="Dan", instance="i-2")  # another channel of the same server
        stack.discord.instances["i-2"]["location"]["channel_id"] = str(CHANNEL + 1)
        async with stack.page(ann) as a, stack.page(bob) as b, stack.page(cat) as c:
            forged = await a.ask("race_join", race=987654)
            assert forged == {
                "type": "refused",
                "ref": forged["ref"],
                "reason": "That race does not exist any more.",
                "game": None,
            }
            race = (await a.ask("race_open", variant="draw3", racers=2))["race"]
            again = await a.ask("race_open", variant="draw3", racers=2)
            assert again["type"] == "refused" and again["reason"] == "You are already in another race here."
            not_host = await b.ask("race_start", race=race["id"])
            assert not_host["type"] == "refused" and not_host["reason"] == "Only the host can start the race."
            assert (await b.ask("race_cancel", race=race["id"]))["reason"] == "Only the host can cancel the race."
            too_few = await a.ask("race_start", race=race["id"])
            assert too_few["reason"] == "A race needs at least 2 racers."
            assert (await b.ask("race_leave", race=race["id"]))["reason"] == "You are not in this race: join it first."
            assert (await a.ask("race_join", race=race["id"]))["reason"] == "You are already in this race."
            assert (await b.ask("race_join", race=race["id"]))["race"]["status"] == "running"
            full = await c.ask("race_join", race=race["id"])
            assert full["type"] == "refused" and full["reason"] == "This race has already started."
            async with stack.page(elsewhere, instance="i-2") as d:
                other = await d.ask("race_join", race=race["id"])
                assert other["reason"] == "That race is run in another channel: open the Activity there to take part."


async def test_a_lobby_cancelled_by_its_host_is_pushed_and_a_full_lobby_refuses(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob, cat, dan = players(stack, 21, 22, 23, 24)
        async with stack.page(ann) as a, stack.page(bob) as b:
            race = (await a.ask("race_open", variant="draw3", racers=3))["race"]
            await stack.services.races.join(race["id"], 23)  # a button's join, pushed to the pages too
            pushed = await until(b, lambda f: f["type"] == "race" and len(f["race"]["racers"]) == 2)
            assert [r["id"] for r in pushed["race"]["racers"]] == ["21", "23"]
            cancelled = await a.ask("race_cancel", race=race["id"])
            assert cancelled["race"]["status"] == "cancelled"
            await until(b, race_push("cancelled"))
            assert (await b.ask("race_join", race=race["id"]))["reason"] == "This race was cancelled."
        del cat, dan


async def test_races_are_refused_in_words_in_a_dm_and_where_the_bot_is_not(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        stack.guilds.clear()
        async with stack.page(stack.player(31)) as page:
            refused = await page.ask("race_open", variant="draw3", racers=2)
            assert refused["type"] == "refused" and "not in this server" in refused["reason"]
        dm = stack.player(32, guild_id=None, instance="dm-1")
        async with stack.page(dm, instance="dm-1", guild_id=None) as page:
            refused = await page.ask("race_open", variant="draw3", racers=2)
            assert refused["reason"] == "Races belong to a server: use this command in one."


async def test_a_channel_where_the_bot_may_not_post_is_refused_with_the_permission(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        desk = stack.services.activity.routes.races if stack.services.activity is not None else None
        assert desk is not None
        desk.bot_may = lambda guild_id, channel_id, flag: flag != "send_messages"
        async with stack.page(stack.player(33)) as page:
            refused = await page.ask("race_open", variant="draw3", racers=2)
            assert refused["type"] == "refused" and "**Send Messages**" in refused["reason"]
        assert stack.services.races.open_in(GUILD, CHANNEL) == []


async def test_during_the_countdown_no_page_gets_the_board_by_menu_resume_or_a_forged_move(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob = players(stack, 21, 22)
        async with stack.page(ann) as a, stack.page(bob) as b:
            race = (await a.ask("race_open", variant="draw3", racers=2))["race"]
            assert (await b.ask("race_join", race=race["id"]))["race"]["starts_in"] > 0.5
            session = stack.services.sessions.active_for(GUILD, 21)
            assert session is not None and session.record.mode == "race"  # dealt, but not started
            assert (await a.ask("menu"))["menu"]["running"] is None
            assert (await a.ask("resume"))["game"] is None
            forged = await a.ask("move", game=session.id, version=0, move="draw")
            assert forged == {
                "type": "refused",
                "ref": forged["ref"],
                "reason": "That game has not started yet: its board opens at the start.",
                "game": None,
            }
            left = await b.ask("race_leave", race=race["id"])  # ranked last; their game ends before the start
            assert left["race"]["status"] in ("running", "finished")
            assert session.game.version == 0
            board = await until(a, lambda f: f["type"] == "game")
            assert board["game"]["id"] == session.id
            assert not [f for f in b.pushed if f["type"] == "game"], "a leaver's board shown before the start"


async def test_a_restart_mid_race_keeps_the_pages_racing(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob = players(stack, 21, 22)
        async with stack.page(ann) as a, stack.page(bob) as b:
            race = (await a.ask("race_open", variant="draw3", racers=2))["race"]
            await b.ask("race_join", race=race["id"])
            await until(a, lambda f: f["type"] == "game")
    async with activity_stack(tmp_path / "a.db") as stack:
        await stack.services.sessions.resume_all()
        assert await stack.services.races.resume() == [race["id"]]
        ann, bob = players(stack, 21, 22)
        async with stack.page(ann) as a, stack.page(bob) as b:
            [shown] = a.welcome["menu"]["races"]
            assert shown["id"] == race["id"] and shown["status"] == "running" and shown["you"] == "racer"
            game = a.welcome["menu"]["running"]
            assert game is not None and game["kind"] == "race"
            moved = await a.play(game, move="draw")
            await until(
                b,
                lambda f: (
                    f["type"] == "race"
                    and any(r["id"] == "21" and r["moves"] >= moved["game"]["version"] for r in f["race"]["racers"])
                ),
            )


async def test_bad_race_frames_are_refused_or_closed_with_a_reason(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob = players(stack, 21, 22)
        async with stack.page(ann) as page:
            unknown = await page.ask("race_open", variant="spider", racers=2)
            assert unknown["type"] == "refused" and "unknown variant 'spider'" in unknown["reason"]
            assert stack.services.races.open_in(GUILD, CHANNEL) == []
            too_many = await page.ask("race_open", variant="draw3", racers=9)
            assert too_many["type"] == "bye" and too_many["reason"] == "not a frame of this game's protocol (race_open)"
        async with stack.page(bob) as page:
            await page.send(type="race_join", ref=1, race="1")  # ids are numbers
            assert (await page.next())["reason"] == "not a frame of this game's protocol (race_join)"


async def test_the_desk_forgets_a_race_once_it_is_over_even_if_no_page_followed_it(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        desk = stack.services.activity.routes.races if stack.services.activity is not None else None
        assert desk is not None
        races = stack.services.races
        for host in (41, 42, 43):  # races on the buttons only: no page in their channel
            snapshot = await races.open(guild_id=GUILD, channel_id=CHANNEL, host_id=host, variant="draw3", capacity=2)
            await asyncio.sleep(0.05)
            await races.cancel(snapshot.race.id, host)
        for _ in range(50):
            await asyncio.sleep(0.05)
            if not desk._pushes:
                break
        assert desk._pushes == {}


async def test_the_start_is_pushed_to_the_pages_with_every_racer_playing_before_anyone_moves(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob, cat = players(stack, 21, 22, 23)
        async with stack.page(ann) as a, stack.page(bob) as b, stack.page(cat) as watcher:
            race = (await a.ask("race_open", variant="draw3", racers=2))["race"]
            await until(watcher, race_push("lobby"))
            await b.ask("race_join", race=race["id"])
            await until(a, lambda f: f["type"] == "game")  # the common start: nobody has moved

            def started(frame: dict[str, Any]) -> bool:
                racers = frame["race"]["racers"] if frame["type"] == "race" else []
                return bool(racers) and all(r["status"] == "playing" and r["seconds"] is not None for r in racers)

            shown = await until(watcher, started, timeout=COUNTDOWN + 3.0)
            assert shown["race"]["starts_in"] is None and shown["race"]["ends_in"] > 0
