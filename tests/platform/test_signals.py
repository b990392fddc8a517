"""Processes sharing one PostgreSQL database hear each other (bot/signals.py).

Two table services, each with its own pool, locks, scheduler and listening connection, as
two bot processes have: what one commits (a deadline, a notice, a settings change) reaches
what the other keeps in memory; a deadline fires once whoever fires it; a process that
runs a server's shard fires its deadlines on time, another one only after a takeover
delay, so a dead process's deadlines are still fired.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bot.economy import Economy
from bot.games.dice import ScriptedDice
from bot.languages import Languages
from bot.panels import PrivatePanels
from bot.service import Actor, TableService
from bot.service.deadlines import BUSY_RETRY_SECONDS
from bot.service.terms import LogKind
from bot.signals import LANGUAGE, PANEL, SignalRouter
from bot.storage import Database, SqliteDatabase
from bot.storage import money as mq
from bot.storage import table_queries as tq
from bot.storage.postgres import PostgresDatabase
from tests.platform._helpers import FakeClock, check_platform_invariants, coinflip_registry
from tests.support import coinflip

GUILD, CHANNEL, ALICE, BOB = 4242 << 22, 77, 1001, 1002
TAKEOVER = 10.0
LOBBY_SECONDS = 900


@dataclass
class Process:
    db: PostgresDatabase
    tables: TableService
    economy: Economy


async def start_process(dsn: str, clock: FakeClock, *, owns: Callable[[int], bool]) -> Process:
    db = PostgresDatabase(dsn)
    await db.open()
    economy = Economy(db, house_float=1000, clock=clock)
    dice = ScriptedDice(rolls=[2] * 200)
    tables = TableService(
        db,
        economy,
        coinflip_registry(),
        clock=clock,
        dice_factory=lambda row: dice,
        lobby_timeout_seconds=LOBBY_SECONDS,
        owns_guild=owns,
        takeover_seconds=TAKEOVER,
    )
    await tables.rearm()  # starts listening, as the bot does at start
    return Process(db, tables, economy)


async def stop_process(process: Process) -> None:
    await process.tables.scheduler.stop()
    await process.db.close()


@pytest.fixture
async def pair(postgres_dsn: str) -> AsyncIterator[tuple[Process, Process, FakeClock]]:
    """`owner` runs the shard of GUILD; `other` runs another shard."""
    clock = FakeClock()
    owner = await start_process(postgres_dsn, clock, owns=lambda guild: True)
    other = await start_process(postgres_dsn, clock, owns=lambda guild: False)
    yield owner, other, clock
    for process in (owner, other):
        if process.db.is_open:
            await stop_process(process)


async def eventually(check: Callable[[], bool], what: str, within: float = 5.0) -> None:
    """Signals arrive a moment after the commit: wait for one (and fail if it never does)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while not check():
        if loop.time() > give_up:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


async def eventually_stored(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """`eventually` for what the database holds: poll the state itself, never a counter of
    attempts (a scheduler counts a deadline before the deadline is applied)."""
    give_up = asyncio.get_running_loop().time() + 10.0
    while not await check():
        if asyncio.get_running_loop().time() > give_up:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


async def open_lobby(process: Process) -> int:
    opened = await process.tables.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="coinflip",
        host_id=ALICE,
        rules=coinflip.Rules(stake=10),
    )
    return opened.snapshot.id


async def cache_terms(process: Process) -> None:
    # The first use makes the server's row (not cached: a rollback could undo it).
    await process.economy.balance(GUILD, ALICE)
    await process.economy.balance(GUILD, ALICE)
    assert process.economy.cached_terms(GUILD) is not None


async def expiries(db: Database, table_id: int) -> int:
    async with db.reading() as tx:
        log = await tq.action_log(tx, table_id)
    return sum(1 for row in log if json.loads(row.action_json).get("kind") == LogKind.EXPIRE)


async def test_a_deadline_one_process_sets_is_armed_by_the_other_a_takeover_later(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    owner, other, clock = pair
    table = await open_lobby(other)  # opened on the process not running the server
    due = clock.now + LOBBY_SECONDS
    # The writer armed it itself a takeover late; the owner heard of it and arms it on time.
    assert other.tables.scheduler.due_at(table) == due + TAKEOVER
    await eventually(lambda: owner.tables.scheduler.due_at(table) == due, "owner armed it")

    # A second player joins and the host starts: the lobby deadline goes, a turn one comes.
    await owner.tables.join(table, Actor(BOB))
    started = await owner.tables.start(table, Actor(ALICE))
    assert started.snapshot.deadline is not None
    turn_due = started.snapshot.deadline.due_at
    await eventually(
        lambda: other.tables.scheduler.due_at(table) == turn_due + TAKEOVER,
        "the other moved its timer to the new deadline",
    )

    # The scripted coin lands tails: the first call wins and ends the table.
    await owner.tables.act(table, Actor(ALICE), coinflip.Call(side="tails"), expected_ply=0)
    snapshot = await owner.tables.snapshot(table)
    assert not snapshot.row.live
    await eventually(
        lambda: other.tables.scheduler.due_at(table) is None,
        "a cleared deadline is cancelled in the other process",
    )


async def test_a_dead_processs_deadline_is_fired_by_another_after_the_takeover_delay(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    owner, other, clock = pair
    table = await open_lobby(owner)
    due = clock.now + LOBBY_SECONDS
    await eventually(lambda: other.tables.scheduler.due_at(table) is not None, "heard of it")
    await stop_process(owner)  # the process running the server dies

    clock.advance(LOBBY_SECONDS + 1)
    other.tables.scheduler.start()  # the fake clock jumped: look at the timers again
    # Not before the takeover delay: the other process armed it a takeover late, and that
    # time has not come (so its timer cannot have fired: nothing to wait for).
    assert other.tables.scheduler.due_at(table) == due + TAKEOVER > clock.now
    assert await expiries(other.db, table) == 0

    clock.advance(TAKEOVER)
    other.tables.scheduler.start()

    async def expired() -> bool:
        return not (await other.tables.snapshot(table)).row.live

    await eventually_stored(expired, "the other expired the lobby")
    snapshot = await other.tables.snapshot(table)
    assert snapshot.row.status == "cancelled"
    assert await expiries(other.db, table) == 1
    await check_platform_invariants(other.db, other.tables.registry)


async def test_two_processes_firing_one_deadline_at_once_apply_it_once(postgres_dsn: str) -> None:
    clock = FakeClock()
    first = await start_process(postgres_dsn, clock, owns=lambda guild: True)
    second = await start_process(postgres_dsn, clock, owns=lambda guild: True)
    try:
        tables = [await open_lobby(first)]
        for channel in range(1, 6):
            opened = await second.tables.open(
                guild_id=GUILD,
                channel_id=CHANNEL + channel,
                game="coinflip",
                host_id=ALICE + channel,
                rules=coinflip.Rules(stake=10),
            )
            tables.append(opened.snapshot.id)
        for process in (first, second):
            await eventually(
                lambda p=process: all(p.tables.scheduler.due_at(t) for t in tables), "all armed"
            )
        clock.advance(LOBBY_SECONDS + 1)
        first.tables.scheduler.start()
        second.tables.scheduler.start()

        async def all_expired() -> bool:
            return all([await expiries(first.db, table) for table in tables])

        # Which process applies a deadline, and whether the other still tries it (or hears
        # of it first and drops its timer, or finds the table held and looks again later)
        # is a race: only the result is certain. So wait until every table has expired
        # and neither process holds a timer for any of them, then count. A process that
        # found a table held looks again BUSY_RETRY_SECONDS later (on this fake clock:
        # once it is moved on), and that second look is a no-op.
        await eventually_stored(all_expired, "every deadline fired")
        clock.advance(BUSY_RETRY_SECONDS + 1)
        first.tables.scheduler.start()
        second.tables.scheduler.start()
        await eventually(
            lambda: not any(p.tables.scheduler.due_at(t) for p in (first, second) for t in tables),
            "no timer left for a table that expired",
        )
        assert first.tables.scheduler.fired + second.tables.scheduler.fired >= len(tables)
        for table in tables:
            assert await expiries(first.db, table) == 1, f"table {table} expired exactly once"
        async with first.db.reading() as tx:
            assert (await mq.totals(tx, GUILD)).escrow == 0, "every stake went back once"
        await check_platform_invariants(first.db, first.tables.registry)
    finally:
        await stop_process(first)
        await stop_process(second)


async def test_a_notice_left_by_one_process_is_delivered_by_the_other(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    owner, other, _clock = pair
    table = await open_lobby(owner)
    assert await owner.tables.take_notice(BOB, table) is None
    await other.tables.put_notice(BOB, table, "your hand: ...")
    await eventually(lambda: (BOB, table) in owner.tables._pending_notices, "heard of it")
    assert await owner.tables.take_notice(BOB, table) == "your hand: ..."
    assert await other.tables.take_notice(BOB, table) is None, "delivered once"


async def test_a_settings_change_in_one_process_is_not_served_stale_by_the_other(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    owner, other, _clock = pair
    await cache_terms(owner)
    cached = owner.economy.cached_terms(GUILD)
    assert cached is not None and cached.currency_name != "pebbles"
    await other.economy.configure(GUILD, currency_name="pebbles")
    await eventually(lambda: owner.economy.cached_terms(GUILD) is None, "forgot the old terms")
    assert (await owner.economy.balance(GUILD, ALICE)).currency == "pebbles"


async def test_a_bet_moving_the_house_balance_sends_no_settings_signal(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    owner, other, _clock = pair
    await cache_terms(owner)
    received = owner.tables.signals.received
    table = await open_lobby(other)  # moves coins into escrow, not the settings
    await eventually(lambda: owner.tables.scheduler.due_at(table) is not None, "deadline heard")
    assert owner.economy.cached_terms(GUILD) is not None, "the cache survived"
    assert owner.tables.signals.received == received + 1, "only the deadline's signal"


async def test_a_lost_listening_connection_is_made_again_and_memory_resynced(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    owner, other, _clock = pair
    table = await open_lobby(other)
    await eventually(lambda: owner.tables.scheduler.due_at(table) is not None, "armed")
    # Pretend the signal was lost, then cut the listening connection from the server side.
    owner.tables.scheduler.cancel(table)
    listening = owner.db._listening
    assert listening is not None
    async with other.db.pool.acquire() as connection:
        await connection.execute("SELECT pg_terminate_backend($1)", listening.get_server_pid())
    await eventually(lambda: owner.db.listener_connects == 2, "listening again")
    await eventually(lambda: owner.tables.scheduler.due_at(table) is not None, "re-armed")
    # And signals flow on the new connection.
    await other.tables.put_notice(BOB, table, "hello")
    await eventually(lambda: (BOB, table) in owner.tables._pending_notices, "heard again")


async def test_a_dead_listening_connection_found_by_the_ping_is_replaced(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    owner, _other, _clock = pair
    listening = owner.db._listening
    assert listening is not None
    listening.terminate()  # silently: no termination callback from a clean close
    await owner.db._ping_listener()
    await eventually(lambda: owner.db.listener_connects == 2, "listening again")
    assert owner.db._listening is not listening


def test_a_malformed_or_failing_signal_is_logged_and_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    router = SignalRouter()
    heard: list[str] = []

    def broken(payload: str) -> None:
        int(payload)

    router.on("deadline", broken)
    router.on("deadline", heard.append)
    with caplog.at_level(logging.ERROR, logger="bot.signals"):
        router.dispatch("deadline not-a-number")
    assert heard == ["not-a-number"], "the other handlers still ran"
    assert "signal deadline could not be applied" in caplog.text
    router.dispatch("nobody-listens 1 2")
    router.dispatch("")
    assert router.received == 1


async def test_sqlite_is_never_shared_and_sends_no_signal(tmp_path) -> None:
    db = SqliteDatabase(tmp_path / "one.db")
    await db.open()
    try:
        router = SignalRouter()
        heard: list[str] = []
        router.on("notice", heard.append)
        await db.listen(router)
        await db.publish("notice", "1 2")
        assert not db.shared and heard == []
    finally:
        await db.close()


async def test_closed_dms_found_by_one_process_are_marked_in_the_other(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    owner, other, _clock = pair
    table = await open_lobby(owner)
    here, there = PrivatePanels(owner.db), PrivatePanels(other.db)
    owner.tables.signals.on(PANEL, here.on_signal)
    await there.mark_closed(table, BOB)
    await eventually(lambda: here.closed(table) == {BOB}, "marked here too")
    await there.remember(table, BOB, channel_id=5, message_id=6)  # a DM went through after all
    await eventually(lambda: here.closed(table) == frozenset(), "open again here too")
    await there.mark_closed(table, ALICE)
    await eventually(lambda: here.closed(table) == {ALICE}, "marked")
    await there.forget(table)
    await eventually(lambda: table not in here._closed, "a dropped table leaves nothing")


async def test_a_deadline_whose_table_another_process_holds_is_looked_at_again(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    owner, other, clock = pair
    table = await open_lobby(owner)
    # This test plays the scheduler's part itself: neither process's own timer may fire
    # the deadline first (in a loaded full run one did, before the other took its lock).
    await owner.tables.scheduler.stop()
    await other.tables.scheduler.stop()
    clock.advance(LOBBY_SECONDS + 1)
    async with other.db.transaction() as tx:
        await tq.lock_table(tx, table)  # the other process is acting on the table
        await owner.tables._on_deadline(table, 0)  # what the scheduler calls when due
        assert owner.tables.scheduler.due_at(table) == clock.now + BUSY_RETRY_SECONDS
        assert await expiries(owner.db, table) == 0, "it did not wait for the other"
    fired = await owner.tables.fire_deadline(table, 0)
    assert fired is not None and await expiries(owner.db, table) == 1
    assert await owner.tables.fire_deadline(table, 0) is None, "a second try is a no-op"


async def test_closing_cuts_a_connection_a_task_never_gave_back(
    postgres_dsn: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.storage import postgres

    monkeypatch.setattr(postgres, "CLOSE_GRACE_SECONDS", 0.2)
    db = PostgresDatabase(postgres_dsn)
    await db.open()
    pool = db.pool
    await pool.acquire()  # a task that died holding it, as far as the pool knows
    with caplog.at_level(logging.WARNING, logger="bot.storage.postgres"):
        await asyncio.wait_for(db.close(), timeout=5)
    assert "connections still held" in caplog.text
    assert pool.is_closing() and not db.is_open


async def test_a_servers_language_chosen_by_one_process_is_used_by_the_other(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    """/config language on one process: the other draws that server's tables in it, and
    forgets the server's cached currency (its default name follows the language)."""
    owner, other, _clock = pair
    tasks: set[asyncio.Task[None]] = set()

    def spawn(work: Any, name: str) -> None:
        task = asyncio.create_task(work, name=name)
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    changed: list[int] = []
    here = Languages(owner.db, spawn=spawn, changed=changed.append)
    owner.tables.signals.on(LANGUAGE, here.on_signal)
    await here.load()
    there = Languages(other.db)
    await there.choose(GUILD, "ja")
    await eventually(lambda: here.server(GUILD) == "ja", "Japanese here too")
    assert changed == [GUILD]
    await there.choose(GUILD, None)
    await eventually(lambda: here.chosen(GUILD) is None, "the Discord language again here")


async def test_a_turn_notice_one_process_writes_is_armed_by_the_other(
    pair: tuple[Process, Process, FakeClock],
) -> None:
    """The process running the server posts a notice written elsewhere on time; the
    writer arms it a takeover later, in case the owner is gone."""
    owner, other, clock = pair
    due = clock.now + 25
    await other.tables.turn_notices.update(77, GUILD, [BOB], [], 25)
    [notice] = await other.tables.turn_notices.rearm()
    assert other.tables.turn_notices.scheduler.due_at(notice.id) == due + TAKEOVER
    await eventually(
        lambda: owner.tables.turn_notices.scheduler.due_at(notice.id) == due, "owner armed it"
    )
    # Bob is seen at the table: his wait starts again, in both processes.
    clock.advance(10)
    await owner.tables.turn_notices.seen(77, BOB, 25)
    await eventually(
        lambda: other.tables.turn_notices.scheduler.due_at(notice.id) == clock.now + 25 + TAKEOVER,
        "the other moved its timer",
    )
