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
