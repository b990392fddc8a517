"""Nihakyu through Discord: secret simultaneous choices, deadlines, restart, ejection."""

from __future__ import annotations

from tests.support.sim import answered, make_world, message_text, refusal, visible_to


async def wallet(world, member) -> int:
    return (await world.env.bot.economy.balance(world.guild.id, member.id)).balance


async def choose(world, member, label="Roll"):
    result = answered(await member.click(world.channel.last_message, label=label))
    return result


async def test_three_players_to_a_winner_with_an_idle_player(simcord_env, bot_factory, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol", "dave")
    alice, bob, carol, dave = (world[n] for n in ("alice", "bob", "carol", "dave"))
    opened = answered(
        await alice.slash(world.channel, "nihakyu open", ante=30, starting_stamina=40)
    )
    table = opened.response.message
    await bob.click(table, label="Join")
    await carol.click(table, label="Join")
    answered(await alice.click(table, label="Start"))
    assert await wallet(world, carol) == 970

    # Rounds 1-3: carol never chooses; the deadline auto-rolls for her, the third time
    # she forfeits. Rolls come in seat order: alice, bob, carol.
    for round_number in (1, 2, 3):
        result = await choose(world, alice)
        confirmations = [m.content for m in result.followups if m.ephemeral]
        assert any("you chose **Roll" in text for text in confirmations)
        await choose(world, bob)
        status = world.channel.last_message.embeds[0].fields[0].value
        assert status.count("✅") == 2 and status.count("⏳") == 1
        dice.extend([1, 5, 1])
        await simcord_env.advance_time(61)
        assert f"Round {round_number}" in world.channel.last_message.embeds[0].description
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.stamina[alice.id] == 37 and snapshot.state.stamina[bob.id] == 25
    assert snapshot.state.stamina[carol.id] <= 0, "three auto-rolls in a row forfeit"
    assert "forfeits" in world.channel.last_message.embeds[0].description
    assert "not seated" in refusal(await dave.click(world.channel.last_message, label="Roll"))
    before = await simcord_env.bot.tables.snapshot(1)
    text = refusal(await carol.click(world.channel.last_message, label="Roll"))
    assert "eliminated" in text
    assert (await simcord_env.bot.tables.snapshot(1)).row.version == before.row.version

    # Round 4: alice chooses, the bot restarts, bob chooses: alice's choice was kept.
    await choose(world, alice)
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory(dice_factory=lambda row: dice))
    dice.extend([1, 20])
    await choose(world, bob)  # the last choice resolves the round at once
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.round == 5
    assert snapshot.state.stamina == {
        alice.id: 36,
        bob.id: 5,
        carol.id: snapshot.state.stamina[carol.id],
    }

    # Round 5: bob falls; alice takes the pot of 90.
    dice.extend([1, 20])
    await choose(world, alice)
    await choose(world, bob)
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.finished and snapshot.state.winner == alice.id
    final = world.channel.last_message
    assert "wins the pot of 90" in final.embeds[0].description
    assert "seed `" in final.embeds[0].footer.text
    assert await wallet(world, alice) == 1060
    assert await wallet(world, bob) == 970 and await wallet(world, carol) == 970


async def test_choices_stay_secret_until_the_reveal(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = (
        await alice.slash(world.channel, "nihakyu open", ante=10, shadow_step=True)
    ).response.message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    await choose(world, alice, "Shadow Step")
    for message in visible_to(world, bob):
        assert "Shadow Step (lose" not in message_text(message)
        assert "steps aside" not in message_text(message)
    history = answered(await bob.slash(world.channel, "history", table=1))
    assert "shadow" not in history.response.embeds[0].description.lower()
    dice.extend([7])
    await choose(world, bob)
    assert "steps aside" in world.channel.last_message.embeds[0].description


async def test_kage_needs_a_second_ante_and_can_be_taken_back(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = (
        await alice.slash(world.channel, "nihakyu open", ante=600, kage_endurance=True)
    ).response.message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    assert "holds 400" in refusal(await choose(world, alice, "Kage's Endurance"))
    assert await wallet(world, alice) == 400
    await world.moderator.slash(world.channel, "economy grant", member=alice, amount=1000)
    await choose(world, alice, "Kage's Endurance")
    assert await wallet(world, alice) == 800
    await choose(world, alice, "Roll")
    assert await wallet(world, alice) == 1400, "changing away from Kage returns its ante"


async def test_moderator_ejects_a_player(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    table = (await alice.slash(world.channel, "nihakyu open", ante=10)).response.message
    await bob.click(table, label="Join")
    await carol.click(table, label="Join")
    await alice.click(table, label="Start")
    assert "Only the table's host or a moderator" in refusal(
        await bob.slash(world.channel, "nihakyu eject", member=carol)
    )
    answered(await world.moderator.slash(world.channel, "nihakyu eject", member=carol))
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.stamina[carol.id] == 0
    assert "ejected" in world.channel.last_message.embeds[0].description
