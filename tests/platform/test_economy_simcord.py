"""Economy commands as members use them."""

from __future__ import annotations

from tests.support.gifts import world_gifts_unheld
from tests.support.sim import answered, make_world, refusal


async def wallet_of(world, member) -> int:
    return (await world.env.bot.economy.balance(world.guild.id, member.id)).balance


async def test_wallet_and_daily(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    result = answered(await alice.slash(world.channel, "wallet"), ephemeral=True)
    assert "1,000 ryō" in result.response.content
    result = answered(await alice.slash(world.channel, "daily"), ephemeral=True)
    assert "100 ryō" in result.response.content and "1,100" in result.response.content
    text = refusal(await alice.slash(world.channel, "daily"))
    assert "already claimed" in text
    assert await wallet_of(world, alice) == 1100
    await simcord_env.advance_time(20 * 3600 + 1)
    answered(await alice.slash(world.channel, "daily"))
    assert await wallet_of(world, alice) == 1200


async def test_give_and_its_refusals(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await world_gifts_unheld(world)
    alice, bob = world["alice"], world["bob"]
    # Bob has never acted: looking at him or giving to him makes (and funds) no wallet.
    answered(await alice.slash(world.channel, "wallet"))
    peek = answered(await alice.slash(world.channel, "wallet", member=bob), ephemeral=True)
    assert "has no wallet here yet" in peek.response.content
    assert "has no wallet here yet" in refusal(
        await alice.slash(world.channel, "give", member=bob, amount=250)
    )
    totals = await simcord_env.bot.economy.totals(world.guild.id)
    assert await simcord_env.bot.economy.peek(world.guild.id, bob.user.id) is None
    answered(await bob.slash(world.channel, "wallet"))  # his own first action opens it
    assert (await simcord_env.bot.economy.totals(world.guild.id)).minted == totals.minted + 1000
    result = answered(await alice.slash(world.channel, "give", member=bob, amount=250))
    assert not result.ephemeral and "250 ryō" in result.response.content
    assert (await wallet_of(world, alice), await wallet_of(world, bob)) == (750, 1250)

    assert "yourself" in refusal(await alice.slash(world.channel, "give", member=alice, amount=5))
    assert "holds 750" in refusal(await alice.slash(world.channel, "give", member=bob, amount=751))
    bot_member = world.guild.add_member(simcord_env.create_user("robot", bot=True))
    assert "Bots" in refusal(await alice.slash(world.channel, "give", member=bot_member, amount=5))
    assert (await wallet_of(world, alice), await wallet_of(world, bob)) == (750, 1250)


async def test_leaderboard_orders_by_balance(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await world_gifts_unheld(world)
    await world["bob"].slash(world.channel, "wallet")
    await world["alice"].slash(world.channel, "give", member=world["bob"], amount=400)
    result = answered(await world["alice"].slash(world.channel, "leaderboard"))
    lines = result.response.embeds[0].description.splitlines()
    assert world["bob"].mention in lines[0] and "1,400" in lines[0]
    assert world["alice"].mention in lines[1] and "600" in lines[1]


async def test_moderator_grant_and_config(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    assert not any(name.startswith("economy") for name in alice.available_commands(world.channel))
    # Even where a server's overrides let her see it, the command itself refuses her.
    synced = await simcord_env.bot.tree.fetch_commands()
    economy = next(command for command in synced if command.name == "economy")
    world.guild.set_command_permissions(economy, {alice: True})
    assert "Manage Server" in refusal(
        await alice.slash(world.channel, "economy grant", member=alice, amount=10)
    )
    assert await wallet_of(world, alice) == 1000
    answered(await mod.slash(world.channel, "economy grant", member=alice, amount=500))
    assert await wallet_of(world, alice) == 1500

    result = answered(
        await mod.slash(
            world.channel, "config economy", currency="mon", starting_balance=50, daily_amount=7
        ),
        ephemeral=True,
    )
    assert "**mon**" in result.response.content
    newcomer = world.guild.add_member(simcord_env.create_user("newcomer"))
    result = await newcomer.slash(world.channel, "wallet")
    assert "50 mon" in result.response.content
    totals = await simcord_env.bot.economy.totals(world.guild.id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted


async def test_a_currency_emoji_shows_before_the_name_and_a_bad_one_changes_nothing(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    set_emoji = await mod.slash(world.channel, "config economy", emoji="🪙")
    assert "Currency **🪙 ryō**" in answered(set_emoji).response.content
    shown = answered(await alice.slash(world.channel, "wallet"), ephemeral=True)
    assert "1,000 🪙 ryō" in shown.response.content
    for bad in ("abc", "🪙 coins", "<:no:12>"):
        text = refusal(await mod.slash(world.channel, "config economy", emoji=bad))
        assert "one emoji" in text and "nothing changed" in text
    own = "<:ryo:123456789012345678>"
    server = answered(await mod.slash(world.channel, "config economy", emoji=own))
    assert "<:ryo:123456789012345678> ryō" in server.response.content
    cleared = answered(await mod.slash(world.channel, "config economy", emoji="none"))
    assert "Currency **ryō**" in cleared.response.content
    shown = answered(await alice.slash(world.channel, "wallet"), ephemeral=True)
    assert "1,000 ryō" in shown.response.content and "🪙" not in shown.response.content
