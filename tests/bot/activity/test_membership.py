"""A page stays open only while Discord still vouches for it: a member who left the instance, or whose token
Discord no longer takes, is closed at the page's next check; while Discord cannot be asked, pages stay."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.activity.limits import REVERIFY_SECONDS
from bot.activity.protocol import Close
from tests.support.activity_stack import Stack, activity_stack, players


def check_later(stack: Stack) -> None:
    """Move the Activity's clock past every page's next check (and past what Discord's answers are kept)."""
    activity = stack.services.activity
    assert activity is not None
    later = time.monotonic() + REVERIFY_SECONDS + 1
    activity.clock = activity.door.clock = activity.identity.clock = lambda: later


async def test_a_member_who_left_the_instance_is_closed_at_the_next_check(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        ann, bob = players(stack, 21, 22)
        async with stack.page(ann) as a, stack.page(bob) as b:
            stack.discord.instances["i-1"]["users"].remove("21")
            check_later(stack)
            assert stack.services.activity is not None
            checking = asyncio.create_task(stack.services.activity.reverify_due())  # the page reads meanwhile
            bye = await a.next()
            assert bye["type"] == "bye" and "not in this Activity's instance" in bye["reason"] and bye["final"]
            assert (await a.next())["type"] == "closed" and a.ws.close_code == Close.FORBIDDEN
            assert (await b.ask("menu"))["type"] == "menu"  # the member still there plays on
            await checking


async def test_a_page_whose_token_discord_no_longer_takes_is_closed(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        [ann] = players(stack, 21)
        async with stack.page(ann) as a:
            del stack.discord.players[ann.token]  # revoked, or expired
            check_later(stack)
            assert stack.services.activity is not None
            checking = asyncio.create_task(stack.services.activity.reverify_due())
            assert (await a.next())["type"] == "bye"
            assert (await a.next())["type"] == "closed" and a.ws.close_code == Close.UNAUTHORIZED
            await checking


async def test_pages_stay_while_discord_cannot_be_asked(tmp_path: Path) -> None:
    async with activity_stack(tmp_path / "a.db") as stack:
        [ann] = players(stack, 21)
        async with stack.page(ann) as a:
            stack.discord.failing = 502
            check_later(stack)
            assert stack.services.activity is not None
            await stack.services.activity.reverify_due()
            assert (await a.ask("menu"))["type"] == "menu"
            stack.discord.failing = None
            await stack.services.activity.reverify_due()
            assert (await a.ask("menu"))["type"] == "menu"
