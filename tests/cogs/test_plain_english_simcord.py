"""Sentences a member reads as plain English (issue 34): a caster's stake is a bet on the
caster's own throw, a Hachi-hachi turn names the **My hand** button as a button, and a
seat's hold is a stake only where the game may take it: Hachi-hachi's is a deposit that
comes back."""

from __future__ import annotations

from tests.cogs import test_hazard_simcord as hz
from tests.cogs.test_history_words_simcord import history
from tests.cogs.test_strength_duel_simcord import challenge
from tests.support.sim import answered, make_world, message_text


async def test_a_casters_stake_reads_as_a_bet_on_their_own_throw(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "hazard open")).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    answered(await alice.slash(world.channel, "hazard bet", kind="caster", amount=20))
    await hz.call_main(world, alice, 7)
    await hz.ready(world, bob)
    dice.extend([3, 4])
    await hz.throw(world, alice)
    text = await history(world, bob)
    assert f"<@{alice.id}> bets 20 ryō on their own throw (caster's stake)." in text, text
    assert "ryō caster's stake" not in text


async def open_hanafuda(world):
    opened = answered(
        await world["alice"].slash(
            world.channel, "hanafuda open", stake_per_kan=1, first_dealer="first_seat"
        )
    )
    return opened.response.message


async def test_a_hachi_hachi_seat_is_a_deposit_that_comes_back(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    lobby = message_text(await open_hanafuda(world))
    assert "Stake to sit" not in lobby, lobby
    assert "Deposit to sit: **127 ryō**, back to you when the match ends." in lobby, lobby


async def test_a_hachi_hachi_turn_names_the_my_hand_button(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    table = await open_hanafuda(world)
    answered(await world["bob"].click(table, label="Join"))
    answered(await world["alice"].click(table, label="Start"))
    shown = message_text(world.channel.last_message)
    # The turn line says what the dealer decides; the My hand button is on the message.
    assert "mizuten (play blind) or look at the hand" in shown, shown
    assert "in their **My hand**" not in shown


async def test_a_duels_stake_is_still_a_stake(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    table = await challenge(world, world["alice"], world["bob"], stake=10)
    assert "Stake to sit: **10 ryō**" in message_text(table)
