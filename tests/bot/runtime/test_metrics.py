"""The operations endpoint on a real port, scraped with aiohttp: metrics read at scrape time, health 200/503."""

from __future__ import annotations

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.runtime.metrics import BotMetrics, MetricsPortError, shard_of
from bot.runtime.settings import SettingsError, load_settings
from bot.storage import Database
from bot.storage.health import database_answers
from tests.support.metrics import fake, metrics

__all__ = ["fake", "metrics"]  # the bot's real endpoint over a fake bot


async def get(metrics: BotMetrics, path: str) -> tuple[int, str, str]:
    assert metrics.server is not None
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{metrics.server.port}{path}") as response,
    ):
        return response.status, response.headers["Content-Type"], await response.text()


async def scrape(metrics: BotMetrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics`` by name and labels."""
    status, content_type, text = await get(metrics, "/metrics")
    assert status == 200
    assert content_type.startswith("text/plain; version=")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_shards_follow_discords_formula():
    guild = 81384788765712384
    assert [shard_of(guild, count) for count in (1, 2, 4, 16)] == [0, 0, 2, (guild >> 22) % 16]
    assert shard_of(None, 4) == shard_of(0, 4) == 0


async def test_gauges_are_read_from_the_bot_at_each_scrape(metrics, fake):
    fake.shard_count, fake.shard_ids = 4, [2, 3]
    guild_on_2 = 81384788765712384
    fake.guilds = [guild_on_2, guild_on_2]
    fake.queue = 3
    samples = await scrape(metrics)
    assert samples[("solitaire_games_running", (("shard", "2"),))] == 2
    assert samples[("solitaire_games_running", (("shard", "3"),))] == 0  # a shard of ours with no games
    assert samples[("solitaire_deal_bank_deals", (("variant", "draw1"),))] == 4
    assert samples[("solitaire_deal_bank_deals", (("variant", "draw3"),))] == 2
    assert samples[("solitaire_solver_queue", ())] == 3
    assert samples[("process_resident_memory_bytes", ())] > 0

    fake.guilds, fake.levels["draw3"], fake.queue = [], 0, 0  # nothing is cached between scrapes
    samples = await scrape(metrics)
    assert samples[("solitaire_games_running", (("shard", "2"),))] == 0
    assert samples[("solitaire_deal_bank_deals", (("variant", "draw3"),))] == 0
    assert samples[("solitaire_solver_queue", ())] == 0


async def test_the_posts_parked_are_counted_by_kind(metrics, fake):
    assert not [name for name, _ in await scrape(metrics) if name.startswith("solitaire_outbox_parked")]
    fake.parked = {"podium": 1, "result": 2}  # what the outbox parked (Announcements.parked)
    samples = await scrape(metrics)
    assert samples[("solitaire_outbox_parked_posts_total", (("kind", "podium"),))] == 1
    assert samples[("solitaire_outbox_parked_posts_total", (("kind", "result"),))] == 2


async def test_move_clicks_are_counted_and_timed_per_shard(metrics, fake):
    fake.shard_count = 4
    with metrics.move_click(81384788765712384):
        pass
    with pytest.raises(RuntimeError), metrics.move_click(None):
        raise RuntimeError("a failed click still counts")
    samples = await scrape(metrics)
    assert samples[("solitaire_move_clicks_total", (("shard", "2"),))] == 1
    assert samples[("solitaire_move_clicks_total", (("shard", "0"),))] == 1
    assert samples[("solitaire_move_click_seconds_count", (("shard", "2"),))] == 1
    assert samples[("solitaire_move_click_seconds_bucket", (("le", "+Inf"), ("shard", "2")))] == 1
    assert 0 <= samples[("solitaire_move_click_seconds_sum", (("shard", "2"),))] < 5


@pytest.mark.parametrize(
    ("connected", "database", "status", "word"),
    [(True, True, 200, "ok"), (False, True, 503, "unavailable"), (True, False, 503, "unavailable")],
)
async def test_health_needs_a_connection_and_a_database_that_answers(metrics, fake, connected, database, status, word):
    fake.connected, fake.database, fake.guilds = connected, database, [0]
    got, content_type, text = await get(metrics, "/health")
    assert (got, content_type) == (status, "application/json; charset=utf-8")
    assert text.startswith("{") and len(text) < 300
    assert f'"status": "{word}"' in text
    assert f'"connected": {str(connected).lower()}' in text
    assert f'"database": {str(database).lower()}' in text
    assert '"games": 1' in text


async def test_other_paths_are_not_found_and_close_stops_listening(metrics):
    assert (await get(metrics, "/"))[0] == 404
    port = metrics.server.port
    await metrics.close()
    await metrics.close()  # twice is fine
    assert metrics.server is None
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.ClientConnectionError):
            await http.get(f"http://127.0.0.1:{port}/metrics")


async def test_a_port_in_use_is_an_error_that_names_the_port_and_the_setting(metrics, fake):
    other = BotMetrics(fake.sources())
    port = metrics.server.port
    with pytest.raises(MetricsPortError, match=rf"127\.0\.0\.1:{port} \(METRICS_PORT\): .*in use"):
        await other.serve(port)
    assert other.server is None


def test_metrics_port_is_off_by_default_and_checked(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for key in ("METRICS_PORT", "METRICS_HOST"):
        monkeypatch.delenv(key, raising=False)
    assert load_settings(discord_token="t").metrics_port is None
    monkeypatch.setenv("METRICS_PORT", " ")
    assert load_settings(discord_token="t").metrics_port is None
    monkeypatch.setenv("METRICS_PORT", "9108")
    settings = load_settings(discord_token="t")
    assert (settings.metrics_port, settings.metrics_host) == (9108, "127.0.0.1")
    monkeypatch.setenv("METRICS_PORT", "70000")
    with pytest.raises(SettingsError, match="METRICS_PORT is invalid"):
        load_settings(discord_token="t")


@pytest.mark.both_backends  # its statements run on PostgreSQL nowhere else
async def test_the_database_check_runs_a_query_and_says_no_once_closed(database_target):
    db = await Database.open(database_target)
    assert await database_answers(db) is True
    await db.close()
    assert await database_answers(db) is False
