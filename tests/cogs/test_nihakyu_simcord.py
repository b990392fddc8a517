"""Nihakyu through Discord: secret simultaneous choices, deadlines, restart, ejection."""

from __future__ import annotations

import json

from tests.support.gifts import world_gifts_unheld
from tests.support.sim import answered, make_world, message_text, refusal, visible_to, wallet

EJECT_REFUSAL = "Only a moderator (Manage Server) who is not playing at this table can do that."


def table_message(world, channel=None):
    """The newest Nihakyu table message of the channel (other messages may follow it)."""
    for message in reversed(list((channel or world.channel).history())):
        if message.embeds and (message.embeds[0].title or "").startswith("Nihakyu"):
            return message
    raise AssertionError("no Nihakyu table message")


async def choose(world, member, label="Roll"):
    result = answered(await member.click(table_message(world), label=label))
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
        status = table_message(world).embeds[0].fields[0].value
        assert status.count("✅") == 2 and status.count("⏳") == 1
        dice.extend([1, 5, 1])
        await simcord_env.advance_time(61)
        assert f"Round {round_number}" in table_message(world).embeds[0].description
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.stamina[alice.id] == 37 and snapshot.state.stamina[bob.id] == 25
    assert snapshot.state.stamina[carol.id] <= 0, "three auto-rolls in a row forfeit"
    assert "forfeits" in table_message(world).embeds[0].description
    assert "not seated" in refusal(await dave.click(table_message(world), label="Roll"))
    before = await simcord_env.bot.tables.snapshot(1)
    text = refusal(await carol.click(table_message(world), label="Roll"))
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
    final = table_message(world)
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
    assert "steps aside" in table_message(world).embeds[0].description


def table_bytes(message) -> str:
    """Everything the table message carries (embeds, buttons and their ids), as one string."""
    return json.dumps(
        {
            "content": message.content,
            "embeds": [embed.to_dict() for embed in message.embeds],
            "components": [row.to_dict() for row in message.components],
        },
        sort_keys=True,
    )


async def server_rules(world, **values):
    """Options only a moderator sets (/config rule), for the server's new tables."""
    for option, value in values.items():
        rule = dict(game="nihakyu", option=option, value=value)
        answered(await world.moderator.slash(world.channel, "config rule", **rule))


async def started(world, *names, **options):
    host, *others = (world[n] for n in names)
    table = answered(await host.slash(world.channel, "nihakyu open", **options)).response.message
    for member in others:
        answered(await member.click(table, label="Join"))
    answered(await host.click(table, label="Start"))
    return table_message(world)


async def test_kage_choice_changes_nothing_visible_before_the_reveal(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    await started(world, "alice", "bob", "carol", ante=100, kage_endurance=True)
    wallets = [await wallet(world, m) for m in (alice, bob, carol)]
    assert wallets == [900, 900, 900]

    await choose(world, alice, "Roll")
    as_roll = table_bytes(table_message(world))
    pot_as_roll = (await simcord_env.bot.tables.snapshot(1)).state.pot
    result = await choose(world, alice, "Kage's Endurance")
    private = [m.content for m in result.followups if m.ephemeral]
    assert any("second ante of 100" in text and "at the reveal" in text for text in private)
    # Byte for byte the same table, pot and wallets as after choosing Roll.
    assert table_bytes(table_message(world)) == as_roll
    assert (await simcord_env.bot.tables.snapshot(1)).state.pot == pot_as_roll == 300
    assert [await wallet(world, m) for m in (alice, bob, carol)] == wallets
    shown = answered(await bob.slash(world.channel, "wallet", member=alice))
    assert "900" in refusal(shown)

    # The reveal takes the second ante: alice's wallet drops and the pot shows it.
    dice.extend([15, 4, 9, 9])
    await choose(world, bob)
    await choose(world, carol)
    text = table_message(world).embeds[0].description
    assert "🛡️ 15 and 4 → −4" in text and "[" not in text
    assert "Pot **400" in text
    assert await wallet(world, alice) == 800
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.stakes[alice.id] == 200 and snapshot.state.pot == 400


async def test_kage_is_refused_privately_when_the_wallet_cannot_cover_it(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice = world["alice"]
    await started(world, "alice", "bob", ante=600, kage_endurance=True)
    before = table_bytes(table_message(world))
    assert "holds 400" in refusal(await choose(world, alice, "Kage's Endurance"))
    assert await wallet(world, alice) == 400
    assert table_bytes(table_message(world)) == before
    assert (await simcord_env.bot.tables.snapshot(1)).state.choices == {}


async def test_kage_becomes_a_roll_when_the_wallet_runs_short_before_the_reveal(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    await world_gifts_unheld(world)
    alice, bob = world["alice"], world["bob"]
    await started(world, "alice", "bob", ante=100, kage_endurance=True)
    await choose(world, alice, "Kage's Endurance")
    answered(await alice.slash(world.channel, "give", member=bob, amount=850))
    assert await wallet(world, alice) == 50
    # The first attempt at the reveal rolls Kage's two dice and bob's, then cannot take
    # alice's second ante and is rolled back (fair dice would replay the same words;
    # scripted ones are used up); the retry rolls one d20 each.
    dice.extend([1, 2, 3, 7, 9])
    await choose(world, bob)
    text = table_message(world).embeds[0].description
    assert (
        f"<@{alice.id}>'s Kage's Endurance became a Roll: "
        "the wallet could not pay the second ante" in text
    )
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.round == 2 and snapshot.state.stamina[alice.id] == 193
    assert snapshot.state.stakes[alice.id] == 100 and await wallet(world, alice) == 50
    _, log = await simcord_env.bot.tables.history(1, world.guild.id)
    fixes = [row for row in log if json.loads(row.action_json)["kind"] == "kage_unpaid"]
    assert len(fixes) == 1 and fixes[0].actor_id is None


async def test_a_host_who_is_not_a_moderator_cannot_eject(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, carol = world["alice"], world["carol"]
    await started(world, "alice", "bob", "carol", ante=10)
    before = await simcord_env.bot.tables.snapshot(1)
    message = table_bytes(table_message(world))
    assert EJECT_REFUSAL in refusal(await alice.slash(world.channel, "nihakyu eject", member=carol))
    after = await simcord_env.bot.tables.snapshot(1)
    assert after.row.version == before.row.version and after.state.stamina[carol.id] == 200
    assert table_bytes(table_message(world)) == message


async def test_a_seated_moderator_cannot_eject(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, mod = world["alice"], world.moderator
    table = answered(await alice.slash(world.channel, "nihakyu open", ante=10)).response.message
    answered(await world["bob"].click(table, label="Join"))
    answered(await mod.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    before = await simcord_env.bot.tables.snapshot(1)
    text = refusal(await mod.slash(world.channel, "nihakyu eject", member=alice))
    assert "You have a seat at this table" in text
    after = await simcord_env.bot.tables.snapshot(1)
    assert after.row.version == before.row.version and after.state.eliminated == []


async def test_a_moderator_who_is_not_seated_ejects_and_is_named(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    carol, mod = world["carol"], world.moderator
    await started(world, "alice", "bob", "carol", ante=10)
    answered(await mod.slash(world.channel, "nihakyu eject", member=carol))
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.stamina[carol.id] == 0
    text = table_message(world).embeds[0].description
    assert f"<@{carol.id}> is **ejected** by <@{mod.id}>" in text
    _, log = await simcord_env.bot.tables.history(1, world.guild.id)
    assert json.loads(log[-1].action_json) == {"kind": "eject", "target": carol.id}
    assert log[-1].actor_id == mod.id


async def test_sleight_window_asks_only_rollers_and_closes_once_they_answered(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    await started(
        world, "alice", "bob", "carol", ante=10, shadow_step=True, shinobi_interference=True
    )
    await choose(world, alice, "Shadow Step")
    await choose(world, bob)
    dice.extend([10, 12])
    await choose(world, carol)
    embed = table_message(world).embeds[0]
    window = embed.description.splitlines()[0]
    assert "Sleight of Hand" in window
    assert f"<@{bob.id}>" in window and f"<@{carol.id}>" in window
    assert f"<@{alice.id}>" not in window
    rows = {line.split(" ")[0]: line for line in embed.fields[0].value.splitlines()}
    assert rows[f"<@{alice.id}>"].endswith("**200**"), "a stepper is not asked"
    assert rows[f"<@{bob.id}>"].endswith("⏳")
    assert "Shadow Stepped" in refusal(await alice.click(table_message(world), label="Pass"))

    answered(await bob.click(table_message(world), label="Pass"))
    assert (await simcord_env.bot.tables.snapshot(1)).state.phase == "sleight"
    dice.extend([5])
    answered(await carol.click(table_message(world), label="Sleight +1"))
    # No time passed: the last roller's answer closed the window.
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.phase == "choosing" and snapshot.state.round == 2
    assert snapshot.state.stamina == {alice.id: 195, bob.id: 190, carol.id: 188}
    assert "Round 2: choose in secret" in table_message(world).embeds[0].description


async def test_natural_one_is_caught_only_with_the_house_option(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol", "dave")
    alice, bob, carol, dave = (world[n] for n in ("alice", "bob", "carol", "dave"))
    await started(world, "alice", "bob", ante=10, shinobi_interference=True)
    assert not (await simcord_env.bot.tables.snapshot(1)).rules.caught_on_natural_one
    dice.extend([10, 10])
    await choose(world, alice)
    await choose(world, bob)
    answered(await alice.click(table_message(world), label="Sleight +1"))
    dice.extend([1])
    answered(await bob.click(table_message(world), label="Pass"))
    assert (await simcord_env.bot.tables.snapshot(1)).state.eliminated == []

    channel = world.guild.create_text_channel("second")
    await server_rules(world, caught_on_natural_one="on")  # a sanction: a moderator's rule
    table = answered(
        await carol.slash(channel, "nihakyu open", ante=10, shinobi_interference=True)
    ).response.message
    answered(await dave.click(table, label="Join"))
    answered(await carol.click(table, label="Start"))
    dice.extend([10, 10])
    for member in (carol, dave):
        answered(await member.click(table_message(world, channel), label="Roll"))
    answered(await carol.click(table_message(world, channel), label="Sleight +1"))
    dice.extend([1])
    answered(await dave.click(table_message(world, channel), label="Pass"))
    snapshot = await simcord_env.bot.tables.snapshot(2)
    assert snapshot.state.finished and snapshot.state.winner == dave.id
    assert "caught cheating" in table_message(world, channel).embeds[0].description


async def test_dealers_blood_ending_shows_shares_and_their_stamina(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    # The house's share: the server's rule, and with it the Stamina the Dealer starts at.
    await server_rules(world, dealers_blood="on", starting_stamina="20")
    await started(world, "alice", "bob", ante=10)
    dice.extend([5, 1, 1])
    await choose(world, alice)
    await choose(world, bob)
    dice.extend([20, 20, 1])
    await choose(world, alice)
    await choose(world, bob)
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.dealer_won
    # Pot 20: the house takes 10; 10 shared 15:19 is 4.41 / 5.59, the leftover coin to bob.
    text = table_message(world).embeds[0].description
    assert f"<@{alice.id}> 4 ryō (Stamina 15)" in text, text
    assert f"<@{bob.id}> 6 ryō (Stamina 19)" in text
    assert await wallet(world, alice) == 994 and await wallet(world, bob) == 996


async def test_a_moderator_aborts_a_running_table_and_every_ante_goes_back(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started(world, "alice", "bob", ante=100, kage_endurance=True)
    dice.extend([3, 4, 5])
    await choose(world, alice, "Kage's Endurance")
    await choose(world, bob)
    assert await wallet(world, alice) == 800
    assert "moderator" in refusal(await alice.slash(world.channel, "cancel", table=1))
    answered(await world.moderator.slash(world.channel, "cancel", table=1))
    assert await wallet(world, alice) == 1000 and await wallet(world, bob) == 1000
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.aborted and snapshot.state.winner is None
    text = table_message(world).embeds[0].description
    assert "aborted" in text


async def test_moderator_ejects_a_player(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    table = (await alice.slash(world.channel, "nihakyu open", ante=10)).response.message
    await bob.click(table, label="Join")
    await carol.click(table, label="Join")
    await alice.click(table, label="Start")
    assert EJECT_REFUSAL in refusal(await bob.slash(world.channel, "nihakyu eject", member=carol))
    answered(await world.moderator.slash(world.channel, "nihakyu eject", member=carol))
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.stamina[carol.id] == 0
    assert "ejected" in table_message(world).embeds[0].description


async def test_a_finished_table_heads_its_seats_without_the_waiting_marks(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started(world, "alice", "bob", ante=10, starting_stamina=20)
    heading = table_message(world).embeds[0].fields[0].name
    assert heading == "Stamina (✅ chosen · ⏳ waiting · 🔁 Roll for me)"
    dice.extend([1, 20])
    await choose(world, alice)
    await choose(world, bob)
    assert (await simcord_env.bot.tables.snapshot(1)).state.finished
    heading = table_message(world).embeds[0].fields[0].name
    assert "waiting" not in heading and "chosen" not in heading
    assert heading == "Stamina at the end (✖ out)"
