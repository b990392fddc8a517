"""Time to draw the /stats chart (goal: under 50 ms): a member's running net coins over
their last 100 tables, five games' colours, saved as PNG.

- Chart: ``draw_running_net`` on 100 tables of random results across the five games.
- Baseline, measured in the same run: a bare ``Image.new`` of the same size saved as PNG,
  the part no drawing can remove.

Wall-clock ``time.perf_counter``, best and median of ``--runs`` runs.

    python benchmarks/stats_chart.py [--runs 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot import rules_text
from bot.records import CHART_TABLES, running_net
from cogs._ui.stats_chart import HEIGHT, WIDTH, draw_running_net

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hachihachi_render import timed

GOAL_MS = 50.0


@dataclass(frozen=True)
class Result:
    game: str
    net: int
    won: bool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    games = sorted(rules_text.GAMES)
    results = []
    for _ in range(CHART_TABLES):
        net = rng.randint(-300, 300)
        results.append(Result(rng.choice(games), net, net > 0))
    points = running_net(results)

    def bare() -> None:
        Image.new("RGB", (WIDTH, HEIGHT)).save(io.BytesIO(), format="PNG")

    chart = timed(lambda: draw_running_net(points, rules_text.GAMES), args.runs)
    baseline = timed(bare, args.runs)
    median = statistics.median(chart)
    sys.stdout.write(
        f"/stats chart, {CHART_TABLES} tables, {WIDTH}x{HEIGHT} PNG, {args.runs} runs\n"
        f"  chart     best {min(chart):6.2f} ms  median {median:6.2f} ms\n"
        f"  baseline  best {min(baseline):6.2f} ms  median {statistics.median(baseline):6.2f} ms"
        " (blank image of the same size saved as PNG)\n"
        f"goal: median under {GOAL_MS:.0f} ms: {'MET' if median < GOAL_MS else 'NOT MET'}\n"
    )


if __name__ == "__main__":
    main()
