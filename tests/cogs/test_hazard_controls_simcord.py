"""Hazard shows only the controls usable now (issue 34): a member reads the table's buttons
as what it asks of them, so a control that cannot be used at this moment is not there
(never a greyed-out one), and the count stays small (13 before: every control at once)."""

from __future__ import annotations

from typing import Any

from bot.games import hazard
from cogs._ui.custom_ids import ComponentId
from tests.cogs.test_hazard_simcord import call_main, ready, throw
from tests.support.sim import answered, components, make_world

ALWAYS = ["join", "leave", "close", "watch"]
"""Usable at every moment of a running table: a newcomer joins, a player cashes out, the
host closes, anyone watches."""


def verbs(message: Any) -> list[str]:
    """The message's controls by verb (a bet by its kind), in their order."""
    shown = []
    for child in components(message):
        assert not getattr(child, "disabled", False), f"a greyed-out control: {child}"
        cid = ComponentId.parse(str(child.custom_id))
        assert cid is not None
        shown.append(f"{cid.verb}:{cid.arg}" if cid.verb == "bet" else cid.verb)
    return shown


async def test_each_moment_shows_only_what_can_be_done(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "hazard open")).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))

    # Before the main: the caster calls it (or passes the dice); bets are open.
    state = (await world.env.bot.tables.snapshot(1)).state
    assert state.main is None and hazard.can_pass_dice(state) and hazard.betting_open(state)
    bets = ["bet:with", "bet:against", "bet:caster"]
    assert verbs(world.channel.last_message) == ["main", "pass", *bets, *ALWAYS]

    # The main called: the betting window waits for bob; no Throw until it closes.
    await call_main(world, alice, 7)
    state = (await world.env.bot.tables.snapshot(1)).state
    assert state.window_open and hazard.can_pass_dice(state)
    assert verbs(world.channel.last_message) == ["pass", "ready", *bets, *ALWAYS]

    # Bob is ready: the window and the bets close; the caster throws.
    await ready(world, bob)
    state = (await world.env.bot.tables.snapshot(1)).state
    assert not state.window_open and not hazard.betting_open(state)
    assert verbs(world.channel.last_message) == ["throw", "pass", *ALWAYS]

    # A chance (4 on a main of 7): the caster throws again; the odds are offered.
    dice.extend([2, 2])
    await throw(world, alice)
    state = (await world.env.bot.tables.snapshot(1)).state
    assert state.chance == 4 and not hazard.can_pass_dice(state)
    odds = ["bet:odds_for", "bet:odds_against"] if state.rules.odds_bets else []
    assert verbs(world.channel.last_message) == ["throw", *odds, *ALWAYS]
    assert len(components(world.channel.last_message)) <= 8
