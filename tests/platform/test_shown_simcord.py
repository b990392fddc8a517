"""One table message edited by several processes sharing PostgreSQL (cogs/_ui/hub.py).

Each process notes what a table message shows to skip edits that would change nothing; on
a shared database it tells the others what it showed (a ``shown`` signal), and after each
edit lands it looks whether the table moved on meanwhile, because two processes' edits
can land in either order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from simcord import Env

from bot.app import TanzakuBot
from bot.economy import Economy
from bot.games.registry import GameRegistry, GameSpec
from bot.service import Actor, TableService
from bot.signals import SHOWN
from bot.storage.postgres import PostgresDatabase
from cogs._ui.hub import TableHub
from cogs._ui.primitives import NO_PICTURE
from tests.conftest import BotFactory
from tests.support import coinflip
from tests.support.sim import answered, make_world, message_text


async def eventually(check: Callable[[], bool], within: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while not check():
        assert loop.time() < give_up, "never happened"
        await asyncio.sleep(0.01)


@pytest.fixture
def simcord_bot(postgres_dsn: str, bot_factory: BotFactory) -> TanzakuBot:
    """One bot process on PostgreSQL (the database first: it is dropped after the bot)."""
    return bot_factory(settings={"database_url": postgres_dsn})


async def other_process(dsn: str) -> tuple[PostgresDatabase, TableService]:
    """A second process's table service on the same database (no Discord of its own)."""
    db = PostgresDatabase(dsn)
    await db.open()
    registry = GameRegistry()
    registry.add(GameSpec(coinflip.ENGINE, "Coin Flip"))
    return db, TableService(db, Economy(db, house_float=100_000), registry)


async def test_an_edit_landing_after_a_newer_one_is_repaired(
    simcord_env: Env, postgres_dsn: str
) -> None:
    env = simcord_env
    bot = env.bot
    world = await make_world(env, "alice", "bob")
    bob = world["bob"]
    answered(await world["alice"].slash(world.channel, "coinflip open", stake=10))
    table_id = await bot.tables.live_table_in(world.channel.id, "coinflip")
    stale = await bot.tables.snapshot(table_id)
    sync = TableHub.of(bot).sync
    db, other = await other_process(postgres_dsn)
    try:
        # Another process seats Bob and its edit lands first; this process's edit of the
        # older state lands after it, and the message no longer shows Bob.
        await other.join(table_id, Actor(bob.id))
        assert f"<@{bob.id}>" not in message_text(world.channel.last_message)
        edits = sync.edits_sent
        sync._shown(stale, sync.render(stale))
        await eventually(lambda: sync.edits_sent > edits)
        assert f"<@{bob.id}>" in message_text(world.channel.last_message)
    finally:
        await db.close()


async def test_what_another_process_shows_is_known_and_an_ended_table_forgotten(
    simcord_env: Env,
) -> None:
    bot = simcord_env.bot
    sync = TableHub.of(bot).sync
    sync._last_sent[7] = "old"
    sync._on_shown_signal(f"{sync._origin} 7 1 coinflip mine -")
    assert sync._last_sent[7] == "old", "its own signal changes nothing"
    sync._on_shown_signal("f00d 7 1 coinflip theirs hachi%20hachi.png")
    assert sync._last_sent[7] == "theirs" and sync._pictures[7] == "hachi hachi.png"
    sync._on_shown_signal("f00d 8 1 coinflip other -")
    assert sync._pictures[8] == NO_PICTURE
    steps = bot.tables._steps
    steps.games[7] = "coinflip"
    steps._recent[7] = (3, [])
    bot.tables._pending_notices.add((42, 7))
    sync._on_shown_signal("f00d 7 0 coinflip done -")
    assert 7 not in sync.tables_held(), "an ended table leaves nothing behind"
    assert 7 not in steps.games and 7 not in steps._recent, "in the table service neither"
    assert (42, 7) in bot.tables._pending_notices, "a waiting notice is still delivered"
    await bot.db.publish(SHOWN, "f00d 9 1 coinflip heard -")
    await eventually(lambda: sync._last_sent.get(9) == "heard")
