"""The SQLite backend of the storage interface (:mod:`bot.storage.base`): WAL, foreign
keys, migrations, and serialised transactions.

Statements run on the event loop's own thread, on one ``sqlite3`` connection. Measured on
a busy table, SQLite's own work for a whole action is about 0.1 ms (a FULL commit 0.2 ms),
while a hand-off to a driver thread costs about as much per statement, and an action has
about ten: running them in place took ``TableService.act`` from 4.3 ms to 1.1 ms (p50)
and a click's p99 from 9.8 to 4.7 ms (benchmarks/click_latency.py, same machine, same
run conditions). What could block the loop for longer is kept off it:

- waiting for another process's write lock: the loop's connection has no busy timeout;
  ``BEGIN IMMEDIATE`` is retried with ``asyncio.sleep`` until :data:`BUSY_WAIT_SECONDS`;
- checkpoints (folding the WAL back into the file): a second connection runs them in
  aiosqlite's thread, ``PASSIVE``, which never waits for the writer nor makes it wait.

Reads and writes of one process are still serialised by ``_write_lock``: a coroutine
awaiting inside a transaction (an engine step, a deadline) must not let another
coroutine's statements into it. Writers queued behind each other share one COMMIT (group
commit, :meth:`SqliteDatabase.transaction`): a burst of clicks pays one fsync, not one
each, and every click is still answered only after its action is on disk.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Literal

import aiosqlite

from bot.storage.base import Database, Parameters, Row, Transaction, migrations

log = logging.getLogger(__name__)

Synchronous = Literal["FULL", "NORMAL"]

# Loggers of the database driver. At DEBUG aiosqlite logs every statement with its
# parameters, and those include live tables' fairness seeds (every future roll) and the
# state of unrevealed choices. They stay at WARNING whatever the root level is.
DRIVER_LOGGERS = ("aiosqlite",)


def quiet_driver_loggers() -> None:
    """Keep the database driver's loggers at WARNING, whatever the root level."""
    for name in DRIVER_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


__all__ = ["Database", "Parameters", "Row", "SqliteDatabase", "SqliteTransaction", "Transaction"]


def _bind(parameters: Parameters) -> Parameters:
    return parameters if isinstance(parameters, Mapping) else tuple(parameters)


def _run(connection: sqlite3.Connection, sql: str) -> list[Row]:
    # fetchall steps the statement to its end: SQLite refuses to COMMIT while a statement
    # is still open.
    return connection.execute(sql).fetchall()


BUSY_WAIT_SECONDS = 5.0
"""How long a write waits for another process's write lock before giving up."""


async def _begin_immediate(connection: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE``, waiting for another process's write lock without blocking the
    loop (the connection's busy timeout is 0, so SQLite answers "locked" at once)."""
    delay, waited = 0.001, 0.0
    while True:
        try:
            _run(connection, "BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or waited >= BUSY_WAIT_SECONDS:
                raise
        await asyncio.sleep(delay)
        waited += delay
        delay = min(delay * 2, 0.05)


async def _connect_checkpointer(path: Path) -> aiosqlite.Connection:
    connection = aiosqlite.connect(path, isolation_level=None)
    try:
        return await connection
    except BaseException:
        # aiosqlite stops its thread after a failed connect without waiting for it; the
        # thread then answers on a closed event loop and prints a traceback after ours.
        # Wait for it here, while the loop still runs.
        thread = connection if isinstance(connection, threading.Thread) else None
        thread = thread or getattr(connection, "_thread", None)
        if isinstance(thread, threading.Thread) and thread.is_alive():
            await asyncio.to_thread(thread.join, 5.0)
        raise


async def _switch_to_wal(connection: sqlite3.Connection) -> None:
    """`journal_mode=WAL`, waiting out another process doing the same on a new file.

    Changing the journal mode needs the file to itself, and SQLite answers "database is
    locked" at once there rather than calling the busy handler; two processes starting
    together on a new file would otherwise fail one of them at random."""
    for _ in range(WAL_SWITCH_ATTEMPTS - 1):
        try:
            _run(connection, "PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error):
                raise
            await asyncio.sleep(0.05)
    _run(connection, "PRAGMA journal_mode=WAL")


WAL_SWITCH_ATTEMPTS = 100


MAX_GROUP_UNITS = 64
GROUP_WINDOW_SECONDS = 0.002
"""A group takes no more units once it is this old (or this big), so its first unit is not
kept waiting: between two units the loop also runs the other clicks' own work, and in a
burst an unbounded group would hold every answer until the burst's last write."""


class _Group:
    """Units of work sharing one SQLite transaction, and so one COMMIT."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._done: asyncio.Future[None] = loop.create_future()
        self.opened_at = loop.time()
        self.units = 0
        self.closer_queued = False

    def succeed(self) -> None:
        if not self._done.done():
            self._done.set_result(None)

    def fail(self, error: BaseException) -> None:
        if not self._done.done():
            self._done.set_exception(error)
            self._done.exception()  # a group of refusals only: nobody waits for it

    async def committed(self) -> None:
        """Until the group's COMMIT is on disk; raises what made it fail."""
        await asyncio.shield(self._done)


class SqliteTransaction(Transaction):
    """Statements inside one `BEGIN IMMEDIATE … COMMIT`; rolled back if the block raises.

    The methods are coroutines so that a backend speaking to a server can await its
    answers; on SQLite each runs at once, on the loop's thread (see the module notes).
    """

    dialect = "sqlite"

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, parameters: Parameters = ()) -> None:
        self._connection.execute(sql, _bind(parameters)).fetchall()

    async def insert(self, sql: str, parameters: Parameters = ()) -> int:
        """Run an INSERT; returns the new row's id."""
        return int(self._connection.execute(sql, _bind(parameters)).lastrowid or 0)

    async def fetchone(self, sql: str, parameters: Parameters = ()) -> Row | None:
        row: Row | None = self._connection.execute(sql, _bind(parameters)).fetchone()
        return row

    async def fetchall(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        return list(self._connection.execute(sql, _bind(parameters)).fetchall())


class SqliteDatabase(Database):
    """Owns the connections. Writes are serialised: SQLite has one writer, and coroutines
    sharing a connection would otherwise interleave their transactions."""

    dialect = "sqlite"

    def __init__(
        self,
        path: Path | str,
        *,
        checkpoint_every: int = 1000,
        synchronous: Synchronous = "FULL",
    ) -> None:
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.path = Path(path)
        # FULL: a COMMIT is on disk before the click is answered, so a power loss cannot
        # undo an action Discord already showed. NORMAL (WAL) may lose the last commits.
        self.synchronous = synchronous
        self._connection: sqlite3.Connection | None = None
        self._checkpointer: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._checkpoint_every = checkpoint_every
        self._commits_since_checkpoint = 0
        self._checkpointing: asyncio.Task[None] | None = None
        self._group: _Group | None = None
        """The transaction left open for the writers queued behind its units."""
        self._writers_waiting = 0
        self._closers: set[asyncio.Task[None]] = set()
        self.commits = 0
        """Group commits made (each holds one or more units of work)."""

    @property
    def connection(self) -> sqlite3.Connection:
        if self._connection is None:
            raise RuntimeError("the database is not open")
        return self._connection

    @property
    def is_open(self) -> bool:
        return self._connection is not None

    async def open(self) -> None:
        """Open (creating the file and folder if needed) and apply pending migrations.

        If any of it fails the connection is closed again before the error propagates.
        """
        # Here too, not only where logging is set up: a test or a script that opens the
        # database at DEBUG must not log the seeds either.
        quiet_driver_loggers()
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is
        # exactly the block we wrote and nothing opens one behind our back.
        # check_same_thread=False: opened here, used by this loop's thread only; the
        # checkpoints have their own connection.
        self._connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            self._connection.row_factory = sqlite3.Row
            # No busy timeout: waiting for another process's lock would block the loop;
            # the waits that can happen are retried asynchronously instead.
            _run(self._connection, "PRAGMA busy_timeout=0")
            await _switch_to_wal(self._connection)
            _run(self._connection, f"PRAGMA synchronous={self.synchronous}")
            _run(self._connection, "PRAGMA foreign_keys=ON")
            # Checkpoints run from `checkpoint()`, off the loop, not inside whichever
            # click's COMMIT happened to fill the WAL.
            _run(self._connection, "PRAGMA wal_autocheckpoint=0")
            await self.migrate()
        except BaseException:
            connection, self._connection = self._connection, None
            connection.close()
            raise

    async def close(self) -> None:
        if self._checkpointing is not None:
            await asyncio.gather(self._checkpointing, return_exceptions=True)
        if self._checkpointer is not None:
            checkpointer, self._checkpointer = self._checkpointer, None
            await checkpointer.close()
        if self._connection is not None:
            async with self._write_lock:
                await self._commit_group()
                connection, self._connection = self._connection, None
                connection.close()

    async def checkpoint(self) -> int:
        """Fold the WAL back into the database file, on a second connection in a driver
        thread: ``PASSIVE`` copies what no reader still needs and never waits for the
        writer, so the loop's transactions go on meanwhile. Returns the frames still only
        in the WAL (0: the file holds everything committed)."""
        if self._connection is None:
            return 0
        if self._checkpointer is None:
            self._checkpointer = await _connect_checkpointer(self.path)
        rows = await self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        for _busy, logged, copied in rows:
            return max(0, int(logged) - int(copied))
        return 0

    async def integrity_check(self) -> str:
        async with self.reading() as tx:
            row = await tx.fetchone("PRAGMA quick_check")
        return str(row[0]) if row is not None else "no answer"

    async def schema_version(self) -> int:
        for row in _run(self.connection, "PRAGMA user_version"):
            return int(row[0])
        return 0

    async def migrate(self) -> int:
        """Apply every migration newer than `PRAGMA user_version`, each in a transaction.

        The version is read inside the migration's own `BEGIN IMMEDIATE`, which holds the
        file's write lock: a second process starting at the same moment waits, then sees
        the new version and skips the migration instead of applying it twice.
        """
        applied = 0
        for number, name, sql in migrations("sqlite"):
            async with self._write_lock:
                # executescript would COMMIT first; run the statements inside our own
                # transaction so a failing migration leaves the schema untouched.
                await _begin_immediate(self.connection)
                try:
                    current = await self.schema_version()
                    if number > current:
                        for statement in _split_sql(sql):
                            _run(self.connection, statement)
                        _run(self.connection, f"PRAGMA user_version = {number}")
                    _run(self.connection, "COMMIT")
                except BaseException:
                    _run(self.connection, "ROLLBACK")
                    raise
            if number > current:
                log.info("applied migration %s", name)
                applied += 1
        return applied

    async def probe_write(self) -> None:
        """Prove the file can be written: a real write, in a transaction rolled back.

        A read-only file opens without complaint (SQLite falls back to reading), so only
        a write shows that the bot would be able to save actions. Raises sqlite3.Error.
        """
        async with self._write_lock:
            await self._commit_group()
            connection = self.connection
            # BEGIN IMMEDIATE takes the write lock (it waits for a running bot's writer);
            # the statements change pages as an action does, which SQLite refuses at once
            # on a read-only file. The rollback means nothing reaches the disk, so a full
            # disk would only show at a real commit.
            await _begin_immediate(connection)
            try:
                version = await self.schema_version()
                _run(connection, f"PRAGMA user_version = {version}")
                _run(connection, "CREATE TABLE tanzaku_write_probe (x INTEGER)")
                _run(connection, "INSERT INTO tanzaku_write_probe VALUES (1)")
            finally:
                # Some errors (an I/O error, a full disk) end the transaction themselves.
                if connection.in_transaction:
                    _run(connection, "ROLLBACK")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One unit of work, committed together with the units queued behind it.

        Group commit: with ``synchronous=FULL`` a COMMIT waits for the disk (an fsync,
        0.4 ms here and more as the WAL grows), the largest single cost of an action in
        a burst. So a unit that finishes while other writers wait for the lock does not
        commit: it releases its savepoint and the next unit goes on in the same
        transaction; the last one commits them all. Every unit returns only once the
        commit that holds it is on disk, so a click is still answered after its action
        is saved; if that commit fails, every unit in it raises. A unit that raises is
        undone alone (its savepoint).
        """
        self._writers_waiting += 1
        try:
            await self._write_lock.acquire()
        finally:
            self._writers_waiting -= 1
        try:
            connection = self.connection
            if self._group is None:
                await _begin_immediate(connection)
                self._group = _Group(asyncio.get_running_loop())
            group = self._group
            _run(connection, "SAVEPOINT tanzaku_unit")
            try:
                yield SqliteTransaction(connection)
            except BaseException as error:
                if connection.in_transaction:
                    _run(connection, "ROLLBACK TO tanzaku_unit")
                    _run(connection, "RELEASE tanzaku_unit")
                    await self._end_unit(group)
                else:
                    # An error such as a full disk ended the whole transaction: the
                    # group's earlier units are lost with it, and say so.
                    self._group = None
                    group.fail(error)
                raise
            _run(connection, "RELEASE tanzaku_unit")
            group.units += 1
            await self._end_unit(group)
        finally:
            self._write_lock.release()
        await group.committed()

    async def _end_unit(self, group: _Group) -> None:
        """After a unit (lock held): leave the group open for a writer waiting, or end it."""
        if not self._writers_waiting and group.units:
            # Statements run on the loop without a pause, so the tasks of a burst have
            # not reached the lock yet: one turn of the loop lets them queue behind it.
            await asyncio.sleep(0)
        young = asyncio.get_running_loop().time() - group.opened_at < GROUP_WINDOW_SECONDS
        if self._writers_waiting and young and group.units < MAX_GROUP_UNITS:
            if not group.closer_queued:
                # Should every waiting writer give up (cancelled), someone must still
                # commit: a closer queues behind them and ends the group if it is open.
                group.closer_queued = True
                task = asyncio.create_task(self._close_group(group), name="tanzaku-commit")
                self._closers.add(task)
                task.add_done_callback(self._closers.discard)
            return
        await self._commit_group()

    async def _close_group(self, group: _Group) -> None:
        async with self._write_lock:
            if self._group is group:
                await self._commit_group()

    async def _commit_group(self) -> None:
        """Commit the open group (lock held); its units learn the result from the group."""
        group, self._group = self._group, None
        if group is None:
            return
        connection = self.connection
        if not group.units:
            _run(connection, "ROLLBACK")  # only refusals: nothing to write
            group.succeed()
            return
        try:
            # On the loop: one fsync per group, where a hop to a thread would cost every
            # lone click more than it saves (measured: benchmarks/click_latency.py).
            started = time.perf_counter()
            _run(connection, "COMMIT")
            self.meter.committed("sqlite", time.perf_counter() - started, group.units)
        except Exception as error:
            if connection.in_transaction:
                _run(connection, "ROLLBACK")
            group.fail(error)
            return
        group.succeed()
        self._count_commit(group)

    def _count_commit(self, group: _Group) -> None:
        self.commits += 1
        self._commits_since_checkpoint += group.units
        if self._commits_since_checkpoint >= self._checkpoint_every and self._checkpointing is None:
            # Queued behind the current action instead of inside some click's COMMIT.
            self._commits_since_checkpoint = 0
            self._checkpointing = asyncio.create_task(self._background_checkpoint())

    async def _background_checkpoint(self) -> None:
        try:
            await self.checkpoint()
        except Exception:
            log.exception("WAL checkpoint failed")
        finally:
            self._checkpointing = None

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Transaction]:
        """Reads outside a transaction. They wait for the writer, because on a shared
        connection they would otherwise see another coroutine's uncommitted rows; a
        group left open for the writers behind it is committed first, for the same
        reason."""
        async with self._write_lock:
            await self._commit_group()
            yield SqliteTransaction(self.connection)


def _split_sql(script: str) -> list[str]:
    """Statements of a migration file; `sqlite3.complete_statement` knows where each ends."""
    import sqlite3

    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise RuntimeError(f"incomplete SQL statement in migration: {buffer.strip()[:80]}")
    return statements
