"""Money and spans of time the reader's way (issue 34): Japanese writes 1,000両 (the
currency glued to the number, as any counter) and 1時間, not 3,600秒; English is unchanged."""

from __future__ import annotations

import pytest

from bot.i18n import duration, fill, money, translate, use_locale
from cogs._ui import render


@pytest.mark.parametrize(
    ("amount", "currency", "signed", "shown"),
    [
        (1000, "両", False, "1,000両"),
        (1000, "両", True, "+1,000両"),
        (-20, "両", True, "-20両"),
        (0, "両", True, "0両"),
        (50, "コイン", False, "50コイン"),
        (50, "🪙 両", False, "🪙 50両"),
        (50, "<:ryo:123456789012345678> 両", True, "<:ryo:123456789012345678> +50両"),
        (1000, "gold coins", False, "1,000 gold coins"),
        (1000, "🪙 ryō", False, "1,000 🪙 ryō"),
    ],
)
def test_japanese_money(amount: int, currency: str, signed: bool, shown: str) -> None:
    assert money(amount, currency, "ja", signed=signed) == shown


def test_english_money_is_unchanged() -> None:
    assert money(1000, "ryō", "en") == "1,000 ryō"
    assert money(1000, "両", "en", signed=True) == "+1,000 両"
    assert money(-5, "🪙 ryō", "en", signed=True) == "-5 🪙 ryō"


def test_the_tables_coins_follow_the_reader() -> None:
    with use_locale("ja"):
        assert render.coins(1000, "両") == "1,000両"
        assert render.signed_coins(30, "両") == "+30両"
    with use_locale("en"):
        assert render.coins(1000, "ryō") == "1,000 ryō"


@pytest.mark.parametrize(
    ("seconds", "ja", "en"),
    [
        (0, "0秒", "0 seconds"),
        (20, "20秒", "20 seconds"),
        (60, "1分", "1 minute"),
        (90, "1分30秒", "1 minute 30 seconds"),
        (1800, "30分", "30 minutes"),
        (3600, "1時間", "1 hour"),
        (5400, "1時間30分", "1 hour 30 minutes"),
        (86_400, "1日", "1 day"),
    ],
)
def test_durations(seconds: int, ja: str, en: str) -> None:
    assert duration(seconds, "ja") == ja
    assert duration(seconds, "en") == en


def test_a_translation_says_seconds_as_a_duration() -> None:
    assert fill("1手{seconds:duration}", "ja", {"seconds": 3600}) == "1手1時間"
    # Seconds handed over as text (str(rules.round_seconds)) read the same.
    assert fill("1手{seconds:duration}", "ja", {"seconds": "90"}) == "1手1分30秒"
    assert fill("{seconds} s", "en", {"seconds": 3600}) == "3,600 s"


def test_the_catalogs_show_time_and_money_the_japanese_way() -> None:
    caster = "The caster has {seconds} s to act before the table throws."
    said = translate(caster, "ja", seconds=3600)
    assert said == "振り手の持ち時間は1時間です。過ぎると卓が代わりに振ります。"
    short = translate(
        "That needs {needed} {currency} but your wallet holds {balance} {currency}.",
        "ja",
        needed=1000,
        balance=20,
        currency="両",
    )
    assert short == "1,000両が必要ですが、財布には20両しかありません。"
    latin = translate(
        "That needs {needed} {currency} but your wallet holds {balance} {currency}.",
        "ja",
        needed=5,
        balance=2,
        currency="ryō",
    )
    assert latin == "5 ryōが必要ですが、財布には2 ryōしかありません。"


@pytest.mark.parametrize(
    ("currency", "shown"),
    [
        ("両", "所持は1,000両です。"),
        ("ryō", "所持は1,000 ryōです。"),
        ("🪙 両", "所持は1,000 🪙 両です。"),
    ],
)
def test_a_translation_glues_a_japanese_currency_to_its_amount(currency: str, shown: str) -> None:
    """``{amount}{currency:unit}``: 1,000両, but a Latin name keeps its space."""
    text = "所持は{balance}{currency:unit}です。"
    assert fill(text, "ja", {"balance": 1000, "currency": currency}) == shown
