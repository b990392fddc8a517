"""Turn notices on a database shared by several processes: a table another process ends
takes its notices here with it (cogs/_ui/notify.py, ``Notifier.forget``), and a notice one
process posted is deleted by another, once (they live in the database)."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import Env

from bot.app import TanzakuBot
from bot.economy import Economy
from bot.service import Actor, TableService
from bot.signals import SHOWN
from bot.storage.postgres import PostgresDatabase
from tests.cogs.test_notify_simcord import WAIT, hazard_passed_to_bob, pings
from tests.conftest import BotFactory
from tests.platform.test_sharding_simcord import bid_by_dm, shard_settings
from tests.platform.test_shown_simcord import eventually
from tests.support.sim import answered, make_world, pinged

NOTICES = {"turn_notices": True}


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


async def test_a_notice_one_shard_process_posted_is_deleted_by_another_once(
    simcord_env: Env, postgres_dsn: str, bot_factory: BotFactory
) -> None:
    """A duel in a server on shard 1: the process running shard 1 tells bob his bid is
    awaited; his bid by DM reaches the process running shard 0 (Discord sends every DM
    interaction to shard 0), which takes the notice back — from the database, since it
    never posted it."""
    env = simcord_env
    await env.bot.close()
    await env.restart_bot(bot_factory(settings={**shard_settings(postgres_dsn, 1), **NOTICES}))
    await env.bot.tree.sync()
    guild = env.create_guild("on-shard-1", shard_id=1)
    channel = guild.create_text_channel("duels")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    opened = answered(await alice.slash(channel, "duel challenge", member=bob, stake=10))
    answered(await bob.click(opened.response.message, label="Accept"))
    # Alice bids from the table message (a DM click would go to shard 0's process).
    panel = answered(await alice.click(opened.response.message, label="Bid privately"))
    answered(await alice.click(panel.response.message, label="3"))
    await env.advance_time(WAIT + 1)
    [notice] = [m for m in channel.history() if m.content.startswith("🔔")]
    assert pinged(env, notice) == [bob.id]

    await env.bot.close()
    await env.restart_bot(bot_factory(settings={**shard_settings(postgres_dsn, 0), **NOTICES}))
    assert env.bot.get_guild(guild.id) is None, "shard 0's process never saw that server"
    await bid_by_dm(bob, 2)
    await eventually(lambda: notice.id not in [m.id for m in channel.history()])
    await env.advance_time(WAIT + 1)
    assert [m for m in channel.history() if m.content.startswith("🔔")] == []
    deletes = [r for r in env.http_requests if r.method == "DELETE" and str(notice.id) in r.path]
    assert len(deletes) == 1, "deleted once"
