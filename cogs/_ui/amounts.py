"""Reading a number a member typed: ASCII digits only, with optional thousands separators."""

from __future__ import annotations

import re

from bot.errors import NotAllowed
from bot.i18n import N_, _

# str.isdigit() and int() accept "²" or "٣"; a bet form must not.
_AMOUNT = re.compile(r"[0-9]{1,3}(?:[,_ ]?[0-9]{3})*|[0-9]+")
MAX_TYPED_DIGITS = 12


def parse_amount(text: str, *, what: str = N_("a whole number of coins")) -> int:
    """The whole number in `text`, or a private refusal saying what was expected
    (``what``: an English message id, translated as the refusal is made)."""
    cleaned = text.strip()
    if (
        not cleaned.isascii()
        or len(cleaned) > MAX_TYPED_DIGITS + 4
        or _AMOUNT.fullmatch(cleaned) is None
    ):
        shown = cleaned[:20] + ("…" if len(cleaned) > 20 else "")
        raise NotAllowed("“{shown}” is not {what}.", shown=shown, what=_(what))
    return int(re.sub(r"[,_ ]", "", cleaned))
