"""Who and where: the Activity believes Discord, never the page; and the port's limits hold."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from unittest import mock

import aiohttp
import pytest
from aiohttp.test_utils import make_mocked_request

from bot.activity import door as activity_door
from bot.activity.addresses import LOCAL_NETWORKS, Network, client_address, parse_networks
from bot.activity.limits import SOCKETS_PER_MEMBER
from bot.activity.protocol import MAX_FRAME_BYTES, Close
from bot.runtime.settings import SettingsError, load_settings
from tests.support.activity_stack import GUILD, activity_stack, hello_answer


async def exchange(url: str, code: Any) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.post(url + "/api/token", json={"code": code}) as answer:
        return answer.status, await answer.json()


async def test_the_code_exchange_gives_the_token_once_and_refuses_a_bad_code(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(21)
        assert await exchange(stack.url, player.code) == (200, {"access_token": player.token})
        status, body = await exchange(stack.url, player.code)
        assert status == 401 and "refused the sign-in code" in body["error"]
        status, body = await exchange(stack.url, 12)
        assert status == 400


async def test_a_token_discord_refuses_is_closed_with_its_reason(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        stack.player(22)
        first, code = await hello_answer(stack.url, access_token="forged", instance_id="i-1", guild_id=str(GUILD))
        assert first["type"] == "bye" and "your sign-in" in first["reason"]
        assert code == Close.UNAUTHORIZED
        assert stack.services.activity is not None and stack.services.activity.counts.verification_failures == 1


async def test_a_member_not_in_the_instance_is_refused(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        stack.player(23, instance="i-1")
        outsider = stack.discord.add_player(24)
        first, code = await hello_answer(stack.url, access_token=outsider.token, instance_id="i-1", guild_id=str(GUILD))
        assert "not in this Activity's instance" in first["reason"] and code == Close.FORBIDDEN


async def test_an_instance_that_is_not_live_is_refused(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(25, instance="i-1")
        first, code = await hello_answer(stack.url, access_token=player.token, instance_id="gone", guild_id=str(GUILD))
        assert "this Activity's instance" in first["reason"] and code == Close.FORBIDDEN


async def test_a_page_claiming_another_server_is_refused(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(26)
        first, code = await hello_answer(stack.url, access_token=player.token, instance_id="i-1", guild_id="999")
        assert "another server" in first["reason"] and code == Close.FORBIDDEN


async def test_discord_down_is_said_plainly(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(27)
        stack.discord.failing = 502
        first, _ = await hello_answer(stack.url, access_token=player.token, instance_id="i-1", guild_id=str(GUILD))
        assert "not answering" in first["reason"]
        status, body = await exchange(stack.url, player.code)
        assert status == 503 and "not answering" in body["error"]


async def test_a_server_the_bot_is_not_in_offers_practice_only(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(28, guild_id=777, instance="i-7")
        async with stack.page(player, instance="i-7", guild_id=777) as page:
            assert page.welcome["practice_only"] is True and page.welcome["menu"]["daily"] is None
            refused = await page.ask("start", variant="draw3", kind="casual")
            assert refused["type"] == "refused" and "not in this server" in refused["reason"]
            refused = await page.ask("start", variant="draw3", kind="daily")
            assert refused["type"] == "refused"
            practice = await page.ask("start", variant="draw1", kind="practice", deal=5)
            assert practice["type"] == "game" and practice["game"]["kind"] == "practice"


async def test_a_socket_that_does_not_say_hello_in_time_is_closed(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(activity_door, "IDENTIFY_SECONDS", 0.2)
    async with (
        activity_stack(tmp_path / "a.db") as stack,
        aiohttp.ClientSession() as http,
        http.ws_connect(stack.url + "/ws") as ws,
    ):
        first = json.loads((await ws.receive(timeout=5)).data)
        await ws.receive(timeout=5)
        assert first == {"type": "bye", "reason": "the page did not say who it is in time"}
        assert ws.close_code == Close.IDENTIFY_TIMEOUT


async def test_a_first_frame_that_is_not_hello_or_too_big_is_closed(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, aiohttp.ClientSession() as http:
        async with http.ws_connect(stack.url + "/ws") as ws:
            await ws.send_str(json.dumps({"type": "move", "ref": 1, "game": 1, "version": 0, "move": "draw"}))
            first = json.loads((await ws.receive(timeout=5)).data)
            assert first["reason"] == "the first frame must be hello"
        async with http.ws_connect(stack.url + "/ws") as ws:
            await ws.send_str("x" * (MAX_FRAME_BYTES + 1))
            await ws.receive(timeout=5)
            assert ws.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


async def test_a_member_may_open_only_a_few_pages(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        player = stack.player(29)
        async with asyncio.timeout(20):
            pages = [stack.page(player) for _ in range(SOCKETS_PER_MEMBER)]
            opened = [await page.__aenter__() for page in pages]
            assert all(page.welcome["type"] == "welcome" for page in opened)
            first, code = await hello_answer(
                stack.url, access_token=player.token, instance_id="i-1", guild_id=str(GUILD)
            )
            assert "too many Activity pages" in first["reason"] and code == Close.TOO_MANY
            for page in pages:
                await page.__aexit__(None, None, None)


async def test_a_flood_of_requests_is_refused_then_closed(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack, stack.page(stack.player(30)) as page:
        for _ in range(80):
            await page.send(type="ping")
        kinds = []
        while not kinds or kinds[-1] != "closed":
            kinds.append((await page.next())["type"])
        assert "refused" in kinds and kinds[-2:] == ["bye", "closed"]
        assert page.ws.close_code == Close.TOO_MANY


async def test_a_process_that_does_not_run_the_server_says_so(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db", shard_count=2, shard_ids=(1,)) as stack:
        # GUILD's shard is (GUILD >> 22) % 2 == 0: another process runs it
        player = stack.player(31)
        first, code = await hello_answer(stack.url, access_token=player.token, instance_id="i-1", guild_id=str(GUILD))
        assert "another process" in first["reason"] and code == Close.NOT_HERE


async def test_the_metrics_count_sockets_moves_refusals_and_failed_sign_ins(tmp_path: Any) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        await hello_answer(stack.url, access_token="forged", instance_id="i-1", guild_id=str(GUILD))
        async with stack.page(stack.player(32)) as page:
            game = (await page.ask("start", variant="draw3", kind="practice", deal=3))["game"]
            await page.play(game, move="draw")
            await page.play(game, move="7-1")
        text = stack.services.metrics.text().decode()
        assert "solitaire_activity_sockets_opened_total 2.0" in text
        assert "solitaire_activity_moves_total 1.0" in text
        assert "solitaire_activity_refusals_total 1.0" in text
        assert "solitaire_activity_verification_failures_total 1.0" in text
        assert 'solitaire_activity_closed_total{reason="verify"} 1.0' in text
        assert "solitaire_activity_discord_calls_total 3.0" in text  # the forged token; the player and the instance
        assert "solitaire_activity_sign_ins_shed_total 0.0" in text


def request_from(peer: str, forwarded: str | None) -> Any:
    """A request as the bot sees it: from ``peer``, forwarding ``forwarded`` (``X-Forwarded-For``)."""
    transport = mock.Mock()
    transport.get_extra_info.return_value = (peer, 5000)
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return make_mocked_request("GET", "/ws", headers=headers, transport=transport)


DISCORD_EDGE = parse_networks("162.159.0.0/16")
"""A proxy an operator declared besides the defaults (in the tests: where Discord's proxy reaches the front)."""


@pytest.mark.parametrize(
    ("peer", "forwarded", "trusted", "counted_as"),
    [
        ("127.0.0.1", "203.0.113.7", LOCAL_NETWORKS, "203.0.113.7"),  # Caddy: the header is the address it saw
        ("127.0.0.1", "6.6.6.6, 203.0.113.7", LOCAL_NETWORKS, "203.0.113.7"),  # nginx appends: 6.6.6.6 is the page's
        ("127.0.0.1", "6.6.6.6", LOCAL_NETWORKS, "6.6.6.6"),  # the nginx example overwrites: the page sent nothing
        ("127.0.0.1", "203.0.113.7, 162.159.0.1", LOCAL_NETWORKS, "162.159.0.1"),  # the front saw Discord's proxy
        ("127.0.0.1", "203.0.113.7, 162.159.0.1", (*LOCAL_NETWORKS, *DISCORD_EDGE), "203.0.113.7"),  # declared
        ("127.0.0.1", "6.6.6.6, 198.51.100.4, 10.0.0.5", LOCAL_NETWORKS, "198.51.100.4"),  # a private balancer
        ("172.18.0.3", "198.51.100.4", LOCAL_NETWORKS, "198.51.100.4"),  # a front in the compose network
        ("127.0.0.1", None, LOCAL_NETWORKS, "127.0.0.1"),
        ("127.0.0.1", "10.0.0.7", LOCAL_NETWORKS, "10.0.0.7"),  # every hop a proxy: the farthest
        ("127.0.0.1", "not-an-address", LOCAL_NETWORKS, "unreadable"),  # a page's words go into no log line
        ("127.0.0.1", "evil\\nline, 10.0.0.3", LOCAL_NETWORKS, "unreadable"),
        ("93.184.216.34", "10.0.0.1", LOCAL_NETWORKS, "93.184.216.34"),  # a stranger's header is not believed
        ("127.0.0.1", "203.0.113.7", (), "127.0.0.1"),  # no proxy declared: the peer, whatever it says
    ],
)
def test_a_page_is_counted_as_the_address_the_declared_fronts_saw(
    peer: str, forwarded: str, trusted: tuple[Network, ...], counted_as: str
) -> None:
    assert client_address(request_from(peer, forwarded), trusted) == counted_as


def test_the_trusted_proxies_are_a_setting_checked_at_start() -> None:
    settings = load_settings(_env_file=None, discord_token="t", activity_trusted_proxies="127.0.0.1, 10.0.0.0/8")
    assert [str(network) for network in settings.activity_trusted_proxies] == ["127.0.0.1/32", "10.0.0.0/8"]
    assert load_settings(_env_file=None, discord_token="t").activity_trusted_proxies == LOCAL_NETWORKS
    with pytest.raises(SettingsError, match="'front' is not an address"):
        load_settings(_env_file=None, discord_token="t", activity_trusted_proxies="front")


async def test_a_page_cannot_choose_its_address_through_the_front(tmp_path: Any) -> None:
    """35 code exchanges from one address, each claiming another in ``X-Forwarded-For``: the 31st is refused."""
    async with activity_stack(tmp_path / "a.db") as stack, aiohttp.ClientSession() as http:
        statuses = []
        for n in range(35):
            headers = {"X-Forwarded-For": f"198.51.100.{n}, 203.0.113.9"}  # the page's lie, then what nginx saw
            async with http.post(stack.url + "/api/token", json={"code": f"c{n}"}, headers=headers) as answer:
                statuses.append(answer.status)
        assert statuses[:30] == [401] * 30 and statuses[30:] == [429] * 5
