"""/selfexclude as members use it: confirmed by a button, it refuses every stake (a seat, a
bet at a running table, a challenge, a gift) until it runs out on the server's clock, it can
be made longer but never shorter, and only a member with Manage Server lifts it early."""

from __future__ import annotations

import pytest

from bot.errors import NotAllowed
from tests.support.gifts import world_gifts_unheld
from tests.support.sim import answered, make_world, refusal

DAY = 86_400


async def wallet_of(world, member) -> int:
    return (await world.env.bot.economy.balance(world.guild.id, member.id)).balance


async def exclusion_of(world, member) -> float | None:
    return await world.env.bot.economy.exclusion(world.guild.id, member.id)


async def exclude(world, member, days: int) -> str:
    asked = answered(await member.slash(world.channel, "selfexclude", days=days), ephemeral=True)
    done = answered(await member.click(asked.response, label=f"Exclude me for {days:,} days"))
    return done.response.content if done.response is not None else ""


async def test_it_is_confirmed_then_refuses_every_stake_until_it_runs_out(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    answered(await bob.slash(world.channel, "wallet"))
    asked = answered(await alice.slash(world.channel, "selfexclude", days=7), ephemeral=True)
    text = asked.response.content
    assert "7 days" in text and "cannot lift it yourself" in text
    assert await exclusion_of(world, alice) is None, "nothing before the confirmation"

    done = answered(await alice.click(asked.response, label="Exclude me for 7 days"))
    assert "Done" in done.response.content and not done.response.components
    until = await exclusion_of(world, alice)
    assert until == pytest.approx(simcord_env.now().timestamp() + 7 * DAY, abs=5)

    before = (await wallet_of(world, alice), await wallet_of(world, bob))
    text = refusal(await alice.slash(world.channel, "give", member=bob, amount=50))
    assert "excluded yourself" in text and f"<t:{int(until)}:f>" in text
    assert "excluded yourself" in refusal(
        await alice.slash(world.channel, "coinflip open", stake=10)
    )
    assert "excluded yourself" in refusal(
        await alice.slash(world.channel, "duel challenge", member=bob, stake=10)
    )
    # Someone else's table: joining it is a stake too.
    table = answered(await bob.slash(world.channel, "coinflip open", stake=10)).response.message
    assert "excluded yourself" in refusal(await alice.click(table, label="Join"))
    challenge = answered(
        await bob.slash(world.channel, "duel challenge", member=alice, stake=10)
    ).response.message
    assert "excluded yourself" in refusal(await alice.click(challenge, label="Accept"))
    assert await wallet_of(world, alice) == before[0], "no coin of hers moved"
    assert await simcord_env.bot.tables.snapshot(1) is not None

    await simcord_env.advance_time(7 * DAY + 1)
    assert await exclusion_of(world, alice) is None
    answered(await alice.slash(world.channel, "give", member=bob, amount=50), ephemeral=False)
    assert await wallet_of(world, alice) == before[0] - 50


async def test_a_table_already_running_plays_on_but_takes_no_more_of_her_coins(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "coinflip open", stake=10)).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    running = world.channel.last_message
    await exclude(world, alice, 3)

    before = await wallet_of(world, alice)
    assert "excluded yourself" in refusal(await alice.click(running, label="Raise 5"))
    assert await wallet_of(world, alice) == before
    # Bob is not excluded; and a call puts none of her coins at stake, so the game goes on.
    answered(await bob.click(world.channel.last_message, label="Raise 5"), ephemeral=False)
    answered(await alice.click(world.channel.last_message, label="Heads"), ephemeral=False)
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert state.ply == 1, "her call was taken"


async def test_it_can_be_made_longer_never_shorter(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    await exclude(world, alice, 30)
    thirty = await exclusion_of(world, alice)
    asked = answered(await alice.slash(world.channel, "selfexclude", days=7), ephemeral=True)
    assert "already excluded" in asked.response.content
    text = refusal(await alice.click(asked.response, label="Exclude me for 7 days"))
    assert "never shorter" in text and "nothing was changed" in text
    assert await exclusion_of(world, alice) == thirty
    await exclude(world, alice, 60)
    assert await exclusion_of(world, alice) == pytest.approx(thirty + 30 * DAY, abs=5)


async def test_only_a_moderator_lifts_it(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await world_gifts_unheld(world)
    alice, bob, mod = world["alice"], world["bob"], world.moderator
    answered(await bob.slash(world.channel, "wallet"))
    await exclude(world, alice, 10)
    assert not any(name.startswith("economy") for name in alice.available_commands(world.channel))
    synced = await simcord_env.bot.tree.fetch_commands()
    economy = next(command for command in synced if command.name == "economy")
    world.guild.set_command_permissions(economy, {alice: True})
    assert "Manage Server" in refusal(
        await alice.slash(world.channel, "economy lift-exclusion", member=alice)
    )
    assert await exclusion_of(world, alice) is not None

    lifted = answered(
        await mod.slash(world.channel, "economy lift-exclusion", member=alice), ephemeral=True
    )
    assert "Lifted" in lifted.response.content
    assert await exclusion_of(world, alice) is None
    answered(await alice.slash(world.channel, "give", member=bob, amount=5), ephemeral=False)
    again = answered(
        await mod.slash(world.channel, "economy lift-exclusion", member=alice), ephemeral=True
    )
    assert "no self-exclusion running" in again.response.content


async def test_a_length_outside_the_range_is_refused_and_changes_nothing(simcord_env):
    world = await make_world(simcord_env, "alice")
    economy = simcord_env.bot.economy
    for days in (0, -3, 3651):
        with pytest.raises(NotAllowed, match="Choose from 1 to 3,650 days"):
            await economy.self_exclude(world.guild.id, world["alice"].id, days)
    assert await exclusion_of(world, world["alice"]) is None
