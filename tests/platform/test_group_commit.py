"""Group commit on SQLite (bot/storage/database.py): the units of work queued behind each
other share one COMMIT, and each returns only once that COMMIT is on disk."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import SqliteDatabase
from bot.storage import database as sqlite_backend


@pytest.fixture
async def db(tmp_path: Path):
    database = SqliteDatabase(tmp_path / "group.db")
    await database.open()
    async with database.transaction() as tx:
        await tx.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    yield database
    if database.is_open:
        await database.close()


def on_disk(path: Path) -> list[str]:
    """What another connection sees: only what was committed."""
    with sqlite3.connect(path) as connection:
        return [row[0] for row in connection.execute("SELECT name FROM items ORDER BY id")]


async def add(db: SqliteDatabase, name: str, *, fail: bool = False) -> list[str]:
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO items (name) VALUES (?)", (name,))
        if fail:
            raise LookupError(f"{name} refused")
    # Back from the block: the unit must be on disk already.
    return on_disk(db.path)


async def test_units_queued_together_share_one_commit_and_return_saved(
    db: SqliteDatabase,
) -> None:
    commits = db.commits
    seen = await asyncio.gather(*(add(db, f"item {n}") for n in range(20)))
    assert db.commits - commits < 20, "at least two units shared a commit"
    for n, names in enumerate(seen):
        assert f"item {n}" in names, "each unit was on disk when its block returned"
    assert len(on_disk(db.path)) == 20


async def test_a_refused_unit_is_undone_alone_inside_its_group(db: SqliteDatabase) -> None:
    results = await asyncio.gather(
        add(db, "first"), add(db, "refused", fail=True), add(db, "third"), return_exceptions=True
    )
    assert isinstance(results[1], LookupError)
    assert on_disk(db.path) == ["first", "third"]


async def test_a_lone_unit_that_is_refused_leaves_no_transaction_open(db: SqliteDatabase) -> None:
    with pytest.raises(LookupError):
        await add(db, "refused", fail=True)
    assert not db.connection.in_transaction, "the write lock is not kept by a refusal"
    assert on_disk(db.path) == []


async def test_a_failed_commit_fails_every_unit_of_the_group(
    db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_run = sqlite_backend._run

    def full_disk(connection: sqlite3.Connection, sql: str) -> list[object]:
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return real_run(connection, sql)

    monkeypatch.setattr(sqlite_backend, "_run", full_disk)
    results = await asyncio.gather(
        *(add(db, f"item {n}") for n in range(5)), return_exceptions=True
    )
    assert all(isinstance(result, sqlite3.OperationalError) for result in results), results
    monkeypatch.setattr(sqlite_backend, "_run", real_run)
    assert on_disk(db.path) == [], "nothing of the group was kept"
    assert await add(db, "after") == ["after"], "the next unit starts afresh"


async def test_an_error_that_ends_the_transaction_fails_the_units_before_it(
    db: SqliteDatabase,
) -> None:
    earlier_inside, failing_queued = asyncio.Event(), asyncio.Event()

    async def earlier() -> list[str]:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO items (name) VALUES ('earlier')")
            earlier_inside.set()
            # Open until the failing unit waits behind it, so both share one group
            # whatever else the machine is doing (a checkpoint's lock, a slow loop).
            await failing_queued.wait()
            assert db._writers_waiting == 1, "the failing unit is queued behind this one"
        return on_disk(db.path)

    async def ends_the_transaction() -> None:
        await earlier_inside.wait()
        failing_queued.set()  # the transaction below queues at once, before this task yields
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO items (name) VALUES ('doomed')")
            db.connection.execute("ROLLBACK")  # as an I/O error or a full disk may do
            raise sqlite3.OperationalError("disk I/O error")

    results = await asyncio.gather(earlier(), ends_the_transaction(), return_exceptions=True)
    assert all(isinstance(result, sqlite3.OperationalError) for result in results), results
    assert on_disk(db.path) == []
    assert await add(db, "after") == ["after"]


async def test_a_writer_that_gives_up_waiting_does_not_strand_the_group(
    db: SqliteDatabase,
) -> None:
    holder_inside = asyncio.Event()
    release = asyncio.Event()

    async def slow_first() -> list[str]:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO items (name) VALUES ('first')")
            holder_inside.set()
            await release.wait()
        return on_disk(db.path)

    first = asyncio.create_task(slow_first())
    await holder_inside.wait()
    waiting = asyncio.create_task(add(db, "never"))
    await asyncio.sleep(0)  # one turn: the new task runs up to the write lock
    assert db._writers_waiting == 1, "queued behind the first unit"
    release.set()
    await asyncio.sleep(0)  # the first unit ends and sees a writer waiting: group kept open
    waiting.cancel()
    assert await asyncio.wait_for(first, timeout=5) == ["first"], "committed by the closer"
    with pytest.raises(asyncio.CancelledError):
        await waiting


async def test_a_reader_never_sees_a_group_before_it_is_committed(db: SqliteDatabase) -> None:
    async def read() -> list[str]:
        async with db.reading() as tx:
            names = [row[0] for row in await tx.fetchall("SELECT name FROM items")]
        assert names == on_disk(db.path), "read only what is on disk"
        return names

    results = await asyncio.gather(add(db, "a"), read(), add(db, "b"), read())
    assert results[0] == ["a"] or results[0] == ["a", "b"]
    assert sorted(results[3]) == ["a", "b"]
