"""Fortunes and Winds' rough edges (issue 27), as the member sees them: the best keep in one
click with its chances first, the odds screen in words, the guard's refusals in the
table's currency, and a private word on cashing out."""

from __future__ import annotations

from bot.games import fortunes_winds as fw
from tests.cogs.test_fortunes_winds_simcord import (
    BIRD,
    EAST,
    FIRE,
    MOON,
    NORTH,
    VOID,
    bet,
    click,
    description,
    started,
    state,
    table_message,
)
from tests.support.sim import answered, labels, make_world, refusal


async def test_roll_with_best_keep_sets_the_engines_keep_aside_and_rolls(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    answered(await bet(world, alice, "shooter", 5))
    assert "Roll with best keep" not in labels(await table_message(world)), "not before roll 1"
    dice.extend([NORTH, EAST, FIRE, BIRD, VOID])
    answered(await click(world, alice, "Roll"))
    before = await state(world)
    keep = fw.best_keep(before)
    assert keep, "North and East are worth keeping"

    # The hint leads with the two chances that matter, exactly, and names the button.
    advice = fw.keep_advice(before)
    assert advice is not None
    win = sum(p for (_, r), p in advice.outcomes.items() if r not in ("moon", "nothing"))
    moon = sum(p for (_, r), p in advice.outcomes.items() if r == "moon")
    hint = answered(await click(world, alice, "Best keep"), ephemeral=True).response.content
    lines = hint.splitlines()
    assert "Roll with best keep" in lines[0]
    assert f"wins the turn {float(win) * 100:.2f}%" in lines[1]
    assert f"meets Lord Moon {float(moon) * 100:.2f}%" in lines[1]
    assert len(lines) <= 5, "one line per roll, not one per outcome"

    # Someone else's click changes nothing.
    assert "shooter" in refusal(await click(world, bob, "Roll with best keep")).lower()
    assert (await state(world)).set_aside == []

    dice.extend([1] * (5 - len(keep) - 1) + [MOON])
    answered(await click(world, alice, "Roll with best keep"))
    after = await state(world)
    assert dice.remaining == 0
    assert "Set aside: " in description(await table_message(world))
    assert after.shooter == bob.id, "roll 2 was rolled (Moon ended the turn)"


async def test_the_odds_screen_speaks_in_words_and_percentages(simcord_env):
    world = await make_world(simcord_env, "alice")
    result = answered(await world["alice"].slash(world.channel, "fortunes odds"), ephemeral=True)
    embed = result.response.embeds[0]
    shooter = {f.name: f.value for f in embed.fields}["Shooter"]
    assert "/" not in shooter, "no raw fraction"
    assert "loses 10.88% of the shooter's bet" in shooter
    assert "per coin staked" not in embed.description


async def test_the_guard_speaks_the_currency_and_waits_for_the_shooters_bet(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    early = refusal(await bet(world, bob, "hungry", 50))
    assert "Wait for the shooter's bet" in early and "takes no more" not in early
    answered(await bet(world, alice, "shooter", 10))
    text = refusal(await bet(world, bob, "hungry", 50))
    assert "house guard" in text and "50 ryō" in text and "more on it now" in text
    assert "coin" not in text
    assert (await state(world)).bets == {alice.id: {"shooter": 10}}


async def test_cashing_out_answers_privately_with_the_amount(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", "carol")
    alice, carol = world["alice"], world["carol"]
    answered(await bet(world, alice, "shooter", 3))
    answered(await bet(world, carol, "daikoku", 2))
    dice.extend([1, 1, 1, 1, 1])  # Shinsei's Blessing on roll 1: carol wins 3
    answered(await click(world, alice, "Roll"))
    result = answered(await click(world, carol, "Cash out"))
    private = [m.content for m in result.followups if m.ephemeral]
    assert any("You cashed out" in m and "+3 ryō" in m for m in private), private
