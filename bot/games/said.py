"""Words inside an engine's refusal that the member reads in their own language.

A refusal is an English template with values (``bot.games.errors``); most values are
numbers, but some are words the engine chose — a card's name, a die, what the player tried
to do. :class:`Said` is such a word: English in the refusal's own text (``str(error)``,
which the error fills in when it is made, whatever locale the member's interaction set),
and looked up in the catalog when ``bot.errors.explain`` shows the refusal again in
another locale.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import SOURCE_LOCALE, _, current_locale, ngettext


class Said(str):
    """``english``, or in another locale the catalog's ``msgid`` (``english`` itself when
    not given) with ``params`` filled in; with ``plural``, the form for ``count``."""

    msgid: str
    plural: str | None
    params: dict[str, Any]
    made: bool
    """Whether the error's own English text has been made (its first rendering)."""

    def __new__(
        cls, english: str, msgid: str | None = None, plural: str | None = None, **params: Any
    ) -> Said:
        word = super().__new__(cls, english)
        word.msgid = english if msgid is None else msgid
        word.plural = plural
        word.params = params
        word.made = False
        return word

    def __format__(self, spec: str) -> str:
        # The first rendering is the refusal's English text, made in UserFacingError's
        # __init__: str(error) and the logs stay English in a Japanese member's click.
        if not self.made or current_locale() == SOURCE_LOCALE:
            self.made = True
            return str.__format__(str(self), spec)
        if self.plural is not None:
            return ngettext(self.msgid, self.plural, int(self.params["count"]), **self.params)
        return _(self.msgid, **self.params)


def coins(n: int) -> Said:
    """``1 coin``, ``5 coins``: an amount an engine names (it knows no currency)."""
    return Said(f"{n} coin" if n == 1 else f"{n} coins", "{count} coin", "{count} coins", count=n)
