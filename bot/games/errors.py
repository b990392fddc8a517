"""Errors an engine (or any layer) raises to refuse an input with a reason for the player."""

from __future__ import annotations

from typing import Any

from bot.i18n import SOURCE_LOCALE, fill


class UserFacingError(Exception):
    """A refusal whose message is fit to show the member who caused it (ephemerally).

    The message is an English template with ``{placeholders}`` and their values, so the
    layer that shows it can translate it for the member (``bot.i18n``): ``str(error)`` is
    the English text, ``error.template`` and ``error.params`` what a translation needs.
    Write the template as a literal (``N_`` is implied: the extractor reads refusals).
    """

    def __init__(self, template: str = "", /, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(fill(template, SOURCE_LOCALE, params))

    @property
    def reason(self) -> str:
        """A bounded name for the kind of refusal (metrics and logs; never the text)."""
        return type(self).__name__


class IllegalMove(UserFacingError):
    """The engine refuses an action; the state is unchanged."""
