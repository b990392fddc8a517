"""Logging a failure without what the failing code was holding.

An exception's message can quote its input: ``int("²")`` says "invalid literal … '²'",
and a bid form's value or a button's label is a secret. The traceback's frames (file,
line, function) are kept for debugging; the message is replaced by the exception's type.
Interaction tokens are taken out of every discord.py log record (:func:`redact_tokens_in_logs`).

Discord's routine refusals (an interaction expired or answered already, a message deleted
meanwhile, closed DMs, a permission taken away, its own server errors) are part of its
ordinary life, not a fault of the bot: wherever one is logged — by the bot
(:func:`log_failure`) or by discord.py on the bot's behalf (:func:`quiet_routine_failures`)
— it is one WARNING line naming Discord's status and code, without a traceback.
"""

from __future__ import annotations

import logging
import re
import traceback

import discord

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
ROUTINE_CODES = frozenset(
    {
        UNKNOWN_CHANNEL,
        UNKNOWN_MESSAGE,
        UNKNOWN_WEBHOOK,
        UNKNOWN_INTERACTION,
        ALREADY_ACKNOWLEDGED,
        MISSING_ACCESS,
        CANNOT_DM,
        MISSING_PERMISSIONS,
        INVALID_WEBHOOK_TOKEN,
    }
)
"""Discord refusals that are part of its ordinary life, not a fault of the bot: a channel
or message deleted meanwhile, an interaction past its 3 s (or its token past 15 min) or
answered already, a member whose DMs are closed, a permission a server took away."""


def is_routine(error: BaseException) -> bool:
    """A routine Discord failure: one of :data:`ROUTINE_CODES`, a rate limit discord.py
    gave up waiting out (429), or Discord's own server error (5xx), which a retry or the
    next edit repairs."""
    if not isinstance(error, discord.HTTPException):
        return False
    return error.code in ROUTINE_CODES or error.status == 429 or error.status >= 500


def describe(error: discord.HTTPException) -> str:
    """One line for the log: the status and Discord's code, never the request (its URL
    holds the interaction's token) nor the text (it can quote what was sent)."""
    return f"HTTP {error.status} (code {error.code})"


def redacted_traceback(error: BaseException) -> str:
    frames = traceback.format_tb(error.__traceback__)
    causes: list[str] = []
    cause = error.__cause__ or error.__context__
    while cause is not None and len(causes) < 5:
        causes.append(type(cause).__qualname__)
        cause = cause.__cause__ or cause.__context__
    chain = f" (after {', '.join(causes)})" if causes else ""
    return "".join(frames) + f"{type(error).__qualname__} (message withheld){chain}"


def log_failure(logger: logging.Logger, message: str, *args: object, error: BaseException) -> None:
    """Log `message` at ERROR with the failure's frames and type, never its text; a
    routine refusal of Discord's (:func:`is_routine`) at WARNING in one line."""
    if is_routine(error):
        assert isinstance(error, discord.HTTPException)
        logger.warning(message + ": Discord refused: %s", *args, describe(error))
        return
    logger.error(message + "\n%s", *args, redacted_traceback(error))


# An interaction's token lets anyone answer, edit or follow up as the bot for 15 minutes:
# it is in the URL of every interaction response and followup (discord.py's webhook
# client logs each request at DEBUG) and in the INTERACTION_CREATE payload (its gateway
# logs each event at DEBUG). It never reaches a log record.
_TOKEN_PATTERNS = (
    re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?#'\"]+"),
    re.compile(r"""(["']token["']\s*:\s*["'])[^"']+"""),
)
REDACTED = "<redacted>"
TOKEN_LOGGERS = (
    "discord.webhook.async_",
    "discord.webhook.sync",
    "discord.http",
    "discord.gateway",
    "discord.client",
    "discord.state",
    "discord.shard",
    "discord.ui.view",
    "discord.ui.modal",
    "discord.app_commands.tree",
    "discord.ext.commands.bot",
)
"""Every discord.py logger that can see a request or an event (a logger's filter sees
only its own records, not those of the loggers below it, so each is named)."""


def redact_tokens(text: str) -> str:
    for pattern in _TOKEN_PATTERNS:
        text = pattern.sub(rf"\g<1>{REDACTED}", text)
    return text


class TokenRedactor(logging.Filter):
    """Rewrites a record whose message carries an interaction (or webhook) token."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # a malformed record is the logging module's to report
            return True
        redacted = redact_tokens(text)
        if redacted != text:
            record.msg, record.args = redacted, None
        return True


_REDACTOR = TokenRedactor()


def redact_tokens_in_logs() -> None:
    """Install the token filter on discord.py's loggers (idempotent): done by the bot as
    it is built, so it holds whoever configured logging, at every level."""
    for name in TOKEN_LOGGERS:
        logger = logging.getLogger(name)
        if _REDACTOR not in logger.filters:
            logger.addFilter(_REDACTOR)


class RoutineAsWarning(logging.Filter):
    """discord.py's own report of a failure in the bot's code (a view's callback, an
    event listener) is one WARNING line when the failure is a routine refusal of
    Discord's; any other failure keeps its level and traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is None or not is_routine(error):
            return True
        assert isinstance(error, discord.HTTPException)
        try:
            text = record.getMessage()
        except Exception:  # a malformed record is the logging module's to report
            return True
        record.msg, record.args = f"{text}: Discord refused: {describe(error)}", None
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


_ROUTINE = RoutineAsWarning()
FAILURE_LOGGERS = (
    "discord.client",
    "discord.ui.view",
    "discord.ui.modal",
    "discord.app_commands.tree",
    "discord.ext.commands.bot",
)
"""discord.py's loggers that report an exception raised by the bot's own handlers."""


def quiet_routine_failures() -> None:
    """Install :class:`RoutineAsWarning` on discord.py's loggers (idempotent)."""
    for name in FAILURE_LOGGERS:
        logger = logging.getLogger(name)
        if _ROUTINE not in logger.filters:
            logger.addFilter(_ROUTINE)
