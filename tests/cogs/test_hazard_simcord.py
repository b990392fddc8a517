"""A Hazard session through Discord, from lobby to cash-out."""

from __future__ import annotations

from tests.support.sim import answered, button_of, labels, make_world, refusal, select_id, wallet


async def house(world) -> int:
    return (await world.env.bot.economy.settings(world.guild.id)).house_balance


async def call_main(world, member, main: int):
    table = world.channel.last_message
    return answered(await member.select(table, [str(main)], custom_id=select_id(table, "main")))


async def throw(world, member):
    return answered(await member.click(world.channel.last_message, label="Throw"))


async def ready(world, *members):
    for member in members:
        answered(await member.click(world.channel.last_message, label="Ready"))


async def test_a_full_session(simcord_env, bot_factory, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol", "dave")
    alice, bob, carol, dave = (world[name] for name in ("alice", "bob", "carol", "dave"))
    bank_before = await house(world)
    opened = answered(await alice.slash(world.channel, "hazard open", max_stake=500))
    table = opened.response.message
    await bob.click(table, label="Join")
    await carol.click(table, label="Join")
    answered(await alice.click(table, label="Start"))

    # Round 1: bets, the main, a chance, the odds, a restart mid-chance, the chance wins.
    picker = answered(await bob.click(world.channel.last_message, label="Bet with"), ephemeral=True)
    shown = answered(await bob.click(picker.response.message, label="Other amount…"))
    assert shown.modal is not None
    answered(await bob.submit_modal(shown, {"amount": "100"}))
    answered(await carol.slash(world.channel, "hazard bet", kind="against", amount=50))
    answered(await alice.slash(world.channel, "hazard bet", kind="caster", amount=20))
    seats = "\n".join(field.value for field in world.channel.last_message.embeds[0].fields)
    assert "against the caster 50 ryō" in seats, "a bet is shown as coins, with the currency"
    assert (
        "odds"
        in refusal(await bob.slash(world.channel, "hazard bet", kind="odds_for", amount=10)).lower()
    )
    assert "Throw" not in labels(world.channel.last_message), "no main called yet"
    await call_main(world, alice, 7)
    assert "Throw" not in labels(world.channel.last_message), "the betting window is open"
    assert "not seated" in refusal(await dave.click(world.channel.last_message, label="Ready"))
    await ready(world, bob, carol)
    assert not button_of(world.channel.last_message, "Throw").disabled
    assert "not seated" in refusal(await dave.click(world.channel.last_message, label="Throw"))
    assert "caster" in refusal(await bob.click(world.channel.last_message, label="Throw"))

    dice.extend([2, 2])  # 4: the chance
    await throw(world, alice)
    text = world.channel.last_message.embeds[0].description
    assert "chance: **4**" in text and "⚁ ⚁ = 4" in text
    assert (
        "throw"
        in refusal(await carol.slash(world.channel, "hazard bet", kind="against", amount=5)).lower()
    ), "the bet window closed at the first throw"
    assert "at most" in refusal(
        await bob.slash(world.channel, "hazard bet", kind="odds_for", amount=101)
    )
    answered(await bob.slash(world.channel, "hazard bet", kind="odds_for", amount=100))
    dice.extend([1, 2])  # 3: throw again
    await throw(world, alice)

    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory(dice_factory=lambda row: dice))
    dice.extend([3, 1])  # 4: the chance comes, the caster wins
    await throw(world, alice)  # a button on the message drawn before the restart

    assert await wallet(world, alice) == 1020
    assert await wallet(world, bob) == 1000 + 100 + 200  # even money, then odds 6:3
    assert await wallet(world, carol) == 950

    # Three losses in a row pass the dice to bob; the betting window closes each time,
    # by Ready or by its deadline.
    for round_ in range(3):
        await call_main(world, alice, 7)
        if round_ == 1:
            await simcord_env.advance_time(21)
        else:
            await ready(world, bob, carol)
        dice.extend([1, 1])  # 2: throws out
        await throw(world, alice)
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.caster == bob.id
    assert "pass to" in world.channel.last_message.embeds[0].description

    # Carol cashes out; the bank paid exactly what the players won.
    answered(await carol.click(world.channel.last_message, label="Cash out"))
    assert carol.id not in (await simcord_env.bot.tables.snapshot(1)).state.seats
    assert await house(world) == bank_before - 270
    totals = await simcord_env.bot.economy.totals(world.guild.id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted


async def test_bad_bets_change_nothing(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = (await alice.slash(world.channel, "hazard open", max_stake=2000)).response.message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    assert "holds 1,000" in refusal(
        await bob.slash(world.channel, "hazard bet", kind="with", amount=1500)
    )
    shown = await bob.click(world.channel.last_message, label="Bet with")
    shown = await bob.click(shown.response.message, label="Other amount…")
    assert "not a whole number" in refusal(await bob.submit_modal(shown, {"amount": "ten"}))
    shown = await bob.click(world.channel.last_message, label="Bet with")
    shown = await bob.click(shown.response.message, label="Other amount…")
    assert "not a whole number" in refusal(await bob.submit_modal(shown, {"amount": "1²"}))
    assert "caster" in refusal(
        await bob.slash(world.channel, "hazard bet", kind="caster", amount=5)
    )
    assert await wallet(world, bob) == 1000
    assert (await simcord_env.bot.tables.snapshot(1)).state.bets == {}


async def test_absent_caster_has_the_throw_made_and_loses_the_dice(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = (await alice.slash(world.channel, "hazard open", throw_seconds=60)).response.message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    dice.extend([3, 4, 3, 4])  # two absent rounds, each a nick on the called 7
    for _ in range(2):
        await simcord_env.advance_time(61)  # the table calls 7: bob gets his window
        assert "called by the table" in world.channel.last_message.embeds[0].description
        await simcord_env.advance_time(21)  # the window's time is up
        assert "Time is up" in world.channel.last_message.embeds[0].description
        await simcord_env.advance_time(61)  # the table throws
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.caster == bob.id, "two absent rounds in a row lose the dice"


async def test_odds_command_shows_exact_fractions(simcord_env):
    world = await make_world(simcord_env, "alice")
    result = answered(await world["alice"].slash(world.channel, "hazard odds"), ephemeral=True)
    fields = {f.name: f.value for f in result.response.embeds[0].fields}
    assert "244/495" in fields["Main 7"]
    assert "1396/2835" in fields["Main 5"] and "6961/14256" in fields["Main 8"]
    # Every bet's edge for the bank is shown, and none is negative.
    assert "against 1.36%" in fields["Main 7"] and "against 0.43%" in fields["Main 6"]
    assert "caster/with 1.41%" in fields["Main 7"] and "odds 0.00%" in fields["Main 9"]
    assert "-" not in "".join(fields.values())


async def test_settlements_read_as_sentences(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "hazard open")).response.message
    await bob.click(table, label="Join")
    answered(await alice.click(table, label="Start"))
    answered(await bob.slash(world.channel, "hazard bet", kind="with", amount=10))
    await call_main(world, alice, 7)
    await ready(world, bob)
    dice.extend([3, 4])  # 7 on a main of 7: a nick, the caster wins
    await throw(world, alice)
    text = world.channel.last_message.embeds[0].description
    assert f"<@{bob.id}> wins the bet with the caster: +10 ryō." in text, text
    assert "wins on with" not in text
