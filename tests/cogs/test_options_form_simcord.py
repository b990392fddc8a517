"""Options past the inline ones: a preset and the follow-up form, end to end (the test
coin-flip game's `custom` command keeps rake and turn_seconds for the form)."""

from __future__ import annotations

import pytest

from bot.errors import UserFacingError
from tests.support.sim import answered, make_world, refusal


async def test_the_more_form_is_prefilled_from_the_preset_and_opens_the_table(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    shown = answered(
        await alice.slash(world.channel, "coinflip custom", stake=20, preset="quick", more=True)
    )
    assert shown.modal is not None
    assert "turn_seconds = 10" in str(shown.modal)
    opened = answered(await alice.submit_modal(shown, {"options": "rake = 3\nturn_seconds = 45"}))
    assert opened.response is not None and not opened.response.ephemeral
    rules = (await simcord_env.bot.tables.snapshot(1)).rules
    assert (rules.stake, rules.rake, rules.turn_seconds) == (20, 3, 45)


async def test_the_more_form_refuses_an_unknown_option_and_opens_nothing(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    shown = answered(await alice.slash(world.channel, "coinflip custom", more=True))
    text = refusal(await alice.submit_modal(shown, {"options": "jackpot = 1000"}))
    assert "is not `option = value`" in text
    assert "not a whole number" in refusal(
        await alice.submit_modal(
            answered(await alice.slash(world.channel, "coinflip custom", more=True)),
            {"options": "rake = ²"},
        )
    )
    with pytest.raises(UserFacingError):
        await simcord_env.bot.tables.snapshot(1)  # no table was opened


async def test_without_the_form_a_preset_alone_sets_the_rules(simcord_env):
    world = await make_world(simcord_env, "alice")
    answered(await world["alice"].slash(world.channel, "coinflip custom", preset="quick"))
    rules = (await simcord_env.bot.tables.snapshot(1)).rules
    assert (rules.stake, rules.rake, rules.turn_seconds) == (10, 0, 10)


async def test_the_more_form_after_a_restart_is_answered_and_opens_nothing(
    simcord_env, bot_factory
):
    """The options form keeps the command's choices in memory: after a restart they are
    gone, so its submission is told plainly to run the command again (before: no answer,
    "This interaction failed")."""
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    shown = answered(await alice.slash(world.channel, "coinflip custom", stake=20, more=True))
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    text = refusal(await alice.submit_modal(shown, {"options": "rake = 3"}))
    assert "expired" in text and "Nothing was changed" in text
    with pytest.raises(UserFacingError):
        await simcord_env.bot.tables.snapshot(1)


async def test_the_more_form_past_its_timeout_is_answered(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    shown = answered(await alice.slash(world.channel, "coinflip custom", stake=20, more=True))
    await simcord_env.advance_time(601)  # the form's own timeout is 600 s
    assert "expired" in refusal(await alice.submit_modal(shown, {"options": "rake = 3"}))
    with pytest.raises(UserFacingError):
        await simcord_env.bot.tables.snapshot(1)
