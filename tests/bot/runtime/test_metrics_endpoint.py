"""The real bot with ``METRICS_PORT`` set, on (simulated) Discord: its clicks and games show on ``/metrics``."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.runtime.settings import Settings
from tests.support.postgres_server import free_port

pytestmark = pytest.mark.usefixtures("no_error_logs")


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The test settings with the endpoint on."""
    return settings.model_copy(update={"metrics_port": free_port()})


async def fetch(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_a_click_and_a_running_game_show_on_the_endpoint(simcord_env: Any, channel: Any, alice: Any) -> None:
    port = simcord_env.bot.settings.metrics_port
    assert simcord_env.bot.metrics.server.port == port

    status, health = await fetch(port, "/health")
    assert status == 200, health
    assert '"connected": true' in health and '"database": true' in health and '"games": 0' in health

    started = await alice.slash(channel, "solitaire start")
    board = started.response
    result = await alice.click(board, label="Draw")
    assert not (result.response and result.response.ephemeral)

    status, text = await fetch(port, "/metrics")
    assert status == 200
    found = samples(text)
    assert found[("solitaire_games_running", (("shard", "0"),))] == 1
    assert found[("solitaire_move_clicks_total", (("shard", "0"),))] == 1
    assert found[("solitaire_move_click_seconds_count", (("shard", "0"),))] == 1
    assert ("solitaire_deal_bank_deals", (("variant", "draw3"),)) in found
    assert found[("solitaire_solver_queue", ())] == 0


async def test_closing_the_bot_stops_the_endpoint(simcord_env: Any) -> None:
    port = simcord_env.bot.settings.metrics_port
    assert (await fetch(port, "/health"))[0] == 200
    await simcord_env.bot.close_services()
    with pytest.raises(aiohttp.ClientConnectionError):
        await fetch(port, "/health")
