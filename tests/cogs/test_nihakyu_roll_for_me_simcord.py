"""Nihakyu's "Roll for me" through Discord: a default table played with two clicks a
player, rounds that roll without waiting for the round's clock, and no such button where a
choice is still secret."""

from __future__ import annotations

from bot.games import nihakyu
from tests.cogs.test_nihakyu_simcord import table_message
from tests.support.sim import answered, labels, make_world, refusal


async def opened(world, *options):
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "nihakyu open", **dict(options)))
    answered(await bob.click(table.response.message, label="Join"))
    answered(await alice.click(table.response.message, label="Start"))
    return table_message(world)


async def test_two_clicks_each_play_a_default_table_to_its_end(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    message = await opened(world)
    assert "Roll for me" in labels(message)
    result = answered(await alice.click(message, label="Roll for me"))
    private = [m.content for m in result.followups if m.ephemeral]
    assert any("**Roll for me** is on" in text for text in private), private
    seats = table_message(world).embeds[0].fields[0].value
    assert seats.count("🔁") == 1 and seats.count("✅") == 1 and seats.count("⏳") == 1
    dice.extend([20, 1])
    answered(await bob.click(table_message(world), label="Roll for me"))  # resolves round 1
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert state.round == 2 and state.stamina == {alice.id: 180, bob.id: 199}
    # From here no one clicks: each round rolls at the short deadline, not the round's 60 s.
    rounds = 1
    while not state.finished:
        dice.extend([20, 19])
        assert state.choices == {alice.id: "roll", bob.id: "roll"}
        await simcord_env.advance_time(nihakyu.ROLL_FOR_ME_SECONDS)
        state = (await simcord_env.bot.tables.snapshot(1)).state
        rounds += 1
    assert state.winner == bob.id and rounds == 10
    assert "wins the pot" in table_message(world).embeds[0].description


async def test_a_hand_chooser_beside_roll_for_me_resolves_the_round_at_once(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await opened(world)
    answered(await alice.click(table_message(world), label="Roll for me"))
    for round_number in (1, 2, 3):
        dice.extend([5, 6])
        answered(await bob.click(table_message(world), label="Roll"))
        state = (await simcord_env.bot.tables.snapshot(1)).state
        assert state.round == round_number + 1, "bob's click rolled the round"
    # Alice turns it off: her next round's choice is hers again.
    answered(await alice.click(table_message(world), label="Roll for me"))
    dice.extend([5, 6])
    answered(await bob.click(table_message(world), label="Roll"))
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert state.choices == {} and state.roll_for_me == []


async def test_no_roll_for_me_while_a_choice_is_secret(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    message = await opened(world, ("shadow_step", True), ("shadow_step_uses", 1))
    assert "Roll for me" not in labels(message), "everyone still has a Shadow Step"
    answered(await alice.click(message, label="Shadow Step"))
    dice.extend([7])
    answered(await bob.click(table_message(world), label="Roll"))
    # Alice's Shadow Step is spent: Roll is her only choice, and the button is there.
    message = table_message(world)
    assert "Roll for me" in labels(message)
    text = refusal(await bob.click(message, label="Roll for me"))
    assert "only while Roll is your only choice" in text
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert state.choices == {} and state.roll_for_me == []
    answered(await alice.click(table_message(world), label="Roll for me"))
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert state.choices == {alice.id: "roll"} and state.roll_for_me == [alice.id]
