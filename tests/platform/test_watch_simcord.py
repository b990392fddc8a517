"""The Watch button of a table message: any member may watch a live table, and gets one DM
when it ends (its result and a link); pressing it again stops watching."""

from __future__ import annotations

import discord
import pytest

from bot.errors import NotAllowed
from bot.storage import open_database
from cogs._ui.lobby import with_watch
from cogs._ui.primitives import button
from tests.platform._helpers import FakeClock, coinflip_registry
from tests.support import coinflip
from tests.support.sim import answered, labels, make_world


async def open_table(world, host):
    result = answered(await host.slash(world.channel, "coinflip open", stake=10), ephemeral=False)
    return result.response.message


async def test_a_watcher_is_told_once_who_won_and_an_unwatcher_is_not(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol", "dave")
    alice, bob, carol, dave = (world[name] for name in ("alice", "bob", "carol", "dave"))
    table = await open_table(world, alice)
    assert labels(table) == ["Join", "Leave", "Start", "Cancel", "Rules", "Add computer", "Watch"]
    watched = answered(await carol.click(table, label="Watch"), ephemeral=True)
    assert "one DM when table #1 ends" in watched.response.content
    answered(await dave.click(table, label="Watch"))
    stopped = answered(await dave.click(table, label="Watch"), ephemeral=True)
    assert "no longer watch table #1" in stopped.response.content

    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    running = world.channel.last_message
    assert "Watch" in labels(running) and labels(running)[:3] == ["Heads", "Tails", "Raise 5"]
    dice.extend([1])  # heads: alice's call wins
    answered(await alice.click(running, label="Heads"))
    assert (await simcord_env.bot.tables.snapshot(1)).state.winner == alice.id

    note = carol.user.dm_channel.last_message
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{table.id}"
    assert note is not None and "table #1 has ended: won by" in note.content
    assert alice.mention in note.content and link in note.content
    assert len(carol.user.dm_channel.history()) == 1, "told once"
    assert dave.user.dm_channel.last_message is None
    assert "Watch" not in labels(world.channel.last_message), "an ended table has no Watch"


async def test_a_lobby_that_expires_tells_its_watchers(simcord_env):
    world = await make_world(simcord_env, "alice", "carol")
    table = await open_table(world, world["alice"])
    answered(await world["carol"].click(table, label="Watch"))
    await simcord_env.advance_time(900 + 1)
    assert not (await simcord_env.bot.tables.snapshot(1)).row.live
    note = world["carol"].user.dm_channel.last_message
    assert note is not None and "table #1 was cancelled" in note.content


def test_the_watch_button_takes_the_last_row_only_if_it_is_free() -> None:
    alone = with_watch(None, 7)
    assert alone is not None and [item.custom_id for item in alone.children] == ["tz:7:0:watch"]
    full = discord.ui.View(timeout=None)
    for n in range(5):
        full.add_item(button(7, 0, "roll", str(n), arg=n, row=4))
    kept = with_watch(full, 7)
    assert kept is full and len(full.children) == 5, "the game's own buttons stay"


async def test_watchers_are_taken_once(database_url) -> None:
    db = await open_database(database_url)
    try:
        from bot.economy import Economy
        from bot.service import Actor, TableService

        clock = FakeClock()
        economy = Economy(db, house_float=1000, clock=clock)
        service = TableService(db, economy, coinflip_registry(), clock=clock)
        opened = await service.open(
            guild_id=1, channel_id=2, game="coinflip", host_id=3, rules=coinflip.Rules(stake=0)
        )
        table = opened.snapshot.id
        assert await service.toggle_watch(table, 5) is True
        assert await service.toggle_watch(table, 6) is True
        assert await service.take_watchers(table) == [5, 6]
        assert await service.take_watchers(table) == [], "a second reader finds nobody"
        await service.cancel(table, Actor(3))
        with pytest.raises(NotAllowed, match="already ended"):
            await service.toggle_watch(table, 5)
        async with db.reading() as tx:
            left = await tx.fetchall(
                "SELECT user_id FROM table_watchers WHERE table_id = ?", (table,)
            )
        assert left == [], "nobody is left watching an ended table"
        await service.scheduler.stop()
    finally:
        await db.close()
