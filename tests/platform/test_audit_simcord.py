"""/economy audit as a moderator uses it: the money invariant, every account against the
ledger, a member's last movements; and the same audit on books that were tampered with."""

from __future__ import annotations

import logging

from tests.support.gifts import world_gifts_unheld
from tests.support.sim import answered, make_world, refusal


async def audit(world, **options):
    result = answered(
        await world.moderator.slash(world.channel, "economy audit", **options), ephemeral=True
    )
    return result.response.embeds[0]


async def test_sound_books_and_a_members_movements(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await world_gifts_unheld(world)
    alice, bob = world["alice"], world["bob"]
    answered(await bob.slash(world.channel, "wallet"))
    answered(await alice.slash(world.channel, "give", member=bob, amount=250))
    table = answered(await alice.slash(world.channel, "coinflip open", stake=10)).response.message
    answered(await bob.click(table, label="Join"))

    embed = await audit(world, member=alice)
    assert "✅ Every coin is accounted for" in embed.description
    # Two welcome wallets and the house's float; the stakes sit in escrow.
    assert "escrow 20 ryō" in embed.description and "minted **102,000 ryō**" in embed.description
    assert "✅ All 5 accounts hold exactly what the ledger says" in embed.description
    field = embed.fields[0]
    assert "Balance **740 ryō**" in field.value
    lines = field.value.splitlines()[1:]
    # Newest first: her seat at the table, her gift, then her welcome coins.
    assert "**−10 ryō** to table #1" in lines[0]
    assert f"**−250 ryō** to {bob.mention}" in lines[1] and "give" in lines[1]
    assert "**+1,000 ryō** from new coins" in lines[2]
    assert len(lines) == 3

    nobody = world.guild.add_member(simcord_env.create_user("carol"))
    assert "No wallet on this server" in (await audit(world, member=nobody)).fields[0].value


async def test_tampered_books_are_shown_and_logged(simcord_env, caplog):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    async with simcord_env.bot.db.transaction() as tx:
        await tx.execute("UPDATE wallets SET balance = balance + 7 WHERE user_id = ?", (alice.id,))
    with caplog.at_level(logging.ERROR, logger="cogs.economy"):
        embed = await audit(world)
    assert "❌ The books are off by 7 ryō" in embed.description
    assert f"{alice.mention}: ledger 1,000 ryō, stored 1,007 ryō" in embed.description
    assert "found the books off" in caplog.text
    assert not embed.fields, "no member asked for"


async def test_only_a_moderator_may_audit(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    synced = await simcord_env.bot.tree.fetch_commands()
    economy = next(command for command in synced if command.name == "economy")
    world.guild.set_command_permissions(economy, {alice: True})
    assert "Manage Server" in refusal(await alice.slash(world.channel, "economy audit"))
