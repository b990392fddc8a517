"""Discord's routine refusals (an expired interaction, one answered already, a message
deleted meanwhile) are logged at WARNING in one line, not at ERROR with a traceback."""

from __future__ import annotations

import logging

import pytest

from tests.support.sim import answered, make_world

ROUTINE = [
    (404, 10062, "Unknown interaction"),
    (400, 40060, "Interaction has already been acknowledged."),
    (404, 10008, "Unknown Message"),
]


def assert_one_warning_line(caplog: pytest.LogCaptureFixture, code: int) -> None:
    """No ERROR, and no traceback, from the bot; the refusal named in a WARNING line —
    unless the bot recovered (a 40060 on an answer: it goes as a followup instead)."""
    ours = [r for r in caplog.records if r.name.startswith(("cogs", "bot"))]
    assert [r.getMessage() for r in ours if r.levelno >= logging.ERROR] == []
    for record in ours:
        assert record.exc_info is None and "\n" not in record.getMessage()
    named = [r for r in ours if r.levelno == logging.WARNING and f"code {code}" in r.getMessage()]
    recovered = [r for r in ours if "sent as a followup" in r.getMessage()]
    assert named or (code == 40060 and recovered), [r.getMessage() for r in ours]


@pytest.mark.parametrize(("status", "code", "text"), ROUTINE)
async def test_a_routine_refusal_of_a_command_answer_is_one_warning(
    simcord_env, caplog, status, code, text
):
    world = await make_world(simcord_env, "alice")
    caplog.set_level(logging.DEBUG)
    simcord_env.inject_error(
        "POST", "/interactions/*/callback", status=status, code=code, message=text, times=None
    )
    await world["alice"].slash(world.channel, "wallet")
    assert_one_warning_line(caplog, code)


@pytest.mark.parametrize(("status", "code", "text"), ROUTINE)
async def test_a_routine_refusal_of_a_click_answer_is_one_warning(
    simcord_env, caplog, status, code, text
):
    world = await make_world(simcord_env, "alice")
    opened = answered(await world["alice"].slash(world.channel, "coinflip open", stake=10))
    caplog.set_level(logging.DEBUG)
    simcord_env.inject_error(
        "POST", "/interactions/*/callback", status=status, code=code, message=text, times=None
    )
    await world["alice"].click(opened.response.message, label="Watch")
    assert_one_warning_line(caplog, code)


async def test_an_expired_interaction_refusing_a_private_followup_is_one_warning(
    simcord_env, caplog, dice
):
    """A click's answer goes through, then its private follow-up (the roll's private
    confirmation) finds the interaction expired."""
    dice.extend([3] * 30)
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    opened = answered(await alice.slash(world.channel, "nihakyu open", ante=10))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    caplog.set_level(logging.DEBUG)
    simcord_env.inject_error(
        "POST", "/webhooks/*", status=404, code=10062, message="Unknown interaction", times=None
    )
    answered(await alice.click(world.channel.last_message, label="Roll"))
    assert_one_warning_line(caplog, 10062)


def assert_no_traceback_anywhere(caplog: pytest.LogCaptureFixture, code: int) -> None:
    """Whoever logged it (the bot, or discord.py on the bot's behalf): no ERROR, no
    traceback, and the refusal named in a WARNING line."""
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    for record in caplog.records:
        assert record.exc_info is None and "Traceback" not in record.getMessage()
    named = [
        r
        for r in caplog.records
        if r.levelno == logging.WARNING and f"code {code}" in r.getMessage()
    ]
    assert named, [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]


async def test_an_expired_interaction_on_a_paging_button_is_one_warning(simcord_env, caplog):
    """A paging button (a discord.py dynamic item: discord.py reports its failure) whose
    interaction expired before its answer."""
    names = [f"p{n:02d}" for n in range(12)]
    world = await make_world(simcord_env, *names)
    for n, name in enumerate(names):
        await simcord_env.bot.economy.grant(world.guild.id, world[name].id, 100 * (n + 1), "test")
    board = answered(await world["p00"].slash(world.channel, "leaderboard")).response
    caplog.set_level(logging.DEBUG)
    simcord_env.inject_error(
        "POST", "/interactions/*/callback", status=404, code=10062,
        message="Unknown interaction", times=None,
    )  # fmt: skip
    await world["p00"].click(board, label="Next")
    assert_no_traceback_anywhere(caplog, 10062)


async def test_a_private_panel_refused_by_discord_is_one_warning(simcord_env, caplog):
    """A duel's bid panel by DM: the DM channel is gone (Discord: unknown channel)."""
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(
        await alice.slash(world.channel, "duel challenge", member=bob, stake=10)
    ).response.message
    caplog.set_level(logging.DEBUG)
    simcord_env.inject_error(
        "POST", f"/channels/{alice.user.dm_channel.id}/messages", status=404, code=10003,
        message="Unknown Channel", times=None,
    )  # fmt: skip
    answered(await bob.click(table, label="Accept"))
    assert_no_traceback_anywhere(caplog, 10003)
