"""Swiss pairing and standings at 1,000 entrants (goals: a round paired under 1 s, standings
under 50 ms, on one core).

The field: 1,000 entrants with spread ratings, three of whom drop after round 2 (997 left:
a bye every round from round 3), four rounds played with the pairing itself and seeded
results (about one table in ten drawn, one in fifty a no-show forfeit), so round 5 meets
real score groups (0 to 4 points in halves). The figures are CPU time (``process_time``),
the median and the slowest of ``--repeat`` runs of the same call on the same input, each
run after a full garbage collection (the verdict is on the slowest).

Printed beside them, from the same run on the same core: the time to sort the 1,000 entrants
by score and rating (what any pairing must at least do), and networkx's maximum-weight
matching of one block's trivial graph (24 players, all weights equal) times the blocks in
the field — the floor under the block matching (bot/events/swiss.py explains the blocks).
Also printed, with no goal: tables of 3 and 4 at round 5, an arena pairing of 1,000 free
players, and (``--compare N``) the block matching beside one matching of the whole field
of N players on the same round, their rule costs (repeats, second byes, the bye's height,
the sum of squared score gaps) and times.

    python benchmarks/events_pairing.py [--repeat 5] [--compare 120] [--seed 1]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import networkx as nx

from bot.events import (
    Entrant,
    Pairing,
    TableResult,
    arena_pair,
    bye_result,
    pair_round,
    standings,
)
from bot.events.scoring import unit_scores
from bot.events.swiss import BLOCK

PAIR_GOAL = 1.0
STANDINGS_GOAL = 0.050
FIELD = 1000
ROUNDS_PLAYED = 4


def play(pairing: Pairing, round: int, rng: random.Random, results: list[TableResult]) -> None:
    """Seeded results for one round's tables: mostly a winner, some draws, a few no-shows."""
    for table in pairing.tables:
        roll = rng.random()
        places = list(range(1, len(table) + 1))
        rng.shuffle(places)
        forfeit: tuple[int, ...] = ()
        if roll < 0.1:
            places = [1] * len(table)
        elif roll < 0.12:
            forfeit = (table[places.index(len(table))],)
        results.append(
            TableResult(
                table_id=len(results) + 1,
                round=round,
                players=table,
                places=tuple(places),
                forfeit_losers=forfeit,
            )
        )
    for member in pairing.byes:
        results.append(bye_result(member, round, len(results) + 1))


def field(size: int, seats: int, seed: int) -> tuple[list[Entrant], list[TableResult]]:
    """``size`` entrants after ``ROUNDS_PLAYED`` rounds, three dropped after round 2."""
    rng = random.Random(seed)
    entrants = [Entrant(member=10_000 + i, rating=rng.gauss(1500, 250)) for i in range(size)]
    results: list[TableResult] = []
    for round in range(1, ROUNDS_PLAYED + 1):
        if round == 3:
            dropped = {e.member for e in rng.sample(entrants, 3)}
            entrants = [e.model_copy(update={"dropped": e.member in dropped}) for e in entrants]
        play(pair_round(entrants, results, seats=seats, round=round), round, rng, results)
    return entrants, results


def timed(repeat: int, work: Callable[[], Any]) -> tuple[float, float]:
    """Median and slowest CPU seconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        # A collection the set-up (or the run before) left owing must not land in this run;
        # the collections the call's own garbage causes still count.
        gc.collect()
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return statistics.median(times), max(times)


def rule_costs(
    pairing: Pairing, entrants: list[Entrant], results: list[TableResult]
) -> tuple[int, int, int, int]:
    """Repeats, second byes, the bye's height from the bottom, the sum of squared gaps."""
    met = {frozenset(p) for r in results for p in combinations(r.players, 2)}
    had = {r.players[0] for r in results if r.is_bye}
    order = [r.member for r in standings(entrants, results) if not r.dropped]
    score = unit_scores(results)
    pairs = [frozenset(t) for t in pairing.tables]
    return (
        sum(p in met for p in pairs),
        sum(b in had for b in pairing.byes),
        sum(len(order) - 1 - order.index(b) for b in pairing.byes),
        sum((score.get(a, 0) - score.get(b, 0)) ** 2 for a, b in pairing.tables),
    )


def baseline_matching() -> None:
    graph: nx.Graph[int] = nx.Graph()
    graph.add_weighted_edges_from((a, b, 1) for a, b in combinations(range(BLOCK), 2))
    nx.max_weight_matching(graph, maxcardinality=True)


def report(name: str, figures: tuple[float, float], goal: float | None) -> str:
    median, slowest = figures
    line = f"{name}: median {median * 1e3:,.1f} ms, slowest {slowest * 1e3:,.1f} ms"
    if goal is not None:
        verdict = "MET" if slowest < goal else "NOT MET"
        line += f" (goal < {goal * 1e3:,.0f} ms: {verdict})"
    return line + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--compare", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = sys.stdout
    round = ROUNDS_PLAYED + 1

    entrants, results = field(FIELD, 2, args.seed)
    active = sum(not e.dropped for e in entrants)
    groups = len({unit_scores(results).get(e.member, 0) for e in entrants if not e.dropped})
    pairing = pair_round(entrants, results, seats=2, round=round)
    out.write(
        f"Swiss, two seats: {FIELD:,} entrants ({active} active, {groups} score groups),"
        f" round {round}: {len(pairing.tables)} tables, bye {list(pairing.byes)}\n"
    )
    pair = timed(args.repeat, lambda: pair_round(entrants, results, seats=2, round=round))
    out.write(report("  pair the round", pair, PAIR_GOAL))
    rows = timed(args.repeat * 4, lambda: standings(entrants, results))
    out.write(report(f"  standings of {FIELD:,} ({len(results):,} results)", rows, STANDINGS_GOAL))

    keyed = [(-float(i % 9), -e.rating, e.member) for i, e in enumerate(entrants)]
    sort = timed(args.repeat * 20, lambda: sorted(keyed))
    blocks = max(1, active // BLOCK)
    one_block = timed(args.repeat, baseline_matching)
    out.write(
        "baselines, same run:\n"
        + report(f"  sort {FIELD:,} entrants by score and rating", sort, None)
        + report(
            f"  networkx matching of a trivial {BLOCK}-player block × {blocks} blocks",
            (one_block[0] * blocks, one_block[1] * blocks),
            None,
        )
    )

    out.write("no goal:\n")
    for seats in (3, 4):
        many, played = field(FIELD, seats, args.seed)
        figures = timed(args.repeat, partial(pair_round, many, played, seats=seats, round=round))
        out.write(
            report(f"  Swiss, {seats} seats, {FIELD:,} entrants, round {round}", figures, None)
        )
    rng = random.Random(args.seed)
    free = list(range(1, FIELD + 1))
    scores = {m: rng.randrange(0, 20) for m in free}
    last = {m: frozenset({m + 1 if m % 2 else m - 1}) for m in free}
    figures = timed(args.repeat, lambda: arena_pair(free, scores, last, seats=2))
    out.write(report(f"  arena, {FIELD:,} free players at once, two seats", figures, None))

    if args.compare:
        few, done = field(args.compare, 2, args.seed)
        blocked = pair_round(few, done, seats=2, round=round)
        whole = pair_round(few, done, seats=2, round=round, block=args.compare + 2)
        block_time = timed(1, lambda: pair_round(few, done, seats=2, round=round))
        whole_time = timed(
            1, lambda: pair_round(few, done, seats=2, round=round, block=args.compare + 2)
        )
        out.write(
            f"  {args.compare} entrants, round {round}, in blocks of {BLOCK} beside the whole"
            " field at once (repeats, second byes, bye height, squared gaps in 1/12 points):\n"
            f"    blocks {rule_costs(blocked, few, done)} in {block_time[0] * 1e3:,.0f} ms;"
            f" whole field {rule_costs(whole, few, done)} in {whole_time[0] * 1e3:,.0f} ms\n"
        )


if __name__ == "__main__":
    main()
