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
- Warm: the same rows again (the cached object is returned).
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

from PIL import Image

from bot.games.hachihachi.cards import DECK
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

    cold_ms = timed(cold, args.runs)
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
        f"  warm (cached image):            {figures(warm_ms)}\n"
        f"  baseline (bare Image.new, palette, PNG save; same size): {figures(base_ms)}\n"
        f"  goal: cold < {GOAL_MS:.0f} ms (median): {verdict}\n"
        f"table picture: field of 12 + two piles of 11, {table_size[0]}×{table_size[1]} px, "
        f"{len(table_png):,} bytes\n"
        f"  cold, with piles:               {figures(table_ms)}\n"
        f"  cold, field alone (the old one): {figures(field_ms)}\n"
        f"  goal: cold with piles < {GOAL_MS:.0f} ms (median): {table_verdict}\n"
    )


if __name__ == "__main__":
    main()
