"""The Watch DM at the end of each real game: a member watching the lobby gets one DM when
the table ends, naming the winners the game's final state names (Nihakyu and Strength Duel
a ``winner``, Nuki Hachi-hachi its ``winners``), or none for the banking games (Hazard,
Fortunes and Winds), whose state names no winner. Each game is driven to its end the
quickest way its own tests do (tests/cogs/test_stats_each_game_simcord.py and the games'
files); the coin-flip test game's Watch is in test_watch_simcord.py."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.dice import ScriptedDice
from tests.cogs.test_fortunes_winds_simcord import FORTUNES
from tests.cogs.test_fortunes_winds_simcord import click as fw_click
from tests.cogs.test_hachihachi_platform_simcord import (
    ALICE_FOUR_THREE,
    BOB_HAND,
    FIELD,
    REST,
    TURN_SECONDS,
    play_to_end,
)
from tests.cogs.test_hachihachi_simcord import Hands, deal
from tests.cogs.test_hazard_simcord import call_main, ready, throw
from tests.cogs.test_nihakyu_simcord import choose
from tests.cogs.test_strength_duel_simcord import SAMPLE_GAME, bid_by_dm
from tests.support.sim import answered, make_world


async def watch(member: Any, lobby: Any) -> None:
    shown = answered(await member.click(lobby, label="Watch"), ephemeral=True)
    assert "one DM when table #1 ends" in shown.response.content


def told(world: Any, watcher: Any, lobby: Any, winners: list[int]) -> None:
    """The watcher's one DM: the table ended, won by exactly `winners` (none: no names)."""
    history = watcher.user.dm_channel.history()
    assert len(history) == 1, "told once"
    note = history[0].content
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{lobby.id}"
    assert link in note, note
    if winners:
        names = ", ".join(f"<@{user_id}>" for user_id in winners)
        assert f"table #1 has ended: won by {names}." in note, note
    else:
        assert "table #1 has ended." in note and "won by" not in note, note


async def final_state(world: Any) -> Any:
    snapshot = await world.env.bot.tables.snapshot(1)
    assert snapshot.state.finished and not snapshot.row.live
    return snapshot.state


async def test_hazard(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    lobby = answered(await alice.slash(world.channel, "hazard open")).response.message
    await watch(carol, lobby)
    answered(await bob.click(lobby, label="Join"))
    answered(await alice.click(lobby, label="Start"))
    answered(await alice.slash(world.channel, "hazard bet", kind="caster", amount=20))
    answered(await bob.slash(world.channel, "hazard bet", kind="against", amount=30))
    await call_main(world, alice, 7)
    await ready(world, bob)
    dice.extend([3, 4])  # 7 on the first throw: a nick
    await throw(world, alice)
    for member in (bob, alice):
        answered(await member.click(world.channel.last_message, label="Cash out"))
    state = await final_state(world)
    assert not getattr(state, "winners", None) and getattr(state, "winner", None) is None
    told(world, carol, lobby, [])


async def test_nihakyu(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    lobby = answered(
        await alice.slash(world.channel, "nihakyu open", ante=30, starting_stamina=20)
    ).response.message
    await watch(carol, lobby)
    answered(await bob.click(lobby, label="Join"))
    answered(await alice.click(lobby, label="Start"))
    dice.extend([19, 20])  # alice survives at exactly 1 Stamina, bob falls
    await choose(world, alice)
    await choose(world, bob)
    assert (await final_state(world)).winner == alice.id
    told(world, carol, lobby, [alice.id])


async def test_strength_duel(simcord_env):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    lobby = answered(
        await alice.slash(world.channel, "duel challenge", member=bob, stake=10)
    ).response.message
    await watch(carol, lobby)
    answered(await bob.click(lobby, label="Accept"))
    for a_bid, b_bid in SAMPLE_GAME:  # bob wins in round 8
        await bid_by_dm(alice, a_bid)
        await bid_by_dm(bob, b_bid)
    assert (await final_state(world)).winner == bob.id
    told(world, carol, lobby, [bob.id])


async def test_fortunes_and_winds(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    lobby = answered(await alice.slash(world.channel, "fortunes open")).response.message
    await watch(carol, lobby)
    answered(await bob.click(lobby, label="Join"))
    answered(await alice.click(lobby, label="Start"))
    answered(await alice.slash(world.channel, "fortunes bet", kind="shooter", amount=5))
    answered(await bob.slash(world.channel, "fortunes bet", kind="against", amount=6))
    dice.extend([4, 4, 4, 4, FORTUNES])  # Fortunes and Winds rolled: the shooter wins
    answered(await fw_click(world, alice, "Roll"))
    for member in (bob, alice):
        answered(await fw_click(world, member, "Cash out"))
    state = await final_state(world)
    assert not getattr(state, "winners", None) and getattr(state, "winner", None) is None
    told(world, carol, lobby, [])


# The scripted deal of the Hachi-hachi /stats test (the bot plays with the test's `dice`).
@pytest.mark.parametrize(
    "dice", [ScriptedDice(orders=[deal(ALICE_FOUR_THREE, BOB_HAND, FIELD, REST)])], ids=["deal"]
)
async def test_nuki_hachihachi(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    lobby = answered(
        await alice.slash(
            world.channel,
            "hanafuda open",
            stake_per_kan=1,
            turn_seconds=TURN_SECONDS,
            rounds=1,
            first_dealer="first_seat",
            mizuten=False,
        )
    ).response.message
    await watch(carol, lobby)
    answered(await bob.click(lobby, label="Join"))
    answered(await alice.click(lobby, label="Start"))
    final = await play_to_end(world, Hands(world))
    assert final.winners, "the match names its winners"
    told(world, carol, lobby, list(final.winners))
