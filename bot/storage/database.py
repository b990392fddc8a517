"""The one SQLite connection: WAL, foreign keys, migrations, and serialised transactions."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

Row = aiosqlite.Row
Parameters = Sequence[Any] | Mapping[str, Any]


def _bind(parameters: Parameters) -> Parameters:
    return parameters if isinstance(parameters, Mapping) else tuple(parameters)


def _migrations() -> list[tuple[int, str, str]]:
    found = []
    for entry in resources.files("bot.storage.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found


async def _run(connection: aiosqlite.Connection, sql: str) -> None:
    # execute_fetchall steps the statement to its end in one trip to the SQLite thread;
    # SQLite refuses to COMMIT while a statement is still open.
    await connection.execute_fetchall(sql)


class Transaction:
    """Statements inside one `BEGIN IMMEDIATE … COMMIT`; rolled back if the block raises.

    Each call is one trip to aiosqlite's thread: on a busy bot those hand-offs, not
    SQLite itself, are what a click waits for.
    """

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, parameters: Parameters = ()) -> None:
        await self._connection.execute_fetchall(sql, _bind(parameters))

    async def insert(self, sql: str, parameters: Parameters = ()) -> int:
        """Run an INSERT; returns the new row's id."""
        row = await self._connection.execute_insert(sql, _bind(parameters))
        return int(row[0]) if row is not None else 0

    @asynccontextmanager
    async def savepoint(self, name: str) -> AsyncIterator[None]:
        """A nested step: if the block raises, only what it wrote is undone, and the
        enclosing transaction carries on."""
        await self.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            await self.execute(f"ROLLBACK TO {name}")
            await self.execute(f"RELEASE {name}")
            raise
        await self.execute(f"RELEASE {name}")

    async def fetchone(self, sql: str, parameters: Parameters = ()) -> Row | None:
        rows = await self._connection.execute_fetchall(sql, _bind(parameters))
        for row in rows:
            return row
        return None

    async def fetchall(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        return list(await self._connection.execute_fetchall(sql, _bind(parameters)))


class Database:
    """Owns the connection. Writes are serialised: SQLite has one writer, and a shared
    aiosqlite connection would otherwise interleave two coroutines' transactions."""

    def __init__(self, path: Path | str, *, checkpoint_every: int = 1000) -> None:
        self.path = Path(path)
        self._connection: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._checkpoint_every = checkpoint_every
        self._commits_since_checkpoint = 0
        self._checkpointing: asyncio.Task[None] | None = None

    @property
    def connection(self) -> aiosqlite.Connection:
        if self._connection is None:
            raise RuntimeError("the database is not open")
        return self._connection

    @property
    def is_open(self) -> bool:
        return self._connection is not None

    async def open(self) -> None:
        """Open (creating the file and folder if needed) and apply pending migrations."""
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is
        # exactly the block we wrote and nothing opens one behind our back.
        self._connection = await aiosqlite.connect(self.path, isolation_level=None)
        self._connection.row_factory = aiosqlite.Row
        await _run(self._connection, "PRAGMA journal_mode=WAL")
        await _run(self._connection, "PRAGMA synchronous=NORMAL")
        await _run(self._connection, "PRAGMA foreign_keys=ON")
        await _run(self._connection, "PRAGMA busy_timeout=5000")
        # Checkpoints run from `checkpoint()` between actions, not inside whichever
        # click's COMMIT happened to fill the WAL.
        await _run(self._connection, "PRAGMA wal_autocheckpoint=0")
        await self.migrate()

    async def close(self) -> None:
        if self._checkpointing is not None:
            await asyncio.gather(self._checkpointing, return_exceptions=True)
        if self._connection is not None:
            connection, self._connection = self._connection, None
            async with self._write_lock:
                await connection.close()

    async def checkpoint(self) -> None:
        """Fold the WAL back into the database file (between actions, never inside one)."""
        async with self._write_lock:
            if self._connection is not None:
                await _run(self._connection, "PRAGMA wal_checkpoint(PASSIVE)")

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Apply every migration newer than `PRAGMA user_version`, each in a transaction."""
        current = await self.schema_version()
        applied = 0
        for number, name, sql in _migrations():
            if number <= current:
                continue
            async with self._write_lock:
                # executescript would COMMIT first; run the statements inside our own
                # transaction so a failing migration leaves the schema untouched.
                await _run(self.connection, "BEGIN IMMEDIATE")
                try:
                    for statement in _split_sql(sql):
                        await _run(self.connection, statement)
                    await _run(self.connection, f"PRAGMA user_version = {number}")
                    await _run(self.connection, "COMMIT")
                except BaseException:
                    await _run(self.connection, "ROLLBACK")
                    raise
            log.info("applied migration %s", name)
            applied += 1
        return applied

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self._write_lock:
            connection = self.connection
            await _run(connection, "BEGIN IMMEDIATE")
            try:
                yield Transaction(connection)
            except BaseException:
                await _run(connection, "ROLLBACK")
                raise
            await _run(connection, "COMMIT")
        self._commits_since_checkpoint += 1
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
        connection they would otherwise see another coroutine's uncommitted rows."""
        async with self._write_lock:
            yield Transaction(self.connection)


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
