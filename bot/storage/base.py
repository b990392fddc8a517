"""The one storage interface the bot uses, whichever database is behind it.

Two backends implement it: SQLite (:mod:`bot.storage.database`, the embedded default) and
PostgreSQL (:mod:`bot.storage.postgres`, the shared store for several processes). The
queries (:mod:`bot.storage.table_queries`, :mod:`bot.storage.money`,
:mod:`bot.storage.panels`) are written once, with ``?`` (or ``:name``) placeholders, and
run unchanged on both: the PostgreSQL backend rewrites the placeholders. Everything else
that differs between the two (schema types, locks, errors) stays in this package.
"""

from __future__ import annotations

import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib import resources
from typing import Any, Literal

import asyncpg

from bot.meter import NO_METER, Meter
from bot.signals import SignalRouter

Dialect = Literal["sqlite", "postgresql"]

Row = Any
"""A result row: ``sqlite3.Row`` or ``asyncpg.Record``. The queries use only what both
offer: by index, by column name, ``len`` and iteration over the values."""

Parameters = Sequence[Any] | Mapping[str, Any]

UNIQUE_VIOLATIONS: tuple[type[Exception], ...] = (
    sqlite3.IntegrityError,
    asyncpg.UniqueViolationError,
)
"""What an INSERT raises on a duplicate key, on either backend."""

DATABASE_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.Error,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    OSError,
)
"""What opening or using the database may raise when the database itself is the problem
(a corrupt or read-only file, a server that is down or refuses us)."""


class Transaction(ABC):
    """Statements inside one transaction; rolled back if the block raises."""

    dialect: Dialect

    @abstractmethod
    async def execute(self, sql: str, parameters: Parameters = ()) -> None: ...

    @abstractmethod
    async def insert(self, sql: str, parameters: Parameters = ()) -> int:
        """Run an INSERT into a table with an ``id`` key; returns the new row's id."""

    @abstractmethod
    async def fetchone(self, sql: str, parameters: Parameters = ()) -> Row | None: ...

    @abstractmethod
    async def fetchall(self, sql: str, parameters: Parameters = ()) -> list[Row]: ...

    @asynccontextmanager
    async def savepoint(self, name: str) -> AsyncIterator[None]:
        """A nested step: if the block raises, only what it wrote is undone, and the
        enclosing transaction carries on (the same statements on both backends)."""
        await self.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            await self.execute(f"ROLLBACK TO {name}")
            await self.execute(f"RELEASE {name}")
            raise
        await self.execute(f"RELEASE {name}")


class Database(ABC):
    """The store: opened once, migrated on open, used through transactions."""

    dialect: Dialect
    meter: Meter = NO_METER
    """Told of every commit: its time and how many units of work it held."""

    @property
    @abstractmethod
    def is_open(self) -> bool: ...

    @abstractmethod
    async def open(self) -> None:
        """Connect and apply pending migrations; closed again if any of it fails."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """One write transaction: committed when the block ends, rolled back if it raises."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Transaction]:
        """Reads only, seeing committed data (one consistent view for the block)."""

    @abstractmethod
    async def checkpoint(self) -> int:
        """Housekeeping of the store's log; returns what is still left to fold (SQLite's
        WAL frames; always 0 on PostgreSQL, whose server does its own)."""

    @abstractmethod
    async def probe_write(self) -> None:
        """Prove a write can be made, in a transaction rolled back."""

    @abstractmethod
    async def integrity_check(self) -> str:
        """ "ok" when the store is sound, or what is wrong with it."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def migrate(self) -> int:
        """Apply every pending migration; returns how many were applied."""

    @property
    def shared(self) -> bool:
        """Whether other processes may use this database at the same time (PostgreSQL):
        then what a process keeps in memory must follow the signals they send."""
        return False

    async def listen(self, router: SignalRouter) -> None:
        """Pass the signals of every process sharing the database to `router`, until it is
        closed (:mod:`bot.signals`). Nothing to do on a store only one process uses."""
        return None

    async def publish(self, topic: str, payload: str) -> None:
        """Send a signal to every process listening (this one included), outside any
        transaction. Nothing to do on a store only one process uses."""
        return None


_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+?)(?:\.(sqlite|postgresql))?\.sql$")


def migrations(dialect: Dialect) -> list[tuple[int, str, str]]:
    """The numbered migrations for a dialect: (number, file name, SQL).

    One numbered list for both backends. ``NNNN_name.sql`` is shared; a file
    ``NNNN_name.postgresql.sql`` (or ``.sqlite.sql``) beside it replaces it for that
    dialect only, where the SQL must differ (types, identity columns).
    """
    shared: dict[int, tuple[str, str]] = {}
    specific: dict[int, tuple[str, str]] = {}
    for entry in resources.files("bot.storage.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if not match:
            continue
        number, only_for = int(match.group(1)), match.group(3)
        found = (entry.name, entry.read_text(encoding="utf-8"))
        if only_for is None:
            shared[number] = found
        elif only_for == dialect:
            specific[number] = found
    numbers = sorted(shared)
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    stray = sorted(set(specific) - set(shared))
    if stray:
        raise RuntimeError(f"{dialect} migrations {stray} have no shared file of that number")
    return [(number, *specific.get(number, shared[number])) for number in numbers]
