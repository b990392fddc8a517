"""The card games in Japanese (issue 29), without Discord: the pictures' font draws every
Japanese word of a tile (and a missing font fails loudly), hanafuda and Fortunes and Winds
speak their own words under ``use_locale("ja")`` within Discord's limits, refusals name
their cards and dice in the reader's language, and English stays as it was."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from PIL import Image, ImageDraw, ImageFont

from bot import fonts
from bot.errors import explain
from bot.games import fortunes_winds as fw
from bot.games.errors import IllegalMove
from bot.games.fortunes_winds.engine import GuardRefused
from bot.games.hachihachi import models as hm
from bot.games.hachihachi.cards import CARDS, DECK, MONTHS
from bot.games.hachihachi.engine import _card
from bot.games.hachihachi.yaku import DEKIYAKU_KAN, GROUP_A_KAN, GROUP_B_KAN
from bot.games.said import Said
from bot.i18n import use_locale
from cogs.fortunes_winds import ui as fw_ui
from cogs.fortunes_winds import words as fw_words
from cogs.hachihachi import art, tiles
from cogs.hachihachi import words as hh_words
from cogs.hachihachi.buttons import decision
from tests.support.japanese import english_in, missing_glyphs

LATIN = re.compile(r"[A-Za-z]")


@pytest.fixture
def ja() -> Iterator[None]:
    with use_locale("ja"):
        yield


# -- the font ---------------------------------------------------------------------------------


def test_the_pictures_font_is_noto_sans_cjk_jp_from_its_package() -> None:
    font = tiles.font(30)
    assert isinstance(font, ImageFont.FreeTypeFont)
    assert font.getname()[0] == "Noto Sans CJK JP"
    assert fonts.font_path().is_relative_to(fonts.font_path().parents[1])
    assert "site-packages" in str(fonts.font_path()) or "dist-packages" in str(fonts.font_path())


def test_a_missing_font_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    fonts.font_path.cache_clear()
    fonts.noto.cache_clear()
    monkeypatch.setattr(fonts, "FONT_PACKAGE", "no_such_font_package")
    try:
        with pytest.raises(fonts.FontMissing, match="no_such_font_package"):
            fonts.check()
    finally:
        monkeypatch.undo()
        fonts.font_path.cache_clear()
        fonts.noto.cache_clear()
    assert fonts.check() == "Noto Sans CJK JP"


def test_every_japanese_word_on_a_tile_has_its_glyphs_in_the_font(ja: None) -> None:
    drawn = set()
    for card in DECK:
        for label in tiles.labels(card):
            font = tiles.font(round(label.size * 3))
            assert not missing_glyphs(font, label.text), label.text
            drawn.add(label.text)
    assert {"松", "桐", "光", "タネ", "赤短", "青短", "短冊", "カス"} <= drawn
    # The default font Pillow falls back to has none of them: this is what the font fixes.
    default = ImageFont.load_default(size=30)
    assert isinstance(default, ImageFont.FreeTypeFont)
    assert missing_glyphs(default, "松光タネ")


def test_a_japanese_tile_is_its_own_picture_and_english_is_unchanged() -> None:
    english = tiles.tile("pine-bright")
    with use_locale("ja"):
        japanese = tiles.tile("pine-bright")
        assert tiles.tile("pine-bright") is japanese  # cached per locale
        words = [label.text for label in tiles.labels("pine-bright")]
    assert japanese.tobytes() != english.tobytes()
    assert words == ["1", "松", "光", "20"]
    assert [label.text for label in tiles.labels("pine-bright")] == ["1", "Pine", "Bright", "20"]
    assert tiles.tile("pine-bright") is english


def test_a_japanese_table_picture_renders_its_words(ja: None) -> None:
    rows = [
        art.Row("場", tuple(DECK[:8])),
        art.Row("取り札", tuple(DECK[16:30]), layout="pile", note=tuple(art.progress(DECK[16:30]))),
    ]
    image = art.render_rows(rows, filename="field.png")
    assert image.png.startswith(b"\x89PNG")
    assert not english_in([image.alt])
    assert "松に鶴" in image.alt and "素十六" in image.alt
    for text, _done in art.progress(DECK[16:30]):
        assert not missing_glyphs(tiles.font(12), text)


# -- hanafuda in its own words ----------------------------------------------------------------


def test_every_card_month_and_yaku_has_a_japanese_name(ja: None) -> None:
    for card in DECK:
        for shown in (hh_words.card_name(card), hh_words.card_button(card), art.card_name(card)):
            assert not LATIN.search(shown), shown
            assert len(shown) <= 80
    for month in MONTHS.values():
        assert _ja(month.name) == month.kanji
    for name in (*GROUP_A_KAN, *GROUP_B_KAN, *DEKIYAKU_KAN, "Sixteen Chaff"):
        assert not LATIN.search(hh_words.yaku_name(name)), name
    assert hh_words.card_name("pine-bright") == "松に鶴（光）"
    assert hh_words.card_button("willow-bright") == "柳に小野道風"
    assert [hh_words.yaku_name(n) for n in ("Poetry Ribbons", "Blue Ribbons", "Four-Three")] == [
        "赤短",
        "青短",
        "四三",
    ]
    assert hh_words.kan(12) == "12貫"


def _ja(text: str) -> str:
    from bot.i18n import _

    return _(text)


def test_the_hanafuda_buttons_are_japanese_and_fit(ja: None) -> None:
    hand = DECK[:7]
    actions: list[Any] = [
        hm.Mizuten(declare=True),
        hm.Mizuten(declare=False),
        hm.Participate(play=True),
        hm.Participate(play=False),
        hm.Sage(),
        hm.Shoubu(),
        hm.Cancel(),
        hm.CaptureDrawn(capture="susuki-bright"),
        hm.ClaimTeyaku(claim=True),
        hm.ClaimTeyaku(claim=False),
    ]
    for action in actions:
        spec = decision(action, hand, ["A", "B"])
        assert spec is not None
        label = spec[1]
        assert len(label) <= 80 and not english_in([label]), label
    assert decision(hm.Sage(), hand)[1] == "さげ（続ける）"  # type: ignore[index]
    assert decision(hm.Shoubu(), hand)[1] == "勝負（この回を終える）"  # type: ignore[index]


def test_the_yaku_table_is_japanese_within_discords_limits(ja: None) -> None:
    embed = hh_words.yaku_embed()
    _fits(embed)
    texts = [embed.title or "", embed.description or ""]
    texts += [t for f in embed.fields for t in (f.name or "", f.value or "")]
    assert not english_in(texts)
    assert "三本" in embed.fields[0].value and "素十六" in embed.fields[3].value


def _fits(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= 256 and len(embed.description or "") <= 4096
    for field in embed.fields:
        assert len(field.name or "") <= 256 and 0 < len(field.value or "") <= 1024


def test_the_yaku_table_in_english_is_unchanged() -> None:
    embed = hh_words.yaku_embed()
    assert embed.title == "Nuki Hachi-hachi — yaku"
    assert embed.fields[0].value.splitlines()[0] == (
        "**Triplet** — 2 kan · 3 of one month (two triplets pay one)"
    )
    assert hh_words.card_name("pine-bright") == "Crane with Sun (Pine · Bright)"
    assert hh_words.card_button("pine-bright") == "松 Crane with Sun"


# -- Fortunes and Winds in Japanese --------------------------------------------------------


def test_faces_bets_and_buttons_are_japanese(ja: None) -> None:
    for faces in fw.FACES.values():
        for name in faces:
            assert fw_words.face(name) == fw.KANJI[name]
    for kind in fw.BET_KINDS:
        for shown in (_ja(fw_words.BET_BUTTONS[kind]), fw_words.bet_label(kind)):
            assert not LATIN.search(shown) and len(shown) <= 80, shown
    for control in fw_ui.CONTROLS:
        label = _ja(control.label)
        assert not LATIN.search(label) and len(label) <= 80, label
    for result in fw.RESULTS:
        assert not LATIN.search(fw_words.result_name(result)), result
    assert fw_words.bet_label("daikoku") == "大黒の腹"


def test_the_odds_screen_is_japanese_within_discords_limits(ja: None) -> None:
    embed = fw_words.odds_embed()
    _fits(embed)
    texts = [embed.title or "", embed.description or ""]
    texts += [t for f in embed.fields for t in (f.name or "", f.value or "")]
    assert not english_in(texts)


def test_the_odds_screen_in_english_is_unchanged() -> None:
    embed = fw_words.odds_embed()
    assert embed.title == "Fortunes and Winds — exact odds"
    assert [f.name for f in embed.fields] == [
        "Each outcome on roll 1 · 2 · 3",
        "Bank edge per bet",
        "Shooter",
    ]
    assert fw_words.face("North") == "北 North"


# -- refusals ---------------------------------------------------------------------------------


def test_a_refusal_names_its_card_in_the_readers_language() -> None:
    refused = IllegalMove("You don't hold {card}.", card=_card("cherry-bright"))
    assert str(refused) == "You don't hold the Curtain."
    with use_locale("ja"):
        assert explain(refused) == "桜に幕は手札にありません。"
    assert explain(refused) == "You don't hold the Curtain."


def test_a_refusal_made_in_a_japanese_click_is_english_in_its_own_text() -> None:
    with use_locale("ja"):  # the engine runs inside the member's interaction
        refused = IllegalMove("The {die} die is already set aside.", die=Said("Earth"))
        assert explain(refused) == "土のサイコロはもう残してあります。"
    assert str(refused) == "The Earth die is already set aside."


def test_the_house_guard_refusal_in_both_languages() -> None:
    refused = GuardRefused("hungry", 5, 2, awaiting_shooter=False)
    assert str(refused) == (
        "The house guard refuses Hungry Moon of 5 coins: with it the table's bets together "
        "would beat the bank on average. The bank would take at most 2 coins more on it now."
    )
    assert refused.sentence(lambda n: f"{n} 両") == str(refused).replace("coins", "両")
    with use_locale("ja"):
        shown = explain(refused)
    assert "飢えた月" in shown and "5枚" in shown and not english_in([shown])


def test_every_card_game_refusal_reads_in_japanese() -> None:
    for template in _refusal_templates():
        with use_locale("ja"):
            assert _ja(template) != template, template


def _refusal_templates() -> list[str]:
    import ast
    from pathlib import Path

    found = []
    root = Path(__file__).resolve().parents[2]
    for folder in ("bot/games/hachihachi", "bot/games/fortunes_winds"):
        for path in sorted((root / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", None) == "IllegalMove"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    found.append(node.args[0].value)
    assert len(found) > 50
    return found


def test_card_ids_and_names_stay_out_of_a_japanese_picture_name(ja: None) -> None:
    one = art.render_cards([("あなたの手札", DECK[:7])], filename="hand.png")
    assert one.filename == "hand.png"
    for card in DECK[:7]:
        assert card.encode() not in one.png
        assert CARDS[card].name.encode() not in one.png


# -- slash commands ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["hanafuda", "fortunes"])
async def test_the_card_games_commands_carry_japanese(simcord_env: Any, command: str) -> None:
    from tests.platform.test_translations import command_problems, synced_payloads

    payload = (await synced_payloads(simcord_env))[command]
    assert command_problems(payload) == []
    assert (
        payload["name_localizations"]["ja"] == {"hanafuda": "花札", "fortunes": "福と風"}[command]
    )


@pytest.mark.parametrize("card", DECK)
def test_japanese_labels_fit_their_bands(ja: None, card: str) -> None:
    from tests.cogs.test_hachihachi_tiles import text_box

    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for label in tiles.labels(card):
        left, top, right, bottom = text_box(measure, label)
        box_left, box_top, box_right, box_bottom = label.box
        assert box_left <= left and right <= box_right, label
        assert box_top <= top and bottom <= box_bottom, label


# -- /history and the replay page -------------------------------------------------------------


def test_logged_moves_read_in_japanese(ja: None) -> None:
    played = {"kind": "play", "card": "pine-bright", "capture": "pine-chaff-1"}
    assert hh_words.action_text(played, "両") == "松に鶴（光）を出して松のカスを取る"
    assert hh_words.action_text({"kind": "shoubu"}, "両") == "勝負（この回を終える）"
    bet = fw_words.action_text({"kind": "daikoku", "amount": 4}, "両")
    assert bet == "大黒の腹に4両を賭ける"
    aside = fw_words.action_text({"kind": "set_aside", "dice": ["earth", "air"]}, "両")
    assert aside == "土のサイコロ、風のサイコロを残す"


def test_logged_moves_in_english_are_unchanged() -> None:
    played = {"kind": "play", "card": "pine-bright", "capture": "pine-chaff-1"}
    assert hh_words.action_text(played, "coins") == (
        "plays the Crane with Sun (Pine · Bright), taking the Pine chaff (Pine · Chaff)"
    )
    aside = fw_words.action_text({"kind": "set_aside", "dice": ["earth", "air"]}, "coins")
    assert aside == "sets aside the earth die, air die"
