"""Kill -9 in the middle of play: every committed action is whole, every other one absent.

A worker process (crash_worker.py) applies table actions and economy moves to one database
file in a tight loop; the test SIGKILLs it at random moments, several times, re-opening
the database after each kill as the bot would on restart and checking the books.
"""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.storage import Database
from bot.storage import tables as tq
from tests.platform._helpers import (
    FakeClock,
    check_platform_invariants,
    coinflip_registry,
    open_services,
)

REPO = Path(__file__).resolve().parents[2]
KILLS = 5


def start_worker(path: Path, run: int) -> subprocess.Popen[str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith("TANZAKU_")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.Popen(
        [sys.executable, "-m", "tests.platform.crash_worker", str(path), str(run)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_until_ready(worker: subprocess.Popen[str]) -> None:
    assert worker.stdout is not None
    readable, _, _ = select.select([worker.stdout], [], [], 30)
    line = worker.stdout.readline() if readable else ""
    if line.strip() != "ready":
        worker.kill()
        _, stderr = worker.communicate(timeout=10)
        raise AssertionError(f"the worker did not start: {line!r}\n{stderr}")


async def check_after_restart(path: Path) -> tuple[int, int]:
    """Re-open as the bot would, check everything; returns (tables, ledger rows)."""
    db = Database(path)
    await db.open()
    try:
        async with db.reading() as tx:
            integrity = await tx.fetchone("PRAGMA integrity_check")
            assert integrity is not None and integrity[0] == "ok"
            tables = await tx.fetchone("SELECT COUNT(*) FROM game_tables")
            ledger = await tx.fetchone("SELECT COUNT(*) FROM ledger")
        await check_platform_invariants(db, coinflip_registry())
    finally:
        await db.close()
    assert tables is not None and ledger is not None
    return int(tables[0]), int(ledger[0])


async def cancel_everything(path: Path) -> None:
    """After the crashes the bot must still be able to end every live table, refunding it."""
    services = await open_services(path, clock=FakeClock(4_000_000_000.0))
    try:
        async with services.db.reading() as tx:
            live = await tq.live_table_ids(tx)
        for table_id in live:
            await services.tables.cancel(table_id, 0, moderator=True)
        async with services.db.reading() as tx:
            escrow = await tx.fetchone("SELECT COALESCE(SUM(escrow), 0) FROM game_tables")
            left = await tq.live_table_ids(tx)
        assert escrow is not None and escrow[0] == 0
        assert left == []
        await check_platform_invariants(services.db, services.registry)
    finally:
        await services.db.close()


def test_sigkill_at_random_points_never_leaves_half_an_action(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    rng = random.Random()
    delays = [round(rng.uniform(0.05, 0.6), 3) for _ in range(KILLS)]
    ledger_rows = 0
    for run, delay in enumerate(delays):
        worker = start_worker(path, run)
        try:
            wait_until_ready(worker)
            time.sleep(delay)
            if worker.poll() is not None:
                _, stderr = worker.communicate(timeout=10)
                raise AssertionError(f"the worker stopped by itself (run {run}):\n{stderr}")
            worker.send_signal(signal.SIGKILL)
            worker.communicate(timeout=10)
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.communicate(timeout=10)
        assert worker.returncode == -signal.SIGKILL
        _, ledger_rows = asyncio.run(check_after_restart(path))
    # The workers did real work (a weak bound: at least the first welcome mints and floats).
    assert ledger_rows > 0, f"no money ever moved; kill delays {delays}"
    asyncio.run(cancel_everything(path))
