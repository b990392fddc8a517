"""Words inside an engine's refusal that the member reads in their own language.

A refusal is an English template with values (``bot.games.errors``); most values are
numbers, but some are words the engine chose — a card's name, a die, what the player tried
to do. :class:`Said` is such a word: English where the refusal's English text is made (the
source locale, the default while an engine runs), and looked up in the catalog when
``bot.errors.explain`` shows the refusal in another locale.
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

    def __new__(
        cls, english: str, msgid: str | None = None, plural: str | None = None, **params: Any
    ) -> Said:
        word = super().__new__(cls, english)
        word.msgid = english if msgid is None else msgid
        word.plural = plural
        word.params = params
        return word

    def __format__(self, spec: str) -> str:
        if current_locale() == SOURCE_LOCALE:
            return str.__format__(str(self), spec)
        if self.plural is not None:
            return ngettext(self.msgid, self.plural, int(self.params["count"]), **self.params)
        return _(self.msgid, **self.params)


def coins(n: int) -> Said:
    """``1 coin``, ``5 coins``: an amount an engine names (it knows no currency)."""
    return Said(f"{n} coin" if n == 1 else f"{n} coins", "{count} coin", "{count} coins", count=n)
