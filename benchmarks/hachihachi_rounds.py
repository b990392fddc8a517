"""Random full Nuki Hachi-hachi rounds per second on one core (goal: at least 500/s).

Each round, from its deal to its scoring, is played by random legal actions: at every
decision the player in turn picks uniformly among ``legal_actions`` (so the figure
includes listing them), with a seeded ``random.Random`` as the dice (the deal's shuffle).
Matches of 48 rounds are played back to back under the default house rules (mizuten on,
automatic claims, carry-over) at a 2-, 3- or 4-seat table.

Printed beside it, measured in the same run on the same core, a baseline: random
4-player Nihakyu games per second (benchmarks/nihakyu_games.py's loop with the same
seeded dice; that script's own goal is 2 000/s with the fair dice), so a figure taken on
a busy or slower machine can be read against it. Times
are the process's CPU time (on a shared machine the wall clock counts other processes).

    python benchmarks/hachihachi_rounds.py [--rounds N] [--seats 2|3|4] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import hachihachi as hh
from bot.games import nihakyu
from tests.support.dice import SeededDice

GOAL = 500
PLAYERS = [101, 102, 103, 104]


def play_rounds(count: int, seats: int, seed: int) -> tuple[int, int]:
    """Play ``count`` rounds; returns (rounds, decisions)."""
    rules = hh.Rules(seated_players=seats, rounds=48)
    players = PLAYERS[:seats]
    dice = SeededDice(seed)
    rng = random.Random(seed)
    choice = rng.choice
    act = hh.act
    legal = hh.legal_actions
    rounds = decisions = 0
    state = hh.start(rules, players, dice)
    while rounds < count:
        if state.finished:
            state = hh.start(rules, players, dice)
        before = state.rounds_played
        turn = state.turn
        assert turn is not None
        state, _ = act(state, turn, choice(legal(state, turn)), dice)
        decisions += 1
        rounds += state.rounds_played - before
    return rounds, decisions


def nihakyu_games(count: int) -> int:
    rules = nihakyu.Rules(ante=10)
    dice = SeededDice(7)
    roll = nihakyu.Roll()
    for _ in range(count):
        state = nihakyu.start(rules, PLAYERS, dice)
        while not state.finished:
            for player in nihakyu.standing(state):
                if player not in state.choices and not state.finished:
                    state, _ = nihakyu.act(state, player, roll, dice)
    return count


def timed(work: Any, *args: Any) -> tuple[Any, float]:
    started = time.process_time()
    result = work(*args)
    return result, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5000)
    parser.add_argument("--seats", type=int, choices=[2, 3, 4], default=2)
    parser.add_argument("--baseline-games", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="print the top of a profile")
    args = parser.parse_args()

    play_rounds(100, args.seats, 0)  # warm-up
    nihakyu_games(50)
    (rounds, decisions), elapsed = timed(play_rounds, args.rounds, args.seats, 1)
    games, base_elapsed = timed(nihakyu_games, args.baseline_games)
    rate = rounds / elapsed
    base_rate = games / base_elapsed
    verdict = "MET" if rate >= GOAL else "NOT MET"
    sys.stdout.write(
        f"hachihachi: {rounds} random full rounds ({args.seats} seated) in {elapsed:.2f} s "
        f"of CPU time on one core\n"
        f"  {rate:,.0f} rounds/s ({decisions / rounds:.1f} decisions a round, "
        f"{decisions / elapsed:,.0f} decisions/s)\n"
        f"  goal ≥ {GOAL:,} rounds/s: {verdict}\n"
        f"baseline, same run: {base_rate:,.0f} random 4-player Nihakyu games/s "
        f"(its own goal ≥ 2,000/s)\n"
    )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(play_rounds, args.rounds, args.seats, 2)
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
