"""The /stats chart: a member's running net coins over their last hundred tables, each
step coloured by the game of its table. One small PNG, drawn with Pillow."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot import fonts
from bot.catalog import CATALOG

WIDTH, HEIGHT = 640, 240
MARGIN_X, MARGIN_Y = 56, 28
BACKGROUND = (43, 45, 49)
GRID = (90, 93, 100)
TEXT = (220, 221, 222)
OTHER_GAME = (149, 165, 166)
"""A game the catalog no longer lists (an old table's)."""


def colour_of(game: str) -> tuple[int, int, int]:
    """The game's colour in its catalog record (read each time, as every list of games)."""
    return CATALOG.get(game).colour if game in CATALOG else OTHER_GAME


def draw_running_net(points: Sequence[tuple[str, int]], titles: dict[str, str]) -> bytes:
    """PNG bytes of the chart; `points` are (game, running net) per table, oldest first."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    pen = ImageDraw.Draw(image)
    # Noto Sans CJK JP, as the card pictures: Pillow's default font has no kana or kanji.
    font = fonts.noto(12)
    values = [0, *(value for _, value in points)]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    plot_width, plot_height = WIDTH - MARGIN_X - 12, HEIGHT - 2 * MARGIN_Y

    def y(value: int) -> float:
        return MARGIN_Y + (high - value) * plot_height / (high - low)

    def x(index: int) -> float:
        return MARGIN_X + index * plot_width / max(1, len(points))

    pen.line([(MARGIN_X, y(0)), (MARGIN_X + plot_width, y(0))], fill=GRID, width=1)
    for value in (high, 0, low):
        pen.text((6, y(value) - 7), f"{value:+,}" if value else "0", fill=TEXT, font=font)
    previous = (x(0), y(0))
    for index, (game, value) in enumerate(points, 1):
        current = (x(index), y(value))
        pen.line([previous, current], fill=colour_of(game), width=3)
        previous = current
    legend_x = MARGIN_X
    for game in dict.fromkeys(game for game, _ in points):
        pen.rectangle([legend_x, 8, legend_x + 10, 18], fill=colour_of(game))
        label = titles.get(game, game)
        pen.text((legend_x + 14, 6), label, fill=TEXT, font=font)
        legend_x += 24 + int(pen.textlength(label, font=font))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
