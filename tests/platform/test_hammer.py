"""Two bot processes on one PostgreSQL database, hammering the same tables and wallets.

Each worker (hammer_worker.py, a real OS process started with `python -m`) builds its own
table service on the shared database, with the real clock and timers of a second or two,
runs the shard of one of two servers and lets eight concurrent players open, join, leave,
start, accept challenges, raise, call and bid on every live table of both servers, while
lobbies expire and turns time out (the players also fire due deadlines themselves, racing
both processes' schedulers for them). Every write is journaled before it starts and when
it ends, so the journals of both processes can be laid over the database afterwards:

- both run to the end: every version of every table is the work of exactly one journaled
  write (no action lost, none applied twice), of the kind its log row says; no deadline is
  applied twice; the books balance; nothing is left live or in escrow;
- one is killed with SIGKILL after about two seconds, just after a write was saved (its line
  not yet written): the other finishes the dead one's server (its deadlines fire there after
  the takeover delay) until nothing is live; the books balance; a version no journal
  accounts for is a write the dead process had in flight on that table, at most one a
  table, and there is at least one (the write it froze after).

The checks themselves are tested on made-up journals (they can fail), and what the hammer
found in bot/ (a challenge's invitee could Join, then Accept failed) is a test at the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.errors import UserFacingError
from bot.games import strength_duel
from bot.service import Actor
from bot.storage.postgres import PostgresDatabase
from tests.platform import hammer_worker as hw
from tests.platform._helpers import check_platform_invariants, fingerprint, open_services

REPO = Path(__file__).resolve().parents[2]
WORK_SECONDS = 5.0
KILL_AFTER_SECONDS = 2.0
SETTLE_TIMEOUT_SECONDS = 30.0
START_TIMEOUT_SECONDS = 30.0

LOGGED: dict[str, tuple[tuple[str, ...], ...]] = {
    "open": (("__open__",),),
    "join": (("__join__",),),
    "leave": (("__leave__",),),
    "start": (("__start__",),),
    # An accepted challenge seats the invitee and starts the game: two versions.
    "accept": (("__join__", "__start__"),),
    "cancel": (("__cancel__",),),
    "raise": (("raise",),),
    "call": (("call",),),
    "bid": (("bid",),),
    # A lobby expires, or the game takes its own timeout.
    "deadline": (("__expire__",), ("deadline",)),
}
"""What each journaled write leaves in a table's action log, one row per version."""


@dataclass
class Attempt:
    worker: str
    number: int
    kind: str
    tried: dict[str, Any]
    ended: dict[str, Any] | None = None


@dataclass
class Books:
    """The database after a run: each table's version, place and log kinds by seq."""

    tables: dict[int, dict[str, Any]] = field(default_factory=dict)
    logs: dict[int, dict[int, str]] = field(default_factory=dict)
    live: int = 0
    escrow: int = 0


# -- the processes ---------------------------------------------------------------------------


@dataclass
class Proc:
    name: str
    process: asyncio.subprocess.Process
    journal: Path
    summary: Path
    stderr: Path

    async def expect(self, wanted: str, within: float) -> None:
        assert self.process.stdout is not None
        try:
            line = await asyncio.wait_for(self.process.stdout.readline(), within)
        except TimeoutError:
            line = b"(nothing in time)"
        if line.decode().strip() != wanted:
            raise AssertionError(
                f"worker {self.name}: expected {wanted!r}, got {line!r}\n{self.errors()}"
            )

    def send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{command}\n".encode())

    def errors(self) -> str:
        return self.stderr.read_text(errors="replace")[-4000:] if self.stderr.exists() else ""


async def spawn(
    dsn: str, name: str, own_guild: int, seed: int, folder: Path, *options: str
) -> Proc:
    journal, summary = folder / f"journal_{name}.jsonl", folder / f"summary_{name}.json"
    stderr = folder / f"stderr_{name}.txt"
    env = {key: value for key, value in os.environ.items() if not key.startswith("TANZAKU_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    with stderr.open("wb") as errors:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.platform.hammer_worker",
            dsn,
            "--name",
            name,
            "--own-guild",
            str(own_guild),
            "--seed",
            str(seed),
            "--journal",
            str(journal),
            "--summary",
            str(summary),
            "--work-seconds",
            str(WORK_SECONDS),
            *options,
            cwd=REPO,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=errors,
        )
    return Proc(name, process, journal, summary, stderr)


@asynccontextmanager
async def two_workers(
    dsn: str, folder: Path, seed: int, *a_options: str
) -> AsyncIterator[tuple[Proc, Proc]]:
    """Worker A runs G_A's shard, B G_B's; both ready, then told to go at once. Whatever
    happens, neither outlives the test."""
    workers: list[Proc] = []
    try:
        workers.append(await spawn(dsn, "A", hw.G_A, seed, folder, *a_options))
        workers.append(await spawn(dsn, "B", hw.G_B, seed, folder))
        for worker in workers:
            await worker.expect("ready", START_TIMEOUT_SECONDS)
        for worker in workers:
            worker.send("go")
        yield workers[0], workers[1]
    finally:
        for worker in workers:
            if worker.process.returncode is None:
                worker.process.kill()
                await worker.process.wait()


async def stop(worker: Proc) -> dict[str, Any]:
    worker.send("stop")
    try:
        code = await asyncio.wait_for(worker.process.wait(), 20)
    except TimeoutError:
        raise AssertionError(f"worker {worker.name} did not stop\n{worker.errors()}") from None
    assert code == 0, f"worker {worker.name} exited {code}\n{worker.errors()}"
    summary: dict[str, Any] = json.loads(worker.summary.read_text())
    errors: list[str] = summary["errors"]
    assert not errors, (
        f"worker {worker.name}: {len(errors)} unexpected errors (all in {worker.summary}); "
        f"the first:\n{errors[0][-2000:]}"
    )
    # The platform hands every outcome a deadline produced to its listeners.
    assert summary["deadlines_heard"] == summary["deadlines_applied"], summary
    return summary


# -- reading what happened ---------------------------------------------------------------


def read_journal(path: Path) -> list[Attempt]:
    attempts: dict[int, Attempt] = {}
    for line in path.read_text().splitlines():
        if not line.endswith("}"):
            continue  # the last line, cut by a SIGKILL while it was written
        record = json.loads(line)
        number = int(record["n"])
        if record["ev"] == "try":
            attempts[number] = Attempt(record["w"], number, record["kind"], record)
        else:
            attempts[number].ended = record
    return list(attempts.values())


@asynccontextmanager
async def database(dsn: str) -> AsyncIterator[PostgresDatabase]:
    db = PostgresDatabase(dsn, max_size=2)
    await db.open()
    try:
        yield db
    finally:
        await db.close()


async def read_books(db: PostgresDatabase) -> Books:
    books = Books()
    async with db.reading() as tx:
        for row in await tx.fetchall(
            "SELECT id, version, guild_id, channel_id, game, status, escrow FROM game_tables"
        ):
            books.tables[int(row[0])] = {
                "version": int(row[1]),
                "guild": int(row[2]),
                "channel": int(row[3]),
                "game": str(row[4]),
                "status": str(row[5]),
            }
            books.live += row[5] in ("lobby", "running")
            books.escrow += int(row[6])
        for table_id, seq, action_json in await tx.fetchall(
            "SELECT table_id, seq, action_json FROM action_log"
        ):
            kind = str(json.loads(action_json).get("kind"))
            books.logs.setdefault(int(table_id), {})[int(seq)] = kind
    return books


async def settle(db: PostgresDatabase, within: float) -> None:
    """Wait until no table of either server is live (the deadlines do the rest)."""
    give_up = time.monotonic() + within
    while (await read_books(db)).live:
        if time.monotonic() > give_up:
            books = await read_books(db)
            live = {t: v for t, v in books.tables.items() if v["status"] in ("lobby", "running")}
            raise AssertionError(f"tables still live after {within} s: {live}")
        await asyncio.sleep(0.2)


def claims(attempts: list[Attempt], books: Books) -> dict[int, dict[int, Attempt]]:
    """Table → version → the journaled write that produced it. Fails on a version two
    writes claim (an action applied twice, or a version reused), on a write whose log
    rows are not of its kind, and on one deadline applied twice."""
    claimed: dict[int, dict[int, Attempt]] = defaultdict(dict)
    fired: dict[tuple[int, int], Attempt] = {}
    for attempt in attempts:
        ended = attempt.ended
        if ended is None or ended["ev"] != "ok":
            continue
        table, version = int(ended["table"]), int(ended["version"])
        if attempt.kind == "deadline":
            # A deadline is applied once, whichever process fires it (the owner on time,
            # the other one a takeover delay late): never twice for one decision point.
            key = (table, int(attempt.tried["ply"]))
            twice = fired.get(key)
            assert twice is None, (
                f"table {table}: the deadline of ply {key[1]} applied by "
                f"{twice.worker}#{twice.number} and {attempt.worker}#{attempt.number}"
            )
            fired[key] = attempt
        logged = books.logs.get(table, {})
        shapes = LOGGED[attempt.kind]
        width = len(shapes[0])
        versions = list(range(version - width + 1, version + 1))
        kinds = tuple(logged.get(v, "(no log row)") for v in versions)
        assert kinds in shapes, (
            f"table {table} v{version}: {attempt.worker}'s {attempt.kind} logged {kinds}"
        )
        for v in versions:
            before = claimed[table].get(v)
            assert before is None, (
                f"table {table} v{v} claimed twice: {before.worker}#{before.number} "
                f"{before.kind} and {attempt.worker}#{attempt.number} {attempt.kind}"
            )
            claimed[table][v] = attempt
    return claimed


def check_work_was_shared(attempts: list[Attempt], books: Books) -> None:
    """The run did what it claims to test: every kind of write succeeded, refusals
    happened, both processes wrote to tables of both servers and to the same tables."""
    done = [a for a in attempts if a.ended is not None and a.ended["ev"] == "ok"]
    kinds = {a.kind for a in done}
    assert kinds >= {"open", "join", "start", "accept", "raise", "call", "bid", "deadline"}, kinds
    assert any(a.ended is not None and a.ended["ev"] == "refused" for a in attempts)
    for name in ("A", "B"):
        guilds = {a.ended["guild"] for a in done if a.worker == name and a.ended is not None}
        assert guilds == {hw.G_A, hw.G_B}, (name, guilds)
    writers: dict[int, set[str]] = defaultdict(set)
    for attempt in done:
        assert attempt.ended is not None
        writers[int(attempt.ended["table"])].add(attempt.worker)
    shared = [table for table, names in writers.items() if len(names) == 2]
    assert len(shared) >= 3, f"only {len(shared)} tables written by both processes"
    assert len(books.tables) >= 10, f"only {len(books.tables)} tables opened"


def check_exactly_once(attempts: list[Attempt], books: Books) -> None:
    """Both processes ran to the end: every write they began ended, and every version of
    every table is exactly one journaled write (none lost, none applied twice)."""
    unfinished = [(x.worker, x.number, x.kind) for x in attempts if x.ended is None]
    assert unfinished == [], unfinished
    claimed = claims(attempts, books)
    for table, row in books.tables.items():
        versions = sorted(claimed.get(table, {}))
        assert versions == list(range(1, row["version"] + 1)), (table, row, versions)


def check_after_kill(a_attempts: list[Attempt], b_attempts: list[Attempt], books: Books) -> int:
    """A was killed, B ran to the end: no version is claimed twice, and a version no
    journal claims is the one write A had in flight on that table. Returns how many
    tables had such a version."""
    unfinished = [(x.number, x.kind) for x in b_attempts if x.ended is None]
    assert unfinished == [], f"B left writes unfinished: {unfinished}"
    in_flight = [x for x in a_attempts if x.ended is None]
    claimed = claims(a_attempts + b_attempts, books)
    explained = 0
    for table, row in books.tables.items():
        missing = sorted(set(range(1, row["version"] + 1)) - set(claimed.get(table, {})))
        if not missing:
            continue
        # Only the write A had in flight on this table may be missing from the journals
        # (saved just before the kill, its `ok` line never written): one write's versions.
        kinds = tuple(books.logs[table][v] for v in missing)
        single = any(kinds in shapes for shapes in LOGGED.values())
        consecutive = missing == list(range(missing[0], missing[-1] + 1))
        assert single and consecutive, (table, row, missing, kinds)
        culprits = [
            x
            for x in in_flight
            if kinds in LOGGED[x.kind]
            and (
                x.tried.get("table") == table
                or (
                    x.kind == "open"
                    and missing == [1]
                    and x.tried.get("channel") == row["channel"]
                    and x.tried.get("game") == row["game"]
                )
            )
        ]
        assert culprits, f"table {table} v{missing} ({kinds}) is no write A had in flight"
        explained += 1
    assert explained <= len(in_flight), (explained, in_flight)
    return explained


# -- the tests -------------------------------------------------------------------------------


async def test_two_processes_apply_every_action_exactly_once(
    postgres_dsn: str, tmp_path: Path
) -> None:
    async with two_workers(postgres_dsn, tmp_path, 1301) as (a, b):
        for worker in (a, b):
            await worker.expect("drained", WORK_SECONDS + 40)
        async with database(postgres_dsn) as db:
            await settle(db, 10)
            summaries = [await stop(a), await stop(b)]
            books = await read_books(db)
            await check_platform_invariants(db, hw.registry())

    attempts = read_journal(a.journal) + read_journal(b.journal)
    check_exactly_once(attempts, books)
    assert books.live == 0 and books.escrow == 0
    for summary in summaries:
        # Each process fired deadlines of its own server's tables.
        assert summary["deadlines_applied"] > 0, summary
    check_work_was_shared(attempts, books)


async def test_a_process_killed_mid_way_leaves_its_tables_to_the_other(
    postgres_dsn: str, tmp_path: Path
) -> None:
    freeze = ("--freeze-after", str(KILL_AFTER_SECONDS))
    async with two_workers(postgres_dsn, tmp_path, 1302, *freeze) as (a, b):
        # A stops dead just after a write was saved (its ok line not written) and is killed
        # there: the worst moment, placed rather than hoped for.
        await a.expect("frozen", KILL_AFTER_SECONDS + START_TIMEOUT_SECONDS)
        os.kill(a.process.pid, signal.SIGKILL)
        killed_at = time.time()
        assert await a.process.wait() == -signal.SIGKILL
        await b.expect("drained", WORK_SECONDS + 40)
        async with database(postgres_dsn) as db:
            # B carries G_A's tables on too, a takeover delay late, until none is live.
            await settle(db, SETTLE_TIMEOUT_SECONDS)
            await stop(b)
            books = await read_books(db)
            await check_platform_invariants(db, hw.registry())

    a_attempts, b_attempts = read_journal(a.journal), read_journal(b.journal)
    assert a_attempts, "A did nothing before it was killed"
    # The write A froze after is in the database and not in a journal (another of A's
    # players may have had its COMMIT answered at the same moment: then two are).
    assert check_after_kill(a_attempts, b_attempts, books) >= 1
    assert books.live == 0 and books.escrow == 0

    # B fired deadlines of the dead process's server after it died.
    taken_over = [
        x
        for x in b_attempts
        if x.kind == "deadline"
        and x.ended is not None
        and x.ended["ev"] == "ok"
        and x.ended["guild"] == hw.G_A
        and x.ended["at"] > killed_at
    ]
    assert taken_over, "B applied no deadline of G_A's tables after A died"


# -- the checks can fail ---------------------------------------------------------------------


def _books(logged: list[str]) -> Books:
    """One table (#1 of G_A, a coin flip in its first channel) with these log rows."""
    books = Books()
    books.tables[1] = {
        "version": len(logged),
        "guild": hw.G_A,
        "channel": hw.CHANNELS[hw.G_A][0],
        "game": hw.COINFLIP,
        "status": "finished",
    }
    books.logs[1] = {seq: kind for seq, kind in enumerate(logged, 1)}
    return books


def _ok(worker: str, number: int, kind: str, version: int) -> Attempt:
    ended = {"ev": "ok", "table": 1, "version": version, "guild": hw.G_A, "at": 0.0}
    return Attempt(worker, number, kind, {"table": 1}, ended)


def _in_flight(kind: str, **tried: Any) -> Attempt:
    return Attempt("A", 99, kind, tried)


PLAYED = ["__open__", "__join__", "__start__", "raise", "call"]
JOURNALED = [
    _ok("A", 1, "open", 1),
    _ok("B", 1, "join", 2),
    _ok("A", 2, "start", 3),
    _ok("B", 2, "raise", 4),
    _ok("A", 3, "call", 5),
]


def test_the_exactly_once_check_passes_a_faithful_journal() -> None:
    check_exactly_once(JOURNALED, _books(PLAYED))
    accepted = [_ok("A", 1, "open", 1), _ok("B", 1, "accept", 3)]
    check_exactly_once(accepted, _books(["__open__", "__join__", "__start__"]))


@pytest.mark.parametrize(
    "journal",
    [
        pytest.param([*JOURNALED, _ok("B", 3, "call", 5)], id="applied-twice"),
        pytest.param([x for x in JOURNALED if x.kind != "raise"], id="lost"),
        pytest.param([*JOURNALED[:4], _ok("A", 3, "bid", 5)], id="another-kind"),
        pytest.param([*JOURNALED, _ok("A", 4, "call", 6)], id="no-such-version"),
        pytest.param([*JOURNALED, Attempt("B", 9, "join", {"table": 1})], id="unfinished"),
    ],
)
def test_the_exactly_once_check_fails_a_wrong_journal(journal: list[Attempt]) -> None:
    with pytest.raises(AssertionError):
        check_exactly_once(journal, _books(PLAYED))


def test_the_checks_fail_one_deadline_applied_twice() -> None:
    books = _books([*PLAYED[:3], "deadline", "deadline"])
    first = _ok("A", 3, "deadline", 4)
    first.tried["ply"] = 0
    again = _ok("B", 3, "deadline", 5)
    again.tried["ply"] = 1
    check_exactly_once([*JOURNALED[:3], first, again], books)
    again.tried["ply"] = 0  # the other process fired the same decision point again
    with pytest.raises(AssertionError, match="applied by"):
        check_exactly_once([*JOURNALED[:3], first, again], books)


def test_the_kill_check_accepts_only_the_dead_processs_write_in_flight() -> None:
    books = _books(PLAYED)
    a_done = [x for x in JOURNALED if x.worker == "A" and x.kind != "call"]
    b_done = [x for x in JOURNALED if x.worker == "B"]
    # A's call was saved, its line never written; A had it in flight.
    assert check_after_kill([*a_done, _in_flight("call", table=1)], b_done, books) == 1
    assert check_after_kill(JOURNALED, [], books) == 0
    # An open in flight explains a table nobody journaled opening.
    without_open = [x for x in JOURNALED if x.kind != "open"]
    opening = _in_flight("open", guild=hw.G_A, channel=hw.CHANNELS[hw.G_A][0], game=hw.COINFLIP)
    assert check_after_kill([opening, *without_open], [], books) == 1
    for wrong in (
        [*a_done],  # nothing in flight
        [*a_done, _in_flight("bid", table=1)],  # in flight, but not what the log holds
        [*a_done, _in_flight("call", table=2)],  # in flight at another table
    ):
        with pytest.raises(AssertionError):
            check_after_kill(wrong, b_done, books)
    # Two writes missing on one table is more than one in flight.
    b_without_raise = [x for x in b_done if x.kind != "raise"]
    with pytest.raises(AssertionError):
        check_after_kill([*a_done, _in_flight("call", table=1)], b_without_raise, books)
    with pytest.raises(AssertionError):
        check_after_kill(JOURNALED, [Attempt("B", 9, "join", {"table": 1})], books)


# -- what the hammer found ---------------------------------------------------------------


async def test_a_challenges_invitee_is_told_to_accept_not_join(
    database_url: str,
) -> None:
    services = await open_services(database_url, registry=hw.registry())
    host, invitee = hw.MEMBERS[0], hw.MEMBERS[1]
    try:
        opened = await services.tables.open(
            guild_id=hw.G_A,
            channel_id=hw.CHANNELS[hw.G_A][0],
            game=hw.DUEL,
            host_id=host,
            rules=strength_duel.Rules(stake=10),
            invitee_id=invitee,
        )
        table = opened.snapshot.id
        before = await fingerprint(services.db)
        # Found by the hammer: Join used to seat the invitee without starting, and Accept
        # then failed on the seats' key with a database error instead of a refusal.
        with pytest.raises(UserFacingError, match="use Accept"):
            await services.tables.join(table, Actor(invitee))
        assert await fingerprint(services.db) == before, "the refusal changed nothing"
        accepted = await services.tables.accept(table, Actor(invitee))
        assert accepted.snapshot.row.status == "running"
        with pytest.raises(UserFacingError):
            await services.tables.accept(table, Actor(invitee))
    finally:
        await services.db.close()
