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

import asyncio
import hmac
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Declared:
    """One metric the meter records: the attribute holding its children, its kind, name,
    help text and labels (and a histogram's buckets)."""

    attr: str
    kind: type[Counter] | type[Histogram]
    name: str
    doc: str
    labels: tuple[str, ...]
    buckets: tuple[float, ...] = ()


METRICS: tuple[Declared, ...] = (
    Declared(
        "_answered",
        Counter,
        "tanzaku_interactions_answered",
        "Interactions Discord acknowledged, by kind",
        ("kind",),
    ),
    Declared(
        "_answer_seconds",
        Histogram,
        "tanzaku_interaction_answer_seconds",
        "From an interaction's arrival to Discord acknowledging its answer, by kind",
        ("kind",),
        LATENCY_BUCKETS,
    ),
    Declared(
        "_failed",
        Counter,
        "tanzaku_interaction_failures",
        "Interactions unanswered in 3 s, answered too late, whose answer Discord refused,"
        " or that reached an error handler, by kind and reason",
        ("kind", "reason"),
    ),
    Declared(
        "_refused",
        Counter,
        "tanzaku_refusals",
        "Members told no (a refusal with its reason), by kind and reason",
        ("kind", "reason"),
    ),
    Declared(
        "_acted",
        Counter,
        "tanzaku_table_actions",
        "Changes to a table saved, by game and source (member, computer, deadline)",
        ("game", "source"),
    ),
    Declared(
        "_commit_seconds",
        Histogram,
        "tanzaku_db_commit_seconds",
        "Time of one database COMMIT, by backend",
        ("backend",),
        COMMIT_BUCKETS,
    ),
    Declared(
        "_group_units",
        Histogram,
        "tanzaku_db_commit_units",
        "Units of work (actions, writes) sharing one COMMIT, by backend",
        ("backend",),
        GROUP_BUCKETS,
    ),
    Declared(
        "_deadlines",
        Counter,
        "tanzaku_deadlines_fired",
        "Table deadlines that acted (a lobby expired, a game's timeout), by kind",
        ("kind",),
    ),
    Declared(
        "_lateness",
        Histogram,
        "tanzaku_deadline_lateness_seconds",
        "How long after its time a deadline acted, by kind",
        ("kind",),
        LATENESS_BUCKETS,
    ),
    Declared(
        "_late",
        Counter,
        "tanzaku_deadlines_late",
        f"Deadlines that acted more than {LATE_SECONDS:g} s after their time, by kind",
        ("kind",),
    ),
    Declared(
        "_decisions",
        Histogram,
        "tanzaku_computer_decision_seconds",
        "Time a computer seat took to decide a move (recorded once the move has landed), by game",
        ("game",),
        DECISION_BUCKETS,
    ),
)
"""Every metric :class:`PrometheusMeter` records from the meter's events, in the order a
scrape shows them (the live-tables gauge and the process's own follow)."""


def _build(declared: Declared, registry: CollectorRegistry) -> Children:
    if declared.kind is Histogram:
        metric: Counter | Histogram = Histogram(
            declared.name,
            declared.doc,
            declared.labels,
            buckets=declared.buckets,
            registry=registry,
        )
    else:
        metric = Counter(declared.name, declared.doc, declared.labels, registry=registry)
    return Children(metric)


class PrometheusMeter(Meter):
    """Every metric the bot serves, in :attr:`registry`."""

    _answered: Children
    _answer_seconds: Children
    _failed: Children
    _refused: Children
    _acted: Children
    _commit_seconds: Children
    _group_units: Children
    _deadlines: Children
    _lateness: Children
    _late: Children
    _decisions: Children

    def __init__(self, games: Iterable[str] = ()) -> None:
        self.registry = registry = CollectorRegistry()
        for declared in METRICS:
            setattr(self, declared.attr, _build(declared, registry))
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


KEEPALIVE_SECONDS = 5.0
"""An idle connection (one that never sent a request, or between two) is closed after this:
Prometheus scrapes every 15 s or more and opens a new one, and nothing else holds one."""

MAX_CONNECTIONS = 64
"""Connections held at once (a few Prometheus servers need a handful; hundreds are a leak
or a scan). One more makes the longest-held idle connection give way, or, when every held
connection is in the middle of a scrape, is answered 503 and closed."""

REUSE_SECONDS = 1.0
"""A scrape's output serves every scrape in this time after it was made (and every scrape
made while it was being made): many scrapers cost one reading of the metrics a second."""

NOT_FOUND = b"404: Not Found"
BUSY = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class _Refused(asyncio.Protocol):
    """A connection over the cap: told 503 and closed, without a request handler."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(BUSY)
        transport.close()


class CappedServer(web.Server):
    """aiohttp's low-level server, holding at most `cap` connections at once: each counted
    from the moment it is accepted (several can be in one turn of the loop, before aiohttp
    registers any) until it is lost or made to give way."""

    def __init__(self, handler: Any, *, cap: int, **kwargs: Any) -> None:
        super().__init__(handler, **kwargs)
        self.cap = cap
        self.refused = 0
        self.evicted = 0
        self._held: dict[Any, None] = {}
        """Request handlers by the order their connections came in."""
        self._busy: set[Any] = set()
        """Those in the middle of a request."""

    @property
    def held(self) -> int:
        return len(self._held)

    def __call__(self) -> Any:
        if len(self._held) >= self.cap and not self._evict_idle():
            self.refused += 1
            return _Refused()
        handler = super().__call__()
        self._held[handler] = None
        return handler

    def _evict_idle(self) -> bool:
        for handler in self._held:
            transport = handler.transport
            if handler not in self._busy and transport is not None:
                del self._held[handler]
                transport.close()
                self.evicted += 1
                return True
        return False

    def busy(self, handler: Any, busy: bool) -> None:
        """Note that `handler` has a request in hand (or none any more)."""
        if busy:
            self._busy.add(handler)
        else:
            self._busy.discard(handler)

    def connection_lost(self, handler: Any, exc: BaseException | None = None) -> None:
        self._held.pop(handler, None)
        self._busy.discard(handler)
        super().connection_lost(handler, exc)


class MetricsServer:
    """``GET /metrics`` on `host`:`port` (0: any free port, read back in :attr:`port`).

    Bounded, so that no scraper can slow the bot's members down: an idle connection is
    closed after `keepalive` seconds, at most `max_connections` are held at once (an idle
    one gives way to a new one), and scrapes made together (or within `reuse` seconds)
    share one reading of the metrics.
    With `token`, a scrape must carry it as a bearer token (401 otherwise)."""

    def __init__(
        self,
        meter: PrometheusMeter,
        host: str,
        port: int,
        *,
        live_tables: Callable[[], Awaitable[LiveCounts]],
        token: str | None = None,
        keepalive: float = KEEPALIVE_SECONDS,
        max_connections: int = MAX_CONNECTIONS,
        reuse: float = REUSE_SECONDS,
    ) -> None:
        self.meter = meter
        self.host = host
        self.port = port
        self._live_tables = live_tables
        self._expected = f"Bearer {token}".encode() if token else None
        self.keepalive = keepalive
        self.max_connections = max_connections
        self.reuse = reuse
        self.readings = 0
        """Readings of the metrics made (each may serve many scrapes)."""
        self.waiting = 0
        """Scrapes waiting now for the reading under way."""
        self._runner: web.ServerRunner | None = None
        self._server: CappedServer | None = None
        self._reading: asyncio.Future[bytes] | None = None
        self._last: bytes | None = None
        self._last_at = 0.0

    async def start(self) -> None:
        # The low-level server: one route needs no router, and it is where the connections
        # can be counted. No access log (a line per scrape).
        server = CappedServer(
            self._handle,
            cap=self.max_connections,
            keepalive_timeout=self.keepalive,
            access_log=None,
        )
        # A stop never waits long for a scraper's connection: SIGTERM must still stop
        # within Docker's 10 s.
        runner = web.ServerRunner(server, shutdown_timeout=1.0)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner, self._server = runner, server
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

    @property
    def connections(self) -> int:
        """Connections held now."""
        return self._server.held if self._server is not None else 0

    @property
    def refused(self) -> int:
        """Connections refused over the cap so far (every held one busy)."""
        return self._server.refused if self._server is not None else 0

    @property
    def evicted(self) -> int:
        """Idle connections closed so far to make room for a new one."""
        return self._server.evicted if self._server is not None else 0

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        server = self._server
        assert server is not None
        server.busy(request.protocol, True)
        try:
            return await self._answer(request)
        finally:
            server.busy(request.protocol, False)

    async def _answer(self, request: web.BaseRequest) -> web.StreamResponse:
        if request.path != "/metrics":
            return web.Response(status=404, body=NOT_FOUND)
        if request.method not in ("GET", "HEAD"):
            return web.Response(status=405, headers={"Allow": "GET, HEAD"})
        if not self._authorized(request):
            return web.Response(
                status=401, headers={"WWW-Authenticate": 'Bearer realm="tanzaku metrics"'}
            )
        body = await self.output()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    def _authorized(self, request: web.BaseRequest) -> bool:
        if self._expected is None:
            return True
        sent = request.headers.get("Authorization", "").encode()
        # The same time whatever the guess: nothing to learn the token from.
        return hmac.compare_digest(sent, self._expected)

    async def output(self) -> bytes:
        """The metrics as a scrape shows them: read afresh, unless a reading is under way
        (it is shared) or was made less than `reuse` seconds ago."""
        loop = asyncio.get_running_loop()
        if self._last is not None and loop.time() - self._last_at < self.reuse:
            return self._last
        if self._reading is None:
            self._reading = loop.create_task(self._read(), name="tanzaku-metrics-reading")
        self.waiting += 1
        try:
            # Shielded: a scraper going away does not cancel the reading others wait for.
            return await asyncio.shield(self._reading)
        finally:
            self.waiting -= 1

    async def _read(self) -> bytes:
        try:
            try:
                self.meter.set_live_tables(await self._live_tables())
            except Exception as error:
                # The rest is still worth serving; the gauge keeps its last reading.
                log.warning("metrics: live tables not read: %s", type(error).__name__)
            body = generate_latest(self.meter.registry)
            self.readings += 1
            self._last, self._last_at = body, asyncio.get_running_loop().time()
            return body
        finally:
            self._reading = None
