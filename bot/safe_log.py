"""Logging a failure without what the failing code was holding.

An exception's message can quote its input: ``int("²")`` says "invalid literal … '²'",
and a bid form's value or a button's label is a secret. The traceback's frames (file,
line, function) are kept for debugging; the message is replaced by the exception's type.
Interaction tokens are taken out of every discord.py log record (:func:`redact_tokens_in_logs`).
"""

from __future__ import annotations

import logging
import re
import traceback


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
    """Log `message` at ERROR with the failure's frames and type, never its text."""
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
