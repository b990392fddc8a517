"""Turn notices on a database shared by several processes: a table another process ends
takes its notices here with it (cogs/_ui/notify.py, ``Notifier.forget``)."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import Env

from bot.app import TanzakuBot
from bot.economy import Economy
from bot.service import Actor, TableService
from bot.signals import SHOWN
from bot.storage.postgres import PostgresDatabase
from tests.cogs.test_notify_simcord import hazard_passed_to_bob, pings
from tests.conftest import BotFactory
from tests.platform.test_shown_simcord import eventually
from tests.support.sim import make_world


@pytest.fixture
def simcord_bot(postgres_dsn: str, bot_factory: BotFactory, dice: Any) -> TanzakuBot:
    """One bot process on PostgreSQL (the database first: it is dropped after the bot)."""
    return bot_factory(
        settings={"database_url": postgres_dsn, "turn_notices": True},
        dice_factory=lambda row: dice,
    )


async def test_a_table_another_process_ends_takes_its_notices_here_with_it(
    simcord_env: Env, postgres_dsn: str, dice: Any
) -> None:
    world = await make_world(simcord_env, "alice", "bob")
    await hazard_passed_to_bob(world)
    [notice] = pings(world)[world["bob"].id]
    # Another process on the same database (no Discord of its own).
    db = PostgresDatabase(postgres_dsn)
    await db.open()
    other = TableService(db, Economy(db, house_float=100_000), simcord_env.bot.tables.registry)
    try:
        # A moderator's /cancel lands on the other process, whose table message edit then
        # tells every process the table has ended (as its hub does after each edit).
        ended = await other.cancel(1, Actor(world.moderator.id, is_moderator=True))
        assert not ended.snapshot.row.live
        await db.publish(SHOWN, "0ther 1 0 hazard ended -")
        await eventually(lambda: notice.id not in [m.id for m in world.channel.history()])
    finally:
        await db.close()
    assert pings(world) == {}
