"""The platform's words in Japanese (issue 29): refusals, wallets, the audit, /notify and
/verify's reasons read in Japanese under ``use_locale("ja")``, and stay byte for byte the
English they were under "en"."""

from __future__ import annotations

import pytest

from bot.economy import Audit
from bot.errors import (
    InsufficientFunds,
    LossLimitReached,
    NotAllowed,
    SelfExcluded,
    TableNotFound,
    UserFacingError,
    explain,
)
from bot.games.common import Permission
from bot.games.fortunes_winds import FORTUNES_AND_WINDS_HONOUR
from bot.games.hazard import NICK_HONOUR
from bot.games.strength_duel import EMPTY_HANDED_HONOUR
from bot.i18n import _, use_locale
from bot.players import computer_refusal
from bot.service.config import ServerConfig
from bot.service.terms import END_A_GAME, Actor, permit
from bot.storage import table_queries as tq
from bot.storage.money import LedgerRow, MoneyTotals
from bot.storage.table_queries import TableStatus
from cogs._ui.notify import Mode
from cogs.economy import audit_embed, movement_line
from cogs.notify import mode_text
from tests.support.japanese import english_in

REFUSALS: list[tuple[UserFacingError, str]] = [
    (
        InsufficientFunds(1500, 20, "ryō"),
        "That needs 1,500 ryō but your wallet holds 20 ryō.",
    ),
    (TableNotFound(12345), "There is no table #12345 on this server."),
    (
        SelfExcluded(1_700_000_000.5),
        "You excluded yourself from staking here until <t:1700000000:f> (<t:1700000000:R>): "
        "no table, bet, challenge or gift until then. A member with Manage Server can "
        "lift it earlier if you ask them.",
    ),
    (
        LossLimitReached(1000, 980, 50, 86_400.0, "ryō"),
        "That stake of 50 ryō would take your losses today to 1,030 ryō, past this "
        "server's daily loss limit of 1,000 ryō. It starts again at <t:86400:t> "
        "(<t:86400:R>).",
    ),
    (
        LossLimitReached(1000, 980, 50, 86_400.0, "ryō", what="gift"),
        "That gift of 50 ryō would take your losses today to 1,030 ryō, past this "
        "server's daily loss limit of 1,000 ryō. It starts again at <t:86400:t> "
        "(<t:86400:R>).",
    ),
]


@pytest.mark.parametrize(("error", "english"), REFUSALS)
def test_a_refusal_reads_japanese_and_keeps_its_english(
    error: UserFacingError, english: str
) -> None:
    assert str(error) == english
    with use_locale("en"):
        assert explain(error) == english
    with use_locale("ja"):
        shown = explain(error)
    assert shown != english and english_in([shown]) == []


def test_a_table_number_is_never_grouped_and_amounts_are() -> None:
    with use_locale("ja"):
        assert "#12345" in explain(TableNotFound(12345))
        assert "1,030" in explain(REFUSALS[3][0])


def row(status: TableStatus = TableStatus.RUNNING) -> tq.TableRow:
    fields = dict.fromkeys(tq.TableRow.__dataclass_fields__, None)
    fields.update(id=7, host_id=1, status=status)
    return tq.TableRow(**fields)  # type: ignore[arg-type]


def test_what_was_refused_is_translated_inside_the_sentence() -> None:
    """A non-moderator ending a started game: the refusal names what was refused ("end
    it") in English in str(), in Japanese when shown."""
    with pytest.raises(NotAllowed) as refused:
        permit(Permission.MODERATOR_NOT_SEATED, Actor(2), row(), [], END_A_GAME)
    assert str(refused.value) == (
        "This game has started: only a moderator (Manage Server) can end it now. Play it "
        "out, or ask a moderator."
    )
    with use_locale("ja"):
        shown = explain(refused.value)
    assert "終了させる" in shown and english_in([shown]) == []


@pytest.mark.parametrize(
    ("least", "most", "english"),
    [
        (5, None, "{title} tables here take a stake of 10 to 1,000, not 5."),
        (
            5,
            2000,
            "{title} tables here take bets of 10 to 1,000, not 5 to 2,000: choose "
            "min_stake and max_stake within that.",
        ),
    ],
)
def test_a_servers_stake_limits_refuse_in_whole_sentences(
    least: int, most: int | None, english: str
) -> None:
    config = ServerConfig(stake_limits={"hazard": (10, 1000)})
    with pytest.raises(NotAllowed) as refused:
        config.check_open("hazard", "Hazard", 1, least, most)
    assert str(refused.value) == english.format(title="Hazard")
    with use_locale("ja"):
        shown = explain(refused.value)
    assert "1,000" in shown and english_in([shown], names=["Hazard"]) == []


def test_notify_settings_in_japanese_and_english() -> None:
    with use_locale("en"):
        assert mode_text(Mode.OFF, 25) == (
            "When a table on this server waits for your move, you get nothing: you watch "
            "the table yourself. A member's challenge does not ping you either."
        )
        assert "has waited 1 minute 30 seconds for your move" in mode_text(Mode.ON, 90)
    with use_locale("ja"):
        texts = [mode_text(mode, 90) for mode in Mode]
    assert all("手番" in text for text in texts) and english_in(texts) == []
    assert "1分30秒" in texts[0]


def test_the_audit_in_japanese() -> None:
    audit = Audit(
        totals=MoneyTotals(wallets=900, escrow=20, house=1080, minted=2000),
        mismatches=[],
        accounts=5,
        member_balance=740,
        movements=(
            LedgerRow(1, 100.0, "table", "wallet:3", "escrow:1", 10, 1, "seat at the table"),
            LedgerRow(2, 90.0, "give", "wallet:3", "wallet:4", 250, None, ""),
            LedgerRow(3, 80.0, "mint", "mint", "wallet:3", 1000, None, "daily"),
        ),
    )

    class Member:
        id = 3
        display_name = "alice"

    with use_locale("en"):
        english = audit_embed(audit, "ryō", Member())  # type: ignore[arg-type]
    with use_locale("ja"):
        japanese = audit_embed(audit, "両", Member())  # type: ignore[arg-type]
    assert english.title == "Economy audit"
    assert "**−250 ryō** to <@4> · give" in english.fields[0].value
    texts = [japanese.title or "", japanese.description or "", japanese.fields[0].name or ""]
    texts += (japanese.fields[0].value or "").splitlines()
    assert japanese.title == "経済の監査"
    assert english_in(texts, names=["alice"]) == []


def test_a_movement_from_the_house_names_it_in_the_readers_language() -> None:
    line = LedgerRow(1, 100.0, "table", "house", "wallet:3", 30, 1, "bank")
    with use_locale("ja"):
        shown = movement_line(line, "wallet:3", "両")
    assert "胴元の金庫から **+30両**" in shown and english_in([shown]) == []


def test_verify_reasons_translate() -> None:
    with use_locale("ja"):
        shown = _("outcome #{number} differs from the seed", number="12")
    assert shown == "結果#12がシードと異なります"


@pytest.mark.parametrize("honour", [NICK_HONOUR, EMPTY_HANDED_HONOUR, FORTUNES_AND_WINDS_HONOUR])
def test_an_honour_in_stats_reads_japanese(honour: str) -> None:
    """/stats shows an honour by the English name it is stored under, translated."""
    with use_locale("ja"):
        shown = _("{stat}: **{value}**", stat=_(honour), value=3)
    assert shown.endswith("：**3**") and english_in([shown]) == []


def test_a_computer_refusal_reads_in_the_askers_language() -> None:
    """The refusal of a computer seat is worded where it is made, in the member's
    language; English unchanged."""
    rules = ServerConfig()  # any rules: a game without a computer never reads them
    with use_locale("en"):
        english = computer_refusal(None, "Hazard", rules, 0)  # type: ignore[arg-type]
    with use_locale("ja"):
        japanese = computer_refusal(None, "Hazard", rules, 0)  # type: ignore[arg-type]
    assert english == "Hazard has no computer player."
    assert japanese == "ハザードにはコンピューターのプレイヤーがいません。"
