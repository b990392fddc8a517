"""The two storage backends behind one interface: the URL that picks one, the placeholder
rewriting and the numbered migrations of the PostgreSQL backend, 64-bit Discord ids on
both, and a table's actions serialising through PostgreSQL when two processes (here: two
services, each with its own connection pool) act on the same table at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import check_database
from bot.config import Settings
from bot.economy import Economy
from bot.errors import NotAllowed, UserFacingError
from bot.games.dice import ScriptedDice
from bot.service import Actor, TableService
from bot.service.terms import TableAlreadyOpen
from bot.storage import Database, SqliteDatabase, database_for_url, open_database, sqlite_url
from bot.storage import money as mq
from bot.storage import table_queries as tq
from bot.storage.base import Transaction, migrations
from bot.storage.postgres import PostgresDatabase, translate
from tests.platform._helpers import FakeClock, coinflip_registry
from tests.support import coinflip

# A real snowflake is ~2^60: beyond a 32-bit INTEGER, within BIGINT.
SNOWFLAKE = 1_234_567_890_123_456_789
GUILD, CHANNEL, ALICE, BOB = SNOWFLAKE, SNOWFLAKE + 1, SNOWFLAKE + 2, SNOWFLAKE + 3


def shared_migration_count() -> int:
    return len(migrations("sqlite"))


# -- choosing the backend -----------------------------------------------------------------


def test_the_url_picks_the_backend(tmp_path: Path) -> None:
    relative = database_for_url("sqlite:///data/t.db")
    absolute = database_for_url(f"sqlite:///{tmp_path}/t.db", synchronous="NORMAL")
    assert isinstance(relative, SqliteDatabase) and relative.path == Path("data/t.db")
    assert isinstance(absolute, SqliteDatabase) and absolute.path == tmp_path / "t.db"
    assert absolute.synchronous == "NORMAL"
    for url in ("postgresql://u:p@db/tanzaku", "postgres://db/tanzaku"):
        made = database_for_url(url)
        assert isinstance(made, PostgresDatabase) and made.dsn == url
    for bad in ("mysql://db/x", "sqlite://t.db", "sqlite:///", "t.db"):
        with pytest.raises(ValueError):
            database_for_url(bad)


def test_the_url_defaults_to_the_database_path_and_hides_a_password(tmp_path: Path) -> None:
    default = Settings(_env_file=None, token="x")
    assert default.database_url == "sqlite:///data/tanzaku.db"
    assert default.database_label == "data/tanzaku.db"
    by_path = Settings(_env_file=None, token="x", database_path=tmp_path / "x.db")
    assert by_path.database_url == sqlite_url(tmp_path / "x.db")
    assert database_for_url(by_path.database_url) is not None
    remote = Settings(_env_file=None, token="x", database_url="postgresql://bot:s3cret@db:5432/t")
    assert remote.database_label == "postgresql://bot:***@db:5432/t"
    assert "s3cret" not in remote.database_label
    with pytest.raises(ValueError, match="postgresql"):
        Settings(_env_file=None, token="x", database_url="mysql://db/t")


# -- the dialect --------------------------------------------------------------------------


def test_placeholders_become_numbered_outside_quotes_and_comments() -> None:
    assert translate("SELECT a FROM t WHERE b = ? AND c IN (?, ?)") == (
        "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)",
        None,
    )
    text = "SELECT '?', 'it''s ?', \"odd?\" FROM t WHERE x = ? -- why? :no\n AND y = ?"
    assert translate(text) == (
        "SELECT '?', 'it''s ?', \"odd?\" FROM t WHERE x = $1 -- why? :no\n AND y = $2",
        None,
    )
    # A name used twice is one parameter; a cast (::) is left alone.
    assert translate("SELECT :g, :h::text WHERE a = :g AND b = ':g'") == (
        "SELECT $1, $2::text WHERE a = $1 AND b = ':g'",
        ("g", "h"),
    )
    with pytest.raises(ValueError, match="mixes"):
        translate("SELECT ? WHERE a = :g")


def test_one_numbered_list_with_dialect_files_beside_the_shared_ones() -> None:
    sqlite, postgres = migrations("sqlite"), migrations("postgresql")
    assert [n for n, _, _ in sqlite] == [n for n, _, _ in postgres]
    assert [n for n, _, _ in sqlite] == list(range(1, len(sqlite) + 1))
    assert all(".postgresql." not in name for _, name, _ in sqlite)
    assert postgres[0][1] == "0001_initial.postgresql.sql"
    assert "BIGINT" in postgres[0][2] and "BIGINT" not in sqlite[0][2]


# -- the PostgreSQL backend ---------------------------------------------------------------


async def test_postgres_migrates_once_even_when_two_processes_open_together(
    postgres_dsn: str,
) -> None:
    first, second = PostgresDatabase(postgres_dsn), PostgresDatabase(postgres_dsn)
    try:
        # Applied twice, a migration's CREATE TABLE would fail the second open.
        await asyncio.gather(first.open(), second.open())
        assert await first.schema_version() == shared_migration_count()
        assert await second.migrate() == 0
        assert await first.integrity_check() == "ok"
        await first.probe_write()
        async with first.reading() as tx:
            probe = await tx.fetchone("SELECT to_regclass('tanzaku_write_probe')")
        assert probe is not None and probe[0] is None, "the probe left its table behind"
        assert await first.checkpoint() == 0
    finally:
        await first.close()
        await second.close()
    assert not first.is_open


async def test_a_connection_goes_back_to_the_pool_without_a_reset_round_trip(
    postgres_dsn: str,
) -> None:
    """Releasing sends nothing (asyncpg's default reset is one more round trip per action)
    unless a transaction was left open, which is still rolled back before anyone reuses
    the connection."""
    db = PostgresDatabase(postgres_dsn, min_size=1, max_size=1)
    await db.open()
    try:
        sent: list[str] = []
        async with db.pool.acquire() as connection:
            connection.add_query_logger(lambda record: sent.append(record.query))
            await connection.execute("SELECT 1")
        assert sent == ["SELECT 1"], "nothing after the last statement: no reset query"
        async with db.pool.acquire() as connection:
            # A task cancelled between BEGIN and COMMIT leaves this behind.
            await connection.execute("BEGIN")
            await connection.execute("CREATE TEMP TABLE left_open (x int)")
        async with db.pool.acquire() as connection:  # the same connection: max_size=1
            assert not connection.is_in_transaction()
            assert await connection.fetchval("SELECT to_regclass('left_open')") is None
            assert sent[-1] == "ROLLBACK"
    finally:
        await db.close()


async def test_the_health_check_accepts_a_postgres_url(postgres_dsn: str) -> None:
    settings = Settings(_env_file=None, token="x", database_url=postgres_dsn)
    assert await check_database(settings) == shared_migration_count()


async def test_discord_ids_are_64_bit_on_both_backends(database_url: str) -> None:
    db = await open_database(database_url)
    try:
        async with db.transaction() as tx:
            await mq.insert_guild_settings(tx, GUILD)
            await mq.insert_wallet(tx, GUILD, ALICE)
            table_id = await tq.insert_table(
                tx,
                guild_id=GUILD,
                channel_id=CHANNEL,
                game="coinflip",
                host_id=ALICE,
                rules_json="{}",
                seed_hex="00",
                commitment="c",
                now=1.5,
                invitee_id=BOB,
            )
            await tq.set_message(tx, table_id, SNOWFLAKE + 9)
            await tq.add_seat(tx, table_id, ALICE)
            await tq.bump_stat(tx, GUILD, ALICE, "coinflip", "won", 2)
            await tq.bump_stat(tx, GUILD, ALICE, "coinflip", "won", 3)
        async with db.reading() as tx:
            row = await tq.table(tx, table_id)
            wallet = await mq.wallet(tx, GUILD, ALICE)
            seats = await tq.seats(tx, table_id)
            stats = await tq.stats(tx, GUILD, ALICE)
            by_name = await tx.fetchone("SELECT host_id FROM game_tables WHERE id = ?", (table_id,))
        assert row is not None
        assert (row.guild_id, row.channel_id, row.host_id) == (GUILD, CHANNEL, ALICE)
        assert (row.invitee_id, row.message_id, row.created_at) == (BOB, SNOWFLAKE + 9, 1.5)
        assert wallet is not None and wallet.user_id == ALICE
        assert [seat.user_id for seat in seats] == [ALICE]
        assert stats == {("coinflip", "won"): 5}
        # Rows answer by column name as well as by index, on both backends.
        assert by_name is not None and by_name["host_id"] == by_name[0] == ALICE
    finally:
        await db.close()


# -- a table's actions serialise across processes -----------------------------------------


def make_service(db: Database, clock: FakeClock) -> TableService:
    dice = ScriptedDice(rolls=[2] * 200)
    return TableService(
        db,
        Economy(db, house_float=1000, clock=clock),
        coinflip_registry(),
        clock=clock,
        dice_factory=lambda row: dice,
    )


@pytest.fixture
async def two_processes(postgres_dsn: str) -> AsyncIterator[tuple[TableService, TableService]]:
    """Two table services sharing one PostgreSQL database, each with its own pool and its
    own in-process locks, as two bot processes would have."""
    clock = FakeClock()
    first_db, second_db = PostgresDatabase(postgres_dsn), PostgresDatabase(postgres_dsn)
    await first_db.open()
    await second_db.open()
    services = make_service(first_db, clock), make_service(second_db, clock)
    yield services
    for service in services:
        await service.scheduler.stop()
    await first_db.close()
    await second_db.close()


async def money_balances(db: Database) -> None:
    async with db.reading() as tx:
        totals = await mq.totals(tx, GUILD)
    assert totals.wallets + totals.escrow + totals.house == totals.minted, totals


async def test_raises_from_two_processes_on_one_table_each_apply_once(
    two_processes: tuple[TableService, TableService],
) -> None:
    first, second = two_processes
    opened = await first.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="coinflip",
        host_id=ALICE,
        rules=coinflip.Rules(stake=10),
    )
    table = opened.snapshot.id
    await second.join(table, Actor(BOB))
    await first.start(table, Actor(ALICE))
    before = await first.snapshot(table)
    raises = [
        service.act(table, Actor(BOB), coinflip.Raise(amount=5), expected_ply=0)
        for service in (first, second) * 4
    ]
    results = await asyncio.gather(*raises, return_exceptions=True)
    # Without the row lock, one process's save would find the version moved under it.
    assert all(not isinstance(r, BaseException) for r in results), results
    after = await second.snapshot(table)
    assert after.row.version == before.row.version + 8, "no raise was lost"
    assert after.state.stakes[BOB] == 10 + 8 * 5
    assert (await first._economy.balance(GUILD, BOB)).balance == 1000 - 50, "no double charge"
    assert after.row.escrow == sum(after.state.stakes.values())
    await money_balances(first._db)


async def test_a_move_decided_from_the_state_is_decided_on_the_state_it_is_played_on(
    two_processes: tuple[TableService, TableService],
) -> None:
    # Fortunes' best keep is worked out inside the action's transaction from a function
    # of the state (act_in_turn): here each raise takes Bob's stake 9 above it again, and
    # eight race from two processes. Decided on a state read before the lock, two of them
    # would raise from the same stake and the pot would miss the doubling.
    first, second = two_processes
    opened = await first.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="coinflip",
        host_id=ALICE,
        rules=coinflip.Rules(stake=10),
    )
    table = opened.snapshot.id
    await second.join(table, Actor(BOB))
    await first.start(table, Actor(ALICE))

    def from_the_stake(state: Any) -> list[Any]:
        return [coinflip.Raise(amount=state.stakes[BOB] - 9)]

    raises = [
        service.act_in_turn(table, Actor(BOB), from_the_stake) for service in (first, second) * 4
    ]
    results = await asyncio.gather(*raises, return_exceptions=True)
    assert all(not isinstance(r, BaseException) for r in results), results
    after = await second.snapshot(table)
    # 10 → 11 → 13 → 17 → 25 → 41 → 73 → 137 → 265: each from the stake it was played on.
    assert after.state.stakes[BOB] == 265
    await money_balances(first._db)


async def test_joins_from_two_processes_never_overfill_or_double_charge(
    two_processes: tuple[TableService, TableService],
) -> None:
    first, second = two_processes
    opened = await first.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="coinflip",
        host_id=ALICE,
        rules=coinflip.Rules(stake=10, max_players=3),
    )
    table = opened.snapshot.id
    joiners = [BOB, BOB, BOB + 1, BOB + 2, BOB + 3, BOB + 4]
    results = await asyncio.gather(
        *(
            service.join(table, Actor(user))
            for service, user in zip((first, second) * 3, joiners, strict=True)
        ),
        return_exceptions=True,
    )
    unexpected = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(r, UserFacingError) for r in unexpected), unexpected
    seated = (await second.snapshot(table)).seats
    assert len(seated) == 3 and len(set(seated)) == 3
    assert len(results) - len(unexpected) == 2
    if BOB in seated:
        assert (await first._economy.balance(GUILD, BOB)).balance == 990
    async with first._db.reading() as tx:
        totals = await mq.totals(tx, GUILD)
    assert totals.escrow == 30
    await money_balances(second._db)


async def blocking_someone(tx: Transaction) -> bool:
    """Whether another session waits for a lock this transaction's session holds."""
    row = await tx.fetchone(
        "SELECT COUNT(*) FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))"
    )
    return row is not None and int(row[0]) > 0


async def test_the_table_lock_holds_a_second_connection_until_the_first_commits(
    postgres_dsn: str,
) -> None:
    first, second = PostgresDatabase(postgres_dsn), PostgresDatabase(postgres_dsn)
    await first.open()
    await second.open()
    try:
        async with first.transaction() as tx:
            await mq.insert_guild_settings(tx, GUILD)
            table_id = await tq.insert_table(
                tx,
                guild_id=GUILD,
                channel_id=CHANNEL,
                game="coinflip",
                host_id=ALICE,
                rules_json="{}",
                seed_hex="00",
                commitment="c",
                now=1.0,
            )
        holding, order = asyncio.Event(), []

        async def first_action() -> None:
            async with first.transaction() as tx:
                await tq.lock_table(tx, table_id)
                holding.set()
                # Commit only once the second process is queued behind this lock, as
                # PostgreSQL itself reports it (not after some time that may not suffice).
                give_up = asyncio.get_running_loop().time() + 10.0
                while not await blocking_someone(tx):
                    assert asyncio.get_running_loop().time() < give_up, "second never came"
                    await asyncio.sleep(0.01)
                await mq.add_to_escrow(tx, table_id, 7)
                order.append("first commits")

        async def second_action() -> int:
            await holding.wait()
            async with second.transaction() as tx:
                await tq.lock_table(tx, table_id)
                order.append("second locked")
                row = await tq.table(tx, table_id)
                assert row is not None
                return row.escrow

        _, seen = await asyncio.gather(first_action(), second_action())
        assert order == ["first commits", "second locked"]
        assert seen == 7, "the second action read what the first one committed"
    finally:
        await first.close()
        await second.close()


async def test_two_processes_making_the_same_wallets_mint_each_once(postgres_dsn: str) -> None:
    """A server's row and a member's wallet made by two processes at the same moment: the
    second waits for the first, makes nothing and mints nothing (no duplicate-key error,
    no second house float or welcome)."""
    clock = FakeClock()
    first_db, second_db = PostgresDatabase(postgres_dsn), PostgresDatabase(postgres_dsn)
    await first_db.open()
    await second_db.open()
    try:
        first = Economy(first_db, house_float=1000, clock=clock)
        second = Economy(second_db, house_float=1000, clock=clock)
        members = [ALICE + n for n in range(8)]
        balances = await asyncio.gather(
            *(economy.balance(GUILD, user) for user in members for economy in (first, second))
        )
        assert {balance.balance for balance in balances} == {1000}
        async with first_db.reading() as tx:
            kinds = await tx.fetchall(
                "SELECT memo, COUNT(*) FROM ledger WHERE guild_id = ? GROUP BY memo ORDER BY memo",
                (GUILD,),
            )
            totals = await mq.totals(tx, GUILD)
        assert [tuple(row) for row in kinds] == [("house float", 1), ("welcome", len(members))]
        assert totals == mq.MoneyTotals(
            wallets=1000 * len(members), escrow=0, house=1000, minted=1000 * (len(members) + 1)
        )
    finally:
        await first_db.close()
        await second_db.close()


async def test_a_daily_claimed_from_two_processes_at_once_pays_once(postgres_dsn: str) -> None:
    """Each process reads the wallet before the other has stamped its claim; only one
    claim may pass (on SQLite, BEGIN IMMEDIATE already serialises the two)."""
    clock = FakeClock()
    first_db, second_db = PostgresDatabase(postgres_dsn), PostgresDatabase(postgres_dsn)
    await first_db.open()
    await second_db.open()
    try:
        first = Economy(first_db, house_float=1000, clock=clock)
        second = Economy(second_db, house_float=1000, clock=clock)
        await first.balance(GUILD, ALICE)
        for round_ in range(3):
            results = await asyncio.gather(
                *(economy.daily(GUILD, ALICE) for economy in (first, second) * 3),
                return_exceptions=True,
            )
            paid = [r for r in results if not isinstance(r, BaseException)]
            refused = [r for r in results if isinstance(r, UserFacingError)]
            assert len(paid) == 1 and len(refused) == 5, results
            assert "already claimed" in str(refused[0])
            assert (await first.balance(GUILD, ALICE)).balance == 1000 + 100 * (round_ + 1)
            clock.now += 20 * 3600
        await money_balances(first_db)
    finally:
        await first_db.close()
        await second_db.close()


async def test_two_processes_opening_in_one_channel_at_once_get_one_table(
    two_processes: tuple[TableService, TableService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second process's check ran before the first's table was committed, so it saw
    none; the database's unique index decides, and the loser is told the usual way which
    table is open there."""
    first, second = two_processes
    opened = await first.open(
        guild_id=GUILD, channel_id=CHANNEL, game="coinflip", host_id=ALICE,
        rules=coinflip.Rules(stake=10),
    )  # fmt: skip
    real_check = tq.open_table_in_channel
    checks = 0

    async def check_that_ran_too_early(tx: Any, channel_id: int, game: str) -> Any:
        nonlocal checks
        checks += 1
        return None if checks == 1 else await real_check(tx, channel_id, game)

    monkeypatch.setattr(tq, "open_table_in_channel", check_that_ran_too_early)
    with pytest.raises(TableAlreadyOpen, match="Coin Flip") as refused:
        await second.open(
            guild_id=GUILD, channel_id=CHANNEL, game="coinflip", host_id=BOB,
            rules=coinflip.Rules(stake=10),
        )  # fmt: skip
    assert checks == 2, "the lobby's own check, then the read after the refused insert"
    assert refused.value.existing.id == opened.snapshot.id
    assert (await second._economy.balance(GUILD, BOB)).balance == 1000, "nothing was held"
    await money_balances(first._db)


async def test_an_open_that_lost_the_race_to_a_table_gone_since_says_try_again(
    two_processes: tuple[TableService, TableService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unique index refused the insert, but by the time of the read the winning
    table is no longer open (its lobby ended at once): nothing to point to, so try again."""
    first, second = two_processes
    await first.open(
        guild_id=GUILD, channel_id=CHANNEL, game="coinflip", host_id=ALICE,
        rules=coinflip.Rules(stake=10),
    )  # fmt: skip

    async def never_sees_it(tx: Any, channel_id: int, game: str) -> Any:
        return None

    monkeypatch.setattr(tq, "open_table_in_channel", never_sees_it)
    with pytest.raises(NotAllowed, match="at the same moment"):
        await second.open(
            guild_id=GUILD, channel_id=CHANNEL, game="coinflip", host_id=BOB,
            rules=coinflip.Rules(stake=10),
        )  # fmt: skip
    await money_balances(first._db)
