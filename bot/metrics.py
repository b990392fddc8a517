"""Prometheus metrics for the operator (``TANZAKU_METRICS_PORT``).

:class:`PrometheusMeter` turns the bot's :class:`~bot.meter.Meter` events into metrics
held in a registry of its own (not ``prometheus_client``'s global one: one process may
run several bots, as the tests do), with the process's memory and CPU beside them.
:class:`MetricsServer` serves that registry at ``/metrics`` on the bot's own event loop
(aiohttp, which discord.py already depends on): no thread, and nothing listens unless the
port is set. Every metric is documented in README.md ("Metrics"), and a test holds the
two lists equal.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from typing import Any

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.meter import Meter

log = logging.getLogger(__name__)

LATE_SECONDS = 1.0
"""A deadline acting more than this after its time counts as late (a busy loop, a lock
held long, a process down until another took it over)."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
"""Answer latency: milliseconds when well, up to Discord's 3 s deadline when not."""

COMMIT_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5)
GROUP_BUCKETS = (1, 2, 4, 8, 16, 32, 64)
"""Units per group commit: SQLite's groups hold at most 64 (``MAX_GROUP_UNITS``)."""

LATENESS_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
DECISION_BUCKETS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

TABLE_STATUSES = ("lobby", "running")

LiveCounts = Mapping[tuple[str, str], int]
"""Live tables by (game, status)."""


class LiveTables(Collector):
    """``tanzaku_live_tables``, from the counts read at the start of each scrape (the
    database's own, so it never drifts from what a restart or another process did)."""

    def __init__(self, games: Iterable[str]) -> None:
        self.games = tuple(games)
        self.counts: dict[tuple[str, str], int] = {}

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "tanzaku_live_tables",
            "Tables open (lobby) or in play (running), by game, in the database",
            labels=("game", "status"),
        )
        keys = {(game, status) for game in self.games for status in TABLE_STATUSES}
        for game, status in sorted(keys | set(self.counts)):
            family.add_metric((game, status), self.counts.get((game, status), 0))
        yield family


class Children:
    """A labelled metric's children, each looked up once: ``labels()`` takes a lock and
    builds a key every call (5 µs; an answered click records five). Label values are
    bounded, so the cache is too."""

    def __init__(self, metric: Counter | Histogram) -> None:
        self._metric = metric
        self._children: dict[tuple[str, ...], Any] = {}

    def __call__(self, *values: str) -> Any:
        child = self._children.get(values)
        if child is None:
            child = self._children[values] = self._metric.labels(*values)
        return child


class PrometheusMeter(Meter):
    """Every metric the bot serves, in :attr:`registry`."""

    def __init__(self, games: Iterable[str] = ()) -> None:
        self.registry = registry = CollectorRegistry()
        self._answered = Children(
            Counter(
                "tanzaku_interactions_answered",
                "Interactions Discord acknowledged, by kind",
                ("kind",),
                registry=registry,
            )
        )
        self._answer_seconds = Children(
            Histogram(
                "tanzaku_interaction_answer_seconds",
                "From an interaction's arrival to Discord acknowledging its answer, by kind",
                ("kind",),
                buckets=LATENCY_BUCKETS,
                registry=registry,
            )
        )
        self._failed = Children(
            Counter(
                "tanzaku_interaction_failures",
                "Interactions unanswered in 3 s, answered too late, whose answer Discord refused,"
                " or that reached an error handler, by kind and reason",
                ("kind", "reason"),
                registry=registry,
            )
        )
        self._refused = Children(
            Counter(
                "tanzaku_refusals",
                "Members told no (a refusal with its reason), by kind and reason",
                ("kind", "reason"),
                registry=registry,
            )
        )
        self._acted = Children(
            Counter(
                "tanzaku_table_actions",
                "Changes to a table saved, by game and source (member, computer, deadline)",
                ("game", "source"),
                registry=registry,
            )
        )
        self._commit_seconds = Children(
            Histogram(
                "tanzaku_db_commit_seconds",
                "Time of one database COMMIT, by backend",
                ("backend",),
                buckets=COMMIT_BUCKETS,
                registry=registry,
            )
        )
        self._group_units = Children(
            Histogram(
                "tanzaku_db_commit_units",
                "Units of work (actions, writes) sharing one COMMIT, by backend",
                ("backend",),
                buckets=GROUP_BUCKETS,
                registry=registry,
            )
        )
        self._deadlines = Children(
            Counter(
                "tanzaku_deadlines_fired",
                "Table deadlines that acted (a lobby expired, a game's timeout), by kind",
                ("kind",),
                registry=registry,
            )
        )
        self._lateness = Children(
            Histogram(
                "tanzaku_deadline_lateness_seconds",
                "How long after its time a deadline acted, by kind",
                ("kind",),
                buckets=LATENESS_BUCKETS,
                registry=registry,
            )
        )
        self._late = Children(
            Counter(
                "tanzaku_deadlines_late",
                f"Deadlines that acted more than {LATE_SECONDS:g} s after their time, by kind",
                ("kind",),
                registry=registry,
            )
        )
        self._decisions = Children(
            Histogram(
                "tanzaku_computer_decision_seconds",
                "Time a computer seat took to decide a move (recorded once the move has landed),"
                " by game",
                ("game",),
                buckets=DECISION_BUCKETS,
                registry=registry,
            )
        )
        self.live = LiveTables(games)
        registry.register(self.live)
        # Memory (resident, virtual), CPU seconds, open files, start time: Linux's /proc.
        ProcessCollector(registry=registry)

    def answered(self, kind: str, seconds: float) -> None:
        self._answered(kind).inc()
        self._answer_seconds(kind).observe(seconds)

    def failed(self, kind: str, reason: str) -> None:
        self._failed(kind, reason).inc()

    def refused(self, kind: str, reason: str) -> None:
        self._refused(kind, reason).inc()

    def acted(self, game: str, source: str) -> None:
        self._acted(game, source).inc()

    def committed(self, backend: str, seconds: float, units: int) -> None:
        self._commit_seconds(backend).observe(seconds)
        self._group_units(backend).observe(units)

    def deadline_fired(self, kind: str, late_seconds: float) -> None:
        late_seconds = max(0.0, late_seconds)
        self._deadlines(kind).inc()
        self._lateness(kind).observe(late_seconds)
        if late_seconds > LATE_SECONDS:
            self._late(kind).inc()

    def computer_decided(self, game: str, seconds: float) -> None:
        self._decisions(game).observe(seconds)

    def set_live_tables(self, counts: LiveCounts) -> None:
        self.live.counts = dict(counts)


def metric_names(registry: CollectorRegistry) -> set[str]:
    """The names a scrape of `registry` shows: a counter's with its ``_total``."""
    names: set[str] = set()
    for family in registry.collect():
        names.add(f"{family.name}_total" if family.type == "counter" else family.name)
    return names


class MetricsServer:
    """``GET /metrics`` on `host`:`port` (0: any free port, read back in :attr:`port`)."""

    def __init__(
        self,
        meter: PrometheusMeter,
        host: str,
        port: int,
        *,
        live_tables: Callable[[], Awaitable[LiveCounts]],
    ) -> None:
        self.meter = meter
        self.host = host
        self.port = port
        self._live_tables = live_tables
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        # No access log (a line per scrape), and a stop that never waits long for a
        # scraper's connection: SIGTERM must still stop within Docker's 10 s.
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        for address in runner.addresses:
            self.port = int(address[1])
            break
        log.info("metrics served at http://%s:%d/metrics", self.host, self.port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    @property
    def serving(self) -> bool:
        return self._runner is not None

    async def _metrics(self, request: web.Request) -> web.Response:
        try:
            self.meter.set_live_tables(await self._live_tables())
        except Exception as error:
            # The rest is still worth serving; the gauge keeps its last reading.
            log.warning("metrics: live tables not read: %s", type(error).__name__)
        body = generate_latest(self.meter.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
