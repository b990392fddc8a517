"""Logging a failure without what the failing code was holding.

An exception's message can quote its input: ``int("²")`` says "invalid literal … '²'",
and a bid form's value or a button's label is a secret. The traceback's frames (file,
line, function) are kept for debugging; the message is replaced by the exception's type.
"""

from __future__ import annotations

import logging
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
