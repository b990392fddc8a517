"""The table service through Discord: lobby, start, clicks, refusals, restart, DMs."""

from __future__ import annotations

from tests.support.sim import answered, make_world, refusal


async def balance(world, member) -> int:
    return (await world.env.bot.economy.balance(world.guild.id, member.id)).balance


async def open_table(world, host, **options):
    result = answered(await host.slash(world.channel, "coinflip open", **options), ephemeral=False)
    return result.response.message


async def test_lobby_join_leave_start(simcord_env):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    table = await open_table(world, alice, stake=10)
    assert "lobby" in table.embeds[0].title
    assert await balance(world, alice) == 990

    answered(await bob.click(table, label="Join"))
    answered(await carol.click(table, label="Join"))
    assert await balance(world, carol) == 990
    assert "Seats (3/4)" in world.channel.last_message.embeds[0].fields[0].name

    answered(await carol.click(table, label="Leave"))
    assert await balance(world, carol) == 1000, "leaving a lobby refunds the stake"

    text = refusal(await bob.click(table, label="Start"))
    assert "Only the host" in text
    answered(await alice.click(table, label="Start"))
    started = world.channel.last_message
    assert "To call" in started.embeds[0].description
    assert [c.label for c in started.components[0].children] == ["Heads", "Tails", "Raise 5"]
    assert "commitment" in started.embeds[0].footer.text


async def test_refusals_in_the_lobby_change_nothing(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = await open_table(world, alice, stake=10)
    assert "already have a seat" in refusal(await alice.click(table, label="Join"))
    assert "not seated" in refusal(await bob.click(table, label="Leave"))
    assert "needs 2 to 4 players" in refusal(await alice.click(table, label="Start"))
    assert "Only the table's host or a moderator" in refusal(await bob.click(table, label="Cancel"))
    assert await balance(world, alice) == 990
    assert await balance(world, bob) == 1000


async def test_cancel_refunds_everyone(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = await open_table(world, alice, stake=50)
    await bob.click(table, label="Join")
    answered(await alice.click(table, label="Cancel"))
    assert await balance(world, alice) == 1000
    assert await balance(world, bob) == 1000
    closed = world.channel.last_message
    assert "closed" in closed.embeds[0].title
    assert "seed" in closed.embeds[0].footer.text
    assert not closed.components


async def test_moderator_cancels_a_running_table_with_refunds(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = await open_table(world, alice, stake=30)
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    # Hosting is not moderating: once the game runs, neither the host nor a player may
    # end it (each would cancel whenever losing).
    for player in (alice, bob):
        assert "only a moderator (Manage Server) can end it" in refusal(
            await player.slash(world.channel, "cancel", table=1)
        )
        assert (await simcord_env.bot.tables.snapshot(1)).status == "running"
    answered(await world.moderator.slash(world.channel, "cancel", table=1), ephemeral=True)
    assert (await simcord_env.bot.tables.snapshot(1)).status == "cancelled"
    assert await balance(world, alice) == 1000
    assert await balance(world, bob) == 1000
    final = world.channel.last_message
    assert "Cancelled" in final.embeds[0].description
    assert not final.components


async def test_second_table_in_a_channel_is_refused_with_a_link(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    first = await open_table(world, world["alice"], stake=10)
    result = await world["bob"].slash(world.channel, "coinflip open", stake=10)
    text = refusal(result)
    assert "already has an open Coin Flip table (#1)" in text
    assert f"/{world.channel.id}/{first.id}" in text
    assert await balance(world, world["bob"]) == 1000


async def test_stranger_and_out_of_turn_clicks_change_nothing(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "dave")
    alice, bob, dave = world["alice"], world["bob"], world["dave"]
    table = await open_table(world, alice, stake=10)
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    before = await simcord_env.bot.tables.snapshot(1)

    assert "not seated" in refusal(await dave.click(table, label="Heads"))
    assert "not your turn" in refusal(await bob.click(table, label="Heads"))
    after = await simcord_env.bot.tables.snapshot(1)
    assert after.row.version == before.row.version
    assert after.state == before.state
    assert await balance(world, dave) == 1000


async def test_a_stale_click_is_refused(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = await open_table(world, alice, stake=10)
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    panel = answered(await alice.slash(world.channel, "coinflip panel", table=1), ephemeral=True)
    dice.extend([2])  # alice calls heads, the coin lands tails: bob's turn, the ply moves
    answered(await alice.click(table, label="Heads"))
    version = (await simcord_env.bot.tables.snapshot(1)).row.version

    text = refusal(await alice.click(panel.response.message, label="Tails"))
    assert "moment has passed" in text
    assert (await simcord_env.bot.tables.snapshot(1)).row.version == version


async def test_a_full_game_pays_the_winner_and_the_house(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = await open_table(world, alice, stake=100, rake=10)
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    house_before = (await simcord_env.bot.economy.settings(world.guild.id)).house_balance
    dice.extend([2, 2])  # alice calls heads: tails; bob calls tails: tails — bob wins
    await alice.click(table, label="Heads")
    await bob.click(table, label="Tails")
    final = world.channel.last_message
    assert "Winner" in final.embeds[0].description
    assert await balance(world, bob) == 1000 - 100 + 190
    assert await balance(world, alice) == 900
    house_after = (await simcord_env.bot.economy.settings(world.guild.id)).house_balance
    assert house_after - house_before == 10
    stats = await simcord_env.bot.tables.stats(world.guild.id, bob.id)
    assert stats[("coinflip", "won")] == 1
    assert stats[("coinflip", "net")] == 90


async def test_lobby_expires_and_refunds(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    table = await open_table(world, world["alice"], stake=25)
    await world["bob"].click(table, label="Join")
    await simcord_env.advance_time(901)
    assert await balance(world, world["alice"]) == 1000
    assert await balance(world, world["bob"]) == 1000
    assert "closed" in world.channel.last_message.embeds[0].title


async def test_turn_deadline_plays_for_the_idle_player(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    table = await open_table(world, world["alice"], stake=10)
    await world["bob"].click(table, label="Join")
    await world["alice"].click(table, label="Start")
    dice.extend([2])
    await simcord_env.advance_time(29)
    assert (await simcord_env.bot.tables.snapshot(1)).state.ply == 0
    await simcord_env.advance_time(2)
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.ply == 1, "the deadline called for alice"
    assert "Flip landed tails" in world.channel.last_message.embeds[0].description


async def test_restart_keeps_buttons_and_deadlines(simcord_env, bot_factory, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = await open_table(world, alice, stake=10)
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    dice.extend([2])
    await alice.click(table, label="Heads")  # tails: bob to call, deadline re-armed

    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory(dice_factory=lambda row: dice))
    assert simcord_env.bot.rearmed_deadlines == 1

    dice.extend([2])
    answered(await bob.click(world.channel.last_message, label="Heads"))  # old message
    assert (await simcord_env.bot.tables.snapshot(1)).state.ply == 2
    dice.extend([1])  # alice idles; the deadline (re-armed after restart) calls heads: wins
    await simcord_env.advance_time(31)
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.finished and snapshot.state.winner == alice.id
    assert "Winner" in world.channel.last_message.embeds[0].description


async def test_closed_dms_fall_back_to_an_ephemeral_note(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    bob_dm = bob.user.dm_channel
    simcord_env.inject_error(
        "POST",
        f"/channels/{bob_dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    table = await open_table(world, alice, stake=10)
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    assert "began" in alice.user.dm_channel.last_message.content
    assert bob_dm.last_message is None

    result = await bob.click(table, label="Heads")  # out of turn, but the note arrives
    notes = [m.content for m in result.followups if m.ephemeral]
    if result.response is not None and result.response.ephemeral:
        notes.insert(0, result.response.content)
    assert any("direct messages are closed" in n and "began" in n for n in notes)
