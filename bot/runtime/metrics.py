"""The operations endpoint: ``/metrics`` (Prometheus text format) and ``/health`` (JSON), on ``METRICS_PORT``.

Only the move clicks are counted as they happen (:meth:`BotMetrics.move_click`, one
hook where a board button is handled); every gauge is read from the bot's own
objects when Prometheus scrapes (:class:`Sources`), so nothing else updates metrics.
Per-server figures carry the shard that holds the server: Discord's
``(guild_id >> 22) % shard_count`` (direct messages: shard 0).

>>> shard_of(81384788765712384, 4), shard_of(None, 4), shard_of(81384788765712384, 1)
(2, 0, 0)
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from collections import Counter as Tally
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client import generate_latest as prometheus_text
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from bot.activity.limits import ActivityCounts
from bot.shards import shard_of

if TYPE_CHECKING:
    from prometheus_client.metrics_core import Metric

log = logging.getLogger(__name__)

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds; Discord wants a first answer within 3 s."""


@dataclass(frozen=True)
class Sources:
    """Where the gauges and the health check read from, called at scrape time."""

    game_guilds: Callable[[], Iterable[int]]
    """The server id of every running game (0 for direct messages)."""
    deal_levels: Callable[[], Mapping[str, int]]
    solver_queue: Callable[[], int]
    shard_count: Callable[[], int]
    shard_ids: Callable[[], Iterable[int]]
    """The shards this process runs (their games gauges show 0 rather than nothing)."""
    connected: Callable[[], bool]
    database_answers: Callable[[], Awaitable[bool]]
    activity: Callable[[], ActivityCounts | None] = lambda: None
    """What the Activity's port has seen (``None``: it is not served)."""
    parked_posts: Callable[[], Mapping[str, int]] = lambda: {}
    """The posts this process gave up after repeated errors (parked), by kind."""


class _Gauges(Collector):
    """The gauges, computed from :class:`Sources` at each scrape."""

    def __init__(self, sources: Sources) -> None:
        self.sources = sources

    def collect(self) -> Iterable[Metric]:
        """Yield games running per shard, deals ready per variant, the solver queue and the posts parked."""
        count = self.sources.shard_count()
        games = Tally({shard: 0 for shard in self.sources.shard_ids()})
        games.update(shard_of(guild, count) for guild in self.sources.game_guilds())
        running = GaugeMetricFamily("solitaire_games_running", "Games running in this process", labels=["shard"])
        for shard, number in sorted(games.items()):
            running.add_metric([str(shard)], number)
        yield running
        bank = GaugeMetricFamily("solitaire_deal_bank_deals", "Proven deals ready to start", labels=["variant"])
        for variant, level in sorted(self.sources.deal_levels().items()):
            bank.add_metric([variant], level)
        yield bank
        yield GaugeMetricFamily(
            "solitaire_solver_queue", "Deal solves waiting for or in a worker", value=self.sources.solver_queue()
        )
        parked = CounterMetricFamily(
            "solitaire_outbox_parked_posts", "Posts given up after repeated errors (parked), by kind", labels=["kind"]
        )
        for kind, number in sorted(self.sources.parked_posts().items()):
            parked.add_metric([kind], number)
        yield parked
        if (activity := self.sources.activity()) is not None:
            yield from _activity_metrics(activity)


def _activity_metrics(counts: ActivityCounts) -> Iterator[Metric]:
    """The Activity's sockets, moves, refusals and verification failures (counted by its server)."""
    yield GaugeMetricFamily("solitaire_activity_sockets", "Activity pages connected now", value=counts.open_sockets)
    for name, help_text, value in (
        ("solitaire_activity_sockets_opened", "Activity sockets opened", counts.sockets),
        ("solitaire_activity_moves", "Activity requests that changed a game", counts.moves),
        ("solitaire_activity_refusals", "Activity requests refused (illegal, stale, too fast)", counts.refusals),
        (
            "solitaire_activity_verification_failures",
            "Sign-ins Discord did not vouch for",
            counts.verification_failures,
        ),
        ("solitaire_activity_discord_calls", "Calls the Activity made to Discord", counts.discord_calls),
        ("solitaire_activity_sign_ins_shed", "Sign-ins told to try again: the Discord budget was spent", counts.shed),
    ):
        yield CounterMetricFamily(name, help_text, value=value)
    closed = CounterMetricFamily("solitaire_activity_closed", "Activity sockets the bot closed", labels=["reason"])
    for reason, number in sorted(counts.closed.items()):
        closed.add_metric([reason], number)
    yield closed


class BotMetrics:
    """The bot's metrics registry (its own, so several bots in one test process never mix)."""

    def __init__(self, sources: Sources) -> None:
        self.sources = sources
        self.registry = CollectorRegistry()
        self.move_clicks = Counter(
            "solitaire_move_clicks",
            "Board button clicks handled (moves, and sources picked for a move)",
            ["shard"],
            registry=self.registry,
        )
        self.move_seconds = Histogram(
            "solitaire_move_click_seconds",
            "Time the bot spends on a board button click, from its callback to its answer sent",
            ["shard"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_Gauges(sources))
        ProcessCollector(registry=self.registry)
        self.server: MetricsServer | None = None

    @contextmanager
    def move_click(self, guild_id: int | None) -> Iterator[None]:
        """Count a board click and time it (raised errors included) under its server's shard."""
        shard = str(shard_of(guild_id, self.sources.shard_count()))
        started = time.perf_counter()
        try:
            yield
        finally:
            self.move_clicks.labels(shard).inc()
            self.move_seconds.labels(shard).observe(time.perf_counter() - started)

    def text(self) -> bytes:
        """Every metric in Prometheus' text format."""
        return prometheus_text(self.registry)

    async def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether the bot is connected and the database answers, with a small summary."""
        connected = self.sources.connected()
        database = await self.sources.database_answers()
        healthy = connected and database
        summary = {
            "status": "ok" if healthy else "unavailable",
            "connected": connected,
            "database": database,
            "games": sum(1 for _ in self.sources.game_guilds()),
            "shards": sorted(self.sources.shard_ids()),
            "shard_count": self.sources.shard_count(),
        }
        return healthy, summary

    async def serve(self, port: int, *, host: str = "127.0.0.1") -> MetricsServer:
        """Start answering ``/metrics`` and ``/health`` on ``host:port`` (port 0: any free port)."""
        self.server = await MetricsServer.start(self, host=host, port=port)
        return self.server

    async def close(self) -> None:
        """Stop the server, if one runs (safe to call twice)."""
        if self.server is not None:
            server, self.server = self.server, None
            await server.close()


class MetricsPortError(Exception):
    """The endpoint's port cannot be opened (in use, not allowed): the message says which and why."""


def port_error(host: str, port: int, error: OSError) -> MetricsPortError:
    """The one-line error for a metrics port that cannot be listened on."""
    reason = os.strerror(error.errno) if error.errno else str(error)
    return MetricsPortError(f"cannot serve the metrics on {host}:{port} (METRICS_PORT): {reason}")


def check_port(host: str, port: int) -> None:
    """Check, before logging in, that ``host:port`` can be listened on; :raises MetricsPortError: if not."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        raise port_error(host, port, error) from error


class MetricsServer:
    """The aiohttp server answering ``/metrics`` and ``/health`` on the bot's event loop."""

    def __init__(self, runner: web.AppRunner, host: str, port: int) -> None:
        self.runner = runner
        self.host = host
        self.port = port

    @classmethod
    async def start(cls, metrics: BotMetrics, *, host: str, port: int) -> MetricsServer:
        """Listen on ``host:port``; :raises MetricsPortError: when the port cannot be bound."""

        async def scrape(request: web.Request) -> web.Response:
            return web.Response(body=metrics.text(), headers={"Content-Type": CONTENT_TYPE_LATEST})

        async def health(request: web.Request) -> web.Response:
            healthy, summary = await metrics.health()
            return web.json_response(summary, status=200 if healthy else 503, dumps=json.dumps)

        app = web.Application()
        app.router.add_get("/metrics", scrape)
        app.router.add_get("/health", health)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            site = web.TCPSite(runner, host, port)
            await site.start()
        except OSError as error:
            await runner.cleanup()
            raise port_error(host, port, error) from error
        except BaseException:
            await runner.cleanup()
            raise
        bound = int(runner.addresses[0][1])
        log.info("metrics on http://%s:%d/metrics, health on /health", host, bound)
        return cls(runner, host, bound)

    async def close(self) -> None:
        """Stop listening."""
        await self.runner.cleanup()
