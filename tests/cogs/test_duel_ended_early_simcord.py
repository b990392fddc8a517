"""A moderator ends a Strength Duel the house stakes (rules: "Ended early"): the pot is
settled at the position's exact value from the table the computer plays by, not returned,
and the table, the member's panel, /history and the ledger say who received what, in
English and in Japanese. A duel between members ended so still returns every stake."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import pytest

from bot.games.common import COMPUTER_IDS
from bot.players import strength_duel as duel_player
from bot.service import Actor
from tests.support.japanese import english_in, make_japanese_world, texts_of
from tests.support.sim import answered, make_world, message_text, the_bot, wallet

COMPUTER = COMPUTER_IDS[0]
STAKE = 10


async def house(world: Any) -> int:
    return (await world.env.bot.economy.settings(world.guild.id)).house_balance


async def duel_one_round_in(world: Any, dice: Any, bid: int) -> tuple[Any, int]:
    """alice challenges the computer for ``STAKE`` and bids ``bid`` in round 1 (the
    computer its mix's lowest bid, with scripted ``dice``); the state after the reveal and
    the house bank before."""
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    bank = await house(world)
    if dice is not None:
        dice.extend([1] * 60)
    me = the_bot(world)
    answered(await alice.slash(world.channel, "duel challenge", member=me, stake=STAKE))
    answered(await alice.user.click(alice.user.dm_channel.last_message, label=str(bid)))
    state = (await world.env.bot.tables.snapshot(1)).state
    assert state.round == 2 and not state.finished
    return state, bank


def members_share(own: int, other: int) -> int:
    pot = 2 * STAKE
    return pot // 2 if own == other else math.floor(pot * Fraction(duel_player.value(own, other)))


async def table_message(world: Any) -> Any:
    snapshot = await world.env.bot.tables.snapshot(1)
    return next(m for m in world.channel.history() if m.id == snapshot.row.message_id)


async def test_a_moderators_end_settles_the_house_staked_pot_at_its_value(simcord_env, dice):
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    state, bank = await duel_one_round_in(world, dice, bid=2)
    own, other = state.strength[alice.id], state.strength[COMPUTER]
    assert own != other, "round 1 left the strengths apart"
    share = members_share(own, other)
    assert 0 < share < 2 * STAKE

    answered(await mod.slash(world.channel, "cancel", table=1))
    ended = (await simcord_env.bot.tables.snapshot(1)).state
    assert ended.settled == {alice.id: share, COMPUTER: 2 * STAKE - share}
    assert await wallet(world, alice) == 1_000 - STAKE + share
    assert await house(world) == bank - STAKE + (2 * STAKE - share)
    totals = await simcord_env.bot.economy.totals(world.guild.id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted and totals.escrow == 0

    percent = f"{duel_player.value(own, other):.1%}"
    public = message_text(await table_message(world))
    assert f"**Stopped by <@{mod.id}>** in round 2" in public
    assert "the pot of 20 ryō is settled at the position's value" in public
    assert f"At strength {own} against {other}, <@{alice.id}> wins **{percent}**" in public
    assert f"they receive {share} ryō" in public
    assert f"the house {2 * STAKE - share} ryō" in public
    panel = alice.user.dm_channel.last_message.content
    assert "settled at the position's value" in panel and f"they receive {share} ryō" in panel

    history = message_text(answered(await alice.slash(world.channel, "history", table=1)).response)
    assert "is settled at the position's value" in history and f"receive {share} ryō" in history
    audit = answered(await mod.slash(world.channel, "economy audit", member=alice)).response
    movements = audit.embeds[0].fields[0].value
    assert f"**+{share} ryō** from table #1 · table (settled at value)" in movements


async def test_a_settled_duel_verifies_and_replays_as_logged(simcord_env):
    # Fair dice (the computer's bid drawn from the table's seed): /verify replays the
    # settlement from the log, the chance it was made at included.
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    state, _bank = await duel_one_round_in(world, None, bid=2)
    share = members_share(state.strength[alice.id], state.strength[COMPUTER])
    answered(await world.moderator.slash(world.channel, "cancel", table=1))
    assert await wallet(world, alice) == 1_000 - STAKE + share
    report = answered(await alice.slash(world.channel, "verify", table=1), ephemeral=True)
    assert "✅" in report.response.embeds[0].description


async def test_ended_while_level_the_member_gets_their_stake_back(simcord_env, dice):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    dice.extend([1] * 60)
    answered(await alice.slash(world.channel, "duel challenge", member=the_bot(world), stake=7))
    outcome = await simcord_env.bot.tables.cancel(1, Actor(world.moderator.id, True))
    assert outcome.snapshot.state.settled == {alice.id: 7, COMPUTER: 7}
    assert await wallet(world, alice) == 1_000


async def test_a_duel_between_members_ended_by_a_moderator_returns_every_stake(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    challenge = await alice.slash(world.channel, "duel challenge", member=bob, stake=STAKE)
    answered(await bob.click(answered(challenge).response.message, label="Accept"))
    answered(await alice.user.click(alice.user.dm_channel.last_message, label="9"))
    answered(await bob.user.click(bob.user.dm_channel.last_message, label="1"))
    assert (await simcord_env.bot.tables.snapshot(1)).state.round == 2
    answered(await world.moderator.slash(world.channel, "cancel", table=1))
    ended = (await simcord_env.bot.tables.snapshot(1)).state
    assert ended.aborted and ended.settled == {}
    assert await wallet(world, alice) == 1_000 and await wallet(world, bob) == 1_000


async def test_the_settlement_reads_in_japanese(
    simcord_env, dice, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, "alice")
    alice, mod = world["alice"], world.moderator
    state, _bank = await duel_one_round_in(world, dice, bid=2)
    share = members_share(state.strength[alice.id], state.strength[COMPUTER])
    ended = answered(await mod.slash(world.channel, "cancel", table=1))
    public = message_text(await table_message(world))
    panel = alice.user.dm_channel.last_message.content
    history = answered(await alice.slash(world.channel, "history", table=1))
    audit = answered(await mod.slash(world.channel, "economy audit", member=alice))
    assert "局面の価値" in public and "局面の価値" in panel
    assert re.search(rf"(?<!\d){share} ?両", public), "the member's share, in 両"
    shown = [public, panel, *texts_of([ended, history, audit])]
    assert english_in(shown, names=("alice", "mod")) == []
