"""Fortunes and Winds through Discord, issue 24: the amount picker offers only whole-pays
multiples (its Max the guard's exact limit), and the computer's stakes are the house's —
on its turn a member's Hungry Moon is refused however big the table minimum, and the
table still verifies (its replay knows the computer's seat)."""

from __future__ import annotations

from typing import Any

from bot.games import fortunes_winds as fw
from bot.games.common import COMPUTER_IDS
from tests.cogs.test_fortunes_winds_simcord import bet, click, started, state
from tests.support.sim import answered, labels, make_world, refusal

COMPUTER = COMPUTER_IDS[0]


def amounts(picker: Any) -> tuple[list[int], int]:
    """The quick amounts a picker offers and its Max."""
    shown = labels(picker.response.message)
    quick = [int(label.replace(",", "")) for label in shown if label.replace(",", "").isdigit()]
    (top,) = [label for label in shown if label.startswith("Max")]
    return quick, int(top.removeprefix("Max (").removesuffix(")").replace(",", ""))


async def test_the_amount_picker_offers_only_whole_pays_multiples(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", max_stake=100)
    alice, bob = world["alice"], world["bob"]
    answered(await bet(world, alice, "shooter", 10))
    for button, kind, step in (("Daikoku's Belly", "daikoku", 2), ("Against", "against", 3)):
        picker = answered(await click(world, bob, button), ephemeral=True)
        assert f"multiples of {step}" in picker.response.content
        quick, top = amounts(picker)
        assert quick and all(amount % step == 0 for amount in quick), quick
        # Max is the guard's exact limit (every multiple up to it is taken), a multiple.
        limit = fw.guard_limit(await state(world), bob.id, kind)  # type: ignore[arg-type]
        assert top == min(limit, 100 - 100 % step) and top % step == 0, (top, limit)
    # The Max of Against is placed as offered: whole pays, taken by the guard.
    picker = answered(await click(world, bob, "Against"), ephemeral=True)
    _, top = amounts(picker)
    answered(await bob.click(picker.response.message, label=f"Max ({top:,})"))
    assert (await state(world)).bets[bob.id] == {"against": top}
    assert "multiples of 2" in refusal(await bet(world, bob, "daikoku", 3))


async def test_on_the_computers_turn_its_bet_is_the_houses_and_the_table_verifies(simcord_env):
    """Production fair dice: alice shoots until the dice pass to the computer; on its turn
    at a table minimum of 100 her Hungry Moon is refused (its own 100 adds no slack: it
    once let 137 through), her Belly is taken, and /verify replays the whole table."""
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    opened = answered(
        await alice.slash(world.channel, "fortunes open", min_stake=100, max_stake=300)
    )
    answered(await alice.click(opened.response.message, label="Add computer"))
    answered(await alice.click(world.channel.last_message, label="Start"))
    computers = simcord_env.bot.tables.computers
    for _ in range(20):
        now = await state(world)
        if now.shooter == COMPUTER:
            break
        if now.phase == "won":
            answered(await click(world, alice, "Pass the dice"))
            continue
        answered(await bet(world, alice, "shooter", 100))
        answered(await click(world, alice, "Roll"))
        while (await state(world)).roll_number:
            answered(await click(world, alice, "Roll again"))
    await computers.idle()
    assert (await state(world)).shooter == COMPUTER
    assert "house guard" in refusal(await bet(world, alice, "hungry", 100))
    assert "house guard" in refusal(await bet(world, alice, "against", 102))
    now = await state(world)
    assert now.window_open, "it waits for alice's bets"
    assert now.rules.house_seats == [COMPUTER]
    answered(await bet(world, alice, "daikoku", 100))
    await computers.idle()
    for _ in range(20):  # the computer's turn is played; alice waits between turns
        now = await state(world)
        if now.shooter == alice.id and now.roll_number == 0 and now.phase != "won":
            break
        await computers.idle()
    assert not (await state(world)).bets
    answered(await click(world, alice, "Cash out"))
    assert (await state(world)).finished
    report = answered(await alice.slash(world.channel, "verify", table=1), ephemeral=True)
    assert "✅" in report.response.embeds[0].description
