"""The replay page in the reader's language: its words in the locale in effect when it is
built (the member who asked for it by /verify, the server's for the ended table's), its
data and the rolls the browser re-derives the same in every language."""

from __future__ import annotations

import re

from bot.fairness import FairDice, commitment
from bot.i18n import catalog, placeholders, use_locale
from bot.replay import WORDS, page_html
from tests.platform.test_replay_page import chromium_dom, needs_chromium
from tests.support.replay import data_of

SEED = bytes(range(32))
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def table_data(seed: bytes = SEED) -> dict[str, object]:
    """A small table on the fair dice: two throws of two dice and a shuffle."""
    dice = FairDice(seed)
    steps = []
    for seq in (1, 2):
        draws = [[6, dice.roll(6)], [6, dice.roll(6)]]
        steps.append(
            {"seq": seq, "at": 0, "actor": "@alice", "said": "throws", "draws": draws, "shown": ""}
        )
    steps.append(
        {
            "seq": 3,
            "at": 0,
            "actor": "@bob",
            "said": "deals",
            "draws": [[8, list(dice.shuffle_order(8))]],
            "shown": "",
        }
    )
    return {
        "table": 7,
        "game": "hazard",
        "title": "Hazard",
        "commitment": commitment(seed),
        "committed_at": 0,
        "seed": seed.hex(),
        "steps": steps,
    }


def test_every_word_of_the_page_has_its_japanese() -> None:
    japanese = catalog("ja")
    for key, english in WORDS.items():
        translated = japanese.get(english)
        assert isinstance(translated, str) and JAPANESE.search(translated), key
        assert placeholders(translated) == placeholders(english), key


def test_the_page_is_built_in_the_locale_in_effect() -> None:
    data = table_data()
    with use_locale("ja"):
        japanese = page_html(data)
    with use_locale("en"):
        english = page_html(data)
    assert data_of(japanese) == data_of(english), "the same data in every language"
    assert '<html lang="ja">' in japanese and '<html lang="en">' in english
    assert "<title>Tanzaku リプレイ</title>" in japanese
    assert "シードを確認しています…" in japanese and "Checking the seed…" not in japanese
    for words in ("Checking the seed…", "Re-deriving every roll…", "<th>Whose</th>"):
        assert words in english
    assert "Nothing is fetched." in english and "Nothing is fetched." not in japanese
    assert "<th>Whose</th><th>Roll</th><th>From the seed</th>" in english
    assert "<th>誰の</th><th>出目</th><th>シードから</th>" in japanese


def test_a_word_cannot_break_out_of_the_script() -> None:
    # The words are inlined into a script: one holding "</script>" must not end it.
    page = page_html({"table": 1, "game": "x", "title": "t", "steps": []})
    assert page.count("</script>") == 3


@needs_chromium
def test_a_japanese_page_re_derives_the_same_rolls_in_japanese(tmp_path) -> None:
    data = table_data()
    doms = {}
    for locale in ("en", "ja"):
        with use_locale(locale):
            page = page_html(data)
        path = tmp_path / f"{locale}.html"
        path.write_text(page, encoding="utf-8")
        doms[locale] = chromium_dom(path, tmp_path / f"profile-{locale}")
    rows = {
        locale: re.findall(r'<tr data-same="(\w+)"><td>[^<]*</td><td>#(\d+)</td>', dom)
        for locale, dom in doms.items()
    }
    assert rows["ja"] == rows["en"] == [("true", "1")] * 2 + [("true", "2")] * 2 + [("true", "3")]
    for dom in doms.values():
        assert 'data-state="matched"' in dom and 'data-checked="5"' in dom
        assert 'id="seed-check" data-matched="true"' in dom
    assert "✅ All 5 rolls and shuffles re-derive from the revealed seed." in doms["en"]
    assert "✅ 全5件の出目とシャッフルが、公開されたシードから再計算できました。" in doms["ja"]
    assert "Hazard — 卓 #7" in doms["ja"] and "8枚の公正なシャッフル: [" in doms["ja"]
    # What the script writes in Japanese leaves no English sentence of the page's own.
    for english in WORDS.values():
        if len(english.split()) > 2 and "{" not in english:
            assert english not in doms["ja"], english

    # One roll altered: the Japanese page names it as the English one does.
    steps = data["steps"]
    assert isinstance(steps, list)
    steps[1]["draws"][0][1] = steps[1]["draws"][0][1] % 6 + 1
    with use_locale("ja"):
        altered = tmp_path / "altered.html"
        altered.write_text(page_html(data), encoding="utf-8")
    dom = chromium_dom(altered, tmp_path / "profile-altered")
    assert 'data-state="mismatch"' in dom and 'data-first="3"' in dom
    assert "❌ 3番目の結果（手順 #2）が一致しません" in dom


def computer_step_data(seed: bytes = SEED) -> dict[str, object]:
    """A card table: the deal's shuffle, then a computer's step whose decision drew its
    search's randomness (a draw of 2**31) before the game's own die."""
    dice = FairDice(seed)
    deal = {"seq": 1, "at": 0, "actor": "@alice", "said": "started the game", "shown": ""}
    deal["draws"] = [[34, list(dice.shuffle_order(34))]]
    thought = {"seq": 2, "at": 0, "actor": "🤖 Computer", "said": "plays a card", "shown": ""}
    thought["draws"] = [[2**31, dice.roll(2**31)], [6, dice.roll(6)]]
    thought["computer_draws"] = [0]
    data = table_data(seed)
    data.update(game="hachihachi", title="Nuki Hachi-hachi", steps=[deal, thought])
    return data


@needs_chromium
def test_a_computers_randomness_is_named_and_small_and_a_shuffle_is_fair(tmp_path) -> None:
    data = computer_step_data()
    steps = data["steps"]
    assert isinstance(steps, list)
    randomness = steps[1]["draws"][0][1]
    doms = {}
    for locale in ("en", "ja"):
        with use_locale(locale):
            page = page_html(data)
        path = tmp_path / f"{locale}.html"
        path.write_text(page, encoding="utf-8")
        doms[locale] = chromium_dom(path, tmp_path / f"profile-{locale}")
    en, ja = doms["en"], doms["ja"]
    assert 'data-state="matched"' in en and 'data-checked="3"' in en
    # The step on show is the computer's: the game's die large, its randomness small.
    step = en.split('id="step"', 1)[1].split("</div>", 1)[0]
    (large,) = re.findall(r'<p class="die">([^<]*)</p>', step)
    assert str(randomness) not in large and "2147483648" not in large
    said = f"The computer's randomness: {randomness:,} (of 2,147,483,648, from the seed)"
    assert f'<p class="draw small muted computer-draw">{said}</p>' in step
    assert "d2147483648" not in en, "never shown as a die, here or in the list of draws"
    assert en.count(said) == 2, "the step and its row in the list of draws"
    assert "Fair shuffle of 34 cards: [" in en and "shuffle of 34: [" not in en
    assert f"コンピューターの乱数：{randomness:,}（2,147,483,648通りから、シードより）" in ja
    assert "34枚の公正なシャッフル" in ja
