"""Start-up with 10 000 live tables in the database, and memory per live table.

Goal (from the brief): with 10 000 live tables stored, a fresh bot re-arms every deadline
and every table's buttons resolve in under 2 s, and a live table costs under 20 KB.

How it runs (everything in-process, nothing on the network, the database in a temp dir):

1. Builds the database (not timed). ``--templates`` coin-flip tables are opened, joined and
   started through a ``TableService`` (the real path: rows, seats, action log, deadline);
   the rest are copies of them made in bulk with SQL, each with its own channel, message
   id and fresh seed/commitment. The copy takes every column of ``game_tables`` and of every
   table with a foreign key to it, so it follows the schema. Tables sit with a stake of 0,
   so no coins move and the copies keep the money invariant; turns last 5 to 60 minutes,
   so the stored deadlines are spread out and none falls due during the run.
2. Times a fresh ``TanzakuBot`` (default extensions + the coin-flip test cog) starting in
   SimCord: log-in, ``setup_hook`` (database open, extensions, ``TableService.rearm``)
   and READY, then resolving every table's buttons as a click would: each button's custom
   id (``tz:<table>:<ply>:<verb>[:<arg>]``) must match a dynamic item the bot registered
   (``TableComponent``), parse, and lead to the table's game (``TableService.game_of``, a
   database read the first time) and that game's UI. Repeated ``--repeats`` times; the
   goal is judged on the slowest start.
3. Measures memory with ``tracemalloc``: a bot started (and its buttons resolved) on the
   full database minus one started on an empty one, divided by the number of tables. The
   whole started bot divided by the tables is printed too, as an upper bound.

Run from the repository root::

    python benchmarks/startup.py [--tables 10000] [--templates 100] [--repeats 3]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import re
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402

from bot.app import TanzakuBot, create_bot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.economy import Economy  # noqa: E402
from bot.fairness import commitment, new_seed  # noqa: E402
from bot.games.registry import GameRegistry, GameSpec  # noqa: E402
from bot.service import Actor, TableService  # noqa: E402
from bot.storage import SqliteDatabase  # noqa: E402
from cogs._ui.custom_ids import TEMPLATE, ComponentId, component_id  # noqa: E402
from cogs._ui.hub import TableHub  # noqa: E402
from cogs._ui.primitives import TableComponent  # noqa: E402
from tests.support import coinflip  # noqa: E402
from tests.support.coinflip import TEST_CATALOG  # noqa: E402

HOUSE_FLOAT = 100_000
GUILDS = 10
BUTTONS = (("call", "heads"), ("call", "tails"), ("raise", "5"))
"""The buttons of a running coin-flip table (see tests/support/coinflip_cog.py)."""
CHANNEL_BASE = 2_000_000
PLAYER_BASE = 3_000_000
MESSAGE_BASE = 4_000_000

GOAL_SECONDS = 2.0
GOAL_BYTES = 20 * 1024


def say(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def rss_bytes() -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def make_bot(db_path: Path) -> TanzakuBot:
    settings = Settings(
        _env_file=None,
        token="not-a-real-token",
        database_path=db_path,
        house_float=HOUSE_FLOAT,
        lobby_timeout_seconds=900,
    )
    return create_bot(settings, catalog=TEST_CATALOG)


# -- building the database (not timed) ------------------------------------------------------


async def build_templates(db_path: Path, count: int, now: float) -> list[int]:
    """Open, join and start `count` tables through the table service."""
    clock = lambda: now  # noqa: E731 - SimCord's virtual "now" at start-up
    db = SqliteDatabase(db_path)
    await db.open()
    economy = Economy(db, house_float=HOUSE_FLOAT, clock=clock)
    registry = GameRegistry()
    registry.add(GameSpec(coinflip.ENGINE, "Coin Flip"))
    service = TableService(db, economy, registry, clock=clock)
    ids: list[int] = []
    try:
        for k in range(count):
            rules = coinflip.Rules(stake=0, turn_seconds=300 + (k * 331) % 3300)
            host, guest = PLAYER_BASE + 2 * k, PLAYER_BASE + 2 * k + 1
            opened = await service.open(
                guild_id=1_000_000 + k % GUILDS,
                channel_id=CHANNEL_BASE + k,
                game="coinflip",
                host_id=host,
                rules=rules,
            )
            table_id = opened.snapshot.id
            await service.join(table_id, Actor(guest))
            await service.start(table_id, Actor(host))
            await service.set_message(table_id, MESSAGE_BASE + k)
            ids.append(table_id)
    finally:
        await service.scheduler.stop()
        await db.close()
    return ids


def _copy_sql(con: sqlite3.Connection, table: str, fresh: dict[str, str], where: str) -> str:
    """INSERT … SELECT copying every column of `table`, except a lone integer primary key,
    with the columns in `fresh` taken from named parameters instead."""
    info = con.execute(f"PRAGMA table_info({table})").fetchall()
    keys = [row for row in info if row[5]]
    skip = {keys[0][1]} if len(keys) == 1 and str(keys[0][2]).upper() == "INTEGER" else set()
    columns = [row[1] for row in info if row[1] not in skip or row[1] in fresh]
    values = [fresh.get(column, column) for column in columns]
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)}"
        f" FROM {table} WHERE {where} = :source"
    )


def clone_tables(db_path: Path, templates: list[int], total: int, batch: int = 1000) -> list[int]:
    """Copy the template tables (and their child rows) until there are `total` tables."""
    con = sqlite3.connect(db_path, isolation_level=None)
    try:
        con.execute("PRAGMA foreign_keys=ON")
        fresh = {
            "channel_id": ":channel_id",
            "message_id": ":message_id",
            "seed_hex": ":seed_hex",
            "commitment": ":commitment",
        }
        table_sql = _copy_sql(con, "game_tables", fresh, "id")
        children: list[str] = []
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            for fk in con.execute(f"PRAGMA foreign_key_list({name})").fetchall():
                if fk[2] == "game_tables":
                    children.append(_copy_sql(con, name, {fk[3]: ":new"}, fk[3]))
        ids = list(templates)
        k = len(templates)
        while k < total:
            con.execute("BEGIN IMMEDIATE")
            for _ in range(min(batch, total - k)):
                seed = new_seed()
                params = {
                    "source": templates[k % len(templates)],
                    "channel_id": CHANNEL_BASE + k,
                    "message_id": MESSAGE_BASE + k,
                    "seed_hex": seed.hex(),
                    "commitment": commitment(seed),
                }
                new = con.execute(table_sql, params).lastrowid
                assert new is not None
                for sql in children:
                    con.execute(sql, {"source": params["source"], "new": new})
                ids.append(new)
                k += 1
            con.execute("COMMIT")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    return ids


# -- starting and resolving -----------------------------------------------------------------


@dataclass
class Phases:
    seconds: dict[str, float] = field(default_factory=dict)

    def wrap(self, target: Any, name: str, label: str) -> None:
        """Time every call of an async method of one object (an instance attribute)."""
        original: Callable[..., Awaitable[Any]] = getattr(target, name)

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - started
                self.seconds[label] = self.seconds.get(label, 0.0) + elapsed

        setattr(target, name, timed)


def dynamic_items(bot: TanzakuBot) -> list[tuple[re.Pattern[str], type]]:
    """The dynamic items the bot registered (discord.py keeps them in its view store)."""
    store = getattr(getattr(bot, "_connection", None), "_view_store", None)
    registered = getattr(store, "_dynamic_items", None)
    if isinstance(registered, dict):
        return list(registered.items())
    # Unknown discord.py internals: fall back to the template TableComponent declares.
    return [(re.compile(TEMPLATE), TableComponent)]


@dataclass
class Resolution:
    buttons: int = 0
    unresolved: int = 0
    match_seconds: float = 0.0
    lookup_seconds: float = 0.0


async def resolve_buttons(bot: TanzakuBot, table_ids: Sequence[int]) -> Resolution:
    """Route every table's buttons the way a click would, up to the game's UI."""
    result = Resolution()
    items = dynamic_items(bot)
    started = time.perf_counter()
    parsed: list[ComponentId] = []
    for table_id in table_ids:
        for verb, arg in BUTTONS:
            custom_id = component_id(table_id, 0, verb, arg)
            result.buttons += 1
            for pattern, factory in items:
                match = pattern.fullmatch(custom_id)
                if match is not None and factory is TableComponent:
                    parsed.append(ComponentId.from_match(match))
                    break
            else:
                result.unresolved += 1
    matched = time.perf_counter()
    hub = TableHub.of(bot)
    for cid in parsed:
        game = await bot.tables.game_of(cid.table)
        hub.ui(game)
    result.match_seconds = matched - started
    result.lookup_seconds = time.perf_counter() - matched
    return result


@dataclass
class Start:
    start_seconds: float
    phases: dict[str, float]
    resolution: Resolution
    rearmed: int
    armed: int
    rss_growth: int | None

    @property
    def total(self) -> float:
        return self.start_seconds + self.resolution.match_seconds + self.resolution.lookup_seconds


async def timed_start(db_path: Path, table_ids: Sequence[int], now: float) -> Start:
    bot = make_bot(db_path)
    phases = Phases()
    phases.wrap(bot.db, "open", "database open + migrations")
    phases.wrap(bot, "load_extension", "extensions")
    phases.wrap(bot.tables, "rearm", "re-arm deadlines")
    env = simcord.Env(bot)
    check_clock(env, now)
    gc.collect()
    rss_before = rss_bytes()
    started_env = False
    try:
        started = time.perf_counter()
        await env.start()
        start_seconds = time.perf_counter() - started
        started_env = True
        with env.time_context():
            resolution = await resolve_buttons(bot, table_ids)
        rss_after = rss_bytes()
        return Start(
            start_seconds,
            dict(phases.seconds),
            resolution,
            bot.rearmed_deadlines,
            len(bot.tables.scheduler),
            None if rss_before is None or rss_after is None else rss_after - rss_before,
        )
    finally:
        if started_env:
            await env.shutdown()
        if not bot.is_closed():
            await bot.close()


async def traced_start(db_path: Path, table_ids: Sequence[int], now: float) -> tuple[int, int]:
    """(bytes still allocated, peak bytes) by a started bot with its buttons resolved."""
    gc.collect()
    tracemalloc.start()
    bot = make_bot(db_path)
    env = simcord.Env(bot)
    check_clock(env, now)
    started_env = False
    try:
        await env.start()
        started_env = True
        with env.time_context():
            await resolve_buttons(bot, table_ids)
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
        return current, peak
    finally:
        tracemalloc.stop()
        if started_env:
            await env.shutdown()
        if not bot.is_closed():
            await bot.close()


def check_clock(env: simcord.Env, now: float) -> None:
    if env.now().timestamp() != now:
        raise RuntimeError("SimCord's virtual clock no longer starts where the database was built")


# -- the run --------------------------------------------------------------------------------


async def run(args: argparse.Namespace) -> int:
    wall = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tanzaku-bench-") as tmp:
        full_db, empty_db = Path(tmp) / "full.db", Path(tmp) / "empty.db"
        # Every new Env's virtual clock starts at the same instant: build the tables "now".
        now = simcord.Env(make_bot(empty_db)).now().timestamp()
        templates = await build_templates(full_db, min(args.templates, args.tables), now)
        table_ids = clone_tables(full_db, templates, args.tables)
        empty = SqliteDatabase(empty_db)
        await empty.open()
        await empty.close()
        built = time.perf_counter()

        starts = [await timed_start(full_db, table_ids, now) for _ in range(args.repeats)]
        timed = time.perf_counter()
        empty_bytes, _ = await traced_start(empty_db, [], now)
        full_bytes, full_peak = await traced_start(full_db, table_ids, now)
        measured = time.perf_counter()

    report(args, templates, starts, empty_bytes, full_bytes, full_peak)
    say(
        f"\nwall time: build {built - wall:.1f} s, timed starts {timed - built:.1f} s,"
        f" memory {measured - timed:.1f} s"
    )
    ok = all(s.rearmed == s.armed == args.tables and not s.resolution.unresolved for s in starts)
    return 0 if ok else 2


def report(
    args: argparse.Namespace,
    templates: list[int],
    starts: list[Start],
    empty_bytes: int,
    full_bytes: int,
    full_peak: int,
) -> None:
    n = args.tables
    say("Tanzaku start-up — a fresh bot with live tables in the database")
    say(
        f"live tables: {n} ({len(templates)} built through the TableService, the rest copied),"
        f" {len(BUTTONS)} buttons each; starts: {len(starts)}"
    )
    say("")
    for number, start in enumerate(starts, 1):
        r = start.resolution
        phases = ", ".join(
            f"{name} {seconds * 1000:.0f} ms" for name, seconds in start.phases.items()
        )
        say(
            f"start {number}: {start.total:.3f} s = log-in to READY {start.start_seconds:.3f} s"
            f" ({phases}) + buttons {r.match_seconds * 1000:.0f} ms to match"
            f" + {r.lookup_seconds * 1000:.0f} ms to look up the game"
        )
        say(
            f"         deadlines re-armed {start.rearmed}, armed {start.armed};"
            f" buttons resolved {r.buttons - r.unresolved}/{r.buttons}"
            + (f"; RSS +{start.rss_growth / 2**20:.1f} MB" if start.rss_growth is not None else "")
        )
    worst = max(start.total for start in starts)
    median = statistics.median(start.total for start in starts)
    say("")
    say(
        f"time to every deadline re-armed and every button resolved: median {median:.3f} s,"
        f" worst {worst:.3f} s | goal < {GOAL_SECONDS:.0f} s:"
        f" {'MET' if worst < GOAL_SECONDS else 'NOT MET'}"
    )
    lazy = max(start.total - start.resolution.lookup_seconds for start in starts)
    say(
        f"  without the per-table game look-ups (which a click otherwise pays on its first"
        f" use): worst {lazy:.3f} s"
    )
    per_table = (full_bytes - empty_bytes) / n
    say(
        f"memory (tracemalloc): started bot {full_bytes / 2**20:.2f} MB with {n} tables,"
        f" {empty_bytes / 2**20:.2f} MB with none; peak during start {full_peak / 2**20:.2f} MB"
    )
    say(
        f"memory per live table: {per_table:,.0f} B ({per_table / 1024:.2f} KB);"
        f" whole bot / tables {full_bytes / n / 1024:.2f} KB | goal < {GOAL_BYTES // 1024} KB:"
        f" {'MET' if per_table < GOAL_BYTES else 'NOT MET'}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000, help="live tables (default 10000)")
    parser.add_argument(
        "--templates",
        type=int,
        default=100,
        help="tables built through the TableService; the rest are SQL copies (default 100)",
    )
    parser.add_argument("--repeats", type=int, default=3, help="timed starts (default 3)")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.templates < 1 or args.repeats < 1:
        parser.error("--tables, --templates and --repeats must be at least 1")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
