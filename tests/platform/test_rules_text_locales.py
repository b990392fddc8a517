"""The rules pages in every language: a translation has the English pages, page for page
(the page buttons lead to the same page in each), within Discord's embed limits, with
every figure and every option name of the English; /rules shows the locale in effect."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot import rules_text
from bot.i18n import _, use_locale
from tests.support.japanese import english_in

GAMES = sorted(rules_text.GAMES)
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_japanese_pages_like_the_english(game: str) -> None:
    check_japanese_pages(game)


def check_japanese_pages(game: str) -> None:
    """The game's Japanese pages are its English ones, page for page, in Japanese."""
    english = rules_text.pages(game)
    japanese = rules_text.pages(game, "ja")
    assert len(japanese) == len(english)
    assert rules_text.problems(english, japanese) == []
    for title, body in japanese:
        assert JAPANESE.search(title) and JAPANESE.search(body), title
        # Commands, options and their values stay as typed (code marks); no sentence of
        # English is left.
        assert english_in([title, body]) == [], title


@pytest.mark.parametrize("game", GAMES)
def test_every_page_in_every_language_fits_an_embed(game: str) -> None:
    check_pages_fit(game)


def check_pages_fit(game: str) -> None:
    """The game has English and Japanese pages, each within an embed's limits, and every
    translation matches the English."""
    page_sets = dict(rules_text.page_sets(game))
    assert {"en", "ja"} <= set(page_sets)
    for locale, pages in page_sets.items():
        for title, body in pages:
            assert 0 < len(body) <= rules_text.EMBED_DESCRIPTION_MAX, (locale, title)
            # The embed title is "<game> — <page>": the page's part leaves room for the game's.
            assert 0 < len(title) <= rules_text.TITLE_ROOM, (locale, title)
        # Every translation (a third language is a folder of files) matches the English.
        assert rules_text.problems(page_sets["en"], pages) == [], locale


@pytest.mark.parametrize("game", GAMES)
def test_the_japanese_pages_list_the_options_the_server_sets(game: str) -> None:
    check_japanese_moderators_block(game)


def check_japanese_moderators_block(game: str) -> None:
    """The Japanese pages' moderators' block lists the English one's options."""

    def server_options(pages: rules_text.Pages, head: str) -> list[str]:
        text = "\n".join(body for _title, body in pages)
        assert head in text
        names = []
        for line in text.split(head, 1)[1].splitlines()[1:]:
            # Shown in Japanese, an option may have its Japanese name first: `名前`（`name`）.
            found = re.match(r"- (?:`[^`]+`（)?`([a-z_]+)`", line)
            if found is None:
                break
            names.append(found.group(1))
        return names

    english = server_options(rules_text.pages(game), "**Set by the server's moderators**")
    japanese = server_options(rules_text.pages(game, "ja"), "**サーバーのモデレーターが設定**")
    assert japanese == english


def test_other_locales_get_the_english() -> None:
    english = rules_text.pages("hazard")
    assert rules_text.pages("hazard", "fr") == english
    assert rules_text.pages("hazard", "en-GB") == english
    assert rules_text.pages("hazard", "ja-JP") == rules_text.pages("hazard", "ja") != english


def test_the_checker_finds_a_broken_translation() -> None:
    english = rules_text.pages("hazard")
    good = rules_text.pages("hazard", "ja")
    assert rules_text.problems(english, good) == []
    assert rules_text.problems(english, good[:-1]) == ["6 pages where the source has 7"]
    too_long = (good[0], (good[1][0], "あ" * (rules_text.EMBED_DESCRIPTION_MAX + 1)), *good[2:])
    assert any("page 2 has 4097 characters" in p for p in rules_text.problems(english, too_long))
    empty = ((good[0][0], " "), *good[1:])
    assert "page 1 is empty" in rules_text.problems(english, empty)
    # A translation that changes a figure or loses an option's name changes the rules.
    title, body = good[-1]
    changed = (*good[:-1], (title, body.replace("**1,000**", "**100**")))
    assert rules_text.problems(english, changed) == ["page 7 lacks the source's figures: 1,000"]
    lost = (*good[:-1], (title, body.replace("`against_bar`", "バー")))
    assert rules_text.problems(english, lost) == ["page 7 lacks the source's names: against_bar"]
    no_table = ((good[0]), (good[1][0], good[1][1].replace("```", "")), *good[2:])
    assert "page 2 has another number of code blocks than the source" in rules_text.problems(
        english, no_table
    )


def test_the_rules_page_follows_the_locale_in_effect() -> None:
    from cogs._ui.rules_pages import rules_page

    with use_locale("ja"):
        japanese = rules_page("nihakyu", 1).embed
    with use_locale("en"):
        english = rules_page("nihakyu", 1).embed
    assert japanese.description == rules_text.pages("nihakyu", "ja")[1][1]
    assert english.description == rules_text.pages("nihakyu")[1][1]
    assert "勝敗と同点" in (japanese.title or "")
    assert (english.title or "").endswith("Winning & Ties")


def test_commands_and_options_get_the_names_discord_shows_beside_them() -> None:
    names = {
        "hazard": "ハザード",
        "open": "開く",
        "min_stake": "最低賭け額",
        "banker": "胴元",
        "player": "参加者",
        "member": "メンバー",
        "duel": "決闘",
        "bad": "Not A Name",  # Discord refuses it: it shows the English
    }
    text = (
        "`/hazard open` `min_stake`, `max_stake`; `banker:player`; "
        "`/duel challenge member:@Tanzaku`; `bad`; `/config rule`"
    )
    assert rules_text.with_local_names(text, names) == (
        "`/ハザード 開く`（`/hazard open`） `最低賭け額`（`min_stake`）, `max_stake`; "
        "`胴元:参加者`（`banker:player`）; "
        "`/決闘 challenge メンバー:@Tanzaku`（`/duel challenge member:@Tanzaku`）; "
        "`bad`; `/config rule`"
    )


def test_the_japanese_pages_name_commands_as_the_catalog_does(monkeypatch) -> None:
    names = {"hazard": "ハザード", "odds": "確率", "min_stake": "最低賭け額"}
    monkeypatch.setattr(rules_text, "catalog", lambda locale: names)
    rules_text._pages.cache_clear()
    try:
        japanese = "\n".join(body for _title, body in rules_text.pages("hazard", "ja"))
        english = "\n".join(body for _title, body in rules_text.pages("hazard"))
    finally:
        rules_text._pages.cache_clear()
    assert "`/ハザード 確率`（`/hazard odds`）" in japanese
    assert "`最低賭け額`（`min_stake`）" in japanese
    assert "ハザード 確率" not in english and "`/hazard odds`" in english


def test_the_translations_ship_with_the_package() -> None:
    # pip install . (the Docker image) copies only the package data pyproject names.
    root = Path(rules_text.__file__).parent
    config = tomllib.loads((root.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["bot.rules_text"]
    shipped = {path for pattern in globs for path in root.glob(pattern)}
    assert (root / "ja" / "hazard.md") in shipped
    assert set(root.rglob("*.md")) <= shipped


INDEX_LABELS = {"en": "Pages:", "ja": "ページ："}


@pytest.mark.parametrize("game", GAMES)
def test_page_one_lists_every_other_page_by_the_name_it_carries(game: str) -> None:
    for locale, pages in rules_text.page_sets(game):
        (index,) = [
            line for line in pages[0][1].splitlines() if line.startswith(INDEX_LABELS[locale])
        ]
        named = re.findall(r"\*\*(.+?)\*\*", index)
        assert named == [title for title, _body in pages[1:]], locale


@pytest.mark.parametrize("game", GAMES)
def test_no_rules_page_is_titled_twice(game: str) -> None:
    from cogs._ui.rules_pages import rules_page

    for locale, pages in rules_text.page_sets(game):
        with use_locale(locale):
            game_title = _(rules_text.GAMES[game])
            for number in range(len(pages)):
                title = rules_page(game, number).embed.title or ""
                assert title.count(game_title) == 1, (locale, title)
                assert pages[number][0] != game_title, (locale, number)


@pytest.mark.parametrize("game", GAMES)
def test_a_newcomers_first_page_is_how_to_play_not_money(game: str) -> None:
    for locale, pages in rules_text.page_sets(game):
        first = pages[0][1]
        # How points become coins and what joining puts up come after how to play.
        assert "stake_per_kan" not in first, locale
        for heading in ("**Coins.**", "**Escrow.**", "**コイン。**", "**預かり。**"):
            assert heading not in first, (locale, heading)
        assert "Banking is staking" not in first and "胴元を務めるのも賭けのうち" not in first


def test_hachi_hachis_coins_and_escrow_are_on_its_scoring_page() -> None:
    for locale, pages in rules_text.page_sets("hachihachi"):
        titled = dict(pages)
        scoring = titled["Scoring a Round & Coins" if locale == "en" else "回の精算とコイン"]
        assert "stake_per_kan" in scoring, locale
        assert ("**Escrow.**" if locale == "en" else "**預かり。**") in scoring, locale
