"""The computer players head to head, and their time per decision (issue 15).

Nuki Hachi-hachi: the search computer against a uniform random legal player and against
the greedy "capture the most points now" player, one-round matches at 0 coins a kan, the
computer's seat alternating between dealer and non-dealer; reported as its share of
rounds won (a round's net points above 0) and its mean net points a round, each with a
95% interval. The Strength Duel: the equilibrium computer against a random bidder and a
"bid one more than last time" bidder. Nihakyu: the DP computer against an always-Roll
player (Shadow Step and Kage's Endurance on). Time per decision, p50 and p99, beside the
engine's own ``act`` on the same positions (the baseline, measured in the same run).

    python benchmarks/computer_players.py [--rounds 1000] [--samples N] [--games 2000]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.fairness import FairDice
from bot.games import hachihachi as hh
from bot.games import nihakyu
from bot.games import strength_duel as duel
from bot.players import hachihachi as hp
from bot.players import nihakyu as nihakyu_player
from bot.players import strength_duel as duel_player

A, B = 1, 2
Decide = Callable[[Any, int, Any], Any]


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval."""
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return mean, 1.96 * spread / math.sqrt(len(values))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def hachihachi(opponent: Decide, rounds: int, samples: int) -> dict[str, Any]:
    rules = hh.Rules(stake_per_kan=0, rounds=1)
    nets: list[float] = []
    decide_ms: list[float] = []
    act_ms: list[float] = []
    for game in range(rounds):
        dice = FairDice(game.to_bytes(4, "big") * 8)
        computer = A if game % 2 == 0 else B
        state = hh.start(rules, [A, B], dice)
        while not state.finished:
            seat = state.turn
            assert seat is not None
            started = time.perf_counter()
            if seat == computer:
                action = hp.decide(state, seat, dice, samples=samples)
                decide_ms.append((time.perf_counter() - started) * 1000)
            else:
                action = opponent(state, seat, dice)
            started = time.perf_counter()
            state, _ = hh.act(state, seat, action, dice)
            act_ms.append((time.perf_counter() - started) * 1000)
        nets.append(state.scores[computer])
    return {"nets": nets, "decide_ms": decide_ms, "act_ms": act_ms}


def duel_games(opponent: Callable[[duel.State, int, FairDice], int], games: int) -> list[float]:
    """The equilibrium computer's result a game (win 1, draw ½, loss 0)."""
    results = []
    for game in range(games):
        dice = FairDice(b"duel" + game.to_bytes(4, "big") * 7)
        state = duel.start(duel.Rules(), [A, B], dice)
        while not state.finished:
            own = duel_player.decide(state, A, dice)
            assert isinstance(own, duel.Bid)
            state, _ = duel.act(state, A, own, dice)
            state, _ = duel.act(state, B, duel.Bid(amount=opponent(state, B, dice)), dice)
        results.append(0.5 if state.draw else 1.0 if state.winner == A else 0.0)
    return results


def random_bid(state: duel.State, seat: int, dice: FairDice) -> int:
    return dice.roll(state.strength[seat] + 1) - 1


def one_more(state: duel.State, seat: int, dice: FairDice) -> int:
    last = state.history[-1].bids[A] if state.history else 2
    return min(state.strength[seat], last + 1)


def nihakyu_games(games: int) -> tuple[list[float], list[float]]:
    rules = nihakyu.Rules(ante=0, shadow_step=True, kage_endurance=True, starting_stamina=100)
    results, decide_ms = [], []
    for game in range(games):
        dice = FairDice(b"nihakyu" + game.to_bytes(4, "big") * 6 + b"x")
        state = nihakyu.start(rules, [A, B] if game % 2 == 0 else [B, A], dice)
        while not state.finished:
            if state.phase == "choosing":
                if A not in state.choices:
                    started = time.perf_counter()
                    action = nihakyu_player.decide(state, A, dice)
                    decide_ms.append((time.perf_counter() - started) * 1000)
                    assert action is not None
                    state, _ = nihakyu.act(state, A, action, dice)
                if not state.finished and state.phase == "choosing" and B not in state.choices:
                    state, _ = nihakyu.act(state, B, nihakyu.Roll(), dice)
            else:
                state, _ = nihakyu.act(state, None, nihakyu.Deadline(), dice)
        results.append(1.0 if state.winner == A else 0.0)
    return results, decide_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1000, help="Hachi-hachi rounds per opponent")
    parser.add_argument("--samples", type=int, default=hp.SAMPLES)
    parser.add_argument("--games", type=int, default=2000, help="duel and Nihakyu games")
    args = parser.parse_args()
    out = sys.stdout.write
    out(f"Nuki Hachi-hachi: {args.rounds} seeded rounds per opponent, {args.samples} samples\n")
    timings: dict[str, list[float]] = {"decide": [], "act": []}
    for name, opponent in (("random", hp.random_decide), ("greedy", hp.greedy_decide)):
        result = hachihachi(opponent, args.rounds, args.samples)
        nets = result["nets"]
        wins = [1.0 if net > 0 else 0.0 for net in nets]
        share, share_ci = interval(wins)
        mean, mean_ci = interval(nets)
        out(
            f"  vs {name:<6}: wins {share:.1%} ± {share_ci:.1%} of rounds; "
            f"net {mean:+.1f} ± {mean_ci:.1f} points a round\n"
        )
        timings["decide"] += result["decide_ms"]
        timings["act"] += result["act_ms"]
    out(
        f"  decision: p50 {percentile(timings['decide'], 0.5):.1f} ms, "
        f"p99 {percentile(timings['decide'], 0.99):.1f} ms, "
        f"max {max(timings['decide']):.1f} ms (budget 300 ms); "
        f"baseline engine act p50 {percentile(timings['act'], 0.5):.2f} ms\n"
    )
    for name, bidder in (("a random bidder", random_bid), ("one-more bidder", one_more)):
        share, ci = interval(duel_games(bidder, args.games))
        out(f"Strength Duel vs {name}: the equilibrium scores {share:.1%} ± {ci:.1%}\n")
    results, decide_ms = nihakyu_games(args.games // 4)
    share, ci = interval(results)
    out(
        f"Nihakyu (100 Stamina, Shadow Step and Kage on) vs always-Roll: wins {share:.1%} "
        f"± {ci:.1%}; decision p50 {percentile(decide_ms, 0.5):.1f} ms, "
        f"p99 {percentile(decide_ms, 0.99):.1f} ms\n"
    )


if __name__ == "__main__":
    main()
