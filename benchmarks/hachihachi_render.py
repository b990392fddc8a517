"""Time to render one Nuki Hachi-hachi card picture (goal: under 30 ms), cached after.

The picture the cog attaches most: a field of 12 cards and a hand of 7 (19 distinct cards
dealt from a seeded shuffle), in two labelled rows.

- Table picture with piles: the table message's picture at its largest (issue 27): the 12
  cards of the field, and two score piles of 11 cards each (the other 22 of the deck),
  grouped by kind with their dekiyaku progress; beside it, measured in the same run, the
  old table picture (the field alone).

- Tile cache build: all 34 tiles drawn from scratch (done once per process).
- Cold: the image composed from cached tiles and saved as PNG, with the image cache
  cleared before each run (the case a new deal or a play meets).
- Rows cached (issue 36): the picture composed from rows already drawn (the pictures'
  cache cleared, not the rows'), the case of most pictures a move makes: the field, the
  piles and the hands return from picture to picture, and only the palette reduction and
  the PNG are left to do.
- Warm: the same rows again (the cached object is returned).
- Fixed palette (not shipped, measured for the choice it leaves): the rows reduced once
  each to one palette of the 34 tiles and pasted as palette images, so a picture is only
  pasted and saved. Its pictures differ from the shipped ones (the shipped palette is
  each picture's own), by the maximum and mean channel difference printed.
- Baseline, measured in the same run: a bare ``Image.new`` of the same size, reduced to a
  256-colour palette and saved as PNG as the pictures are, i.e. the part of the cold time
  no composing can remove.

Wall-clock ``time.perf_counter``, best and median of ``--runs`` runs (the best is the
machine's own speed; the median includes other processes on a shared machine).

    python benchmarks/hachihachi_render.py [--runs 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageChops, ImageStat

from bot.games.hachihachi.cards import DECK
from bot.i18n import current_locale
from cogs.hachihachi import art, tiles

GOAL_MS = 30.0


def timed(action: Callable[[], None], runs: int) -> list[float]:
    """Milliseconds of each of ``runs`` calls of ``action``."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return times


class FixedPalette:
    """The fixed-palette composer measured beside the shipped one (not shipped): one
    palette for every picture, reduced from all 34 tiles and their pile size, each row
    reduced to it once and pasted as a palette image."""

    def __init__(self) -> None:
        montage = Image.new("RGB", (34 * tiles.TILE_W, tiles.TILE_H + art.PILE_H), art.BACKGROUND)
        for index, card in enumerate(tiles.CARDS):
            montage.paste(tiles.tile(card), (index * tiles.TILE_W, 0))
            montage.paste(art.small_tile(card), (index * tiles.TILE_W, tiles.TILE_H))
        self.palette = montage.quantize(256, method=Image.Quantize.FASTOCTREE)
        self.rows: dict[art.Row, Image.Image] = {}

    def strip(self, row: art.Row) -> Image.Image:
        if row not in self.rows:
            drawn = art._strip(row, current_locale())
            self.rows[row] = drawn.quantize(palette=self.palette, dither=Image.Dither.NONE)
        return self.rows[row]

    def picture(self, rows: list[art.Row]) -> bytes:
        sizes = [art._row_size(row) for row in rows]
        width = max(w for w, _h in sizes) + 2 * art.MARGIN
        height = 2 * art.MARGIN + sum(h for _w, h in sizes) + art.ROW_GAP * (len(rows) - 1)
        image = Image.new("P", (width, height), self.strip(rows[0]).getpixel((0, 0)))
        image.putpalette(self.palette.getpalette() or [])
        y = art.MARGIN
        for row, (_w, h) in zip(rows, sizes, strict=True):
            image.paste(self.strip(row), (0, y))
            y += h + art.ROW_GAP
        buffer = io.BytesIO()
        image.save(buffer, "PNG", optimize=False, compress_level=1)
        return buffer.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    deck = list(DECK)
    random.Random(args.seed).shuffle(deck)
    rows = [("Field", deck[:12]), ("Your hand", deck[12:19])]

    started = time.perf_counter()
    for card_id in tiles.CARDS:
        tiles.tile(card_id)
    tiles_ms = (time.perf_counter() - started) * 1000

    def cold() -> None:
        art.cache_clear()
        art.render_cards(rows, filename="field.png")

    def warm() -> None:
        art.render_cards(rows, filename="field.png")

    cold()  # the first composition also loads the label fonts
    size = Image.open(io.BytesIO(art.render_cards(rows, filename="field.png").png)).size

    field = deck[:12]
    piles = [deck[12:23], deck[23:34]]
    table_rows = [
        art.Row("Field", tuple(field)),
        *(
            art.Row(
                f"Pile of player {i + 1}: {len(pile)} cards",
                tuple(pile),
                layout="pile",
                note=tuple(art.progress(pile)),
            )
            for i, pile in enumerate(piles)
        ),
    ]

    def table_cold() -> None:
        art.cache_clear()
        art.render_rows(table_rows, filename="field.png")

    def field_only_cold() -> None:
        art.cache_clear()
        art.render_cards([("Field", field)], filename="field.png")

    table_cold()  # the first pile also loads the small tiles and the smaller fonts
    table_png = art.render_rows(table_rows, filename="field.png").png
    table_size = Image.open(io.BytesIO(table_png)).size

    def baseline() -> None:
        buffer = io.BytesIO()
        bare = Image.new("RGB", size, art.BACKGROUND)
        bare.quantize(256, method=Image.Quantize.FASTOCTREE).save(
            buffer, "PNG", optimize=False, compress_level=1
        )

    def rows_cached() -> None:
        art._render.cache_clear()
        art._picture.cache_clear()
        art.render_cards(rows, filename="field.png")

    fixed = FixedPalette()
    fixed.picture(table_rows)
    fixed_ms = timed(lambda: fixed.picture(table_rows), args.runs)
    shipped = Image.open(io.BytesIO(table_png)).convert("RGB")
    changed = ImageChops.difference(
        shipped, Image.open(io.BytesIO(fixed.picture(table_rows))).convert("RGB")
    )
    most = max(high for _low, high in changed.getextrema())
    mean = sum(ImageStat.Stat(changed).mean) / 3

    cold_ms = timed(cold, args.runs)
    cached_ms = timed(rows_cached, args.runs)
    warm_ms = timed(warm, args.runs)
    base_ms = timed(baseline, args.runs)
    table_ms = timed(table_cold, args.runs)
    field_ms = timed(field_only_cold, args.runs)
    png = art.render_cards(rows, filename="field.png").png
    verdict = "MET" if statistics.median(cold_ms) < GOAL_MS else "NOT MET"
    table_verdict = "MET" if statistics.median(table_ms) < GOAL_MS else "NOT MET"

    def figures(times: list[float]) -> str:
        return f"best {min(times):7.3f} ms, median {statistics.median(times):7.3f} ms"

    sys.stdout.write(
        f"hachihachi pictures: field of 12 + hand of 7, {size[0]}×{size[1]} px, "
        f"{len(png):,} bytes, {args.runs} runs each\n"
        f"  tile cache build (34 tiles): {tiles_ms:.1f} ms\n"
        f"  cold (tiles cached, image not): {figures(cold_ms)}\n"
        f"  rows cached, picture not:       {figures(cached_ms)}\n"
        f"  warm (cached image):            {figures(warm_ms)}\n"
        f"  baseline (bare Image.new, palette, PNG save; same size): {figures(base_ms)}\n"
        f"  goal: cold < {GOAL_MS:.0f} ms (median): {verdict}\n"
        f"table picture: field of 12 + two piles of 11, {table_size[0]}×{table_size[1]} px, "
        f"{len(table_png):,} bytes\n"
        f"  cold, with piles:               {figures(table_ms)}\n"
        f"  cold, field alone (the old one): {figures(field_ms)}\n"
        f"  goal: cold with piles < {GOAL_MS:.0f} ms (median): {table_verdict}\n"
        f"  fixed palette, rows cached (not shipped): {figures(fixed_ms)}; pixels differ "
        f"from the shipped picture by at most {most} and {mean:.2f} on average a channel\n"
    )


if __name__ == "__main__":
    main()
