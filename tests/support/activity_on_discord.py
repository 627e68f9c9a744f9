"""The Activity of the bot SimCord runs: its port, its stand-in for Discord's HTTP API, a member's page."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from pydantic import SecretStr

from bot.runtime.settings import Settings
from tests.support.activity_stack import free_port, instant_daily, open_page
from tests.support.fake_discord_api import CLIENT_SECRET, FakeDiscordApi

__all__ = ["activity_of", "discord_api", "instant_daily_solver", "page_of", "settings"]


@pytest_asyncio.fixture
async def discord_api() -> AsyncIterator[FakeDiscordApi]:
    api = FakeDiscordApi(bot_token="test-token")
    await api.start()
    yield api
    await api.stop()


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The test bot's settings with the Activity on a free port."""
    return settings.model_copy(update={"activity_port": free_port(), "discord_client_secret": SecretStr(CLIENT_SECRET)})


@pytest.fixture(autouse=True)
def instant_daily_solver(make_bot: Any) -> None:
    make_bot.daily_solve = instant_daily


def activity_of(env: Any, api: FakeDiscordApi) -> str:
    """The bot's Activity address, its Discord questions sent to ``api``."""
    server = env.bot.services.activity
    assert server is not None and server.port is not None
    server.identity.api = api.api_base
    api.application_id = server.identity.application_id
    return f"http://127.0.0.1:{server.port}"


def page_of(env: Any, api: FakeDiscordApi, guild: Any, channel: Any, member: Any) -> Any:
    url = activity_of(env, api)
    player = api.add_player(member.id, member.name)
    api.add_instance(f"i-{member.id}", guild_id=guild.id, channel_id=channel.id, users=[member.id])
    return open_page(url, player, instance=f"i-{member.id}", guild_id=guild.id)
