"""Fixtures shared by every test: settings, bots that are always closed, SimCord helpers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, settings

from bot.app import TanzakuBot, create_bot
from bot.config import Settings
from bot.games.dice import ScriptedDice
from tests.support.coinflip import TEST_CATALOG

if TYPE_CHECKING:
    from tests.support.postgres import PostgresTestServer

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci")


def settings_for_tests(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "token": "not-a-real-token",
        "database_path": tmp_path / "tanzaku.db",
        "house_float": 100_000,
        "lobby_timeout_seconds": 900,
        # Off unless a test is about them: a turn notice would become the channel's last
        # message, where most tests find the table message (tests/cogs/test_notify_*).
        "turn_notices": False,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)


BotFactory = Callable[..., TanzakuBot]


@pytest.fixture
async def bot_factory(tmp_path: Path) -> AsyncIterator[BotFactory]:
    made: list[TanzakuBot] = []

    def make(**options: Any) -> TanzakuBot:
        overrides = options.pop("settings", {})
        # The shipped games and the coin flip, each with its cog.
        options.setdefault("catalog", TEST_CATALOG)
        bot = create_bot(settings_for_tests(tmp_path, **overrides), **options)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        if not bot.is_closed():
            await bot.close()
        elif bot.db.is_open:
            await bot.db.close()


@pytest.fixture
def dice() -> ScriptedDice:
    """Scripted outcomes for a test; a test that asks for it plays with these dice."""
    return ScriptedDice()


@pytest.fixture
def simcord_bot(bot_factory: BotFactory, request: pytest.FixtureRequest) -> TanzakuBot:
    """The bot SimCord runs: with the test's scripted dice if it asked for `dice`, with
    production fair dice otherwise."""
    if "dice" in request.fixturenames:
        scripted: ScriptedDice = request.getfixturevalue("dice")
        return bot_factory(dice_factory=lambda row: scripted)
    return bot_factory()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresTestServer]:
    """One real PostgreSQL server for the session, started by the first test that asks for
    it (a run that never asks starts none). If it cannot start, every test needing it
    fails with the reason: never skipped."""
    from tests.support.postgres import start_test_server

    server = start_test_server()
    yield server
    server.stop()


@pytest.fixture
async def postgres_dsn(postgres_server: PostgresTestServer) -> AsyncIterator[str]:
    """A DSN (`postgresql://…`) to a new, empty database of its own, dropped after the test."""
    async with postgres_server.fresh_database() as dsn:
        yield dsn
