"""Plural forms (bot/i18n): English by CLDR's rule (``one`` is 1 alone; 0 is ``other``, as
in "0 wins"), Japanese with its one form, for every count a member can be shown."""

from __future__ import annotations

import pytest

from bot.i18n import ngettext, translate_plural, use_locale

WINS = ("{count} win", "{count} wins")


@pytest.mark.parametrize(
    ("count", "shown"),
    [(0, "0 wins"), (1, "1 win"), (2, "2 wins"), (11, "11 wins"), (1000, "1,000 wins")],
)
def test_english_says_one_for_one_alone(count: int, shown: str) -> None:
    with use_locale("en-US"):
        assert ngettext(*WINS, count) == shown
    assert translate_plural(*WINS, count, "en") == shown


@pytest.mark.parametrize(("count", "shown"), [(0, "0勝"), (1, "1勝"), (2, "2勝")])
def test_japanese_has_one_form(count: int, shown: str) -> None:
    with use_locale("ja"):
        assert ngettext(*WINS, count) == shown
