"""Hosting is not moderating, and the bank never promises what it cannot pay."""

from __future__ import annotations

import pytest

from tests.support.sim import answered, make_world, refusal


async def balance(world, member) -> int:
    return (await world.env.bot.economy.balance(world.guild.id, member.id)).balance


async def test_a_seated_moderator_cannot_end_a_running_table(simcord_env, dice):
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    table = answered(await alice.slash(world.channel, "coinflip open", stake=25)).response.message
    answered(await mod.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    text = refusal(await mod.slash(world.channel, "cancel", table=1))
    assert "You have a seat at this table" in text
    assert (await simcord_env.bot.tables.snapshot(1)).status == "running"
    assert await balance(world, mod) == 975
    # The host may not either; a moderator who is not playing may.
    assert "only a moderator" in refusal(await alice.slash(world.channel, "cancel", table=1))
    other = world.guild.add_member(
        simcord_env.create_user("mod2"), roles=[world.guild.roles["Mods"]]
    )
    answered(await other.slash(world.channel, "cancel", table=1))
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.status == "cancelled"
    assert await balance(world, mod) == 1000 and await balance(world, alice) == 1000
    _, rows = await simcord_env.bot.tables.history(1, world.guild.id)
    assert rows[-1].actor_id == other.user.id, "the log names the moderator who ended it"


async def test_a_moderators_lobby_cancel_is_logged_with_them(simcord_env):
    world = await make_world(simcord_env, "alice")
    answered(await world["alice"].slash(world.channel, "coinflip open", stake=5))
    answered(await world.moderator.slash(world.channel, "cancel", table=1))
    _, rows = await simcord_env.bot.tables.history(1, world.guild.id)
    assert rows[-1].actor_id == world.moderator.user.id


@pytest.fixture
def simcord_bot(bot_factory, dice):
    """A bank with only 300 coins: what it can cover is the point of these tests."""
    return bot_factory(dice_factory=lambda row: dice, settings={"house_float": 300})


async def test_a_bet_the_bank_cannot_cover_is_refused(simcord_env, dice):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    table = answered(await alice.slash(world.channel, "hazard open", max_stake=1000))
    answered(await alice.click(table.response.message, label="Start"))
    text = refusal(await alice.slash(world.channel, "hazard bet", kind="caster", amount=400))
    assert "The bank holds 300" in text
    assert await balance(world, alice) == 1000
    answered(await alice.slash(world.channel, "hazard bet", kind="caster", amount=300))
    assert await balance(world, alice) == 700


async def test_a_moderator_without_a_seat_closes_a_hazard_table_between_rounds(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    opened = answered(await alice.slash(world.channel, "hazard open"))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    # A player who is not the host may not close it; the moderator, unseated, may.
    assert "host or a moderator" in refusal(await bob.slash(world.channel, "hazard close"))
    answered(await world.moderator.slash(world.channel, "hazard close"))
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.finished
    _, rows = await simcord_env.bot.tables.history(1, world.guild.id)
    assert rows[-1].actor_id == world.moderator.user.id, "the log names who closed it"
