"""Races at the table service, on a SQLite file and on PostgreSQL: every action applies once
or not at all."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.economy import Economy
from bot.errors import UserFacingError
from bot.games.dice import ScriptedDice
from bot.games.registry import GameRegistry, GameSpec
from bot.service import Actor, TableService
from bot.storage import Database, SqliteDatabase, database_for_url, money
from bot.storage.database import SqliteTransaction
from tests.support import coinflip

GUILD, CHANNEL, ALICE, BOB = 1, 10, 100, 200


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def _service(db: Database) -> TableService:
    await db.open()
    clock = FakeClock()
    registry = GameRegistry()
    registry.add(GameSpec(coinflip.ENGINE, "Coin Flip"))
    dice = ScriptedDice(rolls=[2] * 200)  # every flip lands tails
    service = TableService(
        db,
        Economy(db, house_float=1000, clock=clock),
        registry,
        clock=clock,
        dice_factory=lambda row: dice,
    )
    service.clock = clock  # type: ignore[attr-defined]
    return service


@pytest.fixture
async def service(database_url: str) -> AsyncIterator[TableService]:
    """On each backend."""
    made = await _service(database_for_url(database_url))
    yield made
    await made.scheduler.stop()
    await made._db.close()


@pytest.fixture
async def sqlite_service(tmp_path: Path) -> AsyncIterator[TableService]:
    """On a SQLite file, for what only that backend has (its one connection's lock)."""
    made = await _service(SqliteDatabase(tmp_path / "race.db"))
    yield made
    await made.scheduler.stop()
    await made._db.close()


async def running_table(service: TableService) -> int:
    outcome = await service.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="coinflip",
        host_id=ALICE,
        rules=coinflip.Rules(stake=10),
    )
    await service.join(outcome.snapshot.id, Actor(BOB))
    await service.start(outcome.snapshot.id, Actor(ALICE))
    return outcome.snapshot.id


async def invariant(service: TableService, table_id: int) -> None:
    async with service._db.reading() as tx:
        totals = await money.totals(tx, GUILD)
    assert totals.wallets + totals.escrow + totals.house == totals.minted
    snapshot = await service.snapshot(table_id)
    assert snapshot.row.escrow == sum(snapshot.state.stakes.values())


async def settle(*calls):
    return await asyncio.gather(*calls, return_exceptions=True)


async def test_two_clicks_on_the_same_moment_apply_once(service):
    table = await running_table(service)
    results = await settle(
        service.act(table, Actor(ALICE), coinflip.Call(side="heads"), expected_ply=0),
        service.act(table, Actor(ALICE), coinflip.Call(side="heads"), expected_ply=0),
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, UserFacingError)]
    assert len(applied) == 1 and len(refused) == 1, results
    snapshot = await service.snapshot(table)
    assert snapshot.state.ply == 1
    assert snapshot.row.version == applied[0].snapshot.row.version
    await invariant(service, table)


async def test_double_raise_counts_each_click_exactly_once(service):
    table = await running_table(service)
    before = await service.snapshot(table)
    results = await settle(
        *(
            service.act(table, Actor(BOB), coinflip.Raise(amount=5), expected_ply=0)
            for _ in range(5)
        )
    )
    assert all(not isinstance(r, BaseException) for r in results), results
    after = await service.snapshot(table)
    assert after.row.version == before.row.version + 5
    assert after.state.stakes[BOB] == 10 + 25
    assert (await service._economy.balance(GUILD, BOB)).balance == 1000 - 35
    await invariant(service, table)


async def test_click_racing_its_deadline_applies_once(service):
    table = await running_table(service)
    deadline = (await service.snapshot(table)).deadline
    service.clock.now = deadline.due_at + 1  # type: ignore[attr-defined]
    results = await settle(
        service.act(table, Actor(ALICE), coinflip.Call(side="tails"), expected_ply=0),
        service.fire_deadline(table, deadline.ply),
    )
    snapshot = await service.snapshot(table)
    assert snapshot.state.ply == 1, "exactly one of the two moved the table on"
    applied = [r for r in results if r is not None and not isinstance(r, BaseException)]
    assert len(applied) == 1, results
    async with service._db.reading() as tx:
        from bot.storage import table_queries as q

        log = await q.action_log(tx, table)
    assert (
        sum(1 for row in log if '"call"' in row.action_json or "deadline" in row.action_json) == 1
    )
    await invariant(service, table)


async def test_racing_joins_never_overfill_or_double_charge(service):
    outcome = await service.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="coinflip",
        host_id=ALICE,
        rules=coinflip.Rules(stake=10, max_players=3),
    )
    table = outcome.snapshot.id
    joiners = [BOB, BOB, 300, 400, 500]
    results = await settle(*(service.join(table, Actor(user)) for user in joiners))
    seated = (await service.snapshot(table)).seats
    assert len(seated) == 3 and len(set(seated)) == 3
    assert sum(1 for r in results if not isinstance(r, BaseException)) == 2
    assert (await service._economy.balance(GUILD, BOB)).balance == 990
    async with service._db.reading() as tx:
        totals = await money.totals(tx, GUILD)
    assert totals.escrow == 30


async def test_tables_do_not_block_each_other(service):
    first = await running_table(service)
    second_open = await service.open(
        guild_id=GUILD,
        channel_id=CHANNEL + 1,
        game="coinflip",
        host_id=ALICE,
        rules=coinflip.Rules(stake=10),
    )
    second = second_open.snapshot.id
    await service.join(second, Actor(BOB))
    await service.start(second, Actor(ALICE))
    results = await settle(
        service.act(first, Actor(ALICE), coinflip.Call(side="heads"), expected_ply=0),
        service.act(second, Actor(ALICE), coinflip.Call(side="heads"), expected_ply=0),
    )
    assert all(not isinstance(r, BaseException) for r in results), results
    await invariant(service, first)
    await invariant(service, second)


async def test_closing_the_database_finishes_the_action_in_flight(
    sqlite_service, tmp_path, monkeypatch
):
    """What SIGTERM relies on: close() waits for the transaction holding the lock."""
    service = sqlite_service
    table = await running_table(service)
    version = (await service.snapshot(table)).row.version
    # SQLite's statements run without suspending; a backend that awaits its server
    # suspends at every statement, which is when a close() could come in between.
    real_execute = SqliteTransaction.execute

    async def suspending_execute(self: SqliteTransaction, *args: Any) -> None:
        await asyncio.sleep(0)
        await real_execute(self, *args)

    monkeypatch.setattr(SqliteTransaction, "execute", suspending_execute)
    action = asyncio.create_task(service.act(table, Actor(BOB), coinflip.Raise(amount=5)))
    for _ in range(1000):
        if service._db._write_lock.locked():
            break
        await asyncio.sleep(0)
    assert service._db._write_lock.locked(), "the action never held the lock"
    await service._db.close()
    outcome = await action
    assert outcome.snapshot.row.version == version + 1

    reopened = SqliteDatabase(tmp_path / "race.db")
    await reopened.open()
    async with reopened.reading() as tx:
        from bot.storage import table_queries as q

        row = await q.table(tx, table)
    await reopened.close()
    assert row is not None and row.version == version + 1
