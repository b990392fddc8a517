"""The storage layer: migrations and pragmas on a real SQLite file; the one-open-table
index, transactions that roll back and the optimistic lock on a table's version on both
backends (the `any_db` tests run on SQLite and on a real PostgreSQL)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Database, SqliteDatabase, database_for_url
from bot.storage import database as database_module
from bot.storage import money as mq
from bot.storage import table_queries as tq


def migration_files() -> list[str]:
    folder = resources.files("bot.storage.migrations")
    # The shared, numbered list: a `NNNN_name.postgresql.sql` only replaces its number's
    # shared file on that backend.
    return sorted(
        entry.name
        for entry in folder.iterdir()
        if entry.name.endswith(".sql") and entry.name.count(".") == 1
    )


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = SqliteDatabase(tmp_path / "nested" / "folder" / "tanzaku.db")
    await database.open()
    yield database
    await database.close()


@pytest.fixture
async def any_db(database_url: str) -> AsyncIterator[Database]:
    database = database_for_url(database_url)
    await database.open()
    yield database
    await database.close()


async def pragma(db: Database, name: str) -> object:
    async with db.reading() as tx:
        row = await tx.fetchone(f"PRAGMA {name}")
    assert row is not None
    return row[0]


async def add_table(db: Database, *, channel_id: int = 10, game: str = "coinflip") -> int:
    async with db.transaction() as tx:
        await mq.insert_guild_settings(tx, 1)
        return await tq.insert_table(
            tx,
            guild_id=1,
            channel_id=channel_id,
            game=game,
            host_id=7,
            rules_json="{}",
            seed_hex="00",
            commitment="c",
            now=1.0,
        )


# -- migrations ---------------------------------------------------------------------------


async def test_fresh_file_is_migrated_to_the_last_migration(db: Database) -> None:
    files = migration_files()
    assert files, "no migration files found"
    assert db.path.exists()
    assert await db.schema_version() == len(files)
    assert await pragma(db, "user_version") == len(files)
    async with db.reading() as tx:
        names = {
            str(row[0])
            for row in await tx.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    expected = {"guild_settings", "wallets", "game_tables", "table_seats", "ledger"}
    assert expected | {"action_log", "deadlines", "player_stats", "private_notices"} <= names


async def test_wal_and_foreign_keys_are_on(db: Database) -> None:
    assert str(await pragma(db, "journal_mode")).lower() == "wal"
    assert await pragma(db, "foreign_keys") == 1
    # And they are enforced: a table for a guild that does not exist is refused.
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO game_tables (guild_id, channel_id, game, status, host_id,"
                " rules_json, seed_hex, commitment, created_at, updated_at)"
                " VALUES (999, 1, 'g', 'lobby', 1, '{}', '', '', 0, 0)"
            )


async def test_reopening_applies_nothing_and_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    first = SqliteDatabase(path)
    await first.open()
    async with first.transaction() as tx:
        await mq.insert_guild_settings(tx, 42)
    await first.close()

    second = SqliteDatabase(path)
    await second.open()
    try:
        assert await second.migrate() == 0
        assert await second.schema_version() == len(migration_files())
        async with second.reading() as tx:
            assert await mq.guild_ids(tx) == [42]
    finally:
        await second.close()


async def test_a_failing_migration_leaves_the_schema_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = database_module.migrations("sqlite")
    bad = (
        len(real) + 1,
        f"{len(real) + 1:04d}_bad.sql",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n",
    )
    monkeypatch.setattr(database_module, "migrations", lambda dialect: [*real, bad])
    db = SqliteDatabase(tmp_path / "t.db")
    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        await db.open()
    # A failed open closes its connection: a left-over aiosqlite thread would keep the
    # process (`python -m bot --check`, the health check) from exiting.
    assert not db.is_open
    monkeypatch.setattr(database_module, "migrations", lambda dialect: real)
    await db.open()
    try:
        assert await db.schema_version() == len(real)
        async with db.reading() as tx:
            row = await tx.fetchone("SELECT name FROM sqlite_master WHERE name = 'half_done'")
        assert row is None
    finally:
        await db.close()


async def test_two_processes_starting_at_once_migrate_once(tmp_path: Path) -> None:
    """Two connections (as two bot processes would have) open a new file at the same
    moment: the schema version is read inside the migration's write transaction, so the
    second one waits, sees the new version and applies nothing twice."""
    path = tmp_path / "t.db"
    first, second = SqliteDatabase(path), SqliteDatabase(path)
    try:
        await asyncio.gather(first.open(), second.open())
        assert await first.schema_version() == len(migration_files())
        assert await second.schema_version() == len(migration_files())
    finally:
        await first.close()
        await second.close()


async def test_migrate_reads_the_version_inside_its_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deterministic form of the race above: every read of the schema version made while
    migrating happens inside the write transaction that would apply the migration."""
    reads: list[bool] = []
    real_version = SqliteDatabase.schema_version

    async def recording_version(self: SqliteDatabase) -> int:
        reads.append(self.connection.in_transaction)
        return await real_version(self)

    monkeypatch.setattr(SqliteDatabase, "schema_version", recording_version)
    db = SqliteDatabase(tmp_path / "t.db")
    await db.open()
    await db.close()
    assert reads, "the version was never read"
    assert all(reads), f"version read outside the migration's transaction: {reads}"


@pytest.mark.parametrize("mode", ["FULL", "NORMAL"])
async def test_synchronous_mode_is_applied(tmp_path: Path, mode: str) -> None:
    db = SqliteDatabase(tmp_path / "t.db", synchronous=mode)  # type: ignore[arg-type]
    await db.open()
    try:
        # PRAGMA synchronous answers 2 for FULL and 1 for NORMAL.
        assert await pragma(db, "synchronous") == {"FULL": 2, "NORMAL": 1}[mode]
    finally:
        await db.close()


async def test_durable_by_default(db: Database) -> None:
    assert db.synchronous == "FULL"
    assert await pragma(db, "synchronous") == 2
    with pytest.raises(ValueError, match="FULL or NORMAL"):
        SqliteDatabase(db.path, synchronous="OFF")  # type: ignore[arg-type]


async def test_probe_write_leaves_nothing_behind(db: Database) -> None:
    before = await fingerprint_schema(db)
    await db.probe_write()
    assert await fingerprint_schema(db) == before
    # The write lock was released and the connection is out of the transaction.
    async with db.transaction() as tx:
        await mq.insert_guild_settings(tx, 5)


async def fingerprint_schema(db: Database) -> tuple[object, ...]:
    async with db.reading() as tx:
        rows = await tx.fetchall("SELECT type, name, sql FROM sqlite_master ORDER BY name")
    return (await db.schema_version(), tuple(tuple(row) for row in rows))


async def test_the_driver_never_logs_statements_even_at_debug(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """At DEBUG aiosqlite logs every statement with its parameters; a live table's seed is
    one of them. The database keeps the driver's logger at WARNING whatever the root says."""
    secret = "f00dfacecafe5eed" * 4
    logging.getLogger("aiosqlite").setLevel(logging.NOTSET)  # as if nobody had set it
    caplog.set_level(logging.DEBUG)  # the root logger at DEBUG, capturing everything
    db = SqliteDatabase(tmp_path / "t.db")
    await db.open()
    try:
        async with db.transaction() as tx:
            await mq.insert_guild_settings(tx, 1)
            await tq.insert_table(
                tx,
                guild_id=1,
                channel_id=10,
                game="coinflip",
                host_id=7,
                rules_json="{}",
                seed_hex=secret,
                commitment="c",
                now=1.0,
            )
        async with db.reading() as tx:
            row = await tx.fetchone("SELECT seed_hex FROM game_tables")
        assert row is not None and row[0] == secret  # the write did happen
    finally:
        await db.close()
    assert caplog.records, "nothing was captured: the test would prove nothing"
    logged = "\n".join(f"{record.name} {record.getMessage()}" for record in caplog.records)
    assert secret not in logged
    assert not [record for record in caplog.records if record.name.startswith("aiosqlite")]


def test_the_cli_quiets_the_driver_and_http_bodies_at_debug() -> None:
    from bot.__main__ import setup_logging

    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    try:
        logging.getLogger("aiosqlite").setLevel(logging.NOTSET)
        setup_logging("DEBUG")
        assert root.level == logging.DEBUG
        assert not logging.getLogger("aiosqlite").isEnabledFor(logging.INFO)
        # discord.py's HTTP client logs request and response bodies at DEBUG.
        assert not logging.getLogger("discord.http").isEnabledFor(logging.DEBUG)
    finally:
        for handler in root.handlers:
            if handler not in saved[1]:
                root.removeHandler(handler)
        root.setLevel(saved[0])


def test_split_sql_keeps_semicolons_inside_strings_and_refuses_a_truncated_statement() -> None:
    script = (
        "-- a comment\n\nCREATE TABLE a (x TEXT DEFAULT 'semi;colon');\n"
        "INSERT INTO a VALUES ('one;\ntwo');\n"
    )
    statements = database_module._split_sql(script)
    assert len(statements) == 2
    assert statements[0].startswith("CREATE TABLE a")
    assert "'one;\ntwo'" in statements[1]
    with pytest.raises(RuntimeError, match="incomplete"):
        database_module._split_sql("CREATE TABLE b (x INTEGER)\n")


# -- the one-open-table-per-channel index -------------------------------------------------


async def test_second_open_table_in_a_channel_is_refused(any_db: Database) -> None:
    first = await add_table(any_db, channel_id=10)
    with pytest.raises(tq.DuplicateOpenTable):
        await add_table(any_db, channel_id=10)
    # Another game, or another channel, is fine.
    await add_table(any_db, channel_id=10, game="hazard")
    await add_table(any_db, channel_id=11)
    async with any_db.reading() as tx:
        count = await tx.fetchone("SELECT COUNT(*) FROM game_tables WHERE channel_id = 10")
        found = await tq.open_table_in_channel(tx, 10, "coinflip")
    assert count is not None and count[0] == 2
    assert found is not None and found.id == first


async def test_a_running_table_also_blocks_and_an_ended_one_does_not(any_db: Database) -> None:
    table_id = await add_table(any_db, channel_id=10)
    for status, blocks in (("running", True), ("finished", False)):
        async with any_db.transaction() as tx:
            row = await tq.table(tx, table_id)
            assert row is not None
            assert await tq.update_table(
                tx, row, status=status, state_json=None, dice_counter=0, house_net=0, now=2.0
            )
        if blocks:
            with pytest.raises(tq.DuplicateOpenTable):
                await add_table(any_db, channel_id=10)
        else:
            replacement = await add_table(any_db, channel_id=10)
            assert replacement != table_id


# -- transactions -------------------------------------------------------------------------


class Boom(Exception):
    pass


async def test_rollback_leaves_nothing_behind(any_db: Database) -> None:
    table_id = await add_table(any_db)
    with pytest.raises(Boom):
        async with any_db.transaction() as tx:
            await mq.insert_guild_settings(tx, 2)
            await mq.insert_wallet(tx, 2, 5)
            await mq.add_to_wallet(tx, 2, 5, 300)
            await mq.add_to_escrow(tx, table_id, 50)
            await tq.add_seat(tx, table_id, 5)
            raise Boom
    async with any_db.reading() as tx:
        assert await mq.guild_settings(tx, 2) is None
        assert await mq.wallet(tx, 2, 5) is None
        assert await tq.seats(tx, table_id) == []
        row = await tq.table(tx, table_id)
    assert row is not None and row.escrow == 0
    # The write lock was released and the connection is out of the transaction.
    async with any_db.transaction() as tx:
        await mq.insert_guild_settings(tx, 3)
    async with any_db.reading() as tx:
        assert sorted(await mq.guild_ids(tx)) == [1, 3]


async def test_a_failing_statement_rolls_back_the_earlier_ones(any_db: Database) -> None:
    async with any_db.transaction() as tx:
        await mq.insert_guild_settings(tx, 1)
        await mq.insert_wallet(tx, 1, 5)
    with pytest.raises((sqlite3.IntegrityError, asyncpg.CheckViolationError), match=r"(?i)check"):
        async with any_db.transaction() as tx:
            await mq.add_to_house(tx, 1, 500)
            # balance >= 0 is a CHECK in the schema
            await tx.execute("UPDATE wallets SET balance = -1 WHERE guild_id = 1 AND user_id = 5")
    async with any_db.reading() as tx:
        settings = await mq.guild_settings(tx, 1)
        wallet = await mq.wallet(tx, 1, 5)
    assert settings is not None and settings.house_balance == 0
    assert wallet is not None and wallet.balance == 0


async def test_closed_database_refuses_use(tmp_path: Path) -> None:
    db = SqliteDatabase(tmp_path / "t.db")
    assert not db.is_open
    with pytest.raises(RuntimeError, match="not open"):
        _ = db.connection
    await db.open()
    assert db.is_open
    await db.close()
    assert not db.is_open
    await db.close()  # closing twice is harmless


# -- optimistic locking -------------------------------------------------------------------


async def test_update_table_refuses_a_stale_version(any_db: Database) -> None:
    table_id = await add_table(any_db)
    async with any_db.transaction() as tx:
        stale = await tq.table(tx, table_id)
        assert stale is not None and stale.version == 0
        assert await tq.update_table(
            tx, stale, status="running", state_json='{"a":1}', dice_counter=3, house_net=0, now=5.0
        )
    async with any_db.transaction() as tx:
        saved = await tq.update_table(
            tx, stale, status="finished", state_json='{"b":2}', dice_counter=9, house_net=1, now=6.0
        )
        current = await tq.table(tx, table_id)
    assert not saved  # refused: nothing saved
    assert current is not None
    assert (current.version, current.status, current.state_json) == (1, "running", '{"a":1}')
    assert (current.dice_counter, current.updated_at) == (3, 5.0)
    # The fresh row saves fine and bumps the version again.
    async with any_db.transaction() as tx:
        assert await tq.update_table(
            tx, current, status="finished", state_json=None, dice_counter=4, house_net=0, now=7.0
        )
        final = await tq.table(tx, table_id)
    assert final is not None and (final.version, final.status) == (2, "finished")


@pytest.mark.parametrize("mode", ["FULL", "NORMAL"])
def test_the_bot_opens_its_database_in_the_configured_mode(
    bot_factory: Callable[..., Any], mode: str
) -> None:
    bot = bot_factory(settings={"database_synchronous": mode})
    assert bot.db.synchronous == mode


async def test_switching_to_wal_waits_out_another_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes starting on a new file: the one that finds it locked while switching
    to WAL tries again instead of failing at once (and without blocking the loop)."""
    from bot.storage.database import _run, _switch_to_wal

    path = tmp_path / "t.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE x (a)")
    holder.execute("BEGIN EXCLUSIVE")
    connection = sqlite3.connect(path, isolation_level=None)
    refused = asyncio.Event()

    def noting_refusals(on: sqlite3.Connection, sql: str) -> list[Any]:
        try:
            return _run(on, sql)
        except sqlite3.OperationalError:
            refused.set()
            raise

    monkeypatch.setattr(database_module, "_run", noting_refusals)
    try:
        _run(connection, "PRAGMA busy_timeout=0")
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            _run(connection, "PRAGMA journal_mode=WAL")

        async def release_soon() -> None:
            # The other process lets go only after the switch was refused once: the
            # switch must have waited (on the loop, since this task ran) and tried again.
            await refused.wait()
            holder.execute("COMMIT")

        releasing = asyncio.create_task(release_soon())
        await _switch_to_wal(connection)
        await releasing
        assert _run(connection, "PRAGMA journal_mode")[0][0] == "wal"
    finally:
        connection.close()
        holder.close()


# -- the loop's connection: waits and checkpoints kept off the loop -------------------------


async def _write(db: Database, guild: int) -> None:
    async with db.transaction() as tx:
        await mq.insert_guild_settings(tx, guild)


async def test_a_write_waits_for_another_process_without_blocking_the_loop(
    db: Database,
) -> None:
    holder = sqlite3.connect(db.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process is writing
    ten_ticks = asyncio.Event()

    async def ticking() -> None:
        """Another task on the loop, running while the write waits."""
        for _ in range(10):
            await asyncio.sleep(0.005)
        ten_ticks.set()

    writing = asyncio.create_task(_write(db, 5))
    ticker = asyncio.create_task(ticking())
    try:
        # A write blocking the loop until it gives up would be done (failed) before the
        # other task got its ten turns; one waiting on the loop is still waiting.
        await ten_ticks.wait()
        assert not writing.done(), "the write did not wait on the loop for the lock"
        holder.execute("COMMIT")
        await asyncio.wait_for(writing, 2)
    finally:
        ticker.cancel()
        holder.close()
    async with db.reading() as tx:
        assert await mq.guild_settings(tx, 5) is not None


async def test_a_write_gives_up_after_the_busy_wait(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database_module, "BUSY_WAIT_SECONDS", 0.05)
    holder = sqlite3.connect(db.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await _write(db, 6)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    await _write(db, 6)  # the lock and the connection are free again


async def test_checkpoints_fold_the_wal_back_every_n_commits(tmp_path: Path) -> None:
    db = SqliteDatabase(tmp_path / "t.db", checkpoint_every=3)
    await db.open()
    try:
        await db.checkpoint()
        size = db.path.stat().st_size
        for first in (1, 1000):
            async with db.transaction() as tx:
                for guild in range(first, first + 300):
                    await mq.insert_guild_settings(tx, guild)
        assert db._checkpointing is None, "no checkpoint before the third commit"
        assert db.path.stat().st_size == size, "commits stay in the WAL until a checkpoint"
        await _write(db, 5000)
        running = db._checkpointing
        assert running is not None, "the third commit queues a checkpoint"
        await running
        assert db.path.stat().st_size > size, "the checkpoint copied the pages into the file"
        assert await db.checkpoint() == 0, "nothing is left only in the WAL"
    finally:
        await db.close()
    assert await SqliteDatabase(tmp_path / "t.db").checkpoint() == 0, "a closed store does nothing"


async def test_a_failed_checkpoint_is_logged_and_writes_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(self: Database) -> int:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(SqliteDatabase, "checkpoint", broken)
    db = SqliteDatabase(tmp_path / "t.db", checkpoint_every=1)
    await db.open()
    try:
        with caplog.at_level(logging.ERROR, logger="bot.storage.database"):
            await _write(db, 1)
            assert db._checkpointing is not None
            await db._checkpointing
        assert "WAL checkpoint failed" in caplog.text
        assert db._checkpointing is None
        await _write(db, 2)
    finally:
        await db.close()
