"""The door faces the internet: only this application's tokens sign in, a page's words never steer a URL, and
sign-ins are counted before Discord is asked, within a budget well under Discord's limits."""

from __future__ import annotations

import asyncio
import bisect
import json
import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.activity import sign_in as activity_sign_in
from bot.activity.identity import BUSY, OTHER_APPLICATION, DiscordIdentity
from bot.activity.limits import MEMBER_SIGN_INS_PER_MINUTE, SIGN_INS_PER_MINUTE, UNIDENTIFIED_PER_ADDRESS, Budget
from bot.activity.protocol import Close
from bot.activity.sign_in import ADDRESS_SIGN_INS, ADDRESS_WAITING, MEMBER_SIGN_INS, ROOM_FULL
from bot.activity.verified import VerificationError
from tests.support.activity_stack import CHANNEL, GUILD, activity_stack, hello_answer
from tests.support.fake_discord_api import BOT_TOKEN, FakeDiscordApi

OTHER_APP = 9999


async def hello_from(url: str, address: str | None, **hello: Any) -> tuple[dict[str, Any], int | None]:
    """Like :func:`hello_answer`, through a front that saw ``address`` (``X-Forwarded-For``)."""
    headers = {"X-Forwarded-For": address} if address else {}
    async with aiohttp.ClientSession() as http, http.ws_connect(url + "/ws", headers=headers) as ws:
        await ws.send_str(json.dumps({"type": "hello", **hello}))
        first = json.loads((await ws.receive(timeout=10)).data)
        if first["type"] == "bye":
            await ws.receive(timeout=5)
        return first, ws.close_code


# -- whose token ----------------------------------------------------------------------------------
async def test_a_token_discord_gave_another_application_does_not_sign_in(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        stack.player(21)  # the instance, live with its member
        stolen = stack.discord.add_player(21, application_id=OTHER_APP)  # the member's token for some other site
        first, code = await hello_answer(stack.url, access_token=stolen.token, instance_id="i-1", guild_id=str(GUILD))
        assert first == {"type": "bye", "reason": OTHER_APPLICATION, "final": True} and code == Close.UNAUTHORIZED
        assert stack.discord.requests == ["GET /oauth2/@me"]  # the instance is never asked with the bot's token


async def test_a_token_without_identify_does_not_sign_in(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        stack.player(22)
        narrow = stack.discord.add_player(22, scopes=("guilds",))
        first, code = await hello_answer(stack.url, access_token=narrow.token, instance_id="i-1", guild_id=str(GUILD))
        assert "does not say who you are" in first["reason"] and code == Close.UNAUTHORIZED


async def test_a_token_discord_refused_is_not_asked_about_again(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        for _ in range(3):
            first, code = await hello_answer(stack.url, access_token="forged", instance_id="i-1")
            assert "refused your sign-in" in first["reason"] and code == Close.UNAUTHORIZED
        assert stack.discord.requests == ["GET /oauth2/@me"]


# -- a page's words and Discord's URLs -------------------------------------------------------------
@pytest.mark.parametrize(
    "instance_id",
    ["../../users/@me", "%2e%2e/%2e%2e/users/@me", "..", "i-1/../../guilds/5001/members", "i-1?x=1", "i 1", "é", ""],
)
async def test_an_instance_id_not_of_discords_shape_is_refused_before_any_call(
    tmp_path: Path, instance_id: str
) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(23)
        first, code = await hello_answer(stack.url, access_token=player.token, instance_id=instance_id)
        assert first["type"] == "bye" and code == Close.BAD_FRAME
        assert stack.discord.requests == []


async def test_the_instance_id_is_checked_and_quoted_where_it_enters_the_path() -> None:
    api = FakeDiscordApi()
    await api.start()
    identity = DiscordIdentity(application_id=4242, client_secret="s", bot_token=BOT_TOKEN, api_base=api.api_base)
    try:
        for bad in ("../../users/@me", "%2e%2e", "a/b"):
            with pytest.raises(VerificationError, match="not an Activity instance"):
                await identity.instance(bad)
        api.add_instance("i-9_x", guild_id=GUILD, channel_id=CHANNEL, users=[1])
        assert (await identity.instance("i-9_x")).guild_id == GUILD
        assert api.requests == ["GET /applications/4242/activity-instances/i-9_x"]
    finally:
        await identity.close()
        await api.stop()


async def test_a_refusal_never_echoes_discords_status(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(24)
        first, code = await hello_answer(stack.url, access_token=player.token, instance_id="gone")
        assert first["reason"] == "Discord refused this Activity's instance: open the Activity again"
        assert code == Close.FORBIDDEN and not any(char.isdigit() for char in first["reason"])


# -- how often, and how much of Discord -----------------------------------------------------------
async def test_a_burst_of_pages_of_one_member_costs_two_calls_and_is_limited(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(25)
        answers = [
            await hello_answer(stack.url, access_token=player.token, instance_id="i-1", guild_id=str(GUILD))
            for _ in range(MEMBER_SIGN_INS_PER_MINUTE + 3)
        ]
        welcomed = [first for first, _ in answers if first["type"] == "welcome"]
        refused = [(first, code) for first, code in answers if first["type"] == "bye"]
        assert len(welcomed) == MEMBER_SIGN_INS_PER_MINUTE
        assert refused == [({"type": "bye", "reason": MEMBER_SIGN_INS, "retry_in": 60}, Close.TOO_MANY)] * 3
        assert sorted(stack.discord.requests) == ["GET /applications/4242/activity-instances/i-1", "GET /oauth2/@me"]


async def test_an_address_signs_in_at_most_30_pages_a_minute_before_discord_is_asked(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        tokens = [stack.player(100 + n).token for n in range(SIGN_INS_PER_MINUTE + 1)]
        codes = []
        for token in tokens:
            first, code = await hello_from(stack.url, "203.0.113.5", access_token=token, instance_id="i-1")
            codes.append(code if first["type"] == "bye" else "welcome")
        calls = len(stack.discord.requests)
        assert codes == ["welcome"] * SIGN_INS_PER_MINUTE + [Close.TOO_MANY]
        first, _ = await hello_from(stack.url, "203.0.113.5", access_token="never-seen", instance_id="i-1")
        assert first["reason"] == ADDRESS_SIGN_INS and len(stack.discord.requests) == calls
        first, _ = await hello_from(stack.url, "203.0.113.6", access_token=tokens[0], instance_id="i-1")
        assert first["type"] == "welcome"  # another address is another count


async def test_sign_ins_from_everywhere_keep_within_the_discord_budget(tmp_path: Path) -> None:
    """60 pages at once, each its own member, instance and address: the bot sends at most 22 calls a second.

    Counted when each call leaves the bot: the stand-in for Discord answers on the same event loop, so on a busy
    machine the loop's own lag bunches its arrivals (calls sent 1.2 s apart heard within 1 s), which real
    Discord, across the network, would not see.
    """
    async with activity_stack(tmp_path / "a.db") as stack:
        assert stack.services.activity is not None
        identity = stack.services.activity.identity
        sent: list[float] = []
        in_turn = identity._in_turn

        async def recorded() -> None:
            await in_turn()
            sent.append(identity.clock())

        identity._in_turn = recorded  # type: ignore[method-assign]
        pages = []
        for n in range(60):
            player = stack.player(200 + n, instance=f"i-{n}")
            pages.append(hello_from(stack.url, f"198.51.100.{n}", access_token=player.token, instance_id=f"i-{n}"))
        answers = await asyncio.gather(*pages)
        assert sent and max(bisect.bisect_left(sent, at + 1.0) - n for n, at in enumerate(sent)) <= 22
        assert len(sent) == len(stack.discord.requests)  # every call Discord heard was counted leaving
        shed = [(first, code) for first, code in answers if first["type"] == "bye"]
        assert shed and all(first == {"type": "bye", "reason": BUSY, "retry_in": 5} for first, _ in shed)
        assert {code for _, code in shed} == {Close.TRY_LATER}
        assert sum(first["type"] == "welcome" for first, _ in answers) >= 10  # about 20 on a quiet machine


# -- the waiting room -------------------------------------------------------------------------------
async def test_the_waiting_room_gives_each_address_a_fair_share(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, aiohttp.ClientSession() as http:
        crowd = [
            await http.ws_connect(stack.url + "/ws", headers={"X-Forwarded-For": "203.0.113.1"})
            for _ in range(UNIDENTIFIED_PER_ADDRESS)
        ]
        first, code = await hello_from(stack.url, "203.0.113.1", access_token="t", instance_id="i-1")
        assert first == {"type": "bye", "reason": ADDRESS_WAITING, "retry_in": 5} and code == Close.TRY_LATER
        player = stack.player(26)
        first, _ = await hello_from(stack.url, "203.0.113.2", access_token=player.token, instance_id="i-1")
        assert first["type"] == "welcome"  # another address still gets in
        for ws in crowd:
            await ws.close()


async def test_a_full_waiting_room_says_so_without_blaming_the_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(activity_sign_in, "UNIDENTIFIED_SOCKETS", 2)
    async with activity_stack(tmp_path / "a.db") as stack, aiohttp.ClientSession() as http:
        crowd = [
            await http.ws_connect(stack.url + "/ws", headers={"X-Forwarded-For": f"203.0.113.{n}"}) for n in (1, 2)
        ]
        first, code = await hello_from(stack.url, "203.0.113.3", access_token="t", instance_id="i-1")
        assert first == {"type": "bye", "reason": ROOM_FULL, "retry_in": 5} and code == Close.TRY_LATER
        for ws in crowd:
            await ws.close()


async def test_a_fifth_page_of_a_member_is_told_not_to_come_back(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(27)
        async with stack.page(player), stack.page(player), stack.page(player), stack.page(player):
            first, code = await hello_answer(stack.url, access_token=player.token, instance_id="i-1")
        assert first == {"type": "bye", "reason": "you have too many Activity pages open: close one", "final": True}
        assert code == Close.TOO_MANY


# -- frames that are not frames -------------------------------------------------------------------
async def test_a_deeply_nested_first_frame_is_refused_as_bad_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, aiohttp.ClientSession() as http:
        for nested in ("[" * 1000 + "]" * 1000, '{"type": "hello", "ref": ' + "[" * 1000 + "]" * 1000 + "}"):
            async with http.ws_connect(stack.url + "/ws") as ws:
                await ws.send_str(nested)
                first = json.loads((await ws.receive(timeout=5)).data)
                await ws.receive(timeout=5)
                assert first["type"] == "bye" and ws.close_code == Close.BAD_FRAME
        nested_body = {"data": "[" * 2000, "headers": {"Content-Type": "application/json"}}
        async with http.post(stack.url + "/api/token", **nested_body) as answer:
            assert answer.status == 400
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


async def test_a_deeply_nested_frame_after_sign_in_is_refused_as_bad(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, stack.page(stack.player(28)) as page:
        await page.ws.send_str("[" * 1000 + "]" * 1000)
        assert (await page.next())["type"] == "bye" and (await page.next())["type"] == "closed"
        assert page.ws.close_code == Close.BAD_FRAME
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


def test_the_budget_spaces_calls_out_and_refuses_a_wait_past_its_longest() -> None:
    budget = Budget(rate=2.0, burst=1.0, at=0.0)
    assert [budget.reserve(0.0, 1.0) for _ in range(4)] == [0.0, 0.5, 1.0, None]
    assert budget.reserve(2.0, 1.0) == 0.0  # refilled meanwhile (the refused one took nothing)
