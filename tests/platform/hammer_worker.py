"""Run by test_hammer.py: one bot process's table service on a shared PostgreSQL database,
hammering the tables of two servers together with another process like it.

    python -m tests.platform.hammer_worker DSN --name A --own-guild G --seed S
        --journal PATH --summary PATH --work-seconds 5

The process builds what the bot builds (its own pool, its own listening connection, the
real clock), runs the shard of one server (`--own-guild`: that server's deadlines fire
here on time, the other's only a takeover delay late) and talks with the parent over its
standard streams:

- writes ``ready`` once the database is open and the deadlines re-armed;
- waits for ``go``, then lets PLAYERS concurrent players do random operations (seeded) on
  every live table of both servers for `--work-seconds`; refusals are normal and counted;
- stops drawing new work, waits until its own server has no live table and no deadline
  left, and writes ``drained`` (or ``drain-timeout``);
- carries on serving deadlines, as a running bot does, until ``stop`` arrives; then writes
  the summary JSON and exits 0.

With `--freeze-after SECONDS` the first write saved after that much work freezes the
process before its ``ok`` line and writes ``frozen``: the parent then kills it with SIGKILL
at the worst moment, a write saved in the database and not in the journal.

The journal (one JSON object a line, flushed per line, so a SIGKILL loses at most the line
being written) records every attempted write before it starts (``try``) and how it ended:
``ok`` with the table and the version it produced, ``refused`` with the refusal's class,
``stale`` for a deadline that found the table moved on, ``busy`` for one that found the
table held by the other process (`DeadlineBusy`), ``error`` for anything else.
Deadlines are journaled by wrapping ``tables.fire_deadline`` (what the scheduler calls);
``tables.deadline_listeners`` counts the outcomes the platform reports, as a cross-check.
The players also fire deadlines that are due through the same journaled call, racing both
processes' schedulers (``by`` in the journal tells which fired).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.economy import Economy
from bot.errors import UserFacingError
from bot.games import strength_duel
from bot.games.registry import GameRegistry, GameSpec
from bot.service import Actor, Outcome, TableService
from bot.service.deadlines import DeadlineBusy
from bot.storage.postgres import PostgresDatabase
from tests.support import coinflip

log = logging.getLogger(__name__)

# Realistic snowflakes, above 2**53: a float anywhere on the way would lose them.
G_A = 1_180_418_745_912_737_823
G_B = 1_180_418_745_912_737_941
GUILDS = (G_A, G_B)
MEMBERS = tuple(1_211_000_000_000_000_001 + 7919 * n for n in range(8))
"""M1..M8: the same members (so the same wallet ids) in both servers."""
CHANNELS = {
    G_A: (1_300_000_000_000_000_011, 1_300_000_000_000_000_012, 1_300_000_000_000_000_013),
    G_B: (1_300_000_000_000_000_021, 1_300_000_000_000_000_022, 1_300_000_000_000_000_023),
}
COINFLIP = "coinflip"
DUEL = "strength_duel"
PLAYERS = 8
LOBBY_SECONDS = 2
TAKEOVER_SECONDS = 1.0
HOUSE_FLOAT = 100_000
LIVE_CACHE_SECONDS = 0.05
"""The live tables are read at most this often (shared by the players): a small read."""
PAUSE_SECONDS = 0.03
"""A player's longest pause between two operations."""
DRAIN_TIMEOUT_SECONDS = 25.0

LEFT_ALONE = 4
"""A running table whose id is a multiple of this is never played by anyone: only its
deadlines move it (a turn timed out, a round's missing bid), so they surely fire."""
NEVER_STARTED = 5
"""A lobby whose id is a multiple of this is never started: it expires."""


def registry() -> GameRegistry:
    found = GameRegistry()
    found.add(GameSpec(coinflip.ENGINE, "Coin Flip"))
    found.add(GameSpec(strength_duel.ENGINE, "Strength Duel"))
    return found


class Journal:
    """Append-only, one JSON line per event, flushed per line."""

    def __init__(self, path: Path, name: str) -> None:
        self._file: TextIO = path.open("a", encoding="utf-8", buffering=1)
        self._name = name
        self._next = 0

    def begin(self, kind: str, **fields: Any) -> int:
        self._next += 1
        self._write({"n": self._next, "ev": "try", "kind": kind, **fields})
        return self._next

    def end(self, number: int, event: str, **fields: Any) -> None:
        self._write({"n": number, "ev": event, **fields})

    def _write(self, record: dict[str, Any]) -> None:
        record["w"] = self._name
        record["at"] = time.time()
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


@dataclass(frozen=True)
class Live:
    """What a player needs of a live table to pick a sensible (or a refused) operation."""

    id: int
    guild_id: int
    game: str
    status: str
    host_id: int
    invitee_id: int | None
    state: dict[str, Any] | None
    deadline: tuple[int, float] | None
    """The stored deadline's ply and due time."""


class Worker:
    def __init__(self, args: argparse.Namespace) -> None:
        self.name: str = args.name
        self.own_guild: int = args.own_guild
        self.seed: int = args.seed
        self.work_seconds: float = args.work_seconds
        self.summary_path = Path(args.summary)
        self.journal = Journal(Path(args.journal), self.name)
        self.db = PostgresDatabase(args.dsn)
        self.freeze_after: float | None = args.freeze_after
        self._freeze_at: float | None = None
        """`time.monotonic()` from which the next saved write freezes the process."""
        self.economy = Economy(self.db, house_float=HOUSE_FLOAT, clock=time.time)
        self.tables = TableService(
            self.db,
            self.economy,
            registry(),
            clock=time.time,
            lobby_timeout_seconds=LOBBY_SECONDS,
            owns_guild=lambda guild_id: guild_id == self.own_guild,
            takeover_seconds=TAKEOVER_SECONDS,
        )
        self.outcomes: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.errors: list[str] = []
        self.deadlines_heard = 0
        """Outcomes the platform passed to `deadline_listeners`."""
        self.deadlines_applied: Counter[str] = Counter()
        """Outcomes `fire_deadline` returned (journaled), by who fired it."""
        self._live: list[Live] = []
        self._live_read_at = 0.0
        self._live_lock = asyncio.Lock()
        self._fire: Callable[[int, int], Awaitable[Outcome | None]] = self.tables.fire_deadline

    # -- start and stop ------------------------------------------------------------------

    async def open(self) -> None:
        await self.db.open()
        self._wrap_fire_deadline()
        self.tables.deadline_listeners.append(self._heard_deadline)
        await self.tables.rearm()  # starts listening, as the bot does at start

    def _wrap_fire_deadline(self) -> None:
        # The scheduler reaches `fire_deadline` through the instance at every deadline, so
        # this wrapper sees each one: journaled before it starts and when it ends.
        self._fire = self.tables.fire_deadline

        async def by_scheduler(table_id: int, ply: int) -> Outcome | None:
            return await self._fire_journaled(table_id, ply, by="scheduler")

        self.tables.fire_deadline = by_scheduler  # type: ignore[method-assign]

    async def _fire_journaled(self, table_id: int, ply: int, *, by: str) -> Outcome | None:
        """The service's own `fire_deadline`, journaled; `by` the scheduler (its outcomes
        also reach the deadline listeners) or a player racing it (`fire_due`)."""
        number = self.journal.begin("deadline", table=table_id, ply=ply, by=by)
        try:
            outcome = await self._fire(table_id, ply)
        except DeadlineBusy:
            # The other process holds the table right now: the scheduler looks again
            # shortly. Normal, not an error.
            self.journal.end(number, "busy")
            self.outcomes[f"deadline-busy-{by}"] += 1
            raise
        except Exception as error:
            self.journal.end(number, "error", error=repr(error))
            self.errors.append(f"deadline {table_id} by {by}: {traceback.format_exc()}")
            raise
        if outcome is None:
            self.journal.end(number, "stale")
            self.outcomes[f"deadline-stale-{by}"] += 1
            return None
        self._journal_ok(number, "deadline", outcome)
        self.deadlines_applied[by] += 1
        return outcome

    def _heard_deadline(self, outcome: Outcome) -> None:
        self.deadlines_heard += 1

    async def close(self) -> None:
        await self.tables.scheduler.stop()
        await self.db.close()
        self.journal.close()

    def summary(self, drained: bool, drain_seconds: float) -> dict[str, Any]:
        return {
            "name": self.name,
            "own_guild": self.own_guild,
            "drained": drained,
            "drain_seconds": round(drain_seconds, 3),
            "outcomes": dict(self.outcomes),
            "refusals": dict(self.refusals),
            "errors": self.errors,
            "deadlines_applied": self.deadlines_applied["scheduler"],
            "deadlines_applied_by_players": self.deadlines_applied["player"],
            "deadlines_heard": self.deadlines_heard,
            "scheduler_fired": self.tables.scheduler.fired,
            "signals_received": self.tables.signals.received,
        }

    # -- reading the shared tables ---------------------------------------------------------

    async def live_tables(self) -> list[Live]:
        """Every live table of both servers, whoever opened it (one small read, shared by
        the players for LIVE_CACHE_SECONDS)."""
        async with self._live_lock:
            if time.monotonic() - self._live_read_at > LIVE_CACHE_SECONDS:
                async with self.db.reading() as tx:
                    rows = await tx.fetchall(
                        "SELECT t.id, t.guild_id, t.game, t.status, t.host_id, t.invitee_id,"
                        " t.state_json, d.ply, d.due_at"
                        " FROM game_tables t LEFT JOIN deadlines d ON d.table_id = t.id"
                        " WHERE t.status IN ('lobby', 'running')"
                    )
                self._live = [
                    Live(
                        id=int(row[0]),
                        guild_id=int(row[1]),
                        game=str(row[2]),
                        status=str(row[3]),
                        host_id=int(row[4]),
                        invitee_id=None if row[5] is None else int(row[5]),
                        state=None if row[6] is None else json.loads(row[6]),
                        deadline=None if row[7] is None else (int(row[7]), float(row[8])),
                    )
                    for row in rows
                ]
                self._live_read_at = time.monotonic()
            return self._live

    async def busy_in(self, guild_id: int) -> int:
        """Live tables and deadlines left in a server."""
        async with self.db.reading() as tx:
            row = await tx.fetchone(
                "SELECT (SELECT COUNT(*) FROM game_tables WHERE guild_id = ?"
                "        AND status IN ('lobby', 'running')),"
                " (SELECT COUNT(*) FROM deadlines d JOIN game_tables t ON t.id = d.table_id"
                "  WHERE t.guild_id = ?)",
                (guild_id, guild_id),
            )
        assert row is not None
        return int(row[0]) + int(row[1])

    # -- the work --------------------------------------------------------------------------

    async def work(self) -> None:
        started = time.monotonic()
        stop_at = started + self.work_seconds
        if self.freeze_after is not None:
            self._freeze_at = started + self.freeze_after
        await asyncio.gather(*(self.player(index, stop_at) for index in range(PLAYERS)))

    async def player(self, index: int, stop_at: float) -> None:
        rng = random.Random(f"{self.seed}-{self.name}-{index}")
        while time.monotonic() < stop_at:
            await self.operation(rng)
            await asyncio.sleep(rng.uniform(0, PAUSE_SECONDS))

    async def operation(self, rng: random.Random) -> None:
        live = await self.live_tables()
        if not live or rng.random() < 0.2:
            await self.open_table(rng)
            return
        due = [t for t in live if t.deadline is not None and t.deadline[1] <= time.time()]
        if due and rng.random() < 0.1:
            await self.fire_due(rng.choice(due))
            return
        table = rng.choice(live)
        if table.status == "lobby":
            await self.lobby_operation(rng, table)
        elif table.id % LEFT_ALONE != 0:
            await self.play(rng, table)

    async def open_table(self, rng: random.Random) -> None:
        guild = rng.choice(GUILDS)
        channel = rng.choice(CHANNELS[guild])
        host = rng.choice(MEMBERS)
        game = rng.choice((COINFLIP, DUEL))
        invitee: int | None = None
        rules: Any
        if game == COINFLIP:
            rules = coinflip.Rules(stake=rng.randint(0, 40), turn_seconds=1)
        else:
            rules = strength_duel.Rules(
                stake=rng.randint(0, 40), round_seconds=1, afk_rounds_to_forfeit=2, max_rounds=6
            )
            if rng.random() < 0.5:  # a challenge: only the invitee may take the seat
                invitee = rng.choice(MEMBERS)

        async def opening() -> Outcome:
            return await self.tables.open(
                guild_id=guild,
                channel_id=channel,
                game=game,
                host_id=host,
                rules=rules,
                invitee_id=invitee,
                lobby_seconds=LOBBY_SECONDS,
            )

        await self.attempt("open", opening, guild=guild, channel=channel, game=game)

    async def lobby_operation(self, rng: random.Random, table: Live) -> None:
        member = rng.choice(MEMBERS)
        tables = self.tables
        if table.invitee_id is not None:
            # A challenge shows Accept and Decline only (cogs/_ui/hub.py); a Join by
            # someone else is refused. The invitee never joins: see test_hammer.py's
            # test_the_invitee_who_joined_a_challenge_is_refused_accepting_it.
            member = rng.choice([m for m in MEMBERS if m != table.invitee_id])
            choice = rng.choices(["join", "accept", "decline"], weights=[1, 5, 0.3])[0]
        else:
            choice = rng.choices(
                ["join", "leave", "start", "accept", "cancel"], weights=[5, 1, 3, 0.3, 0.2]
            )[0]
        if choice == "start" and table.id % NEVER_STARTED == 0:
            return
        if choice == "accept" and table.id % NEVER_STARTED == 0:
            return
        if choice == "decline":
            decliner = table.invitee_id or table.host_id
            await self.attempt(
                "cancel", lambda: tables.cancel(table.id, Actor(decliner)), table=table.id
            )
        elif choice == "join":
            await self.attempt("join", lambda: tables.join(table.id, Actor(member)), table=table.id)
        elif choice == "leave":
            await self.attempt(
                "leave", lambda: tables.leave(table.id, Actor(member)), table=table.id
            )
        elif choice == "start":
            # Mostly the host; now and then someone else, who is refused.
            starter = table.host_id if rng.random() < 0.85 else member
            await self.attempt(
                "start", lambda: tables.start(table.id, Actor(starter)), table=table.id
            )
        elif choice == "accept":
            taker = table.invitee_id if table.invitee_id and rng.random() < 0.85 else member
            await self.attempt(
                "accept", lambda: tables.accept(table.id, Actor(taker)), table=table.id
            )
        else:
            await self.attempt(
                "cancel", lambda: tables.cancel(table.id, Actor(table.host_id)), table=table.id
            )

    async def play(self, rng: random.Random, table: Live) -> None:
        state = table.state
        if state is None:
            return
        seats = [int(seat) for seat in state["seats"]]
        ply = int(state.get("ply", 0))
        member = rng.choice(seats) if rng.random() < 0.9 else rng.choice(MEMBERS)
        tables = self.tables
        if table.game == COINFLIP:
            if rng.random() < 0.4:
                amount = rng.randint(1, 400)  # sometimes more than the wallet holds
                await self.attempt(
                    "raise",
                    lambda: tables.act(table.id, Actor(member), coinflip.Raise(amount=amount)),
                    table=table.id,
                )
                return
            caller = seats[int(state["turn"])] if rng.random() < 0.8 else member
            call = coinflip.Call(side=rng.choice(("heads", "tails")))
            await self.attempt(
                "call",
                lambda: tables.act(table.id, Actor(caller), call, expected_ply=ply),
                table=table.id,
            )
            return
        bid = strength_duel.Bid(amount=rng.randint(0, 8))
        expected = ply if rng.random() < 0.5 else None
        await self.attempt(
            "bid",
            lambda: tables.act(table.id, Actor(member), bid, expected_ply=expected),
            table=table.id,
        )

    async def fire_due(self, table: Live) -> None:
        """Fire a deadline that is due, as a process's scheduler does: it races the
        schedulers of both processes (and the other players) for it, and its ply may
        already be stale (read up to LIVE_CACHE_SECONDS ago)."""
        assert table.deadline is not None
        try:
            await self._fire_journaled(table.id, table.deadline[0], by="player")
        except Exception:
            return  # journaled by the wrapper: busy (normal) or an error (counted)

    async def attempt(
        self, kind: str, write: Callable[[], Awaitable[Outcome]], **fields: Any
    ) -> None:
        number = self.journal.begin(kind, **fields)
        try:
            outcome = await write()
        except UserFacingError as refusal:
            name = type(refusal).__name__
            self.journal.end(number, "refused", error=name)
            self.refusals[name] += 1
            return
        except Exception as error:
            self.journal.end(number, "error", error=repr(error))
            self.errors.append(f"{kind} {fields}: {traceback.format_exc()}")
            return
        self._journal_ok(number, kind, outcome)

    def _journal_ok(self, number: int, kind: str, outcome: Outcome) -> None:
        if self._freeze_at is not None and time.monotonic() >= self._freeze_at:
            # The write is saved and its line not written: the worst moment to die.
            say("frozen")
            # Blocking on purpose: nothing else of this process may run before the kill.
            time.sleep(600)
            os._exit(3)
        row = outcome.snapshot.row
        self.journal.end(
            number,
            "ok",
            kind=kind,
            table=row.id,
            guild=row.guild_id,
            version=row.version,
            outcome=outcome.kind,
        )
        self.outcomes[kind] += 1

    async def drain(self) -> tuple[bool, float]:
        """Wait until the own server has no live table and no deadline left."""
        started = time.monotonic()
        while await self.busy_in(self.own_guild):
            if time.monotonic() - started > DRAIN_TIMEOUT_SECONDS:
                return False, time.monotonic() - started
            await asyncio.sleep(0.1)
        return True, time.monotonic() - started


async def read_command(reader: asyncio.StreamReader) -> str:
    return (await reader.readline()).decode().strip()


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(args: argparse.Namespace) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    worker = Worker(args)
    await worker.open()
    say("ready")
    command = await read_command(reader)
    if command != "go":
        raise SystemExit(f"expected go, got {command!r}")
    await worker.work()
    drained, seconds = await worker.drain()
    say("drained" if drained else "drain-timeout")
    command = await read_command(reader)
    if command != "stop":
        raise SystemExit(f"expected stop, got {command!r}")
    summary = worker.summary(drained, seconds)
    await worker.close()
    return summary


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="hammer_worker")
    parser.add_argument("dsn")
    parser.add_argument("--name", required=True)
    parser.add_argument("--own-guild", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--journal", required=True)
    parser.add_argument("--summary", required=True)
    parser.add_argument("--work-seconds", type=float, default=5.0)
    parser.add_argument(
        "--freeze-after",
        type=float,
        default=None,
        help="seconds of work after which the next saved write freezes the process",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    arguments = parse(sys.argv[1:])
    finished = asyncio.run(main(arguments))
    Path(arguments.summary).write_text(json.dumps(finished, indent=1), encoding="utf-8")
