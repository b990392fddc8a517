"""The storage backends the platform suites run against: every test that asks for
`database_url` runs once on a SQLite file and once on a fresh database of the session's
real PostgreSQL server (tests/support/postgres.py; it fails loudly if the server cannot
start, it never skips)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import sqlite_url

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A URL for an empty store (`open_database` migrates it), one per backend."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "store.db")
        return
    # Only a PostgreSQL run asks for the server: a `-k sqlite` run starts none.
    server = request.getfixturevalue("postgres_server")
    async with server.fresh_database() as dsn:
        yield dsn
