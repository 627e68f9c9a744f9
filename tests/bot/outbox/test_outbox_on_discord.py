"""The runtime on (simulated) Discord: one outbox for every competition, delivered by its own loop."""

from __future__ import annotations

from typing import Any

import pytest

from bot.outbox.announcements import retry_delay
from tests.support.competition import daily, end, instant_daily_solver, public

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["instant_daily_solver"]  # the competition tests' instant daily solver, used here too


async def test_every_competition_posts_through_the_one_outbox_the_runtime_built(simcord_env: Any) -> None:
    bot = simcord_env.bot
    outbox = bot.services.outbox
    assert [service.announcements for service in (bot.daily, bot.races, bot.challenges)] == [outbox] * 3


async def test_a_failed_post_is_retried_by_the_outbox_with_the_daily_service_stopped(
    simcord_env: Any, channel: Any, alice: Any
) -> None:
    await daily(alice, channel)
    simcord_env.inject_error("POST", "/channels/*/messages", status=500, times=1)
    await end(alice, channel)
    assert public(channel) == []
    await simcord_env.bot.daily.close()  # the daily's rounds are no part of delivering
    await simcord_env.advance_time(retry_delay(0))
    assert len(public(channel)) == 1 and public(channel)[0].startswith(f"<@{alice.id}> scored")
