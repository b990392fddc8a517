"""`python -m bot` as an operator meets it: one clear line for a bad setup, `--check` that
migrates the database, proves it can be written and exits (it is the Docker health check:
a database it cannot use must make it fail, with one line and without hanging)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run_bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m bot`; a hang fails the test (TimeoutExpired) instead of blocking it."""
    return run_bot_in((), cwd, *args, **env)


def run_bot_in(
    wrapper: tuple[str, ...], cwd: Path, *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """`run_bot` under a wrapper command (which execs the rest of its arguments)."""
    clean = {name: value for name, value in os.environ.items() if not name.startswith("TANZAKU_")}
    clean["PYTHONPATH"] = str(REPO)
    clean.update(env)
    return subprocess.run(
        [*wrapper, sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean,
        capture_output=True,
        text=True,
        timeout=30,
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
        if entry.name.endswith(".sql") and entry.name.count(".") == 1
    ]
    connection = sqlite3.connect(database)
    try:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == len(migrations)
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    finally:
        connection.close()
    assert {"guild_settings", "wallets", "game_tables", "ledger", "action_log"} <= tables
    # The write probe was rolled back: it left nothing behind.
    assert not any("probe" in name for name in tables)
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
    [
        ("TANZAKU_LOG_LEVEL", "LOUD"),
        ("TANZAKU_LOBBY_TIMEOUT_SECONDS", "1"),
        ("TANZAKU_DATABASE_SYNCHRONOUS", "SOMETIMES"),
        ("TANZAKU_SHARD_COUNT", "0"),
        ("TANZAKU_SHARD_IDS", "0,1"),  # without a shard count
        ("TANZAKU_SHARD_IDS", "two"),
    ],
)
def test_an_invalid_setting_is_one_line_naming_it(workdir: Path, variable: str, value: str) -> None:
    result = run_bot(workdir, "--check", TANZAKU_TOKEN="x", **{variable: value})
    assert result.returncode != 0
    line = one_line(result.stderr)
    assert variable in line
    assert "TANZAKU_TOKEN" not in line
    assert list(workdir.iterdir()) == []


@pytest.mark.parametrize(
    ("shards", "problem"),
    [("0,2", "from 0 to 1"), ("1,1", "distinct"), ("-1", "from 0 to 1"), (" , ", "names no")],
)
def test_shards_outside_the_count_are_refused_by_name(
    workdir: Path, shards: str, problem: str
) -> None:
    result = run_bot(
        workdir, "--check", TANZAKU_TOKEN="x", TANZAKU_SHARD_COUNT="2", TANZAKU_SHARD_IDS=shards
    )
    assert result.returncode != 0
    line = one_line(result.stderr)
    assert "TANZAKU_SHARD_IDS" in line and problem in line, line


def test_each_process_fires_on_time_only_the_deadlines_of_its_own_shards() -> None:
    from bot.config import Settings

    one_process = Settings(_env_file=None, token="x")
    two_of_four = Settings(_env_file=None, token="x", shard_count=4, shard_ids="1, 3")
    all_four = Settings(_env_file=None, token="x", shard_count=4)
    for shard in range(4):
        guild = (123 << 24 | shard) << 22  # Discord: shard = (guild_id >> 22) % count
        assert one_process.owns_guild(guild) and all_four.owns_guild(guild)
        assert two_of_four.owns_guild(guild) is (shard in (1, 3))


# -- `--check` on a database it cannot use --------------------------------------------------


def migrated_database(workdir: Path, path: Path) -> None:
    result = run_bot(workdir, "--check", TANZAKU_TOKEN="x", TANZAKU_DATABASE_PATH=str(path))
    assert result.returncode == 0, result.stderr


def check_fails_with_one_line(workdir: Path, path: Path, *wrapper: str) -> str:
    result = run_bot_in(
        wrapper,
        workdir,
        "--check",
        TANZAKU_TOKEN="x",
        TANZAKU_DATABASE_PATH=str(path),
        TANZAKU_LOG_LEVEL="WARNING",
    )
    assert result.returncode not in (0, None), result.stderr
    line = one_line(result.stderr)
    assert line.startswith("tanzaku: database") and str(path) in line, line
    return line


def test_check_on_a_corrupt_file_is_one_line_and_does_not_hang(
    workdir: Path, tmp_path: Path
) -> None:
    database = tmp_path / "corrupt.db"
    database.write_bytes(b"this is not an SQLite database, only bytes " * 200)
    line = check_fails_with_one_line(workdir, database)
    assert "not a database" in line


def test_check_on_a_damaged_page_fails(workdir: Path, tmp_path: Path) -> None:
    """A valid header over garbage pages opens fine: the integrity check must catch it."""
    database = tmp_path / "damaged.db"
    migrated_database(workdir, database)
    data = bytearray(database.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    assert len(data) > 2 * page_size
    data[page_size:] = bytes([0xA5]) * (len(data) - page_size)  # every page after the first
    database.write_bytes(bytes(data))
    check_fails_with_one_line(workdir, database)


def test_check_where_a_directory_stands_for_the_file_fails(workdir: Path, tmp_path: Path) -> None:
    """Unwritable in a way that holds even for root (the tests run as root in CI's
    container, where file modes do not stop a write): the path is a directory."""
    database = tmp_path / "is-a-directory.db"
    database.mkdir()
    check_fails_with_one_line(workdir, database)


def _read_only_file_wrapper(path: Path) -> tuple[str, ...]:
    """How to make `path` read-only for the child: its mode for an ordinary user; for root,
    whom modes do not stop, a read-only bind mount of the file in a private mount
    namespace (`unshare`), which refuses every write with EROFS. The file is then opened
    read-only by SQLite without complaint, which is exactly what `--check` used to pass."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return ()
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("running as root without `unshare`: no way to make a file read-only")
    wrapper = (
        unshare,
        "--map-root-user",
        "--mount",
        "sh",
        "-c",
        'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"',
        str(path),
    )
    probe = subprocess.run(
        [*wrapper, "true"], capture_output=True, text=True, timeout=30, check=False
    )
    if probe.returncode != 0:
        pytest.skip(f"running as root and a read-only bind mount is not allowed: {probe.stderr}")
    return wrapper


def test_check_on_a_read_only_file_fails(workdir: Path, tmp_path: Path) -> None:
    database = tmp_path / "read-only.db"
    migrated_database(workdir, database)
    wrapper = _read_only_file_wrapper(database)
    try:
        line = check_fails_with_one_line(workdir, database, *wrapper)
    finally:
        database.chmod(0o644)
    assert "readonly" in line or "read-only" in line, line


async def test_running_on_a_corrupt_database_is_one_clear_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`python -m bot` (not --check): the database opens in setup_hook, during the log-in;
    a corrupt file must end the run as a DatabaseProblem (one line, exit 1), and must not
    leave the database's thread behind. The log-in is faked: no network here."""
    import discord

    from bot import __main__ as cli
    from bot.config import Settings

    async def login_without_discord(self: discord.Client, token: str) -> None:
        await self.setup_hook()  # what the real log-in runs once Discord has answered

    monkeypatch.setattr(discord.Client, "login", login_without_discord)
    database = tmp_path / "corrupt.db"
    database.write_bytes(b"not a database at all " * 100)
    settings = Settings(_env_file=None, token="x", database_path=database)
    with pytest.raises(cli.DatabaseProblem, match="not a database"):
        await cli._run(settings)


async def test_running_against_a_postgres_server_that_refuses_is_one_clear_problem(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A refused connection is an OSError without a file name, like a network failure
    on the way to Discord: the bot tells them apart by where it happened (opening the
    database), not by its type, so the operator gets one line and exit 1."""
    import discord

    from bot import __main__ as cli
    from bot.config import Settings

    async def login_without_discord(self: discord.Client, token: str) -> None:
        await self.setup_hook()

    monkeypatch.setattr(discord.Client, "login", login_without_discord)
    # Port 1 on the loopback: nothing listens there, the connection is refused at once.
    settings = Settings(
        _env_file=None, token="x", database_url="postgresql://tanzaku@127.0.0.1:1/tanzaku"
    )
    with pytest.raises(cli.DatabaseProblem, match=r"(?i)refused|connect"):
        await cli._run(settings)


async def test_a_network_failure_before_the_database_opens_keeps_its_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import discord

    from bot import __main__ as cli
    from bot.config import Settings

    async def login_that_cannot_reach_discord(self: discord.Client, token: str) -> None:
        raise ConnectionRefusedError(111, "Connect call failed ('162.159.135.232', 443)")

    monkeypatch.setattr(discord.Client, "login", login_that_cannot_reach_discord)
    settings = Settings(_env_file=None, token="x", database_path=tmp_path / "fine.db")
    with pytest.raises(ConnectionRefusedError):
        await cli._run(settings)


def test_the_example_env_file_copied_as_is_says_what_to_set(workdir: Path) -> None:
    """`cp .env.example .env` then `python -m bot`: its empty `TANZAKU_TOKEN=` is "not
    set" (one line naming it), not an empty token that fails later with a traceback."""
    shutil.copy(REPO / ".env.example", workdir / ".env")
    result = run_bot(workdir)
    assert result.returncode == 2
    assert "TANZAKU_TOKEN" in one_line(result.stderr)


def test_a_blank_token_is_not_a_token(workdir: Path) -> None:
    result = run_bot(workdir, TANZAKU_TOKEN="   ")
    assert result.returncode == 2
    assert "TANZAKU_TOKEN" in one_line(result.stderr)


def test_the_example_env_file_decides_nothing_the_defaults_or_the_image_decide() -> None:
    """Every line of .env.example but the token is a comment: a value set there would
    override the Docker image's (TANZAKU_DATABASE_PATH=/data/…) when run with --env-file."""
    lines = (REPO / ".env.example").read_text(encoding="utf-8").splitlines()
    settings = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    assert settings == ["TANZAKU_TOKEN="]


def test_an_empty_setting_keeps_the_default(workdir: Path) -> None:
    """An empty value is "not set": the default (or the image's value) stands."""
    (workdir / ".env").write_text("TANZAKU_TOKEN=x\nTANZAKU_LOG_LEVEL=\n", encoding="utf-8")
    (workdir / "data").mkdir()
    result = run_bot(workdir, "--check", TANZAKU_DATABASE_PATH="")
    assert result.returncode == 0, result.stderr
    assert (workdir / "data" / "tanzaku.db").exists()  # the default path, not ""


def test_check_needs_no_token(workdir: Path, tmp_path: Path) -> None:
    """--check never contacts Discord: it checks the settings and the database without a
    token, and says that the bot itself will need one."""
    database = tmp_path / "db" / "t.db"
    result = run_bot(workdir, "--check", TANZAKU_DATABASE_PATH=str(database))
    assert result.returncode == 0, result.stderr
    assert database.exists()
    assert "TANZAKU_TOKEN" in result.stderr and "Traceback" not in result.stderr


def test_check_without_a_token_still_fails_on_a_bad_setting(workdir: Path) -> None:
    result = run_bot(workdir, "--check", TANZAKU_LOG_LEVEL="LOUD")
    assert result.returncode == 2
    assert "TANZAKU_LOG_LEVEL" in one_line(result.stderr)


async def test_sync_publishes_the_commands_and_exits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--sync` logs in, publishes the commands once and closes the bot: it never connects
    to the gateway (the bot is started again without --sync). The log-in is faked."""
    import discord
    from discord import app_commands

    from bot import __main__ as cli
    from bot.config import Settings

    published: list[object] = []
    bots: list[discord.Client] = []

    async def login_without_discord(self: discord.Client, token: str) -> None:
        bots.append(self)
        await self.setup_hook()

    async def sync(
        self: app_commands.CommandTree[discord.Client], **kwargs: object
    ) -> list[object]:
        published.append(kwargs.get("guild"))
        return []

    async def never_connect(self: discord.Client, **kwargs: object) -> None:
        raise AssertionError("--sync connected to the gateway")

    monkeypatch.setattr(discord.Client, "login", login_without_discord)
    monkeypatch.setattr(discord.Client, "connect", never_connect)
    monkeypatch.setattr(app_commands.CommandTree, "sync", sync)
    settings = Settings(_env_file=None, token="x", database_path=tmp_path / "t.db")
    await cli._publish(settings)
    assert published == [None]  # once, globally
    assert len(bots) == 1 and bots[0].is_closed()


def _bot_writing_without_checkpoint(path: Path, rows: int) -> sqlite3.Connection:
    """A connection as the running bot holds it: WAL, no automatic checkpoint, so the
    rows just committed are still only in the -wal file."""
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    for guild in range(rows):
        writer.execute("INSERT INTO guild_settings (guild_id) VALUES (?)", (guild + 1,))
    return writer


def _guilds_in(path: Path) -> int:
    reader = sqlite3.connect(path)
    try:
        return int(reader.execute("SELECT count(*) FROM guild_settings").fetchone()[0])
    finally:
        reader.close()


def test_backup_while_the_bot_runs_holds_what_a_file_copy_misses(
    workdir: Path, tmp_path: Path
) -> None:
    database = tmp_path / "live.db"
    migrated_database(workdir, database)
    writer = _bot_writing_without_checkpoint(database, rows=25)
    try:
        plain_copy = tmp_path / "copied.db"
        shutil.copyfile(database, plain_copy)
        assert _guilds_in(plain_copy) == 0  # what the README warns of

        target = tmp_path / "backup.db"
        result = run_bot(workdir, "--backup", str(target), TANZAKU_DATABASE_PATH=str(database))
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert _guilds_in(target) == 25
        assert not Path(f"{target}-wal").exists()
        assert [entry.name for entry in tmp_path.iterdir() if "partial" in entry.name] == []
    finally:
        writer.close()


def test_backup_never_overwrites_and_says_why_in_one_line(workdir: Path, tmp_path: Path) -> None:
    database = tmp_path / "live.db"
    migrated_database(workdir, database)
    target = tmp_path / "backup.db"
    target.write_bytes(b"an older backup")
    result = run_bot(workdir, "--backup", str(target), TANZAKU_DATABASE_PATH=str(database))
    assert result.returncode == 1
    assert "exists already" in one_line(result.stderr)
    assert target.read_bytes() == b"an older backup"


def test_backup_of_a_missing_database_creates_nothing(workdir: Path, tmp_path: Path) -> None:
    database = tmp_path / "nowhere.db"
    target = tmp_path / "backup.db"
    result = run_bot(workdir, "--backup", str(target), TANZAKU_DATABASE_PATH=str(database))
    assert result.returncode == 1
    assert "no database file" in one_line(result.stderr)
    assert not database.exists()
    assert not target.exists()


def test_backup_of_postgres_points_to_pg_dump(workdir: Path, tmp_path: Path) -> None:
    result = run_bot(
        workdir,
        "--backup",
        str(tmp_path / "backup.db"),
        TANZAKU_DATABASE_URL="postgresql://tanzaku@127.0.0.1:1/tanzaku",
    )
    assert result.returncode == 1
    assert "pg_dump" in one_line(result.stderr)
