"""Challenges on the Activity's menu: listed to the members in them, answered and played through the service."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.compete.challenges import ChallengeSnapshot
from bot.storage import challenges as challenges_db
from tests.support.activity_stack import CHANNEL, GUILD, Page, Stack, activity_stack

ALICE, BOB, CAROL = 41, 42, 43
OTHER_GUILD = 9003


async def challenge(
    stack: Stack, *named: int, by: int = ALICE, guild_id: int = GUILD, show_scores: bool = False
) -> int:
    """A challenge opened with the service and shown (its message stored, as the cog does); its id."""
    service = stack.services.challenges
    snapshot = await service.open(
        guild_id=guild_id,
        channel_id=CHANNEL,
        challenger_id=by,
        variant="draw3",
        opponents=list(named),
        show_scores=show_scores,
    )
    await service.set_message(snapshot.challenge.id, 700 + snapshot.challenge.id)
    return snapshot.challenge.id


def listed(menu: dict[str, Any], challenge_id: int) -> dict[str, Any]:
    """The CHALLENGE ``challenge_id`` on a menu."""
    [shown] = [item for item in menu["challenges"] if item["id"] == challenge_id]
    return dict(shown)


def scores(item: dict[str, Any]) -> dict[int, int | None]:
    """Each player's score on a CHALLENGE (``None``: hidden)."""
    return {int(player["id"]): player["score"] for player in item["players"]}


async def drain(page: Page) -> list[dict[str, Any]]:
    """The frames pushed to ``page`` so far (those read while waiting for answers, then any still coming)."""
    frames, page.pushed = page.pushed, []
    while True:
        try:
            frames.append(await page.next(timeout=0.3))
        except TimeoutError:
            return frames


async def test_a_named_member_sees_the_challenge_on_the_menu(database_target: Path | str) -> None:
    async with activity_stack(database_target) as stack:
        stack.names[ALICE] = "Alice"
        challenge_id = await challenge(stack, BOB, CAROL)
        async with stack.page(stack.player(BOB, name="Bob")) as page:
            shown = listed(page.welcome["menu"], challenge_id)
        assert shown["title"] == "Solitaire Rush, draw 3" and shown["variant"] == "draw3" and shown["open"] is False
        assert shown["challenger"] == {"id": str(ALICE), "name": "Alice"}
        assert shown["me"] == "named" and shown["can_answer"] is True and shown["can_play"] is True
        assert 24 * 3600 - 60 < shown["closes_in"] <= 24 * 3600
        assert [(p["id"], p["state"], p["score"]) for p in shown["players"]] == [
            (str(ALICE), "challenger", None),
            (str(BOB), "invited", None),
            (str(CAROL), "invited", None),
        ]
        assert shown["players"][2]["name"] == "member …" + str(CAROL)[-4:]  # not in the cache: a neutral name
        assert "deal" not in shown and "seed" not in str(shown)


async def test_a_member_not_in_it_a_dm_and_a_server_without_the_bot_list_nothing(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        challenge_id = await challenge(stack, BOB)
        async with stack.page(stack.player(CAROL)) as page:
            assert page.welcome["menu"]["challenges"] == []
            for frame, fields in (("challenge_play", {}), ("challenge_answer", {"accept": True})):
                refused = await page.ask(frame, challenge=challenge_id, **fields)
                assert refused["reason"] == "This challenge does not name you: ask for one with `/solitaire challenge`."
        stack.discord.add_instance("i-dm", guild_id=None, channel_id=CHANNEL, users=[BOB])
        async with stack.page(stack.discord.add_player(BOB), instance="i-dm", guild_id=None) as page:
            assert page.welcome["menu"]["challenges"] == []
            refused = await page.ask("challenge_play", challenge=challenge_id)
            assert refused["reason"] == "Challenges belong to a server: open the Activity in the challenge's server."
        stack.guilds.discard(GUILD)  # the bot left: practice only
        async with stack.page(stack.player(BOB)) as page:
            assert page.welcome["practice_only"] is True and page.welcome["menu"]["challenges"] == []
            refused = await page.ask("challenge_answer", challenge=challenge_id, accept=True)
            assert refused["type"] == "refused" and refused["reason"].startswith("The bot is not in this server")
        assert [p.answer for p in await challenges_db.players(stack.services.db, challenge_id)][1] == "invited"


async def test_accepting_on_the_page_updates_the_public_message(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        published: list[ChallengeSnapshot] = []

        async def publish(snapshot: ChallengeSnapshot) -> None:
            published.append(snapshot)

        stack.services.challenges.publish = publish
        challenge_id = await challenge(stack, BOB, CAROL)
        async with stack.page(stack.player(BOB)) as page:
            answer = await page.ask("challenge_answer", challenge=challenge_id, accept=True)
            assert answer["type"] == "menu"
            shown = listed(answer["menu"], challenge_id)
            assert shown["me"] == "accepted" and shown["can_answer"] is True and shown["can_play"] is True
            again = await page.ask("challenge_answer", challenge=challenge_id, accept=True)
            assert again == {"type": "refused", "ref": again["ref"], "reason": "You already accepted it.", "game": None}
        for _ in range(50):
            if published:
                break
            await asyncio.sleep(0.02)
        [line] = [line for line in published[-1].lines if line.user_id == BOB]
        assert line.state == "accepted"  # the message shows it, as after a press of Accept


async def test_declining_on_the_page_leaves_no_attempt(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        challenge_id = await challenge(stack, BOB, CAROL)
        async with stack.page(stack.player(BOB)) as page:
            answer = await page.ask("challenge_answer", challenge=challenge_id, accept=False)
            shown = listed(answer["menu"], challenge_id)
            assert shown["me"] == "declined" and shown["can_answer"] is False and shown["can_play"] is False
            refused = await page.ask("challenge_play", challenge=challenge_id)
            assert refused["type"] == "refused" and refused["reason"] == "You declined this challenge."
        stored = await challenges_db.players(stack.services.db, challenge_id)
        assert [(p.user_id, p.answer, p.game_id) for p in stored][1] == (BOB, "declined", None)


async def test_the_challenger_cannot_answer_their_own_challenge(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        challenge_id = await challenge(stack, BOB)
        async with stack.page(stack.player(ALICE)) as page:
            shown = listed(page.welcome["menu"], challenge_id)
            assert shown["me"] == "challenger" and shown["can_answer"] is False and shown["can_play"] is True
            refused = await page.ask("challenge_answer", challenge=challenge_id, accept=True)
            assert refused["reason"] == "You made this challenge: press **Play** when you are ready."


async def test_an_attempt_is_played_from_the_page_once(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        challenge_id = await challenge(stack, BOB, CAROL)
        async with stack.page(stack.player(BOB)) as page:
            started = await page.ask("challenge_play", challenge=challenge_id)  # playing accepts the invitation
            game = started["game"]
            assert started["type"] == "game" and game["kind"] == "challenge" and game["deal"] == "challenge deal"
            assert game["hints"] is False and game["version"] == 0
            moved = await page.play(game, move="draw")
            assert moved["type"] == "game" and moved["game"]["version"] == 1
            resumed = await page.ask("challenge_play", challenge=challenge_id)  # the one running, not a second
            assert resumed["game"]["id"] == game["id"] and resumed["game"]["version"] == 1
            menu = (await page.ask("menu"))["menu"]
            assert menu["running"]["id"] == game["id"] and listed(menu, challenge_id)["me"] == "playing"
            ended = await page.play(resumed["game"], move="end")
            assert ended["game"]["over"] is True and "seed" not in ended["game"]["deal"]
            second = await page.ask("challenge_play", challenge=challenge_id)
            assert second["type"] == "refused"
            assert second["reason"] == "You have played your one attempt: the results come when the challenge closes."
            shown = listed((await page.ask("menu"))["menu"], challenge_id)
            assert shown["me"] == "played" and shown["can_play"] is False and shown["can_answer"] is False
        stored = await challenges_db.players(stack.services.db, challenge_id)
        assert [(p.user_id, p.answer, p.game_id) for p in stored][1] == (BOB, "accepted", game["id"])


async def test_a_forged_or_foreign_challenge_is_refused(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        stack.guilds.add(OTHER_GUILD)
        elsewhere = await challenge(stack, BOB, guild_id=OTHER_GUILD)
        not_shown = (
            await stack.services.challenges.open(
                guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, variant="draw3", opponents=[BOB]
            )
        ).challenge.id  # its message not posted yet: no buttons, so nothing to press here either
        async with stack.page(stack.player(BOB)) as page:
            assert page.welcome["menu"]["challenges"] == []
            for frame, fields in (("challenge_play", {}), ("challenge_answer", {"accept": True})):
                forged = await page.ask(frame, challenge=987654, **fields)
                assert forged["type"] == "refused" and forged["reason"] == "That challenge does not exist."
                foreign = await page.ask(frame, challenge=elsewhere, **fields)
                assert foreign["type"] == "refused" and "another server" in foreign["reason"]
                unposted = await page.ask(frame, challenge=not_shown, **fields)
                assert unposted["reason"] == "That challenge does not exist."
            bad = await page.ask("challenge_play", challenge="1")
            assert bad["type"] == "bye" and "challenge_play" in bad["reason"]
        players = await challenges_db.players(stack.services.db, elsewhere)
        assert all(p.game_id is None and p.answer in ("challenger", "invited") for p in players)


async def test_a_hidden_score_is_null_in_every_frame_the_other_player_gets_until_the_close(
    database_target: Path | str,
) -> None:
    async with activity_stack(database_target) as stack:
        challenge_id = await challenge(stack, BOB)
        async with stack.page(stack.player(ALICE)) as alice, stack.page(stack.player(BOB)) as bob:
            seen = [alice.welcome]
            attempt = (await bob.ask("challenge_play", challenge=challenge_id))["game"]
            await bob.play(attempt, move="draw")
            ended = await bob.play({**attempt, "version": 1}, move="end")
            assert ended["game"]["over"] is True
            seen += await drain(alice)
            menus = [frame["menu"] for frame in seen if "menu" in frame]
            assert len(menus) >= 2  # the welcome, and a push when Bob started and ended
            assert all(scores(listed(menu, challenge_id)) == {ALICE: None, BOB: None} for menu in menus)
            assert listed(menus[-1], challenge_id)["players"][1]["state"] == "played"
            bobs = [frame["menu"] for frame in await drain(bob) if "menu" in frame]
            assert bobs and scores(listed(bobs[-1], challenge_id))[BOB] is None  # their own too, as on the message
            mine = (await alice.ask("challenge_play", challenge=challenge_id))["game"]
            closed = await alice.play(mine, move="end")
            assert closed["game"]["over"] is True
            await stack.services.challenges.settle()
            pushed = [frame["menu"] for frame in await drain(alice) if "menu" in frame]
        final = listed(pushed[-1], challenge_id)
        assert final["closed"] is True and final["can_play"] is False
        assert scores(final) == {ALICE: closed["game"]["score"], BOB: ended["game"]["score"]}
        assert {p["place"] for p in final["players"]} <= {1, 2}


async def test_an_open_challenge_shows_scores_as_they_come(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        challenge_id = await challenge(stack, BOB, CAROL, show_scores=True)
        async with stack.page(stack.player(BOB)) as page:
            game = (await page.ask("challenge_play", challenge=challenge_id))["game"]
            ended = await page.play(game, move="end")
        async with stack.page(stack.player(ALICE)) as page:
            shown = listed(page.welcome["menu"], challenge_id)
        assert shown["open"] is True and shown["closed"] is False
        assert scores(shown) == {ALICE: None, BOB: ended["game"]["score"], CAROL: None}
