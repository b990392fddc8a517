"""Kill -9 in the middle of play: every committed action is whole, every other one absent.

A worker process (crash_worker.py) applies table actions and economy moves to one database
file in a tight loop; the test SIGKILLs it at random moments, several times, re-opening
the database after each kill as the bot would on restart and checking the books.

For each real game (Hazard, Nihakyu, Strength Duel) the kills are placed, not random: a
forked worker carries the table on from where the last one died and freezes at a chosen
step, while saving it or just after (before its message is posted), and is SIGKILLed
there; the books must balance, the step must be whole or absent, and the next worker must
carry the table on, to its end.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.service import Actor
from bot.storage import SqliteDatabase
from bot.storage import table_queries as tq
from tests.platform import crash_worker
from tests.platform._helpers import (
    DirectReader,
    FakeClock,
    check_platform_invariants,
    coinflip_registry,
    fingerprint,
    open_services,
    run_now,
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
    db = SqliteDatabase(path)
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
            await services.tables.cancel(table_id, Actor(0, True))
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


# -- the real games: a kill at every kind of step, each one placed ------------------------

EVERY_STEP_UP_TO = 6
"""Both kills at each of the first steps (open, join, start and the first moves)…"""
THEN_EVERY = 3
"""…then at every third step, so the later moves (throws, reveals, the settlement) too."""
MOST_KILLED_STEPS = 11
LAST_STEP = 60
"""A table still live after this many more steps is ended by a moderator (the Abort path;
Hazard's tables, which the driver never closes, end so)."""


def run_real_worker(
    path: Path, game: str, free_steps: int, phase: str | None, seed: int, *, last: bool = False
) -> tuple[Any, ...]:
    """Fork a worker (modules already imported: a run costs milliseconds, not a second of
    start-up); SIGKILL it if it froze. Returns its report: ("frozen", phase, what the
    database held before the step), ("ended",) or ("done",)."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    worker = context.Process(
        target=crash_worker.real_game_process,
        args=(str(path), game, free_steps, phase, last, seed, sender),
        daemon=True,
    )
    worker.start()
    sender.close()
    try:
        if not receiver.poll(60):
            raise AssertionError(f"{game}: the worker went silent")
        try:
            report: tuple[Any, ...] = receiver.recv()
        except EOFError:
            raise AssertionError(f"{game}: the worker died without a word") from None
        if report[0] == "error":
            raise AssertionError(f"{game}: the worker failed:\n{report[1]}")
        if report[0] == "frozen":
            os.kill(worker.pid or 0, signal.SIGKILL)
            worker.join(10)
            assert worker.exitcode == -signal.SIGKILL
        else:
            worker.join(30)
            assert worker.exitcode == 0, (game, report)
    finally:
        if worker.is_alive():
            worker.kill()
            worker.join(10)
        receiver.close()
    return report


def check_real_books(path: Path) -> dict[str, Any]:
    """What a restarted bot finds: an intact file, balanced books, and for every live table
    the deadline its game is waiting on (what `rearm` loads). Returns the fingerprint."""
    registry = crash_worker.real_registry()
    reader = DirectReader(path)  # a plain connection: recovers the WAL like the bot's would
    try:
        integrity = run_now(reader.fetchone("PRAGMA integrity_check"))
        assert integrity is not None and integrity[0] == "ok"
        run_now(check_platform_invariants(reader, registry))
        rows = run_now(reader.fetchall("SELECT id FROM game_tables WHERE status = 'running'"))
        for (table_id,) in rows:
            table = run_now(
                reader.fetchone(
                    f"SELECT {tq._TABLE_COLUMNS} FROM game_tables WHERE id = ?", (table_id,)
                )
            )
            row = tq.TableRow(*table)
            spec = registry.get(row.game)
            state = spec.engine.state_model.model_validate_json(row.state_json or "")
            deadline = run_now(
                reader.fetchone("SELECT ply FROM deadlines WHERE table_id = ?", (table_id,))
            )
            waits = spec.engine.deadline_seconds(state) is not None
            assert (deadline is not None) == waits, (row.game, row.version, deadline)
        return run_now(fingerprint(reader))
    finally:
        reader.close()


def killed_steps() -> list[int]:
    steps = list(range(EVERY_STEP_UP_TO))
    while len(steps) < MOST_KILLED_STEPS:
        steps.append(steps[-1] + THEN_EVERY)
    return steps


def live_tables_of(path: Path, game: str) -> int:
    reader = DirectReader(path)
    try:
        row = run_now(
            reader.fetchone(
                "SELECT COUNT(*) FROM game_tables"
                " WHERE game = ? AND status IN ('lobby', 'running')",
                (game,),
            )
        )
    finally:
        reader.close()
    assert row is not None
    return int(row[0])


def check_kill(path: Path, game: str, phase: str, before: dict[str, Any]) -> None:
    after = check_real_books(path)
    if phase == "before-commit":
        assert after == before, f"{game}: a step killed while it was being saved left a trace"
    else:
        assert after != before, f"{game}: a step killed after it was saved was lost"


@pytest.mark.parametrize("game", ["hazard", "nihakyu", "strength_duel"])
def test_sigkill_at_every_step_of_a_real_game(tmp_path: Path, game: str) -> None:
    path = tmp_path / f"{game}.db"
    asyncio.run(crash_worker.fund_real_players(path))
    seed = sum(map(ord, game))
    done = 0  # steps committed so far
    kills = 0
    for step in killed_steps():
        free = step - done  # carried on unarmed before the armed step
        report = run_real_worker(path, game, free, "before-commit", seed + kills)
        if report[0] == "ended":
            break
        assert report[:2] == ("frozen", "before-commit"), report[:2]
        check_kill(path, game, "before-commit", report[2])
        done, kills = step, kills + 1
        # The same step again, killed once it is saved.
        report = run_real_worker(path, game, 0, "after-commit", seed + kills)
        assert report[:2] == ("frozen", "after-commit"), report[:2]
        check_kill(path, game, "after-commit", report[2])
        done, kills = step + 1, kills + 1
    assert kills >= 2 * EVERY_STEP_UP_TO, f"{game}: the table ended after {done} steps"
    # The step that ends the table (the settlement, or else a moderator's abort), killed
    # while it is saved and then once it is saved.
    if live_tables_of(path, game):
        report = run_real_worker(path, game, LAST_STEP, "before-commit", seed + kills, last=True)
        assert report[:2] == ("frozen", "before-commit"), report[:2]
        check_kill(path, game, "before-commit", report[2])
        assert live_tables_of(path, game) == 1
        report = run_real_worker(path, game, LAST_STEP, "after-commit", seed + kills + 1, last=True)
        assert report[:2] == ("frozen", "after-commit"), report[:2]
        check_kill(path, game, "after-commit", report[2])
        assert live_tables_of(path, game) == 0
    asyncio.run(end_real_table(path, game))


async def end_real_table(path: Path, game: str) -> None:
    """After the crashes the table has ended (a moderator ends it if not): nothing is held
    for it any more and the books balance."""
    services = await open_services(path, registry=crash_worker.real_registry())
    try:
        async with services.db.reading() as tx:
            live = await tq.live_table_ids(tx)
        for table_id in live:
            await services.tables.cancel(table_id, Actor(crash_worker.MODERATOR, True))
        async with services.db.reading() as tx:
            escrow = await tx.fetchone("SELECT COALESCE(SUM(escrow), 0) FROM game_tables")
            statuses = await tx.fetchall("SELECT status FROM game_tables WHERE game = ?", (game,))
        assert escrow is not None and escrow[0] == 0
        assert [row[0] for row in statuses] == ["finished"] or [row[0] for row in statuses] == [
            "cancelled"
        ], statuses
        await check_platform_invariants(services.db, services.registry)
    finally:
        await services.tables.scheduler.stop()
        await services.db.close()
