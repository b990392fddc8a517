"""The whole bot on PostgreSQL, through SimCord: members cannot tell the backend apart.

The same tests as on SQLite (imported from their modules, so they run here again), with
the bot's `TANZAKU_DATABASE_URL` pointing at a fresh database of the session's real
PostgreSQL server instead of a SQLite file."""

from __future__ import annotations

import pytest

from bot.app import TanzakuBot
from bot.games.dice import ScriptedDice
from bot.storage.postgres import PostgresDatabase
from tests.conftest import BotFactory
from tests.platform.test_economy_simcord import (
    test_give_and_its_refusals,
    test_leaderboard_orders_by_balance,
    test_moderator_grant_and_config,
    test_wallet_and_daily,
)
from tests.platform.test_tables_simcord import (
    test_cancel_refunds_everyone,
    test_lobby_join_leave_start,
    test_moderator_cancels_a_running_table_with_refunds,
    test_refusals_in_the_lobby_change_nothing,
    test_second_table_in_a_channel_is_refused_with_a_link,
)

__all__ = [
    "test_cancel_refunds_everyone",
    "test_give_and_its_refusals",
    "test_leaderboard_orders_by_balance",
    "test_lobby_join_leave_start",
    "test_moderator_cancels_a_running_table_with_refunds",
    "test_moderator_grant_and_config",
    "test_refusals_in_the_lobby_change_nothing",
    "test_second_table_in_a_channel_is_refused_with_a_link",
    "test_wallet_and_daily",
]


@pytest.fixture
def simcord_bot(
    postgres_dsn: str, bot_factory: BotFactory, request: pytest.FixtureRequest
) -> TanzakuBot:
    """The bot SimCord runs, on PostgreSQL (with the test's scripted dice if it asked).
    The database is asked for first, so it is dropped after the bot is closed."""
    settings = {"database_url": postgres_dsn}
    if "dice" in request.fixturenames:
        scripted: ScriptedDice = request.getfixturevalue("dice")
        bot = bot_factory(settings=settings, dice_factory=lambda row: scripted)
    else:
        bot = bot_factory(settings=settings)
    assert isinstance(bot.db, PostgresDatabase)
    return bot
