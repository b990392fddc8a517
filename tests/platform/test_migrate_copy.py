"""`python -m bot --migrate-sqlite-to URL`: a server's SQLite data, made by the real
services (wallets, dailies, gifts, Strength Duel tables finished, running, in the lobby and
cancelled, deadlines, notices, panels, stats, ratings, the ledger and the action log), copied
into a fresh PostgreSQL database, which the services then carry on with: the same balances and
rows, the live table still playable, ids continuing, the books balanced. Every refusal
writes nothing, and a copy that does not verify is rolled back."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.games import strength_duel
from bot.games.registry import GameRegistry, GameSpec
from bot.service import Actor
from bot.storage import copy as storage_copy
from bot.storage import panels as pq
from bot.storage import sqlite_url
from bot.storage.base import migrations
from bot.storage.copy import CopyMismatch, CopyRefused, copy_sqlite_to_postgres
from tests.platform._helpers import (
    Services,
    check_platform_invariants,
    fingerprint,
    open_services,
    wallet_balances,
)
from tests.platform.test_cli import run_bot
from tests.support.gifts import gifts_unheld
from tests.support.postgres import PostgresTestServer

# Real snowflakes are ~2^60, beyond a float's 2^53: a copy that went through a float
# would round them.
SNOWFLAKE = 1_234_567_890_123_456_789
GUILD, OTHER_GUILD = SNOWFLAKE, 42
ALICE, BOB, CAROL = SNOWFLAKE + 1, SNOWFLAKE + 2, SNOWFLAKE + 3
CHANNELS = [SNOWFLAKE + 100 + n for n in range(6)]
DUEL = "strength_duel"


def registry() -> GameRegistry:
    games = GameRegistry()
    games.add(GameSpec(strength_duel.ENGINE, "Strength Duel", ranking=strength_duel.ranking))
    return games


async def open_duel(s: Services, channel: int, host: int, **rules: Any) -> int:
    outcome = await s.tables.open(
        guild_id=GUILD,
        channel_id=channel,
        game=DUEL,
        host_id=host,
        rules=strength_duel.Rules(stake=20, **rules),
    )
    table_id = int(outcome.snapshot.id)
    await s.tables.set_message(table_id, SNOWFLAKE + 900 + table_id)
    return table_id


async def fill(path: Path) -> dict[str, int]:
    """A SQLite file made the way the bot makes it; returns the ids the test looks at."""
    s = await open_services(path, registry=registry(), house_float=100_000)
    try:
        for user in (ALICE, BOB, CAROL):
            await s.economy.balance(GUILD, user)
        await s.economy.balance(OTHER_GUILD, ALICE)
        await s.economy.daily(GUILD, ALICE)
        await gifts_unheld(s.economy, GUILD)  # settings of its own, and a gift of free coins
        await s.economy.give(GUILD, ALICE, BOB, 55)

        # A finished duel: Alice outbids Bob every round until he is out.
        finished = await open_duel(s, CHANNELS[0], ALICE)
        await s.tables.join(finished, Actor(BOB))
        await s.tables.start(finished, Actor(ALICE))
        for _ in range(20):
            if (await s.tables.snapshot(finished)).row.status != "running":
                break
            await s.tables.act(finished, Actor(ALICE), strength_duel.Bid(amount=2))
            await s.tables.act(finished, Actor(BOB), strength_duel.Bid(amount=1))
        assert (await s.tables.snapshot(finished)).row.status == "finished"

        # A running duel, a round half bid (Alice's bid is in, secret), with its deadline.
        running = await open_duel(s, CHANNELS[1], ALICE)
        await s.tables.join(running, Actor(CAROL))
        await s.tables.start(running, Actor(ALICE))
        await s.tables.act(running, Actor(ALICE), strength_duel.Bid(amount=4))
        await s.tables.put_notice(CAROL, running, "Your turn to bid.")

        lobby = await open_duel(s, CHANNELS[2], CAROL)
        cancelled = await open_duel(s, CHANNELS[3], BOB)
        await s.tables.cancel(cancelled, Actor(BOB))

        async with s.db.transaction() as tx:
            await pq.set_panel(tx, running, ALICE, SNOWFLAKE + 7, SNOWFLAKE + 8)
            await pq.mark_closed(tx, running, CAROL)
        await check_platform_invariants(s.db, s.registry)
    finally:
        await s.tables.scheduler.stop()
        await s.db.close()
    return {"finished": finished, "running": running, "lobby": lobby, "cancelled": cancelled}


def sqlite_sql(path: Path, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        return [tuple(row) for row in connection.execute(sql, parameters).fetchall()]
    finally:
        connection.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def pg_tables(dsn: str) -> dict[str, int]:
    """Every table of the PostgreSQL database with its row count (none: nothing made)."""
    connection = await asyncpg.connect(dsn)
    try:
        names = [
            str(row[0])
            for row in await connection.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema() ORDER BY table_name"
            )
        ]
        return {
            name: int(await connection.fetchval(f'SELECT COUNT(*) FROM "{name}"')) for name in names
        }
    finally:
        await connection.close()


@pytest.fixture
async def source(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    path = tmp_path / "tanzaku.db"
    ids = await fill(path)
    return path, ids


# -- the copy -----------------------------------------------------------------------------


async def test_the_copy_carries_every_row_and_the_bot_carries_on(
    source: tuple[Path, dict[str, int]], postgres_dsn: str
) -> None:
    path, ids = source
    # SQLite handed out ledger ids that no row holds any more (rows deleted): PostgreSQL
    # must not hand them out again.
    (last_ledger,) = sqlite_sql(path, "SELECT MAX(id) FROM ledger")[0]
    sqlite_sql(
        path, "UPDATE sqlite_sequence SET seq = ? WHERE name = 'ledger'", (last_ledger + 10,)
    )
    sqlite_side = await open_services(path, registry=registry())
    try:
        before = await fingerprint(sqlite_side.db)
        ratings_before = await rating_rows(sqlite_side)
        balances = await wallet_balances(sqlite_side.db, GUILD)
        panels_before = await pq_rows(sqlite_side)
    finally:
        await sqlite_side.db.close()
    before_file = digest(path)

    report = await copy_sqlite_to_postgres(path, postgres_dsn)

    assert digest(path) == before_file, "the source was written"
    assert report.guilds == 2
    assert report.rows["game_tables"] == 4 and report.rows["guild_settings"] == 2
    assert set(report.rows) >= {"wallets", "ledger", "action_log", "deadlines", "private_notices"}
    # The running table and the lobby (its timeout) have deadlines.
    # Foreign keys. order: a table comes after the tables it points to.
    order = list(report.rows)
    assert order.index("guild_settings") < order.index("game_tables") < order.index("deadlines")
    counts = await pg_tables(postgres_dsn)
    assert {t: counts[t] for t in report.rows} == report.rows
    assert report.rows["deadlines"] == 2 and report.rows["private_notices"] == 1
    assert report.rows["ratings"] == 2, "the finished duel rated both players"

    s = await open_services(postgres_dsn, registry=registry(), house_float=100_000)
    try:
        # Every row equal, value for value: 64-bit ids, float times, JSON text.
        assert await fingerprint(s.db) == before
        assert await pq_rows(s) == panels_before
        assert await rating_rows(s) == ratings_before
        assert await wallet_balances(s.db, GUILD) == balances
        assert (await s.economy.balance(GUILD, BOB)).balance == balances[BOB]
        await check_platform_invariants(s.db, s.registry)
        await s.tables.rearm()
        assert await s.tables.take_notice(CAROL, ids["running"]) == "Your turn to bid."

        # The live table plays on: Carol's bid closes the round Alice had bid in.
        running = await s.tables.snapshot(ids["running"])
        assert running.row.status == "running" and running.deadline is not None
        await s.tables.act(ids["running"], Actor(CAROL), strength_duel.Bid(amount=1))
        after = await s.tables.snapshot(ids["running"])
        assert after.row.version == running.row.version + 1
        assert after.state is not None and running.state is not None
        assert after.state.strength[CAROL] < running.state.strength[CAROL], "the round resolved"

        # The lobby fills and starts; a new table and new ledger rows get fresh ids.
        await s.tables.join(ids["lobby"], Actor(BOB))
        await s.tables.start(ids["lobby"], Actor(CAROL))
        fresh = await open_duel(s, CHANNELS[4], BOB)
        assert fresh == max(ids.values()) + 1
        await s.economy.daily(GUILD, CAROL)
        async with s.db.reading() as tx:
            ledger_ids = [int(r[0]) for r in await tx.fetchall("SELECT id FROM ledger ORDER BY id")]
        assert ledger_ids[-1] > last_ledger + 10
        assert len(ledger_ids) == len(set(ledger_ids))
        await check_platform_invariants(s.db, s.registry)
    finally:
        await s.tables.scheduler.stop()
        await s.db.close()


async def rating_rows(s: Services) -> list[tuple[Any, ...]]:
    async with s.db.reading() as tx:
        rows = await tx.fetchall("SELECT * FROM ratings ORDER BY guild_id, game, user_id")
    return [tuple(row) for row in rows]


async def pq_rows(s: Services) -> list[tuple[Any, ...]]:
    async with s.db.reading() as tx:
        rows = await tx.fetchall(
            "SELECT table_id, user_id, channel_id, message_id, dm_closed FROM private_panels"
            " ORDER BY table_id, user_id"
        )
    return [tuple(row) for row in rows]


# -- refusals: each writes nothing ----------------------------------------------------------


async def test_a_target_holding_data_is_refused_and_left_as_it_was(
    source: tuple[Path, dict[str, int]], postgres_dsn: str
) -> None:
    path, _ = source
    # A bot already ran on the target: one server, one wallet.
    s = await open_services(postgres_dsn, registry=registry())
    try:
        await s.economy.balance(OTHER_GUILD, CAROL)
        before = await fingerprint(s.db)
    finally:
        await s.db.close()
    with pytest.raises(CopyRefused, match=r"already holds data .*guild_settings"):
        await copy_sqlite_to_postgres(path, postgres_dsn)
    s = await open_services(postgres_dsn, registry=registry())
    try:
        assert await fingerprint(s.db) == before
    finally:
        await s.db.close()


async def test_copying_twice_is_refused_the_second_time(
    source: tuple[Path, dict[str, int]], postgres_dsn: str
) -> None:
    path, _ = source
    first = await copy_sqlite_to_postgres(path, postgres_dsn)
    counts = await pg_tables(postgres_dsn)
    with pytest.raises(CopyRefused, match="already holds data"):
        await copy_sqlite_to_postgres(path, postgres_dsn)
    assert await pg_tables(postgres_dsn) == counts
    assert counts["ledger"] == first.rows["ledger"], "nothing doubled"


@pytest.mark.parametrize(("shift", "advice"), [(-1, "run the bot"), (1, "newer")])
async def test_a_source_at_another_schema_version_is_refused_untouched(
    source: tuple[Path, dict[str, int]], postgres_dsn: str, shift: int, advice: str
) -> None:
    path, _ = source
    version = len(migrations("sqlite")) + shift
    sqlite_sql(path, f"PRAGMA user_version = {version}")
    before = digest(path)
    with pytest.raises(CopyRefused, match=f"schema version {version}.*{advice}"):
        await copy_sqlite_to_postgres(path, postgres_dsn)
    assert digest(path) == before
    assert await pg_tables(postgres_dsn) == {}, "the target was not even opened"


async def test_a_missing_source_is_refused_and_not_created(
    tmp_path: Path, postgres_dsn: str
) -> None:
    missing = tmp_path / "nothing.db"
    with pytest.raises(CopyRefused, match="does not exist"):
        await copy_sqlite_to_postgres(missing, postgres_dsn)
    assert not missing.exists()
    assert await pg_tables(postgres_dsn) == {}


async def test_a_target_that_is_not_postgresql_is_refused(
    source: tuple[Path, dict[str, int]], tmp_path: Path
) -> None:
    path, _ = source
    other = tmp_path / "other.db"
    for url in (sqlite_url(other), "mysql://db/tanzaku"):
        with pytest.raises(CopyRefused, match=r"postgresql|scheme"):
            await copy_sqlite_to_postgres(path, url)
    assert not other.exists()


async def test_unbalanced_source_books_are_refused_before_anything_is_written(
    source: tuple[Path, dict[str, int]], postgres_dsn: str
) -> None:
    path, _ = source
    sqlite_sql(path, "UPDATE wallets SET balance = balance + 1 WHERE user_id = ?", (BOB,))
    with pytest.raises(CopyRefused, match=f"do not balance.*server {GUILD}"):
        await copy_sqlite_to_postgres(path, postgres_dsn)
    assert await pg_tables(postgres_dsn) == {}


@pytest.mark.parametrize(
    ("pg_type", "lossy", "problem"),
    [
        # Discord ids through a float (what a careless copy does) lose their last digits:
        # two players' stats then collide on the key, or the digests differ.
        ("bigint", lambda value: int(float(value)), "rolled back"),
        # Times moved by a millisecond break no constraint: only the digests see it.
        ("double precision", lambda value: float(value) + 0.001, "rows differ.*rolled back"),
    ],
)
async def test_a_copy_that_changes_a_value_is_rolled_back(
    source: tuple[Path, dict[str, int]],
    postgres_dsn: str,
    monkeypatch: pytest.MonkeyPatch,
    pg_type: str,
    lossy: Any,
    problem: str,
) -> None:
    path, _ = source
    monkeypatch.setitem(storage_copy._CONVERTERS, pg_type, lossy)
    with pytest.raises(CopyMismatch, match=problem):
        await copy_sqlite_to_postgres(path, postgres_dsn)
    counts = await pg_tables(postgres_dsn)
    assert counts, "the target was migrated"
    assert {t: n for t, n in counts.items() if n and t != "tanzaku_schema"} == {}


async def test_a_value_the_target_type_cannot_hold_is_refused_by_name(
    source: tuple[Path, dict[str, int]], postgres_dsn: str
) -> None:
    path, ids = source
    # SQLite keeps whatever it is given; a half coin cannot become a BIGINT.
    sqlite_sql(path, "UPDATE game_tables SET house_net = 0.5 WHERE id = ?", (ids["finished"],))
    with pytest.raises(CopyRefused, match=r"game_tables\.house_net: 0\.5 is not a whole"):
        await copy_sqlite_to_postgres(path, postgres_dsn)
    counts = await pg_tables(postgres_dsn)
    assert {t: n for t, n in counts.items() if n and t != "tanzaku_schema"} == {}


# -- the command ------------------------------------------------------------------------------


def test_the_command_copies_without_a_token_and_logs_a_summary(
    source: tuple[Path, dict[str, int]], postgres_server: PostgresTestServer, tmp_path: Path
) -> None:
    path, _ = source
    workdir = tmp_path / "run"
    workdir.mkdir()
    name = asyncio.run(postgres_server.create_database())
    dsn = postgres_server.dsn_for(name)
    try:
        result = run_bot(workdir, "--migrate-sqlite-to", dsn, TANZAKU_DATABASE_PATH=str(path))
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert "money verified for 2 servers" in result.stderr
        assert "ledger" in result.stderr and "game_tables" in result.stderr
        counts = asyncio.run(pg_tables(dsn))
        assert counts["game_tables"] == 4 and counts["guild_settings"] == 2

        again = run_bot(workdir, "--migrate-sqlite-to", dsn, TANZAKU_DATABASE_PATH=str(path))
        assert again.returncode == 1
        line = one_line(again.stderr)
        assert "already holds data" in line
        assert asyncio.run(pg_tables(dsn)) == counts
    finally:
        asyncio.run(postgres_server.drop_database(name))


def test_the_command_refuses_a_configured_database_that_is_not_sqlite(
    postgres_server: PostgresTestServer, tmp_path: Path
) -> None:
    workdir = tmp_path / "run"
    workdir.mkdir()
    name = asyncio.run(postgres_server.create_database())
    dsn = postgres_server.dsn_for(name)
    try:
        result = run_bot(workdir, "--migrate-sqlite-to", dsn, TANZAKU_DATABASE_URL=dsn)
        assert result.returncode == 1
        line = one_line(result.stderr)
        assert "reads the configured SQLite database" in line and "TANZAKU_DATABASE_URL" in line
        assert asyncio.run(pg_tables(dsn)) == {}, "nothing was written"
        assert list(workdir.iterdir()) == []
    finally:
        asyncio.run(postgres_server.drop_database(name))


def test_the_command_refuses_a_missing_sqlite_file_in_one_line(tmp_path: Path) -> None:
    workdir = tmp_path / "run"
    workdir.mkdir()
    result = run_bot(
        workdir,
        "--migrate-sqlite-to",
        "postgresql://nobody@localhost/none",
        TANZAKU_DATABASE_PATH=str(tmp_path / "absent.db"),
    )
    assert result.returncode == 1
    assert "does not exist" in one_line(result.stderr)
    assert not (tmp_path / "absent.db").exists()


def test_without_a_token_the_command_still_names_a_bad_setting(tmp_path: Path) -> None:
    workdir = tmp_path / "run"
    workdir.mkdir()
    result = run_bot(
        workdir,
        "--migrate-sqlite-to",
        "postgresql://nobody@localhost/none",
        TANZAKU_LOG_LEVEL="LOUD",
    )
    assert result.returncode == 2
    line = one_line(result.stderr)
    assert "TANZAKU_LOG_LEVEL" in line and "TANZAKU_TOKEN" not in line


def test_other_commands_still_need_the_token(tmp_path: Path) -> None:
    workdir = tmp_path / "run"
    workdir.mkdir()
    result = run_bot(workdir, TANZAKU_DATABASE_PATH=str(tmp_path / "t.db"))
    assert result.returncode == 2
    assert "TANZAKU_TOKEN" in one_line(result.stderr)


def one_line(stderr: str) -> str:
    """The one line a refusal writes (the log may have said what it was about to do)."""
    lines = [line for line in stderr.splitlines() if line.startswith("tanzaku:")]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]
