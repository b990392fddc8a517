"""`python -m bot` as an operator meets it: one clear line for a bad setup, `--check` that
migrates the database and exits."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run_bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {name: value for name, value in os.environ.items() if not name.startswith("TANZAKU_")}
    clean["PYTHONPATH"] = str(REPO)
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def one_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}:\n{stderr}"
    assert "Traceback" not in stderr
    return lines[0]


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    folder = tmp_path / "run"
    folder.mkdir()
    assert not (folder / ".env").exists()
    return folder


def test_no_token_is_one_clear_line(workdir: Path) -> None:
    result = run_bot(workdir)
    assert result.returncode != 0
    line = one_line(result.stderr)
    assert "TANZAKU_TOKEN" in line
    assert result.stdout == ""
    assert list(workdir.iterdir()) == []  # no database was created


def test_check_migrates_a_new_database_and_exits(workdir: Path, tmp_path: Path) -> None:
    database = tmp_path / "db" / "t.db"
    result = run_bot(
        workdir,
        "--check",
        TANZAKU_TOKEN="x",
        TANZAKU_DATABASE_PATH=str(database),
        TANZAKU_LOG_LEVEL="WARNING",
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert database.exists()
    migrations = [
        entry.name
        for entry in resources.files("bot.storage.migrations").iterdir()
        if entry.name.endswith(".sql")
    ]
    connection = sqlite3.connect(database)
    try:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == len(migrations)
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    finally:
        connection.close()
    assert {"guild_settings", "wallets", "game_tables", "ledger", "action_log"} <= tables
    # Running the check again on the migrated file is fine too.
    again = run_bot(workdir, "--check", TANZAKU_TOKEN="x", TANZAKU_DATABASE_PATH=str(database))
    assert again.returncode == 0, again.stderr


def test_token_from_dot_env_is_read(workdir: Path) -> None:
    (workdir / ".env").write_text(
        "TANZAKU_TOKEN=from-file\nTANZAKU_DATABASE_PATH=data/env.db\n", encoding="utf-8"
    )
    result = run_bot(workdir, "--check", TANZAKU_LOG_LEVEL="ERROR")
    assert result.returncode == 0, result.stderr
    assert (workdir / "data" / "env.db").exists()


@pytest.mark.parametrize(
    ("variable", "value"),
    [("TANZAKU_LOG_LEVEL", "LOUD"), ("TANZAKU_TURN_TIMEOUT_SECONDS", "1")],
)
def test_an_invalid_setting_is_one_line_naming_it(workdir: Path, variable: str, value: str) -> None:
    result = run_bot(workdir, "--check", TANZAKU_TOKEN="x", **{variable: value})
    assert result.returncode != 0
    line = one_line(result.stderr)
    assert variable in line
    assert "TANZAKU_TOKEN" not in line
    assert list(workdir.iterdir()) == []
