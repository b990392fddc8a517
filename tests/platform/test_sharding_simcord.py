"""The bot sharded across processes, through SimCord, on one PostgreSQL database.

Discord sends a server's events to the shard ``(guild_id >> 22) % shard_count``, and every
direct-message interaction to shard 0. So a Strength Duel in a server on shard 1 is opened
by the process running shard 1, and its players' bids by DM arrive at the process running
shard 0, which has never seen that server. The test runs the first process, then
replaces it by the second (SimCord keeps Discord's side: the server, the table message,
the DM panels), and the bids must still be taken and shown on the table in the server.
"""

from __future__ import annotations

import discord
import pytest
from simcord import Env

from bot.app import ShardedTanzakuBot, TanzakuBot, create_bot
from bot.storage.postgres import PostgresDatabase
from tests.conftest import BotFactory, settings_for_tests
from tests.support.sim import answered, message_text

SHARDS = 2


def shard_settings(dsn: str, *shards: int) -> dict[str, object]:
    return {"database_url": dsn, "shard_count": SHARDS, "shard_ids": list(shards)}


@pytest.fixture
def simcord_bot(postgres_dsn: str, bot_factory: BotFactory) -> TanzakuBot:
    """The process running shard 1 only. (The database first: it is dropped after the
    bots are closed.)"""
    bot = bot_factory(settings=shard_settings(postgres_dsn, 1))
    assert isinstance(bot, ShardedTanzakuBot) and isinstance(bot.db, PostgresDatabase)
    return bot


async def bid_by_dm(member, amount: int):
    panel = member.user.dm_channel.last_message
    assert panel is not None and "Pick your bid" in panel.content
    return answered(await member.user.click(panel, label=str(amount)))


async def test_a_dm_bid_reaches_a_table_whose_server_another_process_runs(
    simcord_env: Env, bot_factory: BotFactory, postgres_dsn: str
) -> None:
    env = simcord_env
    await env.bot.tree.sync()
    guild = env.create_guild("on-shard-1", shard_id=1)
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    assert env.bot.get_guild(guild.id) is not None, "shard 1's process sees its server"

    opened = answered(await alice.slash(channel, "duel challenge", member=bob, stake=10))
    table_message = opened.response.message
    answered(await bob.click(table_message, label="Accept"))
    assert "Pick your bid" in alice.user.dm_channel.last_message.content

    # The process running shard 0 only, on the same database.
    await env.restart_bot(bot_factory(settings=shard_settings(postgres_dsn, 0)))
    assert env.bot.shard_ids == [0]
    assert env.bot.get_guild(guild.id) is None, "shard 0's process never saw that server"

    before = message_text(channel.last_message)
    await bid_by_dm(alice, 3)
    await env.settle()
    shown = message_text(channel.last_message)
    assert shown != before and "has bid" in shown, "the table in the other server shows it"

    await bid_by_dm(bob, 2)
    await env.settle()
    round_over = message_text(channel.last_message)
    assert f"**Round 1 revealed:** <@{alice.id}> **3** · <@{bob.id}> **2**" in round_over

    table_id = await env.bot.tables.live_table_in(channel.id, "strength_duel")
    snapshot = await env.bot.tables.snapshot(table_id)
    assert snapshot.state.ply > 0 and snapshot.row.guild_id == guild.id


def test_the_settings_pick_a_sharded_bot_only_when_asked(tmp_path) -> None:
    plain = create_bot(settings_for_tests(tmp_path))
    assert type(plain) is TanzakuBot
    sharded = create_bot(settings_for_tests(tmp_path, shard_count=4, shard_ids="1,3"))
    assert isinstance(sharded, ShardedTanzakuBot)
    assert isinstance(sharded, discord.AutoShardedClient)
    assert sharded.shard_count == 4 and sharded.shard_ids == [1, 3]
