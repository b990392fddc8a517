"""Nuki Hachi-hachi's search computer against two yardsticks, and its time per decision.

Goals (issue 15): over 1 000 seeded rounds the computer beats (a) a uniform random legal
player and (b) the greedy "capture the most points now" player by a clear margin, and a
decision takes at most 300 ms on one core.

Each round is a one-round match of two seated players at 0 coins a kan under the default
house rules (mizuten offered, automatic claims, carry-over), first dealer the first seat:
the computer sits first in even rounds and second in odd ones, so it deals exactly half of
them. Round ``k`` deals from the same fair dice (``FairDice`` of the seed and ``k``) for
both opponents. Reported per opponent:

- rounds won: the share of rounds in which the computer's net points are above 0, with a
  95% Wilson interval; a round it ends at exactly 0 counts as not won (their number is
  printed);
- mean net points a round (its 95% normal interval), the measure the search maximises;
- the same two figures for ``greedy_decide`` in the computer's seat on the same deals:
  the baseline the search must improve on (against greedy, that is greedy's mirror match).

"Clear margin" (MET): both 95% intervals above even (rounds won above 50%, net above 0).

Time per decision, wall clock (``time.perf_counter``) around ``decide``, p50 / p99 / max,
for the searched decisions (a hand card, a drawn card's capture, sage or shoubu, with two
or more candidates) and for all of the computer's decisions; beside it the baseline of the
same run, the engine's own ``act`` on the same rounds (every action of both players).
The goal is judged on the searched decisions' p99 and max. The load average at the start
is printed: the machine is shared, and wall-clock time counts other processes.

Landing moment (issue 24): the table service lands every move of the computer a fixed
``HACHIHACHI.computer.thinking_seconds`` after its decision began, so that when it lands says
nothing of the hand; that holds while no decision takes longer (one that does lands at
the next multiple). Printed: the distribution of every decision's time beside that
moment, the slowest as a share of it, how many overran, and the searched decisions' time
by their number of candidates (the work is the same whatever that number). Goal: none
overran and the slowest is at most half the moment (a margin of 2 for a busier machine).

Old against new (issue 36, ``--compare``): the search as it was before issue 36
(:func:`old_search`: 1 600 rollouts over 800 worlds sampled up front, the rollouts dealt
round-robin over the candidates, so a decision with three or more candidates sampled
worlds it never played) and the search as it is, each against the greedy player on the
same ``--rounds`` deals (paired). Printed: rounds won by each, the difference (new − old)
with its paired standard error, the same for the net points a round, and the CPU
(``time.process_time``) of a searched decision for each, with their ratio.

    python benchmarks/hachihachi_computer.py [--rounds 1000] [--budget N] [--seed 0]
                                            [--opponent random|greedy|both]
    python benchmarks/hachihachi_computer.py --compare [--rounds 2000] [--seed 0]

``--budget`` is a searched decision's work, in rollouts (``bot.players.hachihachi.SAMPLES``
by default; see ``work_of``). Exits 2 when a computer's decision was refused by the engine
(the run is not valid).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._stats import mean_interval, percentile, wilson
from bot.catalog import HACHIHACHI
from bot.fairness import FairDice
from bot.games import hachihachi as hh
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.players import hachihachi as hp

COMPUTER, OTHER = 1, 2
TIME_GOAL_MS = 300.0
RULES = hh.Rules(stake_per_kan=0, rounds=1, first_dealer="first_seat")

Decide = Callable[[hh.State, int, Dice], hh.Action | None]


@dataclass
class Tally:
    nets: list[int] = field(default_factory=list)
    searched_ms: list[float] = field(default_factory=list)
    by_candidates: dict[int, list[float]] = field(default_factory=dict)
    all_ms: list[float] = field(default_factory=list)
    act_ms: list[float] = field(default_factory=list)


def dice_of(seed: int, index: int) -> FairDice:
    return FairDice(b"hachihachi-computer" + seed.to_bytes(4, "big") + index.to_bytes(9, "big"))


def play_round(index: int, seed: int, mine: Decide, theirs: Decide, tally: Tally) -> None:
    dice = dice_of(seed, index)
    seats = [COMPUTER, OTHER] if index % 2 == 0 else [OTHER, COMPUTER]
    state = hh.start(RULES, seats, dice)
    while not state.finished:
        seat = state.turn
        assert seat is not None
        if seat == COMPUTER:
            candidates = len(hh.legal_actions(state, seat))
            searched = state.phase in hp.SEARCHED
            started = time.perf_counter()
            action = mine(state, seat, dice)
            took = (time.perf_counter() - started) * 1000
            tally.all_ms.append(took)
            if searched:
                tally.searched_ms.append(took)
                tally.by_candidates.setdefault(candidates, []).append(took)
        else:
            action = theirs(state, seat, dice)
        assert action is not None, "the seat in turn always has a decision"
        started = time.perf_counter()
        state, _ = hh.act(state, seat, action, dice)
        tally.act_ms.append((time.perf_counter() - started) * 1000)
    tally.nets.append(state.scores[COMPUTER])


OLD_SAMPLES = 1600
"""The rollouts a searched decision played before issue 36."""


def old_search(
    state: hh.State, seat: int, moves: list[hh.Action], seed: int, samples: int = OLD_SAMPLES
) -> hh.Action:
    """The search as it was before issue 36, kept to measure the new one against: every
    world of ``samples // 2`` sampled up front, rollout ``i`` playing move ``i mod k`` in
    world ``i div k`` (with three or more moves, the last worlds are never played)."""
    count = len(moves)
    budget = max(samples, hp.MOST_CANDIDATES)
    rng = random.Random(seed)
    position = hp.position_of(state, seat)
    scoring = hp.scoring_of(state, seat)
    rest_of = [card for card in position.unseen if card not in position.revealed]
    worlds = []
    for _ in range(budget // 2):
        rest = list(rest_of)
        rng.shuffle(rest)
        need = position.other_count - len(position.revealed)
        worlds.append(
            hp.Round(
                [list(position.hands_own), [*position.revealed, *rest[:need]]],
                [list(cards) for cards in position.field],
                rest[need:],
                list(position.masks),
                list(position.points),
                list(position.yaku_masks),
                list(position.yaku),
                position.first_sage,
                position.turn,
                scoring.dekiyaku,
            )
        )
    totals = [0] * count
    runs = [0] * count
    for index in range(budget):
        slot = index % count
        played = worlds[index // count % len(worlds)].copy()
        hp.apply(played, moves[slot], position.drawn)
        hp.roll_out(played)
        runs[slot] += 1
        totals[slot] += hp.net_of(
            scoring, played.ended, played.caller, played.masks, played.points,
            played.yaku_masks, played.first_sage,
        )  # fmt: skip
    values = [total / run for total, run in zip(totals, runs, strict=True)]
    return moves[values.index(max(values))]


def old_decide(state: hh.State, seat: int, dice: Dice) -> hh.Action | None:
    """``hp.decide`` with :func:`old_search` (the rules of thumb are unchanged)."""
    moves = hh.legal_actions(state, seat)
    if not moves or state.phase not in hp.SEARCHED:
        return hp.decide(state, seat, dice)
    return old_search(state, seat, moves, dice.roll(hp.SEED_SIDES))


def paired(values: list[float]) -> tuple[float, float]:
    """The mean of paired differences and its standard error."""
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return statistics.fmean(values), spread / math.sqrt(len(values))


def compare(rounds: int, seed: int) -> int:
    """Old against new, each against greedy on the same deals (see the module notes)."""
    out = sys.stdout.write
    out(
        f"Nuki Hachi-hachi computer, old ({OLD_SAMPLES} rollouts over {OLD_SAMPLES // 2} "
        f"worlds) against new (work of {hp.SAMPLES} rollouts, worlds by candidates), each "
        f"against greedy on the same {rounds} deals (seed {seed}); load average "
        f"{os.getloadavg()[0]:.2f} at the start\n"
    )
    tallies: dict[str, Tally] = {"old": Tally(), "new": Tally()}
    cpu: dict[str, list[float]] = {"old": [], "new": []}

    def timed(name: str, decide: Decide) -> Decide:
        def run(state: hh.State, seat: int, dice: Dice) -> hh.Action | None:
            started = time.process_time()
            action = decide(state, seat, dice)
            if state.phase in hp.SEARCHED:
                cpu[name].append((time.process_time() - started) * 1000)
            return action

        return run

    deciders = {"old": timed("old", old_decide), "new": timed("new", hp.decide)}
    started = time.perf_counter()
    try:
        for index in range(rounds):
            for name, decide in deciders.items():
                play_round(index, seed, decide, hp.greedy_decide, tallies[name])
    except IllegalMove as refused:
        out(f"NOT VALID: the engine refused a decision ({refused})\n")
        return 2
    old, new = tallies["old"].nets, tallies["new"].nets
    for name in ("old", "new"):
        line, _clear = results(tallies[name].nets)
        times = cpu[name]
        out(
            f"  {name}: {line}; CPU a searched decision mean {statistics.fmean(times):.1f} ms "
            f"(p50 {percentile(times, 0.5):.1f}, p99 {percentile(times, 0.99):.1f}, "
            f"{len(times)} decisions)\n"
        )
    won, won_se = paired([float(b > 0) - float(a > 0) for a, b in zip(old, new, strict=True)])
    net, net_se = paired([float(b - a) for a, b in zip(old, new, strict=True)])
    ratio = statistics.fmean(cpu["new"]) / statistics.fmean(cpu["old"])
    out(
        f"  new − old: rounds won {won:+.1%} ± {won_se:.1%} (paired standard error), net "
        f"{net:+.2f} ± {net_se:.2f} points a round; CPU a searched decision new/old "
        f"{ratio:.0%}; wall time {time.perf_counter() - started:.0f} s\n"
    )
    return 0


def results(nets: list[int]) -> tuple[str, bool]:
    """A line of figures and whether both intervals lie above even."""
    wins = sum(net > 0 for net in nets)
    low, high = wilson(wins, len(nets))
    mean, half = mean_interval(nets)
    evens = sum(net == 0 for net in nets)
    line = (
        f"rounds won {wins / len(nets):.1%} [{low:.1%}, {high:.1%}] "
        f"({evens} at 0); net {mean:+.1f} ± {half:.1f} points a round"
    )
    return line, low > 0.5 and mean - half > 0


def timing(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 0.5):.2f} / p99 {percentile(values, 0.99):.2f} / "
        f"max {max(values):.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1000, help="seeded rounds per opponent")
    parser.add_argument("--budget", type=int, default=hp.SAMPLES, help="rollouts a decision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", choices=["random", "greedy", "both"], default="both")
    parser.add_argument("--compare", action="store_true", help="old search against new")
    args = parser.parse_args()
    if args.compare:
        return compare(args.rounds, args.seed)
    out = sys.stdout.write
    budget = args.budget

    def computer(state: hh.State, seat: int, dice: Dice) -> hh.Action | None:
        return hp.decide(state, seat, dice, samples=budget)

    opponents: list[tuple[str, Decide]] = []
    if args.opponent in ("random", "both"):
        opponents.append(("random", hp.random_decide))
    if args.opponent in ("greedy", "both"):
        opponents.append(("greedy", hp.greedy_decide))
    load = os.getloadavg()[0]
    out(
        f"Nuki Hachi-hachi computer: {args.rounds} seeded rounds per opponent (seed "
        f"{args.seed}), {budget} rollouts a decision; load average {load:.2f} at the start\n"
    )
    search = Tally()
    started = time.perf_counter()
    try:
        for name, opponent in opponents:
            mine, baseline = Tally(), Tally()
            for index in range(args.rounds):
                play_round(index, args.seed, computer, opponent, mine)
                play_round(index, args.seed, hp.greedy_decide, opponent, baseline)
            line, clear = results(mine.nets)
            base_line, _ = results(baseline.nets)
            out(
                f"  vs {name}: {line} — clear margin: {'MET' if clear else 'NOT MET'}\n"
                f"    baseline, greedy in its seat on the same deals: {base_line}\n"
            )
            search.searched_ms += mine.searched_ms
            for count, times in mine.by_candidates.items():
                search.by_candidates.setdefault(count, []).extend(times)
            search.all_ms += mine.all_ms
            search.act_ms += mine.act_ms + baseline.act_ms
    except IllegalMove as refused:
        out(f"NOT VALID: the engine refused a decision ({refused})\n")
        return 2
    slowest = max(search.searched_ms)
    fast_enough = percentile(search.searched_ms, 0.99) <= TIME_GOAL_MS and slowest <= TIME_GOAL_MS
    out(
        f"  searched decisions ({len(search.searched_ms)}): {timing(search.searched_ms)} — "
        f"goal ≤ {TIME_GOAL_MS:.0f} ms: {'MET' if fast_enough else 'NOT MET'}\n"
        f"  all the computer's decisions ({len(search.all_ms)}): {timing(search.all_ms)}\n"
        f"  baseline, same run, the engine's act ({len(search.act_ms)} actions): "
        f"{timing(search.act_ms)}\n"
        f"  wall time {time.perf_counter() - started:.0f} s\n"
    )
    out(landing_report(search, os.getloadavg()[0]))
    return 0


def landing_report(search: Tally, load: float) -> str:
    assert HACHIHACHI.computer is not None
    moment_ms = HACHIHACHI.computer.thinking_seconds * 1000
    times = search.all_ms
    over = sum(took > moment_ms for took in times)
    slowest = max(times)
    met = over == 0 and slowest <= moment_ms / 2
    lines = [
        f"  landing moment {moment_ms:.0f} ms after a decision began; every decision "
        f"({len(times)}): p50 {percentile(times, 0.5):.0f} / p90 {percentile(times, 0.9):.0f}"
        f" / p99 {percentile(times, 0.99):.0f} / p99.9 {percentile(times, 0.999):.0f} / "
        f"max {slowest:.0f} ms = {slowest / moment_ms:.0%} of the moment; {over} overran "
        f"(landed at the next multiple); load average {load:.2f} at the end — goal "
        f"(none overran, slowest ≤ half): {'MET' if met else 'NOT MET'}\n",
        "  searched decisions by candidates (the same work): "
        + ", ".join(
            f"{count}: n {len(found)} p50 {percentile(found, 0.5):.0f} max {max(found):.0f}"
            for count, found in sorted(search.by_candidates.items())
        )
        + " ms\n",
    ]
    return "".join(lines)


if __name__ == "__main__":
    sys.exit(main())
