"""Each branch of the command error handler (cogs/_ui/errors.py): what the member is told
and how it is logged."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.errors import NotAllowed
from bot.service import saved_writes
from cogs._ui.errors import (
    ANSWER_REFUSED,
    DAILY_WENT_THROUGH,
    GIFT_WENT_THROUGH,
    WENT_THROUGH,
    failure_text,
    on_app_command_error,
)
from cogs._ui.primitives import APOLOGY


def refused(status: int, code: int, text: str = "refused") -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="test")
    error = discord.HTTPException(response, {"code": code, "message": text})  # type: ignore[arg-type]
    return error


class Response:
    def __init__(self, fail_with: BaseException | None = None) -> None:
        self.sent: list[str] = []
        self.fail_with = fail_with
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str = "", **kwargs: Any) -> None:
        if self.fail_with is not None:
            raise self.fail_with
        self.done = True
        self.sent.append(content)


class Interaction:
    def __init__(self, command: str | None = "give", fail_with: BaseException | None = None):
        self.command = SimpleNamespace(qualified_name=command) if command else None
        self.response = Response(fail_with)
        self.followups: list[str] = []
        self.followup = SimpleNamespace(send=self._followup)

    async def _followup(self, content: str = "", **kwargs: Any) -> None:
        self.followups.append(content)


def invoked(error: BaseException) -> app_commands.CommandInvokeError:
    command = SimpleNamespace(name="give", qualified_name="give")
    return app_commands.CommandInvokeError(command, error)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("command", "error", "saved", "text"),
    [
        ("give", RuntimeError(), True, GIFT_WENT_THROUGH),
        ("daily", RuntimeError(), True, DAILY_WENT_THROUGH),
        ("cancel", RuntimeError(), True, WENT_THROUGH),
        ("give", refused(500, 0), False, ANSWER_REFUSED),
        ("give", RuntimeError(), False, APOLOGY),
    ],
)
def test_failure_text(command, error, saved, text):
    assert failure_text(command, error, saved) == text
    if text != APOLOGY:
        assert "nothing was changed" not in text.lower()


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (NotAllowed("Not now."), "Not now."),
        (app_commands.NoPrivateMessage(), "not in direct messages"),
        (app_commands.MissingPermissions(["manage_guild"]), "Manage Server"),
        (app_commands.CheckFailure(), "cannot use this command here"),
    ],
)
async def test_a_members_mistake_is_told_as_such(error, said, caplog):
    interaction = Interaction()
    wrapped = invoked(error) if isinstance(error, NotAllowed) else error
    await on_app_command_error(interaction, wrapped)  # type: ignore[arg-type]
    assert said in interaction.response.sent[0]
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_an_option_that_cannot_be_read_is_named():
    interaction = Interaction()
    shape = SimpleNamespace(_error_display_name="a whole number")
    error = app_commands.TransformerError("lots", discord.AppCommandOptionType.integer, shape)  # type: ignore[arg-type]
    await on_app_command_error(interaction, error)  # type: ignore[arg-type]
    assert "`lots`" in interaction.response.sent[0]


async def test_an_unexpected_failure_after_a_saved_gift_says_it_went_through(caplog):
    interaction = Interaction("give")
    token = saved_writes.set(1)
    try:
        await on_app_command_error(interaction, invoked(RuntimeError("secret 42")))  # type: ignore[arg-type]
    finally:
        saved_writes.reset(token)
    assert interaction.response.sent == [GIFT_WENT_THROUGH]
    (record,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "command /give failed" in record.getMessage()
    assert "secret 42" not in caplog.text


async def test_a_routine_refusal_is_one_warning_and_never_nothing_changed(caplog):
    interaction = Interaction(None)
    await on_app_command_error(interaction, invoked(refused(404, 10062)))  # type: ignore[arg-type]
    assert interaction.response.sent == [ANSWER_REFUSED]
    (record,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert record.getMessage() == "command /?: Discord refused: HTTP 404 (code 10062)"


async def test_an_error_answer_discord_refuses_is_logged_not_raised(caplog):
    interaction = Interaction("give", fail_with=refused(404, 10062))
    await on_app_command_error(interaction, app_commands.CheckFailure())  # type: ignore[arg-type]
    assert "could not deliver an error message: HTTP 404 (code 10062)" in caplog.text


async def test_an_error_answer_after_the_deferral_goes_as_its_followup():
    interaction = Interaction("give")
    interaction.response.done = True  # the slow-work deferral took the response
    await on_app_command_error(interaction, app_commands.CheckFailure())  # type: ignore[arg-type]
    assert interaction.followups == ["You cannot use this command here."]
    assert interaction.response.sent == []
