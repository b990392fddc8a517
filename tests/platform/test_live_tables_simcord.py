"""/tables: the server's live tables with a jump link each, paged; a moderator may close and
refund one (asked, then confirmed), but not a table they sit at."""

from __future__ import annotations

from tests.support.sim import answered, button_of, labels, make_world, refusal


async def wallet_of(world, member) -> int:
    return (await world.env.bot.economy.balance(world.guild.id, member.id)).balance


async def open_coinflip(world, host, channel=None):
    result = await host.slash(channel or world.channel, "coinflip open", stake=10)
    return answered(result, ephemeral=False).response.message


async def test_members_see_the_live_tables_with_links_and_no_buttons(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    lobby = await open_coinflip(world, alice)
    answered(await bob.click(lobby, label="Join"))
    other = world.guild.create_text_channel("other")
    gone = await open_coinflip(world, bob, other)
    answered(await bob.click(gone, label="Cancel"))

    listed = answered(await alice.slash(world.channel, "tables"), ephemeral=True)
    embed = listed.response.embeds[0]
    assert embed.title == "Live tables (1)"
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{lobby.id}"
    assert "**#1**" in embed.description and "lobby · 2 seated" in embed.description
    assert link in embed.description and alice.mention in embed.description
    assert "#2" not in embed.description, "a cancelled table is not live"
    assert not listed.response.components, "no Close button for a member"


async def test_a_moderator_closes_a_table_after_confirming_and_its_stakes_go_back(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob, mod = world["alice"], world["bob"], world.moderator
    table = await open_coinflip(world, alice)
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    assert (await wallet_of(world, alice), await wallet_of(world, bob)) == (990, 990)

    listed = answered(await mod.slash(world.channel, "tables"), ephemeral=True)
    assert labels(listed.response) == ["Close and refund #1"]
    asked = answered(await mod.click(listed.response, label="Close and refund #1"))
    assert "Close table #1" in asked.response.content
    assert (await simcord_env.bot.tables.snapshot(1)).row.live, "asking closes nothing"

    done = answered(await mod.click(asked.response, label="Yes, close and refund #1"))
    assert any("is closed" in m.content for m in [done.response, *done.followups] if m)
    assert not (await simcord_env.bot.tables.snapshot(1)).row.live
    assert (await wallet_of(world, alice), await wallet_of(world, bob)) == (1000, 1000)
    final = world.channel.last_message
    assert "Cancelled" in final.embeds[0].description and not final.components
    empty = answered(await mod.slash(world.channel, "tables"), ephemeral=True)
    assert "No table is open" in empty.response.embeds[0].description

    again = refusal(await mod.click(asked.response, label="Yes, close and refund #1"))
    assert "ended" in again or "already" in again


async def test_a_moderator_seated_at_a_table_may_not_close_it(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    table = await open_coinflip(world, alice)
    answered(await mod.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    listed = answered(await mod.slash(world.channel, "tables"), ephemeral=True)
    asked = answered(await mod.click(listed.response, label="Close and refund #1"))
    text = refusal(await mod.click(asked.response, label="Yes, close and refund #1"))
    assert "You have a seat at this table" in text
    assert (await simcord_env.bot.tables.snapshot(1)).row.live


async def test_many_tables_are_paged_ten_at_a_time(simcord_env):
    world = await make_world(simcord_env, "h0", "h1", "h2", "h3")
    for host in range(4):
        for n in range(3):
            channel = world.guild.create_text_channel(f"t{host}-{n}")
            await open_coinflip(world, world[f"h{host}"], channel)
    first = answered(await world["h0"].slash(world.channel, "tables"), ephemeral=True).response
    embed = first.embeds[0]
    assert embed.title == "Live tables (12)" and embed.footer.text == "Page 1 of 2"
    assert embed.description.count("**#") == 10
    assert labels(first) == ["Previous", "Next"], "no Close button for a member"
    assert button_of(first, "Previous")["disabled"] and not button_of(first, "Next")["disabled"]
    second = answered(await world["h0"].click(first, label="Next")).response
    assert second.embeds[0].footer.text == "Page 2 of 2"
    assert "**#11**" in second.embeds[0].description and "**#12**" in second.embeds[0].description
