"""Discord's routine refusals are one WARNING line wherever they are logged
(bot/safe_log.py); any other failure keeps ERROR and its frames, never its text."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import discord
import pytest

from bot.safe_log import RoutineAsWarning, is_routine, log_failure

log = logging.getLogger("bot.test_safe_log")


def refused(status: int, code: int, text: str = "secret 42") -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="test")
    return discord.HTTPException(response, {"code": code, "message": text})  # type: ignore[arg-type]


ROUTINE = [
    (404, 10003),  # unknown channel
    (404, 10008),  # unknown message
    (404, 10015),  # unknown webhook (a followup's token past its 15 min)
    (404, 10062),  # unknown interaction (past its 3 s)
    (400, 40060),  # already acknowledged
    (403, 50001),  # missing access
    (403, 50007),  # cannot DM this member
    (403, 50013),  # missing permissions
    (401, 50027),  # invalid webhook token
    (429, 0),  # a rate limit discord.py gave up waiting out
    (500, 0),
    (503, 0),
]
NOT_ROUTINE = [(400, 50035), (400, 0), (403, 0), (404, 0)]


def raised(error: BaseException) -> BaseException:
    try:
        raise error
    except BaseException as caught:
        return caught


@pytest.mark.parametrize(("status", "code"), ROUTINE)
def test_a_routine_refusal_is_one_warning_line(caplog, status, code):
    assert is_routine(refused(status, code))
    log_failure(log, "table %s: it failed", 7, error=raised(refused(status, code)))
    (record,) = caplog.records
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert record.getMessage() == (
        f"table 7: it failed: Discord refused: HTTP {status} (code {code})"
    )


@pytest.mark.parametrize(("status", "code"), NOT_ROUTINE)
def test_any_other_refusal_is_an_error_with_its_frames_not_its_text(caplog, status, code):
    assert not is_routine(refused(status, code))
    log_failure(log, "table %s: it failed", 7, error=raised(refused(status, code)))
    (record,) = caplog.records
    assert record.levelno == logging.ERROR
    assert "test_safe_log.py" in record.getMessage() and "secret 42" not in caplog.text


def test_not_a_discord_failure_is_never_routine():
    assert not is_routine(RuntimeError("HTTP 500"))


def test_discord_py_reporting_a_routine_refusal_is_made_one_warning_line():
    record = logging.LogRecord(
        "discord.ui.view", logging.ERROR, __file__, 1, "Ignoring exception in view %r", ("v",),
        (discord.NotFound, raised(refused(404, 10062)), None),
    )  # fmt: skip
    assert RoutineAsWarning().filter(record)
    assert record.levelno == logging.WARNING and record.levelname == "WARNING"
    assert record.exc_info is None
    assert (
        record.getMessage()
        == "Ignoring exception in view 'v': Discord refused: HTTP 404 (code 10062)"
    )
    other = logging.LogRecord(
        "discord.ui.view", logging.ERROR, __file__, 1, "Ignoring exception", (),
        (RuntimeError, RuntimeError("boom"), None),
    )  # fmt: skip
    assert RoutineAsWarning().filter(other)
    assert other.levelno == logging.ERROR and other.exc_info is not None
