"""Shared by the platform tests: a fake clock, wired services and the whole-database checks."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator, Coroutine, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from bot.economy import Economy
from bot.games.common import HOUSE
from bot.games.registry import GameRegistry, GameSpec
from bot.players import AnyComputer
from bot.service import DiceFactory, TableService, fair_dice
from bot.storage import Database, SqliteDatabase, Transaction, database_for_url
from bot.storage import money as mq
from bot.storage import table_queries as tq
from tests.support import coinflip

COINFLIP = "coinflip"
START_TIME = 1_700_000_000.0
T = TypeVar("T")


class FakeClock:
    """A clock that moves only when a test moves it."""

    def __init__(self, now: float = START_TIME) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class DirectReader:
    """A plain `sqlite3` connection with the read half of `Transaction`'s interface, so the
    storage query functions run on it. Checks through it see only what was committed to the
    file, and cost no thread hop per query (they run after every stateful step)."""

    def __init__(self, path: Path | str) -> None:
        self._connection = sqlite3.connect(path, isolation_level=None)
        self._connection.row_factory = sqlite3.Row

    async def fetchone(self, sql: str, parameters: Any = ()) -> Any:
        return self._connection.execute(sql, parameters).fetchone()

    async def fetchall(self, sql: str, parameters: Any = ()) -> list[Any]:
        return self._connection.execute(sql, parameters).fetchall()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Any]:
        self._connection.execute("BEGIN")  # one snapshot for the whole check
        try:
            yield self
        finally:
            self._connection.execute("COMMIT")

    def close(self) -> None:
        self._connection.close()


def run_now(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never waits (a `DirectReader` query) without an event loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("the coroutine waited for something; run it on an event loop")


def coinflip_registry() -> GameRegistry:
    registry = GameRegistry()
    registry.add(GameSpec(coinflip.ENGINE, "Coin Flip"))
    return registry


@dataclass
class Services:
    db: Database
    economy: Economy
    tables: TableService
    registry: GameRegistry
    clock: FakeClock


async def open_services(
    path: Path | str,
    *,
    clock: FakeClock | None = None,
    dice_factory: DiceFactory = fair_dice,
    house_float: int = 1_000,
    registry: GameRegistry | None = None,
    computers: Mapping[str, AnyComputer] | None = None,
) -> Services:
    clock = clock or FakeClock()
    registry = registry or coinflip_registry()
    # A URL picks the backend (the suites run on both); a plain path is a SQLite file.
    text = str(path)
    is_url = text.startswith(("sqlite:", "postgresql:", "postgres:"))
    db = database_for_url(text) if is_url else SqliteDatabase(path)
    await db.open()
    economy = Economy(db, house_float=house_float, clock=clock)
    service = TableService(
        db,
        economy,
        registry,
        clock=clock,
        dice_factory=dice_factory,
        lobby_timeout_seconds=900,
        computers=computers,
    )
    return Services(db, economy, service, registry, clock)


async def fingerprint(db: Database | DirectReader) -> dict[str, Any]:
    """Every row that money, tables and logs live in: equal before/after means 'nothing moved'."""
    queries = {
        "guilds": "SELECT * FROM guild_settings ORDER BY guild_id",
        "wallets": "SELECT * FROM wallets ORDER BY guild_id, user_id",
        "tables": "SELECT * FROM game_tables ORDER BY id",
        "seats": "SELECT * FROM table_seats ORDER BY table_id, user_id",
        "ledger": "SELECT * FROM ledger ORDER BY id",
        "log": "SELECT * FROM action_log ORDER BY table_id, seq",
        "deadlines": "SELECT * FROM deadlines ORDER BY table_id",
        "stats": "SELECT * FROM player_stats ORDER BY guild_id, user_id, game, stat",
        "free": "SELECT * FROM free_coins ORDER BY guild_id, user_id, at, amount",
    }
    found: dict[str, Any] = {}
    async with db.reading() as tx:
        for name, sql in queries.items():
            found[name] = [tuple(row) for row in await tx.fetchall(sql)]
    return found


async def wallet_balances(db: Database | DirectReader, guild_id: int) -> dict[int, int]:
    async with db.reading() as tx:
        rows = await tx.fetchall(
            "SELECT user_id, balance FROM wallets WHERE guild_id = ?", (guild_id,)
        )
    return {int(row[0]): int(row[1]) for row in rows}


async def _check_guild_money(tx: Transaction, guild_id: int) -> None:
    totals = await mq.totals(tx, guild_id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted, (guild_id, totals)
    wallets = await tx.fetchall(
        "SELECT user_id, balance FROM wallets WHERE guild_id = ?", (guild_id,)
    )
    negative = [tuple(row) for row in wallets if row[1] < 0]
    assert not negative, f"negative wallets in guild {guild_id}: {negative}"
    # Every stored balance is exactly what the ledger says flowed into that account.
    sums = await mq.ledger_sums(tx, guild_id)
    stored = await mq.stored_balances(tx, guild_id)
    for account in set(sums) | set(stored):
        assert sums.get(account, 0) == stored.get(account, 0), (
            f"guild {guild_id}: ledger says {account} holds {sums.get(account, 0)}, "
            f"stored {stored.get(account, 0)}"
        )


def _check_table(
    registry: GameRegistry, row: tq.TableRow, seats: dict[int, int], seqs: list[int]
) -> None:
    where = f"table {row.id} ({row.status}, version {row.version})"
    # No half-applied action: one log row per saved version, numbered 1..version.
    assert seqs == list(range(1, row.version + 1)), (where, seqs)
    spec = registry.get(row.game)
    rules = spec.engine.rules_model.model_validate_json(row.rules_json)
    if row.state_json is None:
        if row.status == "lobby":
            hold = spec.engine.hold(rules)
            assert row.escrow == hold * len(seats), (where, row.escrow, seats)
            assert all(net == -hold for net in seats.values()), (where, seats)
        else:
            assert row.escrow == 0, where
            assert all(net == 0 for net in seats.values()), (where, seats)
        assert row.house_net == 0, where
        return
    state: Any = spec.engine.state_model.model_validate_json(row.state_json)
    stakes: dict[int, int] = {} if row.status == "cancelled" else dict(state.stakes)
    payouts: dict[int, int] = dict(state.payouts)
    assert row.escrow == sum(stakes.values()), (where, row.escrow, stakes)
    assert row.house_net == payouts.get(HOUSE, 0), (where, row.house_net, payouts)
    players = set(seats) | {p for p in (*stakes, *payouts) if p != HOUSE}
    for player in players:
        expected = payouts.get(player, 0) - stakes.get(player, 0)
        assert seats.get(player) == expected, (where, player, seats, stakes, payouts)
    if row.status == "finished":
        assert state.finished, where
    if row.status == "running":
        assert not state.finished, where


async def check_platform_invariants(db: Database | DirectReader, registry: GameRegistry) -> None:
    """The money invariant, the ledger cross-check and every table's books, for every guild.

    Everything is read in a few bulk queries: this runs after every step of the stateful test.
    """
    async with db.reading() as tx:
        guilds = await mq.guild_ids(tx)
        tables = [
            tq.TableRow(*row)
            for row in await tx.fetchall(f"SELECT {tq._TABLE_COLUMNS} FROM game_tables ORDER BY id")
        ]
        seat_rows = await tx.fetchall("SELECT table_id, user_id, wallet_net FROM table_seats")
        log_rows = await tx.fetchall("SELECT table_id, seq FROM action_log ORDER BY table_id, seq")
        orphans = await tx.fetchall(
            "SELECT d.table_id FROM deadlines d JOIN game_tables t ON t.id = d.table_id"
            " WHERE t.status NOT IN ('lobby', 'running')"
        )
        for guild_id in guilds:
            await _check_guild_money(tx, guild_id)
    assert not orphans, f"ended tables still have deadlines: {[r[0] for r in orphans]}"
    seats: dict[int, dict[int, int]] = {}
    for table_id, user_id, wallet_net in seat_rows:
        seats.setdefault(int(table_id), {})[int(user_id)] = int(wallet_net)
    seqs: dict[int, list[int]] = {}
    for table_id, seq in log_rows:
        seqs.setdefault(int(table_id), []).append(int(seq))
    for row in tables:
        _check_table(registry, row, seats.get(row.id, {}), seqs.get(row.id, []))


def decode_state(row: tq.TableRow) -> dict[str, Any]:
    assert row.state_json is not None
    data: dict[str, Any] = json.loads(row.state_json)
    return data
