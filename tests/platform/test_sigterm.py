"""`docker stop` sends SIGTERM: the bot must finish the action in flight, close the database
and exit 0 (Docker kills it 10 s after the signal; how long the stop takes is measured by
benchmarks/sigterm_stop.py, not asserted here: a loaded machine would fail a timed test).

A child process (sigterm_child.py) runs the real bot on SimCord, through the same
`serve` and signal handling as `python -m bot`; the test signals it from outside.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.__main__ import STOPPED_CLEANLY

REPO = Path(__file__).resolve().parents[2]
STOP_GIVE_UP_SECONDS = 30
"""Not a goal (benchmarks/sigterm_stop.py has it): only how long a test waits for a hung
child before it fails."""


def start_child(path: Path, *flags: str) -> subprocess.Popen[str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith("TANZAKU_")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.Popen(
        [sys.executable, "-m", "tests.platform.sigterm_child", str(path), *flags],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_line(child: subprocess.Popen[str], expected: str) -> None:
    assert child.stdout is not None
    readable, _, _ = select.select([child.stdout], [], [], 60)
    line = child.stdout.readline() if readable else ""
    if line.strip() != expected:
        child.kill()
        _, stderr = child.communicate(timeout=10)
        raise AssertionError(f"expected {expected!r} from the child, got {line!r}\n{stderr}")


def stop(child: subprocess.Popen[str]) -> tuple[str, str]:
    """SIGTERM; returns (stdout, stderr) once the child exited."""
    child.send_signal(signal.SIGTERM)
    try:
        stdout, stderr = child.communicate(timeout=STOP_GIVE_UP_SECONDS)
    except subprocess.TimeoutExpired:
        child.kill()
        stdout, stderr = child.communicate(timeout=10)
        raise AssertionError(f"SIGTERM did not stop the bot at all\n{stderr}") from None
    return stdout, stderr


def assert_closed_cleanly(path: Path, stderr: str, returncode: int) -> None:
    assert returncode == 0, stderr
    assert STOPPED_CLEANLY in stderr, stderr
    assert "Traceback" not in stderr, stderr
    # The last connection closed cleanly: SQLite folded the WAL back and removed it.
    assert not Path(f"{path}-wal").exists()
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        connection.close()


def stakes(path: Path) -> dict[str, int]:
    connection = sqlite3.connect(path)
    try:
        row = connection.execute(
            "SELECT state_json FROM game_tables WHERE game = 'coinflip'"
        ).fetchone()
    finally:
        connection.close()
    assert row is not None and row[0] is not None
    found: dict[str, int] = json.loads(row[0])["stakes"]
    return found


def test_sigterm_stops_the_bot_and_closes_the_database(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    child = start_child(path)
    try:
        wait_for_line(child, "ready")
        stdout, stderr = stop(child)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate(timeout=10)
    assert_closed_cleanly(path, stderr, child.returncode)
    assert stdout.splitlines()[-1:] == ["exit"], stdout
    assert sorted(stakes(path).values()) == [10, 10]  # the live table is stored as it was


def test_sigterm_lets_the_click_in_flight_finish(tmp_path: Path) -> None:
    """The signal arrives while a click's action is under way (the child holds the action
    until the signal is in): the action is saved and the click answered before the exit."""
    path = tmp_path / "bot.db"
    child = start_child(path, "--in-flight")
    try:
        wait_for_line(child, "in-flight")
        stdout, stderr = stop(child)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate(timeout=10)
    assert_closed_cleanly(path, stderr, child.returncode)
    assert stdout.splitlines()[-2:] == ["click acknowledged=True", "exit"], stdout
    assert sorted(stakes(path).values()) == [10, 15]  # bob's "Raise 5" was saved
