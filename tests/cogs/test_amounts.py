"""The one strict parser for typed amounts: ASCII digits and separators, nothing else."""

from __future__ import annotations

import pytest

from bot.errors import NotAllowed
from cogs._ui.amounts import parse_amount


@pytest.mark.parametrize(
    ("text", "value"),
    [("12", 12), (" 7 ", 7), ("0", 0), ("1,000", 1000), ("1_000_000", 1_000_000), ("2 500", 2500)],
)
def test_reads_plain_numbers(text: str, value: int) -> None:
    assert parse_amount(text) == value


@pytest.mark.parametrize(
    "text", ["²", "1²", "٣", "-3", "+3", "1.5", "", "   ", "abc", "1,00", "1,,000", "1e3", "9" * 17]
)
def test_refuses_anything_else_with_the_reason(text: str) -> None:
    with pytest.raises(NotAllowed, match="is not a whole number"):
        parse_amount(text)


def test_names_what_was_expected() -> None:
    with pytest.raises(NotAllowed, match="is not a bid from 0 up"):
        parse_amount("x", what="a bid from 0 up to your strength")
