"""The bot as one process of a cluster (``SHARD_COUNT=2``, ``SHARD_IDS=1``) on SimCord's sharded gateway."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.runtime.client import ShardedSolitaireBot, SolitaireBot
from bot.runtime.settings import Settings
from bot.shards import Ownership, shard_of
from tests.support.postgres_server import free_port

pytestmark = pytest.mark.usefixtures("no_error_logs")


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The test settings as the process running shard 1 of 2, with the metrics endpoint on."""
    return settings.model_copy(update={"shard_count": 2, "shard_ids": (1,), "metrics_port": free_port()})


@pytest.fixture
def guild(simcord_env):  # type: ignore[no-untyped-def]
    """A server on shard 1, the shard this process runs."""
    guild = simcord_env.create_guild("Shard One Club", shard_id=1)
    guild.create_text_channel("games")
    return guild


async def fetch(port: int, path: str) -> str:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as response:
        assert response.status == 200, await response.text()
        return await response.text()


async def test_a_sharded_bot_runs_its_shards_and_plays_on_them(simcord_env: Any, guild: Any, channel: Any, alice: Any):
    bot = simcord_env.bot
    assert isinstance(bot, ShardedSolitaireBot) and isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_count, bot.running_shards()) == (2, [1])
    assert bot.ownership == Ownership(2, (1,)) and bot.ownership.owns(guild.id) and shard_of(guild.id, 2) == 1

    started = await alice.slash(channel, "solitaire start")
    await alice.click(started.response, label="Draw")

    port = bot.settings.metrics_port
    health = await fetch(port, "/health")
    assert '"shards": [1]' in health and '"shard_count": 2' in health and '"games": 1' in health
    found = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(await fetch(port, "/metrics"))
        for s in family.samples
    }
    assert found[("solitaire_games_running", (("shard", "1"),))] == 1
    assert ("solitaire_games_running", (("shard", "0"),)) not in found  # not a shard of this process
    assert found[("solitaire_move_clicks_total", (("shard", "1"),))] == 1


def test_without_shard_settings_the_bot_is_a_plain_one_shard_bot(make_bot: Any):
    make_bot.settings = make_bot.settings.model_copy(update={"shard_count": None, "shard_ids": None})
    bot = make_bot()
    assert type(bot) is SolitaireBot and not isinstance(bot, discord.AutoShardedClient)
    assert bot.running_shards() == [0] and bot.ownership == Ownership()
