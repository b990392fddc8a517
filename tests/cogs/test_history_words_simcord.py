"""/history in words (issue 27): every line a player reads is a sentence — the table
message's own for what happened, the game's words for what was done — never an action's
repr or an event's kind."""

from __future__ import annotations

import re

from tests.cogs import test_fortunes_winds_simcord as fws
from tests.cogs import test_hazard_simcord as hz
from tests.cogs import test_nihakyu_simcord as nk
from tests.support.sim import answered, make_world

REPR = re.compile(r"\w\(\w+=|→|__\w+__|\b[a-z]+_[a-z_]+\b")
"""A repr (``bid(amount=6``), an event list (``→ player_bid``), a step's internal name."""


async def history(world, member) -> str:
    shown = answered(await member.slash(world.channel, "history", table=1), ephemeral=True)
    return str(shown.response.embeds[0].description)


async def test_hazards_history_reads_as_sentences(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "hazard open")).response.message
    await bob.click(table, label="Join")
    answered(await alice.click(table, label="Start"))
    answered(await bob.slash(world.channel, "hazard bet", kind="with", amount=10))
    await hz.call_main(world, alice, 7)
    await hz.ready(world, bob)
    dice.extend([3, 4])
    await hz.throw(world, alice)
    text = await history(world, bob)
    assert not REPR.search(text), text
    assert f"<@{bob.id}> bets 10 ryō with the caster." in text
    assert f"<@{bob.id}> wins the bet with the caster: +10 ryō." in text
    assert f"<@{alice.id}>: opened the table" in text


async def test_fortunes_history_shows_the_dice_set_aside_as_they_were(simcord_env, dice):
    world = await fws.started(simcord_env, "alice", "bob")
    alice = world["alice"]
    answered(await fws.bet(world, alice, "shooter", 5))
    dice.extend([fws.NORTH, fws.EAST, fws.FIRE, fws.BIRD, fws.VOID])
    answered(await fws.click(world, alice, "Roll"))
    answered(await fws.click(world, alice, "北 North"))
    dice.extend([1, 1, 1, 1])  # roll 2: water, fire, air and the black die change
    answered(await fws.click(world, alice, "Roll again"))
    text = await history(world, alice)
    assert not REPR.search(text), text
    assert "Set aside: 北 North." in text, text
    assert f"<@{alice.id}> bets 5 ryō" in text


async def test_nihakyus_history_names_each_revealed_choice(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await nk.started(world, "alice", "bob", ante=10, starting_stamina=40, shadow_step=True)
    dice.extend([3, 4])
    await nk.choose(world, alice)
    before = await history(world, bob)
    assert "chose" not in before, "a choice is listed only once revealed"
    await nk.choose(world, bob, "Shadow Step")
    text = await history(world, bob)
    assert not REPR.search(text), text
    assert f"<@{alice.id}>: chose Roll (lose 1d20)" in text
    assert f"<@{bob.id}>: chose Shadow Step (lose 5, no roll)" in text
