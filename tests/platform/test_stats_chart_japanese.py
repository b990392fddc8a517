"""The /stats chart's legend reads in the member's language and is drawn with a font that
has its glyphs (Pillow's default has no kana or kanji: it drew boxes)."""

from __future__ import annotations

from itertools import cycle
from typing import Any

import pytest
from PIL import ImageDraw, ImageFont

from bot import rules_text
from bot.i18n import use_locale
from cogs._ui.stats_chart import draw_running_net
from cogs.table_tools import title_of
from tests.support.japanese import missing_glyphs


def legend_of(monkeypatch: pytest.MonkeyPatch, titles: dict[str, str]) -> list[tuple[str, Any]]:
    drawn: list[tuple[str, Any]] = []
    text = ImageDraw.ImageDraw.text

    def noting(self: ImageDraw.ImageDraw, xy: Any, words: str, *args: Any, **kwargs: Any) -> None:
        drawn.append((words, kwargs.get("font")))
        text(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", noting)
    # A step for every game the bot hosts, up and down, however many there are.
    points = [(game, value) for game, value in zip(rules_text.GAMES, cycle((5, -3, 8, 2, -6)))]
    draw_running_net(points, titles)
    return [(words, font) for words, font in drawn if words in titles.values()]


def test_a_japanese_legend_names_every_game_in_japanese_with_its_glyphs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with use_locale("ja"):
        titles = {game: title_of(game) for game in rules_text.GAMES}
    assert titles["hachihachi"] == "抜き八八"
    legend = legend_of(monkeypatch, titles)
    assert sorted(words for words, _font in legend) == sorted(titles.values())
    for words, font in legend:
        assert isinstance(font, ImageFont.FreeTypeFont)
        assert missing_glyphs(font, words) == [], words


def test_the_default_font_would_have_drawn_boxes() -> None:
    # The checker above can fail: Pillow's own font has no glyph for these.
    assert missing_glyphs(ImageFont.load_default(size=12), "抜き八八") != []
