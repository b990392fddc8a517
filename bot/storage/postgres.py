"""The PostgreSQL backend of the storage interface (:mod:`bot.storage.base`), on asyncpg.

A pool of connections; a transaction is one pooled connection inside ``BEGIN … COMMIT``
(READ COMMITTED), so several bot processes can share the database. What serialises a
table's actions across processes is a row lock on the table taken at the start of its
transaction (:func:`bot.storage.table_queries.lock_table`); money moves are single-row
``UPDATE … WHERE balance + ? >= 0`` statements in that same transaction, which PostgreSQL
re-checks against the latest committed row, so two processes cannot overdraw a wallet.

The queries are written once for both backends with ``?`` (or ``:name``) placeholders;
:func:`translate` rewrites them to PostgreSQL's ``$1, $2 …`` outside string literals,
quoted names and comments, once per distinct text (cached). That keeps one text per query
and every call site unchanged, instead of a second copy of each query to keep in step.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Coroutine, Mapping
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any, TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.signals import SignalRouter
from bot.storage.base import DATABASE_ERRORS, Database, Parameters, Row, Transaction, migrations

log = logging.getLogger(__name__)

# A string: asyncpg's classes are generic only in its type stubs.
Connection: TypeAlias = "asyncpg.Connection[Any] | PoolConnectionProxy[Any]"

MIGRATION_LOCK = 0x74616E7A616B75  # "tanzaku": the advisory lock migrations hold
SCHEMA_TABLE = "tanzaku_schema"
SIGNAL_CHANNEL = "tanzaku"
"""The one LISTEN/NOTIFY channel; the payload starts with the topic (bot/signals.py)."""
LISTENER_PING_SECONDS = 60.0
"""How often the listening connection is proven alive: a half-open TCP connection would
otherwise hide the lost signals for as long as the OS keeps it."""
RECONNECT_MAX_SECONDS = 30.0
CLOSE_GRACE_SECONDS = 5.0
PING_FAILURES: tuple[type[Exception], ...] = (TimeoutError, *DATABASE_ERRORS)


@lru_cache(maxsize=1024)
def translate(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """``?`` → ``$1, $2 …`` and ``:name`` → ``$k`` (one number per distinct name), outside
    quotes and comments. Returns the text and, for named placeholders, the names in
    number order (None when the placeholders are positional)."""
    out: list[str] = []
    names: list[str] = []
    positional = 0
    i, n = 0, len(sql)
    while i < n:
        char = sql[i]
        if char in "'\"":
            end = i + 1
            while end < n:
                if sql[end] == char:
                    if end + 1 < n and sql[end + 1] == char:  # '' or "" inside: escaped
                        end += 2
                        continue
                    break
                end += 1
            out.append(sql[i : end + 1])
            i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end < 0 else end
            out.append(sql[i:end])
            i = end
        elif char == "?":
            positional += 1
            out.append(f"${positional}")
            i += 1
        elif (
            char == ":"
            and i + 1 < n
            and (sql[i + 1].isalpha() or sql[i + 1] == "_")
            and (i == 0 or sql[i - 1] != ":")
        ):
            end = i + 1
            while end < n and (sql[end].isalnum() or sql[end] == "_"):
                end += 1
            name = sql[i + 1 : end]
            if name not in names:
                names.append(name)
            out.append(f"${names.index(name) + 1}")
            i = end
        else:
            out.append(char)
            i += 1
    if positional and names:
        raise ValueError(f"a query mixes ? and :name placeholders: {sql[:80]}")
    return "".join(out), tuple(names) if names else None


def _prepare(sql: str, parameters: Parameters) -> tuple[str, list[Any]]:
    text, names = translate(sql)
    if names is not None:
        if not isinstance(parameters, Mapping):
            raise TypeError("named placeholders need a mapping of parameters")
        return text, [parameters[name] for name in names]
    if isinstance(parameters, Mapping):
        raise TypeError("? placeholders need a sequence of parameters")
    return text, list(parameters)


class PostgresTransaction(Transaction):
    """Statements on one pooled connection, inside its transaction."""

    dialect = "postgresql"

    def __init__(self, connection: Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, parameters: Parameters = ()) -> None:
        text, values = _prepare(sql, parameters)
        await self._connection.execute(text, *values)

    async def insert(self, sql: str, parameters: Parameters = ()) -> int:
        text, values = _prepare(sql, parameters)
        return int(await self._connection.fetchval(f"{text} RETURNING id", *values))

    async def fetchone(self, sql: str, parameters: Parameters = ()) -> Row | None:
        text, values = _prepare(sql, parameters)
        return await self._connection.fetchrow(text, *values)

    async def fetchall(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        text, values = _prepare(sql, parameters)
        return list(await self._connection.fetch(text, *values))


async def reset_pooled(connection: asyncpg.Connection[Any]) -> None:
    """Nothing to undo when a connection goes back to the pool.

    asyncpg's default sends ``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *;
    RESET ALL`` at every release: one more round trip per action (of ten), for session
    state the bot never leaves on a pooled connection. It sets no setting, it listens on
    a connection of its own (:meth:`PostgresDatabase.listen`), its advisory locks and
    cursors end with their transaction. A transaction left open (a task cancelled
    mid-way) is rolled back by asyncpg itself before this is called."""


class PostgresDatabase(Database):
    """A pool of connections to one PostgreSQL database (``postgresql://…``)."""

    dialect = "postgresql"

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.dsn = dsn
        self._min_size = min_size
        self._max_size = max_size
        self._pool: asyncpg.Pool[Any] | None = None
        self._router: SignalRouter | None = None
        self._listening: asyncpg.Connection[Any] | None = None
        self._ping_timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.listener_connects = 0
        """How many times the listening connection was made (a reconnect adds one)."""

    @property
    def pool(self) -> asyncpg.Pool[Any]:
        if self._pool is None:
            raise RuntimeError("the database is not open")
        return self._pool

    @property
    def is_open(self) -> bool:
        return self._pool is not None

    async def open(self) -> None:
        self._pool = await asyncpg.create_pool(
            self.dsn, min_size=self._min_size, max_size=self._max_size, reset=reset_pooled
        )
        try:
            await self.migrate()
        except BaseException:
            pool, self._pool = self._pool, None
            await pool.close()
            raise

    async def close(self) -> None:
        """Give every connection back and close them; a connection still held after
        :data:`CLOSE_GRACE_SECONDS` (a task that never gave it back) is cut, so that a
        stop always ends (``docker stop`` kills the process 10 s after SIGTERM)."""
        await self._stop_listening()
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await asyncio.wait_for(pool.close(), timeout=CLOSE_GRACE_SECONDS)
            except TimeoutError:
                log.warning(
                    "connections still held after %.0f s; closing them", CLOSE_GRACE_SECONDS
                )
                pool.terminate()

    @property
    def shared(self) -> bool:
        return True

    async def listen(self, router: SignalRouter) -> None:
        """Listen on a connection of its own (a pooled one would be handed to other work).

        The first connection is made here, so a failure shows at start. Nothing waits in
        the background meanwhile: asyncpg calls back on each signal, and on the loss of
        the connection, which is then made again (and `router` resyncs: what was sent
        meanwhile is lost). A ping now and then finds a connection that died silently.
        """
        if self._router is not None:
            raise RuntimeError("already listening")
        self._router = router
        try:
            await self._connect_listener()
        except BaseException:
            self._router = None
            raise
        self._arm_ping()

    async def _connect_listener(self) -> None:
        router = self._router
        assert router is not None
        connection: asyncpg.Connection[Any] = await asyncpg.connect(self.dsn)

        def on_notify(_connection: Any, _pid: int, _channel: str, payload: object) -> None:
            router.dispatch(str(payload))

        try:
            await connection.add_listener(SIGNAL_CHANNEL, on_notify)
        except BaseException:
            await connection.close()
            raise
        connection.add_termination_listener(self._on_listener_lost)
        self._listening = connection
        self.listener_connects += 1

    def _on_listener_lost(self, connection: Any) -> None:
        if connection is not self._listening or self._router is None:
            return  # closed on purpose, or an older connection
        self._listening = None
        log.warning("lost the connection that hears other processes; reconnecting")
        self._background(self._reconnect_listener(), "tanzaku-signals-reconnect")

    async def _reconnect_listener(self) -> None:
        delay = 0.25
        while self._router is not None:
            try:
                await self._connect_listener()
            except DATABASE_ERRORS as error:
                log.warning("cannot listen yet (%s); retrying in %.1f s", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MAX_SECONDS)
                continue
            await self._router.resync()
            return

    def _arm_ping(self) -> None:
        if self._router is None:
            return
        loop = asyncio.get_running_loop()
        self._ping_timer = loop.call_later(
            LISTENER_PING_SECONDS,
            lambda: self._background(self._ping_listener(), "tanzaku-signals-ping"),
        )

    async def _ping_listener(self) -> None:
        connection = self._listening
        try:
            if connection is not None:
                await connection.execute("SELECT 1", timeout=LISTENER_PING_SECONDS / 3)
        except PING_FAILURES:
            # Silently dead (a half-open TCP connection): drop it and make a new one.
            if connection is not None:
                connection.terminate()
                self._on_listener_lost(connection)
        finally:
            self._arm_ping()

    def _background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _stop_listening(self) -> None:
        self._router = None
        if self._ping_timer is not None:
            self._ping_timer.cancel()
            self._ping_timer = None
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        connection, self._listening = self._listening, None
        if connection is not None:
            with contextlib.suppress(*DATABASE_ERRORS):
                await connection.close(timeout=1)

    async def publish(self, topic: str, payload: str) -> None:
        async with self.pool.acquire() as connection:
            await connection.execute(
                "SELECT pg_notify($1, $2)", SIGNAL_CHANNEL, f"{topic} {payload}"
            )

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTransaction]:
        async with self.pool.acquire() as connection:
            # asyncpg's transaction by hand rather than as a block, to time its COMMIT.
            transaction = connection.transaction()
            await transaction.start()
            try:
                yield PostgresTransaction(connection)
            except BaseException:
                await transaction.rollback()
                raise
            started = time.perf_counter()
            await transaction.commit()
            self.meter.committed("postgresql", time.perf_counter() - started, 1)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[PostgresTransaction]:
        # One snapshot for the block, as the SQLite backend's reads see one state: a
        # check that adds wallets and escrow must not see half of another's action.
        async with (
            self.pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresTransaction(connection)

    async def checkpoint(self) -> int:
        return 0

    async def integrity_check(self) -> str:
        async with self.reading() as tx:
            row = await tx.fetchone("SELECT 1")
        return "ok" if row is not None and row[0] == 1 else "no answer"

    async def probe_write(self) -> None:
        async with self.pool.acquire() as connection:
            transaction = connection.transaction()
            await transaction.start()
            try:
                await connection.execute("CREATE TABLE tanzaku_write_probe (x INTEGER)")
                await connection.execute("INSERT INTO tanzaku_write_probe VALUES (1)")
            finally:
                await transaction.rollback()

    async def schema_version(self) -> int:
        async with self.pool.acquire() as connection:
            return await _schema_version(connection)

    async def migrate(self) -> int:
        """Apply every migration newer than the recorded version, each in a transaction
        that first takes an advisory lock: processes starting together apply each
        migration once, the others wait and then skip it."""
        applied = 0
        async with self.pool.acquire() as connection:
            async with connection.transaction():
                # Under the lock too: two `CREATE TABLE IF NOT EXISTS` at the same moment
                # both pass the check, and the second fails on the catalogue's key.
                await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await connection.execute(
                    f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER NOT NULL)"
                )
            for number, name, sql in migrations("postgresql"):
                async with connection.transaction():
                    await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    if number <= await _schema_version(connection):
                        continue
                    # No parameters: asyncpg runs the file as one multi-statement script.
                    await connection.execute(sql)
                    await connection.execute(f"DELETE FROM {SCHEMA_TABLE}")
                    await connection.execute(
                        f"INSERT INTO {SCHEMA_TABLE} (version) VALUES ($1)", number
                    )
                log.info("applied migration %s", name)
                applied += 1
        return applied


async def _schema_version(connection: Connection) -> int:
    version = await connection.fetchval(f"SELECT MAX(version) FROM {SCHEMA_TABLE}")
    return int(version or 0)
