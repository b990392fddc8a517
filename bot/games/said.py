"""Words inside an engine's refusal that the member reads in their own language.

A refusal is an English template with values (``bot.games.errors``); most values are
numbers, but some are words the engine chose — a card's name, a die, what the player tried
to do. Such a word is a :class:`bot.i18n.Said`: English in the refusal's own text, and
translated when the refusal is shown (``bot.errors.explain``) in another locale.
"""

from __future__ import annotations

from bot.i18n import Said

__all__ = ["Said", "coins"]


def coins(n: int) -> Said:
    """``1 coin``, ``5 coins``: an amount an engine names (it knows no currency)."""
    return Said(f"{n} coin" if n == 1 else f"{n} coins", "{count} coin", "{count} coins", count=n)
